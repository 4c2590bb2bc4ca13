//! Saves and replays: a battle written down as its seed, its sides and every command with the
//! state hash after it. Battles are deterministic, so loading is replaying the commands, and
//! each hash proves the replay arrived where the original did.
//!
//! One format serves both: a save is a battle in progress, a replay a finished one. Files are
//! versioned RON ([`FORMAT`]); [`atomic`] writes them so a crash never leaves half a file;
//! [`slots`] finds them in the user's data directory.

pub mod atomic;
pub mod check;
pub mod slots;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ai::{Agent, Policy};
use crate::battle::Battle;
use crate::battle::command::Command;
use crate::battle::components::{Controller, Side};
use crate::dice::DiceSource;
use crate::ruleset::{FieldPath, RulesError, parse_ron};
use crate::scenario::{self, Loaded};
use crate::sim::battle_seed;

/// The save format this build writes and the newest it reads.
pub const FORMAT: u32 = 1;

/// The largest save file read (a battle of thousands of commands is well under a megabyte).
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// Whether a file holds a battle to continue or a finished one to watch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SaveKind {
    Save,
    Replay,
}

/// One side of a saved battle: who played it and how its units answer questions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSave {
    /// The side's name in the scenario (for the slot list).
    pub name: String,
    /// Who plays it, as `--sides` writes it: `human`, `human:pad1`, `ai:hard`…
    pub player: String,
    /// How its units answer defense, response and exploit questions when nobody is asked.
    pub controller: Controller,
    /// How far the side's computer player is into its random stream, so a loaded battle
    /// continues exactly as it would have.
    pub ai_stream: u64,
}

impl SideSave {
    /// The computer policy playing this side, if a computer plays it.
    pub fn policy(&self) -> Option<Policy> {
        ai_policy(&self.player)
    }
}

/// The computer policy a player string names (`ai` is the normal planner), if it names one.
fn ai_policy(player: &str) -> Option<Policy> {
    match player {
        "ai" => Some(Policy::Normal),
        p => p.strip_prefix("ai:").and_then(|l| l.parse().ok()),
    }
}

/// One command of the battle and the state hash right after it (16 hex digits).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub command: Command,
    pub hash: String,
}

/// How a finished battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    /// The winning side, or none for a draw.
    pub winner: Option<u8>,
    pub rounds: u32,
}

/// A save or replay file. Nothing in it depends on when it was written, so saving the same
/// battle twice gives the same bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// The save format ([`FORMAT`]); a newer one is refused with a message, never guessed at.
    pub format: u32,
    /// The Gridclash version that wrote it.
    pub game_version: String,
    pub kind: SaveKind,
    /// The ruleset id and the hash of its data files when the battle was played.
    pub ruleset: String,
    pub ruleset_hash: String,
    /// The scenario (a shipped scenario's id, or a file path) and the hash of its file.
    pub scenario: String,
    pub scenario_hash: String,
    pub seed: u64,
    /// The round when it was written, for slot lists.
    pub round: u32,
    pub sides: Vec<SideSave>,
    /// The state hash once the battle was set up, before any command.
    pub start_hash: String,
    pub commands: Vec<Entry>,
    /// How the battle ended (replays of finished battles).
    pub ending: Option<Ending>,
}

/// Why a battle could not be written down.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("this battle's dice are scripted, not seeded, so it cannot be saved")]
    NotSeeded,
    #[error("the save has {given} sides but the scenario has {sides}")]
    Sides { given: usize, sides: usize },
    #[error("{}: cannot write: {message}", path.display())]
    Write { path: PathBuf, message: String },
    #[error("`{0}` is not a slot name (use 1 to 40 letters, digits, spaces, - or _)")]
    SlotName(String),
}

