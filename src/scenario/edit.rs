//! The map editor's model: a scenario changed square by square (terrain painted, units placed
//! and removed, the field resized) with undo and redo, every change checked by the rules
//! `gridclash validate` uses, and a change that breaks one refused with that rule.

use std::path::Path;

use super::{Scenario, UnitDef, check, write};
use crate::grid::Square;
use crate::ruleset::{Rules, RulesError};

/// The most changes kept to undo.
const UNDO_DEPTH: usize = 200;

/// What a click or a press on a square does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Brush {
    /// Paints the terrain with this symbol (`terrain.ron`'s `symbol`).
    Terrain(char),
    /// Places a unit of `archetype` for side `side`, its footprint's top-left corner here.
    Unit { side: u8, archetype: String },
    /// Takes away the unit standing here.
    Erase,
    /// Puts the square in side `side`'s start zone, or takes it out when it already is.
    Zone { side: u8 },
}

/// One problem the editor shows: where on the field (when it is about a square or a unit),
/// and what the rule says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub square: Option<Square>,
    pub message: String,
}

/// A scenario being edited, with its history.
#[derive(Debug, Clone)]
pub struct MapEdit {
    pub scenario: Scenario,
    undo: Vec<Scenario>,
    redo: Vec<Scenario>,
}

impl MapEdit {
    pub fn new(scenario: Scenario) -> Self {
        Self {
            scenario,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// Uses `brush` on `at`. Nothing changes when the square already is what the brush makes;
    /// the change is refused, and the field left as it was, when it gives the field a problem
    /// it did not have (a unit on a wall, two units on one square): the error is the rule's.
    pub fn apply(&mut self, brush: &Brush, at: Square, rules: &Rules) -> Result<(), String> {
        let mut next = self.scenario.clone();
        match brush {
            Brush::Terrain(symbol) => {
                if rules.terrain_by_symbol(*symbol).is_none() {
                    return Err(format!("`{symbol}` is no terrain of {}", rules.manifest.id));
                }
                let row = usize::try_from(at.y)
                    .ok()
                    .and_then(|y| next.map.rows.get_mut(y))
                    .ok_or_else(|| format!("{at} is off the map"))?;
                let x = usize::try_from(at.x).map_err(|_| format!("{at} is off the map"))?;
                let mut chars: Vec<char> = row.chars().collect();
                let square = chars
                    .get_mut(x)
                    .ok_or_else(|| format!("{at} is off the map"))?;
                *square = *symbol;
                *row = chars.into_iter().collect();
            }
            Brush::Unit { side, archetype } => {
                if usize::from(*side) >= next.sides.len() {
                    return Err(format!("there is no side {}", side + 1));
                }
                next.units.retain(|u| Square::new(u.at.0, u.at.1) != at);
                next.units.push(UnitDef::roster(archetype, *side, at));
            }
            Brush::Erase => {
                let covering = unit_covering(&next, rules, at)
                    .ok_or_else(|| format!("no unit stands on {at}"))?;
                next.units.remove(covering);
            }
            Brush::Zone { side } => super::zones::toggle(&mut next, *side, at)?,
        }
        if next == self.scenario {
            return Ok(());
        }
        let before: Vec<String> = rule_problems(&self.scenario, rules)
            .iter()
            .map(unindexed)
            .collect();
        // A unit left outside a zone being drawn is listed, not refused: the zone is drawn a
        // square at a time, and the units may be moved into it after.
        if let Some(new) = rule_problems(&next, rules)
            .into_iter()
            .filter(|p| !p.message.contains(super::zones::OUTSIDE))
            .find(|p| !before.contains(&unindexed(p)))
        {
            return Err(new.message);
        }
        self.commit(next);
        Ok(())
    }

    /// Makes the field `width`×`height`: new squares are `fill`, units that no longer fit are
    /// taken away. Refused outside 1 to 256 squares, or when it leaves a side without units.
    pub fn resize(
        &mut self,
        width: u32,
        height: u32,
        fill: char,
        rules: &Rules,
    ) -> Result<(), String> {
        if !(1..=super::MAX_MAP_SIDE).contains(&width)
            || !(1..=super::MAX_MAP_SIDE).contains(&height)
        {
            return Err(format!(
                "a map is 1 to {} squares wide and high",
                super::MAX_MAP_SIDE
            ));
        }
        let mut next = self.scenario.clone();
        let rows = &mut next.map.rows;
        rows.resize(height as usize, String::new());
        for row in rows.iter_mut() {
            let mut chars: Vec<char> = row.chars().collect();
            chars.resize(width as usize, fill);
            *row = chars.into_iter().collect();
        }
        next.map.width = width;
        next.map.height = height;
        super::zones::fit(&mut next, width, height);
        next.units.retain(|u| {
            let size = footprint_of(u, rules);
            u.at.0 >= 0
                && u.at.1 >= 0
                && (u.at.0 as u32 + size) <= width
                && (u.at.1 as u32 + size) <= height
        });
        for (i, side) in next.sides.iter().enumerate() {
            if !next.units.iter().any(|u| usize::from(u.side) == i) {
                return Err(format!(
                    "{} would have no units left: move them in first",
                    side.name
                ));
            }
        }
        if next != self.scenario {
            self.commit(next);
        }
        Ok(())
    }

    /// Takes back the last change; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(previous) => {
                self.redo
                    .push(std::mem::replace(&mut self.scenario, previous));
                true
            }
            None => false,
        }
    }

    /// Makes the last change taken back again; false when there is none.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(next) => {
                self.undo.push(std::mem::replace(&mut self.scenario, next));
                true
            }
            None => false,
        }
    }

    /// Every problem `gridclash validate` would report, each placed on its square when it is
    /// about one (a unit's, a map row's); when there is none, the units that cannot reach
    /// another side (listed, not refused: a wall being drawn may close a way for a while).
    pub fn problems(&self, rules: &Rules) -> Vec<Problem> {
        let mut out = rule_problems(&self.scenario, rules);
        if out.is_empty() {
            let s = &self.scenario;
            for stranded in super::reach::stranded_units(s, rules) {
                let u = &s.units[stranded.unit];
                out.push(Problem {
                    square: Some(Square::new(u.at.0, u.at.1)),
                    message: format!(
                        "units[{}] cannot reach {}",
                        stranded.unit,
                        s.sides
                            .get(usize::from(stranded.side))
                            .map_or("another side", |d| d.name.as_str())
                    ),
                });
            }
        }
        out
    }

    /// The scenario's terrain symbol at `at`.
    pub fn symbol_at(&self, at: Square) -> Option<char> {
        let y = usize::try_from(at.y).ok()?;
        let x = usize::try_from(at.x).ok()?;
        self.scenario.map.rows.get(y)?.chars().nth(x)
    }

    /// The unit whose footprint covers `at`, by index.
    pub fn unit_at(&self, at: Square, rules: &Rules) -> Option<usize> {
        unit_covering(&self.scenario, rules, at)
    }

    fn commit(&mut self, next: Scenario) {
        self.undo.push(std::mem::replace(&mut self.scenario, next));
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }
}

