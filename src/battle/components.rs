//! The components a combatant entity is made of, and the conditions it can carry.
//!
//! Each component holds one concern (a pool, the stats, the conditions, the action budget…) so
//! systems ask only for what they use. [`crate::battle::fighter::Fighter`] gathers them into a
//! plain snapshot for the rules math.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ruleset::{ConditionKind, TechniqueDef, WeaponDef};

/// A combatant's stable id: its place in the scenario's unit list. Events, commands and saves
/// name combatants by id, never by `Entity`.
#[derive(
    Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct CombatantId(pub u32);

impl fmt::Display for CombatantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A component whose data stays the same for most of a battle, kept behind an `Arc`: the
/// rules snapshot every combatant many times a command, and copying a name, a loadout of
/// techniques or a table of attributes each time was most of a command's cost. Reading goes
/// through `Deref`; changing copies the data first if a snapshot still shares it. It
/// serialises as the data itself, so saves and state hashes are as before.
macro_rules! shared_component {
    ($(#[$doc:meta])* $name:ident($data:ty)) => {
        $(#[$doc])*
        #[derive(Component, Debug, Clone, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(Arc<$data>);

        impl PartialEq for $name {
            /// The same shared data, or equal data.
            fn eq(&self, other: &Self) -> bool {
                Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
            }
        }

        impl $name {
            /// Wraps the data.
            pub fn new(data: $data) -> Self {
                Self(Arc::new(data))
            }
        }

        impl std::ops::Deref for $name {
            type Target = $data;
            fn deref(&self) -> &$data {
                &self.0
            }
        }

        impl std::ops::DerefMut for $name {
            fn deref_mut(&mut self) -> &mut $data {
                Arc::make_mut(&mut self.0)
            }
        }
    };
}

shared_component!(
    /// Who a combatant is, for people (shared between snapshots: see [`IdentityData`]).
    Identity(IdentityData)
);

/// Who a combatant is, for people: its name, the archetype it was built from and its glyph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdentityData {
    pub name: String,
    pub archetype: String,
    pub glyph: String,
}

/// The side a combatant fights for; everyone on another side is an opponent.
#[derive(
    Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Side(pub u8);

/// Attribute Scores by attribute id. In DBU a Modifier equals its Score. Shared between
/// snapshots like the components of `shared_component!`; change it with `Arc::make_mut`.
#[derive(Component, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attributes(pub Arc<BTreeMap<String, i64>>);

impl Attributes {
    /// A score, 0 for an unknown attribute.
    pub fn get(&self, id: &str) -> i64 {
        self.0.get(id).copied().unwrap_or(0)
    }
}

/// Power Level and Tier of Power (base and current), and whether this is a Minion.
#[derive(Component, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Power {
    pub level: u32,
    /// Base ToP from Power Level (after the Minion Weakness rule).
    pub base_tier: u32,
    /// Current ToP; equal to the base unless an effect raises it.
    pub tier: u32,
    pub minion: bool,
    /// Combat Rolls and Saves penalty from Minion Weakness at base ToP 1.
    pub minion_roll_penalty: i64,
    /// Racial Life Modifier, for the Life formula.
    pub life_modifier: i64,
    /// The race's favoured Save.
    pub racial_save: String,
}

/// Size Category and what it does on the grid.
#[derive(Component, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BodySize {
    pub id: String,
    /// Side of the square block occupied.
    pub squares: u32,
    pub melee_range: u32,
}

/// Life Points.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Life {
    pub current: i64,
    pub max: i64,
}

/// Ki Points. The effective maximum is halved by Fatigued; `max` is the unreduced one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ki {
    pub current: i64,
    pub max: i64,
}

/// Capacity: the Ki one may spend in a round; refills at the start of each round. `max` is the
/// unreduced maximum (Fatigued and Weakened halve the effective one).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capacity {
    pub current: i64,
    pub max: i64,
}

pub use crate::grid::Square;

/// Where a combatant stands: the top-left square of its footprint. `None` while Absorbed
/// (removed from the battleground).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position(pub Option<Square>);

shared_component!(
    /// What a combatant can do (shared between snapshots: see [`LoadoutData`]).
    Loadout(LoadoutData)
);

