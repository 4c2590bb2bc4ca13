//! Saving from the battle screen: the pause menu's save page (its suggested name and the
//! typed one), the quick save and load keys, and the autosave at each round's start.

use bevy::prelude::*;

use super::super::input::{GameAction, PlayerInput};
use super::super::load_screen::LoadMenu;
use super::super::session::{Session, StartError};
use super::super::{DataDir, Screen};
use super::{BattleUi, PauseMenu};
use crate::save::{SaveKind, slots};

/// The name the save page suggests: the scenario and the round, which the player may edit.
pub(super) fn default_slot_name(session: &mut Session) -> String {
    let name: String = session
        .loaded
        .scenario
        .name
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .collect();
    let name = format!("{} round {}", name.trim(), session.battle.turn().round);
    name.chars().take(40).collect()
}

/// Writes the battle to a named slot; the error says why it could not be.
pub(super) fn save_to_slot(session: &Session, dir: &DataDir, name: &str) -> Result<(), String> {
    let save = session
        .capture(SaveKind::Save)
        .map_err(|e| format!("could not save: {e}"))?;
    slots::write_slot(&dir.0, name, &save)
        .map(|_| ())
        .map_err(|e| format!("could not save: {e}"))
}

/// On the save page, typed characters edit the slot's name (Backspace deletes).
pub(super) fn type_save_name(
    mut typed: MessageReader<bevy::input::keyboard::KeyboardInput>,
    keys: Res<ButtonInput<KeyCode>>,
    mut ui: ResMut<BattleUi>,
) {
    let PauseMenu::Save { name } = &mut ui.menu else {
        typed.clear();
        return;
    };
    if keys.just_pressed(KeyCode::Backspace) {
        name.pop();
    }
    for key in typed.read() {
        if key.state != bevy::input::ButtonState::Pressed {
            continue;
        }
        match &key.logical_key {
            bevy::input::keyboard::Key::Character(c) => {
                for ch in c.chars() {
                    let allowed = ch.is_alphanumeric() || ch == ' ' || ch == '-' || ch == '_';
                    if allowed && name.chars().count() < 40 {
                        name.push(ch);
                    }
                }
            }
            bevy::input::keyboard::Key::Space if name.chars().count() < 40 => name.push(' '),
            _ => {}
        }
    }
}

/// The Quick Save key (F5 unless rebound) saves to the quick slot, Quick Load (F9) loads it (a
/// quick load of a save whose data changed asks first, on the load screen); the notices name
/// the keys as the player bound them.
pub(super) fn quick_save_and_load(
    input: PlayerInput,
    mut ui: ResMut<BattleUi>,
    mut session: ResMut<Session>,
    dir: Res<DataDir>,
    settings: Res<super::super::Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(actions) = input.any() else {
        return;
    };
    if ui.input_used || matches!(ui.menu, PauseMenu::Save { .. }) || session.replay.is_some() {
        return;
    }
    if actions.just_pressed(&GameAction::QuickSave) {
        ui.input_used = true;
        session.notice = Some(match save_to_slot(&session, &dir, slots::QUICK) {
            Ok(()) => format!(
                "quick-saved ({} loads it)",
                settings.key_of(GameAction::QuickLoad)
            ),
            Err(e) => e,
        });
    } else if actions.just_pressed(&GameAction::QuickLoad) {
        ui.input_used = true;
        let path = slots::slot_path(&dir.0, slots::QUICK);
        if !path.is_file() {
            session.notice = Some(format!(
                "no quick save yet ({} makes one)",
                settings.key_of(GameAction::QuickSave)
            ));
            return;
        }
        match Session::load(&path, false) {
            Ok(loaded) => {
                commands.insert_resource(loaded);
                next.set(Screen::Battle);
            }
            Err(StartError::Load(e)) if e.is_data_changed() => {
                let message = format!("{e}.\nEnter: load it anyway   Esc: do not load");
                commands.insert_resource(LoadMenu::read(&dir.0, true).asking(path, message));
                next.set(Screen::Load);
            }
            Err(e) => session.notice = Some(format!("could not load the quick save: {e}")),
        }
    }
}

/// Writes the autosave slot at the start of every round (not while watching a replay).
pub(super) fn autosave_each_round(mut session: ResMut<Session>, dir: Res<DataDir>) {
    let round = session.battle.turn().round;
    if session.replay.is_some()
        || session.battle.outcome().is_some()
        || round <= session.autosaved_round
        || session.battle.awaiting().is_some()
    {
        return;
    }
    session.autosaved_round = round;
    if let Err(e) = save_to_slot(&session, &dir, slots::AUTO) {
        session.notice = Some(format!("autosave failed: {e}"));
    }
}
