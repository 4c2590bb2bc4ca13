//! Exact odds of a declared attack, per target: the hit chance, the whole distribution of the
//! damage after category, Soak and cover, the chance of reaching each Health Threshold and of
//! defeat, and every die and modifier of the rolls behind them.
//!
//! Everything is computed from the [`AttackContext`] that resolution rolls, by exact
//! convolution of the dice ([`crate::dice::dist`]), never by sampling.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::command::DefenseChoice;
use super::components::CombatantId;
use super::context::{AttackContext, Declaration, TargetContext, damage_against};
use super::effects::reached_thresholds;
use super::fighter::Fighter;
use crate::dice::{Dist, RollSpec, distribution, distribution_split};
use crate::ruleset::{Category, Rules};

/// One part of a roll: a die (`"1d10"`) or a flat modifier (`value`), with where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub die: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

/// A roll described for people: its terms and its critical and botch rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RollSummary {
    pub kind: String,
    pub terms: Vec<Term>,
    /// The natural result that is a Critical Result, if the roll can crit.
    pub critical_target: Option<u32>,
    /// Natural results at or below this botch (0: it cannot).
    pub botch_range: u32,
    pub botch_penalty: i64,
    /// Added on a Critical Result.
    pub critical_dice: Vec<Term>,
    /// Multi-hit profiles: damage per hit counted by the dice.
    pub per_hit: i64,
    /// Dice an effect removed.
    pub dropped: Vec<String>,
    pub mean: f64,
    pub min: i64,
    pub max: i64,
}

impl RollSummary {
    /// Describes a roll spec, with its exact mean and range.
    pub fn of(spec: &RollSpec) -> Self {
        Self::with_dist(spec, &distribution(spec))
    }

    /// [`RollSummary::of`] when the spec's distribution `dist` is already worked out (the odds
    /// need it anyway; working it out twice was a tenth of a computer player's time).
    pub fn with_dist(spec: &RollSpec, dist: &Dist) -> Self {
        let mut terms = Vec::new();
        if let Some(b) = &spec.base {
            let label = match (&b.penalization, b.rolls) {
                (Some(why), n) if n > 1 => format!("Base die, rolled {n} times: {why}"),
                _ => "Base die".to_string(),
            };
            terms.push(Term {
                label,
                die: Some(format!("1d{}", b.sides)),
                value: None,
            });
        }
        if let Some(label) = &spec.superiority {
            terms.push(Term {
                label: label.clone(),
                die: Some("1d10".into()),
                value: None,
            });
        }
        for d in &spec.dice {
            terms.push(Term {
                label: d.label.clone(),
                die: Some(d.group.to_string()),
                value: None,
            });
        }
        for m in &spec.modifiers {
            terms.push(Term {
                label: m.label.clone(),
                die: None,
                value: Some(m.value),
            });
        }
        let (min, max) = dist.range().unwrap_or((0, 0));
        Self {
            kind: spec.kind.to_string(),
            terms,
            critical_target: spec.base.as_ref().and_then(|b| b.critical_target),
            botch_range: spec.base.as_ref().map_or(0, |b| b.botch_range),
            botch_penalty: spec.base.as_ref().map_or(0, |b| b.botch_penalty),
            critical_dice: spec
                .critical_dice
                .iter()
                .map(|d| Term {
                    label: d.label.clone(),
                    die: Some(d.group.to_string()),
                    value: None,
                })
                .collect(),
            per_hit: spec.dice_multiplier,
            dropped: spec.dropped.clone(),
            mean: dist.mean(),
            min,
            max,
        }
    }
}

/// The chance that an attack takes a target to a Health Threshold it has not reached yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThresholdChance {
    pub threshold: String,
    /// Already reached before the attack (the chance is then 1).
    pub already: bool,
    pub chance: f64,
}

/// Everything the attack may do to one target, exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetOdds {
    pub target: CombatantId,
    pub defense: DefenseChoice,
    /// Set when the attack hits without a Clash (Rage).
    pub automatic_hit: Option<String>,
    pub hit_chance: f64,
    /// A hit whose Strike is a Critical Result (Cutting turns it Lethal).
    pub critical_hit_chance: f64,
    pub expected_damage: f64,
    /// Damage after category, Soak and cover → probability; a miss counts as 0.
    pub damage_distribution: BTreeMap<i64, f64>,
    pub threshold_chances: Vec<ThresholdChance>,
    pub defeat_chance: f64,
    /// The Damage Category on an ordinary hit and on a critical one.
    pub category: Category,
    pub critical_category: Category,
    pub soak_used: i64,
    pub cover: i64,
    /// Power stages the target loses (power-stages rulesets; absent elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage_loss: Option<i64>,
    pub strike: RollSummary,
    pub defense_roll: RollSummary,
    /// d20: what the attack must meet besides the defense (range difficulty, cover).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<RollSummary>,
    /// DBU, answering with a Reflect: what the attack does to its own attacker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reflected: Option<ReflectOdds>,
}

