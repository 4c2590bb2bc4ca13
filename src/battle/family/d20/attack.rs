//! The d20 family's attack: the context assembled once, its exact odds, the checks and hits
//! rolled from it, and what an attack costs and refuses.

use std::collections::BTreeMap;

use super::rolls::{
    answer_roll, armour_dr, critical_multiplier, defense_spec, difficulty_of, difficulty_spec,
    effect_dice, effect_points, effect_spec, follow_up, full_round_attacks, gear, hand_held,
    offered, points_of, power_attack_cap, power_attack_of, prone_in_melee, strike_spec,
    success_chances, swing, wound_spec,
};
use super::swift::own_swift_left;
use super::tidy;
use crate::battle::command::DefenseChoice;
use crate::battle::command::RuleError;
use crate::battle::components::FullAttack;
use crate::battle::context::{AttackContext, Declaration, TargetContext};
use crate::battle::effects::{LifeCause, set_life};
use crate::battle::event::{ActionKind, BattleEvent, EventLog};
use crate::battle::family::{DamagePhase, RollPhase};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::{RollSummary, TargetOdds};
use crate::battle::state::{AttackPhase, AttackState, TargetState};
use crate::dice::roll;
use crate::dice::{DiceGroup, DiceSource, Dist, RollBreakdown, RollKind, RollSpec};
use crate::grid::Field;
use crate::ruleset::Rules;
use crate::ruleset::d20::{D20AttackDef, D20Data, WeaponClass, WeaponDef};
use crate::ruleset::shinobi::DefenseKind;

/// Assembles a d20 attack: the attack roll at this swing, each target's difficulty (range,
/// cover or concealment), the defenses it may answer with, and the Effect Points before the
/// Success Value (the context's `wound`).
pub fn assemble(
    d: &D20Data,
    field: &Field,
    attacker: &Fighter,
    targets: &[&Fighter],
    decl: &Declaration,
) -> AttackContext {
    let (Some(a), Some(w)) = (
        d.attack(&decl.profile.id),
        d.attack(&decl.profile.id).and_then(|a| d.weapon(&a.weapon)),
    ) else {
        return AttackContext::empty();
    };
    if let Some(g) = crate::battle::family::d20::grenade::of(d, &a.id) {
        return assemble_throw(d, &g, field, attacker, targets, decl);
    }
    let at = swing(attacker, &a.id);
    let power = power_attack_of(d, attacker, a, decl.power_attack);
    let base = strike_spec(d, attacker, a, at, power);
    // Each target's own attack roll: off guard when flanked, feinted or by an unseen
    // attacker (+2 once, whatever the causes).
    let strikes: Vec<RollSpec> = targets
        .iter()
        .map(|t| {
            let mut s = base.clone();
            let why = super::feint::off_guard_causes(d, field, attacker, t, a, decl.bystanders);
            if let Some(off) = d.combat.off_guard.as_ref().filter(|_| !why.is_empty()) {
                s.add(format!("off guard: {}", why.join(", ")), off.bonus);
            }
            s
        })
        .collect();
    // A one-target attack rolls its target's roll (every d20 attack but a grenade has one).
    let strike = match strikes.as_slice() {
        [one] => one.clone(),
        _ => base,
    };
    AttackContext {
        ki_cost: 0,
        wager: 0,
        strike,
        targets: targets
            .iter()
            .zip(strikes)
            .map(|(t, strike)| {
                let distance = attacker.distance_to(t).unwrap_or(1);
                let shield = super::aimed::protection(d, field, attacker, t, decl.aimed);
                let difficulty = difficulty_spec(d, attacker, t, w, &shield);
                let mut bonus: Vec<_> = difficulty.modifiers.iter().skip(1).cloned().collect();
                bonus.extend(prone_in_melee(d, t, w));
                let mut tc = TargetContext::new(
                    t.id,
                    attacker.distance_to(t),
                    strike,
                    offered(d, t, a, distance)
                        .into_iter()
                        .map(|c| {
                            let spec = match c {
                                // Taking the shot rolls nothing.
                                DefenseChoice::Take => RollSpec::new(RollKind::Dodge),
                                // Dropping prone rolls nothing either: the shot's difficulty
                                // gets the prone bonus.
                                DefenseChoice::DropProne => {
                                    let mut s = difficulty.clone();
                                    if let Some(p) = &d.combat.prone {
                                        s.add(format!("prone +{} (drops prone)", p.shots), p.shots);
                                    }
                                    s
                                }
                                DefenseChoice::Block => {
                                    defense_spec(d, t, Some(w), DefenseKind::Block, &bonus)
                                }
                                _ => defense_spec(d, t, Some(w), DefenseKind::Dodge, &bonus),
                            };
                            (c, spec)
                        })
                        .collect(),
                );
                tc.difficulty = Some(difficulty);
                tc.damage_less = shield.cover_dr;
                tc.armour_ignored = shield.armour_ignored;
                tc
            })
            .collect(),
        wound: effect_spec(d, attacker, a, at, power),
        reflected: None,
    }
}

