//! The squares an area of effect covers: a melee reach, a cone, a sphere or a line, from the
//! attacker or from a chosen square, stopped by the map's edges and by walls (every covered
//! square has a clear line of sight from the origin).

use super::los::clear_line;
use super::{Dir8, Field, Square, footprint, footprint_distance};
use crate::ruleset::AreaShape;

/// The squares a shape covers from an origin footprint (`origin`, `size`), sorted.
///
/// - `Reach`: every square within `reach` of the footprint, outside it.
/// - `Cone { length, width }`: squares within `length` (Chebyshev) of an origin square, in
///   front of it in direction `dir` (`dot > 0`) and inside the half-angle
///   `|cross| × length ≤ (width − 1) / 2 × dot`: rows of 1, 3 and 5 squares for Blast going
///   east, and 9 squares going diagonally too.
/// - `Sphere { radius }`: every square within `radius` of the footprint, the footprint included.
/// - `Line { length, width }`: squares within `length` in front of an origin square with
///   `|cross| ≤ (width − 1) / 2`: a band `width` squares wide going straight, a staircase band
///   going diagonally.
///
/// `dot` and `cross` are taken between the square's offset and the direction's step. Squares
/// that block sight, are off the map or have no clear line from the origin are left out.
pub fn covered(
    field: &Field,
    shape: AreaShape,
    origin: Square,
    size: u32,
    dir: Option<Dir8>,
    reach: u32,
) -> Vec<Square> {
    let own = footprint(origin, size);
    let bounds = field.bounds();
    let (vx, vy) = dir.unwrap_or(Dir8::N).step();
    let span = match shape {
        AreaShape::Reach => reach,
        AreaShape::Cone { length, .. } | AreaShape::Line { length, .. } => length,
        AreaShape::Sphere { radius } => radius,
    } as i32;
    let mut out = Vec::new();
    for o in &own {
        for dy in -span..=span {
            for dx in -span..=span {
                let s = Square::new(o.x + dx, o.y + dy);
                let dot = i64::from(dx * vx + dy * vy);
                let cross = i64::from(dx * vy - dy * vx).abs();
                let cheb = i64::from(dx.abs().max(dy.abs()));
                let inside = match shape {
                    AreaShape::Reach => {
                        !own.contains(&s) && footprint_distance(origin, size, s, 1) <= reach
                    }
                    AreaShape::Sphere { radius } => cheb <= i64::from(radius),
                    AreaShape::Cone { length, width } => {
                        let half = i64::from(width.saturating_sub(1) / 2);
                        !own.contains(&s)
                            && dot > 0
                            && cheb <= i64::from(length)
                            && cross * i64::from(length) <= half * dot
                    }
                    AreaShape::Line { length, width } => {
                        let half = i64::from(width.saturating_sub(1) / 2);
                        !own.contains(&s) && dot > 0 && cheb <= i64::from(length) && cross <= half
                    }
                };
                if inside
                    && bounds.contains(s)
                    && !field.blocks_sight(s)
                    && own.iter().any(|p| clear_line(field, p, s))
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
