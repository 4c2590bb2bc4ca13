//! Building combatants: from a roster archetype to a full [`Fighter`] (Tier of Power, pools by
//! the digest's formulas, Minion rules), and from a fighter to its entity's components.

use serde::{Deserialize, Serialize};

use super::components::*;
use super::effects::reached_thresholds;
use super::fighter::{Fighter, FighterVars, eval};
use super::state::VictoryRules;
use crate::grid::{Map, footprint};
use crate::ruleset::{ArchetypeDef, ConditionKind, Rules};

/// One combatant of a battle to be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitSetup {
    /// Roster archetype id (ignored when `inline` is given).
    pub archetype: String,
    /// Stats written in the scenario instead of a roster archetype.
    pub inline: Option<ArchetypeDef>,
    /// Shown name; the archetype's name when `None`.
    pub name: Option<String>,
    pub side: u8,
    pub at: Square,
    pub controller: Controller,
    /// Conditions the unit starts with (an ambush starts Hidden…), until ended.
    pub conditions: Vec<ConditionKind>,
}

impl UnitSetup {
    /// A unit of `archetype` for `side` at `at`, with the default automatic controller.
    pub fn new(archetype: &str, side: u8, at: Square) -> Self {
        Self {
            archetype: archetype.to_string(),
            inline: None,
            name: None,
            side,
            at,
            controller: Controller::default(),
            conditions: Vec::new(),
        }
    }

    /// The same unit with a shown name.
    pub fn named(mut self, name: &str) -> Self {
        self.name = Some(name.to_string());
        self
    }
}

/// Everything needed to start a battle, besides the ruleset and the dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleSetup {
    pub map: Map,
    pub units: Vec<UnitSetup>,
    pub victory: VictoryRules,
    /// A Surprise Round and cautious Tamers, as the scenario sets them.
    pub opening: super::state::Opening,
}

impl BattleSetup {
    /// A battle on an open map of the ruleset's first terrain, won by defeating every opponent.
    pub fn open(width: u32, height: u32, units: Vec<UnitSetup>) -> Self {
        Self {
            map: Map::filled(width, height, 0),
            units,
            victory: VictoryRules::default(),
            opening: super::state::Opening::default(),
        }
    }
}

/// Why a battle cannot be set up as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("unit {index}: unknown archetype `{archetype}`")]
    UnknownArchetype { index: usize, archetype: String },
    #[error("unit {index}: {at} is off the {width}x{height} battlefield")]
    OffMap {
        index: usize,
        at: Square,
        width: u32,
        height: u32,
    },
    #[error("unit {index}: {at} cannot be stood on ({terrain})")]
    Blocked {
        index: usize,
        at: Square,
        terrain: String,
    },
    #[error("units {first} and {second} both stand on {at}")]
    Overlap {
        first: usize,
        second: usize,
        at: Square,
    },
    #[error(
        "unit {index}: the Absorbed condition needs an absorber and cannot be given at the start"
    )]
    StartAbsorbed { index: usize },
    #[error("a battle needs combatants on at least two sides")]
    OneSide,
}

/// Builds the fighter for `unit` with id `id`.
pub fn build_fighter(rules: &Rules, id: CombatantId, unit: &UnitSetup) -> Option<Fighter> {
    let a = match &unit.inline {
        Some(a) => a,
        None => rules.archetype(&unit.archetype)?,
    };
    let size = rules.size(&a.size)?;
    let max_tier = rules.max_tier();
    let pl = i64::from(a.power_level);
    let mut base_tier = eval(&rules.dice.tier_from_power_level, &[("PL", pl)][..])
        .clamp(1, i64::from(max_tier)) as u32;
    let minion_rules = &rules.characters.minion;
    let mut roll_penalty = 0;
    if a.minion {
        if base_tier > 1 {
            base_tier = base_tier.saturating_sub(minion_rules.tier_penalty).max(1);
        } else {
            roll_penalty = minion_rules.low_tier_roll_penalty;
        }
    }
    let mut f = Fighter {
        id,
        identity: Identity::new(IdentityData {
            name: unit.name.clone().unwrap_or_else(|| a.name.clone()),
            archetype: a.id.clone(),
            glyph: a.glyph.clone(),
        }),
        side: Side(unit.side),
        attributes: Attributes(std::sync::Arc::new(a.attributes.clone())),
        power: Power {
            level: a.power_level,
            base_tier,
            tier: base_tier,
            minion: a.minion,
            minion_roll_penalty: roll_penalty,
            life_modifier: a.race.life_modifier,
            racial_save: a.race.save.clone(),
        },
        size: BodySize {
            id: size.id.clone(),
            squares: size.squares,
            melee_range: size.melee_range,
        },
        life: Life { current: 0, max: 0 },
        ki: Ki { current: 0, max: 0 },
        capacity: Capacity { current: 0, max: 0 },
        position: Some(unit.at),
        conditions: Conditions::default(),
        thresholds: Thresholds::default(),
        defense: Defense::default(),
        actions: Actions::default(),
        round: RoundLog::default(),
        encounter: EncounterLog::default(),
        loadout: Loadout::new(LoadoutData {
            profiles: a.profiles.clone(),
            elements: a.elements.clone(),
            weapon: a.weapon.clone(),
            techniques: a.techniques.clone(),
            skills: a.skills.clone(),
            absorber: a.absorber,
        }),
        controller: unit.controller,
        cards: None,
        digi: None,
    };
    let d = &rules.characters.derived;
    let vars = FighterVars {
        fighter: &f,
        size: Some((0, 0, 0)),
    };
    let mut life = eval(&d.life, &vars).max(1);
    let mut ki = eval(&d.ki, &vars).max(0);
    let capacity = eval(&d.capacity, &vars).max(0);
    if a.minion {
        life = minion_rules.life_fraction.of(life).max(1);
        ki = minion_rules.ki_fraction.of(ki);
    }
    f.life = Life {
        current: life,
        max: life,
    };
    f.ki = Ki {
        current: ki,
        max: ki,
    };
    f.capacity = Capacity {
        current: capacity,
        max: capacity,
    };
    f.thresholds.reached = reached_thresholds(rules, a.minion, f.life);
    super::family::of(rules).prepare_fighter(a, &mut f);
    for kind in &unit.conditions {
        f.conditions
            .0
            .push(ConditionInstance::until_ended(*kind, None, base_tier));
    }
    Some(f)
}

