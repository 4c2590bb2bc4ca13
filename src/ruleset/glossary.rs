//! The ruleset's words for players: every pool, stat, condition, maneuver, attack type and term
//! the game prints, with the rule's own text. The help screen (F1) lists it and the window's
//! tooltips quote it, so both say what the data says. Conditions, maneuvers and attack types
//! come from their own tables (their `description`); everything else from the ruleset's
//! optional `glossary.ron`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::error::{RulesError, RulesErrors};
use super::locate::FieldPath;
use super::{FamilyData, Rules, parse_ron, read_text};

/// The file a ruleset directory may hold its glossary in.
pub const GLOSSARY_FILE: &str = "glossary.ron";

/// What sort of word an entry explains: the help screen groups by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TermKind {
    /// A pool spent and refilled: Life, Ki, Hit Points, chakra…
    Pool,
    /// A number on the unit's sheet: an attribute or a value derived from them.
    Stat,
    /// A condition or effect a combatant can be under (from the conditions table).
    Condition,
    /// An attack or maneuver (from the attack profiles).
    Maneuver,
    /// A kind of attack with its own reach and damage attribute (from the attack types).
    AttackType,
    /// Something a combatant does that is not an attack: Power Up, Recover, End turn…
    Action,
    /// Any other word of the rules: a roll, a modifier, a step of an attack.
    Term,
}

impl TermKind {
    /// The heading the help screen gives this kind, plural.
    pub fn heading(self) -> &'static str {
        match self {
            Self::Pool => "Pools",
            Self::Stat => "Stats",
            Self::Condition => "Conditions",
            Self::Maneuver => "Maneuvers",
            Self::AttackType => "Attack types",
            Self::Action => "Actions",
            Self::Term => "Terms",
        }
    }

    /// One word of this kind, as a tooltip names it.
    pub fn noun(self) -> &'static str {
        match self {
            Self::Pool => "pool",
            Self::Stat => "stat",
            Self::Condition => "condition",
            Self::Maneuver => "maneuver",
            Self::AttackType => "attack type",
            Self::Action => "action",
            Self::Term => "term",
        }
    }

    /// Every kind, in the help screen's order.
    pub const ALL: [TermKind; 7] = [
        Self::Pool,
        Self::Stat,
        Self::Condition,
        Self::Maneuver,
        Self::AttackType,
        Self::Action,
        Self::Term,
    ];
}

/// One word of the rules and what it means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlossaryEntry {
    /// The word as the game prints it, e.g. "Defense Value".
    pub term: String,
    /// Shorter forms the game also prints, e.g. "ToP" for Tier of Power.
    #[serde(default)]
    pub short: Vec<String>,
    pub kind: TermKind,
    /// The rule, in the rules text's words or a faithful paraphrase.
    pub text: String,
    /// Where the text comes from: a rules text's section, or the data file for our defaults.
    pub source: String,
}

/// The shape of `glossary.ron`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename = "Glossary")]
struct GlossaryFile {
    terms: Vec<GlossaryEntry>,
}

/// Every word of one ruleset, looked up by its term or any short form.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Glossary {
    entries: Vec<GlossaryEntry>,
    /// Every term and short form with its entry's index, longest first, for [`Self::segments`].
    words: Vec<(String, usize)>,
}

/// A piece of a text, and the glossary entry it names if it is one of the ruleset's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment<'a> {
    pub text: &'a str,
    /// Index into [`Glossary::entries`].
    pub entry: Option<usize>,
}

impl Glossary {
    /// The entries, grouped by kind in [`TermKind::ALL`] order, each group by term.
    pub fn entries(&self) -> &[GlossaryEntry] {
        &self.entries
    }

    /// The entry whose term or short form is exactly `word`.
    pub fn get(&self, word: &str) -> Option<&GlossaryEntry> {
        self.entries
            .iter()
            .find(|e| e.term == word || e.short.iter().any(|s| s == word))
    }

