//! The planner behind the `easy`, `normal` and `hard` computer players.
//!
//! For the active unit it enumerates the legal commands worth considering (attacks with their
//! wagers, moves to promising squares, standing up, ending a condition, Surges, ending the
//! turn), scores each with the exact odds engine, and picks the best:
//!
//! - an attack is worth its expected damage to each opponent (negative for allies), plus a
//!   bonus for each Health Threshold it may push a target through and for the chance of
//!   defeating it (more for targets that hurt us most), less a price per Ki point;
//! - a move is worth the best attack it makes possible (when an action remains to use it),
//!   less the expected damage of the Exploits it provokes;
//! - every option is charged for the **risk** of where the unit stands afterwards: the damage
//!   the opponents can deal it there next round, from the same exact odds.
//!
//! Levels differ only in how wide and deep they look and how much noise they add, never in
//! dice or stats. The work per decision is bounded by a count of odds evaluations, so a
//! decision is both quick and deterministic (the same seed gives the same choice).

mod d20;
mod digivolve;
mod flight;
mod lapse;
mod moves;

use std::collections::BTreeMap;

use rand::Rng;
use rand::rngs::ChaCha8Rng;

use super::threat::{pace_of, threat_of};
use super::worth::{ki_price, life_left};
use crate::battle::Battle;
use crate::battle::attack::check_attack;
use crate::battle::checks::{save_spec, skill_spec};
use crate::battle::command::{AttackOrder, AttackTarget, Command, SurgeKind};
use crate::battle::components::CombatantId;
use crate::battle::context::ki_cost;
use crate::battle::context::{Declaration, declaration};
use crate::battle::family::assemble;
use crate::battle::fighter::Fighter;
use crate::battle::policy::candidate_attacks;
use crate::dice::distribution;
use crate::grid::{Field, Square, footprint_distance};
use crate::ruleset::{ConditionKind, ConditionRule, Polarity, Rules};

/// A computer player's strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Level {
    Easy,
    Normal,
    Hard,
}

/// How wide and deep a level looks.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Squares whose moves are scored in full (the most promising first).
    pub move_squares: usize,
    /// Also consider Boosted moves.
    pub boosted: bool,
    /// Wagers tried, as fractions of the Ki left after the cost.
    pub wagers: &'static [f64],
    /// How much the damage the unit may take where it stands counts against an option.
    pub risk_weight: f64,
    /// Value a move by the attack it makes possible.
    pub lookahead: bool,
    /// Relative noise added to every score (a weaker player misjudges).
    pub noise: f64,
    /// Odds evaluations per decision, at most.
    pub max_evals: usize,
    /// Weigh what the conditions a technique or an element gives on a hit are worth (the
    /// target's threat to the unit while it suffers them).
    pub weigh_conditions: bool,
    /// The chance, per decision, of a lapse: a random one of the options it judged better
    /// than ending the turn, instead of the best. A lapse still acts (it never idles), so a
    /// weaker player looks weak, not stuck.
    pub lapse_chance: f64,
}

impl Level {
    /// The settings of this level.
    pub fn settings(self) -> Settings {
        match self {
            Self::Easy => Settings {
                move_squares: 3,
                boosted: false,
                wagers: &[0.0],
                risk_weight: 0.1,
                lookahead: false,
                noise: 0.6,
                max_evals: 150,
                weigh_conditions: false,
                lapse_chance: 0.25,
            },
            Self::Normal => Settings {
                move_squares: 10,
                boosted: true,
                wagers: &[0.0, 0.5],
                risk_weight: 0.35,
                lookahead: true,
                noise: 0.05,
                max_evals: 1200,
                weigh_conditions: true,
                lapse_chance: 0.0,
            },
            Self::Hard => Settings {
                move_squares: 24,
                boosted: true,
                wagers: &[0.0, 0.25, 0.5, 1.0],
                risk_weight: 0.4,
                lookahead: true,
                noise: 0.0,
                max_evals: 6000,
                weigh_conditions: true,
                lapse_chance: 0.0,
            },
        }
    }
}

use crate::battle::family::stages::STAGE_WORTH;
/// What making a power-stages opponent spend a defense card is worth in life cards: the next
/// attack of that kind lands.
const CARD_WORTH: f64 = 1.5;
/// Worth of pushing a target through a threshold (its Steadfast Save may fail, its side
/// loses Bonus Momentum to us).
const THRESHOLD_BONUS: f64 = 4.0;

