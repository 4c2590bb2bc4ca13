//! The random battlefield generator: a seeded, portable recipe (ruleset, size, terrain
//! density, sides, teams, mirrored or not) turned into an ordinary scenario whose every unit
//! can walk to the units of every other side.
//!
//! The same recipe makes the same scenario on every platform and release: the dice come from
//! the battles' own portable generator ([`DiceSource`]), and nothing iterates a hash map.

use std::collections::BTreeSet;

use crate::dice::rng::DiceSource;
use crate::grid::{Map, Square, footprint};
use crate::ruleset::Rules;

use super::reach::stranded_units;
use super::{
    ControllerDef, MapDef, RoundLimitDef, Scenario, SideDef, UnitDef, VictoryCondition, VictoryDef,
};
use crate::battle::state::LimitOutcome;

/// The smallest and largest side of a generated map, in squares: below 8 the start zones
/// touch; above 128 a battle is more walking than fighting.
pub const SIDE_RANGE: std::ops::RangeInclusive<u32> = 8..=128;

/// The most of the open field (outside the start zones) features may cover, in percent.
pub const MAX_DENSITY: u32 = 60;

/// The most units a side may have.
pub const MAX_TEAM: usize = 12;

/// Each side's name and colour, in side order.
const SIDES: [(&str, &str); 4] = [
    ("Red", "#d04a3a"),
    ("Blue", "#3a7bd0"),
    ("Green", "#3a9a4a"),
    ("Gold", "#c89a2a"),
];

/// Attempts at a fully connected field before corridors are cut through it.
const ATTEMPTS: u32 = 12;

/// What to generate. Every field is part of the result: the same recipe always gives the
/// same scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    /// The ruleset id (a directory of `rules/`).
    pub ruleset: String,
    /// Squares across (8 to 128).
    pub width: u32,
    /// Squares down (8 to 128).
    pub height: u32,
    /// How much of the field outside the start zones is covered by terrain features, in
    /// percent (0 to [`MAX_DENSITY`]).
    pub density: u32,
    /// The seed of the portable generator that draws the field and the teams.
    pub seed: u64,
    /// Point-symmetric terrain (turned half a turn about the centre), and each side facing
    /// another with the same team placed as its mirror image, so neither has the better
    /// ground.
    pub mirror: bool,
    /// 2 to 4 sides: left, right, top, bottom.
    pub sides: u8,
    /// Each side's units as roster archetype ids: none (drawn from the roster's archetypes
    /// that are neither minions nor Digimon Tamers), one team for every side, or one per side.
    pub teams: Vec<Vec<String>>,
    /// How many units each side draws from the roster when `teams` is empty.
    pub team_size: usize,
    /// The battle is a draw after this many rounds.
    pub round_limit: u32,
}

impl Recipe {
    /// A recipe with the usual defaults: 16×12, 20 % features, two mirrored sides of three
    /// units drawn from the roster, 30 rounds.
    pub fn new(ruleset: &str, seed: u64) -> Self {
        Self {
            ruleset: ruleset.to_string(),
            width: 16,
            height: 12,
            density: 20,
            seed,
            mirror: true,
            sides: 2,
            teams: Vec::new(),
            team_size: 3,
            round_limit: 30,
        }
    }

    /// The command line that makes this recipe again, written into the scenario.
    pub fn command_line(&self) -> String {
        let mut out = format!(
            "gridclash generate-map --ruleset {} --size {}x{} --density {} --sides {} --seed {}",
            self.ruleset, self.width, self.height, self.density, self.sides, self.seed
        );
        if self.mirror {
            out.push_str(" --mirror");
        }
        if self.teams.is_empty() {
            out.push_str(&format!(" --team-size {}", self.team_size));
        }
        for team in &self.teams {
            out.push_str(&format!(" --team {}", team.join(",")));
        }
        if self.round_limit != 30 {
            out.push_str(&format!(" --rounds {}", self.round_limit));
        }
        out
    }
}

