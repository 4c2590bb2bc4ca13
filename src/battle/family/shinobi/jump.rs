//! The ninja chapter's jump: "A Character can jump 1/2 their MV from a stand still and their
//! full MV from a running start." A straight leap over people, low cover, water and drops,
//! never over what blocks sight, landing on ground a walk could end on.

use std::collections::BTreeMap;

use crate::battle::command::RuleError;
use crate::battle::fighter::{Fighter, can_end_on};
use crate::grid::path::{corner_open, step_cost};
use crate::grid::{Dir8, Field, Square, chebyshev};

/// How far a jump of `me` may reach now, in squares, with its move `mv` (squares a walk may
/// cover): half of it from a standstill, all of it with a running start (a walked move was
/// the last thing done this turn).
pub fn reach(me: &Fighter, mv: u32) -> u32 {
    if me.round.ran { mv } else { mv / 2 }
}

/// Why a jump reaching `reach` squares is that long, for refusals and the move panel.
pub fn reach_words(me: &Fighter, mv: u32) -> String {
    if me.round.ran {
        format!("with a running start a jump reaches the whole move, {mv} squares")
    } else {
        format!(
            "from a standstill a jump reaches half the move, {} of {mv} squares (a walked move just before is a running start: the whole move)",
            mv / 2
        )
    }
}

/// True when a leap from `from` to the next square `to` does not pass a corner that blocks
/// sight (a jump is stopped by what a look is stopped by).
fn corner_clear(field: &Field, from: Square, to: Square) -> bool {
    corner_open(field, from, to, |s| field.blocks_sight(s))
}

/// True when an opponent of `me` stands on `s`.
fn opponent_on(fighters: &[Fighter], me: &Fighter, s: Square) -> bool {
    fighters
        .iter()
        .any(|o| o.side != me.side && !o.defeated() && o.position == Some(s))
}

/// Why `me` may not land on `s` (`None`: it may): ground a walk could end on, no one there.
fn landing_refusal(field: &Field, fighters: &[Fighter], me: &Fighter, s: Square) -> Option<String> {
    if step_cost(field, s, 1).is_none() {
        return Some("that ground cannot be stood on".into());
    }
    if opponent_on(fighters, me, s) || !can_end_on(fighters, me, s) {
        return Some("someone stands there".into());
    }
    None
}

/// Checks a jump of `me` along `path` that may reach `reach` squares; returns the squares it
/// covers. The path is a straight line from where `me` stands, one square after another.
pub fn check(
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    path: &[Square],
    reach: u32,
    reach_words: impl FnOnce() -> String,
) -> Result<u32, RuleError> {
    let Some(start) = me.position else {
        return Err(RuleError::Absorbed(me.id));
    };
    let Some(&last) = path.last() else {
        return Err(RuleError::EmptyPath);
    };
    let refuse = |why: String| RuleError::BadJump { to: last, why };
    if me.size.squares != 1 {
        return Err(refuse("only a one-square fighter jumps here".into()));
    }
    let first = path[0];
    if chebyshev(start, first) != 1 {
        return Err(RuleError::PathNotAdjacent {
            from: start,
            to: first,
        });
    }
    let step = (first.x - start.x, first.y - start.y);
    let mut at = start;
    for (k, &next) in path.iter().enumerate() {
        if (next.x - at.x, next.y - at.y) != step {
            return Err(refuse("a jump goes in a straight line".into()));
        }
        if !field.bounds().contains(next) {
            return Err(refuse(format!("{next} is off the map")));
        }
        if !corner_clear(field, at, next) {
            return Err(refuse(format!(
                "the corner before {next} blocks sight: too high to jump past"
            )));
        }
        if k + 1 < path.len() && field.blocks_sight(next) {
            return Err(refuse(format!(
                "{next} blocks sight: too high to jump over"
            )));
        }
        at = next;
    }
    let len = path.len() as u32;
    if len > reach {
        return Err(refuse(format!(
            "{len} squares is too far: {}",
            reach_words()
        )));
    }
    if let Some(why) = landing_refusal(field, fighters, me, last) {
        return Err(refuse(why));
    }
    Ok(len)
}

/// Every square `me` could land on with a jump reaching `reach` squares, with the path to it
/// (the squares passed over, the landing last), in square order.
pub fn landings(
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    reach: u32,
) -> BTreeMap<Square, Vec<Square>> {
    let mut out = BTreeMap::new();
    let Some(start) = me.position else {
        return out;
    };
    if me.size.squares != 1 {
        return out;
    }
    for d in Dir8::ALL {
        let mut path = Vec::new();
        let mut at = start;
        for _ in 0..reach {
            let next = at.step(d);
            if !field.bounds().contains(next) || !corner_clear(field, at, next) {
                break;
            }
            path.push(next);
            if landing_refusal(field, fighters, me, next).is_none() {
                out.insert(next, path.clone());
            }
            if field.blocks_sight(next) {
                break;
            }
            at = next;
        }
    }
    out
}
