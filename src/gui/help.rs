//! The help screen (F1 in a battle): the controls as the player bound them, how the mouse
//! plays, and the ruleset's whole glossary (every pool, stat, condition, maneuver, attack type
//! and term with its rule text and source), generated from the ruleset's data. It scrolls
//! with the wheel, the arrow keys and Page Up/Down; F1 or Esc closes it.

use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;

use super::control::{BattleControls, BattleUi};
use super::input::{GameAction, PlayerInput};
use super::page::{Section, page_node, scroll_column, spawn_page_body, wheel_notches};
use super::session::Session;
use super::settings::key_label;
use super::settings_screen::REBINDABLE;
use super::{Screen, Settings, palette};
use crate::ruleset::glossary::TermKind;

/// Whether the help screen is open, and whether it paused the battle itself (F1) or was
/// opened over the pause menu (which stays open when help closes).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HelpScreen {
    pub open: bool,
    paused_it: bool,
}

/// The help screen's scrolling column.
#[derive(Component)]
struct HelpScroll;

/// The help screen's root, shown while it is open.
#[derive(Component)]
struct HelpRoot;

/// The index of the keys in [`help_sections`], laid out as a grid.
const KEYS_SECTION: usize = 1;

/// The toggle, which headless app tests drive too.
pub fn logic_plugin(app: &mut App) {
    app.init_resource::<HelpScreen>()
        .add_systems(OnEnter(Screen::Battle), close_help)
        .add_systems(
            Update,
            toggle_help
                .after(BattleControls)
                .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        );
}

/// The screen itself, in the window.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (show_help, scroll_help)
            .chain()
            .after(BattleControls)
            .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
    );
}

fn close_help(mut help: ResMut<HelpScreen>) {
    *help = HelpScreen::default();
}

/// F1 opens help and pauses the battle under it; F1, Esc or the pause key closes it. Help
/// holds the battle paused, so no other key or click acts while it is open. It runs after
/// the battle's controls: when Esc or the pause key also toggled the pause menu this frame,
/// closing help sets the pause back to what it was before help opened.
fn toggle_help(input: PlayerInput, mut help: ResMut<HelpScreen>, mut ui: ResMut<BattleUi>) {
    let Some(actions) = input.any() else {
        return;
    };
    let pressed = actions.just_pressed(&GameAction::Help);
    if !help.open {
        if pressed {
            help.open = true;
            help.paused_it = !ui.paused;
            ui.paused = true;
        }
        return;
    }
    let closing = pressed
        || actions.just_pressed(&GameAction::Cancel)
        || actions.just_pressed(&GameAction::Pause)
        || !ui.paused;
    if closing {
        help.open = false;
        // The battle's controls ran first this frame: Esc or the pause key may have closed
        // the pause menu under help. Help opened by F1 leaves the battle running; help opened
        // over the pause menu leaves the menu open.
        ui.paused = !help.paused_it;
    }
}

/// Builds the screen when help opens and removes it when it closes.
fn show_help(
    mut commands: Commands,
    help: Res<HelpScreen>,
    session: Res<Session>,
    settings: Res<Settings>,
    shown: Query<Entity, With<HelpRoot>>,
) {
    if !help.is_changed() {
        return;
    }
    for e in &shown {
        commands.entity(e).despawn();
    }
    if help.open {
        spawn_help(&mut commands, &session, &settings);
    }
}

/// The help screen's texts: its title, the controls, and each glossary kind with its entries.
pub fn help_sections(session: &Session, settings: &Settings) -> Vec<(String, Vec<String>)> {
    let rules = session.battle.rules();
    let keys: Vec<String> = REBINDABLE
        .iter()
        .map(|a| {
            let bound = settings
                .keys
                .get(a)
                .map(|k| {
                    k.iter()
                        .map(|k| key_label(*k))
                        .collect::<Vec<_>>()
                        .join(" / ")
                })
                .filter(|k| !k.is_empty())
                .unwrap_or_else(|| "unbound".into());
            format!("{bound}: {}", a.words())
        })
        .collect();
    let mut sections = vec![
        (
            "Mouse".to_string(),
            [
                "Left click a lit square: move there. Left click an opponent: aim the first maneuver that reaches it; click again to attack.",
                "Right click or Esc: back out of moving or aiming.",
                "Action bar buttons: click to do what their key does; hover for the cost, the rule that refuses them, and the maneuver's rule text.",
                "Wheel over the board: zoom. Middle button drag or arrow keys: pan. Wheel over the log: scroll it.",
                "Blue words in the panels and the log are rules: hover one for its text and source.",
            ]
            .map(String::from)
            .to_vec(),
        ),
        ("Keys (change them in Settings)".to_string(), keys),
    ];
    for kind in TermKind::ALL {
        let entries: Vec<String> = rules
            .glossary
            .entries()
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| {
                let short = if e.short.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", e.short.join(", "))
                };
                format!("{}{short}: {}  [{}]", e.term, e.text, e.source)
            })
            .collect();
        if !entries.is_empty() {
            sections.push((kind.heading().to_string(), entries));
        }
    }
    sections
}

fn spawn_help(commands: &mut Commands, session: &Session, settings: &Settings) {
    let rules = session.battle.rules();
    let close = settings
        .keys
        .get(&GameAction::Help)
        .and_then(|k| k.first())
        .map_or("Esc".into(), |k| format!("{} or Esc", key_label(*k)));
    let sections = help_sections(session, settings)
        .into_iter()
        .enumerate()
        .map(|(i, (heading, lines))| Section {
            heading,
            lines,
            // The keys as a grid, so the whole list fits on one screen.
            grid: (i == KEYS_SECTION).then_some(13.0),
        })
        .collect();
    let mut node = page_node();
    node.position_type = PositionType::Absolute;
    commands
        .spawn((
            HelpRoot,
            Name::new("Help"),
            DespawnOnExit(Screen::Battle),
            node,
            BackgroundColor(palette::BACKDROP),
            GlobalZIndex(30),
        ))
        .with_children(|root| {
            spawn_page_body(
                root,
                format!("Help: {}", rules.manifest.name),
                format!(
                    "{}  |  Wheel, arrows, Page Up/Down: scroll  |  {close}: close",
                    rules.manifest.description
                ),
                HelpScroll,
                sections,
            );
        });
}

/// The wheel, the arrow keys and Page Up/Down scroll the help screen.
fn scroll_help(
    help: Res<HelpScreen>,
    keys: Res<ButtonInput<KeyCode>>,
    mut wheel: MessageReader<MouseWheel>,
    mut scroll: Query<(&mut ScrollPosition, &ComputedNode), With<HelpScroll>>,
) {
    let notches = wheel_notches(&mut wheel);
    if !help.open {
        return;
    }
    if let Ok((mut at, node)) = scroll.single_mut() {
        scroll_column(&mut at, node, notches, &keys);
    }
}
