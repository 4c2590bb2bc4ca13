//! Rules that several systems apply the same way: changing Life (and reaching Health
//! Thresholds), the Steadfast Save and health triggers, and gaining or losing a condition.

use std::collections::BTreeSet;

use super::checks::{roll_against, save_spec, steadfast_spec};
use super::components::*;
use super::event::{ActionKind, BattleEvent, EventLog, Pool};
use super::fighter::{FighterQueryItem, at_tier};
use super::state::{TurnOrder, TurnPhase};
use crate::dice::{DiceSource, roll};
use crate::ruleset::{ConditionKind, ConditionRule, Rules};

/// How Life changed, which decides what reaching a threshold this way does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LifeCause {
    /// Damage: a threshold reached asks for a Steadfast Save after the maneuver. `by` is who
    /// dealt it (the sufferer itself for its own effects); `attack` is true for an Attacking
    /// Maneuver (Bonus Momentum).
    Damage {
        by: Option<CombatantId>,
        attack: bool,
    },
    /// Life lost other than by damage (Poisoned): penalties apply, nothing triggers.
    Loss,
    /// Healing: rising above a threshold clears its penalty.
    Healing,
}

/// The thresholds whose Life requirement `life` meets (only Injured for a Minion).
pub fn reached_thresholds(rules: &Rules, minion: bool, life: Life) -> BTreeSet<usize> {
    rules
        .damage
        .thresholds
        .iter()
        .enumerate()
        .filter(|(_, t)| !minion || rules.characters.minion.thresholds.contains(&t.id))
        .filter(|(_, t)| {
            life.current * i64::from(t.fraction.denominator)
                <= life.max * i64::from(t.fraction.numerator)
        })
        .map(|(i, _)| i)
        .collect()
}

/// The penalty to Combat Rolls now in force for `f`, for the log.
fn penalty_event(rules: &Rules, f: &FighterQueryItem) -> BattleEvent {
    let idx = f.thresholds.failed.iter().next_back().copied();
    BattleEvent::ThresholdPenalty {
        who: *f.id,
        threshold: idx.map(|i| rules.damage.thresholds[i].id.clone()),
        penalty: idx.map_or(0, |i| {
            at_tier(
                &rules.damage.thresholds[i].penalty,
                f.power.tier,
                f.power.base_tier,
            )
        }),
    }
}

/// Sets `f`'s Life to `new` (clamped to 0..=max) and records thresholds reached or left;
/// `pool` is what the family keeps life in, as the log names it
/// ([`life_pool`](super::family::Family::life_pool)).
pub fn set_life(
    rules: &Rules,
    f: &mut FighterQueryItem,
    pool: Pool,
    new: i64,
    cause: LifeCause,
    reason: &str,
    log: &mut EventLog,
) {
    let before = *f.life;
    let value = new.clamp(0, before.max);
    if value == before.current {
        return;
    }
    f.life.current = value;
    log.push(BattleEvent::PoolChanged {
        who: *f.id,
        pool,
        from: before.current,
        to: value,
        reason: reason.to_string(),
    });
    let now = reached_thresholds(rules, f.power.minion, *f.life);
    let newly: Vec<usize> = now.difference(&f.thresholds.reached).copied().collect();
    let left = f.thresholds.reached.difference(&now).count() > 0;
    f.thresholds.reached = now.clone();
    if let Some(&lowest) = newly.last() {
        let name = rules.damage.thresholds[lowest].id.clone();
        match cause {
            LifeCause::Damage { by, attack } => {
                log.push(BattleEvent::ThresholdReached {
                    who: *f.id,
                    threshold: name,
                    by_damage: true,
                });
                let deeper = f
                    .thresholds
                    .pending
                    .as_ref()
                    .is_none_or(|p| p.index < lowest);
                if deeper {
                    f.thresholds.pending = Some(PendingThreshold {
                        index: lowest,
                        by,
                        by_attack: attack,
                    });
                }
            }
            LifeCause::Loss | LifeCause::Healing => {
                log.push(BattleEvent::ThresholdReached {
                    who: *f.id,
                    threshold: name,
                    by_damage: false,
                });
                f.thresholds.failed.insert(lowest);
                log.push(penalty_event(rules, f));
            }
        }
    }
    if left {
        let before_failed = f.thresholds.failed.clone();
        f.thresholds.failed.retain(|i| now.contains(i));
        if let Some(p) = &f.thresholds.pending
            && !now.contains(&p.index)
        {
            f.thresholds.pending = None;
        }
        if before_failed != f.thresholds.failed {
            log.push(penalty_event(rules, f));
        }
    }
}

