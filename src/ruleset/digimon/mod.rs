//! The Digimon family (the Digimon RPG's combat chapter): its data files, their checks, and how
//! they are lowered onto the engine's action-point path.
//!
//! A Digimon ruleset is `ruleset.ron`, `digimon.ron` (the dice, the round's actions, the range
//! and area penalties, the evolution stages, the attack effects and the attacks),
//! `roster.ron` (Digimon with their stats and stage, Tamers with attributes and skills) and
//! `terrain.ron`. Like the d20 family it plays on the ninja chapter's engine path: [`lower`]
//! writes the data as a [`ShinobiRules`] (two action points for two Simple Actions, one
//! Dodge defense, the attacker winning ties) and keeps what that path lacks (exploding 3d6,
//! range and area penalties, damage dice minus Armor, effects, stages, Tamers) in
//! [`DigimonData`], which `crate::battle::family::digimon` plays.

mod lower;
mod validate;

pub use lower::{
    BOLSTERED, INIT, as_shinobi, can_bolster, clash_actions, loadout, lower, modifier,
    tamer_initiative, tamer_stats, with_bolstered,
};
pub use validate::{foreign_terrain_errors, terrain_errors, validate};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::schema::*;
use super::shinobi::{self};

/// The files of a Digimon ruleset, in load order.
pub const DIGIMON_FILES: [&str; 4] = ["ruleset.ron", "digimon.ron", "roster.ron", "terrain.ron"];

/// The combat stats every Digimon has and every Tamer gets from its attributes ("Accuracy,
/// Damage, Dodge, Armor", Body and Agility for initiative, the BIT/CPU/RAM values effects read,
/// Charisma for Direct).
pub const ACC: &str = "ACC";

pub const DMG: &str = "DMG";

pub const DODGE: &str = "DODGE";

pub const ARM: &str = "ARM";

pub const BODY: &str = "BODY";

pub const AGI: &str = "AGI";

pub const BIT: &str = "BIT";

pub const CPU: &str = "CPU";

pub const RAM: &str = "RAM";

pub const CHA: &str = "CHA";

/// Every combat stat, in the order the unit panel lists them.
pub const COMBAT_STATS: [&str; 10] = [ACC, DMG, DODGE, ARM, BODY, AGI, BIT, CPU, RAM, CHA];

/// The attribute holding a combatant's maximum HP in the lowered tables.
pub const HP: &str = shinobi::HP;

/// The attribute holding a combatant's Movement (squares one Move covers).
pub const MOVE: &str = shinobi::MOVE;

/// `digimon.ron`: everything about combat in the chapter that is not a combatant.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigimonRules {
    /// What the life pool is called on screen.
    pub pool_name: String,
    /// Dice of every check ("3D6 + Accuracy"): how many, their sides, and whether a die that
    /// shows its maximum rolls again ("Critical Success Dice").
    pub check_dice: u32,
    pub die: u32,
    pub exploding: bool,
    /// Simple Actions a turn; a Complex Action costs them all ("a single use of a Complex
    /// Action, or two Simple Actions").
    pub simple_actions: u32,
    /// What the Dodge roll loses for every attack past the first in a round ("a stacking -1").
    pub dodge_penalty_per_attack: i64,
    /// [Ranged] attack penalties.
    pub ranged: RangedRule,
    /// [Area] attack penalties.
    pub area: AreaRule,
    /// The evolution stages, lowest first, and the one a [Ranged] penalty counts from.
    pub stages: Vec<String>,
    pub rookie_stage: String,
    /// "Bolster … add +2 to the potency of the action".
    pub bolster: i64,
    /// Effects last RAM divided by this, at least `min_duration` ("half the RAM value"; "it
    /// cannot have a Duration below 1").
    pub duration_divisor: i64,
    pub min_duration: i64,
    /// How a Tamer's attribute becomes its modifier ("Dexterity Mod"): (value − base) / divisor,
    /// rounded down (the chapter does not say; our default).
    pub attribute_modifier: ModifierRule,
    /// The Death Saving Throw: 3d6, failing at or below `fail_at`, one higher for every
    /// `per_points` HP below 0.
    pub death_save: DeathSaveRule,
    /// The attack effects, each once: its potency and how long it lasts.
    pub effects: Vec<EffectDef>,
    /// The attacks combatants can make.
    pub attacks: Vec<DigiAttackDef>,
    /// Clashing: size tags, the Pin bonus.
    pub clash: ClashRule,
    /// Digivolving in combat; not played when absent.
    #[serde(default)]
    pub digivolve: Option<DigivolveRule>,
    /// Flying ("a chosen Movement Score (Movement, Fly, Swim, etc)"); not played when absent.
    #[serde(default)]
    pub flight: Option<FlightRule>,
    /// The range each number of a character may take (ours: the text gives no caps). The
    /// roster is held to it, and the character editor refuses a value outside it.
    #[serde(default)]
    pub build: crate::ruleset::build::BuildLimits,
}

