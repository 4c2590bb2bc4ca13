//! Square-grid geometry: squares, directions, distances, the battlefield's terrain, lines of
//! sight, paths and the squares an area of effect covers. Plain functions over plain data; the
//! battle asks them what its combatants can reach and see.

pub mod area;
pub mod los;
pub mod path;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ruleset::{CornerRule, TerrainDef};

/// A square of the battlefield; `x` grows eastwards and `y` southwards, as on screen.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Square {
    pub x: i32,
    pub y: i32,
}

impl Square {
    /// The square at `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// The neighbouring square in direction `d`.
    pub fn step(self, d: Dir8) -> Self {
        let (dx, dy) = d.step();
        Self::new(self.x + dx, self.y + dy)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The eight directions of a square grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dir8 {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir8 {
    /// All eight, clockwise from north.
    pub const ALL: [Dir8; 8] = [
        Self::N,
        Self::NE,
        Self::E,
        Self::SE,
        Self::S,
        Self::SW,
        Self::W,
        Self::NW,
    ];

    /// The step `(dx, dy)` one square in this direction.
    pub fn step(self) -> (i32, i32) {
        match self {
            Self::N => (0, -1),
            Self::NE => (1, -1),
            Self::E => (1, 0),
            Self::SE => (1, 1),
            Self::S => (0, 1),
            Self::SW => (-1, 1),
            Self::W => (-1, 0),
            Self::NW => (-1, -1),
        }
    }

    /// The direction closest to the vector `(dx, dy)` (north for the zero vector).
    pub fn toward(dx: i32, dy: i32) -> Self {
        if dx == 0 && dy == 0 {
            return Self::N;
        }
        let angle = f64::from(dy).atan2(f64::from(dx)).to_degrees();
        // E = 0°, SE = 45°, S = 90° (y grows southwards).
        let index = ((angle + 360.0 + 22.5) / 45.0).floor() as i32 % 8;
        [
            Self::E,
            Self::SE,
            Self::S,
            Self::SW,
            Self::W,
            Self::NW,
            Self::N,
            Self::NE,
        ][index as usize]
    }
}

/// Chebyshev distance: a diagonal step counts 1 (reference decision 2).
pub fn chebyshev(a: Square, b: Square) -> u32 {
    (a.x - b.x).unsigned_abs().max((a.y - b.y).unsigned_abs())
}

/// The squares of a `size`×`size` footprint whose top-left square is `at`.
pub fn footprint(at: Square, size: u32) -> Footprint {
    Footprint {
        at,
        // Clamped so a huge size from a damaged file cannot overflow `side * side`.
        side: size.clamp(1, 1 << 15) as i32,
    }
}

/// The squares a combatant covers: a square block named by its top-left square. A value, not a
/// list, because movement and targeting ask "is this square covered?" thousands of times per
/// decision and must not allocate to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Footprint {
    pub at: Square,
    /// Squares per side (at least 1).
    pub side: i32,
}

impl Footprint {
    /// True when `s` is one of the footprint's squares.
    pub fn contains(&self, s: &Square) -> bool {
        (self.at.x..self.at.x + self.side).contains(&s.x)
            && (self.at.y..self.at.y + self.side).contains(&s.y)
    }

    /// The squares row by row, top to bottom and left to right (the order every caller relied
    /// on when this was a list, so results stay deterministic).
    pub fn iter(&self) -> FootprintIter {
        FootprintIter {
            footprint: *self,
            next: 0,
        }
    }
}

impl IntoIterator for Footprint {
    type Item = Square;
    type IntoIter = FootprintIter;
    fn into_iter(self) -> FootprintIter {
        self.iter()
    }
}

impl IntoIterator for &Footprint {
    type Item = Square;
    type IntoIter = FootprintIter;
    fn into_iter(self) -> FootprintIter {
        self.iter()
    }
}

/// Walks a [`Footprint`]'s squares row by row.
#[derive(Debug, Clone)]
pub struct FootprintIter {
    footprint: Footprint,
    next: i32,
}

impl Iterator for FootprintIter {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        let n = self.footprint.side;
        if self.next >= n * n {
            return None;
        }
        let (dx, dy) = (self.next % n, self.next / n);
        self.next += 1;
        Some(Square::new(
            self.footprint.at.x + dx,
            self.footprint.at.y + dy,
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.footprint.side * self.footprint.side - self.next).max(0) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for FootprintIter {}

/// Chebyshev distance between the nearest squares of two square footprints.
pub fn footprint_distance(a: Square, a_size: u32, b: Square, b_size: u32) -> u32 {
    let gap = |a0: i32, an: u32, b0: i32, bn: u32| -> i32 {
        let a1 = a0 + an.max(1) as i32 - 1;
        let b1 = b0 + bn.max(1) as i32 - 1;
        if b0 > a1 {
            b0 - a1
        } else if a0 > b1 {
            a0 - b1
        } else {
            0
        }
    };
    let dx = gap(a.x, a_size, b.x, b_size);
    let dy = gap(a.y, a_size, b.y, b_size);
    dx.max(dy) as u32
}

/// The battlefield's extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounds {
    pub width: u32,
    pub height: u32,
}

impl Bounds {
    /// True when `s` is on the battlefield.
    pub fn contains(&self, s: Square) -> bool {
        s.x >= 0 && s.y >= 0 && (s.x as u32) < self.width && (s.y as u32) < self.height
    }
}

/// The terrain of every square, as indexes into the ruleset's terrain types.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    pub width: u32,
    pub height: u32,
    /// Row by row, `width × height` terrain indexes.
    pub cells: Vec<u16>,
    /// Damage each cover square has absorbed so far this battle (shinobi cover wears down
    /// until broken); empty for every other ruleset.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub wear: std::collections::BTreeMap<Square, i64>,
    /// d20: grenades that missed and lie live where they landed, until their thrower's next
    /// turn starts (or someone throws them back); empty for every other ruleset.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grenades: Vec<LiveGrenade>,
}

/// d20: a missed grenade lying live on the map ("doesn't detonate until the start of your next
/// turn"). Kept with the map because, like worn cover, it is part of the ground everyone
/// fights on: the rules checks, the board and the state hash all see it there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGrenade {
    pub at: Square,
    /// The thrower's combatant number: the grenade goes off when its turn starts.
    pub thrower: u32,
    /// The grenade weapon's id in the ruleset.
    pub weapon: String,
}

impl Map {
    /// A map of one terrain everywhere.
    pub fn filled(width: u32, height: u32, terrain: u16) -> Self {
        Self {
            width,
            height,
            cells: vec![terrain; (width * height) as usize],
            wear: std::collections::BTreeMap::new(),
            grenades: Vec::new(),
        }
    }

