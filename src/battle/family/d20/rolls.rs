//! The d20 family's rolls as specs: effect dice, criticals by margin, range difficulties,
//! flanking, full-round swings, the attack, defense, difficulty, effect and wound rolls, armour DR.

use super::without_natural_one;
use super::{add_stat, d20_base};
use crate::battle::command::DefenseChoice;
use crate::battle::components::{FullAttack, RoundLog};
use crate::battle::context::TargetContext;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::Fighter;
use crate::battle::fighter::FighterQueryItem;
use crate::dice::{DiceGroup, Dist, RollKind, RollSpec};
use crate::ruleset::d20::{
    CriticalRule, D20AttackDef, D20Data, D20Rules, EffectTable, Feat, WeaponClass, WeaponDef,
};
use crate::ruleset::shinobi::DefenseKind;
use std::collections::BTreeMap;

/// The most dice one hit rolls, whatever its Effect Points.
pub const MAX_EFFECT_DICE: u32 = 200;

/// Dice and flat bonus for `points` Effect Points: one die per `per_die` points, plus the
/// bonus of the highest remainder row at or below what is left ("27 … maps to 2d6+2").
pub fn effect_dice(t: &EffectTable, points: i64) -> (u32, i64) {
    let points = points.max(0);
    let per = t.per_die.max(1);
    // A guard against absurd data (a stat of 1000 on a 3-point table): no shipped or sample
    // hit comes near it.
    let dice = u32::try_from(points / per)
        .unwrap_or(u32::MAX)
        .min(MAX_EFFECT_DICE);
    let left = points % per;
    let bonus = t
        .remainder
        .iter()
        .filter(|(from, _)| *from <= left)
        .map(|(_, b)| *b)
        .next_back()
        .unwrap_or(0);
    (dice, bonus)
}

/// The damage multiplier of a hit by `success`: 1 below the threat, the critical's multiplier
/// at it, and one more for every further `step` ("25/x3 … x4 … if the attack exceeds the
/// defense by 45").
pub fn critical_multiplier(c: &CriticalRule, success: i64) -> i64 {
    if success < c.threat {
        1
    } else {
        c.multiplier + (success - c.threat) / c.step.max(1)
    }
}

/// Attacks a full round gives at `ranks` in the weapon skill, plus one for Rapid Shot.
pub fn full_round_attacks(rules: &D20Rules, ranks: i64, rapid_shot: bool) -> u32 {
    let row = usize::try_from(ranks.max(0)).unwrap_or(0);
    let base = rules
        .attacks_by_rank
        .get(row)
        .or(rules.attacks_by_rank.last())
        .copied()
        .unwrap_or(1);
    base + u32::from(rapid_shot)
}

/// The range difficulty of an attack with `w` at `distance` squares: melee range (adjacent) is
/// the melee DC; beyond it, the first row of the table whose increments reach the distance.
pub fn range_dc(rules: &D20Rules, w: &WeaponDef, distance: u32) -> (i64, String) {
    if distance <= 1 {
        return (rules.melee_dc, format!("Melee range DC {}", rules.melee_dc));
    }
    let inc = w.range_increment.unwrap_or(1).max(1);
    let needed = distance.div_ceil(inc);
    let row = rules
        .range_dcs
        .iter()
        .find(|(n, _)| *n >= needed)
        .or(rules.range_dcs.last());
    match row {
        Some((n, dc)) => (
            *dc,
            format!("{distance} squares, within {n}x range ({inc}-square increments): DC {dc}"),
        ),
        None => (rules.melee_dc, format!("DC {}", rules.melee_dc)),
    }
}

/// The character sheet and weapon of a combatant.
pub(super) fn gear<'d>(
    d: &'d D20Data,
    f: &Fighter,
) -> Option<(&'d crate::ruleset::d20::CharacterDef, &'d WeaponDef)> {
    let c = d.character(&f.identity.archetype)?;
    Some((c, d.weapon(&c.weapon)?))
}

