//! The enemy threat overlay's switch and its squares: the threat key shows or hides every
//! square the viewer's opponents could attack on their next turn, as the core works it out
//! ([`crate::battle::Battle::threat_map`]), kept until the battle changes.

use bevy::prelude::*;

use super::Screen;
use super::control::{BattleControls, BattleUi, PauseMenu};
use super::input::{GameAction, PlayerInput};
use super::session::Session;
use crate::battle::components::Side;
use crate::battle::threats::ThreatMap;

/// The last threat map worked out and the battle state it belongs to.
#[derive(Resource, Debug, Clone, Default)]
pub struct ThreatCache {
    key: Option<(u64, usize, usize, usize, Side)>,
    map: ThreatMap,
}

impl ThreatCache {
    /// The squares the opponents of the side looking at the board threaten (the side that
    /// acts when nobody in particular looks: computers only, a replay).
    pub fn get(&mut self, session: &mut Session) -> &ThreatMap {
        let side = session.viewer().or_else(|| {
            let id = session.actor()?.0;
            session.side_of(id).map(Side)
        });
        let Some(side) = side else {
            self.key = None;
            self.map = ThreatMap::default();
            return &self.map;
        };
        let b = &session.battle;
        let key = (
            b.start_hash(),
            b.history().len(),
            b.events().len(),
            b.redoable().len(),
            side,
        );
        if self.key != Some(key) {
            self.map = session.battle.threat_map(side);
            self.key = Some(key);
        }
        &self.map
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ThreatCache>().add_systems(
        Update,
        toggle_threat_overlay
            .in_set(BattleControls)
            .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
    );
}

/// The threat key shows or hides the overlay (not while the pause menu is open).
fn toggle_threat_overlay(input: PlayerInput, mut ui: ResMut<BattleUi>) {
    if ui.paused || ui.menu != PauseMenu::Main {
        return;
    }
    if input
        .any()
        .is_some_and(|a| a.just_pressed(&GameAction::ThreatOverlay))
    {
        ui.threats = !ui.threats;
    }
}
