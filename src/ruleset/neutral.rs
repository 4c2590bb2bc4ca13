//! The parts of the engine's shared rule tables that a non-DBU family fills with "nothing here":
//! no Tier of Power dice, no Soak, thresholds, conditions, Surges or recovery. The power-stages
//! and shinobi lowerings start from these and set only what their family uses.

use std::collections::BTreeMap;

use super::action_rules::*;
use super::schema::*;
use crate::dice::{DiceFormula, Formula};

/// The largest stat, HP, Movement, potency multiplier, penalty or TN a family's file may set (a
/// guard against absurd hand-edited numbers: it keeps every exact preview small).
pub const MAX_NUMBER: i64 = 200;

/// A formula written in the engine's own code (a constant text that always parses; 0 if not).
pub fn formula(text: &str) -> Formula {
    Formula::parse(text).unwrap_or_else(|_| Formula::constant(0))
}

/// A formula that is always 0.
pub fn zero() -> Formula {
    Formula::constant(0)
}

/// A dice formula with no dice.
pub fn no_dice() -> DiceFormula {
    DiceFormula::none()
}

/// The fraction 1/1.
pub fn whole() -> Fraction {
    Fraction {
        numerator: 1,
        denominator: 1,
        round_up: false,
    }
}

/// The fraction 0/1.
pub fn nothing() -> Fraction {
    Fraction {
        numerator: 0,
        denominator: 1,
        round_up: false,
    }
}

/// Dice tables with one tier that adds nothing, no criticals and no botches: a roll is its base
/// die plus its modifiers. `base_die` is the die every check rolls.
pub fn dice(base_die: u32, attacker_wins_ties: bool) -> DiceRules {
    DiceRules {
        base_die,
        tiers: vec![TierRow {
            tier: 1,
            extra_dice: no_dice(),
            critical_dice: no_dice(),
            diminishing_defense: 0,
            attribute_cap: i64::MAX,
        }],
        tier_from_power_level: Formula::constant(1),
        critical_target: base_die,
        critical_target_floor: base_die,
        botch_range: 0,
        botch_penalty: zero(),
        skill_botch_penalty: 0,
        skill_critical_dice: no_dice(),
        superiority_critical: base_die,
        steadfast: SteadfastRules {
            die: base_die,
            pass_at: base_die,
            critical_at: base_die,
        },
        difficulties: Vec::new(),
        attacker_wins_ties,
    }
}

/// Character tables for a family whose combatants are plain named values: `attributes` are
/// the formula names, `derived` how speed, initiative and the pools come from them; one
/// Medium size (1 square, melee range 1), no saves, skills, build budget or minions.
pub fn characters(attributes: Vec<AttributeDef>, derived: DerivedFormulas) -> CharacterRules {
    CharacterRules {
        attributes,
        derived,
        sizes: vec![SizeDef {
            id: "Medium".into(),
            squares: 1,
            melee_range: 1,
            speed: 0,
            defense_value: zero(),
            soak: zero(),
        }],
        saves: Vec::new(),
        racial_save_bonus: zero(),
        racial_save_critical_target: 10,
        skills: Vec::new(),
        skill_bonus: zero(),
        build: BuildBudget {
            starting_score: 0,
            racial_points: 0,
            points_per_addition: 0,
            additions_at_first_level: 0,
            addition_levels: Vec::new(),
        },
        minion: MinionRules {
            life_fraction: whole(),
            ki_fraction: whole(),
            tier_penalty: 0,
            low_tier_roll_penalty: 0,
            standard_actions: 0,
            counter_actions: 0,
            attacks_per_round: u32::MAX,
            thresholds: Vec::new(),
        },
    }
}

/// Derived values that are all 0 except the ones a family sets: speed, initiative and pools.
pub fn derived(speed: &str, initiative: Formula, life: &str, ki: &str) -> DerivedFormulas {
    DerivedFormulas {
        haste: zero(),
        awareness: zero(),
        might: zero(),
        defense_value: zero(),
        soak: zero(),
        soak_minimum: zero(),
        normal_speed: formula(speed),
        boosted_speed: formula(speed),
        initiative,
        life: formula(life),
        ki: formula(ki),
        capacity: formula(ki),
    }
}

/// Damage tables with no Soak (every hit counts in full), no thresholds, Rage or recoveries.
pub fn damage() -> DamageRules {
    DamageRules {
        categories: vec![CategoryDef {
            category: Category::Lethal,
            soak: nothing(),
        }],
        thresholds: Vec::new(),
        rage_entry: RageEntry {
            enabled: false,
            threshold: String::new(),
            save: String::new(),
            difficulty: String::new(),
        },
        recoveries: Vec::new(),
    }
}

/// No conditions at all.
pub fn conditions() -> ConditionRules {
    ConditionRules {
        conditions: Vec::new(),
        end_condition: CheckManeuver {
            actions: 1,
            check: String::new(),
            difficulty: String::new(),
        },
    }
}

/// The action economy a family sets (moves, Standard and Counter Actions, conversion, the
/// initiative tie-break) with no Power Up, recovery, momentum or Surges.
pub struct Economy<'a> {
    pub moves_per_round: u32,
    pub standard_actions: u32,
    pub counter_actions: u32,
    pub conversion: bool,
    pub tie_attribute: &'a str,
    pub rolloff_die: u32,
}

