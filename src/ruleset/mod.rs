//! Rulesets as data: loading `rules/<id>/*.ron`, validating it, and looking things up by id.
//!
//! A broken file never panics the program: parsing and validation collect every problem as a
//! [`RulesError`] naming file, line, column and field, and [`Rules::load`] returns them all.

mod action_rules;
pub mod build;
pub mod d20;
pub mod digimon;
pub mod error;
pub mod glossary;
pub mod locate;
pub mod neutral;
pub mod schema;
pub mod shinobi;
pub mod stages;
mod validate;

pub use validate::archetype_errors;

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

pub use action_rules::*;
pub use error::{RulesError, RulesErrors};
pub use locate::FieldPath;
pub use schema::*;

/// Each mechanic family's own data: what its rules need beyond the shared tables.
///
/// One value per family, so "which ruleset is this?" has one answer. d20 and Digimon are
/// played on the action-point path the ninja chapter defined: their data carries its lowered
/// tables (`ap`) as data they use, not as a parent they live inside.
#[derive(Debug, Clone)]
pub enum FamilyData {
    /// The DBU chapter: everything is in the shared tables.
    Dbu,
    /// The card game's power stages (`stages.ron`, `roster.ron`).
    PowerStages(Box<stages::StageData>),
    /// The ninja d20 chapter (`shinobi.ron`, `roster.ron`).
    Shinobi(Box<shinobi::ShinobiData>),
    /// The d20 skill system (`d20.ron`, `roster.ron`).
    D20(Box<d20::D20Data>),
    /// The Digimon RPG (`digimon.ron`, `roster.ron`).
    Digimon(Box<digimon::DigimonData>),
}

/// A loaded, validated ruleset.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The directory it was loaded from.
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub dice: DiceRules,
    pub characters: CharacterRules,
    pub attacks: AttackRules,
    pub damage: DamageRules,
    pub conditions: ConditionRules,
    pub actions: ActionRules,
    pub roster: Roster,
    pub terrain: TerrainRules,
    /// The family's own data, beside the shared tables above that every family is lowered
    /// into. Read it through [`Rules::stages`], [`Rules::action_points`], [`Rules::d20`] and
    /// [`Rules::digimon`], never by asking which optional table happens to be present.
    pub family: FamilyData,
    /// xxh3 of every data file's name and bytes: a save names the data it was played with
    /// and notices when the ruleset changed since.
    pub data_hash: u64,
    /// Every word of the ruleset with its rule text, for the help screen and tooltips. Not in
    /// `data_hash`: rewording an explanation does not change a saved battle.
    pub glossary: glossary::Glossary,
    /// What a unit costs in a skirmish's point budget (`points.ron`, see
    /// [`crate::character::points`]). Not in `data_hash` either: a price changes no battle.
    pub points: build::Prices,
}

/// The hash of a ruleset's sources as loaded: each file's name, length and bytes, in order.
fn hash_sources(sources: &[(PathBuf, String)]) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for (file, src) in sources {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        h.update(name.unwrap_or_default().as_bytes());
        h.update(&(src.len() as u64).to_le_bytes());
        h.update(src.as_bytes());
    }
    h.digest()
}

/// The files of a DBU-family ruleset, in load order.
pub const DBU_FILES: [&str; 9] = [
    "ruleset.ron",
    "dice.ron",
    "characters.ron",
    "attacks.ron",
    "damage.ron",
    "conditions.ron",
    "actions.ron",
    "roster.ron",
    "terrain.ron",
];

/// The environment variable that points the game at another `rules/` directory.
pub const RULES_DIR_ENV: &str = "GRIDCLASH_RULES";

/// Where the `rules/` directory is: `$GRIDCLASH_RULES`, else beside the executable (or in a
/// macOS bundle's resources), else the source tree (for `cargo run` and `cargo test`).
pub fn rules_root() -> PathBuf {
    crate::paths::data_dir(RULES_DIR_ENV, "rules")
}

