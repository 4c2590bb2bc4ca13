//! The battle's resources: the ruleset, the dice, the turn order and phase, the attack being
//! resolved, the command being applied and the question being waited on.

use std::sync::Arc;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::command::{AttackOrder, Command, Decision, DefenseChoice};
use super::components::{CombatantId, Side};
use super::event::{EndReason, EventLog};
use crate::dice::{DiceSource, RollBreakdown};
use crate::grid::{Field, Map, Square};
use crate::ruleset::Rules;

/// The ruleset the battle plays.
#[derive(Resource, Clone)]
pub struct RulesRes(pub Arc<Rules>);

/// The battle's one source of dice.
#[derive(Resource, Clone)]
pub struct BattleDice(pub DiceSource);

/// The battlefield: the terrain of every square.
#[derive(Resource, Debug, Clone)]
pub struct Battleground(pub Map);

impl Battleground {
    /// The map with the ruleset's terrain rules, for the geometry functions.
    pub fn field<'a>(&'a self, rules: &'a Rules) -> Field<'a> {
        Field {
            map: &self.0,
            terrain: &rules.terrain.types,
            corners: rules.terrain.line_of_sight,
        }
    }
}

/// What happens when a scenario's round limit is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LimitOutcome {
    /// Nobody wins.
    Draw,
    /// This side wins (a defender who holds out).
    SideWins(u8),
}

/// How a battle opens, as its scenario sets it (the scenario's author stands for the GM):
/// the side that sneaked up for a Surprise Round, and the sides whose Tamers plan ahead
/// (Digimon, 003:47-49).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// The side that "manages to entirely sneak up" on the others: +5 to its initiative and
    /// round 1 is its free Surprise Round, in which no one else acts.
    pub surprise: Option<u8>,
    /// Sides whose Tamers are "particularly cautious and planning out things ahead of time":
    /// their Digimon add the Tamer's Intelligence to initiative.
    pub cautious: Vec<u8>,
    /// The player characters' sides: those the scenario gives to people (`controller: Human`),
    /// whoever plays them in the end. The Digimon GM gives them initiative ties and a Clash
    /// tied in every way (003:45, 003:159).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<u8>,
}

impl Opening {
    /// True when `side` is caught by another side's Surprise Round in `round`.
    pub fn surprised(&self, side: u8, round: u32) -> bool {
        round == 1 && self.surprise.is_some_and(|s| s != side)
    }

    /// Rounds the Surprise Round adds before the scenario's round limit counts (it is a free
    /// round, not the first Round of Combat).
    pub fn extra_rounds(&self) -> u32 {
        u32::from(self.surprise.is_some())
    }
}

/// How the battle is won: defeat every opponent, or hold out until a round limit.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryRules {
    /// After this many full rounds the battle ends with the given outcome.
    pub round_limit: Option<(u32, LimitOutcome)>,
}

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
    /// Digimon: the partner that handed the shared turn over and takes it back, with the
    /// actions it kept, when the one acting now ends its part ("Tamers and their partner
    /// Digimon act on the same turn").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<CombatantId>,
    /// Where the order goes on once a partner that took the turn back ends it: past both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_at: Option<usize>,
    /// How often the turn has changed hands between partners this turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hand_overs: u8,
    /// d20: who delayed its turn this round. Its turn began before it delayed, so when its
    /// later slot comes it takes the turn back rather than starting it again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub delayed: Vec<CombatantId>,
}

