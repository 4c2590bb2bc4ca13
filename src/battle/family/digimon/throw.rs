//! The Clash's Throw: the thrown Digimon flies Body squares straight away and, when foes of the
//! thrower stand where it lands, it crashes into them as "a basic [Ranged] Attack, with a bonus
//! to the Damage and Accuracy equal to the thrower's CPU Value times three" (003:167).

use super::effects::{Landing, fall, land_damage};
use super::rolls::{defense_spec, hit_damage, is_tamer, stat};
use super::{add_stat, check};
use crate::battle::components::CombatantId;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::state::{Resolve, TargetState};
use crate::dice::{DiceGroup, RollKind, RollSpec, roll};
use crate::grid::{Field, Square, footprint};
use crate::ruleset::digimon::{ACC, ARM, BODY, CPU, DMG, DigimonData};

/// Where a push of `t` straight away from `from_who` ends, and who stands on the square that
/// stopped it short (nobody when it went the whole way or a wall stopped it).
pub struct PushPath<'a> {
    pub from: Square,
    pub to: Square,
    pub in_the_way: Vec<&'a Fighter>,
}

/// The path of a push of `steps` squares (Knockback, a Throw): straight away from `from_who`,
/// stopping before walls and anyone else in the way at its height (a flyer in the air is not
/// in the way of one on the ground). `None` when either is off the board.
pub fn push_path<'a>(
    field: &Field,
    all: &'a [Fighter],
    from_who: &Fighter,
    t: &Fighter,
    steps: u32,
) -> Option<PushPath<'a>> {
    let (from, at) = (from_who.position?, t.position?);
    let size = t.size.squares;
    let others: Vec<&Fighter> = all
        .iter()
        .filter(|o| o.id != t.id && !o.defeated() && super::height::melee_meets(t, o))
        .collect();
    let standing_on = |s: Square| -> Vec<&'a Fighter> {
        let mine = footprint(s, size);
        others
            .iter()
            .copied()
            .filter(|o| {
                o.position.is_some_and(|p| {
                    footprint(p, o.size.squares)
                        .iter()
                        .any(|sq| mine.contains(&sq))
                })
            })
            .collect()
    };
    let blocked = |s: Square| {
        footprint(s, size).iter().any(|sq| field.cost(sq).is_none()) || !standing_on(s).is_empty()
    };
    let to = crate::grid::push_destination(at, from, steps, blocked);
    let moved = (to.x - at.x).abs().max((to.y - at.y).abs());
    let (dx, dy) = ((at.x - from.x).signum(), (at.y - from.y).signum());
    let short = u32::try_from(moved).unwrap_or(0) < steps && (dx, dy) != (0, 0);
    let in_the_way = if short {
        standing_on(Square::new(to.x + dx, to.y + dy))
    } else {
        Vec::new()
    };
    Some(PushPath {
        from: at,
        to,
        in_the_way,
    })
}

/// The foes of `thrower` a Throw of `t` would crash into: those standing where the flight is
/// stopped short (ours: one foe is group enough; an ally or a wall in the way only stops it).
pub fn crash_targets<'a>(
    d: &DigimonData,
    field: &Field,
    all: &'a [Fighter],
    thrower: &Fighter,
    t: &Fighter,
) -> Vec<&'a Fighter> {
    let steps = throw_squares(d, thrower);
    let Some(path) = push_path(field, all, thrower, t, steps) else {
        return Vec::new();
    };
    let mut group: Vec<&Fighter> = path
        .in_the_way
        .into_iter()
        .filter(|o| o.side != thrower.side && o.id != thrower.id)
        .collect();
    group.sort_by_key(|o| o.id);
    group
}

/// How far a Throw sends its target: the thrower's Body in squares.
pub fn throw_squares(d: &DigimonData, thrower: &Fighter) -> u32 {
    u32::try_from(stat(d, thrower, BODY).max(0)).unwrap_or(0)
}

