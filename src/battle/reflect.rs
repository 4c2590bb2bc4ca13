//! Parry's Reflect (DBU, digest §3.5): a Parry that wins against an Energy or Magical attack,
//! paid in Ki, sends the attack back at its attacker with its own Wound Roll.
//!
//! The assembly ([`back`]) works out once how the attack would hurt its own attacker, so the
//! odds that preview a Reflect and the damage phase that resolves it read the same numbers.

use super::command::DefenseChoice;
use super::components::{CombatantId, Side};
use super::context::{DamageResult, Declaration, damage_against};
use super::effects::spend_ki;
use super::event::{BattleEvent, EventLog};
use super::family::HitOn;
use super::fighter::{Fighter, at_tier};
use super::snapshot::Fighters;
use crate::ruleset::Rules;

/// How an attack comes back at its attacker when a target reflects it: the attacker's own
/// category and Soak against it (its Wound Roll is the attack's), and its Life before.
#[derive(Debug, Clone, PartialEq)]
pub struct ReflectBack {
    pub attacker: CombatantId,
    /// The attacker's side: only its opponents weigh sending the attack back.
    pub side: Side,
    /// The attack taken by its attacker with a Wound of 0: category, Soak used, notes.
    pub taken: DamageResult,
    /// The attacker's Life as the attack is made (what a reflected Wound may defeat).
    pub life: i64,
}

/// The Ki `f` pays for a Reflect, where the ruleset has one.
pub fn cost(rules: &Rules, f: &Fighter) -> Option<i64> {
    let r = rules.attacks.reflect.as_ref()?;
    Some(at_tier(&r.ki_cost, f.power.tier, f.power.base_tier))
}

/// True when the ruleset lets `decl`'s attack type be reflected.
fn reflectable(rules: &Rules, decl: &Declaration) -> bool {
    rules
        .attacks
        .reflect
        .as_ref()
        .is_some_and(|r| r.attack_types.contains(&decl.attack_type.id))
}

/// The default pipeline's answers to `decl` for `defender`: Dodge, Parry and, against an
/// attack type that may be reflected when the defender has the Ki and Capacity for it,
/// Reflect.
pub fn defenses(rules: &Rules, defender: &Fighter, decl: &Declaration) -> Vec<DefenseChoice> {
    let mut all = vec![DefenseChoice::Dodge, DefenseChoice::Parry];
    if reflectable(rules, decl)
        && cost(rules, defender).is_some_and(|c| defender.can_pay(c).is_ok())
    {
        all.push(DefenseChoice::Reflect);
    }
    all
}

/// How `decl`'s attack would come back at `attacker` (`None` when its type cannot be
/// reflected).
pub fn back(rules: &Rules, attacker: &Fighter, decl: &Declaration) -> Option<ReflectBack> {
    reflectable(rules, decl).then(|| ReflectBack {
        attacker: attacker.id,
        side: attacker.side,
        taken: damage_against(rules, 0, decl, attacker, false, None),
        life: attacker.life.current,
    })
}

/// The damage phase's step for a target whose Reflect won: it pays the Ki, and the attack's
/// Wound `on.wound` hits the attacker (the reflector now its source, so the on-damage effects
/// and a defeat are the reflector's).
pub fn send_back(
    on: &HitOn,
    reflector: &Fighter,
    back: &ReflectBack,
    q: &mut Fighters,
    log: &mut EventLog,
) {
    let Some(price) = cost(on.rules, reflector) else {
        return;
    };
    {
        let Some(mut f) = q.one_mut(reflector.id) else {
            return;
        };
        if f.ki.current < price || f.capacity.current < price {
            return;
        }
        log.push(BattleEvent::Reflected {
            by: reflector.id,
            attacker: back.attacker,
            attack: on.decl.profile.name.clone(),
        });
        spend_ki(&mut f, price, "Reflect", log);
    }
    let r = DamageResult {
        damage: (on.wound - back.taken.soak_used).max(0),
        ..back.taken.clone()
    };
    let sent = HitOn {
        attacker: reflector,
        ..*on
    };
    super::family::dbu::apply_damage(false, &sent, back.attacker, &r, q, log);
}
