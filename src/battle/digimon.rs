//! The Digimon family's combat (the Digimon RPG's combat chapter): exploding 3d6 Accuracy
//! against exploding 3d6 Dodge with the attacker winning ties, [Melee]/[Ranged]/[Area]
//! penalties, the stacking Dodge penalty, damage dice minus Armor (at least 1), attack effects
//! with potency, duration and stacking, Temporary HP, Tamers with derived stats and death
//! saves, and Digimon falling back to their Default Stage at 0 HP.
//!
//! The family plays on the ninja chapter's engine path (action points, one Dodge defense,
//! the attacker winning ties); [`assemble`] builds the attack context once, and both the
//! preview ([`target_odds`]) and the resolution (`attack.rs`, which calls [`hit_damage`] and
//! [`apply_effect`]) read it, so the odds shown are the odds rolled.

use super::command::RuleError;
use super::components::{ActiveEffect, CombatantId, DigiState};
use super::context::{AttackContext, Declaration, DefenseChoice, TargetContext};
use super::event::{BattleEvent, EventLog};
use super::fighter::{Fighter, FighterQueryItem};
use super::odds::{RollSummary, TargetOdds};
use crate::dice::{DiceGroup, DiceSource, Dist, RollKind, RollSpec, distribution, roll};
use crate::ruleset::Category;
use crate::ruleset::digimon::{
    ACC, ARM, BIT, CPU, ClashMove, DMG, DODGE, DigiAttackDef, DigimonData, EffectKind, INIT,
    Lasting, MOVE, RAM, Tag,
};

/// The suffix of a Bolstered attack's id (see [`crate::ruleset::digimon::BOLSTERED`]).
pub use crate::ruleset::digimon::BOLSTERED;

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

/// The check dice: 3d6, every 6 rolling another ("Critical Success Dice").
pub(super) fn check(d: &DigimonData, kind: RollKind) -> RollSpec {
    let c = &d.combat;
    let mut s = RollSpec::new(kind);
    let g = DiceGroup {
        count: c.check_dice,
        sides: c.die,
    };
    let label = if c.exploding {
        format!("{}s explode", c.die)
    } else {
        "the check".to_string()
    };
    if c.exploding {
        s.add_exploding_dice(label, g);
    } else {
        s.add_dice(label, g);
    }
    s
}

/// Adds a stat and each effect on it to a roll.
pub(super) fn add_stat(d: &DigimonData, f: &Fighter, id: &str, name: &str, s: &mut RollSpec) {
    s.add(name, base_stat(d, f, id));
    for (label, v) in effect_mods(d, f, id) {
        s.add(label, v);
    }
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
    !a.damage && a.effect.is_some_and(EffectKind::positive)
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
                id: t.id,
                distance: attacker.distance_to(t),
                strike,
                defenses: vec![(DefenseChoice::Dodge, defense_spec(d, t))],
                automatic_hit: if helps(a) {
                    Some("a helping effect: allies do not roll Dodge")
                } else {
                    super::grapple::no_dodge(a, t)
                },
                damage_less: super::grapple::outside_penalty(attacker, t),
                blast: None,
                cover: None,
                miss_chance: None,
                absorb: None,
                sneak: None,
                knockback: None,
                difficulty: None,
            })
            .collect(),
        wound: wound_spec(d, attacker, a),
    }
}

/// The damage one hit deals to `target` from a damage roll of `wound`: minus `less` (a
/// Clash's outsider penalty) and its Armor, at least 1 ("they take 1 point of Damage from a
/// successful Attack").
pub fn hit_damage(d: &DigimonData, target: &Fighter, wound: i64, less: i64) -> i64 {
    (wound - less - stat(d, target, ARM).max(0)).max(1)
}

