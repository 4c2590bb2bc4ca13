//! The battle screen's panels: the turn-order bar, the unit panel, the odds panel, the action
//! bar, the combat log, prompts (Dodge or Parry, Exploit), the hot-seat hand-off cover and the
//! pause menu. Text is rebuilt from the session only when it changes.

mod bar;
pub mod buttons;
pub mod combat_log;
pub mod log_filter;
mod odds;
pub mod terms;
mod unit;

use bar::action_bar_items;
use buttons::{ActionBarRow, BarItems, BarTip};
use combat_log::{log_text, prompt_text};
use odds::odds_panel;

use bevy::prelude::*;

use bevy::ui::RelativeCursorPosition;

use super::board::backdrop::Backdrop;
use super::board::{BOTTOM_H, BoardViewport, PANEL_W, ReadingPanel, TOP_H};
use super::control::{BattleUi, PAUSE_ENTRIES, PauseMenu};
use super::input::{CursorSquare, GameAction};
use super::session::Session;
use super::settings::key_label;
use super::view::BattleView;
use super::{Screen, Settings, fonts, palette};
use crate::battle::fighter::Fighter;

/// Which text a node shows.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
enum HudText {
    Round,
    /// What the odds panel is about (an attack, a move…).
    OddsHeading,
    Odds,
    /// The heading over the rolls, shown only when there are rolls.
    RollsHeading,
    Rolls,
    Log,
    Prompt,
    Handoff,
    Pause,
}

/// An entry of the pause menu's main page (see [`PAUSE_ENTRIES`]), a row the mouse can click.
#[derive(Component)]
struct PauseEntry(usize);

/// The top bar's button that opens the pause menu.
#[derive(Component)]
struct MenuButton;

/// A card in the turn-order bar: the n-th combatant in initiative order.
#[derive(Component)]
struct OrderCard(usize);

/// The unit panel's Life and Ki bars.
#[derive(Component)]
struct UnitBar {
    ki: bool,
}

/// Boxes shown only while they have something to say.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum Popup {
    Prompt,
    /// The hot-seat cover that hides the board until the next player confirms.
    Handoff,
    Pause,
}

/// What of the panels works without a window (headless app tests drive it): the log filter.
pub(super) fn logic_plugin(app: &mut App) {
    app.add_systems(
        Update,
        combat_log::cycle_log_filter
            .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
    );
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((buttons::plugin, terms::plugin))
        .add_systems(
            Update,
            (open_menu_on_click, click_pause_entries, draw_pause_entries)
                .chain()
                .before(super::control::BattleControls)
                .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        )
        .add_systems(OnEnter(Screen::Battle), spawn_hud)
        .add_systems(
            Update,
            combat_log::scroll_log_with_wheel
                .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        )
        .add_systems(
            Update,
            (
                draw_turn_order,
                unit::draw_unit_panel,
                draw_texts,
                buttons::draw_action_bar,
                draw_unit_bars,
                show_boxes,
            )
                .chain()
                .after(super::redraw::ReadScreen)
                .run_if(super::redraw::redraw_needed)
                .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        );
}

/// The keyboard key of each action as the player bound it, for the hints on screen.
struct Keys(std::collections::BTreeMap<GameAction, String>);

impl Keys {
    fn from(settings: &Settings) -> Self {
        Self(
            settings
                .keys
                .iter()
                .filter_map(|(a, k)| k.first().map(|k| (*a, key_label(*k))))
                .collect(),
        )
    }

    /// The key of an action, or `?` when none is bound.
    fn of(&self, a: GameAction) -> &str {
        self.0.get(&a).map_or("?", String::as_str)
    }
}

fn text(kind: HudText, size: f32, colour: Color) -> impl Bundle {
    (
        kind,
        Text::new(""),
        TextFont::from_font_size(size),
        TextColor(colour),
    )
}

/// A panel text whose words of the rules link to their glossary entries (see [`terms`]).
fn linked_text(kind: HudText, size: f32, colour: Color) -> impl Bundle {
    (text(kind, size, colour), terms::LinkedText::default())
}

