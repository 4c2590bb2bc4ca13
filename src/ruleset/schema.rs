//! The shapes of the DBU ruleset files in `rules/dbu/`, as serde types.
//!
//! Every struct refuses unknown fields, so a misspelt key is an error with its position instead
//! of a silently ignored line. Numbers that no rules text gives carry a comment in the data file
//! saying they are our default; here the types only say what each value means.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::dice::{DiceFormula, Formula};

/// `rules/<id>/ruleset.ron`: which ruleset this is and which mechanic family plays it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The id used on the command line and in scenarios (`dbu`).
    pub id: String,
    pub name: String,
    /// The engine code that plays this ruleset's data.
    pub family: Family,
    pub description: String,
    /// Where each rule comes from, for modders.
    pub sources: Vec<String>,
}

/// Mechanic families the engine knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Family {
    /// Opposed d10 rolls with Tier of Power dice, Soak, Health Thresholds and Steadfast.
    Dbu,
    /// The card game's combat: power-stage tracks, life cards, the Physical Attack Table and
    /// blocks with held cards (`stages.ron`; see [`crate::ruleset::stages`]).
    PowerStages,
    /// The ninja d20 system: 3 action points a round, d20 attacks against Dodge, Block or
    /// Deflect with the attacker winning ties, cover that absorbs damage until broken and
    /// concealment miss chances (`shinobi.ron`; see [`crate::ruleset::shinobi`]).
    Shinobi,
    /// The generic d20 skill system: exploding d20 checks against range difficulties and a
    /// Dodge or parry, Success Value and Effect Points, criticals by margin, armour DR by damage
    /// type (`d20.ron`; see [`crate::ruleset::d20`]).
    D20,
    /// The Digimon RPG: exploding 3d6 Accuracy against 3d6 Dodge with the attacker winning
    /// ties, damage dice minus Armor, attack effects with durations, evolution stages and
    /// Tamers (`digimon.ron`; see [`crate::ruleset::digimon`]).
    Digimon,
}

/// `terrain.ron`: the terrain types a scenario map is drawn with, and line-of-sight and cover
/// rules.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRules {
    /// How blocking squares that only touch a line of sight at a corner count.
    pub line_of_sight: CornerRule,
    /// Damage a cover feature takes off a non-area attack: `RANK` is the feature's Hardness
    /// Rank, `bT` the defender's base ToP.
    pub cover_reduction: Formula,
    pub types: Vec<TerrainDef>,
}

/// The line-of-sight option: a line between square centres is blocked by every blocking square
/// whose inside it crosses; this decides the squares it only touches at a corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CornerRule {
    /// Touching corners never block.
    CornersNeverBlock,
    /// A line squeezing between two blocking squares that meet at a corner is blocked.
    CornersBlockWhenBoth,
    /// Touching any blocking square's corner blocks.
    CornersBlockWhenEither,
}

