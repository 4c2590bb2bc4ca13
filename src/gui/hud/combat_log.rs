//! The combat log panel and the prompt line: what just happened and what is asked of a player;
//! the mouse wheel over the panel scrolls the log, and `/` filters it (attacks, health and
//! conditions, moves, or the lines about the unit the panel shows).

use bevy::prelude::*;

use super::Keys;
pub use super::log_filter::LogFilter;
use super::odds::answer_key;
use crate::battle::aim::pct;
use crate::battle::command::Decision;
use crate::battle::event::BattleEvent;
use crate::gui::input::GameAction;
use crate::gui::session::Session;
use crate::gui::view::BattleView;

/// The bottom panel (action bar and log): the wheel over it scrolls the log.
#[derive(Component)]
pub(super) struct LogPanel;

/// The mouse wheel over the bottom panel scrolls the log back (up) and forward (down), a line
/// a notch, as `[` and `]` do three at a time.
pub(super) fn scroll_log_with_wheel(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    panel: Query<&bevy::ui::RelativeCursorPosition, With<LogPanel>>,
    session: Res<Session>,
    mut ui: ResMut<crate::gui::control::BattleUi>,
) {
    let notches: f32 = wheel.read().map(|w| w.y.signum()).sum();
    if notches == 0.0 || ui.paused || !panel.single().is_ok_and(|p| p.cursor_over()) {
        return;
    }
    let lines = notches.abs() as usize;
    ui.log_back = if notches > 0.0 {
        (ui.log_back + lines).min(session.battle.events().len())
    } else {
        ui.log_back.saturating_sub(lines)
    };
}

/// The filter key steps the log's filter (not under the pause menu or help).
pub(super) fn cycle_log_filter(
    input: crate::gui::input::PlayerInput,
    mut ui: ResMut<crate::gui::control::BattleUi>,
) {
    if ui.paused {
        return;
    }
    if input
        .any()
        .is_some_and(|a| a.just_pressed(&GameAction::LogFilter))
    {
        ui.log_filter = ui.log_filter.next();
        ui.log_back = 0;
    }
}

/// The combat log's last lines, or older ones when scrolled back `back` lines (the first line
/// then says where in the log it is).
pub(super) fn log_text(
    session: &mut Session,
    ui: &crate::gui::control::BattleUi,
    unit: &str,
    keys: &Keys,
) -> String {
    let (expanded, back, filter) = (ui.log_expanded, ui.log_back, ui.log_filter);
    let dice_hint = format!("({}: dice)", keys.of(GameAction::ToggleLog));
    let names = session.names.clone();
    let viewer = session.viewer();
    let all = session.battle.fighters();
    let unseen = |who| viewer.is_some_and(|side| crate::battle::hide::hidden_from(&all, who, side));
    let events = session.battle.events();
    let lines: Vec<String> = events
        .iter()
        .filter(|e| !matches!(e, BattleEvent::ActionsRefreshed { .. }))
        .map(|e| (e, e.describe(&names)))
        .filter(|(e, full)| filter.keeps(e, full, unit))
        .map(|(e, full)| {
            // A Hidden opponent's moves say nothing of where it went.
            if let BattleEvent::Moved { who, .. } = e
                && unseen(*who)
            {
                return format!(
                    "{} moves, unseen.",
                    names.get(who).cloned().unwrap_or_default()
                );
            }
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
    let filtered = filter != LogFilter::All;
    let keep = if expanded { 5 } else { 7 } - usize::from(filtered);
    let end = lines.len().saturating_sub(back).max(keep.min(lines.len()));
    let start = end.saturating_sub(keep);
    let mut shown = lines[start..end].join("\n");
    if filtered {
        shown = format!(
            "-- log: {} ({} lines; {}: next filter) --\n{shown}",
            filter.words(unit),
            lines.len(),
            keys.of(GameAction::LogFilter)
        );
    }
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
pub(super) fn prompt_text(session: &mut Session, view: &BattleView, keys: &Keys) -> Option<String> {
    if session.handoff.is_some() {
        return None;
    }
    let (who, decision, _) = session.human_to_act()?;
    let name = session.names.get(&who).cloned().unwrap_or_default();
    match decision? {
        Decision::Defense { attacker, .. } => {
            let an = session.names.get(&attacker).cloned().unwrap_or_default();
            let mut s = format!("{name} is attacked by {an}. Defend:\n");
            if let Some(note) = session.battle.answers_note(who) {
                s.push_str(&format!("{note}\n"));
            }
            if let Some(answers) = &view.defense_odds {
                let lines: Vec<String> = session
                    .battle
                    .defense_lines(&name, answers)
                    .into_iter()
                    .map(|(choice, line)| format!("{}  {line}", answer_key(choice, keys)))
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
        Decision::Exploit { mover, .. } => {
            let p = session.battle.exploit_prompt(mover, who);
            Some(format!(
                "{}\n{}: {}  |  {}: {}",
                p.question,
                keys.of(GameAction::Confirm),
                p.accept,
                keys.of(GameAction::Cancel),
                p.decline
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::control::BattleUi;
    use crate::gui::session::BattleSpec;
    use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
    use bevy::ui::RelativeCursorPosition;

    /// An app with a skirmish battle, the wheel system and a bottom panel the mouse is over
    /// or not.
    fn app(over: bool) -> App {
        let session = Session::start(BattleSpec {
            scenario: "skirmish".into(),
            seed: 1,
            sides: Vec::new(),
            auto_defense: false,
        })
        .expect("skirmish starts");
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<MouseWheel>()
            .insert_resource(session)
            .init_resource::<BattleUi>()
            .add_systems(Update, scroll_log_with_wheel);
        app.world_mut().spawn((
            LogPanel,
            RelativeCursorPosition {
                cursor_over: over,
                normalized: None,
            },
        ));
        app
    }

    fn roll(app: &mut App, y: f32) {
        app.world_mut().write_message(MouseWheel {
            unit: MouseScrollUnit::Line,
            x: 0.0,
            y,
            window: Entity::PLACEHOLDER,
            phase: bevy::input::touch::TouchPhase::Moved,
        });
        app.update();
    }

    #[test]
    fn the_wheel_over_the_bottom_panel_scrolls_the_log_a_line_a_notch() {
        let mut app = app(true);
        roll(&mut app, 1.0);
        roll(&mut app, 1.0);
        assert_eq!(app.world().resource::<BattleUi>().log_back, 2);
        roll(&mut app, -1.0);
        assert_eq!(app.world().resource::<BattleUi>().log_back, 1);
    }

    #[test]
    fn the_wheel_elsewhere_leaves_the_log_alone() {
        let mut app = app(false);
        roll(&mut app, 1.0);
        assert_eq!(app.world().resource::<BattleUi>().log_back, 0);
    }
}
