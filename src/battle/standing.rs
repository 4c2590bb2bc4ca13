//! Maneuvers that hold their unit still while the Exploits they provoked are asked (Combat
//! Recovery, Energy Charge, Arrogant Declaration, Empower): one generic system asks the
//! opponents in turn for whichever is in progress, then lets that maneuver finish.

use bevy::prelude::*;

use super::attack::{Standing, StandingStill, offer_standing_exploits};
use super::components::CombatantId;
use super::event::EventLog;
use super::fighter::Fighter;
use super::snapshot::Fighters;
use super::state::*;
use crate::grid::Field;
use crate::ruleset::Rules;

/// What a maneuver may use to finish once every Exploit it provoked was offered.
pub struct Finish<'a, 'w, 's> {
    pub rules: &'a Rules,
    pub order: &'a TurnOrder,
    pub dice: &'a mut BattleDice,
    pub log: &'a mut EventLog,
    pub q: &'a mut Fighters<'w, 's>,
    /// Everyone as they stand after the Exploits.
    pub all: &'a [Fighter],
}

/// The resource of a maneuver in progress that provoked Exploits by standing still: one
/// implementation per maneuver, so asking the Exploits is written once.
pub trait StandsStill: Resource<Mutability = bevy::ecs::component::Mutable> {
    /// What the unit is doing, for the Exploit's words and the prompt.
    const WHY: StandingStill;
    /// True while the maneuver is in progress.
    fn in_progress(&self) -> bool;
    /// The unit and the opponents still to be asked, in the order they are asked.
    fn waiting(&mut self) -> Option<(CombatantId, &mut Vec<CombatantId>)>;
    /// Takes the maneuver out of the resource and carries out its effect (the unit may have
    /// fallen to an Exploit by now).
    fn finish(&mut self, f: Finish);
}

/// True while the maneuver `R` waits on its Exploits and nothing else is going on.
pub fn exploits_ready<R: StandsStill>(
    current: Res<R>,
    attack: Res<CurrentAttack>,
    awaiting: Res<AwaitingInput>,
) -> bool {
    current.in_progress() && attack.0.is_none() && awaiting.0.is_none()
}

/// Offers each provoker of the maneuver `R` its Exploit, one at a time (each may start an
/// attack or ask a person, which the schedule plays out before coming back); then finishes
/// the maneuver.
pub fn ask_exploits_then_finish<R: StandsStill>(
    sys: RuleSys,
    ground: Res<Battleground>,
    order: Res<TurnOrder>,
    mut current: ResMut<R>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
) {
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let rules = &rules.0;
    let field: Field = ground.field(rules);
    progress.0 = true;
    let all = q.snapshots();
    let Some((who, provokers)) = current.waiting() else {
        return;
    };
    if offer_standing_exploits(
        rules,
        &field,
        &all,
        Standing {
            who,
            why: R::WHY,
            provokers,
        },
        &mut q,
        &mut log,
        (&mut awaiting, &mut attack),
    ) {
        return;
    }
    current.finish(Finish {
        rules,
        order: &order,
        dice: &mut dice,
        log: &mut log,
        q: &mut q,
        all: &all,
    });
}