/// The bonus a crash adds to the Accuracy and Damage: the thrower's CPU times the ruleset's
/// factor (three in the text); `None` when the ruleset plays no crash.
fn crash_bonus(d: &DigimonData, thrower: &Fighter) -> Option<(i64, i64)> {
    let times = d.combat.clash.throw_into_group?;
    let cpu = stat(d, thrower, CPU);
    Some((cpu, cpu * times))
}

/// The crash's Accuracy roll: 3d6 + the thrower's Accuracy + CPU x3.
pub fn crash_strike_spec(d: &DigimonData, thrower: &Fighter) -> Option<RollSpec> {
    let (cpu, bonus) = crash_bonus(d, thrower)?;
    let times = d.combat.clash.throw_into_group?;
    let mut s = check(d, RollKind::Strike);
    add_stat(d, thrower, ACC, "Accuracy", &mut s);
    s.add(format!("Thrown into a group: CPU {cpu} x{times}"), bonus);
    Some(s)
}

/// The crash's damage roll before Armor: a basic attack's, its Damage raised by CPU x3 (a
/// Digimon rolls half its Damage in d6, so the bonus adds half as many dice).
pub fn crash_wound_spec(d: &DigimonData, thrower: &Fighter) -> Option<RollSpec> {
    let (cpu, bonus) = crash_bonus(d, thrower)?;
    let times = d.combat.clash.throw_into_group?;
    let c = &d.combat;
    let dmg = stat(d, thrower, DMG);
    let mut s = RollSpec::new(RollKind::Wound);
    if is_tamer(thrower) {
        s.add("Unarmed", 1);
        s.add("Damage (Str Mod + Fight / 3)", dmg);
        s.add(format!("Thrown into a group: CPU {cpu} x{times}"), bonus);
        return Some(s);
    }
    let total = dmg + bonus;
    let n = u32::try_from((total / 2).max(0)).unwrap_or(0);
    let g = DiceGroup {
        count: n,
        sides: c.die,
    };
    let label = format!(
        "Damage {dmg} + CPU {cpu} x{times} (thrown into a group) = {total} / 2 = {n}d{}",
        c.die
    );
    if c.exploding {
        s.add_exploding_dice(format!("{label}, {}s explode", c.die), g);
    } else {
        s.add_dice(label, g);
    }
    Some(s)
}

/// What a Throw of `t` crashing into the foes in the way is worth to the thrower: each foe's
/// chance of being hit times the mean damage it would take.
pub fn crash_worth(
    d: &DigimonData,
    field: &Field,
    all: &[Fighter],
    thrower: &Fighter,
    t: &Fighter,
) -> f64 {
    let (Some(strike), Some(wound)) = (crash_strike_spec(d, thrower), crash_wound_spec(d, thrower))
    else {
        return 0.0;
    };
    let group = crash_targets(d, field, all, thrower, t);
    if group.is_empty() {
        return 0.0;
    }
    let w = crate::dice::distribution(&wound);
    group
        .iter()
        .map(|o| {
            let chance = super::rolls::hit_chance(&strike, &defense_spec(d, o));
            let dealt = w.map(|x| hit_damage(d, o, x, 0, false)).mean();
            chance * dealt.min(o.life.current.max(0) as f64)
        })
        .sum()
}