/// One kind of terrain square.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainDef {
    pub id: String,
    pub name: String,
    /// The character that draws it in a scenario's map rows.
    pub symbol: char,
    /// Movement cost to enter the square; `None` means it cannot be entered.
    pub move_cost: Option<u32>,
    /// Blocks lines of sight (and so targeting) through it.
    pub blocks_sight: bool,
    /// A cover feature of this Hardness Rank protects characters next to it.
    #[serde(default)]
    pub cover_rank: Option<i64>,
    /// Added to every Combat Roll of a character standing on it (Bog: -1(bT)).
    #[serde(default)]
    pub roll_modifier: Option<Formula>,
    /// Shinobi cover: damage this obstruction absorbs for a character beside it before it
    /// breaks (a wooden door 20, a stone wall 80).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absorb: Option<i64>,
    /// Shinobi: the terrain (its id) this obstruction leaves once it is broken, so a broken
    /// steel door no longer blocks sight or the way; without it a broken obstruction stays
    /// where it was, absorbing nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaks_into: Option<String>,
    /// Shinobi concealment: the percent chance that an attack on a character standing here
    /// misses although it hit (thick mist 40).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concealment: Option<u32>,
    /// Shinobi: a character standing here swims, and "One cannot Dodge in mid air or while
    /// swimming" (a river too deep to wade).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swimming: Option<bool>,
    /// Shinobi: entering this square (by moving or being pushed) is a fall of this many feet
    /// (a ledge or a pit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop: Option<u32>,
    /// d20 cover: a feature of this kind beside a target, crossed by the line of attack, adds
    /// this to what the attack must beat (Poor +2, Standard +4, Good +8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_bonus: Option<i64>,
    /// d20 concealment: a target standing here adds this to what the attack must beat (Poor
    /// +1, Standard +2, Good +4, Total +8); only the highest cover or concealment counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concealment_bonus: Option<i64>,
    /// d20 cover: the damage reduction a shot that treats this cover as concealment (half its
    /// bonus) must get through ("if you hit you must now penetrate the DR of the cover").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_dr: Option<i64>,
    /// Digimon: Difficult Terrain ("it takes a Complex Action over a Simple Action to move
    /// through"); each square still costs its `move_cost`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficult: Option<bool>,
    /// Digimon: what a Skill Check made beside this square does to it ("Use a Skill … a check
    /// to move a hazardous object"): a boulder heaved aside, data rubble cleared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_check: Option<SkillCheckDef>,
    pub description: String,
}

/// A Skill Check a combatant beside a square can make on it, and what the square becomes on a
/// success. The chapter names the action and its examples but no TN or stat: both are data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillCheckDef {
    /// What the check does, as the action bar and the log say it ("Heave the boulder aside").
    pub name: String,
    /// The stat added to the check's dice (Digimon: a combat stat id such as `BODY`).
    pub stat: String,
    /// The TN the check must meet or beat.
    pub target: i64,
    /// The terrain id the square becomes on a success.
    pub becomes: String,
}

/// `dice.ron`: the base die, Tier of Power dice, criticals, botches and fixed-die checks.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceRules {
    /// Sides of the Base Die rolled by every check.
    pub base_die: u32,
    /// One row per Tier of Power, starting at 1.
    pub tiers: Vec<TierRow>,
    /// Base ToP from Power Level (`PL` is the only variable).
    pub tier_from_power_level: Formula,
    /// Default Critical Target of a Combat Roll or Save.
    pub critical_target: u32,
    /// Effects may lower a Critical Target, never below this.
    pub critical_target_floor: u32,
    /// A natural result at or below this is a Botch.
    pub botch_range: u32,
    /// What a Botch takes off a Combat Roll or Save.
    pub botch_penalty: Formula,
    /// What a Botch takes off a Skill Check.
    pub skill_botch_penalty: i64,
    /// What a Critical Result adds to a Skill Check.
    pub skill_critical_dice: DiceFormula,
    /// The Superiority die crits on this natural result and nothing lower.
    pub superiority_critical: u32,
    /// The Steadfast Save: a bare die with a fixed pass mark.
    pub steadfast: SteadfastRules,
    /// Target Numbers by difficulty name, for Saves and Skill Checks.
    pub difficulties: Vec<Difficulty>,
    /// Who wins an opposed attack roll that ties: the defender (DBU, the default) or the
    /// attacker (shinobi).
    #[serde(default)]
    pub attacker_wins_ties: bool,
}

/// One Tier of Power's dice.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TierRow {
    pub tier: u32,
    /// Added to every Combat Roll at this ToP.
    pub extra_dice: DiceFormula,
    /// Added on a Critical Result at this ToP.
    pub critical_dice: DiceFormula,
    /// Diminishing Defense stacks gained per attack, by base ToP.
    pub diminishing_defense: i64,
    /// Highest Attribute Score a character of this ToP may have.
    pub attribute_cap: i64,
}

/// The Steadfast Save: `die` ≥ `pass_at` passes; a natural `critical_at` grants Steady Momentum.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SteadfastRules {
    pub die: u32,
    pub pass_at: u32,
    pub critical_at: u32,
}

/// A named Target Number.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Difficulty {
    pub id: String,
    pub target: i64,
}

