//! The d20 family (the generic "Skill and Combat System"): its data files, their checks, and
//! how they are lowered onto the engine's d20 path.
//!
//! A d20 ruleset is `ruleset.ron`, `d20.ron` (the die, the difficulty and Effect Points tables,
//! criticals, the round's actions, multiple attacks by rank, parry modifiers, damage types,
//! weapons, armour and the attacks made with them), `roster.ron` (characters with abilities,
//! skill ranks, HP, a weapon, armour and feats) and `terrain.ron` (cover and concealment
//! bonuses). The two d20 systems share one engine path: [`lower`] writes this data as a
//! [`ShinobiRules`] (action points, d20 attacks against a chosen defense, opportunity attacks)
//! and keeps the d20 rules the ninja chapter lacks (exploding 20s, natural 1s, range
//! difficulties, Success Value, Effect Points, criticals by margin, armour DR by damage type)
//! in [`D20Data`], which `crate::battle::family::d20` plays.

mod lower;
mod validate;

pub use lower::{HP, MOVE, as_shinobi, blast_squares, lower, move_squares, reach_of};
pub use validate::{foreign_terrain_errors, terrain_errors, validate};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::schema::*;
use super::shinobi::{DefenseDef, StatDef};
use crate::dice::Formula;

/// The files of a d20 ruleset, in load order.
pub const D20_FILES: [&str; 4] = ["ruleset.ron", "d20.ron", "roster.ron", "terrain.ron"];

/// `d20.ron`: everything about combat in the system that is not a character.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct D20Rules {
    /// What the life pool is called on screen and in the log.
    pub pool_name: String,
    /// The die of every check ("1d20 + Ability Score + Skill Ranks").
    pub die: u32,
    /// The names formulas and rolls use: abilities and skills.
    pub stats: Vec<StatDef>,
    /// Actions a round: a Full-round action is a Move and a Standard action, and a Standard
    /// action may be traded for a second Move.
    pub actions_per_round: u32,
    /// The initiative roll's bonus ("a Cunning+Initiative roll").
    pub initiative: Formula,
    /// Initiative ties go to the higher value of this stat, then a roll-off (ours).
    pub initiative_tie_stat: String,
    /// Base speed in yards for one Move action.
    pub speed: SpeedRule,
    /// Yards per grid square ("For person to person combat 2 yards").
    pub yards_per_square: u32,
    /// The Common Difficulty Modifier Table's melee row (Easy, DC 10).
    pub melee_dc: i64,
    /// The table's range rows: `(n, dc)` is "within n range increments: DC dc".
    pub range_dcs: Vec<(u32, i64)>,
    /// "Missile weapons can be used out to 10 range increments."
    pub missile_increments: u32,
    /// Effect Points to dice.
    pub effect_table: EffectTable,
    /// The default critical: threat and multiplier ("20/x2"), and the margin per further step.
    pub critical: CriticalRule,
    /// Melee damage from strength, and the to-hit penalty below the weapon's minimum.
    pub strength: StrengthRule,
    /// Attacks in a full round by weapon skill ranks: entry `r` is the count at `r` ranks (the
    /// last entry holds for anything higher).
    pub attacks_by_rank: Vec<u32>,
    /// Each further attack of a full round is this much lower than the one before.
    pub extra_attack_penalty: i64,
    /// Rapid Shot: taken off every attack of the round; gives one more attack.
    pub rapid_shot_penalty: i64,
    /// Power Attack's damage with a two-handed weapon ("4 x 1.5").
    pub power_attack_two_handed: Fraction,
    /// Dodge (`Dodge`) and parry (`Block`): what each adds to the die. Parry's ability is the
    /// feat's (Blocking Parry STR, Deflecting Parry DEX); its skill the better of `PARRY` and
    /// the weapon's skill.
    pub defenses: Vec<DefenseDef>,
    /// The parry skill's id.
    pub parry_skill: String,
    /// The ability Deflecting Parry rolls instead of the Block defense's first term.
    pub deflecting_parry_ability: String,
    /// The parry modifier table.
    pub parry: ParryModifiers,
    /// The damage types armour protects against by column.
    pub damage_types: Vec<DamageTypeDef>,
    pub weapons: Vec<WeaponDef>,
    pub armours: Vec<ArmourDef>,
    /// The attacks characters can make, each with one weapon.
    pub attacks: Vec<D20AttackDef>,
    /// How grenades and splash weapons are aimed, scatter and go off (needed by any weapon of
    /// class `Grenade`).
    #[serde(default)]
    pub grenade: Option<GrenadeRule>,
    /// Squares of the round's free single step ("only 1 single step per round"); 0: none.
    #[serde(default)]
    pub single_step: u32,
    /// "At the GM discretion, you may take a Dive for cover action": the answer to a shot
    /// from beyond melee range; absent, such a shot is never defended.
    #[serde(default)]
    pub dive_for_cover: Option<DiveRule>,
    /// What lying prone does (after a Dive for cover or a Drop prone). Needed by either.
    #[serde(default)]
    pub prone: Option<ProneRule>,
    /// "Each round a character gets … one(1) Swift action": how many (0: none). When it is
    /// spent, "A Move action may be traded for a Swift Action" on one's own turn and "An
    /// Attack of Opportunity may be traded for one(1) Swift action" on any.
    #[serde(default)]
    pub swift_actions: u32,
    /// Our swift action (the text names none): lying down where one stands, on one's own
    /// turn or as an immediate action against a shot ("An Immediate action is a Swift action,
    /// but can be used on another characters turn"). Needs `prone` and a swift action.
    #[serde(default)]
    pub drop_prone: bool,
    /// "A character can delay his turn until later in the initiative. However he remains in
    /// that later slot": a combatant that has spent no action yet this turn may let the next
    /// one in the order act first, once a round (ours: the text sets no limit).
    #[serde(default)]
    pub delay: bool,
    /// "Off Guard attacks get +2 to hit": the bonus, for the one cause a grid settles by
    /// itself, a flanking attack. Absent: nobody is off guard.
    #[serde(default)]
    pub off_guard: Option<OffGuardRule>,
    /// "The impact after a fall does 3 CD for every yard fallen, to a maximum of 200 CD."
    /// Absent: no terrain may be a drop.
    #[serde(default)]
    pub falling: Option<FallRule>,
    /// The range each number of a character may take (ours: the text gives no caps). The
    /// roster is held to it, and the character editor refuses a value outside it.
    #[serde(default)]
    pub build: crate::ruleset::build::BuildLimits,
}

