//! The battle screen's panels: the turn-order bar, the unit panel, the odds panel, the action
//! bar, the combat log, prompts (Dodge or Parry, Exploit), the hot-seat hand-off cover and the
//! pause menu. Text is rebuilt from the session only when it changes.

use bevy::prelude::*;

use bevy::ui::RelativeCursorPosition;

use super::board::{BOTTOM_H, PANEL_W, TOP_H};
use super::control::{BattleControls, BattleUi, PAUSE_ENTRIES, PauseMenu};
use super::input::{CursorSquare, GameAction};
use super::session::{Intent, Session};
use super::settings::key_label;
use super::view::BattleView;
use super::{Screen, Settings, palette};
use crate::battle::command::Decision;
use crate::battle::context::DefenseChoice;
use crate::battle::event::BattleEvent;
use crate::battle::fighter::Fighter;
use crate::battle::odds::{RollSummary, TargetOdds};

/// Which text a node shows.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
enum HudText {
    Round,
    Unit,
    Odds,
    Actions,
    Unavailable,
    Log,
    Prompt,
    Handoff,
    Pause,
}

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

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Battle), spawn_hud)
        .add_systems(
            Update,
            (draw_turn_order, draw_texts, draw_unit_bars, show_boxes)
                .after(BattleControls)
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

/// The part of the window the board shows through: the camera fits the map to it and the
/// mouse points at squares only over it.
#[derive(Component)]
pub struct BoardViewport;

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
                BackgroundColor(palette::PANEL),
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
                for i in 0..units {
                    bar.spawn((
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
            });
            root.spawn(Node {
                width: percent(100),
                flex_grow: 1.0,
                min_height: px(0),
                ..default()
            })
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
                            Node {
                                height: px(BOTTOM_H),
                                max_height: percent(40),
                                padding: UiRect::all(px(8)),
                                flex_direction: FlexDirection::Column,
                                row_gap: px(4),
                                overflow: Overflow::clip(),
                                ..default()
                            },
                            BackgroundColor(palette::PANEL),
                        ))
                        .with_children(|bottom| {
                            bottom.spawn(text(HudText::Actions, 14.0, palette::ACCENT));
                            bottom.spawn(text(HudText::Unavailable, 12.0, palette::TEXT_DIM));
                            bottom.spawn(text(HudText::Log, 12.0, palette::TEXT));
                        });
                    });
                // Unit, odds and prompts on the right.
                middle
                    .spawn((
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
                        BackgroundColor(palette::PANEL),
                    ))
                    .with_children(|panel| {
                        panel.spawn(text(HudText::Unit, 13.0, palette::TEXT));
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
                            text(HudText::Odds, 13.0, palette::TEXT),
                            Node {
                                margin: UiRect::top(px(8)),
                                ..default()
                            },
                        ));
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
            .with_child(text(HudText::Prompt, 15.0, palette::TEXT));
            root.spawn((
                Popup::Pause,
                Node {
                    position_type: PositionType::Absolute,
                    left: percent(30),
                    top: percent(25),
                    width: percent(40),
                    padding: UiRect::all(px(16)),
                    border: UiRect::all(px(2)),
                    ..default()
                },
                BorderColor::all(palette::ACCENT),
                BackgroundColor(palette::PANEL),
                Visibility::Hidden,
            ))
            .with_child(text(HudText::Pause, 20.0, palette::TEXT));
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
                BackgroundColor(palette::BACKDROP),
                GlobalZIndex(10),
                Visibility::Hidden,
            ))
            .with_child(text(HudText::Handoff, 28.0, palette::TEXT));
        });
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
    mut texts: Query<(&HudText, &mut Text)>,
) {
    let keys = Keys::from(&settings);
    let round = round_text(&mut session);
    let unit = unit_text(&mut session, cursor.0);
    let odds = odds_text(&mut session, &view, &keys);
    let (actions, unavailable) = action_bar_text(&mut session, &view, &keys);
    let log = log_text(&mut session, ui.log_expanded, ui.log_back, &keys);
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
            let entries = PAUSE_ENTRIES
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    if i == ui.pause_choice {
                        format!("> {s}")
                    } else {
                        format!("  {s}")
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            let notice = session
                .notice
                .as_ref()
                .map_or(String::new(), |n| format!("\n\n! {n}"));
            format!(
                "Paused\n\n{entries}\n\nUp/Down, {}   Quick save {}, quick load {}{notice}",
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
    for (kind, mut t) in &mut texts {
        let want = match kind {
            HudText::Round => round.clone(),
            HudText::Unit => unit.clone(),
            HudText::Odds => odds.clone(),
            HudText::Actions => actions.clone(),
            HudText::Unavailable => unavailable.clone(),
            HudText::Log => log.clone(),
            HudText::Prompt => prompt.clone().unwrap_or_default(),
            HudText::Handoff => handoff.clone().unwrap_or_default(),
            HudText::Pause => pause.clone(),
        };
        if t.0 != want {
            t.0 = want;
        }
    }
}

fn show_boxes(
    mut session: ResMut<Session>,
    ui: Res<BattleUi>,
    mut popups: Query<(&Popup, &mut Visibility)>,
) {
    let has_prompt = session.prompt_pending();
    for (popup, mut v) in &mut popups {
        let shown = match popup {
            Popup::Prompt => has_prompt,
            Popup::Handoff => session.handoff.is_some(),
            Popup::Pause => ui.paused,
        };
        *v = if shown {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
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
    format!(
        "Round {round}  |  {}\n{}'s turn ({control})",
        side_name(session, f.side.0),
        f.identity.name
    )
}

/// d20: the grenades lying live, one line each (empty when none): everyone's business until
/// they go off.
fn live_grenade_lines(session: &Session) -> String {
    let Some(d) = session.battle.rules().d20() else {
        return String::new();
    };
    session
        .battle
        .map()
        .grenades
        .iter()
        .map(|l| {
            let by = session
                .names
                .get(&crate::battle::components::CombatantId(l.thrower))
                .cloned()
                .unwrap_or_default();
            let name = d.weapon(&l.weapon).map_or(l.weapon.as_str(), |w| w.name.as_str());
            format!(
                "Live {name} at {}: goes off when {by}'s turn starts (red: where its blast can reach)\n",
                l.at
            )
        })
        .collect()
}

fn unit_text(session: &mut Session, cursor: Option<crate::grid::Square>) -> String {
    let Some(f) = shown_unit(session, cursor) else {
        return String::new();
    };
    let rules = session.battle.rules().clone();
    if let Some(data) = rules.stages() {
        return stage_unit_text(session, &f, data);
    }
    if let Some(d) = rules.d20() {
        return d20_unit_text(session, &f, d);
    }
    if let Some(d) = rules.digimon() {
        return digimon_unit_text(session, &f, d);
    }
    if let Some(data) = rules.action_points() {
        return shinobi_unit_text(session, &f, data);
    }
    let d = f.derived(&rules);
    let attrs = f
        .attributes
        .0
        .iter()
        .map(|(k, v)| format!("{} {v}", k.to_uppercase()))
        .collect::<Vec<_>>()
        .join("  ");
    let mut out = format!(
        "{} {}  |  {}\n{} ({})\nLife {}/{}   Ki {}/{}   Capacity {}/{}\nToP {}   {}\nHaste {}  Awareness {}  Defense Value {}  Soak {}\nSpeed {} / Boosted {}\nActions: {} standard, {} counter  |  moves {}/2",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        f.identity.archetype,
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        f.life.current,
        f.life.max,
        f.ki.current,
        f.ki.max,
        f.capacity.current,
        f.capacity.max,
        f.power.tier,
        attrs,
        d.haste,
        d.awareness,
        d.defense_value,
        d.soak,
        d.normal_speed,
        d.boosted_speed,
        f.actions.usable(),
        f.actions.counter,
        f.round.moves,
    );
    if f.defeated() {
        out.push_str("\nDEFEATED");
    }
    for c in &f.conditions.0 {
        let def = rules.condition(c.kind);
        let until = match c.expires {
            crate::battle::components::Expiry::UntilEnded => "until ended".to_string(),
            crate::battle::components::Expiry::EndOfRound(r) => format!("until end of round {r}"),
            crate::battle::components::Expiry::EndOfTurn { round, .. } => {
                format!("until a turn's end in round {round}")
            }
        };
        let stacks = if c.stacks > 1 {
            format!(" x{}", c.stacks)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "\n[{}] {}{stacks} ({until}): {}",
            palette::badge(&def.name),
            def.name,
            def.description
        ));
    }
    out
}

/// The unit panel of a power-stages combatant: life cards, stage and power, the cards it holds
/// (its maneuvers), its deck and discard pile, and what is left of its turn.
fn stage_unit_text(
    session: &Session,
    f: &crate::battle::fighter::Fighter,
    data: &crate::ruleset::stages::StageData,
) -> String {
    let names = &data.combat.pool_names;
    let power = crate::battle::stages::power(data, f);
    let mut out = format!(
        "{} {}  |  {}\n{} ({})\n{} {}/{}   {} {}/{} (power {power})\nSpeed {}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        f.identity.archetype,
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        names.life,
        f.life.current,
        f.life.max,
        names.stages,
        f.ki.current,
        f.ki.max,
        f.derived(session.battle.rules()).normal_speed,
    );
    if let Some(cards) = &f.cards {
        let hand: Vec<String> = cards
            .hand
            .iter()
            .map(|(id, n)| {
                let name = crate::battle::stages::card_name(data, id);
                if *n > 1 { format!("{name} x{n}") } else { name }
            })
            .collect();
        out.push_str(&format!(
            "\nHand ({}): {}\nDeck {}  |  discarded {}\nThis turn: {} of {} move(s), {} of {} attack(s)",
            cards.held(),
            if hand.is_empty() {
                "empty".to_string()
            } else {
                hand.join(", ")
            },
            cards.deck.values().sum::<u32>(),
            cards.discard.values().sum::<u32>(),
            f.round.moves,
            data.combat.turn.moves,
            cards.attacks_this_turn,
            data.combat.turn.attacks,
        ));
        if cards.passed {
            out.push_str("\nPassed after a Final Physical Attack: no attacks or blocks this round");
        }
    }
    if f.defeated() {
        out.push_str("\nDEFEATED (no life cards left)");
    }
    out
}

/// The unit panel of a shinobi: HP and chakra (and whether Deflect takes its penalty), AP left
/// this round, weapon, abilities and ranks, move, and the attacks it knows with their costs.
fn shinobi_unit_text(
    session: &Session,
    f: &crate::battle::fighter::Fighter,
    data: &crate::ruleset::shinobi::ShinobiData,
) -> String {
    use crate::ruleset::shinobi::StatKind;
    let names = &data.combat.pool_names;
    let stats = |kind: StatKind| {
        data.combat
            .stats
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| format!("{} {}", s.id, f.attributes.get(&s.id)))
            .collect::<Vec<_>>()
            .join("  ")
    };
    let ninja = data.ninja(&f.identity.archetype);
    let weapon = ninja
        .and_then(|n| n.weapon.clone())
        .unwrap_or_else(|| "none (cannot Block)".into());
    let deflect = if crate::battle::shinobi::above_deflect_line(data, f) {
        ""
    } else {
        " (Deflect at -5)"
    };
    let attacks: Vec<String> = ninja
        .map(|n| n.attacks.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|id| data.attack(id))
        .map(|a| {
            let chakra = if a.chakra > 0 {
                format!(", {} chakra", a.chakra)
            } else {
                String::new()
            };
            format!("{} ({} AP{chakra})", a.name, a.ap)
        })
        .collect();
    let mut out = format!(
        "{} {}  |  {}\n{} ({})\n{} {}/{}   {} {}/{}{deflect}\nAP {} of {} left this round  |  move {} squares\nWeapon: {weapon}\n{}\n{}\n{}\nAttacks: {}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        ninja.map_or(f.identity.archetype.as_str(), |n| n.name.as_str()),
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        names.life,
        f.life.current,
        f.life.max,
        names.chakra,
        f.ki.current,
        f.ki.max,
        f.actions.usable(),
        data.combat.action_points,
        f.derived(session.battle.rules()).normal_speed,
        stats(StatKind::Ability),
        stats(StatKind::Rank),
        stats(StatKind::Skill),
        attacks.join(", "),
    );
    if f.defeated() {
        out.push_str("\nDEFEATED (0 HP)");
    }
    out
}

/// The unit panel of a d20 character: HP, actions left this round and whether its attack of
/// opportunity is spent, weapon with damage type and critical, armour with its DR by type
/// after wear, feats, abilities and skills, move, and its attacks with their cost now.
fn d20_unit_text(
    session: &Session,
    f: &crate::battle::fighter::Fighter,
    d: &crate::ruleset::d20::D20Data,
) -> String {
    use crate::ruleset::shinobi::StatKind;
    let stats = |kind: StatKind| {
        d.combat
            .stats
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| format!("{} {}", s.id, f.attributes.get(&s.id)))
            .collect::<Vec<_>>()
            .join("  ")
    };
    let c = d.character(&f.identity.archetype);
    let weapon = c
        .and_then(|c| d.weapon(&c.weapon))
        .map_or("none".into(), |w| {
            let crit = w.critical.unwrap_or(d.combat.critical);
            format!(
                "{} ({} effect {}, {}/x{}{})",
                w.name,
                d.damage_type_name(&w.damage_type),
                w.effect,
                crit.threat,
                crit.multiplier,
                w.range_increment
                    .map_or(String::new(), |i| format!(", {i}-square increments"))
            )
        });
    let armour = c
        .and_then(|c| c.armour.as_deref())
        .and_then(|id| d.armour(id))
        .map_or("none".into(), |a| {
            let cols: Vec<String> = d
                .combat
                .damage_types
                .iter()
                .filter(|t| a.by_type.contains_key(&t.id))
                .map(|t| {
                    let dr = crate::battle::d20::armour_dr(d, f, &t.id).map_or(0, |x| x.0);
                    format!("{} {dr}", t.id)
                })
                .collect();
            let worn = if f.encounter.armour_wear > 0 {
                format!(", worn -{}", f.encounter.armour_wear)
            } else {
                String::new()
            };
            format!("{} (DR {}{worn})", a.name, cols.join(" / "))
        });
    let feats = c.map_or(String::new(), |c| {
        c.feats
            .iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    });
    let attacks: Vec<String> = c
        .map(|c| c.attacks.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|id| d.attack(id))
        .map(|a| {
            let cost = crate::battle::d20::cost_now(d, f, &a.id);
            if cost == 0 {
                format!("{} (next swing, free)", a.name)
            } else {
                format!(
                    "{} ({cost} action{})",
                    a.name,
                    if cost == 1 { "" } else { "s" }
                )
            }
        })
        .collect();
    let mut out = format!(
        "{} {}  |  {}\n{} ({})\n{} {}/{}\nActions {} of {} left  |  {}attack of opportunity {}  |  move {} squares\nWeapon: {weapon}\nArmour: {armour}\nFeats: {}\n{}\n{}\nAttacks: {}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        c.map_or(f.identity.archetype.as_str(), |c| c.name.as_str()),
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        d.combat.pool_name,
        f.life.current,
        f.life.max,
        f.actions.usable(),
        d.combat.actions_per_round,
        match d.combat.swift_actions {
            0 => String::new(),
            n if f.round.swift_spent < n => "swift action ready  |  ".to_string(),
            _ => "swift action spent  |  ".to_string(),
        },
        if f.actions.counter > 0 {
            "ready"
        } else {
            "spent"
        },
        f.derived(session.battle.rules()).normal_speed,
        if feats.is_empty() {
            "none".to_string()
        } else {
            feats
        },
        stats(StatKind::Ability),
        stats(StatKind::Skill),
        attacks.join(", "),
    );
    if let Some(rule) = &d.combat.prone
        && f.encounter.prone
    {
        out.push_str(&format!(
            "\nPRONE: shots from beyond melee range +{}, its Dodge or parry against melee -{}, until it moves",
            rule.shots, rule.melee
        ));
    }
    if f.encounter.dive_owed {
        out.push_str("\nDived: its next turn starts by spending a Move action on it");
    }
    if f.defeated() {
        out.push_str("\nDEFEATED (0 HP)");
    }
    out
}

/// The unit panel of a Digimon or Tamer: stage (and the Default Stage it fell back to), HP
/// with Temporary HP, actions left, its partner, its stats with what effects do to them, the
/// effects on it with potency and turns left, a waiting Direct, and its attacks with their
/// action cost.
fn digimon_unit_text(
    session: &mut Session,
    f: &crate::battle::fighter::Fighter,
    d: &crate::ruleset::digimon::DigimonData,
) -> String {
    use crate::battle::digimon as dg;
    let state = f.digi.clone().unwrap_or_default();
    let kind = if state.tamer {
        "Tamer".to_string()
    } else {
        match state.form.as_deref().and_then(|id| d.digimon(id)) {
            Some(form) => format!(
                "{} ({}, fell back to its Default Stage)",
                form.name, form.stage
            ),
            None => dg::stage(d, f).unwrap_or("?").to_string(),
        }
    };
    let names = session.battle.names();
    let partner = state
        .partner
        .and_then(|p| names.get(&p).cloned())
        .map_or(String::new(), |n| format!("  |  partner {n}"));
    let stat = |id: &str, label: &str| {
        let base = dg::base_stat(d, f, id);
        let now = dg::stat(d, f, id);
        if now == base {
            format!("{label} {now}")
        } else {
            format!("{label} {now} ({base}{:+})", now - base)
        }
    };
    let stats = [
        stat("ACC", "Accuracy"),
        stat("DMG", "Damage"),
        stat("DODGE", "Dodge"),
        stat("ARM", "Armor"),
    ]
    .join("  ");
    let specs = if state.tamer {
        format!("Charisma mod {}", f.attributes.get("CHA"))
    } else {
        format!(
            "Size {}  Body {}  Agility {}  BIT {}  CPU {}  RAM {}",
            crate::battle::grapple::size(d, f).0,
            dg::base_stat(d, f, "BODY"),
            dg::base_stat(d, f, "AGI"),
            dg::base_stat(d, f, "BIT"),
            dg::base_stat(d, f, "CPU"),
            dg::base_stat(d, f, "RAM"),
        )
    };
    let effects: Vec<String> = state
        .effects
        .iter()
        .map(|e| {
            let name = d.effect(e.kind).map_or("?", |x| x.name.as_str());
            let by = names.get(&e.source).cloned().unwrap_or_default();
            // Stun and Charm have no number.
            let potency = if e.potency == 0 {
                String::new()
            } else {
                format!(" {}", e.potency)
            };
            format!("{name}{potency} ({} turn(s), from {by})", e.turns)
        })
        .collect();
    let mut extras = Vec::new();
    if state.temp_hp > 0 {
        extras.push(format!("Temporary HP {}", state.temp_hp));
    }
    if let Some((bonus, _)) = state.directed {
        extras.push(format!(
            "Directed: +{bonus} to its next Dodge or Accuracy roll"
        ));
    }
    if state.haste {
        extras.push("Haste: +1 Simple Action next round".into());
    }
    if session.battle.turn().paused == Some(f.id) {
        let now = session
            .battle
            .active()
            .and_then(|a| names.get(&a).cloned())
            .unwrap_or_default();
        extras.push(format!(
            "Handed the turn to {now}: takes it back with {} action(s) when {now} is done",
            f.actions.usable()
        ));
    }
    if let Some(h) = &state.clash {
        let other = names.get(&h.opponent).cloned().unwrap_or_default();
        extras.push(if h.control {
            format!("Controls a Clash with {other}: no Dodge; Attack (Complex), End, Pin, Throw")
        } else if h.pinned {
            format!("Held and Pinned in a Clash by {other}: no actions, no Dodge")
        } else {
            format!("Held in a Clash by {other}: no actions, no Dodge")
        });
    }
    if f.defense.diminishing > 0 {
        extras.push(format!(
            "Dodge penalty -{} this round",
            f.defense.diminishing
        ));
    }
    // The Clash actions everyone has are on the action bar, not listed here.
    let attacks: Vec<String> = dg::attacks_now(d, f)
        .iter()
        .filter_map(|id| d.attack(id))
        .filter(|a| a.clash.is_none())
        .map(|a| {
            let tag = match a.tag {
                crate::ruleset::digimon::Tag::Melee => "Melee",
                crate::ruleset::digimon::Tag::Ranged => "Ranged",
                crate::ruleset::digimon::Tag::Area => "Area",
            };
            let effect = a
                .effect
                .and_then(|k| d.effect(k))
                .map_or(String::new(), |e| format!(", {}", e.name));
            let cost = if a.complex { "Complex" } else { "Simple" };
            format!("{} [{tag}{effect}] ({cost})", a.name)
        })
        .collect();
    let mut out = format!(
        "{} {}  |  {kind}\n{} ({}){partner}\n{} {}/{}  |  actions {} of {} left  |  Movement {}\n{stats}\n{specs}\nEffects: {}{}\nAttacks: {}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        d.combat.pool_name,
        f.life.current,
        f.life.max,
        f.actions.usable(),
        d.combat.simple_actions,
        dg::movement(d, f),
        if effects.is_empty() {
            "none".to_string()
        } else {
            effects.join(", ")
        },
        if extras.is_empty() {
            String::new()
        } else {
            format!("\n{}", extras.join("  |  "))
        },
        attacks.join(", "),
    );
    if let Some(why) = &state.down {
        out.push_str(&format!("\nOUT OF THE FIGHT: {why}"));
    } else if f.defeated() {
        out.push_str("\nDEFEATED (0 HP)");
    }
    out
}

/// The two answers to an attack, as this ruleset names them.
fn defense_names(rules: &crate::ruleset::Rules) -> (&'static str, &'static str) {
    if rules.stages().is_some() {
        ("Take it", "Block (plays a defense card)")
    } else if rules.d20().is_some() {
        ("Dodge", "Parry (with a parry feat)")
    } else if rules.action_points().is_some() {
        ("Dodge", "Block (with a weapon)")
    } else {
        ("Dodge", "Parry (a Counter Action)")
    }
}

/// A shinobi defense's name with what it rolls ("Block (1d20 + DEX + WEP)").
fn shinobi_answer(rules: &crate::ruleset::Rules, choice: DefenseChoice, name: String) -> String {
    use crate::ruleset::shinobi::DefenseKind;
    let kind = match choice {
        DefenseChoice::Block => DefenseKind::Block,
        DefenseChoice::Deflect => DefenseKind::Deflect,
        _ => DefenseKind::Dodge,
    };
    match rules.action_points().and_then(|d| d.defense(kind)) {
        Some(d) => format!(
            "{} (1d{} + {})",
            d.name,
            rules.action_points().map_or(20, |s| s.combat.die),
            d.terms.join(" + ")
        ),
        None => name,
    }
}

/// The key that answers with `choice` and its name in this ruleset.
fn answer_key(
    rules: &crate::ruleset::Rules,
    choice: DefenseChoice,
    keys: &Keys,
) -> (String, String) {
    let (first, second) = defense_names(rules);
    match choice {
        DefenseChoice::Dodge => (keys.of(GameAction::Dodge).to_string(), first.to_string()),
        DefenseChoice::Parry | DefenseChoice::Block => {
            (keys.of(GameAction::Parry).to_string(), second.to_string())
        }
        DefenseChoice::Deflect => (keys.of(GameAction::Deflect).to_string(), "Deflect".into()),
        // d20, against a shot from beyond melee range: the Dodge key takes it, the Parry key
        // dives.
        DefenseChoice::Take => (
            keys.of(GameAction::Dodge).to_string(),
            "Take the shot (no roll, no action)".into(),
        ),
        DefenseChoice::Dive => (
            keys.of(GameAction::Parry).to_string(),
            format!(
                "Dive for cover (spends your next Move action; you land prone, {})",
                prone_terms(rules)
            ),
        ),
        // The Deflect key drops prone: an immediate action.
        DefenseChoice::DropProne => (
            keys.of(GameAction::Deflect).to_string(),
            format!(
                "Drop prone (immediate action: your Swift action, or your attack of opportunity once it is spent; {})",
                prone_terms(rules)
            ),
        ),
    }
}

/// What lying prone changes, in the second person, for prompts.
fn prone_terms(rules: &crate::ruleset::Rules) -> String {
    let prone = rules.d20().and_then(|d| d.combat.prone.as_ref());
    match prone {
        Some(p) => format!(
            "shots +{}, your Dodge against melee -{}, until you move",
            p.shots, p.melee
        ),
        None => "until you move".into(),
    }
}

/// A power-stages attack's outcome for one target and one answer.
fn stage_target_line(name: &str, how: &str, t: &TargetOdds) -> String {
    format!(
        "{name} {how}: {}\n  -{} power stage(s), -{} life card(s)  |  defeat {}",
        t.automatic_hit.clone().unwrap_or_default(),
        t.stage_loss.unwrap_or(0),
        t.expected_damage,
        pct(t.defeat_chance)
    )
}

/// The panel while a Skill Check is being chosen: how it is paid, every square it may be made
/// on with its exact chance, and the one under the cursor with its roll, or why not there.
fn skill_text(
    session: &Session,
    view: &BattleView,
    keys: &Keys,
    way: crate::battle::command::SkillWay,
) -> String {
    use crate::battle::command::SkillWay;
    let again = keys.of(GameAction::UseSkill);
    let digimon = session.battle.rules().digimon().is_some();
    let paid = match way {
        SkillWay::Interrupt => {
            "free, with the round's Interrupt Action (no Intercede this round)".to_string()
        }
        SkillWay::TakeTen => {
            "Taking 10 for a Standard action: no roll, only where no foe can see the unit"
                .to_string()
        }
        SkillWay::Action if digimon => {
            format!("a Simple Action ({again} again: free, with the round's Interrupt Action)")
        }
        SkillWay::Action => {
            format!("a Standard action, rolled ({again} again: Take 10 where no foe sees you)")
        }
    };
    let mut out = format!("Use a Skill, {paid}: click a lit square beside the unit.");
    let offered: Vec<_> = view.skills.iter().filter(|o| o.way == way).collect();
    if offered.is_empty() {
        out.push_str(match way {
            SkillWay::Interrupt => {
                "\nThe Interrupt Action is spent this round (or the unit is Stunned or Paralysed)."
            }
            SkillWay::TakeTen => {
                "\nNot now: a foe can see the unit (under pressure), or no action is left."
            }
            SkillWay::Action => "\nNo action is left.",
        });
    }
    for o in &offered {
        out.push_str(&format!(
            "\n{} at {}: {} vs TN {} -> {}",
            o.check.name,
            o.at,
            pct(o.chance),
            o.check.target,
            o.becomes
        ));
    }
    match &view.skill_aim {
        Some(Ok(o)) => out.push_str(&format!(
            "\n\n{} at {}: {}\nAgainst TN {}: {} to succeed; the square becomes {}.",
            o.check.name,
            o.at,
            terms(&o.roll),
            o.check.target,
            pct(o.chance),
            o.becomes
        )),
        Some(Err(why)) => out.push_str(&format!("\n\nNot here: {why}")),
        None => {}
    }
    out
}

fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

fn terms(r: &RollSummary) -> String {
    let mut parts: Vec<String> = r
        .terms
        .iter()
        .map(|t| match (&t.die, t.value) {
            (Some(d), _) => format!("{d} {}", t.label),
            (None, Some(v)) => format!("{v:+} {}", t.label),
            (None, None) => t.label.clone(),
        })
        .collect();
    if let Some(c) = r.critical_target {
        parts.push(format!("crit on {c}+"));
    }
    if r.botch_range > 0 {
        parts.push(format!(
            "botch on <={} ({:+})",
            r.botch_range, r.botch_penalty
        ));
    }
    format!("{}: {}", r.kind, parts.join(", "))
}

/// Thresholds the attack may push the target through, with their chances (none if no
/// outcome reaches one).
fn threshold_text(t: &TargetOdds) -> String {
    let reachable: Vec<String> = t
        .threshold_chances
        .iter()
        .filter(|c| !c.already && c.chance > 0.0)
        .map(|c| format!("{} {}", c.threshold, pct(c.chance)))
        .collect();
    if reachable.is_empty() {
        "no Health Threshold reachable".into()
    } else {
        reachable.join("  ")
    }
}

fn target_line(name: &str, how: &str, t: &TargetOdds, exploding: bool) -> String {
    let lo = t
        .damage_distribution
        .iter()
        .find(|(d, p)| **d > 0 && **p > 0.0)
        .map_or(0, |(d, _)| *d);
    let hi = t
        .damage_distribution
        .keys()
        .next_back()
        .copied()
        .unwrap_or(0);
    if exploding {
        // d20 and Digimon: exploding dice leave a long, thin tail; say where 99.9 % of damaging
        // hits end.
        let hurts: f64 = t.damage_distribution.range(1..).map(|(_, p)| p).sum();
        let mut acc = 0.0;
        let typical = t
            .damage_distribution
            .range(1..)
            .find(|(_, p)| {
                acc += **p;
                acc >= 0.999 * hurts
            })
            .map_or(hi, |(d, _)| *d);
        let crit = if t.critical_hit_chance > 0.0 || t.difficulty.is_some() {
            format!(" (crit {})", pct(t.critical_hit_chance))
        } else {
            String::new()
        };
        if hi == 0 {
            return format!(
                "{name} {how}: hit {}{crit}  |  no damage",
                pct(t.hit_chance)
            );
        }
        return format!(
            "{name} {how}: hit {}{crit}\n  damage {lo}-{typical} (99.9% of damaging hits; up to {hi}), mean {:.1}  |  defeat {}",
            pct(t.hit_chance),
            t.expected_damage,
            pct(t.defeat_chance)
        );
    }
    if t.critical_hit_chance == 0.0 && t.threshold_chances.is_empty() {
        // A ruleset without criticals or thresholds (shinobi): what is left to say.
        return format!(
            "{name} {how}: hit {}  |  damage {lo}-{hi}, mean {:.1}  |  defeat {}",
            pct(t.hit_chance),
            t.expected_damage,
            pct(t.defeat_chance)
        );
    }
    format!(
        "{name} {how}: hit {} (crit {})\n  damage {lo}-{hi}, mean {:.1}\n  {}  |  defeat {}",
        pct(t.hit_chance),
        pct(t.critical_hit_chance),
        t.expected_damage,
        threshold_text(t),
        pct(t.defeat_chance)
    )
}

/// A grenade's aim panel: the DC to the square, the chances of a hit (a blast on a corner of
/// it), a miss (it lies live until the thrower's next turn) and a critical failure (it goes
/// off near the thrower), the Roll check that halves, and each unit's chance of being caught
/// now with its damage -- all from the preview the throw resolves with.
fn grenade_aim_text(
    session: &mut Session,
    d: &crate::ruleset::d20::D20Data,
    g: &crate::battle::grenade::Grenade,
    order: &crate::battle::command::AttackOrder,
    p: &crate::battle::AttackPreview,
) -> String {
    use crate::battle::grenade;
    let Some(me) = session.battle.fighter(order.attacker) else {
        return String::new();
    };
    let mut out = if g.attack.throw_back {
        format!(
            "{}: 1 action, the live grenade beside you
",
            g.weapon.name
        )
    } else {
        format!(
            "{}: 1 action, {} left
",
            g.weapon.name,
            grenade::carried(d, g, &me)
        )
    };
    let Some(tc) = p.context.targets.first() else {
        return out;
    };
    if let Some(dc) = &tc.difficulty {
        let why: Vec<String> = dc.modifiers.iter().map(|m| m.label.clone()).collect();
        let (hit, miss, fumble) = grenade::outcome_chances(d, g, &me, dc.flat_total());
        out.push_str(&format!(
            "Aim DC {} ({})\nHit {}: goes off on a corner of that square (each {} over strikes off the corner you want least)\nMiss {}: lands off target, goes off at the start of your next turn\nCritical failure {}: goes off near you at once\n",
            dc.flat_total(),
            why.join("; "),
            pct(hit),
            g.rule.step,
            pct(miss),
            pct(fumble)
        ));
    }
    for answers in &p.odds.targets {
        let Some(o) = answers.first() else {
            continue;
        };
        let tname = session.names.get(&o.target).cloned().unwrap_or_default();
        out.push_str(&format!(
            "{tname}: caught {}  |  mean {:.1}  |  defeat {}
",
            pct(o.hit_chance),
            o.expected_damage,
            pct(o.defeat_chance)
        ));
    }
    if let Some(o) = p.odds.targets.first().and_then(|v| v.first()) {
        let points = p.context.wound.flat_total();
        let t = &d.combat.effect_table;
        let (n, bonus) = crate::battle::d20::effect_dice(t, points);
        out.push_str(&format!(
            "{}  (natural 1 fails)\nEach caught: {} against DC {} for half\nBlast: {points} Effect Points = {n}d{}{bonus:+} {}, less armour DR",
            terms(&o.strike),
            terms(&o.defense_roll),
            g.blast.save_dc,
            t.die,
            d.damage_type_name(&g.weapon.damage_type)
        ));
    }
    out
}

/// One target of several, in two lines: every defense it has side by side.
fn compact_target_line(name: &str, answers: &[TargetOdds]) -> String {
    let join =
        |f: &dyn Fn(&TargetOdds) -> String| answers.iter().map(f).collect::<Vec<_>>().join(" / ");
    let hows = join(&|o| o.defense.name().to_lowercase());
    format!(
        "{name}: hit {} ({hows})\n  mean {}  |  defeat {}",
        join(&|o| pct(o.hit_chance)),
        join(&|o| format!("{:.1}", o.expected_damage)),
        join(&|o| pct(o.defeat_chance)),
    )
}

/// The head of a Digimon attack's preview: its action type, the tie rule, and for each target
/// the effect a hit gives it (potency and turns, as the rules would set them now).
fn digimon_aim_head(
    session: &mut Session,
    data: &crate::ruleset::shinobi::ShinobiData,
    d: &crate::ruleset::digimon::DigimonData,
    order: &crate::battle::command::AttackOrder,
    p: &crate::battle::AttackPreview,
) -> String {
    use crate::battle::digimon as dg;
    let me = session.battle.fighter(order.attacker);
    let ap = me.as_ref().map_or_else(
        || crate::battle::shinobi::ap_cost(data, &order.profile),
        |f| {
            crate::battle::shinobi::attack_ap(
                data,
                session.battle.rules().digimon(),
                f,
                &order.profile,
            )
        },
    );
    let action = if ap >= data.combat.action_points {
        "a Complex Action"
    } else {
        "a Simple Action"
    };
    let mut head = format!(
        "{}: {action} ({ap} AP)  |  the attacker wins ties\n",
        p.odds.maneuver
    );
    let Some((a, bolstered)) = dg::attack_of(d, &order.profile) else {
        return head;
    };
    let Some(me) = me else {
        return head;
    };
    for t in &p.context.targets {
        if let Some((_, why)) = &t.damage_less {
            head.push_str(&format!("{why}\n"));
        }
        let Some(target) = session.battle.fighter(t.id) else {
            continue;
        };
        if let Some(m) = a.clash {
            head.push_str(&clash_preview(d, m, &me, &target));
        }
    }
    let Some(kind) = a.effect else {
        return head;
    };
    let name = d.effect(kind).map_or("effect", |e| e.name.as_str());
    for t in &p.context.targets {
        let Some(target) = session.battle.fighter(t.id) else {
            continue;
        };
        let tname = session.names.get(&t.id).cloned().unwrap_or_default();
        let potency = dg::potency(d, kind, &me, &target, a.complex || bolstered, bolstered);
        let turns = dg::duration(d, kind, &me);
        let what = match kind {
            crate::ruleset::digimon::EffectKind::Knockback => {
                format!(
                    "knocked back {} squares",
                    dg::knockback_squares(d, &me, &target, bolstered)
                )
            }
            crate::ruleset::digimon::EffectKind::Lifesteal => {
                format!(
                    "{} heals up to {potency} HP (once a round)",
                    me.identity.name
                )
            }
            crate::ruleset::digimon::EffectKind::Haste => "+1 Simple Action next round".into(),
            _ if turns > 0 && potency == 0 => format!("{name} for {turns} turn(s)"),
            _ if turns > 0 => format!("{name} {potency} for {turns} turn(s)"),
            _ => format!("{name} {potency}"),
        };
        let when = if dg::helps(a) {
            "Given to"
        } else {
            "On a hit,"
        };
        head.push_str(&format!("{when} {tname}: {what}\n"));
    }
    head
}

/// What a Clash action will do, with the exact chances from the rolls that resolve it.
fn clash_preview(
    d: &crate::ruleset::digimon::DigimonData,
    m: crate::ruleset::digimon::ClashMove,
    me: &crate::battle::fighter::Fighter,
    target: &crate::battle::fighter::Fighter,
) -> String {
    use crate::battle::grapple as g;
    use crate::ruleset::digimon::ClashMove;
    match m {
        ClashMove::Start => {
            let mine = terms(&RollSummary::of(&g::check_spec(d, me, target)));
            let theirs = terms(&RollSummary::of(&g::check_spec(d, target, me)));
            format!(
                "Clash: {} controls {} ({mine} vs TN {}; {} {theirs} vs TN {})\n\
                 The one not in control may not act; neither may Dodge or move away.\n",
                me.identity.name,
                pct(g::control_chance(d, me, target, me.id)),
                g::tn(d, target),
                target.identity.name,
                g::tn(d, me),
            )
        }
        ClashMove::Pin => format!(
            "Pin succeeds {}: {} does not roll for control next round\n",
            pct(g::pin_chance(d, me, target)),
            target.identity.name
        ),
        ClashMove::End => "Ends the Clash: both are free, adjacent\n".into(),
        ClashMove::Throw => format!(
            "Throw: {} squares away, Damage stat minus Armor; the Clash ends\n",
            crate::battle::digimon::stat(d, me, crate::ruleset::digimon::BODY)
        ),
    }
}

fn odds_text(session: &mut Session, view: &BattleView, keys: &Keys) -> String {
    let wager_keys = format!(
        "{}/{}",
        keys.of(GameAction::WagerDown),
        keys.of(GameAction::WagerUp)
    );
    let Intent::Attack { slot } = session.intent else {
        let live = live_grenade_lines(session);
        return live
            + &match session.intent {
            Intent::Skill { way } => skill_text(session, view, keys, way),
            Intent::Move { .. } if session.battle.rules().stages().is_some() => {
                "Moving: click a lit square.".to_string()
            }
            Intent::Move { .. }
                if session
                    .battle
                    .rules()
                    .d20().is_some() =>
            {
                "Moving (1 action; the round's first one-square step is free): click a lit square.\nMoving provokes nothing; shooting with an enemy blade beside you provokes its attack of opportunity.".to_string()
            }
            Intent::Move { .. } if session.battle.rules().action_points().is_some() => format!(
                "Moving ({} AP): click a lit square.\nRed path squares leave a reach the path entered: an opportunity attack (a hit stops you where you entered).\nStepping onto a drop from above is a fall (see the terrain's description).",
                session
                    .battle
                    .rules()
                    .action_points()
                    .map_or(1, |d| d.combat.move_cost)
            ),
            Intent::Move { boosted } => format!(
                "Moving at {} Speed: click a lit square.\nPale squares need Boosted Speed ({}).\nRed path squares provoke an Exploit.",
                if boosted { "Boosted" } else { "Normal" },
                keys.of(GameAction::BoostedMove)
            ),
            _ => format!(
                "Hover a unit to see it here.\n{}: move  |  {}-{}: aim an attack",
                keys.of(GameAction::Move),
                keys.of(GameAction::Slot1),
                keys.of(GameAction::Slot9)
            ),
        };
    };
    let max_wager = view.max_wager;
    let name = view
        .slots
        .get(slot)
        .map_or(String::new(), |s| s.name.clone());
    let stages = session.battle.rules().stages().is_some();
    let Some(aim) = &view.aim else {
        if stages {
            return format!("{name}: point at a target.");
        }
        if session.battle.rules().action_points().is_some()
            && !session.battle.rules().is_ninja_chapter()
        {
            return format!("{name}: point at a target.");
        }
        if session.battle.rules().action_points().is_some() {
            return format!(
                "{name}: point at a target.\nSneak attack {} ({})",
                if session.sneak { "ON" } else { "off" },
                keys.of(GameAction::Sneak)
            );
        }
        return format!(
            "{name}: point at a target.\nWager {} Ki ({wager_keys}, at most {max_wager})",
            session.wager
        );
    };
    match &aim.preview {
        Err(why) => format!("{name}: {why}"),
        Ok(p) if stages => {
            let mut out = format!(
                "{}: costs {} power stage(s); no roll\n",
                p.odds.maneuver, p.ki_cost
            );
            for answers in &p.odds.targets {
                let [take, block] = answers.as_slice() else {
                    continue;
                };
                let tname = session.names.get(&take.target).cloned().unwrap_or_default();
                out.push_str(&stage_target_line(&tname, "takes it", take));
                out.push('\n');
                out.push_str(&stage_target_line(&tname, "blocks", block));
                out.push('\n');
            }
            let taken: Vec<String> = p
                .odds
                .wound
                .terms
                .iter()
                .map(|t| format!("{:+} {}", t.value.unwrap_or(0), t.label))
                .collect();
            out.push_str(&format!("Takes: {}", taken.join(", ")));
            out
        }
        Ok(p) => {
            let rules = session.battle.rules().clone();
            let d20 = rules.action_points().zip(rules.d20());
            if let Some((_, d)) = d20
                && let Some(g) = crate::battle::grenade::of(d, &aim.order.profile)
            {
                return grenade_aim_text(session, d, &g, &aim.order, p);
            }
            let mut out = if let Some((_, d)) = d20 {
                let cost = session.battle.fighter(aim.order.attacker).map_or(1, |f| {
                    crate::battle::d20::cost_now(d, &f, &aim.order.profile)
                });
                let mut head = if cost == 0 {
                    format!("{}: next swing of the full round (free)\n", p.odds.maneuver)
                } else {
                    format!("{}: {cost} action(s)\n", p.odds.maneuver)
                };
                for t in &p.context.targets {
                    let tname = session.names.get(&t.id).cloned().unwrap_or_default();
                    if let Some(dc) = &t.difficulty {
                        let why: Vec<String> =
                            dc.modifiers.iter().map(|m| m.label.clone()).collect();
                        head.push_str(&format!(
                            "{tname}: must meet DC {} ({}){}\n",
                            dc.flat_total(),
                            why.join("; "),
                            if t.defenses.is_empty() {
                                ", no defense possible"
                            } else {
                                " and its defense roll"
                            }
                        ));
                    }
                }
                head
            } else if let Some((data, d)) = rules.action_points().zip(rules.digimon()) {
                digimon_aim_head(session, data, d, &aim.order, p)
            } else if let Some(data) = session.battle.rules().action_points() {
                let ap = crate::battle::shinobi::ap_cost(data, &aim.order.profile);
                let mut head = format!(
                    "{}: {ap} AP, {} chakra  |  sneak attack {} ({})\n",
                    p.odds.maneuver,
                    p.ki_cost,
                    if session.sneak { "ON" } else { "off" },
                    keys.of(GameAction::Sneak)
                );
                for t in &p.context.targets {
                    let tname = session.names.get(&t.id).cloned().unwrap_or_default();
                    if let Some((won, _)) = &t.sneak {
                        head.push_str(&format!(
                            "{tname}: sneak contest won {} (-{} to its defenses); lost, it may strike first\n",
                            pct(*won),
                            data.combat.sneak.penalty
                        ));
                    }
                    if let Some((c, from)) = &t.miss_chance {
                        head.push_str(&format!("{tname}: {c}% miss chance ({from})\n"));
                    }
                    if let Some(a) = &t.absorb {
                        head.push_str(&format!(
                            "{tname}: partial cover, {} at {} absorbs up to {} ({}% of hits)\n",
                            a.name, a.at, a.left, a.chance
                        ));
                    }
                    if let Some(k) = &t.knockback {
                        let mut what = format!("{tname}: knocked to {}", k.to);
                        if let Some((slam, _)) = &k.slam {
                            what.push_str(&format!(", slam {slam}"));
                        }
                        if let Some(f) = &k.fall {
                            what.push_str(&format!(", falls {} ft", f.feet));
                        }
                        head.push_str(&what);
                        head.push('\n');
                    }
                }
                head
            } else {
                format!(
                    "{}: Ki {} (wager {} of at most {max_wager}: {wager_keys})\n",
                    p.odds.maneuver, p.ki_cost, p.odds.wager
                )
            };
            let exploding = d20.is_some() || rules.digimon().is_some();
            let several = p.odds.targets.len() > 1;
            for answers in &p.odds.targets {
                let Some(first) = answers.first() else {
                    continue;
                };
                let tname = session
                    .names
                    .get(&first.target)
                    .cloned()
                    .unwrap_or_default();
                if several {
                    out.push_str(&compact_target_line(&tname, answers));
                } else {
                    let lines: Vec<String> = answers
                        .iter()
                        .map(|o| {
                            let undefended = d20.is_some()
                                && p.context
                                    .targets
                                    .iter()
                                    .any(|t| t.id == o.target && t.defenses.is_empty());
                            let how = match (o.defense, &o.automatic_hit) {
                                _ if undefended => "cannot defend".to_string(),
                                (_, Some(why)) => format!("rolls no Dodge ({why})"),
                                (DefenseChoice::Dodge, None) => "dodges".into(),
                                (DefenseChoice::Parry, None) => "parries".into(),
                                (DefenseChoice::Block, None) => "blocks".into(),
                                (DefenseChoice::Deflect, None) => "deflects".into(),
                                (DefenseChoice::Take, None) => "takes the shot".into(),
                                (DefenseChoice::Dive, None) => "dives for cover".into(),
                                (DefenseChoice::DropProne, None) => "drops prone".into(),
                            };
                            target_line(&tname, &how, o, exploding)
                        })
                        .collect();
                    out.push_str(&lines.join("\n"));
                }
                out.push('\n');
            }
            if let Some(first) = p.odds.targets.first().and_then(|v| v.first()) {
                if d20.is_some() {
                    out.push_str(&format!(
                        "{}  (natural 1 fails; natural 20 adds a d20)\n",
                        terms(&first.strike)
                    ));
                    for o in p.odds.targets.first().into_iter().flatten() {
                        let undefended = p
                            .context
                            .targets
                            .first()
                            .is_some_and(|t| t.defenses.is_empty());
                        if !undefended {
                            out.push_str(&format!("{}\n", terms(&o.defense_roll)));
                        }
                    }
                    out.push_str(&format!(
                        "{}\n+ the Success Value, then 1d{} per {} Effect Points",
                        terms(&p.odds.wound),
                        rules.d20().map_or(6, |d| d.combat.effect_table.die),
                        rules.d20().map_or(10, |d| d.combat.effect_table.per_die),
                    ));
                    return out;
                } else if first.automatic_hit.is_some() && first.expected_damage == 0.0 {
                    // Digimon: a helping effect rolls nothing.
                    return out;
                } else {
                    out.push_str(&format!(
                        "{}\n{}\n",
                        terms(&first.strike),
                        terms(&first.defense_roll)
                    ));
                }
            }
            out.push_str(&terms(&p.odds.wound));
            out
        }
    }
}

fn action_bar_text(session: &mut Session, view: &BattleView, keys: &Keys) -> (String, String) {
    if let Some(r) = &session.replay {
        let file = r
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let state = if r.next >= r.commands.len() {
            "end of the replay".to_string()
        } else if r.paused {
            "paused".to_string()
        } else {
            format!("{} commands/s", r.speed)
        };
        return (
            format!(
                "REPLAY {file}  command {}/{}  {state}",
                r.next,
                r.commands.len()
            ),
            format!(
                "Space: pause/resume   {}: step (paused)   {}/{}: speed   {}: detailed log   {} {}: scroll log   Esc: menu",
                keys.of(GameAction::NextSlot),
                keys.of(GameAction::WagerUp),
                keys.of(GameAction::WagerDown),
                keys.of(GameAction::ToggleLog),
                keys.of(GameAction::LogOlder),
                keys.of(GameAction::LogNewer)
            ),
        );
    }
    if let Some((_, Some(Decision::Defense { .. }), _)) = session.human_to_act()
        && session.battle.rules().action_points().is_some()
    {
        let rules = session.battle.rules().clone();
        let answers: Vec<String> = view
            .defense_odds
            .iter()
            .flatten()
            .map(|o| {
                let (key, what) = answer_key(&rules, o.defense, keys);
                format!("{key} {what}")
            })
            .collect();
        return (
            format!(
                "Answer the question in the right-hand panel ({})",
                answers.join(" / ")
            ),
            String::new(),
        );
    }
    if let Some((_, Some(Decision::Intercede { .. }), _)) = session.human_to_act() {
        return (
            format!(
                "Answer the question in the right-hand panel ({}: Intercede / {}: let it hit)",
                keys.of(GameAction::Confirm),
                keys.of(GameAction::Cancel)
            ),
            String::new(),
        );
    }
    if let Some((_, Some(_), _)) = session.human_to_act() {
        let (first, second) = defense_names(session.battle.rules());
        return (
            format!(
                "Answer the question in the right-hand panel ({} {first} / {} {}, or {} / {})",
                keys.of(GameAction::Dodge),
                keys.of(GameAction::Parry),
                second.split(" (").next().unwrap_or(second),
                keys.of(GameAction::Confirm),
                keys.of(GameAction::Cancel)
            ),
            String::new(),
        );
    }
    let Some((who, None, _)) = session.human_to_act() else {
        return match session.actor() {
            Some(_) if session.battle.outcome().is_none() => (
                format!(
                    "The computer is playing. {}: skip ahead  |  {}: detailed log",
                    keys.of(GameAction::SkipAi),
                    keys.of(GameAction::ToggleLog)
                ),
                String::new(),
            ),
            _ => (String::new(), String::new()),
        };
    };
    let me = session.battle.fighter(who);
    let rules = session.battle.rules().clone();
    let moves_left = me.as_ref().map_or(0, |f| {
        rules.actions.moves_per_round.saturating_sub(f.round.moves)
    });
    let mark = |on: bool, s: String| if on { format!("[{s}]") } else { s };
    let step = match (rules.d20(), &me) {
        (Some(d), Some(f)) => crate::battle::d20::step_left(d, f),
        _ => 0,
    };
    let move_label = match rules.action_points() {
        Some(_) if rules.d20().is_some() && step > 0 => format!(
            "{} Move 1 action (a {step}-square step is free, once a round)",
            keys.of(GameAction::Move)
        ),
        Some(data) => format!(
            "{} Move {}AP",
            keys.of(GameAction::Move),
            data.combat.move_cost
        ),
        None => format!("{} Move ({moves_left} left)", keys.of(GameAction::Move)),
    };
    let mut items = Vec::new();
    if rules.action_points().is_some() {
        items.push(format!(
            "AP {}:",
            me.as_ref().map_or(0, |f| f.actions.usable())
        ));
    }
    items.push(mark(
        session.intent == Intent::Move { boosted: false },
        move_label,
    ));
    let dbu = rules.manifest.family == crate::ruleset::Family::Dbu;
    if dbu {
        items.push(mark(
            session.intent == Intent::Move { boosted: true },
            format!("{} Boosted", keys.of(GameAction::BoostedMove)),
        ));
    }
    let hand = me.as_ref().and_then(|f| f.cards.clone());
    let slots = &view.slots;
    let mut unavailable = Vec::new();
    for (i, s) in slots.iter().enumerate() {
        let key = GameAction::SLOTS
            .get(i)
            .map_or("-".to_string(), |a| keys.of(*a).to_string());
        let label = match (&hand, rules.stages()) {
            _ if rules.d20().is_some() => {
                let cost = match (rules.d20(), &me) {
                    (Some(d), Some(f)) => crate::battle::d20::cost_now(d, f, &s.profile),
                    _ => 1,
                };
                if cost == 0 {
                    format!("{key} {} next swing", s.name)
                } else {
                    format!("{key} {} {cost}AP", s.name)
                }
            }
            _ if rules.action_points().is_some() => {
                let ap = match (rules.action_points(), &me) {
                    (Some(d), Some(f)) => {
                        crate::battle::shinobi::attack_ap(d, rules.digimon(), f, &s.profile)
                    }
                    (Some(d), None) => crate::battle::shinobi::ap_cost(d, &s.profile),
                    _ => 1,
                };
                let chakra = if s.ki_cost > 0 {
                    format!(" {}ch", s.ki_cost)
                } else {
                    String::new()
                };
                format!("{key} {} {ap}AP{chakra}", s.name)
            }
            (Some(h), Some(data)) => {
                let held = if data.card(&s.profile).is_some() {
                    format!(" x{}", h.count(&s.profile))
                } else {
                    String::new()
                };
                let cost = if s.ki_cost > 0 {
                    format!(" {} stages", s.ki_cost)
                } else {
                    String::new()
                };
                format!("{key} {}{held}{cost}", s.name)
            }
            _ => format!("{key} {} {}Ki", s.name, s.ki_cost),
        };
        if let Some(why) = &s.unusable {
            let short = why.split(" (").next().unwrap_or(why);
            unavailable.push(format!("{}: {short}", s.name));
            items.push(format!("({label})"));
        } else {
            items.push(mark(session.intent == Intent::Attack { slot: i }, label));
        }
    }
    if dbu {
        items.extend([
            format!("{} Power Up", keys.of(GameAction::PowerUp)),
            format!("{} Recover", keys.of(GameAction::Recover)),
        ]);
    }
    if rules.is_ninja_chapter() {
        items.push(mark(
            session.sneak,
            format!("{} Sneak", keys.of(GameAction::Sneak)),
        ));
    }
    // Digimon and d20: a Skill Check, when a square beside this one has one it may make.
    if !view.skills.is_empty() {
        use crate::battle::command::SkillWay;
        let free = match session.intent {
            Intent::Skill {
                way: SkillWay::Interrupt,
            } => " (free: Interrupt)",
            Intent::Skill {
                way: SkillWay::TakeTen,
            } => " (Take 10)",
            _ => "",
        };
        items.push(mark(
            matches!(session.intent, Intent::Skill { .. }),
            format!("{} Use a Skill{free}", keys.of(GameAction::UseSkill)),
        ));
    }
    // d20: Drop prone, when this unit may, with what it would be paid with.
    let rules = session.battle.rules().clone();
    if let Some(f) = &me
        && let Some(d) = rules.d20()
        && session
            .battle
            .check(&crate::battle::command::Command::DropProne { who: f.id })
            .is_ok()
        && let Ok(how) = crate::battle::swift::check_drop_prone(d, f, true)
    {
        use crate::battle::swift::SwiftPay;
        let paid = match how {
            SwiftPay::Swift => "swift action",
            SwiftPay::MoveAction => "trades a Move action for a swift action",
            SwiftPay::AttackOfOpportunity => "trades the attack of opportunity for a swift action",
        };
        items.push(format!(
            "{} Drop prone ({paid})",
            keys.of(GameAction::DropProne)
        ));
    }
    // Digimon: the partner this one can let act now, in the turn they share.
    let partner = me
        .as_ref()
        .and_then(|f| f.digi.as_ref())
        .and_then(|d| d.partner);
    if let (Some(f), Some(p)) = (&me, partner)
        && session
            .battle
            .check(&crate::battle::command::Command::HandOver { who: f.id })
            .is_ok()
    {
        let name = session.names.get(&p).cloned().unwrap_or_default();
        items.push(format!(
            "{} Hand over to {name}",
            keys.of(GameAction::HandOver)
        ));
    }
    items.extend([
        format!("{} End turn", keys.of(GameAction::EndTurn)),
        format!("{} Log", keys.of(GameAction::ToggleLog)),
    ]);
    let undoable = session.battle.undoable().len();
    if undoable > 0 {
        items.push(format!("{} Undo ({undoable})", keys.of(GameAction::Undo)));
    }
    let redoable = session.battle.redoable().len();
    if redoable > 0 {
        items.push(format!("{} Redo ({redoable})", keys.of(GameAction::Redo)));
    }
    let mut second = String::new();
    if let Some(n) = &session.notice {
        second = format!("! {n}\n");
    }
    if !unavailable.is_empty() {
        second.push_str(&format!("Greyed: {}", unavailable.join("  |  ")));
    }
    (items.join("  "), second)
}

/// The combat log's last lines, or older ones when scrolled back `back` lines (the first line
/// then says where in the log it is).
fn log_text(session: &mut Session, expanded: bool, back: usize, keys: &Keys) -> String {
    let dice_hint = format!("({}: dice)", keys.of(GameAction::ToggleLog));
    let names = session.names.clone();
    let events = session.battle.events();
    let lines: Vec<String> = events
        .iter()
        .filter(|e| !matches!(e, BattleEvent::ActionsRefreshed { .. }))
        .map(|e| {
            let full = e.describe(&names);
            let is_roll = matches!(
                e,
                BattleEvent::StrikeRolled { .. }
                    | BattleEvent::DefenseRolled { .. }
                    | BattleEvent::WoundRolled { .. }
                    | BattleEvent::InitiativeRolled { .. }
                    | BattleEvent::SteadfastRolled { .. }
                    | BattleEvent::CheckRolled { .. }
            );
            // A check's outcome stays on the short line: only its dice are folded away.
            let outcome = match e {
                BattleEvent::CheckRolled { target, passed, .. } => format!(
                    " against TN {target} -> {}.",
                    if *passed { "success" } else { "failure" }
                ),
                _ => String::new(),
            };
            match (is_roll, expanded, full.split_once(" = ")) {
                (true, false, Some((head, _))) => format!("{head}{outcome}  {dice_hint}"),
                _ => full,
            }
        })
        .collect();
    let keep = if expanded { 5 } else { 7 };
    let end = lines.len().saturating_sub(back).max(keep.min(lines.len()));
    let start = end.saturating_sub(keep);
    let shown = lines[start..end].join("\n");
    if end < lines.len() {
        format!(
            "-- log lines {}-{} of {} ({} older, {} newer) --\n{shown}",
            start + 1,
            end,
            lines.len(),
            keys.of(GameAction::LogOlder),
            keys.of(GameAction::LogNewer)
        )
    } else {
        shown
    }
}

/// The question a human unit must answer now, with the odds of each answer.
fn prompt_text(session: &mut Session, view: &BattleView, keys: &Keys) -> Option<String> {
    if session.handoff.is_some() {
        return None;
    }
    let (who, decision, _) = session.human_to_act()?;
    let name = session.names.get(&who).cloned().unwrap_or_default();
    match decision? {
        Decision::Defense { attacker, .. } => {
            let an = session.names.get(&attacker).cloned().unwrap_or_default();
            let mut s = format!("{name} is attacked by {an}. Defend:\n");
            let (first, second) = defense_names(session.battle.rules());
            if let Some([take, block]) = view.defense_odds.as_deref()
                && session.battle.rules().stages().is_some()
            {
                s.push_str(&format!(
                    "{}  {}\n{}  {}",
                    keys.of(GameAction::Dodge),
                    stage_target_line(&name, first, take),
                    keys.of(GameAction::Parry),
                    stage_target_line(&name, second, block),
                ));
            } else if let Some(answers) = &view.defense_odds {
                let rules = session.battle.rules().clone();
                let lines: Vec<String> = answers
                    .iter()
                    .map(|o| {
                        let (key, what) = answer_key(&rules, o.defense, keys);
                        let d20 = rules.d20().is_some();
                        let what = if d20 && o.defense == DefenseChoice::Take {
                            what
                        } else if d20 && o.defense == DefenseChoice::DropProne {
                            // No roll: the shot's DC rises.
                            let dc: i64 = o
                                .difficulty
                                .iter()
                                .flat_map(|d| &d.terms)
                                .filter_map(|t| t.value)
                                .sum();
                            format!("{what}: DC {dc}")
                        } else if d20 {
                            // This defender's own roll (a Deflecting Parry rolls DEX, a sai
                            // adds 1…), from the same summary the odds come from.
                            let terms: Vec<String> = o
                                .defense_roll
                                .terms
                                .iter()
                                .map(|t| match (&t.die, t.value) {
                                    (Some(d), _) => d.clone(),
                                    (None, Some(v)) => format!("{} {v:+}", t.label),
                                    _ => t.label.clone(),
                                })
                                .collect();
                            format!("{} ({})", what, terms.join(", "))
                        } else if rules.action_points().is_some() {
                            shinobi_answer(&rules, o.defense, what)
                        } else {
                            what
                        };
                        format!(
                            "{key}  {what}: hit {}  |  mean damage {:.1}  |  defeat {}",
                            pct(o.hit_chance),
                            o.expected_damage,
                            pct(o.defeat_chance)
                        )
                    })
                    .collect();
                s.push_str(&lines.join("\n"));
                if let Some(p) = session.battle.counter_preview() {
                    let chances: Vec<String> = p
                        .chances
                        .iter()
                        .map(|(c, x)| format!("{} {}", c.name().to_lowercase(), pct(*x)))
                        .collect();
                    s.push_str(&format!(
                        "\n{}  [{}] counter with {} ({} AP, {} chakra, spent even if hit): evade and hit back for {}: {}",
                        keys.of(GameAction::Counter),
                        if session.counter { "x" } else { " " },
                        p.counter.name,
                        p.counter.ap,
                        p.counter.chakra,
                        p.damage,
                        chances.join(", ")
                    ));
                }
            }
            Some(s)
        }
        Decision::Exploit { mover, .. } if session.battle.rules().d20().is_some() => {
            let mn = session.names.get(&mover).cloned().unwrap_or_default();
            Some(format!(
                "{mn} shoots within your reach: {name} may make the round's one attack of opportunity first.\n{}: strike (best melee attack)  |  {}: let it go",
                keys.of(GameAction::Confirm),
                keys.of(GameAction::Cancel)
            ))
        }
        Decision::Exploit { mover, .. } if session.battle.rules().action_points().is_some() => {
            let mn = session.names.get(&mover).cloned().unwrap_or_default();
            let ap = session
                .battle
                .rules()
                .action_points()
                .map_or(1, |d| d.combat.opportunity_cost);
            Some(format!(
                "{mn} provokes an opportunity attack from {name} ({ap} AP; a hit on a runner stops it where it entered your reach).\n{}: strike (best melee attack)  |  {}: let it go",
                keys.of(GameAction::Confirm),
                keys.of(GameAction::Cancel)
            ))
        }
        Decision::Exploit { mover, .. } => {
            let mn = session.names.get(&mover).cloned().unwrap_or_default();
            Some(format!(
                "{mn} leaves {name}'s reach. Exploit with a Basic Attack (a Counter Action)?\n{}: yes (best attack)  |  {}: no",
                keys.of(GameAction::Confirm),
                keys.of(GameAction::Cancel)
            ))
        }
        Decision::Intercede {
            target, attacker, ..
        } => {
            let an = session.names.get(&attacker).cloned().unwrap_or_default();
            let tn = session.names.get(&target).cloned().unwrap_or_default();
            Some(format!(
                "{an}'s attack is about to hit {tn}. {name} may Intercede (once a round): move between them and take the hit itself, with its own Armor and no Dodge.\n{}: Intercede  |  {}: let it hit",
                keys.of(GameAction::Confirm),
                keys.of(GameAction::Cancel)
            ))
        }
        Decision::Response { attacker, .. } => {
            let an = session.names.get(&attacker).cloned().unwrap_or_default();
            Some(format!(
                "{an} attacks. {name} may use an Instant first.\n{}: Healing Surge  |  {}: pass",
                keys.of(GameAction::Confirm),
                keys.of(GameAction::Cancel)
            ))
        }
    }
}
