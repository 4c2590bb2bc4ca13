//! Lines of sight between square centres, exactly, in integer arithmetic.
//!
//! A line from the centre of one square to the centre of another is blocked by every blocking
//! square whose inside it crosses. When it passes exactly through a grid corner it only touches
//! the two squares beside that corner; the ruleset's [`CornerRule`] says whether they block.
//! Coordinates are doubled so every centre and corner is an integer point.

use std::cmp::Ordering;

use super::{Field, Square, footprint};
use crate::ruleset::CornerRule;

/// A fraction `n / d` with `d > 0`, compared exactly.
#[derive(Debug, Clone, Copy)]
struct Frac {
    n: i64,
    d: i64,
}

impl Frac {
    fn new(n: i64, d: i64) -> Self {
        if d < 0 {
            Self { n: -n, d: -d }
        } else {
            Self { n, d }
        }
    }
    fn cmp(self, o: Frac) -> Ordering {
        (self.n * o.d).cmp(&(o.n * self.d))
    }
    fn max(self, o: Frac) -> Frac {
        if self.cmp(o) == Ordering::Less {
            o
        } else {
            self
        }
    }
    fn min(self, o: Frac) -> Frac {
        if self.cmp(o) == Ordering::Greater {
            o
        } else {
            self
        }
    }
}

/// The open parameter interval of the segment `p0 + t·d` inside the open slab `(lo, hi)`.
fn slab(p0: i64, d: i64, lo: i64, hi: i64) -> Option<(Frac, Frac)> {
    if d == 0 {
        return (lo < p0 && p0 < hi).then_some((Frac::new(0, 1), Frac::new(1, 1)));
    }
    let a = Frac::new(lo - p0, d);
    let b = Frac::new(hi - p0, d);
    Some(if a.cmp(b) == Ordering::Less {
        (a, b)
    } else {
        (b, a)
    })
}

/// True when the segment between the centres of `a` and `b` crosses the inside of square `c`.
pub fn crosses(a: Square, b: Square, c: Square) -> bool {
    let (x0, y0) = (2 * i64::from(a.x) + 1, 2 * i64::from(a.y) + 1);
    let (dx, dy) = (2 * i64::from(b.x - a.x), 2 * i64::from(b.y - a.y));
    let (cx, cy) = (2 * i64::from(c.x), 2 * i64::from(c.y));
    let Some((xl, xh)) = slab(x0, dx, cx, cx + 2) else {
        return false;
    };
    let Some((yl, yh)) = slab(y0, dy, cy, cy + 2) else {
        return false;
    };
    let lo = xl.max(yl).max(Frac::new(0, 1));
    let hi = xh.min(yh).min(Frac::new(1, 1));
    lo.cmp(hi) == Ordering::Less
}

/// The pairs of squares the segment between the centres of `a` and `b` only touches, one pair
/// per grid corner it passes exactly through.
pub fn touched_corners(a: Square, b: Square) -> Vec<(Square, Square)> {
    let (x0, y0) = (2 * i64::from(a.x) + 1, 2 * i64::from(a.y) + 1);
    let (dx, dy) = (2 * i64::from(b.x - a.x), 2 * i64::from(b.y - a.y));
    if dx == 0 || dy == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (xmin, xmax) = (x0.min(x0 + dx), x0.max(x0 + dx));
    let (ymin, ymax) = (y0.min(y0 + dy), y0.max(y0 + dy));
    let mut px = xmin + (xmin & 1);
    while px <= xmax {
        // The point of the line at x = px, if its y is an integer and even.
        let num = (px - x0) * dy;
        if num % dx == 0 {
            let py = y0 + num / dx;
            if py % 2 == 0 && py > ymin && py < ymax {
                let (gx, gy) = ((px / 2) as i32, (py / 2) as i32);
                let pair = if (dx > 0) == (dy > 0) {
                    (Square::new(gx, gy - 1), Square::new(gx - 1, gy))
                } else {
                    (Square::new(gx - 1, gy - 1), Square::new(gx, gy))
                };
                out.push(pair);
            }
        }
        px += 2;
    }
    out
}