/// "The impact after a fall does 3 CD for every yard fallen, to a maximum of 200 CD": the
/// damage a yard, the most a fall does and its damage type (which armour's DR takes from).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FallRule {
    pub per_yard: i64,
    pub max: i64,
    pub damage_type: String,
}

/// "A character is off guard, when they are some how unable to properly defend themselves
/// from an enemy attack. The most common causes are flanking attacks, …"
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffGuardRule {
    /// What an off-guard attack adds to hit ("+2").
    pub bonus: i64,
    /// "Undetectable or unseen attackers": an attacker beyond melee range standing where the
    /// concealment is at least this (dense smoke's Good +4) is unseen (our reading).
    #[serde(default)]
    pub unseen_concealment: Option<i64>,
    /// "Feint": a Standard action that may put an opponent off guard for the feinter's next
    /// attack on it. Absent: nobody feints.
    #[serde(default)]
    pub feint: Option<FeintRule>,
}

/// "Persuasion or Bluff may be used to put any opponent off guard … as a standard action. …
/// This results in cumulative -2 penalties with each Feint attempt."
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeintRule {
    /// The stats the feint's check adds to its d20 (Presence, and a Bluff skill where the
    /// sheets have one).
    pub check: Vec<String>,
    /// The stats the target's opposing roll adds to its d20 (ours: the text names no
    /// opposing roll).
    pub resist: Vec<String>,
    /// The penalty each earlier attempt on the same target adds to the next ("cumulative -2").
    pub penalty: i64,
}

