//! Threshold Saves and the End of the Attack: who fell, what ended, and a move that resumes.

use bevy::prelude::*;

use crate::battle::components::*;
use crate::battle::effects::announce_defeat;
use crate::battle::effects::end_condition;
use crate::battle::event::{ActionKind, BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::snapshot::Fighters;
use crate::battle::state::*;
use crate::grid::Field;
use crate::ruleset::{ConditionKind, Rules};

/// Threshold Saves after the maneuver: a Steadfast Save for the lowest threshold each
/// combatant reached, then its triggers; Bonus Momentum for the attacker who caused it.
pub fn roll_threshold_saves(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut dice: ResMut<BattleDice>,
    mut attack: ResMut<CurrentAttack>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    let mut items: Vec<_> = q.iter_mut().collect();
    items.sort_by_key(|f| *f.id);
    let mut bonus = Vec::new();
    for f in items.iter_mut() {
        if let Some(by) = crate::battle::effects::resolve_pending_threshold(
            rules,
            &mut dice.0,
            &order,
            f,
            &mut log,
        ) {
            bonus.push((
                by,
                *f.side,
                format!("knocked {} through a threshold", f.identity.name),
            ));
        }
    }
    // "Knock an Opponent through a Health Threshold": an ally caught in a blast earns nothing.
    for (by, knocked_side, reason) in bonus {
        if let Some(f) = items
            .iter_mut()
            .find(|f| *f.id == by && *f.side != knocked_side)
        {
            grant_bonus_momentum(rules, order.round, f, &reason, &mut log);
        }
    }
    state.phase = AttackPhase::End;
}

/// Bonus Momentum: +1 Standard Action, at most once per round; none in the round after Rage,
/// which allows one Action in all.
fn grant_bonus_momentum(
    rules: &Rules,
    round: u32,
    f: &mut FighterQueryItem,
    reason: &str,
    log: &mut EventLog,
) {
    if f.round.bonus_momentum || f.life.current <= 0 {
        return;
    }
    f.round.bonus_momentum = true;
    if f.encounter.rage_aftermath == Some(round) {
        log.push(BattleEvent::ActionWithheld {
            who: *f.id,
            reason: format!("Bonus Momentum ({reason})"),
        });
        return;
    }
    f.actions.standard += rules.actions.bonus_momentum_actions;
    log.push(BattleEvent::ActionGained {
        who: *f.id,
        kind: ActionKind::Standard,
        reason: format!("Bonus Momentum ({reason})"),
    });
}

/// End of the Attack: Diminishing Defense for everyone targeted, Defeated at 0 Life (Bonus
/// Momentum for defeating a Minion), Hidden lost by attacking.
pub fn end_attack(
    sys: RuleSys,
    order: Res<TurnOrder>,
    mut attack: ResMut<CurrentAttack>,
    mut moving: ResMut<CurrentMove>,
    mut recovery: ResMut<CurrentRecovery>,
    ground: Res<Battleground>,
) {
    let RuleSys {
        rules,
        mut log,
        mut progress,
        mut q,
        ..
    } = sys;
    let rules = &rules.0;
    let Some(state) = attack.0.take() else {
        return;
    };
    progress.0 = true;
    let attacker = state.order.attacker;
    let mut items: Vec<_> = q.iter_mut().collect();
    items.sort_by_key(|f| *f.id);
    let mut minion_defeated = None;
    // An interceder rolled no Dodge: its Dodge penalty does not grow.
    let all_targets: Vec<CombatantId> = state.targets.iter().map(|t| t.id).collect();
    let ids: Vec<CombatantId> = state
        .targets
        .iter()
        .filter(|t| !t.interceded)
        .map(|t| t.id)
        .collect();
    let family = crate::battle::family::of(rules);
    let attacker_side = items.iter().find(|f| *f.id == attacker).map(|f| *f.side);
    let dodged = family.dodged(&state.order.profile, attacker, ids, &mut items);
    for f in items.iter_mut() {
        let targeted = all_targets.contains(f.id);
        // Rulesets without Diminishing Defense (power stages: 0 per attack) log nothing; a
        // Digimon that rolled no Dodge (a helping effect, a Clash, Interceding) gains none.
        if dodged.contains(f.id)
            && f.life.current > 0
            && rules.tier(f.power.base_tier).diminishing_defense != 0
        {
            let stacks = rules.tier(f.power.base_tier).diminishing_defense;
            f.defense.diminishing += stacks;
            log.push(family.dodge_penalty_event(*f.id, stacks, f.defense.diminishing));
        }
        let is_attacker = *f.id == attacker;
        if !(targeted || is_attacker) {
            continue;
        }
        let by = (!is_attacker).then_some(attacker);
        let newly_defeated = announce_defeat(rules, &order, f, by, &mut log);
        if newly_defeated && f.power.minion && !is_attacker && Some(*f.side) != attacker_side {
            minion_defeated = Some(f.identity.name.clone());
        }
    }
    if let Some(f) = items.iter_mut().find(|f| *f.id == attacker) {
        if let Some(name) = minion_defeated {
            grant_bonus_momentum(
                rules,
                order.round,
                f,
                &format!("defeated the Minion {name}"),
                &mut log,
            );
        }
        if f.conditions.has(ConditionKind::Hidden) {
            end_condition(
                rules,
                &order,
                f,
                ConditionKind::Hidden,
                "attacked",
                &mut log,
            );
        }
    }
    if let Some(f) = items.iter_mut().find(|f| *f.id == attacker) {
        family.attack_ended(f, &state.order.profile, state.exploit.is_some());
        crate::battle::effects::release_charge(f, &state.order, &mut log);
    }
    log.push(BattleEvent::AttackEnded { attacker });
    // "If an Exploit caused by leaving melee deals damage, the movement stops at that point."
    // Shinobi: "If the opportunity attack succeeds, the moving Character is stopped where they
    // entered the attackers range."
    if let (Some(mover), Some(m)) = (state.exploit, moving.0.as_mut())
        && m.who == mover
    {
        if family.opportunity_attacks() {
            if state
                .targets
                .iter()
                .any(|t| t.id == mover && t.hit == Some(true))
            {
                m.stopped = true;
                let field = ground.field(rules);
                stop_at_entry(m, attacker, &field, &mut items, &mut log);
            }
        } else if state.targets.iter().any(|t| t.id == mover && t.damage > 0) {
            m.stopped = true;
            let field = ground.field(rules);
            stop_where_it_may_stand(m, &field, &mut items, &mut log);
        }
    }
    // "If an Exploit hits you, you lose the LP regained" by a Combat Recovery.
    if let (Some(who), Some(r)) = (state.exploit, recovery.0.as_mut())
        && r.who == who
        && state
            .targets
            .iter()
            .any(|t| t.id == who && t.hit == Some(true))
    {
        r.hit = true;
    }
    drop(items);
    family.after_attack(&mut q, &mut log);
}

/// True when the mover of `m` may be left standing on `s`: no one else there, and for a jump,
/// whose path passes over ground no one can stand on (a crate), ground it can stand on.
fn may_stand(m: &MoveState, field: &Field, all: &[Fighter], mover: &Fighter, s: Square) -> bool {
    crate::battle::fighter::can_end_on(all, mover, s)
        && (!m.jump || crate::grid::path::step_cost(field, s, mover.size.squares).is_some())
}

/// Shinobi: moves a mover stopped by `by`'s opportunity attack back to the square where it
/// entered `by`'s reach on this move (or the first square after it where it may stand), and
/// shortens the move to end there.
fn stop_at_entry(
    m: &mut MoveState,
    by: CombatantId,
    field: &Field,
    items: &mut [FighterQueryItem],
    log: &mut EventLog,
) {
    let all: Vec<Fighter> = items.iter().map(|f| f.snapshot()).collect();
    let (Some(mover), Some(opponent)) = (
        all.iter().find(|f| f.id == m.who),
        all.iter().find(|f| f.id == by),
    ) else {
        return;
    };
    let visited: Vec<Square> = std::iter::once(m.start)
        .chain(m.path[..m.next].iter().copied())
        .collect();
    // Allies may be passed through but not stood on: the first free square from the entry on;
    // when every one from there is an ally's (the mover is stopped on one), the last free
    // square before it, as a DBU move stopped on an ally's square does.
    let free_from_entry =
        crate::battle::family::shinobi::entered_reach(&visited, mover.size.squares, opponent)
            .and_then(|entry| visited.iter().position(|s| *s == entry))
            .and_then(|first| {
                (first..visited.len()).find(|k| may_stand(m, field, &all, mover, visited[*k]))
            });
    let Some(k) = free_from_entry else {
        stop_where_it_may_stand(m, field, items, log);
        return;
    };
    let at = visited[k];
    if Some(at) == mover.position {
        return;
    }
    if let Some(f) = items.iter_mut().find(|f| *f.id == m.who) {
        f.position.0 = Some(at);
    }
    // visited[k] is path[k - 1]: the move now ends after it.
    m.next = k;
    log.push(BattleEvent::StoppedAtReach { who: m.who, by, at });
}

/// DBU: a move stopped by an Exploit "stops at that point"; an ally's square can be passed
/// through but not stood on, so a mover stopped on one goes back along its path to the last
/// square where it may stand, and the move ends there.
fn stop_where_it_may_stand(
    m: &mut MoveState,
    field: &Field,
    items: &mut [FighterQueryItem],
    log: &mut EventLog,
) {
    let all: Vec<Fighter> = items.iter().map(|f| f.snapshot()).collect();
    let Some(mover) = all.iter().find(|f| f.id == m.who) else {
        return;
    };
    let visited: Vec<Square> = std::iter::once(m.start)
        .chain(m.path[..m.next].iter().copied())
        .collect();
    if visited
        .last()
        .is_none_or(|s| may_stand(m, field, &all, mover, *s))
    {
        return;
    }
    let Some(k) = (0..visited.len())
        .rev()
        .find(|k| may_stand(m, field, &all, mover, visited[*k]))
    else {
        return;
    };
    let at = visited[k];
    if let Some(f) = items.iter_mut().find(|f| *f.id == m.who) {
        f.position.0 = Some(at);
    }
    // visited[k] is path[k - 1] (or the start): the move now ends after it.
    m.next = k;
    log.push(BattleEvent::StoppedShort { who: m.who, at });
}
