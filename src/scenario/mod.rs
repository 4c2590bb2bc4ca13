//! Scenario files: a battle's map, sides, units and victory condition, in RON under
//! `assets/scenarios/`, loaded and checked against their ruleset with positioned errors.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub mod budget;
pub mod edit;
pub mod generate;
pub mod guide;
pub mod reach;
pub mod restage;
pub mod tiled_map;
pub mod write;
pub mod zones;

use crate::battle::components::Controller;
use crate::battle::setup::{BattleSetup, UnitSetup};
use crate::battle::state::{LimitOutcome, VictoryRules};
use crate::grid::{Map, Square, footprint};
use crate::ruleset::{
    ArchetypeDef, ConditionKind, FieldPath, Rules, RulesError, RulesErrors, archetype_errors,
    parse_ron, rules_root, ruleset_dir,
};

/// A scenario file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    /// The ruleset id (a directory of `rules/`).
    pub ruleset: String,
    pub map: MapDef,
    pub sides: Vec<SideDef>,
    pub units: Vec<UnitDef>,
    pub victory: VictoryDef,
    /// A guided battle's prompts, shown one after another as the player learns (see
    /// [`guide`]); empty for an ordinary battle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guide: Vec<guide::GuideStep>,
    /// Characters of the player's own, in the ruleset's roster format: added to the roster
    /// for this battle (units name them by id), checked by the roster's own rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<crate::character::Character>,
    /// The most points each side may field, priced by the ruleset's `points` table (see
    /// [`budget`]); none for a scenario without a budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<i64>,
    /// Where each side may start: one row per map row, `.` for no zone and `1`-`4` for a
    /// side's (see [`zones`]); empty for a scenario without zones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_zones: Vec<String>,
}

/// The map: its size and one row of terrain symbols per line (see the ruleset's
/// `terrain.ron` for the symbols).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapDef {
    pub width: u32,
    pub height: u32,
    pub rows: Vec<String>,
}

/// A side: its name, colour and who plays it by default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    pub name: String,
    /// `#rrggbb`.
    pub color: String,
    pub controller: ControllerDef,
    /// Digimon: this side sneaked up on the others, a Surprise Round ("add +5 to their
    /// Initiative Roll", "a free round where the opposing party cannot attack them back").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub surprise: bool,
    /// Digimon: this side's Tamers plan ahead ("their Digimon add their Tamer's Intelligence
    /// Stat to their Initiative Roll").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cautious: bool,
}

/// Who plays a side unless the player chooses otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ControllerDef {
    Human,
    Computer,
}

/// A unit: a roster archetype or stats written here, its side and start square.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDef {
    /// A roster archetype id…
    #[serde(default)]
    pub archetype: Option<String>,
    /// …or the unit's own stats, in the roster's format.
    #[serde(default)]
    pub stats: Option<ArchetypeDef>,
    #[serde(default)]
    pub name: Option<String>,
    /// Index into `sides`.
    pub side: u8,
    /// Start square (top-left of its footprint).
    pub at: (i32, i32),
    /// Conditions it starts with (until ended).
    #[serde(default)]
    pub conditions: Vec<ConditionKind>,
}

impl UnitDef {
    /// A roster entry `archetype` of side `side` standing at `at`, with nothing else written:
    /// the unit the generator, the builder's maps and the map editor place.
    pub fn roster(archetype: &str, side: u8, at: Square) -> Self {
        Self {
            archetype: Some(archetype.to_string()),
            stats: None,
            name: None,
            side,
            at: (at.x, at.y),
            conditions: Vec::new(),
        }
    }
}

/// How the battle is won.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryDef {
    pub condition: VictoryCondition,
    #[serde(default)]
    pub round_limit: Option<RoundLimitDef>,
}

/// Victory conditions the engine knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum VictoryCondition {
    /// The last side with anyone standing wins.
    DefeatAllOpponents,
}

/// A round limit and what reaching it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundLimitDef {
    pub rounds: u32,
    pub outcome: LimitOutcome,
}

/// A scenario with the ruleset it plays and where it was read from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub path: PathBuf,
    pub scenario: Scenario,
    pub rules: Arc<Rules>,
    /// xxh3 of the scenario file's bytes, so a save notices when its scenario changed.
    pub source_hash: u64,
}

