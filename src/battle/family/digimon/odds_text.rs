//! How `gridclash odds` words a Digimon attack: Accuracy and damage dice that explode on 6s,
//! Armor, automatic hits, and a Clash's chances from the same check rolls the Clash makes.

use super::grapple as g;
use crate::battle::command::DefenseChoice;
use crate::battle::fighter::Fighter;
use crate::battle::odds::RollSummary;
use crate::battle::odds_text::{
    OddsAsk, OddsWords, action_point_hit_line, action_point_notes, common_rolls, term_lines,
};
use crate::ruleset::digimon::{ClashMove, DigimonData};

/// The rule of every Digimon roll's dice.
const EXPLODES: &str = "; every 6 rolls another d6";

/// The Digimon words of `ask`.
pub fn odds_words(d: &DigimonData, ask: &OddsAsk) -> OddsWords {
    let c = ask.chosen;
    let wound = &ask.preview.odds.wound;
    let answer_rolls = !matches!(c.defense, DefenseChoice::Take | DefenseChoice::DropProne);
    let mut rolls = common_rolls(
        ask,
        answer_rolls,
        (wound.max != 0).then_some("Damage before Armor"),
        |_, _| EXPLODES.to_string(),
    );
    if c.automatic_hit.is_some() {
        rolls.retain(|r| r.title == "Damage before Armor");
    }
    for r in &mut rolls {
        if r.title == "Strike" {
            r.title = "Accuracy".into();
        }
    }
    let before_rolls = super::attack_of(d, &ask.order.profile)
        .and_then(|(a, _)| a.clash)
        .map_or_else(Vec::new, |m| clash_lines(d, m, ask.attacker, ask.target));
    let extra = if wound.max > 0 {
        vec!["damage is the roll minus Armor, at least 1".to_string()]
    } else {
        Vec::new()
    };
    let notes = action_point_notes(ask, extra);
    OddsWords {
        heading: format!(
            "{} ({})",
            ask.who(),
            if c.automatic_hit.is_some() {
                "no Dodge"
            } else {
                c.defense.name()
            }
        ),
        before_rolls,
        rolls,
        summary: vec![action_point_hit_line(ask, &notes)],
        fold_rare: true,
    }
}

/// The exact chances of a Clash action `m` by `me` on `t`, with each side's check.
fn clash_lines(d: &DigimonData, m: ClashMove, me: &Fighter, t: &Fighter) -> Vec<String> {
    let mut out = Vec::new();
    match m {
        ClashMove::Start => {
            out.push(format!(
                "  Clash: {} controls {:.2}% (the greater margin over its TN, then Body, then the one who started it)",
                me.identity.name,
                100.0 * g::control_chance(d, me, t, me.id)
            ));
            for (who, opp) in [(me, t), (t, me)] {
                out.push(format!(
                    "  {}'s Clash check against TN {} ({}'s Agility):",
                    who.identity.name,
                    g::tn(d, opp),
                    opp.identity.name
                ));
                out.extend(term_lines(&RollSummary::of(&g::check_spec(
                    d, who, opp, me.id,
                ))));
            }
        }
        ClashMove::Pin => {
            let (a, b) = g::pin_specs(d, me, t);
            out.push(format!(
                "  Pin succeeds {:.2}% (the controller's roll meets or beats the other's):",
                100.0 * g::pin_chance(d, me, t)
            ));
            out.extend(term_lines(&RollSummary::of(&a)));
            out.push("  against".into());
            out.extend(term_lines(&RollSummary::of(&b)));
        }
        ClashMove::End | ClashMove::Throw => {}
    }
    out
}
