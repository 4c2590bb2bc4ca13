//! The combat log panel and the prompt line: what just happened and what is asked of a player.

use bevy::prelude::*;

use super::Keys;
use super::odds::answer_key;
use crate::battle::aim::pct;
use crate::battle::command::Decision;
use crate::battle::event::BattleEvent;
use crate::gui::input::GameAction;
use crate::gui::session::Session;
use crate::gui::view::BattleView;

/// The combat log's last lines, or older ones when scrolled back `back` lines (the first line
/// then says where in the log it is).
pub(super) fn log_text(session: &mut Session, expanded: bool, back: usize, keys: &Keys) -> String {
    let dice_hint = format!("({}: dice)", keys.of(GameAction::ToggleLog));
    let names = session.names.clone();
    let viewer = session.viewer();
    let all = session.battle.fighters();
    let unseen = |who| viewer.is_some_and(|side| crate::battle::hide::hidden_from(&all, who, side));
    let events = session.battle.events();
    let lines: Vec<String> = events
        .iter()
        .filter(|e| !matches!(e, BattleEvent::ActionsRefreshed { .. }))
        .map(|e| {
            // A Hidden opponent's moves say nothing of where it went.
            if let BattleEvent::Moved { who, .. } = e
                && unseen(*who)
            {
                return format!(
                    "{} moves, unseen.",
                    names.get(who).cloned().unwrap_or_default()
                );
            }
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