/// What a Reflect does to the attacker: the chance the Parry wins and the attack comes back,
/// and the damage and defeat that follow (a Parry that loses counting as 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReflectOdds {
    /// The chance the Parry wins and the attack comes back.
    pub chance: f64,
    /// The damage the attacker takes, a Parry that loses counting as 0.
    pub expected_damage: f64,
    /// The chance the attack coming back defeats its attacker.
    pub defeat_chance: f64,
}

/// [`ReflectOdds`] of the attack in `ctx`, whose Wound is `wound`, when the target's answer
/// hits with `hit`: the Wound against the attacker's own Soak, as the damage phase takes it.
fn reflect_odds(
    ctx: &AttackContext,
    t: &TargetContext,
    choice: DefenseChoice,
    wound: &Dist,
    hit: f64,
) -> Option<ReflectOdds> {
    let back = ctx.reflected.as_ref()?;
    if choice != DefenseChoice::Reflect || t.automatic_hit.is_some() {
        return None;
    }
    let chance = (1.0 - hit).max(0.0);
    let dist = damage_dist(wound, back.soak_used, 0);
    let defeat = 1.0 - dist.cdf(back.life.max(1) - 1);
    Some(ReflectOdds {
        chance,
        expected_damage: chance * dist.mean(),
        defeat_chance: chance * defeat,
    })
}

impl TargetOdds {
    /// The chance the attack deals this target damage past its Soak: what an on-damage effect
    /// (an element's, a Called Shot's) needs.
    pub fn damage_chance(&self) -> f64 {
        self.damage_distribution
            .range(1..)
            .map(|(_, p)| p)
            .sum::<f64>()
            .min(1.0)
    }

    /// The odds of an attack whose damage is one Lethal roll with no Soak, thresholds or
    /// criticals of the DBU kind (the shinobi, d20 and Digimon families): `dist` is the damage
    /// with a miss as 0, and reaching `defeat_at` defeats. Families add their own fields.
    pub fn lethal(
        target: CombatantId,
        defense: DefenseChoice,
        hit_chance: f64,
        dist: &Dist,
        defeat_at: i64,
        strike: &RollSpec,
        defense_roll: RollSummary,
    ) -> Self {
        let damage_distribution = nonzero(dist);
        let defeat_chance = damage_distribution
            .range(defeat_at.max(1)..)
            .fold(0.0, |acc, (_, p)| acc + p)
            .min(1.0);
        Self {
            target,
            defense,
            automatic_hit: None,
            hit_chance,
            critical_hit_chance: 0.0,
            expected_damage: dist.mean(),
            damage_distribution,
            threshold_chances: Vec::new(),
            defeat_chance,
            category: Category::Lethal,
            critical_category: Category::Lethal,
            soak_used: 0,
            cover: 0,
            stage_loss: None,
            strike: RollSummary::of(strike),
            defense_roll,
            difficulty: None,
            reflected: None,
        }
    }

    /// The chance of dealing at least `damage`.
    pub fn chance_of_at_least(&self, damage: i64) -> f64 {
        self.damage_distribution
            .range(damage..)
            .fold(0.0, |acc, (_, p)| acc + p)
    }
}

/// A distribution as value → probability, leaving out values that cannot happen.
pub fn nonzero(dist: &Dist) -> BTreeMap<i64, f64> {
    dist.p
        .iter()
        .enumerate()
        .filter(|(_, p)| **p > 0.0)
        .map(|(i, p)| (dist.offset + i as i64, *p))
        .collect()
}

/// A roll's whole distribution from its plain and critical parts, exactly as
/// [`distribution`] puts them together.
fn whole(plain: &Dist, crit: &Dist) -> Dist {
    let mut all = plain.clone();
    all.mix(crit, 1.0);
    all
}

