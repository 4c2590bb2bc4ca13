//! Attack Declaration's first half: the profile an order uses, its declaration (type, technique,
//! element), the targets it reaches and the squares of an area.

use bevy::prelude::*;

use crate::battle::command::{AttackOrder, AttackTarget, RuleError};
use crate::battle::components::*;
use crate::battle::context::reach;
use crate::battle::context::{declaration, used_profile};
use crate::battle::fighter::Fighter;
use crate::grid::area::covered;
use crate::grid::los::{clear_between, clear_but_full_cover};
use crate::grid::{Field, footprint, footprint_distance};
use crate::ruleset::{Affects, AreaOrigin, AreaShape, ConditionKind, Rules, Targeting};

/// Who an order hits: its single target, or every character its area covers that the area
/// affects. Single targets must be opponents in reach and in sight; areas stop at walls.
pub fn attack_targets(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    attacker: &Fighter,
    order: &AttackOrder,
) -> Result<Vec<CombatantId>, RuleError> {
    let (profile, _) = used_profile(rules, attacker, order)?;
    let decl = declaration(rules, attacker, order, 1)?;
    // A family may let a melee maneuver reach farther for this attacker (Digimon: a Clash
    // started within the Reach Quality, and the two in it at that range); its own check
    // still decides which targets that distance is for.
    let reach_sq = reach(attacker, &decl).map(|r| {
        if matches!(decl.attack_type.reach, crate::ruleset::Reach::Melee) {
            r.max(crate::battle::family::of(rules).melee_reach(attacker, &order.profile))
        } else {
            r
        }
    });
    let Some(at) = attacker.position else {
        return Err(RuleError::Absorbed(attacker.id));
    };
    let needs = |n: &'static str| RuleError::WrongTarget {
        profile: profile.name.clone(),
        needs: n,
    };
    let out_of_range = |target: CombatantId, distance: u32, reach: u32| RuleError::OutOfRange {
        target,
        distance,
        profile: profile.name.clone(),
        reach,
    };
    let mut ids: Vec<CombatantId> = match profile.targeting {
        Targeting::Single => {
            let AttackTarget::Combatant(id) = order.target else {
                return Err(needs("a target combatant"));
            };
            let t = fighters
                .iter()
                .find(|f| f.id == id)
                .ok_or(RuleError::UnknownCombatant(id))?;
            let family = crate::battle::family::of(rules);
            let helping = family.helps_allies(&order.profile);
            // Shinobi: a jutsu may be aimed at an ally too, to heal it.
            let allies_too = helping || family.aims_at_allies(&order.profile);
            // Digimon: a helping effect may be given to oneself (Direct is the partner's).
            if id == attacker.id && !helping {
                return Err(RuleError::SelfTarget(id));
            }
            if t.defeated() {
                return Err(RuleError::TargetDefeated(id));
            }
            let Some(tp) = t.position else {
                return Err(RuleError::TargetAbsent(id));
            };
            if t.conditions.has(ConditionKind::Hidden) {
                return Err(RuleError::TargetHidden(id));
            }
            if t.side == attacker.side && !allies_too {
                return Err(RuleError::NotAnOpponent(id));
            }
            if let (Some(r), Some(d)) = (reach_sq, attacker.distance_to(t))
                && d > r
            {
                return Err(out_of_range(id, d, r));
            }
            let (a_size, t_size) = (attacker.size.squares, t.size.squares);
            if !clear_between(field, at, a_size, tp, t_size) {
                // Shinobi full cover: the target behind it is attacked and the cover takes the
                // blow; the one behind it cannot attack out.
                let through =
                    t.side != attacker.side && family.struck_through_full_cover(&order.profile);
                if !(through && clear_but_full_cover(field, at, a_size, tp, t_size)) {
                    return Err(
                        if through && clear_but_full_cover(field, tp, t_size, at, a_size) {
                            RuleError::FromFullCover(id)
                        } else {
                            RuleError::NoLineOfSight(id)
                        },
                    );
                }
            }
            vec![id]
        }
        Targeting::Area {
            shape,
            origin,
            affects,
        } => {
            let squares = area_squares(
                field,
                attacker,
                order,
                &profile.name,
                shape,
                origin,
                reach_sq,
            )?;
            fighters
                .iter()
                .filter(|f| {
                    f.id != attacker.id
                        && !f.defeated()
                        && !f.conditions.has(ConditionKind::Hidden)
                        && (affects == Affects::AllButAttacker || f.side != attacker.side)
                })
                .filter(|f| {
                    f.position.is_some_and(|p| {
                        footprint(p, f.size.squares)
                            .iter()
                            .any(|s| squares.binary_search(&s).is_ok())
                    })
                })
                .map(|f| f.id)
                .collect()
        }
    };
    ids.sort();
    if ids.is_empty() {
        return Err(RuleError::NoTargets {
            profile: profile.name.clone(),
        });
    }
    Ok(ids)
}

