//! The Energy Charge maneuver (digest §7.2): an Action and Ki to add a charge to one declared
//! attack, held until that attack is made or the charge is cancelled, with Guard Down
//! meanwhile and an Exploit for every adjacent opponent.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::attack::StandingStill;
use super::command::{AttackOrder, AttackTarget, Command, RuleError};
use super::components::{CombatantId, HeldCharge};
use super::context::used_profile;
use super::effects::{lose_charge, spend_actions, spend_ki};
use super::event::{BattleEvent, EventLog};
use super::fighter::{Fighter, eval};
use super::state::*;
use crate::grid::footprint_distance;
use crate::ruleset::{ConditionKind, Rules};

/// An Energy Charge waiting on the Exploits it provoked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeState {
    /// The charging unit.
    pub who: CombatantId,
    /// Opponents still to be asked about an Exploit, in id order.
    pub provokers: Vec<CombatantId>,
}

/// The Energy Charge whose Exploits are being asked, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentCharge(pub Option<ChargeState>);

/// The attack an Energy Charge order names, as an order against nobody in particular.
fn charged_order(who: CombatantId, profile: &str, technique: Option<&str>) -> AttackOrder {
    AttackOrder {
        attacker: who,
        profile: profile.to_string(),
        technique: technique.map(str::to_string),
        target: AttackTarget::Combatant(who),
        wager: 0,
        element: None,
        push: None,
        sneak: false,
        called_shot: None,
        united: None,
        discard: None,
        power_attack: 0,
        aimed: Default::default(),
    }
}

/// What one Energy Charge costs `me` in Ki (and Capacity).
pub fn charge_cost(rules: &Rules, me: &Fighter) -> i64 {
    rules
        .attacks
        .energy_charge
        .maneuver
        .as_ref()
        .map_or(0, |m| eval(&m.ki_cost, &me.vars()).max(0))
}

/// Checks an Energy Charge by `me` for the attack with `profile` (and `technique`).
pub fn check_energy_charge(
    rules: &Rules,
    me: &Fighter,
    profile: &str,
    technique: Option<&str>,
) -> Result<(), RuleError> {
    let Some(m) = &rules.attacks.energy_charge.maneuver else {
        return Err(RuleError::NotInRuleset {
            what: "Energy Charge",
            ruleset: rules.manifest.id.clone(),
        });
    };
    let order = charged_order(me.id, profile, technique);
    let (p, _) = used_profile(rules, me, &order)?;
    if !m.attack_types.contains(&p.attack_type) {
        return Err(RuleError::CannotCharge {
            kind: p.attack_type.clone(),
            types: m.attack_types.join(" or "),
        });
    }
    if let Some(held) = &me.encounter.charge {
        if !held.feeds(profile, technique) {
            return Err(RuleError::Charging {
                profile: me.charged_name(rules, held),
            });
        }
        if held.charges >= m.max_charges {
            return Err(RuleError::ChargeLimit { max: m.max_charges });
        }
    }
    if me.actions.usable() < m.actions {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Standard Action",
        });
    }
    me.can_pay(charge_cost(rules, me))
}

/// Refuses what a unit holding `held` may not do: "Until you make that attack you have Guard
/// Down and cannot use any other Attacking or Standard Maneuver". Moving, defending, Instants,
/// more charges for the same attack, cancelling and ending the turn stay open.
pub fn check_while_charging(
    rules: &Rules,
    me: &Fighter,
    held: &HeldCharge,
    cmd: &Command,
) -> Result<(), RuleError> {
    let refused = match cmd {
        Command::Attack(order) => !held.feeds(&order.profile, order.technique.as_deref()),
        Command::Exploit { order, .. } => order.is_some(),
        Command::PowerUp { .. }
        | Command::ArrogantDeclaration { .. }
        | Command::Empower { .. }
        | Command::Hide { .. }
        | Command::Grapple {
            act:
                super::command::GrappleAct::Seize
                | super::command::GrappleAct::Pin
                | super::command::GrappleAct::Absorb
                | super::command::GrappleAct::Escape { .. },
            ..
        }
        | Command::Recover { .. }
        | Command::EndCondition { .. }
        | Command::StandUp { .. }
        | Command::CurePoison { .. }
        | Command::UseSkill { .. } => true,
        _ => false,
    };
    if refused {
        Err(RuleError::Charging {
            profile: me.charged_name(rules, held),
        })
    } else {
        Ok(())
    }
}

/// The opponents an Energy Charge or an Arrogant Declaration by `me` provokes: every living one
/// beside it, in id order.
pub fn adjacent_provokers(fighters: &[Fighter], me: &Fighter) -> Vec<CombatantId> {
    let Some(at) = me.position else {
        return Vec::new();
    };
    fighters
        .iter()
        .filter(|o| o.side != me.side && !o.defeated())
        .filter(|o| !o.conditions.has(ConditionKind::Absorbed))
        .filter(|o| {
            o.position
                .is_some_and(|p| footprint_distance(p, o.size.squares, at, me.size.squares) <= 1)
        })
        .map(|o| o.id)
        .collect()
}

/// `EnergyCharge`: spend the Action and the Ki, add the charge, and open the window for the
/// Exploits it provokes.
pub fn declare_charge(
    rules: Res<RulesRes>,
    mut pending: ResMut<PendingCommand>,
    mut charge: ResMut<CurrentCharge>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: super::snapshot::Fighters,
) {
    let Some(Command::EnergyCharge {
        who,
        profile,
        technique,
    }) = pending.0.clone()
    else {
        return;
    };
    pending.0 = None;
    progress.0 = true;
    let rules = &rules.0;
    let Some(m) = &rules.attacks.energy_charge.maneuver else {
        return;
    };
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == who) else {
        return;
    };
    let provokers = adjacent_provokers(&all, me);
    let cost = charge_cost(rules, me);
    let fed = HeldCharge {
        profile,
        technique,
        charges: 0,
    };
    let name = me.charged_name(rules, &fed);
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    spend_actions(&mut f, m.actions, "an Energy Charge", &mut log);
    if cost > 0 {
        spend_ki(&mut f, cost, "an Energy Charge", &mut log);
    }
    let held = f.encounter.charge.get_or_insert(fed);
    held.charges += 1;
    let charges = held.charges;
    log.push(BattleEvent::EnergyCharged {
        who,
        attack: name,
        charges,
    });
    charge.0 = Some(ChargeState { who, provokers });
}

impl super::standing::StandsStill for CurrentCharge {
    const WHY: StandingStill = StandingStill::Charging;

    fn in_progress(&self) -> bool {
        self.0.is_some()
    }

    fn waiting(&mut self) -> Option<(CombatantId, &mut Vec<CombatantId>)> {
        self.0.as_mut().map(|c| (c.who, &mut c.provokers))
    }

    /// The charge was made when declared: once the Exploits are asked, nothing is left to do.
    fn finish(&mut self, _: super::standing::Finish) {
        self.0 = None;
    }
}

/// `CancelCharge` (No Effort, an Instant): the held charges are lost.
pub fn apply_cancel_charge(
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: super::snapshot::Fighters,
) {
    let Some(Command::CancelCharge { who }) = pending.0.clone() else {
        return;
    };
    pending.0 = None;
    progress.0 = true;
    if let Some(mut f) = q.one_mut(who) {
        lose_charge(&mut f, "cancelled", &mut log);
    }
}
