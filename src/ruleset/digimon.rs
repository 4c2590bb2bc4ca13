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

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::RulesError;
use super::locate::FieldPath;
use super::neutral;
use super::schema::*;
use super::shinobi::{
    self, AttackDef, DefenseDef, DefenseKind, FallingRules, NinjaDef, ShinobiPools, ShinobiRoster,
    ShinobiRules, SneakRules, StatDef, StatKind, TieWinner,
};
use crate::dice::Formula;

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
#[derive(Debug, Clone, Serialize, Deserialize)]
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

/// A Tamer attribute's modifier.
pub fn modifier(rule: &ModifierRule, value: i64) -> i64 {
    (value - rule.base).div_euclid(rule.divisor.max(1))
}

/// A Tamer's combat stats, as "Tamers in Combat" derives them: HP (Constitution + Endurance,
/// at least 2), Accuracy (Dex Mod + Fight), Damage (Str Mod + Fight / 3), Dodge (Dex Mod +
/// Dodge), Armor (Con Mod + Endurance, at least 0), Movement (Dexterity + Survival).
pub fn tamer_stats(rules: &DigimonRules, t: &TamerDef) -> (BTreeMap<String, i64>, i64, i64) {
    let a = |k: &str| t.attributes.get(k).copied().unwrap_or(0);
    let s = |k: &str| t.skills.get(k).copied().unwrap_or(0);
    let m = |k: &str| modifier(&rules.attribute_modifier, a(k));
    let mut stats = BTreeMap::new();
    stats.insert(ACC.into(), m("DEX") + s("FIGHT"));
    stats.insert(DMG.into(), m("STR") + s("FIGHT").div_euclid(3));
    stats.insert(DODGE.into(), m("DEX") + s("DODGE"));
    stats.insert(ARM.into(), (m("CON") + s("ENDURANCE")).max(0));
    // Body and Agility for Clash-free play and ties: the Tamer's Constitution and Dexterity
    // modifiers (our default; the chapter gives Tamers no Body or Agility).
    stats.insert(BODY.into(), m("CON"));
    stats.insert(AGI.into(), m("DEX"));
    for k in [BIT, CPU, RAM] {
        stats.insert(k.into(), 0);
    }
    stats.insert(CHA.into(), m("CHA"));
    let hp = (a("CON") + s("ENDURANCE")).max(2);
    let movement = a("DEX") + s("SURVIVAL");
    (stats, hp, movement)
}

/// A Tamer's initiative when it has no partner: "their Dexterity mod + Fight score" (added to
/// the 3d6 every initiative rolls; our reading).
pub fn tamer_initiative(rules: &DigimonRules, t: &TamerDef) -> i64 {
    modifier(
        &rules.attribute_modifier,
        t.attributes.get("DEX").copied().unwrap_or(0),
    ) + t.skills.get("FIGHT").copied().unwrap_or(0)
}

/// The id suffix of an attack's Bolstered use: the same attack as a Complex Action with +2 to
/// its effect's potency ("Bolster … turn a Simple Action type into a Complex Action type in
/// order to add +2 to the potency"). Every Simple attack whose effect has a number gets one.
pub const BOLSTERED: &str = "+bolstered";

/// True when `a` can be Bolstered: a Simple Action whose effect has a number to add to.
pub fn can_bolster(rules: &DigimonRules, a: &DigiAttackDef) -> bool {
    let Some(k) = a.effect else {
        return false;
    };
    !a.complex
        && !matches!(k, EffectKind::Haste | EffectKind::Stun | EffectKind::Charm)
        && rules.effects.iter().any(|e| e.kind == k && e.times > 0)
}

/// The attacks a combatant with `attacks` can choose from: each, and its Bolstered use.
pub fn with_bolstered(rules: &DigimonRules, attacks: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for id in attacks {
        out.push(id.clone());
        if rules
            .attacks
            .iter()
            .any(|a| &a.id == id && can_bolster(rules, a))
        {
            out.push(format!("{id}{BOLSTERED}"));
        }
    }
    out
}

