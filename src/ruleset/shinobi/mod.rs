//! The shinobi family (the ninja d20 system's combat chapter): its data files, their checks,
//! and how they are lowered into the engine's shared rule tables.
//!
//! A shinobi ruleset is `ruleset.ron`, `shinobi.ron` (dice and tie rule, action points and
//! costs, the Speed table, defenses, sneak attacks, cover, the attacks), `roster.ron` (ninja
//! with abilities, ranks, skills, HP, chakra and a weapon) and `terrain.ron` (cover that
//! absorbs damage, concealment). [`lower`] builds the engine's tables from them, so the battle,
//! previews, AI, saves and window play it; what the chapter does differently (d20 rolls against
//! a chosen Dodge, Block or Deflect, flat damage, AP costs, cover wearing down, miss chances,
//! opportunity attacks that stop a move where it entered reach) is `crate::battle::family::shinobi`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::RulesError;
use super::locate::FieldPath;
use super::neutral;
use super::schema::*;
use crate::dice::Formula;

mod validate;

pub use validate::{foreign_terrain_errors, terrain_errors, validate};

/// `shinobi.ron`: everything about combat in the chapter that is not a ninja.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShinobiRules {
    /// What the two pools are called on screen and in the log.
    pub pool_names: ShinobiPools,
    /// The die of every roll ("All attacks use 1d20 + …").
    pub die: u32,
    /// Who wins a tied attack and defense roll ("The attacker wins ties").
    pub ties: TieWinner,
    /// The names formulas and rolls use: abilities, jutsu ranks and skills.
    pub stats: Vec<StatDef>,
    /// Action points every character has each round.
    pub action_points: u32,
    /// AP one move costs.
    pub move_cost: u32,
    /// AP an opportunity attack costs the one who makes it.
    pub opportunity_cost: u32,
    /// The stat the Speed table reads.
    pub speed_stat: String,
    /// Feet one move covers, by Speed.
    pub speed_table: Vec<SpeedRow>,
    /// Feet per grid square.
    pub feet_per_square: u32,
    /// The Initiative Skill roll's bonus (added to the die).
    pub initiative: Formula,
    /// Initiative ties go to the higher value of this stat, then a roll-off.
    pub initiative_tie_stat: String,
    /// The three defenses and what each adds to the die.
    pub defenses: Vec<DefenseDef>,
    /// Taken off Dodge against an undodgeable attack, and off Block against an unblockable one.
    pub undefendable_penalty: i64,
    /// Deflect needs more than this fraction of maximum chakra…
    pub deflect_chakra: Fraction,
    /// …or takes this penalty.
    pub deflect_low_chakra_penalty: i64,
    /// Sneak attacks: the contest and what winning it costs the defender.
    pub sneak: SneakRules,
    /// Percent chance that partial cover is what an incoming attack hits.
    pub partial_cover_chance: u32,
    /// The stats Gen Resist adds to the die ("They roll 1d20 + AWA + GEN"); needed when an
    /// attack is a Genjutsu.
    #[serde(default)]
    pub gen_resist: Vec<String>,
    /// The miss chance of a blinded attacker's attacks ("Blindness - 50%").
    #[serde(default)]
    pub blindness: u32,
    /// A single-target jutsu aimed at an ally heals it by its modifying damage ("If targeting
    /// an ally the user may apply this as modifying healing").
    #[serde(default)]
    pub ally_healing: bool,
    /// Falling damage.
    pub falling: FallingRules,
    /// The attacks ninja can know, by id.
    pub attacks: Vec<AttackDef>,
    /// Counter jutsu: a defense that, if it evades, strikes back with the evasion roll.
    #[serde(default)]
    pub counters: Vec<CounterDef>,
    /// The weapons a ninja may hold and the hands each takes: Deflect needs "a free hand", so
    /// a ninja whose weapon takes both cannot Deflect. Every roster weapon must be listed.
    #[serde(default)]
    pub weapons: Vec<WeaponDef>,
    /// The range each number of a character may take (ours: the text gives no caps). The
    /// roster is held to it, and the character editor refuses a value outside it.
    #[serde(default)]
    pub build: crate::ruleset::build::BuildLimits,
}

/// A counter jutsu ("Counters allow a Character to avoid an attack while striking back").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterDef {
    pub id: String,
    pub name: String,
    pub description: String,
    /// AP it costs (casting a jutsu: 1), spent whether or not the defense succeeds.
    pub ap: u32,
    /// Chakra it costs, spent whether or not the defense succeeds.
    pub chakra: i64,
    /// How far the attacker may be: `Melee` (adjacent), `Within(n)` or `Any`.
    pub reach: Reach,
    /// Stats that make its damage ("modified by the correlating Ability of the Jutsu used")…
    pub damage: Vec<String>,
    /// …plus this.
    #[serde(default)]
    pub damage_bonus: i64,
    /// Only with a weapon equipped.
    #[serde(default)]
    pub weapon: bool,
}

