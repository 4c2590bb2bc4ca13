//! The settings screen: UI scale, colour-blind palette, volume and mute, the computer's pace,
//! animation speed, hit flash and screen shake, defense prompts, the camera, the window mode,
//! and keyboard rebinding with a reset. Reached from the title and from a battle's pause menu; leaving it saves the settings
//! file and goes back where it came from.

use bevy::prelude::*;

use super::input::{GameAction, PlayerInput, default_keys};
use super::settings::{AI_PACES, ANIMATION_SPEEDS, Settings, SettingsFile, UI_SCALES, persist};
use super::window::WindowChoice;
use super::{Screen, Session, palette};

/// A row of the settings screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsRow {
    UiScale,
    ColourBlind,
    Volume,
    Mute,
    Pace,
    Animation,
    HitFlash,
    ScreenShake,
    Defense,
    CameraFollow,
    WindowMode,
    Key(GameAction),
    ResetKeys,
    Back,
}

/// The actions a player can rebind (menu navigation stays fixed so nobody locks themselves
/// out of the menus).
pub const REBINDABLE: [GameAction; 54] = [
    GameAction::Move,
    GameAction::BoostedMove,
    GameAction::Slot1,
    GameAction::Slot2,
    GameAction::Slot3,
    GameAction::Slot4,
    GameAction::Slot5,
    GameAction::Slot6,
    GameAction::Slot7,
    GameAction::Slot8,
    GameAction::Slot9,
    GameAction::NextSlot,
    GameAction::WagerUp,
    GameAction::WagerDown,
    GameAction::Rotate,
    GameAction::PowerUp,
    GameAction::Recover,
    GameAction::EndTurn,
    GameAction::HandOver,
    GameAction::Digivolve,
    GameAction::Fly,
    GameAction::UseSkill,
    GameAction::DropProne,
    GameAction::DiveForCover,
    GameAction::StandUp,
    GameAction::EndCondition,
    GameAction::CurePoison,
    GameAction::EnergyCharge,
    GameAction::CancelCharge,
    GameAction::ArrogantDeclaration,
    GameAction::CalledShot,
    GameAction::UnitedAttack,
    GameAction::Empower,
    GameAction::Grapple,
    GameAction::Hide,
    GameAction::Dodge,
    GameAction::Parry,
    GameAction::Deflect,
    GameAction::Sneak,
    GameAction::Counter,
    GameAction::SkipAi,
    GameAction::ToggleLog,
    GameAction::LogOlder,
    GameAction::LogNewer,
    GameAction::LogFilter,
    GameAction::Pause,
    GameAction::QuickSave,
    GameAction::QuickLoad,
    GameAction::Undo,
    GameAction::Redo,
    GameAction::CentreCamera,
    GameAction::ToggleFullscreen,
    GameAction::ThreatOverlay,
    GameAction::Help,
];

/// The settings screen's highlight and whether it waits for a key to bind.
#[derive(Resource, Debug, Clone, Default)]
pub struct SettingsMenu {
    pub row: usize,
    /// The action waiting for its new key.
    pub capturing: Option<GameAction>,
    /// A key was bound this frame: the menu ignores it.
    pub just_captured: bool,
    /// Why the last key was refused, shown until the next one.
    pub message: Option<String>,
    /// Opened from a battle's pause menu: leaving goes back to the battle.
    pub from_battle: bool,
}

/// Every row in order.
pub fn rows() -> Vec<SettingsRow> {
    let mut rows = vec![
        SettingsRow::UiScale,
        SettingsRow::ColourBlind,
        SettingsRow::Volume,
        SettingsRow::Mute,
        SettingsRow::Pace,
        SettingsRow::Animation,
        SettingsRow::HitFlash,
        SettingsRow::ScreenShake,
        SettingsRow::Defense,
        SettingsRow::CameraFollow,
        SettingsRow::WindowMode,
    ];
    rows.extend(REBINDABLE.iter().map(|a| SettingsRow::Key(*a)));
    rows.extend([SettingsRow::ResetKeys, SettingsRow::Back]);
    rows
}

