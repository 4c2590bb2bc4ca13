//! The d20 choices a computer player weighs: on top of each attack, Power Attack at the
//! level's shares of its cap and the aimed shots (at the armour's gaps, through the cover);
//! beside the attacks, a feint at each foe in sight.

use super::{Candidate, Settings, Situation};
use crate::battle::command::{AttackOrder, AttackTarget, Command};
use crate::battle::components::FeintMark;
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

/// Feints worth a look, one for each foe in sight: the chance the feint catches it times what
/// the off-guard bonus adds to the best attack on it from here next turn (every action back,
/// the round's log clear), less the risk of standing here. The feint takes the round's
/// Standard action, so it beats attacking only where no attack now is worth as much: with one
/// action left beside a foe that only a full round's attack can hit, say.
pub(super) fn feint_options(
    s: &mut Situation,
    (fighters, me): (&[Fighter], &Fighter),
    orders: &[AttackOrder],
    risk: f64,
) -> Vec<Candidate> {
    let Some(d) = s.rules.d20() else {
        return Vec::new();
    };
    if d20::feint::rule(d).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for foe in fighters
        .iter()
        .filter(|f| f.side != me.side && !f.defeated())
    {
        let feint = Command::Feint {
            who: me.id,
            target: foe.id,
        };
        if d20::feint::check_feint(s.rules, &s.field, fighters, me, foe.id).is_err() {
            continue;
        }
        let mut next = me.clone();
        next.actions.standard = d.combat.actions_per_round;
        next.actions.steady = 0;
        next.round = Default::default();
        let mut caught = next.clone();
        caught.encounter.feints.retain(|m| m.target != foe.id);
        caught.encounter.feints.push(FeintMark {
            target: foe.id,
            attempts: 1,
            ready: true,
        });
        let on_foe: Vec<&AttackOrder> = orders
            .iter()
            .filter(|o| o.target == AttackTarget::Combatant(foe.id))
            .collect();
        let mut best = |who: &Fighter| {
            on_foe
                .iter()
                .filter_map(|o| s.attack_value(fighters, who, o))
                .fold(0.0f64, f64::max)
        };
        let gain = best(&caught) - best(&next);
        if gain > 0.0 {
            out.push(Candidate {
                score: d20::feint::chance(d, me, foe) * gain - risk,
                command: feint,
            });
        }
    }
    out
}