/// True when nothing blocks the line between the centres of `a` and `b` on `field`.
pub fn clear_line(field: &Field, a: Square, b: Square) -> bool {
    clear_line_past(field, a, b, |_| false)
}

/// True when nothing but squares `past` allows blocks the line between the centres of `a`
/// and `b`: an attack that full cover takes is still made (shinobi).
fn clear_line_past(field: &Field, a: Square, b: Square, past: impl Fn(Square) -> bool) -> bool {
    let blocks = |c: Square| field.blocks_sight(c) && !past(c);
    if a == b {
        return true;
    }
    let (xmin, xmax) = (a.x.min(b.x), a.x.max(b.x));
    let (ymin, ymax) = (a.y.min(b.y), a.y.max(b.y));
    for y in ymin..=ymax {
        for x in xmin..=xmax {
            let c = Square::new(x, y);
            if c != a && c != b && blocks(c) && crosses(a, b, c) {
                return false;
            }
        }
    }
    for (p, q) in touched_corners(a, b) {
        let (bp, bq) = (blocks(p), blocks(q));
        let blocked = match field.corners {
            CornerRule::CornersNeverBlock => false,
            CornerRule::CornersBlockWhenBoth => bp && bq,
            CornerRule::CornersBlockWhenEither => bp || bq,
        };
        if blocked {
            return false;
        }
    }
    true
}

/// True when some square of one footprint has a clear line to some square of the other.
pub fn clear_between(field: &Field, a: Square, a_size: u32, b: Square, b_size: u32) -> bool {
    let fb = footprint(b, b_size);
    footprint(a, a_size)
        .iter()
        .any(|p| fb.iter().any(|q| clear_line(field, p, q)))
}

/// True when some square of the attacker's footprint (`a`) has a line to some square of the
/// target's (`b`) that only full cover beside the target stands in: the target takes that
/// cover, so the attack is made and the cover takes it ("If taking full Cover one is unable
/// to target their attacker from that position but incoming attacks are guaranteed to hit the
/// obstruction"). The one behind cannot shoot back the same way: the cover is not beside its
/// target.
pub fn clear_but_full_cover(field: &Field, a: Square, a_size: u32, b: Square, b_size: u32) -> bool {
    let fb = footprint(b, b_size);
    let beside = |c: Square| {
        field.full_cover_left(c).is_some()
            && !fb.contains(&c)
            && super::footprint_distance(b, b_size, c, 1) == 1
    };
    footprint(a, a_size)
        .iter()
        .any(|p| fb.iter().any(|q| clear_line_past(field, p, q, beside)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_line_crosses_the_squares_between() {
        let (a, b) = (Square::new(0, 0), Square::new(3, 0));
        assert!(crosses(a, b, Square::new(1, 0)));
        assert!(crosses(a, b, Square::new(2, 0)));
        assert!(!crosses(a, b, Square::new(1, 1)));
    }

    #[test]
    fn a_diagonal_passes_corners_and_touches_the_squares_beside_them() {
        let (a, b) = (Square::new(0, 0), Square::new(2, 2));
        assert!(crosses(a, b, Square::new(1, 1)));
        assert!(!crosses(a, b, Square::new(1, 0)));
        assert_eq!(
            touched_corners(a, b),
            vec![
                (Square::new(1, 0), Square::new(0, 1)),
                (Square::new(2, 1), Square::new(1, 2)),
            ]
        );
        // Going the other way (south-west) touches the other two squares of a corner.
        assert_eq!(
            touched_corners(Square::new(1, 0), Square::new(0, 1)),
            vec![(Square::new(0, 0), Square::new(1, 1))]
        );
    }

    #[test]
    fn a_knight_line_crosses_two_squares_and_no_corner() {
        let (a, b) = (Square::new(0, 0), Square::new(2, 1));
        assert!(crosses(a, b, Square::new(1, 0)));
        assert!(crosses(a, b, Square::new(1, 1)));
        assert!(touched_corners(a, b).is_empty());
    }
}