impl Default for TurnOrder {
    fn default() -> Self {
        Self::new()
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl TurnOrder {
    /// A battle's order before initiative.
    pub fn new() -> Self {
        Self {
            order: Vec::new(),
            index: 0,
            round: 0,
            phase: TurnPhase::Setup,
            paused: None,
            resume_at: None,
            hand_overs: 0,
            delayed: Vec::new(),
        }
    }

    /// The order as a turn-order bar shows it: the one acting now, a partner waiting to take
    /// the shared turn back, whoever is still to come this round, then the round's first
    /// turns again (those done this round act next round).
    pub fn upcoming(&self) -> Vec<CombatantId> {
        let n = self.order.len();
        if n == 0 {
            return Vec::new();
        }
        let now = self.index.min(n - 1);
        let next = self.resume_at.unwrap_or(now + 1).clamp(now + 1, n);
        let mut out = vec![self.order[now]];
        out.extend(self.paused);
        out.extend_from_slice(&self.order[next..]);
        out.extend_from_slice(&self.order[..now]);
        out.extend_from_slice(&self.order[now + 1..next]);
        let mut seen = std::collections::BTreeSet::new();
        out.retain(|c| seen.insert(*c));
        out
    }

    /// Where `who` stands in the order.
    pub fn position(&self, who: CombatantId) -> Option<usize> {
        self.order.iter().position(|c| *c == who)
    }

    /// True when `who`'s part of this round's turns is still to come or under way: it has not
    /// started, it handed the turn to its partner, or it is acting now.
    pub fn yet_to_end(&self, who: CombatantId) -> bool {
        if self.paused == Some(who) {
            return true;
        }
        if self.active() == Some(who) {
            return self.phase != TurnPhase::TurnEnd;
        }
        !self.has_acted(who)
    }

    /// The combatant whose turn it is.
    pub fn active(&self) -> Option<CombatantId> {
        self.order.get(self.index).copied()
    }

    /// True when `who` has already had (or is having) its turn this round.
    pub fn has_acted(&self, who: CombatantId) -> bool {
        self.position(who).is_some_and(|i| {
            i <= self.index
                || self.paused == Some(who)
                || self.resume_at.is_some_and(|then| i < then)
        })
    }

    /// The round in which `who`'s next turn ends ("until the end of your turn").
    pub fn next_turn_round(&self, who: CombatantId) -> u32 {
        if self.acting_now(who) || !self.has_acted(who) {
            self.round
        } else {
            self.round + 1
        }
    }

    /// The round in which the turn of `who` after the one under way ends ("by the end of
    /// your next turn", said during one's own turn, means the following one).
    pub fn following_turn_round(&self, who: CombatantId) -> u32 {
        if self.acting_now(who) {
            self.round + 1
        } else {
            self.next_turn_round(who)
        }
    }

    /// Whether `who`'s turn is under way (or paused while its partner acts).
    fn acting_now(&self, who: CombatantId) -> bool {
        (self.active() == Some(who) && self.phase != TurnPhase::TurnEnd) || self.paused == Some(who)
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
    /// Digimon: allies of a target about to be hit may Intercede.
    Intercede,
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
    /// Shinobi: the counter jutsu cast with the defense.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<String>,
    /// d20: the Success Value of a hit (how far the attack beat what it had to).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<i64>,
    /// Digimon: an ally Interceded for it against an [Area] attack: it takes half the damage.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub half: bool,
    /// Digimon: it stepped in by Interceding, so it rolled no Dodge.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interceded: bool,
}

/// The Attacking Maneuver being resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackState {
    pub order: AttackOrder,
    pub phase: AttackPhase,
    pub targets: Vec<TargetState>,
    pub strike: Option<RollBreakdown>,
    /// Set when this is an Exploit provoked by this combatant's movement.
    pub exploit: Option<CombatantId>,
    /// Combatants still to answer the window for Instants.
    pub responders: Vec<CombatantId>,
    /// The window for Instants has been opened (automatic policies have acted).
    pub window_opened: bool,
    /// Shinobi: targets whose sneak contest the attacker won (their defenses take the penalty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sneak_won: Vec<CombatantId>,
    /// Digimon: the Intercede window has been opened (automatic policies have answered).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub intercede_opened: bool,
    /// Digimon: Intercede offers still to be answered: (who may intercede, for which target).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interceders: Vec<(CombatantId, CombatantId)>,
}

/// A Movement maneuver in progress: the path and how far along it the mover is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveState {
    pub who: CombatantId,
    pub start: Square,
    pub path: Vec<Square>,
    /// Index in `path` of the next square to enter.
    pub next: usize,
    /// Opponents already asked about an Exploit for the current step.
    pub asked: Vec<CombatantId>,
    /// An Exploit dealt damage: the movement stops where it is.
    pub stopped: bool,
    pub boosted: bool,
    /// A jump (the ninja chapter): the squares before the last are passed over, not stood on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub jump: bool,
}

/// A Combat Recovery waiting on the Exploits it provoked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryState {
    pub who: CombatantId,
    pub actions: u32,
    /// Opponents still to be asked about an Exploit, in id order.
    pub provokers: Vec<CombatantId>,
    /// An Exploit hit the recovering combatant: its Life is not regained.
    pub hit: bool,
}

