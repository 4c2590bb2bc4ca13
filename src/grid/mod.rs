//! Square-grid geometry: directions, distances and the squares an area of effect covers.
//! Plain functions over squares; the battle asks them which combatants an attack reaches.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A square of the battlefield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Square {
    pub x: i32,
    pub y: i32,
}

impl Square {
    /// The square at `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The eight directions of a square grid; `y` grows southwards, as on screen.
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
}

/// Chebyshev distance: a diagonal step counts 1 (reference decision 2).
pub fn chebyshev(a: Square, b: Square) -> u32 {
    (a.x - b.x).unsigned_abs().max((a.y - b.y).unsigned_abs())
}

/// The squares of a `size`×`size` footprint whose top-left square is `at`.
pub fn footprint(at: Square, size: u32) -> Vec<Square> {
    let n = size.max(1) as i32;
    let mut out = Vec::with_capacity((n * n) as usize);
    for dy in 0..n {
        for dx in 0..n {
            out.push(Square::new(at.x + dx, at.y + dy));
        }
    }
    out
}

/// The battlefield's extent (terrain comes with the scenario files).
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

/// The squares of a cone `length` long and `width` wide at its far end, fanning out from the
/// footprint `origin` (size `size`) in direction `dir`, clipped to `bounds`, sorted.
///
/// A square is in the cone when it is within `length` squares (Chebyshev) of an origin square,
/// in front of it, and within the cone's half-angle: `|cross| × length ≤ half-width × dot`,
/// where `dot` and `cross` are taken with the direction's step. Cardinal cones of length 3 and
/// width 5 are rows of 1, 3 and 5 squares; diagonal ones cover the same 9 squares' worth.
pub fn cone(
    origin: Square,
    size: u32,
    dir: Dir8,
    length: u32,
    width: u32,
    bounds: Bounds,
) -> Vec<Square> {
    let (vx, vy) = dir.step();
    let half = i64::from(width.saturating_sub(1) / 2);
    let len = i64::from(length);
    let own = footprint(origin, size);
    let mut out = Vec::new();
    for o in &own {
        for dy in -(length as i32)..=(length as i32) {
            for dx in -(length as i32)..=(length as i32) {
                let s = Square::new(o.x + dx, o.y + dy);
                let dot = i64::from(dx * vx + dy * vy);
                let cross = i64::from(dx * vy - dy * vx).abs();
                let cheb = i64::from(dx.abs().max(dy.abs()));
                if dot > 0
                    && cheb <= len
                    && cross * len <= half * dot
                    && bounds.contains(s)
                    && !own.contains(&s)
                {
                    out.push(s);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The squares within `radius` (Chebyshev) of a centre footprint, clipped to `bounds`, sorted.
pub fn burst(centre: Square, size: u32, radius: u32, bounds: Bounds) -> Vec<Square> {
    let mut out = Vec::new();
    let r = radius as i32;
    for c in footprint(centre, size) {
        for dy in -r..=r {
            for dx in -r..=r {
                let s = Square::new(c.x + dx, c.y + dy);
                if bounds.contains(s) {
                    out.push(s);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Bounds = Bounds {
        width: 20,
        height: 20,
    };

    #[test]
    fn cardinal_cone_rows_are_one_three_five() {
        let c = cone(Square::new(10, 10), 1, Dir8::E, 3, 5, B);
        let expect: Vec<Square> = [
            (11, 10),
            (12, 9),
            (12, 10),
            (12, 11),
            (13, 8),
            (13, 9),
            (13, 10),
            (13, 11),
            (13, 12),
        ]
        .iter()
        .map(|(x, y)| Square::new(*x, *y))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
        assert_eq!(c, expect);
    }

    #[test]
    fn diagonal_cone_covers_nine_squares() {
        let c = cone(Square::new(10, 10), 1, Dir8::SE, 3, 5, B);
        let mut expect: Vec<Square> = [
            (11, 11),
            (12, 11),
            (11, 12),
            (12, 12),
            (13, 11),
            (11, 13),
            (13, 12),
            (12, 13),
            (13, 13),
        ]
        .iter()
        .map(|(x, y)| Square::new(*x, *y))
        .collect();
        expect.sort();
        assert_eq!(c, expect);
    }

    #[test]
    fn burst_is_clipped_to_the_map() {
        assert_eq!(burst(Square::new(0, 0), 1, 3, B).len(), 16);
        assert_eq!(burst(Square::new(10, 10), 1, 3, B).len(), 49);
    }
}