/// The damage distribution of one Wound against one target in one category: the Wound less
/// Soak and cover, at least 0 (one pass over the Wound; mixed in, it adds the same chances in
/// the same order as mapping every total would).
fn damage_dist(wound: &Dist, soak_used: i64, cover: i64) -> Dist {
    wound.shifted_floor(-(soak_used + cover), 0)
}

/// The default pipeline's numbers behind one target's odds: the Strike's plain and critical
/// parts, the defense roll, the hit chances, the damage (a miss as 0) and how it was taken.
struct DefaultCore {
    plain: Dist,
    crit: Dist,
    defense: Dist,
    hit_plain: f64,
    hit_crit: f64,
    dist: Dist,
    normal: super::context::DamageResult,
    critical: super::context::DamageResult,
    cover: i64,
    /// Answering with a Reflect: what comes back at the attacker.
    reflected: Option<ReflectOdds>,
}

/// Works out [`DefaultCore`]: the one computation both [`default_target_odds`] and
/// [`default_target_numbers`] read, so the numbers a computer player weighs are the preview's.
fn default_core(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
    choice: DefenseChoice,
) -> DefaultCore {
    let (plain, crit) = distribution_split(&t.strike);
    let defense = distribution(t.defense(choice));
    let (hit_plain, hit_crit) = if t.automatic_hit.is_some() {
        (plain.mass(), crit.mass())
    } else {
        (plain.prob_greater(&defense), crit.prob_greater(&defense))
    };
    let wound = distribution(&ctx.wound);
    let cover = t.cover.as_ref().map_or(0, |c| c.reduction);
    let normal = damage_against(rules, 0, decl, target, false, t.cover.as_ref());
    let critical = damage_against(rules, 0, decl, target, true, t.cover.as_ref());
    let mut dist = Dist::point(0);
    dist.p[0] = 1.0 - hit_plain - hit_crit;
    dist.mix(&damage_dist(&wound, normal.soak_used, cover), hit_plain);
    dist.mix(&damage_dist(&wound, critical.soak_used, cover), hit_crit);
    let reflected = reflect_odds(ctx, t, choice, &wound, hit_plain + hit_crit);
    DefaultCore {
        plain,
        crit,
        defense,
        hit_plain,
        hit_crit,
        dist,
        normal,
        critical,
        cover,
        reflected,
    }
}

/// The chance of each Health Threshold `target` may be taken to, in the ruleset's order, with
/// whether it is reached already; `at_least(d)` is the chance of dealing `d` or more.
fn threshold_chances<'r>(
    rules: &'r Rules,
    target: &Fighter,
    at_least: impl Fn(i64) -> f64,
) -> impl Iterator<Item = (&'r str, bool, f64)> {
    let reached = reached_thresholds(rules, target.power.minion, target.life);
    let (minion, life) = (target.power.minion, target.life);
    rules
        .damage
        .thresholds
        .iter()
        .enumerate()
        .filter(move |(_, th)| !minion || rules.characters.minion.thresholds.contains(&th.id))
        .map(move |(i, th)| {
            let already = reached.contains(&i);
            // Reached at Life ≤ max × fraction, rounded down.
            let line = th.fraction.of(life.max);
            let chance = if already {
                1.0
            } else {
                at_least(life.current - line)
            };
            (th.id.as_str(), already, chance)
        })
}

/// The default pipeline's odds (the DBU chapter's opposed rolls against Soak and thresholds).
pub fn default_target_odds(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
    choice: DefenseChoice,
) -> TargetOdds {
    let core = default_core(rules, ctx, t, decl, target, choice);
    let damage_distribution = nonzero(&core.dist);
    // A fold from +0.0: an empty f64 sum is -0.0, which would print as "-0.0%".
    let at_least = |d: i64| -> f64 {
        damage_distribution
            .range(d.max(0)..)
            .fold(0.0, |acc, (_, p)| acc + p)
            .min(1.0)
    };
    let threshold_chances = threshold_chances(rules, target, at_least)
        .map(|(id, already, chance)| ThresholdChance {
            threshold: id.to_string(),
            already,
            chance,
        })
        .collect();
    TargetOdds {
        target: t.id,
        defense: choice,
        automatic_hit: t.automatic_hit.map(str::to_string),
        hit_chance: core.hit_plain + core.hit_crit,
        critical_hit_chance: core.hit_crit,
        expected_damage: core.dist.mean(),
        threshold_chances,
        defeat_chance: at_least(target.life.current.max(1)),
        damage_distribution,
        category: core.normal.category,
        critical_category: core.critical.category,
        soak_used: core.normal.soak_used,
        cover: core.cover,
        stage_loss: None,
        strike: RollSummary::with_dist(&t.strike, &whole(&core.plain, &core.crit)),
        defense_roll: RollSummary::with_dist(t.defense(choice), &core.defense),
        difficulty: None,
        reflected: core.reflected,
    }
}

