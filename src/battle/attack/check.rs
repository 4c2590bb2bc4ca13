//! The one validation gate of an attack order: everything that refuses it, with the rule, before
//! anything is paid or rolled.

use bevy::prelude::*;

use super::targeting::attack_targets;
use crate::battle::command::{AttackOrder, AttackTarget, RuleError};
use crate::battle::components::*;
use crate::battle::context::declaration;
use crate::battle::fighter::Fighter;
use crate::grid::Field;
use crate::ruleset::{ConditionKind, Rules};

/// Checks every rule that could forbid an attack order right now. An Exploit (`exploit` is
/// the mover) is paid with a Counter Action, must be a Basic Attack and must hit the mover.
pub fn check_attack(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    attacker: &Fighter,
    order: &AttackOrder,
    exploit: Option<CombatantId>,
) -> Result<Vec<CombatantId>, RuleError> {
    if attacker.defeated() {
        return Err(RuleError::Defeated(attacker.id));
    }
    if attacker.conditions.has(ConditionKind::Absorbed) {
        return Err(RuleError::Absorbed(attacker.id));
    }
    match exploit {
        // A d20 full-round attack's later swings are already paid for.
        None if attacker.actions.usable() == 0
            && crate::battle::family::d20::follow_up(&attacker.round, &order.profile).is_none() =>
        {
            return Err(RuleError::NoActions {
                who: attacker.id,
                what: "Standard Action",
            });
        }
        Some(_)
            if attacker.actions.counter == 0
                && !(rules.actions.conversion && attacker.actions.standard > 0) =>
        {
            return Err(RuleError::NoActions {
                who: attacker.id,
                what: "Counter Action",
            });
        }
        _ => {}
    }
    if order.sneak {
        if !crate::battle::family::of(rules).sneak_attacks() {
            return Err(RuleError::NotInRuleset {
                what: "a sneak attack",
                ruleset: rules.manifest.id.clone(),
            });
        }
        if exploit.is_some() || !matches!(order.target, AttackTarget::Combatant(_)) {
            return Err(RuleError::BadSneak);
        }
    }
    // The family's own refusals first: a card not held, or action points short, is the
    // reason, not the distance.
    let family = crate::battle::family::of(rules);
    family.check_order(field, attacker, order, exploit.is_some())?;
    let targets = attack_targets(rules, field, fighters, attacker, order)?;
    let ts: Vec<&Fighter> = fighters
        .iter()
        .filter(|f| targets.contains(&f.id))
        .collect();
    family.check_targets(field, attacker, order, &ts)?;
    if let Some(mover) = exploit
        && (order.technique.is_some() || !targets.contains(&mover))
    {
        return Err(RuleError::BadExploit(mover));
    }
    let decl = declaration(rules, attacker, order, targets.len())?;
    if let Some(req) = &decl.attack_type.required_score {
        let has = attacker.attributes.get(&req.attribute);
        if has < req.at_least {
            return Err(RuleError::ScoreTooLow {
                who: attacker.id,
                kind: decl.attack_type.name.clone(),
                attribute: req.attribute.clone(),
                at_least: req.at_least,
                has,
            });
        }
    }
    if (decl.attack_type.magical || decl.technique.is_some())
        && attacker.is(rules, ConditionKind::Transfigured)
    {
        return Err(RuleError::Transfigured);
    }
    if decl.technique.is_some() {
        if attacker.round.technique_used {
            return Err(RuleError::TechniqueUsedThisRound);
        }
    } else if rules.attacks.profile_once_per_round
        && !decl.profile.repeatable
        && attacker.round.profiles_used.contains(&decl.profile.id)
    {
        return Err(RuleError::ProfileUsedThisRound {
            profile: decl.profile.name.clone(),
        });
    }
    if let Some((cs, _)) = decl.called_shot {
        if exploit.is_some() {
            return Err(RuleError::CalledShotExploit);
        }
        if attacker.round.called_shot {
            return Err(RuleError::CalledShotThisRound);
        }
        if attacker.actions.usable() < 1 + cs.actions {
            return Err(RuleError::NoActions {
                who: attacker.id,
                what: "Standard Action",
            });
        }
    }
    if let Some(u) = &order.united {
        if exploit.is_some() {
            return Err(RuleError::United {
                ally: u.ally,
                why: "joining an attack made as a Standard Maneuver (not an Exploit)",
            });
        }
        crate::battle::united::help(rules, fighters, attacker, decl.profile, decl.attack_type, u)?;
    }
    let limit = rules.characters.minion.attacks_per_round;
    if attacker.power.minion && attacker.round.attacks >= limit {
        return Err(RuleError::MinionAttackLimit { limit });
    }
    attacker
        .can_pay(crate::battle::context::ki_cost(attacker, &decl).saturating_add(decl.wager))?;
    Ok(targets)
}