/// Assembles a grenade throw: the aim roll against the DC to the square aimed at, no
/// defense (each target's Roll check comes with the blast), the chance the blast catches
/// each target, and the grenade's Effect Points.
pub(super) fn assemble_throw(
    d: &D20Data,
    g: &crate::battle::family::d20::grenade::Grenade,
    field: &Field,
    attacker: &Fighter,
    targets: &[&Fighter],
    decl: &Declaration,
) -> AttackContext {
    let strike = crate::battle::family::d20::grenade::aim_spec(d, g, attacker);
    let aim = decl.aimed_at.or(attacker.position).unwrap_or_default();
    let distance = attacker
        .position
        .map_or(0, |p| crate::grid::chebyshev(p, aim));
    let difficulty = crate::battle::family::d20::grenade::aim_dc(d, g, distance);
    let dc = difficulty.flat_total();
    AttackContext {
        ki_cost: 0,
        wager: 0,
        strike: strike.clone(),
        targets: targets
            .iter()
            .map(|t| TargetContext {
                difficulty: Some(difficulty.clone()),
                blast: Some(crate::battle::family::d20::grenade::catch_chance(
                    d,
                    g,
                    field,
                    attacker,
                    targets,
                    (aim, dc),
                    t,
                )),
                ..TargetContext::new(t.id, attacker.distance_to(t), strike.clone(), Vec::new())
            })
            .collect(),
        wound: effect_spec(d, attacker, g.attack, 0, 0),
        reflected: None,
    }
}

/// The damage a hit by `success` deals `target` after its multiplier, the DR of any cover it
/// is shot through, and the armour's DR (none for a shot aimed at the armour's gaps).
pub(super) fn hit_damage(
    d: &D20Data,
    w: &WeaponDef,
    effect: &RollSpec,
    (target, tc): (&Fighter, &TargetContext),
    success: i64,
) -> Dist {
    let crit = w.critical.unwrap_or(d.combat.critical);
    let mult = critical_multiplier(&crit, success);
    let dr = match tc.armour_ignored {
        Some(_) => 0,
        None => armour_dr(d, target, &w.damage_type).map_or(0, |x| x.0),
    };
    let cover = tc.damage_less.as_ref().map_or(0, |x| x.0);
    let t = &d.combat.effect_table;
    let (dice, bonus) = effect_dice(t, points_of(d, effect, success));
    // The same few rolls come up again and again in the computer player's search.
    type Key = (u32, u32, i64, i64, i64, i64);
    thread_local! {
        static CACHE: std::cell::RefCell<bevy::platform::collections::HashMap<Key, Dist>> =
            std::cell::RefCell::new(Default::default());
    }
    let key = (dice, t.die, bonus, mult, dr, cover);
    if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return hit;
    }
    let out = Dist::dice(DiceGroup {
        count: dice,
        sides: t.die,
    })
    .shift(bonus)
    .clamp_min(0)
    .scale(mult)
    .map(|v| ((v - cover).max(0) - dr).max(0));
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() > 4096 {
            c.clear();
        }
        c.insert(key, out.clone());
    });
    out
}

