//! Scenario files written the way the shipped ones are laid out (one map row a line, one side
//! or unit a line), so a generated or built battle reads and edits like a hand-made one.

use ron::extensions::Extensions;
use serde::Serialize;

use super::Scenario;

/// Why a scenario could not be written out (a value RON cannot hold).
#[derive(Debug, thiserror::Error)]
#[error("the scenario could not be written as RON: {0}")]
pub struct WriteError(#[from] ron::Error);

/// One value in RON on one line, `Some(…)` left out as the loader allows.
fn inline<T: Serialize>(value: &T) -> Result<String, WriteError> {
    let one_line = ron::ser::PrettyConfig::new()
        .compact_arrays(true)
        .compact_structs(true)
        .compact_maps(true);
    Ok(ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .to_string_pretty(value, one_line)?)
}

/// The scenario as a RON file, `comment` (any number of lines) at its top as `//` lines.
pub fn to_ron(s: &Scenario, comment: &str) -> Result<String, WriteError> {
    let mut out = String::new();
    for line in comment.lines() {
        out.push_str(&format!("// {line}\n").replace("//  \n", "//\n"));
    }
    out.push_str("Scenario(\n");
    out.push_str(&format!("    name: {},\n", inline(&s.name)?));
    out.push_str(&format!("    description: {},\n", inline(&s.description)?));
    out.push_str(&format!("    ruleset: {},\n", inline(&s.ruleset)?));
    out.push_str("    map: (\n");
    out.push_str(&format!("        width: {},\n", s.map.width));
    out.push_str(&format!("        height: {},\n", s.map.height));
    out.push_str("        rows: [\n");
    for row in &s.map.rows {
        out.push_str(&format!("            {},\n", inline(row)?));
    }
    out.push_str("        ],\n    ),\n    sides: [\n");
    for side in &s.sides {
        out.push_str(&format!("        {},\n", inline(side)?));
    }
    out.push_str("    ],\n    units: [\n");
    for unit in &s.units {
        out.push_str(&format!("        {},\n", unit_line(unit)?));
    }
    out.push_str("    ],\n");
    if !s.start_zones.is_empty() {
        out.push_str("    // Where each side may start: `.` none, 1-4 the side's number.\n");
        out.push_str("    start_zones: [\n");
        for row in &s.start_zones {
            out.push_str(&format!("        {},\n", inline(row)?));
        }
        out.push_str("    ],\n");
    }
    out.push_str(&format!("    victory: {},\n", inline(&s.victory)?));
    if let Some(b) = s.budget {
        out.push_str(
            "    // The most points each side may field (the ruleset's `points` prices).\n",
        );
        out.push_str(&format!("    budget: {b},\n"));
    }
    if !s.characters.is_empty() {
        // A character is a roster entry: written out over several lines, as in `roster.ron`.
        let pretty = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .compact_maps(true)
            .compact_arrays(true);
        out.push_str("    characters: [\n");
        for c in &s.characters {
            let text = ron::Options::default()
                .with_default_extension(Extensions::IMPLICIT_SOME)
                .to_string_pretty(c, pretty.clone())?;
            for line in text.lines() {
                out.push_str(&format!("        {line}\n"));
            }
            out.pop();
            out.push_str(",\n");
        }
        out.push_str("    ],\n");
    }
    if !s.guide.is_empty() {
        out.push_str("    guide: [\n");
        for step in &s.guide {
            out.push_str(&format!("        {},\n", inline(step)?));
        }
        out.push_str("    ],\n");
    }
    out.push_str(")\n");
    Ok(out)
}

/// A unit with only the fields it uses: `(archetype: "brawler", side: 0, at: (1, 9))`.
fn unit_line(u: &super::UnitDef) -> Result<String, WriteError> {
    let mut parts = Vec::new();
    if let Some(a) = &u.archetype {
        parts.push(format!("archetype: {}", inline(a)?));
    }
    if let Some(stats) = &u.stats {
        parts.push(format!("stats: {}", inline(stats)?));
    }
    if let Some(name) = &u.name {
        parts.push(format!("name: {}", inline(name)?));
    }
    parts.push(format!("side: {}", u.side));
    parts.push(format!("at: ({}, {})", u.at.0, u.at.1));
    if !u.conditions.is_empty() {
        parts.push(format!("conditions: {}", inline(&u.conditions)?));
    }
    Ok(format!("({})", parts.join(", ")))
}
