//! The Digimon RPG's numbers and rolls: stats as the form and its effects leave them, the
//! attacks a form has now, initiative, Accuracy, Dodge and damage, and the exact odds of a hit.

use super::{add_stat, check};
use crate::battle::command::DefenseChoice;
use crate::battle::command::RuleError;
use crate::battle::context::{AttackContext, Declaration, TargetContext};
use crate::battle::fighter::Fighter;
use crate::battle::odds::{RollSummary, TargetOdds};
use crate::dice::{DiceGroup, Dist, RollKind, RollSpec, distribution};
use crate::ruleset::digimon::BOLSTERED;
use crate::ruleset::digimon::{
    ACC, ARM, ClashMove, DMG, DODGE, DigiAttackDef, DigimonData, EffectKind, INIT, MOVE, Tag,
};

/// The attack an order's profile names, and whether it is the Bolstered (Complex) use of it.
pub fn attack_of<'d>(d: &'d DigimonData, profile: &str) -> Option<(&'d DigiAttackDef, bool)> {
    match profile.strip_suffix(BOLSTERED) {
        Some(base) => d.attack(base).map(|a| (a, true)),
        None => d.attack(profile).map(|a| (a, false)),
    }
}

/// A combatant's stat before effects: its current stage's (after a fall to the Default Stage)
/// or its own.
pub fn base_stat(d: &DigimonData, f: &Fighter, id: &str) -> i64 {
    let form = f.digi.as_ref().and_then(|s| s.form.as_deref());
    match form.and_then(|id| d.digimon(id)) {
        Some(def) if id == MOVE => def.movement,
        Some(def) => def.stats.get(id).copied().unwrap_or(0),
        None => f.attributes.get(id),
    }
}

/// What the effects on `f` add to `stat`, each labelled with its effect.
pub fn effect_mods(d: &DigimonData, f: &Fighter, stat: &str) -> Vec<(String, i64)> {
    let Some(state) = &f.digi else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in &state.effects {
        let p = e.potency;
        let v = match (e.kind, stat) {
            (EffectKind::Immobilize, MOVE) => -p,
            (EffectKind::Confuse, ACC | DODGE) => -p,
            (EffectKind::Vigor, DODGE | MOVE) => p,
            (EffectKind::Fury, ACC | DMG) => p,
            (EffectKind::Blind, ACC | DODGE | MOVE) => -p,
            (EffectKind::Paralysis, DODGE | ARM) => -p,
            (EffectKind::Weaken, ACC | DMG | DODGE | ARM) => -p,
            (EffectKind::Strengthen, ACC | DMG | DODGE | ARM) => p,
            _ => 0,
        };
        if v != 0 {
            let name = d.effect(e.kind).map_or("effect", |x| x.name.as_str());
            out.push((name.to_string(), v));
        }
    }
    out
}

/// A stat with its effects.
pub fn stat(d: &DigimonData, f: &Fighter, id: &str) -> i64 {
    base_stat(d, f, id) + effect_mods(d, f, id).iter().map(|m| m.1).sum::<i64>()
}

/// The squares one Move covers now: Movement with its effects, none while Paralysed ("cannot
/// move").
pub fn movement(d: &DigimonData, f: &Fighter) -> u32 {
    if has(f, EffectKind::Paralysis) {
        return 0;
    }
    u32::try_from(stat(d, f, MOVE).max(0)).unwrap_or(0)
}

/// True when an effect of `kind` is on `f`.
pub fn has(f: &Fighter, kind: EffectKind) -> bool {
    f.digi
        .as_ref()
        .is_some_and(|s| s.effects.iter().any(|e| e.kind == kind))
}

/// True when `f` is a Tamer.
pub fn is_tamer(f: &Fighter) -> bool {
    f.digi.as_ref().is_some_and(|s| s.tamer)
}

/// The evolution stage `f` is at now.
pub fn stage<'d>(d: &'d DigimonData, f: &Fighter) -> Option<&'d str> {
    form(d, f).map(|x| x.stage.as_str())
}

