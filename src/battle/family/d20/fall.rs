//! d20 falls: "The impact after a fall does 3 CD for every yard fallen, to a maximum of 200
//! CD." Stepping from a square that is not a drop onto one is a fall of the drop's feet.

use crate::battle::components::Square;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::ruleset::Rules;
use crate::ruleset::d20::D20Data;

/// What a fall does to one character: the whole yards fallen, the impact, the armour DR
/// against the impact's damage type (as against any hit of that type: our reading, the text
/// says nothing of armour and falls) and the damage left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct D20Fall {
    pub yards: u32,
    pub impact: i64,
    pub dr: i64,
    pub damage: i64,
}

/// The fall of `f` down `feet` feet, by the ruleset's `falling` rule (nothing without one).
pub fn fall(d: &D20Data, f: &Fighter, feet: u32) -> D20Fall {
    let Some(rule) = &d.combat.falling else {
        return D20Fall {
            yards: feet / 3,
            impact: 0,
            dr: 0,
            damage: 0,
        };
    };
    let yards = feet / 3;
    let impact = (rule.per_yard * i64::from(yards)).min(rule.max);
    let dr = super::armour_dr(d, f, &rule.damage_type).map_or(0, |(dr, _)| dr);
    D20Fall {
        yards,
        impact,
        dr,
        damage: (impact - dr).max(0),
    }
}

/// Applies the fall of `mover` down `feet` feet onto `at` to its query item `f`, logged.
pub fn land(
    rules: &Rules,
    d: &D20Data,
    mover: &Fighter,
    at: Square,
    feet: u32,
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) {
    let fell = fall(d, mover, feet);
    log.push(BattleEvent::D20Fell {
        who: mover.id,
        at,
        feet,
        yards: fell.yards,
        impact: fell.impact,
        dr: fell.dr,
        damage: fell.damage,
    });
    crate::battle::family::shinobi::hurt(rules, f, fell.damage, None, "falling damage", log);
}
