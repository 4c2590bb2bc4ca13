//! The Arrogant Declaration maneuver (digest §3.3): once per Combat Encounter, an Action for
//! Superiority until the end of one's next turn, paid for with −1(bT) to Combat Rolls, Surgency
//! and Soak for the rest of the encounter; adjacent opponents may Exploit first.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::attack::StandingStill;
use super::command::{Command, RuleError};
use super::components::{Arrogance, CombatantId, Expiry};
use super::effects::{grant_condition, spend_actions};
use super::event::BattleEvent;
use super::fighter::Fighter;
use super::state::*;
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

impl super::standing::StandsStill for CurrentDeclaration {
    const WHY: StandingStill = StandingStill::Declaring;

    fn in_progress(&self) -> bool {
        self.0.is_some()
    }

    fn waiting(&mut self) -> Option<(CombatantId, &mut Vec<CombatantId>)> {
        self.0.as_mut().map(|c| (c.who, &mut c.provokers))
    }

    /// Superiority until the end of the declarer's next turn, if it still stands.
    fn finish(&mut self, ctx: super::standing::Finish) {
        let Some(c) = self.0.take() else {
            return;
        };
        let Some(mut me) = ctx.q.one_mut(c.who) else {
            return;
        };
        if me.life.current <= 0 {
            return;
        }
        me.encounter.arrogance = Some(Arrogance::Superior);
        let until = Expiry::EndOfTurn {
            round: ctx.order.round + 1,
            of: c.who,
        };
        grant_condition(
            ctx.rules,
            &mut me,
            ConditionKind::Superiority,
            None,
            0,
            until,
            ctx.log,
        );
    }
}