/// The crash of a Throw into the foes in the way, rolled as a basic [Ranged] attack: one
/// Accuracy roll against each one's Dodge (each Dodge penalty grows by the ruleset's step, as
/// for any attack dodged), one damage roll, each hit foe taking it minus its Armor (at least 1)
/// through Temporary HP. Returns the foes as targets of the Throw, so the end of the attack
/// announces who is defeated.
pub fn crash(
    scene: (&crate::ruleset::Rules, &DigimonData),
    thrower: &Fighter,
    thrown: &Fighter,
    group: &[&Fighter],
    res: &mut Resolve,
) -> Vec<TargetState> {
    let (rules, d) = scene;
    let (Some(strike), Some(wound), false) = (
        crash_strike_spec(d, thrower),
        crash_wound_spec(d, thrower),
        group.is_empty(),
    ) else {
        return Vec::new();
    };
    let (dice, q, log) = (&mut *res.dice, &mut *res.q, &mut *res.log);
    let names: Vec<&str> = group.iter().map(|o| o.identity.name.as_str()).collect();
    log.push(BattleEvent::DigiNote {
        who: thrower.id,
        text: format!(
            "{} is thrown into {}: a basic [Ranged] attack by {}, CPU x{} to Accuracy and Damage.",
            thrown.identity.name,
            names.join(", "),
            thrower.identity.name,
            d.combat.clash.throw_into_group.unwrap_or(0)
        ),
    });
    let acc = roll(&strike, dice);
    log.push(BattleEvent::StrikeRolled {
        attacker: thrower.id,
        roll: acc.clone(),
    });
    let mut out = Vec::new();
    let mut hits = Vec::new();
    for o in group {
        let dodge = roll(&defense_spec(d, o), dice);
        let hit = acc.total >= dodge.total;
        log.push(BattleEvent::DefenseRolled {
            defender: o.id,
            roll: dodge.clone(),
        });
        log.push(BattleEvent::Clash {
            attacker: thrower.id,
            defender: o.id,
            strike: acc.total,
            defense: dodge.total,
            hit,
            automatic: None,
            attacker_wins_ties: true,
        });
        grow_dodge_penalty(rules, q, o.id, log);
        out.push(TargetState {
            id: o.id,
            defense: None,
            hit: Some(hit),
            damage: 0,
            counter: None,
            success: None,
            half: false,
            interceded: false,
        });
        if hit {
            hits.push((out.len() - 1, *o));
        }
    }
    if hits.is_empty() {
        return out;
    }
    let w = roll(&wound, dice);
    log.push(BattleEvent::WoundRolled {
        attacker: thrower.id,
        roll: w.clone(),
    });
    for (i, o) in hits {
        let Some(mut f) = q.one_mut(o.id) else {
            continue;
        };
        let damage = hit_damage(d, o, w.total, 0, false);
        out[i].damage = damage;
        land(
            (rules, d),
            (thrower, thrown, o),
            (w.total, damage),
            &mut f,
            &mut *dice,
            log,
        );
    }
    out
}

/// A crash's damage landing on one foe: the Damage event, Temporary HP first, then HP, and the
/// fall at 0 HP.
fn land(
    (rules, d): (&crate::ruleset::Rules, &DigimonData),
    (thrower, thrown, o): (&Fighter, &Fighter, &Fighter),
    (wound, damage): (i64, i64),
    f: &mut FighterQueryItem,
    dice: &mut crate::dice::DiceSource,
    log: &mut EventLog,
) {
    let armor = stat(d, o, ARM).max(0);
    let mut notes = vec![format!("Armor {armor}")];
    if wound - armor < 1 {
        notes.push("at least 1 from a successful Attack".into());
    }
    let raw = land_damage(
        rules,
        thrower.id,
        Landing {
            wound,
            armor,
            damage,
            notes,
            reason: &format!(
                "{} thrown into it by {}",
                thrown.identity.name, thrower.identity.name
            ),
        },
        f,
        log,
    );
    if raw <= 0 {
        fall(d, f, raw, dice, log);
    }
}

/// One more attack dodged this round: the stacking Dodge penalty grows.
fn grow_dodge_penalty(
    rules: &crate::ruleset::Rules,
    q: &mut crate::battle::snapshot::Fighters,
    who: CombatantId,
    log: &mut EventLog,
) {
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    let stacks = rules.tier(f.power.base_tier).diminishing_defense;
    if stacks == 0 {
        return;
    }
    f.defense.diminishing += stacks;
    let total = f.defense.diminishing;
    log.push(crate::battle::family::of(rules).dodge_penalty_event(who, stacks, total));
}
