//! What the computer players count a maneuver's side effects worth beside its damage: the Life
//! a condition takes over its turns, and the Ki an Empower hands an ally short of it.

use crate::battle::command::{AttackOrder, AttackTarget, Command};
use crate::battle::context::{declaration, ki_cost};
use crate::battle::fighter::Fighter;
use crate::ruleset::Rules;

/// What a Ki point is worth in damage.
const KI_PRICE: f64 = 0.45;

/// What a Ki point is worth: more as Ki runs low, so a unit does not spend it all at once.
pub(super) fn ki_price(me: &Fighter) -> f64 {
    let left = me.ki.current.max(1) as f64;
    KI_PRICE * (me.ki.max.max(1) as f64 / left).clamp(1.0, 4.0)
}

/// The Actions of a round of `rounds` that the conditions `grants` take from their target:
/// Slowed's per stack, Transfigured's Slowed, all of them while Pinned.
pub(super) fn actions_lost(
    rules: &Rules,
    grants: &[crate::ruleset::ConditionGrant],
    rounds: f64,
) -> f64 {
    use crate::ruleset::{ConditionKind, ConditionRule};
    let per_stack = match rules.condition(ConditionKind::Slowed).rule {
        ConditionRule::Slowed { actions_per_stack } => f64::from(actions_per_stack),
        _ => 0.0,
    };
    let lost: f64 = grants
        .iter()
        .map(|g| match rules.condition(g.condition).rule {
            ConditionRule::Slowed { .. } => per_stack,
            ConditionRule::Transfigured { slowed_stacks } => per_stack * f64::from(slowed_stacks),
            ConditionRule::Pinned { .. } => rounds,
            _ => 0.0,
        })
        .sum();
    lost.min(rounds)
}

/// The share of its Life a fighter has left.
pub(super) fn life_left(f: &Fighter) -> f64 {
    f.life.current.max(0) as f64 / f.life.max.max(1) as f64
}

/// The Ki the dearest of `f`'s Basic Attack profiles costs it now: an ally with less cannot
/// make every attack it has, and only such an ally is worth Empowering.
fn dearest_attack(rules: &Rules, f: &Fighter) -> i64 {
    f.loadout
        .profiles
        .iter()
        .filter_map(|pid| {
            let order = AttackOrder {
                attacker: f.id,
                profile: pid.clone(),
                technique: None,
                target: AttackTarget::Combatant(f.id),
                wager: 0,
                element: f.loadout.elements.first().cloned(),
                push: None,
                sneak: false,
                called_shot: None,
                united: None,
                discard: None,
                power_attack: 0,
                aimed: Default::default(),
            };
            declaration(rules, f, &order, 1)
                .ok()
                .map(|d| ki_cost(f, &d))
        })
        .max()
        .unwrap_or(0)
}

/// Turns of a condition that lasts until it is ended which a computer player counts on.
const UNTIL_ENDED_TURNS: f64 = 3.0;

/// The Life a condition given by `g` takes from `t` over its turns: Damage Over Time's amount
/// and Poisoned's share of the maximum Life each turn (none for any other condition).
pub(super) fn lasting_damage(
    rules: &Rules,
    g: &crate::ruleset::ConditionGrant,
    t: &Fighter,
) -> f64 {
    let turns = if g.rounds == 0 {
        UNTIL_ENDED_TURNS
    } else {
        f64::from(g.rounds)
    };
    let per_turn = match &rules.condition(g.condition).rule {
        crate::ruleset::ConditionRule::DamageOverTime { .. } => g.amount.as_ref().map_or(0, |a| {
            crate::battle::fighter::at_tier(a, t.power.tier, t.power.base_tier)
        }) as f64,
        crate::ruleset::ConditionRule::Poisoned { life_loss, .. } => {
            life_loss.of(t.life.max) as f64
        }
        _ => 0.0,
    };
    per_turn * turns
}

/// Rounds of a Full Empowerment's Fatigued and Impediment a unit at full Life weighs, each
/// at half its best attack.
const EMPOWER_FULL_ROUNDS: f64 = 6.0;
/// The share of a Ki transfer's scarcity gain an Empower is credited with (0.25 and the
/// threshold of a quarter of the ally's Ki measured no better).
const EMPOWER_GAIN: f64 = 0.5;

