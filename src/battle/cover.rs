//! Cover features: the feature beside a target that a line from its attacker crosses, which
//! each ruleset turns into less damage (DBU), a harder shot (d20) or a shield worn down
//! (shinobi).

use serde::{Deserialize, Serialize};

use super::components::Square;
use super::fighter::{Fighter, eval};
use crate::grid::los::crosses;
use crate::grid::{Dir8, Field, footprint, footprint_distance};
use crate::ruleset::{Rules, Targeting, TerrainDef};

/// A cover feature between an attacker and its target, and the damage it takes off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cover {
    pub name: String,
    pub at: Square,
    pub rank: i64,
    pub reduction: i64,
}

/// The cover feature next to `target` that a line from `attacker` to it crosses, the one of
/// highest `worth` (features `worth` gives `None` are not cover). Melee lines cross no square
/// between the two, so melee finds none.
pub fn cover_feature<'f>(
    field: &Field<'f>,
    attacker: &Fighter,
    target: &Fighter,
    worth: impl Fn(Square, &TerrainDef) -> Option<i64>,
) -> Option<(Square, &'f TerrainDef, i64)> {
    let a = attacker.position?;
    cover_feature_from(field, footprint(a, attacker.size.squares), target, worth)
}

/// [`cover_feature`] for lines from `from`, squares that need not be anyone's: where a d20
/// blast goes off, whose "angle to target" decides whether cover counts against it.
pub fn cover_feature_from<'f>(
    field: &Field<'f>,
    from: impl IntoIterator<Item = Square>,
    target: &Fighter,
    worth: impl Fn(Square, &TerrainDef) -> Option<i64>,
) -> Option<(Square, &'f TerrainDef, i64)> {
    let t = target.position?;
    let own = footprint(t, target.size.squares);
    let mut best: Option<(Square, &'f TerrainDef, i64)> = None;
    for from in from {
        for to in &own {
            for d in Dir8::ALL {
                let c = to.step(d);
                if own.contains(&c) || footprint_distance(t, target.size.squares, c, 1) != 1 {
                    continue;
                }
                let Some(ter) = field.terrain(c) else {
                    continue;
                };
                let Some(w) = worth(c, ter) else {
                    continue;
                };
                if !crosses(from, to, c) || best.as_ref().is_some_and(|b| b.2 >= w) {
                    continue;
                }
                best = Some((c, ter, w));
            }
        }
    }
    best
}

/// The best cover `target` has against a single-target attack from `attacker`: a cover
/// feature next to the target that the line between them crosses (digest §5.6). Areas ignore
/// cover, and so does melee, whose lines cross no square between the two.
pub fn cover_against(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
    targeting: &Targeting,
) -> Option<Cover> {
    if !matches!(targeting, Targeting::Single) {
        return None;
    }
    let (at, ter, rank) = cover_feature(field, attacker, target, |_, t| t.cover_rank)?;
    let reduction = eval(
        &rules.terrain.cover_reduction,
        &[
            ("RANK", rank),
            ("T", i64::from(target.power.tier)),
            ("bT", i64::from(target.power.base_tier)),
        ][..],
    );
    Some(Cover {
        name: ter.name.clone(),
        at,
        rank,
        reduction,
    })
}
