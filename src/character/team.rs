//! Teams of your own: a side's units as the skirmish builder saved them, kept in the user
//! folder (`teams/RULESET/NAME.ron`) and loaded into any side of a later skirmish.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{CharacterError, slug};
use crate::ruleset::{FieldPath, Rules, RulesError};

/// A team file: the ruleset, the team's name, and its units as roster ids (or the ids of the
/// player's own characters, kept in the characters folder).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Team {
    pub ruleset: String,
    pub name: String,
    pub units: Vec<String>,
}

impl Team {
    /// The ids `rules` does not know (with the player's own characters added): a team saved
    /// before a character was deleted or a roster entry renamed.
    pub fn unknown_units<'a>(&'a self, rules: &Rules) -> Vec<&'a str> {
        self.units
            .iter()
            .filter(|id| rules.archetype(id).is_none())
            .map(String::as_str)
            .collect()
    }
}

/// The teams folder of the data directory `data`, one folder per ruleset id.
pub fn dir_in(data: &Path) -> PathBuf {
    data.join("teams")
}

/// Writes `team` into the teams folder (a team of the same name is replaced) and returns
/// its path.
pub fn save(data: &Path, team: &Team) -> Result<PathBuf, CharacterError> {
    let file = dir_in(data)
        .join(&team.ruleset)
        .join(format!("{}.ron", slug(&team.name)));
    let pretty = ron::ser::PrettyConfig::new().compact_arrays(true);
    let text = format!(
        "// A team saved by Gridclash's skirmish builder.\n{}\n",
        ron::ser::to_string_pretty(team, pretty)?
    );
    let io = |source| CharacterError::Io {
        file: file.clone(),
        source,
    };
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    std::fs::write(&file, text).map_err(io)?;
    Ok(file)
}

/// The teams kept for `ruleset` in the data directory `data`, sorted by file name, each read
/// or with the error that names its file, line and field.
pub fn read_all(data: &Path, ruleset: &str) -> Vec<(PathBuf, Result<Team, CharacterError>)> {
    crate::paths::ron_files(&dir_in(data).join(ruleset))
        .into_iter()
        .map(|f| {
            let read = crate::ruleset::read_text(&f)
                .and_then(|src| crate::ruleset::parse_ron::<Team>(&f, &src))
                .map_err(CharacterError::from)
                .and_then(|t| {
                    if t.ruleset == ruleset {
                        Ok(t)
                    } else {
                        Err(RulesError::at(
                            &f,
                            "",
                            &FieldPath::root().field("ruleset"),
                            format!("made for `{}`, kept in the `{ruleset}` folder", t.ruleset),
                        )
                        .into())
                    }
                });
            (f, read)
        })
        .collect()
}
