//! The Empower maneuver (digest §3.3): once a round, Actions spent handing an ally Ki from
//! one's own pool (2 × Might per Action, doubled within Melee Range, no Capacity used), or a
//! Full Empowerment that hands over any amount for one's Capacity, Fatigued and Impediment;
//! adjacent opponents may Exploit first.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::attack::StandingStill;
use super::command::{Command, RuleError};
use super::components::CombatantId;
use super::effects::{expiry_after, grant_condition, spend_actions};
use super::event::{BattleEvent, Pool};
use super::fighter::Fighter;
use super::state::*;
use crate::grid::footprint_distance;
use crate::ruleset::Rules;

/// An Empower waiting on the Exploits it provoked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmpowerState {
    /// The giver.
    pub who: CombatantId,
    /// The ally who receives the Ki.
    pub ally: CombatantId,
    /// Actions spent (the amount's limit unless `full`).
    pub actions: u32,
    /// A Full Empowerment.
    pub full: bool,
    /// Opponents still to be asked about an Exploit, in id order.
    pub provokers: Vec<CombatantId>,
}

/// The Empower whose Exploits are being asked, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentEmpowerment(pub Option<EmpowerState>);

/// The Ki `me` would hand `ally` with `actions` Actions (or a Full Empowerment): the limit of
/// 2 × Might per Action (doubled when the ally is within `me`'s Melee Range; none for a Full
/// Empowerment), never more than `me` has nor more than the ally's pool can hold.
pub fn empower_amount(
    rules: &Rules,
    me: &Fighter,
    ally: &Fighter,
    actions: u32,
    full: bool,
) -> i64 {
    let Some(e) = &rules.actions.empower else {
        return 0;
    };
    let room = (ally.derived(rules).max_ki - ally.ki.current).max(0);
    let mut most = me.ki.current.min(room).max(0);
    if !full {
        let near = match (me.position, ally.position) {
            (Some(a), Some(b)) => {
                footprint_distance(a, me.size.squares, b, ally.size.squares) <= me.size.melee_range
            }
            _ => false,
        };
        let factor = if near {
            i64::from(e.in_melee_factor)
        } else {
            1
        };
        let per = i64::from(e.might_per_action) * me.derived(rules).might * factor;
        most = most.min(per * i64::from(actions));
    }
    most
}

/// Checks an Empower by `me` of `ally` among `fighters` with `actions` Actions: the ruleset has
/// it, once a round, the Actions, an ally on the battlefield, and Ki to give and room for it.
pub fn check_empower(
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
    ally: CombatantId,
    actions: u32,
    full: bool,
) -> Result<(), RuleError> {
    if rules.actions.empower.is_none() {
        return Err(RuleError::NotInRuleset {
            what: "Empower",
            ruleset: rules.manifest.id.clone(),
        });
    }
    if me.round.empowered {
        return Err(RuleError::EmpowerMade);
    }
    if actions == 0 {
        return Err(RuleError::EmpowerActions);
    }
    if me.actions.usable() < actions {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Standard Action",
        });
    }
    let Some(a) = fighters.iter().find(|f| {
        f.id == ally && f.id != me.id && f.side == me.side && !f.defeated() && f.position.is_some()
    }) else {
        return Err(RuleError::EmpowerWhom { ally });
    };
    if me.ki.current <= 0 {
        return Err(RuleError::EmpowerNothing {
            why: "no Ki left to give",
        });
    }
    if empower_amount(rules, me, a, actions, full) <= 0 {
        return Err(RuleError::EmpowerNothing {
            why: "the ally's Ki is full",
        });
    }
    Ok(())
}

/// `Empower`: spend the Actions, mark the round's Empower made, and open the window for the
/// Exploits it provokes (they come before the Ki is handed over).
pub fn declare_empowerment(
    mut pending: ResMut<PendingCommand>,
    mut current: ResMut<CurrentEmpowerment>,
    mut log: ResMut<super::event::EventLog>,
    mut progress: ResMut<Progress>,
    mut q: super::snapshot::Fighters,
) {
    let Some(Command::Empower {
        who,
        ally,
        actions,
        full,
    }) = pending.0.clone()
    else {
        return;
    };
    pending.0 = None;
    progress.0 = true;
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == who) else {
        return;
    };
    let provokers = super::charge::adjacent_provokers(&all, me);
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    spend_actions(&mut f, actions, "an Empower", &mut log);
    f.round.empowered = true;
    log.push(BattleEvent::Empowering { who, ally, full });
    current.0 = Some(EmpowerState {
        who,
        ally,
        actions,
        full,
        provokers,
    });
}

impl super::standing::StandsStill for CurrentEmpowerment {
    const WHY: StandingStill = StandingStill::Empowering;

    fn in_progress(&self) -> bool {
        self.0.is_some()
    }

    fn waiting(&mut self) -> Option<(CombatantId, &mut Vec<CombatantId>)> {
        self.0.as_mut().map(|c| (c.who, &mut c.provokers))
    }

    /// Hands the Ki over if the giver still stands (with a Full Empowerment's price).
    fn finish(&mut self, ctx: super::standing::Finish) {
        if let Some(state) = self.0.take() {
            hand_over(ctx.rules, ctx.order, ctx.all, &state, ctx.q, ctx.log);
        }
    }
}

/// Moves the Ki from the giver to the ally, as both stand after the Exploits; a Full
/// Empowerment also sets the giver's Capacity to 0 and gives it its conditions.
fn hand_over(
    rules: &Rules,
    order: &TurnOrder,
    all: &[Fighter],
    state: &EmpowerState,
    q: &mut super::snapshot::Fighters,
    log: &mut super::event::EventLog,
) {
    let (Some(me), Some(ally)) = (
        all.iter().find(|f| f.id == state.who),
        all.iter().find(|f| f.id == state.ally),
    ) else {
        return;
    };
    if me.defeated() || ally.defeated() {
        return;
    }
    let amount = empower_amount(rules, me, ally, state.actions, state.full);
    if let Some(mut g) = q.one_mut(state.who) {
        let k0 = g.ki.current;
        g.ki.current = k0 - amount;
        log.push(BattleEvent::PoolChanged {
            who: state.who,
            pool: Pool::Ki,
            from: k0,
            to: g.ki.current,
            reason: "Empower".into(),
        });
        if state.full
            && let Some(e) = &rules.actions.empower
        {
            let c0 = g.capacity.current;
            g.capacity.current = 0;
            log.push(BattleEvent::PoolChanged {
                who: state.who,
                pool: Pool::Capacity,
                from: c0,
                to: 0,
                reason: "Full Empowerment".into(),
            });
            for grant in &e.full_conditions {
                grant_condition(
                    rules,
                    &mut g,
                    grant.condition,
                    None,
                    0,
                    expiry_after(order, grant.rounds),
                    log,
                );
            }
        }
    }
    if let Some(mut a) = q.one_mut(state.ally) {
        let k0 = a.ki.current;
        a.ki.current = k0 + amount;
        log.push(BattleEvent::PoolChanged {
            who: state.ally,
            pool: Pool::Ki,
            from: k0,
            to: a.ki.current,
            reason: "Empower".into(),
        });
    }
    log.push(BattleEvent::Empowered {
        who: state.who,
        ally: state.ally,
        amount,
        full: state.full,
    });
}