/// The ally that puts `target` off guard against a melee attack by `attacker` by flanking
/// it: on the square directly opposite the attacker, not defeated, and threatening the
/// target with a melee weapon (our reading of "flanking attacks"; the text does not define
/// flanking). `fighters` is everyone on the field.
pub fn flanker<'f>(
    d: &D20Data,
    attacker: &Fighter,
    target: &Fighter,
    a: &D20AttackDef,
    fighters: &'f [Fighter],
) -> Option<&'f Fighter> {
    d.combat.off_guard.as_ref()?;
    let melee = |w: &WeaponDef| !matches!(w.class, WeaponClass::Missile | WeaponClass::Grenade);
    if !d.weapon(&a.weapon).is_some_and(melee) || attacker.distance_to(target) != Some(1) {
        return None;
    }
    let (from, at) = (attacker.position?, target.position?);
    let opposite = crate::grid::Square {
        x: 2 * at.x - from.x,
        y: 2 * at.y - from.y,
    };
    fighters.iter().find(|f| {
        f.id != attacker.id
            && f.side == attacker.side
            && !f.defeated()
            && f.position == Some(opposite)
            && gear(d, f).is_some_and(|(_, w)| melee(w))
    })
}

/// The swing of a full-round attack that `attack` would be now: 0 for a first or single
/// attack, 1 for the second…
pub fn swing(f: &Fighter, attack: &str) -> u32 {
    follow_up(&f.round, attack).map_or(0, |fa| fa.made)
}

/// The full-round attack under way that `attack` continues, if any.
pub fn follow_up<'r>(round: &'r RoundLog, attack: &str) -> Option<&'r FullAttack> {
    round
        .full_attack
        .as_ref()
        .filter(|fa| fa.attack == attack && fa.left > 0)
}

pub(super) fn stat_name<'a>(d: &'a D20Data, id: &'a str) -> &'a str {
    d.combat
        .stats
        .iter()
        .find(|s| s.id == id)
        .map_or(id, |s| s.name.as_str())
}

/// True when `f`'s weapon is a missile weapon (it shoots rather than strikes).
pub fn shoots(d: &D20Data, f: &Fighter) -> bool {
    gear(d, f).is_some_and(|(_, w)| w.class == WeaponClass::Missile)
}

/// True for a weapon swung in hand (strength counts to hit and to its effect), not shot or
/// thrown.
pub(super) fn hand_held(w: &WeaponDef) -> bool {
    !matches!(w.class, WeaponClass::Missile | WeaponClass::Grenade)
}

/// The most Power Attack `f` may declare with `a`: the ranks of the weapon's skill (our cap;
/// the text sets none), with the Power Attack feat and a melee weapon; `None` otherwise.
pub fn power_attack_cap(d: &D20Data, f: &Fighter, a: &D20AttackDef) -> Option<i64> {
    let w = d.weapon(&a.weapon).filter(|w| hand_held(w))?;
    let c = d.character(&f.identity.archetype)?;
    c.feats
        .contains(&Feat::PowerAttack)
        .then(|| f.attributes.get(&w.skill).max(0))
}

/// The Power Attack a melee attack `a` by `f` is made with: the one in effect since its last
/// turn's first attack, else `declared`; none with a missile or a grenade.
pub fn power_attack_of(d: &D20Data, f: &Fighter, a: &D20AttackDef, declared: i64) -> i64 {
    if d.weapon(&a.weapon).is_some_and(hand_held) {
        f.encounter.power_attack.unwrap_or(declared)
    } else {
        0
    }
}

