//! The headless simulator: whole seeded battles one after another, every side played by a
//! computer policy, summed into a report (wins, rounds, and each side's figures in its
//! ruleset's own terms: DBU's damage categories and Ki, d20's damage and armour, Digimon's HP
//! and effects, power stages' stages and life cards, the ninja chapter's chakra) and a hash
//! over every battle's final state.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::ai::{Agent, Policy};
use crate::battle::Battle;
use crate::battle::components::{CombatantId, Controller, Side};
use crate::battle::stats::{CombatantStats, Figure};
use crate::dice::DiceSource;
use crate::scenario::Loaded;

/// What to simulate.
#[derive(Debug, Clone)]
pub struct Options {
    /// Battle `i` plays `scenarios[i % len]`.
    pub scenarios: Vec<Loaded>,
    pub battles: u32,
    pub seed: u64,
    /// The policy of side `s` is `ai[s % len]`.
    pub ai: Vec<Policy>,
    /// Rounds after which a battle with no round limit of its own stops as a draw.
    pub max_rounds: u32,
    /// Swap the sides' policies for the second half of the battles.
    pub swap: bool,
    /// Measure how long each computer decision takes.
    pub timings: bool,
    /// Threads to play on (at least one); the report does not depend on it (but timings
    /// measured on a busy machine are slower).
    pub jobs: usize,
}

/// One side's totals over the battles of one ruleset: sides of different rulesets are never
/// summed together, since their quantities are not the same things.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SideReport {
    /// The ruleset's id (`dbu`, `d20`…).
    pub ruleset: String,
    pub side: u8,
    pub ai: String,
    pub wins: u32,
    pub stats: CombatantStats,
    /// The counts as the ruleset names them (see [`CombatantStats::figures`]).
    pub figures: Vec<Figure>,
}

/// How often each of a ruleset's combat conditions was gained over the battles.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ConditionsReport {
    pub ruleset: String,
    /// Every condition of the ruleset, in its data's order, with its count.
    pub gained: Vec<(String, u32)>,
}

/// One scenario's share of the battles.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ScenarioReport {
    pub scenario: String,
    pub battles: u32,
    pub wins: BTreeMap<u8, u32>,
    pub draws: u32,
    pub mean_rounds: f64,
    pub max_rounds: u32,
}

/// Wins of one policy, whichever side it played.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PolicyReport {
    pub policy: String,
    pub battles: u32,
    pub wins: u32,
    pub draws: u32,
}

/// How long computer decisions took, per policy (only with `timings`): per command, and per
/// unit's turn (every command one unit gave in one turn, added up), since a player waits for
/// the whole turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TimingReport {
    pub policy: String,
    pub decisions: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub turns: usize,
    pub turn_p50_ms: f64,
    pub turn_p99_ms: f64,
    pub turn_max_ms: f64,
}

/// The p50, p99 and maximum of `seconds`, in milliseconds rounded to hundredths.
fn percentiles_ms(mut seconds: Vec<f64>) -> (f64, f64, f64) {
    seconds.sort_by(f64::total_cmp);
    let at = |q: f64| round2(crate::percentile::nearest_rank(&seconds, q) * 1000.0);
    (at(0.5), at(0.99), at(1.0))
}

/// The simulator's summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    pub battles: u32,
    pub seed: u64,
    pub draws: u32,
    pub mean_rounds: f64,
    pub max_rounds: u32,
    pub sides: Vec<SideReport>,
    /// Wins per policy, counted by policy even when the sides swap.
    pub policies: Vec<PolicyReport>,
    pub scenarios: Vec<ScenarioReport>,
    /// Per ruleset with combat conditions: how often each was gained, every side together,
    /// those never gained included (a condition no battle brings shows as 0).
    pub conditions: Vec<ConditionsReport>,
    /// xxh3 over every battle's final state hash, in order, as hex.
    pub hash: String,
    /// Every battle: its scenario, seed, winner, rounds and final state hash.
    pub battle_hashes: Vec<BattleLine>,
    /// Decision times (present only when asked for: they differ between runs).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub timings: Vec<TimingReport>,
}

