//! The skirmish builder's screen: its rows drawn (scrolling when a big skirmish has more
//! than fit), driven by keys, gamepad and mouse, and the rows that leave it (the editors, the
//! balance check, saving and playing).

use bevy::prelude::*;

use super::{BuildRow, Builder};
use crate::gui::balance_meter::BalanceMeter;
use crate::gui::input::{GameAction, PlayerInput};
use crate::gui::session::{BattleSpec, Session};
use crate::gui::{DataDir, Screen, Settings, palette};
use crate::scenario;

/// Marks a builder row's text.
#[derive(Component)]
struct BuildRowText(usize);

/// The builder's texts other than its rows.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum BuildPart {
    /// The field, one character a square.
    Preview,
    /// The message under the rows.
    Message,
    /// The balance check's figures, under the preview.
    Balance,
}

pub(in crate::gui) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Builder), spawn_builder)
        .add_systems(
            Update,
            (
                navigate_builder,
                click_builder_rows,
                stop_stale_builder_check,
                draw_builder,
            )
                .chain()
                .run_if(in_state(Screen::Builder)),
        )
        .add_systems(OnExit(Screen::Builder), stop_builder_check);
}

/// The most rows shown at once: a bigger skirmish's list scrolls with the highlight.
const VISIBLE: usize = 24;

fn spawn_builder(
    mut commands: Commands,
    options: Res<crate::gui::PlayOptions>,
    data: Res<DataDir>,
    builder: Option<ResMut<Builder>>,
    saved: Option<Res<crate::gui::character_editor::SavedCharacter>>,
) {
    match builder {
        None => {
            commands.insert_resource(Builder::new(options.seed, scenario::user_dir_in(&data.0)))
        }
        // Back from the character editor with a character saved: it joins its side; back from
        // the map editor, the folder may hold a new map.
        Some(mut builder) => {
            builder.read_maps();
            if let Some(saved) = saved {
                builder.take_character(&saved.id, saved.side);
                commands.remove_resource::<crate::gui::character_editor::SavedCharacter>();
            }
        }
    }
    crate::gui::spawn_menu_page(
        &mut commands,
        Screen::Builder,
        "Build a skirmish",
        620.0,
        |col| {
            for i in 0..VISIBLE {
                crate::gui::spawn_menu_row_padded(col, BuildRowText(i), 620.0, 15.0, 1.0);
            }
            col.spawn((
                BuildPart::Message,
                Text::new(""),
                TextFont::from_font_size(15.0),
                TextColor(palette::TEXT_DIM),
            ));
        },
        |root| {
            root.spawn(Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(16),
                max_width: px(520),
                margin: UiRect::top(px(48)),
                ..default()
            })
            .with_children(|side| {
                side.spawn((
                    BuildPart::Preview,
                    Text::new(""),
                    crate::gui::fonts::mono(13.0),
                    TextColor(palette::TEXT),
                ));
                side.spawn((
                    BuildPart::Balance,
                    Text::new(""),
                    crate::gui::fonts::mono(14.0),
                    TextColor(palette::ACCENT),
                ));
            });
        },
    );
}

/// Keys and gamepad: move, change, act; Escape goes back to the title.
fn navigate_builder(input: PlayerInput, mut builder: ResMut<Builder>, mut fx: BuildEffects) {
    let Some(actions) = input.any() else {
        return;
    };
    let rows = builder.rows().len();
    if actions.just_pressed(&GameAction::Down) {
        builder.row = (builder.row + 1) % rows;
    }
    if actions.just_pressed(&GameAction::Up) {
        builder.row = (builder.row + rows - 1) % rows;
    }
    if actions.just_pressed(&GameAction::Left) {
        builder.change(-1);
    }
    if actions.just_pressed(&GameAction::Right) {
        builder.change(1);
    }
    if actions.just_pressed(&GameAction::Cancel) {
        fx.next.set(Screen::Title);
    }
    if actions.just_pressed(&GameAction::Confirm) {
        run_row(&mut builder, &mut fx);
    }
}

/// What running a builder row may touch besides the builder.
#[derive(bevy::ecs::system::SystemParam)]
struct BuildEffects<'w, 's> {
    meter: ResMut<'w, BalanceMeter>,
    settings: Res<'w, Settings>,
    commands: Commands<'w, 's>,
    next: ResMut<'w, NextState<Screen>>,
}

