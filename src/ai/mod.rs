//! Choosing commands for computer-controlled combatants.
//!
//! [`greedy_command`] is the simple policy the demo duel uses: of every legal attack (each
//! profile, technique, element and target or area, with no wager or half the Capacity left),
//! it takes the one with the best exact expected damage to opponents, minus friendly fire and
//! a small price per Ki point; when no attack is legal it ends the turn.

use crate::battle::Battle;
use crate::battle::command::{AttackOrder, AttackTarget, Command};
use crate::battle::components::CombatantId;
use crate::grid::Dir8;
use crate::ruleset::{ProfileEffect, Targeting};

/// What a Ki point is worth in expected damage when comparing attacks.
const KI_PRICE: f64 = 0.25;

/// Every attack order worth considering for `who` right now (legal or not: the caller checks).
pub fn candidate_attacks(battle: &mut Battle, who: CombatantId) -> Vec<AttackOrder> {
    let fighters = battle.fighters();
    let rules = battle.rules().clone();
    let Some(me) = fighters.iter().find(|f| f.id == who) else {
        return Vec::new();
    };
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
        let targets: Vec<AttackTarget> = match profile.targeting {
            Targeting::Single => fighters
                .iter()
                .filter(|f| f.side != me.side && !f.defeated())
                .map(|f| AttackTarget::Combatant(f.id))
                .collect(),
            Targeting::Sweep => vec![AttackTarget::InReach],
            Targeting::Cone { .. } => Dir8::ALL
                .iter()
                .map(|d| AttackTarget::Direction(*d))
                .collect(),
            Targeting::Burst { .. } => fighters
                .iter()
                .filter(|f| f.side != me.side && !f.defeated())
                .filter_map(|f| f.position.map(AttackTarget::Square))
                .collect(),
        };
        let can_wager = rules
            .attack_type(&profile.attack_type)
            .is_some_and(|t| t.wager);
        for element in &elements {
            for target in &targets {
                let base = AttackOrder {
                    attacker: who,
                    profile: profile_id.clone(),
                    technique: technique.clone(),
                    target: *target,
                    wager: 0,
                    element: element.clone(),
                    push: None,
                };
                out.push(base.clone());
                if can_wager {
                    let cost = battle
                        .with_declaration(&base, |_, f, d| crate::battle::context::ki_cost(f, d))
                        .unwrap_or(0);
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

/// The greedy policy's command for `who`: the best-scoring legal attack, else end the turn.
pub fn greedy_command(battle: &mut Battle, who: CombatantId) -> Command {
    let fighters = battle.fighters();
    let Some(side) = fighters.iter().find(|f| f.id == who).map(|f| f.side) else {
        return Command::EndTurn { who };
    };
    let mut best: Option<(f64, AttackOrder)> = None;
    for order in candidate_attacks(battle, who) {
        let Ok(preview) = battle.preview(&order) else {
            continue;
        };
        let mut score = 0.0;
        for (id, dodge, _) in &preview.odds {
            let friendly = fighters
                .iter()
                .find(|f| f.id == *id)
                .is_some_and(|f| f.side == side);
            score += if friendly {
                -dodge.expected_damage
            } else {
                dodge.expected_damage
            };
        }
        score -= KI_PRICE * (preview.ki_cost + order.wager) as f64;
        if best.as_ref().is_none_or(|(s, _)| score > *s + 1e-9) {
            best = Some((score, order));
        }
    }
    match best {
        Some((score, order)) if score > 0.0 => Command::Attack(order),
        _ => Command::EndTurn { who },
    }
}