/// The player's own rulesets: `rulesets/` in the data directory (`gridclash paths` prints
/// it), each a folder like those of [`rules_root`].
pub fn user_rules_root() -> PathBuf {
    crate::paths::user_data_dir().join("rulesets")
}

/// The folder of the ruleset `id`: the shipped one when there is one (a ruleset of the
/// player's own cannot shadow it), else the player's own.
pub fn ruleset_dir(id: &str) -> PathBuf {
    let shipped = rules_root().join(id);
    if shipped.is_dir() {
        return shipped;
    }
    let own = user_rules_root().join(id);
    if own.is_dir() { own } else { shipped }
}

/// Parses one RON file into `T`, turning any problem into a positioned [`RulesError`]. The
/// implicit-`Some` extension is on, so optional values may be written bare.
pub fn parse_ron<T: DeserializeOwned>(file: &Path, src: &str) -> Result<T, RulesError> {
    let spanned = |e: ron::error::SpannedError, field: String| RulesError::Invalid {
        file: file.to_path_buf(),
        line: e.span.start.line,
        col: e.span.start.col,
        field,
        message: e.code.to_string(),
    };
    // One loader for every file: `Some(…)` may be left out around optional values.
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let mut de = ron::Deserializer::from_str_with_options(src, &options)
        .map_err(|e| spanned(e, "(file)".into()))?;
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(v) => {
            de.end()
                .map_err(|e| spanned(de.span_error(e), "(file)".into()))?;
            Ok(v)
        }
        Err(e) => {
            let path = FieldPath(
                e.path()
                    .iter()
                    .map_while(|s| match s {
                        serde_path_to_error::Segment::Seq { index } => {
                            Some(locate::Seg::Index(*index))
                        }
                        serde_path_to_error::Segment::Map { key } => {
                            Some(locate::Seg::Field(key.clone()))
                        }
                        serde_path_to_error::Segment::Enum { .. }
                        | serde_path_to_error::Segment::Unknown => None,
                    })
                    .collect(),
            );
            let field = path.to_string();
            let inner = e.into_inner();
            if let ron::Error::Message(msg) = &inner {
                // Our own checks inside a value (a bad formula): point at the value itself.
                let mut err = RulesError::at(file, src, &path, msg.clone());
                if let RulesError::Invalid { field: f, .. } = &mut err {
                    *f = field;
                }
                Err(err)
            } else {
                Err(spanned(de.span_error(inner), field))
            }
        }
    }
}

fn read(file: &Path) -> Result<String, RulesError> {
    read_text(file)
}

/// The largest rules or scenario file read: the shipped ones are a few kilobytes, so anything
/// this big is a wrong file, and refusing it keeps a mistake from filling memory.
pub const MAX_DATA_FILE_BYTES: u64 = 4 << 20;

/// Reads a data file as text. Bytes that are not UTF-8 are reported at their line and column,
/// like any other mistake in the file, rather than as an unreadable file.
pub fn read_text(file: &Path) -> Result<String, RulesError> {
    let unreadable = |e: std::io::Error| RulesError::Unreadable {
        file: file.to_path_buf(),
        message: e.to_string(),
    };
    // Read through `take`, not by the file's size: a FIFO or device reports none but may
    // never end. One byte past the limit tells an oversized file from one exactly at it.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(
            std::fs::File::open(file).map_err(unreadable)?,
            MAX_DATA_FILE_BYTES + 1,
        ),
        &mut bytes,
    )
    .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_DATA_FILE_BYTES {
        return Err(RulesError::Invalid {
            file: file.to_path_buf(),
            line: 1,
            col: 1,
            field: "(file)".into(),
            message: format!(
                "the file is over {MAX_DATA_FILE_BYTES} bytes; a rules or scenario file may be at most {MAX_DATA_FILE_BYTES}"
            ),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..offset];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let col = offset
            - before
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        RulesError::Invalid {
            file: file.to_path_buf(),
            line,
            col,
            field: "(file)".into(),
            message: format!("byte {offset} is not UTF-8 text: the file is damaged or not RON"),
        }
    })
}

