//! How `gridclash odds` words a d20 attack: answers to a shot from beyond melee range, grenades
//! and their blasts, Effect Points, the natural 1 and 20.

use super::grenade;
use crate::battle::command::DefenseChoice;
use crate::battle::odds_text::{
    OddsAsk, OddsWords, RollLine, action_point_hit_line, action_point_notes, common_rolls, pct,
};
use crate::ruleset::d20::D20Data;

/// The d20 words of `ask`.
pub fn odds_words(d: &D20Data, ask: &OddsAsk) -> OddsWords {
    let c = ask.chosen;
    let tc = ask.target_context();
    let undefended = tc.is_some_and(|t| t.defenses.is_empty());
    // A grenade's odds are its blast's: the chance of being caught, a Roll check for half.
    let grenade = grenade::of(d, &ask.order.profile);
    let heading = format!(
        "{} ({})",
        ask.who(),
        if grenade.is_some() {
            "a grenade aimed at its square: no defense; everyone the blast catches makes a Roll check for half"
        } else if undefended {
            "no defense possible: a shot beyond melee range"
        } else {
            c.defense.name()
        },
    );
    let rule = |title: &str, _: &_| {
        if title == "Strike" {
            "; a natural 1 always fails, a natural 20 adds another d20".to_string()
        } else {
            String::new()
        }
    };
    let mut rolls = common_rolls(ask, false, None, rule);
    if grenade.is_some() {
        rolls.push(RollLine::new(
            "Roll check (half the blast when it meets the DC)",
            &c.defense_roll,
            "",
        ));
    } else if !undefended && !matches!(c.defense, DefenseChoice::Take | DefenseChoice::DropProne) {
        rolls.push(RollLine::new(c.defense.name(), &c.defense_roll, ""));
    }
    rolls.push(RollLine::new(
        if grenade.is_some() {
            "Effect Points of the blast"
        } else {
            "Effect Points before the Success Value"
        },
        &ask.preview.odds.wound,
        "",
    ));
    let mut extra = vec![format!("critical {}", pct(c.critical_hit_chance))];
    extra.extend(tc.map(super::aimed::hit_notes).unwrap_or_default());
    let notes = action_point_notes(ask, extra);
    let summary = match (grenade, tc.and_then(|t| t.difficulty.as_ref())) {
        (Some(g), Some(dc)) => {
            let (hit, miss, fumble) =
                grenade::outcome_chances(d, &g, ask.attacker, dc.flat_total());
            vec![
                format!(
                    "  The throw: hit {} (a blast on a corner of the square), miss {} (lands off target, goes off at the start of the thrower's next turn), critical failure {} (goes off near the thrower at once)",
                    pct(hit),
                    pct(miss),
                    pct(fumble)
                ),
                format!(
                    "  Caught now {}; expected damage {:.2} (Roll check DC {} for half, then armour)",
                    pct(c.hit_chance),
                    c.expected_damage,
                    g.blast.save_dc
                ),
            ]
        }
        _ => vec![action_point_hit_line(ask, &notes)],
    };
    OddsWords {
        heading,
        before_rolls: Vec::new(),
        rolls,
        summary,
        fold_rare: true,
    }
}

/// The answers d20 adds on the command line: `take` it, `dive` for cover, drop `prone`.
pub fn defense_word(word: &str) -> Option<DefenseChoice> {
    match word {
        "take" => Some(DefenseChoice::Take),
        "dive" => Some(DefenseChoice::Dive),
        "prone" => Some(DefenseChoice::DropProne),
        other => crate::battle::odds_text::defense_word(true, other),
    }
}