/// The exact outcome of one d20 attack on one target answering `choice`: hit (natural 1s,
/// the difficulty, the defense), the Success Value's dice, criticals, the armour's DR, defeat.
pub fn target_odds(
    d: &D20Data,
    ctx: &AttackContext,
    t: &TargetContext,
    attacker_profile: &str,
    target: &Fighter,
    choice: DefenseChoice,
) -> TargetOdds {
    if let (Some(g), Some(blast)) = (
        crate::battle::family::d20::grenade::of(d, attacker_profile),
        &t.blast,
    ) {
        let caught = blast.chance();
        let mut dist = Dist::point(0);
        dist.p[0] = (1.0 - caught).max(0.0);
        for (cover, p) in &blast.by_cover {
            let damage = crate::battle::family::d20::grenade::blast_damage(
                d, &g, &ctx.wound, target, *cover,
            );
            dist.mix(&damage, *p);
        }
        return TargetOdds {
            difficulty: t.difficulty.as_ref().map(RollSummary::of),
            ..TargetOdds::lethal(
                t.id,
                choice,
                caught,
                &dist,
                target.life.current,
                &t.strike,
                RollSummary::of(&blast.save),
            )
        };
    }
    let weapon = d.attack(attacker_profile).and_then(|a| d.weapon(&a.weapon));
    let difficulty = difficulty_of(t, choice);
    let dc = difficulty.map_or(0, RollSpec::flat_total);
    let defense = answer_roll(t, choice);
    let successes = success_chances(&t.strike, dc, defense);
    let hit: f64 = successes.values().sum();
    let mut dist = Dist::point(0);
    dist.p[0] = (1.0 - hit).max(0.0);
    let mut critical = 0.0;
    if let Some(w) = weapon {
        let crit = w.critical.unwrap_or(d.combat.critical);
        // Success Values with the same dice and multiplier deal the same damage.
        let mut groups: BTreeMap<((u32, i64), i64), (i64, f64)> = BTreeMap::new();
        for (sv, p) in &successes {
            let points = points_of(d, &ctx.wound, *sv);
            let key = (
                effect_dice(&d.combat.effect_table, points),
                critical_multiplier(&crit, *sv),
            );
            groups.entry(key).or_insert((*sv, 0.0)).1 += p;
            if *sv >= crit.threat {
                critical += p;
            }
        }
        for (sv, p) in groups.values() {
            dist.mix(&hit_damage(d, w, &ctx.wound, (target, t), *sv), *p);
        }
    }
    TargetOdds {
        critical_hit_chance: critical,
        difficulty: difficulty.map(RollSummary::of),
        ..TargetOdds::lethal(
            t.id,
            choice,
            hit,
            &dist,
            target.life.current,
            &t.strike,
            defense.map_or_else(
                || RollSummary::of(&RollSpec::new(RollKind::Dodge)),
                RollSummary::of,
            ),
        )
    }
}

