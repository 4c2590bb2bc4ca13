//! The Digimon chapter's Intercede: once a round (the round's Interrupt Action, which a free
//! Skill Check spends too: [`crate::battle::family::digimon::interrupt_left`]), an ally of a target about to be
//! hit moves up to its Movement to stand between the target and the attacker and takes the hit
//! instead, with the attack's Accuracy and damage roll kept, its own Armor, and no Dodge.
//! Against an [Area] attack the ally it shields still takes half the damage.
//!
//! The window opens after the Accuracy and Dodge rolls, for each target hit: "an ally who is
//! about to be hit". Readings of ours: "between" is a square next to the target, nearer the
//! attacker than the target is (the first such square by distance to the attacker, then by
//! square order); an interceder must not be a target of the same attack, nor held in a Clash
//! (it may not leave contact), Stunned or Paralysed; half damage is rounded down, at least 1.

use bevy::prelude::*;

use crate::battle::command::{Command, Decision};
use crate::battle::components::{CombatantId, ExploitPolicy, Square};
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::family::digimon::stat;
use crate::battle::fighter::Fighter;
use crate::battle::snapshot::Fighters;
use crate::battle::state::*;
use crate::dice::distribution;
use crate::grid::{Field, chebyshev};
use crate::ruleset::Rules;
use crate::ruleset::digimon::{ARM, DigimonData};

/// The square `me` would Intercede from: a square it can reach this instant within its
/// Movement (or stands on), next to `target` and nearer `attacker` than `target` is.
pub fn between_square(
    rules: &Rules,
    field: &Field,
    all: &[Fighter],
    me: &Fighter,
    attacker: &Fighter,
    target: &Fighter,
) -> Option<Square> {
    let (at, tp, ap) = (me.position?, target.position?, attacker.position?);
    let near = chebyshev(tp, ap);
    let mut squares: Vec<Square> =
        crate::battle::movement::reachable_squares(rules, field, all, me, false)
            .into_keys()
            .filter(|s| crate::battle::fighter::can_end_on(all, me, *s))
            .collect();
    squares.push(at);
    squares.retain(|s| {
        crate::grid::footprint_distance(*s, me.size.squares, tp, target.size.squares) <= 1
            && chebyshev(*s, ap) < near
    });
    squares.sort_by_key(|s| (chebyshev(*s, ap), *s != at, *s));
    squares.first().copied()
}

/// Who may Intercede for `target` against `attacker`'s attack this instant, each with its
/// square: its allies not in the attack, free to move, not yet Interceding this round.
pub fn candidates(
    rules: &Rules,
    field: &Field,
    all: &[Fighter],
    attacker: &Fighter,
    target: &Fighter,
    in_attack: &[CombatantId],
    round: u32,
) -> Vec<(CombatantId, Square)> {
    all.iter()
        .filter(|f| {
            f.side == target.side
                && f.id != target.id
                && f.id != attacker.id
                && !in_attack.contains(&f.id)
                && !f.defeated()
                && f.digi
                    .as_ref()
                    .is_some_and(|s| s.down.is_none() && s.clash.is_none())
                && crate::battle::family::digimon::interrupt_left(f, round)
        })
        .filter_map(|f| between_square(rules, field, all, f, attacker, target).map(|s| (f.id, s)))
        .collect()
}

/// The computer's answer: step in for a Tamer, or for an ally the hit would bring to 0 HP,
/// when the interceder can take the hit with HP to spare.
pub fn wants(
    d: &DigimonData,
    attacker: &Fighter,
    profile: &str,
    me: &Fighter,
    target: &Fighter,
) -> bool {
    let Some((a, _)) = crate::battle::family::digimon::attack_of(d, profile) else {
        return false;
    };
    if !a.damage {
        return false;
    }
    let mean = distribution(&crate::battle::family::digimon::wound_spec(d, attacker, a)).mean();
    let on = |f: &Fighter| (mean - stat(d, f, ARM).max(0) as f64).max(1.0);
    let hp = |f: &Fighter| (f.life.current + f.digi.as_ref().map_or(0, |s| s.temp_hp)) as f64;
    let spare = hp(me) > 2.0 * on(me);
    let tamer = crate::battle::family::digimon::is_tamer(target)
        && !crate::battle::family::digimon::is_tamer(me);
    spare && (tamer || on(target) >= hp(target))
}

/// The attacker and the target among `all`, if both are there.
fn pair(
    all: &[Fighter],
    attacker: CombatantId,
    target: CombatantId,
) -> Option<(&Fighter, &Fighter)> {
    Some((
        all.iter().find(|f| f.id == attacker)?,
        all.iter().find(|f| f.id == target)?,
    ))
}