/// Steps a value in a list of choices.
fn step_in(choices: &[f32], now: f32, step: isize) -> f32 {
    let at = choices
        .iter()
        .position(|c| (c - now).abs() < 1e-3)
        .unwrap_or(0) as isize;
    choices[(at + step).clamp(0, choices.len() as isize - 1) as usize]
}

/// Changes a row's value by one step (left: -1, right: +1).
pub fn change(settings: &mut Settings, row: SettingsRow, step: isize) {
    match row {
        SettingsRow::UiScale => settings.ui_scale = step_in(&UI_SCALES, settings.ui_scale, step),
        SettingsRow::ColourBlind => settings.colour_blind = !settings.colour_blind,
        SettingsRow::Volume => {
            settings.volume = (settings.volume + 0.1 * step as f32).clamp(0.0, 1.0);
        }
        SettingsRow::Mute => settings.muted = !settings.muted,
        SettingsRow::Pace => settings.ai_pace = step_in(&AI_PACES, settings.ai_pace, step),
        SettingsRow::Animation => {
            settings.animation_speed = step_in(&ANIMATION_SPEEDS, settings.animation_speed, step);
        }
        SettingsRow::HitFlash => settings.hit_flash = !settings.hit_flash,
        SettingsRow::ScreenShake => settings.screen_shake = !settings.screen_shake,
        SettingsRow::Defense => settings.auto_defense = !settings.auto_defense,
        SettingsRow::CameraFollow => settings.camera_follow = !settings.camera_follow,
        SettingsRow::WindowMode => {
            let all = WindowChoice::ALL;
            let at = all
                .iter()
                .position(|c| *c == settings.window_mode)
                .unwrap_or(0) as isize;
            settings.window_mode = all[(at + step).rem_euclid(all.len() as isize) as usize];
        }
        _ => {}
    }
}

/// The heading a row is listed under on the screen (rows keep the order of [`rows`]).
pub fn group(row: SettingsRow) -> &'static str {
    match row {
        SettingsRow::UiScale | SettingsRow::ColourBlind => "Display",
        SettingsRow::Volume | SettingsRow::Mute => "Sound",
        SettingsRow::Pace
        | SettingsRow::Animation
        | SettingsRow::HitFlash
        | SettingsRow::ScreenShake
        | SettingsRow::Defense
        | SettingsRow::CameraFollow => "Battle",
        SettingsRow::WindowMode => "Window",
        SettingsRow::Key(_) | SettingsRow::ResetKeys => "Keys",
        SettingsRow::Back => "",
    }
}

/// A row's name, the left column.
pub fn name(row: SettingsRow) -> String {
    match row {
        SettingsRow::UiScale => "UI scale".into(),
        SettingsRow::ColourBlind => "Colour-blind palette".into(),
        SettingsRow::Volume => "Volume".into(),
        SettingsRow::Mute => "Mute".into(),
        SettingsRow::Pace => "Computer's pace".into(),
        SettingsRow::Animation => "Animation speed".into(),
        SettingsRow::HitFlash => "Hit flash".into(),
        SettingsRow::ScreenShake => "Screen shake".into(),
        SettingsRow::Defense => "Dodge or Parry".into(),
        SettingsRow::CameraFollow => "Camera follows".into(),
        SettingsRow::WindowMode => "Window".into(),
        SettingsRow::Key(a) => a.words(),
        SettingsRow::ResetKeys => "Reset all keys to the defaults".into(),
        SettingsRow::Back => "Back (saves)".into(),
    }
}