fn spawn_hud(mut commands: Commands, mut session: ResMut<Session>) {
    let units = session.fighters().len();
    commands
        .spawn((
            Name::new("HUD"),
            DespawnOnExit(Screen::Battle),
            Node {
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                ..default()
            },
        ))
        .with_children(|root| {
            // Round, whose turn, and the turn order along the top.
            root.spawn((
                UnderCover,
                Node {
                    width: percent(100),
                    height: px(TOP_H),
                    flex_shrink: 0.0,
                    padding: UiRect::all(px(6)),
                    column_gap: px(4),
                    row_gap: px(4),
                    align_items: AlignItems::Center,
                    overflow: Overflow::clip(),
                    ..default()
                },
                Backdrop(palette::PANEL),
            ))
            .with_children(|bar| {
                bar.spawn((
                    text(HudText::Round, 15.0, palette::TEXT),
                    Node {
                        width: px(236),
                        height: px(TOP_H - 12.0),
                        flex_shrink: 0.0,
                        ..default()
                    },
                ));
                bar.spawn(Node {
                    flex_grow: 1.0,
                    min_width: px(0),
                    column_gap: px(4),
                    row_gap: px(4),
                    align_items: AlignItems::Center,
                    overflow: Overflow::clip(),
                    ..default()
                })
                .with_children(|cards| spawn_order_cards(cards, units));
                // The pause menu for the mouse (Esc and F10 open it too).
                bar.spawn((
                    MenuButton,
                    Button,
                    Node {
                        padding: UiRect::axes(px(10), px(4)),
                        border: UiRect::all(px(1)),
                        flex_shrink: 0.0,
                        ..default()
                    },
                    BorderColor::all(palette::TEXT_DIM.with_alpha(0.6)),
                    BackgroundColor(palette::PANEL_LIGHT),
                    children![(
                        Text::new("Menu"),
                        TextFont::from_font_size(14.0),
                        TextColor(palette::TEXT),
                    )],
                ));
            });
            root.spawn((
                UnderCover,
                Node {
                    width: percent(100),
                    flex_grow: 1.0,
                    min_height: px(0),
                    ..default()
                },
            ))
            .with_children(|middle| {
                middle
                    .spawn(Node {
                        flex_grow: 1.0,
                        min_width: px(0),
                        flex_direction: FlexDirection::Column,
                        ..default()
                    })
                    .with_children(|left| {
                        left.spawn((
                            BoardViewport,
                            Node {
                                flex_grow: 1.0,
                                min_height: px(0),
                                ..default()
                            },
                            RelativeCursorPosition::default(),
                        ));
                        // Action bar and combat log along the bottom.
                        left.spawn((
                            combat_log::LogPanel,
                            RelativeCursorPosition::default(),
                            Node {
                                height: px(BOTTOM_H),
                                max_height: percent(40),
                                padding: UiRect::all(px(8)),
                                flex_direction: FlexDirection::Column,
                                row_gap: px(4),
                                overflow: Overflow::clip(),
                                ..default()
                            },
                            Backdrop(palette::PANEL),
                        ))
                        .with_children(|bottom| {
                            bottom.spawn((
                                ActionBarRow,
                                Node {
                                    flex_wrap: FlexWrap::Wrap,
                                    column_gap: px(4),
                                    row_gap: px(3),
                                    flex_shrink: 0.0,
                                    ..default()
                                },
                            ));
                            bottom.spawn((
                                BarTip,
                                Text::new(""),
                                TextFont::from_font_size(12.0),
                                TextColor(palette::TEXT_DIM),
                            ));
                            bottom.spawn(linked_text(HudText::Log, 12.0, palette::TEXT));
                        });
                    });
                // Unit, odds and prompts on the right.
                middle
                    .spawn((
                        ReadingPanel,
                        Node {
                            width: px(PANEL_W),
                            max_width: percent(42),
                            flex_shrink: 0.0,
                            padding: UiRect::all(px(10)),
                            flex_direction: FlexDirection::Column,
                            row_gap: px(4),
                            overflow: Overflow::clip(),
                            ..default()
                        },
                        Backdrop(palette::PANEL),
                    ))
                    .with_children(|panel| {
                        panel.spawn((
                            unit::UnitHeader,
                            Text::new(""),
                            fonts::heading(13.0),
                            TextColor(palette::TEXT),
                            terms::LinkedText::default(),
                        ));
                        for ki in [false, true] {
                            panel
                                .spawn((
                                    Node {
                                        width: percent(100),
                                        height: px(8),
                                        flex_shrink: 0.0,
                                        ..default()
                                    },
                                    BackgroundColor(Color::srgb(0.08, 0.08, 0.1)),
                                ))
                                .with_child((
                                    UnitBar { ki },
                                    Node {
                                        width: percent(100),
                                        height: percent(100),
                                        ..default()
                                    },
                                    BackgroundColor(if ki { palette::KI } else { palette::LIFE }),
                                ));
                        }
                        panel.spawn((
                            unit::SheetPanel,
                            Node {
                                flex_direction: FlexDirection::Column,
                                flex_shrink: 0.0,
                                ..default()
                            },
                        ));
                        panel.spawn((
                            HudText::OddsHeading,
                            Text::new(""),
                            fonts::heading(11.0),
                            TextColor(palette::HEADING),
                            Node {
                                margin: UiRect::top(px(8)),
                                ..default()
                            },
                        ));
                        panel.spawn((
                            linked_text(HudText::Odds, 13.0, palette::TEXT),
                            terms::HighlightChances,
                        ));
                        panel.spawn((
                            HudText::RollsHeading,
                            Text::new(""),
                            fonts::heading(11.0),
                            TextColor(palette::HEADING),
                            Node {
                                margin: UiRect::top(px(3)),
                                ..default()
                            },
                        ));
                        panel.spawn(linked_text(HudText::Rolls, 12.0, palette::TEXT));
                    });
            });
            // The prompt sits over the bottom of the right-hand panel.
            root.spawn((
                Popup::Prompt,
                Node {
                    position_type: PositionType::Absolute,
                    right: px(8),
                    bottom: px(12),
                    width: px(PANEL_W - 16.0),
                    max_width: percent(40),
                    padding: UiRect::all(px(10)),
                    border: UiRect::all(px(2)),
                    ..default()
                },
                BorderColor::all(palette::ACCENT),
                BackgroundColor(palette::PANEL.with_alpha(0.96)),
                Visibility::Hidden,
            ))
            .with_child((
                linked_text(HudText::Prompt, 15.0, palette::TEXT),
                terms::HighlightChances,
            ));
            root.spawn((
                Popup::Pause,
                Node {
                    position_type: PositionType::Absolute,
                    left: percent(30),
                    top: percent(25),
                    width: percent(40),
                    padding: UiRect::all(px(16)),
                    border: UiRect::all(px(2)),
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    row_gap: px(6),
                    ..default()
                },
                BorderColor::all(palette::ACCENT),
                BackgroundColor(palette::PANEL),
                Visibility::Hidden,
            ))
            .with_children(|pause| {
                pause.spawn((
                    Text::new("Paused"),
                    fonts::heading(24.0),
                    TextColor(palette::ACCENT),
                ));
                for i in 0..PAUSE_ENTRIES.len() {
                    super::spawn_menu_row(pause, PauseEntry(i), 420.0, 19.0);
                }
                pause.spawn(text(HudText::Pause, 15.0, palette::TEXT));
            });
            // The hand-off cover hides everything until the next player confirms.
            root.spawn((
                Popup::Handoff,
                Node {
                    position_type: PositionType::Absolute,
                    width: percent(100),
                    height: percent(100),
                    padding: UiRect::all(px(24)),
                    align_items: AlignItems::Center,
                    justify_content: JustifyContent::Center,
                    ..default()
                },
                Backdrop(palette::BACKDROP),
                GlobalZIndex(10),
                Visibility::Hidden,
            ))
            .with_child(text(HudText::Handoff, 28.0, palette::TEXT));
        });
}

