//! The aim panel as a view model: what an aimed attack costs and would do, in the lines a
//! player reads, built from the same preview that resolves it. The window's odds panel prints
//! it and adds only its key hints; each family words its own part through
//! [`Family::aim_view`](super::family::Family::aim_view).

use super::command::{AttackOrder, DefenseChoice};
use super::event::Names;
use super::fighter::Fighter;
use super::odds::{AttackPreview, RollSummary, TargetOdds};
use crate::ruleset::Rules;

/// What an aim view is built from: the order, its preview, and who is on the field now.
pub struct AimContext<'a> {
    pub rules: &'a Rules,
    pub order: &'a AttackOrder,
    pub preview: &'a AttackPreview,
    /// Everyone on the field, the attacker among them.
    pub fighters: &'a [Fighter],
    /// The battlefield (where a push or a Throw would stop).
    pub field: &'a crate::grid::Field<'a>,
    pub names: &'a Names,
    /// The most Ki the attacker may wager on this maneuver now.
    pub max_wager: i64,
}

impl AimContext<'_> {
    /// The combatant `id` as it stands now.
    pub fn fighter(&self, id: super::components::CombatantId) -> Option<&Fighter> {
        self.fighters.iter().find(|f| f.id == id)
    }

    /// The name of `id`, as the battle calls it.
    pub fn name(&self, id: super::components::CombatantId) -> String {
        self.names.get(&id).cloned().unwrap_or_default()
    }
}

/// The choice an aim offers besides the target, which the window binds to keys: DBU's Ki
/// wager, the ninja chapter's sneak attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AimOption {
    /// Nothing else to choose.
    None,
    /// A Ki wager of `wager`, at most `max`.
    Wager { wager: i64, max: i64 },
    /// A sneak attack, on or off.
    Sneak { on: bool },
    /// Power stages: the card a Final Physical Attack discards, `index` of `of` held kinds.
    Discard { index: usize, of: usize },
    /// d20: Power Attack at `amount`, at most `max`.
    PowerAttack { amount: i64, max: i64 },
}

/// The aim panel of one order: its first line (the maneuver and what it costs, in the family's
/// terms), the option the window binds to keys, then every line after it (the family's notes,
/// each target's odds, the rolls with every die and modifier).
#[derive(Debug, Clone, PartialEq)]
pub struct AimView {
    pub head: String,
    pub option: AimOption,
    /// The family's notes and each target's odds.
    pub lines: Vec<String>,
    /// The rolls, every die and modifier with its rule: the window puts them under a heading
    /// of their own, after the odds.
    pub rolls: Vec<String>,
}

impl AimView {
    /// The panel as one text, without key hints (the command line and tests read this).
    pub fn text(&self) -> String {
        let mut out = self.head.clone();
        for l in self.lines.iter().chain(&self.rolls) {
            out.push('\n');
            out.push_str(l);
        }
        out
    }
}

/// What moving means in this family, for the panel while a move is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveHelp {
    pub text: String,
    /// True when the move may be made at Boosted Speed (the window names the key that
    /// switches it).
    pub boost: bool,
}

/// A chance as the panels write it.
pub fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// A roll on one line: its dice and modifiers with their rules, its critical and botch range.
pub fn terms(r: &RollSummary) -> String {
    let mut parts: Vec<String> = r
        .terms
        .iter()
        .map(|t| match (&t.die, t.value) {
            (Some(d), _) => format!("{d} {}", t.label),
            (None, Some(v)) => format!("{v:+} {}", t.label),
            (None, None) => t.label.clone(),
        })
        .collect();
    if let Some(c) = r.critical_target {
        parts.push(format!("crit on {c}+"));
    }
    if r.botch_range > 0 {
        parts.push(format!(
            "botch on <={} ({:+})",
            r.botch_range, r.botch_penalty
        ));
    }
    format!("{}: {}", r.kind, parts.join(", "))
}

/// Thresholds the attack may push the target through, with their chances (none if no
/// outcome reaches one).
fn threshold_text(t: &TargetOdds) -> String {
    let reachable: Vec<String> = t
        .threshold_chances
        .iter()
        .filter(|c| !c.already && c.chance > 0.0)
        .map(|c| format!("{} {}", c.threshold, pct(c.chance)))
        .collect();
    if reachable.is_empty() {
        "no Health Threshold reachable".into()
    } else {
        reachable.join("  ")
    }
}

/// How a target answers, in a target line's words.
pub fn answer_words(o: &TargetOdds, undefended: bool) -> String {
    match (o.defense, &o.automatic_hit) {
        _ if undefended => "cannot defend".to_string(),
        (_, Some(why)) => format!("rolls no Dodge ({why})"),
        (DefenseChoice::Dodge, None) => "dodges".into(),
        (DefenseChoice::Parry, None) => "parries".into(),
        (DefenseChoice::Reflect, None) => "parries to reflect".into(),
        (DefenseChoice::Block, None) => "blocks".into(),
        (DefenseChoice::Deflect, None) => "deflects".into(),
        (DefenseChoice::Take, None) => "takes the shot".into(),
        (DefenseChoice::Dive, None) => "dives for cover".into(),
        (DefenseChoice::DropProne, None) => "drops prone".into(),
        (DefenseChoice::Resist, None) => "resists (Gen Resist)".into(),
    }
}

