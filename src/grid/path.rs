//! Movement: which squares a combatant can reach within a budget and by which path, using
//! `pathfinding`'s Dijkstra search. Difficult terrain costs more; blocking terrain and squares
//! an opponent holds cannot be entered; a diagonal step may not squeeze between two squares
//! that meet at a corner when the line-of-sight rule says that corner is closed.

use std::collections::BTreeMap;

use pathfinding::prelude::dijkstra_reach;

use super::{Dir8, Field, Square, footprint};
use crate::ruleset::CornerRule;

/// The cost for a `size`×`size` footprint to move onto `at`: the dearest of its squares, or
/// `None` when any of them is off the map or cannot be entered.
pub fn step_cost(field: &Field, at: Square, size: u32) -> Option<u32> {
    footprint(at, size)
        .into_iter()
        .map(|s| field.cost(s))
        .try_fold(0, |acc, c| c.map(|c| acc.max(c)))
}

/// A square reachable within the budget: its total cost and the square it is reached from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pub cost: u32,
    pub from: Square,
}

/// Search cost of a step: squares of Speed first; among paths of equal Speed, the one with the
/// fewest falls, then the one closest to a straight line (10 per straight step, 14 per diagonal one) so paths do not zigzag.
const SQUARE: u64 = 1_000_000;

/// Search cost of stepping down a drop (a fall), on top of the square: more than any path's
/// straightness, less than a square of Speed, so a fall is taken only where every path of the
/// same Speed falls.
const DROP: u64 = 100_000;

/// Every square a footprint at `start` can reach spending at most `budget`, never entering a
/// square for which `blocked` is true (an opponent's), with its cheapest cost and parent.
/// `start` itself is included at cost 0. Sorted by square, so iteration order is stable.
pub fn reachable(
    field: &Field,
    start: Square,
    size: u32,
    budget: u32,
    blocked: impl Fn(Square) -> bool,
) -> BTreeMap<Square, Reach> {
    // An iterator, not a collected list: the search asks for every square's neighbours and
    // the AI runs it many times per decision.
    let blocked = &blocked;
    let successors = move |s: &Square| {
        let s = *s;
        Dir8::ALL.iter().filter_map(move |d| {
            let n = s.step(*d);
            let (dx, dy) = d.step();
            if dx != 0 && dy != 0 && size == 1 && !diagonal_open(field, s, n) {
                return None;
            }
            if footprint(n, size).iter().any(blocked) {
                return None;
            }
            let straightness = if dx != 0 && dy != 0 { 14 } else { 10 };
            // Among paths of equal Speed, one that does not step down a drop (a fall).
            let falls = field.terrain(n).is_some_and(|t| t.drop.is_some())
                && field.terrain(s).is_none_or(|t| t.drop.is_none());
            let fall = if falls { DROP } else { 0 };
            step_cost(field, n, size).map(|c| (n, u64::from(c) * SQUARE + straightness + fall))
        })
    };
    let mut out = BTreeMap::new();
    for item in dijkstra_reach(&start, successors) {
        let cost = (item.total_cost / SQUARE) as u32;
        if cost > budget {
            break;
        }
        out.entry(item.node).or_insert(Reach {
            cost,
            from: item.parent.unwrap_or(start),
        });
    }
    out
}

/// A diagonal step squeezes past the corner between the two squares beside it; the ruleset's
/// corner rule (the one lines of sight use) says whether squares that cannot be entered close it.
pub fn diagonal_open(field: &Field, from: Square, to: Square) -> bool {
    corner_open(field, from, to, |s| field.cost(s).is_none())
}

/// Whether a diagonal step from `from` to `to` passes the corner between the two squares beside
/// it, by the ruleset's corner rule, where `closes` says which squares close a corner (a walk:
/// squares that cannot be entered; a jump: squares that block sight). A straight step passes.
pub fn corner_open(
    field: &Field,
    from: Square,
    to: Square,
    closes: impl Fn(Square) -> bool,
) -> bool {
    if from.x == to.x || from.y == to.y {
        return true;
    }
    let (a, b) = (
        closes(Square::new(to.x, from.y)),
        closes(Square::new(from.x, to.y)),
    );
    match field.corners {
        CornerRule::CornersNeverBlock => true,
        CornerRule::CornersBlockWhenBoth => !(a && b),
        CornerRule::CornersBlockWhenEither => !(a || b),
    }
}

/// The path (excluding `start`) to `goal` in a [`reachable`] map, if `goal` is in it.
pub fn path_to(
    reach: &BTreeMap<Square, Reach>,
    start: Square,
    goal: Square,
) -> Option<Vec<Square>> {
    if goal == start || !reach.contains_key(&goal) {
        return None;
    }
    let mut path = vec![goal];
    let mut at = goal;
    while let Some(r) = reach.get(&at) {
        if r.from == start {
            path.reverse();
            return Some(path);
        }
        if r.from == at {
            return None;
        }
        at = r.from;
        path.push(at);
    }
    None
}