/// The turn order's cards, one per combatant (hidden when there are fewer to show).
fn spawn_order_cards(cards: &mut ChildSpawnerCommands, units: usize) {
    for i in 0..units {
        cards
            .spawn((
                OrderCard(i),
                Node {
                    padding: UiRect::axes(px(5), px(3)),
                    border: UiRect::all(px(2)),
                    min_width: px(44),
                    flex_shrink: 0.0,
                    ..default()
                },
                BorderColor::all(Color::NONE),
                BackgroundColor(palette::PANEL_LIGHT),
            ))
            .with_child((
                Text::new(""),
                TextFont::from_font_size(12.0),
                TextColor(palette::TEXT),
            ));
    }
}

fn draw_turn_order(
    mut session: ResMut<Session>,
    settings: Res<Settings>,
    options: Res<super::PlayOptions>,
    mut cards: Query<(
        &OrderCard,
        &Children,
        &mut BorderColor,
        &mut BackgroundColor,
        &mut Node,
    )>,
    mut texts: Query<(&mut Text, &mut TextColor)>,
) {
    // The bar starts at the unit acting now and shows who comes next, so the upcoming turns
    // stay visible however many units there are.
    let order = session.battle.turn().upcoming();
    let active = session.battle.active();
    let fighters = session.fighters();
    for (card, children, mut border, mut bg, mut node) in &mut cards {
        let Some(f) = order
            .get(card.0)
            .and_then(|id| fighters.iter().find(|f| f.id == *id))
        else {
            node.display = Display::None;
            continue;
        };
        node.display = Display::Flex;
        let side = usize::from(f.side.0);
        *border = BorderColor::all(palette::side_colour(
            &session,
            side,
            settings.colour_blind || options.colour_blind,
        ));
        let is_active = Some(f.id) == active;
        *bg = BackgroundColor(if is_active {
            palette::ACTIVE.with_alpha(0.55)
        } else {
            palette::PANEL_LIGHT
        });
        // Big battles show glyphs only so the whole order fits; hovering a token names it.
        let name = if f.defeated() {
            "defeated".to_string()
        } else if order.len() > 12 {
            String::new()
        } else {
            short_name(&f.identity.name)
        };
        let label = format!("{}{} {name}", palette::side_mark(side), f.identity.glyph)
            .trim_end()
            .to_string();
        if let Some(child) = children.first()
            && let Ok((mut t, mut c)) = texts.get_mut(*child)
        {
            if t.0 != label {
                t.0 = label;
            }
            c.0 = if f.defeated() {
                palette::TEXT_DIM
            } else {
                palette::TEXT
            };
        }
    }
}