/// Action tables from an [`Economy`].
pub fn actions(e: Economy) -> ActionRules {
    ActionRules {
        moves_per_round: e.moves_per_round,
        boosted_move_cost: zero(),
        power_up: PowerUpRules {
            actions: 1,
            per_round: 0,
            max_stacks: 0,
            roll_bonus: zero(),
            capacity: whole(),
        },
        combat_recovery: RecoveryRules {
            min_actions: u32::MAX,
            max_actions: u32::MAX,
            per_action: no_dice(),
            defense: zero(),
        },
        arrogant_declaration: None,
        empower: None,
        grapple: None,
        hide: None,
        united_attack: None,
        standard_actions: e.standard_actions,
        counter_actions: e.counter_actions,
        conversion: e.conversion,
        bonus_momentum_actions: 0,
        reduced_momentum_actions: 0,
        steady_momentum_actions: 0,
        initiative_tie_attribute: e.tie_attribute.into(),
        initiative_rolloff_die: e.rolloff_die,
        healing_surge: no_dice(),
        ki_surge_fraction: nothing(),
        ki_surge_capacity_fraction: nothing(),
        surgency: zero(),
    }
}

/// An attack type with no damage attribute, wager, requirement or magic: only a name and reach.
pub fn attack_type(id: &str, name: &str, reach: Reach, description: &str) -> AttackTypeDef {
    AttackTypeDef {
        id: id.into(),
        name: name.into(),
        damage_attribute: None,
        reach,
        wager: false,
        required_score: None,
        magical: false,
        description: description.into(),
    }
}

/// An archetype of the shared roster from a family's own combatant: its values as attributes
/// and the profiles it may use; Medium, power level 1, no race, weapon or techniques.
pub struct Plain<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub description: &'a str,
    pub role: &'a str,
    pub glyph: &'a str,
    pub attributes: BTreeMap<String, i64>,
    pub profiles: Vec<String>,
}

/// The archetype for a [`Plain`] combatant.
pub fn archetype(p: Plain) -> ArchetypeDef {
    ArchetypeDef {
        id: p.id.into(),
        name: p.name.into(),
        description: p.description.into(),
        role: p.role.into(),
        glyph: p.glyph.into(),
        power_level: 1,
        size: "Medium".into(),
        race: RaceDef {
            name: String::new(),
            life_modifier: 0,
            increases: BTreeMap::new(),
            save: String::new(),
        },
        attributes: p.attributes,
        skills: BTreeMap::new(),
        minion: false,
        profiles: p.profiles,
        elements: Vec::new(),
        weapon: None,
        techniques: Vec::new(),
        absorber: false,
    }
}

/// The engine tables a lowered family plays with.
pub struct Lowered {
    /// One tier row that adds nothing; the family's base die.
    pub dice: DiceRules,
    /// The family's values as attributes, and its pools.
    pub characters: CharacterRules,
    /// The family's attack types and profiles.
    pub attacks: AttackRules,
    /// No Soak, thresholds or recoveries.
    pub damage: DamageRules,
    /// None.
    pub conditions: ConditionRules,
    /// The family's action economy.
    pub actions: ActionRules,
    /// The family's combatants as archetypes.
    pub roster: Roster,
}

/// Refuses terrain fields another family's rules give meaning to, so a ruleset never ignores
/// them silently: `set` names the fields a terrain type sets, `why` says why each is refused.
/// A terrain's `drop` out of 1 to 10,000 feet, with file and field (the families with falls).
pub fn drop_error(
    t: &TerrainDef,
    src: &(std::path::PathBuf, String),
    p: &super::FieldPath,
) -> Option<super::RulesError> {
    t.drop.filter(|d| !(1..=10_000).contains(d)).map(|_| {
        super::RulesError::at(
            &src.0,
            &src.1,
            &p.field("drop"),
            "a drop is 1 to 10,000 feet",
        )
    })
}

pub fn refuse_terrain_fields(
    terrain: &TerrainRules,
    src: &(std::path::PathBuf, String),
    set: impl Fn(&TerrainDef) -> Vec<(&'static str, bool)>,
    why: impl Fn(&str) -> String,
) -> Vec<super::RulesError> {
    let mut errors = Vec::new();
    for (i, t) in terrain.types.iter().enumerate() {
        let p = super::FieldPath::root().field("types").index(i);
        for (field, on) in set(t) {
            if on {
                errors.push(super::RulesError::at(
                    &src.0,
                    &src.1,
                    &p.field(field),
                    why(field),
                ));
            }
        }
    }
    errors
}

/// What is wrong with the terrain's Skill Checks (Digimon's Use a Skill, a d20 skill check on
/// the ground): a stat not among `stats`, a TN out of range, or a square that would become an
/// unknown terrain or itself.
pub fn skill_check_errors(
    terrain: &TerrainRules,
    src: &(std::path::PathBuf, String),
    stats: &[&str],
) -> Vec<super::RulesError> {
    let mut errors = Vec::new();
    for (i, t) in terrain.types.iter().enumerate() {
        let Some(c) = &t.skill_check else {
            continue;
        };
        let p = super::FieldPath::root()
            .field("types")
            .index(i)
            .field("skill_check");
        let mut at = |field: &str, msg: String| {
            errors.push(super::RulesError::at(&src.0, &src.1, &p.field(field), msg));
        };
        if !stats.contains(&c.stat.as_str()) {
            at(
                "stat",
                format!("unknown stat `{}` (one of {})", c.stat, stats.join(", ")),
            );
        }
        let most = MAX_NUMBER;
        if !(1..=most).contains(&c.target) {
            at("target", format!("a TN is 1 to {most}"));
        }
        if c.becomes == t.id {
            at("becomes", "a square must become another terrain".into());
        } else if !terrain.types.iter().any(|x| x.id == c.becomes) {
            at(
                "becomes",
                format!("unknown terrain `{}` (see `types`)", c.becomes),
            );
        }
        if c.name.trim().is_empty() {
            at("name", "say what the check does".into());
        }
    }
    errors
}