/// Rolls the Steadfast Save for `f`'s pending threshold and fires its health triggers (once per
/// encounter per threshold): Reduced Momentum for one's own effects and Rage entry. Returns who
/// earned Bonus Momentum by knocking `f` through, if anyone did.
pub fn resolve_pending_threshold(
    rules: &Rules,
    dice: &mut DiceSource,
    order: &TurnOrder,
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) -> Option<CombatantId> {
    let pending = f.thresholds.pending.take()?;
    let idx = pending.index;
    let name = rules.damage.thresholds[idx].id.clone();
    let defeated = f.life.current <= 0;
    if !defeated {
        let r = roll(&steadfast_spec(rules), dice);
        let passed = r.total >= i64::from(rules.dice.steadfast.pass_at);
        let steady = r.natural == Some(rules.dice.steadfast.critical_at);
        log.push(BattleEvent::SteadfastRolled {
            who: *f.id,
            threshold: name.clone(),
            roll: r,
            passed,
        });
        if !passed {
            f.thresholds.failed.insert(idx);
            log.push(penalty_event(rules, f));
        }
        let reason = "Steady Momentum (natural 10 on the Steadfast Save)";
        // "+1 Action to use by the end of your next turn": the following one when the save
        // is made during one's own turn (Backlash, Damage Over Time, an Exploit on a move).
        let until = order.following_turn_round(*f.id);
        if steady && f.encounter.rage_aftermath == Some(until) {
            // It would be spent in the round after Rage, which allows one Action in all.
            log.push(BattleEvent::ActionWithheld {
                who: *f.id,
                reason: reason.into(),
            });
        } else if steady {
            f.actions.steady += rules.actions.steady_momentum_actions;
            f.actions.steady_round = until;
            log.push(BattleEvent::ActionGained {
                who: *f.id,
                kind: ActionKind::Momentum,
                reason: reason.into(),
            });
        }
    }
    if !f.thresholds.triggered.insert(idx) {
        return None;
    }
    let mut bonus = None;
    match pending.by {
        Some(by) if by == *f.id && !f.round.reduced_momentum => {
            f.round.reduced_momentum = true;
            f.round.next_round_penalty += rules.actions.reduced_momentum_actions;
            log.push(BattleEvent::ReducedMomentum {
                who: *f.id,
                threshold: name.clone(),
                actions: rules.actions.reduced_momentum_actions,
            });
        }
        Some(by) if by == *f.id => {}
        Some(by) if pending.by_attack => bonus = Some(by),
        _ => {}
    }
    let rage = &rules.damage.rage_entry;
    if !defeated
        && rage.enabled
        && rules.threshold_index(&rage.threshold) == Some(idx)
        && !f.encounter.rage_used
    {
        let spec = save_spec(rules, &f.snapshot(), &rage.save, 0);
        let purpose = format!("resists Rage at {name} ({} Save)", rage.save);
        if !roll_against(rules, dice, &spec, &rage.difficulty, *f.id, purpose, log) {
            f.encounter.rage_used = true;
            let expires = Expiry::EndOfTurn {
                round: order.next_turn_round(*f.id),
                of: *f.id,
            };
            grant_condition(rules, f, ConditionKind::Rage, None, 0, expires, log);
        }
    }
    bonus
}

