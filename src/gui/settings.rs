//! Player settings: UI scale, colour-blind palette, volume and mute, the computer's pace, who
//! answers defense prompts, the camera, the window, and keyboard bindings. Saved as RON in the user's config
//! directory and loaded at start; a broken file is reported with its line and column and
//! replaced only when the player saves new settings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::input::{GameAction, default_keys};

/// Everything the settings screen changes.
#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// UI scale, 1.0 to 2.0, or [`AUTO_UI_SCALE`]: the window's height over 720, so a
    /// 1080p window reads like a 720p one.
    pub ui_scale: f32,
    /// Sides in the Okabe-Ito colour-blind safe colours instead of the scenario's.
    pub colour_blind: bool,
    /// Sound volume, 0.0 to 1.0.
    pub volume: f32,
    pub muted: bool,
    /// Seconds between the computer's commands.
    pub ai_pace: f32,
    /// How fast tokens walk and floating words fade: 0.5 (slow) to 4 (fast).
    pub animation_speed: f32,
    /// A unit hit flashes white.
    pub hit_flash: bool,
    /// The view shakes a little when a blow lands (harder for a defeat).
    pub screen_shake: bool,
    /// Let the game answer Dodge or Parry for human units with the better odds.
    pub auto_defense: bool,
    /// The camera turns to each unit's turn and keeps the computer's moves and attacks in
    /// view (on maps too big to show whole at a readable size).
    pub camera_follow: bool,
    /// Windowed, borderless fullscreen or fullscreen.
    pub window_mode: WindowChoice,
    /// The windowed game's size in physical pixels, as the player left it.
    pub window_size: Option<(u32, u32)>,
    /// The windowed game's position on the desktop, as the player left it.
    pub window_position: Option<(i32, i32)>,
    /// Keyboard keys per action; mouse and gamepad bindings are the defaults.
    pub keys: BTreeMap<GameAction, Vec<KeyCode>>,
}

/// How the window takes the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum WindowChoice {
    /// A window of the remembered size.
    #[default]
    Windowed,
    /// The whole screen, without changing the monitor's video mode (quick to switch).
    Borderless,
    /// Exclusive fullscreen in the monitor's current video mode.
    Fullscreen,
}

impl WindowChoice {
    /// The choices in the settings screen's order.
    pub const ALL: [WindowChoice; 3] = [Self::Windowed, Self::Borderless, Self::Fullscreen];

    /// Bevy's window mode for this choice.
    pub fn mode(self) -> bevy::window::WindowMode {
        match self {
            Self::Windowed => bevy::window::WindowMode::Windowed,
            Self::Borderless => bevy::window::WindowMode::BorderlessFullscreen(
                bevy::window::MonitorSelection::Current,
            ),
            Self::Fullscreen => bevy::window::WindowMode::Fullscreen(
                bevy::window::MonitorSelection::Current,
                bevy::window::VideoModeSelection::Current,
            ),
        }
    }

    /// How the settings screen names it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Windowed => "windowed",
            Self::Borderless => "borderless fullscreen",
            Self::Fullscreen => "fullscreen",
        }
    }
}

/// The UI scale that follows the window: its height over [`AUTO_HEIGHT`], 100 % to 200 %.
pub const AUTO_UI_SCALE: f32 = 0.0;
/// The window height, in logical pixels, the layout is drawn for at 100 %.
pub const AUTO_HEIGHT: f32 = 720.0;
/// The UI scales the settings screen steps through, automatic first.
pub const UI_SCALES: [f32; 7] = [AUTO_UI_SCALE, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0];
/// The computer paces the settings screen steps through, in seconds per command.
pub const AI_PACES: [f32; 6] = [0.0, 0.2, 0.4, 0.6, 1.0, 1.5];
/// The animation speeds the settings screen steps through.
pub const ANIMATION_SPEEDS: [f32; 4] = [0.5, 1.0, 2.0, 4.0];

