//! d20 "Dive for cover" on one's own turn ("This is a move action"): where the diver lands
//! among the foes who shoot, and the command that spends the action, lays it prone there and
//! keeps its Dodge check for the first shot (see [`super::dive`] for the dive against a shot).

use bevy::prelude::*;

use super::dive::{check_dive_now, landing};
use crate::battle::command::Command;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::Fighter;
use crate::battle::snapshot::Fighters;
use crate::battle::state::{Battleground, PendingCommand, Progress, RulesRes, take};
use crate::grid::{Field, Square};
use crate::ruleset::d20::D20Data;

/// The foes of `me` that shoot (a missile weapon), whose cover a dive looks for.
fn shooters<'a>(d: &D20Data, all: &'a [Fighter], me: &Fighter) -> Vec<&'a Fighter> {
    all.iter()
        .filter(|f| f.side != me.side && !f.defeated() && f.position.is_some())
        .filter(|f| crate::battle::family::d20::shoots(d, f))
        .collect()
}

/// Where `me` would land diving on its own turn (its own square when no foe shoots).
pub fn landing_now(d: &D20Data, field: &Field, all: &[Fighter], me: &Fighter) -> Option<Square> {
    landing(d, field, all, me, &shooters(d, all, me))
}

/// The Dive for cover command on one's own turn: a Move action spent, prone on the landing
/// square, and the Dodge check kept for the first shot from beyond melee range.
pub fn apply_dive_for_cover(
    rules: Res<RulesRes>,
    ground: Res<Battleground>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(who) = take(&mut pending, |c| match c {
        Command::DiveForCover { who } => Some(*who),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let rules = &rules.0;
    let Some(d) = rules.d20() else {
        return;
    };
    let field = ground.field(rules);
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == who) else {
        return;
    };
    let (Ok(()), Some(rule), Some(from), Some(to)) = (
        check_dive_now(rules, me),
        d.combat.prone.as_ref(),
        me.position,
        landing_now(d, &field, &all, me),
    ) else {
        return;
    };
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    crate::battle::family::shinobi::spend_ap(
        &mut f,
        1,
        "a Dive for cover (\"This is a move action\")",
        &mut log,
    );
    f.position.0 = Some(to);
    f.encounter.prone = true;
    f.encounter.dive_ready = true;
    let place = if to == from {
        "where it stands".to_string()
    } else {
        format!("at ({}, {})", to.x, to.y)
    };
    log.push(BattleEvent::Dive {
        who,
        text: format!(
            "{} dives for cover and lands prone {place}: shots at it +{} (prone) with the cover there, its Dodge or parry against melee -{}, until it moves; the first shot at it from beyond melee range before its next turn meets a Dodge check",
            me.identity.name, rule.shots, rule.melee
        ),
    });
}