/// One battle of a simulation, for comparing runs battle by battle.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BattleLine {
    pub scenario: String,
    pub seed: u64,
    pub winner: Option<u8>,
    pub rounds: u32,
    pub hash: String,
}

/// SplitMix64: spreads consecutive battle numbers into unrelated seeds.
pub fn battle_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The end of one simulated battle.
pub struct Finished {
    pub winner: Option<Side>,
    pub rounds: u32,
    pub hash: u64,
    pub battle: Battle,
    /// Seconds each decision took, per side.
    pub decision_times: Vec<Vec<f64>>,
    /// Seconds each unit's turn took to decide (its decisions added up), per side.
    pub turn_times: Vec<Vec<f64>>,
}

/// A battle every side of which a computer plays, one command at a time: the simulator's
/// loop, and the save tests' (which save, load and compare between commands).
pub struct AiMatch {
    pub battle: Battle,
    pub agents: Vec<Agent>,
    /// The round after which the battle stops as a draw if nothing else ended it.
    pub limit: u32,
}

impl AiMatch {
    /// Sets up `loaded` with seeded dice and one agent per side (`policies[side % len]`).
    pub fn new(
        loaded: &Loaded,
        seed: u64,
        policies: &[Policy],
        max_rounds: u32,
    ) -> Result<Self, String> {
        let setup = loaded.setup(Controller::default());
        let battle = Battle::new(Arc::clone(&loaded.rules), &setup, DiceSource::seeded(seed))
            .map_err(|e| format!("{}: {e}", loaded.path.display()))?;
        let sides = loaded.scenario.sides.len().max(1);
        let agents = (0..sides)
            .map(|s| {
                Agent::new(
                    policies[s % policies.len().max(1)],
                    battle_seed(seed, 1000 + s as u64),
                )
            })
            .collect();
        Ok(Self::resume(loaded, battle, agents, max_rounds))
    }

    /// Continues a battle (a loaded save's) with these agents.
    pub fn resume(loaded: &Loaded, battle: Battle, agents: Vec<Agent>, max_rounds: u32) -> Self {
        // A Surprise Round is a free round before the scenario's limit counts.
        let limit = loaded
            .scenario
            .victory
            .round_limit
            .map_or(max_rounds, |l| l.rounds)
            .max(max_rounds)
            + battle.setup().opening.extra_rounds();
        Self {
            battle,
            agents,
            limit,
        }
    }

    /// True once the battle is over or past its round limit.
    pub fn finished(&self) -> bool {
        self.battle.outcome().is_some() || self.battle.turn().round > self.limit
    }

    /// The combatant who must act now and the side whose agent decides.
    pub fn actor(&mut self) -> Result<(CombatantId, usize), String> {
        if let Some(d) = self.battle.awaiting() {
            return Err(format!("nobody answers {d:?}"));
        }
        let Some(who) = self.battle.active() else {
            return Err("no one is active and the battle is not over".into());
        };
        let side = self
            .battle
            .fighter(who)
            .map_or(0, |f| usize::from(f.side.0) % self.agents.len().max(1));
        Ok((who, side))
    }

    /// Lets the deciding agent give one command; returns who acted, for which side, and
    /// how long the decision took in seconds. An illegal command is an error, never a hang.
    pub fn step(&mut self) -> Result<(CombatantId, usize, f64), String> {
        let (who, side) = self.actor()?;
        let started = std::time::Instant::now();
        let cmd = self.agents[side].command(&mut self.battle, who);
        let took = started.elapsed().as_secs_f64();
        self.battle.submit(cmd.clone()).map_err(|e| {
            format!(
                "the {} policy gave an illegal command {cmd:?}: {e}",
                self.agents[side].policy
            )
        })?;
        Ok((who, side, took))
    }

    /// Plays to the end and returns the final state hash.
    pub fn finish(&mut self) -> Result<u64, String> {
        while !self.finished() {
            self.step()?;
        }
        Ok(self.battle.state_hash())
    }
}

