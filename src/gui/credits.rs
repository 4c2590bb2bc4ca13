//! The credits screen (title menu, Credits): who made the game and what it is built from, the
//! rules texts it plays, the fonts with their licence, and every crate compiled into it with
//! its licence, read from the licences file that ships in the archive beside the game
//! (`assets/licenses/THIRD-PARTY-LICENSES.md`, written by `scripts/third-party-licences.py`).

use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;

use super::help::{scroll_column, spawn_entry_line, wheel_notches};
use super::input::{GameAction, PlayerInput};
use super::{Screen, fonts, palette};

/// The licences file, compiled in so the screen never lacks it.
const LICENCES: &str = include_str!("../../assets/licenses/THIRD-PARTY-LICENSES.md");

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
                "Art and sound: drawn and synthesised by the game itself at start-up; the window icon by scripts/make-icons.py.".into(),
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
        ("Crates in the game", crates),
    ]
}

fn spawn_credits(mut commands: Commands) {
    commands
        .spawn((
            Name::new("Credits"),
            DespawnOnExit(Screen::Credits),
            Node {
                width: percent(100),
                height: percent(100),
                padding: UiRect::axes(px(40), px(24)),
                flex_direction: FlexDirection::Column,
                row_gap: px(8),
                ..default()
            },
            BackgroundColor(palette::BACKDROP),
        ))
        .with_children(|root| {
            root.spawn((Text::new("Credits"), fonts::heading(32.0), TextColor(palette::ACCENT)));
            root.spawn((
                Text::new("Wheel, arrows, Page Up/Down: scroll  |  Esc, Enter or a click: back to the title"),
                TextFont::from_font_size(13.0),
                TextColor(palette::TEXT_DIM),
            ));
            root.spawn((
                CreditsScroll,
                Button,
                ScrollPosition::default(),
                Node {
                    flex_grow: 1.0,
                    min_height: px(0),
                    flex_direction: FlexDirection::Column,
                    row_gap: px(6),
                    overflow: Overflow::scroll_y(),
                    ..default()
                },
            ))
            .with_children(|col| {
                for (heading, lines) in credit_sections() {
                    col.spawn((
                        Text::new(heading),
                        fonts::heading(17.0),
                        TextColor(palette::TERM),
                        Node {
                            margin: UiRect::top(px(8)),
                            flex_shrink: 0.0,
                            ..default()
                        },
                    ));
                    if heading == "Crates in the game" {
                        // Five to a row: 548 crates would be a very long single column.
                        col.spawn(Node {
                            // As many 230 px columns as the window holds.
                            display: Display::Grid,
                            grid_template_columns: vec![RepeatedGridTrack::px(
                                GridTrackRepetition::AutoFill,
                                230.0,
                            )],
                            flex_shrink: 0.0,
                            column_gap: px(12),
                            ..default()
                        })
                        .with_children(|grid| {
                            for line in lines {
                                grid.spawn((
                                    Text::new(line),
                                    TextFont::from_font_size(11.0),
                                    TextColor(palette::TEXT),
                                ));
                            }
                        });
                    } else {
                        for line in lines {
                            spawn_entry_line(col, &line);
                        }
                    }
                }
            });
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