/// A row's value, the right column; `None` for a row that is an action (reset, back).
pub fn value(
    settings: &Settings,
    row: SettingsRow,
    capturing: Option<GameAction>,
) -> Option<String> {
    let on = |b: bool| if b { "on" } else { "off" }.to_string();
    Some(match row {
        SettingsRow::UiScale if settings.ui_scale == super::settings::AUTO_UI_SCALE => {
            "auto: the window's height".into()
        }
        SettingsRow::UiScale => format!("{:.0}%", settings.ui_scale * 100.0),
        SettingsRow::ColourBlind => on(settings.colour_blind),
        SettingsRow::Volume => format!("{:.0}%", settings.volume * 100.0),
        SettingsRow::Mute => on(settings.muted),
        SettingsRow::Pace => format!("{:.1} s per command", settings.ai_pace),
        SettingsRow::Animation => format!("x{}", settings.animation_speed),
        SettingsRow::HitFlash => on(settings.hit_flash),
        SettingsRow::ScreenShake => on(settings.screen_shake),
        SettingsRow::Defense => if settings.auto_defense {
            "the game chooses"
        } else {
            "ask me"
        }
        .into(),
        SettingsRow::CameraFollow => if settings.camera_follow {
            "each turn and the computer's moves"
        } else {
            "only my hand"
        }
        .into(),
        SettingsRow::WindowMode => settings.window_mode.label().to_string(),
        SettingsRow::Key(a) if capturing == Some(a) => "press a key (Esc: keep)".into(),
        SettingsRow::Key(a) => settings.keys_text(a),
        SettingsRow::ResetKeys | SettingsRow::Back => return None,
    })
}

/// How a row reads as one line: its name and its value.
pub fn label(settings: &Settings, row: SettingsRow, capturing: Option<GameAction>) -> String {
    match value(settings, row, capturing) {
        Some(v) => format!("{}  < {v} >", name(row)),
        None => name(row),
    }
}

/// A line of the list as shown: a group's heading or a row (its index in [`rows`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    Heading(&'static str),
    Row(usize),
}

/// Every row under its group's heading.
fn lines() -> Vec<Line> {
    let mut out = Vec::new();
    let mut last = None;
    for (i, row) in rows().into_iter().enumerate() {
        let g = group(row);
        if last != Some(g) && !g.is_empty() {
            out.push(Line::Heading(g));
        }
        last = Some(g);
        out.push(Line::Row(i));
    }
    out
}

/// How many lines the screen shows at once in a window `height` logical pixels tall at a UI
/// scale: as many as fit under the title and above the notes (a line is 29 UI pixels); the
/// list scrolls around the highlighted row.
fn lines_shown(height: f32, scale: f32) -> usize {
    (((height / scale.max(0.5) - 170.0) / 29.0) as usize).clamp(7, SLOTS)
}

/// A slot of the list on screen: the n-th line shown, and the row it holds now (none for a
/// heading or an empty slot). Clicking it runs the row as Enter would.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct Slot {
    /// Its place on screen, from the top.
    pub n: usize,
    /// The row it shows now, an index in [`rows`].
    pub row: Option<usize>,
}

/// A slot's name text.
#[derive(Component)]
struct SlotName(usize);

/// A slot's value text.
#[derive(Component)]
struct SlotValue(usize);

/// A slot's arrow button: a click steps the slot's value as Left (-1) or Right (+1) would.
#[derive(Component, Debug, Clone, Copy)]
pub struct SlotArrow {
    /// The slot it belongs to.
    pub n: usize,
    /// -1 for `<`, +1 for `>`.
    pub step: isize,
}

/// The line under the list: a refused key, the mouse and gamepad notes.
#[derive(Component)]
struct SettingsNote;

/// The most slots any UI scale shows.
const SLOTS: usize = 20;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SettingsMenu>()
        .init_resource::<SettingsFile>()
        .add_systems(OnEnter(Screen::Settings), spawn_settings)
        .add_systems(
            Update,
            (
                capture_key,
                navigate_settings,
                click_settings,
                scroll_settings,
                draw_settings,
            )
                .chain()
                .run_if(in_state(Screen::Settings)),
        );
}

