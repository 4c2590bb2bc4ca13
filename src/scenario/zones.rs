//! Start zones: the squares where each side may start, drawn as a layer of rows over the map
//! (`.` none, `1`-`4` the side), so a map made for others' teams says where each team goes.
//!
//! A scenario with zones holds each of its zoned sides' units inside their zone (checked like
//! the rest of the file), the skirmish builder places a team on the map inside its side's
//! zone, and the map editor paints them.

use std::path::Path;

use super::Scenario;
use crate::grid::Square;
use crate::ruleset::{FieldPath, RulesError};

/// The words every "unit outside its zone" problem carries: the map editor lists these while
/// a zone is being drawn rather than refusing the stroke that causes them.
pub const OUTSIDE: &str = "start zone";

/// The square's character for no zone.
const NONE: char = '.';

/// The side whose zone `at` is in, if any.
pub fn zone_at(s: &Scenario, at: Square) -> Option<u8> {
    let row = s.start_zones.get(usize::try_from(at.y).ok()?)?;
    let c = row.chars().nth(usize::try_from(at.x).ok()?)?;
    c.to_digit(10)
        .and_then(|d| u8::try_from(d).ok())
        .and_then(|d| d.checked_sub(1))
}

/// The squares of side `side`'s zone, in reading order (none when it has no zone).
pub fn squares(s: &Scenario, side: u8) -> Vec<Square> {
    let mut out = Vec::new();
    for (y, row) in s.start_zones.iter().enumerate() {
        for (x, _) in row.chars().enumerate() {
            let at = Square::new(x as i32, y as i32);
            if zone_at(s, at) == Some(side) {
                out.push(at);
            }
        }
    }
    out
}

/// Puts `at` in side `side`'s zone, or takes it out when it already is: the map editor's zone
/// brush. The layer is made when the first square is painted and dropped with the last.
pub fn toggle(s: &mut Scenario, side: u8, at: Square) -> Result<(), String> {
    let (w, h) = (s.map.width as usize, s.map.height as usize);
    let (Ok(x), Ok(y)) = (usize::try_from(at.x), usize::try_from(at.y)) else {
        return Err(format!("{at} is off the map"));
    };
    if x >= w || y >= h {
        return Err(format!("{at} is off the map"));
    }
    if usize::from(side) >= s.sides.len() || side >= 9 {
        return Err(format!("there is no side {}", side + 1));
    }
    if s.start_zones.is_empty() {
        s.start_zones = vec![NONE.to_string().repeat(w); h];
    }
    let mark = char::from(b'1' + side);
    let mut chars: Vec<char> = s.start_zones[y].chars().collect();
    chars.resize(w, NONE);
    chars[x] = if chars[x] == mark { NONE } else { mark };
    s.start_zones[y] = chars.into_iter().collect();
    drop_if_empty(s);
    Ok(())
}

/// Drops a layer with no zone left, so the file has none rather than rows of dots.
fn drop_if_empty(s: &mut Scenario) {
    if s.start_zones.iter().all(|r| r.chars().all(|c| c == NONE)) {
        s.start_zones.clear();
    }
}

/// The layer fitted to a `width`×`height` map (after a resize): cut or filled with no zone.
pub fn fit(s: &mut Scenario, width: u32, height: u32) {
    if s.start_zones.is_empty() {
        return;
    }
    s.start_zones.resize(height as usize, String::new());
    for row in &mut s.start_zones {
        let mut chars: Vec<char> = row.chars().collect();
        chars.resize(width as usize, NONE);
        *row = chars.into_iter().collect();
    }
}

/// Keeps only the zones of the first `sides` sides (the builder fields fewer sides than the
/// map has places for).
pub fn keep_sides(s: &mut Scenario, sides: usize) {
    for row in &mut s.start_zones {
        *row = row
            .chars()
            .map(|c| match c.to_digit(10) {
                Some(d) if d as usize > sides => NONE,
                _ => c,
            })
            .collect();
    }
    drop_if_empty(s);
}

/// Everything wrong with the scenario's zones: a layer of another size than the map, a mark
/// that is no side, and a unit of a zoned side standing outside its zone. A zone square no
/// one can stand on (a wall drawn across a zone) is allowed: nobody starts there. Nothing
/// when the scenario has no zones.
pub fn check(s: &Scenario, path: &Path, src: &str) -> Vec<RulesError> {
    if s.start_zones.is_empty() {
        return Vec::new();
    }
    let root = FieldPath::root();
    let zp = root.field("start_zones");
    let mut errs = Vec::new();
    let m = &s.map;
    if s.start_zones.len() != m.height as usize {
        errs.push(RulesError::at(
            path,
            src,
            &zp,
            format!(
                "{} rows of start zones for a map {} high",
                s.start_zones.len(),
                m.height
            ),
        ));
    }
    for (y, row) in s.start_zones.iter().enumerate() {
        let rp = zp.index(y);
        if row.chars().count() != m.width as usize {
            errs.push(RulesError::at(
                path,
                src,
                &rp,
                format!(
                    "row {y} of the start zones has {} squares for a width of {}",
                    row.chars().count(),
                    m.width
                ),
            ));
        }
        for (x, c) in row.chars().enumerate() {
            let at = Square::new(x as i32, y as i32);
            let side = c.to_digit(10).filter(|d| (1..=9).contains(d));
            if c != NONE && side.is_none_or(|d| d as usize > s.sides.len()) {
                errs.push(RulesError::at(
                    path,
                    src,
                    &rp,
                    format!(
                        "`{c}` at {at} is no side: a start zone square is `.` or a side's number, 1 to {}",
                        s.sides.len()
                    ),
                ));
                continue;
            }
        }
    }
    // Which sides have a zone, read once rather than once a unit.
    let marks: std::collections::BTreeSet<char> =
        s.start_zones.iter().flat_map(|r| r.chars()).collect();
    for (i, u) in s.units.iter().enumerate() {
        let at = Square::new(u.at.0, u.at.1);
        let Some(side) = s.sides.get(usize::from(u.side)) else {
            continue;
        };
        let zoned = u.side < 9 && marks.contains(&char::from(b'1' + u.side));
        if zoned && zone_at(s, at) != Some(u.side) {
            errs.push(RulesError::at(
                path,
                src,
                &root.field("units").index(i).field("at"),
                format!("{at} is outside {}'s {OUTSIDE}", side.name),
            ));
        }
    }
    errs
}
