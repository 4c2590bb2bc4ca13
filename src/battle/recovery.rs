//! Power Up and Combat Recovery: the maneuvers that build a fighter up instead of hitting
//! someone. Combat Recovery lets every opponent not at Long Range Exploit first.

use bevy::prelude::*;

use super::command::{Command, RuleError};
use super::components::*;
use super::effects::{LifeCause, set_life};
use super::event::{BattleEvent, EventLog, Pool};
use super::fighter::{Fighter, at_tier};
use super::state::*;
use crate::battle::attack::StandingStill;
use crate::battle::effects::spend_actions;
use crate::battle::snapshot::Fighters;
use crate::dice::{RollKind, RollSpec, roll};
use crate::grid::footprint_distance;
use crate::ruleset::{ConditionKind, Rules};

/// Checks a Power Up.
pub fn check_power_up(rules: &Rules, me: &Fighter) -> Result<(), RuleError> {
    let p = &rules.actions.power_up;
    if me.actions.usable() < p.actions {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Standard Action",
        });
    }
    if me.round.power_ups >= p.per_round {
        return Err(RuleError::PowerUpLimit { limit: p.per_round });
    }
    if me.encounter.power >= p.max_stacks {
        return Err(RuleError::PowerUpStacks { max: p.max_stacks });
    }
    Ok(())
}

/// `PowerUp`: a stack of +1(T) to every Combat Roll and a quarter more Capacity, until the
/// end of the fighter's next turn.
pub fn apply_power_up(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(Command::PowerUp { who }) = pending.0.clone() else {
        return;
    };
    pending.0 = None;
    progress.0 = true;
    let rules = &rules.0;
    let p = &rules.actions.power_up;
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    spend_actions(&mut f, p.actions, "a Power Up", &mut log);
    f.round.power_ups += 1;
    let before = f.snapshot().derived(rules).max_capacity;
    f.encounter.power += 1;
    f.encounter.power_expires = Some(Expiry::EndOfTurn {
        round: order.round + 1,
        of: who,
    });
    // The stack's quarter of Maximum Capacity, as Fatigued and Weakened leave it (halved).
    let extra = (f.snapshot().derived(rules).max_capacity - before).max(0);
    let c0 = f.capacity.current;
    f.capacity.current += extra;
    log.push(BattleEvent::PoweredUp {
        who,
        stacks: f.encounter.power,
        roll_bonus: at_tier(&p.roll_bonus, f.power.tier, f.power.base_tier)
            * i64::from(f.encounter.power),
        capacity: extra,
    });
    log.push(BattleEvent::PoolChanged {
        who,
        pool: Pool::Capacity,
        from: c0,
        to: f.capacity.current,
        reason: "Power Up".into(),
    });
}

/// Checks a Combat Recovery of `actions` Actions.
pub fn check_recovery(rules: &Rules, me: &Fighter, actions: u32) -> Result<(), RuleError> {
    let r = &rules.actions.combat_recovery;
    if !(r.min_actions..=r.max_actions).contains(&actions) {
        return Err(RuleError::RecoveryActions {
            min: r.min_actions,
            max: r.max_actions,
        });
    }
    if me.round.recovered {
        return Err(RuleError::RecoveredThisRound);
    }
    if me.actions.usable() < actions {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Standard Action",
        });
    }
    Ok(())
}

/// The opponents a Combat Recovery by `me` provokes: everyone not at Long Range, in id order.
pub fn recovery_provokers(rules: &Rules, fighters: &[Fighter], me: &Fighter) -> Vec<CombatantId> {
    let Some(at) = me.position else {
        return Vec::new();
    };
    fighters
        .iter()
        .filter(|o| o.side != me.side && !o.defeated())
        .filter(|o| !o.conditions.has(ConditionKind::Absorbed))
        .filter(|o| {
            o.position.is_some_and(|p| {
                footprint_distance(p, o.size.squares, at, me.size.squares)
                    <= rules.attacks.long_range.beyond
            })
        })
        .map(|o| o.id)
        .collect()
}

/// The roll of a Combat Recovery: the per-Action dice once per Action spent.
pub fn recovery_spec(rules: &Rules, f: &Fighter, actions: u32) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Amount("Combat Recovery".into()));
    if let Ok(pool) = rules.actions.combat_recovery.per_action.eval(&f.vars()) {
        for _ in 0..actions {
            for g in &pool.dice {
                s.add_dice("Combat Recovery", *g);
            }
            s.add("Combat Recovery", pool.flat);
        }
    }
    s
}

/// `Recover`: spend the Actions and open the window for Exploits.
pub fn declare_recovery(
    rules: Res<RulesRes>,
    mut pending: ResMut<PendingCommand>,
    mut recovery: ResMut<CurrentRecovery>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(Command::Recover { who, actions }) = pending.0.clone() else {
        return;
    };
    pending.0 = None;
    progress.0 = true;
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == who) else {
        return;
    };
    let provokers = recovery_provokers(&rules.0, &all, me);
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    spend_actions(&mut f, actions, "a Combat Recovery", &mut log);
    f.round.recovered = true;
    log.push(BattleEvent::RecoveryStarted { who, actions });
    recovery.0 = Some(RecoveryState {
        who,
        actions,
        provokers,
        hit: false,
    });
}

impl super::standing::StandsStill for CurrentRecovery {
    const WHY: StandingStill = StandingStill::Recovering;

    fn in_progress(&self) -> bool {
        self.0.is_some()
    }

    fn waiting(&mut self) -> Option<(CombatantId, &mut Vec<CombatantId>)> {
        self.0.as_mut().map(|r| (r.who, &mut r.provokers))
    }

    /// Regains Life and Ki (no Life if an Exploit hit) and lowers Defense Value until the
    /// start of the fighter's next turn.
    fn finish(&mut self, ctx: super::standing::Finish) {
        let Some(state) = self.0.take() else {
            return;
        };
        let rules = ctx.rules;
        let log = ctx.log;
        let Some(mut f) = ctx.q.one_mut(state.who) else {
            return;
        };
        if f.life.current <= 0 {
            return;
        }
        let snap = f.snapshot();
        let r = roll(&recovery_spec(rules, &snap, state.actions), &mut ctx.dice.0);
        let amount = r.total;
        let life = if state.hit { 0 } else { amount };
        let d = snap.derived(rules);
        let ki = amount.min(d.max_ki - f.ki.current).max(0);
        log.push(BattleEvent::Recovered {
            who: state.who,
            roll: r,
            life,
            ki,
            life_lost_to_exploit: state.hit,
        });
        if life > 0 {
            let to = f.life.current + life;
            set_life(
                rules,
                &mut f,
                crate::battle::family::of(rules).life_pool(),
                to,
                LifeCause::Healing,
                "Combat Recovery",
                log,
            );
        }
        if ki > 0 {
            let k0 = f.ki.current;
            f.ki.current += ki;
            log.push(BattleEvent::PoolChanged {
                who: state.who,
                pool: Pool::Ki,
                from: k0,
                to: f.ki.current,
                reason: "Combat Recovery".into(),
            });
        }
        let per = at_tier(
            &rules.actions.combat_recovery.defense,
            f.power.tier,
            f.power.base_tier,
        );
        let amount = -per * i64::from(state.actions);
        f.defense.changes.push(DefenseChange {
            amount,
            label: "Combat Recovery".into(),
            until_turn_of: state.who,
        });
        log.push(BattleEvent::DefenseLowered {
            who: state.who,
            amount,
            until_turn_of: state.who,
            reason: "Combat Recovery".into(),
        });
    }
}
