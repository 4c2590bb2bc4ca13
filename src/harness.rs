//! The reliability harness: rule invariants checked after every command of a battle (by the
//! soak run and the property tests), and the soak run itself — thousands of seeded
//! computer-against-computer battles over every shipped scenario, counting panics, violations
//! and battles that outlast their round limit.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use crate::ai::Policy;
use crate::battle::command::Command;
use crate::battle::components::{CombatantId, Expiry};
use crate::battle::event::BattleEvent;
use crate::battle::{AttackPreview, Battle};
use crate::grid::{Square, chebyshev, footprint};
use crate::scenario::Loaded;
use crate::sim::{AiMatch, battle_seed};

/// One rule invariant: something that must hold after every command of every battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Invariant {
    /// Life never above its maximum; Ki and Capacity within 0 and their effective maximum
    /// (halved by Fatigued, raised by Power Up stacks).
    PoolBounds,
    /// Every placed combatant's squares are on the map and can be stood on.
    OnTheMap,
    /// No two combatants still fighting share a square.
    NoSharedSquares,
    /// The turn order lists every combatant at most once and every one still fighting.
    TurnOrder,
    /// No defeated combatant has a turn, is asked to answer, starts a turn, moves, attacks or
    /// declares a defense.
    DefeatedNeverAct,
    /// A condition is gone once the round or turn it lasts to is over.
    ConditionsExpire,
    /// Power stages: a combatant's cards (hand, deck, discard) keep their number.
    CardsConserved,
    /// Shinobi: action points never above the round's allowance.
    ActionPointsBounded,
    /// Shinobi: a cover square never absorbs more than it holds.
    CoverWear,
    /// Damage taken, after Soak and cover, is never negative.
    DamageNonNegative,
    /// Every move steps square by square, from where the mover stood, onto squares that can
    /// be entered (a jump lands on one, over nothing that blocks sight).
    MovesStepBySquare,
    /// Exact odds: chances within 0 and 1, every damage distribution sums to 1, its mean is
    /// the expected damage, and defeat needs a hit.
    OddsAreDistributions,
    /// The state hash is a function of the state: asked twice, it answers the same.
    HashStable,
    /// The event log only grows.
    LogOnlyGrows,
    /// A battle with a round limit has an outcome once that round is over: the rules end it,
    /// not the harness.
    EndsWithinRoundLimit,
}

/// A broken invariant: which one, and what was seen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    pub invariant: Invariant,
    pub detail: String,
}

fn violation(invariant: Invariant, detail: String) -> Violation {
    Violation { invariant, detail }
}

/// Watches one battle: remembers what the checks compare across commands (events seen, each
/// combatant's card count, where each stood, who is defeated).
#[derive(Debug, Clone)]
pub struct Watch {
    events_seen: usize,
    cards: BTreeMap<CombatantId, u32>,
    /// Where each placed combatant stood at the last check: a move's first step starts there.
    positions: BTreeMap<CombatantId, Square>,
    /// Who was defeated by the last check's events.
    defeated: BTreeSet<CombatantId>,
}

impl Watch {
    /// Starts watching `battle` as it is now.
    pub fn new(battle: &mut Battle) -> Self {
        let fighters = battle.fighters();
        let cards = fighters
            .iter()
            .filter_map(|f| f.cards.as_ref().map(|c| (f.id, card_count(c))))
            .collect();
        Self {
            events_seen: battle.events().len(),
            cards,
            positions: positions(&fighters),
            defeated: fighters
                .iter()
                .filter(|f| f.defeated())
                .map(|f| f.id)
                .collect(),
        }
    }