/// What a combatant can do: its Basic Attack profiles, elements, weapon, techniques and skills.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadoutData {
    pub profiles: Vec<String>,
    pub elements: Vec<String>,
    pub weapon: Option<WeaponDef>,
    pub techniques: Vec<TechniqueDef>,
    pub skills: BTreeMap<String, i64>,
    /// It can Absorb an opponent it holds in a Grapple.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub absorber: bool,
}

/// When a condition ends by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expiry {
    /// Only when ended (End a Condition, standing up, a cure…).
    UntilEnded,
    /// At the end of `of`'s turn in `round` ("ends at the end of the turn it started in, after
    /// x rounds have passed").
    EndOfTurn { round: u32, of: CombatantId },
    /// At the end of `round`.
    EndOfRound(u32),
}

/// One condition on a combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionInstance {
    pub kind: ConditionKind,
    /// Who gave it (Shaken's penalty applies against them; Absorbed's absorber).
    pub source: Option<CombatantId>,
    /// The source's ToP when it was given: "(T)" in an inflicted effect is the inflicter's.
    pub source_tier: u32,
    pub stacks: u32,
    /// Damage Over Time per turn (sum of all sources, capped).
    pub amount: i64,
    pub expires: Expiry,
    /// Absorbed: failed escape saves in this absorption (the bonus counts the encounter's,
    /// [`EncounterLog::absorb_failures`]).
    pub failures: i64,
    /// Damage Over Time: the category its damage takes when its source says so (an Elemental
    /// technique's damage is Direct); absent, the condition's own (Lethal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<crate::ruleset::Category>,
}

impl ConditionInstance {
    /// One stack of `kind` from `source` (at its Tier of Power) that lasts until ended: a
    /// scenario's starting condition, or a what-if of the odds and the computer players.
    pub fn until_ended(
        kind: crate::ruleset::ConditionKind,
        source: Option<CombatantId>,
        source_tier: u32,
    ) -> Self {
        Self {
            kind,
            source,
            source_tier,
            stacks: 1,
            amount: 0,
            expires: Expiry::UntilEnded,
            failures: 0,
            category: None,
        }
    }
}

/// The conditions a combatant has, one instance per kind, in the order gained.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditions(pub Vec<ConditionInstance>);

impl Conditions {
    /// The instance of `kind`, if present.
    pub fn get(&self, kind: ConditionKind) -> Option<&ConditionInstance> {
        self.0.iter().find(|c| c.kind == kind)
    }

    /// True when `kind` is present.
    pub fn has(&self, kind: ConditionKind) -> bool {
        self.get(kind).is_some()
    }

    /// Stacks of `kind` (0 when absent).
    pub fn stacks(&self, kind: ConditionKind) -> u32 {
        self.get(kind).map_or(0, |c| c.stacks)
    }

    /// Removes `kind`, returning the instance.
    pub fn remove(&mut self, kind: ConditionKind) -> Option<ConditionInstance> {
        let i = self.0.iter().position(|c| c.kind == kind)?;
        Some(self.0.remove(i))
    }
}

/// A Digimon-family combatant's state beyond the shared components: its attack effects, its
/// Temporary Hit Points, the stage it fell back to, and its Tamer or partner. Only Digimon
/// rulesets' combatants have this component.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigiState {
    /// A Tamer (derived stats, death saves), not a Digimon.
    pub tamer: bool,
    /// The partner it shares its turn with: a Tamer's Digimon, a Digimon's Tamer.
    pub partner: Option<CombatantId>,
    /// The attack effects on it.
    pub effects: Vec<ActiveEffect>,
    /// Temporary Hit Points (Heal): lost before HP.
    pub temp_hp: i64,
    /// The roster id of the stage it fell back to at 0 HP (its stats and attacks from then on).
    pub form: Option<String>,
    /// A Directed bonus waiting for its next Dodge or Accuracy roll, and who gave it.
    pub directed: Option<(i64, CombatantId)>,
    /// Haste: one more Simple Action next round.
    pub haste: bool,
    /// This round's actions include Haste's extra one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hasted_now: bool,
    /// The round in which it last activated Lifesteal ("may only activate the Effect once per
    /// round"; Heal's once a round is the round's list of attacks used).
    pub lifesteal_round: u32,
    /// Why it is out of the fight (a Digitama, unconscious, killed), once it is.
    pub down: Option<String>,
    /// The Clash it is in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clash: Option<ClashHold>,
    /// Charmed: the side it belongs to, while the charmer's side commands it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charmed_from: Option<Side>,
    /// The round it last Interceded in ("once per round").
    #[serde(default, skip_serializing_if = "is_round_zero")]
    pub interceded_round: u32,
    /// How many times it has Digivolved in this battle (the ruleset allows so many).
    #[serde(default, skip_serializing_if = "is_round_zero")]
    pub digivolved: u32,
    /// How many squares up it flies (0: on the ground).
    #[serde(default, skip_serializing_if = "is_round_zero")]
    pub airborne: u32,
    /// A player character (its side is the scenario's people's): the GM's ties go its way.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub player: bool,
    /// Items used this battle, by the item's attack id ("Use an Item").
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub items_used: std::collections::BTreeMap<String, u32>,
}

