//! The stages family's unit sheet (see [`crate::battle::sheet`]).

use crate::battle::fighter::Fighter;
use crate::battle::sheet::{SheetContext, UnitSheet};
use crate::ruleset::stages::StageData;

/// The unit panel of a power-stages combatant: life cards, stage and power, the cards it holds
/// (its maneuvers), its deck and discard pile, and what is left of its turn.
pub fn unit_sheet(ctx: &SheetContext, f: &Fighter, data: &StageData) -> UnitSheet {
    let names = &data.combat.pool_names;
    let power = crate::battle::family::stages::power(data, f);
    let mut labels = vec![
        names.life.clone(),
        names.stages.clone(),
        "power".to_string(),
        "Speed".to_string(),
    ];
    let mut out = format!(
        "{} {}/{}   {} {}/{} (power {power})\nSpeed {}",
        names.life,
        f.life.current,
        f.life.max,
        names.stages,
        f.ki.current,
        f.ki.max,
        f.derived(ctx.rules).normal_speed,
    );
    if let Some(cards) = &f.cards {
        let hand: Vec<String> = cards
            .hand
            .iter()
            .map(|(id, n)| {
                let name = crate::battle::family::stages::card_name(data, id);
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
        labels.extend(["Hand", "Deck", "discarded", "move(s)", "attack(s)"].map(String::from));
        labels.extend(
            cards
                .hand
                .keys()
                .map(|id| crate::battle::family::stages::card_name(data, id)),
        );
        if cards.passed {
            labels.push(data.combat.final_physical.name.clone());
            out.push_str("\nPassed after a Final Physical Attack: no attacks or blocks this round");
        }
    }
    if f.defeated() {
        out.push_str("\nDEFEATED (no life cards left)");
        labels.push("DEFEATED".into());
    }
    UnitSheet {
        kind: f.identity.archetype.to_string(),
        side_note: String::new(),
        body: out,
        labels,
    }
}
