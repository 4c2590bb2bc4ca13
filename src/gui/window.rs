//! The game window as the player left it: windowed, borderless fullscreen or fullscreen (the
//! settings screen, or the fullscreen key), and a windowed game's size and position, kept in
//! the settings file and used when the game next opens.

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowMoved, WindowPosition, WindowResized, WindowResolution};

use super::input::{GameAction, PlayerInput};
pub use super::settings::WindowChoice;
use super::settings::{Settings, SettingsFile, persist};

/// The smallest window size remembered, in physical pixels: a smaller one (a window manager's
/// minimised size) would open the next game unusable.
const MIN_SIZE: (u32, u32) = (640, 360);

/// The default window: 1280×720, windowed, placed by the window manager.
pub fn default_window(title: &str) -> Window {
    Window {
        title: title.into(),
        resolution: WindowResolution::new(1280, 720),
        ..default()
    }
}

/// The window the settings remember: their mode, and in a window their size and position.
pub fn remembered_window(title: &str, settings: &Settings) -> Window {
    let mut window = default_window(title);
    window.mode = settings.window_mode.mode();
    if let Some((w, h)) = settings.window_size
        && w >= MIN_SIZE.0
        && h >= MIN_SIZE.1
    {
        window.resolution = WindowResolution::new(w, h);
    }
    if let Some((x, y)) = settings.window_position {
        window.position = WindowPosition::At(IVec2::new(x, y));
    }
    window
}

/// Whether the window's size and position are written back to the settings: not for scripted
/// or measured runs, which always use the default window.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct RememberWindow(pub bool);

/// The window's systems (the window itself is made by [`super::run`]).
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (toggle_fullscreen, apply_window_mode, remember_geometry).chain(),
    )
    .add_systems(Last, persist_on_exit);
}

/// The fullscreen key switches between a window and borderless fullscreen (exclusive
/// fullscreen too goes back to a window), and the settings keep it.
fn toggle_fullscreen(
    input: PlayerInput,
    mut settings: ResMut<Settings>,
    file: Option<Res<SettingsFile>>,
    remember: Option<Res<RememberWindow>>,
) {
    if !input
        .any()
        .is_some_and(|a| a.just_pressed(&GameAction::ToggleFullscreen))
    {
        return;
    }
    settings.window_mode = match settings.window_mode {
        WindowChoice::Windowed => WindowChoice::Borderless,
        _ => WindowChoice::Windowed,
    };
    if let (Some(file), true) = (file, remember.is_some_and(|r| r.0)) {
        persist(&settings, &file);
    }
}

/// Gives the window the mode the settings ask for, when they change.
fn apply_window_mode(
    settings: Res<Settings>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
) {
    if !settings.is_changed() {
        return;
    }
    let Ok(mut window) = windows.single_mut() else {
        return;
    };
    let mode = settings.window_mode.mode();
    if window.mode != mode {
        window.mode = mode;
    }
}

/// Notes a windowed game's size and position in the settings as the player changes them.
fn remember_geometry(
    remember: Option<Res<RememberWindow>>,
    mut resized: MessageReader<WindowResized>,
    mut moved: MessageReader<WindowMoved>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut settings: ResMut<Settings>,
) {
    let was_resized = resized.read().count() > 0;
    let at = moved.read().last().map(|m| m.position);
    if !remember.is_some_and(|r| r.0) || settings.window_mode != WindowChoice::Windowed {
        return;
    }
    // The window is made at a size in physical pixels, so that is what is kept.
    if was_resized && let Ok(window) = windows.single() {
        let (w, h) = (
            window.resolution.physical_width(),
            window.resolution.physical_height(),
        );
        if w >= MIN_SIZE.0 && h >= MIN_SIZE.1 && settings.window_size != Some((w, h)) {
            settings.window_size = Some((w, h));
        }
    }
    if let Some(p) = at {
        let p = Some((p.x, p.y));
        if settings.window_position != p {
            settings.window_position = p;
        }
    }
}

/// Writes the settings when the game closes, so the window opens as it was left.
fn persist_on_exit(
    mut exit: MessageReader<AppExit>,
    remember: Option<Res<RememberWindow>>,
    settings: Res<Settings>,
    file: Option<Res<SettingsFile>>,
) {
    if exit.read().next().is_none() || !remember.is_some_and(|r| r.0) {
        return;
    }
    if let Some(file) = file {
        persist(&settings, &file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::window::{MonitorSelection, WindowMode};

    #[test]
    fn a_remembered_window_opens_at_its_size_and_place() {
        let settings = Settings {
            window_size: Some((1600, 900)),
            window_position: Some((40, 30)),
            ..Settings::default()
        };
        let w = remembered_window("t", &settings);
        assert_eq!(w.resolution.physical_width(), 1600);
        assert_eq!(w.resolution.physical_height(), 900);
        assert_eq!(w.position, WindowPosition::At(IVec2::new(40, 30)));
        assert_eq!(w.mode, WindowMode::Windowed);
    }

    #[test]
    fn a_tiny_remembered_size_is_not_used() {
        let settings = Settings {
            window_size: Some((20, 10)),
            window_mode: WindowChoice::Borderless,
            ..Settings::default()
        };
        let w = remembered_window("t", &settings);
        assert_eq!(w.resolution.physical_width(), 1280);
        assert_eq!(
            w.mode,
            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
        );
    }
}
