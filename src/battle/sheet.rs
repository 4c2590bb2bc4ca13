//! The unit sheet: a combatant's panel as its ruleset's family shows it (pools, stats, what is
//! left of its turn, conditions or effects, what it can attack with), a view model in the core
//! that the window lays out and colours and that tests can read without a window.

use super::components::CombatantId;
use super::event::Names;
use super::fighter::Fighter;
use crate::ruleset::Rules;

/// What a sheet may read of the battle beyond the combatant itself.
pub struct SheetContext<'a> {
    pub rules: &'a Rules,
    /// Every combatant's name, for partners, sources and Clash opponents.
    pub names: &'a Names,
    /// Whose turn it is.
    pub active: Option<CombatantId>,
    /// The one who handed its turn over and waits to take it back (Digimon).
    pub paused: Option<CombatantId>,
    /// The battlefield, for what the ground a unit stands on does to it (shinobi: swimming).
    pub field: crate::grid::Field<'a>,
}

/// A combatant's sheet: what it is, a note for the side line, and its sections (pools, stats,
/// turn, gear, conditions…), each a heading over a grid of figures and lines of words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitSheet {
    /// What the unit is: its archetype, ninja, character, or Digimon form and stage.
    pub kind: String,
    /// Added to the line naming its side (a Digimon's partner).
    pub side_note: String,
    /// The sheet's parts in reading order; a section with nothing in it is not kept.
    pub sections: Vec<SheetSection>,
    /// The words of the rules the sheet prints (pools, stats, conditions…), each of which the
    /// ruleset's glossary explains: the window links them to it, and a test holds every
    /// family's sheet to it.
    pub labels: Vec<String>,
}

impl UnitSheet {
    /// A sheet of `kind` from its sections, empty ones dropped.
    pub fn new(kind: String, sections: Vec<SheetSection>, labels: Vec<String>) -> Self {
        Self {
            kind,
            side_note: String::new(),
            sections: sections.into_iter().filter(|s| !s.is_empty()).collect(),
            labels,
        }
    }

    /// The sheet as plain text, a section's heading on its own line, then its figures on one
    /// line and its lines: what the command line and tests read.
    pub fn body(&self) -> String {
        self.sections
            .iter()
            .map(SheetSection::text)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every piece of words the window shows as one text: headings, each figure's label and
    /// each line. The glossary links each on its own, so a test checks them one by one.
    pub fn texts(&self) -> Vec<&str> {
        self.sections
            .iter()
            .flat_map(|s| {
                std::iter::once(s.heading.as_str())
                    .chain(s.cells.iter().map(|c| c.label.as_str()))
                    .chain(s.lines.iter().map(String::as_str))
            })
            .collect()
    }
}

/// How a figure is coloured: a pool by how full it is, a stat that an effect changed, a state
/// that stops the unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tone {
    /// An ordinary figure.
    #[default]
    Plain,
    /// A pool at half or more.
    Good,
    /// A pool under half.
    Low,
    /// A pool under a quarter, or a spent resource the unit needs.
    Critical,
    /// A stat that is not its base value now (an effect or condition changed it).
    Changed,
}

/// How full a pool is, as its figure's colour: half or more good, under half low, under a
/// quarter critical.
pub fn pool_tone(current: i64, max: i64) -> Tone {
    if max <= 0 || current * 2 >= max {
        Tone::Good
    } else if current * 4 >= max {
        Tone::Low
    } else {
        Tone::Critical
    }
}

/// One figure of a sheet: a rule's word and its value, e.g. `Life` `213/213`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetCell {
    /// The rule's word, which the window links to the glossary.
    pub label: String,
    /// What it is now, as the player reads it.
    pub value: String,
    /// How the window colours the value.
    pub tone: Tone,
}