/// The state a decision is made in.
struct Situation<'a> {
    rules: &'a Rules,
    field: Field<'a>,
    fighters: Vec<Fighter>,
    me: Fighter,
    settings: Settings,
    evals: usize,
    /// Per opponent: its best expected damage to us per attack, in melee and at range.
    threat: BTreeMap<CombatantId, (f64, f64)>,
    /// Per opponent: how far it reaches in a round walking and running (its Speed plus its
    /// melee reach), worked out once a decision: every square weighed asks it.
    pace: BTreeMap<CombatantId, (u32, u32)>,
    /// Per target and on-damage list (a technique's or an element's id): what its conditions
    /// take off that target's threat to the unit in a round, worked out once a decision.
    hamper: BTreeMap<(CombatantId, String), f64>,
}

impl Situation<'_> {
    fn spend(&mut self, n: usize) -> bool {
        self.evals += n;
        self.evals <= self.settings.max_evals
    }

    fn opponents(&self) -> impl Iterator<Item = &Fighter> {
        self.fighters
            .iter()
            .filter(|f| f.side != self.me.side && !f.defeated() && f.position.is_some())
    }

    /// The exact value of an attack order made by `me` as it stands in `fighters`.
    fn attack_value(
        &mut self,
        fighters: &[Fighter],
        me: &Fighter,
        order: &AttackOrder,
    ) -> Option<f64> {
        self.attack_value_with(fighters, me, order, 0.0)
    }

    /// [`Situation::attack_value`] with `on_hit` more for each target the attack hits (what
    /// a condition it gives on a hit is worth).
    fn attack_value_with(
        &mut self,
        fighters: &[Fighter],
        me: &Fighter,
        order: &AttackOrder,
        on_hit: f64,
    ) -> Option<f64> {
        let targets = check_attack(self.rules, &self.field, fighters, me, order, None).ok()?;
        let mut decl = declaration(self.rules, me, order, targets.len()).ok()?;
        decl.bystanders = fighters;
        decl.numbers_only = true;
        let refs: Vec<&Fighter> = targets
            .iter()
            .filter_map(|id| fighters.iter().find(|f| f.id == *id))
            .collect();
        if !self.spend(refs.len()) {
            return None;
        }
        let ctx = assemble(self.rules, &self.field, me, &refs, &decl);
        let mut value = 0.0;
        let family = crate::battle::family::of(self.rules);
        for (tc, t) in ctx.targets.iter().zip(&refs) {
            let choice = family.expected_answer(self.rules, &ctx, tc, &decl, t);
            let thresholds = choice.new_thresholds;
            let worth = self.kill_worth(t);
            // A power-stages block still costs the defender its card.
            let card_taken = if choice.stage_loss.is_some() && choice.hit_chance == 0.0 {
                CARD_WORTH
            } else {
                0.0
            };
            let grants = if self.settings.weigh_conditions && t.side != me.side {
                self.grants_worth(me, t, &decl)
            } else {
                0.0
            };
            let aftermath =
                family.aftermath_worth((&self.field, fighters), &decl.profile.id, me, t);
            let effect =
                (family.effect_worth(&decl.profile.id, me, t) + on_hit + grants + aftermath)
                    * choice.hit_chance;
            let v = choice.expected_damage
                + effect
                + card_taken
                + STAGE_WORTH * choice.stage_loss.unwrap_or(0) as f64
                + THRESHOLD_BONUS * thresholds
                + worth * choice.defeat_chance;
            // Digimon's helping effects, and a shinobi jutsu's healing of an ally.
            let helping =
                family.helps_allies(&decl.profile.id) || family.aims_at_allies(&decl.profile.id);
            value += if t.side == me.side && !helping {
                -2.0 * v
            } else {
                v
            };
            // A Reflect sends the attack back at the unit.
            value -= choice.reflected_damage;
            // Shinobi: someone standing in the way takes what it absorbs, a loss when it is
            // one of ours.
            if let Some(ab) = &tc.absorb
                && let Some(p) = ab
                    .person
                    .and_then(|id| fighters.iter().find(|f| f.id == id))
            {
                let left = ab.left;
                let per_hit = crate::dice::distribution(&ctx.wound)
                    .map(|w| w.clamp(0, left))
                    .mean();
                let hurt = choice.hit_chance * f64::from(ab.chance.min(100)) / 100.0 * per_hit;
                value += if p.side == me.side { -2.0 * hurt } else { hurt };
            }
        }
        let backlash = decl
            .technique
            .and_then(|t| t.backlash.as_ref())
            .map_or(0, |b| crate::battle::fighter::eval(b, &me.vars()));
        let ki = ctx.ki_cost + decl.wager;
        Some(value - ki_price(me) * ki as f64 - backlash as f64)
    }

    /// What the conditions `decl`'s technique and element give `t` on a damaging hit are
    /// worth to `me`: how much less `t` threatens it in a round while it suffers them.
    fn grants_worth(&mut self, me: &Fighter, t: &Fighter, decl: &Declaration) -> f64 {
        let lists = [
            decl.technique
                .map(|x| (format!("t:{}", x.id), &x.on_damage)),
            decl.element.map(|x| (format!("e:{}", x.id), &x.on_damage)),
        ];
        let mut total = 0.0;
        for (key, grants) in lists.into_iter().flatten() {
            if grants.is_empty() {
                continue;
            }
            let key = (t.id, key);
            if let Some(v) = self.hamper.get(&key) {
                total += v;
                continue;
            }
            let (m0, r0) = self.threat.get(&t.id).copied().unwrap_or((0.0, 0.0));
            let mut hampered = t.clone();
            for g in grants {
                hampered.conditions.0.push(
                    crate::battle::components::ConditionInstance::until_ended(
                        g.condition,
                        Some(me.id),
                        me.power.tier,
                    ),
                );
            }
            let (m1, r1) = threat_of(self.rules, &self.field, &hampered, me);
            let rounds = f64::from(self.rules.actions.standard_actions);
            let lasting: f64 = grants
                .iter()
                .map(|g| super::worth::lasting_damage(self.rules, g, t))
                .sum();
            // Actions it loses (Slowed, Pinned) are attacks it does not make at all.
            let left = rounds - super::worth::actions_lost(self.rules, grants, rounds);
            let v = (m0.max(r0) * rounds - m1.max(r1) * left).max(0.0) + lasting;
            self.hamper.insert(key, v);
            total += v;
        }
        total
    }

    /// What the Exploits a maneuver made standing beside opponents invites cost the unit:
    /// the melee threat of each adjacent opponent with a Counter Action left.
    fn standing_exploits(&self) -> f64 {
        crate::battle::charge::adjacent_provokers(&self.fighters, &self.me)
            .iter()
            .filter(|id| {
                self.fighters
                    .iter()
                    .any(|f| f.id == **id && f.actions.counter > 0)
            })
            .map(|id| self.threat.get(id).map_or(0.0, |t| t.0))
            .sum()
    }

    /// What defeating `t` is worth beyond the damage: the damage it would go on dealing us
    /// (a round of its attacks) and, for a Minion, the Bonus Momentum it gives.
    fn kill_worth(&self, t: &Fighter) -> f64 {
        let (melee, ranged) = self.threat.get(&t.id).copied().unwrap_or((0.0, 0.0));
        let bonus = if t.power.minion { 6.0 } else { 0.0 };
        10.0 + 3.0 * melee.max(ranged) + bonus
    }

    /// The damage the opponents (and, d20, the live grenades) can deal us next round if we
    /// stand on `at`.
    fn risk(&self, at: Square) -> f64 {
        let ground = crate::battle::family::of(self.rules).ground_risk(&self.field, &self.me, at);
        self.risk_of(at, |_| true) + ground
    }

    /// [`Situation::risk`] counting only the opponents `counts` keeps.
    fn risk_of(&self, at: Square, counts: impl Fn(CombatantId) -> bool) -> f64 {
        let family = crate::battle::family::of(self.rules);
        let mut total = 0.0;
        for o in self.opponents().filter(|o| counts(o.id)) {
            let Some(op) = o.position else {
                continue;
            };
            let (melee, ranged) = self.threat.get(&o.id).copied().unwrap_or((0.0, 0.0));
            let d = footprint_distance(op, o.size.squares, at, self.me.size.squares);
            let (walk, run) = self
                .pace
                .get(&o.id)
                .copied()
                .unwrap_or_else(|| pace_of(self.rules, o));
            let attacks = |moves: u32| f64::from(family.attacks_in_round(o, moves));
            let m = if d <= o.size.melee_range {
                melee * attacks(0)
            } else if d <= walk {
                melee * attacks(1)
            } else if d <= run {
                melee * attacks(1) * 0.8
            } else {
                0.0
            };
            // Its attacks are shared among every one of our units it can reach as easily.
            let reach = if m > 0.0 { run } else { u32::MAX };
            let ours = self
                .fighters
                .iter()
                .filter(|f| f.side == self.me.side && f.id != self.me.id && !f.defeated())
                .filter(|f| {
                    f.position.is_some_and(|p| {
                        footprint_distance(op, o.size.squares, p, f.size.squares) <= reach
                    })
                })
                .count();
            total += m.max(ranged * attacks(0)) / (1 + ours) as f64;
        }
        total
    }

    /// The best value of an attack of one action `me` could make from `at` (what an action left
    /// after a move there does).
    fn best_attack_from(
        &mut self,
        at: Square,
        orders: &[AttackOrder],
    ) -> Option<(f64, AttackOrder)> {
        let mut fighters = self.fighters.clone();
        let me = fighters.iter_mut().find(|f| f.id == self.me.id)?;
        me.position = Some(at);
        let me = me.clone();
        let mut best: Option<(f64, AttackOrder)> = None;
        // Only an attack of one action can follow a move (not a Digimon's Complex Action).
        let family = crate::battle::family::of(self.rules);
        let one_action = family.actions_after(&me, None);
        for o in orders {
            if family.actions_after(&me, Some(&o.profile)) < one_action {
                continue;
            }
            if let Some(v) = self.attack_value(&fighters, &me, o)
                && best.as_ref().is_none_or(|(b, _)| v > *b + 1e-9)
            {
                best = Some((v, o.clone()));
            }
        }
        best
    }
}