/// Plays one battle of `loaded` to its end with `agents[side]`; an illegal command from a
/// policy or a question nobody answers is an error, never a hang.
pub fn play(
    loaded: &Loaded,
    seed: u64,
    policies: &[Policy],
    max_rounds: u32,
) -> Result<Finished, String> {
    let mut game = AiMatch::new(loaded, seed, policies, max_rounds)?;
    let mut decision_times = vec![Vec::new(); game.agents.len()];
    let mut turn_times = vec![Vec::new(); game.agents.len()];
    // The unit whose turn is being timed: (round, unit, side, seconds so far).
    let mut turn: Option<(u32, CombatantId, usize, f64)> = None;
    while !game.finished() {
        let round = game.battle.turn().round;
        let (who, side, took) = game.step()?;
        decision_times[side].push(took);
        match &mut turn {
            Some((r, w, _, sum)) if *r == round && *w == who => *sum += took,
            _ => {
                if let Some((_, _, s, sum)) = turn.take() {
                    turn_times[s].push(sum);
                }
                turn = Some((round, who, side, took));
            }
        }
    }
    if let Some((_, _, s, sum)) = turn {
        turn_times[s].push(sum);
    }
    let mut battle = game.battle;
    let hash = battle.state_hash();
    let (winner, rounds) = match battle.outcome() {
        Some(o) => (o.winner, o.round),
        None => (None, battle.turn().round),
    };
    Ok(Finished {
        winner,
        rounds,
        hash,
        battle,
        decision_times,
        turn_times,
    })
}

/// Runs every battle and sums the report.
pub fn run(opts: &Options) -> Result<Report, String> {
    run_with_progress(opts, &|| {})
}

/// What the report keeps of one battle, played on a worker thread.
struct Played {
    winner: Option<Side>,
    rounds: u32,
    hash: u64,
    /// Each side's counts.
    stats: Vec<(Side, CombatantStats)>,
    decision_times: Vec<Vec<f64>>,
    turn_times: Vec<Vec<f64>>,
}

/// Plays battle `i` of `opts` with `policies` (swapped for the second half with `swap`).
fn play_one(opts: &Options, policies: &[Policy], i: u32) -> Result<Played, String> {
    let loaded = &opts.scenarios[i as usize % opts.scenarios.len()];
    let seed = battle_seed(opts.seed, u64::from(i));
    let these = policies_of(opts, policies, i);
    let done = play(loaded, seed, &these, opts.max_rounds)
        .map_err(|e| format!("battle {i} ({}, seed {seed}): {e}", loaded.id()))?;
    let mut battle = done.battle;
    let side_of: BTreeMap<_, _> = battle
        .fighters()
        .into_iter()
        .map(|f| (f.id, f.side))
        .collect();
    Ok(Played {
        winner: done.winner,
        rounds: done.rounds,
        hash: done.hash,
        stats: battle.stats().by_side(&side_of).into_iter().collect(),
        decision_times: done.decision_times,
        turn_times: done.turn_times,
    })
}

/// The policies of battle `i`: `policies`, reversed for the second half with `swap`.
fn policies_of(opts: &Options, policies: &[Policy], i: u32) -> Vec<Policy> {
    let mut these = policies.to_vec();
    if opts.swap && i >= opts.battles / 2 {
        these.reverse();
    }
    these
}