/// The Combat Recovery in progress, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentRecovery(pub Option<RecoveryState>);

/// An attack waiting for the opportunity attacks it provoked to be answered before it is made:
/// a shinobi sneak attack whose contest the defender won, or a d20 shot fired in threatened
/// squares; with the foes already asked (d20: each foe threatening the shooter in turn).
#[derive(Resource, Debug, Clone, Default)]
pub struct QueuedAttack(
    pub Option<super::command::AttackOrder>,
    pub Vec<super::components::CombatantId>,
);

/// The movement in progress, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentMove(pub Option<MoveState>);

/// The attack in progress, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentAttack(pub Option<AttackState>);

/// The validated command the systems are applying.
#[derive(Resource, Debug, Clone, Default)]
pub struct PendingCommand(pub Option<Command>);

/// An attack order as the command check accepted it, with the targets it found: Attack
/// Declaration takes them rather than validating the same order against the same state again.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedAttack {
    pub order: AttackOrder,
    pub targets: Vec<CombatantId>,
}

/// The pending command's [`CheckedAttack`], if it is an attack.
#[derive(Resource, Debug, Clone, Default)]
pub struct CheckedOrder(pub Option<CheckedAttack>);

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
    pub reason: EndReason,
}

/// What nearly every rule system reads and writes, as one system parameter: the rules, the
/// battle's dice, the event log, the flag that tells the schedule something moved, and the
/// combatants. A system destructures it and takes only the rest of its situation as its own
/// parameters.
#[derive(bevy::ecs::system::SystemParam)]
pub struct RuleSys<'w, 's> {
    pub rules: Res<'w, RulesRes>,
    pub dice: ResMut<'w, BattleDice>,
    pub log: ResMut<'w, super::event::EventLog>,
    pub progress: ResMut<'w, Progress>,
    pub q: super::snapshot::Fighters<'w, 's>,
}

/// Takes the pending command when `pick` accepts it.
pub(super) fn take<T>(
    pending: &mut PendingCommand,
    pick: impl Fn(&Command) -> Option<T>,
) -> Option<T> {
    let v = pending.0.as_ref().and_then(pick)?;
    pending.0 = None;
    Some(v)
}

/// What a rule step changes as it resolves, borrowed together: the battle's dice, the
/// combatants and the event log. Functions that roll, change fighters and log take this one
/// argument instead of three.
pub struct Resolve<'a, 'w, 's> {
    pub dice: &'a mut DiceSource,
    pub q: &'a mut super::snapshot::Fighters<'w, 's>,
    pub log: &'a mut EventLog,
}

/// What a turn may still be in the middle of besides an attack, read together: a move being
/// walked, a recovery, an attack queued behind an Instant window.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Underway<'w> {
    pub moving: Res<'w, CurrentMove>,
    pub recovery: Res<'w, CurrentRecovery>,
    pub queued: Res<'w, QueuedAttack>,
}

impl Underway<'_> {
    /// True when any of them is under way.
    pub fn any(&self) -> bool {
        self.moving.0.is_some() || self.recovery.0.is_some() || self.queued.0.is_some()
    }
}
