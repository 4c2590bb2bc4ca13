//! The end-of-battle screen: who won and after how many rounds, damage per unit, a summary of
//! the rolls; keep the battle as a replay, play again (or watch a replay again) or go back to
//! the title.

use bevy::prelude::*;

use leafwing_input_manager::prelude::ActionState;

use super::input::{Controls, GameAction, InputProfile, PlayerInput};
use super::session::Session;
use super::{DataDir, Screen, palette};
use crate::battle::event::BattleEvent;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::End), spawn_end_screen)
        .add_systems(
            Update,
            (
                press_end_buttons,
                keep_replay,
                choose_after_battle,
                draw_replay_note,
            )
                .chain()
                .run_if(in_state(Screen::End)),
        );
}

/// What became of the replay of this battle: kept where, or why not.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplayNote(pub Option<String>);

/// The end screen's line about the replay.
#[derive(Component)]
struct ReplayNoteText;

/// A button of the end screen: a click gives its action to the menus as its key would.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndButton(pub GameAction);

/// A click on an end-screen button presses its action on the menus' controls for this frame,
/// before the systems that read the keys: one path for the key, the pad and the mouse.
fn press_end_buttons(
    buttons: Query<(&Interaction, &EndButton), Changed<Interaction>>,
    mut controls: Query<(&Controls, &mut ActionState<GameAction>)>,
) {
    let Some(action) = buttons
        .iter()
        .find(|(i, _)| **i == Interaction::Pressed)
        .map(|(_, b)| b.0)
    else {
        return;
    };
    for (c, mut state) in &mut controls {
        if c.0 == InputProfile::Any {
            state.press(&action);
        }
    }
}

/// A clickable row entry of the end screen saying what its action does and its key.
fn end_button(action: GameAction, words: String) -> impl Bundle {
    (
        EndButton(action),
        Button,
        Node {
            padding: UiRect::axes(px(14), px(5)),
            border: UiRect::all(px(2)),
            ..default()
        },
        BorderColor::all(palette::ACCENT),
        BackgroundColor(palette::PANEL),
        children![(
            Text::new(words),
            TextFont::from_font_size(18.0),
            TextColor(palette::TEXT),
        )],
    )
}

/// The Quick Save key (F5 unless rebound) on the end screen keeps the battle as a replay in
/// the data directory.
fn keep_replay(
    input: PlayerInput,
    session: Option<Res<Session>>,
    dir: Res<DataDir>,
    mut note: ResMut<ReplayNote>,
) {
    let (Some(actions), Some(session)) = (input.any(), session) else {
        return;
    };
    if !actions.just_pressed(&GameAction::QuickSave) || session.replay.is_some() {
        return;
    }
    if note
        .0
        .as_ref()
        .is_some_and(|n| n.starts_with("Replay kept"))
    {
        return;
    }
    let kept = session
        .capture(crate::save::SaveKind::Replay)
        .map_err(|e| e.to_string())
        .and_then(|r| crate::save::slots::keep_replay(&dir.0, &r).map_err(|e| e.to_string()));
    note.0 = Some(match kept {
        Ok(path) => format!(
            "Replay kept: {} (watch it from Load, or `gridclash replay FILE`)",
            path.display()
        ),
        Err(e) => format!("Could not keep the replay: {e}"),
    });
}

/// The line about the replay, and the Keep button while there is one to keep.
fn draw_replay_note(
    note: Res<ReplayNote>,
    session: Option<Res<Session>>,
    mut text: Query<&mut Text, With<ReplayNoteText>>,
    mut buttons: Query<(&EndButton, &mut Node)>,
) {
    let watching = session.is_some_and(|s| s.replay.is_some());
    let kept = note
        .0
        .as_ref()
        .is_some_and(|n| n.starts_with("Replay kept"));
    let want = match &note.0 {
        Some(n) => n.clone(),
        None if watching => "End of the replay.".into(),
        None => String::new(),
    };
    for mut t in &mut text {
        if t.0 != want {
            t.0.clone_from(&want);
        }
    }
    let display = if watching || kept {
        Display::None
    } else {
        Display::Flex
    };
    for (b, mut node) in &mut buttons {
        if b.0 == GameAction::QuickSave && node.display != display {
            node.display = display;
        }
    }
}