fn spawn_settings(mut commands: Commands, mut menu: ResMut<SettingsMenu>) {
    // Where the screen was opened from (the title or a battle) decides where it goes back to.
    *menu = SettingsMenu {
        from_battle: menu.from_battle,
        ..default()
    };
    commands
        .spawn((
            Name::new("Settings screen"),
            DespawnOnExit(Screen::Settings),
            Node {
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::top(px(24)),
                row_gap: px(8),
                ..default()
            },
            BackgroundColor(palette::BACKDROP),
        ))
        .with_children(|root| {
            root.spawn((
                Text::new("Settings"),
                crate::gui::fonts::heading(34.0),
                TextColor(palette::ACCENT),
            ));
            root.spawn(Node {
                width: px(720),
                max_width: percent(94),
                flex_direction: FlexDirection::Column,
                row_gap: px(1),
                ..default()
            })
            .with_children(|list| {
                for n in 0..SLOTS {
                    spawn_slot(list, n);
                }
            });
            root.spawn((
                SettingsNote,
                Text::new(""),
                TextFont::from_font_size(14.0),
                TextColor(palette::TEXT),
                Node {
                    width: px(720),
                    max_width: percent(94),
                    ..default()
                },
            ));
            root.spawn((
                Text::new(
                    "Up/Down or the wheel: choose   Left/Right or < >: change   Enter or click: rebind or run   Esc: back (saves)",
                ),
                TextFont::from_font_size(13.0),
                TextColor(palette::TEXT_DIM),
            ));
        });
}

/// One slot: a two-column grid, the name on the left, the value between its arrows on the
/// right.
fn spawn_slot(list: &mut ChildSpawnerCommands, n: usize) {
    list.spawn((
        Slot { n, row: None },
        Button,
        Node {
            display: Display::Grid,
            grid_template_columns: vec![GridTrack::px(300.0), GridTrack::flex(1.0)],
            align_items: AlignItems::Center,
            padding: UiRect::axes(px(12), px(2)),
            border: UiRect::all(px(2)),
            ..default()
        },
        BorderColor::all(Color::NONE),
        BackgroundColor(palette::PANEL),
    ))
    .with_children(|slot| {
        slot.spawn((
            SlotName(n),
            Text::new(""),
            TextFont::from_font_size(16.0),
            TextColor(palette::TEXT),
        ));
        slot.spawn(Node {
            align_items: AlignItems::Center,
            column_gap: px(8),
            ..default()
        })
        .with_children(|v| {
            spawn_arrow(v, n, -1);
            v.spawn((
                SlotValue(n),
                Text::new(""),
                crate::gui::fonts::heading(15.0),
                TextColor(palette::ACCENT),
            ));
            spawn_arrow(v, n, 1);
        });
    });
}

/// An arrow button of slot `n` that steps its value by `step`.
fn spawn_arrow(parent: &mut ChildSpawnerCommands, n: usize, step: isize) {
    parent.spawn((
        SlotArrow { n, step },
        Button,
        Node {
            padding: UiRect::axes(px(7), px(0)),
            border: UiRect::all(px(1)),
            ..default()
        },
        BorderColor::all(palette::TEXT_DIM.with_alpha(0.5)),
        BackgroundColor(palette::PANEL_LIGHT),
        children![(
            Text::new(if step < 0 { "<" } else { ">" }),
            TextFont::from_font_size(15.0),
            TextColor(palette::TEXT),
        )],
    ));
}

/// While capturing, the next key pressed becomes the action's key (Escape keeps the old).
fn capture_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut menu: ResMut<SettingsMenu>,
    mut settings: ResMut<Settings>,
) {
    let Some(action) = menu.capturing else {
        return;
    };
    if let Some(key) = keys.get_just_pressed().next().copied() {
        if key != KeyCode::Escape {
            menu.message = settings.rebind(action, key).err().map(|e| e.to_string());
        }
        menu.capturing = None;
        menu.just_captured = true;
    }
}

/// Where leaving the settings screen goes, and the file leaving saves.
#[derive(bevy::ecs::system::SystemParam)]
struct Leaving<'w> {
    file: Res<'w, SettingsFile>,
    session: Option<Res<'w, Session>>,
    next: ResMut<'w, NextState<Screen>>,
}