/// `characters.ron`: attributes, derived values, sizes, saves, skills, build budget, minions.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterRules {
    pub attributes: Vec<AttributeDef>,
    pub derived: DerivedFormulas,
    pub sizes: Vec<SizeDef>,
    pub saves: Vec<SaveDef>,
    /// Added to the race's favoured Save.
    pub racial_save_bonus: Formula,
    /// Critical Target of the race's favoured Save.
    pub racial_save_critical_target: u32,
    pub skills: Vec<SkillDef>,
    /// Skill Bonus from the governing attribute `SCORE` and the skill's `RANKS`.
    pub skill_bonus: Formula,
    pub build: BuildBudget,
    pub minion: MinionRules,
}

/// An attribute; its id is the variable name formulas use (`AG`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttributeDef {
    pub id: String,
    pub name: String,
    pub description: String,
}

/// Formulas of the derived values. Variables: attribute ids, `T`, `bT`, `PL`, `RLM` (Racial
/// Life Modifier), `SIZE_DV`, `SIZE_SOAK` (already multiplied by ToP) and `SIZE_SPEED`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DerivedFormulas {
    pub haste: Formula,
    pub awareness: Formula,
    pub might: Formula,
    pub defense_value: Formula,
    pub soak: Formula,
    pub soak_minimum: Formula,
    pub normal_speed: Formula,
    pub boosted_speed: Formula,
    pub initiative: Formula,
    pub life: Formula,
    pub ki: Formula,
    pub capacity: Formula,
}

/// A Size Category.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeDef {
    pub id: String,
    /// Side of the square block the character occupies (2 for a 2×2 Enormous character).
    pub squares: u32,
    /// Melee Attack Range in squares (1 = adjacent).
    pub melee_range: u32,
    pub speed: i64,
    pub defense_value: Formula,
    pub soak: Formula,
}

/// A Saving Throw and the attribute whose Score it adds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveDef {
    pub id: String,
    pub attribute: String,
}

/// A skill, its attribute, and whether it needs at least one rank to be used ("(R)").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillDef {
    pub id: String,
    pub attribute: String,
    pub requires_rank: bool,
}

/// How many attribute points a character of a given Power Level has, to check the roster.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildBudget {
    /// Every score starts here.
    pub starting_score: i64,
    /// Points a race adds in total (+2, +2, +1).
    pub racial_points: i64,
    /// Points per Attribute Addition.
    pub points_per_addition: i64,
    /// Attribute Additions at Power Level 1.
    pub additions_at_first_level: i64,
    /// Power Levels that grant one more Attribute Addition.
    pub addition_levels: Vec<u32>,
}

/// What being a Minion changes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinionRules {
    pub life_fraction: Fraction,
    pub ki_fraction: Fraction,
    /// Base ToP is lowered by this much…
    pub tier_penalty: u32,
    /// …unless it is already 1, in which case Combat Rolls and Saves take this instead.
    pub low_tier_roll_penalty: i64,
    pub standard_actions: u32,
    pub counter_actions: u32,
    pub attacks_per_round: u32,
    /// The only Health Thresholds a Minion has.
    pub thresholds: Vec<String>,
}

/// A fraction `numerator/denominator` of a maximum pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fraction {
    pub numerator: u32,
    pub denominator: u32,
    /// Round up instead of down (Minion Life is rounded up).
    #[serde(default)]
    pub round_up: bool,
}

impl Fraction {
    /// `value × numerator / denominator`, rounded as the fraction says.
    pub fn of(&self, value: i64) -> i64 {
        let n = value * i64::from(self.numerator);
        let d = i64::from(self.denominator.max(1));
        if self.round_up {
            (n + d - 1).div_euclid(d)
        } else {
            n.div_euclid(d)
        }
    }
}

/// `attacks.ron`: attack types, profiles, elements, ranges and Energy Charges.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackRules {
    pub types: Vec<AttackTypeDef>,
    pub long_range: LongRange,
    /// Each Basic Attack profile once per round unless the profile is `repeatable`.
    pub profile_once_per_round: bool,
    pub energy_charge: EnergyChargeRules,
    /// The Called Shot modifier, where the ruleset has it (DBU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub called_shot: Option<CalledShotRules>,
    /// Parry's Reflect, where the ruleset has it (DBU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reflect: Option<ReflectRules>,
    pub profiles: Vec<ProfileDef>,
    pub elements: Vec<ElementDef>,
}

