//! Parry's Reflect (DBU, digest §3.5): a Parry that wins against an Energy or Magical attack,
//! paid in Ki, sends the attack back at its attacker with its own Wound Roll.
//!
//! The assembly works out once how the attack would hurt its own attacker ([`ReflectBack`]), so
//! the odds that preview a Reflect and the damage phase that resolves it read the same numbers.

use super::command::DefenseChoice;
use super::components::{CombatantId, Side};
use super::fighter::{Fighter, at_tier};
use crate::ruleset::{Category, Rules};

/// How an attack comes back at its attacker when a target reflects it: the attacker's own
/// category and Soak against it (its Wound Roll is the attack's), and its Life before.
#[derive(Debug, Clone, PartialEq)]
pub struct ReflectBack {
    /// Who made the attack, and takes it back.
    pub attacker: CombatantId,
    /// The attacker's side: only its opponents weigh sending the attack back.
    pub side: Side,
    /// The attack's Damage Category against its attacker.
    pub category: Category,
    /// The attacker's Soak, and the part of it the category lets count.
    pub soak: i64,
    pub soak_used: i64,
    /// Why the category is what it is.
    pub notes: Vec<String>,
    /// The attacker's Life as the attack is made (what a reflected Wound may defeat).
    pub life: i64,
}

/// The Ki `f` pays for a Reflect, where the ruleset has one.
pub fn cost(rules: &Rules, f: &Fighter) -> Option<i64> {
    let r = rules.attacks.reflect.as_ref()?;
    Some(at_tier(&r.ki_cost, f.power.tier, f.power.base_tier))
}

/// True when the ruleset lets an attack of type `attack_type` be reflected.
pub fn reflectable(rules: &Rules, attack_type: &str) -> bool {
    rules
        .attacks
        .reflect
        .as_ref()
        .is_some_and(|r| r.attack_types.iter().any(|t| t == attack_type))
}

/// The default pipeline's answers to an attack of type `attack_type` for `defender`: Dodge,
/// Parry and, when the type may be reflected and the defender has the Ki and Capacity for it,
/// Reflect.
pub fn defenses(rules: &Rules, defender: &Fighter, attack_type: &str) -> Vec<DefenseChoice> {
    let mut all = vec![DefenseChoice::Dodge, DefenseChoice::Parry];
    let affordable = cost(rules, defender).is_some_and(|c| defender.can_pay(c).is_ok());
    if reflectable(rules, attack_type) && affordable {
        all.push(DefenseChoice::Reflect);
    }
    all
}