/// Why a recipe cannot be generated: each names the option and the limit it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error("a generated map is 8 to 128 squares wide and high, not {width}x{height}")]
    Size { width: u32, height: u32 },
    #[error("--density is a percentage from 0 to {MAX_DENSITY}, not {0}")]
    Density(u32),
    #[error("a generated battle has 2 to 4 sides, not {0}")]
    Sides(u8),
    #[error(
        "give one --team for every side or one for all of them: {teams} teams for {sides} sides"
    )]
    TeamCount { teams: usize, sides: u8 },
    #[error("a side has 1 to {MAX_TEAM} units, not {0}")]
    TeamSize(usize),
    #[error("the {ruleset} roster has no archetype `{id}`; it has: {known}")]
    UnknownArchetype {
        ruleset: String,
        id: String,
        known: String,
    },
    #[error("a round limit is at least 1")]
    Rounds,
    #[error(
        "the {0} ruleset has no open terrain (a type every unit can cross at 1 a square) to build a field of"
    )]
    NoOpenGround(String),
    #[error("side {side}'s start zone ({zone} squares) has no room for its {units} units")]
    ZoneFull {
        side: usize,
        zone: usize,
        units: usize,
    },
    #[error("the {0} ruleset's roster has no archetype to draw a team from")]
    EmptyRoster(String),
    #[error("{0}")]
    Write(String),
}

/// A side's start zone: the squares its units are placed on, kept open ground.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    /// The columns it covers.
    pub x: std::ops::Range<i32>,
    /// The rows it covers.
    pub y: std::ops::Range<i32>,
}

impl Zone {
    fn contains(&self, s: Square) -> bool {
        self.x.contains(&s.x) && self.y.contains(&s.y)
    }

    fn squares(&self) -> Vec<Square> {
        self.y
            .clone()
            .flat_map(|y| self.x.clone().map(move |x| Square::new(x, y)))
            .collect()
    }

    fn centre(&self) -> Square {
        Square::new(
            (self.x.start + self.x.end - 1) / 2,
            (self.y.start + self.y.end - 1) / 2,
        )
    }
}

/// The start zones of `sides` sides on a `width`×`height` map: a band along the left edge,
/// the right edge, the top and the bottom, each away from the corners, `depth` squares deep.
pub fn zones(width: u32, height: u32, sides: u8) -> Vec<Zone> {
    let (w, h) = (width as i32, height as i32);
    let depth = (w.min(h) / 5).max(2);
    let (y0, y1) = (h / 4, h - h / 4);
    let (x0, x1) = (w / 4, w - w / 4);
    let all = [
        Zone {
            x: 0..depth,
            y: y0..y1,
        },
        Zone {
            x: w - depth..w,
            y: y0..y1,
        },
        Zone {
            x: x0..x1,
            y: 0..depth,
        },
        Zone {
            x: x0..x1,
            y: h - depth..h,
        },
    ];
    all.into_iter().take(usize::from(sides)).collect()
}

/// Makes the scenario `recipe` describes for `rules` (whose id is `recipe.ruleset`).
pub fn generate(recipe: &Recipe, rules: &Rules) -> Result<Scenario, GenerateError> {
    check_recipe(recipe)?;
    let open =
        open_ground(rules).ok_or_else(|| GenerateError::NoOpenGround(recipe.ruleset.clone()))?;
    let features = features(rules, open);
    let mut dice = DiceSource::seeded(recipe.seed);
    let teams = teams(recipe, rules, &mut dice)?;
    let zones = zones(recipe.width, recipe.height, recipe.sides);
    let units = place_units(recipe, rules, &zones, &teams, &mut dice)?;
    let mut scenario = skeleton(recipe, units);
    scenario.start_zones = zone_rows(recipe, &zones);
    for attempt in 0..=ATTEMPTS {
        let mut map = Map::filled(recipe.width, recipe.height, open);
        scatter(recipe, &zones, &features, &mut map, &mut dice);
        if attempt == ATTEMPTS {
            cut_corridors(recipe, rules, &zones, open, &mut map);
        }
        scenario.map = map_def(&map, rules);
        if stranded_units(&scenario, rules).is_empty() {
            break;
        }
    }
    Ok(scenario)
}

/// The start zones as the scenario's layer (`1` for the first side's…), so the map editor
/// shows them and another team placed on the field starts in them.
fn zone_rows(recipe: &Recipe, zones: &[Zone]) -> Vec<String> {
    (0..recipe.height as i32)
        .map(|y| {
            (0..recipe.width as i32)
                .map(|x| {
                    zones
                        .iter()
                        .position(|z| z.contains(Square::new(x, y)))
                        .map_or('.', |i| char::from(b'1' + i as u8))
                })
                .collect()
        })
        .collect()
}