fn is_round_zero(n: &u32) -> bool {
    *n == 0
}

/// One side of a Clash (the Digimon chapter's grapple): who holds whom. Both participants
/// carry one, mirrored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClashHold {
    /// The other participant (a Clash is always between two).
    pub opponent: CombatantId,
    /// It controls the Clash (its opponent may not act).
    pub control: bool,
    /// Who started it: a total tie on a control check goes to the starter (our reading of
    /// "the Player Controls the Clash").
    pub started_by: CombatantId,
    /// Pinned: it does not roll for control at the next round's check.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// What outsiders' damage to either participant loses: both BIT values, fixed when the
    /// Clash starts.
    pub shield: i64,
    /// How far apart the participants may be: the distance it started at, 1 (in contact) or
    /// more for a Clash started at a range with the Reach Quality ("it can start Clashes at a
    /// Range equal to its Reach value").
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub reach: u32,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// An attack effect on a combatant: its potency, the target's turns it has left, and who gave
/// it (the stacking rule and Taunt and Fear need the user).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveEffect {
    pub kind: crate::ruleset::digimon::EffectKind,
    pub potency: i64,
    pub turns: i64,
    pub source: CombatantId,
}

/// A power-stages combatant's combat cards: held (its maneuvers), still in its deck, and
/// discarded. Card id → copies. Only power-stages combatants have this component.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cards {
    pub hand: BTreeMap<String, u32>,
    pub deck: BTreeMap<String, u32>,
    pub discard: BTreeMap<String, u32>,
    /// It made its Final Physical Attack this round and passes until the round ends.
    pub passed: bool,
    /// Attacks made during its current turn.
    pub attacks_this_turn: u32,
    /// Uses of its personality card power this round.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub power_uses: u32,
    /// Anger raised by two-part cards, from 0 to the ruleset's limit.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub anger: u32,
    /// Levels gained by filling its anger.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub level: u32,
}

impl Cards {
    /// How many cards it holds.
    pub fn held(&self) -> u32 {
        self.hand.values().sum()
    }

    /// Copies of `card` held.
    pub fn count(&self, card: &str) -> u32 {
        self.hand.get(card).copied().unwrap_or_default()
    }

    /// Takes one copy of `card` from the hand onto the discard pile; false if none was held.
    pub fn play(&mut self, card: &str) -> bool {
        match self.hand.get_mut(card) {
            Some(n) if *n > 0 => {
                *n -= 1;
                if *n == 0 {
                    self.hand.remove(card);
                }
                *self.discard.entry(card.to_string()).or_default() += 1;
                true
            }
            _ => false,
        }
    }
}

/// The round's action budget.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actions {
    pub standard: u32,
    pub counter: u32,
    /// Steady Momentum actions, usable until the end of the owner's turn in `steady_round`.
    pub steady: u32,
    pub steady_round: u32,
    /// Actions taken away by Pinned this round, given back if Pinned ends.
    pub lost_to_pin: (u32, u32),
}

impl Actions {
    /// Standard actions usable on one's own turn, Steady Momentum included.
    pub fn usable(&self) -> u32 {
        self.standard + self.steady
    }
}

