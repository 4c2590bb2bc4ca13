//! The power-stages aim panel and defense prompt: what a card costs in stages and what taking
//! or blocking it does to each target (no roll: the Physical Attack Table decides).

use crate::battle::aim::{AimContext, AimOption, AimView, stage_target_line};
use crate::battle::command::DefenseChoice;
use crate::battle::odds::TargetOdds;
use crate::ruleset::stages::FINAL_PHYSICAL;

/// The two answers as this game names them.
pub fn answer_name(choice: DefenseChoice) -> String {
    match choice {
        DefenseChoice::Dodge => "Take it".into(),
        DefenseChoice::Parry | DefenseChoice::Block => "Block (plays a defense card)".into(),
        other => other.name().into(),
    }
}

/// The panel: the card's stage cost, each target taking or blocking it, and what it takes.
pub fn aim_view(a: &AimContext) -> AimView {
    let p = a.preview;
    let mut lines = Vec::new();
    for answers in &p.odds.targets {
        let [take, block] = answers.as_slice() else {
            continue;
        };
        let tname = a.name(take.target);
        lines.push(stage_target_line(&tname, "takes it", take));
        lines.push(stage_target_line(&tname, "blocks", block));
    }
    let taken: Vec<String> = p
        .odds
        .wound
        .terms
        .iter()
        .map(|t| format!("{:+} {}", t.value.unwrap_or(0), t.label))
        .collect();
    let mut head = format!(
        "{}: costs {} power stage(s); no roll",
        p.odds.maneuver, p.ki_cost
    );
    let mut option = AimOption::None;
    if a.order.profile == FINAL_PHYSICAL
        && let Some(data) = a.rules.stages()
        && let Some(me) = a.fighter(a.order.attacker)
        && let Some(cards) = &me.cards
    {
        let choices = super::discard_choices(data, me);
        if let Some(card) = super::discarded(cards, a.order)
            && let Some(index) = choices.iter().position(|(id, _)| *id == card)
        {
            head = format!(
                "{}: discards {}; no roll",
                p.odds.maneuver,
                super::card_name(data, &card)
            );
            option = AimOption::Discard {
                index,
                of: choices.len(),
            };
        }
    }
    AimView {
        rolls: vec![format!("Takes: {}", taken.join(", "))],
        head,
        option,
        lines,
    }
}

/// The defense prompt's lines: taking the attack and blocking it, each with its outcome.
pub fn defense_lines(name: &str, answers: &[TargetOdds]) -> Vec<(DefenseChoice, String)> {
    answers
        .iter()
        .map(|o| {
            let how = answer_name(o.defense);
            (o.defense, stage_target_line(name, &how, o))
        })
        .collect()
}