    /// Every invariant that can be checked on the battle as it stands, plus those about what
    /// happened since the last check (new events).
    pub fn check(&mut self, battle: &mut Battle) -> Vec<Violation> {
        let mut out = check_state(battle);
        out.extend(self.check_new_events(battle));
        let fighters = battle.fighters();
        self.positions = positions(&fighters);
        // A move waiting on an answer (an Exploit or defense a player is asked about) is
        // logged whole when it ends: its first step is from where it started.
        if let Some(m) = battle.moving() {
            self.positions.insert(m.who, m.start);
        }
        // Defeats the log does not announce (none should exist) still count.
        self.defeated
            .extend(fighters.iter().filter(|f| f.defeated()).map(|f| f.id));
        for f in fighters {
            if let (Some(c), Some(before)) = (&f.cards, self.cards.get(&f.id))
                && card_count(c) != *before
            {
                out.push(violation(
                    Invariant::CardsConserved,
                    format!(
                        "{} holds {} cards in all, had {before}",
                        f.identity.name,
                        card_count(c)
                    ),
                ));
            }
        }
        out
    }

    /// The events since the last check, in order: damage never negative, moves square by
    /// square from where the mover stood, nobody acting once defeated.
    fn check_new_events(&mut self, battle: &mut Battle) -> Vec<Violation> {
        let mut out = Vec::new();
        let events = battle.events();
        if events.len() < self.events_seen {
            out.push(violation(
                Invariant::LogOnlyGrows,
                format!(
                    "the log shrank from {} to {} events",
                    self.events_seen,
                    events.len()
                ),
            ));
            self.events_seen = events.len();
            return out;
        }
        let fresh: Vec<BattleEvent> = events[self.events_seen..].to_vec();
        self.events_seen = events.len();
        let field = battle.field();
        // Where each combatant's next move starts: where it stood before this command, or
        // where its last move ended. A push during the move (an Exploit's) is logged before
        // the move itself, which is logged whole once it is over, so pushes do not count.
        let mut at = self.positions.clone();
        for e in &fresh {
            let actor = match e {
                BattleEvent::TurnStarted { who, .. } => Some((*who, "starts a turn")),
                BattleEvent::AttackDeclared { attacker, .. } => Some((*attacker, "attacks")),
                BattleEvent::DefenseDeclared { defender, .. } => {
                    Some((*defender, "declares a defense"))
                }
                // A move an Exploit stopped is logged after the damage that defeated the mover.
                BattleEvent::Moved {
                    who,
                    stopped: false,
                    ..
                } => Some((*who, "moves")),
                _ => None,
            };
            if let Some((who, what)) = actor
                && self.defeated.contains(&who)
            {
                out.push(violation(
                    Invariant::DefeatedNeverAct,
                    format!("{who:?} {what} after being defeated"),
                ));
            }
            if let BattleEvent::Defeated { who, .. } = e {
                self.defeated.insert(*who);
            }
            match e {
                BattleEvent::Damage {
                    target,
                    damage,
                    soak_used,
                    ..
                } if *damage < 0 || *soak_used < 0 => out.push(violation(
                    Invariant::DamageNonNegative,
                    format!("{target:?} took {damage} damage (Soak used {soak_used})"),
                )),
                BattleEvent::Moved {
                    who, path, jump, ..
                } => {
                    if let (Some(start), Some(first)) = (at.get(who), path.first())
                        && chebyshev(*start, *first) != 1
                    {
                        out.push(violation(
                            Invariant::MovesStepBySquare,
                            format!("{who:?} stood on {start:?} but its move began on {first:?}"),
                        ));
                    }
                    if let Some(last) = path.last() {
                        at.insert(*who, *last);
                    }
                    for pair in path.windows(2) {
                        if chebyshev(pair[0], pair[1]) != 1 {
                            out.push(violation(
                                Invariant::MovesStepBySquare,
                                format!("{who:?} stepped from {:?} to {:?}", pair[0], pair[1]),
                            ));
                        }
                    }
                    // A jump touches the ground only where it lands.
                    let (over, entered) = match (*jump, path.split_last()) {
                        (true, Some((last, over))) => (over, std::slice::from_ref(last)),
                        _ => (&[][..], &path[..]),
                    };
                    if let Some(s) = entered.iter().find(|s| field.cost(**s).is_none()) {
                        out.push(violation(
                            Invariant::MovesStepBySquare,
                            format!("{who:?} moved through {s:?}, which cannot be entered"),
                        ));
                    }
                    if let Some(s) = over.iter().find(|s| field.blocks_sight(**s)) {
                        out.push(violation(
                            Invariant::MovesStepBySquare,
                            format!("{who:?} jumped over {s:?}, which blocks sight"),
                        ));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// Where every placed combatant stands.
fn positions(fighters: &[crate::battle::fighter::Fighter]) -> BTreeMap<CombatantId, Square> {
    fighters
        .iter()
        .filter_map(|f| f.position.map(|p| (f.id, p)))
        .collect()
}

/// The cards a combatant has anywhere (hand, deck, discard).
fn card_count(c: &crate::battle::components::Cards) -> u32 {
    c.hand
        .values()
        .chain(c.deck.values())
        .chain(c.discard.values())
        .sum()
}

/// The invariants of a battle's state alone (no history needed).
pub fn check_state(battle: &mut Battle) -> Vec<Violation> {
    let mut out = Vec::new();
    let fighters = battle.fighters();
    let rules = Arc::clone(battle.rules());
    let field = battle.field();
    let bounds = field.bounds();
    let turn = battle.turn().clone();
    let over = battle.outcome().is_some();
    let mut taken: BTreeMap<Square, CombatantId> = BTreeMap::new();
    // A mover waiting on an answer mid-move may be passing an ally or leaping over anyone or
    // anything (a jump): where it stands counts once the move ends.
    let passing = battle.moving().map(|m| m.who);
    for f in &fighters {
        let name = &f.identity.name;
        if f.life.current > f.life.max {
            out.push(violation(
                Invariant::PoolBounds,
                format!(
                    "{name}: Life {} above its maximum {}",
                    f.life.current, f.life.max
                ),
            ));
        }
        // The effective maxima: Fatigued halves them, Power Up stacks raise Capacity's.
        let d = f.derived(&rules);
        for (pool, cur, max) in [
            ("Ki", f.ki.current, d.max_ki),
            ("Capacity", f.capacity.current, d.max_capacity),
        ] {
            if cur < 0 || cur > max {
                out.push(violation(
                    Invariant::PoolBounds,
                    format!("{name}: {pool} {cur} outside 0..={max}"),
                ));
            }
        }
        if let Some(at) = f.position.filter(|_| passing != Some(f.id)) {
            for s in footprint(at, f.size.squares) {
                if !bounds.contains(s) || field.cost(s).is_none() {
                    out.push(violation(
                        Invariant::OnTheMap,
                        format!("{name} stands on {s:?}, off the map or not enterable"),
                    ));
                }
                if !f.defeated()
                    && let Some(other) = taken.insert(s, f.id)
                {
                    out.push(violation(
                        Invariant::NoSharedSquares,
                        format!("{name} and {other:?} both stand on {s:?}"),
                    ));
                }
            }
        }
        for c in &f.conditions.0 {
            let expired = match c.expires {
                Expiry::UntilEnded => false,
                Expiry::EndOfRound(r) => r < turn.round,
                Expiry::EndOfTurn { round, of } => {
                    round < turn.round
                        && fighters.iter().any(|o| o.id == of && !o.defeated())
                        && turn.order.contains(&of)
                }
            };
            if expired {
                out.push(violation(
                    Invariant::ConditionsExpire,
                    format!(
                        "{name} still has {:?} ({:?}) in round {}",
                        c.kind, c.expires, turn.round
                    ),
                ));
            }
        }
        if let Some(most) = crate::battle::family::of(&rules).most_action_points(f)
            && f.actions.standard > most
        {
            out.push(violation(
                Invariant::ActionPointsBounded,
                format!(
                    "{name} has {} AP, more than {most} a round",
                    f.actions.standard,
                ),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for id in &turn.order {
        if !seen.insert(*id) {
            out.push(violation(
                Invariant::TurnOrder,
                format!("{id:?} is in the turn order twice"),
            ));
        }
    }
    for f in fighters
        .iter()
        .filter(|f| !f.defeated() && f.position.is_some())
    {
        if !seen.contains(&f.id) {
            out.push(violation(
                Invariant::TurnOrder,
                format!("{} fights but has no turn", f.identity.name),
            ));
        }
    }
    if !over {
        if let Some(active) = battle.active()
            && fighters.iter().any(|f| f.id == active && f.defeated())
        {
            out.push(violation(
                Invariant::DefeatedNeverAct,
                format!("it is the turn of {active:?}, who is defeated"),
            ));
        }
        if let Some(crate::battle::command::Decision::Defense { defender, .. }) = battle.awaiting()
            && fighters.iter().any(|f| f.id == *defender && f.defeated())
        {
            out.push(violation(
                Invariant::DefeatedNeverAct,
                format!("{defender:?} is asked to defend but is defeated"),
            ));
        }
    }
    for (s, worn) in &battle.map().wear {
        let holds = field.terrain(*s).and_then(|t| t.absorb).unwrap_or(0);
        if *worn > holds || *worn < 0 {
            out.push(violation(
                Invariant::CoverWear,
                format!("cover at {s:?} absorbed {worn} of {holds}"),
            ));
        }
    }
    let (a, b) = (battle.state_hash(), battle.state_hash());
    if a != b {
        out.push(violation(
            Invariant::HashStable,
            format!("the state hash changed between two reads: {a:016x} then {b:016x}"),
        ));
    }
    out
}

/// The invariants of an attack's exact odds: every chance within 0 and 1, every damage
/// distribution sums to 1 with its mean the expected damage, defeat no likelier than a hit.
pub fn check_odds(preview: &AttackPreview) -> Vec<Violation> {
    const EPS: f64 = 1e-9;
    let mut out = Vec::new();
    for answers in &preview.odds.targets {
        for t in answers {
            let what = format!("{:?} answering {:?}", t.target, t.defense);
            for (name, p) in [
                ("hit", t.hit_chance),
                ("critical hit", t.critical_hit_chance),
                ("defeat", t.defeat_chance),
            ] {
                if !(-EPS..=1.0 + EPS).contains(&p) {
                    out.push(violation(
                        Invariant::OddsAreDistributions,
                        format!("{what}: {name} chance {p}"),
                    ));
                }
            }
            let total: f64 = t.damage_distribution.values().sum();
            let mean: f64 = t
                .damage_distribution
                .iter()
                .map(|(v, p)| *v as f64 * p)
                .sum();
            if (total - 1.0).abs() > 1e-6 || t.damage_distribution.values().any(|p| *p < -EPS) {
                out.push(violation(
                    Invariant::OddsAreDistributions,
                    format!("{what}: damage distribution sums to {total}"),
                ));
            }
            if (mean - t.expected_damage).abs() > 1e-6 * t.expected_damage.abs().max(1.0) {
                out.push(violation(
                    Invariant::OddsAreDistributions,
                    format!(
                        "{what}: expected damage {} but the distribution's mean is {mean}",
                        t.expected_damage
                    ),
                ));
            }
            if t.defeat_chance > t.hit_chance + 1e-6 {
                out.push(violation(
                    Invariant::OddsAreDistributions,
                    format!(
                        "{what}: defeat {} likelier than a hit {}",
                        t.defeat_chance, t.hit_chance
                    ),
                ));
            }
        }
    }
    out
}

/// Every shipped rules file as (ruleset id, file name), sorted: what the `rules_file` fuzz
/// target and its regression test choose from.
pub fn rules_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(dirs) = std::fs::read_dir(crate::ruleset::rules_root()) else {
        return out;
    };
    for dir in dirs.flatten() {
        let id = dir.file_name().to_string_lossy().into_owned();
        let Ok(files) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for f in files.flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.ends_with(".ron") {
                out.push((id.clone(), name));
            }
        }
    }
    out.sort();
    out
}

/// Which shipped rules file a `rules_file` fuzz input replaces: the one its first line names
/// (`// file: RULESET/FILE.ron`, a RON comment, so seeds stay valid RON), else one chosen by
/// the input's length. Shared by the fuzz target and the test that replays its crashes, so a
/// saved crash replaces the same file it did when found. `None` when nothing is shipped.
pub fn rules_file_for(data: &[u8], files: &[(String, String)]) -> Option<(String, String)> {
    let named = std::str::from_utf8(data)
        .ok()
        .and_then(|t| t.lines().next())
        .and_then(|l| l.strip_prefix("// file: "))
        .and_then(|f| f.split_once('/'));
    named
        .and_then(|(i, f)| files.iter().find(|(a, b)| a == i && b == f))
        .or_else(|| files.get(data.len() % files.len().max(1)))
        .cloned()
}

/// How a soak run is set up.
#[derive(Debug, Clone)]
pub struct SoakOptions {
    pub scenarios: Vec<Loaded>,
    /// Battles in all, spread over the scenarios and the policy pairings in turn.
    pub battles: u64,
    pub seed: u64,
    /// Rounds after which a battle without a winner stops (or the scenario's own limit).
    pub max_rounds: u32,
    /// Threads to play on (battles are independent; the report is the same for any number).
    pub jobs: usize,
}

/// The policy pairings a soak run cycles through: every level against itself, the random
/// baseline and the next level.
pub const PAIRINGS: [(Policy, Policy); 6] = [
    (Policy::Normal, Policy::Random),
    (Policy::Random, Policy::Easy),
    (Policy::Easy, Policy::Normal),
    (Policy::Hard, Policy::Normal),
    (Policy::Greedy, Policy::Hard),
    (Policy::Random, Policy::Random),
];

/// One battle of a soak run that went wrong.
#[derive(Debug, Clone, Serialize)]
pub struct SoakFailure {
    pub scenario: String,
    pub seed: u64,
    pub policies: String,
    /// `panic`, `error` or the invariant broken.
    pub kind: String,
    pub detail: String,
    /// Commands played before it went wrong.
    pub command: usize,
}

/// What a soak run found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SoakReport {
    pub battles: u64,
    pub commands: u64,
    pub attacks_previewed: u64,
    pub panics: u64,
    pub errors: u64,
    pub violations: u64,
    /// Battles won by a side (by defeating the other, or by a round limit that names a
    /// winner), and battles their round limit ended as a draw.
    pub decided: u64,
    pub drawn: u64,
    /// Battles without a round limit of their own that the run's `max_rounds` stopped.
    pub cut_off: u64,
    /// Battles per scenario id.
    pub per_scenario: BTreeMap<String, u64>,
    /// The first failures (at most 20), to reproduce them by seed.
    pub failures: Vec<SoakFailure>,
    pub seconds: f64,
}

impl SoakReport {
    /// True when nothing broke.
    pub fn clean(&self) -> bool {
        self.panics == 0 && self.errors == 0 && self.violations == 0
    }

    /// The report in a few lines.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} battles, {} commands ({} attack previews checked) in {:.1} s\n\
             panics {}, errors {}, invariant violations {}\n\
             won {}, drawn at the round limit {}, cut off without a limit {}\n",
            self.battles,
            self.commands,
            self.attacks_previewed,
            self.seconds,
            self.panics,
            self.errors,
            self.violations,
            self.decided,
            self.drawn,
            self.cut_off
        );
        for (id, n) in &self.per_scenario {
            s.push_str(&format!("  {id}: {n} battles\n"));
        }
        for f in &self.failures {
            s.push_str(&format!(
                "FAILED {} seed {} ({}) after {} commands: {}: {}\n",
                f.scenario, f.seed, f.policies, f.command, f.kind, f.detail
            ));
        }
        s
    }

    fn fail(&mut self, f: SoakFailure) {
        if self.failures.len() < 20 {
            self.failures.push(f);
        }
    }
}

/// How a watched battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// A side won.
    Won,
    /// The battle's round limit ended it as a draw.
    Drawn,
    /// It had no round limit of its own and the harness stopped it after `max_rounds`.
    CutOff,
}

/// The most commands one soak battle may take: far above any real battle (the largest
/// shipped one takes about 3,000 between two random players), so a policy that never ends its
/// turn is reported instead of hanging the run.
pub const MAX_COMMANDS: u64 = 100_000;

/// What one watched battle came to.
pub struct Watched {
    pub commands: u64,
    pub previews: u64,
    pub ending: Ending,
    /// The first problem, with the command count when it was seen.
    pub problem: Option<(String, String, usize)>,
    /// The battle log's last lines when the problem was seen (empty when none was).
    pub log_tail: Vec<String>,
}

/// Plays one seeded battle of `loaded` with `policies`, checking every invariant after every
/// command and the odds of every attack before it is made. Stops at the first problem.
pub fn watch_battle(loaded: &Loaded, seed: u64, policies: &[Policy], max_rounds: u32) -> Watched {
    let mut tail = Vec::new();
    let mut out = watch_battle_inner(loaded, seed, policies, max_rounds, &mut tail);
    if out.problem.is_some() {
        out.log_tail = tail;
    }
    out
}

/// [`watch_battle`], leaving the log's last lines in `tail` when it stops at a problem.
fn watch_battle_inner(
    loaded: &Loaded,
    seed: u64,
    policies: &[Policy],
    max_rounds: u32,
    tail: &mut Vec<String>,
) -> Watched {
    let mut out = Watched {
        commands: 0,
        previews: 0,
        ending: Ending::CutOff,
        problem: None,
        log_tail: Vec::new(),
    };
    let mut game = match AiMatch::new(loaded, seed, policies, max_rounds) {
        Ok(g) => g,
        Err(e) => {
            out.problem = Some(("error".into(), e, 0));
            return out;
        }
    };
    let mut watch = Watch::new(&mut game.battle);
    // A Surprise Round is a free round before the limit counts.
    let own_limit = loaded
        .scenario
        .victory
        .round_limit
        .map(|l| l.rounds + game.battle.setup().opening.extra_rounds());
    while !game.finished() {
        if out.commands >= MAX_COMMANDS {
            let detail = format!(
                "no end after {MAX_COMMANDS} commands (round {}): a policy that never ends its turn?",
                game.battle.turn().round
            );
            out.problem = Some(("error".into(), detail, out.commands as usize));
            return out;
        }
        let (who, side) = match game.actor() {
            Ok(a) => a,
            Err(e) => {
                out.problem = Some(("error".into(), e, out.commands as usize));
                return out;
            }
        };
        let cmd = game.agents[side].command(&mut game.battle, who);
        if let Command::Attack(order) = &cmd
            && let Ok(preview) = game.battle.preview(order)
        {
            out.previews += 1;
            if let Some(v) = check_odds(&preview).into_iter().next() {
                out.problem = Some((
                    format!("{:?}", v.invariant),
                    v.detail,
                    out.commands as usize,
                ));
                return out;
            }
        }
        if let Err(e) = game.battle.submit(cmd.clone()) {
            let policy = game.agents[side].policy;
            let detail = format!("the {policy} policy's {cmd:?} was refused: {e}");
            out.problem = Some(("error".into(), detail, out.commands as usize));
            return out;
        }
        out.commands += 1;
        COMMANDS_PLAYED.with(|c| c.set(out.commands as usize));
        let mut broken = watch.check(&mut game.battle);
        let round = game.battle.turn().round;
        if let Some(limit) = own_limit
            && round > limit
            && game.battle.outcome().is_none()
        {
            broken.push(violation(
                Invariant::EndsWithinRoundLimit,
                format!("round {round} began with no outcome, past the round limit {limit}"),
            ));
        }
        if !broken.is_empty() {
            let lines = game.battle.describe_events();
            *tail = lines[lines.len().saturating_sub(15)..].to_vec();
        }
        if let Some(v) = broken.into_iter().next() {
            out.problem = Some((
                format!("{:?}", v.invariant),
                v.detail,
                out.commands as usize,
            ));
            return out;
        }
    }
    out.ending = match game.battle.outcome() {
        Some(o) if o.winner.is_some() => Ending::Won,
        Some(_) => Ending::Drawn,
        None => Ending::CutOff,
    };
    out
}

/// The battle a soak run plays at `index`: scenario `index % n`, pairing `(index / n) % 6`
/// (sides swapped every other pass over the pairings) and seed `battle_seed(seed, index)`.
fn planned(opts: &SoakOptions, index: u64) -> (usize, [Policy; 2], u64) {
    let n = opts.scenarios.len().max(1) as u64;
    let round = index / n;
    let (a, b) = PAIRINGS[(round % PAIRINGS.len() as u64) as usize];
    let policies = if (round / PAIRINGS.len() as u64).is_multiple_of(2) {
        [a, b]
    } else {
        [b, a]
    };
    (
        (index % n) as usize,
        policies,
        battle_seed(opts.seed, index),
    )
}

/// One battle of a soak run: what it came to, or the panic it raised.
enum Outcome {
    Watched(Watched),
    /// The panic's message and place, and the commands played before it.
    Panicked(String, usize),
}

/// Plays soak battle `index`, catching a panic.
fn soak_one(opts: &SoakOptions, index: u64) -> Outcome {
    let (scenario, policies, seed) = planned(opts, index);
    let Some(loaded) = opts.scenarios.get(scenario) else {
        return Outcome::Panicked("no scenario to play".into(), 0);
    };
    LAST_PANIC.with(|p| p.borrow_mut().take());
    COMMANDS_PLAYED.with(|c| c.set(0));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        watch_battle(loaded, seed, &policies, opts.max_rounds)
    }));
    match result {
        Ok(w) => Outcome::Watched(w),
        Err(_) => Outcome::Panicked(
            LAST_PANIC
                .with(|p| p.borrow_mut().take())
                .unwrap_or_else(|| "a panic without a message".into()),
            COMMANDS_PLAYED.with(|c| c.get()),
        ),
    }
}

/// Runs `opts.battles` watched battles on `opts.jobs` threads (battle `i` is the same battle
/// whatever the number of threads; see [`planned`]) and sums them up in battle order. A panic
/// in one battle is caught, counted and the run goes on.
///
/// The panic hook is process-wide: while the run lasts, a panic anywhere in the process is
/// recorded for the soak report instead of printed (the command-line tool runs nothing else).
pub fn soak(opts: &SoakOptions) -> SoakReport {
    soak_with_progress(opts, &|| {})
}

/// [`soak`], calling `battle_done` (from any worker thread) after each battle, so a terminal
/// can show how far it got; the report is the same whatever it does.
pub fn soak_with_progress(opts: &SoakOptions, battle_done: &(dyn Fn() + Sync)) -> SoakReport {
    let started = std::time::Instant::now();
    // A panic is caught and counted: its message and place go into the report, not stderr.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()));
    }));
    let outcomes = crate::par::map_in_order(opts.battles, opts.jobs, |i| {
        let outcome = soak_one(opts, i);
        battle_done();
        (i, outcome)
    })
    .unwrap_or_else(|e| vec![(u64::MAX, Outcome::Panicked(e, 0))]);
    std::panic::set_hook(previous);
    let mut report = SoakReport::default();
    for (i, outcome) in outcomes {
        let (scenario, policies, seed) = planned(opts, i);
        let id = opts
            .scenarios
            .get(scenario)
            .map_or_else(|| "?".to_string(), |l| l.id());
        let fail = |kind: String, detail: String, command: usize| SoakFailure {
            scenario: id.clone(),
            seed,
            policies: format!("{},{}", policies[0], policies[1]),
            kind,
            detail,
            command,
        };
        *report.per_scenario.entry(id.clone()).or_default() += 1;
        report.battles += 1;
        match outcome {
            Outcome::Watched(w) => {
                report.commands += w.commands;
                report.attacks_previewed += w.previews;
                match w.problem {
                    None => match w.ending {
                        Ending::Won => report.decided += 1,
                        Ending::Drawn => report.drawn += 1,
                        Ending::CutOff => report.cut_off += 1,
                    },
                    Some((kind, detail, command)) => {
                        if kind == "error" {
                            report.errors += 1;
                        } else {
                            report.violations += 1;
                        }
                        report.fail(fail(kind, detail, command));
                    }
                }
            }
            Outcome::Panicked(detail, command) => {
                report.panics += 1;
                report.fail(fail("panic".into(), detail, command));
            }
        }
    }
    report.seconds = started.elapsed().as_secs_f64();
    report
}

thread_local! {
    /// The last panic's message and place, as the soak's panic hook saw it.
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// Commands the battle on this thread has played, so a panic report says when it came.
    static COMMANDS_PLAYED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}
