//! The battle's resources: the ruleset, the dice, the turn order and phase, the attack being
//! resolved, the command being applied and the question being waited on.

use std::sync::Arc;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::command::{AttackOrder, Command, Decision};
use super::components::{CombatantId, Side};
use super::context::DefenseChoice;
use crate::dice::{DiceSource, RollBreakdown};
use crate::grid::Bounds;
use crate::ruleset::Rules;

/// The ruleset the battle plays.
#[derive(Resource, Clone)]
pub struct RulesRes(pub Arc<Rules>);

/// The battle's one source of dice.
#[derive(Resource, Clone)]
pub struct BattleDice(pub DiceSource);

/// The battlefield's extent.
#[derive(Resource, Debug, Clone, Copy)]
pub struct Battlefield(pub Bounds);

/// Where the battle is in its rounds and turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnPhase {
    /// Initiative not rolled yet.
    Setup,
    /// A new round begins: actions refresh, Diminishing Defense clears.
    RoundStart,
    /// The active combatant's Effect Phase (Poisoned, DOT, Absorbed…).
    TurnStart,
    /// The active combatant may act.
    Acting,
    /// The active combatant's End Phase: durations run out.
    TurnEnd,
    /// Someone won.
    Over,
}

/// Initiative order, the current round and whose turn it is.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnOrder {
    pub order: Vec<CombatantId>,
    pub index: usize,
    pub round: u32,
    pub phase: TurnPhase,
}

impl TurnOrder {
    /// The combatant whose turn it is.
    pub fn active(&self) -> Option<CombatantId> {
        self.order.get(self.index).copied()
    }

    /// True when `who` has already had (or is having) its turn this round.
    pub fn has_acted(&self, who: CombatantId) -> bool {
        self.order
            .iter()
            .position(|c| *c == who)
            .is_some_and(|i| i <= self.index)
    }

    /// The round in which `who`'s next turn ends ("until the end of your turn").
    pub fn next_turn_round(&self, who: CombatantId) -> u32 {
        let current = self.active() == Some(who) && self.phase != TurnPhase::TurnEnd;
        if current || !self.has_acted(who) {
            self.round
        } else {
            self.round + 1
        }
    }
}

/// The phases of an Attacking Maneuver, in the chapter's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackPhase {
    /// Instant actions may be declared before the attack resolves.
    Responses,
    /// Each target declares Dodge or Parry.
    DefenseDeclaration,
    /// Strike against each defense.
    OpposedRolls,
    /// Wound Roll, damage, on-hit and on-damage effects.
    Damage,
    /// Steadfast Saves for thresholds reached during the maneuver.
    ThresholdSaves,
    /// Defeated, Bonus Momentum, Diminishing Defense.
    End,
}

/// One target of the attack being resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetState {
    pub id: CombatantId,
    pub defense: Option<DefenseChoice>,
    pub hit: Option<bool>,
    pub damage: i64,
}

/// The Attacking Maneuver being resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackState {
    pub order: AttackOrder,
    pub phase: AttackPhase,
    pub targets: Vec<TargetState>,
    pub strike: Option<RollBreakdown>,
    /// Combatants still to answer the window for Instants.
    pub responders: Vec<CombatantId>,
    /// The window for Instants has been opened (automatic policies have acted).
    pub window_opened: bool,
}

/// The attack in progress, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentAttack(pub Option<AttackState>);

/// The validated command the systems are applying.
#[derive(Resource, Debug, Clone, Default)]
pub struct PendingCommand(pub Option<Command>);

/// The question the battle waits on; while set, systems stop until it is answered.
#[derive(Resource, Debug, Clone, Default)]
pub struct AwaitingInput(pub Option<Decision>);

/// Set by any system that changed something, so the runner knows to run the schedule again.
#[derive(Resource, Debug, Clone, Default)]
pub struct Progress(pub bool);

/// How the battle ended.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome(pub Option<BattleResult>);

/// The winner (or none) and the round the battle ended in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleResult {
    pub winner: Option<Side>,
    pub round: u32,
}