/// Empower (DBU): Ki handed to an ally who needs it more than the unit does, each Ki weighed
/// at both ends by how short of Ki its holder is halfway through the transfer; a Full
/// Empowerment also weighs what Fatigued and Impediment cost the unit for as long as it
/// lasts. The Exploits of adjacent opponents and the risk of standing here count against.
///
/// `against` is what it costs beside its Actions: the adjacent opponents' Exploits and the
/// weighed risk of standing here. Each option comes with its score.
pub(super) fn empower_options(
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
    best_here: f64,
    against: (f64, f64),
) -> Vec<(f64, Command)> {
    let (exploits, risk) = against;
    let who = me.id;
    let mut options = Vec::new();
    if rules.actions.empower.is_none() || me.round.empowered || me.ki.current <= 0 {
        return options;
    }
    let usable = me.actions.usable();
    let mut plans: Vec<(u32, bool)> = (1..=usable.min(3)).map(|n| (n, false)).collect();
    plans.push((1, true));
    for ally in fighters
        .iter()
        .filter(|f| f.side == me.side && f.id != who && !f.defeated() && f.position.is_some())
        .filter(|f| f.ki.current < dearest_attack(rules, f))
    {
        for &(n, full) in &plans {
            if crate::battle::empower::check_empower(rules, fighters, me, ally.id, n, full).is_err()
            {
                continue;
            }
            let amount = crate::battle::empower::empower_amount(rules, me, ally, n, full);
            let half = amount / 2;
            let mut a = ally.clone();
            a.ki.current += half;
            let mut m = me.clone();
            m.ki.current -= half;
            // A Full Empowerment is a last gift: the unit's own Ki serves it only as long as
            // it lasts. (Weighing every Empower so measured worse.)
            let mine = ki_price(&m) * if full { life_left(me) } else { 1.0 };
            let gain = amount as f64 * (ki_price(&a) - mine) * EMPOWER_GAIN;
            if gain <= 0.0 {
                continue;
            }
            let price = if full {
                EMPOWER_FULL_ROUNDS * life_left(me) * best_here * 0.5
            } else {
                0.0
            };
            let left = f64::from(usable.saturating_sub(n));
            options.push((
                gain + left * best_here - price - exploits - risk,
                Command::Empower {
                    who,
                    ally: ally.id,
                    actions: n,
                    full,
                },
            ));
        }
    }
    options
}

/// The share of the hold's follow-up a Grapple is credited with when that follow-up must wait
/// for the next turn (the one held may break free meanwhile).
const HOLD_LATER: f64 = 0.5;
/// Turns of the one held a Pin takes: its turn this round when still to come, and next
/// round's when that comes before the grappler's (the Pinned lasts to the grappler's next
/// turn's end).
const PIN_TURNS: f64 = 1.5;
/// Turns an Absorbed opponent is counted out at most.
const ABSORBED_TURNS: f64 = 3.0;
/// The share of an attack's worth Guard Down adds to it (or to an opponent's against the
/// unit): the lower of two Dodge dice and the penalty. 0.1 measured best of 0, 0.1 and 0.25.
const GUARD_DOWN_SHARE: f64 = 0.1;
/// How near (in squares) an ally or an opponent counts as taking part in a hold's round.
const NEAR_HOLD: u32 = 3;