/// Why a save or replay could not be loaded. The file is never changed by a failed load.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{}: cannot read: {message}", path.display())]
    Unreadable { path: PathBuf, message: String },
    #[error("{}: {bytes} bytes is more than a save can be ({MAX_BYTES} bytes)", path.display())]
    TooLarge { path: PathBuf, bytes: u64 },
    #[error("{}: not a text file (byte {offset} is not UTF-8): damaged or not a save", path.display())]
    NotText { path: PathBuf, offset: usize },
    /// Not valid RON, or a field is missing, unknown or of the wrong kind.
    #[error("{0}")]
    Malformed(RulesError),
    #[error(
        "{at}: written by a newer Gridclash (save format {found}; this build reads up to {FORMAT}): update the game to load it"
    )]
    NewerFormat { at: Box<Place>, found: u32 },
    #[error("{at}: save format {found} is not one this build reads")]
    UnknownFormat { at: Box<Place>, found: u32 },
    #[error("{at}: the scenario `{scenario}` cannot be loaded: {message}")]
    Scenario {
        at: Box<Place>,
        scenario: String,
        message: String,
    },
    #[error(
        "{at}: the save is for ruleset `{saved}` but its scenario `{scenario}` plays `{actual}`"
    )]
    OtherRuleset {
        at: Box<Place>,
        saved: String,
        scenario: String,
        actual: String,
    },
    /// The ruleset's or scenario's data changed since the battle was saved; it may still
    /// load (see [`Restore::accept_changed_data`]), but need not play out the same.
    #[error(
        "{at}: the {what} changed since this battle was saved (saved with data {saved}, now {now}); it may not replay the same"
    )]
    DataChanged {
        at: Box<Place>,
        what: String,
        saved: String,
        now: String,
    },
    #[error("{0}")]
    Sides(RulesError),
    /// A command the battle refuses: the file was edited, or the data changed.
    #[error("{0}")]
    Illegal(RulesError),
    /// A command led somewhere else than when it was saved.
    #[error("{0}")]
    Diverged(RulesError),
}

impl LoadError {
    /// True when only the ruleset's or scenario's data changed: the player may load anyway.
    pub fn is_data_changed(&self) -> bool {
        matches!(self, Self::DataChanged { .. })
    }
}

/// A hash as written in saves.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// How a shipped scenario is named in a save (its id), or any other by its absolute path, so
/// the save loads from any working directory.
pub fn scenario_ref(loaded: &Loaded) -> String {
    let id = loaded.id();
    // Compared as canonical paths: a shipped scenario named by a relative path is still the
    // shipped one (and saves the same name whichever way it was opened).
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let at = canonical(&loaded.path);
    if canonical(&scenario::find(&id)) == at {
        id
    } else {
        at.display().to_string()
    }
}

/// True for the players a save may name: `human`, `human:keyboard`, `human:pad1` to
/// `human:pad4`, `ai` and `ai:LEVEL` (what `--sides` accepts).
pub fn known_player(player: &str) -> bool {
    match player {
        "human" | "human:keyboard" => true,
        p => {
            p.strip_prefix("human:pad")
                .and_then(|n| n.parse::<u8>().ok())
                .is_some_and(|n| (1..=4).contains(&n))
                || ai_policy(p).is_some()
        }
    }
}

impl SaveFile {
    /// Writes a battle down: its seed, sides and every command with the hash after it.
    pub fn capture(
        kind: SaveKind,
        battle: &Battle,
        loaded: &Loaded,
        sides: Vec<SideSave>,
    ) -> Result<Self, SaveError> {
        let seed = battle.seed().ok_or(SaveError::NotSeeded)?;
        if sides.len() != loaded.scenario.sides.len() {
            return Err(SaveError::Sides {
                given: sides.len(),
                sides: loaded.scenario.sides.len(),
            });
        }
        let ending = battle.outcome().map(|o| Ending {
            winner: o.winner.map(|s| s.0),
            rounds: o.round,
        });
        Ok(Self {
            format: FORMAT,
            game_version: env!("CARGO_PKG_VERSION").to_string(),
            kind,
            ruleset: loaded.rules.manifest.id.clone(),
            ruleset_hash: hex(loaded.rules.data_hash),
            scenario: scenario_ref(loaded),
            scenario_hash: hex(loaded.source_hash),
            seed,
            round: battle.turn().round,
            sides,
            start_hash: hex(battle.start_hash()),
            commands: battle
                .history()
                .iter()
                .map(|p| Entry {
                    command: p.command.clone(),
                    hash: hex(p.hash),
                })
                .collect(),
            ending,
        })
    }

