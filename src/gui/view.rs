//! What the battle screen shows this frame that costs rules work (the action bar's maneuvers,
//! the aimed attack's exact odds, the targets in reach, the defense prompt's odds), computed
//! once after the controls have run, so the board and the panels draw the same answer without
//! each asking the rules again.

use bevy::prelude::*;

use super::input::CursorSquare;
use super::session::{Aim, Intent, Session, Slot};
use crate::battle::command::Command;
use crate::battle::command::Decision;
use crate::battle::family::skill::SkillOption;
use crate::battle::odds::TargetOdds;
use crate::grid::Square;

/// This frame's answers from the rules, for drawing.
#[derive(Resource, Debug, Clone, Default)]
pub struct BattleView {
    /// The active human unit's attacking maneuvers (empty on the computer's turn).
    pub slots: Vec<Slot>,
    /// The chosen maneuver aimed at the cursor.
    pub aim: Option<Aim>,
    /// The most Ki the chosen maneuver can wager.
    pub max_wager: i64,
    /// Squares of the units the chosen single-target maneuver may target.
    pub targetable: Vec<Square>,
    /// The odds of each answer of the defense prompt on screen (Dodge first).
    pub defense_odds: Option<Vec<TargetOdds>>,
    /// Digimon and d20: every Skill Check the active unit may make on the ground beside it.
    pub skills: Vec<SkillOption>,
    /// Choosing a Skill Check: the one on the cursor's square, or why there is none.
    pub skill_aim: Option<Result<SkillOption, String>>,
}

/// Recomputes the view from the session after this frame's commands.
pub fn read_battle_view(
    mut session: ResMut<Session>,
    cursor: Res<CursorSquare>,
    mut view: ResMut<BattleView>,
) {
    *view = BattleView::default();
    if session.handoff.is_some() {
        return;
    }
    match session.human_to_act() {
        Some((_, None, _)) => {
            view.slots = session.slots();
            if let Intent::Attack { slot } = session.intent
                && let Some(slot) = view.slots.get(slot).cloned()
            {
                view.max_wager = session.max_wager_with(&slot);
                view.targetable = session.targetable(&slot);
                view.aim = cursor.0.and_then(|c| session.aim_with(&slot, c));
            }
            read_skill_checks(&mut session, cursor.0, &mut view);
        }
        Some((_, Some(Decision::Defense { .. }), _)) => {
            view.defense_odds = session.battle.defense_odds();
        }
        _ => {}
    }
}

/// Digimon and d20: the Skill Checks the active unit may make beside it and, while one is
/// being chosen, the one under the cursor (or the rule that refuses it).
fn read_skill_checks(session: &mut Session, cursor: Option<Square>, view: &mut BattleView) {
    let Some(who) = session.battle.turn().active() else {
        return;
    };
    if session.battle.offers().skill_ways.is_empty() {
        return;
    }
    view.skills = session.battle.skill_options(who);
    if let (Intent::Skill { way }, Some(at)) = (session.intent, cursor) {
        let found = view
            .skills
            .iter()
            .find(|o| o.at == at && o.way == way)
            .cloned();
        view.skill_aim = Some(match found {
            Some(o) => Ok(o),
            None => Err(session
                .battle
                .check(&Command::UseSkill { who, at, way })
                .err()
                .map_or_else(
                    || "no Skill Check here".to_string(),
                    |e| session.describe_error(&e),
                )),
        });
    }
}