/// "There must be some way I can Dodge bullets?": a Move action taken as a shot comes in,
/// paid from the diver's next turn, giving "a dodge check against the first missile attack"
/// and leaving the diver prone where it lands.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiveRule {
    /// How far the diver may land from where it stood ("in any space you can jump to"; the
    /// text gives no jump distance, so this is ours).
    pub squares: u32,
}

/// Lying prone: harder to shoot from afar, easier to strike up close, until one moves.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProneRule {
    /// What lying prone adds to the DC of a shot from beyond melee range ("you are now prone
    /// (+4)"); it adds to cover ("+4 and … prone (+4) that grants +8").
    pub shots: i64,
    /// What lying prone takes off one's Dodge or parry against a melee attack. The text is
    /// silent; without a price, lying down at the end of every turn would cost nothing, so
    /// this is ours (the usual d20 figure, 4).
    pub melee: i64,
}

/// "How do grenades and splash weapons work?": the aim, the corners, the scatter, the
/// throw-back and the Roll check against the blast.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrenadeRule {
    /// "Aim for a space, normally DC 15": the least DC of a throw (farther throws use the range
    /// table when it is higher).
    pub aim_dc: i64,
    /// "for each 5 over DC removes one possible corner"; a miss "lands 1 space + 1 space for
    /// every 5 under the DC away".
    pub step: i64,
    /// "A missed grenade can be picked up and thrown back, the base DC goes up by 5".
    pub throw_back: i64,
    /// "Everyone in the blast gets a Roll Check vs the DC of the effect to half damage": the
    /// stats the check adds to the die.
    pub save: Vec<String>,
    /// The check's name in the log and the previews.
    pub save_name: String,
}

/// What a grenade's blast covers and what halves it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlastDef {
    /// Radius in yards, centred on a corner of the square it lands in; less than a square
    /// ("Radius 1m effects only target space") covers that square alone.
    pub radius: u32,
    /// "the DC of the effect" the Roll check must meet to take half.
    pub save_dc: i64,
}

/// "Her base speed is 15 yards ( 9 + (AGI=6 + Running=6)/2)".
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedRule {
    pub base: i64,
    pub terms: Vec<String>,
    pub divisor: i64,
}

/// The Effect Points table: `per_die` points make one die; what is left adds the bonus of the
/// highest `remainder` row at or below it. The current table is 10 points per d6 with +1 from
/// 4 left and +2 from 7; the Old Rules' is 3 per d6 with the leftover points added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectTable {
    pub per_die: i64,
    pub die: u32,
    pub remainder: Vec<(i64, i64)>,
    /// The Success Value adds `SV / success_divisor` points: 1 under the current rules (the
    /// whole SV), 4 under the Old Rules' Success Level Damage Modifier.
    pub success_divisor: i64,
}

/// A critical description: exceed the defense by `threat` for `multiplier`, and one more for
/// every further `step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriticalRule {
    pub threat: i64,
    pub multiplier: i64,
    pub step: i64,
}

/// "+1 for each point a character exceeds the minimum strength required for the weapon …
/// Unless otherwise indicated all attacks have a minimum strength of 5 … increased by +1 when
/// using a melee weapon two handed … halved for off hand weapons and secondary attacks."
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrengthRule {
    pub stat: String,
    pub minimum: i64,
    pub per_point: i64,
    pub two_handed: i64,
}

/// "Parrying weapon +1 … Missile Weapon -1 … Unarmed vs Melee Weapon -2".
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParryModifiers {
    pub parrying_weapon: i64,
    pub missile_weapon: i64,
    pub unarmed_vs_weapon: i64,
}

/// A damage type of the table ("Blade Damage BD").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageTypeDef {
    pub id: String,
    pub name: String,
}

/// What kind of weapon: decides range, strength damage and parry modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponClass {
    Melee,
    /// Tonfa, sai, main-gauche: +1 to parry.
    Parrying,
    Unarmed,
    /// Bows and guns: ranged, −1 to parry with.
    Missile,
    /// Grenades and splash weapons: thrown at a square, they go off in a blast (`blast`).
    Grenade,
}