/// The Digimon `f` is now: the stage it fell back to, or its own (none for a Tamer).
pub fn form<'d>(
    d: &'d DigimonData,
    f: &Fighter,
) -> Option<&'d crate::ruleset::digimon::DigimonDef> {
    let id = f
        .digi
        .as_ref()
        .and_then(|s| s.form.as_deref())
        .unwrap_or(&f.identity.archetype);
    d.digimon(id)
}

/// The attacks `f` can make now: its own, or its Default Stage's after a fall, and the Clash
/// actions everyone has.
pub fn attacks_now(d: &DigimonData, f: &Fighter) -> Vec<String> {
    let form = f.digi.as_ref().and_then(|s| s.form.as_deref());
    let mut out = match form.and_then(|id| d.digimon(id)) {
        Some(def) => def.attacks.clone(),
        None => d
            .digimon(&f.identity.archetype)
            .map(|x| x.attacks.clone())
            .or_else(|| d.tamer(&f.identity.archetype).map(|t| t.attacks.clone()))
            .unwrap_or_default(),
    };
    out.extend(crate::ruleset::digimon::clash_actions(&d.combat));
    out
}

/// The initiative roll: 3d6 + Agility (a Tamer without a partner: Dex Mod + Fight).
pub fn initiative_spec(d: &DigimonData, f: &Fighter) -> RollSpec {
    let mut s = check(d, RollKind::Initiative);
    let name = if is_tamer(f) {
        "Dex Mod + Fight"
    } else {
        "Agility"
    };
    s.add(name, f.attributes.get(INIT));
    s
}

/// The Accuracy roll of `a` by `attacker` against `target`: 3d6 + Accuracy, its effects, a
/// waiting Direct, Taunt and Fear, the [Ranged] adjacent and long-range penalties and the
/// [Area] target and ally penalties (`caught`: everyone the area covers).
pub fn strike_spec(
    d: &DigimonData,
    attacker: &Fighter,
    a: &DigiAttackDef,
    target: &Fighter,
    caught: &[&Fighter],
) -> RollSpec {
    let c = &d.combat;
    let mut s = check(d, RollKind::Strike);
    add_stat(d, attacker, ACC, "Accuracy", &mut s);
    if let Some((bonus, _)) = attacker.digi.as_ref().and_then(|x| x.directed) {
        s.add("Directed by its Tamer", bonus);
    }
    for e in attacker.digi.iter().flat_map(|x| x.effects.iter()) {
        match e.kind {
            EffectKind::Taunt if e.source != target.id => {
                s.add("Taunted: not its taunter", -e.potency)
            }
            EffectKind::Fear if e.source == target.id => s.add("Fear of this target", -e.potency),
            _ => {}
        }
    }
    let distance = attacker.distance_to(target).unwrap_or(1);
    match a.tag {
        Tag::Ranged if distance <= 1 => {
            let above = if is_tamer(attacker) {
                0
            } else {
                stage(d, attacker).map_or(0, |st| d.stages_above_rookie(st))
            };
            s.add(
                format!("[Ranged] at an adjacent target (1 + {above} stages above Rookie)"),
                -(c.ranged.adjacent_base + above),
            );
        }
        Tag::Ranged if distance > c.ranged.free_squares => {
            let steps = (distance - c.ranged.free_squares) / c.ranged.per_squares.max(1);
            s.add(
                format!(
                    "[Ranged] {distance} squares: -{} per {} beyond {}",
                    c.ranged.penalty, c.ranged.per_squares, c.ranged.free_squares
                ),
                -(i64::from(steps) * c.ranged.penalty),
            );
        }
        Tag::Area => {
            let n = caught.len() as u32;
            if n > c.area.free_targets {
                s.add(
                    format!(
                        "[Area] {n} targets: -{} each past the second",
                        c.area.per_target
                    ),
                    -(i64::from(n - c.area.free_targets) * c.area.per_target),
                );
            }
            if caught
                .iter()
                .any(|t| t.side == attacker.side && t.id != attacker.id)
            {
                s.add("[Area] an ally is caught", -c.area.ally_penalty);
            }
        }
        _ => {}
    }
    s
}

