//! The load screen: every save slot and kept replay with its date, scenario, ruleset, round
//! and sides; a save continues the battle, a replay opens the viewer. A save whose ruleset or
//! scenario changed since it was written says so and asks before loading it anyway.

use std::path::PathBuf;

use bevy::prelude::*;

use super::input::{GameAction, PlayerInput};
use super::session::{Session, StartError};
use super::{DataDir, Screen, palette};
use crate::save::slots::{self, SlotInfo};

/// Rows shown at once; the list scrolls with the highlight.
const VISIBLE: usize = 12;

/// One entry of the list.
#[derive(Debug)]
pub struct LoadEntry {
    pub replay: bool,
    pub info: SlotInfo,
}

/// The load screen's list, highlight and question.
#[derive(Resource, Debug, Default)]
pub struct LoadMenu {
    pub entries: Vec<LoadEntry>,
    pub row: usize,
    /// The save whose data changed, waiting for "load anyway" (Enter) or "no" (Esc).
    pub confirm: Option<PathBuf>,
    /// What went wrong with the last choice, or what the question is.
    pub message: Option<String>,
    /// Opened from a battle's pause menu: Back returns to it.
    pub from_battle: bool,
}

impl LoadMenu {
    /// Lists the saves (newest first), then the replays.
    pub fn read(root: &std::path::Path, from_battle: bool) -> Self {
        let mut entries: Vec<LoadEntry> = slots::list(&slots::saves_dir(root))
            .into_iter()
            .map(|info| LoadEntry {
                replay: false,
                info,
            })
            .collect();
        entries.extend(
            slots::list(&slots::replays_dir(root))
                .into_iter()
                .map(|info| LoadEntry { replay: true, info }),
        );
        Self {
            entries,
            from_battle,
            ..Self::default()
        }
    }

    /// Opens the entry of `path` with its question already asked (quick-load of a save
    /// whose data changed).
    pub fn asking(mut self, path: PathBuf, message: String) -> Self {
        if let Some(i) = self.entries.iter().position(|e| e.info.path == path) {
            self.row = i;
        }
        self.confirm = Some(path);
        self.message = Some(message);
        self
    }

    /// How many rows there are: the entries and Back.
    fn rows(&self) -> usize {
        self.entries.len() + 1
    }
}

/// A row's button: its position among the visible rows.
#[derive(Component)]
struct LoadRow(usize);

/// The text under the list.
#[derive(Component)]
struct LoadInfo;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Load), spawn_load_screen)
        .add_systems(
            Update,
            (navigate_load_screen, click_load_rows, draw_load_screen)
                .chain()
                .run_if(in_state(Screen::Load)),
        );
}

fn spawn_load_screen(mut commands: Commands, menu: Option<Res<LoadMenu>>, dir: Res<DataDir>) {
    if menu.is_none() {
        commands.insert_resource(LoadMenu::read(&dir.0, false));
    }
    commands
        .spawn(super::screen_root("Load screen", Screen::Load, 6.0))
        .with_children(|root| {
            root.spawn((
                Text::new("Load a battle or watch a replay"),
                crate::gui::fonts::heading(32.0),
                TextColor(palette::ACCENT),
                Node {
                    margin: UiRect::bottom(px(12)),
                    ..default()
                },
            ));
            for i in 0..=VISIBLE {
                super::spawn_menu_row(root, LoadRow(i), 1000.0, 15.0);
            }
            root.spawn((
                LoadInfo,
                Text::new(""),
                TextFont::from_font_size(15.0),
                TextColor(palette::TEXT),
                Node {
                    width: px(1000),
                    max_width: percent(96),
                    margin: UiRect::top(px(12)),
                    ..default()
                },
            ));
            root.spawn((
                Text::new(
                    "Up/Down: choose   Enter: load or watch   Esc: back   Mouse: click a row",
                ),
                TextFont::from_font_size(14.0),
                TextColor(palette::TEXT_DIM),
            ));
        });
}

/// The first entry shown, so the highlight stays in view.
fn scroll(menu: &LoadMenu) -> usize {
    menu.row
        .saturating_sub(VISIBLE - 1)
        .min(menu.entries.len().saturating_sub(VISIBLE))
}

/// The entry behind a visible row, or `None` for Back (the last row).
fn entry_at(menu: &LoadMenu, visible: usize) -> Option<usize> {
    let i = scroll(menu) + visible;
    let shown = menu.entries.len().min(VISIBLE);
    (visible < shown).then_some(i)
}

