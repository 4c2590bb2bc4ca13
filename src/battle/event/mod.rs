//! The battle's event log: everything that happened, in order, with every roll's breakdown.
//! The demo prints it, tests assert it, the GUI will animate it and saves replay the commands
//! that produced it.

mod describe;

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::command::{DefenseChoice, GrappleAct};
use super::components::{CombatantId, Expiry, Side, Square};
use crate::dice::RollBreakdown;
use crate::ruleset::{Category, ConditionKind};

/// A pool that changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pool {
    Life,
    Ki,
    Capacity,
    /// A power-stages combatant's stage on its track.
    PowerStage,
    /// A power-stages combatant's life cards.
    LifeCards,
    /// A power-stages combatant's anger, raised by two-part cards.
    Anger,
    /// A shinobi's hit points.
    Hp,
    /// A shinobi's chakra.
    Chakra,
}

impl std::fmt::Display for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Life => "Life",
            Self::Ki => "Ki",
            Self::Capacity => "Capacity",
            Self::PowerStage => "power stage",
            Self::LifeCards => "life cards",
            Self::Anger => "anger",
            Self::Hp => "HP",
            Self::Chakra => "Chakra",
        })
    }
}

/// Which kind of action was spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionKind {
    Standard,
    Counter,
    /// A Steady Momentum action.
    Momentum,
    /// One shinobi action point.
    ActionPoint,
    /// d20: the round's Swift action.
    Swift,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum BattleEvent {
    BattleStarted {
        seed: Option<u64>,
    },
    InitiativeRolled {
        who: CombatantId,
        roll: RollBreakdown,
    },
    /// A tie on initiative broken by a roll-off.
    InitiativeRollOff {
        who: CombatantId,
        roll: RollBreakdown,
    },
    TurnOrder {
        order: Vec<CombatantId>,
    },
    RoundStarted {
        round: u32,
    },
    ActionsRefreshed {
        who: CombatantId,
        standard: u32,
        counter: u32,
        /// Why the numbers differ from 3 + 1 (Slowed, Pinned, Rage aftermath…).
        notes: Vec<String>,
        /// Counted in action points (shinobi): `standard` is the AP.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ap: bool,
    },
    TurnStarted {
        who: CombatantId,
        round: u32,
    },
    TurnSkipped {
        who: CombatantId,
        reason: String,
    },
    TurnEnded {
        who: CombatantId,
    },
    /// Digimon: a combatant spent the round's Interrupt Action on a free Skill Check.
    InterruptSpent {
        who: CombatantId,
        what: String,
    },
    /// A Skill Check changed a square of the battlefield (a boulder heaved aside), or `who`
    /// broke cover that leaves other ground (a steel door beaten down to rubble).
    GroundChanged {
        who: CombatantId,
        at: Square,
        from: String,
        to: String,
    },
    /// Digimon: `who` let its partner `to` act now in the turn they share, keeping `kept`
    /// actions for later in it.
    HandedOver {
        who: CombatantId,
        to: CombatantId,
        kept: u32,
    },
    /// d20: `who` delayed its turn: `after` acts first, then it, in that slot from now on.
    Delayed {
        who: CombatantId,
        after: CombatantId,
    },
    /// Digimon: `who` takes back the shared turn it handed over, with `actions` left; d20:
    /// `who` takes its delayed turn.
    TurnResumed {
        who: CombatantId,
        actions: u32,
    },
    ActionSpent {
        who: CombatantId,
        kind: ActionKind,
        what: String,
    },
    ActionConverted {
        who: CombatantId,
    },
    ActionGained {
        who: CombatantId,
        kind: ActionKind,
        reason: String,
    },
    /// An Action not gained because the round after Rage allows one Action in all.
    ActionWithheld {
        who: CombatantId,
        reason: String,
    },
    PoolChanged {
        who: CombatantId,
        pool: Pool,
        from: i64,
        to: i64,
        reason: String,
    },
    /// A power-stages card drawn: `roll` on a d`of` over the deck's cards picked it.
    CardDrawn {
        who: CombatantId,
        card: String,
        roll: u32,
        of: u32,
    },
    /// A card played or discarded from the hand, and why.
    CardPlayed {
        who: CombatantId,
        card: String,
        why: String,
    },
    /// A power-stages attack landed: what it took (the pool changes follow).
    StageHit {
        attacker: CombatantId,
        target: CombatantId,
        stages: i64,
        life_cards: i64,
        what: String,
    },
    /// Shinobi concealment: a hit still misses when the percentile roll is at or under the
    /// chance.
    MissChanceRolled {
        target: CombatantId,
        chance: u32,
        source: String,
        roll: i64,
        missed: bool,
    },
    /// Shinobi cover: whether the attack hit the obstruction (a percentile roll at or under the
    /// chance; full cover is always hit and rolls nothing, `roll` 0), and what it absorbed.
    CoverRolled {
        target: CombatantId,
        cover: String,
        at: Square,
        chance: u32,
        roll: i64,
        absorbed: i64,
        left: i64,
        /// Someone standing in the way, whose HP absorbed (not terrain).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        person: Option<CombatantId>,
        /// Full cover, which every attack strikes: no roll was made.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        full: bool,
    },
    /// Shinobi falling damage: half the feet fallen, none or half with an Acrobatics roll.
    Fell {
        who: CombatantId,
        at: Square,
        feet: u32,
        roll: Option<RollBreakdown>,
        negate_dc: i64,
        halve_dc: i64,
        damage: i64,
    },
    /// d20: a fall onto `at`: 3 CD a yard (at most 200), less the armour's DR against it.
    D20Fell {
        who: CombatantId,
        at: Square,
        feet: u32,
        yards: u32,
        impact: i64,
        dr: i64,
        damage: i64,
    },
    /// Shinobi: a counter jutsu cast with a defense (its AP and chakra are spent either way).
    CounterCast {
        who: CombatantId,
        counter: String,
    },
    /// Shinobi: a counter goes off after its defense evaded: the kept defense total against the
    /// attacker's own defense roll.
    CounterStruck {
        by: CombatantId,
        on: CombatantId,
        counter: String,
        kept: i64,
        defense: RollBreakdown,
        hit: bool,
        damage: i64,
    },
    /// Shinobi: the defense failed, so the counter is spent for nothing.
    CounterWasted {
        who: CombatantId,
        counter: String,
    },
    /// Shinobi: the sneak-attack contest, Stealth against Perception.
    SneakContest {
        attacker: CombatantId,
        defender: CombatantId,
        attack: RollBreakdown,
        defense: RollBreakdown,
        won: bool,
    },
    /// Shinobi slam damage: a push stopped short by an obstruction.
    Slammed {
        who: CombatantId,
        at: Square,
        damage: i64,
        what: String,
    },
    /// Shinobi: a hit opportunity attack stops the move where it entered the attacker's reach.
    StoppedAtReach {
        who: CombatantId,
        by: CombatantId,
        at: Square,
    },
    /// A move stopped by an Exploit on an ally's square (passed through, not stood on) ends on
    /// the last square of its path where the mover may stand.
    StoppedShort {
        who: CombatantId,
        at: Square,
    },
    /// An empty deck takes its discard pile back.
    DeckReshuffled {
        who: CombatantId,
        cards: u32,
    },
    /// Ki paid for a maneuver (cost and wager, or a Boosted move).
    KiSpent {
        who: CombatantId,
        amount: i64,
        from: i64,
        to: i64,
        what: String,
    },
    /// A Power Up stack gained.
    PoweredUp {
        who: CombatantId,
        stacks: u32,
        roll_bonus: i64,
        capacity: i64,
    },
    /// An Energy Charge was added to a declared attack (Guard Down until it is made).
    EnergyCharged {
        who: CombatantId,
        /// The attack's name (the technique's, or the profile's).
        attack: String,
        charges: u32,
    },
    /// An Arrogant Declaration was made: Superiority follows the Exploits it provoked.
    ArrogantDeclaration {
        who: CombatantId,
    },
    /// An Empower was begun: the Ki follows the Exploits it provoked.
    Empowering {
        who: CombatantId,
        ally: CombatantId,
        full: bool,
    },
    /// An Empower handed `amount` Ki to `ally`.
    Empowered {
        who: CombatantId,
        ally: CombatantId,
        amount: i64,
        full: bool,
    },
    /// One opposed roll of a grappling maneuver (`check`: a Grapple Check, a Might Clash or an
    /// opposed Save): `who`'s roll against `target`'s, and whether `who` won (ties go to
    /// `target` unless the ruleset gives them to the attacker).
    GrappleRoll {
        who: CombatantId,
        target: CombatantId,
        act: GrappleAct,
        check: String,
        roll: RollBreakdown,
        against: RollBreakdown,
        won: bool,
    },
    /// One Skill Clash of a Hide: `who`'s Stealth check against `against`'s Perception, and
    /// whether it beat it.
    HideRoll {
        who: CombatantId,
        against: CombatantId,
        roll: RollBreakdown,
        against_roll: RollBreakdown,
        won: bool,
    },
    /// A Grapple began: `who` holds `target`, both with Guard Down.
    GrappleStarted {
        who: CombatantId,
        target: CombatantId,
    },
    /// The Grapple of `who` (the grappler) on `target` is over, and why.
    GrappleEnded {
        who: CombatantId,
        target: CombatantId,
        why: String,
    },
    /// An adjacent ally joins an attack with a United Attack (its Wound Roll terms follow).
    UnitedAttack {
        ally: CombatantId,
        attacker: CombatantId,
        attack: String,
    },
    /// A won Reflect sends the attack back at its attacker (the Damage that follows is it).
    Reflected {
        by: CombatantId,
        attacker: CombatantId,
        attack: String,
    },
    /// The Superiority an Arrogant Declaration gave is over: its penalty holds from now on.
    ArroganceAftermath {
        who: CombatantId,
        penalty: i64,
    },
    /// The attack the charges fed was made: they went into it.
    ChargeReleased {
        who: CombatantId,
        charges: u32,
    },
    /// Held charges were lost: cancelled (No Effort) or the charger was defeated.
    ChargeLost {
        who: CombatantId,
        charges: u32,
        reason: String,
    },
    /// Power Up stacks ran out.
    PowerFaded {
        who: CombatantId,
    },
    /// A Combat Recovery begins (Exploits may answer it first).
    RecoveryStarted {
        who: CombatantId,
        actions: u32,
    },
    /// What a Combat Recovery gave back.
    Recovered {
        who: CombatantId,
        roll: RollBreakdown,
        life: i64,
        ki: i64,
        /// An Exploit hit during the recovery: the Life is not regained.
        life_lost_to_exploit: bool,
    },
    /// A Movement maneuver, as far as it got.
    Moved {
        who: CombatantId,
        path: Vec<Square>,
        cost: u32,
        boosted: bool,
        /// An Exploit's damage stopped it before the end of the declared path.
        stopped: bool,
        /// Paid with action points (shinobi): one move distance, no Normal or Boosted Speed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_ap: bool,
        /// A jump (the ninja chapter): a leap over the squares before the last.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        jump: bool,
    },
    /// `mover` provoked `attacker`'s Exploit: by leaving its Melee Attack Range, or by a
    /// Combat Recovery within its reach (`recovering`).
    ExploitProvoked {
        attacker: CombatantId,
        mover: CombatantId,
        at: Square,
        recovering: bool,
        /// Shinobi: provoked by a sneak attack that was spotted.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        sneak: bool,
        /// Shinobi: an opportunity attack rather than a DBU Exploit.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        opportunity: bool,
        /// d20: provoked by a shot fired in a threatened square.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        shooting: bool,
        /// Provoked by an Energy Charge next to the attacker.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        charging: bool,
        /// Provoked by an Arrogant Declaration next to the attacker.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        declaring: bool,
        /// Provoked by an Empower next to the attacker.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        empowering: bool,
        /// Provoked by a Grapple on the attacker that failed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        grappling: bool,
    },
    AttackDeclared {
        attacker: CombatantId,
        profile: String,
        technique: Option<String>,
        element: Option<String>,
        targets: Vec<CombatantId>,
        ki_cost: i64,
        wager: i64,
        /// The pool the cost is paid from when it is not Ki (power stages).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost_pool: Option<Pool>,
        /// DBU: the body part a Called Shot names.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        called_shot: Option<String>,
    },
    ResponseWindow {
        attacker: CombatantId,
    },
    SurgeUsed {
        who: CombatantId,
        healing: bool,
        amount: i64,
        roll: Option<RollBreakdown>,
    },
    DefenseDeclared {
        defender: CombatantId,
        choice: DefenseChoice,
    },
    StrikeRolled {
        attacker: CombatantId,
        roll: RollBreakdown,
    },
    DefenseRolled {
        defender: CombatantId,
        roll: RollBreakdown,
    },
    /// The outcome of Strike against one defense; `strike` is that target's Strike total.
    Clash {
        attacker: CombatantId,
        defender: CombatantId,
        strike: i64,
        defense: i64,
        hit: bool,
        /// Set when the hit needed no Clash (Rage).
        automatic: Option<String>,
        /// The ruleset gives ties to the attacker (shinobi).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        attacker_wins_ties: bool,
    },
    /// d20: an attack roll against one target's difficulty and defense roll.
    D20Check {
        attacker: CombatantId,
        defender: CombatantId,
        strike: i64,
        difficulty: i64,
        difficulty_why: String,
        /// The defense roll's total (`None`: the target could not defend).
        defense: Option<i64>,
        attack_natural_one: bool,
        defense_natural_one: bool,
        hit: bool,
        /// By how much the attack beat what it had to meet.
        success: Option<i64>,
    },
    /// d20: armour bypassed by a hit loses 1 from every DR value.
    ArmourWorn {
        who: CombatantId,
        armour: String,
        wear: i64,
    },
    /// Digimon: an attack effect given, renewed or ended ("Poison: potency 4, 3 turns left").
    DigiEffect {
        who: CombatantId,
        by: CombatantId,
        effect: String,
        text: String,
    },
    /// Digimon: what 0 HP did (a fall to the Default Stage, a Digitama, a Tamer's Death
    /// Saving Throw), told in full.
    DigiFall {
        who: CombatantId,
        text: String,
    },
    /// Digimon: a flyer took to the air (`height` squares up) or came down (0), told in full.
    Flew {
        who: CombatantId,
        height: u32,
        text: String,
    },
    /// Digimon: a Digimon Digivolved to the higher stage `into` (a roster id), told in full.
    Digivolved {
        who: CombatantId,
        into: String,
        text: String,
    },
    /// Digimon: a Clash started, changed hands or ended, a Charm ended, told in full.
    DigiNote {
        who: CombatantId,
        text: String,
    },
    /// d20: a free action taken ("only one of a given type per round").
    FreeAction {
        who: CombatantId,
        what: String,
    },
    /// d20: where a grenade went (the corner it goes off on, a scatter, a throw-back) and
    /// its blast, told in full.
    Blast {
        who: CombatantId,
        text: String,
    },
    /// d20: a Dive for cover (where the diver landed, what it pays) and getting up again.
    Dive {
        who: CombatantId,
        text: String,
    },
    /// d20: a feint's check against its target's opposing roll, and whether it caught it off
    /// guard for the feinter's next attack on it.
    Feint {
        who: CombatantId,
        target: CombatantId,
        roll: RollBreakdown,
        against_roll: RollBreakdown,
        caught: bool,
    },
    /// d20: a Power Attack set by its first attack of a turn, in effect until its next turn.
    PowerAttack {
        who: CombatantId,
        amount: i64,
    },
    /// d20: a Drop prone, on one's turn or as an immediate action (what it paid with, what
    /// lying prone changes).
    DroppedProne {
        who: CombatantId,
        text: String,
    },
    WoundRolled {
        attacker: CombatantId,
        roll: RollBreakdown,
    },
    Damage {
        attacker: CombatantId,
        target: CombatantId,
        wound: i64,
        category: Category,
        soak: i64,
        soak_used: i64,
        damage: i64,
        notes: Vec<String>,
        /// Flat damage with no category or Soak (shinobi): the log says only how much.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        flat: bool,
    },
    Pushed {
        who: CombatantId,
        from: Square,
        to: Square,
    },
    DefenseLowered {
        who: CombatantId,
        amount: i64,
        until_turn_of: CombatantId,
        reason: String,
    },
    DiminishingDefense {
        who: CombatantId,
        added: i64,
        total: i64,
    },
    ThresholdReached {
        who: CombatantId,
        threshold: String,
        by_damage: bool,
    },
    SteadfastRolled {
        who: CombatantId,
        threshold: String,
        roll: RollBreakdown,
        passed: bool,
    },
    /// The penalty now in force for a combatant (after a save, a rise above, or Life lost
    /// without damage).
    ThresholdPenalty {
        who: CombatantId,
        threshold: Option<String>,
        penalty: i64,
    },
    /// Its own effect took a combatant through a threshold: fewer Standard Actions next round.
    ReducedMomentum {
        who: CombatantId,
        threshold: String,
        actions: u32,
    },
    CheckRolled {
        who: CombatantId,
        purpose: String,
        roll: RollBreakdown,
        target: i64,
        passed: bool,
    },
    /// An opposed Save (Absorbed's escape): both rolls and the winner.
    OpposedSave {
        who: CombatantId,
        against: CombatantId,
        roll: RollBreakdown,
        against_roll: RollBreakdown,
        passed: bool,
    },
    ConditionApplied {
        who: CombatantId,
        kind: ConditionKind,
        source: Option<CombatantId>,
        stacks: u32,
        amount: i64,
        expires: Expiry,
    },
    ConditionEnded {
        who: CombatantId,
        kind: ConditionKind,
        reason: String,
    },
    Defeated {
        who: CombatantId,
        by: Option<CombatantId>,
    },
    AttackEnded {
        attacker: CombatantId,
    },
    BattleEnded {
        winner: Option<Side>,
        round: u32,
        reason: EndReason,
    },
}