/// The expiry of a condition lasting `rounds` Combat Rounds from now (0: until ended): "ends
/// at the end of the turn it started in, after x rounds have passed".
pub fn expiry_after(order: &TurnOrder, rounds: u32) -> Expiry {
    if rounds == 0 {
        return Expiry::UntilEnded;
    }
    match order.active() {
        Some(of) if matches!(order.phase, TurnPhase::TurnStart | TurnPhase::Acting) => {
            Expiry::EndOfTurn {
                round: order.round + rounds,
                of,
            }
        }
        _ => Expiry::EndOfRound(order.round + rounds),
    }
}

fn later(a: Expiry, b: Expiry) -> Expiry {
    let key = |e: &Expiry| match e {
        Expiry::UntilEnded => (u32::MAX, 0),
        Expiry::EndOfTurn { round, .. } => (*round, 0),
        Expiry::EndOfRound(r) => (*r, 1),
    };
    if key(&b) > key(&a) { b } else { a }
}

/// Gives `f` a condition, following its stacking rule: Slowed stacks; Fatigued and Weakened
/// stack up to their maximum; Damage Over Time adds damage up to its cap but keeps the first
/// duration; the others refresh to the later expiry. `source` is who gave it, with its Tier of
/// Power (none: `f` itself, at its own).
pub fn grant_condition(
    rules: &Rules,
    f: &mut FighterQueryItem,
    kind: ConditionKind,
    source: Option<(CombatantId, u32)>,
    amount: i64,
    expires: Expiry,
    log: &mut EventLog,
) {
    let rule = &rules.condition(kind).rule;
    let own_tier = f.power.tier;
    let source_tier = source.map_or(own_tier, |(_, tier)| tier);
    let source = source.map(|(id, _)| id);
    let existing = f.conditions.0.iter().position(|c| c.kind == kind);
    let inst = match existing {
        Some(i) => {
            let c = &mut f.conditions.0[i];
            match rule {
                ConditionRule::Slowed { .. } => c.stacks += 1,
                ConditionRule::Fatigued { max_stacks, .. }
                | ConditionRule::Weakened { max_stacks, .. } => {
                    c.stacks = (c.stacks + 1).min(*max_stacks)
                }
                ConditionRule::DamageOverTime { cap, .. } => {
                    let cap = at_tier(cap, own_tier, f.power.base_tier);
                    c.amount = (c.amount + amount).min(cap);
                }
                _ => {}
            }
            if !matches!(rule, ConditionRule::DamageOverTime { .. }) {
                c.expires = later(c.expires, expires);
                c.source = source.or(c.source);
                c.source_tier = source_tier;
            }
            c.clone()
        }
        None => {
            let amount = match rule {
                ConditionRule::DamageOverTime { cap, .. } => {
                    amount.min(at_tier(cap, own_tier, f.power.base_tier))
                }
                _ => amount,
            };
            let c = ConditionInstance {
                kind,
                source,
                source_tier,
                stacks: 1,
                amount,
                expires,
                failures: 0,
                category: None,
            };
            f.conditions.0.push(c.clone());
            c
        }
    };
    log.push(BattleEvent::ConditionApplied {
        who: *f.id,
        kind,
        source,
        stacks: inst.stacks,
        amount: inst.amount,
        expires: inst.expires,
    });
    match rule {
        ConditionRule::Pinned { .. } if existing.is_none() => {
            f.actions.lost_to_pin = (f.actions.standard, f.actions.counter);
            f.actions.standard = 0;
            f.actions.counter = 0;
        }
        ConditionRule::Fatigued { .. } | ConditionRule::Weakened { .. } => {
            clamp_pools(rules, f, log);
        }
        ConditionRule::Absorbed { .. } => f.position.0 = None,
        _ => {}
    }
}

/// Keeps Ki and Capacity within their (possibly reduced) maxima.
fn clamp_pools(rules: &Rules, f: &mut FighterQueryItem, log: &mut EventLog) {
    let d = f.snapshot().derived(rules);
    if f.ki.current > d.max_ki {
        log.push(BattleEvent::PoolChanged {
            who: *f.id,
            pool: Pool::Ki,
            from: f.ki.current,
            to: d.max_ki,
            reason: "maximum Ki reduced".into(),
        });
        f.ki.current = d.max_ki;
    }
    if f.capacity.current > d.max_capacity {
        log.push(BattleEvent::PoolChanged {
            who: *f.id,
            pool: Pool::Capacity,
            from: f.capacity.current,
            to: d.max_capacity,
            reason: "maximum Capacity reduced".into(),
        });
        f.capacity.current = d.max_capacity;
    }
}

