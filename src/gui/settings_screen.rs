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
pub const REBINDABLE: [GameAction; 51] = [
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
    GameAction::UseSkill,
    GameAction::DropProne,
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

/// How a row reads on screen.
pub fn label(settings: &Settings, row: SettingsRow, capturing: Option<GameAction>) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    match row {
        SettingsRow::UiScale if settings.ui_scale == super::settings::AUTO_UI_SCALE => {
            "UI scale            < auto: the window's height >".into()
        }
        SettingsRow::UiScale => {
            format!("UI scale            < {:.0}% >", settings.ui_scale * 100.0)
        }
        SettingsRow::ColourBlind => {
            format!("Colour-blind palette < {} >", on(settings.colour_blind))
        }
        SettingsRow::Volume => format!("Volume              < {:.0}% >", settings.volume * 100.0),
        SettingsRow::Mute => format!("Mute                < {} >", on(settings.muted)),
        SettingsRow::Pace => format!(
            "Computer's pace     < {:.1} s per command >",
            settings.ai_pace
        ),
        SettingsRow::Animation => format!("Animation speed     < x{} >", settings.animation_speed),
        SettingsRow::HitFlash => format!("Hit flash           < {} >", on(settings.hit_flash)),
        SettingsRow::ScreenShake => {
            format!("Screen shake        < {} >", on(settings.screen_shake))
        }
        SettingsRow::Defense => format!(
            "Dodge or Parry      < {} >",
            if settings.auto_defense {
                "the game chooses"
            } else {
                "ask me"
            }
        ),
        SettingsRow::CameraFollow => format!(
            "Camera follows      < {} >",
            if settings.camera_follow {
                "each turn and the computer's moves"
            } else {
                "only my hand"
            }
        ),
        SettingsRow::WindowMode => {
            format!("Window              < {} >", settings.window_mode.label())
        }
        SettingsRow::Key(a) if capturing == Some(a) => {
            format!("Key: {a:?}  ... press a key (Esc: keep)")
        }
        SettingsRow::Key(a) => format!("Key: {:<18} {}", format!("{a:?}"), settings.keys_text(a)),
        SettingsRow::ResetKeys => "Reset all keys to the defaults".into(),
        SettingsRow::Back => "Back (saves)".into(),
    }
}

#[derive(Component)]
struct SettingsText;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SettingsMenu>()
        .init_resource::<SettingsFile>()
        .add_systems(OnEnter(Screen::Settings), spawn_settings)
        .add_systems(
            Update,
            (capture_key, navigate_settings, draw_settings)
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
                padding: UiRect::top(px(30)),
                row_gap: px(10),
                ..default()
            },
            BackgroundColor(palette::BACKDROP),
        ))
        .with_children(|root| {
            root.spawn((
                Text::new("Settings"),
                crate::gui::fonts::heading(36.0),
                TextColor(palette::ACCENT),
            ));
            root.spawn((
                SettingsText,
                Text::new(""),
                TextFont::from_font_size(17.0),
                TextColor(palette::TEXT),
                Node {
                    width: px(720),
                    max_width: percent(94),
                    ..default()
                },
            ));
            root.spawn((
                Text::new(
                    "Up/Down: choose   Left/Right: change   Enter: rebind or run   Esc: back (saves)",
                ),
                TextFont::from_font_size(14.0),
                TextColor(palette::TEXT_DIM),
            ));
        });
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

fn navigate_settings(
    input: PlayerInput,
    mut menu: ResMut<SettingsMenu>,
    mut settings: ResMut<Settings>,
    file: Res<SettingsFile>,
    session: Option<Res<Session>>,
    mut next: ResMut<NextState<Screen>>,
) {
    // Back to the battle the pause menu was opened in, else to the title.
    let back = if menu.from_battle && session.is_some() {
        Screen::Battle
    } else {
        Screen::Title
    };
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
        match row {
            SettingsRow::Key(a) => menu.capturing = Some(a),
            SettingsRow::ResetKeys => settings.keys = default_keys(),
            SettingsRow::Back => {
                persist(&settings, &file);
                next.set(back);
            }
            other => change(&mut settings, other, 1),
        }
    } else if actions.just_pressed(&GameAction::Cancel) {
        persist(&settings, &file);
        next.set(back);
    }
}

fn draw_settings(
    settings: Res<Settings>,
    scale: Res<UiScale>,
    menu: Res<SettingsMenu>,
    mut text: Single<&mut Text, With<SettingsText>>,
) {
    let rows = rows();
    // A window of rows around the highlight keeps the list on screen at any UI scale.
    let shown = ((18.0 / scale.0.max(1.0)) as usize).max(6);
    let start = menu
        .row
        .saturating_sub(shown / 2)
        .min(rows.len().saturating_sub(shown));
    let mut out = String::new();
    if start > 0 {
        out.push_str("   ...\n");
    }
    for (i, row) in rows.iter().enumerate().skip(start).take(shown) {
        let mark = if i == menu.row { "> " } else { "  " };
        out.push_str(mark);
        out.push_str(&label(&settings, *row, menu.capturing));
        out.push('\n');
    }
    if start + shown < rows.len() {
        out.push_str("   ...\n");
    }
    if let Some(m) = &menu.message {
        out.push_str(&format!("\n! {m}\n"));
    }
    out.push_str(
        "\nMouse: left click selects, right click cancels, middle drag pans, wheel zooms.\nGamepad: the default map (see the book: docs/src/controls.md).",
    );
    if text.0 != out {
        text.0 = out;
    }
}