/// A part of a sheet under its heading: its figures laid out as a grid, then lines of words
/// (conditions, gear, attacks) one to a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetSection {
    /// The section's name over its grid (Pools, Attributes, Effects…).
    pub heading: String,
    /// The figures, laid out as a grid.
    pub cells: Vec<SheetCell>,
    /// Words too long for a grid cell (gear, conditions, attacks), one to a row.
    pub lines: Vec<String>,
    /// A part a player reads when studying the unit rather than in the middle of an attack
    /// (gear, skills, the attack list): the window may fold it while the odds panel needs the
    /// room.
    pub detail: bool,
}

impl SheetSection {
    /// An empty section under `heading`.
    pub fn new(heading: impl Into<String>) -> Self {
        Self {
            heading: heading.into(),
            cells: Vec::new(),
            lines: Vec::new(),
            detail: false,
        }
    }

    /// The section marked as a detail (see [`SheetSection::detail`]).
    pub fn detail(mut self) -> Self {
        self.detail = true;
        self
    }

    /// The section with a plain figure added.
    pub fn cell(self, label: impl Into<String>, value: impl ToString) -> Self {
        self.toned(label, value, Tone::Plain)
    }

    /// The section with a coloured figure added.
    pub fn toned(mut self, label: impl Into<String>, value: impl ToString, tone: Tone) -> Self {
        self.cells.push(SheetCell {
            label: label.into(),
            value: value.to_string(),
            tone,
        });
        self
    }

    /// The section with a pool added, `current/max` coloured by how full it is.
    pub fn pool(self, label: impl Into<String>, current: i64, max: i64) -> Self {
        self.toned(label, format!("{current}/{max}"), pool_tone(current, max))
    }

    /// The section with what is left of a turn's budget added (actions, AP), `left of of`
    /// when the budget is given, green while any is left and red when none is.
    pub fn left(self, label: impl Into<String>, left: u32, of: Option<u32>) -> Self {
        let value = of.map_or(left.to_string(), |of| format!("{left} of {of}"));
        let tone = if left > 0 { Tone::Good } else { Tone::Critical };
        self.toned(label, value, tone)
    }

    /// The section with a line of words added.
    pub fn line(mut self, text: impl Into<String>) -> Self {
        self.lines.push(text.into());
        self
    }

    /// The section with lines added.
    pub fn lines(mut self, lines: impl IntoIterator<Item = String>) -> Self {
        self.lines.extend(lines);
        self
    }

    /// True when the section has nothing to show under its heading.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty() && self.lines.is_empty()
    }

    fn text(&self) -> String {
        let mut out = self.heading.clone();
        if !self.cells.is_empty() {
            out.push('\n');
            out.push_str(
                &self
                    .cells
                    .iter()
                    .map(|c| format!("{} {}", c.label, c.value))
                    .collect::<Vec<_>>()
                    .join("  "),
            );
        }
        for l in &self.lines {
            out.push('\n');
            out.push_str(l);
        }
        out
    }
}

/// The DBU sheet's fixed words, as [`default_unit_sheet`] prints them.
const DBU_LABELS: [&str; 14] = [
    "Life",
    "Ki",
    "Capacity",
    "ToP",
    "Haste",
    "Awareness",
    "Defense Value",
    "Soak",
    "Speed",
    "Boosted",
    "Actions",
    "standard",
    "counter",
    "moves",
];

/// A short badge for a condition: initials of a multi-word name, else its first two letters.
pub fn badge(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() > 1 {
        words
            .iter()
            .filter_map(|w| w.chars().next())
            .collect::<String>()
            .to_uppercase()
    } else {
        name.chars().take(2).collect()
    }
}

