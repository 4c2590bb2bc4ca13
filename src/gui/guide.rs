//! The guided first battle in the window: the scenario's prompts in a box along the board,
//! each replaced by the next once the player has done what it asks (see
//! [`crate::scenario::guide`]), with Next and Hide buttons so the mouse alone follows it.

use bevy::prelude::*;

use super::input::{GameAction, PlayerInput};
use super::session::Session;
use super::settings::key_label;
use super::view::BattleView;
use super::{Screen, Settings, fonts, palette};
use crate::battle::command::Decision;
use crate::battle::components::{CombatantId, Side};
use crate::scenario::guide::{GuideGoal, GuideInput, GuideProgress, fill_keys};

/// The guide of the battle on screen and how far the player has got.
#[derive(Resource, Debug, Clone, Default)]
pub struct GuideRun {
    /// The battle it follows (its start hash): another battle starts the guide again.
    battle: Option<u64>,
    pub progress: GuideProgress,
    /// The player's side and units: the first side a person plays.
    side: Option<Side>,
    mine: Vec<CombatantId>,
    /// The player closed the box (a button brings it back).
    pub hidden: bool,
    /// Next was clicked since the last update.
    next: bool,
    /// The prompt on screen, for drawing (`None`: the guide is over or there is none).
    pub shown: Option<usize>,
}

/// Headless: the guide follows the battle and the Confirm key reads on.
pub(super) fn logic_plugin(app: &mut App) {
    app.init_resource::<GuideRun>().add_systems(
        Update,
        follow_guide
            .after(super::redraw::ReadScreen)
            .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
    );
}

/// The window: the box, its text and its buttons.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (spawn_guide_box, press_guide_buttons, draw_guide)
            .chain()
            .after(follow_guide)
            .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
    );
}

/// Reads what the player did this frame into the guide's progress. The guide counts as
/// changed (and is drawn again) only when a prompt was learned or another one shows.
fn follow_guide(
    input: PlayerInput,
    mut session: ResMut<Session>,
    view: Res<BattleView>,
    ui: Res<super::control::BattleUi>,
    mut guide_run: ResMut<GuideRun>,
) {
    let run = guide_run.bypass_change_detection();
    let hash = session.battle.start_hash();
    let mut changed = false;
    if run.battle != Some(hash) {
        let side = session
            .controls
            .iter()
            .position(|c| c.is_human())
            .map(|s| Side(s as u8));
        let mine = session
            .fighters()
            .iter()
            .filter(|f| Some(f.side) == side)
            .map(|f| f.id)
            .collect();
        *run = GuideRun {
            battle: Some(hash),
            progress: GuideProgress::new(&session.loaded.scenario.guide),
            side,
            mine,
            ..GuideRun::default()
        };
        changed = true;
    }
    let asked = session.human_to_act();
    let defending = matches!(asked, Some((_, Some(Decision::Defense { .. }), _)));
    // The Confirm key reads on when nothing else wants it (no question, no hand-off, no menu).
    let confirm = !ui.paused
        && !ui.input_used
        && session.handoff.is_none()
        && !matches!(asked, Some((_, Some(_), _)))
        && input
            .of(session.input_profile())
            .is_some_and(|a| a.just_pressed(&GameAction::Confirm));
    let session = &*session;
    let guide = &session.loaded.scenario.guide;
    let shown = match run.side.filter(|_| !guide.is_empty()) {
        None => None,
        Some(side) => {
            let frame = GuideInput {
                aiming: view.aim.as_ref().is_some_and(|a| a.preview.is_ok()),
                next: std::mem::take(&mut run.next) || confirm,
                defending,
            };
            changed |= run
                .progress
                .update(guide, session.battle.events(), &run.mine, side, frame);
            // Once the battle is over the end screen speaks; a lesson the battle never
            // needed (no attack came) is not asked for any more.
            if session.battle.outcome().is_some() {
                None
            } else {
                run.progress.shown(guide, defending)
            }
        }
    };
    if shown != run.shown || changed {
        run.shown = shown;
        guide_run.set_changed();
    }
}

/// The guide box's parts.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
enum GuidePart {
    /// The box with the prompt.
    Panel,
    Heading,
    Body,
    /// The button that shows the box again once hidden.
    Reopen,
}

/// A button of the guide box.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum GuideButton {
    Next,
    Hide,
    Show,
}

