//! When a computer player asks an ally to join its attack with a United Attack (DBU).
//!
//! The ally pays an Action and Ki on the attacker's turn. An ally whose own turn this round is
//! over would use that Action for nothing but a converted Parry, so the planner asks only
//! such allies, and weighs the attack with the ally's terms in its Wound against the Ki the
//! ally pays.

use crate::battle::Battle;
use crate::battle::command::{AttackOrder, United};
use crate::battle::components::CombatantId;
use crate::battle::fighter::Fighter;
use crate::battle::state::TurnOrder;
use crate::ruleset::Rules;

/// Variants of `order` that an adjacent ally joins, each with the Ki the ally would pay: the
/// allies whose turn this round is over and who may join it.
pub(super) fn united_variants(
    battle: &Battle,
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
    order: &AttackOrder,
) -> Vec<(AttackOrder, i64, CombatantId)> {
    if rules.actions.united_attack.is_none() || order.united.is_some() {
        return Vec::new();
    }
    let Some(profile) = rules.profile(&order.profile) else {
        return Vec::new();
    };
    let Some(kind) = rules.attack_type(&profile.attack_type) else {
        return Vec::new();
    };
    let turns = battle.world().resource::<TurnOrder>();
    fighters
        .iter()
        .filter(|f| f.side == me.side && f.id != me.id && !turns.yet_to_end(f.id))
        .filter_map(|f| {
            let u = United {
                ally: f.id,
                wager: 0,
            };
            let h = crate::battle::united::help(rules, fighters, me, profile, kind, &u).ok()?;
            Some((
                AttackOrder {
                    united: Some(u),
                    ..order.clone()
                },
                h.ki_cost,
                f.id,
            ))
        })
        .collect()
}