/// The ruleset ids in [`rules_root`] and the player's own rulesets folder, sorted, each once.
pub fn known_rulesets() -> Vec<String> {
    let mut ids: Vec<String> = [rules_root(), crate::ruleset::user_rules_root()]
        .iter()
        .flat_map(|root| {
            std::fs::read_dir(root)
                .map(|d| {
                    d.filter_map(|e| e.ok())
                        .filter(|e| e.path().join("ruleset.ron").is_file())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The widest and highest a scenario's map may be, in squares.
pub const MAX_MAP_SIDE: u32 = 256;

/// The environment variable that points the game at another `assets/` directory.
pub const ASSETS_DIR_ENV: &str = "GRIDCLASH_ASSETS";

/// Where `assets/` is: `$GRIDCLASH_ASSETS`, else beside the executable (or in a macOS bundle's
/// resources), else the source tree.
pub fn assets_root() -> PathBuf {
    crate::paths::data_dir(ASSETS_DIR_ENV, "assets")
}

/// The shipped scenarios, sorted by file name.
pub fn shipped() -> Vec<PathBuf> {
    ron_files(&assets_root().join("scenarios"))
}

/// The player's own scenarios: `scenarios/` in the data directory (see `gridclash paths`),
/// where generated battles are written and where the title screen looks beside the shipped
/// ones.
pub fn user_dir() -> PathBuf {
    user_dir_in(&crate::save::slots::data_dir())
}

/// The player's own scenarios folder of the data directory `data`.
pub fn user_dir_in(data: &Path) -> PathBuf {
    data.join("scenarios")
}

pub use crate::paths::ron_files;

/// The player's own scenario files in [`user_dir`], sorted by file name.
pub fn user_files() -> Vec<PathBuf> {
    ron_files(&user_dir())
}

/// A scenario file by path, or by name among the shipped ones and then the player's own
/// (`duel` is `assets/scenarios/duel.ron`; a generated `field-7` is in [`user_dir`]).
pub fn find(name_or_path: &str) -> PathBuf {
    let p = PathBuf::from(name_or_path);
    if p.exists() || name_or_path.contains('/') || name_or_path.ends_with(".ron") {
        return p;
    }
    let file = format!("{name_or_path}.ron");
    let shipped = assets_root().join("scenarios").join(&file);
    let own = user_dir().join(&file);
    if !shipped.exists() && own.exists() {
        return own;
    }
    shipped
}

/// Reads and checks a scenario and loads its ruleset from [`rules_root`].
pub fn load(path: &Path) -> Result<Loaded, RulesErrors> {
    load_with(path, |id| Rules::load(&ruleset_dir(id)).map(Arc::new))
}

/// Reads and checks a scenario, getting its ruleset from `rules_for` (a cache, a test's).
pub fn load_with(
    path: &Path,
    rules_for: impl FnOnce(&str) -> Result<Arc<Rules>, RulesErrors>,
) -> Result<Loaded, RulesErrors> {
    let src = crate::ruleset::read_text(path).map_err(|e| RulesErrors(vec![e]))?;
    let scenario: Scenario = parse_ron(path, &src).map_err(|e| RulesErrors(vec![e]))?;
    let root = FieldPath::root();
    if scenario.ruleset.is_empty() || scenario.ruleset.contains(['/', '\\', '.']) {
        return Err(RulesErrors(vec![RulesError::at(
            path,
            &src,
            &root.field("ruleset"),
            format!("`{}` is not a ruleset id", scenario.ruleset),
        )]));
    }
    let rules = rules_for(&scenario.ruleset).map_err(|e| {
        // A ruleset that is not there at all: one located error that lists those that are.
        // (A ruleset directory missing some of its files gets those files' own errors.)
        if !ruleset_dir(&scenario.ruleset).is_dir() {
            return RulesErrors(vec![RulesError::at(
                path,
                &src,
                &root.field("ruleset"),
                format!(
                    "there is no ruleset `{}` (rulesets in {} and {}: {})",
                    scenario.ruleset,
                    rules_root().display(),
                    crate::ruleset::user_rules_root().display(),
                    known_rulesets().join(", ")
                ),
            )]);
        }
        let mut all = vec![RulesError::at(
            path,
            &src,
            &root.field("ruleset"),
            format!("the ruleset `{}` could not be loaded", scenario.ruleset),
        )];
        all.extend(e.0);
        RulesErrors(all)
    })?;
    let rules = with_characters(&scenario, rules, path, &src)?;
    let problems = check(&scenario, &rules, path, &src);
    if problems.is_empty() {
        Ok(Loaded {
            path: path.to_path_buf(),
            scenario,
            rules,
            source_hash: xxhash_rust::xxh3::xxh3_64(src.as_bytes()),
        })
    } else {
        Err(RulesErrors(problems))
    }
}

/// The ruleset with the scenario's own characters added to its roster; each character's
/// problems are named at its place in the file, with the field and the rule.
fn with_characters(
    scenario: &Scenario,
    rules: Arc<Rules>,
    path: &Path,
    src: &str,
) -> Result<Arc<Rules>, RulesErrors> {
    if scenario.characters.is_empty() {
        return Ok(rules);
    }
    crate::character::add_to(&rules, &scenario.characters)
        .map(Arc::new)
        .map_err(|problems| {
            RulesErrors(
                problems
                    .into_iter()
                    .map(|(i, p)| {
                        let at = FieldPath::root().field("characters").index(i);
                        let name = scenario.characters[i].id();
                        RulesError::at(path, src, &at, format!("`{name}`: {p}"))
                    })
                    .collect(),
            )
        })
}

/// Every problem of a parsed scenario against its ruleset.
pub fn check(s: &Scenario, rules: &Rules, path: &Path, src: &str) -> Vec<RulesError> {
    let root = FieldPath::root();
    let mut errs = Vec::new();
    macro_rules! err {
        ($p:expr, $msg:expr $(,)?) => {
            errs.push(RulesError::at(path, src, $p, $msg))
        };
    }
    if s.ruleset != rules.manifest.id {
        err!(
            &root.field("ruleset"),
            format!("this ruleset is `{}`", rules.manifest.id),
        );
    }
    let m = &s.map;
    let mp = root.field("map");
    if m.width == 0 || m.height == 0 || m.width > MAX_MAP_SIDE || m.height > MAX_MAP_SIDE {
        err!(&mp, "a map is 1 to 256 squares wide and high".to_string());
    }
    if m.rows.len() != m.height as usize {
        err!(
            &mp.field("rows"),
            format!("{} rows for a height of {}", m.rows.len(), m.height),
        );
    }
    for (y, row) in m.rows.iter().enumerate() {
        let rp = mp.field("rows").index(y);
        let n = row.chars().count();
        if n != m.width as usize {
            err!(
                &rp,
                format!("row {y} has {n} squares for a width of {}", m.width)
            );
        }
        for (x, c) in row.chars().enumerate() {
            if rules.terrain_by_symbol(c).is_none() {
                // Point at the symbol itself: the row's opening quote, then x characters.
                let mut e = RulesError::at(
                    path,
                    src,
                    &rp,
                    format!(
                        "unknown terrain symbol '{c}' at ({x}, {y}); known: {}",
                        rules
                            .terrain
                            .types
                            .iter()
                            .map(|t| format!("'{}' {}", t.symbol, t.id))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                if let RulesError::Invalid { col, .. } = &mut e {
                    *col += x + 1;
                }
                errs.push(e);
                break;
            }
        }
    }
    if s.sides.len() < 2 {
        err!(
            &root.field("sides"),
            "a battle needs at least two sides".to_string()
        );
    }
    for (i, side) in s.sides.iter().enumerate() {
        let c = &side.color;
        let hex =
            c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|h| h.is_ascii_hexdigit());
        if !hex {
            err!(
                &root.field("sides").index(i).field("color"),
                format!("`{c}` is not a colour like \"#3070d0\""),
            );
        }
    }
    let map = build_map(s, rules);
    let mut taken: Vec<(usize, Square)> = Vec::new();
    for (i, u) in s.units.iter().enumerate() {
        let up = root.field("units").index(i);
        if usize::from(u.side) >= s.sides.len() {
            err!(
                &up.field("side"),
                format!(
                    "side {} does not exist (there are {})",
                    u.side,
                    s.sides.len()
                ),
            );
        }
        if !crate::battle::family::of(rules).written_stats() && u.stats.is_some() {
            err!(
                &up.field("stats"),
                "a power-stages or shinobi unit names a combatant of roster.ron with `archetype:`; written-out `stats` are for DBU rulesets".to_string(),
            );
            continue;
        }
        let def = match (&u.archetype, &u.stats) {
            (Some(id), None) => match rules.archetype(id) {
                Some(a) => Some(a.clone()),
                None => {
                    err!(
                        &up.field("archetype"),
                        format!(
                            "unknown archetype `{id}`; the roster has: {}",
                            rules.roster_ids()
                        ),
                    );
                    None
                }
            },
            (None, Some(stats)) => {
                let inner = archetype_errors(rules, path, src, &up.field("stats"), stats);
                let ok = inner.is_empty();
                errs.extend(inner);
                ok.then(|| stats.clone())
            }
            _ => {
                errs.push(RulesError::at(
                    path,
                    src,
                    &up,
                    "a unit needs either `archetype` or `stats`, not both or neither",
                ));
                None
            }
        };
        for (k, c) in u.conditions.iter().enumerate() {
            if !rules
                .conditions
                .conditions
                .iter()
                .any(|d| d.rule.kind() == *c)
            {
                err!(
                    &up.field("conditions").index(k),
                    format!("the {} ruleset has no {c:?} condition", rules.manifest.id),
                );
            }
        }
        if u.conditions.contains(&ConditionKind::Absorbed) {
            err!(
                &up.field("conditions"),
                "no unit can start Absorbed: it needs an absorber".to_string(),
            );
        }
        let size = def
            .as_ref()
            .and_then(|d| rules.size(&d.size))
            .map_or(1, |z| z.squares);
        let at = Square::new(u.at.0, u.at.1);
        for sq in footprint(at, size) {
            match map.at(sq) {
                None => {
                    err!(
                        &up.field("at"),
                        format!("{sq} is off the {}x{} map", m.width, m.height),
                    );
                    break;
                }
                Some(t) => {
                    let ter = &rules.terrain.types[usize::from(t)];
                    if ter.move_cost.is_none() {
                        err!(
                            &up.field("at"),
                            format!(
                                "{sq} is {} ('{}'): no one can stand there",
                                ter.name, ter.symbol
                            ),
                        );
                        break;
                    }
                }
            }
            if let Some((other, _)) = taken.iter().find(|(_, q)| *q == sq) {
                err!(
                    &up.field("at"),
                    format!("{sq} is already taken by unit {other}"),
                );
                break;
            }
        }
        for sq in footprint(at, size) {
            taken.push((i, sq));
        }
    }
    for (i, side) in s.sides.iter().enumerate() {
        if !s.units.iter().any(|u| usize::from(u.side) == i) {
            err!(
                &root.field("sides").index(i),
                format!("side {i} ({}) has no units", side.name),
            );
        }
    }
    if let Some(limit) = &s.victory.round_limit {
        let lp = root.field("victory").field("round_limit");
        if limit.rounds == 0 {
            err!(
                &lp.field("rounds"),
                "a round limit is at least 1".to_string()
            );
        }
        if let LimitOutcome::SideWins(w) = limit.outcome
            && usize::from(w) >= s.sides.len()
        {
            err!(&lp.field("outcome"), format!("side {w} does not exist"),);
        }
    }
    let family = crate::battle::family::of(rules);
    for (i, side) in s.sides.iter().enumerate() {
        let sp = root.field("sides").index(i);
        if side.surprise && family.surprise_initiative().is_none() {
            err!(
                &sp.field("surprise"),
                format!(
                    "a Surprise Round is a Digimon rule (003:49); the `{}` ruleset has none",
                    rules.manifest.id
                ),
            );
        }
        if side.cautious && !family.plans_ahead() {
            err!(
                &sp.field("cautious"),
                format!(
                    "cautious Tamers are a Digimon rule (003:47); the `{}` ruleset has none",
                    rules.manifest.id
                ),
            );
        }
    }
    if s.sides.iter().filter(|d| d.surprise).count() > 1 {
        err!(
            &root.field("sides"),
            "only one side can sneak up on the others for a Surprise Round".to_string(),
        );
    }
    errs.extend(guide::check(&s.guide, path, src));
    errs.extend(zones::check(s, path, src));
    errs.extend(budget::check(s, rules, path, src));
    errs
}

/// The scenario's map as terrain indexes (unknown symbols become the first terrain type;
/// [`check`] reports them).
pub fn build_map(s: &Scenario, rules: &Rules) -> Map {
    // A size beyond the limit is reported by `check`; the map built meanwhile stays bounded.
    let mut map = Map::filled(
        s.map.width.min(MAX_MAP_SIDE),
        s.map.height.min(MAX_MAP_SIDE),
        0,
    );
    for (y, row) in s.map.rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if let Some(t) = rules.terrain_by_symbol(c) {
                map.set(Square::new(x as i32, y as i32), t);
            }
        }
    }
    map
}

impl Loaded {
    /// The battle setup, every side played by `controller`.
    pub fn setup(&self, controller: Controller) -> BattleSetup {
        let s = &self.scenario;
        BattleSetup {
            map: build_map(s, &self.rules),
            units: s
                .units
                .iter()
                .map(|u| UnitSetup {
                    archetype: u.archetype.clone().unwrap_or_default(),
                    inline: u.stats.clone(),
                    name: u.name.clone(),
                    side: u.side,
                    at: Square::new(u.at.0, u.at.1),
                    controller,
                    conditions: u.conditions.clone(),
                })
                .collect(),
            victory: VictoryRules {
                round_limit: s.victory.round_limit.map(|l| (l.rounds, l.outcome)),
            },
            opening: crate::battle::state::Opening {
                surprise: s
                    .sides
                    .iter()
                    .position(|d| d.surprise)
                    .and_then(|i| u8::try_from(i).ok()),
                cautious: (0..s.sides.len())
                    .filter(|i| s.sides[*i].cautious)
                    .filter_map(|i| u8::try_from(i).ok())
                    .collect(),
                players: (0..s.sides.len())
                    .filter(|i| s.sides[*i].controller == ControllerDef::Human)
                    .filter_map(|i| u8::try_from(i).ok())
                    .collect(),
            },
        }
    }

    /// The file's name without extension, e.g. `duel`.
    pub fn id(&self) -> String {
        self.path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    }
}
