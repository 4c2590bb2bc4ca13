//! The mouse's way to play with nothing chosen: a click on an opponent aims the first
//! maneuver that reaches it, a click on a lit square moves there, anywhere else says why
//! nothing happens.

use super::session::{Intent, Session};
use crate::battle::command::Command;
use crate::battle::components::CombatantId;
use crate::grid::{Square, footprint};

/// A click on `square` with nothing chosen, the mouse's way to play: on an opponent it
/// aims the first maneuver that can reach it (the odds show; a second click makes the
/// attack), on a square the unit can reach at Normal Speed it moves there; anywhere else
/// it says why nothing happens.
pub fn click_with_nothing_chosen(
    session: &mut Session,
    who: CombatantId,
    square: Square,
) -> Option<Command> {
    let me = session.battle.fighter(who)?;
    let target = session.fighters().into_iter().find(|f| {
        f.side != me.side
            && !f.defeated()
            && f.position
                .is_some_and(|at| footprint(at, f.size.squares).contains(&square))
    });
    if let Some(target) = target {
        let name = session.names.get(&target.id).cloned().unwrap_or_default();
        let slots = session.slots();
        let mut first_refusal = None;
        for (i, slot) in slots.iter().enumerate() {
            if let Some(why) = &slot.refusal {
                first_refusal.get_or_insert_with(|| format!("{}: {why}", slot.name));
                continue;
            }
            match session.aim_with(slot, square).map(|a| a.preview) {
                Some(Ok(_)) => {
                    session.intent = Intent::Attack { slot: i };
                    session.intent_of = Some(who);
                    session.aimed_by_click = true;
                    session.notice = Some(format!(
                        "{} aimed at {name}: click again to attack, right-click to cancel",
                        slot.name
                    ));
                    return None;
                }
                Some(Err(why)) => {
                    first_refusal.get_or_insert_with(|| format!("{}: {why}", slot.name));
                }
                None => {}
            }
        }
        session.notice = Some(format!(
            "no maneuver can be aimed at {name} now ({})",
            first_refusal.unwrap_or_else(|| "none is left".into())
        ));
        return None;
    }
    if let Some(path) = session.battle.path_to(who, square, false) {
        return Some(Command::Move {
            who,
            path,
            boosted: false,
        });
    }
    if me.position != Some(square) {
        session.notice = Some(format!(
            "{square}: click a lit square to move there or an opponent to aim at it"
        ));
    }
    None
}