/// The squares a unit's footprint spans each way.
fn footprint_of(u: &UnitDef, rules: &Rules) -> u32 {
    u.archetype
        .as_deref()
        .and_then(|id| rules.archetype(id))
        .map(|a| a.size.as_str())
        .or(u.stats.as_ref().map(|s| s.size.as_str()))
        .and_then(|size| rules.size(size))
        .map_or(1, |z| z.squares)
}

fn unit_covering(s: &Scenario, rules: &Rules, at: Square) -> Option<usize> {
    s.units.iter().rposition(|u| {
        let size = footprint_of(u, rules) as i32;
        (u.at.0..u.at.0 + size).contains(&at.x) && (u.at.1..u.at.1 + size).contains(&at.y)
    })
}

/// A problem's words with list indices taken out: a unit taken away renumbers the others,
/// and their problems are not new for that.
fn unindexed(p: &Problem) -> String {
    let mut out = String::new();
    let mut inside = false;
    for ch in p.message.chars() {
        match ch {
            '[' => inside = true,
            ']' => inside = false,
            _ if !inside => out.push(ch),
            _ => {}
        }
    }
    out
}

/// The scenario's problems as `validate` finds them in its written text, placed on squares.
fn rule_problems(s: &Scenario, rules: &Rules) -> Vec<Problem> {
    let path = Path::new("(edited map)");
    let src = match write::to_ron(s, "") {
        Ok(src) => src,
        Err(e) => {
            return vec![Problem {
                square: None,
                message: e.to_string(),
            }];
        }
    };
    check(s, rules, path, &src)
        .into_iter()
        .map(|e| match e {
            RulesError::Invalid { field, message, .. } => Problem {
                square: square_of(s, &field, &message),
                message: format!("{field}: {message}"),
            },
            other => Problem {
                square: None,
                message: other.to_string(),
            },
        })
        .collect()
}

/// The square a problem is about: a unit's (`units[3]…`), the square a start-zone row's
/// message names (`(4, 2) is …`), or a map row's first (`map.rows[2]`).
fn square_of(s: &Scenario, field: &str, message: &str) -> Option<Square> {
    let index = |prefix: &str| -> Option<usize> {
        field.strip_prefix(prefix)?.split(']').next()?.parse().ok()
    };
    if let Some(i) = index("units[") {
        return s.units.get(i).map(|u| Square::new(u.at.0, u.at.1));
    }
    if let Some(y) = index("start_zones[") {
        // The square the message names, `(x, y)`, else the row's first.
        let x = message
            .split_once('(')
            .and_then(|(_, rest)| rest.split(',').next())
            .and_then(|x| x.trim().parse().ok())
            .unwrap_or(0);
        return Some(Square::new(x, y as i32));
    }
    index("map.rows[").map(|y| Square::new(0, y as i32))
}
