//! The Opposed Rolls (or the family's own checks) of an attack against each target.

use bevy::prelude::*;

use super::defend::parties;
use crate::battle::event::EventLog;
use crate::battle::family::{self, RollPhase};
use crate::battle::snapshot::Fighters;
use crate::battle::state::*;

/// The roll phase of an attack: the family rolls its checks against each target (the default
/// pipeline's Opposed Rolls: one Strike against each target's Dodge or Parry, the defender
/// winning ties) and says which phase comes next.
pub fn roll_opposed_checks(
    rules: Res<RulesRes>,
    mut ground: ResMut<Battleground>,
    mut dice: ResMut<BattleDice>,
    mut attack: ResMut<CurrentAttack>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    let all = q.snapshots();
    let Some((attacker, targets)) = parties(&all, state) else {
        return;
    };
    let mut p = RollPhase {
        rules,
        ground: ground.reborrow(),
        attacker,
        targets: &targets,
        all: &all,
        res: Resolve {
            dice: &mut dice.0,
            q: &mut q,
            log: &mut log,
        },
    };
    family::of(rules).roll_checks(&mut p, state);
}
