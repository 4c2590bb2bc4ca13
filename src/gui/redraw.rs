//! When the battle screen has to be worked out again. The panels, the overlay, the tokens and
//! the view model ask the rules for a good deal (every event described, every command checked,
//! exact odds), and writing a UI node marks the layout for recomputing even when the value is
//! the same; so they run only on frames where something they show changed. A cheap key of all
//! of it is compared each frame.

use bevy::prelude::*;

use super::Screen;
use super::control::{BattleControls, BattleUi, PauseMenu};
use super::input::CursorSquare;
use super::session::{Intent, Session};
use super::settings::Settings;
use super::view::read_battle_view;
use crate::battle::components::CombatantId;
use crate::grid::{Dir8, Square};

/// After the battle controls: whether this frame redraws, and the view worked out if so. The
/// board and the HUD draw after it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReadScreen;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Redraw>()
        .add_systems(OnEnter(Screen::Battle), forget_what_was_shown)
        .add_systems(
            Update,
            (note_what_changed, read_battle_view.run_if(redraw_needed))
                .chain()
                .in_set(ReadScreen)
                .after(BattleControls)
                .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        );
}

/// Whether this frame redraws, and what the last redraw showed.
#[derive(Resource, Debug, Default)]
pub struct Redraw {
    shown: Option<ScreenKey>,
    /// This frame's answer.
    needed: bool,
    /// Something outside the key (an animation that just ended) asks for the next frame.
    requested: bool,
}

impl Redraw {
    /// Whether this frame works the screen out again.
    pub fn needed(&self) -> bool {
        self.needed
    }

    /// Asks for a redraw on the next frame.
    pub fn request(&mut self) {
        self.requested = true;
    }
}

/// Everything the battle screen's drawing reads, as cheap values: the battle's progress, what
/// the player is doing, the cursor, the pause menu and the log's scroll.
#[derive(Debug, Clone, PartialEq)]
struct ScreenKey {
    /// The battle's state hash once set up: another battle loaded in its place.
    battle: u64,
    commands: usize,
    events: usize,
    redo: usize,
    awaiting: bool,
    intent: Intent,
    intent_of: Option<CombatantId>,
    wager: i64,
    facing: Dir8,
    sneak: bool,
    called_shot: Option<String>,
    united: Option<CombatantId>,
    discard: usize,
    counter: bool,
    handoff: Option<u8>,
    notice: Option<String>,
    replay: Option<(usize, bool, u32)>,
    cursor: Option<Square>,
    paused: bool,
    pause_choice: usize,
    menu: PauseMenu,
    log_expanded: bool,
    log_back: usize,
    log_filter: crate::gui::hud::log_filter::LogFilter,
    threats: bool,
}

impl ScreenKey {
    fn of(session: &Session, ui: &BattleUi, cursor: &CursorSquare) -> Self {
        let b = &session.battle;
        Self {
            battle: b.start_hash(),
            commands: b.history().len(),
            events: b.events().len(),
            redo: b.redoable().len(),
            awaiting: b.awaiting().is_some(),
            intent: session.intent,
            intent_of: session.intent_of,
            wager: session.wager,
            facing: session.facing,
            sneak: session.sneak,
            called_shot: session.called_shot.clone(),
            united: session.united,
            discard: session.discard,
            counter: session.counter,
            handoff: session.handoff,
            notice: session.notice.clone(),
            replay: session
                .replay
                .as_ref()
                .map(|r| (r.next, r.paused, r.speed.to_bits())),
            cursor: cursor.0,
            paused: ui.paused,
            pause_choice: ui.pause_choice,
            menu: ui.menu.clone(),
            log_expanded: ui.log_expanded,
            log_back: ui.log_back,
            log_filter: ui.log_filter,
            threats: ui.threats,
        }
    }
}

/// Compares this frame's key with the last redraw's (after the controls ran, before anything
/// is drawn). A new battle screen or new settings always redraw.
pub fn note_what_changed(
    session: Res<Session>,
    ui: Res<BattleUi>,
    cursor: Res<CursorSquare>,
    settings: Res<Settings>,
    mut redraw: ResMut<Redraw>,
) {
    let key = ScreenKey::of(&session, &ui, &cursor);
    let changed = redraw.shown.as_ref() != Some(&key);
    redraw.needed = changed || redraw.requested || settings.is_changed() || session.is_added();
    redraw.requested = false;
    if changed {
        redraw.shown = Some(key);
    }
}

/// A new battle starts with nothing shown yet.
pub fn forget_what_was_shown(mut redraw: ResMut<Redraw>) {
    *redraw = Redraw::default();
}

/// Run condition of the drawing systems.
pub fn redraw_needed(redraw: Res<Redraw>) -> bool {
    redraw.needed
}
