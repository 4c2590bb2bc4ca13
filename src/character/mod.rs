//! Characters of your own: one roster entry of a ruleset's family, made in the character
//! editor, checked by the ruleset's own roster rules, kept in the user folder and carried by
//! the scenarios that field it.
//!
//! A character is written in its family's own roster format (a DBU archetype, a d20
//! character, a Digimon, a ninja, a personality), so everything that reads a roster reads it:
//! [`add_to`] appends a scenario's characters to its ruleset's roster and lowers the tables
//! again, and from there battles, `simulate`, `odds`, saves and replays treat it like any
//! shipped combatant.

pub mod points;
mod sheet;
pub mod team;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::ruleset::d20::CharacterDef;
use crate::ruleset::digimon::DigimonDef;
use crate::ruleset::shinobi::NinjaDef;
use crate::ruleset::stages::PersonalityDef;
use crate::ruleset::{ArchetypeDef, FamilyData, FieldPath, Rules};

pub use sheet::{Field, Refusal, Value};

/// One character in its family's roster format: the variant names the family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Character {
    /// A DBU archetype (`roster.ron` `archetypes`).
    Dbu(Box<ArchetypeDef>),
    /// A d20 character (`roster.ron` `characters`).
    D20(CharacterDef),
    /// A Digimon (`roster.ron` `digimon`).
    Digimon(DigimonDef),
    /// A ninja (`roster.ron` `ninja`).
    Shinobi(NinjaDef),
    /// A power-stages personality (`roster.ron` `personalities`).
    Stages(PersonalityDef),
}

/// A character file of the user folder: the ruleset it was made for, and the character.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterFile {
    pub ruleset: String,
    pub character: Character,
}

/// One thing wrong with a character: the field (as its roster path, `stats.STR`) and the
/// rule that forbids it, in the ruleset's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