/// The grappling maneuvers (DBU): a Pin is worth the turn of attacks it takes from the one
/// held; an Absorb those turns for as long as the target is expected to stay inside; a Grapple
/// the better of those it makes possible (this turn if the Actions are left, else half of it
/// next turn), less the target's Exploit should it fail; an escape the grappler's Pin it
/// avoids. Each is weighed by its exact chance, from the rolls the maneuver makes.
///
/// `threat` is an opponent's expected damage per attack to the unit; `risk` the weighed risk
/// of standing here. Each option comes with its score.
pub(super) fn grapple_options(
    rules: &Rules,
    field: &crate::grid::Field,
    fighters: &[Fighter],
    me: &Fighter,
    best_here: f64,
    threat: &dyn Fn(crate::battle::components::CombatantId) -> f64,
    risk: f64,
) -> Vec<(f64, Command)> {
    use crate::battle::command::GrappleAct;
    use crate::battle::grapple::{check_grapple, success_chance};
    let mut options = Vec::new();
    let Some(g) = &rules.actions.grapple else {
        return options;
    };
    let usable = me.actions.usable();
    let turn = f64::from(rules.actions.standard_actions);
    let left_after = |n: u32| f64::from(usable.saturating_sub(n)) * best_here;
    // What holding `t` is worth with `left` Actions: the best of a Pin and an Absorb.
    let hold_worth = |holder: &Fighter, t: &Fighter, left: u32| -> f64 {
        let mut best: f64 = 0.0;
        for (act, cost) in [
            (GrappleAct::Pin, g.pin_actions),
            (GrappleAct::Absorb, g.absorb_actions),
        ] {
            if act == GrappleAct::Absorb && !holder.loadout.absorber {
                continue;
            }
            let p = success_chance(rules, field, holder, t, act).unwrap_or(0.0);
            let turns = if act == GrappleAct::Absorb {
                ABSORBED_TURNS
            } else {
                PIN_TURNS
            };
            let worth = p * threat(t.id) * turn * turns;
            let later = if left >= cost { 1.0 } else { HOLD_LATER };
            let rest = f64::from(left.saturating_sub(cost)) * best_here;
            best = best.max(later * worth + rest);
        }
        best
    };
    // A round of hold: both have Guard Down, so the unit and the allies near the target
    // strike it more surely, and the opponents near the unit strike the unit more surely.
    let near = |a: &Fighter, b: &Fighter| a.distance_to(b).is_some_and(|d| d <= NEAR_HOLD);
    let hold_round = |t: &Fighter| -> f64 {
        let allies = fighters
            .iter()
            .filter(|f| f.side == me.side && f.id != me.id && !f.defeated() && near(f, t))
            .count() as f64;
        let exposed: f64 = fighters
            .iter()
            .filter(|f| f.side != me.side && !f.defeated() && near(f, me))
            .map(|f| threat(f.id))
            .sum();
        GUARD_DOWN_SHARE * turn * (best_here * (1.0 + 0.5 * allies) - exposed)
    };
    for t in fighters
        .iter()
        .filter(|f| f.side != me.side && !f.defeated())
    {
        let tried = |act| check_grapple(rules, fighters, me, t.id, act).is_ok();
        let p = |act| success_chance(rules, field, me, t, act).unwrap_or(0.0);
        if tried(GrappleAct::Seize) {
            let q = p(GrappleAct::Seize);
            let mut held = me.clone();
            held.encounter.grapple = Some(crate::battle::components::GrappleHold {
                with: t.id,
                holds: true,
            });
            let left = usable.saturating_sub(g.actions);
            // Worth it only with the Actions for the Pin or Absorb it makes possible left
            // this turn (seizing for Guard Down alone, or for next turn's Pin, measured worse).
            if left < g.pin_actions.min(g.absorb_actions) {
                continue;
            }
            let follow = hold_worth(&held, t, left).max(f64::from(left) * best_here);
            let exploit = if t.actions.counter > 0 {
                threat(t.id)
            } else {
                0.0
            };
            options.push((
                q * (follow + hold_round(t)) + (1.0 - q) * (left_after(g.actions) - exploit) - risk,
                Command::Grapple {
                    who: me.id,
                    target: t.id,
                    act: GrappleAct::Seize,
                },
            ));
        }
        for act in [GrappleAct::Pin, GrappleAct::Absorb] {
            if tried(act) {
                let cost = if act == GrappleAct::Pin {
                    g.pin_actions
                } else {
                    g.absorb_actions
                };
                let turns = if act == GrappleAct::Absorb {
                    ABSORBED_TURNS
                } else {
                    PIN_TURNS
                };
                options.push((
                    p(act) * threat(t.id) * turn * turns + left_after(cost) - risk,
                    Command::Grapple {
                        who: me.id,
                        target: t.id,
                        act,
                    },
                ));
            }
        }
        for n in 1..=usable.min(2) {
            let act = GrappleAct::Escape { actions: n };
            if tried(act) {
                let pinned = success_chance(rules, field, t, me, GrappleAct::Pin).unwrap_or(0.0);
                options.push((
                    p(act) * pinned * threat(t.id) * turn + left_after(n) - risk,
                    Command::Grapple {
                        who: me.id,
                        target: t.id,
                        act,
                    },
                ));
            }
        }
    }
    options
}

/// The least chance of going unseen a computer player Hides at.
const HIDE_AT_LEAST: f64 = 0.5;

/// Hide (DBU), only when it is likely to go unseen (at least even odds): with its exact
/// chance the unit cannot be attacked until it attacks (the risk of standing here is gone)
/// and its next attack finds the target as if Guard Down; plus the actions left. Hiding at
/// any odds measured 22 to 27 wins of 960 worse; at even odds or better, 6 worse (noise).
pub(super) fn hide_worth(
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
    best_here: f64,
    risk: f64,
) -> f64 {
    let p = crate::battle::hide::hide_chance(rules, fighters, me);
    let actions = rules.actions.hide.as_ref().map_or(1, |h| h.actions);
    let left = f64::from(me.actions.usable().saturating_sub(actions));
    if p < HIDE_AT_LEAST {
        return f64::NEG_INFINITY;
    }
    left * best_here - (1.0 - p) * risk + p * GUARD_DOWN_SHARE * best_here
}