    /// The file's text: pretty RON, one command per entry, so a diff of two saves reads well.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .depth_limit(2)
            .struct_names(false)
            .new_line("\n".to_string());
        // Every field is a plain value, so serialising cannot fail; an empty string would be
        // refused by the loader rather than mistaken for a save.
        ron::ser::to_string_pretty(self, config).unwrap_or_default() + "\n"
    }

    /// Reads a save or replay file: size, encoding, format version and shape are checked and
    /// every problem names the file, line, column and field.
    pub fn read(path: &Path) -> Result<(Self, String), LoadError> {
        let unreadable = |e: std::io::Error| LoadError::Unreadable {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let bytes_len = std::fs::metadata(path).map_err(unreadable)?.len();
        if bytes_len > MAX_BYTES {
            return Err(LoadError::TooLarge {
                path: path.to_path_buf(),
                bytes: bytes_len,
            });
        }
        let bytes = std::fs::read(path).map_err(unreadable)?;
        let text = String::from_utf8(bytes).map_err(|e| LoadError::NotText {
            path: path.to_path_buf(),
            offset: e.utf8_error().valid_up_to(),
        })?;
        let save = Self::parse(path, &text)?;
        Ok((save, text))
    }

    /// Parses a save's text (`path` names it in messages). The format version is read first,
    /// so a newer save is reported as newer rather than as malformed.
    pub fn parse(path: &Path, text: &str) -> Result<Self, LoadError> {
        /// Only the version: read leniently, whatever else the file holds.
        #[derive(Deserialize)]
        struct Version {
            format: u32,
        }
        if let Ok(v) = ron::from_str::<Version>(text) {
            if v.format > FORMAT {
                return Err(LoadError::NewerFormat {
                    at: place(path, text, "format"),
                    found: v.format,
                });
            }
            if v.format == 0 {
                return Err(LoadError::UnknownFormat {
                    at: place(path, text, "format"),
                    found: v.format,
                });
            }
        }
        parse_ron::<Self>(path, text).map_err(LoadError::Malformed)
    }

    /// The sides as words for slot lists: "Saiyans (human) vs Raiders (ai:hard)".
    pub fn sides_text(&self) -> String {
        self.sides
            .iter()
            .map(|s| format!("{} ({})", s.name, s.player))
            .collect::<Vec<_>>()
            .join(" vs ")
    }
}

/// Options for [`restore`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Restore {
    /// Load even though the ruleset's or scenario's data changed since the save (the player
    /// was told and agreed); hashes are then not compared, but every command is still checked
    /// against the rules.
    pub accept_changed_data: bool,
}

/// A loaded battle, at the point it was saved.
pub struct Restored {
    pub loaded: Loaded,
    pub battle: Battle,
    pub sides: Vec<SideSave>,
    /// The computer players, continuing their streams (one per side; a person's side gets a
    /// `normal` agent for hints, as a new battle does).
    pub agents: Vec<Agent>,
    /// True when the data changed and the player chose to load anyway.
    pub data_changed: bool,
}

/// Where in a save file a problem is: its path, line, column and top-level field, shown as
/// `PATH:LINE:COL: FIELD` like every other positioned error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub path: PathBuf,
    pub line: usize,
    pub col: usize,
    pub field: String,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.col,
            self.field
        )
    }
}

/// The place of a top-level field of the save's `text`.
fn place(path: &Path, text: &str, field: &str) -> Box<Place> {
    match RulesError::at(path, text, &FieldPath::root().field(field), "") {
        RulesError::Invalid { line, col, .. } => Box::new(Place {
            path: path.to_path_buf(),
            line,
            col,
            field: field.to_string(),
        }),
        RulesError::Unreadable { .. } => Box::new(Place {
            path: path.to_path_buf(),
            line: 1,
            col: 1,
            field: field.to_string(),
        }),
    }
}

/// The position of a field of the save, for messages.
fn at(path: &Path, text: &str, field: &FieldPath, message: String) -> RulesError {
    RulesError::at(path, text, field, message)
}

