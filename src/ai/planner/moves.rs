//! The planner's moves: the most promising squares a walk (at Normal or Boosted Speed) or a
//! jump (the ninja chapter) reaches, each scored by the attack it makes possible, the progress
//! toward the opponents, and what getting there and standing there cost.

use std::collections::{BTreeMap, BTreeSet};

use super::{Candidate, Situation};
use crate::ai::worth::ki_price;
use crate::battle::command::{AttackOrder, Command};
use crate::battle::family::Family;
use crate::battle::family::shinobi::drop_between;
use crate::battle::fighter::{Fighter, can_end_on, provoked_by};
use crate::battle::movement::{boosted_cost, jump_landings, reachable_squares};
use crate::grid::path::path_to;
use crate::grid::{Square, footprint_distance};

/// The distance from `sq` to the nearest opponent.
fn nearest(sq: Square, s: &Situation) -> u32 {
    s.opponents()
        .filter_map(|o| {
            Some(footprint_distance(
                sq,
                s.me.size.squares,
                o.position?,
                o.size.squares,
            ))
        })
        .min()
        .unwrap_or(0)
}

/// The damage `me` expects on the way along `path` from `here`: the opportunity attacks
/// (Exploits) of the opponents whose reach it leaves that can answer, and the falls. A walk
/// falls on each drop it enters (as the prefilter counts it), a jump only on landing below
/// where it started.
fn price_of_path(
    s: &Situation,
    family: &dyn Family,
    fighters: &[Fighter],
    me: &Fighter,
    here: Square,
    path: &[Square],
    jump: bool,
) -> f64 {
    let mut price = 0.0;
    let mut at = here;
    let mut visited = vec![here];
    for step in path {
        for o in provoked_by(fighters, me, at, *step) {
            let answers = fighters.iter().find(|f| f.id == o).is_some_and(|f| {
                family.move_provokes(&visited, me.size.squares, f) && family.can_answer_now(f)
            });
            if answers {
                price += s.threat.get(&o).map_or(0.0, |t| t.0);
            }
        }
        at = *step;
        visited.push(at);
        if !jump && let Some(feet) = s.field.terrain(at).and_then(|t| t.drop) {
            price += family.fall_risk(me, feet);
        }
    }
    if jump
        && let Some(&landing) = path.last()
        && let Some(feet) = drop_between(&s.field, here, landing)
    {
        price += family.fall_risk(me, feet);
    }
    price
}

/// Squares first by how near an opponent (one square away best) and how safe they are, then
/// by square: the order in which the level's `move_squares` are scored in full.
fn prefilter(s: &Situation, squares: impl Iterator<Item = Square>) -> Vec<Square> {
    let mut ranked: Vec<(f64, Square)> = squares
        .map(|sq| {
            let d = nearest(sq, s) as f64;
            let h = -(d - 1.0).abs() - s.settings.risk_weight * s.risk(sq) * 0.1;
            (h, sq)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.truncate(s.settings.move_squares);
    ranked.into_iter().map(|(_, sq)| sq).collect()
}

/// The move options of `me` standing on `here`: walks to the level's most promising squares
/// at each Speed it may use, then jumps to the most promising squares no walk reaches, or that
/// a weighed walk reaches only at a higher price on the way. `orders` are its candidate attacks, weighed
/// from each square when the level looks ahead with the `left_after` actions left.
pub(super) fn candidates(
    s: &mut Situation,
    fighters: &[Fighter],
    me: &Fighter,
    here: Square,
    orders: &[AttackOrder],
    left_after: f64,
) -> Vec<Candidate> {
    let rules = s.rules;
    let family = crate::battle::family::of(rules);
    let mut options = Vec::new();
    if me.round.moves >= rules.actions.moves_per_round || me.actions.usable() == 0 {
        return options;
    }
    let now = nearest(here, s);
    // The score of ending on `sq` by a way that costs `price` and `ki` Ki.
    let score = |s: &mut Situation, sq: Square, price: f64, ki: f64| {
        let after = if s.settings.lookahead && left_after > 0.0 {
            left_after
                * s.best_attack_from(sq, orders)
                    .map_or(0.0, |(v, _)| v.max(0.0))
        } else {
            0.0
        };
        let progress = 0.5 * (f64::from(now) - f64::from(nearest(sq, s))).max(0.0);
        after + progress - price - ki - s.settings.risk_weight * s.risk(sq)
    };
    let mut speeds = vec![false];
    if s.settings.boosted && me.can_pay(boosted_cost(rules, me)).is_ok() {
        speeds.push(true);
    }
    // What the way to each square scored costs on the way, and every square a walk reaches.
    let mut walked: BTreeMap<Square, f64> = BTreeMap::new();
    let mut walkable: BTreeSet<Square> = BTreeSet::new();
    for boosted in speeds {
        let reach_map = reachable_squares(rules, &s.field, fighters, me, boosted);
        walkable.extend(reach_map.keys().copied());
        let ends = reach_map
            .keys()
            .copied()
            .filter(|sq| *sq != here && can_end_on(fighters, me, *sq))
            .filter(|sq| !walked.contains_key(sq));
        for sq in prefilter(s, ends) {
            walked.insert(sq, f64::INFINITY);
            let Some(path) = path_to(&reach_map, here, sq) else {
                continue;
            };
            let price = price_of_path(s, family, fighters, me, here, &path, false);
            walked.insert(sq, price);
            let ki = if boosted {
                ki_price(me) * boosted_cost(rules, me) as f64
            } else {
                0.0
            };
            options.push(Candidate {
                score: score(s, sq, price, ki),
                command: Command::Move {
                    who: me.id,
                    path,
                    boosted,
                },
            });
        }
    }
    let landings = jump_landings(rules, &s.field, fighters, me);
    let priced: BTreeMap<Square, (Vec<Square>, f64)> = landings
        .into_iter()
        .map(|(sq, path)| {
            let price = price_of_path(s, family, fighters, me, here, &path, true);
            (sq, (path, price))
        })
        // A square a walk reaches is jumped to only when the walk there was weighed and costs
        // more on the way (opportunity attacks, falls).
        .filter(|(sq, (_, price))| {
            !walkable.contains(sq) || walked.get(sq).is_some_and(|w| price < w)
        })
        .collect();
    for sq in prefilter(s, priced.keys().copied()) {
        let (path, price) = &priced[&sq];
        options.push(Candidate {
            score: score(s, sq, *price, 0.0),
            command: Command::Jump {
                who: me.id,
                path: path.clone(),
            },
        });
    }
    options
}