/// Everything a combatant with `attacks` can choose from: each attack and its Bolstered use,
/// then the Clash actions, which every Digimon and Tamer has.
pub fn loadout(rules: &DigimonRules, attacks: &[String]) -> Vec<String> {
    let mut out = with_bolstered(rules, attacks);
    for id in clash_actions(rules) {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// The ids of the Clash actions, which every Digimon and Tamer has.
pub fn clash_actions(rules: &DigimonRules) -> impl Iterator<Item = String> + '_ {
    rules
        .attacks
        .iter()
        .filter(|a| a.clash.is_some())
        .map(|a| a.id.clone())
}

/// The attribute a lowered combatant's initiative bonus is kept in.
pub const INIT: &str = "INIT";

/// Writes the Digimon data as the engine's action-point path reads it (see the module docs).
pub fn lower(rules: &DigimonRules, roster: &DigimonRoster) -> neutral::Lowered {
    let (s, r) = as_shinobi(rules, roster);
    let mut low = shinobi::lower(&s, &r);
    for a in low.roster.archetypes.iter_mut() {
        let mv = roster
            .digimon
            .iter()
            .find(|d| d.id == a.id)
            .map(|d| d.movement)
            .or_else(|| {
                roster
                    .tamers
                    .iter()
                    .find(|t| t.id == a.id)
                    .map(|t| tamer_stats(rules, t).2)
            })
            .unwrap_or(0);
        a.attributes.insert(MOVE.into(), mv.max(0));
    }
    // "A stacking -1 penalty to their Dodge for every Attack past the first."
    for t in low.dice.tiers.iter_mut() {
        t.diminishing_defense = rules.dodge_penalty_per_attack;
    }
    low.actions.conversion = false;
    low
}

/// The Digimon data in the shape of the ninja chapter's (see [`lower`]).
pub fn as_shinobi(rules: &DigimonRules, roster: &DigimonRoster) -> (ShinobiRules, ShinobiRoster) {
    let mut stats: Vec<StatDef> = rules.stats_defs();
    stats.push(StatDef {
        id: INIT.into(),
        name: "Initiative bonus".into(),
        kind: StatKind::Skill,
    });
    let twins = rules
        .attacks
        .iter()
        .filter(|a| can_bolster(rules, a))
        .map(|a| DigiAttackDef {
            id: format!("{}{BOLSTERED}", a.id),
            name: format!("Bolstered {}", a.name),
            description: format!(
                "{} Bolstered: a Complex Action, +{} to the effect's potency.",
                a.description, rules.bolster
            ),
            complex: true,
            ..a.clone()
        });
    let all: Vec<DigiAttackDef> = rules.attacks.iter().cloned().chain(twins).collect();
    let attacks = all
        .iter()
        .map(|a| AttackDef {
            id: a.id.clone(),
            name: a.name.clone(),
            description: a.description.clone(),
            reach: match a.tag {
                Tag::Melee => Reach::Melee,
                _ => Reach::Any,
            },
            ap: if a.complex { rules.simple_actions } else { 1 },
            chakra: 0,
            hit: vec![ACC.into()],
            damage: Vec::new(),
            damage_bonus: 0,
            weapon: false,
            undodgeable: false,
            unblockable: false,
            push: 0,
            targeting: a.targeting,
        })
        .collect();
    let combat = ShinobiRules {
        pool_names: ShinobiPools {
            life: rules.pool_name.clone(),
            chakra: String::new(),
        },
        die: rules.die,
        ties: TieWinner::Attacker,
        stats,
        action_points: rules.simple_actions,
        move_cost: 1,
        opportunity_cost: 1,
        speed_stat: AGI.into(),
        speed_table: Vec::new(),
        feet_per_square: 1,
        initiative: Formula::parse(INIT).unwrap_or_else(|_| Formula::constant(0)),
        initiative_tie_stat: AGI.into(),
        defenses: vec![DefenseDef {
            kind: DefenseKind::Dodge,
            name: "Dodge".into(),
            terms: vec![DODGE.into()],
        }],
        undefendable_penalty: 0,
        deflect_chakra: neutral::nothing(),
        deflect_low_chakra_penalty: 0,
        sneak: SneakRules {
            attacker_skill: AGI.into(),
            defender_skill: AGI.into(),
            ties: TieWinner::Attacker,
            penalty: 0,
        },
        partial_cover_chance: 0,
        falling: FallingRules {
            min_feet: u32::MAX,
            skill: AGI.into(),
        },
        attacks,
        counters: Vec::new(),
    };
    let mut ninja: Vec<NinjaDef> = roster
        .digimon
        .iter()
        .map(|d| {
            let mut stats = d.stats.clone();
            stats.entry(CHA.into()).or_insert(0);
            let agi = stats.get(AGI).copied().unwrap_or(0);
            stats.insert(INIT.into(), agi);
            NinjaDef {
                id: d.id.clone(),
                name: d.name.clone(),
                description: d.description.clone(),
                role: d.role.clone(),
                glyph: d.glyph.clone(),
                stats,
                hp: d.hp,
                chakra: 0,
                weapon: None,
                attacks: loadout(rules, &d.attacks),
                counters: Vec::new(),
            }
        })
        .collect();
    ninja.extend(roster.tamers.iter().map(|t| {
        let (mut stats, hp, _) = tamer_stats(rules, t);
        stats.insert(INIT.into(), tamer_initiative(rules, t));
        NinjaDef {
            id: t.id.clone(),
            name: t.name.clone(),
            description: t.description.clone(),
            role: t.role.clone(),
            glyph: t.glyph.clone(),
            stats,
            hp,
            chakra: 0,
            weapon: None,
            attacks: loadout(rules, &t.attacks),
            counters: Vec::new(),
        }
    }));
    (combat, ShinobiRoster { ninja })
}

impl DigimonRules {
    /// The combat stats as named stats of the lowered tables.
    fn stats_defs(&self) -> Vec<StatDef> {
        [
            (ACC, "Accuracy"),
            (DMG, "Damage"),
            (DODGE, "Dodge"),
            (ARM, "Armor"),
            (BODY, "Body"),
            (AGI, "Agility"),
            (BIT, "BIT value"),
            (CPU, "CPU value"),
            (RAM, "RAM value"),
            (CHA, "Charisma modifier"),
        ]
        .into_iter()
        .map(|(id, name)| StatDef {
            id: id.into(),
            name: name.into(),
            kind: StatKind::Ability,
        })
        .collect()
    }
}

/// The largest stat, HP, Movement, potency multiplier or penalty a file may set (a guard
/// against absurd hand-edited numbers: it keeps every exact preview small).
pub const MAX_NUMBER: i64 = 200;

/// Every problem in a Digimon ruleset's own files, with file, line and field.
pub fn validate(
    rules: &DigimonRules,
    roster: &DigimonRoster,
    src: &(PathBuf, String),
    roster_src: &(PathBuf, String),
) -> Vec<RulesError> {
    let mut errors = Vec::new();
    let root = FieldPath::root();
    let mut at = |s: &(PathBuf, String), path: FieldPath, msg: String| {
        errors.push(RulesError::at(&s.0, &s.1, &path, msg));
    };
    if !(1..=10).contains(&rules.check_dice) {
        at(
            src,
            root.field("check_dice"),
            "a check rolls 1 to 10 dice".into(),
        );
    }
    if !(2..=100).contains(&rules.die) {
        at(src, root.field("die"), "a die has 2 to 100 sides".into());
    }
    if !(1..=10).contains(&rules.simple_actions) {
        at(
            src,
            root.field("simple_actions"),
            "a turn has 1 to 10 Simple Actions".into(),
        );
    }
    let small = 0..=MAX_NUMBER;
    for (name, v) in [
        ("dodge_penalty_per_attack", rules.dodge_penalty_per_attack),
        ("bolster", rules.bolster),
        ("min_duration", rules.min_duration),
        ("ranged.penalty", rules.ranged.penalty),
        ("ranged.adjacent_base", rules.ranged.adjacent_base),
        ("area.per_target", rules.area.per_target),
        ("area.ally_penalty", rules.area.ally_penalty),
        ("death_save.fail_at", rules.death_save.fail_at),
    ] {
        if !small.contains(&v) {
            let mut p = root.clone();
            for part in name.split('.') {
                p = p.field(part);
            }
            at(src, p, format!("must be 0 to {MAX_NUMBER}"));
        }
    }
    for (name, v) in [
        ("duration_divisor", rules.duration_divisor),
        ("death_save", rules.death_save.per_points),
        ("attribute_modifier", rules.attribute_modifier.divisor),
    ] {
        if !(1..=MAX_NUMBER).contains(&v) {
            at(
                src,
                root.field(name),
                format!("a divisor is 1 to {MAX_NUMBER}"),
            );
        }
    }
    if rules.ranged.per_squares == 0 {
        at(
            src,
            root.field("ranged").field("per_squares"),
            "the long-range penalty needs a step of at least 1 square".into(),
        );
    }
    let mut seen = BTreeSet::new();
    for (i, s) in rules.stages.iter().enumerate() {
        if s.is_empty() || !seen.insert(s.clone()) {
            at(
                src,
                root.field("stages").index(i),
                format!("stage `{s}` is empty or listed twice"),
            );
        }
    }
    if !seen.contains(&rules.rookie_stage) {
        at(
            src,
            root.field("rookie_stage"),
            format!("`{}` is not one of `stages`", rules.rookie_stage),
        );
    }
    let mut kinds = BTreeSet::new();
    for (i, e) in rules.effects.iter().enumerate() {
        let p = root.field("effects").index(i);
        if !kinds.insert(e.kind) {
            at(
                src,
                p.field("kind"),
                format!("{:?} is defined twice", e.kind),
            );
        }
        if !COMBAT_STATS.contains(&e.stat.as_str()) {
            at(
                src,
                p.field("stat"),
                format!(
                    "unknown stat `{}` (one of {})",
                    e.stat,
                    COMBAT_STATS.join(", ")
                ),
            );
        }
        if !(0..=MAX_NUMBER).contains(&e.times)
            || e.complex_times
                .is_some_and(|t| !(0..=MAX_NUMBER).contains(&t))
        {
            at(src, p.field("times"), format!("must be 0 to {MAX_NUMBER}"));
        }
        if let Lasting::Times(n) = e.lasting
            && !(1..=10).contains(&n)
        {
            at(
                src,
                p.field("lasting"),
                "a duration multiplier is 1 to 10".into(),
            );
        }
    }
    for k in EffectKind::ALL {
        if !kinds.contains(&k) {
            at(
                src,
                root.field("effects"),
                format!("effect {k:?} is missing"),
            );
        }
    }
    let mut attack_ids = BTreeSet::new();
    for (i, a) in rules.attacks.iter().enumerate() {
        let p = root.field("attacks").index(i);
        if a.id.is_empty() || a.id.contains('+') || !attack_ids.insert(a.id.clone()) {
            at(
                src,
                p.field("id"),
                format!(
                    "attack `{}` is empty, has a `+` (kept for Bolstered uses) or is defined twice",
                    a.id
                ),
            );
        }
        match (a.tag, a.targeting) {
            (Tag::Area, Targeting::Single) => at(
                src,
                p.field("targeting"),
                "an [Area] attack needs an area".into(),
            ),
            (Tag::Melee | Tag::Ranged, Targeting::Area { .. }) => at(
                src,
                p.field("tag"),
                "an attack with an area is tagged Area".into(),
            ),
            _ => {}
        }
        if let Some(m) = a.clash {
            let wants_damage = m == ClashMove::Throw;
            if a.tag != Tag::Melee || a.effect.is_some() || a.damage != wants_damage {
                at(
                    src,
                    p.field("clash"),
                    format!(
                        "a Clash action is tagged Melee, carries no effect and {}",
                        if wants_damage {
                            "deals damage (Throw)"
                        } else {
                            "deals no damage"
                        }
                    ),
                );
            }
            continue;
        }
        if !a.damage && a.effect.is_none() {
            at(
                src,
                p.field("effect"),
                "an attack without damage needs an effect".into(),
            );
        }
        if let Some(k) = a.effect {
            if k.positive() && a.damage && k != EffectKind::Lifesteal {
                at(
                    src,
                    p.field("effect"),
                    format!("{k:?} helps its target: a damaging attack cannot carry it"),
                );
            }
            if k == EffectKind::Lifesteal && !a.damage {
                at(
                    src,
                    p.field("effect"),
                    "Lifesteal heals from the damage dealt: the attack must deal damage".into(),
                );
            }
            if k.positive() && !matches!(a.targeting, Targeting::Single) {
                at(
                    src,
                    p.field("targeting"),
                    format!("{k:?} is given to one ally: it has no area"),
                );
            }
            if k == EffectKind::Haste && !a.complex {
                at(
                    src,
                    p.field("complex"),
                    "\"An Attack with the Haste Effect must be used as a Complex Action\"".into(),
                );
            }
        }
    }
    for m in ClashMove::ALL {
        let n = rules.attacks.iter().filter(|a| a.clash == Some(m)).count();
        if n != 1 {
            at(
                src,
                root.field("attacks"),
                format!(
                    "the Clash action {m:?} must be one attack (`clash: Some({m:?})`), not {n}"
                ),
            );
        }
    }
    for (k, v) in &rules.clash.sizes {
        if !small.contains(v) {
            at(
                src,
                root.field("clash").field("sizes").field(k),
                format!("a size's value is 0 to {MAX_NUMBER}"),
            );
        }
    }
    if !rules.clash.sizes.contains_key(&rules.clash.tamer_size) {
        at(
            src,
            root.field("clash").field("tamer_size"),
            format!(
                "unknown size `{}` (see `clash.sizes`)",
                rules.clash.tamer_size
            ),
        );
    }
    if !small.contains(&rules.clash.pin_bonus) {
        at(
            src,
            root.field("clash").field("pin_bonus"),
            format!("must be 0 to {MAX_NUMBER}"),
        );
    }
    // The roster.
    let mut ids = BTreeSet::new();
    for (i, d) in roster.digimon.iter().enumerate() {
        let p = root.field("digimon").index(i);
        if d.id.is_empty() || !ids.insert(d.id.clone()) {
            at(
                roster_src,
                p.field("id"),
                format!("`{}` is empty or defined twice", d.id),
            );
        }
        if !rules.clash.sizes.contains_key(&d.size) {
            at(
                roster_src,
                p.field("size"),
                format!(
                    "unknown size `{}` (see `clash.sizes` in digimon.ron)",
                    d.size
                ),
            );
        }
        if !rules.stages.contains(&d.stage) {
            at(
                roster_src,
                p.field("stage"),
                format!("unknown stage `{}` (see `stages` in digimon.ron)", d.stage),
            );
        }
        for k in COMBAT_STATS.iter().filter(|k| **k != CHA) {
            match d.stats.get(*k) {
                None => at(
                    roster_src,
                    p.field("stats"),
                    format!("stat `{k}` is missing"),
                ),
                Some(v) if !(0..=MAX_NUMBER).contains(v) => at(
                    roster_src,
                    p.field("stats").field(k),
                    format!("must be 0 to {MAX_NUMBER}"),
                ),
                _ => {}
            }
        }
        for k in d.stats.keys() {
            if !COMBAT_STATS.contains(&k.as_str()) || k == CHA {
                at(
                    roster_src,
                    p.field("stats").field(k),
                    format!("`{k}` is not a Digimon stat"),
                );
            }
        }
        if !(1..=MAX_NUMBER * 10).contains(&d.hp) {
            at(
                roster_src,
                p.field("hp"),
                format!("HP is 1 to {}", MAX_NUMBER * 10),
            );
        }
        if !(0..=MAX_NUMBER).contains(&d.movement) {
            at(
                roster_src,
                p.field("movement"),
                format!("must be 0 to {MAX_NUMBER}"),
            );
        }
        check_attacks(rules, &d.attacks, roster_src, &p, &mut at);
    }
    for (i, d) in roster.digimon.iter().enumerate() {
        if let Some(ds) = &d.default_stage {
            let p = root.field("digimon").index(i).field("default_stage");
            match roster.digimon.iter().find(|x| &x.id == ds) {
                None => at(roster_src, p, format!("unknown Digimon `{ds}`")),
                Some(x) if x.default_stage.is_some() || x.id == d.id => at(
                    roster_src,
                    p,
                    format!("`{ds}` must be a Default Stage itself (no `default_stage`)"),
                ),
                _ => {}
            }
        }
    }
    for (i, t) in roster.tamers.iter().enumerate() {
        let p = root.field("tamers").index(i);
        if t.id.is_empty() || !ids.insert(t.id.clone()) {
            at(
                roster_src,
                p.field("id"),
                format!("`{}` is empty or defined twice", t.id),
            );
        }
        for (field, map, need) in [
            ("attributes", &t.attributes, &TAMER_ATTRIBUTES[..]),
            ("skills", &t.skills, &TAMER_SKILLS[..]),
        ] {
            for k in need {
                match map.get(*k) {
                    None => at(roster_src, p.field(field), format!("`{k}` is missing")),
                    Some(v) if !(0..=MAX_NUMBER).contains(v) => at(
                        roster_src,
                        p.field(field).field(k),
                        format!("must be 0 to {MAX_NUMBER}"),
                    ),
                    _ => {}
                }
            }
            for k in map.keys() {
                if !need.contains(&k.as_str()) {
                    at(
                        roster_src,
                        p.field(field).field(k),
                        format!("`{k}` is not one of {}", need.join(", ")),
                    );
                }
            }
        }
        if let Some(partner) = &t.partner
            && !roster.digimon.iter().any(|d| &d.id == partner)
        {
            at(
                roster_src,
                p.field("partner"),
                format!("unknown Digimon `{partner}`"),
            );
        }
        check_attacks(rules, &t.attacks, roster_src, &p, &mut at);
    }
    errors
}

/// Each attack a combatant lists must exist, once.
fn check_attacks(
    rules: &DigimonRules,
    attacks: &[String],
    src: &(PathBuf, String),
    p: &FieldPath,
    at: &mut impl FnMut(&(PathBuf, String), FieldPath, String),
) {
    let mut seen = BTreeSet::new();
    for (j, id) in attacks.iter().enumerate() {
        if !rules.attacks.iter().any(|a| &a.id == id) {
            at(
                src,
                p.field("attacks").index(j),
                format!("unknown attack `{id}` (see `attacks` in digimon.ron)"),
            );
        } else if !seen.insert(id.clone()) {
            at(
                src,
                p.field("attacks").index(j),
                format!("attack `{id}` is listed twice"),
            );
        }
    }
    if attacks.is_empty() {
        at(src, p.field("attacks"), "needs at least one attack".into());
    }
}

/// What a Digimon `terrain.ron` may not say: the other families' cover, concealment, drops and
/// roll modifiers (the chapter's terrain is only "Difficult Terrain", a move cost above 1).
pub fn terrain_errors(terrain: &TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    let mut errors = neutral::skill_check_errors(terrain, src, &COMBAT_STATS);
    errors.extend(neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| {
            vec![
                ("roll_modifier", t.roll_modifier.is_some()),
                ("cover_rank", t.cover_rank.is_some()),
                ("absorb", t.absorb.is_some()),
                ("concealment", t.concealment.is_some()),
                ("drop", t.drop.is_some()),
                ("cover_bonus", t.cover_bonus.is_some()),
                ("concealment_bonus", t.concealment_bonus.is_some()),
            ]
        },
        |field| {
            format!(
                "`{field}` is not a Digimon rule (its terrain is open, Difficult (move cost above 1) or blocking)"
            )
        },
    ));
    errors
}

/// What a non-Digimon `terrain.ron` may not say: Digimon's Difficult Terrain, which other
/// families would silently ignore.
pub fn foreign_terrain_errors(terrain: &TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| vec![("difficult", t.difficult.is_some())],
        |field| format!("`{field}` is a Digimon rule; this ruleset's family does not use it"),
    )
}
