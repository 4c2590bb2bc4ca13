//! `gridclash odds`: the exact odds of one attack, every die and modifier listed.

use std::process::ExitCode;
use std::time::Instant;

use gridclash::battle::Battle;
use gridclash::battle::command::AttackOrder;
use gridclash::battle::command::DefenseChoice;
use gridclash::battle::components::{
    Arrogance, CombatantId, ConditionInstance, Conditions, Controller, EncounterLog, HeldCharge,
    Position, Square,
};
use gridclash::battle::family::OddsWhatIf;
use gridclash::battle::odds_text::OddsAsk;
use gridclash::dice::DiceSource;
use gridclash::ruleset::ConditionKind;
use gridclash::ruleset::Rules;

use super::load_scenario;
use crate::OddsArgs;

/// A unit of a battle by number or name.
pub fn unit_id(battle: &mut Battle, key: &str) -> Result<CombatantId, String> {
    let fighters = battle.fighters();
    if let Ok(n) = key.parse::<u32>()
        && fighters.iter().any(|f| f.id.0 == n)
    {
        return Ok(CombatantId(n));
    }
    fighters
        .iter()
        .find(|f| f.identity.name.eq_ignore_ascii_case(key))
        .map(|f| f.id)
        .ok_or_else(|| {
            let known: Vec<String> = fighters
                .iter()
                .map(|f| format!("{} {}", f.id.0, f.identity.name))
                .collect();
            format!("no unit `{key}`; the units are: {}", known.join(", "))
        })
}

/// Parses `X,Y` into a square.
pub fn parse_square(text: &str) -> Result<Square, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("`{text}` is not X,Y"))?;
    let num = |s: &str| {
        s.trim()
            .parse::<i32>()
            .map_err(|e| format!("`{s}` in `{text}`: {e}"))
    };
    Ok(Square::new(num(x)?, num(y)?))
}