/// Removes a condition from `f` with its ending effects: Pinned gives back this round's lost
/// Actions; Rage leaves its aftermath for the next round.
pub fn end_condition(
    rules: &Rules,
    order: &TurnOrder,
    f: &mut FighterQueryItem,
    kind: ConditionKind,
    reason: &str,
    log: &mut EventLog,
) -> Option<ConditionInstance> {
    let inst = f.conditions.remove(kind)?;
    log.push(BattleEvent::ConditionEnded {
        who: *f.id,
        kind,
        reason: reason.to_string(),
    });
    match &rules.condition(kind).rule {
        ConditionRule::Pinned { .. } => {
            let (s, c) = std::mem::take(&mut f.actions.lost_to_pin);
            f.actions.standard += s;
            f.actions.counter += c;
            if s + c > 0 {
                log.push(BattleEvent::ActionGained {
                    who: *f.id,
                    kind: ActionKind::Standard,
                    reason: format!("Pinned ended: {s} Standard and {c} Counter Actions back"),
                });
            }
        }
        ConditionRule::Rage { .. } => {
            f.encounter.rage_aftermath = Some(order.round + 1);
            // The negative conditions Rage ignored hold again: Fatigued and Weakened lower
            // the maxima the pools may have filled past meanwhile.
            clamp_pools(rules, f, log);
        }
        ConditionRule::Superiority => {
            let penalty = f.snapshot().arrogance_penalty(rules);
            if penalty != 0 {
                log.push(BattleEvent::ArroganceAftermath {
                    who: *f.id,
                    penalty,
                });
            }
        }
        _ => {}
    }
    Some(inst)
}

/// Ends every condition whose expiry matches `done` (a turn or round that just ended).
pub fn expire_conditions(
    rules: &Rules,
    order: &TurnOrder,
    f: &mut FighterQueryItem,
    done: impl Fn(&Expiry) -> bool,
    log: &mut EventLog,
) {
    let kinds: Vec<ConditionKind> = f
        .conditions
        .0
        .iter()
        .filter(|c| done(&c.expires))
        .map(|c| c.kind)
        .collect();
    for k in kinds {
        end_condition(rules, order, f, k, "its duration ran out", log);
    }
}

/// Life and Ki after a between-battle recovery (Instant, Short, Long, Extended): each pool
/// regains its fraction of the maximum, never above it. `None` for an unknown recovery id.
pub fn recover(rules: &Rules, recovery: &str, life: Life, ki: Ki) -> Option<(Life, Ki)> {
    let r = rules.damage.recoveries.iter().find(|r| r.id == recovery)?;
    let l = Life {
        current: (life.current + r.restores.of(life.max)).min(life.max),
        max: life.max,
    };
    let k = Ki {
        current: (ki.current + r.restores.of(ki.max)).min(ki.max),
        max: ki.max,
    };
    Some((l, k))
}

/// Spends `n` actions on `what`: Steady Momentum actions first (they expire sooner), then
/// Standard ones.
pub fn spend_actions(f: &mut FighterQueryItem, n: u32, what: &str, log: &mut EventLog) {
    for _ in 0..n {
        let kind = if f.actions.steady > 0 {
            f.actions.steady -= 1;
            ActionKind::Momentum
        } else {
            f.actions.standard = f.actions.standard.saturating_sub(1);
            ActionKind::Standard
        };
        log.push(BattleEvent::ActionSpent {
            who: *f.id,
            kind,
            what: what.to_string(),
        });
    }
}