/// The chance that the Accuracy roll meets or beats the Dodge roll.
pub fn hit_chance(strike: &RollSpec, dodge: &RollSpec) -> f64 {
    let (s, dd) = (distribution(strike), distribution(dodge));
    let mut p = 0.0;
    for (i, ps) in s.p.iter().enumerate() {
        p += ps * dd.cdf(s.offset + i as i64);
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
    let landed = if damaging {
        distribution(&ctx.wound).map(|w| hit_damage(d, target, w, less))
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
    super::grapple::check_attack(attacker, a, targets)?;
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
        if a.tag == Tag::Melee && attacker.distance_to(t).is_none_or(|x| x > 1) {
            return Err(RuleError::DigimonTarget(format!(
                "a [Melee] attack is used on an adjacent target; {} is not",
                t.identity.name
            )));
        }
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

/// An effect's potency when `user` gives it to `target`: the user's stat times the effect's
/// multiplier (Confuse: the target's higher of CPU and BIT), with a Complex use's own
/// multiplier (Heal x7, Lifesteal doubled) or Bolster's +2.
pub fn potency(
    d: &DigimonData,
    kind: EffectKind,
    user: &Fighter,
    target: &Fighter,
    complex: bool,
    bolstered: bool,
) -> i64 {
    let Some(def) = d.effect(kind) else {
        return 0;
    };
    let base = if kind == EffectKind::Confuse {
        stat(d, target, CPU).max(stat(d, target, BIT))
    } else {
        base_stat(d, user, &def.stat)
    };
    let times = match def.complex_times {
        Some(t) if complex => t,
        _ => def.times,
    };
    let bonus = if bolstered && def.complex_times.is_none() {
        d.combat.bolster
    } else {
        0
    };
    base * times + bonus
}

/// How many of the target's turns an effect given by `user` lasts: RAM ÷ 2 (at least 1),
/// times the effect's multiplier (Poison x3); 0 for one without a Duration.
pub fn duration(d: &DigimonData, kind: EffectKind, user: &Fighter) -> i64 {
    let c = &d.combat;
    let normal = (base_stat(d, user, RAM) / c.duration_divisor.max(1)).max(c.min_duration);
    match d.effect(kind).map(|e| e.lasting) {
        Some(Lasting::Normal) => normal,
        Some(Lasting::Times(n)) => normal * n,
        _ => 0,
    }
}

/// Puts an effect with a Duration on `f` under the stacking rule: the same user renews it to
/// a full Duration; another user adds its Duration and sets its potency.
pub fn stack(state: &mut DigiState, kind: EffectKind, potency: i64, turns: i64, by: CombatantId) {
    match state.effects.iter_mut().find(|e| e.kind == kind) {
        Some(e) if e.source == by => {
            e.turns = turns;
            e.potency = potency;
        }
        Some(e) => {
            e.turns += turns;
            e.potency = potency;
            e.source = by;
        }
        None => state.effects.push(ActiveEffect {
            kind,
            potency,
            turns,
            source: by,
        }),
    }
}

/// What an effect landing did, for the log.
fn effect_note(d: &DigimonData, kind: EffectKind) -> String {
    d.effect(kind)
        .map_or(format!("{kind:?}"), |e| e.name.clone())
}

/// Gives the effect of `a` to `target` after a hit (`dealt`: the damage it took), with the
/// stacking rule; Lifesteal heals the user instead (`user_heal` is what it gets back, once a
/// round), Knockback is the caller's (it moves the target), Heal adds Temporary HP, Haste a
/// Simple Action next round, Cleanse shortens negative effects, Direct waits for the next roll.
#[allow(clippy::too_many_arguments)]
pub fn apply_effect(
    d: &DigimonData,
    a: &DigiAttackDef,
    bolstered: bool,
    user: &Fighter,
    target: &mut FighterQueryItem,
    dealt: i64,
    log: &mut EventLog,
) -> Option<i64> {
    let kind = a.effect?;
    let snap = target.snapshot();
    let p = potency(d, kind, user, &snap, a.complex || bolstered, bolstered);
    let turns = duration(d, kind, user);
    let who = *target.id;
    let name = effect_note(d, kind);
    let state = target.digi.as_mut()?;
    let text = match kind {
        EffectKind::Lifesteal => return Some(p.min(dealt)),
        EffectKind::Knockback => return None,
        EffectKind::Heal => {
            // Temporary HP do not add up (our reading; the chapter is silent): the larger
            // amount is kept.
            state.temp_hp = state.temp_hp.max(p);
            format!("gives {p} Temporary HP (now {})", state.temp_hp)
        }
        EffectKind::Haste => {
            state.haste = true;
            "gains a Simple Action next round".into()
        }
        EffectKind::Direct => {
            state.directed = Some((p, user.id));
            format!("adds {p} to its next Dodge or Accuracy roll")
        }
        EffectKind::Cleanse => {
            let count = usize::try_from(base_stat(d, user, BIT).max(0)).unwrap_or(0);
            let by = base_stat(d, user, CPU).max(0);
            let mut cut = 0;
            for e in state
                .effects
                .iter_mut()
                .filter(|e| !e.kind.positive())
                .take(count)
            {
                e.turns -= by;
                cut += 1;
            }
            state.effects.retain(|e| e.turns > 0);
            format!("{cut} effect(s) shortened by {by} turn(s)")
        }
        EffectKind::Charm => {
            // "The user takes control of the target's actions": the user's side commands it
            // (and it fights for that side) until the Charm ends.
            stack(state, kind, p, turns, user.id);
            let now = state.effects.iter().find(|e| e.kind == kind);
            let left = now.map_or(turns, |e| e.turns);
            state.charmed_from.get_or_insert(*target.side);
            *target.side = user.side;
            format!(
                "{}'s side commands it for {left} turn(s)",
                user.identity.name
            )
        }
        _ => {
            stack(state, kind, p, turns, user.id);
            let now = state.effects.iter().find(|e| e.kind == kind);
            format!(
                "potency {}, {} turn(s) left",
                now.map_or(p, |e| e.potency),
                now.map_or(turns, |e| e.turns)
            )
        }
    };
    log.push(BattleEvent::DigiEffect {
        who,
        by: user.id,
        effect: name,
        text,
    });
    None
}

/// Squares a Knockback pushes: the user's CPU value x2 (with Bolster's +2).
pub fn knockback_squares(
    d: &DigimonData,
    user: &Fighter,
    target: &Fighter,
    bolstered: bool,
) -> u32 {
    u32::try_from(potency(d, EffectKind::Knockback, user, target, false, bolstered).max(0))
        .unwrap_or(0)
}

/// Damage taken through Temporary HP first: returns what reaches HP.
pub fn through_temp_hp(f: &mut FighterQueryItem, damage: i64) -> i64 {
    let Some(state) = f.digi.as_mut() else {
        return damage;
    };
    let soaked = state.temp_hp.min(damage).max(0);
    state.temp_hp -= soaked;
    damage - soaked
}

/// A combatant brought to `raw` HP (0 or below): a partnered Digimon above its Default Stage
/// falls back to it at 1 HP; one already there, or brought to minus its maximum, becomes a
/// Digitama (out of the fight); a Digimon with no Tamer is defeated; a Tamer is knocked out and
/// makes its Death Saving Throw (3d6, failing at 3, one higher per 2 HP below 0), or is killed
/// outright at minus its maximum. True when it stays in the fight.
pub fn fall(
    d: &DigimonData,
    f: &mut FighterQueryItem,
    raw: i64,
    dice: &mut DiceSource,
    log: &mut EventLog,
) -> bool {
    let snap = f.snapshot();
    let who = *f.id;
    let max = f.life.max;
    let Some(state) = f.digi.as_mut() else {
        return false;
    };
    if state.down.is_some() {
        return false;
    }
    if state.tamer {
        if raw <= -max {
            state.down = Some("killed outright".into());
            log.push(BattleEvent::DigiFall {
                who,
                text: format!(
                    "{} falls to {raw} HP (minus its maximum {max}) and is killed outright.",
                    snap.identity.name
                ),
            });
            return false;
        }
        let c = &d.combat;
        let tn = c.death_save.fail_at + 1 + (-raw) / c.death_save.per_points.max(1);
        let mut spec = check(d, RollKind::Amount("Death Saving Throw".into()));
        spec.modifiers.clear();
        let r = roll(&spec, dice);
        let lives = r.total >= tn;
        state.down = Some(if lives {
            "unconscious (passed the Death Saving Throw)".into()
        } else {
            "unconscious, dying (failed the Death Saving Throw)".into()
        });
        log.push(BattleEvent::DigiFall {
            who,
            text: format!(
                "{} is unconscious at {raw} HP. Death Saving Throw {} against {tn}: {}.",
                snap.identity.name,
                r.total,
                if lives { "survives" } else { "fails" }
            ),
        });
        return false;
    }
    let default = d
        .digimon(&snap.identity.archetype)
        .and_then(|x| x.default_stage.clone());
    let at_default = state.form.is_some() || default.is_none();
    if state.partner.is_none() {
        state.down = Some("defeated".into());
        return false;
    }
    if at_default || raw <= -max {
        state.down = Some("became a Digitama".into());
        state.effects.clear();
        log.push(BattleEvent::DigiFall {
            who,
            text: format!(
                "{} falls to {raw} HP {} and becomes a Digitama (a Digi-Egg): out of the fight.",
                snap.identity.name,
                if at_default {
                    "at its Default Stage"
                } else {
                    "(minus its maximum)"
                }
            ),
        });
        return false;
    }
    let Some(form_id) = default else {
        return false;
    };
    let Some(form) = d.digimon(&form_id) else {
        return false;
    };
    state.form = Some(form_id.clone());
    state.effects.clear();
    state.clash = None;
    state.temp_hp = 0;
    f.life.max = form.hp;
    f.life.current = 1;
    // From now on it attacks with its Default Stage's attacks (the action bar and the AI read
    // the loadout).
    f.loadout.profiles = crate::ruleset::digimon::loadout(&d.combat, &form.attacks);
    log.push(BattleEvent::DigiFall {
        who,
        text: format!(
            "{} drops to 0 HP and falls back to its Default Stage: {} ({}) at 1 HP.",
            snap.identity.name, form.name, form.stage
        ),
    });
    true
}

/// Ends one of `f`'s turns for its effects: each loses a turn and those at 0 end.
pub fn tick_effects(d: &DigimonData, f: &mut FighterQueryItem, log: &mut EventLog) {
    let who = *f.id;
    let Some(state) = f.digi.as_mut() else {
        return;
    };
    let mut ended = Vec::new();
    for e in state.effects.iter_mut() {
        e.turns -= 1;
        if e.turns <= 0 {
            ended.push(effect_note(d, e.kind));
        }
    }
    state.effects.retain(|e| e.turns > 0);
    for name in ended {
        log.push(BattleEvent::DigiEffect {
            who,
            by: who,
            effect: name,
            text: "wears off".into(),
        });
    }
}

/// Gives a combatant whose Charm is over (worn off, Cleansed, lost in a fall) back to its
/// own side.
pub fn release_charms(
    q: &mut bevy::prelude::Query<super::fighter::FighterQuery>,
    log: &mut EventLog,
) {
    for mut f in q.iter_mut() {
        let charmed = f
            .digi
            .as_ref()
            .is_some_and(|s| s.effects.iter().any(|e| e.kind == EffectKind::Charm));
        let who = *f.id;
        let name = f.identity.name.clone();
        let Some(state) = f.digi.as_mut() else {
            continue;
        };
        if charmed && state.down.is_none() {
            continue;
        }
        let Some(own) = state.charmed_from.take() else {
            continue;
        };
        *f.side = own;
        log.push(BattleEvent::DigiNote {
            who,
            text: format!("{name} is no longer Charmed: it fights for its own side again."),
        });
    }
}

/// The side `f` belongs to (a Charmed combatant's own, not its charmer's): the side whose
/// victory it counts for.
pub fn own_side(f: &Fighter) -> super::components::Side {
    f.digi
        .as_ref()
        .and_then(|s| s.charmed_from)
        .unwrap_or(f.side)
}

/// The Poison on `f`, if any: the HP it takes at the start of each of `f`'s turns, and who
/// gave it.
pub fn poison_damage(f: &Fighter) -> Option<(i64, CombatantId)> {
    f.digi.as_ref()?.effects.iter().find_map(|e| {
        (e.kind == EffectKind::Poison && e.potency > 0).then_some((e.potency, e.source))
    })
}

/// What Regenerate gives `f` back at the start of a round.
pub fn regeneration(f: &Fighter) -> i64 {
    f.digi.as_ref().map_or(0, |s| {
        s.effects
            .iter()
            .filter(|e| e.kind == EffectKind::Regenerate)
            .map(|e| e.potency)
            .sum()
    })
}

/// True when `me` has not spent this round's Interrupt Action ("once per round … either
/// … a Skill Check for free, or … an Intercede Action") and can take one: not Stunned or
/// Paralysed.
pub fn interrupt_left(me: &Fighter, round: u32) -> bool {
    me.digi
        .as_ref()
        .is_some_and(|s| s.interceded_round != round)
        && !has(me, EffectKind::Stun)
        && !has(me, EffectKind::Paralysis)
}

/// Spends a waiting Direct: the next Dodge or Accuracy roll has used it.
pub fn spend_direct(f: &mut FighterQueryItem) {
    if let Some(state) = f.digi.as_mut() {
        state.directed = None;
    }
}

/// A new round for `f`: Regenerate heals, Haste adds its Simple Action, Stun leaves none.
pub fn refresh_round(
    d: &DigimonData,
    f: &mut FighterQueryItem,
    actions: &mut u32,
    notes: &mut Vec<String>,
    log: &mut EventLog,
) {
    let snap = f.snapshot();
    let who = *f.id;
    let heal = regeneration(&snap);
    if heal > 0 && f.life.current < f.life.max {
        let to = (f.life.current + heal).min(f.life.max);
        log.push(BattleEvent::DigiEffect {
            who,
            by: who,
            effect: effect_note(d, EffectKind::Regenerate),
            text: format!(
                "restores {} HP ({} -> {to})",
                to - f.life.current,
                f.life.current
            ),
        });
        f.life.current = to;
    }
    let Some(state) = f.digi.as_mut() else {
        return;
    };
    state.hasted_now = state.haste;
    if state.haste {
        state.haste = false;
        *actions += 1;
        notes.push("Haste: +1 Simple Action".into());
    }
    if has(&snap, EffectKind::Stun) {
        *actions = 0;
        notes.push("Stunned: no actions".into());
    }
}

/// The start of `f`'s turn: Poison's unalterable damage (straight off HP, past Armor and
/// Temporary HP), and Stun taking whatever actions it has.
pub fn begin_turn(
    rules: &crate::ruleset::Rules,
    d: &DigimonData,
    f: &mut FighterQueryItem,
    dice: &mut DiceSource,
    log: &mut EventLog,
) {
    let snap = f.snapshot();
    if let Some((amount, by)) = poison_damage(&snap) {
        let raw = f.life.current - amount;
        super::effects::set_life(
            rules,
            f,
            raw,
            super::effects::LifeCause::Damage {
                by: Some(by),
                attack: false,
            },
            &format!("{} ({amount})", effect_note(d, EffectKind::Poison)),
            log,
        );
        if raw <= 0 {
            fall(d, f, raw, dice, log);
        }
    }
    if super::grapple::held(&snap) {
        f.actions.standard = 0;
        log.push(BattleEvent::DigiNote {
            who: snap.id,
            text: format!(
                "{} is held in a Clash it does not control: no actions this turn.",
                snap.identity.name
            ),
        });
    }
    if has(&snap, EffectKind::Stun) && f.actions.standard > 0 {
        f.actions.standard = 0;
        log.push(BattleEvent::DigiEffect {
            who: snap.id,
            by: snap.id,
            effect: effect_note(d, EffectKind::Stun),
            text: "leaves it no actions this turn".into(),
        });
    }
}

/// The damage phase of a Digimon attack that hit someone: one damage roll; each target hit
/// takes it minus its Armor (at least 1), through Temporary HP, and falls at 0 HP; then the
/// attack's effect lands on each target still in the fight (Knockback pushes, Lifesteal heals
/// the user once a round).
#[allow(clippy::too_many_arguments)]
pub fn resolve_hits(
    rules: &crate::ruleset::Rules,
    d: &DigimonData,
    field: &crate::grid::Field,
    attacker: &Fighter,
    targets: &[&Fighter],
    all: &[Fighter],
    ctx: &AttackContext,
    profile: &str,
    state: &mut super::state::AttackState,
    round: u32,
    dice: &mut DiceSource,
    q: &mut bevy::prelude::Query<super::fighter::FighterQuery>,
    log: &mut EventLog,
) {
    let Some((a, bolstered)) = attack_of(d, profile) else {
        return;
    };
    let wound = a.damage.then(|| roll(&ctx.wound, dice));
    if let Some(w) = &wound {
        log.push(BattleEvent::WoundRolled {
            attacker: attacker.id,
            roll: w.clone(),
        });
    }
    let mut dealt_total = 0;
    for (i, t) in targets.iter().enumerate() {
        if state.targets[i].hit != Some(true) {
            continue;
        }
        let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id) else {
            continue;
        };
        let mut dealt = 0;
        if let Some(w) = &wound {
            let armor = stat(d, t, ARM).max(0);
            let outside = ctx.targets.get(i).and_then(|x| x.damage_less.clone());
            let less = outside.as_ref().map_or(0, |x| x.0);
            let full = hit_damage(d, t, w.total, less);
            // Shielded by an ally's Intercede against an [Area] attack: half, at least 1.
            let half = state.targets[i].half;
            let damage = if half { (full / 2).max(1) } else { full };
            let to_hp = through_temp_hp(&mut f, damage);
            let mut notes = vec![format!("Armor {armor}")];
            if half {
                notes.push(format!("half of {full}: an ally Interceded"));
            }
            if let Some((_, why)) = outside {
                notes.insert(0, why);
            }
            if w.total - less - armor < 1 {
                notes.push("at least 1 from a successful Attack".into());
            }
            if to_hp < damage {
                notes.push(format!("{} absorbed by Temporary HP", damage - to_hp));
            }
            log.push(BattleEvent::Damage {
                attacker: attacker.id,
                target: t.id,
                wound: w.total,
                category: Category::Lethal,
                soak: armor,
                soak_used: armor.min(w.total),
                damage,
                notes,
                flat: true,
            });
            state.targets[i].damage = damage;
            dealt = damage;
            dealt_total += damage;
            let raw = f.life.current - to_hp;
            super::effects::set_life(
                rules,
                &mut f,
                raw,
                super::effects::LifeCause::Damage {
                    by: Some(attacker.id),
                    attack: true,
                },
                &format!("{}'s {}", attacker.identity.name, a.name),
                log,
            );
            if raw <= 0 && !fall(d, &mut f, raw, dice, log) {
                continue;
            }
        }
        if let Some(m) = a.clash {
            clash_move(d, field, m, attacker, t, all, dice, q, log);
            continue;
        }
        if a.effect == Some(EffectKind::Knockback) {
            let steps = knockback_squares(d, attacker, t, bolstered);
            push_away(field, all, attacker, t, steps, &mut f, log);
            continue;
        }
        let _ = apply_effect(d, a, bolstered, attacker, &mut f, dealt, log);
    }
    let Some(mut me) = q.iter_mut().find(|f| *f.id == attacker.id) else {
        return;
    };
    if a.effect == Some(EffectKind::Lifesteal) && dealt_total > 0 {
        let used = me.digi.as_ref().is_some_and(|s| s.lifesteal_round == round);
        let heal = potency(
            d,
            EffectKind::Lifesteal,
            attacker,
            attacker,
            bolstered,
            false,
        )
        .min(dealt_total)
        .max(0);
        let name = effect_note(d, EffectKind::Lifesteal);
        if used {
            log.push(BattleEvent::DigiEffect {
                who: attacker.id,
                by: attacker.id,
                effect: name,
                text: "was already activated this round (once per round)".into(),
            });
        } else if let Some(s) = me.digi.as_mut() {
            s.lifesteal_round = round;
            let to = (me.life.current + heal).min(me.life.max);
            log.push(BattleEvent::DigiEffect {
                who: attacker.id,
                by: attacker.id,
                effect: name,
                text: format!(
                    "heals {} HP ({} -> {to})",
                    to - me.life.current,
                    me.life.current
                ),
            });
            me.life.current = to;
        }
    }
}

/// Pushes `t` (whose query item is `f`) `steps` squares straight away from `from_who`,
/// stopping before walls and anyone standing in the way (Knockback, a Throw).
fn push_away(
    field: &crate::grid::Field,
    all: &[Fighter],
    from_who: &Fighter,
    t: &Fighter,
    steps: u32,
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) {
    let (Some(from), Some(at)) = (from_who.position, t.position) else {
        return;
    };
    let size = t.size.squares;
    let others: Vec<&Fighter> = all
        .iter()
        .filter(|o| o.id != t.id && !o.defeated())
        .collect();
    let to = super::context::push_destination(at, from, steps, |s| {
        crate::grid::footprint(s, size).iter().any(|sq| {
            field.cost(sq).is_none()
                || others.iter().any(|o| {
                    o.position
                        .is_some_and(|p| crate::grid::footprint(p, o.size.squares).contains(&sq))
                })
        })
    });
    if to != at {
        f.position.0 = Some(to);
        log.push(BattleEvent::Pushed {
            who: t.id,
            from: at,
            to,
        });
    }
}

/// What a Clash action does once declared: Start rolls for control, End frees both, Pin rolls
/// the contested Body checks, Throw (its damage already dealt) sends the opponent Body squares
/// away and ends the Clash.
#[allow(clippy::too_many_arguments)]
fn clash_move(
    d: &DigimonData,
    field: &crate::grid::Field,
    m: ClashMove,
    attacker: &Fighter,
    t: &Fighter,
    all: &[Fighter],
    dice: &mut DiceSource,
    q: &mut bevy::prelude::Query<super::fighter::FighterQuery>,
    log: &mut EventLog,
) {
    use super::grapple;
    match m {
        ClashMove::Start => {
            let w = grapple::roll_control(d, attacker, t, attacker.id, dice, log);
            let shield = grapple::shield(d, attacker, t);
            grapple::set_control(q, attacker, t, attacker.id, w, shield);
        }
        ClashMove::End => grapple::release(
            q,
            attacker.id,
            t.id,
            &format!("{} lets go; both are free", attacker.identity.name),
            log,
        ),
        ClashMove::Pin => {
            let (sa, sb) = grapple::pin_specs(d, attacker, t);
            let (ra, rb) = (roll(&sa, dice), roll(&sb, dice));
            let won = ra.total >= rb.total;
            let (ta, tb) = (ra.total, rb.total);
            log.push(BattleEvent::CheckRolled {
                who: attacker.id,
                purpose: format!("Pin against {}'s Body check", t.identity.name),
                roll: ra,
                target: tb,
                passed: won,
            });
            log.push(BattleEvent::CheckRolled {
                who: t.id,
                purpose: format!("resists {}'s Pin", attacker.identity.name),
                roll: rb,
                target: ta + 1,
                passed: !won,
            });
            if won {
                grapple::pin(q, t.id);
                log.push(BattleEvent::DigiNote {
                    who: t.id,
                    text: format!(
                        "{} is Pinned: it does not roll for control next round.",
                        t.identity.name
                    ),
                });
            }
        }
        ClashMove::Throw => {
            let steps =
                u32::try_from(stat(d, attacker, crate::ruleset::digimon::BODY).max(0)).unwrap_or(0);
            grapple::release(
                q,
                attacker.id,
                t.id,
                &format!("{} throws {}", attacker.identity.name, t.identity.name),
                log,
            );
            if let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id)
                && f.digi.as_ref().is_none_or(|s| s.down.is_none())
            {
                push_away(field, all, attacker, t, steps, &mut f, log);
            }
        }
    }
}

/// The end of a Digimon attack: the Accuracy roll used the attacker's Direct, each Dodge roll
/// its target's; a helping effect rolls neither, so no Direct is used and no ally's Dodge
/// penalty grows (returned: ids whose Dodge penalty grows).
pub fn end_attack(
    d: &DigimonData,
    profile: &str,
    attacker: CombatantId,
    targets: &[CombatantId],
    items: &mut [FighterQueryItem],
) -> Vec<CombatantId> {
    let rolled = attack_of(d, profile).is_some_and(|(a, _)| !helps(a) && a.clash.is_none());
    // A helping effect or a Clash action rolls neither Accuracy nor Dodge: nobody's Direct is
    // used; a Clash participant rolls no Dodge either.
    let clashing = |f: &FighterQueryItem| f.digi.as_ref().is_some_and(|s| s.clash.is_some());
    let dodged: Vec<CombatantId> = items
        .iter()
        .filter(|f| rolled && targets.contains(f.id) && !clashing(f))
        .map(|f| *f.id)
        .collect();
    // The Accuracy roll is made only when someone rolls Dodge against it.
    for f in items.iter_mut() {
        if (*f.id == attacker && !dodged.is_empty()) || dodged.contains(f.id) {
            spend_direct(f);
        }
    }
    dodged
}

/// What the AI counts an attack's effect as worth on `target` if it lands, in HP of damage:
/// a rough price (our default) so the planner weighs effects against damage. Negative effects
/// are worth their penalty over their duration to a foe; helping ones the same to an ally
/// (Heal and Regenerate only when the ally is hurt, Direct only to a partner).
pub fn effect_worth(d: &DigimonData, profile: &str, me: &Fighter, target: &Fighter) -> f64 {
    let Some((a, bolstered)) = attack_of(d, profile) else {
        return 0.0;
    };
    // A turn of the foe's actions is worth about a Stun's turn; starting a Clash wins it or
    // loses one's own, by the chance of control.
    match a.clash {
        Some(ClashMove::Start) => {
            let p = super::grapple::control_chance(d, me, target, me.id);
            return 8.0 * (2.0 * p - 1.0);
        }
        Some(ClashMove::Pin) => return 4.0 * super::grapple::pin_chance(d, me, target),
        Some(ClashMove::End | ClashMove::Throw) => return 0.0,
        None => {}
    }
    let Some(kind) = a.effect else {
        return 0.0;
    };
    let p = potency(d, kind, me, target, a.complex || bolstered, bolstered) as f64;
    let turns = duration(d, kind, me).clamp(1, 3) as f64;
    let hurt = (target.life.max - target.life.current) as f64;
    let ally = target.side == me.side;
    let w = match kind {
        EffectKind::Immobilize => 0.3 * p * turns,
        EffectKind::Knockback => 1.0,
        EffectKind::Taunt | EffectKind::Fear => 0.4 * p * turns,
        EffectKind::Poison => p * turns,
        EffectKind::Confuse | EffectKind::Blind => 0.6 * p * turns,
        EffectKind::Stun => 8.0 * turns,
        EffectKind::Paralysis => 0.6 * p * turns,
        EffectKind::Weaken => 0.7 * p * turns,
        EffectKind::Lifesteal => 0.0,
        // A foe's turns fought for us: each worth about one of its damage rolls (denied to
        // its side and dealt to it).
        EffectKind::Charm => turns * (stat(d, target, DMG).max(0) / 2) as f64 * 3.5,
        EffectKind::Vigor | EffectKind::Fury | EffectKind::Strengthen => 0.5 * p * turns,
        EffectKind::Heal => {
            let temp = target.digi.as_ref().map_or(0, |s| s.temp_hp) as f64;
            (p - temp).max(0.0).min(hurt + 5.0) * 0.8
        }
        EffectKind::Regenerate => p.min(hurt) * turns * 0.5,
        EffectKind::Direct if target.digi.as_ref().is_some_and(|s| s.directed.is_some()) => 0.0,
        EffectKind::Direct => 0.8 * p,
        EffectKind::Haste => 6.0,
        EffectKind::Cleanse => {
            3.0 * target.digi.as_ref().map_or(0, |s| {
                s.effects.iter().filter(|e| !e.kind.positive()).count()
            }) as f64
        }
    };
    // An effect already running from this user only renews; a helping one on a foe is worth
    // nothing (the checks refuse it anyway).
    let renews = target.digi.as_ref().is_some_and(|s| {
        s.effects
            .iter()
            .any(|e| e.kind == kind && e.source == me.id && e.turns > 1)
    });
    if kind.positive() != ally || renews {
        0.0
    } else {
        w
    }
}