/// Display names of the two pools.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShinobiPools {
    /// Hit points (Life in the shared tables).
    pub life: String,
    /// Chakra (Ki in the shared tables).
    pub chakra: String,
}

/// Who wins a tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieWinner {
    Attacker,
    Defender,
}

/// A named value of a ninja.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatDef {
    /// The name formulas and attack terms use (`STR`).
    pub id: String,
    pub name: String,
    pub kind: StatKind,
}

/// What kind of value a stat is (for panels and checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StatKind {
    Ability,
    Rank,
    Skill,
}

impl StatKind {
    /// The `build` limit that holds every stat of this kind (`"ability"`, `"rank"`, `"skill"`).
    pub fn build_key(self) -> &'static str {
        match self {
            Self::Ability => "ability",
            Self::Rank => "rank",
            Self::Skill => "skill",
        }
    }
}

/// One row of the Speed table.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedRow {
    pub speed: i64,
    pub feet: u32,
}

/// A weapon a ninja may hold ("Blocking is an option as long as a Character has a weapon …
/// equipped"; "Deflecting is an option as long as a Character … [has] a free hand").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    /// The name roster entries give as `weapon`.
    pub name: String,
    /// Hands it takes: 1 leaves a hand free to Deflect, 2 (a great axe) does not.
    pub hands: u32,
}

/// The three defenses of the chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DefenseKind {
    /// Feet on stable ground; −5 against undodgeable attacks.
    Dodge,
    /// Needs a weapon or shield; −5 against unblockable attacks.
    Block,
    /// Needs more than half one's chakra (else −5).
    Deflect,
}

/// A defense and the stats it adds to the die.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefenseDef {
    pub kind: DefenseKind,
    pub name: String,
    pub terms: Vec<String>,
}

/// The sneak attack contest.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SneakRules {
    /// The attacker's skill (Stealth), for an attack that names no other way.
    pub attacker_skill: String,
    /// The defender's skill (Perception) against it.
    pub defender_skill: String,
    /// The other ways to sneak an attack ("a Stealth, Sleight of Hand, or Bluff Skill roll
    /// depending on the attack against the defender's Perception or Sense Motive Skill roll"),
    /// each named by attacks' `sneak_with`.
    #[serde(default)]
    pub ways: Vec<SneakWay>,
    /// Who wins a tied contest (the text says only "if the attacker wins" and "if the defender
    /// wins"; ours).
    pub ties: TieWinner,
    /// Taken off every defense against a sneak attack that won its contest.
    pub penalty: i64,
}

/// One way to sneak an attack: the attacker's skill against the defender's.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SneakWay {
    /// Named by attacks' `sneak_with`.
    pub id: String,
    pub attacker_skill: String,
    pub defender_skill: String,
}

/// Falling damage: from `min_feet` up, half the feet fallen; an Acrobatics roll against half
/// the distance negates it, against a quarter halves it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FallingRules {
    pub min_feet: u32,
    pub skill: String,
}

/// An attack a ninja may know.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackDef {
    pub id: String,
    pub name: String,
    pub description: String,
    /// How far it reaches: `Melee` (adjacent), `Within(n)` squares or `Any`.
    pub reach: Reach,
    /// Action points it costs (1; a heavy weapon 2, a slow heavy weapon 3).
    pub ap: u32,
    /// Chakra it costs (jutsu).
    #[serde(default)]
    pub chakra: i64,
    /// Stats added to the d20 to hit.
    pub hit: Vec<String>,
    /// Stats that make its damage…
    pub damage: Vec<String>,
    /// …plus this.
    #[serde(default)]
    pub damage_bonus: i64,
    /// Only with a weapon equipped.
    #[serde(default)]
    pub weapon: bool,
    /// Dodge takes the penalty against it.
    #[serde(default)]
    pub undodgeable: bool,
    /// Block takes the penalty against it.
    #[serde(default)]
    pub unblockable: bool,
    /// Squares a hit pushes the target straight away; an obstruction that stops it deals slam
    /// damage equal to the first `hit` stat.
    #[serde(default)]
    pub push: u32,
    /// One target (the default) or an area.
    #[serde(default = "single")]
    pub targeting: Targeting,
    /// The way a sneak attack with it is rolled (an id of `sneak.ways`); none: the sneak
    /// rules' own skills (Stealth against Perception).
    #[serde(default)]
    pub sneak_with: Option<String>,
    /// A mind-affecting Genjutsu: it cannot be Dodged, Blocked, Deflected or countered, only
    /// resisted with Gen Resist, and a hit blinds the target until it resists (once a round,
    /// on the caster's turn, against a new roll of the caster's).
    #[serde(default)]
    pub genjutsu: bool,
}

