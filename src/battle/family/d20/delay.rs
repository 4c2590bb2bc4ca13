//! d20 delayed turns ("A character can delay his turn until later in the initiative. However
//! he remains in that later slot"): who a delay lets act first, the check, and the command
//! that moves the turn later in the order for good.

use bevy::prelude::*;

use crate::battle::command::{Command, RuleError};
use crate::battle::components::CombatantId;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::Fighter;
use crate::battle::snapshot::Fighters;
use crate::battle::state::{PendingCommand, Progress, RulesRes, TurnOrder, TurnPhase, take};
use crate::ruleset::Rules;

/// Where in the order the next combatant still standing after the one acting now is: the
/// one a delay lets act first. None when nobody standing comes later this round.
fn next_standing(order: &TurnOrder, fighters: &[Fighter]) -> Option<usize> {
    let standing = |id: &CombatantId| {
        fighters
            .iter()
            .any(|f| f.id == *id && !f.defeated() && f.position.is_some())
    };
    (order.index + 1..order.order.len()).find(|i| standing(&order.order[*i]))
}

/// Whether `me` may delay its turn now, and if so who would act first: the ruleset has
/// delays, it is `me`'s turn, it has spent none of its actions ("delay his turn": before
/// taking it), it has not delayed this round already (ours), and someone standing comes later
/// in the order this round.
pub fn check_delay(
    rules: &Rules,
    order: &TurnOrder,
    fighters: &[Fighter],
    me: &Fighter,
) -> Result<CombatantId, RuleError> {
    delay_slot(rules, order, fighters, me).map(|i| order.order[i])
}

/// [`check_delay`], giving where in the order the one who would act first stands.
fn delay_slot(
    rules: &Rules,
    order: &TurnOrder,
    fighters: &[Fighter],
    me: &Fighter,
) -> Result<usize, RuleError> {
    let Some(d) = rules.d20().filter(|d| d.combat.delay) else {
        return Err(RuleError::NotInRuleset {
            what: "delaying a turn",
            ruleset: rules.manifest.id.clone(),
        });
    };
    let refuse = |why: &str| RuleError::CannotDelay {
        who: me.id,
        why: why.to_string(),
    };
    if order.active() != Some(me.id) || order.phase != TurnPhase::Acting {
        return Err(refuse("it is not its turn"));
    }
    if order.delayed.contains(&me.id) {
        return Err(refuse(
            "it has delayed its turn once this round already (ours: once a round, so two who wait for each other still act)",
        ));
    }
    let r = &me.round;
    if me.actions.standard < d.combat.actions_per_round
        || r.moves > 0
        || r.attacks > 0
        || r.standard_attack
    {
        return Err(refuse(
            "it has begun its turn: only a turn none of whose actions is spent can be delayed",
        ));
    }
    next_standing(order, fighters).ok_or_else(|| refuse("nobody acts after it this round"))
}

/// The Delay command: the unit goes just after the next combatant standing, which acts now;
/// the unit keeps that slot in the rounds after ("he remains in that later slot").
pub fn apply_delay(
    rules: Res<RulesRes>,
    mut pending: ResMut<PendingCommand>,
    mut order: ResMut<TurnOrder>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(who) = take(&mut pending, |c| match c {
        Command::Delay { who } => Some(*who),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == who) else {
        return;
    };
    let Ok(to) = delay_slot(&rules.0, &order, &all, me) else {
        return;
    };
    let after = order.order[to];
    let at = order.index;
    order.order.remove(at);
    // The one it lets go first is now at `to - 1`: the delayer goes right after it, and the
    // turn passes to whoever now stands where the delayer stood.
    order.order.insert(to, who);
    order.delayed.push(who);
    order.phase = TurnPhase::TurnStart;
    log.push(BattleEvent::Delayed { who, after });
}