/// Why a character file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CharacterError {
    #[error(transparent)]
    Rules(#[from] crate::ruleset::RulesError),
    #[error("{}: {source}", file.display())]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("the character could not be written as RON: {0}")]
    Ron(#[from] ron::Error),
}

impl Character {
    /// The roster entries of `rules` a new character can start from (a Digimon ruleset's
    /// Tamers are not made here: they are partners, not fighters of their own).
    pub fn templates(rules: &Rules) -> Vec<Character> {
        match &rules.family {
            FamilyData::Dbu => rules
                .roster
                .archetypes
                .iter()
                .filter(|a| !a.minion)
                .map(|a| Character::Dbu(Box::new(a.clone())))
                .collect(),
            FamilyData::D20(d) => d.roster.characters.iter().cloned().map(Self::D20).collect(),
            FamilyData::Digimon(d) => d
                .roster
                .digimon
                .iter()
                .cloned()
                .map(Self::Digimon)
                .collect(),
            FamilyData::Shinobi(d) => d.roster.ninja.iter().cloned().map(Self::Shinobi).collect(),
            FamilyData::PowerStages(d) => d
                .roster
                .personalities
                .iter()
                .cloned()
                .map(Self::Stages)
                .collect(),
        }
    }

    /// The id scenarios name it by (`archetype:`).
    pub fn id(&self) -> &str {
        match self {
            Self::Dbu(c) => &c.id,
            Self::D20(c) => &c.id,
            Self::Digimon(c) => &c.id,
            Self::Shinobi(c) => &c.id,
            Self::Stages(c) => &c.id,
        }
    }

    /// The name shown on its token's panel and in the log.
    pub fn name(&self) -> &str {
        match self {
            Self::Dbu(c) => &c.name,
            Self::D20(c) => &c.name,
            Self::Digimon(c) => &c.name,
            Self::Shinobi(c) => &c.name,
            Self::Stages(c) => &c.name,
        }
    }

    /// Renames it: the id becomes the name's slug (`Red Lotus` → `red_lotus`) and the glyph
    /// its first two letters, so a renamed copy of a template never shares the template's id.
    pub fn rename(&mut self, name: &str) {
        let id = slug(name);
        let glyph = glyph(name);
        let description = format!("{name}: a character of your own.");
        macro_rules! set {
            ($c:expr) => {{
                $c.name = name.to_string();
                $c.id = id;
                $c.glyph = glyph;
                $c.description = description;
            }};
        }
        match self {
            Self::Dbu(c) => set!(c),
            Self::D20(c) => set!(c),
            Self::Digimon(c) => set!(c),
            Self::Shinobi(c) => set!(c),
            Self::Stages(c) => set!(c),
        }
    }

    /// Whether it is written in the format of `rules`' family.
    pub fn fits(&self, rules: &Rules) -> bool {
        matches!(
            (self, &rules.family),
            (Self::Dbu(_), FamilyData::Dbu)
                | (Self::D20(_), FamilyData::D20(_))
                | (Self::Digimon(_), FamilyData::Digimon(_))
                | (Self::Shinobi(_), FamilyData::Shinobi(_))
                | (Self::Stages(_), FamilyData::PowerStages(_))
        )
    }

    /// Everything the ruleset's roster rules find wrong with it, as if it were the last entry
    /// of `roster.ron` (an id a roster entry already uses is one of them). The checks are the
    /// loader's own, build limits included, so the editor and the loader cannot disagree.
    pub fn problems(&self, rules: &Rules) -> Vec<Problem> {
        let file = rules.dir.join("roster.ron");
        let rules_file = (rules.dir.join("(rules)"), String::new());
        let roster_file = (file.clone(), String::new());
        let (list, index, errors) = match (self, &rules.family) {
            (Self::Dbu(c), FamilyData::Dbu) => {
                let mut errors =
                    crate::ruleset::archetype_errors(rules, &file, "", &FieldPath::root(), c);
                if rules.archetype(&c.id).is_some() {
                    errors.push(crate::ruleset::RulesError::at(
                        &file,
                        "",
                        &FieldPath::root().field("id"),
                        format!("`{}` is a roster archetype's id already", c.id),
                    ));
                }
                ("", 0, errors)
            }
            (Self::D20(c), FamilyData::D20(d)) => {
                let mut roster = d.roster.clone();
                roster.characters.push(c.clone());
                let n = roster.characters.len() - 1;
                let errors =
                    crate::ruleset::d20::validate(&d.combat, &roster, &rules_file, &roster_file);
                ("characters", n, errors)
            }
            (Self::Digimon(c), FamilyData::Digimon(d)) => {
                let mut roster = d.roster.clone();
                roster.digimon.push(c.clone());
                let n = roster.digimon.len() - 1;
                let errors = crate::ruleset::digimon::validate(
                    &d.combat,
                    &roster,
                    &rules_file,
                    &roster_file,
                );
                ("digimon", n, errors)
            }
            (Self::Shinobi(c), FamilyData::Shinobi(d)) => {
                let mut roster = d.roster.clone();
                roster.ninja.push(c.clone());
                let n = roster.ninja.len() - 1;
                let errors = crate::ruleset::shinobi::validate(
                    &d.combat,
                    &roster,
                    &rules_file,
                    &roster_file,
                );
                ("ninja", n, errors)
            }
            (Self::Stages(c), FamilyData::PowerStages(d)) => {
                let mut roster = d.roster.clone();
                roster.personalities.push(c.clone());
                let n = roster.personalities.len() - 1;
                let errors =
                    crate::ruleset::stages::validate(&d.combat, &roster, &rules_file, &roster_file);
                ("personalities", n, errors)
            }
            _ => {
                return vec![Problem {
                    field: String::new(),
                    message: format!(
                        "this character is not written for the ruleset `{}` (its family is {:?})",
                        rules.manifest.id, rules.manifest.family
                    ),
                }];
            }
        };
        let prefix = if list.is_empty() {
            String::new()
        } else {
            format!("{list}[{index}]")
        };
        errors
            .into_iter()
            .filter_map(|e| match e {
                crate::ruleset::RulesError::Invalid { field, message, .. } => {
                    let rest = if prefix.is_empty() {
                        Some(field.as_str())
                    } else {
                        field.strip_prefix(prefix.as_str())
                    }?;
                    // `characters[1]` must not claim `characters[10]`'s problems.
                    if !(prefix.is_empty() || rest.is_empty() || rest.starts_with(['.', '['])) {
                        return None;
                    }
                    let rest = rest.trim_start_matches('.');
                    let rest = if rest == "(file)" { "" } else { rest };
                    Some(Problem {
                        field: rest.to_string(),
                        message,
                    })
                }
                crate::ruleset::RulesError::Unreadable { .. } => None,
            })
            .collect()
    }
}

/// `rules` with `characters` added to its roster and its tables lowered again: the ruleset a
/// scenario carrying them is played with. Each character's problems are returned by its
/// index when any has one; `data_hash` then also covers the characters, so a save or replay
/// notices when one was changed.
pub fn add_to(rules: &Rules, characters: &[Character]) -> Result<Rules, Vec<(usize, Problem)>> {
    let mut problems = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (i, c) in characters.iter().enumerate() {
        problems.extend(c.problems(rules).into_iter().map(|p| (i, p)));
        if !seen.insert(c.id()) {
            problems.push((
                i,
                Problem {
                    field: "id".into(),
                    message: format!("`{}` is used by another character of this scenario", c.id()),
                },
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut out = rules.clone();
    if characters.is_empty() {
        return Ok(out);
    }
    for c in characters {
        match (c, &mut out.family) {
            (Character::Dbu(a), FamilyData::Dbu) => out.roster.archetypes.push((**a).clone()),
            (Character::D20(a), FamilyData::D20(d)) => d.roster.characters.push(a.clone()),
            (Character::Digimon(a), FamilyData::Digimon(d)) => d.roster.digimon.push(a.clone()),
            (Character::Shinobi(a), FamilyData::Shinobi(d)) => d.roster.ninja.push(a.clone()),
            (Character::Stages(a), FamilyData::PowerStages(d)) => {
                d.roster.personalities.push(a.clone())
            }
            _ => unreachable!("problems() refuses a character of another family"),
        }
    }
    out.relower();
    let text = ron::to_string(characters).unwrap_or_default();
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&out.data_hash.to_le_bytes());
    h.update(text.as_bytes());
    out.data_hash = h.digest();
    Ok(out)
}

/// The user folder's characters: `characters/` in the data directory `data`, one folder per
/// ruleset id.
pub fn user_dir_in(data: &Path) -> PathBuf {
    data.join("characters")
}

/// Where a character of `ruleset` with id `id` is kept in the data directory `data`.
pub fn file_in(data: &Path, ruleset: &str, id: &str) -> PathBuf {
    user_dir_in(data).join(ruleset).join(format!("{id}.ron"))
}

/// The characters kept for `ruleset` in the data directory `data`, sorted by file name, each
/// read or with the error that names its file, line and field.
pub fn read_all(data: &Path, ruleset: &str) -> Vec<(PathBuf, Result<Character, CharacterError>)> {
    crate::paths::ron_files(&user_dir_in(data).join(ruleset))
        .into_iter()
        .map(|f| {
            let read = read(&f).and_then(|cf| {
                if cf.ruleset == ruleset {
                    Ok(cf.character)
                } else {
                    Err(crate::ruleset::RulesError::at(
                        &f,
                        "",
                        &FieldPath::root().field("ruleset"),
                        format!("made for `{}`, kept in the `{ruleset}` folder", cf.ruleset),
                    )
                    .into())
                }
            });
            (f, read)
        })
        .collect()
}

/// Reads one character file.
pub fn read(file: &Path) -> Result<CharacterFile, CharacterError> {
    let src = crate::ruleset::read_text(file)?;
    Ok(crate::ruleset::parse_ron(file, &src)?)
}

/// The character as its file's text: a comment line, then the ruleset and the character in
/// the roster's own format.
pub fn file_text(ruleset: &str, character: &Character) -> Result<String, CharacterError> {
    let file = CharacterFile {
        ruleset: ruleset.to_string(),
        character: character.clone(),
    };
    let pretty = ron::ser::PrettyConfig::new()
        .struct_names(false)
        .compact_maps(true)
        .compact_arrays(true);
    let body = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .to_string_pretty(&file, pretty)?;
    Ok(format!(
        "// {} — a character of your own, made in Gridclash's character editor.\n{body}\n",
        character.name()
    ))
}

/// Writes the character to the user folder of the data directory `data` (replacing an older
/// file of the same id) and returns its path.
pub fn save(data: &Path, ruleset: &str, character: &Character) -> Result<PathBuf, CharacterError> {
    let file = file_in(data, ruleset, character.id());
    let text = file_text(ruleset, character)?;
    let io = |source| CharacterError::Io {
        file: file.clone(),
        source,
    };
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(&file, text).map_err(io)?;
    Ok(file)
}

/// A name as an id: lower case letters, digits and `_`, never empty.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for ch in name.trim().chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.is_empty() {
        "character".into()
    } else {
        out
    }
}

/// The two letters drawn on a token: the name's first letter upper case, its next lower case.
fn glyph(name: &str) -> String {
    let mut letters = name.chars().filter(|c| c.is_alphanumeric());
    let first = letters.next().map(|c| c.to_uppercase().to_string());
    let second = letters.next().map(|c| c.to_lowercase().to_string());
    format!(
        "{}{}",
        first.unwrap_or_else(|| "?".into()),
        second.unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn character_names_become_ids_and_glyphs() {
        assert_eq!(slug("  Red Lotus!! "), "red_lotus");
        assert_eq!(slug("Ünal-2"), "nal_2");
        assert_eq!(slug("***"), "character");
        assert_eq!(glyph("red lotus"), "Re");
        assert_eq!(glyph(""), "?");
    }
}
