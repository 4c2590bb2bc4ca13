//! The shape of `rules/<id>/actions.ron`: the action economy and the maneuvers each ruleset
//! may have (Power Up, Combat Recovery, Arrogant Declaration, Empower, the grappling maneuvers,
//! Hide), as serde types, re-exported by `crate::ruleset` beside `schema.rs`'s.

use serde::{Deserialize, Serialize};

use super::schema::{ConditionGrant, Fraction};
use crate::dice::{DiceFormula, Formula};

/// `actions.ron`: the action economy.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRules {
    /// Movement maneuvers allowed per round.
    pub moves_per_round: u32,
    /// Ki for a move at Boosted Speed.
    pub boosted_move_cost: Formula,
    pub power_up: PowerUpRules,
    pub combat_recovery: RecoveryRules,
    /// Arrogant Declaration, where the ruleset has it (DBU): the maneuver that gives
    /// Superiority for a while at a lasting price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrogant_declaration: Option<ArrogantDeclarationRules>,
    /// Empower, where the ruleset has it (DBU): Ki handed to an ally, and the Full
    /// Empowerment that gives everything at the price of Fatigued.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empower: Option<EmpowerRules>,
    /// Grapple, Pin and Absorb, where the ruleset has them (DBU): holding an opponent in
    /// Melee Range, pinning it, or taking it in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grapple: Option<GrappleRules>,
    /// Hide, where the ruleset has it (DBU): a Skill Clash for the Hidden condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hide: Option<HideRules>,
    /// United Attack, where the ruleset has it (DBU): an adjacent ally joins an attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub united_attack: Option<UnitedAttackRules>,
    pub standard_actions: u32,
    pub counter_actions: u32,
    /// A Standard Action may be turned into a Counter Action at any time.
    pub conversion: bool,
    pub bonus_momentum_actions: u32,
    pub reduced_momentum_actions: u32,
    pub steady_momentum_actions: u32,
    /// Initiative ties: higher Agility Score first, then a roll-off with this die.
    pub initiative_tie_attribute: String,
    pub initiative_rolloff_die: u32,
    /// Surge (1/encounter Instant): Healing Surge and Ki Surge amounts.
    pub healing_surge: DiceFormula,
    pub ki_surge_fraction: Fraction,
    pub ki_surge_capacity_fraction: Fraction,
    /// Surgency, added to Surges.
    pub surgency: Formula,
}

/// The Power Up maneuver.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerUpRules {
    pub actions: u32,
    pub per_round: u32,
    pub max_stacks: u32,
    /// Added to every Combat Roll per stack.
    pub roll_bonus: Formula,
    /// Added to Maximum Capacity per stack.
    pub capacity: Fraction,
}

/// The Arrogant Declaration maneuver (digest §3.3): once per Combat Encounter, Actions for
/// Superiority until the end of one's next turn, then a penalty for the rest of the encounter.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArrogantDeclarationRules {
    /// Standard Actions it costs.
    pub actions: u32,
    /// Taken off every Combat Roll, Surgency and Soak once the Superiority it gave is over.
    pub penalty: Formula,
    /// How many Minions in one Combat Encounter may make it (the digest: one).
    pub minions_per_encounter: u32,
}

/// The Empower maneuver (digest §3.3): once a round, any number of Actions, each handing an
/// ally Ki from one's own pool without using Capacity; the Full Empowerment hands over any
/// amount at the price of one's Capacity and the conditions it lists.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmpowerRules {
    /// Ki handed over per Action, as a multiple of the giver's Might.
    pub might_per_action: u32,
    /// The amount is multiplied by this when the ally is within the giver's Melee Range.
    pub in_melee_factor: u32,
    /// What the giver gains with a Full Empowerment (its Capacity also drops to 0).
    pub full_conditions: Vec<ConditionGrant>,
}

/// The Grapple family of special maneuvers (digest §3.3): a Grapple Check is a Clash of the
/// grappler's Strike against the target's better of Strike and Dodge; Pin and Absorb are made
/// from a hold; the one held escapes with a new Grapple Check.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrappleRules {
    /// The Basic Attack profile whose Strike, Dodge and Parry the Grapple Check rolls (every
    /// combatant may grapple, known profile or not).
    pub profile: String,
    /// Standard Actions a Grapple costs (once a round).
    pub actions: u32,
    /// Standard Actions a Pin costs (once a round, the grappler only).
    pub pin_actions: u32,
    /// Taken off a Pin's Grapple Check.
    pub pin_penalty: Formula,
    /// Rounds the Pinned condition lasts from the Pin (0: until the hold ends).
    pub pinned_rounds: u32,
    /// Added to an escape's Grapple Check for each Action beyond the first.
    pub escape_bonus_per_action: Formula,
    /// Standard Actions an Absorb costs (once a round, a grappler marked `absorber` only).
    pub absorb_actions: u32,
}

/// The Hide maneuver: Actions for one check of `skill` against every opponent's `against`;
/// beating them all gives Hidden.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HideRules {
    /// Standard Actions it costs (once a round).
    pub actions: u32,
    /// The hider's skill (Stealth).
    pub skill: String,
    /// Each opponent's skill against it (Perception).
    pub against: String,
}

/// The Combat Recovery maneuver.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoveryRules {
    pub min_actions: u32,
    pub max_actions: u32,
    /// Life and Ki regained per Action spent.
    pub per_action: DiceFormula,
    /// Defense Value lost per Action spent, until the start of the next turn.
    pub defense: Formula,
}

/// United Attack (digest §3.4, an Instant, 1/Round): "When an adjacent Ally attacks: spend 1
/// Action and the same profile's KP. Their Wound Roll gains ½ of your damage attribute. You may
/// wager up to ¼ of your Max Capacity."
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitedAttackRules {
    /// Actions the ally spends.
    pub actions: u32,
    /// The share of the ally's damage attribute Modifier the Wound Roll gains.
    pub attribute_share: super::Fraction,
    /// The most the ally may wager, as a share of its Max Capacity.
    pub wager_share: super::Fraction,
}