/// The attack roll: 1d20 + the weapon's ability and skill, −1 per point of strength below the
/// weapon's minimum, Rapid Shot, Power Attack `power`, and −5 for each earlier swing of a full
/// round.
pub fn strike_spec(
    d: &D20Data,
    attacker: &Fighter,
    a: &D20AttackDef,
    swing: u32,
    power: i64,
) -> RollSpec {
    let mut s = d20_base(d, RollKind::Strike);
    let Some(w) = d.weapon(&a.weapon) else {
        return s;
    };
    add_stat(d, attacker, &w.ability, &mut s);
    add_stat(d, attacker, &w.skill, &mut s);
    let r = &d.combat;
    let min = w.minimum_strength.unwrap_or(r.strength.minimum);
    let strength = attacker.attributes.get(&r.strength.stat);
    if strength < min && hand_held(w) {
        s.add(
            format!(
                "{} {strength} below the weapon's minimum {min}",
                stat_name(d, &r.strength.stat)
            ),
            strength - min,
        );
    }
    if a.rapid_shot {
        s.add("Rapid Shot", -r.rapid_shot_penalty);
    }
    if power > 0 {
        s.add(format!("Power Attack {power}"), -power);
    }
    // The ranks' later attacks step down; Rapid Shot's extra one comes at the first attack's
    // bonus (the sample's extra arrow: "DEX=10 + WU: Archery=5 - Rapid Shot=2 + 1d20").
    let by_rank = full_round_attacks(r, attacker.attributes.get(&w.skill), false);
    if swing > 0 && swing < by_rank {
        s.add(
            format!("attack {} of the full round", swing + 1),
            -(i64::from(swing) * r.extra_attack_penalty),
        );
    }
    s
}

/// The answers `target` may give `a` from `distance`: none against a grenade; against a
/// missile beyond melee range ("Normally ranged attacks cannot be dodged") taking the shot, a
/// Dive for cover when it may dive, dropping prone when it has a swift action to do it with
/// (none of these: no answer); otherwise Dodge, and a parry (Block) with a parry feat.
pub fn offered(
    d: &D20Data,
    target: &Fighter,
    a: &D20AttackDef,
    distance: u32,
) -> Vec<DefenseChoice> {
    let class = d.weapon(&a.weapon).map(|w| w.class);
    // A grenade is not dodged: each one in its blast makes a Roll check instead.
    if class == Some(WeaponClass::Grenade) {
        return Vec::new();
    }
    if class == Some(WeaponClass::Missile) && distance > 1 {
        let mut v = Vec::new();
        if crate::battle::family::d20::dive::can_dive(d, target) || target.encounter.dive_ready {
            v.push(DefenseChoice::Dive);
        }
        if crate::battle::family::d20::swift::can_drop_prone(d, target) {
            v.push(DefenseChoice::DropProne);
        }
        if !v.is_empty() {
            v.insert(0, DefenseChoice::Take);
        }
        return v;
    }
    let mut v = vec![DefenseChoice::Dodge];
    if parry_feat(d, target).is_some() {
        v.push(DefenseChoice::Block);
    }
    v
}

/// The defense roll an answer makes, if any: none when taking the shot, dropping prone or
/// when nothing can be answered; a Dive for cover rolls the Dodge its entry holds.
pub fn answer_roll(t: &TargetContext, choice: DefenseChoice) -> Option<&RollSpec> {
    let shot = t.offers(DefenseChoice::Take);
    let undefended = t.defenses.is_empty()
        || matches!(choice, DefenseChoice::Take | DefenseChoice::DropProne)
        || (choice != DefenseChoice::Dive && shot);
    (!undefended).then(|| t.defense(choice))
}

/// What the attack must meet besides a defense roll, answered with `choice`: dropping prone
/// against a shot adds the prone bonus (its entry holds that difficulty), else as declared.
pub fn difficulty_of(t: &TargetContext, choice: DefenseChoice) -> Option<&RollSpec> {
    if choice == DefenseChoice::DropProne && t.offers(DefenseChoice::DropProne) {
        Some(t.defense(DefenseChoice::DropProne))
    } else {
        t.difficulty.as_ref()
    }
}