/// [`default_target_odds`]' numbers alone, for the computer players and defense policies,
/// which weigh thousands of attacks a battle: no distribution map and no roll descriptions.
/// Every number is the odds' own, to the last bit (the same sums in the same order).
pub fn default_target_numbers(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
    choice: DefenseChoice,
) -> TargetNumbers {
    let core = default_core(rules, ctx, t, decl, target, choice);
    let dist = &core.dist;
    // The map's fold, over the same non-zero chances in the same (ascending) order.
    let at_least = |d: i64| -> f64 {
        let from = d.max(0);
        dist.p
            .iter()
            .enumerate()
            .filter(|(_, p)| **p > 0.0)
            .filter(|(i, _)| dist.offset + *i as i64 >= from)
            .fold(0.0, |acc, (_, p)| acc + p)
            .min(1.0)
    };
    TargetNumbers {
        hit_chance: core.hit_plain + core.hit_crit,
        expected_damage: dist.mean(),
        new_thresholds: TargetNumbers::not_yet_reached(
            threshold_chances(rules, target, at_least).map(|(_, already, c)| (already, c)),
        ),
        defeat_chance: at_least(target.life.current.max(1)),
        stage_loss: None,
        reflected_damage: core.reflected.map_or(0.0, |r| r.expected_damage),
    }
}

/// What the computer players and the defense policies weigh of one target's odds: the
/// numbers of [`TargetOdds`] without what is there for people to read (the damage map, the
/// rolls described), which cost more to build than the numbers themselves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetNumbers {
    /// The chance the attack hits (a critical one included).
    pub hit_chance: f64,
    /// The damage expected, a miss counting as 0.
    pub expected_damage: f64,
    /// The chances of the Health Thresholds the target has not reached yet, summed.
    pub new_thresholds: f64,
    /// The chance the target is left at 0 Life or less.
    pub defeat_chance: f64,
    /// Power stages the target loses (power-stages rulesets).
    pub stage_loss: Option<i64>,
    /// DBU, answering with a Reflect: the damage the attacker expects to take back.
    pub reflected_damage: f64,
}

impl TargetNumbers {
    /// The numbers of worked-out odds (the families whose odds have no faster path).
    pub fn of(o: &TargetOdds) -> Self {
        Self {
            hit_chance: o.hit_chance,
            expected_damage: o.expected_damage,
            new_thresholds: Self::not_yet_reached(
                o.threshold_chances.iter().map(|c| (c.already, c.chance)),
            ),
            defeat_chance: o.defeat_chance,
            stage_loss: o.stage_loss,
            reflected_damage: o.reflected.map_or(0.0, |r| r.expected_damage),
        }
    }

    /// The chances of the thresholds not reached yet, summed in order (one sum for both
    /// paths, so they agree to the last bit).
    fn not_yet_reached(chances: impl Iterator<Item = (bool, f64)>) -> f64 {
        chances
            .filter(|(already, _)| !already)
            .map(|(_, c)| c)
            .sum()
    }
}

/// The odds of a whole attack: what it costs and, per target, what it may do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttackOdds {
    pub attacker: CombatantId,
    pub maneuver: String,
    pub ki_cost: i64,
    pub wager: i64,
    pub wound: RollSummary,
    /// Per target, in id order: the odds for each defense it may answer with, the default
    /// (Dodge) first.
    pub targets: Vec<Vec<TargetOdds>>,
}

/// What a declared attack would do, computed exactly from the same context the dice resolve.
#[derive(Debug, Clone)]
pub struct AttackPreview {
    pub targets: Vec<CombatantId>,
    pub ki_cost: i64,
    pub context: AttackContext,
    pub odds: AttackOdds,
}

/// What a shinobi counter would do for the defender being asked: the counter, its damage, and
/// per answer the exact chance of evading and hitting back.
#[derive(Debug, Clone)]
pub struct CounterPreview {
    pub counter: crate::ruleset::shinobi::CounterDef,
    pub damage: i64,
    pub chances: Vec<(super::command::DefenseChoice, f64)>,
}
