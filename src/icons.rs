//! Which icon stands for which game id (`assets/icons/icons.ron`): conditions, unit archetypes,
//! attack profiles and action-bar actions, each a PNG in `assets/icons/game-icons/`. Plain data,
//! so tests and tools check it without a window; the window draws what it names and falls
//! back on letters for an id it does not name (a modder's archetype, say).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The map file, below `assets/`.
pub const MAP_FILE: &str = "icons/icons.ron";
/// The icons' folder, below `assets/`.
pub const ICON_DIR: &str = "icons/game-icons";

/// Why the icon map could not be read.
#[derive(Debug, thiserror::Error)]
pub enum IconError {
    #[error("{}: {source}", file.display())]
    Read {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{line}:{col}: {message}", file.display())]
    Parse {
        file: PathBuf,
        line: usize,
        col: usize,
        message: String,
    },
}

/// Each kind of id and the icon (a file stem) it shows. A `"ruleset/id"` key overrides the
/// plain `"id"` for one ruleset, where the same id means something else there.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IconMap {
    /// By condition name, lower case with spaces as underscores (`guard_down`).
    #[serde(default)]
    pub conditions: BTreeMap<String, String>,
    /// By roster archetype id.
    #[serde(default)]
    pub archetypes: BTreeMap<String, String>,
    /// By attack profile id (a Digimon attack's `+bolstered` twin takes its attack's).
    #[serde(default)]
    pub profiles: BTreeMap<String, String>,
    /// By action name as the key bindings name it (`EndTurn`), and the defense answers.
    #[serde(default)]
    pub actions: BTreeMap<String, String>,
}

impl IconMap {
    /// Where the shipped map is.
    pub fn shipped_path() -> PathBuf {
        crate::scenario::assets_root().join(MAP_FILE)
    }

    /// The shipped icons' folder.
    pub fn dir() -> PathBuf {
        crate::scenario::assets_root().join(ICON_DIR)
    }

    /// Where an icon's PNG is.
    pub fn file_of(stem: &str) -> PathBuf {
        Self::dir().join(format!("{stem}.png"))
    }

    /// Reads a map file; a broken one is an error naming its line and column.
    pub fn load(file: &Path) -> Result<Self, IconError> {
        let text = std::fs::read_to_string(file).map_err(|source| IconError::Read {
            file: file.to_path_buf(),
            source,
        })?;
        ron::from_str(&text).map_err(|e| IconError::Parse {
            file: file.to_path_buf(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })
    }

    fn pick<'a>(map: &'a BTreeMap<String, String>, ruleset: &str, id: &str) -> Option<&'a str> {
        map.get(&format!("{ruleset}/{id}"))
            .or_else(|| map.get(id))
            .map(String::as_str)
    }

    /// The icon of the condition called `name` (as its table names it) in `ruleset`.
    pub fn condition(&self, ruleset: &str, name: &str) -> Option<&str> {
        let key = name.trim().to_lowercase().replace([' ', '-'], "_");
        Self::pick(&self.conditions, ruleset, &key)
    }

    /// The icon of a roster archetype.
    pub fn archetype(&self, ruleset: &str, id: &str) -> Option<&str> {
        Self::pick(&self.archetypes, ruleset, id)
    }

    /// The icon of an attack profile.
    pub fn profile(&self, ruleset: &str, id: &str) -> Option<&str> {
        let id = id.strip_suffix("+bolstered").unwrap_or(id);
        Self::pick(&self.profiles, ruleset, id)
    }

    /// The icon of an action-bar action or a defense answer (`DefenseChoice`'s name) in
    /// `ruleset`.
    pub fn action(&self, ruleset: &str, name: &str) -> Option<&str> {
        Self::pick(&self.actions, ruleset, name)
    }

    /// Every icon the map names, once each.
    pub fn stems(&self) -> BTreeSet<&str> {
        [
            &self.conditions,
            &self.archetypes,
            &self.profiles,
            &self.actions,
        ]
        .into_iter()
        .flat_map(|m| m.values().map(String::as_str))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> IconMap {
        ron::from_str(
            r#"(conditions: {"prone": "falling", "d20/prone": "crawl", "guard_down": "shield"},
                profiles: {"claw": "claws"}, actions: {"EndTurn": "hourglass"})"#,
        )
        .expect("test map parses")
    }

    #[test]
    fn a_ruleset_key_overrides_the_plain_one() {
        assert_eq!(map().condition("dbu", "Prone"), Some("falling"));
        assert_eq!(map().condition("d20", "prone"), Some("crawl"));
    }

    #[test]
    fn condition_names_are_keyed_lower_case_with_underscores() {
        assert_eq!(map().condition("dbu", "Guard Down"), Some("shield"));
        assert_eq!(map().condition("dbu", "Unknown"), None);
    }

    #[test]
    fn a_bolstered_attack_takes_its_attacks_icon() {
        assert_eq!(map().profile("digimon", "claw+bolstered"), Some("claws"));
        assert_eq!(map().action("dbu", "EndTurn"), Some("hourglass"));
    }

    #[test]
    fn a_broken_map_names_its_line() {
        let dir = std::env::temp_dir().join(format!("gridclash-icons-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("icons.ron");
        std::fs::write(&file, "(\n  conditions: {\"a\": 3},\n)\n").expect("write");
        let err = IconMap::load(&file).expect_err("a number is not a stem");
        let text = err.to_string();
        assert!(text.contains("icons.ron:2:"), "{text}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