/// Reads every file of a ruleset, in order; any that cannot be read are all reported.
fn read_all(dir: &Path, names: &[&str]) -> Result<Vec<(PathBuf, String)>, RulesErrors> {
    let mut errors = Vec::new();
    let mut sources = Vec::new();
    for name in names {
        let file = dir.join(name);
        match read(&file) {
            Ok(src) => sources.push((file, src)),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(sources)
    } else {
        Err(RulesErrors(errors))
    }
}

/// Which mechanic family the ruleset in `dir` belongs to, read from its `ruleset.ron`. A
/// `ruleset.ron` that cannot be read or parsed is the one problem reported: without it the
/// other files cannot be told apart (a power-stages ruleset is not a DBU one missing files).
fn family_of(dir: &Path) -> Result<Family, RulesErrors> {
    let file = dir.join("ruleset.ron");
    let src = read(&file).map_err(|e| RulesErrors(vec![e]))?;
    parse_ron::<Manifest>(&file, &src)
        .map(|m| m.family)
        .map_err(|e| RulesErrors(vec![e]))
}

impl Rules {
    /// Loads and validates the ruleset in `dir`, reporting every problem found.
    pub fn load(dir: &Path) -> Result<Self, RulesErrors> {
        let mut rules = match family_of(dir)? {
            Family::Dbu => Self::load_dbu(dir),
            Family::PowerStages => Self::load_stages(dir),
            Family::Shinobi => Self::load_shinobi(dir),
            Family::D20 => Self::load_d20(dir),
            Family::Digimon => Self::load_digimon(dir),
        }?;
        rules.glossary = glossary::Glossary::load(&rules)?;
        rules.points = build::load_prices(dir)?;
        Ok(rules)
    }

    /// Loads a ruleset of a lowered family: `ruleset.ron`, the family's rules file and roster,
    /// and `terrain.ron`, checked by `check` and `terrain_check`, then lowered into the
    /// engine's tables by `lower`. Returns the tables and the family's own two files.
    fn load_lowered<R: DeserializeOwned, S: DeserializeOwned>(
        dir: &Path,
        files: &[&str; 4],
        check: impl Fn(&R, &S, &(PathBuf, String), &(PathBuf, String)) -> Vec<RulesError>,
        terrain_check: impl Fn(&R, &TerrainRules, &(PathBuf, String)) -> Vec<RulesError>,
        lower: impl Fn(&R, &S) -> neutral::Lowered,
    ) -> Result<(Self, R, S), RulesErrors> {
        let sources = read_all(dir, files)?;
        let mut errors = Vec::new();
        macro_rules! parse {
            ($i:expr) => {
                match parse_ron(&sources[$i].0, &sources[$i].1) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        errors.push(e);
                        None
                    }
                }
            };
        }
        let manifest: Option<Manifest> = parse!(0);
        let family_rules: Option<R> = parse!(1);
        let roster: Option<S> = parse!(2);
        let terrain: Option<TerrainRules> = parse!(3);
        let (Some(manifest), Some(family_rules), Some(roster), Some(terrain)) =
            (manifest, family_rules, roster, terrain)
        else {
            return Err(RulesErrors(errors));
        };
        let mut problems = check(&family_rules, &roster, &sources[1], &sources[2]);
        problems.extend(validate::terrain_errors(&terrain, &sources[3]));
        problems.extend(terrain_check(&family_rules, &terrain, &sources[3]));
        if manifest.id.is_empty() {
            problems.push(RulesError::at(
                &sources[0].0,
                &sources[0].1,
                &FieldPath::root().field("id"),
                "the ruleset id cannot be empty",
            ));
        }
        if !problems.is_empty() {
            return Err(RulesErrors(problems));
        }
        let low = lower(&family_rules, &roster);
        let rules = Self {
            dir: dir.to_path_buf(),
            manifest,
            dice: low.dice,
            characters: low.characters,
            attacks: low.attacks,
            damage: low.damage,
            conditions: low.conditions,
            actions: low.actions,
            roster: low.roster,
            terrain,
            family: FamilyData::Dbu,
            data_hash: hash_sources(&sources),
            glossary: glossary::Glossary::default(),
            points: build::Prices::default(),
        };
        Ok((rules, family_rules, roster))
    }

    /// Loads a power-stages ruleset: its own four files, lowered into the engine's tables.
    fn load_stages(dir: &Path) -> Result<Self, RulesErrors> {
        let terrain_check = |_: &_, t: &TerrainRules, src: &(PathBuf, String)| {
            let mut e = stages::terrain_errors(t, src);
            e.extend(shinobi::foreign_terrain_errors(t, src));
            e.extend(d20::foreign_terrain_errors(t, src));
            e.extend(digimon::foreign_terrain_errors(t, src));
            e
        };
        let (mut rules, combat, roster) = Self::load_lowered(
            dir,
            &stages::STAGE_FILES,
            stages::validate,
            terrain_check,
            stages::lower,
        )?;
        rules.family = FamilyData::PowerStages(Box::new(stages::StageData { combat, roster }));
        Ok(rules)
    }

    /// Loads a shinobi ruleset: its own four files, lowered into the engine's tables.
    fn load_shinobi(dir: &Path) -> Result<Self, RulesErrors> {
        let (mut rules, combat, roster) = Self::load_lowered(
            dir,
            &shinobi::SHINOBI_FILES,
            shinobi::validate,
            |_: &_, t: &TerrainRules, src: &(PathBuf, String)| {
                let mut e = shinobi::terrain_errors(t, src);
                e.extend(d20::foreign_terrain_errors(t, src));
                e.extend(digimon::foreign_terrain_errors(t, src));
                e
            },
            shinobi::lower,
        )?;
        rules.family = FamilyData::Shinobi(Box::new(shinobi::ShinobiData { combat, roster }));
        Ok(rules)
    }

    /// Loads a d20 ruleset: its own four files, lowered onto the ninja chapter's d20 path with
    /// the d20 rules kept beside it.
    fn load_d20(dir: &Path) -> Result<Self, RulesErrors> {
        let (mut rules, combat, roster) = Self::load_lowered(
            dir,
            &d20::D20_FILES,
            d20::validate,
            |combat: &d20::D20Rules, t: &TerrainRules, src: &(PathBuf, String)| {
                let mut e = d20::terrain_errors(combat, t, src);
                e.extend(digimon::foreign_terrain_errors(t, src));
                e
            },
            d20::lower,
        )?;
        let (s, r) = d20::as_shinobi(&combat, &roster);
        rules.family = FamilyData::D20(Box::new(d20::D20Data {
            combat,
            roster,
            ap: shinobi::ShinobiData {
                combat: s,
                roster: r,
            },
        }));
        Ok(rules)
    }

    /// Loads a Digimon ruleset: its own four files, lowered onto the action-point path with
    /// the Digimon rules kept beside it.
    fn load_digimon(dir: &Path) -> Result<Self, RulesErrors> {
        let (mut rules, combat, roster) = Self::load_lowered(
            dir,
            &digimon::DIGIMON_FILES,
            digimon::validate,
            |_: &_, t: &TerrainRules, src: &(PathBuf, String)| digimon::terrain_errors(t, src),
            digimon::lower,
        )?;
        let (s, r) = digimon::as_shinobi(&combat, &roster);
        rules.family = FamilyData::Digimon(Box::new(digimon::DigimonData {
            combat,
            roster,
            ap: shinobi::ShinobiData {
                combat: s,
                roster: r,
            },
        }));
        Ok(rules)
    }

    /// Loads a DBU-family ruleset from its nine files.
    fn load_dbu(dir: &Path) -> Result<Self, RulesErrors> {
        let sources = read_all(dir, &DBU_FILES)?;
        let mut errors = Vec::new();
        macro_rules! parse {
            ($i:expr) => {
                match parse_ron(&sources[$i].0, &sources[$i].1) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        errors.push(e);
                        None
                    }
                }
            };
        }
        let manifest: Option<Manifest> = parse!(0);
        let dice: Option<DiceRules> = parse!(1);
        let characters: Option<CharacterRules> = parse!(2);
        let attacks: Option<AttackRules> = parse!(3);
        let damage: Option<DamageRules> = parse!(4);
        let conditions: Option<ConditionRules> = parse!(5);
        let actions: Option<ActionRules> = parse!(6);
        let roster: Option<Roster> = parse!(7);
        let terrain: Option<TerrainRules> = parse!(8);
        let (
            Some(manifest),
            Some(dice),
            Some(characters),
            Some(attacks),
            Some(damage),
            Some(conditions),
            Some(actions),
            Some(roster),
            Some(terrain),
        ) = (
            manifest, dice, characters, attacks, damage, conditions, actions, roster, terrain,
        )
        else {
            return Err(RulesErrors(errors));
        };
        let rules = Self {
            dir: dir.to_path_buf(),
            manifest,
            dice,
            characters,
            attacks,
            damage,
            conditions,
            actions,
            roster,
            terrain,
            family: FamilyData::Dbu,
            data_hash: hash_sources(&sources),
            glossary: glossary::Glossary::default(),
            points: build::Prices::default(),
        };
        let mut problems = validate::validate(&rules, &sources);
        problems.extend(shinobi::foreign_terrain_errors(&rules.terrain, &sources[8]));
        problems.extend(d20::foreign_terrain_errors(&rules.terrain, &sources[8]));
        problems.extend(digimon::foreign_terrain_errors(&rules.terrain, &sources[8]));
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(RulesErrors(problems))
        }
    }

    /// Lowers the family's own data into the engine's tables again, after its roster grew (the
    /// characters a scenario carries), so every table agrees with it. A DBU ruleset has no
    /// lowering: its roster is the engine's.
    pub fn relower(&mut self) {
        let low = match &mut self.family {
            FamilyData::Dbu => return,
            FamilyData::PowerStages(d) => stages::lower(&d.combat, &d.roster),
            FamilyData::Shinobi(d) => shinobi::lower(&d.combat, &d.roster),
            FamilyData::D20(d) => {
                let (combat, roster) = d20::as_shinobi(&d.combat, &d.roster);
                d.ap = shinobi::ShinobiData { combat, roster };
                d20::lower(&d.combat, &d.roster)
            }
            FamilyData::Digimon(d) => {
                let (combat, roster) = digimon::as_shinobi(&d.combat, &d.roster);
                d.ap = shinobi::ShinobiData { combat, roster };
                digimon::lower(&d.combat, &d.roster)
            }
        };
        self.dice = low.dice;
        self.characters = low.characters;
        self.attacks = low.attacks;
        self.damage = low.damage;
        self.conditions = low.conditions;
        self.actions = low.actions;
        self.roster = low.roster;
    }

    /// The power-stages data, when this ruleset plays the card game's power stages.
    pub fn stages(&self) -> Option<&stages::StageData> {
        match &self.family {
            FamilyData::PowerStages(data) => Some(data),
            _ => None,
        }
    }

    /// The action-point tables (3 points a round, the ninja chapter's shape), when this
    /// ruleset is played on them: the ninja chapter, d20 and Digimon.
    pub fn action_points(&self) -> Option<&shinobi::ShinobiData> {
        match &self.family {
            FamilyData::Shinobi(ap) => Some(ap),
            FamilyData::D20(d) => Some(&d.ap),
            FamilyData::Digimon(d) => Some(&d.ap),
            FamilyData::Dbu | FamilyData::PowerStages(_) => None,
        }
    }

    /// The d20 skill system's own data, when this ruleset plays it.
    pub fn d20(&self) -> Option<&d20::D20Data> {
        match &self.family {
            FamilyData::D20(d20) => Some(d20),
            _ => None,
        }
    }

    /// The Digimon RPG's own data, when this ruleset plays it.
    pub fn digimon(&self) -> Option<&digimon::DigimonData> {
        match &self.family {
            FamilyData::Digimon(digimon) => Some(digimon),
            _ => None,
        }
    }

    /// Loads a ruleset by id from [`rules_root`].
    pub fn load_id(id: &str) -> Result<Self, RulesErrors> {
        Self::load(&ruleset_dir(id))
    }

    /// The row of the dice table for a Tier of Power (clamped to the table).
    pub fn tier(&self, tier: u32) -> &TierRow {
        let i = (tier.max(1) as usize - 1).min(self.dice.tiers.len() - 1);
        &self.dice.tiers[i]
    }

    /// The highest Tier of Power the dice table knows.
    pub fn max_tier(&self) -> u32 {
        self.dice.tiers.len() as u32
    }

    /// A profile by id.
    pub fn profile(&self, id: &str) -> Option<&ProfileDef> {
        self.attacks.profiles.iter().find(|p| p.id == id)
    }

    /// An attack type by id.
    pub fn attack_type(&self, id: &str) -> Option<&AttackTypeDef> {
        self.attacks.types.iter().find(|t| t.id == id)
    }

    /// An element option by id.
    pub fn element(&self, id: &str) -> Option<&ElementDef> {
        self.attacks.elements.iter().find(|e| e.id == id)
    }

    /// Every roster id, joined with commas: what an error about an unknown archetype lists.
    pub fn roster_ids(&self) -> String {
        self.roster
            .archetypes
            .iter()
            .map(|a| a.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// An archetype by id.
    pub fn archetype(&self, id: &str) -> Option<&ArchetypeDef> {
        self.roster.archetypes.iter().find(|a| a.id == id)
    }

    /// A condition's definition. DBU validation guarantees all 16 exist; a ruleset without
    /// conditions (power stages) never grants one, and scenarios cannot start a unit with one,
    /// but should one be asked for anyway it reads as a neutral, positive placeholder.
    pub fn condition(&self, kind: ConditionKind) -> &ConditionDef {
        static NONE: std::sync::OnceLock<ConditionDef> = std::sync::OnceLock::new();
        self.conditions
            .conditions
            .iter()
            .find(|c| c.rule.kind() == kind)
            .unwrap_or_else(|| {
                NONE.get_or_init(|| ConditionDef {
                    name: "Unknown condition".into(),
                    polarity: Polarity::Positive,
                    description: "Not a condition of this ruleset.".into(),
                    rule: ConditionRule::Superiority,
                })
            })
    }

    /// A size by id.
    pub fn size(&self, id: &str) -> Option<&SizeDef> {
        self.characters.sizes.iter().find(|s| s.id == id)
    }

    /// A Save by id.
    pub fn save(&self, id: &str) -> Option<&SaveDef> {
        self.characters.saves.iter().find(|s| s.id == id)
    }

    /// A skill by id.
    pub fn skill(&self, id: &str) -> Option<&SkillDef> {
        self.characters.skills.iter().find(|s| s.id == id)
    }

    /// The Target Number of a difficulty (validation guarantees referenced ones exist).
    pub fn difficulty(&self, id: &str) -> i64 {
        self.dice
            .difficulties
            .iter()
            .find(|d| d.id == id)
            .map_or(i64::MAX, |d| d.target)
    }

    /// How much of its Soak a target may use against a category.
    pub fn soak_fraction(&self, category: Category) -> Fraction {
        self.damage
            .categories
            .iter()
            .find(|c| c.category == category)
            .map_or(
                Fraction {
                    numerator: 1,
                    denominator: 1,
                    round_up: false,
                },
                |c| c.soak,
            )
    }

    /// The index of a terrain type by id.
    pub fn terrain_index(&self, id: &str) -> Option<u16> {
        self.terrain
            .types
            .iter()
            .position(|t| t.id == id)
            .and_then(|i| u16::try_from(i).ok())
    }

    /// The index of the terrain type drawn with `symbol`.
    pub fn terrain_by_symbol(&self, symbol: char) -> Option<u16> {
        self.terrain
            .types
            .iter()
            .position(|t| t.symbol == symbol)
            .and_then(|i| u16::try_from(i).ok())
    }

    /// The index of a threshold by id.
    pub fn threshold_index(&self, id: &str) -> Option<usize> {
        self.damage.thresholds.iter().position(|t| t.id == id)
    }
}
