//! How `gridclash odds` words a power-stages attack: a what-if that puts the cards in the
//! hands, the stage cost, and the one outcome of taking the card and of blocking it (no roll:
//! the Physical Attack Table decides).

use bevy::prelude::World;

use crate::battle::command::DefenseChoice;
use crate::battle::components::{Cards, CombatantId, Identity};
use crate::battle::family::OddsWhatIf;
use crate::battle::odds_text::{OddsAsk, pct};
use crate::ruleset::stages::{FINAL_PHYSICAL, StageData};

/// Gives the attacker the card asked about if it does not hold it, and for `--defense block`
/// the target the matching defense card; returns what was assumed. An unknown card is an
/// error that lists the attacks.
pub fn what_if(data: &StageData, world: &mut World, q: &OddsWhatIf) -> Result<Vec<String>, String> {
    let kind = super::attack_kind(data, q.maneuver).ok_or_else(|| {
        let ids: Vec<&str> = q
            .rules
            .attacks
            .profiles
            .iter()
            .map(|p| p.id.as_str())
            .collect();
        format!(
            "unknown attack card `{}`; the attacks are: {}",
            q.maneuver,
            ids.join(", ")
        )
    })?;
    let mut notes = Vec::new();
    let block = kind
        .blocked_by()
        .and_then(|k| data.combat.cards.iter().find(|c| c.kind == k))
        .map(|c| c.id.clone());
    let mut cards = world.query::<(&CombatantId, &Identity, &mut Cards)>();
    for (id, who, mut cards) in cards.iter_mut(world) {
        if *id == q.attacker && q.maneuver != FINAL_PHYSICAL && cards.count(q.maneuver) == 0 {
            *cards.hand.entry(q.maneuver.to_string()).or_default() += 1;
            notes.push(format!("as if {} held {}", who.name, q.maneuver));
        }
        if *id == q.target && q.defense == DefenseChoice::Parry {
            let holds = cards.hand.keys().any(|c| {
                data.card(c)
                    .is_some_and(|d| Some(d.kind) == kind.blocked_by())
            });
            if let (false, Some(b)) = (holds, &block) {
                *cards.hand.entry(b.clone()).or_default() += 1;
                notes.push(format!("as if {} held {b}", who.name));
            }
        }
    }
    Ok(notes)
}

/// The text: the card's stage cost, its amount's terms, and both answers.
pub fn lines(ask: &OddsAsk) -> Vec<String> {
    let odds = &ask.preview.odds;
    let mut out = vec![format!(
        "{}, costs {} power stage(s){}",
        ask.who(),
        odds.ki_cost,
        if ask.what_if.is_empty() {
            String::new()
        } else {
            format!(" ({})", ask.what_if.join("; "))
        }
    )];
    for t in &odds.wound.terms {
        if let Some(v) = t.value {
            out.push(format!("      {v:>+6}  {}", t.label));
        }
    }
    let answer = |c: DefenseChoice| ask.answers.iter().find(|o| o.defense == c);
    for (title, o) in [
        ("Take it", answer(DefenseChoice::Dodge)),
        ("Block", answer(DefenseChoice::Parry)),
    ] {
        let Some(o) = o else {
            continue;
        };
        out.push(format!(
            "  {title}: {} ({}); loses {} power stage(s) and {} life card(s); defeats {}",
            if o.hit_chance > 0.0 {
                "lands"
            } else {
                "stopped"
            },
            o.automatic_hit.clone().unwrap_or_default(),
            o.stage_loss.unwrap_or(0),
            o.expected_damage,
            pct(o.defeat_chance)
        ));
    }
    out
}

/// The JSON: the stage cost, what was assumed, and the answer's outcome in stages and cards.
pub fn json(ask: &OddsAsk) -> serde_json::Value {
    let c = ask.chosen;
    serde_json::json!({
        "attacker": ask.names.get(&ask.attacker.id),
        "target": ask.names.get(&ask.target.id),
        "maneuver": ask.preview.odds.maneuver,
        "defense": if c.defense == DefenseChoice::Parry { "block" } else { "take" },
        "stage_cost": ask.preview.odds.ki_cost,
        "what_if": ask.what_if,
        "hit_chance": c.hit_chance,
        "stage_loss": c.stage_loss,
        "life_cards_lost": c.damage_distribution,
        "expected_life_cards": c.expected_damage,
        "defeat_chance": c.defeat_chance,
        "why": c.automatic_hit,
        "amount": ask.preview.odds.wound,
    })
}