/// One target answering one way: hit, critical, damage range and mean, thresholds, defeat.
/// `exploding` for dice that explode (d20, Digimon): the range then ends where 99.9 % of
/// damaging hits end.
pub fn target_line(name: &str, how: &str, t: &TargetOdds, exploding: bool) -> String {
    let lo = t
        .damage_distribution
        .iter()
        .find(|(d, p)| **d > 0 && **p > 0.0)
        .map_or(0, |(d, _)| *d);
    let hi = t
        .damage_distribution
        .keys()
        .next_back()
        .copied()
        .unwrap_or(0);
    if exploding {
        let hurts: f64 = t.damage_distribution.range(1..).map(|(_, p)| p).sum();
        let mut acc = 0.0;
        let typical = t
            .damage_distribution
            .range(1..)
            .find(|(_, p)| {
                acc += **p;
                acc >= 0.999 * hurts
            })
            .map_or(hi, |(d, _)| *d);
        let crit = if t.critical_hit_chance > 0.0 || t.difficulty.is_some() {
            format!(" (crit {})", pct(t.critical_hit_chance))
        } else {
            String::new()
        };
        if hi == 0 {
            return format!(
                "{name} {how}: hit {}{crit}  |  no damage",
                pct(t.hit_chance)
            );
        }
        return format!(
            "{name} {how}: hit {}{crit}\n  damage {lo}-{typical} (99.9% of damaging hits; up to {hi}), mean {:.1}  |  defeat {}",
            pct(t.hit_chance),
            t.expected_damage,
            pct(t.defeat_chance)
        );
    }
    if t.critical_hit_chance == 0.0 && t.threshold_chances.is_empty() {
        // A ruleset without criticals or thresholds (shinobi): what is left to say.
        return format!(
            "{name} {how}: hit {}  |  damage {lo}-{hi}, mean {:.1}  |  defeat {}",
            pct(t.hit_chance),
            t.expected_damage,
            pct(t.defeat_chance)
        );
    }
    format!(
        "{name} {how}: hit {} (crit {})\n  damage {lo}-{hi}, mean {:.1}\n  {}  |  defeat {}",
        pct(t.hit_chance),
        pct(t.critical_hit_chance),
        t.expected_damage,
        threshold_text(t),
        pct(t.defeat_chance)
    )
}

/// One target of several, in two lines: every defense it has side by side.
pub fn compact_target_line(name: &str, answers: &[TargetOdds]) -> String {
    let join =
        |f: &dyn Fn(&TargetOdds) -> String| answers.iter().map(f).collect::<Vec<_>>().join(" / ");
    let hows = join(&|o| o.defense.name().to_lowercase());
    format!(
        "{name}: hit {} ({hows})\n  mean {}  |  defeat {}",
        join(&|o| pct(o.hit_chance)),
        join(&|o| format!("{:.1}", o.expected_damage)),
        join(&|o| pct(o.defeat_chance)),
    )
}

/// A power-stages attack's outcome for one target and one answer.
pub fn stage_target_line(name: &str, how: &str, t: &TargetOdds) -> String {
    format!(
        "{name} {how}: {}\n  -{} power stage(s), -{} life card(s)  |  defeat {}",
        t.automatic_hit.clone().unwrap_or_default(),
        t.stage_loss.unwrap_or(0),
        t.expected_damage,
        pct(t.defeat_chance)
    )
}

/// Every target's lines: all its answers side by side when there are several targets, else
/// one line per answer. `exploding` as in [`target_line`]; `undefended` says which answers
/// are no defense at all (a d20 shot beyond melee range).
pub fn target_lines(
    a: &AimContext,
    exploding: bool,
    undefended: impl Fn(&TargetOdds) -> bool,
) -> Vec<String> {
    let p = a.preview;
    let several = p.odds.targets.len() > 1;
    let mut out = Vec::new();
    for answers in &p.odds.targets {
        let Some(first) = answers.first() else {
            continue;
        };
        let tname = a.name(first.target);
        if several {
            out.push(compact_target_line(&tname, answers));
        } else {
            let lines: Vec<String> = answers
                .iter()
                .map(|o| {
                    let line = target_line(&tname, &answer_words(o, undefended(o)), o, exploding);
                    match o.reflected {
                        Some(r) => format!(
                            "{line}
  comes back at the attacker {}: mean {:.1}, defeat {}",
                            pct(r.chance),
                            r.expected_damage,
                            pct(r.defeat_chance)
                        ),
                        None => line,
                    }
                })
                .collect();
            out.push(lines.join("\n"));
        }
    }
    out
}

/// The rolls of the first target's first answer, then the wound: the default tail of a panel.
pub fn roll_lines(a: &AimContext) -> Vec<String> {
    let p = a.preview;
    let mut out = Vec::new();
    if let Some(first) = p.odds.targets.first().and_then(|v| v.first()) {
        out.push(terms(&first.strike));
        out.push(terms(&first.defense_roll));
    }
    out.push(terms(&p.odds.wound));
    out
}

/// The default pipeline's panel (DBU): the Ki cost and the wager, each target's odds with
/// criticals and Health Thresholds, the Strike, the defense and the wound.
pub fn default_aim_view(a: &AimContext) -> AimView {
    let p = a.preview;
    let mut lines = target_lines(a, false, |_| false);
    if let Some(first) = p.odds.targets.first().and_then(|v| v.first())
        && let Some(me) = a.fighter(a.order.attacker)
    {
        lines.extend(
            super::odds_text::on_damage_lines(a.rules, me, a.order, first)
                .iter()
                .map(|l| l.trim().into()),
        );
    }
    AimView {
        rolls: roll_lines(a),
        head: format!(
            "{}: Ki {} (wager {} of at most {})",
            p.odds.maneuver, p.ki_cost, p.odds.wager, a.max_wager
        ),
        option: AimOption::Wager {
            wager: a.order.wager,
            max: a.max_wager,
        },
        lines,
    }
}