/// Rolls the attack and each target's defense, and records for each target whether it is hit
/// and by how much (its Success Value).
pub fn roll_checks(
    ctx: &AttackContext,
    attacker: crate::battle::components::CombatantId,
    targets: &mut [TargetState],
    dice: &mut DiceSource,
    log: &mut EventLog,
) -> RollBreakdown {
    let strike = tidy(roll(&ctx.strike, dice));
    log.push(BattleEvent::StrikeRolled {
        attacker,
        roll: strike.clone(),
    });
    let natural_one = strike.natural == Some(1);
    for (i, tc) in ctx.targets.iter().enumerate() {
        let Some(state) = targets.get_mut(i) else {
            continue;
        };
        let choice = state.defense.unwrap_or(DefenseChoice::Dodge);
        let difficulty = difficulty_of(tc, choice);
        let dc = difficulty.map_or(0, RollSpec::flat_total);
        let defense = if let Some(spec) = answer_roll(tc, choice) {
            let r = tidy(roll(spec, dice));
            log.push(BattleEvent::DefenseRolled {
                defender: tc.id,
                roll: r.clone(),
            });
            Some(r)
        } else {
            None
        };
        let defense_counts = defense.as_ref().filter(|r| r.natural != Some(1));
        let need = defense_counts.map_or(dc, |r| r.total.max(dc));
        let hit = !natural_one && strike.total >= need;
        state.hit = Some(hit);
        state.success = hit.then_some(strike.total - need);
        log.push(BattleEvent::D20Check {
            attacker,
            defender: tc.id,
            strike: strike.total,
            difficulty: dc,
            difficulty_why: difficulty
                .map(|s| {
                    s.modifiers
                        .iter()
                        .map(|m| m.label.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default(),
            defense: defense.as_ref().map(|r| r.total),
            attack_natural_one: natural_one,
            defense_natural_one: defense.as_ref().is_some_and(|r| r.natural == Some(1)),
            hit,
            success: state.success,
        });
    }
    strike
}

/// What one hit did: the damage roll, its multiplier, the cover's and the armour's shares and
/// the damage taken.
pub struct Hit {
    pub roll: RollBreakdown,
    pub multiplier: i64,
    pub dealt: i64,
    /// What the cover shot through stopped, and the cover's name and DR.
    pub through_cover: Option<(i64, String)>,
    pub stopped: i64,
    pub armour: Option<String>,
    /// The armour a shot aimed at its gaps got past.
    pub armour_ignored: Option<String>,
    pub bypassed: bool,
    pub damage: i64,
    pub damage_type: String,
    /// How the Effect Points add up.
    pub points: String,
}

/// Rolls the damage of a hit by `success` on `target`: the Effect Points' dice, the critical
/// multiplier, the DR of any cover shot through ("you must now penetrate the DR of the
/// cover"), then the armour's DR by damage type ("BD that first goes against Betty's armor";
/// none for a shot aimed at its gaps); damage above the armour's DR gets through and wears it.
pub fn roll_hit(
    d: &D20Data,
    profile: &str,
    effect: &RollSpec,
    (target, tc): (&Fighter, &TargetContext),
    success: i64,
    dice: &mut DiceSource,
) -> Option<Hit> {
    let w = d.attack(profile).and_then(|a| d.weapon(&a.weapon))?;
    let r = roll(&wound_spec(d, effect, success), dice);
    let crit = w.critical.unwrap_or(d.combat.critical);
    let multiplier = critical_multiplier(&crit, success);
    let dealt = r.total * multiplier;
    let cover = tc.damage_less.as_ref().map_or(0, |x| x.0);
    let past_cover = (dealt - cover).max(0);
    let (dr, armour) = match armour_dr(d, target, &w.damage_type) {
        _ if tc.armour_ignored.is_some() => (0, None),
        Some((dr, name)) => (dr, Some(name)),
        None => (0, None),
    };
    let damage = (past_cover - dr).max(0);
    Some(Hit {
        roll: r,
        multiplier,
        dealt,
        through_cover: tc
            .damage_less
            .as_ref()
            .map(|(_, why)| (dealt.min(cover), why.clone())),
        stopped: past_cover.min(dr),
        bypassed: armour.is_some() && past_cover > dr,
        armour,
        armour_ignored: tc.armour_ignored.clone(),
        damage,
        damage_type: d.damage_type_name(&w.damage_type).to_string(),
        points: effect_points(d, effect, success).1,
    })
}

/// The log notes of a hit, for the Damage line.
pub fn hit_notes(h: &Hit) -> Vec<String> {
    let mut notes = vec![h.points.clone()];
    if h.multiplier > 1 {
        notes.push(format!("critical hit x{}", h.multiplier));
    }
    if let Some((n, cover)) = &h.through_cover {
        notes.push(format!("shot through the cover: {cover} stops {n}"));
    }
    if let Some(a) = &h.armour {
        notes.push(format!("{a} stops {} {}", h.stopped, h.damage_type));
    }
    if let Some(a) = &h.armour_ignored {
        notes.push(format!("aimed at the gaps: {a} stops nothing"));
    }
    notes
}

/// The d20 refusals of an attack order: an attack of opportunity is a Standard-action melee
/// attack and needs the round's one attack of opportunity; a later swing of a full-round
/// attack costs nothing; anything else needs its actions.
pub fn check_attack(
    d: &D20Data,
    attacker: &Fighter,
    profile: &str,
    opportunity: bool,
) -> Result<(), RuleError> {
    let Some(a) = d.attack(profile) else {
        return Ok(());
    };
    let melee = d.weapon(&a.weapon).is_some_and(hand_held);
    if opportunity {
        if !melee || a.full_round {
            return Err(RuleError::AttackOfOpportunityNeedsMelee {
                attack: a.name.clone(),
            });
        }
        if attacker.actions.counter == 0 {
            return Err(RuleError::OpportunityUsed { who: attacker.id });
        }
        return Ok(());
    }
    if follow_up(&attacker.round, profile).is_some() {
        return Ok(());
    }
    let need = if a.full_round {
        d.combat.actions_per_round
    } else {
        1
    };
    if !a.full_round && attacker.round.standard_attack {
        return Err(RuleError::OneStandardAttack { who: attacker.id });
    }
    if attacker.actions.usable() < need {
        return Err(RuleError::NotEnoughAp {
            who: attacker.id,
            need,
            have: attacker.actions.usable(),
        });
    }
    Ok(())
}

/// Refuses a Power Attack `f` may not declare with `profile`: without the feat, with a missile
/// or a grenade, above the cap, or other than the one in effect since its last turn's first
/// attack (0 declares nothing and takes what is in effect).
pub fn check_power_attack(
    d: &D20Data,
    f: &Fighter,
    profile: &str,
    declared: i64,
) -> Result<(), RuleError> {
    let Some(a) = d.attack(profile) else {
        return Ok(());
    };
    if declared == 0 {
        return Ok(());
    }
    if declared < 0 {
        return Err(RuleError::NegativeWager);
    }
    let Some(w) = d.weapon(&a.weapon).filter(|w| hand_held(w)) else {
        return Err(RuleError::PowerAttackNeedsMelee {
            attack: a.name.clone(),
        });
    };
    let Some(most) = power_attack_cap(d, f, a) else {
        return Err(RuleError::PowerAttackNeedsFeat { who: f.id });
    };
    if declared > most {
        return Err(RuleError::PowerAttackTooHigh {
            asked: declared,
            most,
            skill: super::rolls::stat_name(d, &w.skill).to_string(),
        });
    }
    match f.encounter.power_attack {
        Some(amount) if amount != declared => Err(RuleError::PowerAttackSet { who: f.id, amount }),
        _ => Ok(()),
    }
}

/// Actions `profile` costs `f` now: nothing for a later swing of its full-round attack, every
/// action for a full-round attack, else one.
pub fn cost_now(d: &D20Data, f: &Fighter, profile: &str) -> u32 {
    match d.attack(profile) {
        _ if follow_up(&f.round, profile).is_some() => 0,
        Some(a) if a.full_round => d.combat.actions_per_round,
        _ => 1,
    }
}

/// Pays for a d20 attack: the round's attack of opportunity, nothing for a later swing of a
/// full-round attack, else its actions (a full round starts its swings).
pub fn pay_attack(
    d: &D20Data,
    f: &mut FighterQueryItem,
    decl: &Declaration,
    opportunity: bool,
    log: &mut EventLog,
) {
    let profile = decl.profile.id.as_str();
    let Some(a) = d.attack(profile) else {
        return;
    };
    if opportunity {
        f.actions.counter = f.actions.counter.saturating_sub(1);
        log.push(BattleEvent::ActionSpent {
            who: *f.id,
            kind: ActionKind::Counter,
            what: format!("the round's attack of opportunity ({})", a.name),
        });
        return;
    }
    if follow_up(&f.round, profile).is_some() {
        return;
    }
    let ap = if a.full_round {
        d.combat.actions_per_round
    } else {
        1
    };
    crate::battle::family::shinobi::spend_ap(f, ap, &format!("an attack ({})", a.name), log);
    if !a.full_round {
        f.round.standard_attack = true;
    }
    if a.full_round {
        let snap = f.snapshot();
        let ranks = d
            .weapon(&a.weapon)
            .map_or(0, |w| snap.attributes.get(&w.skill));
        f.round.full_attack = Some(FullAttack {
            attack: a.id.clone(),
            made: 0,
            left: full_round_attacks(&d.combat, ranks, a.rapid_shot),
        });
    }
    // The first melee attack of its own turn sets its Power Attack until the next one starts.
    if f.encounter.power_attack.is_none() && d.weapon(&a.weapon).is_some_and(hand_held) {
        f.encounter.power_attack = Some(decl.power_attack);
        if decl.power_attack > 0 {
            log.push(BattleEvent::PowerAttack {
                who: *f.id,
                amount: decl.power_attack,
            });
        }
    }
}

/// Squares of the round's free single step `f` may still take (0: taken, or none).
pub fn step_left(d: &D20Data, f: &Fighter) -> u32 {
    if f.round.stepped {
        0
    } else {
        d.combat.single_step
    }
}

/// Counts a swing of a full-round attack once its attack is over.
pub fn count_swing(f: &mut FighterQueryItem, profile: &str) {
    if let Some(fa) = f.round.full_attack.as_mut()
        && fa.attack == profile
        && fa.left > 0
    {
        fa.made += 1;
        fa.left -= 1;
    }
}

/// True when shooting `a` from where `attacker` stands provokes an attack of opportunity from
/// `enemy`: a missile attack while the enemy, with a melee weapon and its attack of opportunity
/// unused, threatens the shooter's square ("Adam's next ranged attack provokes an attack of
/// opportunity from Betty because she threatens his space"). An enemy who dove for cover and
/// still owes the Move action takes none ("cannot take actions of any kind (including free
/// actions) until the move action has been spent", 001:354).
pub fn provokes(d: &D20Data, attacker: &Fighter, a: &D20AttackDef, enemy: &Fighter) -> bool {
    let missile = d
        .weapon(&a.weapon)
        .is_some_and(|w| w.class == WeaponClass::Missile);
    let threatens = gear(d, enemy).is_some_and(|(_, w)| w.class != WeaponClass::Missile);
    missile
        && threatens
        && enemy.side != attacker.side
        && !enemy.defeated()
        && enemy.actions.counter > 0
        && !enemy.encounter.dive_owed
        && attacker.distance_to(enemy) == Some(1)
}

/// The computer lies down at the end of its turn when a foe could shoot it from beyond melee
/// range and no foe with a hand weapon could reach it next turn (prone is worse up close),
/// paying only with the round's own Swift action.
pub fn worth_lying_down(rules: &Rules, me: &Fighter, all: &[Fighter]) -> bool {
    rules
        .d20()
        .is_some_and(|d| own_swift_left(d, me.encounter.prone, &me.round))
        && exposed_to_shots(rules, me, all)
}

/// True when a foe could shoot `me` from beyond melee range and no foe with a hand weapon
/// could reach it next turn: where lying down, or diving for cover, pays.
pub fn exposed_to_shots(rules: &Rules, me: &Fighter, all: &[Fighter]) -> bool {
    let Some(d) = rules.d20() else {
        return false;
    };
    if me.defeated() {
        return false;
    }
    let foes = || {
        all.iter()
            .filter(|f| f.side != me.side && !f.defeated() && f.position.is_some())
    };
    // A foe's whole round of moving, and a step into melee.
    let reach = |f: &Fighter| {
        let squares = f.derived(rules).normal_speed.max(0) as u32 * d.combat.actions_per_round;
        me.distance_to(f).is_some_and(|x| x <= squares + 1)
    };
    let shooter = foes()
        .any(|f| crate::battle::family::d20::shoots(d, f) && me.distance_to(f).unwrap_or(0) > 1);
    let striker = foes().any(|f| !crate::battle::family::d20::shoots(d, f) && reach(f));
    shooter && !striker
}

/// The d20 roll phase. A grenade: the aim, then its blast (or a miss lying live), resolved at
/// once. Any other attack: one who drops prone lies down before the shot is rolled (its
/// difficulty already counts the prone bonus, from the answer's entry), the attack roll against
/// the difficulty and each defense, and a diver lands prone once its Dodge check is made.
pub fn roll_phase(d: &D20Data, p: &mut RollPhase, state: &mut AttackState) {
    let rules = p.rules;
    let Ok(mut decl) =
        crate::battle::context::declaration(rules, p.attacker, &state.order, p.targets.len())
    else {
        return;
    };
    let won = state.sneak_won.clone();
    decl.sneak_won = &won;
    decl.bystanders = p.all;
    if super::grenade::of(d, &state.order.profile).is_some() {
        let mut live = std::mem::take(&mut p.ground.0.grenades);
        let field = p.ground.field(rules);
        let ctx = crate::battle::family::assemble(rules, &field, p.attacker, p.targets, &decl);
        let scene = super::grenade::Scene {
            rules,
            d,
            field: &field,
            all: p.all,
        };
        super::grenade::throw(&scene, &mut live, p.attacker, &ctx.wound, state, &mut p.res);
        p.ground.0.grenades = live;
        state.phase = AttackPhase::End;
        return;
    }
    let field = p.ground.field(rules);
    let ctx = crate::battle::family::assemble(rules, &field, p.attacker, p.targets, &decl);
    let (dice, q, log) = (&mut *p.res.dice, &mut *p.res.q, &mut *p.res.log);
    for t in state
        .targets
        .iter()
        .filter(|t| t.defense == Some(DefenseChoice::DropProne))
    {
        if let Some(mut f) = q.one_mut(t.id)
            && let Ok(how) = super::swift::check_drop_prone(d, &f.snapshot(), false)
        {
            super::swift::drop_prone(d, &mut f, how, true, log);
        }
    }
    let strike = roll_checks(&ctx, p.attacker.id, &mut state.targets, dice, log);
    if let Some(a) = d.attack(&state.order.profile) {
        let off_guard: Vec<bool> = p
            .targets
            .iter()
            .map(|t| !super::feint::off_guard_causes(d, &field, p.attacker, t, a, p.all).is_empty())
            .collect();
        super::feint::after_attack(q, p.attacker.id, p.targets, &off_guard);
    }
    for t in state
        .targets
        .iter()
        .filter(|t| t.defense == Some(DefenseChoice::Dive))
    {
        if let Some(mut f) = q.one_mut(t.id) {
            super::dive::dive(d, &field, p.all, &mut f, p.attacker, log);
        }
    }
    // "The first missile attack against you": a shot let come spends the kept Dodge check too.
    for t in &state.targets {
        let shot = ctx
            .targets
            .iter()
            .any(|c| c.id == t.id && c.offers(DefenseChoice::Take));
        if shot
            && t.defense != Some(DefenseChoice::Dive)
            && let Some(mut f) = q.one_mut(t.id)
            && f.encounter.dive_ready
        {
            f.encounter.dive_ready = false;
            log.push(BattleEvent::Dive {
                who: t.id,
                text: format!(
                    "{} lets the first shot come: the Dodge check its dive kept is spent",
                    f.identity.name
                ),
            });
        }
    }
    state.strike = Some(strike);
    state.phase = AttackPhase::Damage;
}

/// The d20 damage phase: for each target hit, the Success Value turned into Effect Points and
/// dice, less the armour's DR (wearing the armour when a hit bypasses it), then hit points lost.
pub fn roll_damage(d: &D20Data, p: &mut DamagePhase, state: &mut AttackState) {
    let DamagePhase {
        rules,
        field,
        attacker,
        targets,
        decl,
        ..
    } = *p;
    let (dice, q, log) = (&mut *p.res.dice, &mut *p.res.q, &mut *p.res.log);
    let ctx = crate::battle::family::assemble(rules, field, attacker, targets, decl);
    for (i, t) in targets.iter().enumerate() {
        let (Some(true), Some(success)) = (state.targets[i].hit, state.targets[i].success) else {
            continue;
        };
        let Some(tc) = ctx.targets.get(i) else {
            continue;
        };
        let Some(hit) = super::roll_hit(d, &decl.profile.id, &ctx.wound, (t, tc), success, dice)
        else {
            continue;
        };
        log.push(BattleEvent::WoundRolled {
            attacker: attacker.id,
            roll: hit.roll.clone(),
        });
        log.push(BattleEvent::Damage {
            attacker: attacker.id,
            target: t.id,
            wound: hit.dealt,
            category: crate::ruleset::Category::Lethal,
            soak: 0,
            soak_used: 0,
            damage: hit.damage,
            notes: super::hit_notes(&hit),
            flat: true,
        });
        state.targets[i].damage = hit.damage;
        let Some(mut f) = q.one_mut(t.id) else {
            continue;
        };
        if hit.bypassed {
            super::wear_armour(d, &mut f, log);
        }
        let to = f.life.current - hit.damage;
        set_life(
            rules,
            &mut f,
            crate::battle::event::Pool::Hp,
            to,
            LifeCause::Damage {
                by: Some(attacker.id),
                attack: true,
            },
            &format!("{}'s {}", attacker.identity.name, decl.profile.name),
            log,
        );
    }
}
