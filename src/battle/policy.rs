//! What automatic policies choose when nobody is asked: the best attack by exact expected
//! damage (for Exploits and the simple AI), scored from the same context resolution uses.

use super::attack::check_attack;
use super::command::DefenseChoice;
use super::command::{AttackOrder, AttackTarget};
use super::components::CombatantId;
use super::context::ki_cost;
use super::fighter::Fighter;
use crate::battle::context::declaration;
use crate::battle::family::assemble;
use crate::battle::family::target_numbers;
use crate::grid::{Dir8, Field};
use crate::ruleset::{AreaOrigin, AreaShape, ProfileEffect, Rules, Targeting};

/// What a Ki point is worth in expected damage when comparing attacks.
pub const KI_PRICE: f64 = 0.25;

/// Every attack order worth considering for `me` (legal or not: callers check): each profile
/// and technique, element, target or area placement, with no wager or half the spare Ki.
pub fn candidate_attacks(rules: &Rules, fighters: &[Fighter], me: &Fighter) -> Vec<AttackOrder> {
    let mut uses: Vec<(String, Option<String>)> = me
        .loadout
        .profiles
        .iter()
        .map(|p| (p.clone(), None))
        .collect();
    uses.extend(
        me.loadout
            .techniques
            .iter()
            .map(|t| (t.profile.clone(), Some(t.id.clone()))),
    );
    let opponents: Vec<&Fighter> = fighters
        .iter()
        .filter(|f| f.side != me.side && !f.defeated() && f.position.is_some())
        .collect();
    let mut out = Vec::new();
    for (profile_id, technique) in uses {
        let Some(profile) = rules.profile(&profile_id) else {
            continue;
        };
        let elements: Vec<Option<String>> = if profile
            .effects
            .iter()
            .any(|e| matches!(e, ProfileEffect::ElementChoice))
        {
            me.loadout.elements.iter().cloned().map(Some).collect()
        } else {
            vec![None]
        };
        // Digimon: a helping effect goes to an ally (or oneself), not an opponent.
        let helping = super::family::of(rules).helps_allies(&profile_id);
        // Shinobi: a jutsu may heal an ally as well as hurt an opponent.
        let allies_too = super::family::of(rules).aims_at_allies(&profile_id);
        let targets: Vec<AttackTarget> = match profile.targeting {
            Targeting::Single if helping => fighters
                .iter()
                .filter(|f| f.side == me.side && !f.defeated() && f.position.is_some())
                .map(|f| AttackTarget::Combatant(f.id))
                .collect(),
            Targeting::Single if allies_too => opponents
                .iter()
                .copied()
                .chain(fighters.iter().filter(|f| {
                    f.side == me.side && f.id != me.id && !f.defeated() && f.position.is_some()
                }))
                .map(|f| AttackTarget::Combatant(f.id))
                .collect(),
            Targeting::Single => opponents
                .iter()
                .map(|f| AttackTarget::Combatant(f.id))
                .collect(),
            Targeting::Area {
                origin: AreaOrigin::Attacker,
                shape: AreaShape::Cone { .. } | AreaShape::Line { .. },
                ..
            } => Dir8::ALL
                .iter()
                .map(|d| AttackTarget::Direction(*d))
                .collect(),
            Targeting::Area {
                origin: AreaOrigin::Attacker,
                ..
            } => vec![AttackTarget::InReach],
            Targeting::Area {
                origin: AreaOrigin::ChosenSquare,
                shape: AreaShape::Cone { .. } | AreaShape::Line { .. },
                ..
            } => opponents
                .iter()
                .filter_map(|f| f.position)
                .flat_map(|p| {
                    Dir8::ALL
                        .iter()
                        .map(move |d| AttackTarget::SquareToward(p, *d))
                })
                .collect(),
            Targeting::Area {
                origin: AreaOrigin::ChosenSquare,
                ..
            } => opponents
                .iter()
                .filter_map(|f| f.position.map(AttackTarget::Square))
                .collect(),
        };
        let can_wager = rules
            .attack_type(&profile.attack_type)
            .is_some_and(|t| t.wager);
        for element in &elements {
            for target in &targets {
                let base = AttackOrder {
                    attacker: me.id,
                    profile: profile_id.clone(),
                    technique: technique.clone(),
                    target: *target,
                    wager: 0,
                    element: element.clone(),
                    push: None,
                    sneak: false,
                    called_shot: None,
                    united: None,
                    discard: None,
                    power_attack: 0,
                    aimed: Default::default(),
                };
                out.push(base.clone());
                // Shinobi: the same attack as a sneak attack, where a lost contest cannot be
                // answered (the target has no melee reach on the attacker).
                if super::family::of(rules).sneak_attacks()
                    && let AttackTarget::Combatant(id) = target
                    && fighters
                        .iter()
                        .find(|f| f.id == *id)
                        .is_some_and(|t| me.distance_to(t).is_some_and(|d| d > t.size.melee_range))
                {
                    out.push(AttackOrder {
                        sneak: true,
                        ..base.clone()
                    });
                }
                if can_wager && let Ok(decl) = declaration(rules, me, &base, 1) {
                    let cost = ki_cost(me, &decl);
                    let spare = (me.capacity.current - cost).min(me.ki.current - cost) / 2;
                    if spare > 0 {
                        out.push(AttackOrder {
                            wager: spare,
                            ..base
                        });
                    }
                }
            }
        }
    }
    out
}

/// The exact expected damage of a legal order, opponents counted for and allies against, less
/// [`KI_PRICE`] per Ki point; `None` when the order is not legal now.
pub fn score_attack(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    order: &AttackOrder,
    exploit: Option<CombatantId>,
) -> Option<f64> {
    let targets = check_attack(rules, field, fighters, me, order, exploit).ok()?;
    let mut decl = declaration(rules, me, order, targets.len()).ok()?;
    decl.bystanders = fighters;
    decl.numbers_only = true;
    let refs: Vec<&Fighter> = targets
        .iter()
        .filter_map(|id| fighters.iter().find(|f| f.id == *id))
        .collect();
    let ctx = assemble(rules, field, me, &refs, &decl);
    let mut score = 0.0;
    for (tc, t) in ctx.targets.iter().zip(&refs) {
        let odds = target_numbers(rules, &ctx, tc, &decl, t, DefenseChoice::Dodge);
        // Power stages: stages taken count too, or a physical attack on a target with stages
        // left would score nothing.
        let value = odds.expected_damage
            + super::family::stages::STAGE_WORTH * odds.stage_loss.unwrap_or(0) as f64;
        score += if t.side == me.side { -value } else { value };
    }
    Some(score - KI_PRICE * (ctx.ki_cost + decl.wager) as f64)
}

/// The best-scoring legal attack for `me` (an Exploit against `exploit` when set), if any
/// scores above zero. Ties keep the first candidate, so the choice is deterministic.
pub fn best_attack(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    exploit: Option<CombatantId>,
) -> Option<(f64, AttackOrder)> {
    let mut best: Option<(f64, AttackOrder)> = None;
    for order in candidate_attacks(rules, fighters, me) {
        if exploit.is_some() && order.technique.is_some() {
            continue;
        }
        if let Some(score) = score_attack(rules, field, fighters, me, &order, exploit)
            && best.as_ref().is_none_or(|(s, _)| score > *s + 1e-9)
        {
            best = Some((score, order));
        }
    }
    best.filter(|(s, _)| *s > 0.0)
}
