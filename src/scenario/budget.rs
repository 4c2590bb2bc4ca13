//! A scenario's point budget: each side may field units worth at most `budget` points under
//! its ruleset's price table, so a skirmish built to a budget stays fair when it is edited by
//! hand, and `gridclash validate` says which side spends too much.

use std::path::Path;

use super::Scenario;
use crate::character::Character;
use crate::character::points::{self, Points};
use crate::ruleset::{FieldPath, Rules, RulesError};

/// What each side of `s` spends: per side, each unit's name and cost, in the scenario's order.
/// A unit the roster does not know costs 0 (the scenario's own check names it).
pub fn side_points(s: &Scenario, rules: &Rules) -> Vec<Vec<(String, i64)>> {
    let mut out = vec![Vec::new(); s.sides.len()];
    for u in &s.units {
        let priced: Option<(String, Points)> = match (&u.archetype, &u.stats) {
            (Some(id), _) => points::unit_points(rules, id).map(|p| {
                let name = rules.archetype(id).map_or(id.clone(), |a| a.name.clone());
                (name, p)
            }),
            (None, Some(stats)) => {
                let c = Character::Dbu(Box::new(stats.clone()));
                Some((stats.name.clone(), c.points(rules)))
            }
            (None, None) => None,
        };
        if let (Some(side), Some((name, p))) = (out.get_mut(usize::from(u.side)), priced) {
            side.push((u.name.clone().unwrap_or(name), p.total));
        }
    }
    out
}

/// Every way `s` breaks its budget: a side spending more than it, a budget below 0, or a
/// price table that names no field (so the budget would be kept by accident). Nothing when
/// the scenario has no budget.
pub fn check(s: &Scenario, rules: &Rules, path: &Path, src: &str) -> Vec<RulesError> {
    let Some(budget) = s.budget else {
        return Vec::new();
    };
    let at = FieldPath::root().field("budget");
    let mut errs: Vec<RulesError> = points::check_prices(rules)
        .into_iter()
        .map(|(_, m)| RulesError::at(path, src, &at, format!("the budget cannot be kept: {m}")))
        .collect();
    if budget < 0 {
        errs.push(RulesError::at(
            path,
            src,
            &at,
            format!("a budget is 0 points or more, not {budget}"),
        ));
    }
    for (side, units) in s.sides.iter().zip(side_points(s, rules)) {
        let spent = units
            .iter()
            .fold(0i64, |sum, (_, p)| sum.saturating_add(*p));
        if spent > budget {
            let each: Vec<String> = units.iter().map(|(n, p)| format!("{n} {p}")).collect();
            errs.push(RulesError::at(
                path,
                src,
                &at,
                format!(
                    "{} fields {spent} points, over the budget of {budget} ({}; prices in {})",
                    side.name,
                    each.join(", "),
                    rules.dir.join(crate::ruleset::build::PRICES_FILE).display()
                ),
            ));
        }
    }
    errs
}