/// [`run`], calling `battle_done` (from any worker thread) after each battle, so a terminal
/// can show how far it got. The battles are played on `opts.jobs` threads and summed in
/// battle order: the report is the same whatever the threads or the callback do.
pub fn run_with_progress(
    opts: &Options,
    battle_done: &(dyn Fn() + Sync),
) -> Result<Report, String> {
    if opts.scenarios.is_empty() {
        return Err("no scenario to simulate".into());
    }
    let policies = if opts.ai.is_empty() {
        vec![Policy::Greedy]
    } else {
        opts.ai.clone()
    };
    let mut report = Report {
        battles: opts.battles,
        seed: opts.seed,
        ..Report::default()
    };
    let mut per_scenario: Vec<ScenarioReport> = opts
        .scenarios
        .iter()
        .map(|l| ScenarioReport {
            scenario: l.id(),
            ..ScenarioReport::default()
        })
        .collect();
    let mut sides: BTreeMap<(String, u8), (Arc<crate::ruleset::Rules>, SideReport)> =
        BTreeMap::new();
    let mut by_policy: BTreeMap<String, PolicyReport> = BTreeMap::new();
    let mut times: BTreeMap<String, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    let mut hashes: Vec<u8> = Vec::new();
    let mut total_rounds: u64 = 0;
    let played = crate::par::map_in_order(u64::from(opts.battles), opts.jobs, |i| {
        let done = play_one(opts, &policies, i as u32);
        battle_done();
        done
    })?;
    for (i, done) in (0..opts.battles).zip(played) {
        let done = done?;
        let k = i as usize % opts.scenarios.len();
        let loaded = &opts.scenarios[k];
        let seed = battle_seed(opts.seed, u64::from(i));
        let these = policies_of(opts, &policies, i);
        let sides_n = loaded.scenario.sides.len().max(1);
        let policy_of = |side: usize| these[side % these.len()];
        for side in 0..sides_n {
            let name = policy_of(side).to_string();
            let entry = by_policy
                .entry(name.clone())
                .or_insert_with(|| PolicyReport {
                    policy: name.clone(),
                    ..PolicyReport::default()
                });
            entry.battles += 1;
            match done.winner {
                Some(w) if usize::from(w.0) == side => entry.wins += 1,
                None => entry.draws += 1,
                _ => {}
            }
            if opts.timings {
                let (decisions, turns): &mut (Vec<f64>, Vec<f64>) = times.entry(name).or_default();
                decisions.extend(done.decision_times.get(side).into_iter().flatten());
                turns.extend(done.turn_times.get(side).into_iter().flatten());
            }
        }
        hashes.extend_from_slice(&done.hash.to_le_bytes());
        report.battle_hashes.push(BattleLine {
            scenario: loaded.id(),
            seed,
            winner: done.winner.map(|w| w.0),
            rounds: done.rounds,
            hash: format!("{:016x}", done.hash),
        });
        total_rounds += u64::from(done.rounds);
        report.max_rounds = report.max_rounds.max(done.rounds);
        let sr = &mut per_scenario[k];
        sr.battles += 1;
        sr.max_rounds = sr.max_rounds.max(done.rounds);
        sr.mean_rounds += f64::from(done.rounds);
        match done.winner {
            Some(w) => *sr.wins.entry(w.0).or_default() += 1,
            None => {
                sr.draws += 1;
                report.draws += 1;
            }
        }
        let ruleset = &loaded.rules.manifest;
        for (side, stats) in done.stats {
            let (_, entry) = sides
                .entry((ruleset.id.clone(), side.0))
                .or_insert_with(|| {
                    let report = SideReport {
                        ruleset: ruleset.id.clone(),
                        side: side.0,
                        ai: if opts.swap {
                            "swapped halfway".into()
                        } else {
                            policies[usize::from(side.0) % policies.len()].to_string()
                        },
                        ..SideReport::default()
                    };
                    (Arc::clone(&loaded.rules), report)
                });
            if done.winner == Some(side) {
                entry.wins += 1;
            }
            entry.stats.add(&stats);
        }
    }
    for sr in &mut per_scenario {
        if sr.battles > 0 {
            sr.mean_rounds = round2(sr.mean_rounds / f64::from(sr.battles));
        }
    }
    report.mean_rounds = if opts.battles > 0 {
        round2(total_rounds as f64 / f64::from(opts.battles))
    } else {
        0.0
    };
    let mut by_ruleset: BTreeMap<String, ConditionsReport> = BTreeMap::new();
    for (rules, s) in sides.values() {
        let entry = by_ruleset
            .entry(s.ruleset.clone())
            .or_insert_with(|| ConditionsReport {
                ruleset: s.ruleset.clone(),
                gained: rules
                    .conditions
                    .conditions
                    .iter()
                    .map(|c| (format!("{:?}", c.rule.kind()), 0))
                    .collect(),
            });
        for (kind, n) in &s.stats.conditions_gained {
            if let Some((_, count)) = entry.gained.iter_mut().find(|(k, _)| k == kind) {
                *count += n;
            }
        }
    }
    report.conditions = by_ruleset
        .into_values()
        .filter(|c| !c.gained.is_empty())
        .collect();
    report.sides = sides
        .into_values()
        .map(|(rules, mut s)| {
            s.figures = crate::battle::family::balance_report(&rules, &s.stats);
            s
        })
        .collect();
    report.policies = by_policy.into_values().collect();
    report.timings = times
        .into_iter()
        .map(|(policy, (decisions, turns))| {
            let (decision_count, turn_count) = (decisions.len(), turns.len());
            let (p50_ms, p99_ms, max_ms) = percentiles_ms(decisions);
            let (turn_p50_ms, turn_p99_ms, turn_max_ms) = percentiles_ms(turns);
            TimingReport {
                policy,
                decisions: decision_count,
                p50_ms,
                p99_ms,
                max_ms,
                turns: turn_count,
                turn_p50_ms,
                turn_p99_ms,
                turn_max_ms,
            }
        })
        .collect();
    report.scenarios = per_scenario;
    report.hash = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&hashes));
    Ok(report)
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