    /// The map's extent.
    pub fn bounds(&self) -> Bounds {
        Bounds {
            width: self.width,
            height: self.height,
        }
    }

    /// The terrain index of a square on the map.
    pub fn at(&self, s: Square) -> Option<u16> {
        if !self.bounds().contains(s) {
            return None;
        }
        self.cells
            .get((s.y as u32 * self.width + s.x as u32) as usize)
            .copied()
    }

    /// Sets the terrain of a square on the map (ignored off the map).
    pub fn set(&mut self, s: Square, terrain: u16) {
        if self.bounds().contains(s) {
            let i = (s.y as u32 * self.width + s.x as u32) as usize;
            self.cells[i] = terrain;
        }
    }
}

/// A map with its ruleset's terrain rules: what the geometry functions need to know.
#[derive(Debug, Clone, Copy)]
pub struct Field<'a> {
    pub map: &'a Map,
    pub terrain: &'a [TerrainDef],
    pub corners: CornerRule,
}

impl<'a> Field<'a> {
    /// The terrain type of a square on the map.
    pub fn terrain(&self, s: Square) -> Option<&'a TerrainDef> {
        self.map
            .at(s)
            .and_then(|i| self.terrain.get(usize::from(i)))
    }

    /// The cost to enter a square, `None` when it cannot be entered or is off the map.
    pub fn cost(&self, s: Square) -> Option<u32> {
        self.terrain(s).and_then(|t| t.move_cost)
    }

    /// True when the square blocks lines of sight (off the map counts as blocking). Full cover
    /// that absorbs damage (a shinobi steel door) stops blocking once it is broken: "it is
    /// broken and no longer grants any bonus".
    pub fn blocks_sight(&self, s: Square) -> bool {
        self.terrain(s)
            .is_none_or(|t| t.blocks_sight && (t.absorb.is_none() || self.absorb_left(s).is_some()))
    }

    /// What full cover on `s` still absorbs: a square that blocks sight but wears down
    /// (shinobi: "incoming attacks are guaranteed to hit the obstruction"); `None` when the
    /// square is no such cover or it is broken.
    pub fn full_cover_left(&self, s: Square) -> Option<i64> {
        self.terrain(s)
            .filter(|t| t.blocks_sight)
            .and_then(|_| self.absorb_left(s))
    }

    /// The battlefield's extent.
    pub fn bounds(&self) -> Bounds {
        self.map.bounds()
    }

    /// What a shinobi cover square still absorbs: its terrain's `absorb` less the damage it
    /// has taken; `None` when it is no cover or broken.
    pub fn absorb_left(&self, s: Square) -> Option<i64> {
        let full = self.terrain(s)?.absorb?;
        let left = full - self.map.wear.get(&s).copied().unwrap_or(0);
        (left > 0).then_some(left)
    }
}

/// The square a push of `steps` moves a target to, straight away from `from`, stopping before
/// any square `blocked` refuses.
pub fn push_destination(
    target: Square,
    from: Square,
    steps: u32,
    blocked: impl Fn(Square) -> bool,
) -> Square {
    let dx = (target.x - from.x).signum();
    let dy = (target.y - from.y).signum();
    if dx == 0 && dy == 0 {
        return target;
    }
    let mut at = target;
    for _ in 0..steps {
        let next = Square::new(at.x + dx, at.y + dy);
        if blocked(next) {
            break;
        }
        at = next;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toward_picks_the_nearest_of_eight_directions() {
        assert_eq!(Dir8::toward(5, 0), Dir8::E);
        assert_eq!(Dir8::toward(0, -3), Dir8::N);
        assert_eq!(Dir8::toward(3, 3), Dir8::SE);
        assert_eq!(Dir8::toward(-4, 1), Dir8::W);
        assert_eq!(Dir8::toward(-3, -2), Dir8::NW);
    }

    #[test]
    fn footprint_distance_measures_nearest_squares() {
        // A 2×2 at (0,0) and a 1×1 at (3,1): nearest squares (1,1) and (3,1).
        assert_eq!(
            footprint_distance(Square::new(0, 0), 2, Square::new(3, 1), 1),
            2
        );
        assert_eq!(
            footprint_distance(Square::new(0, 0), 2, Square::new(2, 2), 1),
            1
        );
        assert_eq!(
            footprint_distance(Square::new(0, 0), 2, Square::new(1, 1), 1),
            0
        );
    }
}
