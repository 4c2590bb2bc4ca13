//! The unit panel: the combatant under the cursor (or the one acting), laid out from its unit
//! sheet (the core's [`crate::battle::sheet`]) with its side's mark and who plays it.

use super::side_name;
use crate::battle::fighter::Fighter;
use crate::gui::palette;
use crate::gui::session::Session;

/// The panel's words for `shown`, the unit under the cursor or the one acting.
pub(super) fn unit_text(session: &mut Session, shown: Option<&Fighter>) -> String {
    let Some(f) = shown else {
        return String::new();
    };
    let Some(sheet) = session.battle.unit_sheet(f.id) else {
        return String::new();
    };
    format!(
        "{} {}  |  {}\n{} ({}){}\n{}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        sheet.kind,
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        sheet.side_note,
        sheet.body
    )
}