/// What lying prone takes off `target`'s Dodge or parry against a blow of `w` (a hand-held
/// weapon; prone is no help up close), as a modifier.
pub(super) fn prone_in_melee(
    d: &D20Data,
    target: &Fighter,
    w: &WeaponDef,
) -> Option<crate::dice::Modifier> {
    let rule = d.combat.prone.as_ref()?;
    (target.encounter.prone && hand_held(w) && rule.melee > 0).then(|| crate::dice::Modifier {
        label: format!("prone against a melee attack -{}", rule.melee),
        value: -rule.melee,
    })
}

/// The parry feat `f` has, if any (Blocking Parry before Deflecting Parry).
pub(super) fn parry_feat(d: &D20Data, f: &Fighter) -> Option<Feat> {
    let c = d.character(&f.identity.archetype)?;
    [Feat::BlockingParry, Feat::DeflectingParry]
        .into_iter()
        .find(|p| c.feats.contains(p))
}

/// A defense roll: Dodge is 1d20 + its stats; a parry 1d20 + STR (Blocking) or DEX
/// (Deflecting) + the better of the parry skill and the weapon's skill, with the parry
/// modifier of the weapon parried with against the weapon parried. `bonus` is the target's
/// cover or concealment, which counts against a defense roll as against the DC.
pub fn defense_spec(
    d: &D20Data,
    target: &Fighter,
    attack_weapon: Option<&WeaponDef>,
    kind: DefenseKind,
    bonus: &[crate::dice::Modifier],
) -> RollSpec {
    let r = &d.combat;
    let mut s = match kind {
        DefenseKind::Block => d20_base(d, RollKind::Parry),
        _ => d20_base(d, RollKind::Dodge),
    };
    match kind {
        DefenseKind::Block => {
            let ability = match parry_feat(d, target) {
                Some(Feat::DeflectingParry) => r.deflecting_parry_ability.as_str(),
                _ => r
                    .defenses
                    .iter()
                    .find(|x| x.kind == DefenseKind::Block)
                    .and_then(|x| x.terms.first())
                    .map_or("STR", String::as_str),
            };
            add_stat(d, target, ability, &mut s);
            let own = gear(d, target).map(|(_, w)| w);
            let parry = target.attributes.get(&r.parry_skill);
            match own {
                Some(w) if target.attributes.get(&w.skill) > parry => {
                    add_stat(d, target, &w.skill, &mut s)
                }
                _ => add_stat(d, target, &r.parry_skill, &mut s),
            }
            if let Some(w) = own {
                let against_weapon = attack_weapon.is_some_and(|a| a.class != WeaponClass::Unarmed);
                match w.class {
                    WeaponClass::Parrying => s.add(
                        format!("parrying weapon ({})", w.name),
                        r.parry.parrying_weapon,
                    ),
                    WeaponClass::Missile => s.add(
                        format!("parrying with a missile weapon ({})", w.name),
                        r.parry.missile_weapon,
                    ),
                    WeaponClass::Unarmed if against_weapon => {
                        s.add("unarmed against a weapon", r.parry.unarmed_vs_weapon)
                    }
                    _ => {}
                }
            }
        }
        _ => {
            if let Some(def) = r.defenses.iter().find(|x| x.kind == DefenseKind::Dodge) {
                for t in &def.terms {
                    add_stat(d, target, t, &mut s);
                }
            }
        }
    }
    for m in bonus {
        s.add(m.label.clone(), m.value);
    }
    s
}

/// What an attack on `target` must meet besides a defense roll: the range difficulty, and the
/// highest cover (a feature beside the target the line crosses), concealment (where the
/// target stands) or, for a shot aimed at its gaps, armour bonus -- "only the highest … is
/// applied" (see [`super::aimed::protection`]).
pub fn difficulty_spec(
    d: &D20Data,
    attacker: &Fighter,
    target: &Fighter,
    w: &WeaponDef,
    protection: &super::aimed::Protection,
) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Amount("Difficulty".into()));
    let distance = attacker.distance_to(target).unwrap_or(1);
    let (dc, why) = range_dc(&d.combat, w, distance);
    s.add(why, dc);
    if let Some((label, bonus)) = &protection.bonus {
        s.add(label.clone(), *bonus);
    }
    // "cover (+4) and you are now prone (+4) that grants +8 to future attempts to fire at
    // you": prone adds to cover rather than competing with it. Melee against a prone target
    // is as usual (the text is silent).
    let prone = crate::battle::family::d20::dive::prone_bonus(d, target);
    if prone > 0 && w.class == WeaponClass::Missile && distance > 1 {
        s.add(format!("prone +{prone}"), prone);
    }
    s
}