/// A weapon.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    pub id: String,
    pub name: String,
    pub class: WeaponClass,
    /// The ability added to hit (STR for melee, DEX for missiles).
    pub ability: String,
    /// The weapon skill added to hit.
    pub skill: String,
    /// Base effect in Effect Points.
    pub effect: i64,
    pub damage_type: String,
    /// Its critical, if not the default.
    #[serde(default)]
    pub critical: Option<CriticalRule>,
    /// Squares per range increment (missiles only).
    #[serde(default)]
    pub range_increment: Option<u32>,
    #[serde(default)]
    pub two_handed: bool,
    /// Strength below this costs 1 to hit per point (default: the rule's minimum).
    #[serde(default)]
    pub minimum_strength: Option<i64>,
    /// A grenade's blast (class `Grenade` only).
    #[serde(default)]
    pub blast: Option<BlastDef>,
}

/// Armour: a damage reduction per damage type ("DR(CP/BP/GP/FP) 3(3/2/3/3)"); types not named
/// use `base`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourDef {
    pub id: String,
    pub name: String,
    pub base: i64,
    pub by_type: BTreeMap<String, i64>,
    /// The cover bonus this armour gives against an aimed shot at its gaps, which ignores its
    /// DR ("All armor provides at least Standard cover. Woven armor … may provide a +16 cover
    /// bonus"); without it the armour has no gaps to aim at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_cover: Option<i64>,
}

/// An attack: a weapon used one way.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct D20AttackDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub weapon: String,
    /// A Full-round attack: all the round's actions, as many attacks as the weapon skill's
    /// ranks give (plus Rapid Shot's); otherwise one attack, a Standard action.
    #[serde(default)]
    pub full_round: bool,
    /// Rapid Shot: one more attack in the full round, every attack at the penalty.
    #[serde(default)]
    pub rapid_shot: bool,
    /// Throwing back a live grenade of this weapon lying beside the thrower (at the higher
    /// DC); every character may, so these are not listed in the roster.
    #[serde(default)]
    pub throw_back: bool,
}

/// Feats the engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Feat {
    /// Parry with STR.
    BlockingParry,
    /// Parry with DEX.
    DeflectingParry,
    RapidShot,
    PowerAttack,
}

/// `roster.ron`: the characters scenarios can field.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct D20Roster {
    pub characters: Vec<CharacterDef>,
}

/// A character: stats, HP, weapon, armour, feats and attacks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub role: String,
    pub glyph: String,
    /// Every stat of `d20.ron`, by id.
    pub stats: BTreeMap<String, i64>,
    pub hp: i64,
    pub weapon: String,
    #[serde(default)]
    pub armour: Option<String>,
    #[serde(default)]
    pub feats: Vec<Feat>,
    pub attacks: Vec<String>,
    /// Grenades carried, by weapon id: each throw uses one.
    #[serde(default)]
    pub grenades: BTreeMap<String, u32>,
}

/// A d20 ruleset's own data, kept beside the lowered tables.
#[derive(Debug, Clone)]
pub struct D20Data {
    pub combat: D20Rules,
    pub roster: D20Roster,
    /// The action-point tables this family is played on (see [`as_shinobi`]).
    pub ap: super::shinobi::ShinobiData,
}

impl D20Data {
    pub fn character(&self, id: &str) -> Option<&CharacterDef> {
        self.roster.characters.iter().find(|c| c.id == id)
    }
    pub fn attack(&self, id: &str) -> Option<&D20AttackDef> {
        self.combat.attacks.iter().find(|a| a.id == id)
    }
    pub fn weapon(&self, id: &str) -> Option<&WeaponDef> {
        self.combat.weapons.iter().find(|w| w.id == id)
    }
    pub fn armour(&self, id: &str) -> Option<&ArmourDef> {
        self.combat.armours.iter().find(|a| a.id == id)
    }
    /// The attacks every character has without listing them: throwing back a live grenade.
    pub fn throw_backs(&self) -> impl Iterator<Item = &D20AttackDef> {
        self.combat.attacks.iter().filter(|a| a.throw_back)
    }
    pub fn damage_type_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.combat
            .damage_types
            .iter()
            .find(|t| t.id == id)
            .map_or(id, |t| t.name.as_str())
    }
}