/// The Called Shot modifier (digest §3.6): a single-target attack aimed at a named body part,
/// once a round, for an Action and Ki more, a lower Strike and a higher Damage Category; the
/// part hit decides the effect.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalledShotRules {
    /// Standard Actions it costs on top of the attack's.
    pub actions: u32,
    /// Ki (and Capacity) it costs on top of the attack's.
    pub ki_cost: Formula,
    /// Taken off the Strike.
    pub strike_penalty: Formula,
    /// Added to the Damage Category (before the clamp to Standard..Lethal).
    pub category_increase: i64,
    /// The body parts one may name, and what a hit there does.
    pub targets: Vec<CalledShotTarget>,
}

/// A body part a Called Shot may name.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalledShotTarget {
    pub id: String,
    pub name: String,
    /// Conditions the target gains when the shot deals damage.
    pub on_damage: Vec<ConditionGrant>,
    pub description: String,
}

/// An attack type (Ballistic, Physical, Energy, Magical).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackTypeDef {
    pub id: String,
    pub name: String,
    /// Attribute whose Modifier adds to the Wound Roll; `None` means the weapon's damage does.
    pub damage_attribute: Option<String>,
    pub reach: Reach,
    /// Whether a Ki Wager may be made.
    pub wager: bool,
    /// An attribute Score needed to use this type at all.
    pub required_score: Option<RequiredScore>,
    /// Transfigured characters cannot use this type.
    pub magical: bool,
    pub description: String,
}

/// How far an attack type reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reach {
    /// Within the attacker's Melee Attack Range.
    Melee,
    /// Any distance on the battlefield.
    Any,
    /// Within this many squares.
    Within(u32),
}

/// An attribute Score requirement.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequiredScore {
    pub attribute: String,
    pub at_least: i64,
}

/// Long Range: beyond `beyond` squares the Strike takes the penalty.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LongRange {
    pub beyond: u32,
    pub strike_penalty: Formula,
}

/// Energy Charges: Wound dice per charge, maximum, and what each costs a Parry.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyChargeRules {
    pub wound_per_charge: DiceFormula,
    pub parry_penalty_per_charge: Formula,
    /// The Energy Charge maneuver, which adds charges to a declared attack; absent, the
    /// ruleset has none (Beam's free charge still counts).
    #[serde(default)]
    pub maneuver: Option<EnergyChargeManeuver>,
}

/// The Energy Charge maneuver (digest §7.2): an Action and Ki per charge, held for one declared
/// Basic Attack or Signature Technique until it is made, with Guard Down meanwhile.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyChargeManeuver {
    /// Actions each use costs.
    pub actions: u32,
    /// Ki (and Capacity) each use costs.
    pub ki_cost: Formula,
    /// Charges one attack may hold (free charges such as Beam's do not count).
    pub max_charges: u32,
    /// Wound dice per held charge when the attack is a Signature Technique.
    pub technique_wound_per_charge: DiceFormula,
    /// The attack types a charge may feed.
    pub attack_types: Vec<String>,
}

/// Parry's Reflect (digest §3.5: "Winning avoids the attack and may allow a Reflect of Energy
/// or Magic attacks (5(T) KP)"): a Parry that wins sends the attack back at its attacker.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReflectRules {
    /// Ki the reflector pays when its Parry wins.
    pub ki_cost: Formula,
    /// The attack types that may be reflected.
    pub attack_types: Vec<String>,
}

/// Standard, Direct or Lethal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Category {
    Standard,
    Direct,
    Lethal,
}

impl Category {
    /// The category's number (1–3), which +1/−1 effects change.
    pub fn level(self) -> i64 {
        match self {
            Self::Standard => 1,
            Self::Direct => 2,
            Self::Lethal => 3,
        }
    }