/// Prints the exact odds of one attack order in a scenario, with every die and modifier of each
/// roll, from the same assembly the battle resolves it with, in the ruleset's own terms.
pub fn odds(args: &OddsArgs) -> Result<ExitCode, String> {
    let loaded = load_scenario(&args.scenario)?;
    let rules = loaded.rules.clone();
    let family = gridclash::battle::family::of(&rules);
    let mut battle = Battle::new(
        rules.clone(),
        &loaded.setup(Controller::default()),
        DiceSource::seeded(1),
    )
    .map_err(|e| e.to_string())?;
    let attacker = unit_id(&mut battle, &args.attacker)?;
    let target = unit_id(&mut battle, &args.target)?;
    let defense = family.defense_word(&args.defense).ok_or_else(|| {
        format!(
            "--defense is dodge, parry or reflect (DBU), take or block (power stages), dodge, block or deflect (shinobi), dodge, block, take, dive or prone (d20), not `{}`",
            args.defense
        )
    })?;
    if let Some(square) = args.at {
        if !battle.map().bounds().contains(square) {
            return Err(format!("--at {square} is off the battlefield"));
        }
        let world = battle.world_mut();
        let mut q = world.query::<(&CombatantId, &mut Position)>();
        for (id, mut pos) in q.iter_mut(world) {
            if *id == attacker {
                pos.0 = Some(square);
            }
        }
    }
    if let Some(m) = super::maneuver_odds::word(&args.maneuver) {
        return super::maneuver_odds::odds(&mut battle, &rules, attacker, target, m, args.json);
    }
    let what_if = family.odds_what_if(
        battle.world_mut(),
        &OddsWhatIf {
            rules: &rules,
            attacker,
            target,
            maneuver: &args.maneuver,
            defense,
        },
    )?;
    let fighters = battle.fighters();
    let me = fighters
        .iter()
        .find(|f| f.id == attacker)
        .ok_or("no attacker")?;
    let (profile, technique) = match me.loadout.techniques.iter().find(|t| t.id == args.maneuver) {
        Some(t) => (t.profile.clone(), Some(t.id.clone())),
        None => (args.maneuver.clone(), None),
    };
    let def = rules
        .profile(&profile)
        .ok_or_else(|| format!("unknown maneuver `{}`", args.maneuver))?;
    let them = fighters
        .iter()
        .find(|f| f.id == target)
        .ok_or("no target")?;
    let t_at = them
        .position
        .ok_or("the target is not on the battlefield")?;
    me.position
        .ok_or("the attacker is not on the battlefield")?;
    let aim = gridclash::battle::menu::aim_target(&rules, &fighters, me, &profile, t_at, None)
        .ok_or("the target is not on the battlefield")?;
    let united = match &args.united {
        Some(ally) => Some(gridclash::battle::command::United {
            ally: unit_id(&mut battle, ally)?,
            wager: args.united_wager,
        }),
        None => None,
    };
    let order = AttackOrder {
        attacker,
        profile,
        technique,
        target: aim,
        wager: args.wager,
        element: args.element.clone(),
        push: None,
        sneak: args.sneak,
        called_shot: args.called_shot.clone(),
        united,
        discard: args.discard.clone(),
        power_attack: args.power_attack,
        aimed: gridclash::battle::command::AimedShot {
            armour_gaps: args.armour_gaps,
            through_cover: args.through_cover,
        },
    };
    let (fighters, preview) = if args.charges > 0 || args.arrogance.is_some() {
        if args.charges > 0 {
            stage_charges(&mut battle, &rules, &order, args.charges)?;
        }
        if let Some(asked) = args.arrogance {
            stage_arrogance(&mut battle, &rules, attacker, asked)?;
        }
        let preview = battle.preview(&order).map_err(|e| e.to_string())?;
        (battle.fighters(), preview)
    } else {
        let preview = battle.preview(&order).map_err(|e| e.to_string())?;
        (fighters, preview)
    };
    let me = fighters
        .iter()
        .find(|f| f.id == attacker)
        .ok_or("no attacker")?;
    let them = fighters
        .iter()
        .find(|f| f.id == target)
        .ok_or("no target")?;
    if let Some(n) = args.repeat {
        let started = Instant::now();
        for _ in 0..n.max(1) {
            std::hint::black_box(battle.preview(&order).map_err(|e| e.to_string())?);
        }
        let per = started.elapsed().as_secs_f64() * 1e6 / f64::from(n.max(1));
        eprintln!(
            "{per:.1} µs per attack's odds (context assembly and every target's distributions, {n} runs)"
        );
    }
    let Some(answers) = preview
        .odds
        .targets
        .iter()
        .find(|v| v.first().is_some_and(|d| d.target == target))
    else {
        return Err(format!(
            "{} does not reach the target with {}",
            me.identity.name, def.name
        ));
    };
    // d20: a shot from beyond melee range is taken or dived from; `dodge` (the default)
    // means taking it. Shinobi: a Genjutsu's one answer is Gen Resist, which `dodge` means too.
    let chosen = answers.iter().find(|o| o.defense == defense).or_else(|| {
        answers.iter().find(|o| {
            defense == DefenseChoice::Dodge
                && matches!(o.defense, DefenseChoice::Take | DefenseChoice::Resist)
        })
    });
    let Some(chosen) = chosen else {
        let has: Vec<&str> = answers.iter().map(|o| o.defense.name()).collect();
        return Err(format!(
            "the target cannot answer with {}; it has: {}",
            defense.name(),
            has.join(", ")
        ));
    };
    let names = battle.names();
    let ask = OddsAsk {
        rules: &rules,
        attacker: me,
        target: them,
        order: &order,
        preview: &preview,
        answers,
        chosen,
        what_if: &what_if,
        names: &names,
    };
    if args.json {
        out!(
            "{}",
            serde_json::to_string_pretty(&family.odds_json(&ask)).map_err(|e| e.to_string())?
        );
    } else {
        for line in family.odds_lines(&ask) {
            out!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the attacker's Arrogant Declaration stands, for `--arrogance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ArroganceAsked {
    /// Just made: Superiority until the end of the attacker's next turn.
    Superior,
    /// Its Superiority over: the penalty for the rest of the encounter.
    Spent,
}

/// Gives the attacker its Arrogant Declaration as `asked` says, refusing a ruleset without
/// the maneuver.
fn stage_arrogance(
    battle: &mut Battle,
    rules: &Rules,
    attacker: CombatantId,
    asked: ArroganceAsked,
) -> Result<(), String> {
    if rules.actions.arrogant_declaration.is_none() {
        return Err(format!(
            "--arrogance: the {} ruleset has no Arrogant Declaration maneuver",
            rules.manifest.id
        ));
    }
    let world = battle.world_mut();
    let mut q = world.query::<(&CombatantId, &mut EncounterLog, &mut Conditions)>();
    for (id, mut log, mut conditions) in q.iter_mut(world) {
        if *id != attacker {
            continue;
        }
        log.arrogance = Some(Arrogance::Superior);
        conditions.remove(ConditionKind::Superiority);
        if asked == ArroganceAsked::Superior {
            conditions.0.push(ConditionInstance::until_ended(
                ConditionKind::Superiority,
                None,
                0,
            ));
        }
    }
    Ok(())
}

/// Gives the attacker `charges` Energy Charges held for `order`'s attack, as the Energy Charge
/// maneuver would have, refusing what the maneuver would refuse.
fn stage_charges(
    battle: &mut Battle,
    rules: &Rules,
    order: &AttackOrder,
    charges: u32,
) -> Result<(), String> {
    let Some(m) = &rules.attacks.energy_charge.maneuver else {
        return Err(format!(
            "--charges: the {} ruleset has no Energy Charge maneuver",
            rules.manifest.id
        ));
    };
    if charges > m.max_charges {
        return Err(format!(
            "--charges {charges}: an attack holds at most {} Energy Charges",
            m.max_charges
        ));
    }
    let me = battle.fighter(order.attacker).ok_or("no attacker")?;
    let (profile, _) =
        gridclash::battle::context::used_profile(rules, &me, order).map_err(|e| e.to_string())?;
    if !m.attack_types.contains(&profile.attack_type) {
        return Err(format!(
            "--charges: an Energy Charge feeds a {} attack, not {}",
            m.attack_types.join(" or "),
            profile.attack_type
        ));
    }
    let world = battle.world_mut();
    let mut q = world.query::<(&CombatantId, &mut EncounterLog)>();
    for (id, mut log) in q.iter_mut(world) {
        if *id == order.attacker {
            log.charge = Some(HeldCharge {
                profile: order.profile.clone(),
                technique: order.technique.clone(),
                charges,
            });
        }
    }
    Ok(())
}