/// What a combatant did this round, for once-per-round rules.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundLog {
    pub attacks: u32,
    /// Movement maneuvers made this round.
    pub moves: u32,
    pub profiles_used: BTreeSet<String>,
    pub technique_used: bool,
    pub bonus_momentum: bool,
    pub reduced_momentum: bool,
    /// Power Ups made this round.
    pub power_ups: u32,
    /// A Combat Recovery was made this round.
    pub recovered: bool,
    /// DBU: a Called Shot was made this round (one a round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub called_shot: bool,
    /// DBU: an Empower was made this round (one a round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empowered: bool,
    /// DBU: a Grapple was tried this round (one a round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub grappled: bool,
    /// DBU: a Pin was tried this round (one a round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// DBU: an Absorb was tried this round (one a round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub absorbed: bool,
    /// DBU: a Hide was tried this round (one a round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hid: bool,
    /// DBU: joined an ally's attack with a United Attack this round (1/Round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub united: bool,
    pub sweep_debuff: bool,
    /// Actions lost at the start of next round (Reduced Momentum).
    pub next_round_penalty: u32,
    /// d20: the full-round attack under way this round: its attack id, the swings made and
    /// those still to come.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_attack: Option<FullAttack>,
    /// d20: the round's one Standard action has gone on an attack ("Normally a character gets
    /// one attack as a standard action").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub standard_attack: bool,
    /// d20: the round's free single step has been taken.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stepped: bool,
    /// d20: the round's Swift actions spent (on its own turn, or as immediate actions on
    /// another's); trades buy more once they are gone.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub swift_spent: u32,
    /// The ninja chapter: the last thing done this turn was a walked move, so a jump now has a
    /// running start (its whole move, not half).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ran: bool,
    /// The ninja chapter: in mid air on a jump, until it lands ("One cannot Dodge in mid air").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub airborne: bool,
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

/// A d20 full-round attack: "A character devoting a full round action to attacks may make
/// multiple attacks", each a separate order at its own penalty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FullAttack {
    pub attack: String,
    pub made: u32,
    pub left: u32,
}

/// What a combatant did this encounter, for once-per-encounter rules.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncounterLog {
    pub surge_used: bool,
    pub rage_used: bool,
    /// The round of Rage's aftermath (one Action and Guard Down).
    pub rage_aftermath: Option<u32>,
    /// Defeat has been announced (it is announced once, at the end of the attack).
    pub defeated: bool,
    /// Power Up stacks, and when they fade.
    pub power: u32,
    pub power_expires: Option<Expiry>,
    /// d20: how much bypassing hits have worn this combatant's armour ("His armor also takes
    /// damage from being bypassed"): every DR value is this much lower.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub armour_wear: i64,
    /// d20: grenades thrown so far, by weapon id (each character carries a few).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub grenades_thrown: std::collections::BTreeMap<String, u32>,
    /// d20: lying prone after a Dive for cover or a Drop prone; shots at it are harder and
    /// melee blows easier until it moves.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prone: bool,
    /// d20: a Dive for cover taken with "your next move action": the diver's next turn
    /// starts by spending it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dive_owed: bool,
    /// d20: a Dive for cover made on its own turn, whose Dodge check against the first shot
    /// at it from beyond melee range is still to come (until its next turn starts).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dive_ready: bool,
    /// d20: the Power Attack its first attack of its last turn set, in effect on every melee
    /// attack it makes until its next turn starts ("remains in effect until her turn next
    /// round").
    /// d20: the feints this character has made, one mark a target: its attempts since its
    /// last plain standard attack on it (each one a further penalty), and whether its next
    /// attack on it comes off guard.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub feints: Vec<FeintMark>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_attack: Option<i64>,
    /// Absorbed: failed escape saves in this Combat Encounter ("+1 for each failure in this
    /// Combat Encounter"), kept across absorptions.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub absorb_failures: i64,
    /// Energy Charges held for one declared attack, until it is made or the charge cancelled
    /// (Guard Down meanwhile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<HeldCharge>,
    /// The encounter's Arrogant Declaration, once made (it is made once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrogance: Option<Arrogance>,
    /// DBU: the Grapple it is in, if any (both participants carry one, mirrored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grapple: Option<GrappleHold>,
}

