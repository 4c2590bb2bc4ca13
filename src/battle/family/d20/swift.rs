//! d20 swift and immediate actions: the round's Swift action, the trades that buy another
//! once it is spent, and the one swift action the ruleset gives, Drop prone -- on one's own
//! turn, or as an immediate action when a shot comes in.
//!
//! "Each round a character gets one(1) Full-round action, one(1) Swift action and any number
//! of Free actions. … A Move action may be traded for a Swift Action. … An Immediate action
//! is a Swift action, but can be used on another characters turn. … An Attack of Opportunity
//! may be traded for one(1) Swift action." The text names no swift action; Drop prone is ours
//! (see docs/src/d20.md).

use bevy::prelude::*;

use crate::battle::command::{Command, RuleError};
use crate::battle::components::RoundLog;
use crate::battle::event::{ActionKind, BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::TargetOdds;
use crate::battle::snapshot::Fighters;
use crate::battle::state::take;
use crate::battle::state::{PendingCommand, Progress, RulesRes};
use crate::ruleset::Rules;
use crate::ruleset::d20::D20Data;

/// What a swift action is paid with: the round's own Swift action first, then (once it is
/// spent) a trade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwiftPay {
    /// One of the round's Swift actions.
    Swift,
    /// "A Move action may be traded for a Swift Action": one action on one's own turn.
    MoveAction,
    /// "An Attack of Opportunity may be traded for one(1) Swift action".
    AttackOfOpportunity,
}

impl SwiftPay {
    /// How the log and the screen name the payment.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Swift => "its Swift action",
            Self::MoveAction => "a Move action traded for a Swift action",
            Self::AttackOfOpportunity => "its attack of opportunity traded for a Swift action",
        }
    }
}

/// How `f` would pay for a swift action now, if it can: the round's Swift action while one is
/// left; else, on its own turn, a Move action; else its attack of opportunity. An immediate
/// action (another's turn) cannot trade a Move action: those are spent on one's own turn.
pub fn payment(d: &D20Data, f: &Fighter, own_turn: bool) -> Option<SwiftPay> {
    let per_round = d.combat.swift_actions;
    if per_round == 0 {
        return None;
    }
    if f.round.swift_spent < per_round {
        Some(SwiftPay::Swift)
    } else if own_turn && f.actions.usable() > 0 {
        Some(SwiftPay::MoveAction)
    } else if f.actions.counter > 0 {
        Some(SwiftPay::AttackOfOpportunity)
    } else {
        None
    }
}

/// Pays for the swift action `what` the way `pay` says.
pub fn pay(f: &mut FighterQueryItem, pay: SwiftPay, what: &str, log: &mut EventLog) {
    match pay {
        SwiftPay::Swift => {
            f.round.swift_spent += 1;
            log.push(BattleEvent::ActionSpent {
                who: *f.id,
                kind: ActionKind::Swift,
                what: what.to_string(),
            });
        }
        SwiftPay::MoveAction => crate::battle::family::shinobi::spend_ap(
            f,
            1,
            &format!("a Move action traded for a Swift action ({what})"),
            log,
        ),
        SwiftPay::AttackOfOpportunity => {
            f.actions.counter = f.actions.counter.saturating_sub(1);
            log.push(BattleEvent::ActionSpent {
                who: *f.id,
                kind: ActionKind::Counter,
                what: format!(
                    "the round's attack of opportunity, traded for a Swift action ({what})"
                ),
            });
        }
    }
}

/// Why `f` cannot Drop prone now, or how it would pay. `own_turn` is false for the
/// immediate action against a shot.
pub fn check_drop_prone(d: &D20Data, f: &Fighter, own_turn: bool) -> Result<SwiftPay, RuleError> {
    let refuse = |why: &str| RuleError::CannotDropProne {
        who: f.id,
        why: why.to_string(),
    };
    if f.defeated() || f.position.is_none() {
        return Err(refuse("it is out of the fight"));
    }
    if f.encounter.prone {
        return Err(refuse("it is prone already"));
    }
    payment(d, f, own_turn).ok_or_else(|| {
        refuse(if own_turn {
            "its Swift action this round is spent, and it has no Move action or attack of opportunity left to trade for one"
        } else {
            "its Swift action this round is spent, and its attack of opportunity too (an immediate action cannot trade a Move action)"
        })
    })
}

/// True when the round's own Swift action (no trade) could still drop a unit prone: what
/// keeps a turn open, and what the computer spends on lying down.
pub fn own_swift_left(d: &D20Data, prone: bool, round: &RoundLog) -> bool {
    d.combat.drop_prone && !prone && round.swift_spent < d.combat.swift_actions
}

/// True when `target` may answer a shot by dropping prone (an immediate action).
pub fn can_drop_prone(d: &D20Data, target: &Fighter) -> bool {
    d.combat.drop_prone && check_drop_prone(d, target, false).is_ok()
}

/// Lays `f` down where it stands, paying with `how`; `immediate` when it is another's turn
/// (a shot is coming in).
pub fn drop_prone(
    d: &D20Data,
    f: &mut FighterQueryItem,
    how: SwiftPay,
    immediate: bool,
    log: &mut EventLog,
) {
    let Some(rule) = &d.combat.prone else {
        return;
    };
    let immediate = if immediate {
        " as an immediate action"
    } else {
        ""
    };
    pay(f, how, "Drop prone", log);
    f.encounter.prone = true;
    let name = f.identity.name.clone();
    log.push(BattleEvent::DroppedProne {
        who: *f.id,
        text: format!(
            "{name} drops prone where it stands{immediate} ({}): shots from beyond melee range +{}, its Dodge or parry against melee -{}, until it moves",
            how.describe(),
            rule.shots,
            rule.melee
        ),
    });
}

/// The Drop prone command on one's own turn.
pub fn apply_drop_prone(
    rules: Res<RulesRes>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(who) = take(&mut pending, |c| match c {
        Command::DropProne { who } => Some(*who),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let Some(d) = rules.0.d20() else {
        return;
    };
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    if let Ok(how) = check_drop_prone(d, &f.snapshot(), true) {
        drop_prone(d, &mut f, how, false, &mut log);
    }
}

/// The refusal of a Drop prone command on one's own turn (the turn itself is checked by the
/// caller).
pub fn check_command(rules: &Rules, me: &Fighter) -> Result<(), RuleError> {
    match rules.d20() {
        Some(d) if d.combat.drop_prone => check_drop_prone(d, me, true).map(|_| ()),
        _ => Err(RuleError::NotInRuleset {
            what: "Drop prone",
            ruleset: rules.manifest.id.clone(),
        }),
    }
}

/// The computer drops prone against a shot when that saves at least a fourteenth of its Hit
/// Points in expected damage (a defeat avoided counts as the Hit Points it has left): half
/// the bar of a Dive for cover, since it costs a swift action rather than a Move action.
pub fn worth_dropping(take: &TargetOdds, drop: &TargetOdds, life: i64, max: i64) -> f64 {
    let saved = take.expected_damage - drop.expected_damage
        + (take.defeat_chance - drop.defeat_chance) * life.max(0) as f64;
    saved - (max as f64 / 14.0).max(0.5)
}