impl Settings {
    /// The UI scale to draw with in a window `height` logical pixels high: the chosen one, or
    /// for automatic the height over 720 rounded to 10 %, 100 % to 200 % (a window a few
    /// pixels short of 1080 still gets 150 %, and dragging its edge does not relayout the
    /// UI at every pixel).
    pub fn ui_scale_for(&self, height: f32) -> f32 {
        if self.ui_scale != AUTO_UI_SCALE {
            return self.ui_scale;
        }
        ((height / AUTO_HEIGHT * 10.0).round() / 10.0).clamp(1.0, 2.0)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            ui_scale: AUTO_UI_SCALE,
            colour_blind: false,
            volume: 0.8,
            muted: false,
            ai_pace: 0.6,
            animation_speed: 1.0,
            hit_flash: true,
            screen_shake: true,
            auto_defense: false,
            camera_follow: true,
            window_mode: WindowChoice::Windowed,
            window_size: None,
            window_position: None,
            keys: default_keys(),
        }
    }
}

impl Settings {
    /// The key the player bound to `action` (its first), as hints on screen name it; `?` when
    /// none is.
    pub fn key_of(&self, action: GameAction) -> String {
        self.keys
            .get(&action)
            .and_then(|k| k.first())
            .map_or_else(|| "?".to_string(), |k| key_label(*k))
    }

    /// Binds `key` to `action` alone, and takes it off any other action that had it; keys
    /// the menus need (arrows, Enter, Space, Escape) are refused, so nobody is locked out.
    pub fn rebind(&mut self, action: GameAction, key: KeyCode) -> Result<(), RebindError> {
        if let Some(menu) = MENU_ACTIONS
            .iter()
            .find(|a| default_keys().get(a).is_some_and(|k| k.contains(&key)))
        {
            return Err(RebindError {
                key: key_label(key),
                action: *menu,
            });
        }
        for keys in self.keys.values_mut() {
            keys.retain(|k| *k != key);
        }
        self.keys.insert(action, vec![key]);
        self.keys.retain(|_, v| !v.is_empty());
        Ok(())
    }

    /// The keys of an action as people write them (`M`, `Enter`…), or "unbound".
    pub fn keys_text(&self, action: GameAction) -> String {
        match self.keys.get(&action) {
            Some(keys) if !keys.is_empty() => keys
                .iter()
                .map(|k| key_label(*k))
                .collect::<Vec<_>>()
                .join(", "),
            _ => "unbound".into(),
        }
    }

    /// Clamps values a hand-edited file may have put out of range.
    pub fn sanitized(mut self) -> Self {
        if self.ui_scale != AUTO_UI_SCALE {
            self.ui_scale = self.ui_scale.clamp(1.0, 2.0);
        }
        self.volume = self.volume.clamp(0.0, 1.0);
        self.ai_pace = self.ai_pace.clamp(0.0, 5.0);
        self.animation_speed = self.animation_speed.clamp(0.5, 4.0);
        // Actions added since the file was written get their default keys, unless the
        // player already gave those keys to something else.
        for (action, keys) in default_keys() {
            if !self.keys.contains_key(&action) {
                let free: Vec<KeyCode> = keys
                    .into_iter()
                    .filter(|k| !self.keys.values().any(|v| v.contains(k)))
                    .collect();
                if !free.is_empty() {
                    self.keys.insert(action, free);
                }
            }
        }
        self
    }
}

/// The actions menus are driven by: their keys stay fixed.
pub const MENU_ACTIONS: [GameAction; 6] = [
    GameAction::Up,
    GameAction::Down,
    GameAction::Left,
    GameAction::Right,
    GameAction::Confirm,
    GameAction::Cancel,
];

/// A key the menus need cannot be given to a battle action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key} is kept for the menus ({action:?}); choose another key")]
pub struct RebindError {
    pub key: String,
    pub action: GameAction,
}

