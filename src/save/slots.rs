//! Where saves and replays live, and the slot list players choose from.
//!
//! Everything is under the data directory: `$GRIDCLASH_DATA_DIR` (or `--data-dir`) when set,
//! else the platform's user data directory (`~/.local/share/gridclash` on Linux,
//! `~/Library/Application Support/gridclash` on macOS, `%APPDATA%\gridclash` on Windows).
//! Saves are `saves/<slot>.ron`, replays `replays/<scenario>-<date>-seed<seed>.ron`.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{SaveError, SaveFile, atomic};

pub use crate::paths::DATA_DIR_ENV;

/// The quick-save slot (F5 saves, F9 loads).
pub const QUICK: &str = "quick";
/// The slot written at the start of every round.
pub const AUTO: &str = "autosave";

/// The data directory (see the module documentation).
pub fn data_dir() -> PathBuf {
    crate::paths::user_data_dir()
}

/// Where save slots are.
pub fn saves_dir(root: &Path) -> PathBuf {
    root.join("saves")
}

/// Where kept replays are.
pub fn replays_dir(root: &Path) -> PathBuf {
    root.join("replays")
}

/// Checks a slot name: 1 to 40 letters, digits, spaces, `-` or `_`, so it is a safe file name
/// on every platform.
pub fn check_name(name: &str) -> Result<(), SaveError> {
    let ok = !name.trim().is_empty()
        && name.chars().count() <= 40
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(SaveError::SlotName(name.to_string()))
    }
}

/// The file of a slot.
pub fn slot_path(root: &Path, name: &str) -> PathBuf {
    saves_dir(root).join(format!("{}.ron", name.trim()))
}

/// Writes a save into a slot, atomically.
pub fn write_slot(root: &Path, name: &str, save: &SaveFile) -> Result<PathBuf, SaveError> {
    check_name(name)?;
    let path = slot_path(root, name);
    write_file(&path, save)?;
    Ok(path)
}

/// Writes a save or replay to a file, atomically.
pub fn write_file(path: &Path, save: &SaveFile) -> Result<(), SaveError> {
    atomic::write(path, save.to_ron().as_bytes()).map_err(|e| SaveError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// Keeps a finished battle as a replay; returns its file.
pub fn keep_replay(root: &Path, replay: &SaveFile) -> Result<PathBuf, SaveError> {
    let stamp = chrono::Local::now().format("%Y%m%d-%H%M%S");
    let scenario = Path::new(&replay.scenario)
        .file_stem()
        .map_or_else(|| "battle".into(), |s| s.to_string_lossy().into_owned());
    let path = replays_dir(root).join(format!("{scenario}-{stamp}-seed{}.ron", replay.seed));
    write_file(&path, replay)?;
    Ok(path)
}

/// One file in a slot list: its name, when it was written, and what it holds, or why it
/// cannot be read (a broken slot is listed, never hidden, so the player knows).
#[derive(Debug)]
pub struct SlotInfo {
    pub name: String,
    pub path: PathBuf,
    pub modified: Option<SystemTime>,
    pub save: Result<SaveFile, String>,
}

impl SlotInfo {
    /// The date and time it was written, in local time.
    pub fn date(&self) -> String {
        self.modified.map_or_else(
            || "unknown date".into(),
            |t| {
                chrono::DateTime::<chrono::Local>::from(t)
                    .format("%Y-%m-%d %H:%M")
                    .to_string()
            },
        )
    }

    /// One line for lists: name, date, scenario, ruleset, round and sides.
    pub fn line(&self) -> String {
        match &self.save {
            Ok(s) => format!(
                "{}  {}  {} ({})  round {}  {}",
                self.name,
                self.date(),
                s.scenario,
                s.ruleset,
                s.round,
                s.sides_text()
            ),
            Err(e) => format!("{}  {}  cannot be read: {e}", self.name, self.date()),
        }
    }
}

/// Every `.ron` file in `dir`, newest first (temporary files of interrupted writes are
/// skipped).
pub fn list(dir: &Path) -> Vec<SlotInfo> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<SlotInfo> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| !n.to_string_lossy().starts_with('.'))
        })
        .map(|path| SlotInfo {
            name: path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
            modified: std::fs::metadata(&path).and_then(|m| m.modified()).ok(),
            save: SaveFile::read(&path)
                .map(|(s, _)| s)
                .map_err(|e| e.to_string()),
            path,
        })
        .collect();
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    out
}
