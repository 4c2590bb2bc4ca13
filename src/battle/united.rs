//! United Attack (DBU, digest §3.4, an Instant, 1/Round): an ally adjacent to the attacker
//! spends an Action and the profile's Ki to add half its damage attribute, and a wager of up to
//! a quarter of its Max Capacity, to the attacker's Wound Roll.
//!
//! The attack order names the ally ([`United`]); [`help`] checks it and says what the ally
//! pays, and [`wound_terms`] is what the Wound Roll gains, for the preview and the resolution
//! alike.

use super::command::{RuleError, United};
use super::components::CombatantId;
use super::fighter::{Fighter, eval};
use crate::ruleset::{AttackTypeDef, ProfileDef, Rules};

/// What a United Attack costs the ally.
#[derive(Debug, Clone, PartialEq)]
pub struct Help {
    /// The ally who joins.
    pub ally: CombatantId,
    /// Ki it wagers on the Wound Roll.
    pub wager: i64,
    /// The profile's Ki cost at the ally's own Tier (the wager not counted).
    pub ki_cost: i64,
    /// Standard Actions it spends.
    pub actions: u32,
}

/// The Wound Roll's terms the United Attack `united` adds to an attack of `attack_type`, its
/// ally found among `fighters`: its share of the ally's damage attribute, then its wager. No
/// checks: the order was checked when it was declared, and the ally has paid since.
pub fn wound_terms(
    rules: &Rules,
    fighters: &[Fighter],
    attack_type: &AttackTypeDef,
    united: Option<United>,
) -> Vec<(String, i64)> {
    let (Some(u), Some(r)) = (united, rules.actions.united_attack.as_ref()) else {
        return Vec::new();
    };
    let (Some(ally), Some(attribute)) = (
        fighters.iter().find(|f| f.id == u.ally),
        &attack_type.damage_attribute,
    ) else {
        return Vec::new();
    };
    let score = ally.attributes.get(attribute);
    let share = &r.attribute_share;
    let mut terms = vec![(
        format!(
            "United Attack ({}, {}/{} {attribute} {score})",
            ally.identity.name, share.numerator, share.denominator
        ),
        share.of(score),
    )];
    if u.wager > 0 {
        terms.push((
            format!("United Attack wager ({})", ally.identity.name),
            u.wager,
        ));
    }
    terms
}

/// Checks the United Attack `u` joining `attacker`'s attack with `profile` (of `attack_type`),
/// among `fighters`, and says what the ally pays: the ruleset has it; the ally is a living
/// ally adjacent to the attacker, has not joined one this round, has the Action and the Ki;
/// the wager is within its share of Max Capacity; the attack type has a damage attribute to
/// share.
pub fn help(
    rules: &Rules,
    fighters: &[Fighter],
    attacker: &Fighter,
    profile: &ProfileDef,
    attack_type: &AttackTypeDef,
    u: &United,
) -> Result<Help, RuleError> {
    let refuse = |why: &'static str| RuleError::United { ally: u.ally, why };
    let r = rules
        .actions
        .united_attack
        .as_ref()
        .ok_or(RuleError::NotInRuleset {
            what: "a United Attack",
            ruleset: rules.manifest.id.clone(),
        })?;
    let ally = fighters
        .iter()
        .find(|f| f.id == u.ally)
        .ok_or(RuleError::UnknownCombatant(u.ally))?;
    if ally.id == attacker.id || ally.side != attacker.side || ally.defeated() {
        return Err(refuse("the attacker's living ally"));
    }
    let adjacent = match (ally.position, attacker.position) {
        (Some(a), Some(b)) => {
            crate::grid::footprint_distance(a, ally.size.squares, b, attacker.size.squares) <= 1
        }
        _ => false,
    };
    if !adjacent {
        return Err(refuse("adjacent to the attacker"));
    }
    if ally.round.united {
        return Err(refuse("once a round"));
    }
    if ally.conditions.has(crate::ruleset::ConditionKind::Absorbed) {
        return Err(refuse("not Absorbed"));
    }
    if attack_type.damage_attribute.is_none() {
        return Err(refuse(
            "joining an attack type with a damage attribute to share",
        ));
    }
    if ally.actions.usable() < r.actions {
        return Err(RuleError::NoActions {
            who: ally.id,
            what: "Standard Action",
        });
    }
    if u.wager < 0 {
        return Err(RuleError::NegativeWager);
    }
    let most = r.wager_share.of(ally.derived(rules).max_capacity);
    if u.wager > most {
        return Err(RuleError::United {
            ally: u.ally,
            why: "a wager of at most a quarter of its Max Capacity",
        });
    }
    let ki_cost = eval(&profile.cost, &ally.vars()).max(0);
    ally.can_pay(ki_cost + u.wager)?;
    Ok(Help {
        ally: ally.id,
        wager: u.wager,
        ki_cost,
        actions: r.actions,
    })
}
