//! `gridclash odds`: the exact odds of one attack, every die and modifier listed.

use std::process::ExitCode;
use std::time::Instant;

use gridclash::battle::Battle;
use gridclash::battle::command::DefenseChoice;
use gridclash::battle::command::{AttackOrder, AttackTarget};
use gridclash::battle::components::{Cards, CombatantId, Controller, Identity, Position, Square};
use gridclash::dice::DiceSource;

use super::load_scenario;
use crate::OddsArgs;

/// The exact chances of a Digimon Clash action, from the same check rolls the Clash makes.
pub fn print_clash_odds(
    d: &gridclash::ruleset::digimon::DigimonData,
    m: gridclash::ruleset::digimon::ClashMove,
    me: &gridclash::battle::fighter::Fighter,
    t: &gridclash::battle::fighter::Fighter,
) {
    use gridclash::battle::family::digimon::grapple as g;
    use gridclash::battle::odds::RollSummary;
    use gridclash::ruleset::digimon::ClashMove;
    match m {
        ClashMove::Start => {
            out!(
                "  Clash: {} controls {:.2}% (the greater margin over its TN, then Body, then the one who started it)",
                me.identity.name,
                100.0 * g::control_chance(d, me, t, me.id)
            );
            for (who, opp) in [(me, t), (t, me)] {
                out!(
                    "  {}'s Clash check against TN {} ({}'s Agility):",
                    who.identity.name,
                    g::tn(d, opp),
                    opp.identity.name
                );
                print_terms(&RollSummary::of(&g::check_spec(d, who, opp)));
            }
        }
        ClashMove::Pin => {
            let (a, b) = g::pin_specs(d, me, t);
            out!(
                "  Pin succeeds {:.2}% (the controller's roll meets or beats the other's):",
                100.0 * g::pin_chance(d, me, t)
            );
            print_terms(&RollSummary::of(&a));
            out!("  against");
            print_terms(&RollSummary::of(&b));
        }
        ClashMove::End | ClashMove::Throw => {}
    }
}

/// A roll's dice and modifiers, one a line, as every odds roll is printed.
pub fn print_terms(r: &gridclash::battle::odds::RollSummary) {
    for t in &r.terms {
        match (&t.die, t.value) {
            (Some(d), _) => out!("      {d:>6}  {}", t.label),
            (None, Some(v)) => out!("      {v:>+6}  {}", t.label),
            _ => {}
        }
    }
}

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