/// The Dodge roll: 3d6 + Dodge, its effects, a waiting Direct, and the stacking penalty for
/// every attack past the first this round.
pub fn defense_spec(d: &DigimonData, target: &Fighter) -> RollSpec {
    let mut s = check(d, RollKind::Dodge);
    add_stat(d, target, DODGE, "Dodge", &mut s);
    if let Some((bonus, _)) = target.digi.as_ref().and_then(|x| x.directed) {
        s.add("Directed by its Tamer", bonus);
    }
    s.add(
        format!(
            "Dodge penalty ({} earlier attack(s) this round)",
            target.defense.diminishing
        ),
        -target.defense.diminishing,
    );
    s
}

/// The damage roll before Armor: a Digimon's (Damage ÷ 2)d6 (6s explode), a Tamer's 1d6 with a
/// weapon or 1 without, + Str Mod + Fight ÷ 3; nothing for an [Effect] attack.
pub fn wound_spec(d: &DigimonData, attacker: &Fighter, a: &DigiAttackDef) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Wound);
    if !a.damage {
        return s;
    }
    if a.clash == Some(ClashMove::Throw) {
        // "Deals Damage to the target digimon equal to its Damage Stat, reduced by Armor."
        s.add("Damage stat (a Throw)", stat(d, attacker, DMG));
        return s;
    }
    let c = &d.combat;
    let dmg = stat(d, attacker, DMG);
    if is_tamer(attacker) {
        let armed = d
            .tamer(&attacker.identity.archetype)
            .is_some_and(|t| t.weapon);
        if armed {
            let g = DiceGroup {
                count: 1,
                sides: c.die,
            };
            if c.exploding {
                s.add_exploding_dice("Weapon 1d6", g);
            } else {
                s.add_dice("Weapon 1d6", g);
            }
        } else {
            s.add("Unarmed", 1);
        }
        s.add("Damage (Str Mod + Fight / 3)", dmg);
    } else {
        let n = u32::try_from((dmg / 2).max(0)).unwrap_or(0);
        let g = DiceGroup {
            count: n,
            sides: c.die,
        };
        let label = format!("Damage {dmg} / 2 = {n}d{}", c.die);
        let label = if c.exploding {
            format!("{label}, {}s explode", c.die)
        } else {
            label
        };
        if c.exploding {
            s.add_exploding_dice(label, g);
        } else {
            s.add_dice(label, g);
        }
    }
    s
}

/// True when the attack helps its target, which then does not roll Dodge.
pub fn helps(a: &DigiAttackDef) -> bool {
    (!a.damage && a.effect.is_some_and(EffectKind::positive)) || a.item.is_some()
}

/// How many uses of item `a` are left to `f` (its whole stock when it has used none).
pub fn items_left(f: &Fighter, a: &DigiAttackDef) -> u32 {
    let Some(item) = a.item else {
        return 0;
    };
    let used = f
        .digi
        .as_ref()
        .and_then(|s| s.items_used.get(&a.id).copied())
        .unwrap_or(0);
    item.uses.saturating_sub(used)
}