/// A key's short name: `KeyM` → `M`, `Digit1` → `1`, others as Bevy names them.
pub fn key_label(k: KeyCode) -> String {
    let symbol = match k {
        KeyCode::Minus => Some("-"),
        KeyCode::Equal => Some("="),
        KeyCode::NumpadAdd => Some("Num+"),
        KeyCode::NumpadSubtract => Some("Num-"),
        KeyCode::Comma => Some(","),
        KeyCode::Period => Some("."),
        KeyCode::Slash => Some("/"),
        KeyCode::Semicolon => Some(";"),
        KeyCode::Quote => Some("'"),
        KeyCode::Backslash => Some("\\"),
        KeyCode::Backquote => Some("`"),
        KeyCode::BracketLeft => Some("["),
        KeyCode::BracketRight => Some("]"),
        _ => None,
    };
    if let Some(s) = symbol {
        return s.to_string();
    }
    let name = format!("{k:?}");
    name.strip_prefix("Key")
        .or_else(|| name.strip_prefix("Digit"))
        .map_or(name.clone(), str::to_string)
}

/// Why the settings file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
}

/// The settings file: `$GRIDCLASH_CONFIG_DIR/settings.ron` when that is set (tests, portable
/// installs), else `gridclash/settings.ron` in the user's config directory.
pub fn settings_path() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GRIDCLASH_CONFIG_DIR") {
        return Some(PathBuf::from(dir).join("settings.ron"));
    }
    dirs::config_dir().map(|d| d.join("gridclash").join("settings.ron"))
}

/// Reads settings from `path`; a missing file gives the defaults.
pub fn load(path: &Path) -> Result<Settings, SettingsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Settings::default()),
        Err(source) => {
            return Err(SettingsError::Io {
                path: path.display().to_string(),
                source,
            });
        }
    };
    ron::from_str::<Settings>(&text)
        .map(Settings::sanitized)
        .map_err(|e| SettingsError::Parse {
            path: path.display().to_string(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })
}

/// Writes settings to `path` with the saves' crash-safe writer, so a crash never leaves half
/// a file.
pub fn save(settings: &Settings, path: &Path) -> Result<(), SettingsError> {
    let io = |source| SettingsError::Io {
        path: path.display().to_string(),
        source,
    };
    let text = ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::default())
        .map_err(|e| io(std::io::Error::other(e.to_string())))?;
    crate::save::atomic::write(path, text.as_bytes()).map_err(io)
}

/// Where this app reads and writes its settings (`None`: nowhere, e.g. in tests).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsFile(pub Option<PathBuf>);

/// Loads the settings file into the app at start-up, or keeps the defaults and says why.
pub(super) fn load_settings(mut commands: Commands) {
    let path = settings_path();
    commands.insert_resource(SettingsFile(path.clone()));
    let settings = match path {
        Some(path) => match load(&path) {
            Ok(s) => s,
            Err(e) => {
                warn!("settings not loaded, using the defaults: {e}");
                Settings::default()
            }
        },
        None => Settings::default(),
    };
    commands.insert_resource(settings);
}

/// Writes the settings file; errors are logged, the game goes on.
pub fn persist(settings: &Settings, file: &SettingsFile) {
    if let Some(path) = &file.0
        && let Err(e) = save(settings, path)
    {
        warn!("settings not saved: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_keys_include_move_and_end_turn() {
        let keys = default_keys();
        assert_eq!(keys.get(&GameAction::Move), Some(&vec![KeyCode::KeyM]));
        assert_eq!(keys.get(&GameAction::EndTurn), Some(&vec![KeyCode::KeyT]));
    }

    #[test]
    fn rebinding_takes_the_key_off_its_old_action() {
        let mut s = Settings::default();
        assert!(s.rebind(GameAction::Move, KeyCode::KeyT).is_ok());
        assert_eq!(s.keys.get(&GameAction::Move), Some(&vec![KeyCode::KeyT]));
        assert_eq!(s.keys.get(&GameAction::EndTurn), None);
        assert_eq!(s.keys_text(GameAction::EndTurn), "unbound");
    }

    #[test]
    fn menu_keys_cannot_be_taken_by_battle_actions() {
        let mut s = Settings::default();
        let err = s.rebind(GameAction::Move, KeyCode::Enter).unwrap_err();
        assert_eq!(err.action, GameAction::Confirm);
        assert!(s.rebind(GameAction::Move, KeyCode::ArrowUp).is_err());
        assert_eq!(s, Settings::default(), "a refused key changes nothing");
    }
}