/// The scenario file `recipe` makes: [`generate`]'s scenario written out, headed by the
/// command line that makes it again.
pub fn file_text(recipe: &Recipe, rules: &Rules) -> Result<String, GenerateError> {
    let made = generate(recipe, rules)?;
    let header = format!(
        "A random battlefield made by Gridclash's generator; the same command makes it again:\n{}",
        recipe.command_line()
    );
    super::write::to_ron(&made, &header).map_err(|e| GenerateError::Write(e.to_string()))
}

/// Every option of `recipe` within its limits.
fn check_recipe(recipe: &Recipe) -> Result<(), GenerateError> {
    if !SIDE_RANGE.contains(&recipe.width) || !SIDE_RANGE.contains(&recipe.height) {
        return Err(GenerateError::Size {
            width: recipe.width,
            height: recipe.height,
        });
    }
    if recipe.density > MAX_DENSITY {
        return Err(GenerateError::Density(recipe.density));
    }
    if !(2..=4).contains(&recipe.sides) {
        return Err(GenerateError::Sides(recipe.sides));
    }
    let n = recipe.teams.len();
    if n != 0 && n != 1 && n != usize::from(recipe.sides) {
        return Err(GenerateError::TeamCount {
            teams: n,
            sides: recipe.sides,
        });
    }
    let sizes = recipe.teams.iter().map(Vec::len);
    let sizes: Vec<usize> = if n == 0 {
        vec![recipe.team_size]
    } else {
        sizes.collect()
    };
    if let Some(bad) = sizes.into_iter().find(|k| !(1..=MAX_TEAM).contains(k)) {
        return Err(GenerateError::TeamSize(bad));
    }
    if recipe.round_limit == 0 {
        return Err(GenerateError::Rounds);
    }
    Ok(())
}

/// The plain ground a field is made of: the first terrain entered at 1 a square that hides,
/// shelters, slows, drops and hinders no one.
pub fn open_ground(rules: &Rules) -> Option<u16> {
    let i = rules.terrain.types.iter().position(|t| {
        t.move_cost == Some(1)
            && !t.blocks_sight
            && t.cover_rank.is_none()
            && t.roll_modifier.is_none()
            && t.absorb.is_none()
            && t.concealment.is_none()
            && t.drop.is_none()
            && t.cover_bonus.is_none()
            && t.concealment_bonus.is_none()
    })?;
    u16::try_from(i).ok()
}

/// The terrain features scattered over the field: every other type but drops (a fall off a
/// ledge belongs in a map someone designed around it).
fn features(rules: &Rules, open: u16) -> Vec<u16> {
    (0..rules.terrain.types.len())
        .filter_map(|i| u16::try_from(i).ok())
        .filter(|i| *i != open && rules.terrain.types[usize::from(*i)].drop.is_none())
        .collect()
}

/// Each side's archetype ids: the recipe's teams, or a draw from the roster (the same draw
/// for every side when mirrored, so the sides are even).
fn teams(
    recipe: &Recipe,
    rules: &Rules,
    dice: &mut DiceSource,
) -> Result<Vec<Vec<String>>, GenerateError> {
    let sides = usize::from(recipe.sides);
    for id in recipe.teams.iter().flatten() {
        if rules.archetype(id).is_none() {
            return Err(GenerateError::UnknownArchetype {
                ruleset: recipe.ruleset.clone(),
                id: id.clone(),
                known: rules.roster_ids(),
            });
        }
    }
    match recipe.teams.len() {
        0 => {
            let pool: Vec<&str> = rules
                .roster
                .archetypes
                .iter()
                .filter(|a| !a.minion)
                // A Tamer belongs beside its partner Digimon: name both with --team.
                .filter(|a| rules.digimon().is_none_or(|d| d.tamer(&a.id).is_none()))
                .map(|a| a.id.as_str())
                .collect();
            if pool.is_empty() {
                return Err(GenerateError::EmptyRoster(recipe.ruleset.clone()));
            }
            let draw = |dice: &mut DiceSource| -> Vec<String> {
                (0..recipe.team_size)
                    .map(|_| pool[roll_index(dice, pool.len())].to_string())
                    .collect()
            };
            if recipe.mirror {
                let team = draw(dice);
                Ok(vec![team; sides])
            } else {
                Ok((0..sides).map(|_| draw(dice)).collect())
            }
        }
        1 => Ok(vec![recipe.teams[0].clone(); sides]),
        _ => Ok(recipe.teams.clone()),
    }
}

