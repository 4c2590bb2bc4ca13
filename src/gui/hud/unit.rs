//! The unit panel: the combatant under the cursor (or the one acting), laid out from its unit
//! sheet (the core's [`crate::battle::sheet`]) with its side's mark and who plays it.

use super::{shown_unit, side_name};
use crate::gui::palette;
use crate::gui::session::Session;

pub(super) fn unit_text(session: &mut Session, cursor: Option<crate::grid::Square>) -> String {
    let Some(f) = shown_unit(session, cursor) else {
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