    /// Cuts `text` into plain pieces and the ruleset's words, so a window can make each word a
    /// link to its entry. A word counts only whole (not "Ki" in "Kiai") and exactly as
    /// written; the longest match wins ("Defense Value" over "Defense"). Phrases in `skip`
    /// (the combatants' names: "Ki Blaster") are never cut into words.
    pub fn segments<'a>(&self, text: &'a str, skip: &[&str]) -> Vec<Segment<'a>> {
        let mut out = Vec::new();
        let mut plain_from = 0;
        let mut i = 0;
        let whole = |at: usize, len: usize| {
            let before = text[..at].chars().next_back();
            let after = text[at + len..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        };
        while i < text.len() {
            let rest = &text[i..];
            // Inside a word nothing can start: a match must be whole.
            if text[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
            {
                i += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            }
            if let Some(name) = skip
                .iter()
                .filter(|n| !n.is_empty() && rest.starts_with(**n) && whole(i, n.len()))
                .max_by_key(|n| n.len())
            {
                i += name.len();
                continue;
            }
            if let Some((word, entry)) = self
                .words
                .iter()
                .find(|(w, _)| rest.starts_with(w.as_str()) && whole(i, w.len()))
            {
                if plain_from < i {
                    out.push(Segment {
                        text: &text[plain_from..i],
                        entry: None,
                    });
                }
                out.push(Segment {
                    text: &text[i..i + word.len()],
                    entry: Some(*entry),
                });
                i += word.len();
                plain_from = i;
                continue;
            }
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
        if plain_from < text.len() {
            out.push(Segment {
                text: &text[plain_from..],
                entry: None,
            });
        }
        out
    }

    /// A glossary of these entries, in [`TermKind::ALL`] order, each kind by term.
    pub fn new(mut entries: Vec<GlossaryEntry>) -> Self {
        entries.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.term.cmp(&b.term)));
        let mut words: Vec<(String, usize)> = entries
            .iter()
            .enumerate()
            .flat_map(|(i, e)| {
                std::iter::once(e.term.clone())
                    .chain(e.short.iter().cloned())
                    .map(move |w| (w, i))
            })
            .filter(|(w, _)| !w.is_empty())
            .collect();
        words.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        Self { entries, words }
    }

    /// The glossary of `rules`: the entries its tables describe, and those of `glossary.ron` in
    /// its directory if there is one. A word defined twice is an error naming the file, line
    /// and entry, and which table defined it first.
    pub fn load(rules: &Rules) -> Result<Self, RulesErrors> {
        let mut entries = generated(rules);
        let file = rules.dir.join(GLOSSARY_FILE);
        if file.exists() {
            let src = read_text(&file).map_err(|e| RulesErrors(vec![e]))?;
            let parsed: GlossaryFile = parse_ron(&file, &src).map_err(|e| RulesErrors(vec![e]))?;
            let problems = clashes(&entries, &parsed.terms, &file, &src);
            if !problems.is_empty() {
                return Err(RulesErrors(problems));
            }
            entries.extend(parsed.terms);
        }
        Ok(Self::new(entries))
    }
}

/// The entries the ruleset's tables already describe. Attributes only in DBU: the other
/// families' values are lowered into attributes with no text of their own, and their
/// `glossary.ron` explains them instead.
fn generated(rules: &Rules) -> Vec<GlossaryEntry> {
    let from = |name: &str| format!("{name} ({})", rules.manifest.id);
    let mut out = Vec::new();
    if matches!(rules.family, FamilyData::Dbu) {
        out.extend(rules.characters.attributes.iter().map(|a| GlossaryEntry {
            term: a.name.clone(),
            short: vec![a.id.clone()],
            kind: TermKind::Stat,
            text: a.description.clone(),
            source: from("characters.ron"),
        }));
    }
    out.extend(rules.conditions.conditions.iter().map(|c| GlossaryEntry {
        term: c.name.clone(),
        short: Vec::new(),
        kind: TermKind::Condition,
        text: c.description.clone(),
        source: from("conditions"),
    }));
    out.extend(rules.attacks.types.iter().map(|t| GlossaryEntry {
        term: t.name.clone(),
        short: Vec::new(),
        kind: TermKind::AttackType,
        text: t.description.clone(),
        source: from("attack types"),
    }));
    // Two profiles may share a name across attack types; the first one explains it.
    let mut add = |term: &str, kind: TermKind, text: &str, source: &str| {
        if !out.iter().any(|e| e.term == term) {
            out.push(GlossaryEntry {
                term: term.to_string(),
                short: Vec::new(),
                kind,
                text: text.to_string(),
                source: from(source),
            });
        }
    };
    for p in &rules.attacks.profiles {
        add(&p.name, TermKind::Maneuver, &p.description, "attacks");
    }
    // The families' own tables the shared ones do not hold: Digimon's attack effects (the
    // conditions of that game) and the card game's defense cards.
    if let Some(d) = rules.digimon() {
        for e in &d.combat.effects {
            add(
                &e.name,
                TermKind::Condition,
                &e.description,
                "digimon.ron effects",
            );
        }
    }
    if let Some(d) = rules.stages() {
        for c in &d.combat.cards {
            add(
                &c.name,
                TermKind::Maneuver,
                &c.description,
                "stages.ron cards",
            );
        }
    }
    out
}