    /// The category for a number, clamped to 1..=3 as the chapter says.
    pub fn from_level(level: i64) -> Self {
        match level {
            i64::MIN..=1 => Self::Standard,
            2 => Self::Direct,
            _ => Self::Lethal,
        }
    }
}

/// One attack profile.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileDef {
    pub id: String,
    pub name: String,
    pub attack_type: String,
    /// Ki Point cost, scaled by the attacker's current ToP.
    pub cost: Formula,
    pub category: Category,
    pub targeting: Targeting,
    #[serde(default)]
    pub effects: Vec<ProfileEffect>,
    /// May be used more than once per round as a Basic Attack (Simple).
    #[serde(default)]
    pub repeatable: bool,
    pub description: String,
}

/// Who a profile hits: one declared target, or everyone an area of effect covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Targeting {
    /// One declared target (an opponent).
    Single,
    /// An area of effect: its shape, where it starts and who in it is affected.
    Area {
        shape: AreaShape,
        origin: AreaOrigin,
        affects: Affects,
    },
}

/// The squares an area of effect covers, measured from its origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AreaShape {
    /// Every square within the attacker's Melee Attack Range (Sweeping).
    Reach,
    /// A cone `length` squares long and `width` squares wide at its far end (Blast: 3 and 5).
    Cone { length: u32, width: u32 },
    /// Every square within `radius` squares of the origin (Explosion: 3).
    Sphere { radius: u32 },
    /// A straight band `length` squares long and `width` squares wide.
    Line { length: u32, width: u32 },
}

/// Where an area starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AreaOrigin {
    /// The attacker's own squares (cones and lines then need a direction).
    Attacker,
    /// A square the attacker chooses within the attack type's reach (Explosion).
    ChosenSquare,
}

/// Who in an area is affected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Affects {
    /// Opponents only (Sweeping: "all enemies inside their Melee Attack Range").
    Opponents,
    /// Every character but the attacker, allies included (Blast, Explosion).
    AllButAttacker,
}

/// A profile's special rule. The engine implements each variant; the data sets its numbers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ProfileEffect {
    /// Combination, Rapid Fire: the Wound's dice count hits, each hit deals `damage_per_hit`.
    MultiHit {
        hits: DiceFormula,
        damage_per_hit: i64,
    },
    /// Powered: the damage attribute's Modifier is added once more.
    DamageAttributeAgain,
    /// Crushing: no Wound dice; roll these instead and add the bonuses.
    ReplaceWound { dice: DiceFormula },
    /// Soaring: Melee Attack Range increased by this many squares.
    ExtraReach { squares: u32 },
    /// Kiai, Cutting: Critical Targets lowered (negative numbers), never below the floor.
    CriticalTarget { strike: i64, wound: i64 },
    /// Cutting: the Strike botches on a natural result at or below this.
    StrikeBotchRange { range: u32 },
    /// Cutting: a critical Strike sets the Damage Category to this.
    CriticalStrikeCategory { category: Category },
    /// Kiai: against a target with Guard Down, add `wound` and push it up to `push` squares.
    GuardDownBonus { wound: Formula, push: Formula },
    /// Blast: with exactly one target, add these dice to the Wound.
    SingleTargetWound { dice: DiceFormula },
    /// Explosion: every target's Defense Value changes by this for the maneuver.
    TargetDefense { modifier: Formula },
    /// Sweeping: once per round, a target it damages loses this much Defense Value until the
    /// start of the attacker's next turn.
    DefenseDownOnDamage { amount: Formula },
    /// Beam: free Energy Charges that come with the attack.
    FreeEnergyCharges { count: u32 },
    /// Elemental: the attacker picks one of its elements, which adds on-damage conditions.
    ElementChoice,
    /// Spiritual Assault: the target loses Ki equal to this fraction of the damage it took.
    KiDrain { fraction: Fraction },
}

/// An element option for the Elemental profile.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementDef {
    pub id: String,
    pub name: String,
    /// Conditions the target gains when the attack deals damage.
    pub on_damage: Vec<ConditionGrant>,
    pub description: String,
}