/// Rounds of an Arrogant Declaration's lasting penalty a unit at full Life weighs (battles on
/// the shipped maps last 8 to 18 rounds). Chosen by playing `normal` against a `normal` that
/// never declares on four DBU scenarios: 12 won the most; 6 and 24 won less.
const ARROGANCE_ROUNDS: f64 = 12.0;

/// One option and its score.
struct Candidate {
    score: f64,
    command: Command,
}

/// The command the planner at `level` gives for `who`, drawing its noise from `rng`.
pub fn decide(
    battle: &mut Battle,
    who: CombatantId,
    level: Level,
    rng: &mut ChaCha8Rng,
) -> Command {
    let fighters = battle.fighters();
    let Some(me) = fighters.iter().find(|f| f.id == who).cloned() else {
        return Command::EndTurn { who };
    };
    let Some(here) = me.position else {
        return Command::EndTurn { who };
    };
    // It plans with what its side knows: a Hidden opponent's square is not known.
    let fighters = crate::battle::hide::as_known_to(fighters, me.side);
    let rules = battle.rules().clone();
    if level != Level::Easy
        && let Some(cmd) = super::first::hand_over_first(battle, &rules, &fighters, &me)
    {
        return cmd;
    }
    let settings = level.settings();
    let turn = battle.turn();
    let field = battle.field();
    let mut threat = BTreeMap::new();
    let mut pace = BTreeMap::new();
    for o in fighters
        .iter()
        .filter(|f| f.side != me.side && !f.defeated() && f.position.is_some())
    {
        threat.insert(o.id, threat_of(&rules, &field, o, &me));
        pace.insert(o.id, pace_of(&rules, o));
    }
    let mut s = Situation {
        rules: &rules,
        field,
        fighters: fighters.clone(),
        me: me.clone(),
        settings,
        evals: 0,
        threat,
        pace,
        hamper: BTreeMap::new(),
    };
    let mut options: Vec<Candidate> = Vec::new();
    let risk_here = s.risk(here);

    // Attacks from here, with the level's wagers.
    let mut orders = candidate_attacks(&rules, &fighters, &me);
    orders.retain(|o| o.wager == 0);
    let mut with_wagers = Vec::new();
    for o in &orders {
        with_wagers.push(o.clone());
        if let Ok(decl) = declaration(&rules, &me, o, 1)
            && decl.attack_type.wager
        {
            let cost = ki_cost(&me, &decl);
            let spare = (me.capacity.current - cost).min(me.ki.current - cost);
            for f in settings.wagers.iter().filter(|f| **f > 0.0) {
                let w = (spare as f64 * f).floor() as i64;
                if w > 0 {
                    with_wagers.push(AttackOrder {
                        wager: w,
                        ..o.clone()
                    });
                }
            }
        }
        // d20: Power Attack at the level's shares of its cap, and the aimed shots.
        with_wagers.extend(d20::variants(
            &rules,
            &s.field,
            (&fighters, &me),
            &s.settings,
            o,
        ));
    }
    // Every option is scored as this action's value, plus what the actions left after it can
    // do from where the unit then stands (about the best attack there, each), less the risk of
    // standing there: so a move is only worth its action if it makes better attacks possible.
    let left_after = f64::from(me.actions.usable().saturating_sub(1));
    let family = crate::battle::family::of(&rules);
    // What one action here is worth: the best attack that costs one (a Digimon's Complex
    // Action or item takes the whole turn, so it cannot be what an action left over does).
    let one_action = family.actions_after(&me, None);
    let mut best_here = 0.0f64;
    let mut best_any = 0.0f64;
    let mut attacks = Vec::new();
    for o in &with_wagers {
        if let Some(v) = s.attack_value(&fighters, &me, o) {
            if family.actions_after(&me, Some(&o.profile)) >= one_action {
                best_here = best_here.max(v);
            }
            best_any = best_any.max(v);
            attacks.push((v, o.clone()));
        }
    }
    // d20: nothing to strike this turn and a foe acting next: wait for it to come.
    let foes = (&s.threat, &s.pace);
    if level != Level::Easy
        && let Some(cmd) = super::first::delay_first(turn, &rules, (&fighters, &me), best_any, foes)
    {
        return cmd;
    }
    // United Attack (DBU): the two best attacks, joined by an adjacent ally whose turn this
    // round is over, less the Ki that ally pays.
    let mut best_two: Vec<&(f64, AttackOrder)> = attacks.iter().filter(|a| a.0 > 0.0).collect();
    best_two.sort_by(|a, b| b.0.total_cmp(&a.0));
    let joined: Vec<_> = best_two
        .iter()
        .take(2)
        .flat_map(|(_, o)| super::united::united_variants(battle, &rules, &fighters, &me, o))
        .collect();
    for (o, ki, ally) in joined {
        if let (Some(v), Some(a)) = (
            s.attack_value(&fighters, &me, &o),
            fighters.iter().find(|f| f.id == ally),
        ) {
            attacks.push((v - super::worth::ki_price(a) * ki as f64, o));
        }
    }
    let rest_here = f64::from(family.actions_after(&me, None)) * best_here;
    // About the score of the best plain attack from here (its value and the actions after it,
    // before the risk every option here shares): what a costly maneuver's best case must beat
    // before its exact price is worked out.
    let best_attack = (best_here * (1.0 + left_after)).max(best_any);
    // The attack worth charging, if any: the best one from here (with no wager), the only one a
    // charge could pay for.
    let best_plain = attacks
        .iter()
        .filter(|(v, o)| *v > 0.0 && o.wager == 0)
        .fold(None::<&(f64, AttackOrder)>, |best, a| match best {
            Some(b) if b.0 >= a.0 => Some(b),
            _ => Some(a),
        })
        .cloned();
    let to_charge = best_plain.as_ref().map(|(_, o)| o.clone());
    // The best single-target attack from here, the one a Called Shot could be.
    let to_call = attacks
        .iter()
        .filter(|(v, o)| *v > 0.0 && o.wager == 0)
        .filter(|(_, o)| matches!(o.target, AttackTarget::Combatant(_)))
        .filter(|(_, o)| {
            rules
                .profile(&o.profile)
                .is_some_and(|p| matches!(p.targeting, crate::ruleset::Targeting::Single))
        })
        .fold(None::<&(f64, AttackOrder)>, |best, a| match best {
            Some(b) if b.0 >= a.0 => Some(b),
            _ => Some(a),
        })
        .cloned();
    for (v, o) in attacks {
        // An attack worth nothing is an action thrown away, not a tie with ending the turn: a
        // helping attack that helps nobody (Digimon: a second Direct on the same roll, Heal
        // on the unhurt), a shinobi attack whose every hit full cover takes whole.
        let on_ally = match o.target {
            AttackTarget::Combatant(id) => fighters
                .iter()
                .any(|f| f.id == id && f.side == me.side && f.id != me.id),
            _ => false,
        };
        let wasted = family.helps_allies(&o.profile)
            || on_ally
            || family.struck_through_full_cover(&o.profile);
        if v <= 0.0 && wasted {
            continue;
        }
        // What the actions left after this attack can do from here (power stages: only a
        // move once the turn's attacks are spent; Digimon: nothing after a Complex Action).
        let after = f64::from(family.actions_after(&me, Some(&o.profile))) * best_here;
        options.push(Candidate {
            score: v + after - settings.risk_weight * risk_here,
            command: Command::Attack(o),
        });
    }

    // Called Shot (DBU) of the best single-target attack, at each body part: its own value (a
    // lower Strike, a higher Damage Category, an Action and Ki more) plus, on a hit, what the
    // part's condition is worth: the unit's attacks left this turn against the hampered
    // target, and the target's attacks at the unit next round.
    if let Some(cs) = &rules.attacks.called_shot
        && !me.round.called_shot
        && me.actions.usable() > cs.actions
        && let Some((plain, o)) = &to_call
        && let AttackTarget::Combatant(tid) = o.target
        && let Some(target) = fighters.iter().find(|f| f.id == tid)
        && let Some(first) = cs.targets.first()
    {
        let left = f64::from(
            family
                .actions_after(&me, Some(&o.profile))
                .saturating_sub(cs.actions),
        );
        let (m0, r0) = s.threat.get(&tid).copied().unwrap_or((0.0, 0.0));
        // The shot's value is the same at every part but for the condition, which adds its
        // worth times the chance of hitting: two evaluations serve all the parts.
        let at_first = AttackOrder {
            called_shot: Some(first.id.clone()),
            ..o.clone()
        };
        if let Some(shot) = s.attack_value_with(&fighters, &me, &at_first, 0.0) {
            let hits = s
                .attack_value_with(&fighters, &me, &at_first, 1.0)
                .map_or(0.0, |v| v - shot);
            for part in &cs.targets {
                let mut hampered = target.clone();
                for g in &part.on_damage {
                    hampered.conditions.0.push(
                        crate::battle::components::ConditionInstance::until_ended(
                            g.condition,
                            Some(who),
                            me.power.tier,
                        ),
                    );
                }
                let mut roster = fighters.clone();
                if let Some(r) = roster.iter_mut().find(|r| r.id == tid) {
                    *r = hampered.clone();
                }
                let offense = s
                    .attack_value(&roster, &me, o)
                    .map_or(0.0, |v| (v - plain).max(0.0) * left);
                // The target's attacks next round cannot lose more than all they are worth:
                // when even that would not make the shot beat the best plain attack, their
                // exact loss is not worked out.
                let rounds = f64::from(rules.actions.standard_actions);
                let most = shot + hits * (offense + m0.max(r0) * rounds) + left * best_here;
                let defense = if most < best_attack {
                    0.0
                } else {
                    let (m1, r1) = threat_of(&rules, &s.field, &hampered, &me);
                    (m0.max(r0) - m1.max(r1)).max(0.0) * rounds
                };
                let order = AttackOrder {
                    called_shot: Some(part.id.clone()),
                    ..o.clone()
                };
                options.push(Candidate {
                    score: shot + hits * (offense + defense) + left * best_here
                        - settings.risk_weight * risk_here,
                    command: Command::Attack(order),
                });
            }
        }
    }

    // Energy Charge of the best attack: that attack, stronger by a charge, made with an action
    // left (or next turn, worth less), less the charge's Ki, the Exploits of adjacent
    // opponents and the Guard Down it brings meanwhile.
    if let Some(m) = &rules.attacks.energy_charge.maneuver
        && let Some(o) = &to_charge
    {
        let left = me.actions.usable().saturating_sub(m.actions);
        let cost = crate::battle::charge::charge_cost(&rules, &me);
        let exploits = s.standing_exploits();
        if crate::battle::charge::check_energy_charge(
            &rules,
            &me,
            &o.profile,
            o.technique.as_deref(),
        )
        .is_ok()
        {
            let mut charged = me.clone();
            charged.ki.current -= cost;
            charged.capacity.current -= cost;
            charged
                .encounter
                .charge
                .get_or_insert(crate::battle::components::HeldCharge {
                    profile: o.profile.clone(),
                    technique: o.technique.clone(),
                    charges: 0,
                })
                .charges += 1;
            let mut roster = fighters.clone();
            if let Some(f) = roster.iter_mut().find(|f| f.id == who) {
                *f = charged.clone();
            }
            if let Some(v) = s.attack_value(&roster, &charged, o) {
                let when = if left > 0 { 1.0 } else { 0.5 };
                let rest = f64::from(left.saturating_sub(1)) * best_here;
                options.push(Candidate {
                    score: when * v + rest
                        - ki_price(&me) * cost as f64
                        - exploits
                        - settings.risk_weight * risk_here * 1.5,
                    command: Command::EnergyCharge {
                        who,
                        profile: o.profile.clone(),
                        technique: o.technique.clone(),
                    },
                });
            }
        }
    }

    // Moves: walks (and Boosted ones), and jumps where the ruleset has them.
    options.extend(moves::candidates(
        &mut s, &fighters, &me, here, &orders, left_after,
    ));

    // Standing up, ending conditions, curing poison, Surges.
    if me.conditions.has(ConditionKind::Prone) {
        // Prone makes every hit Lethal and the Dodge a Guard Down one.
        options.push(Candidate {
            score: 0.4 * risk_here + 4.0,
            command: Command::StandUp { who },
        });
    }
    for c in &me.conditions.0 {
        let def = rules.condition(c.kind);
        if def.polarity != Polarity::Negative || matches!(def.rule, ConditionRule::Absorbed { .. })
        {
            continue;
        }
        let m = &rules.conditions.end_condition;
        let spec = match rules.save(&m.check) {
            Some(_) => save_spec(&rules, &me, &m.check, 0),
            None => match skill_spec(&rules, &me, &m.check) {
                Some(sp) => sp,
                None => continue,
            },
        };
        let tn = rules.difficulty(&m.difficulty);
        let p = 1.0 - distribution(&spec).cdf(tn - 1);
        let benefit = match def.rule {
            ConditionRule::Slowed { .. } | ConditionRule::Transfigured { .. } => 8.0,
            ConditionRule::Poisoned { life_loss, .. } => life_loss.of(me.life.max) as f64 * 2.0,
            ConditionRule::DamageOverTime { .. } => c.amount as f64 * 2.0,
            ConditionRule::GuardDown { .. } | ConditionRule::Prone { .. } => risk_here * 0.3,
            _ => 3.0,
        };
        options.push(Candidate {
            score: p * benefit - 2.0,
            command: Command::EndCondition {
                who,
                condition: c.kind,
            },
        });
    }
    if me.conditions.has(ConditionKind::Poisoned)
        && let ConditionRule::Poisoned {
            cure, life_loss, ..
        } = &rules.condition(ConditionKind::Poisoned).rule
        && let Some(spec) = skill_spec(&rules, &me, &cure.check)
    {
        let tn = rules.difficulty(&cure.difficulty);
        let p = 1.0 - distribution(&spec).cdf(tn - 1);
        options.push(Candidate {
            score: p * life_loss.of(me.life.max) as f64 * 2.5 - 2.0,
            command: Command::CurePoison { who },
        });
    }
    if !me.encounter.surge_used {
        if me.life.current * 2 < me.life.max {
            options.push(Candidate {
                score: 0.6 * (me.life.max - me.life.current) as f64 * 0.25,
                command: Command::Surge {
                    who,
                    kind: SurgeKind::Healing,
                },
            });
        }
        if me.ki.current * 4 < me.ki.max {
            options.push(Candidate {
                score: 6.0,
                command: Command::Surge {
                    who,
                    kind: SurgeKind::Ki,
                },
            });
        }
    }

    // Powering Up: its bonus on the attacks left this turn and the next.
    if crate::battle::recovery::check_power_up(&rules, &me).is_ok() {
        let mut powered = me.clone();
        powered.encounter.power += 1;
        let mut roster = fighters.clone();
        if let Some(f) = roster.iter_mut().find(|f| f.id == who) {
            f.encounter.power += 1;
        }
        let mut best_powered = 0.0f64;
        for o in with_wagers.iter().take(16) {
            if let Some(v) = s.attack_value(&roster, &powered, o) {
                best_powered = best_powered.max(v);
            }
        }
        let gain = (best_powered - best_here).max(0.0);
        let next_turn = f64::from(rules.actions.standard_actions);
        options.push(Candidate {
            score: left_after * best_powered + next_turn * gain
                - settings.risk_weight * risk_here * 0.95,
            command: Command::PowerUp { who },
        });
    }
    // Arrogant Declaration: Superiority on the attacks left this turn and the next, against
    // its lasting penalty, which weighs on attacks and defenses alike for as long as the unit
    // lasts (ARROGANCE_ROUNDS at full Life, fewer as it is worn down: a last stand pays most),
    // the Exploits of adjacent opponents and the risk of standing here.
    // Only with an action left to use it this turn: declaring with the last one measured worse.
    if left_after >= 1.0
        && let Some((plain, best)) = &best_plain
        && crate::battle::arrogance::check_arrogant_declaration(&rules, &fighters, &me).is_ok()
    {
        // Weighed on the best attack from here alone: every attack was a third of the
        // planner's time on a headless battle, for the same choices nearly always.
        let value_as = |s: &mut Situation, f: &Fighter| {
            let mut roster = fighters.clone();
            if let Some(r) = roster.iter_mut().find(|r| r.id == who) {
                *r = f.clone();
            }
            s.attack_value(&roster, f, best).unwrap_or(0.0)
        };
        let mut superior = me.clone();
        superior
            .conditions
            .0
            .push(crate::battle::components::ConditionInstance::until_ended(
                crate::ruleset::ConditionKind::Superiority,
                None,
                me.power.tier,
            ));
        let mut after = me.clone();
        after.encounter.arrogance = Some(crate::battle::components::Arrogance::Superior);
        let gain = (value_as(&mut s, &superior) - plain).max(0.0);
        let loss = (plain - value_as(&mut s, &after)).max(0.0);
        let next_turn = f64::from(rules.actions.standard_actions);
        let weight = ARROGANCE_ROUNDS * life_left(&me);
        // Its best case, with no Exploits and no opponent doing more against the lower Soak;
        // when that is below the best plain attack the rest is not worked out.
        let most = left_after * (best_here + gain) + next_turn * gain - weight * next_turn * loss;
        if most >= best_attack {
            // What the lower Soak and rolls cost a round in the opponents' attacks, shared among
            // the unit's side (they will not all strike this one).
            let allies = fighters
                .iter()
                .filter(|f| f.side == me.side && !f.defeated())
                .count()
                .max(1) as f64;
            let exposed: f64 = fighters
                .iter()
                .filter(|o| o.side != me.side && !o.defeated() && o.position.is_some())
                .filter_map(|o| {
                    // Its threat to the unit as it is was worked out at the start; one that
                    // cannot hurt it now is left out.
                    let (c, d) = s.threat.get(&o.id).copied()?;
                    let before = c.max(d);
                    if before <= 0.0 {
                        return None;
                    }
                    let (a, b) = threat_of(&rules, &s.field, o, &after);
                    Some((a.max(b) - before).max(0.0))
                })
                .sum::<f64>()
                * f64::from(rules.actions.standard_actions)
                / allies;
            let exploits = s.standing_exploits();
            options.push(Candidate {
                score: left_after * (best_here + gain) + next_turn * gain
                    - weight * (next_turn * loss + exposed)
                    - exploits
                    - settings.risk_weight * risk_here * 0.95,
                command: Command::ArrogantDeclaration { who },
            });
        }
    }
    if rules.actions.empower.is_some() {
        let exploits = s.standing_exploits();
        let risk = settings.risk_weight * risk_here;
        options.extend(
            super::worth::empower_options(&rules, &fighters, &me, best_here, (exploits, risk))
                .into_iter()
                .map(|(score, command)| Candidate { score, command }),
        );
    }
    if rules.actions.grapple.is_some() {
        let threat = |id| s.threat.get(&id).map_or(0.0, |t: &(f64, f64)| t.0.max(t.1));
        let risk = settings.risk_weight * risk_here;
        let found = super::worth::grapple_options(
            &rules, &s.field, &fighters, &me, best_here, &threat, risk,
        );
        options.extend(
            found
                .into_iter()
                .map(|(score, command)| Candidate { score, command }),
        );
    }
    let risk = settings.risk_weight * risk_here;
    options.extend(d20::feint_options(&mut s, (&fighters, &me), &orders, risk));
    if crate::battle::hide::check_hide(&rules, &fighters, &me).is_ok() {
        let risk = settings.risk_weight * risk_here;
        options.push(Candidate {
            score: super::worth::hide_worth(&rules, &fighters, &me, best_here, risk),
            command: Command::Hide { who },
        });
    }
    // Combat Recovery: Life and Ki back, at the price of the actions, the Exploits it invites
    // and a lower Defense Value until the next turn.
    let provokers = crate::battle::recovery::recovery_provokers(&rules, &fighters, &me);
    let exploit_cost: f64 = provokers
        .iter()
        .filter(|id| {
            fighters
                .iter()
                .any(|f| f.id == **id && f.actions.counter > 0)
        })
        .map(|id| s.threat.get(id).map_or(0.0, |t| t.0.max(t.1)))
        .sum();
    let recovery = &rules.actions.combat_recovery;
    for n in recovery.min_actions..=recovery.max_actions {
        if crate::battle::recovery::check_recovery(&rules, &me, n).is_err() {
            continue;
        }
        let spec = crate::battle::recovery::recovery_spec(&rules, &me, n);
        let heal = distribution(&spec).mean();
        let life = heal.min((me.life.max - me.life.current) as f64);
        let d = me.derived(&rules);
        let ki = heal.min((d.max_ki - me.ki.current) as f64);
        let lost = if exploit_cost > 0.0 { 0.5 * life } else { 0.0 };
        let left = f64::from(me.actions.usable().saturating_sub(n));
        options.push(Candidate {
            score: 0.6 * (life - lost) + ki_price(&me) * ki * 0.5 + left * best_here
                - exploit_cost
                - settings.risk_weight * risk_here * (1.0 + 0.08 * f64::from(n)),
            command: Command::Recover { who, actions: n },
        });
    }

    // Digivolving (Digimon): every Hit Point back, as Combat Recovery weighs Life, and the
    // higher stage's attacks with the actions left after it.
    if let Some(d) = rules.digimon() {
        options.extend(digivolve::options(&mut s, d, &fighters, &me, risk_here));
        if d.combat.flight.is_some() {
            options.extend(flight::options(&mut s, &fighters, &me, here));
        }
    }

    // Ending the turn keeps whatever risk there is here.
    let idle = -settings.risk_weight * risk_here;
    options.push(Candidate {
        score: idle,
        command: Command::EndTurn { who },
    });
    // Utility maneuvers keep the attacks after them.
    for o in &mut options {
        if matches!(
            o.command,
            Command::StandUp { .. }
                | Command::EndCondition { .. }
                | Command::CurePoison { .. }
                | Command::Surge { .. }
        ) {
            // A Surge is an Instant: it keeps every action.
            let surge = matches!(o.command, Command::Surge { .. });
            o.score +=
                rest_here + if surge { best_here } else { 0.0 } - settings.risk_weight * risk_here;
        }
    }

    // Noise, then the best legal option.
    for o in &mut options {
        if settings.noise > 0.0 {
            let u = f64::from(rng.next_u32()) / f64::from(u32::MAX) * 2.0 - 1.0;
            o.score += u * settings.noise * (o.score.abs() + 3.0);
        }
    }
    options.sort_by(|a, b| b.score.total_cmp(&a.score));
    if settings.lapse_chance > 0.0 && family.lapses() {
        lapse::lapse(&mut options, idle, settings.lapse_chance, rng);
    }
    for o in options {
        if battle.check(&o.command).is_ok() {
            return super::first::lie_down_first(
                battle,
                &rules,
                &fighters,
                &me,
                level != Level::Easy,
                o.command,
            );
        }
    }
    super::first::lie_down_first(
        battle,
        &rules,
        &fighters,
        &me,
        level != Level::Easy,
        Command::EndTurn { who },
    )
}