/// `gridclash odds` for a power-stages ruleset: the one outcome of taking the attack and of
/// blocking it. A what-if: the attacker is given the card if it does not hold it, and for
/// `--defense block` the target is given the matching defense card.
pub fn stage_odds(
    args: &OddsArgs,
    battle: &mut Battle,
    attacker: CombatantId,
    target: CombatantId,
    defense: DefenseChoice,
) -> Result<ExitCode, String> {
    let rules = battle.rules().clone();
    let data = rules.stages().ok_or("not a power-stages ruleset")?;
    let kind =
        gridclash::battle::family::stages::attack_kind(data, &args.maneuver).ok_or_else(|| {
            let ids: Vec<&str> = rules
                .attacks
                .profiles
                .iter()
                .map(|p| p.id.as_str())
                .collect();
            format!(
                "unknown attack card `{}`; the attacks are: {}",
                args.maneuver,
                ids.join(", ")
            )
        })?;
    let mut notes = Vec::new();
    let block = kind
        .blocked_by()
        .and_then(|k| data.combat.cards.iter().find(|c| c.kind == k))
        .map(|c| c.id.clone());
    {
        let world = battle.world_mut();
        let mut q = world.query::<(&CombatantId, &Identity, &mut Cards)>();
        for (id, who, mut cards) in q.iter_mut(world) {
            if *id == attacker
                && args.maneuver != gridclash::ruleset::stages::FINAL_PHYSICAL
                && cards.count(&args.maneuver) == 0
            {
                *cards.hand.entry(args.maneuver.clone()).or_default() += 1;
                notes.push(format!("as if {} held {}", who.name, args.maneuver));
            }
            if *id == target && defense == DefenseChoice::Parry {
                let holds = cards.hand.keys().any(|c| {
                    data.card(c)
                        .is_some_and(|d| Some(d.kind) == kind.blocked_by())
                });
                if let (false, Some(b)) = (holds, &block) {
                    *cards.hand.entry(b.clone()).or_default() += 1;
                    notes.push(format!("as if {} held {b}", who.name));
                }
            }
        }
    }
    let order = AttackOrder {
        attacker,
        profile: args.maneuver.clone(),
        technique: None,
        target: AttackTarget::Combatant(target),
        wager: 0,
        element: None,
        push: None,
        sneak: false,
    };
    let preview = battle.preview(&order).map_err(|e| e.to_string())?;
    let names = battle.names();
    let answers = preview
        .odds
        .targets
        .iter()
        .find(|v| v.first().is_some_and(|t| t.target == target))
        .ok_or("the attack does not reach the target")?;
    let answer = |c: DefenseChoice| answers.iter().find(|o| o.defense == c);
    let (Some(take), Some(blocked)) = (answer(DefenseChoice::Dodge), answer(DefenseChoice::Parry))
    else {
        return Err("the attack does not reach the target".into());
    };
    let chosen = if defense == DefenseChoice::Parry {
        blocked
    } else {
        take
    };
    if args.json {
        let v = serde_json::json!({
            "attacker": names.get(&attacker),
            "target": names.get(&target),
            "maneuver": preview.odds.maneuver,
            "defense": if defense == DefenseChoice::Parry { "block" } else { "take" },
            "stage_cost": preview.odds.ki_cost,
            "what_if": notes,
            "hit_chance": chosen.hit_chance,
            "stage_loss": chosen.stage_loss,
            "life_cards_lost": chosen.damage_distribution,
            "expected_life_cards": chosen.expected_damage,
            "defeat_chance": chosen.defeat_chance,
            "why": chosen.automatic_hit,
            "amount": preview.odds.wound,
        });
        out!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let pct = |p: f64| format!("{:.1}%", p * 100.0);
    out!(
        "{} -> {}: {}, costs {} power stage(s){}",
        names.get(&attacker).cloned().unwrap_or_default(),
        names.get(&target).cloned().unwrap_or_default(),
        preview.odds.maneuver,
        preview.odds.ki_cost,
        if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join("; "))
        }
    );
    for t in &preview.odds.wound.terms {
        if let Some(v) = t.value {
            out!("      {v:>+6}  {}", t.label);
        }
    }
    for (title, o) in [("Take it", take), ("Block", blocked)] {
        out!(
            "  {title}: {} ({}); loses {} power stage(s) and {} life card(s); defeats {}",
            if o.hit_chance > 0.0 {
                "lands"
            } else {
                "stopped"
            },
            o.automatic_hit.clone().unwrap_or_default(),
            o.stage_loss.unwrap_or(0),
            o.expected_damage,
            pct(o.defeat_chance)
        );
    }
    Ok(ExitCode::SUCCESS)
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
/// roll, from the same assembly the battle resolves it with.
pub fn odds(args: &OddsArgs) -> Result<ExitCode, String> {
    let loaded = load_scenario(&args.scenario)?;
    let rules = loaded.rules.clone();
    let mut battle = Battle::new(
        rules.clone(),
        &loaded.setup(Controller::default()),
        DiceSource::seeded(1),
    )
    .map_err(|e| e.to_string())?;
    let attacker = unit_id(&mut battle, &args.attacker)?;
    let target = unit_id(&mut battle, &args.target)?;
    let d20_rules = rules.d20().is_some();
    let defense = match args.defense.as_str() {
        "take" if d20_rules => DefenseChoice::Take,
        "dive" if d20_rules => DefenseChoice::Dive,
        "prone" if d20_rules => DefenseChoice::DropProne,
        "dodge" | "take" => DefenseChoice::Dodge,
        "block" if rules.action_points().is_some() => DefenseChoice::Block,
        "parry" | "block" => DefenseChoice::Parry,
        "deflect" => DefenseChoice::Deflect,
        other => {
            return Err(format!(
                "--defense is dodge or parry (DBU), take or block (power stages), dodge, block or deflect (shinobi), dodge, block, take, dive or prone (d20), not `{other}`"
            ));
        }
    };
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
    if rules.stages().is_some() {
        return stage_odds(args, &mut battle, attacker, target, defense);
    }
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
    let t_at = fighters
        .iter()
        .find(|f| f.id == target)
        .and_then(|f| f.position)
        .ok_or("the target is not on the battlefield")?;
    me.position
        .ok_or("the attacker is not on the battlefield")?;
    let aim = gridclash::battle::menu::aim_target(&rules, &fighters, me, &profile, t_at, None)
        .ok_or("the target is not on the battlefield")?;
    let order = AttackOrder {
        attacker,
        profile,
        technique,
        target: aim,
        wager: args.wager,
        element: args.element.clone(),
        push: None,
        sneak: args.sneak,
    };
    let preview = battle.preview(&order).map_err(|e| e.to_string())?;
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
    // means taking it.
    let chosen = answers.iter().find(|o| o.defense == defense).or_else(|| {
        answers
            .iter()
            .find(|o| defense == DefenseChoice::Dodge && o.defense == DefenseChoice::Take)
    });
    let Some(chosen) = chosen else {
        let has: Vec<&str> = answers.iter().map(|o| o.defense.name()).collect();
        return Err(format!(
            "the target cannot answer with {}; it has: {}",
            defense.name(),
            has.join(", ")
        ));
    };
    let defense = chosen.defense;
    let roll_of = |c: DefenseChoice| {
        answers
            .iter()
            .find(|o| o.defense == c)
            .map(|o| &o.defense_roll)
    };
    let names = battle.names();
    if args.json {
        let v = serde_json::json!({
            "attacker": names.get(&attacker),
            "target": names.get(&target),
            "maneuver": preview.odds.maneuver,
            "defense": defense,
            "ki_cost": preview.odds.ki_cost,
            "wager": preview.odds.wager,
            "hit_chance": chosen.hit_chance,
            "critical_hit_chance": chosen.critical_hit_chance,
            "automatic_hit": chosen.automatic_hit,
            "expected_damage": chosen.expected_damage,
            "damage_distribution": chosen.damage_distribution.iter().map(|(d, p)| (d.to_string(), serde_json::json!(p))).collect::<serde_json::Map<String, serde_json::Value>>(),
            "threshold_chances": chosen.threshold_chances,
            "defeat_chance": chosen.defeat_chance,
            "category": chosen.category,
            "critical_category": chosen.critical_category,
            "soak_used": chosen.soak_used,
            "cover": chosen.cover,
            "difficulty": chosen.difficulty,
            "strike": chosen.strike,
            "dodge": roll_of(DefenseChoice::Dodge),
            "parry": roll_of(DefenseChoice::Parry),
            "block": roll_of(DefenseChoice::Block),
            "deflect": roll_of(DefenseChoice::Deflect),
            "dive": roll_of(DefenseChoice::Dive),
            "wound": preview.odds.wound,
            "targets": preview.odds.targets.iter().map(|v| serde_json::json!({
                "target": v.first().and_then(|d| names.get(&d.target)),
                "dodge": v.iter().find(|o| o.defense == DefenseChoice::Dodge),
                "parry": v.iter().find(|o| o.defense == DefenseChoice::Parry),
                "answers": v,
            })).collect::<Vec<_>>(),
        });
        out!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let pct = |p: f64| format!("{:.1}%", p * 100.0);
    let d20 = rules.d20().is_some();
    let undefended = d20
        && preview
            .context
            .targets
            .iter()
            .find(|t| t.id == target)
            .is_some_and(|t| t.defenses.is_empty());
    // d20: a grenade's odds are its blast's: the chance of being caught, a Roll check for half.
    let grenade = rules.d20().and_then(|d| {
        Some((
            d,
            gridclash::battle::family::d20::grenade::of(d, &order.profile)?,
        ))
    });
    if d20 {
        out!(
            "{} -> {}: {} ({})",
            names.get(&attacker).cloned().unwrap_or_default(),
            names.get(&target).cloned().unwrap_or_default(),
            preview.odds.maneuver,
            if grenade.is_some() {
                "a grenade aimed at its square: no defense; everyone the blast catches makes a Roll check for half"
            } else if undefended {
                "no defense possible: a shot beyond melee range"
            } else {
                defense.name()
            },
        );
    } else if rules.digimon().is_some() {
        out!(
            "{} -> {}: {} ({})",
            names.get(&attacker).cloned().unwrap_or_default(),
            names.get(&target).cloned().unwrap_or_default(),
            preview.odds.maneuver,
            if chosen.automatic_hit.is_some() {
                "no Dodge"
            } else {
                defense.name()
            },
        );
    } else if rules.action_points().is_some() {
        out!(
            "{} -> {}: {} ({}), chakra cost {}",
            names.get(&attacker).cloned().unwrap_or_default(),
            names.get(&target).cloned().unwrap_or_default(),
            preview.odds.maneuver,
            defense.name(),
            preview.odds.ki_cost,
        );
    } else {
        out!(
            "{} -> {}: {} ({:?}), Ki cost {} + wager {}",
            names.get(&attacker).cloned().unwrap_or_default(),
            names.get(&target).cloned().unwrap_or_default(),
            preview.odds.maneuver,
            defense,
            preview.odds.ki_cost,
            preview.odds.wager
        );
    }
    let digimon = rules.digimon().is_some();
    let mut rolls = vec![("Strike", &chosen.strike)];
    if let Some(dc) = &chosen.difficulty {
        rolls.push(("Difficulty", dc));
    }
    if grenade.is_some() {
        rolls.push((
            "Roll check (half the blast when it meets the DC)",
            &chosen.defense_roll,
        ));
    } else if !undefended && !matches!(defense, DefenseChoice::Take | DefenseChoice::DropProne) {
        rolls.push((defense.name(), &chosen.defense_roll));
    }
    if digimon && chosen.automatic_hit.is_some() {
        rolls.clear();
    }
    if !(digimon && preview.odds.wound.max == 0) {
        rolls.push((
            if grenade.is_some() {
                "Effect Points of the blast"
            } else if d20 {
                "Effect Points before the Success Value"
            } else if digimon {
                "Damage before Armor"
            } else {
                "Wound"
            },
            &preview.odds.wound,
        ));
    }
    if let Some(d) = rules.digimon()
        && let Some((a, _)) = gridclash::battle::family::digimon::attack_of(d, &order.profile)
        && let Some(m) = a.clash
        && let Some(t) = battle.fighter(target)
    {
        print_clash_odds(d, m, me, &t);
    }
    for (title, r) in rolls {
        if digimon && title == "Strike" {
            out!(
                "  Accuracy: mean {:.2}, {}..{}; every 6 rolls another d6",
                r.mean,
                r.min,
                r.max
            );
        } else if digimon {
            out!(
                "  {title}: mean {:.2}, {}..{}; every 6 rolls another d6",
                r.mean,
                r.min,
                r.max
            );
        } else if d20 && title == "Strike" {
            out!(
                "  {title}: mean {:.2}, {}..{}; a natural 1 always fails, a natural 20 adds another d20",
                r.mean,
                r.min,
                r.max
            );
        } else if rules.action_points().is_some() {
            // No criticals or botches in this chapter.
            out!("  {title}: mean {:.2}, {}..{}", r.mean, r.min, r.max);
        } else {
            out!(
                "  {title}: mean {:.2}, {}..{}; critical on {}, botch on {} (-{})",
                r.mean,
                r.min,
                r.max,
                r.critical_target
                    .map_or("never".into(), |c| format!("{c}+")),
                if r.botch_range == 0 {
                    "never".into()
                } else {
                    format!("{} or less", r.botch_range)
                },
                r.botch_penalty
            );
        }
        print_terms(r);
        for t in &r.critical_dice {
            out!(
                "      {:>6}  {} (on a Critical Result)",
                t.die.clone().unwrap_or_default(),
                t.label
            );
        }
        if r.per_hit != 1 {
            out!("      x{}  damage per hit", r.per_hit);
        }
        for d in &r.dropped {
            out!("      dropped: {d}");
        }
    }
    if let Some(why) = &chosen.automatic_hit {
        out!("  Hits automatically: {why}");
    }
    if rules.action_points().is_some() {
        let tc = preview.context.targets.iter().find(|t| t.id == target);
        let mut notes = vec![if rules.dice.attacker_wins_ties {
            "the attacker wins ties".to_string()
        } else {
            "the defender wins ties".to_string()
        }];
        if let Some((c, from)) = tc.and_then(|t| t.miss_chance.as_ref()) {
            notes.push(format!("concealment {c}% ({from})"));
        }
        if let Some(a) = tc.and_then(|t| t.absorb.as_ref()) {
            notes.push(format!(
                "partial cover: {} at {} absorbs up to {} ({}% of hits)",
                a.name, a.at, a.left, a.chance
            ));
        }
        if let Some((won, _)) = tc.and_then(|t| t.sneak.as_ref()) {
            notes.push(format!(
                "sneak contest won {:.1}% (-5 to every defense)",
                won * 100.0
            ));
        }
        if let Some(k) = tc.and_then(|t| t.knockback.as_ref()) {
            let mut what = format!("a hit knocks it to {}", k.to);
            if let Some((slam, why)) = &k.slam {
                what.push_str(&format!(", slam {slam} ({why})"));
            }
            if let Some(f) = &k.fall {
                what.push_str(&format!(", a {} ft fall", f.feet));
            }
            notes.push(what);
        }
        if d20 {
            notes.push(format!("critical {}", pct(chosen.critical_hit_chance)));
        }
        if digimon && preview.odds.wound.max > 0 {
            notes.push("damage is the roll minus Armor, at least 1".into());
        }
        if let (Some((d, g)), Some(dc)) = (&grenade, tc.and_then(|t| t.difficulty.as_ref())) {
            let (hit, miss, fumble) =
                gridclash::battle::family::d20::grenade::outcome_chances(d, g, me, dc.flat_total());
            out!(
                "  The throw: hit {} (a blast on a corner of the square), miss {} (lands off target, goes off at the start of the thrower's next turn), critical failure {} (goes off near the thrower at once)",
                pct(hit),
                pct(miss),
                pct(fumble)
            );
            out!(
                "  Caught now {}; expected damage {:.2} (Roll check DC {} for half, then armour)",
                pct(chosen.hit_chance),
                chosen.expected_damage,
                g.blast.save_dc
            );
        } else {
            out!(
                "  Hit {}; expected damage {:.2} ({})",
                pct(chosen.hit_chance),
                chosen.expected_damage,
                notes.join("; ")
            );
        }
    } else {
        out!(
            "  Hit {} (critical {}); expected damage {:.2}; {:?} damage, Soak {} taken off{}",
            pct(chosen.hit_chance),
            pct(chosen.critical_hit_chance),
            chosen.expected_damage,
            chosen.category,
            chosen.soak_used,
            if chosen.cover > 0 {
                format!(", cover {}", chosen.cover)
            } else {
                String::new()
            }
        );
    }
    for t in &chosen.threshold_chances {
        if t.already {
            out!("  {}: already reached", t.threshold);
        } else {
            out!("  Reaches {}: {}", t.threshold, pct(t.chance));
        }
    }
    out!("  Defeats: {}", pct(chosen.defeat_chance));
    // d20 hits explode into a long tail of rare totals: list what shows at two decimals and
    // sum up the rest.
    let shown = |p: f64| !(d20 || digimon) || p >= 0.00005;
    let mut cells: Vec<String> = chosen
        .damage_distribution
        .iter()
        .filter(|(_, p)| shown(**p))
        .map(|(d, p)| format!("{d}:{:.2}%", p * 100.0))
        .collect();
    let rare: Vec<(&i64, &f64)> = chosen
        .damage_distribution
        .iter()
        .filter(|(_, p)| !shown(**p))
        .collect();
    if let Some((top, _)) = rare.last() {
        let mass: f64 = rare.iter().map(|(_, p)| **p).sum();
        cells.push(format!(
            "(and {} rarer totals up to {top}: {:.4}% in all)",
            rare.len(),
            mass * 100.0
        ));
    }
    out!("  Damage distribution: {}", cells.join(" "));
    Ok(ExitCode::SUCCESS)
}