/// Takes `cost` Ki out of the pool and out of this round's Capacity for `what`, logged as
/// both (a Boosted move, an Energy Charge).
pub fn spend_ki(f: &mut FighterQueryItem, cost: i64, what: &str, log: &mut EventLog) {
    let who = *f.id;
    let (k0, c0) = (f.ki.current, f.capacity.current);
    f.ki.current -= cost;
    f.capacity.current -= cost;
    log.push(BattleEvent::KiSpent {
        who,
        amount: cost,
        from: k0,
        to: f.ki.current,
        what: what.to_string(),
    });
    log.push(BattleEvent::PoolChanged {
        who,
        pool: Pool::Capacity,
        from: c0,
        to: f.capacity.current,
        reason: "Ki spent this round".into(),
    });
}

/// Turns one Standard Action into a Counter Action.
pub fn convert_action(f: &mut FighterQueryItem, log: &mut EventLog) {
    f.actions.standard = f.actions.standard.saturating_sub(1);
    f.actions.counter += 1;
    log.push(BattleEvent::ActionConverted { who: *f.id });
}

/// Logs a combatant's defeat once and ends what Defeated ends: Rage, Superiority, Hidden and
/// any stacks (Diminishing Defense, Steady Momentum).
pub fn announce_defeat(
    rules: &crate::ruleset::Rules,
    order: &TurnOrder,
    f: &mut super::fighter::FighterQueryItem,
    by: Option<CombatantId>,
    log: &mut EventLog,
) -> bool {
    if f.life.current > 0 || f.encounter.defeated {
        return false;
    }
    f.encounter.defeated = true;
    log.push(BattleEvent::Defeated { who: *f.id, by });
    for k in [
        ConditionKind::Rage,
        ConditionKind::Superiority,
        ConditionKind::Hidden,
    ] {
        super::effects::end_condition(rules, order, f, k, "Defeated", log);
    }
    f.defense.diminishing = 0;
    f.actions.steady = 0;
    lose_charge(f, "Defeated", log);
    if f.encounter.power > 0 {
        crate::battle::effects::end_power(rules, f, "Power Up ends (Defeated)", log);
    }
    f.encounter.power_expires = None;
    true
}

/// Ends Power Up stacks whose time is up; called at the end of each turn.
pub fn fade_power(
    rules: &Rules,
    active: CombatantId,
    round: u32,
    f: &mut super::fighter::FighterQueryItem,
    log: &mut EventLog,
) {
    let due = matches!(
        f.encounter.power_expires,
        Some(Expiry::EndOfTurn { round: r, of }) if of == active && r <= round
    );
    if f.encounter.power > 0 && due {
        log.push(BattleEvent::PowerFaded { who: *f.id });
        end_power(rules, f, "Power Up faded", log);
    }
}

/// Ends every Power Up stack and takes back the extra Capacity they gave (`why` for the log):
/// when the stacks fade and when their holder is Defeated.
pub fn end_power(
    rules: &Rules,
    f: &mut super::fighter::FighterQueryItem,
    why: &str,
    log: &mut EventLog,
) {
    f.encounter.power = 0;
    f.encounter.power_expires = None;
    let max = f.snapshot().derived(rules).max_capacity;
    if f.capacity.current > max {
        log.push(BattleEvent::PoolChanged {
            who: *f.id,
            pool: Pool::Capacity,
            from: f.capacity.current,
            to: max,
            reason: why.into(),
        });
        f.capacity.current = max;
    }
}

/// The held charges are lost (cancelled, or their holder defeated).
pub fn lose_charge(f: &mut FighterQueryItem, reason: &str, log: &mut EventLog) {
    if let Some(held) = f.encounter.charge.take() {
        log.push(BattleEvent::ChargeLost {
            who: *f.id,
            charges: held.charges,
            reason: reason.to_string(),
        });
    }
}

/// The attack `order` was made: the charges it was fed go with it.
pub fn release_charge(
    f: &mut FighterQueryItem,
    order: &super::command::AttackOrder,
    log: &mut EventLog,
) {
    if f.encounter
        .charge
        .as_ref()
        .is_some_and(|c| c.feeds(&order.profile, order.technique.as_deref()))
        && let Some(held) = f.encounter.charge.take()
    {
        log.push(BattleEvent::ChargeReleased {
            who: *f.id,
            charges: held.charges,
        });
    }
}