/// Enter or a click on a row: the balance check, saving and playing, going back, or the
/// row's own action.
fn run_row(builder: &mut Builder, fx: &mut BuildEffects) {
    match builder.rows().get(builder.row).copied() {
        Some(BuildRow::Balance) => match builder.write_to(&builder.preview_path()) {
            Ok(()) => {
                if let Some(key) = builder.balance_key() {
                    fx.meter.start(key, builder.seed);
                }
            }
            Err(e) => builder.message = Some(format!("No balance check: {e}")),
        },
        Some(BuildRow::SaveAndPlay) => {
            let started = builder.save().and_then(|path| {
                let spec = BattleSpec {
                    scenario: path.to_string_lossy().into_owned(),
                    seed: builder.seed,
                    sides: builder.sides.iter().map(|s| s.control).collect(),
                    auto_defense: fx.settings.auto_defense,
                };
                Session::start(spec).map_err(|e| e.to_string())
            });
            match started {
                Ok(session) => {
                    fx.commands.insert_resource(session);
                    // The title lists the new file when it is next shown.
                    fx.commands
                        .remove_resource::<crate::gui::title::TitleMenu>();
                    fx.next.set(Screen::Battle);
                }
                Err(e) => builder.message = Some(format!("Could not start: {e}")),
            }
        }
        Some(BuildRow::EditField) => {
            let made = builder
                .scenario()
                .and_then(|s| Ok((s, builder.rules_with_own()?)));
            match made {
                Ok((s, rules)) => {
                    fx.commands
                        .insert_resource(crate::gui::map_editor::MapEditor::new(
                            s,
                            rules,
                            builder.sides.iter().map(|p| p.control).collect(),
                            builder.seed,
                            builder.own_dir.clone(),
                        ));
                    fx.next.set(Screen::MapEditor);
                }
                Err(e) => builder.message = Some(format!("No field to edit: {e}")),
            }
        }
        Some(BuildRow::NewCharacter) => {
            let editor = builder.rules().and_then(|rules| {
                crate::gui::character_editor::CharacterEditor::new(
                    rules,
                    builder.sides.len(),
                    builder.data_dir(),
                )
            });
            match editor {
                Some(editor) => {
                    fx.commands.insert_resource(editor);
                    fx.next.set(Screen::CharacterEditor);
                }
                None => {
                    builder.message =
                        Some("The ruleset does not load or has no roster to start from.".into())
                }
            }
        }
        Some(BuildRow::Back) => fx.next.set(Screen::Title),
        _ => builder.act(),
    }
}

fn click_builder_rows(
    rows: Query<(&Interaction, &BuildRowText), Changed<Interaction>>,
    motion: Res<crate::gui::pointer::PointerMotion>,
    mut builder: ResMut<Builder>,
    mut fx: BuildEffects,
) {
    let pointer_moved = motion.moved();
    for (interaction, row) in &rows {
        if let Some(pointer) = crate::gui::RowPointer::of(*interaction, pointer_moved) {
            builder.row =
                crate::gui::first_shown(builder.row, builder.rows().len(), VISIBLE) + row.0;
            if pointer == crate::gui::RowPointer::Press {
                run_row(&mut builder, &mut fx);
            }
        }
    }
}

/// Writes the rows, the message and the preview when they change.
fn draw_builder(
    builder: Res<Builder>,
    meter: Res<BalanceMeter>,
    mut rows: Query<(&BuildRowText, &Children, &mut Node, &mut BorderColor)>,
    mut texts: Query<&mut Text, Without<BuildPart>>,
    mut parts: Query<(&BuildPart, &mut Text)>,
) {
    for (part, mut text) in &mut parts {
        let want = match part {
            BuildPart::Balance => builder.balance_lines(&meter),
            _ if !builder.is_changed() => continue,
            BuildPart::Preview => builder.preview(),
            BuildPart::Message => builder.message.clone().unwrap_or_else(|| {
                "Up/Down: row   Left/Right: change   Enter: act   Esc: back".into()
            }),
        };
        if text.0 != want {
            text.0 = want;
        }
    }
    let labels = builder.labels(&meter);
    let first = crate::gui::first_shown(builder.row, labels.len(), VISIBLE);
    for (row, children, mut node, mut border) in &mut rows {
        crate::gui::show_menu_row(
            labels.get(first + row.0).map(String::as_str),
            first + row.0 == builder.row,
            (children, &mut node, &mut border),
            &mut texts,
        );
    }
}

/// A balance check of choices since changed stops: the row then offers a new one.
fn stop_stale_builder_check(builder: Res<Builder>, mut meter: ResMut<BalanceMeter>) {
    if builder.is_changed() && meter.is_stale(builder.balance_key().as_ref()) {
        meter.stop();
    }
}

/// Leaving the builder stops its balance check.
fn stop_builder_check(mut meter: ResMut<BalanceMeter>) {
    meter.stop();
}
