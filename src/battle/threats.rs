//! The enemy threat overlay's view model: every square an opponent of the viewing side could
//! attack on its next turn, in melee or with an attack that reaches farther, worked out from
//! the rules (Speed, the moves a turn allows, each attack's reach and area, Ki to pay for it)
//! so the window only colours it.

use std::collections::BTreeSet;

use super::Battle;
use super::command::{AttackOrder, AttackTarget};
use super::components::{Side, Square};
use super::context::{declaration, ki_cost, reach};
use super::fighter::{Fighter, can_end_on};
use super::hide::hidden_from;
use super::movement::{reachable_within, speed};
use crate::grid::Field;
use crate::ruleset::{AreaOrigin, AreaShape, Reach, Rules, Targeting};

/// The squares the viewing side's opponents threaten next turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreatMap {
    /// Squares some opponent can reach with a melee attack after moving.
    pub melee: BTreeSet<Square>,
    /// Squares only an attack that reaches farther (a Ki blast, a bow, an area) can reach.
    /// Walls in the way are not checked: a square behind cover may be marked.
    pub ranged: BTreeSet<Square>,
}

/// How far `o`'s attack with profile `pid` reaches from where it stands, in squares, and
/// whether it is a melee attack; `None` when it cannot make it now (Ki, cards, the profile).
fn attack_extent(rules: &Rules, o: &Fighter, pid: &str) -> Option<(Option<u32>, bool)> {
    if !super::family::of(rules).threatens_with(o, pid) {
        return None;
    }
    let order = AttackOrder {
        attacker: o.id,
        profile: pid.to_string(),
        technique: None,
        target: AttackTarget::Combatant(o.id),
        wager: 0,
        element: o.loadout.elements.first().cloned(),
        push: None,
        sneak: false,
        called_shot: None,
        united: None,
        discard: None,
        power_attack: 0,
        aimed: Default::default(),
    };
    let decl = declaration(rules, o, &order, 1).ok()?;
    if ki_cost(o, &decl) > o.ki.current {
        return None;
    }
    let melee = decl.attack_type.reach == Reach::Melee;
    let aim = reach(o, &decl);
    let extent = match decl.profile.targeting {
        Targeting::Single => aim,
        Targeting::Area { shape, origin, .. } => match (shape, origin) {
            (AreaShape::Reach, _) => Some(o.size.melee_range),
            (AreaShape::Sphere { radius }, AreaOrigin::ChosenSquare) => aim.map(|r| r + radius),
            (AreaShape::Sphere { radius }, AreaOrigin::Attacker) => Some(radius),
            (AreaShape::Cone { length, .. } | AreaShape::Line { length, .. }, _) => Some(length),
        },
    };
    Some((extent, melee))
}

/// The squares `o` could stand on to attack from next turn: where it stands, and every
/// square it can end a move on with the moves it may make and still attack.
fn attack_positions(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    o: &Fighter,
) -> Vec<Square> {
    let Some(at) = o.position else {
        return Vec::new();
    };
    let family = super::family::of(rules);
    let moves = (0..=rules.actions.moves_per_round)
        .rev()
        .find(|m| family.attacks_in_round(o, *m) >= 1)
        .unwrap_or(0);
    let mut ends = vec![at];
    if moves > 0 {
        let budget = speed(rules, o, false).saturating_mul(moves);
        ends.extend(
            reachable_within(field, fighters, o, at, budget)
                .into_keys()
                .filter(|s| *s != at && can_end_on(fighters, o, *s)),
        );
    }
    ends
}

/// Each square's distance (in squares, diagonals counting one) to the nearest square covered
/// by a footprint of `size` standing on one of `ends`, row by row: a two-pass sweep, exact
/// for that distance, instead of comparing every square with every end.
fn distances(width: u32, height: u32, ends: &[Square], size: u32) -> Vec<u32> {
    let (w, h) = (width as usize, height as usize);
    let mut d = vec![u32::MAX; w * h];
    for e in ends {
        for s in crate::grid::footprint(*e, size) {
            if s.x >= 0 && s.y >= 0 && (s.x as usize) < w && (s.y as usize) < h {
                d[s.y as usize * w + s.x as usize] = 0;
            }
        }
    }
    let relax = |d: &mut Vec<u32>, i: usize, j: usize| {
        let via = d[j].saturating_add(1);
        if via < d[i] {
            d[i] = via;
        }
    };
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if x > 0 {
                relax(&mut d, i, i - 1);
            }
            if y > 0 {
                relax(&mut d, i, i - w);
                if x > 0 {
                    relax(&mut d, i, i - w - 1);
                }
                if x + 1 < w {
                    relax(&mut d, i, i - w + 1);
                }
            }
        }
    }
    for y in (0..h).rev() {
        for x in (0..w).rev() {
            let i = y * w + x;
            if x + 1 < w {
                relax(&mut d, i, i + 1);
            }
            if y + 1 < h {
                relax(&mut d, i, i + w);
                if x + 1 < w {
                    relax(&mut d, i, i + w + 1);
                }
                if x > 0 {
                    relax(&mut d, i, i + w - 1);
                }
            }
        }
    }
    d
}

impl Battle {
    /// Every square an opponent of `viewer` that `viewer` can see could attack on its next
    /// turn: Normal Speed over the moves it can make and still attack (a move that cannot end
    /// on a square still passes it), each attack it can pay for with its reach and area.
    pub fn threat_map(&mut self, viewer: Side) -> ThreatMap {
        let fighters = self.fighters();
        let rules = self.rules.clone();
        let field = self.field();
        let map = self.map().clone();
        let mut out = ThreatMap::default();
        for o in &fighters {
            if o.side == viewer
                || o.defeated()
                || o.position.is_none()
                || hidden_from(&fighters, o.id, viewer)
            {
                continue;
            }
            let (mut melee, mut ranged): (Option<u32>, Option<u32>) = (None, None);
            let mut anywhere = false;
            for pid in &o.loadout.profiles {
                match attack_extent(&rules, o, pid) {
                    Some((None, _)) => anywhere = true,
                    Some((Some(r), true)) => melee = Some(melee.map_or(r, |m| m.max(r))),
                    Some((Some(r), false)) => ranged = Some(ranged.map_or(r, |m| m.max(r))),
                    None => {}
                }
            }
            if melee.is_none() && ranged.is_none() && !anywhere {
                continue;
            }
            let ends = attack_positions(&rules, &field, &fighters, o);
            let near = distances(map.width, map.height, &ends, o.size.squares);
            for (i, d) in near.iter().enumerate() {
                let s = Square::new(
                    (i % map.width as usize) as i32,
                    (i / map.width as usize) as i32,
                );
                if melee.is_some_and(|m| *d <= m) {
                    out.melee.insert(s);
                } else if anywhere || ranged.is_some_and(|r| *d <= r) {
                    out.ranged.insert(s);
                }
            }
        }
        out.ranged.retain(|s| !out.melee.contains(s));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::footprint_distance;

    #[test]
    fn the_sweep_gives_each_square_its_distance_to_the_nearest_footprint() {
        let ends = [Square::new(2, 3), Square::new(9, 1)];
        for size in [1, 2] {
            let d = distances(12, 7, &ends, size);
            for y in 0..7 {
                for x in 0..12 {
                    let s = Square::new(x, y);
                    let want = ends
                        .iter()
                        .map(|e| footprint_distance(*e, size, s, 1))
                        .min()
                        .unwrap_or(u32::MAX);
                    assert_eq!(d[y as usize * 12 + x as usize], want, "{s:?} size {size}");
                }
            }
        }
    }
}