fn single() -> Targeting {
    Targeting::Single
}

/// `roster.ron`: the ninja scenarios can field.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShinobiRoster {
    pub ninja: Vec<NinjaDef>,
}

/// A ninja: its stats, pools, weapon and attacks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NinjaDef {
    /// Named by scenarios' `archetype:`.
    pub id: String,
    pub name: String,
    pub description: String,
    /// A hint for players: what it is good at.
    pub role: String,
    /// One or two letters drawn on its token.
    pub glyph: String,
    /// Every stat of `shinobi.ron`, by id.
    pub stats: BTreeMap<String, i64>,
    pub hp: i64,
    pub chakra: i64,
    /// The equipped weapon, if any (Block needs one).
    #[serde(default)]
    pub weapon: Option<String>,
    /// Attack ids it knows.
    pub attacks: Vec<String>,
    /// Counter jutsu ids it knows.
    #[serde(default)]
    pub counters: Vec<String>,
}

/// The attribute holding a ninja's maximum HP in the lowered tables.
pub const HP: &str = "HP";
/// The attribute holding a ninja's maximum chakra.
pub const CHAKRA: &str = "CHK";
/// The attribute holding the squares one move covers (from the Speed table).
pub const MOVE: &str = "MV";
/// The most any stat, pool or bonus may be (a guard against absurd hand-edited numbers).
pub const MAX_VALUE: i64 = 1_000_000;

/// The squares one move covers at `speed`: the highest row at or below it (the lowest row for
/// anything slower), feet divided by the square size.
pub fn move_squares(rules: &ShinobiRules, speed: i64) -> u32 {
    let row = rules
        .speed_table
        .iter()
        .filter(|r| r.speed <= speed)
        .max_by_key(|r| r.speed)
        .or_else(|| rules.speed_table.iter().min_by_key(|r| r.speed));
    row.map_or(0, |r| r.feet / rules.feet_per_square.max(1))
}

/// Builds the engine tables from a shinobi ruleset's data. Stats become attributes, plus `HP`,
/// `CHK` and `MV` (squares per move); Life is HP, Ki is chakra; every attack becomes an attack
/// type of its own reach and a profile costing its chakra. Three action points a round are
/// three Standard Actions; those left when a turn ends are held for opportunity attacks and
/// counters later in the round (no Counter Actions, no converting).
pub fn lower(rules: &ShinobiRules, roster: &ShinobiRoster) -> neutral::Lowered {
    let mut attributes: Vec<AttributeDef> = rules
        .stats
        .iter()
        .map(|s| AttributeDef {
            id: s.id.clone(),
            name: s.name.clone(),
            description: format!("{:?}", s.kind),
        })
        .collect();
    for (id, name) in [(HP, "Hit points"), (CHAKRA, "Chakra"), (MOVE, "Move")] {
        attributes.push(AttributeDef {
            id: id.into(),
            name: name.into(),
            description: "derived by the engine (shinobi)".into(),
        });
    }
    let characters = neutral::characters(
        attributes,
        neutral::derived(MOVE, rules.initiative.clone(), HP, CHAKRA),
    );
    let types = rules
        .attacks
        .iter()
        .map(|a| neutral::attack_type(&a.id, &a.name, a.reach, &a.description))
        .collect();
    let profiles = rules
        .attacks
        .iter()
        .map(|a| ProfileDef {
            id: a.id.clone(),
            name: a.name.clone(),
            attack_type: a.id.clone(),
            cost: Formula::constant(a.chakra),
            category: Category::Lethal,
            targeting: a.targeting,
            effects: Vec::new(),
            repeatable: true,
            description: a.description.clone(),
        })
        .collect();
    let attacks = AttackRules {
        types,
        long_range: LongRange {
            beyond: u32::MAX,
            strike_penalty: neutral::zero(),
        },
        profile_once_per_round: false,
        energy_charge: EnergyChargeRules {
            wound_per_charge: neutral::no_dice(),
            parry_penalty_per_charge: neutral::zero(),
            maneuver: None,
        },
        profiles,
        called_shot: None,
        reflect: None,
        elements: Vec::new(),
    };
    let moves = rules.action_points / rules.move_cost.max(1);
    let actions = neutral::actions(neutral::Economy {
        moves_per_round: moves,
        standard_actions: rules.action_points,
        counter_actions: 0,
        conversion: true,
        tie_attribute: &rules.initiative_tie_stat,
        rolloff_die: rules.die,
    });
    let archetypes = roster
        .ninja
        .iter()
        .map(|n| {
            let mut attributes = n.stats.clone();
            attributes.insert(HP.into(), n.hp);
            attributes.insert(CHAKRA.into(), n.chakra);
            let speed = n.stats.get(&rules.speed_stat).copied().unwrap_or(0);
            attributes.insert(MOVE.into(), i64::from(move_squares(rules, speed)));
            neutral::archetype(neutral::Plain {
                id: &n.id,
                name: &n.name,
                description: &n.description,
                role: &n.role,
                glyph: &n.glyph,
                attributes,
                profiles: n.attacks.clone(),
            })
        })
        .collect();
    neutral::Lowered {
        dice: neutral::dice(rules.die, rules.ties == TieWinner::Attacker),
        characters,
        attacks,
        damage: neutral::damage(),
        conditions: conditions(rules),
        actions,
        roster: Roster { archetypes },
    }
}

