//! The text of one attack's exact odds, as `gridclash odds` prints it: a view model each
//! family words in its own terms, so the command never asks which ruleset it plays.
//!
//! A family fills [`OddsWords`] (the heading, the rolls with the rule of their dice, the lines
//! about hits and damage) and [`lines`] lays them out with what every family shares: each roll's
//! terms, the thresholds, the chance of defeat and the damage distribution.

use super::command::{AttackOrder, DefenseChoice};
use super::fighter::Fighter;
use super::odds::{AttackPreview, RollSummary, TargetOdds};
use crate::ruleset::Rules;

/// One attack against one target, as `gridclash odds` asks about it.
pub struct OddsAsk<'a> {
    pub rules: &'a Rules,
    pub attacker: &'a Fighter,
    pub target: &'a Fighter,
    pub order: &'a AttackOrder,
    pub preview: &'a AttackPreview,
    /// Every answer the target may give, the default first.
    pub answers: &'a [TargetOdds],
    /// The answer asked about.
    pub chosen: &'a TargetOdds,
    /// What the command assumed to ask the question (the card game: a card put in a hand).
    pub what_if: &'a [String],
    /// Everyone's name, for the JSON's list of targets.
    pub names: &'a super::event::Names,
}

impl OddsAsk<'_> {
    /// "Attacker -> Target: Maneuver", the start of every family's heading.
    pub fn who(&self) -> String {
        format!(
            "{} -> {}: {}",
            self.attacker.identity.name, self.target.identity.name, self.preview.odds.maneuver
        )
    }

    /// The assembled context of the target.
    pub fn target_context(&self) -> Option<&super::context::TargetContext> {
        self.preview
            .context
            .targets
            .iter()
            .find(|t| t.id == self.target.id)
    }
}

/// One roll to list: its title, the roll, and the rule of its dice after the range.
pub struct RollLine {
    pub title: String,
    pub roll: RollSummary,
    pub rule: String,
}

impl RollLine {
    /// A roll titled `title` whose dice follow `rule` (shown after its mean and range).
    pub fn new(title: impl Into<String>, roll: &RollSummary, rule: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            roll: roll.clone(),
            rule: rule.into(),
        }
    }
}

/// What a family says about one attack's odds, in its own terms.
pub struct OddsWords {
    /// The first line: who attacks whom with what, the answer and the costs.
    pub heading: String,
    /// Lines between the heading and the rolls (a Digimon Clash's chances).
    pub before_rolls: Vec<String>,
    /// The rolls, in order.
    pub rolls: Vec<RollLine>,
    /// The lines about the hit and its damage.
    pub summary: Vec<String>,
    /// True when damage totals below 0.005 % are summed up instead of listed (exploding dice
    /// give long tails).
    pub fold_rare: bool,
}

/// A percentage to one decimal.
pub fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// The lines of one roll's terms: each die and each modifier with its label.
pub fn term_lines(r: &RollSummary) -> Vec<String> {
    r.terms
        .iter()
        .filter_map(|t| match (&t.die, t.value) {
            (Some(d), _) => Some(format!("      {d:>6}  {}", t.label)),
            (None, Some(v)) => Some(format!("      {v:>+6}  {}", t.label)),
            _ => None,
        })
        .collect()
}

/// What `order` does to the target on a hit that deals damage past its Soak, each with its
/// exact chance in `odds`: the Called Shot's body part, the Signature Technique's conditions and
/// the element's (none when the attack gives no condition).
pub fn on_damage_lines(
    rules: &Rules,
    attacker: &Fighter,
    order: &AttackOrder,
    odds: &TargetOdds,
) -> Vec<String> {
    let chance = pct(odds.damage_chance());
    let mut out = Vec::new();
    if let Some(part) = order.called_shot.as_ref().and_then(|id| {
        rules
            .attacks
            .called_shot
            .as_ref()?
            .targets
            .iter()
            .find(|t| &t.id == id)
    }) {
        out.push(format!(
            "  Called Shot at the {}, on a damaging hit: {chance} ({})",
            part.name, part.description
        ));
    }
    let technique = order
        .technique
        .as_ref()
        .and_then(|id| attacker.loadout.techniques.iter().find(|t| &t.id == id));
    if let Some(t) = technique.filter(|t| !t.on_damage.is_empty()) {
        out.push(format!(
            "  {}, on a damaging hit: {chance} ({})",
            t.name,
            grants_text(rules, &t.on_damage)
        ));
    }
    if let Some(el) = order.element.as_ref().and_then(|id| rules.element(id)) {
        out.push(format!(
            "  {} element, on a damaging hit: {chance} ({})",
            el.name,
            grants_text(rules, &el.on_damage)
        ));
    }
    out
}