/// "Clashing": the size tags' values (the larger participant adds the difference to its
/// Clash checks, the smaller takes it off) and the Pin bonus.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClashRule {
    /// Size tag -> its value; the difference of two values is the Clash modifier.
    pub sizes: BTreeMap<String, i64>,
    /// The size of every Tamer.
    pub tamer_size: String,
    /// "The controller of the clash gains a +4" on a Pin.
    pub pin_bonus: i64,
    /// "If the thrown Digimon would hit a group of enemies, consider it a basic [Ranged]
    /// Attack, with a bonus to the Damage and Accuracy equal to the thrower's CPU Value times
    /// three": the factor; `None` plays no crash (the thrown Digimon only stops).
    #[serde(default)]
    pub throw_into_group: Option<i64>,
}

/// Flying: a Digimon with a Fly score may take to the air or land as a Move ("may move a
/// number of Squares equal to a chosen Movement Score (Movement, Fly, Swim, etc)"); in the air
/// it moves by its Fly score over what the ground would stop, and "still needs the proper
/// method of movement in order to move closer to an enemy in the air" (003:35, 003:65).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlightRule {
    /// How many squares up a flyer rises (ours: the text gives no height); what a Pinned
    /// flyer falls ("damage equal to the number of squares fallen, reduced by their Bit
    /// Value").
    pub height: u32,
}

/// "Digivolve (Simple Action): The Digimon may Digivolve to a higher stage. The Digimon must
/// meet the campaign's prerequisites to do so"; "it removes all damage taken to its Hit
/// Points". The higher stage is a roster Digimon whose `default_stage` is the one it is now;
/// the prerequisites are the ruleset's (there is no campaign here).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigivolveRule {
    /// Simple Actions it costs ("Digivolving in combat is … a Simple Action").
    pub actions: u32,
    /// How many times a Digimon may Digivolve in one battle (ours: each Digivolution heals
    /// it whole, so without a limit a partner that falls back to its Default Stage would
    /// rise again every time).
    pub per_battle: u32,
    /// Only a Digimon whose Tamer is in the fight and conscious may Digivolve (ours: the
    /// partner's bond is what makes it Digivolve).
    pub needs_tamer: bool,
}

/// A Clash action: what an attack with `clash` set does instead of an Accuracy roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ClashMove {
    /// "Clash (Simple Action): The Digimon or Tamer may initiate a Clash."
    Start,
    /// "End the Clash (Simple Action)".
    End,
    /// "Pin (Complex Action): Make contested Body checks."
    Pin,
    /// "Throw (Complex Action)": Body squares away, Damage stat minus Armor.
    Throw,
}

impl ClashMove {
    /// Every Clash action, so validation can insist on each exactly once.
    pub const ALL: [ClashMove; 4] = [Self::Start, Self::End, Self::Pin, Self::Throw];
}

/// "[Ranged] Attacks … take an Accuracy penalty of 1 for every 5 squares the opponent is
/// further than 10 squares"; adjacent: "1 + the number of stages the user is above Rookie".
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangedRule {
    pub free_squares: u32,
    pub per_squares: u32,
    pub penalty: i64,
    pub adjacent_base: i64,
}