impl Leaving<'_> {
    /// Back to the battle the pause menu was opened in, else to the title.
    fn back(&self, menu: &SettingsMenu) -> Screen {
        if menu.from_battle && self.session.is_some() {
            Screen::Battle
        } else {
            Screen::Title
        }
    }

    /// Saves the settings and leaves.
    fn leave(&mut self, menu: &SettingsMenu, settings: &Settings) {
        persist(settings, &self.file);
        let back = self.back(menu);
        self.next.set(back);
    }
}

fn navigate_settings(
    input: PlayerInput,
    mut menu: ResMut<SettingsMenu>,
    mut settings: ResMut<Settings>,
    mut leaving: Leaving,
) {
    let Some(actions) = input.any() else {
        return;
    };
    if std::mem::take(&mut menu.just_captured) || menu.capturing.is_some() {
        return;
    }
    let rows = rows();
    if actions.just_pressed(&GameAction::Down) {
        menu.row = (menu.row + 1) % rows.len();
    }
    if actions.just_pressed(&GameAction::Up) {
        menu.row = (menu.row + rows.len() - 1) % rows.len();
    }
    let row = rows[menu.row];
    if actions.just_pressed(&GameAction::Left) {
        change(&mut settings, row, -1);
    }
    if actions.just_pressed(&GameAction::Right) {
        change(&mut settings, row, 1);
    }
    if actions.just_pressed(&GameAction::Confirm) {
        run_row(row, &mut menu, &mut settings, &mut leaving);
    } else if actions.just_pressed(&GameAction::Cancel) {
        leaving.leave(&menu, &settings);
    }
}

/// Enter on a row, or a click on it: rebind a key, reset the keys, leave, or step the value.
fn run_row(
    row: SettingsRow,
    menu: &mut SettingsMenu,
    settings: &mut Settings,
    leaving: &mut Leaving,
) {
    match row {
        SettingsRow::Key(a) => menu.capturing = Some(a),
        SettingsRow::ResetKeys => settings.keys = default_keys(),
        SettingsRow::Back => leaving.leave(menu, settings),
        other => change(settings, other, 1),
    }
}

/// The mouse on the list: moving onto a row highlights it, a click runs it as Enter would,
/// and a click on an arrow steps the value.
fn click_settings(
    slots: Query<(&Interaction, &Slot), Changed<Interaction>>,
    arrows: Query<(&Interaction, &SlotArrow), Changed<Interaction>>,
    all: Query<&Slot>,
    motion: Res<crate::gui::pointer::PointerMotion>,
    mut menu: ResMut<SettingsMenu>,
    mut settings: ResMut<Settings>,
    mut leaving: Leaving,
) {
    if menu.capturing.is_some() {
        return;
    }
    let pointer_moved = motion.moved();
    let rows = rows();
    for (interaction, arrow) in &arrows {
        if *interaction != Interaction::Pressed {
            continue;
        }
        if let Some(i) = all.iter().find(|s| s.n == arrow.n).and_then(|s| s.row) {
            menu.row = i;
            change(&mut settings, rows[i], arrow.step);
        }
    }
    for (interaction, slot) in &slots {
        let Some(i) = slot.row else {
            continue;
        };
        if let Some(pointer) = super::RowPointer::of(*interaction, pointer_moved) {
            menu.row = i;
            if pointer == super::RowPointer::Press {
                run_row(rows[i], &mut menu, &mut settings, &mut leaving);
            }
        }
    }
}

/// The wheel moves the highlight three rows a notch, so a mouse reaches every key.
fn scroll_settings(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    mut menu: ResMut<SettingsMenu>,
) {
    let notches: f32 = wheel.read().map(|w| w.y.signum()).sum();
    if notches == 0.0 || menu.capturing.is_some() {
        return;
    }
    let last = rows().len() as isize - 1;
    let row = (menu.row as isize - 3 * notches as isize).clamp(0, last);
    menu.row = row as usize;
}