/// Rebuilds the battle a save describes by replaying its commands, checking the state hash
/// after each one. `text` is the file's text, for positions in messages.
pub fn restore(
    save: &SaveFile,
    path: &Path,
    text: &str,
    opts: Restore,
) -> Result<Restored, LoadError> {
    let root = FieldPath::root();
    let scenario_path = scenario::find(&save.scenario);
    let loaded = scenario::load(&scenario_path).map_err(|e| LoadError::Scenario {
        at: place(path, text, "scenario"),
        scenario: save.scenario.clone(),
        message: e.to_string(),
    })?;
    let actual = &loaded.rules.manifest.id;
    if *actual != save.ruleset {
        return Err(LoadError::OtherRuleset {
            at: place(path, text, "ruleset"),
            saved: save.ruleset.clone(),
            scenario: save.scenario.clone(),
            actual: actual.clone(),
        });
    }
    let mut data_changed = false;
    for (field, what, saved, now) in [
        (
            "ruleset_hash",
            format!("ruleset `{}`", save.ruleset),
            &save.ruleset_hash,
            hex(loaded.rules.data_hash),
        ),
        (
            "scenario_hash",
            format!("scenario `{}`", save.scenario),
            &save.scenario_hash,
            hex(loaded.source_hash),
        ),
    ] {
        if *saved != now {
            if !opts.accept_changed_data {
                return Err(LoadError::DataChanged {
                    at: place(path, text, field),
                    what,
                    saved: saved.clone(),
                    now,
                });
            }
            data_changed = true;
        }
    }
    let sides_n = loaded.scenario.sides.len();
    if save.sides.len() != sides_n {
        return Err(LoadError::Sides(at(
            path,
            text,
            &root.field("sides"),
            format!(
                "{} sides saved but the scenario has {sides_n}",
                save.sides.len()
            ),
        )));
    }
    for (i, s) in save.sides.iter().enumerate() {
        if !known_player(&s.player) {
            return Err(LoadError::Sides(at(
                path,
                text,
                &root.field("sides").index(i).field("player"),
                format!(
                    "`{}` is not a player (human, human:keyboard, human:pad1-4, ai or ai:LEVEL)",
                    s.player
                ),
            )));
        }
    }
    let mut setup = loaded.setup(Controller::default());
    for unit in &mut setup.units {
        if let Some(s) = save.sides.get(usize::from(unit.side)) {
            unit.controller = s.controller;
        }
    }
    let mut battle = Battle::new(
        Arc::clone(&loaded.rules),
        &setup,
        DiceSource::seeded(save.seed),
    )
    .map_err(|e| LoadError::Scenario {
        at: place(path, text, "scenario"),
        scenario: save.scenario.clone(),
        message: e.to_string(),
    })?;
    let check_hashes = !data_changed;
    if check_hashes && hex(battle.start_hash()) != save.start_hash {
        return Err(LoadError::Diverged(at(
            path,
            text,
            &root.field("start_hash"),
            format!(
                "the battle set up from seed {} has state {}, not {}: the seed or start hash was changed",
                save.seed,
                hex(battle.start_hash()),
                save.start_hash
            ),
        )));
    }
    for (k, entry) in save.commands.iter().enumerate() {
        let field = root.field("commands").index(k);
        battle.submit(entry.command.clone()).map_err(|e| {
            LoadError::Illegal(at(
                path,
                text,
                &field.field("command"),
                format!("command {} is refused by the rules: {e}", k + 1),
            ))
        })?;
        let got = battle.history().last().map_or(0, |p| p.hash);
        if check_hashes && hex(got) != entry.hash {
            return Err(LoadError::Diverged(at(
                path,
                text,
                &field.field("hash"),
                format!(
                    "command {} ({}) diverges: the state after it hashes to {}, the save says {}",
                    k + 1,
                    crate::battle::command_name(&entry.command),
                    hex(got),
                    entry.hash
                ),
            )));
        }
    }
    let agents = save
        .sides
        .iter()
        .enumerate()
        .map(|(s, side)| {
            Agent::resume(
                side.policy().unwrap_or(Policy::Normal),
                battle_seed(save.seed, 1000 + s as u64),
                side.ai_stream,
            )
        })
        .collect();
    Ok(Restored {
        loaded,
        battle,
        sides: save.sides.clone(),
        agents,
        data_changed,
    })
}

/// Reads and restores a file in one step.
pub fn load(path: &Path, opts: Restore) -> Result<(SaveFile, Restored), LoadError> {
    let (save, text) = SaveFile::read(path)?;
    let restored = restore(&save, path, &text, opts)?;
    Ok((save, restored))
}

/// The sides of a battle where the computer plays every side, for saves and replays written
/// by the simulator and `gridclash record`.
pub fn ai_sides(loaded: &Loaded, agents: &[Agent]) -> Vec<SideSave> {
    loaded
        .scenario
        .sides
        .iter()
        .enumerate()
        .map(|(s, def)| {
            let agent = agents.get(s);
            SideSave {
                name: def.name.clone(),
                player: agent.map_or_else(|| "ai".into(), |a| format!("ai:{}", a.policy)),
                controller: Controller::default(),
                ai_stream: agent.map_or(0, Agent::stream_pos),
            }
        })
        .collect()
}

/// What [`verify`] found in a replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub commands: usize,
    pub final_hash: String,
    pub ending: Option<Ending>,
}

/// Re-simulates a replay headless and compares the hash after every command; the error
/// names the first command that diverges. A replay that records an ending must reach it.
pub fn verify(path: &Path) -> Result<Verified, LoadError> {
    let (save, text) = SaveFile::read(path)?;
    let mut restored = restore(&save, path, &text, Restore::default())?;
    let battle = &mut restored.battle;
    let ending = battle.outcome().map(|o| Ending {
        winner: o.winner.map(|Side(s)| s),
        rounds: o.round,
    });
    if save.ending.is_some() && ending != save.ending {
        return Err(LoadError::Diverged(at(
            path,
            &text,
            &FieldPath::root().field("ending"),
            format!(
                "the replay ends {:?} but the save says {:?}",
                ending, save.ending
            ),
        )));
    }
    Ok(Verified {
        commands: save.commands.len(),
        final_hash: hex(battle.state_hash()),
        ending,
    })
}