/// A card's name: short enough that a 12-versus-12 battle fits on two lines at 1280 pixels.
fn short_name(name: &str) -> String {
    name.chars().take(7).collect()
}

fn draw_texts(
    mut session: ResMut<Session>,
    ui: Res<BattleUi>,
    cursor: Res<CursorSquare>,
    settings: Res<Settings>,
    view: Res<BattleView>,
    mut texts: Query<(
        &HudText,
        &mut Text,
        Option<&mut terms::LinkedText>,
        &mut Node,
    )>,
    mut bar: ResMut<BarItems>,
) {
    let keys = Keys::from(&settings);
    let round = round_text(&mut session);
    let shown = shown_unit(&mut session, cursor.0);
    let odds = odds_panel(&mut session, &view, &keys, cursor.0);
    let (items, below) = action_bar_items(&mut session, &view, &keys);
    let fresh = BarItems { items, below };
    if *bar != fresh {
        *bar = fresh;
    }
    let shown = shown.map_or(String::new(), |f| f.identity.name.clone());
    let log = log_text(&mut session, &ui, &shown, &keys);
    let prompt = prompt_text(&mut session, &view, &keys);
    let handoff = session.handoff.map(|side| {
        let name = session
            .loaded
            .scenario
            .sides
            .get(usize::from(side))
            .map_or("the next player", |s| s.name.as_str());
        format!(
            "{name}: your turn.\n\nPass the controls, then press {} (or click) to show the board.",
            keys.of(GameAction::Confirm)
        )
    });
    let pause = match &ui.menu {
        PauseMenu::Main => {
            let notice = session
                .notice
                .as_ref()
                .map_or(String::new(), |n| format!("! {n}\n\n"));
            format!(
                "{notice}Up/Down, {} or a click   Quick save {}, quick load {}",
                keys.of(GameAction::Confirm),
                keys.of(GameAction::QuickSave),
                keys.of(GameAction::QuickLoad)
            )
        }
        PauseMenu::Save { name } => {
            let notice = session
                .notice
                .as_ref()
                .map_or(String::new(), |n| format!("\n\n! {n}"));
            format!(
                "Save the battle\n\nSlot name: {name}_\n\nType a name (letters, digits, spaces, - and _); a slot of the same name is replaced.\nEnter: save   Esc: back{notice}"
            )
        }
    };
    for (kind, mut t, linked, mut node) in &mut texts {
        let want = match kind {
            HudText::Round => round.clone(),
            HudText::OddsHeading => odds.heading.clone(),
            HudText::Odds => odds.text.clone(),
            HudText::RollsHeading if odds.rolls.is_empty() => String::new(),
            HudText::RollsHeading => "Dice and modifiers".to_string(),
            HudText::Rolls => odds.rolls.clone(),
            HudText::Log => log.clone(),
            HudText::Prompt => prompt.clone().unwrap_or_default(),
            HudText::Handoff => handoff.clone().unwrap_or_default(),
            HudText::Pause => pause.clone(),
        };
        // The odds panel's headings and rolls take no room while they have nothing to say.
        if matches!(
            kind,
            HudText::OddsHeading | HudText::RollsHeading | HudText::Rolls
        ) {
            let display = if want.is_empty() {
                Display::None
            } else {
                Display::Flex
            };
            if node.display != display {
                node.display = display;
            }
        }
        match linked {
            Some(mut l) if l.0 != want => l.0 = want,
            Some(_) => {}
            None if t.0 != want => t.0 = want,
            None => {}
        }
    }
}