/// A uniform index below `n` (n ≥ 1).
fn roll_index(dice: &mut DiceSource, n: usize) -> usize {
    let sides = u32::try_from(n).unwrap_or(u32::MAX).max(1);
    (dice.roll(sides) - 1) as usize
}

/// The side facing `side` across the centre (left and right, top and bottom).
fn facing(side: usize) -> usize {
    side ^ 1
}

/// Where a `size`-square footprint at `at` lands when the map is turned half a turn.
fn turned(recipe: &Recipe, at: Square, size: u32) -> Square {
    Square::new(
        recipe.width as i32 - at.x - size as i32,
        recipe.height as i32 - at.y - size as i32,
    )
}

/// Every unit on a free square of its side's zone; with `mirror`, a side whose facing side
/// has the same team stands as that side's mirror image.
fn place_units(
    recipe: &Recipe,
    rules: &Rules,
    zones: &[Zone],
    teams: &[Vec<String>],
    dice: &mut DiceSource,
) -> Result<Vec<UnitDef>, GenerateError> {
    let size_of = |id: &str| {
        rules
            .archetype(id)
            .and_then(|a| rules.size(&a.size))
            .map_or(1, |z| z.squares)
    };
    let mut units: Vec<UnitDef> = Vec::new();
    for (side, team) in teams.iter().enumerate() {
        let mirrored_of = facing(side);
        let copy = recipe.mirror && mirrored_of < side && teams[mirrored_of] == *team;
        let zone = &zones[side];
        let mut taken: BTreeSet<Square> = BTreeSet::new();
        let mut spots = zone.squares();
        shuffle(&mut spots, dice);
        let from: Vec<(i32, i32)> = units
            .iter()
            .filter(|u| usize::from(u.side) == mirrored_of)
            .map(|u| u.at)
            .collect();
        for (k, id) in team.iter().enumerate() {
            let size = size_of(id);
            let at = if copy {
                let (x, y) = from[k];
                Some(turned(recipe, Square::new(x, y), size))
            } else {
                spots.iter().copied().find(|s| {
                    footprint(*s, size)
                        .iter()
                        .all(|q| zone.contains(q) && !taken.contains(&q))
                })
            };
            let Some(at) = at else {
                return Err(GenerateError::ZoneFull {
                    side,
                    zone: zone.squares().len(),
                    units: team.len(),
                });
            };
            taken.extend(footprint(at, size).iter());
            units.push(UnitDef::roster(id, side as u8, at));
        }
    }
    Ok(units)
}

/// Fisher-Yates with the recipe's dice.
fn shuffle<T>(items: &mut [T], dice: &mut DiceSource) {
    for i in (1..items.len()).rev() {
        let j = roll_index(dice, i + 1);
        items.swap(i, j);
    }
}

/// Clumps of features (1 to 5 squares each, a random walk) until `density` percent of the
/// squares outside the zones are covered; with `mirror`, every square and its half-turn image
/// get the same terrain.
fn scatter(
    recipe: &Recipe,
    zones: &[Zone],
    features: &[u16],
    map: &mut Map,
    dice: &mut DiceSource,
) {
    if features.is_empty() {
        return;
    }
    let free = |s: Square| map_contains(recipe, s) && !zones.iter().any(|z| z.contains(s));
    let field =
        (recipe.width * recipe.height) as usize - map_squares(recipe).filter(|s| !free(*s)).count();
    let target = field * recipe.density as usize / 100;
    let mut covered: BTreeSet<Square> = BTreeSet::new();
    let mut tries = 0;
    while covered.len() < target && tries < field * 4 {
        tries += 1;
        let mut at = Square::new(
            roll_index(dice, recipe.width as usize) as i32,
            roll_index(dice, recipe.height as usize) as i32,
        );
        let kind = features[roll_index(dice, features.len())];
        let clump = 1 + roll_index(dice, 5);
        for _ in 0..clump {
            let image = turned(recipe, at, 1);
            if free(at) && (!recipe.mirror || free(image)) && covered.len() < target {
                map.set(at, kind);
                covered.insert(at);
                if recipe.mirror {
                    map.set(image, kind);
                    covered.insert(image);
                }
            }
            let step = [(1, 0), (-1, 0), (0, 1), (0, -1)][roll_index(dice, 4)];
            at = Square::new(at.x + step.0, at.y + step.1);
        }
    }
}