/// Checks a setup and builds its fighters, ids in unit order.
pub fn build_all(rules: &Rules, setup: &BattleSetup) -> Result<Vec<Fighter>, SetupError> {
    let mut out: Vec<Fighter> = Vec::new();
    for (i, u) in setup.units.iter().enumerate() {
        let f = build_fighter(rules, CombatantId(i as u32), u).ok_or_else(|| {
            SetupError::UnknownArchetype {
                index: i,
                archetype: u.archetype.clone(),
            }
        })?;
        if u.conditions.contains(&ConditionKind::Absorbed) {
            return Err(SetupError::StartAbsorbed { index: i });
        }
        for s in footprint(u.at, f.size.squares) {
            let Some(terrain) = setup.map.at(s) else {
                return Err(SetupError::OffMap {
                    index: i,
                    at: u.at,
                    width: setup.map.width,
                    height: setup.map.height,
                });
            };
            let def = rules.terrain.types.get(usize::from(terrain));
            if def.is_none_or(|t| t.move_cost.is_none()) {
                return Err(SetupError::Blocked {
                    index: i,
                    at: s,
                    terrain: def.map_or("unknown terrain".into(), |t| t.name.clone()),
                });
            }
            if let Some(other) = out.iter().find(|o| {
                o.position
                    .is_some_and(|p| footprint(p, o.size.squares).contains(&s))
            }) {
                return Err(SetupError::Overlap {
                    first: other.id.0 as usize,
                    second: i,
                    at: s,
                });
            }
        }
        out.push(f);
    }
    super::family::of(rules).link_fighters(&mut out);
    // Digimon: the player characters, whom the GM favours in ties.
    for f in out.iter_mut() {
        if let Some(s) = f.digi.as_mut() {
            s.player = setup.opening.players.contains(&f.side.0);
        }
    }
    let mut sides: Vec<u8> = out.iter().map(|f| f.side.0).collect();
    sides.sort();
    sides.dedup();
    if sides.len() < 2 {
        return Err(SetupError::OneSide);
    }
    Ok(out)
}

/// The first half of a combatant entity's components (Bevy bundles are tuples of up to 15).
pub type CoreComponents = (
    bevy::prelude::Name,
    CombatantId,
    Identity,
    Side,
    Attributes,
    Power,
    BodySize,
    Life,
    Ki,
    Capacity,
);

/// The second half: position, conditions and the bookkeeping the rules update.
pub type StateComponents = (
    Position,
    Conditions,
    Thresholds,
    Defense,
    Actions,
    RoundLog,
    EncounterLog,
    Loadout,
    Controller,
);

/// The components of a fighter's entity.
pub fn components(f: &Fighter) -> (CoreComponents, StateComponents) {
    (
        (
            bevy::prelude::Name::new(format!("{} {}", f.identity.name, f.id)),
            f.id,
            f.identity.clone(),
            f.side,
            f.attributes.clone(),
            f.power.clone(),
            f.size.clone(),
            f.life,
            f.ki,
            f.capacity,
        ),
        (
            Position(f.position),
            f.conditions.clone(),
            f.thresholds.clone(),
            f.defense.clone(),
            f.actions.clone(),
            f.round.clone(),
            f.encounter.clone(),
            f.loadout.clone(),
            f.controller,
        ),
    )
}