/// "-1 … for each target … past the second"; "a further -2 … if an ally is caught up".
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaRule {
    pub free_targets: u32,
    pub per_target: i64,
    pub ally_penalty: i64,
}

/// A Tamer attribute's modifier: (value − base) / divisor, rounded down.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModifierRule {
    pub base: i64,
    pub divisor: i64,
}

/// "A simple roll of 3D6 where a roll of 3 is a failure. The TN goes up by 1 for every two
/// points the Tamer is below 0."
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeathSaveRule {
    pub fail_at: i64,
    pub per_points: i64,
}

/// The chapter's attack effects (19), plus Direct, the Tamer's order to its partner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EffectKind {
    Immobilize,
    Knockback,
    Taunt,
    Poison,
    Confuse,
    Stun,
    Fear,
    Lifesteal,
    Vigor,
    Charm,
    Fury,
    Cleanse,
    Haste,
    Blind,
    Paralysis,
    Weaken,
    Strengthen,
    Heal,
    Regenerate,
    /// "Direct (Simple Action): … a bonus to their next Dodge or Accuracy roll equal to the
    /// Tamer's Charisma".
    Direct,
}

impl EffectKind {
    /// Every kind, the chapter's 19 in its order, then Direct.
    pub const ALL: [EffectKind; 20] = [
        Self::Immobilize,
        Self::Knockback,
        Self::Taunt,
        Self::Poison,
        Self::Confuse,
        Self::Stun,
        Self::Fear,
        Self::Lifesteal,
        Self::Vigor,
        Self::Charm,
        Self::Fury,
        Self::Cleanse,
        Self::Haste,
        Self::Blind,
        Self::Paralysis,
        Self::Weaken,
        Self::Strengthen,
        Self::Heal,
        Self::Regenerate,
        Self::Direct,
    ];

    /// Positive effects help their target ("Allies do not have to roll Dodge at all for
    /// Positive Effects").
    pub fn positive(self) -> bool {
        matches!(
            self,
            Self::Lifesteal
                | Self::Vigor
                | Self::Fury
                | Self::Cleanse
                | Self::Haste
                | Self::Strengthen
                | Self::Heal
                | Self::Regenerate
                | Self::Direct
        )
    }
}

/// How an effect lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lasting {
    /// RAM ÷ 2 of the target's turns.
    Normal,
    /// This many times the normal duration ("Poison … triple the normal Duration").
    Times(i64),
    /// Happens once ("This Effect has no Duration").
    Instant,
    /// Until the next Dodge or Accuracy roll (Direct).
    NextRoll,
}

/// An attack effect: its potency is the user's `stat` times `times` (Confuse: the target's
/// higher of CPU and BIT).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    pub kind: EffectKind,
    pub name: String,
    pub description: String,
    pub stat: String,
    pub times: i64,
    /// The multiplier when the attack is used as a Complex Action ("Heal … Bit value x7 by
    /// making an Attack with [Heal] a Complex Action"; Lifesteal "double"); Bolster's +2 does
    /// not add to it.
    #[serde(default)]
    pub complex_times: Option<i64>,
    pub lasting: Lasting,
}

/// An attack's range tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tag {
    /// "May only be used on an enemy who is adjacent".
    Melee,
    /// "May be fired at any distance", with the adjacent and long-range penalties.
    Ranged,
    /// An area, with the per-target and ally penalties.
    Area,
}

/// An attack: its tag, its area, whether it deals damage and which effect it carries.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigiAttackDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub tag: Tag,
    /// Single, or the area an [Area] attack covers.
    #[serde(default = "single")]
    pub targeting: Targeting,
    /// A [Damage] attack; an [Effect] attack deals none.
    #[serde(default = "yes")]
    pub damage: bool,
    #[serde(default)]
    pub effect: Option<EffectKind>,
    /// A Complex Action (both actions of a turn).
    #[serde(default)]
    pub complex: bool,
    /// A Clash action rather than an attack: no Accuracy or Dodge roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clash: Option<ClashMove>,
    /// "Use an Item (Complex Action)": an item carried rather than an attack, used on the user
    /// or an ally so many times a battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<ItemUse>,
}