fn map_contains(recipe: &Recipe, s: Square) -> bool {
    s.x >= 0 && s.y >= 0 && (s.x as u32) < recipe.width && (s.y as u32) < recipe.height
}

fn map_squares(recipe: &Recipe) -> impl Iterator<Item = Square> {
    let (w, h) = (recipe.width as i32, recipe.height as i32);
    (0..h).flat_map(move |y| (0..w).map(move |x| Square::new(x, y)))
}

/// The last resort when scattering keeps closing the field: open ground as wide as the
/// largest unit, straight from each zone's centre to the map's centre (and its mirror image).
fn cut_corridors(recipe: &Recipe, rules: &Rules, zones: &[Zone], open: u16, map: &mut Map) {
    let widest = rules
        .roster
        .archetypes
        .iter()
        .filter_map(|a| rules.size(&a.size))
        .map(|z| z.squares)
        .max()
        .unwrap_or(1)
        .max(1) as i32;
    let centre = Square::new(recipe.width as i32 / 2, recipe.height as i32 / 2);
    for zone in zones {
        let from = zone.centre();
        let mut at = from;
        loop {
            for dy in 0..widest {
                for dx in 0..widest {
                    for s in [
                        Square::new(at.x + dx, at.y + dy),
                        Square::new(
                            recipe.width as i32 - 1 - at.x - dx,
                            recipe.height as i32 - 1 - at.y - dy,
                        ),
                    ] {
                        if map_contains(recipe, s) {
                            map.set(s, open);
                        }
                    }
                }
            }
            if at == centre {
                break;
            }
            at = Square::new(
                at.x + (centre.x - at.x).signum(),
                at.y + (centre.y - at.y).signum(),
            );
        }
    }
}

/// The map as scenario rows of terrain symbols.
fn map_def(map: &Map, rules: &Rules) -> MapDef {
    let b = map.bounds();
    let rows = (0..b.height as i32)
        .map(|y| {
            (0..b.width as i32)
                .map(|x| {
                    let t = map.at(Square::new(x, y)).unwrap_or(0);
                    rules.terrain.types[usize::from(t)].symbol
                })
                .collect()
        })
        .collect();
    MapDef {
        width: b.width,
        height: b.height,
        rows,
    }
}

/// The names of `n` sides as the builder and generator name them (Red, Blue, …).
pub fn side_names(n: usize) -> Vec<String> {
    side_defs(n).into_iter().map(|d| d.name).collect()
}

/// `n` sides named and coloured in side order (Red, Blue, Green, Gold), the first played by a
/// person and the others by the computer.
pub fn side_defs(n: usize) -> Vec<SideDef> {
    SIDES
        .iter()
        .cycle()
        .take(n)
        .enumerate()
        .map(|(i, (name, color))| SideDef {
            name: (*name).to_string(),
            color: (*color).to_string(),
            controller: if i == 0 {
                ControllerDef::Human
            } else {
                ControllerDef::Computer
            },
            surprise: false,
            cautious: false,
        })
        .collect()
}

/// The scenario around the units, its map still to be drawn.
fn skeleton(recipe: &Recipe, units: Vec<UnitDef>) -> Scenario {
    let sides = side_defs(usize::from(recipe.sides));
    Scenario {
        name: format!(
            "Random field {}x{} (seed {})",
            recipe.width, recipe.height, recipe.seed
        ),
        description: format!(
            "A generated battlefield, {}x{} with {} % of it rough or blocked{}. Seed {}.",
            recipe.width,
            recipe.height,
            recipe.density,
            if recipe.mirror {
                ", the same seen from either side"
            } else {
                ""
            },
            recipe.seed
        ),
        ruleset: recipe.ruleset.clone(),
        map: MapDef {
            width: recipe.width,
            height: recipe.height,
            rows: Vec::new(),
        },
        sides,
        units,
        victory: VictoryDef {
            condition: VictoryCondition::DefeatAllOpponents,
            round_limit: Some(RoundLimitDef {
                rounds: recipe.round_limit,
                outcome: LimitOutcome::Draw,
            }),
        },
        guide: Vec::new(),
        characters: Vec::new(),
        budget: None,
        start_zones: Vec::new(),
    }
}
