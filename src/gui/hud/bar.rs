//! The action bar: what the acting unit can do now, with its key and cost.

use bevy::prelude::*;

use super::Keys;
use super::odds::answer_key;
use crate::battle::command::{Decision, DefenseChoice};
use crate::gui::input::GameAction;
use crate::gui::session::{Intent, Session};
use crate::gui::view::BattleView;

pub(super) fn action_bar_text(
    session: &mut Session,
    view: &BattleView,
    keys: &Keys,
) -> (String, String) {
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
        && view.defense_odds.is_some()
    {
        let answers: Vec<String> = view
            .defense_odds
            .iter()
            .flatten()
            .map(|o| {
                format!(
                    "{} {}",
                    answer_key(o.defense, keys),
                    session.battle.answer_name(o.defense)
                )
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
        let first = session.battle.answer_name(DefenseChoice::Dodge);
        let second = session.battle.answer_name(DefenseChoice::Parry);
        return (
            format!(
                "Answer the question in the right-hand panel ({} {first} / {} {}, or {} / {})",
                keys.of(GameAction::Dodge),
                keys.of(GameAction::Parry),
                second.split(" (").next().unwrap_or(&second),
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
    let offers = session.battle.offers();
    let bar = session.battle.bar_view(who);
    let mark = |on: bool, s: String| if on { format!("[{s}]") } else { s };
    let move_label = format!(
        "{} {}",
        keys.of(GameAction::Move),
        bar.as_ref().map_or("Move", |b| b.moves.as_str())
    );
    let mut items = Vec::new();
    if let Some(points) = bar.as_ref().and_then(|b| b.points) {
        items.push(format!("AP {points}:"));
    }
    items.push(mark(
        session.intent == Intent::Move { boosted: false },
        move_label,
    ));
    if offers.boosted_move {
        items.push(mark(
            session.intent == Intent::Move { boosted: true },
            format!("{} Boosted", keys.of(GameAction::BoostedMove)),
        ));
    }
    let slots = &view.slots;
    // Each reason once, with every maneuver it greys out (charging greys out all the others).
    let mut unavailable: Vec<(String, Vec<String>)> = Vec::new();
    for (i, s) in slots.iter().enumerate() {
        let key = GameAction::SLOTS
            .get(i)
            .map_or("-".to_string(), |a| keys.of(*a).to_string());
        let label = format!("{key} {}{}", s.name, s.cost);
        if let Some(e) = &s.refusal {
            let why = session.describe_error(e);
            let short = why.split(" (").next().unwrap_or(&why);
            match unavailable.iter_mut().find(|(r, _)| r == short) {
                Some((_, names)) => names.push(s.name.clone()),
                None => unavailable.push((short.to_string(), vec![s.name.clone()])),
            }
            items.push(format!("({label})"));
        } else {
            items.push(mark(session.intent == Intent::Attack { slot: i }, label));
        }
    }
    // A charging unit may not Power Up or recover until it makes the charged attack.
    let charging = bar
        .as_ref()
        .and_then(|b| b.charge.as_ref())
        .is_some_and(|c| c.held.is_some());
    if offers.power_up && !charging {
        items.extend([
            format!("{} Power Up", keys.of(GameAction::PowerUp)),
            format!("{} Recover", keys.of(GameAction::Recover)),
        ]);
    }
    if offers.sneak {
        items.push(mark(
            session.sneak,
            format!("{} Sneak", keys.of(GameAction::Sneak)),
        ));
    }
    // DBU: the Called Shot's body part for the next attack, while this round's is unused.
    if !session.called_shot_parts().is_empty() && me.as_ref().is_some_and(|f| !f.round.called_shot)
    {
        let part = session.called_shot_name();
        items.push(mark(
            part.is_some(),
            format!(
                "{} Called Shot: {}",
                keys.of(GameAction::CalledShot),
                part.unwrap_or_else(|| "off".to_string())
            ),
        ));
    }
    // DBU: the ally that joins the next attack with a United Attack, while one stands beside.
    if !session.united_allies().is_empty() {
        items.push(mark(
            session.united.is_some(),
            format!(
                "{} United Attack: {}",
                keys.of(GameAction::UnitedAttack),
                session.united_name()
            ),
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
    // Dropping prone (d20), when this unit may, with what it would be paid with.
    if let Some(paid) = bar.as_ref().and_then(|b| b.drop_prone) {
        items.push(format!(
            "{} Drop prone ({paid})",
            keys.of(GameAction::DropProne)
        ));
    }
    // DBU: the maneuvers against conditions, when they are legal now.
    if let Some(b) = &bar {
        if b.stand_up {
            items.push(format!("{} Stand up", keys.of(GameAction::StandUp)));
        }
        if b.cure_poison {
            items.push(format!("{} Cure poison", keys.of(GameAction::CurePoison)));
        }
        if let Some((_, name)) = &b.end_condition {
            items.push(format!("{} End {name}", keys.of(GameAction::EndCondition)));
        }
        if let Some(p) = b.arrogant_declaration {
            items.push(format!(
                "{} Arrogant Declaration (Superiority, then -{p})",
                keys.of(GameAction::ArrogantDeclaration)
            ));
        }
        let empowering = match session.intent {
            Intent::Empower { full: true, .. } => Some("Full Empowerment".to_string()),
            Intent::Empower { actions: 1, .. } => Some("Empower: 1 Action".to_string()),
            Intent::Empower { actions, .. } => Some(format!("Empower: {actions} Actions")),
            _ => None,
        };
        if b.empower || empowering.is_some() {
            items.push(mark(
                empowering.is_some(),
                format!(
                    "{} {}",
                    keys.of(GameAction::Empower),
                    empowering.unwrap_or_else(|| "Empower an ally".to_string())
                ),
            ));
        }
        let grappling = match session.intent {
            Intent::Grapple { act } => Some(act),
            _ => None,
        };
        if !b.grapple.is_empty() || grappling.is_some() {
            let what = match grappling {
                Some(crate::battle::command::GrappleAct::Escape { actions }) => {
                    format!(
                        "Escape: {actions} Action{}",
                        if actions == 1 { "" } else { "s" }
                    )
                }
                Some(act) => act.name().to_string(),
                None => b
                    .grapple
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join("/"),
            };
            items.push(mark(
                grappling.is_some(),
                format!("{} {what}", keys.of(GameAction::Grapple)),
            ));
        }
        if let Some(p) = b.hide {
            items.push(format!(
                "{} Hide ({}.{}% unseen)",
                keys.of(GameAction::Hide),
                p / 10,
                p % 10
            ));
        }
        if let Some(c) = &b.charge {
            let key = keys.of(GameAction::EnergyCharge);
            match &c.held {
                Some((name, n)) => {
                    if c.again {
                        items.push(format!("{key} Charge {name} again ({n} held, {}Ki)", c.ki));
                    }
                    items.push(format!(
                        "{} Cancel charge",
                        keys.of(GameAction::CancelCharge)
                    ));
                }
                None => items.push(format!("{key} Charge the aimed attack ({}Ki)", c.ki)),
            }
        }
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
        let lines: Vec<String> = unavailable
            .iter()
            .map(|(why, names)| format!("{}: {why}", names.join(", ")))
            .collect();
        second.push_str(&format!("Greyed: {}", lines.join("  |  ")));
    }
    (items.join("  "), second)
}
