//! The Arrogant Declaration maneuver (digest §3.3): once per Combat Encounter, an Action for
//! Superiority until the end of one's next turn, paid for with −1(bT) to Combat Rolls, Surgency
//! and Soak for the rest of the encounter; adjacent opponents may Exploit first.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::attack::{Standing, StandingStill, offer_standing_exploits};
use super::command::{Command, RuleError};
use super::components::{Arrogance, CombatantId, Expiry};
use super::effects::{grant_condition, spend_actions};
use super::event::BattleEvent;
use super::fighter::Fighter;
use super::state::*;
use crate::grid::Field;
use crate::ruleset::{ConditionKind, Rules};

/// An Arrogant Declaration waiting on the Exploits it provoked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclarationState {
    /// The declaring unit.
    pub who: CombatantId,
    /// Opponents still to be asked about an Exploit, in id order.
    pub provokers: Vec<CombatantId>,
}

/// The Arrogant Declaration whose Exploits are being asked, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentDeclaration(pub Option<DeclarationState>);

/// Checks an Arrogant Declaration by `me` among `fighters`: once per encounter, its Actions,
/// and "only 1 Minion per encounter may use Arrogant Declaration".
pub fn check_arrogant_declaration(
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
) -> Result<(), RuleError> {
    let Some(a) = &rules.actions.arrogant_declaration else {
        return Err(RuleError::NotInRuleset {
            what: "Arrogant Declaration",
            ruleset: rules.manifest.id.clone(),
        });
    };
    if me.encounter.arrogance.is_some() {
        return Err(RuleError::ArroganceMade);
    }
    if me.power.minion {
        let made = fighters
            .iter()
            .filter(|f| f.power.minion && f.encounter.arrogance.is_some())
            .count();
        if made >= a.minions_per_encounter as usize {
            return Err(RuleError::MinionArrogance {
                limit: a.minions_per_encounter,
            });
        }
    }
    if me.actions.usable() < a.actions {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Standard Action",
        });
    }
    Ok(())
}

/// `ArrogantDeclaration`: spend the Action, mark the encounter's declaration made, and open the
/// window for the Exploits it provokes (they come before the Superiority).
pub fn declare_arrogance(
    rules: Res<RulesRes>,
    mut pending: ResMut<PendingCommand>,
    mut current: ResMut<CurrentDeclaration>,
    mut log: ResMut<super::event::EventLog>,
    mut progress: ResMut<Progress>,
    mut q: super::snapshot::Fighters,
) {
    let Some(Command::ArrogantDeclaration { who }) = pending.0.clone() else {
        return;
    };
    pending.0 = None;
    progress.0 = true;
    let Some(a) = &rules.0.actions.arrogant_declaration else {
        return;
    };
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == who) else {
        return;
    };
    let provokers = super::charge::adjacent_provokers(&all, me);
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    spend_actions(&mut f, a.actions, "an Arrogant Declaration", &mut log);
    f.encounter.arrogance = Some(Arrogance::Declared);
    log.push(BattleEvent::ArrogantDeclaration { who });
    current.0 = Some(DeclarationState { who, provokers });
}

/// True while a declaration waits on its Exploits and nothing else is going on.
pub fn declaration_ready(
    current: Res<CurrentDeclaration>,
    attack: Res<CurrentAttack>,
    awaiting: Res<AwaitingInput>,
) -> bool {
    current.0.is_some() && attack.0.is_none() && awaiting.0.is_none()
}

/// Asks each adjacent opponent about its Exploit, one at a time; then, if the declarer still
/// stands, gives it Superiority until the end of its next turn.
pub fn advance_arrogance(
    sys: RuleSys,
    ground: Res<Battleground>,
    order: Res<TurnOrder>,
    mut current: ResMut<CurrentDeclaration>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
) {
    let RuleSys {
        rules,
        mut log,
        mut progress,
        mut q,
        ..
    } = sys;
    let rules = &rules.0;
    let field: Field = ground.field(rules);
    progress.0 = true;
    let Some(c) = current.0.as_mut() else {
        return;
    };
    let all = q.snapshots();
    if offer_standing_exploits(
        rules,
        &field,
        &all,
        Standing {
            who: c.who,
            why: StandingStill::Declaring,
            provokers: &mut c.provokers,
        },
        &mut q,
        &mut log,
        (&mut awaiting, &mut attack),
    ) {
        return;
    }
    let who = c.who;
    current.0 = None;
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    if f.life.current <= 0 {
        return;
    }
    f.encounter.arrogance = Some(Arrogance::Superior);
    let until = Expiry::EndOfTurn {
        round: order.round + 1,
        of: who,
    };
    grant_condition(
        rules,
        &mut f,
        ConditionKind::Superiority,
        None,
        0,
        until,
        &mut log,
    );
}