fn navigate_load_screen(
    input: PlayerInput,
    menu: Option<ResMut<LoadMenu>>,
    session: Option<Res<Session>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let (Some(actions), Some(mut menu)) = (input.any(), menu) else {
        return;
    };
    let rows = menu.rows();
    if actions.just_pressed(&GameAction::Cancel) {
        if menu.confirm.take().is_some() {
            menu.message = None;
        } else {
            leave(&menu, session.is_some(), &mut commands, &mut next);
        }
        return;
    }
    if actions.just_pressed(&GameAction::Down) {
        menu.row = (menu.row + 1) % rows;
        menu.confirm = None;
        menu.message = None;
    }
    if actions.just_pressed(&GameAction::Up) {
        menu.row = (menu.row + rows - 1) % rows;
        menu.confirm = None;
        menu.message = None;
    }
    if actions.just_pressed(&GameAction::Confirm) {
        let row = menu.row;
        open_row(&mut menu, row, session.is_some(), &mut commands, &mut next);
    }
}

/// Back to where the screen was opened from.
fn leave(menu: &LoadMenu, in_battle: bool, commands: &mut Commands, next: &mut NextState<Screen>) {
    commands.remove_resource::<LoadMenu>();
    next.set(if menu.from_battle && in_battle {
        Screen::Battle
    } else {
        Screen::Title
    });
}

/// Loads the save or opens the replay at `row` (an entry index), or goes back.
fn open_row(
    menu: &mut LoadMenu,
    row: usize,
    in_battle: bool,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
) {
    let Some(entry) = menu.entries.get(row) else {
        leave(menu, in_battle, commands, next);
        return;
    };
    if let Err(e) = &entry.info.save {
        menu.message = Some(format!("{} cannot be loaded: {e}", entry.info.name));
        return;
    }
    let path = entry.info.path.clone();
    let accept = menu.confirm.as_ref() == Some(&path);
    let result = if entry.replay {
        Session::watch(&path)
    } else {
        Session::load(&path, accept)
    };
    match result {
        Ok(session) => {
            commands.insert_resource(session);
            commands.remove_resource::<LoadMenu>();
            next.set(Screen::Battle);
        }
        Err(StartError::Load(e)) if e.is_data_changed() && entry.replay => {
            menu.confirm = None;
            menu.message = Some(format!(
                "{} cannot be watched: {e}; a replay must play exactly as it was recorded",
                entry.info.name
            ));
        }
        Err(StartError::Load(e)) if e.is_data_changed() => {
            menu.message = Some(format!("{e}.\nEnter: load it anyway   Esc: do not load"));
            menu.confirm = Some(path);
        }
        Err(e) => {
            menu.confirm = None;
            menu.message = Some(format!("{} cannot be loaded: {e}", entry.info.name));
        }
    }
}

fn click_load_rows(
    rows: Query<(&Interaction, &LoadRow), Changed<Interaction>>,
    menu: Option<ResMut<LoadMenu>>,
    session: Option<Res<Session>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut menu) = menu else {
        return;
    };
    for (interaction, row) in &rows {
        if *interaction == Interaction::Pressed {
            let i = entry_at(&menu, row.0).unwrap_or(menu.entries.len());
            if menu.row != i {
                menu.confirm = None;
            }
            menu.row = i;
            open_row(&mut menu, i, session.is_some(), &mut commands, &mut next);
        }
    }
}

fn draw_load_screen(
    menu: Option<Res<LoadMenu>>,
    settings: Res<super::Settings>,
    mut rows: Query<(&LoadRow, &Children, &mut Node, &mut BorderColor)>,
    mut texts: Query<&mut Text, Without<LoadInfo>>,
    mut info: Query<&mut Text, With<LoadInfo>>,
) {
    let Some(menu) = menu else {
        return;
    };
    let shown = menu.entries.len().min(VISIBLE);
    let first = scroll(&menu);
    for (row, children, mut node, mut border) in &mut rows {
        let (label, index) = match entry_at(&menu, row.0) {
            Some(i) => {
                let e = &menu.entries[i];
                let kind = if e.replay { "Replay" } else { "Save" };
                (Some(format!("{kind}: {}", e.info.line())), i)
            }
            None if row.0 == shown => (
                Some(if menu.from_battle {
                    "Back to the battle".into()
                } else {
                    "Back to the title".into()
                }),
                menu.entries.len(),
            ),
            None => (None, usize::MAX),
        };
        super::show_menu_row(
            label.as_deref(),
            index == menu.row,
            (children, &mut node, &mut border),
            &mut texts,
        );
    }
    if let Ok(mut text) = info.single_mut() {
        let want = match &menu.message {
            Some(m) => m.clone(),
            None if menu.entries.is_empty() => format!(
                "No saves or replays yet: save from a battle's pause menu or with {}, and keep a replay from the end screen.",
                settings.key_of(super::input::GameAction::QuickSave)
            ),
            None => format!(
                "{} saves and replays{}",
                menu.entries.len(),
                if menu.entries.len() > VISIBLE {
                    format!(", {}-{} shown", first + 1, first + shown)
                } else {
                    String::new()
                }
            ),
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}
