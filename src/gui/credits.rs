//! The credits screen (title menu, Credits): who made the game and what it is built from, the
//! rules texts it plays, the fonts with their licence, and every crate compiled into it with
//! its licence, read from the licences file that ships in the archive beside the game
//! (`assets/licenses/THIRD-PARTY-LICENSES.md`, written by `scripts/third-party-licences.py`).

use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;

use super::input::{GameAction, PlayerInput};
use super::page::{Section, page_node, scroll_column, spawn_page_body, wheel_notches};
use super::{Screen, palette};

/// The licences file, compiled in so the screen never lacks it.
const LICENCES: &str = include_str!("../../assets/licenses/THIRD-PARTY-LICENSES.md");

/// The heading of the list of crates.
const CRATES: &str = "Crates in the game";

/// The credits' scrolling column.
#[derive(Component)]
struct CreditsScroll;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Credits), spawn_credits)
        .add_systems(
            Update,
            (leave_credits, scroll_credits).run_if(in_state(Screen::Credits)),
        );
}

/// Each crate compiled into the game as `name version: licence`, from the licences file.
pub fn crates_in_the_game() -> Vec<String> {
    let mut in_table = false;
    let mut out = Vec::new();
    for line in LICENCES.lines() {
        if line.starts_with("## ") {
            in_table = line == "## Crates in the game";
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if in_table && cells.len() > 4 && cells[1] != "crate" && !cells[1].starts_with("---") {
            out.push(format!("{} {}: {}", cells[1], cells[2], cells[3]));
        }
    }
    out
}

/// The credits' sections: a heading and its lines (`who: what` lines colour the `who`).
pub fn credit_sections() -> Vec<(&'static str, Vec<String>)> {
    let crates = crates_in_the_game();
    vec![
        (
            "Gridclash",
            vec![
                "Game: the Gridclash developers, under MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE beside the game).".into(),
                "Art and sound: terrain, tokens, effects and sounds drawn and synthesised by the game itself at start-up; the window icon by scripts/make-icons.py.".into(),
            ],
        ),
        (
            "Icons",
            vec![
                "Icons: game-icons.net, under CC BY 3.0 (creativecommons.org/licenses/by/3.0), from the npm package @iconify-json/game-icons 1.2.4, recoloured white; each icon's author in assets/icons/game-icons/LICENSE.md.".into(),
                "Icons by: Lorc, Delapouite, Sbed, Skoll, Carl Olsen, Cathelineau, DarkZaitzev, PriorBlue, Andy Meneely, Felbrigg and Zeromancer (CC0).".into(),
            ],
        ),
        (
            "Rules",
            vec![
                "DBU RPG: the \"Attacking & Conditions\" chapter of the Dragon Ball fan RPG, with its core rules (the default ruleset).".into(),
                "d20: a generic d20 skill and combat system.".into(),
                "Power stages: the Dragon Ball card game's combat cards in combat.".into(),
                "Digimon: the Digimon RPG's combat chapter.".into(),
                "Shinobi: a ninja-themed d20 RPG's combat chapter.".into(),
                "Note: the rules are the texts' own; numbers no text gives are our defaults, marked in each ruleset's data and glossary.".into(),
            ],
        ),
        (
            "Fonts",
            vec![
                "DejaVu Sans, Sans Bold and Sans Mono: Bitstream Vera licence, DejaVu changes public domain (assets/fonts/LICENSE-DejaVu.txt).".into(),
            ],
        ),
        (
            "Built with",
            vec![format!(
                "Bevy and {} other crates: every one below with its licence; their licence texts are in assets/licenses/THIRD-PARTY-LICENSES.md beside the game.",
                crates.len().saturating_sub(1)
            )],
        ),
        (CRATES, crates),
    ]
}

fn spawn_credits(mut commands: Commands) {
    let sections = credit_sections()
        .into_iter()
        .map(|(heading, lines)| Section {
            heading: heading.to_string(),
            // Many crates: in columns rather than one very long list.
            grid: (heading == CRATES).then_some(11.0),
            lines,
        })
        .collect();
    commands
        .spawn((
            Name::new("Credits"),
            DespawnOnExit(Screen::Credits),
            page_node(),
            BackgroundColor(palette::BACKDROP),
        ))
        .with_children(|root| {
            spawn_page_body(
                root,
                "Credits".into(),
                "Wheel, arrows, Page Up/Down: scroll  |  Esc, Enter or a click: back to the title"
                    .into(),
                (CreditsScroll, Button),
                sections,
            );
        });
}

/// Esc, Enter or a click goes back to the title.
fn leave_credits(
    input: PlayerInput,
    clicked: Query<&Interaction, (With<CreditsScroll>, Changed<Interaction>)>,
    mut next: ResMut<NextState<Screen>>,
) {
    let keys = input.any().is_some_and(|a| {
        a.just_pressed(&GameAction::Cancel) || a.just_pressed(&GameAction::Confirm)
    });
    let click = clicked.iter().any(|i| *i == Interaction::Pressed);
    if keys || click {
        next.set(Screen::Title);
    }
}

fn scroll_credits(
    keys: Res<ButtonInput<KeyCode>>,
    mut wheel: MessageReader<MouseWheel>,
    mut scroll: Query<(&mut ScrollPosition, &ComputedNode), With<CreditsScroll>>,
) {
    let notches = wheel_notches(&mut wheel);
    if let Ok((mut at, node)) = scroll.single_mut() {
        scroll_column(&mut at, node, notches, &keys);
    }
}