/// The conditions a shinobi battle can give: Blinded, when an attack is a Genjutsu (its hit
/// blinds). Its effect is the family's (a blinded attacker's miss chance), so the shared rule
/// changes nothing (a divisor of 1).
fn conditions(rules: &ShinobiRules) -> ConditionRules {
    let mut c = neutral::conditions();
    if rules.attacks.iter().any(|a| a.genjutsu) {
        c.conditions.push(ConditionDef {
            name: "Blinded".into(),
            polarity: Polarity::Negative,
            description: format!(
                "Caught in a Genjutsu: its attacks miss {}% of the time even when they hit. Once a round, on the caster's turn, it rolls Gen Resist (1d20 + {}) against a new roll of the caster's and is free when it beats it.",
                rules.blindness,
                rules.gen_resist.join(" + ")
            ),
            rule: ConditionRule::Blinded { divisor: 1 },
        });
    }
    c
}

/// A shinobi ruleset's own data, kept beside the lowered tables.
#[derive(Debug, Clone)]
pub struct ShinobiData {
    /// `shinobi.ron`, for the rules the shared tables cannot hold.
    pub combat: ShinobiRules,
    /// `roster.ron`, for weapons.
    pub roster: ShinobiRoster,
}

impl ShinobiData {
    /// A ninja by id.
    pub fn ninja(&self, id: &str) -> Option<&NinjaDef> {
        self.roster.ninja.iter().find(|n| n.id == id)
    }

    /// An attack by id.
    pub fn attack(&self, id: &str) -> Option<&AttackDef> {
        self.combat.attacks.iter().find(|a| a.id == id)
    }

    /// The attacker's and the defender's skill in a sneak contest with attack `a`: its
    /// `sneak_with` way's, else the sneak rules' own.
    pub fn sneak_skills(&self, a: Option<&AttackDef>) -> (&str, &str) {
        let sn = &self.combat.sneak;
        a.and_then(|a| a.sneak_with.as_deref())
            .and_then(|w| sn.ways.iter().find(|x| x.id == w))
            .map_or(
                (sn.attacker_skill.as_str(), sn.defender_skill.as_str()),
                |x| (x.attacker_skill.as_str(), x.defender_skill.as_str()),
            )
    }

    /// True when attack `a` aimed at an ally heals it: a single-target jutsu (it costs
    /// chakra) with modifying damage, not a Genjutsu, where `ally_healing` says so.
    pub fn heals_allies(&self, a: &AttackDef) -> bool {
        self.combat.ally_healing
            && a.chakra > 0
            && !a.genjutsu
            && !a.damage.is_empty()
            && matches!(a.targeting, Targeting::Single)
    }

    /// A weapon of `shinobi.ron`'s list by name.
    pub fn weapon(&self, name: &str) -> Option<&WeaponDef> {
        self.combat.weapons.iter().find(|w| w.name == name)
    }

    /// A counter jutsu by id.
    pub fn counter(&self, id: &str) -> Option<&CounterDef> {
        self.combat.counters.iter().find(|c| c.id == id)
    }

    /// A defense's definition.
    pub fn defense(&self, kind: DefenseKind) -> Option<&DefenseDef> {
        self.combat.defenses.iter().find(|d| d.kind == kind)
    }

    /// A stat's display name.
    pub fn stat_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.combat
            .stats
            .iter()
            .find(|s| s.id == id)
            .map_or(id, |s| s.name.as_str())
    }
}

/// The files of a shinobi ruleset, in load order.
pub const SHINOBI_FILES: [&str; 4] = ["ruleset.ron", "shinobi.ron", "roster.ron", "terrain.ron"];