/// A problem for each entry of the file whose term or short form is already defined, by the
/// tables or by an earlier entry of the file, and for each empty term or text.
fn clashes(
    generated: &[GlossaryEntry],
    file_terms: &[GlossaryEntry],
    file: &Path,
    src: &str,
) -> Vec<RulesError> {
    let mut problems = Vec::new();
    let mut seen: Vec<(String, String)> = generated
        .iter()
        .flat_map(|e| {
            let by = format!("the {:?} \"{}\" of {}", e.kind, e.term, e.source);
            std::iter::once(e.term.clone())
                .chain(e.short.iter().cloned())
                .map(move |w| (w, by.clone()))
        })
        .collect();
    for (i, e) in file_terms.iter().enumerate() {
        let at = FieldPath::root().field("terms").index(i);
        if e.term.trim().is_empty() || e.text.trim().is_empty() {
            problems.push(RulesError::at(
                file,
                src,
                &at,
                "an entry needs a term and a text",
            ));
        }
        for word in std::iter::once(&e.term).chain(&e.short) {
            if let Some((_, by)) = seen.iter().find(|(w, _)| w == word) {
                problems.push(RulesError::at(
                    file,
                    src,
                    &at,
                    format!("\"{word}\" is already defined by {by}; a word may be defined once"),
                ));
            }
        }
        let by = format!("entry terms[{i}] \"{}\" of {}", e.term, GLOSSARY_FILE);
        seen.extend(
            std::iter::once(e.term.clone())
                .chain(e.short.iter().cloned())
                .map(|w| (w, by.clone())),
        );
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(term: &str, short: &[&str]) -> GlossaryEntry {
        GlossaryEntry {
            term: term.into(),
            short: short.iter().map(|s| s.to_string()).collect(),
            kind: TermKind::Term,
            text: format!("about {term}"),
            source: "test".into(),
        }
    }

    fn linked<'a>(g: &Glossary, text: &'a str, skip: &[&str]) -> Vec<&'a str> {
        g.segments(text, skip)
            .into_iter()
            .filter(|s| s.entry.is_some())
            .map(|s| s.text)
            .collect()
    }

    #[test]
    fn glossary_links_whole_words_longest_first_and_skips_names() {
        let g = Glossary::new(vec![
            entry("Defense Value", &["DV"]),
            entry("Defense", &[]),
            entry("Ki Points", &["Ki"]),
        ]);
        let text = "Ki 12/20  Defense Value 3, Defense 2; Kiai; Ki Blaster hits (DV)";
        assert_eq!(
            linked(&g, text, &["Ki Blaster"]),
            ["Ki", "Defense Value", "Defense", "DV"]
        );
        // The pieces put back together are the text, unchanged.
        let whole: String = g.segments(text, &[]).iter().map(|s| s.text).collect();
        assert_eq!(whole, text);
    }

    #[test]
    fn glossary_segments_keep_unicode_text_whole() {
        let g = Glossary::new(vec![entry("Soak", &[])]);
        let text = "Soak × ½ — Soak";
        assert_eq!(linked(&g, text, &[]), ["Soak", "Soak"]);
        let whole: String = g.segments(text, &[]).iter().map(|s| s.text).collect();
        assert_eq!(whole, text);
    }
}
