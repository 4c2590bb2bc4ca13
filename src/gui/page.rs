//! A full-window page of headed sections that scrolls: the help screen and the credits. Each
//! section is lines of `who: what` (the `who` in bold accent, a trailing `  [source]` dimmed)
//! or a grid of short items in as many 230 px columns as the window holds.

use bevy::ecs::hierarchy::ChildSpawnerCommands;
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;

use super::{fonts, palette};

/// One headed part of a page.
pub struct Section {
    pub heading: String,
    pub lines: Vec<String>,
    /// Lay the lines out as a grid of columns (short items: keys, crates) at this font size.
    pub grid: Option<f32>,
}

/// Pixels one notch of the wheel or one arrow key scrolls.
const LINE_PX: f32 = 48.0;

/// The page's root node: the whole window, a padded column.
pub fn page_node() -> Node {
    Node {
        width: percent(100),
        height: percent(100),
        padding: UiRect::axes(px(40), px(24)),
        flex_direction: FlexDirection::Column,
        row_gap: px(8),
        ..default()
    }
}

/// The page's title, its hint line and, in a column that scrolls (marked `scroll`), its
/// sections.
pub fn spawn_page_body(
    root: &mut ChildSpawnerCommands,
    title: String,
    hint: String,
    scroll: impl Bundle,
    sections: Vec<Section>,
) {
    root.spawn((
        Text::new(title),
        fonts::heading(28.0),
        TextColor(palette::ACCENT),
    ));
    root.spawn((
        Text::new(hint),
        TextFont::from_font_size(13.0),
        TextColor(palette::TEXT_DIM),
    ));
    root.spawn((
        scroll,
        ScrollPosition::default(),
        Node {
            flex_grow: 1.0,
            min_height: px(0),
            flex_direction: FlexDirection::Column,
            row_gap: px(6),
            overflow: Overflow::scroll_y(),
            ..default()
        },
    ))
    .with_children(|col| {
        for s in sections {
            col.spawn((
                Text::new(s.heading),
                fonts::heading(17.0),
                TextColor(palette::TERM),
                Node {
                    margin: UiRect::top(px(8)),
                    flex_shrink: 0.0,
                    ..default()
                },
            ));
            match s.grid {
                Some(size) => spawn_grid(col, s.lines, size),
                None => {
                    for line in s.lines {
                        spawn_entry_line(col, &line);
                    }
                }
            }
        }
    });
}

/// Short items in as many 230 px columns as the window holds.
fn spawn_grid(col: &mut ChildSpawnerCommands, lines: Vec<String>, size: f32) {
    col.spawn(Node {
        display: Display::Grid,
        grid_template_columns: vec![RepeatedGridTrack::px(GridTrackRepetition::AutoFill, 230.0)],
        flex_shrink: 0.0,
        column_gap: px(12),
        row_gap: px(2),
        ..default()
    })
    .with_children(|grid| {
        for line in lines {
            grid.spawn((
                Text::new(line),
                TextFont::from_font_size(size),
                TextColor(palette::TEXT),
            ));
        }
    });
}

/// One line of a section: an entry's words (before the first ": ") in the link colour, its
/// text in the panel's, its source dimmed.
pub fn spawn_entry_line(col: &mut ChildSpawnerCommands, line: &str) {
    let font = TextFont::from_font_size(13.0);
    let (term, rest) = line.split_once(": ").unwrap_or(("", line));
    let (text, source) = rest.rsplit_once("  [").unwrap_or((rest, ""));
    // Not shrunk by the scrolling column: each line keeps the height its words need.
    let tall = Node {
        flex_shrink: 0.0,
        ..default()
    };
    col.spawn((Text::new(""), font.clone(), TextColor(palette::TEXT), tall))
        .with_children(|t| {
            if !term.is_empty() {
                t.spawn((
                    TextSpan::new(format!("{term}: ")),
                    fonts::heading(13.0),
                    TextColor(palette::ACCENT),
                ));
            }
            t.spawn((TextSpan::new(text), font.clone(), TextColor(palette::TEXT)));
            if !source.is_empty() {
                t.spawn((
                    TextSpan::new(format!("  [{source}")),
                    font.clone(),
                    TextColor(palette::TEXT_DIM),
                ));
            }
        });
}

/// Notches the wheel turned this frame (away from the player: positive).
pub fn wheel_notches(wheel: &mut MessageReader<MouseWheel>) -> f32 {
    wheel
        .read()
        .map(|w| match w.unit {
            MouseScrollUnit::Line => w.y,
            MouseScrollUnit::Pixel => w.y / LINE_PX,
        })
        .sum()
}

/// Scrolls a full-screen column (help, credits) by the wheel's notches, the arrow keys and
/// Page Up/Down, never past its ends.
pub fn scroll_column(
    at: &mut ScrollPosition,
    node: &ComputedNode,
    notches: f32,
    keys: &ButtonInput<KeyCode>,
) {
    let page = node.size.y * node.inverse_scale_factor;
    let mut by = -notches * LINE_PX;
    for (key, step) in [
        (KeyCode::ArrowDown, LINE_PX),
        (KeyCode::ArrowUp, -LINE_PX),
        (KeyCode::PageDown, page * 0.9),
        (KeyCode::PageUp, -page * 0.9),
    ] {
        if keys.just_pressed(key) {
            by += step;
        }
    }
    if by != 0.0 {
        let most = ((node.content_size.y - node.size.y) * node.inverse_scale_factor).max(0.0);
        at.0.y = (at.0.y + by).clamp(0.0, most);
    }
}