/// Assembles a Digimon attack: one Accuracy roll per target (Taunt, Fear and range differ by
/// target), each target's Dodge (none for a helping effect), and the damage roll.
pub fn assemble(
    d: &DigimonData,
    attacker: &Fighter,
    targets: &[&Fighter],
    decl: &Declaration,
) -> AttackContext {
    let Some((a, _)) = attack_of(d, &decl.profile.id) else {
        return AttackContext::empty();
    };
    let strikes: Vec<RollSpec> = targets
        .iter()
        .map(|t| strike_spec(d, attacker, a, t, targets))
        .collect();
    AttackContext {
        ki_cost: 0,
        wager: 0,
        strike: strikes
            .first()
            .cloned()
            .unwrap_or_else(|| RollSpec::new(RollKind::Strike)),
        targets: targets
            .iter()
            .zip(strikes)
            .map(|(t, strike)| TargetContext {
                automatic_hit: if helps(a) {
                    Some("a helping effect: allies do not roll Dodge")
                } else {
                    crate::battle::family::digimon::hold::no_dodge(a, t)
                },
                damage_less: crate::battle::family::digimon::hold::outside_penalty(attacker, t),
                damage_halved: crate::battle::family::digimon::hold::halved(
                    attacker,
                    t,
                    reach(d, attacker),
                ),
                ..TargetContext::new(
                    t.id,
                    attacker.distance_to(t),
                    strike,
                    vec![(DefenseChoice::Dodge, defense_spec(d, t))],
                )
            })
            .collect(),
        wound: wound_spec(d, attacker, a),
        reflected: None,
    }
}

/// The Reach Quality of `f` as it is now (its stage's): how far away it may start a Clash, at
/// least 1 (adjacent).
pub fn reach(d: &DigimonData, f: &Fighter) -> u32 {
    form(d, f).map_or(1, |x| x.reach.max(1))
}

/// How far away `attacker`'s [Melee] attack `a` may reach `t`: adjacent ("a [Melee] tagged
/// Attack may only be used on an enemy who is adjacent"), but a Clash starts within the
/// attacker's Reach, and the two in a Clash started at a range reach each other that far.
pub fn melee_reach(d: &DigimonData, attacker: &Fighter, a: &DigiAttackDef, t: &Fighter) -> u32 {
    use crate::battle::family::digimon::hold::hold;
    if a.clash == Some(crate::ruleset::digimon::ClashMove::Start) {
        return reach(d, attacker);
    }
    match hold(attacker) {
        Some(h) if h.opponent == t.id => h.reach.max(1),
        _ => 1,
    }
}

/// The damage one hit deals to `target` from a damage roll of `wound`: minus `less` (a
/// Clash's outsider penalty) and its Armor, at least 1 ("they take 1 point of Damage from a
/// successful Attack"); then halved, at least 1, when `halved` (a Clash controlled at a
/// range without Reach).
pub fn hit_damage(d: &DigimonData, target: &Fighter, wound: i64, less: i64, halved: bool) -> i64 {
    let full = (wound - less - stat(d, target, ARM).max(0)).max(1);
    if halved { (full / 2).max(1) } else { full }
}

/// The chance that the Accuracy roll meets or beats the Dodge roll.
pub fn hit_chance(strike: &RollSpec, dodge: &RollSpec) -> f64 {
    let (s, dd) = (distribution(strike), distribution(dodge));
    let mut p = 0.0;
    // The Dodge's cdf at each Accuracy value, summed on as the value rises: the same additions
    // in the same order as `Dist::cdf` makes, without starting over at every value.
    let mut below = dd.cdf(s.offset - 1);
    for (next, ps) in (s.offset - dd.offset..).zip(&s.p) {
        if let Some(q) = usize::try_from(next).ok().and_then(|i| dd.p.get(i)) {
            below += q;
        }
        p += ps * below;
    }
    p.min(1.0)
}

