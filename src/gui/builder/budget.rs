//! The builder's point budget: what each unit and side costs under the ruleset's `points`
//! table, and the unit choices that keep a side within its budget.

use super::{BUDGETS, Builder};
use crate::character::points;

impl Builder {
    /// The most points each side may field, or none.
    pub fn budget(&self) -> Option<i64> {
        BUDGETS.get(self.budget).copied().flatten()
    }

    /// What unit `id` costs: a character of the player's own by its sheet, a roster entry by
    /// the ruleset's prices; 0 when neither knows it.
    pub fn cost_of(&self, id: &str) -> i64 {
        let Some(rules) = self.rules() else { return 0 };
        match self.own.iter().find(|c| c.id() == id) {
            Some(c) => c.points(&rules).total,
            None => points::unit_points(&rules, id).map_or(0, |p| p.total),
        }
    }

    /// What side `i` spends, leaving out its unit `without` (the one being swapped).
    pub fn spent(&self, i: usize, without: Option<usize>) -> i64 {
        self.sides[i]
            .units
            .iter()
            .enumerate()
            .filter(|(k, _)| Some(*k) != without)
            .fold(0, |sum, (_, id)| sum.saturating_add(self.cost_of(id)))
    }

    /// Whether unit `id` fits side `i`'s budget in the place of unit `without` (or added).
    fn fits(&self, i: usize, without: Option<usize>, id: &str) -> bool {
        self.budget()
            .is_none_or(|b| self.spent(i, without).saturating_add(self.cost_of(id)) <= b)
    }

    /// Left or Right on unit `k` of side `i`: the next roster entry that way that fits the
    /// side's budget; when none does, the unit stays and the message says what is left.
    pub(super) fn swap_unit(&mut self, i: usize, k: usize, step: isize) {
        let n = self.roster.len();
        let at = self
            .roster
            .iter()
            .position(|(id, _)| *id == self.sides[i].units[k])
            .unwrap_or(0);
        let next = (1..=n)
            .map(|d| (at as isize + step * d as isize).rem_euclid(n.max(1) as isize) as usize)
            .filter(|&j| j != at)
            .find(|&j| self.fits(i, Some(k), &self.roster[j].0));
        match next {
            Some(j) => self.sides[i].units[k] = self.roster[j].0.clone(),
            None if n > 1 => self.message = Some(self.nothing_fits(i, Some(k))),
            None => {}
        }
    }

    /// Adds a unit to side `i`: the side's last unit again when it fits the budget, else the
    /// first roster entry that does; refused, saying what is left, when none does.
    pub(super) fn add_unit(&mut self, i: usize) {
        let last = self.sides[i].units.last().cloned();
        let pick = last.filter(|id| self.fits(i, None, id)).or_else(|| {
            self.roster
                .iter()
                .map(|(id, _)| id.clone())
                .find(|id| self.fits(i, None, id))
        });
        match pick {
            Some(id) => self.sides[i].units.push(id),
            None => self.message = Some(self.nothing_fits(i, None)),
        }
    }

    /// Why no unit fits side `i`: its points left and the cheapest unit's cost.
    fn nothing_fits(&self, i: usize, without: Option<usize>) -> String {
        let names = crate::scenario::generate::side_names(self.sides.len());
        let left = self.budget().unwrap_or(0) - self.spent(i, without);
        let cheapest = self
            .roster
            .iter()
            .map(|(id, name)| (self.cost_of(id), name))
            .min();
        match cheapest {
            Some((cost, name)) => format!(
                "{} has {left} points left; the cheapest unit, {name}, costs {cost}.",
                names[i]
            ),
            None => format!("{} has {left} points left.", names[i]),
        }
    }

    /// The sides over the budget (after it was lowered, or a team loaded), as a refusal:
    /// nothing is saved or checked until they are mended.
    pub fn over_budget(&self) -> Option<String> {
        let b = self.budget()?;
        let names = crate::scenario::generate::side_names(self.sides.len());
        let over: Vec<String> = (0..self.sides.len())
            .filter_map(|i| {
                let spent = self.spent(i, None);
                (spent > b).then(|| format!("{} fields {spent} points", names[i]))
            })
            .collect();
        (!over.is_empty()).then(|| {
            format!(
                "Over the budget of {b} points a side: {}. Pick cheaper units or raise the budget.",
                over.join(", ")
            )
        })
    }

    /// The side's figure for its player row: `146 points`, or `146 / 150 points`, marked when
    /// over.
    pub(super) fn side_cost_label(&self, i: usize) -> String {
        let spent = self.spent(i, None);
        match self.budget() {
            None => format!("{spent} points"),
            Some(b) if spent > b => format!("{spent} / {b} points: OVER"),
            Some(b) => format!("{spent} / {b} points"),
        }
    }
}