/// The box along the bottom of the board (where it hides the fewest squares of a map the
/// camera centres), and the small button that brings it back; added to the board viewport
/// once it exists.
fn spawn_guide_box(
    mut commands: Commands,
    viewport: Query<Entity, Added<super::board::BoardViewport>>,
) {
    let Some(board) = viewport.iter().next() else {
        return;
    };
    let button = |label: &str, which: GuideButton| {
        (
            which,
            Button,
            Node {
                padding: UiRect::axes(px(10), px(3)),
                border: UiRect::all(px(1)),
                justify_content: JustifyContent::Center,
                ..default()
            },
            BorderColor::all(palette::ACCENT),
            BackgroundColor(palette::PANEL_LIGHT),
            children![(
                Text::new(label),
                TextFont::from_font_size(14.0),
                TextColor(palette::TEXT),
            )],
        )
    };
    commands.entity(board).with_children(|board| {
        board
            .spawn((
                Name::new("Guide"),
                GuidePart::Panel,
                super::board::CoversBoard,
                Node {
                    position_type: PositionType::Absolute,
                    bottom: px(6),
                    left: px(6),
                    right: px(6),
                    padding: UiRect::axes(px(10), px(6)),
                    border: UiRect::all(px(2)),
                    column_gap: px(12),
                    align_items: AlignItems::Center,
                    display: Display::None,
                    ..default()
                },
                BorderColor::all(palette::ACCENT),
                BackgroundColor(palette::PANEL.with_alpha(0.94)),
                GlobalZIndex(5),
            ))
            .with_children(|panel| {
                panel
                    .spawn(Node {
                        flex_direction: FlexDirection::Column,
                        flex_grow: 1.0,
                        flex_shrink: 1.0,
                        min_width: px(0),
                        row_gap: px(2),
                        ..default()
                    })
                    .with_children(|words| {
                        words.spawn((
                            GuidePart::Heading,
                            Text::new(""),
                            fonts::heading(14.0),
                            TextColor(palette::ACCENT),
                        ));
                        words.spawn((
                            GuidePart::Body,
                            Text::new(""),
                            TextFont::from_font_size(14.0),
                            TextColor(palette::TEXT),
                        ));
                    });
                panel
                    .spawn(Node {
                        flex_direction: FlexDirection::Column,
                        flex_shrink: 0.0,
                        row_gap: px(6),
                        ..default()
                    })
                    .with_children(|column| {
                        column.spawn(button("Next", GuideButton::Next));
                        column.spawn(button("Hide the guide", GuideButton::Hide));
                    });
            });
        board.spawn((
            Name::new("Guide reopen"),
            GuidePart::Reopen,
            super::board::CoversBoard,
            Node {
                position_type: PositionType::Absolute,
                bottom: px(6),
                left: px(6),
                display: Display::None,
                ..default()
            },
            GlobalZIndex(5),
            children![button("Show the guide", GuideButton::Show)],
        ));
    });
}

/// A click on Next, Hide or Guide.
fn press_guide_buttons(
    buttons: Query<(&Interaction, &GuideButton), Changed<Interaction>>,
    mut run: ResMut<GuideRun>,
) {
    for (interaction, which) in &buttons {
        if *interaction != Interaction::Pressed {
            continue;
        }
        match which {
            // Read by the next frame's `follow_guide`, which marks the guide changed.
            GuideButton::Next => run.bypass_change_detection().next = true,
            GuideButton::Hide => run.hidden = true,
            GuideButton::Show => run.hidden = false,
        }
    }
}

/// The prompt as the player reads it: its place in the guide and its text with the
/// player's own keys.
pub fn guide_text(
    session: &Session,
    run: &GuideRun,
    settings: &Settings,
) -> Option<(String, String)> {
    let guide = &session.loaded.scenario.guide;
    let i = run.shown?;
    let step = guide.get(i)?;
    let key_of = |name: &str| {
        settings
            .keys
            .iter()
            .find(|(a, _)| format!("{a:?}") == name)
            .and_then(|(_, k)| k.first())
            .map_or_else(|| name.to_string(), |k| key_label(*k))
    };
    let heading = format!(
        "{}: {} of {}",
        session.loaded.scenario.name,
        i + 1,
        guide.len()
    );
    Some((heading, fill_keys(&step.say, key_of)))
}

/// Shows the box with the prompt on screen, or the button that brings it back, or nothing.
#[allow(clippy::type_complexity)]
fn draw_guide(
    session: Res<Session>,
    run: Res<GuideRun>,
    settings: Res<Settings>,
    mut parts: Query<(&GuidePart, Option<&mut Node>, Option<&mut Text>)>,
    mut buttons: Query<(&GuideButton, &mut Node), Without<GuidePart>>,
) {
    if !run.is_changed() && !settings.is_changed() {
        return;
    }
    let text = guide_text(&session, &run, &settings);
    let waits_for_next = run
        .shown
        .and_then(|i| session.loaded.scenario.guide.get(i))
        .is_some_and(|s| s.until == GuideGoal::Next);
    let show_panel = text.is_some() && !run.hidden;
    let show_reopen = text.is_some() && run.hidden;
    for (part, node, body) in &mut parts {
        match part {
            GuidePart::Panel | GuidePart::Reopen => {
                let want = if (*part == GuidePart::Panel && show_panel)
                    || (*part == GuidePart::Reopen && show_reopen)
                {
                    Display::Flex
                } else {
                    Display::None
                };
                if let Some(mut node) = node
                    && node.display != want
                {
                    node.display = want;
                }
            }
            GuidePart::Heading | GuidePart::Body => {
                let want = text.as_ref().map_or_else(String::new, |(h, b)| {
                    if *part == GuidePart::Heading {
                        h.clone()
                    } else {
                        b.clone()
                    }
                });
                if let Some(mut t) = body
                    && t.0 != want
                {
                    t.0 = want;
                }
            }
        }
    }
    for (which, mut node) in &mut buttons {
        if *which == GuideButton::Next {
            let want = if waits_for_next {
                Display::Flex
            } else {
                Display::None
            };
            if node.display != want {
                node.display = want;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::guide::{GUIDE_KEYS, fill_keys};

    #[test]
    fn guide_every_key_name_a_prompt_may_use_is_a_bound_battle_action() {
        let keys = crate::gui::input::default_keys();
        for name in GUIDE_KEYS {
            assert!(
                keys.keys().any(|a| format!("{a:?}") == *name),
                "{name} is an action with a default key"
            );
        }
        let label = |name: &str| {
            keys.iter()
                .find(|(a, _)| format!("{a:?}") == name)
                .and_then(|(_, k)| k.first())
                .map(|k| crate::gui::settings::key_label(*k))
                .unwrap_or_default()
        };
        assert_eq!(fill_keys("press {Move}", label), "press M");
    }
}