/// One side of a DBU Grapple: the other participant, and whether this one holds it. Both
/// have Guard Down while it lasts.
/// d20: what a character's feints at one target left ("cumulative -2 penalties with each
/// Feint attempt"; "the next attack made by the character against the target of the bluff
/// catches them off guard").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeintMark {
    pub target: CombatantId,
    /// Attempts since the last standard attack on the target that was neither a feint nor
    /// off guard.
    pub attempts: u32,
    /// The last feint caught the target: the next attack on it is off guard.
    pub ready: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrappleHold {
    /// The other participant.
    pub with: CombatantId,
    /// This one is the grappler (it may Pin, Absorb or let go); the other is held (it may not
    /// move, and escapes with a Grapple Check).
    pub holds: bool,
}

/// Where a combatant's Arrogant Declaration stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arrogance {
    /// Declared; the Exploits it provoked come first.
    Declared,
    /// Superiority given: the penalty applies once it is over, for the rest of the encounter.
    Superior,
}

/// Energy Charges held for a declared Basic Attack or Signature Technique.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldCharge {
    /// The profile of the attack the charges feed.
    pub profile: String,
    /// Its Signature Technique, when it is one.
    pub technique: Option<String>,
    /// Charges held, not counting a profile's free ones (Beam's).
    pub charges: u32,
}

impl HeldCharge {
    /// True when the attack with `profile` and `technique` is the one these charges feed (a
    /// Signature Technique names its own profile, so the technique alone decides).
    pub fn feeds(&self, profile: &str, technique: Option<&str>) -> bool {
        self.technique.as_deref() == technique
            && (self.technique.is_some() || self.profile == profile)
    }
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// Health Threshold bookkeeping, by index into the ruleset's threshold list.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Thresholds whose Life requirement is currently met.
    pub reached: BTreeSet<usize>,
    /// Thresholds whose penalty applies (failed Steadfast, or reached without damage).
    pub failed: BTreeSet<usize>,
    /// Thresholds whose triggers (Bonus Momentum, Rage entry…) already fired this encounter.
    pub triggered: BTreeSet<usize>,
    /// The lowest threshold reached by damage during the current maneuver, saved for after it.
    pub pending: Option<PendingThreshold>,
}

/// A threshold reached during a maneuver whose Steadfast Save waits for its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingThreshold {
    pub index: usize,
    /// Who knocked them through (for Bonus Momentum); `None` for their own effects.
    pub by: Option<CombatantId>,
    /// True when the attacker's Attacking Maneuver did it.
    pub by_attack: bool,
}

/// A temporary change to Defense Value (Sweeping's -1(T)), until the start of `until`'s turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefenseChange {
    pub amount: i64,
    pub label: String,
    pub until_turn_of: CombatantId,
}

/// Defense Value changes in force, and Diminishing Defense stacks (cleared each round).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defense {
    pub diminishing: i64,
    pub changes: Vec<DefenseChange>,
}

/// Marks a combatant at 0 Life: no maneuvers, turns skipped.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Defeated;

/// How a combatant answers the battle's questions when no person is asked.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Controller {
    pub defense: DefensePolicy,
    pub responses: ResponsePolicy,
    pub exploits: ExploitPolicy,
}

impl Default for Controller {
    fn default() -> Self {
        Self {
            defense: DefensePolicy::Best,
            responses: ResponsePolicy::SurgeWhenLow,
            exploits: ExploitPolicy::Always,
        }
    }
}

impl Controller {
    /// A person's controller: every question is asked.
    pub fn person() -> Self {
        Self {
            defense: DefensePolicy::Prompt,
            responses: ResponsePolicy::Prompt,
            exploits: ExploitPolicy::Prompt,
        }
    }
}

/// Whether to Exploit an opponent leaving one's Melee Attack Range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExploitPolicy {
    /// Ask: the battle waits for an `Exploit` command.
    Prompt,
    Never,
    /// With a Counter Action left, make the Basic Attack with the best expected damage.
    Always,
}

/// Dodge or Parry, chosen by a person or by a policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefensePolicy {
    /// Ask: the battle waits for a `Defend` command.
    Prompt,
    AlwaysDodge,
    /// Parry whenever a Counter Action (or a Standard one to convert) is left.
    AlwaysParry,
    /// Whichever of Dodge and Parry has the better exact odds; Parry only if clearly better.
    Best,
}

/// What to do in the window for Instant actions before an attack resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResponsePolicy {
    /// Ask: the battle waits for a `Respond` command.
    Prompt,
    Never,
    /// Use the Healing Surge when targeted at or below the Injured threshold.
    SurgeWhenLow,
}