/// The panels the hand-off cover hides. The cover's colour is a sprite under the UI (see
/// [`Backdrop`]), so the panels' words must be hidden for it to cover them; the board's
/// sprites lie under the cover's.
#[derive(Component)]
struct UnderCover;

fn show_boxes(
    mut session: ResMut<Session>,
    ui: Res<BattleUi>,
    help: Res<super::help::HelpScreen>,
    mut popups: Query<(&Popup, &mut Visibility), Without<UnderCover>>,
    mut panels: Query<&mut Visibility, With<UnderCover>>,
) {
    let has_prompt = session.prompt_pending();
    let covered = session.handoff.is_some();
    for mut v in &mut panels {
        v.set_if_neq(if covered {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        });
    }
    for (popup, mut v) in &mut popups {
        let shown = match popup {
            Popup::Prompt => has_prompt && !covered,
            Popup::Handoff => session.handoff.is_some(),
            Popup::Pause => ui.paused && !help.open,
        };
        v.set_if_neq(if shown {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
}

fn draw_unit_bars(
    mut session: ResMut<Session>,
    cursor: Res<CursorSquare>,
    mut bars: Query<(&UnitBar, &mut Node)>,
) {
    let Some(f) = shown_unit(&mut session, cursor.0) else {
        for (_, mut node) in &mut bars {
            node.width = percent(0);
        }
        return;
    };
    for (bar, mut node) in &mut bars {
        let (cur, max) = if bar.ki {
            (f.ki.current, f.ki.max)
        } else {
            (f.life.current, f.life.max)
        };
        node.width = percent((cur as f32 / max.max(1) as f32 * 100.0).clamp(0.0, 100.0));
    }
}

/// The unit the panel describes: the one under the cursor, else the active one.
fn shown_unit(session: &mut Session, cursor: Option<crate::grid::Square>) -> Option<Fighter> {
    if let Some(c) = cursor
        && let Some(f) = session.fighter_at(c)
    {
        return Some(f);
    }
    let id = session.battle.active()?;
    session.battle.fighter(id)
}

fn side_name(session: &Session, side: u8) -> String {
    session
        .loaded
        .scenario
        .sides
        .get(usize::from(side))
        .map_or_else(|| format!("side {side}"), |s| s.name.clone())
}

fn round_text(session: &mut Session) -> String {
    let round = session.battle.turn().round;
    if let Some(o) = session.battle.outcome() {
        return match o.winner {
            Some(side) => format!("Round {round}: {} wins", side_name(session, side.0)),
            None => format!("Round {round}: a draw"),
        };
    }
    let Some(id) = session.battle.active() else {
        return format!("Round {round}");
    };
    let Some(f) = session.battle.fighter(id) else {
        return format!("Round {round}");
    };
    let control = session
        .controls
        .get(usize::from(f.side.0))
        .map_or(String::new(), |c| c.to_string());
    // Digimon: round 1 of a battle one side sneaked into is its free Surprise Round, named so.
    let round = if round == 1 && session.battle.setup().opening.surprise.is_some() {
        "Surprise Round".to_string()
    } else {
        format!("Round {round}")
    };
    format!(
        "{round}  |  {}\n{}'s turn ({control})",
        side_name(session, f.side.0),
        f.identity.name
    )
}

/// The top bar's Menu button opens the pause menu, as Esc or F10 would.
fn open_menu_on_click(
    button: Query<&Interaction, (Changed<Interaction>, With<MenuButton>)>,
    mut ui: ResMut<BattleUi>,
    session: Res<Session>,
) {
    if session.handoff.is_some() || !button.iter().any(|i| *i == Interaction::Pressed) {
        return;
    }
    if !ui.paused {
        ui.paused = true;
        ui.pause_choice = 0;
        ui.menu = PauseMenu::Main;
    }
}

/// The mouse on the pause menu: moving onto an entry highlights it, a click runs it as Enter
/// would (the pause menu's own system takes the click).
fn click_pause_entries(
    entries: Query<(&Interaction, &PauseEntry), Changed<Interaction>>,
    motion: Res<crate::gui::pointer::PointerMotion>,
    mut ui: ResMut<BattleUi>,
) {
    let pointer_moved = motion.moved();
    if !ui.paused || ui.menu != PauseMenu::Main {
        return;
    }
    for (interaction, entry) in &entries {
        if let Some(pointer) = super::RowPointer::of(*interaction, pointer_moved) {
            ui.pause_choice = entry.0;
            if pointer == super::RowPointer::Press {
                ui.pause_clicked = true;
            }
        }
    }
}

/// The pause menu's entries: shown on its main page, the highlighted one bordered.
fn draw_pause_entries(
    ui: Res<BattleUi>,
    mut rows: Query<(&PauseEntry, &Children, &mut Node, &mut BorderColor)>,
    mut texts: Query<&mut Text>,
    mut shown: Local<Option<(bool, usize)>>,
) {
    // The battle's controls write `BattleUi` every frame, so its change tick says nothing:
    // the entries are drawn again only when the page or the highlight changed.
    let main = ui.menu == PauseMenu::Main;
    if *shown == Some((main, ui.pause_choice)) {
        return;
    }
    *shown = Some((main, ui.pause_choice));
    for (entry, children, mut node, mut border) in &mut rows {
        let label = PAUSE_ENTRIES.get(entry.0).filter(|_| main).copied();
        super::show_menu_row(
            label,
            entry.0 == ui.pause_choice,
            (children, &mut node, &mut border),
            &mut texts,
        );
    }
}