/// The Effect Points a hit starts from before its Success Value: the weapon's base effect,
/// the strength bonus of a melee weapon (+1 two-handed, halved for a full round's later
/// swings) and Power Attack's (x1.5 two-handed).
pub fn effect_spec(
    d: &D20Data,
    attacker: &Fighter,
    a: &D20AttackDef,
    swing: u32,
    power: i64,
) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Amount("Effect Points".into()));
    let Some(w) = d.weapon(&a.weapon) else {
        return s;
    };
    let r = &d.combat;
    s.add(format!("{} base effect", w.name), w.effect);
    if hand_held(w) {
        let min = w.minimum_strength.unwrap_or(r.strength.minimum);
        let over = (attacker.attributes.get(&r.strength.stat) - min).max(0) * r.strength.per_point;
        let mut bonus = over
            + if w.two_handed {
                r.strength.two_handed
            } else {
                0
            };
        let mut label = format!("strength {over} over the minimum {min}");
        if w.two_handed {
            label.push_str(&format!(", +{} two-handed", r.strength.two_handed));
        }
        if swing > 0 {
            bonus /= 2;
            label.push_str(", halved for a secondary attack");
        }
        s.add(label, bonus);
    }
    if power > 0 {
        let (pa, label) = if w.two_handed {
            let pa = r.power_attack_two_handed.of(power);
            (pa, format!("Power Attack {power}, two-handed"))
        } else {
            (power, format!("Power Attack {power}"))
        };
        s.add(label, pa);
    }
    s
}

/// The damage roll of a hit by `success` starting from `effect`: the Effect Points (the
/// Success Value, divided as the table says, added) as dice and a flat bonus.
pub fn wound_spec(d: &D20Data, effect: &RollSpec, success: i64) -> RollSpec {
    let t = &d.combat.effect_table;
    let points = points_of(d, effect, success);
    let (dice, bonus) = effect_dice(t, points);
    let mut s = RollSpec::new(RollKind::Wound);
    s.add_dice(
        format!("{points} EP"),
        DiceGroup {
            count: dice,
            sides: t.die,
        },
    );
    s.add(format!("{points} EP"), bonus);
    s
}

/// The Effect Points of a hit by `success`: the effect's points plus the Success Value's share.
pub fn points_of(d: &D20Data, effect: &RollSpec, success: i64) -> i64 {
    let from_success = success.max(0) / d.combat.effect_table.success_divisor.max(1);
    (effect.flat_total() + from_success).max(0)
}

/// The Effect Points of a hit by `success` and how they add up ("Weapon=4 + Hit Overage=1").
pub fn effect_points(d: &D20Data, effect: &RollSpec, success: i64) -> (i64, String) {
    let t = &d.combat.effect_table;
    let from_success = success.max(0) / t.success_divisor.max(1);
    let points = points_of(d, effect, success);
    let mut why: Vec<String> = effect
        .modifiers
        .iter()
        .map(|m| format!("{} {}", m.label, m.value))
        .collect();
    why.push(if t.success_divisor > 1 {
        format!(
            "Success Value {success} / {} = {from_success}",
            t.success_divisor
        )
    } else {
        format!("Success Value {success}")
    });
    (
        points,
        format!("Effect Points {points} = {}", why.join(" + ")),
    )
}