/// The squares an area order covers (walls and squares out of sight left out), for the
/// template a player sees and for finding who the area hits.
fn area_squares(
    field: &Field,
    attacker: &Fighter,
    order: &AttackOrder,
    profile_name: &str,
    shape: AreaShape,
    origin: AreaOrigin,
    reach_sq: Option<u32>,
) -> Result<Vec<Square>, RuleError> {
    let Some(at) = attacker.position else {
        return Err(RuleError::Absorbed(attacker.id));
    };
    let needs = |n: &'static str| RuleError::WrongTarget {
        profile: profile_name.to_string(),
        needs: n,
    };
    let out_of_range = |target: CombatantId, distance: u32, reach: u32| RuleError::OutOfRange {
        target,
        distance,
        profile: profile_name.to_string(),
        reach,
    };
    let melee = reach_sq.unwrap_or(attacker.size.melee_range);
    let (from, size, dir) = match (origin, shape, order.target) {
        (
            AreaOrigin::Attacker,
            AreaShape::Cone { .. } | AreaShape::Line { .. },
            AttackTarget::Direction(d),
        ) => (at, attacker.size.squares, Some(d)),
        (AreaOrigin::Attacker, AreaShape::Cone { .. } | AreaShape::Line { .. }, _) => {
            return Err(needs("a direction"));
        }
        (AreaOrigin::Attacker, _, AttackTarget::InReach) => (at, attacker.size.squares, None),
        (AreaOrigin::Attacker, _, _) => {
            return Err(needs("no target: it covers everyone around the attacker"));
        }
        (
            AreaOrigin::ChosenSquare,
            _,
            AttackTarget::Square(s) | AttackTarget::SquareToward(s, _),
        ) => {
            if !field.bounds().contains(s) {
                return Err(RuleError::OffMap(s));
            }
            if let Some(r) = reach_sq {
                let d = footprint_distance(at, attacker.size.squares, s, 1);
                if d > r {
                    return Err(out_of_range(attacker.id, d, r));
                }
            }
            let dir = match (shape, order.target) {
                (
                    AreaShape::Cone { .. } | AreaShape::Line { .. },
                    AttackTarget::SquareToward(_, d),
                ) => Some(d),
                (AreaShape::Cone { .. } | AreaShape::Line { .. }, _) => {
                    return Err(needs("a square and a direction"));
                }
                _ => None,
            };
            // Choosing a square one occupies counts as choosing all of them.
            if footprint(at, attacker.size.squares).contains(&s) {
                (at, attacker.size.squares, dir)
            } else {
                if !clear_between(field, at, attacker.size.squares, s, 1) {
                    return Err(RuleError::SquareNotVisible(s));
                }
                (s, 1, dir)
            }
        }
        (AreaOrigin::ChosenSquare, _, _) => return Err(needs("a target square")),
    };
    Ok(covered(field, shape, from, size, dir, melee))
}

/// The squares an order's area of effect covers, or `None` for a single-target profile: what
/// the game draws as the area template, from the same geometry that resolution uses.
pub fn template(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    order: &AttackOrder,
) -> Result<Option<Vec<Square>>, RuleError> {
    let (profile, _) = used_profile(rules, attacker, order)?;
    let decl = declaration(rules, attacker, order, 1)?;
    match profile.targeting {
        Targeting::Single => Ok(None),
        Targeting::Area { shape, origin, .. } => area_squares(
            field,
            attacker,
            order,
            &profile.name,
            shape,
            origin,
            reach(attacker, &decl),
        )
        .map(Some),
    }
}