/// The end screen's text, from the session's result, statistics and event log.
pub fn summary(session: &mut Session) -> String {
    let sides = session.loaded.scenario.sides.clone();
    let (winner, rounds) = match session.battle.outcome() {
        Some(o) => (o.winner, o.round),
        None => (None, session.battle.turn().round),
    };
    let mut out = match winner {
        Some(s) => format!(
            "{} wins after {rounds} round(s)\n\n",
            sides
                .get(usize::from(s.0))
                .map_or("A side", |d| d.name.as_str())
        ),
        None => format!("A draw after {rounds} round(s)\n\n"),
    };
    let stats = session.battle.stats();
    let fighters = session.fighters();
    out.push_str("Unit                 Side          Dealt  Taken  Life\n");
    for f in &fighters {
        let s = stats.combatants.get(&f.id);
        out.push_str(&format!(
            "{:<20} {:<13} {:>5}  {:>5}  {}\n",
            f.identity.name.chars().take(20).collect::<String>(),
            sides
                .get(usize::from(f.side.0))
                .map_or("", |d| d.name.as_str())
                .chars()
                .take(13)
                .collect::<String>(),
            s.map_or(0, |s| s.damage_dealt.total()),
            s.map_or(0, |s| s.damage_taken),
            if f.defeated() {
                "defeated".to_string()
            } else {
                format!("{}/{}", f.life.current, f.life.max)
            }
        ));
    }
    let (mut rolls, mut crits, mut botches, mut hits, mut misses) = (0, 0, 0, 0, 0);
    for e in session.battle.events() {
        match e {
            BattleEvent::StrikeRolled { roll, .. }
            | BattleEvent::DefenseRolled { roll, .. }
            | BattleEvent::WoundRolled { roll, .. }
            | BattleEvent::InitiativeRolled { roll, .. } => {
                rolls += 1;
                crits += usize::from(roll.critical);
                botches += usize::from(roll.botch);
            }
            BattleEvent::Clash { hit, .. } | BattleEvent::D20Check { hit, .. } => {
                if *hit {
                    hits += 1
                } else {
                    misses += 1
                }
            }
            _ => {}
        }
    }
    out.push_str(&format!(
        "\nRolls: {rolls} ({crits} critical, {botches} botched)  |  attacks: {hits} hit, {misses} missed\n"
    ));
    out
}

fn spawn_end_screen(
    mut commands: Commands,
    mut session: ResMut<Session>,
    settings: Res<super::Settings>,
) {
    commands.insert_resource(ReplayNote::default());
    let text = summary(&mut session);
    let key = |a: GameAction| settings.key_of(a);
    let again = if session.replay.is_some() {
        "Watch again"
    } else {
        "Play again (next seed)"
    };
    let buttons = [
        (
            GameAction::QuickSave,
            format!("Keep as a replay ({})", key(GameAction::QuickSave)),
        ),
        (
            GameAction::Confirm,
            format!("{again} ({})", key(GameAction::Confirm)),
        ),
        (
            GameAction::Cancel,
            format!("Back to title ({})", key(GameAction::Cancel)),
        ),
    ];
    commands
        .spawn(super::screen_root("End screen", Screen::End, 16.0))
        .with_children(|root| {
            root.spawn((
                Text::new("Battle over"),
                crate::gui::fonts::heading(40.0),
                TextColor(palette::ACCENT),
            ));
            // The table's columns line up only in a face whose every glyph has one width.
            root.spawn((
                Text::new(text),
                crate::gui::fonts::mono(15.0),
                TextColor(palette::TEXT),
            ));
            root.spawn((
                ReplayNoteText,
                Text::new(""),
                TextFont::from_font_size(16.0),
                TextColor(palette::ACCENT),
            ));
            root.spawn(Node {
                column_gap: px(12),
                ..default()
            })
            .with_children(|row| {
                for (action, words) in buttons {
                    row.spawn(end_button(action, words));
                }
            });
        });
}

fn choose_after_battle(
    input: PlayerInput,
    session: Option<Res<Session>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(actions) = input.any() else {
        return;
    };
    if actions.just_pressed(&GameAction::Confirm) {
        if let Some(s) = session {
            let mut spec = s.spec.clone();
            spec.seed = spec.seed.wrapping_add(1);
            let again = match &s.replay {
                Some(r) => Session::watch(&r.path),
                None => Session::start(spec),
            };
            match again {
                Ok(new) => {
                    commands.insert_resource(new);
                    next.set(Screen::Battle);
                }
                Err(e) => {
                    warn!("could not start again: {e}");
                    next.set(Screen::Title);
                }
            }
        }
    } else if actions.just_pressed(&GameAction::Cancel) {
        commands.remove_resource::<Session>();
        next.set(Screen::Title);
    }
}