/// The armour DR of `target` against `damage_type`, after wear, and the armour's name.
pub fn armour_dr(d: &D20Data, target: &Fighter, damage_type: &str) -> Option<(i64, String)> {
    let c = d.character(&target.identity.archetype)?;
    let a = d.armour(c.armour.as_deref()?)?;
    let dr = a.by_type.get(damage_type).copied().unwrap_or(a.base);
    Some(((dr - target.encounter.armour_wear).max(0), a.name.clone()))
}

/// The chance of each Success Value of a hit (misses left out, so the masses add up to the
/// hit chance): the roll must not be a natural 1 and must meet both the difficulty and, if the
/// target defends, its defense roll (a natural 1 there fails the defense). Ties go to the
/// attacker ("must meet or exceed").
pub fn success_chances(
    strike: &RollSpec,
    dc: i64,
    defense: Option<&RollSpec>,
) -> BTreeMap<i64, f64> {
    // A d20 check is its die and flat modifiers: the chances depend on nothing else, and the
    // computer player asks for the same few again and again, so they are kept (per thread).
    // Only plain checks (one die, no other dice) are kept, keyed by everything about the die.
    let key = |s: &RollSpec| {
        (s.dice.is_empty()
            && s.critical_dice.is_empty()
            && s.superiority.is_none()
            && s.dice_multiplier == 1)
            .then(|| {
                (
                    s.base.as_ref().map(crate::dice::roll::BaseDie::shape),
                    s.flat_total(),
                )
            })
    };
    let cache_key = match defense {
        None => key(strike).map(|k| (k, dc, None)),
        Some(d) => key(strike).zip(key(d)).map(|(k, kd)| (k, dc, Some(kd))),
    };
    type Die = Option<crate::dice::roll::BaseShape>;
    type Key = ((Die, i64), i64, Option<(Die, i64)>);
    thread_local! {
        static CACHE: std::cell::RefCell<bevy::platform::collections::HashMap<Key, BTreeMap<i64, f64>>> =
            std::cell::RefCell::new(Default::default());
    }
    if let Some(k) = cache_key
        && let Some(hit) = CACHE.with(|c| c.borrow().get(&k).cloned())
    {
        return hit;
    }
    let out = compute_success_chances(strike, dc, defense);
    if let Some(k) = cache_key {
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() > 4096 {
                c.clear();
            }
            c.insert(k, out.clone());
        });
    }
    out
}

/// Wears the armour of a combatant a hit bypassed: every DR value one lower.
pub fn wear_armour(d: &D20Data, f: &mut FighterQueryItem, log: &mut EventLog) {
    let snap = f.snapshot();
    let Some(c) = d.character(&snap.identity.archetype) else {
        return;
    };
    let Some(a) = c.armour.as_deref().and_then(|id| d.armour(id)) else {
        return;
    };
    f.encounter.armour_wear += 1;
    log.push(BattleEvent::ArmourWorn {
        who: *f.id,
        armour: a.name.clone(),
        wear: f.encounter.armour_wear,
    });
}

/// The uncached work of [`success_chances`]: every Success Value's chance, exactly.
pub(super) fn compute_success_chances(
    strike: &RollSpec,
    dc: i64,
    defense: Option<&RollSpec>,
) -> BTreeMap<i64, f64> {
    let (a, _) = without_natural_one(strike);
    // The distribution of what the roll must meet.
    let mut need = Dist::empty();
    match defense {
        None => need = Dist::point(dc),
        Some(spec) => {
            let (dd, q1) = without_natural_one(spec);
            need.mix(&dd.map(|v| v.max(dc)), 1.0);
            need.mix(&Dist::point(dc), q1);
        }
    }
    let mut out = BTreeMap::new();
    for (i, pa) in a.p.iter().enumerate() {
        if *pa == 0.0 {
            continue;
        }
        let av = a.offset + i as i64;
        for (j, pn) in need.p.iter().enumerate() {
            let nv = need.offset + j as i64;
            if av >= nv && *pn > 0.0 {
                *out.entry(av - nv).or_insert(0.0) += pa * pn;
            }
        }
    }
    out
}