/// The words and arrows inside the slots, and the note under them.
#[derive(bevy::ecs::system::SystemParam)]
#[allow(clippy::type_complexity)]
struct SlotParts<'w, 's> {
    names: Query<
        'w,
        's,
        (
            &'static SlotName,
            &'static mut Text,
            &'static mut TextFont,
            &'static mut TextColor,
        ),
        Without<SlotValue>,
    >,
    values: Query<'w, 's, (&'static SlotValue, &'static mut Text), Without<SlotName>>,
    arrows: Query<'w, 's, (&'static SlotArrow, &'static mut Visibility)>,
    note: Query<
        'w,
        's,
        &'static mut Text,
        (With<SettingsNote>, Without<SlotName>, Without<SlotValue>),
    >,
}

/// Fills the slots with the lines around the highlighted row: headings in the heading colour,
/// rows with their name and value, the highlighted one bordered; arrows only where a value
/// steps.
fn draw_settings(
    settings: Res<Settings>,
    scale: Res<UiScale>,
    menu: Res<SettingsMenu>,
    mut slots: Query<(&mut Slot, &mut Node, &mut BorderColor, &mut BackgroundColor)>,
    parts: SlotParts,
    window: Option<Single<&Window, With<bevy::window::PrimaryWindow>>>,
) {
    let SlotParts {
        mut names,
        mut values,
        mut arrows,
        mut note,
    } = parts;
    let rows = rows();
    let lines = lines();
    let height = window.map_or(720.0, |w| w.height());
    let shown = lines_shown(height, scale.0);
    let at = lines
        .iter()
        .position(|l| *l == Line::Row(menu.row))
        .unwrap_or(0);
    // Show the highlighted row's heading with it when the list starts there.
    let start = at
        .saturating_sub(shown / 2)
        .min(lines.len().saturating_sub(shown));
    let window = &lines[start..(start + shown).min(lines.len())];
    for (mut slot, mut node, mut border, mut bg) in &mut slots {
        let line = window.get(slot.n).copied();
        let row = match line {
            Some(Line::Row(i)) => Some(i),
            _ => None,
        };
        if slot.row != row {
            slot.row = row;
        }
        let display = if line.is_some() {
            Display::Grid
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
        let highlighted = row == Some(menu.row);
        border.set_if_neq(BorderColor::all(if highlighted {
            palette::ACCENT
        } else {
            Color::NONE
        }));
        let fill = match line {
            Some(Line::Heading(_)) => palette::BACKDROP,
            _ => palette::PANEL,
        };
        bg.set_if_neq(BackgroundColor(fill));
        let (name_words, value_words, heading) = match line {
            Some(Line::Heading(h)) => (h.to_string(), None, true),
            Some(Line::Row(i)) => (
                name(rows[i]),
                value(&settings, rows[i], menu.capturing),
                false,
            ),
            None => (String::new(), None, false),
        };
        for (sn, mut t, mut font, mut colour) in &mut names {
            if sn.0 != slot.n {
                continue;
            }
            if t.0 != name_words {
                t.0.clone_from(&name_words);
            }
            let want = if heading {
                crate::gui::fonts::heading(13.0)
            } else {
                TextFont::from_font_size(16.0)
            };
            if font.font_size != want.font_size {
                *font = want;
            }
            colour.set_if_neq(TextColor(if heading {
                palette::HEADING
            } else {
                palette::TEXT
            }));
        }
        for (sv, mut t) in &mut values {
            if sv.0 == slot.n {
                let want = value_words.clone().unwrap_or_default();
                if t.0 != want {
                    t.0 = want;
                }
            }
        }
        // Keys are rebound with Enter or a click, not stepped.
        let steps =
            value_words.is_some() && !matches!(row.map(|i| rows[i]), Some(SettingsRow::Key(_)));
        for (a, mut v) in &mut arrows {
            if a.n == slot.n {
                v.set_if_neq(if steps {
                    Visibility::Inherited
                } else {
                    Visibility::Hidden
                });
            }
        }
    }
    let mut out = String::new();
    if let Some(m) = &menu.message {
        out.push_str(&format!("! {m}\n"));
    }
    out.push_str(
        "Mouse: left click selects, right click cancels, middle drag pans, wheel zooms.\nGamepad: the default map (see the book: docs/src/controls.md).",
    );
    if let Ok(mut t) = note.single_mut()
        && t.0 != out
    {
        t.0 = out;
    }
}