/// An item a Digimon or Tamer carries into battle ("This action may vary wildly in what you
/// can and cannot use depending on the setting": the items are ours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemUse {
    /// How many the carrier has for the battle.
    pub uses: u32,
    /// Hit Points it gives back (not past the maximum).
    pub restore: i64,
}

fn single() -> Targeting {
    Targeting::Single
}

fn yes() -> bool {
    true
}

/// `roster.ron`: Digimon and Tamers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigimonRoster {
    pub digimon: Vec<DigimonDef>,
    #[serde(default)]
    pub tamers: Vec<TamerDef>,
}

/// A Digimon: its stage, its stats, HP, Movement, attacks, and the stage it falls back to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigimonDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub role: String,
    pub glyph: String,
    pub stage: String,
    /// Every combat stat but Charisma (`ACC`, `DMG`, `DODGE`, `ARM`, `BODY`, `AGI`, `BIT`,
    /// `CPU`, `RAM`).
    pub stats: BTreeMap<String, i64>,
    pub hp: i64,
    pub movement: i64,
    /// Its size tag (see `clash.sizes` in digimon.ron).
    pub size: String,
    pub attacks: Vec<String>,
    /// The Digimon's lowest Default Stage (another roster entry), which a partnered Digimon
    /// falls back to at 0 HP; none when this is its Default Stage.
    #[serde(default)]
    pub default_stage: Option<String>,
    /// The Reach Quality's value: it can start a Clash with a foe this many squares away
    /// (0 or 1: only an adjacent one).
    #[serde(default)]
    pub reach: u32,
    /// Its Fly score: the squares a Move covers in the air (0: it cannot fly).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fly: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A Tamer: attributes and skills, from which its combat stats are derived.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TamerDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub role: String,
    pub glyph: String,
    /// `STR`, `DEX`, `CON`, `INT`, `CHA`.
    pub attributes: BTreeMap<String, i64>,
    /// `FIGHT`, `DODGE`, `ENDURANCE`, `SURVIVAL`.
    pub skills: BTreeMap<String, i64>,
    /// Fights with a weapon or item: 1d6 damage instead of 1.
    #[serde(default)]
    pub weapon: bool,
    /// The roster id of the Digimon partner it acts with.
    #[serde(default)]
    pub partner: Option<String>,
    pub attacks: Vec<String>,
}

/// A Tamer's attributes and skills, by id.
pub const TAMER_ATTRIBUTES: [&str; 5] = ["STR", "DEX", "CON", "INT", "CHA"];

pub const TAMER_SKILLS: [&str; 4] = ["FIGHT", "DODGE", "ENDURANCE", "SURVIVAL"];

/// A Digimon ruleset's own data, kept beside the lowered tables.
#[derive(Debug, Clone)]
pub struct DigimonData {
    pub combat: DigimonRules,
    pub roster: DigimonRoster,
    /// The action-point tables this family is played on (see [`as_shinobi`]).
    pub ap: super::shinobi::ShinobiData,
}

impl DigimonData {
    pub fn digimon(&self, id: &str) -> Option<&DigimonDef> {
        self.roster.digimon.iter().find(|d| d.id == id)
    }
    pub fn tamer(&self, id: &str) -> Option<&TamerDef> {
        self.roster.tamers.iter().find(|t| t.id == id)
    }
    pub fn attack(&self, id: &str) -> Option<&DigiAttackDef> {
        self.combat.attacks.iter().find(|a| a.id == id)
    }
    pub fn effect(&self, kind: EffectKind) -> Option<&EffectDef> {
        self.combat.effects.iter().find(|e| e.kind == kind)
    }
    /// How many stages `stage` is above Rookie (0 at or below it; Tamers are 0).
    pub fn stages_above_rookie(&self, stage: &str) -> i64 {
        let at = |s: &str| self.combat.stages.iter().position(|x| x == s);
        match (at(stage), at(&self.combat.rookie_stage)) {
            (Some(a), Some(r)) if a > r => (a - r) as i64,
            _ => 0,
        }
    }
}