/// Opens the Intercede window for the hits of the attack under way: the computer's units
/// answer at once; a person's are asked in turn.
pub fn offer_intercede(
    sys: RuleSys,
    ground: Res<Battleground>,
    order: Res<TurnOrder>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
) {
    let RuleSys {
        rules,
        mut log,
        mut progress,
        mut q,
        ..
    } = sys;
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    let Some(d) = rules.digimon() else {
        state.phase = AttackPhase::Damage;
        return;
    };
    let field = ground.field(rules);
    if !state.intercede_opened {
        state.intercede_opened = true;
        let stepping_in = crate::battle::family::digimon::attack_of(d, &state.order.profile)
            .is_some_and(|(a, _)| !crate::battle::family::digimon::helps(a) && a.clash.is_none());
        if stepping_in {
            let hits: Vec<CombatantId> = state
                .targets
                .iter()
                .filter(|t| t.hit == Some(true))
                .map(|t| t.id)
                .collect();
            for target in hits {
                let all = q.snapshots();
                let in_attack: Vec<CombatantId> = state.targets.iter().map(|t| t.id).collect();
                let Some((attacker, t)) = pair(&all, state.order.attacker, target) else {
                    continue;
                };
                let mut asked = Vec::new();
                for (who, at) in
                    candidates(rules, &field, &all, attacker, t, &in_attack, order.round)
                {
                    let Some(me) = all.iter().find(|f| f.id == who) else {
                        continue;
                    };
                    match me.controller.exploits {
                        ExploitPolicy::Never => {}
                        ExploitPolicy::Prompt => asked.push((who, target)),
                        ExploitPolicy::Always => {
                            if asked.is_empty() && wants(d, attacker, &state.order.profile, me, t) {
                                step_in(state, target, who, at, &mut q, &mut log, order.round);
                                asked.clear();
                                break;
                            }
                        }
                    }
                }
                state.interceders.extend(asked);
            }
        }
    }
    if let Some(&(who, target)) = state.interceders.first() {
        awaiting.0 = Some(Decision::Intercede {
            who,
            target,
            attacker: state.order.attacker,
        });
        return;
    }
    state.phase = AttackPhase::Damage;
}

/// `Intercede`: a prompted ally's answer. Yes: it steps in (if it still can); no: the next
/// ally is asked.
pub fn apply_intercede_answer(
    sys: RuleSys,
    ground: Res<Battleground>,
    order: Res<TurnOrder>,
    mut pending: ResMut<PendingCommand>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
) {
    let RuleSys {
        rules,
        mut log,
        mut progress,
        mut q,
        ..
    } = sys;
    let Some((who, accept)) = crate::battle::state::take(&mut pending, |c| match c {
        Command::Intercede { who, accept } => Some((*who, *accept)),
        _ => None,
    }) else {
        return;
    };
    awaiting.0 = None;
    progress.0 = true;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    let Some(&(_, target)) = state.interceders.iter().find(|(w, _)| *w == who) else {
        return;
    };
    state.interceders.retain(|(w, _)| *w != who);
    if !accept {
        return;
    }
    let rules = &rules.0;
    let field = ground.field(rules);
    let all = q.snapshots();
    let in_attack: Vec<CombatantId> = state.targets.iter().map(|t| t.id).collect();
    let Some((attacker, t)) = pair(&all, state.order.attacker, target) else {
        return;
    };
    let spot = candidates(rules, &field, &all, attacker, t, &in_attack, order.round)
        .into_iter()
        .find(|(w, _)| *w == who);
    if let Some((_, at)) = spot {
        step_in(state, target, who, at, &mut q, &mut log, order.round);
        // The target is shielded: nobody else is asked for it.
        state.interceders.retain(|(_, t)| *t != target);
    }
}

/// `who` moves to `at` and takes `target`'s place in the attack (an [Area] attack keeps the
/// target, at half damage).
fn step_in(
    state: &mut AttackState,
    target: CombatantId,
    who: CombatantId,
    at: Square,
    q: &mut Fighters,
    log: &mut EventLog,
    round: u32,
) {
    let Some(i) = state.targets.iter().position(|t| t.id == target) else {
        return;
    };
    let names: Vec<(CombatantId, String)> =
        q.iter().map(|f| (*f.id, f.identity.name.clone())).collect();
    let name = |id: CombatantId| {
        names
            .iter()
            .find(|(x, _)| *x == id)
            .map_or_else(String::new, |(_, n)| n.clone())
    };
    let area = state.targets.len() > 1
        || matches!(
            state.order.target,
            crate::battle::command::AttackTarget::Square(_)
                | crate::battle::command::AttackTarget::SquareToward(..)
                | crate::battle::command::AttackTarget::Direction(_)
                | crate::battle::command::AttackTarget::InReach
        );
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    let from = f.position.0;
    f.position.0 = Some(at);
    if let Some(s) = f.digi.as_mut() {
        s.interceded_round = round;
    }
    let mut step = state.targets[i].clone();
    step.id = who;
    step.interceded = true;
    step.half = false;
    step.damage = 0;
    if area {
        state.targets[i].half = true;
        state.targets.push(step);
    } else {
        state.targets[i] = step;
    }
    let moved = match from {
        Some(p) if p != at => format!(" moves from {p} to {at} and"),
        _ => String::new(),
    };
    log.push(BattleEvent::DigiNote {
        who,
        text: format!(
            "{} Intercedes:{moved} steps between {} and {} and takes the hit (no Dodge){}.",
            name(who),
            name(target),
            name(state.order.attacker),
            if area {
                format!("; {} still takes half the damage", name(target))
            } else {
                String::new()
            }
        ),
    });
}