/// The battle's event log.
#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EventLog {
    pub events: Vec<BattleEvent>,
}

impl EventLog {
    /// Appends an event.
    pub fn push(&mut self, e: BattleEvent) {
        self.events.push(e);
    }
}

/// Combatant names for describing events.
pub type Names = BTreeMap<CombatantId, String>;

/// `text` (a rule's refusal, which names combatants by id) with each whole id (`#12`) replaced
/// by that combatant's name. Whole ids only: replacing `#1` first would turn `#12` into the
/// name of #1 followed by "2". An id no one has is left as it is.
pub fn with_names(text: &str, names: &Names) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('#') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let name = after[..digits]
            .parse::<u32>()
            .ok()
            .and_then(|n| names.get(&CombatantId(n)));
        match name {
            Some(name) => out.push_str(name),
            None => out.push_str(&rest[at..at + 1 + digits]),
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// Why a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// Only one side (or none) has anyone standing.
    LastSideStanding,
    /// The scenario's round limit was reached.
    RoundLimit,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_combatant_twelve_not_one_followed_by_two() {
        let names: Names = [
            (CombatantId(1), "Kaito".to_string()),
            (CombatantId(12), "Suri".to_string()),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            with_names("#12 cannot reach #1 (#99 is nobody), #", &names),
            "Suri cannot reach Kaito (#99 is nobody), #"
        );
    }
}