/// The default pipeline's sheet (DBU): Life, Ki and Capacity, Tier of Power and attributes,
/// the derived values, actions and moves left, and each condition with its badge and term.
pub fn default_unit_sheet(ctx: &SheetContext, f: &Fighter) -> UnitSheet {
    let rules = ctx.rules;
    let d = f.derived(rules);
    let pools = SheetSection::new("Pools")
        .pool("Life", f.life.current, f.life.max)
        .pool("Ki", f.ki.current, f.ki.max)
        .pool("Capacity", f.capacity.current, f.capacity.max);
    let mut attributes = SheetSection::new("Attributes").cell("ToP", f.power.tier);
    for (k, v) in f.attributes.0.iter() {
        attributes = attributes.cell(k.to_uppercase(), v);
    }
    let derived = SheetSection::new("Derived")
        .cell("Haste", d.haste)
        .cell("Awareness", d.awareness)
        .cell("Defense Value", d.defense_value)
        .cell("Soak", d.soak)
        .cell("Speed", d.normal_speed)
        .cell("Boosted", d.boosted_speed);
    let turn = SheetSection::new("Actions")
        .left("standard", f.actions.usable(), None)
        .cell("counter", f.actions.counter)
        .cell("moves", format!("{}/2", f.round.moves));
    let mut conditions = SheetSection::new("Conditions");
    if f.defeated() {
        conditions = conditions.line("DEFEATED");
    }
    if let Some(h) = &f.encounter.charge {
        conditions = conditions.line(format!(
            "[EC] Energy Charge x{} for {}: Guard Down until it is made",
            h.charges,
            f.charged_name(rules, h)
        ));
    }
    match (f.encounter.arrogance, f.arrogance_penalty(rules)) {
        (Some(_), 0) => {
            conditions = conditions
                .line("[AD] Arrogant Declaration made: its price comes when the Superiority ends")
        }
        (Some(_), p) => {
            conditions = conditions.line(format!(
                "[AD] Arrogant Declaration spent: -{p} to Combat Rolls, Surgency and Soak"
            ))
        }
        (None, _) => {}
    }
    for c in &f.conditions.0 {
        let def = rules.condition(c.kind);
        let until = match c.expires {
            crate::battle::components::Expiry::UntilEnded => "until ended".to_string(),
            crate::battle::components::Expiry::EndOfRound(r) => format!("until end of round {r}"),
            crate::battle::components::Expiry::EndOfTurn { round, .. } => {
                format!("until a turn's end in round {round}")
            }
        };
        let stacks = if c.stacks > 1 {
            format!(" x{}", c.stacks)
        } else {
            String::new()
        };
        conditions = conditions.line(format!(
            "[{}] {}{stacks} ({until}): {}",
            badge(&def.name),
            def.name,
            def.description
        ));
    }
    let mut labels: Vec<String> = DBU_LABELS.iter().map(|l| l.to_string()).collect();
    labels.extend(f.attributes.0.keys().map(|k| k.to_uppercase()));
    if f.defeated() {
        labels.push("DEFEATED".into());
    }
    if f.encounter.charge.is_some() {
        labels.push("Energy Charge".into());
    }
    if f.encounter.arrogance.is_some() {
        labels.push("Arrogant Declaration".into());
    }
    labels.extend(
        f.conditions
            .0
            .iter()
            .map(|c| rules.condition(c.kind).name.clone()),
    );
    UnitSheet::new(
        f.identity.archetype.to_string(),
        vec![pools, attributes, derived, turn, conditions],
        labels,
    )
}

#[cfg(test)]
mod tests {
    use super::{Tone, pool_tone};

    #[test]
    fn sheet_pool_colour_follows_how_full_the_pool_is() {
        assert_eq!(pool_tone(10, 10), Tone::Good);
        assert_eq!(pool_tone(5, 10), Tone::Good);
        assert_eq!(pool_tone(4, 10), Tone::Low);
        assert_eq!(pool_tone(3, 12), Tone::Low);
        assert_eq!(pool_tone(2, 10), Tone::Critical);
        assert_eq!(pool_tone(0, 10), Tone::Critical);
        assert_eq!(
            pool_tone(0, 0),
            Tone::Good,
            "a pool of nothing is not a danger"
        );
    }
}