impl Report {
    /// The report in words.
    pub fn text(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "{} battles (seed {}): {} draws; rounds mean {}, max {}\n",
            self.battles, self.seed, self.draws, self.mean_rounds, self.max_rounds
        ));
        for s in &self.scenarios {
            let wins: Vec<String> = s
                .wins
                .iter()
                .map(|(side, n)| format!("side {side} {n}"))
                .collect();
            out.push_str(&format!(
                "  {}: {} battles, wins {}, draws {}, rounds mean {} max {}\n",
                s.scenario,
                s.battles,
                if wins.is_empty() {
                    "none".into()
                } else {
                    wins.join(", ")
                },
                s.draws,
                s.mean_rounds,
                s.max_rounds
            ));
        }
        for s in &self.sides {
            let figures: Vec<String> = s
                .figures
                .iter()
                .map(|f| format!("{} {}", f.label, f.value))
                .collect();
            out.push_str(&format!(
                "{} side {} ({}): {} wins; {}\n",
                s.ruleset,
                s.side,
                s.ai,
                s.wins,
                figures.join(", ")
            ));
            if !s.stats.conditions_gained.is_empty() {
                let gained: Vec<String> = s
                    .stats
                    .conditions_gained
                    .iter()
                    .map(|(kind, n)| format!("{kind} {n}"))
                    .collect();
                out.push_str(&format!("  conditions gained: {}\n", gained.join(", ")));
            }
        }
        for c in &self.conditions {
            let applied = c.gained.iter().filter(|(_, n)| *n > 0).count();
            let all: Vec<String> = c.gained.iter().map(|(k, n)| format!("{k} {n}")).collect();
            out.push_str(&format!(
                "{} conditions gained, {applied} of {}: {}\n",
                c.ruleset,
                c.gained.len(),
                all.join(", ")
            ));
        }
        for p in &self.policies {
            out.push_str(&format!(
                "{}: {} of {} battles won ({:.1}%), {} drawn\n",
                p.policy,
                p.wins,
                p.battles,
                if p.battles > 0 {
                    100.0 * f64::from(p.wins) / f64::from(p.battles)
                } else {
                    0.0
                },
                p.draws
            ));
        }
        for t in &self.timings {
            out.push_str(&format!(
                "{} decisions: {} timed, p50 {} ms, p99 {} ms, max {} ms\n",
                t.policy, t.decisions, t.p50_ms, t.p99_ms, t.max_ms
            ));
            out.push_str(&format!(
                "{} turns: {} timed, p50 {} ms, p99 {} ms, max {} ms\n",
                t.policy, t.turns, t.turn_p50_ms, t.turn_p99_ms, t.turn_max_ms
            ));
        }
        out.push_str(&format!("hash {}\n", self.hash));
        out
    }
}