/// A condition given by an effect, for `rounds` Combat Rounds (0 = until ended).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionGrant {
    pub condition: ConditionKind,
    pub rounds: u32,
    /// Damage Over Time per turn, in the sufferer's own ToP.
    #[serde(default)]
    pub amount: Option<Formula>,
}

/// `damage.ron`: categories, Health Thresholds, Rage entry, recoveries.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageRules {
    pub categories: Vec<CategoryDef>,
    /// From the highest (Bloodied) to the lowest (Wounded).
    pub thresholds: Vec<ThresholdDef>,
    pub rage_entry: RageEntry,
    pub recoveries: Vec<RecoveryDef>,
}

/// How much Soak a category lets the target use.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoryDef {
    pub category: Category,
    pub soak: Fraction,
}

/// A Health Threshold: reached at `fraction` of Maximum Life or less.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThresholdDef {
    pub id: String,
    pub fraction: Fraction,
    /// Taken off every Combat Roll while this is the lowest threshold failed.
    pub penalty: Formula,
    pub description: String,
}

/// Entering Rage when reaching a threshold: failing the save enters Rage.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RageEntry {
    pub enabled: bool,
    pub threshold: String,
    pub save: String,
    pub difficulty: String,
}

/// A between-battle recovery.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoveryDef {
    pub id: String,
    pub name: String,
    /// When the ARC grants it, in words.
    pub when: String,
    pub restores: Fraction,
}

/// `conditions.ron`: the 16 combat conditions and how to end one.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionRules {
    pub conditions: Vec<ConditionDef>,
    /// End a Condition: actions spent, the save and its difficulty.
    pub end_condition: CheckManeuver,
}

/// A maneuver that spends actions on a check.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckManeuver {
    pub actions: u32,
    /// A Save id or a Skill id.
    pub check: String,
    pub difficulty: String,
}

/// Positive or negative for the one who has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Polarity {
    Positive,
    Negative,
}

/// One combat condition: its words and its numbers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionDef {
    pub name: String,
    pub polarity: Polarity,
    /// The tooltip: what it does, in a sentence or two.
    pub description: String,
    pub rule: ConditionRule,
}

/// The 16 combat conditions of the chapter, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ConditionKind {
    Hidden,
    Rage,
    Superiority,
    Absorbed,
    Blinded,
    DamageOverTime,
    Fatigued,
    GuardDown,
    Impediment,
    Pinned,
    Poisoned,
    Prone,
    Shaken,
    Slowed,
    Transfigured,
    Weakened,
}

impl ConditionKind {
    /// All 16, in the chapter's order.
    pub const ALL: [ConditionKind; 16] = [
        Self::Hidden,
        Self::Rage,
        Self::Superiority,
        Self::Absorbed,
        Self::Blinded,
        Self::DamageOverTime,
        Self::Fatigued,
        Self::GuardDown,
        Self::Impediment,
        Self::Pinned,
        Self::Poisoned,
        Self::Prone,
        Self::Shaken,
        Self::Slowed,
        Self::Transfigured,
        Self::Weakened,
    ];
}

impl ConditionRule {
    /// Which condition this rule belongs to.
    pub fn kind(&self) -> ConditionKind {
        match self {
            Self::Hidden => ConditionKind::Hidden,
            Self::Rage { .. } => ConditionKind::Rage,
            Self::Superiority => ConditionKind::Superiority,
            Self::Absorbed { .. } => ConditionKind::Absorbed,
            Self::Blinded { .. } => ConditionKind::Blinded,
            Self::DamageOverTime { .. } => ConditionKind::DamageOverTime,
            Self::Fatigued { .. } => ConditionKind::Fatigued,
            Self::GuardDown { .. } => ConditionKind::GuardDown,
            Self::Impediment { .. } => ConditionKind::Impediment,
            Self::Pinned { .. } => ConditionKind::Pinned,
            Self::Poisoned { .. } => ConditionKind::Poisoned,
            Self::Prone { .. } => ConditionKind::Prone,
            Self::Shaken { .. } => ConditionKind::Shaken,
            Self::Slowed { .. } => ConditionKind::Slowed,
            Self::Transfigured { .. } => ConditionKind::Transfigured,
            Self::Weakened { .. } => ConditionKind::Weakened,
        }
    }
}

