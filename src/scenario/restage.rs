//! Another battle on a scenario's map: the skirmish builder's teams placed on the field of a
//! shipped scenario, or of one of the player's own (an edited or imported map), each side
//! inside its start zone when the map has one, and where that scenario's own units of that
//! side stood.

use super::generate::GenerateError;
use super::{Scenario, UnitDef, build_map};
use crate::battle::state::LimitOutcome;
use crate::grid::{Square, chebyshev, footprint};
use crate::ruleset::Rules;

/// `base` with its units replaced by `teams` (archetype ids, one list per side, at most as
/// many sides as `base` has). Each side's units go on the free squares they can stand on
/// nearest to where `base`'s units of that side stood, in reading order among equals: only
/// its start zone's squares when it has one, and never another side's zone; the map, sides,
/// zones and victory rules are `base`'s.
pub fn restage(
    base: &Scenario,
    teams: &[Vec<String>],
    rules: &Rules,
) -> Result<Scenario, GenerateError> {
    if teams.len() < 2 || teams.len() > base.sides.len() {
        return Err(GenerateError::Sides(
            u8::try_from(teams.len()).unwrap_or(u8::MAX),
        ));
    }
    let map = build_map(base, rules);
    let (w, h) = (base.map.width as i32, base.map.height as i32);
    let standable = |s: Square| {
        map.at(s)
            .and_then(|t| rules.terrain.types.get(usize::from(t)))
            .is_some_and(|t| t.move_cost.is_some())
    };
    let mut taken: Vec<Square> = Vec::new();
    let mut units = Vec::new();
    for (side, team) in teams.iter().enumerate() {
        let anchors: Vec<Square> = base
            .units
            .iter()
            .filter(|u| usize::from(u.side) == side)
            .map(|u| Square::new(u.at.0, u.at.1))
            .collect();
        let zone = super::zones::squares(base, side as u8);
        let mut squares: Vec<Square> = if zone.is_empty() {
            (0..h)
                .flat_map(|y| (0..w).map(move |x| Square::new(x, y)))
                .filter(|s| super::zones::zone_at(base, *s).is_none())
                .collect()
        } else {
            zone.clone()
        };
        squares.sort_by_key(|s| {
            let near = anchors.iter().map(|a| chebyshev(*a, *s)).min();
            (near.unwrap_or(u32::MAX), s.y, s.x)
        });
        for id in team {
            let archetype = rules
                .archetype(id)
                .ok_or_else(|| GenerateError::UnknownArchetype {
                    ruleset: rules.manifest.id.clone(),
                    id: id.clone(),
                    known: rules.roster_ids(),
                })?;
            let size = rules.size(&archetype.size).map_or(1, |z| z.squares);
            let fits = |at: &Square| {
                footprint(*at, size).iter().all(|s| {
                    s.x < w
                        && s.y < h
                        && standable(s)
                        && !taken.contains(&s)
                        && (zone.is_empty() || zone.contains(&s))
                })
            };
            let at = squares
                .iter()
                .copied()
                .find(fits)
                .ok_or(GenerateError::ZoneFull {
                    side,
                    zone: squares.len(),
                    units: team.len(),
                })?;
            taken.extend(footprint(at, size).iter());
            units.push(UnitDef::roster(id, side as u8, at));
        }
    }
    let mut out = base.clone();
    out.sides.truncate(teams.len());
    out.units = units;
    super::zones::keep_sides(&mut out, teams.len());
    out.guide.clear();
    if let Some(limit) = &mut out.victory.round_limit
        && let LimitOutcome::SideWins(w) = limit.outcome
        && usize::from(w) >= teams.len()
    {
        limit.outcome = LimitOutcome::Draw;
    }
    Ok(out)
}
