//! Whether a scenario can be fought out: every unit able to walk, by the ruleset's own
//! movement rules, to a square beside a unit of every other side.
//!
//! A unit walled in on its own, or two sides on islands, make a battle that ends only at its
//! round limit; the random battlefield generator ([`super::generate`]) uses this to never make
//! one, and its tests to prove it.

use crate::grid::path::reachable;
use crate::grid::{Field, Square, footprint_distance};
use crate::ruleset::Rules;

use super::{Scenario, build_map};

/// A unit that cannot get next to any unit of another side, whatever the others do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stranded {
    /// Index into the scenario's `units`.
    pub unit: usize,
    /// The side it cannot reach.
    pub side: u8,
}

/// The units of `scenario` that cannot walk next to some other side's units, ignoring where
/// the other units stand (they move) and counting every terrain's cost and the ruleset's
/// corner rule, with each unit's own footprint.
pub fn stranded_units(scenario: &Scenario, rules: &Rules) -> Vec<Stranded> {
    let map = build_map(scenario, rules);
    let field = Field {
        map: &map,
        terrain: &rules.terrain.types,
        corners: rules.terrain.line_of_sight,
    };
    let placed: Vec<(u8, Square, u32)> = scenario
        .units
        .iter()
        .map(|u| {
            let size = u
                .stats
                .as_ref()
                .or_else(|| u.archetype.as_deref().and_then(|id| rules.archetype(id)))
                .and_then(|d| rules.size(&d.size))
                .map_or(1, |z| z.squares);
            (u.side, Square::new(u.at.0, u.at.1), size)
        })
        .collect();
    let mut out = Vec::new();
    for (i, (side, at, size)) in placed.iter().enumerate() {
        let reach = reachable(&field, *at, *size, u32::MAX, |_| false);
        let sides = (0..scenario.sides.len()).filter_map(|s| u8::try_from(s).ok());
        for other in sides.filter(|s| s != side) {
            let met = placed
                .iter()
                .filter(|(s, _, _)| *s == other)
                .any(|(_, them, their_size)| {
                    reach
                        .keys()
                        .any(|q| footprint_distance(*q, *size, *them, *their_size) <= 1)
                });
            if !met {
                out.push(Stranded {
                    unit: i,
                    side: other,
                });
            }
        }
    }
    out
}
