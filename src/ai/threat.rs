//! What one opponent threatens: the best expected damage per attack it can deal a unit, in
//! melee and at range, as the computer players weigh risk, kills and the worth of hampering it.

use crate::battle::command::{AttackOrder, DefenseChoice};
use crate::battle::components::Square;
use crate::battle::context::{declaration, ki_cost, reach};
use crate::battle::family::stages::STAGE_WORTH;
use crate::battle::family::{assemble, target_numbers};
use crate::battle::fighter::Fighter;
use crate::battle::movement::speed;
use crate::grid::{Field, footprint_distance};
use crate::ruleset::{AttackTypeDef, Reach, Rules};

/// The best expected damage per attack `attacker` can deal `victim`, in melee and at range.
pub(super) fn threat_of(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    victim: &Fighter,
) -> (f64, f64) {
    let mut melee: f64 = 0.0;
    let mut ranged: f64 = 0.0;
    let Some(vp) = victim.position else {
        return (0.0, 0.0);
    };
    let walk = speed(rules, attacker, false);
    for pid in &attacker.loadout.profiles {
        let Some(profile) = rules.profile(pid) else {
            continue;
        };
        if !crate::battle::family::of(rules).threatens_with(attacker, pid) {
            continue;
        }
        let Some(ty): Option<&AttackTypeDef> = rules.attack_type(&profile.attack_type) else {
            continue;
        };
        let order = AttackOrder {
            attacker: attacker.id,
            profile: pid.clone(),
            technique: None,
            target: crate::battle::command::AttackTarget::Combatant(victim.id),
            wager: 0,
            element: attacker.loadout.elements.first().cloned(),
            push: None,
            sneak: false,
            called_shot: None,
            united: None,
            discard: None,
            power_attack: 0,
            aimed: Default::default(),
        };
        let Ok(mut decl) = declaration(rules, attacker, &order, 1) else {
            continue;
        };
        decl.numbers_only = true;
        if ki_cost(attacker, &decl) > attacker.ki.current {
            continue;
        }
        // Digimon: no melee on a flyer in the air from one that cannot fly.
        if ty.reach == Reach::Melee
            && !crate::battle::family::digimon::flight::can_close_in(rules, attacker, victim)
        {
            continue;
        }
        // A ranged attack counts only when the victim is within its reach after a walk: when
        // it is not, its odds are not worked out at all.
        let in_reach = ty.reach == Reach::Melee
            || reach(attacker, &decl).is_none_or(|r| {
                attacker.position.is_some_and(|p| {
                    footprint_distance(p, attacker.size.squares, vp, victim.size.squares)
                        <= r + walk
                })
            });
        if !in_reach {
            continue;
        }
        // As if the attacker stood beside the victim (for melee) or where it is (for range).
        let mut a = attacker.clone();
        if ty.reach == Reach::Melee {
            a.position = Some(Square::new(vp.x - 1, vp.y));
        }
        let ctx = assemble(rules, field, &a, &[victim], &decl);
        let Some(tc) = ctx.targets.first() else {
            continue;
        };
        let o = target_numbers(rules, &ctx, tc, &decl, victim, DefenseChoice::Dodge);
        let e = o.expected_damage + STAGE_WORTH * o.stage_loss.unwrap_or(0) as f64;
        match ty.reach {
            Reach::Melee => melee = melee.max(e),
            _ => ranged = ranged.max(e),
        }
    }
    (melee, ranged)
}

/// How far `o` reaches in a round walking and running: its Normal and Boosted Speed, each
/// plus its melee reach.
pub(super) fn pace_of(rules: &Rules, o: &Fighter) -> (u32, u32) {
    (
        speed(rules, o, false).saturating_add(o.size.melee_range),
        speed(rules, o, true).saturating_add(o.size.melee_range),
    )
}
