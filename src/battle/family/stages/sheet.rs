//! The stages family's unit sheet (see [`crate::battle::sheet`]).

use crate::battle::fighter::Fighter;
use crate::battle::sheet::{SheetContext, SheetSection, UnitSheet};
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
    let pools = SheetSection::new("Pools")
        .pool(&names.life, f.life.current, f.life.max)
        .pool(&names.stages, f.ki.current, f.ki.max)
        .cell("power", power)
        .cell("Speed", f.derived(ctx.rules).normal_speed);
    let mut turn = SheetSection::new("This turn");
    let mut hand_section = SheetSection::new("Cards");
    let mut status = SheetSection::new("Conditions");
    if let Some(cards) = &f.cards {
        let hand: Vec<String> = cards
            .hand
            .iter()
            .map(|(id, n)| {
                let name = crate::battle::family::stages::card_name(data, id);
                if *n > 1 { format!("{name} x{n}") } else { name }
            })
            .collect();
        turn = turn
            .cell(
                "move(s)",
                format!("{} of {}", f.round.moves, data.combat.turn.moves),
            )
            .cell(
                "attack(s)",
                format!(
                    "{} of {}",
                    cards.attacks_this_turn, data.combat.turn.attacks
                ),
            );
        turn = turn.cell(
            "Anger",
            format!("{} of {}", cards.anger, data.combat.anger.limit),
        );
        labels.push("Anger".into());
        if cards.level > 0 {
            turn = turn.cell(
                "Level",
                format!(
                    "{} (+{} on the table)",
                    cards.level,
                    crate::battle::family::stages::level_bonus(data, cards)
                ),
            );
            labels.push("Level".into());
        }
        if let Some(power) = crate::battle::family::stages::power_card(data, &f.identity.archetype)
        {
            let per = data.combat.personality_powers.per_round;
            let left = per.saturating_sub(cards.power_uses);
            hand_section = hand_section.line(format!(
                "Personality card power: {}, {left} of {per} use(s) left this round",
                power.name
            ));
            labels.extend(["Personality card power".to_string(), power.name.clone()]);
        }
        hand_section = hand_section
            .cell("Hand", cards.held())
            .cell("Deck", cards.deck.values().sum::<u32>())
            .cell("discarded", cards.discard.values().sum::<u32>())
            .line(if hand.is_empty() {
                "Holds no card".to_string()
            } else {
                format!("Holds {}", hand.join(", "))
            });
        labels.extend(["Hand", "Deck", "discarded", "move(s)", "attack(s)"].map(String::from));
        labels.extend(
            cards
                .hand
                .keys()
                .map(|id| crate::battle::family::stages::card_name(data, id)),
        );
        if cards.passed {
            labels.push(data.combat.final_physical.name.clone());
            status = status.line(format!(
                "Passed after a {}: no more attacks this round (blocks are allowed)",
                data.combat.final_physical.name
            ));
        }
    }
    if f.defeated() {
        status = status.line("DEFEATED (no life cards left)");
        labels.push("DEFEATED".into());
    }
    UnitSheet::new(
        f.identity.archetype.to_string(),
        vec![pools, turn, hand_section, status],
        labels,
    )
}