/// "Transfigured for 1 round, Prone until ended": the conditions of an on-damage list.
fn grants_text(rules: &Rules, grants: &[crate::ruleset::ConditionGrant]) -> String {
    grants
        .iter()
        .map(|g| {
            let name = &rules.condition(g.condition).name;
            match g.rounds {
                0 => format!("{name} until ended"),
                1 => format!("{name} for 1 round"),
                n => format!("{name} for {n} rounds"),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The whole text of `words` about `ask`: the family's lines, each roll's terms, then the
/// thresholds, the chance of defeat and the damage distribution.
pub fn lines(ask: &OddsAsk, words: OddsWords) -> Vec<String> {
    let chosen = ask.chosen;
    let mut out = vec![words.heading];
    out.extend(words.before_rolls);
    for RollLine {
        title,
        roll: r,
        rule,
    } in &words.rolls
    {
        out.push(format!(
            "  {title}: mean {:.2}, {}..{}{rule}",
            r.mean, r.min, r.max
        ));
        out.extend(term_lines(r));
        for t in &r.critical_dice {
            out.push(format!(
                "      {:>6}  {} (on a Critical Result)",
                t.die.clone().unwrap_or_default(),
                t.label
            ));
        }
        if r.per_hit != 1 {
            out.push(format!("      x{}  damage per hit", r.per_hit));
        }
        for d in &r.dropped {
            out.push(format!("      dropped: {d}"));
        }
    }
    if let Some(why) = &chosen.automatic_hit {
        out.push(format!("  Hits automatically: {why}"));
    }
    out.extend(words.summary);
    for t in &chosen.threshold_chances {
        if t.already {
            out.push(format!("  {}: already reached", t.threshold));
        } else {
            out.push(format!("  Reaches {}: {}", t.threshold, pct(t.chance)));
        }
    }
    out.push(format!("  Defeats: {}", pct(chosen.defeat_chance)));
    out.extend(on_damage_lines(ask.rules, ask.attacker, ask.order, chosen));
    let shown = |p: f64| !words.fold_rare || p >= 0.00005;
    let mut cells: Vec<String> = chosen
        .damage_distribution
        .iter()
        .filter(|(_, p)| shown(**p))
        .map(|(d, p)| format!("{d}:{:.2}%", p * 100.0))
        .collect();
    let rare: Vec<(&i64, &f64)> = chosen
        .damage_distribution
        .iter()
        .filter(|(_, p)| !shown(**p))
        .collect();
    if let Some((top, _)) = rare.last() {
        let mass: f64 = rare.iter().map(|(_, p)| **p).sum();
        cells.push(format!(
            "(and {} rarer totals up to {top}: {:.4}% in all)",
            rare.len(),
            mass * 100.0
        ));
    }
    out.push(format!("  Damage distribution: {}", cells.join(" ")));
    out
}

/// The rolls every family lists: the strike, the difficulty (if any), the answer's own roll
/// (unless `answer_rolls` is false), and the wound titled `wound` (unless `None`), each with
/// the rule of its dice that `rule` gives for its title and roll.
pub fn common_rolls(
    ask: &OddsAsk,
    answer_rolls: bool,
    wound: Option<&str>,
    rule: impl Fn(&str, &RollSummary) -> String,
) -> Vec<RollLine> {
    let c = ask.chosen;
    let mut rolls = vec![("Strike".to_string(), &c.strike)];
    if let Some(dc) = &c.difficulty {
        rolls.push(("Difficulty".into(), dc));
    }
    if answer_rolls {
        rolls.push((c.defense.name().into(), &c.defense_roll));
    }
    if let Some(w) = wound {
        rolls.push((w.into(), &ask.preview.odds.wound));
    }
    rolls
        .into_iter()
        .map(|(t, r)| {
            let rule = rule(&t, r);
            RollLine::new(t, r, rule)
        })
        .collect()
}

/// The default pipeline's words: Ki cost and wager, criticals and botches, damage category,
/// Soak and cover.
pub fn default_words(ask: &OddsAsk) -> OddsWords {
    let c = ask.chosen;
    let answer_rolls = !matches!(c.defense, DefenseChoice::Take | DefenseChoice::DropProne);
    let rolls = common_rolls(ask, answer_rolls, Some("Wound"), |_, r| {
        format!(
            "; critical on {}, botch on {} (-{})",
            r.critical_target
                .map_or("never".into(), |c| format!("{c}+")),
            if r.botch_range == 0 {
                "never".into()
            } else {
                format!("{} or less", r.botch_range)
            },
            r.botch_penalty
        )
    });
    OddsWords {
        heading: format!(
            "{} ({:?}), Ki cost {} + wager {}",
            ask.who(),
            c.defense,
            ask.preview.odds.ki_cost,
            ask.preview.odds.wager
        ),
        before_rolls: Vec::new(),
        rolls,
        summary: std::iter::once(format!(
            "  Hit {} (critical {}); expected damage {:.2}; {:?} damage, Soak {} taken off{}",
            pct(c.hit_chance),
            pct(c.critical_hit_chance),
            c.expected_damage,
            c.category,
            c.soak_used,
            if c.cover > 0 {
                format!(", cover {}", c.cover)
            } else {
                String::new()
            }
        ))
        .chain(
            c.reflected
                .map(|r| reflect_line(&ask.attacker.identity.name, &r)),
        )
        .collect(),
        fold_rare: false,
    }
}

/// A Reflect's line: how often the attack comes back and what it then does to `attacker`.
pub fn reflect_line(attacker: &str, r: &super::odds::ReflectOdds) -> String {
    format!(
        "  Reflect: the Parry wins {} and the attack comes back at {attacker}: expected damage {:.2}, defeat {}",
        pct(r.chance),
        r.expected_damage,
        pct(r.defeat_chance)
    )
}

/// What the action-point families note under a hit (ties, concealment, partial cover, the
/// sneak contest, knockback), before the family's own `extra` notes.
pub fn action_point_notes(ask: &OddsAsk, extra: Vec<String>) -> Vec<String> {
    let tc = ask.target_context();
    let mut notes = vec![if ask.rules.dice.attacker_wins_ties {
        "the attacker wins ties".to_string()
    } else {
        "the defender wins ties".to_string()
    }];
    if let Some((c, from)) = tc.and_then(|t| t.miss_chance.as_ref()) {
        notes.push(format!("concealment {c}% ({from})"));
    }
    if let Some(a) = tc.and_then(|t| t.absorb.as_ref()) {
        let who = if a.person.is_some() {
            " (standing in the way: what they absorb comes off their HP)"
        } else {
            ""
        };
        notes.push(if a.full {
            format!(
                "full cover: {} at {} takes every hit and absorbs up to {}",
                a.name, a.at, a.left
            )
        } else {
            format!(
                "partial cover: {} at {} absorbs up to {} ({}% of hits){who}",
                a.name, a.at, a.left, a.chance
            )
        });
    }
    if let Some((won, _)) = tc.and_then(|t| t.sneak.as_ref()) {
        notes.push(format!(
            "sneak contest won {:.1}% (-5 to every defense)",
            won * 100.0
        ));
    }
    // Shinobi: a jutsu aimed at an ally heals it rather than hurts it.
    if tc.is_some_and(|t| t.automatic_hit == Some(super::family::shinobi::HEALING))
        && let Some(d) = ask.rules.action_points()
        && let Some(a) = d.attack(&ask.order.profile)
    {
        let (t, max) = (ask.target.life.current, ask.target.life.max);
        let to = (t + super::family::shinobi::healing(d, ask.attacker, a)).min(max);
        notes.push(format!(
            "an ally: heals {} HP ({t} -> {to} of {max}), its modifying healing; no roll",
            to - t
        ));
    }
    if ask.chosen.defense == DefenseChoice::Resist
        && let Some(d) = ask.rules.action_points()
    {
        notes.push(format!(
            "a Genjutsu: a hit blinds it (its attacks miss {}%) until it beats a new casting roll with Gen Resist, once a round on the caster's turn",
            d.combat.blindness
        ));
    }
    if let Some(k) = tc.and_then(|t| t.knockback.as_ref()) {
        let mut what = format!("a hit knocks it to {}", k.to);
        if let Some((slam, why)) = &k.slam {
            what.push_str(&format!(", slam {slam} ({why})"));
        }
        if let Some(f) = &k.fall {
            what.push_str(&format!(", a {} ft fall", f.feet));
        }
        notes.push(what);
    }
    notes.extend(extra);
    notes
}

/// The action-point families' hit line: the chance, the expected damage and `notes`.
pub fn action_point_hit_line(ask: &OddsAsk, notes: &[String]) -> String {
    format!(
        "  Hit {}; expected damage {:.2} ({})",
        pct(ask.chosen.hit_chance),
        ask.chosen.expected_damage,
        notes.join("; ")
    )
}

/// The ninja chapter's words (the action-point default): chakra cost, no criticals or botches.
pub fn action_point_words(ask: &OddsAsk) -> OddsWords {
    let c = ask.chosen;
    let answer_rolls = !matches!(c.defense, DefenseChoice::Take | DefenseChoice::DropProne);
    let notes = action_point_notes(ask, Vec::new());
    OddsWords {
        heading: format!(
            "{} ({}), chakra cost {}",
            ask.who(),
            c.defense.name(),
            ask.preview.odds.ki_cost
        ),
        before_rolls: Vec::new(),
        rolls: common_rolls(ask, answer_rolls, Some("Wound"), |_, _| String::new()),
        summary: vec![action_point_hit_line(ask, &notes)],
        fold_rare: false,
    }
}

/// The answer `word` names on the command line: `dodge` or `take`, `parry` or `block` (a Block
/// of its own in the action-point families), `deflect`, DBU's `reflect` and shinobi's `resist`
/// (Gen Resist, against a Genjutsu).
pub fn defense_word(action_points: bool, word: &str) -> Option<DefenseChoice> {
    Some(match word {
        "dodge" | "take" => DefenseChoice::Dodge,
        "resist" if action_points => DefenseChoice::Resist,
        "block" if action_points => DefenseChoice::Block,
        "parry" | "block" => DefenseChoice::Parry,
        "deflect" => DefenseChoice::Deflect,
        "reflect" if !action_points => DefenseChoice::Reflect,
        _ => return None,
    })
}

/// The JSON of `ask` every family but the card game gives: every figure of the chosen answer,
/// every roll, and every target's answers.
pub fn default_json(ask: &OddsAsk) -> serde_json::Value {
    let names = ask.names;
    let chosen = ask.chosen;
    let roll_of = |c: DefenseChoice| {
        ask.answers
            .iter()
            .find(|o| o.defense == c)
            .map(|o| &o.defense_roll)
    };
    let odds = &ask.preview.odds;
    serde_json::json!({
        "attacker": names.get(&ask.attacker.id),
        "target": names.get(&ask.target.id),
        "maneuver": odds.maneuver,
        "defense": chosen.defense,
        "ki_cost": odds.ki_cost,
        "wager": odds.wager,
        "hit_chance": chosen.hit_chance,
        "critical_hit_chance": chosen.critical_hit_chance,
        "automatic_hit": chosen.automatic_hit,
        "expected_damage": chosen.expected_damage,
        "damage_distribution": chosen.damage_distribution.iter().map(|(d, p)| (d.to_string(), serde_json::json!(p))).collect::<serde_json::Map<String, serde_json::Value>>(),
        "threshold_chances": chosen.threshold_chances,
        "defeat_chance": chosen.defeat_chance,
        "category": chosen.category,
        "critical_category": chosen.critical_category,
        "soak_used": chosen.soak_used,
        "cover": chosen.cover,
        "difficulty": chosen.difficulty,
        "reflected": chosen.reflected,
        "strike": chosen.strike,
        "dodge": roll_of(DefenseChoice::Dodge),
        "parry": roll_of(DefenseChoice::Parry),
        "block": roll_of(DefenseChoice::Block),
        "deflect": roll_of(DefenseChoice::Deflect),
        "reflect": roll_of(DefenseChoice::Reflect),
        "resist": roll_of(DefenseChoice::Resist),
        "dive": roll_of(DefenseChoice::Dive),
        "wound": odds.wound,
        "targets": odds.targets.iter().map(|v| serde_json::json!({
            "target": v.first().and_then(|d| names.get(&d.target)),
            "dodge": v.iter().find(|o| o.defense == DefenseChoice::Dodge),
            "parry": v.iter().find(|o| o.defense == DefenseChoice::Parry),
            "answers": v,
        })).collect::<Vec<_>>(),
    })
}