/// The behaviour of a condition, with its numbers. The engine implements each variant once.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ConditionRule {
    Hidden,
    Rage {
        /// Actions during the round after Rage ends.
        aftermath_actions: u32,
    },
    Superiority,
    Absorbed {
        save: String,
        /// Added to later escape saves for each failure.
        bonus_per_failure: i64,
    },
    Blinded {
        /// Awareness and Defense Value are divided by this.
        divisor: i64,
    },
    DamageOverTime {
        /// Total DOT from all sources is capped here (sufferer's ToP).
        cap: Formula,
        category: Category,
    },
    Fatigued {
        max_stacks: u32,
        divisor: i64,
    },
    GuardDown {
        dodge_penalty: Formula,
        dodge_rolls: u32,
    },
    Impediment {
        /// Taken off when there is no d10 to drop.
        flat_penalty: i64,
    },
    Pinned {
        category_increase: i64,
    },
    Poisoned {
        life_loss: Fraction,
        /// Taken off Combat Rolls while at or below the lowest threshold.
        low_life_penalty: Formula,
        cure: CheckManeuver,
    },
    Prone {
        stand_up_actions: u32,
    },
    Shaken {
        speed_divisor: i64,
        strike_penalty: Formula,
    },
    Slowed {
        actions_per_stack: u32,
    },
    Transfigured {
        slowed_stacks: u32,
    },
    Weakened {
        max_stacks: u32,
        divisor: i64,
    },
}

/// `roster.ron`: ready-made combatants.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    pub archetypes: Vec<ArchetypeDef>,
}

/// A combatant template built by the digest's formulas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchetypeDef {
    pub id: String,
    pub name: String,
    pub description: String,
    /// A hint for the AI and for players: what this combatant is good at.
    pub role: String,
    /// One or two letters drawn on its token.
    pub glyph: String,
    pub power_level: u32,
    pub size: String,
    pub race: RaceDef,
    pub attributes: BTreeMap<String, i64>,
    #[serde(default)]
    pub skills: BTreeMap<String, i64>,
    #[serde(default)]
    pub minion: bool,
    /// Basic Attack profiles it knows.
    pub profiles: Vec<String>,
    /// Elements it can give an Elemental attack.
    #[serde(default)]
    pub elements: Vec<String>,
    #[serde(default)]
    pub weapon: Option<WeaponDef>,
    #[serde(default)]
    pub techniques: Vec<TechniqueDef>,
    /// It can Absorb an opponent it holds in a Grapple (our maneuver for the chapter's
    /// Absorbed condition).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub absorber: bool,
}

/// A race (named generically): Life modifier, attribute increases and favoured Save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceDef {
    pub name: String,
    pub life_modifier: i64,
    pub increases: BTreeMap<String, i64>,
    pub save: String,
}

/// A weapon: for an attack type without a damage attribute (Ballistic) its damage is the
/// Wound's; for one with an attribute (a melee weapon, Physical) it adds to the attribute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    pub name: String,
    pub attack_type: String,
    pub damage: Formula,
    /// Strike modifier for wielding it (0 with Weapon Specialist).
    pub strike: Formula,
}

/// A Signature Technique: a named profile with extra damage and maybe a Backlash, 1/round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TechniqueDef {
    pub id: String,
    pub name: String,
    pub profile: String,
    /// Added to the Wound Roll.
    pub wound_bonus: Formula,
    /// Extra Ki on top of the profile's cost.
    pub extra_cost: Formula,
    /// Life the user loses after the maneuver (its own effect: Reduced Momentum may follow).
    #[serde(default)]
    pub backlash: Option<Formula>,
    /// Conditions the target gains when the technique deals damage past its Soak, as an
    /// Elemental technique's element gives them: the chapter names conditions (Transfigured,
    /// Weakened) that only a technique or a special maneuver can cause.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_damage: Vec<ConditionGrant>,
    pub description: String,
}
