//! The unit panel: the combatant under the cursor (or the one acting), its name, side and who
//! plays it over its unit sheet (the core's [`crate::battle::sheet`]), each section a heading
//! over a grid of figures coloured by what they say, then its lines. Built again only when the
//! sheet changes.

use bevy::prelude::*;

use super::side_name;
use super::terms::LinkedText;
use crate::battle::fighter::Fighter;
use crate::battle::sheet::{SheetCell, SheetSection, Tone, UnitSheet};
use crate::gui::board::PANEL_W;
use crate::gui::input::CursorSquare;
use crate::gui::session::{Intent, Session};
use crate::gui::view::BattleView;
use crate::gui::{fonts, palette};

/// The text naming the unit shown, its kind, side and player.
#[derive(Component)]
pub(super) struct UnitHeader;

/// The node the sheet's sections are built under.
#[derive(Component)]
pub(super) struct SheetPanel;

/// The panel's first lines for `shown`: side mark, name and kind, then side and player.
fn header_text(session: &Session, f: &Fighter, sheet: &UnitSheet) -> String {
    format!(
        "{} {}  |  {}\n{} ({}){}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        sheet.kind,
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        sheet.side_note,
    )
}

/// A figure's colour: pools by how full, changed stats and spent resources stand out.
fn tone_colour(tone: Tone) -> Color {
    match tone {
        Tone::Plain => palette::TEXT,
        Tone::Good => palette::LIFE,
        Tone::Low => palette::ACCENT,
        Tone::Critical => palette::DANGER,
        Tone::Changed => palette::CHANGED,
    }
}

/// The width the sheet has, in logical pixels (the panel less its padding).
const SHEET_W: f32 = PANEL_W - 20.0;
/// About how wide a character of the sheet's 13-pixel text is, for choosing the columns.
const CHAR_W: f32 = 7.2;

/// How many figures a row of a section's grid holds: as many of its widest as fit, 1 to 4.
fn columns(cells: &[SheetCell]) -> u16 {
    let widest = cells
        .iter()
        .map(|c| c.label.chars().count() + c.value.chars().count() + 1)
        .max()
        .unwrap_or(1) as f32;
    ((SHEET_W / (widest * CHAR_W + 12.0)).floor() as u16).clamp(1, 4)
}

/// Writes the header of the unit shown, and builds its sheet's sections again when the sheet
/// changed (hovering another unit, a pool or condition changing).
pub(super) fn draw_unit_panel(
    mut commands: Commands,
    mut session: ResMut<Session>,
    cursor: Res<CursorSquare>,
    mut header: Query<&mut LinkedText, With<UnitHeader>>,
    panel: Query<Entity, With<SheetPanel>>,
    view: Res<BattleView>,
    mut drawn: Local<Option<(UnitSheet, bool)>>,
) {
    let shown = super::shown_unit(&mut session, cursor.0);
    let sheet = shown.as_ref().and_then(|f| session.battle.unit_sheet(f.id));
    let head = match (&shown, &sheet) {
        (Some(f), Some(s)) => header_text(&session, f, s),
        _ => String::new(),
    };
    if let Ok(mut h) = header.single_mut()
        && h.0 != head
    {
        h.0 = head;
    }
    let Ok(panel) = panel.single() else {
        return;
    };
    // While an attack is aimed at someone the odds panel below needs the room.
    let fold = matches!(session.intent, Intent::Attack { .. })
        && view.aim.as_ref().is_some_and(|a| a.preview.is_ok());
    let want = sheet.map(|s| (s, fold));
    if *drawn == want {
        return;
    }
    commands.entity(panel).despawn_related::<Children>();
    if let Some((s, fold)) = &want {
        commands.entity(panel).with_children(|p| {
            let (folded, shown): (Vec<_>, Vec<_>) =
                s.sections.iter().partition(|x| *fold && x.detail);
            for section in shown {
                spawn_section(p, section);
            }
            let folded: Vec<&str> = folded.iter().map(|x| x.heading.as_str()).collect();
            if !folded.is_empty() {
                p.spawn((
                    Text::new(format!("{}: shown when not aiming", folded.join(", "))),
                    TextFont::from_font_size(11.0),
                    TextColor(palette::TEXT_DIM),
                ));
            }
        });
    }
    *drawn = want;
}

/// A text of the sheet whose rule words link to the glossary (see [`LinkedText`]).
fn linked(words: &str, font: TextFont, colour: Color) -> impl Bundle {
    (
        Text::new(""),
        font,
        TextColor(colour),
        LinkedText(words.to_string()),
    )
}

/// One section: its heading, its figures as a grid, its lines.
fn spawn_section(p: &mut ChildSpawnerCommands, section: &SheetSection) {
    p.spawn(Node {
        flex_direction: FlexDirection::Column,
        row_gap: px(1),
        margin: UiRect::top(px(3)),
        ..default()
    })
    .with_children(|sec| {
        sec.spawn(linked(
            &section.heading,
            fonts::heading(11.0),
            palette::HEADING,
        ));
        if !section.cells.is_empty() {
            sec.spawn(Node {
                display: Display::Grid,
                grid_template_columns: RepeatedGridTrack::flex(columns(&section.cells), 1.0),
                column_gap: px(8),
                row_gap: px(1),
                ..default()
            })
            .with_children(|grid| {
                for cell in &section.cells {
                    grid.spawn(Node {
                        column_gap: px(4),
                        ..default()
                    })
                    .with_children(|c| {
                        // A figure stays on one line: the columns are chosen so it fits.
                        c.spawn((
                            linked(
                                &cell.label,
                                TextFont::from_font_size(13.0),
                                palette::TEXT_DIM,
                            ),
                            TextLayout::no_wrap(),
                        ));
                        // The label's face and size, so the two share a glyph atlas and draw
                        // in one batch: the colour sets the figure apart.
                        c.spawn((
                            Text::new(cell.value.clone()),
                            TextFont::from_font_size(13.0),
                            TextColor(tone_colour(cell.tone)),
                            TextLayout::no_wrap(),
                        ));
                    });
                }
            });
        }
        for line in &section.lines {
            sec.spawn(linked(line, TextFont::from_font_size(13.0), palette::TEXT));
        }
    });
}
