//! The d20 family's combat (the generic "Skill and Combat System"): exploding d20 attacks that
//! must meet a range difficulty and beat any Dodge or parry, natural 1s that always fail,
//! Success Value turned into Effect Points and dice, criticals by margin, armour that stops
//! damage by type and wears when bypassed, full-round multiple attacks, Rapid Shot and Power
//! Attack.
//!
//! The family plays on the ninja chapter's engine path (action points, a chosen defense,
//! opportunity attacks); [`assemble`] builds the attack context once, and both the preview
//! ([`target_odds`]) and the resolution ([`roll_checks`], [`roll_hit`]) read it, so the odds
//! shown are the odds rolled.

pub mod aim;
pub mod aimed;
mod attack;
pub mod delay;
pub mod dive;
pub mod dive_now;
pub mod fall;
pub mod feint;
pub mod grenade;
mod hooks;
pub mod odds_text;
mod rolls;
pub mod sheet;
pub mod swift;

pub use attack::{
    Hit, assemble, check_attack, check_power_attack, cost_now, count_swing, exposed_to_shots,
    hit_notes, pay_attack, provokes, roll_checks, roll_hit, step_left, target_odds,
    worth_lying_down,
};
pub use rolls::{
    MAX_EFFECT_DICE, answer_roll, armour_dr, critical_multiplier, defense_spec, difficulty_of,
    difficulty_spec, effect_dice, effect_points, effect_spec, flanker, follow_up,
    full_round_attacks, offered, points_of, power_attack_cap, power_attack_of, range_dc, shoots,
    strike_spec, success_chances, swing, wear_armour, wound_spec,
};

use crate::battle::fighter::Fighter;
use crate::dice::distribution;
use crate::dice::{BaseDie, Dist, RollKind, RollSpec};
use crate::ruleset::d20::D20Data;
use rolls::stat_name;

/// A d20 check's die: a natural 20 adds another d20 (and again), a natural 1 is marked (it
/// always fails; it subtracts nothing).
pub(crate) fn d20_base(d: &D20Data, kind: RollKind) -> RollSpec {
    let mut s = RollSpec::new(kind);
    let sides = d.combat.die;
    s.base = Some(BaseDie {
        sides,
        rolls: 1,
        critical_target: Some(sides),
        botch_range: 1,
        botch_penalty: 0,
        penalization: None,
        exploding: true,
    });
    s
}

/// Drops the zero "Botch" line a natural 1 leaves in a breakdown (the die itself is marked).
pub(crate) fn tidy(mut b: crate::dice::RollBreakdown) -> crate::dice::RollBreakdown {
    b.modifiers
        .retain(|m| !(m.label.starts_with("Botch") && m.value == 0));
    b
}

pub(crate) fn add_stat(d: &D20Data, f: &Fighter, id: &str, s: &mut RollSpec) {
    s.add(format!("{} ({id})", stat_name(d, id)), f.attributes.get(id));
}

/// The distribution of a d20 roll's total when its natural die is not a 1, and the chance
/// that it is (a natural 1 always fails, whatever the total).
pub(crate) fn without_natural_one(spec: &RollSpec) -> (Dist, f64) {
    let Some(base) = spec.base.as_ref().filter(|b| b.rolls == 1 && b.sides >= 2) else {
        return (distribution(spec), 0.0);
    };
    // Faces 2 to the top, each 1/sides; the top one explodes when the die does. Built face by
    // face, so the natural 1 is left out exactly.
    let sides = base.sides;
    let p = 1.0 / f64::from(sides);
    let mut faces = Dist::empty();
    for face in 2..=sides {
        let crit = base.critical_target.is_some_and(|t| face >= t);
        if crit && base.exploding {
            faces.mix(
                &crate::dice::dist::explosion(sides).shift(i64::from(face)),
                p,
            );
        } else {
            faces.mix(&Dist::point(i64::from(face)), p);
        }
    }
    let mut rest = Dist::point(0);
    for t in spec.dice.iter().chain(&spec.critical_dice) {
        rest = rest.convolve(&Dist::dice(t.group));
    }
    let dist = faces
        .convolve(&rest)
        .scale(spec.dice_multiplier)
        .shift(spec.flat_total())
        .clamp_min(0);
    (dist, p)
}
