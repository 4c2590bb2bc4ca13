//! The d20 choices a computer player weighs on top of each attack: Power Attack at the
//! level's shares of its cap, and the aimed shots (at the armour's gaps, through the cover).

use super::Settings;
use crate::battle::command::AttackOrder;
use crate::battle::family::d20;
use crate::battle::fighter::Fighter;
use crate::grid::Field;
use crate::ruleset::Rules;

/// The d20 variants of `o` worth a look: each Power Attack the level's wager shares give
/// (while none is in effect this turn) and each aimed shot allowed now. Nothing outside d20.
pub(super) fn variants(
    rules: &Rules,
    field: &Field,
    (fighters, me): (&[Fighter], &Fighter),
    settings: &Settings,
    o: &AttackOrder,
) -> Vec<AttackOrder> {
    let Some(d) = rules.d20() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let cap = d
        .attack(&o.profile)
        .filter(|_| me.encounter.power_attack.is_none())
        .and_then(|a| d20::power_attack_cap(d, me, a));
    for f in settings.wagers.iter().filter(|f| **f > 0.0) {
        let n = (cap.unwrap_or(0) as f64 * f).floor() as i64;
        if n > 0 {
            out.push(AttackOrder {
                power_attack: n,
                ..o.clone()
            });
        }
    }
    out.extend(d20::aimed::variants(d, field, me, fighters, o));
    out
}