/// The exact outcome of a Digimon attack on one target: hit (the attacker wins ties), damage
/// minus Armor (at least 1) through Temporary HP, and defeat (HP to 0: a fall to the Default
/// Stage, a Digitama, or a Tamer knocked out).
pub fn target_odds(
    d: &DigimonData,
    ctx: &AttackContext,
    t: &TargetContext,
    profile: &str,
    target: &Fighter,
    choice: DefenseChoice,
) -> TargetOdds {
    let defense = t.defense(choice);
    let helping = attack_of(d, profile).is_some_and(|(a, _)| helps(a));
    let damaging = attack_of(d, profile).is_some_and(|(a, _)| a.damage);
    let hit = if t.automatic_hit.is_some() {
        1.0
    } else {
        hit_chance(&t.strike, defense)
    };
    let less = t.damage_less.as_ref().map_or(0, |x| x.0);
    let halved = t.damage_halved.is_some();
    let landed = if damaging {
        distribution(&ctx.wound).map(|w| hit_damage(d, target, w, less, halved))
    } else {
        Dist::point(0)
    };
    let mut dist = Dist::point(0);
    dist.p[0] = 1.0 - hit;
    dist.mix(&landed, hit);
    let temp = target.digi.as_ref().map_or(0, |s| s.temp_hp);
    // An [Effect] attack's distribution is all 0: it defeats nobody.
    TargetOdds {
        automatic_hit: if helping {
            Some("allies do not roll Dodge against a helping effect".into())
        } else {
            t.automatic_hit.map(str::to_string)
        },
        ..TargetOdds::lethal(
            t.id,
            choice,
            hit,
            &dist,
            target.life.current + temp,
            &t.strike,
            RollSummary::of(defense),
        )
    }
}

/// Checks the Digimon rules an attack order must meet: a Digimon attacks with what its
/// current stage has; a helping effect goes to an ally (Direct to the Tamer's own partner),
/// anything else to an opponent; Lifesteal and Heal once a round; a [Melee] attack adjacent.
pub fn check_attack(
    d: &DigimonData,
    attacker: &Fighter,
    profile: &str,
    targets: &[&Fighter],
) -> Result<(), RuleError> {
    let Some((a, bolstered)) = attack_of(d, profile) else {
        return Err(RuleError::NotInRuleset {
            what: "this attack",
            ruleset: "digimon".into(),
        });
    };
    if !attacks_now(d, attacker).contains(&a.id) {
        return Err(RuleError::DigimonRule(format!(
            "{} cannot use {} at its current stage",
            attacker.identity.name, a.name
        )));
    }
    if bolstered && !crate::ruleset::digimon::can_bolster(&d.combat, a) {
        return Err(RuleError::DigimonRule(format!(
            "{} cannot be Bolstered (a Simple Action with a number to add to)",
            a.name
        )));
    }
    crate::battle::family::digimon::hold::check_attack(attacker, a, targets)?;
    let state = attacker.digi.clone().unwrap_or_default();
    for t in targets {
        if helps(a) {
            if t.side != attacker.side {
                return Err(RuleError::DigimonTarget(format!(
                    "{} helps an ally, not {}",
                    a.name, t.identity.name
                )));
            }
            if a.effect == Some(EffectKind::Direct) && state.partner != Some(t.id) {
                return Err(RuleError::DigimonTarget(format!(
                    "a Tamer directs its own partner, not {}",
                    t.identity.name
                )));
            }
        }
        if a.tag == Tag::Melee
            && let Some(why) = super::height::melee_refusal(attacker, t)
        {
            return Err(RuleError::DigimonTarget(why));
        }
        let away = attacker.distance_to(t);
        if a.tag == Tag::Melee && away.is_none_or(|x| x > melee_reach(d, attacker, a, t)) {
            return Err(RuleError::DigimonTarget(format!(
                "a [Melee] attack is used on an adjacent target; {} is not",
                t.identity.name
            )));
        }
    }
    if let Some(item) = a.item
        && items_left(attacker, a) == 0
    {
        return Err(RuleError::DigimonRule(format!(
            "{} has no {} left (it carried {} for the battle)",
            attacker.identity.name, a.name, item.uses
        )));
    }
    let healed = attacker
        .round
        .profiles_used
        .iter()
        .any(|p| attack_of(d, p).is_some_and(|(x, _)| x.effect == Some(EffectKind::Heal)));
    if a.effect == Some(EffectKind::Heal) && healed {
        return Err(RuleError::DigimonRule(
            "\"You cannot use a Heal Effect more than once per Round\"".into(),
        ));
    }
    Ok(())
}
