//! The end-of-battle screen: who won and after how many rounds, damage per unit, a summary of
//! the rolls, and play again or back to the title.

use bevy::prelude::*;

use super::input::{GameAction, PlayerInput};
use super::session::Session;
use super::{Screen, palette};
use crate::battle::event::BattleEvent;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::End), spawn_end_screen)
        .add_systems(Update, choose_after_battle.run_if(in_state(Screen::End)));
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
            BattleEvent::Clash { hit, .. } => {
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

fn spawn_end_screen(mut commands: Commands, mut session: ResMut<Session>) {
    let text = summary(&mut session);
    commands
        .spawn(super::screen_root("End screen", Screen::End, 16.0))
        .with_children(|root| {
            root.spawn((
                Text::new("Battle over"),
                TextFont::from_font_size(40.0),
                TextColor(palette::ACCENT),
            ));
            root.spawn((
                Text::new(text),
                TextFont::from_font_size(16.0),
                TextColor(palette::TEXT),
            ));
            root.spawn((
                Text::new("Enter: play again (next seed)    Esc: back to title"),
                TextFont::from_font_size(18.0),
                TextColor(palette::TEXT_DIM),
            ));
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
            match Session::start(spec) {
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
