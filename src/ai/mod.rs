//! Choosing commands for computer-controlled combatants.
//!
//! The computer players are the [`planner`] at three levels (`easy`, `normal`, `hard`). Two
//! simple policies serve as baselines and for testing:
//! - [`greedy_command`]: the legal attack with the best exact expected damage (allies' damage
//!   counted against, a small price per Ki point); failing that, stand up from Prone, or move
//!   to the reachable square nearest an opponent; failing that, end the turn.
//! - [`random_command`]: any legal command, uniformly, from its own seeded stream. It is the
//!   baseline the real AI is measured against.
//!
//! Both only ever return commands the battle accepts, and always make progress (a turn ends
//! after at most its actions), so a battle driven by them ends.

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

mod first;
pub mod planner;
mod threat;
mod united;
mod worth;

use crate::battle::command::Command;
use crate::battle::components::CombatantId;
use crate::battle::policy::{best_attack, candidate_attacks};
use crate::battle::{Battle, MoveReach};
use crate::grid::{Square, footprint_distance};
use crate::ruleset::ConditionKind;

/// Which simple policy drives a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Policy {
    Greedy,
    Random,
    Easy,
    Normal,
    Hard,
}

impl std::str::FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "greedy" => Ok(Self::Greedy),
            "random" => Ok(Self::Random),
            "easy" => Ok(Self::Easy),
            "normal" => Ok(Self::Normal),
            "hard" => Ok(Self::Hard),
            other => Err(format!(
                "unknown AI `{other}` (known: easy, normal, hard, greedy, random)"
            )),
        }
    }
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Greedy => "greedy",
            Self::Random => "random",
            Self::Easy => "easy",
            Self::Normal => "normal",
            Self::Hard => "hard",
        })
    }
}

/// A policy with its own random stream (only the random policy draws from it).
pub struct Agent {
    pub policy: Policy,
    rng: ChaCha8Rng,
}

impl Agent {
    /// An agent whose random choices come from `seed`.
    pub fn new(policy: Policy, seed: u64) -> Self {
        Self {
            policy,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// An agent continuing a stream at `pos` (a loaded save's), so a battle continued after
    /// loading makes the same choices it would have made without the save.
    pub fn resume(policy: Policy, seed: u64, pos: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_word_pos(u128::from(pos));
        Self { policy, rng }
    }

    /// How far into its random stream the agent is (32-bit words used), for saves.
    pub fn stream_pos(&self) -> u64 {
        u64::try_from(self.rng.get_word_pos()).unwrap_or(u64::MAX)
    }

    /// The command this agent gives for `who` now.
    pub fn command(&mut self, battle: &mut Battle, who: CombatantId) -> Command {
        match self.policy {
            Policy::Greedy => greedy_command(battle, who),
            Policy::Random => random_command(battle, who, &mut self.rng),
            Policy::Easy => planner::decide(battle, who, planner::Level::Easy, &mut self.rng),
            Policy::Normal => planner::decide(battle, who, planner::Level::Normal, &mut self.rng),
            Policy::Hard => planner::decide(battle, who, planner::Level::Hard, &mut self.rng),
        }
    }
}

/// The distance from a square to the nearest living opponent of `who`.
fn nearest_opponent(battle: &mut Battle, who: CombatantId, at: Square) -> Option<u32> {
    let fighters = battle.fighters();
    let me = fighters.iter().find(|f| f.id == who)?;
    fighters
        .iter()
        .filter(|f| f.side != me.side && !f.defeated())
        .filter_map(|f| {
            Some(footprint_distance(
                at,
                me.size.squares,
                f.position?,
                f.size.squares,
            ))
        })
        .min()
}

/// A move that brings `who` nearer an opponent, at Normal Speed if that helps, else Boosted.
fn approach(battle: &mut Battle, who: CombatantId) -> Option<Command> {
    let at = battle.fighter(who)?.position?;
    let now = nearest_opponent(battle, who, at)?;
    for boosted in [false, true] {
        let options = battle.move_options(who, boosted);
        let mut best: Option<(u32, u32, Square)> = None;
        for (square, reach) in &options {
            let Some(d) = nearest_opponent(battle, who, *square) else {
                continue;
            };
            if d < now && best.is_none_or(|(bd, bc, _)| (d, reach.cost) < (bd, bc)) {
                best = Some((d, reach.cost, *square));
            }
        }
        if let Some((_, _, to)) = best
            && let Some(path) = battle.path_to(who, to, boosted)
        {
            let cmd = Command::Move { who, path, boosted };
            if battle.check(&cmd).is_ok() {
                return Some(cmd);
            }
        }
    }
    None
}

/// The greedy policy's command for `who` (see the module documentation).
pub fn greedy_command(battle: &mut Battle, who: CombatantId) -> Command {
    let fighters = battle.fighters();
    let Some(me) = fighters.iter().find(|f| f.id == who).cloned() else {
        return Command::EndTurn { who };
    };
    let rules = battle.rules().clone();
    let field = battle.field();
    if let Some((_, order)) = best_attack(&rules, &field, &fighters, &me, None) {
        return Command::Attack(order);
    }
    if me.conditions.has(ConditionKind::Prone) {
        let stand = Command::StandUp { who };
        if battle.check(&stand).is_ok() {
            return stand;
        }
    }
    approach(battle, who).unwrap_or(Command::EndTurn { who })
}

/// One thing a random player might do. Moves stay unresolved until drawn, because working out
/// a path to every reachable square of a large map for each decision would cost far more than
/// the decision itself.
enum RandomOption {
    /// A command already checked legal.
    Ready(Command),
    /// A move to a reachable square, its path still to be found.
    MoveTo { to: Square, boosted: bool },
}

/// Every option a random player might take for `who`: each legal attack, a move to each
/// reachable square, a jump to each landing (the ninja chapter), standing up, ending a condition, curing poison, handing a shared turn to
/// a partner and Digivolving (Digimon), a Skill Check on the ground beside it (Digimon, d20), dropping prone
/// (d20), and ending the turn; with
/// the move searches the moves' paths come from.
fn random_options(
    battle: &mut Battle,
    who: CombatantId,
) -> (Vec<RandomOption>, Vec<(bool, MoveReach)>) {
    let fighters = battle.fighters();
    let Some(me) = fighters.iter().find(|f| f.id == who).cloned() else {
        return (
            vec![RandomOption::Ready(Command::EndTurn { who })],
            Vec::new(),
        );
    };
    let rules = battle.rules().clone();
    let mut orders = candidate_attacks(&rules, &fighters, &me);
    // d20: each attack's aimed shots too (at the armour's gaps, through the cover).
    if let Some(d) = rules.d20() {
        let field = battle.field();
        let aimed: Vec<_> = orders
            .iter()
            .flat_map(|o| crate::battle::family::d20::aimed::variants(d, &field, &me, &fighters, o))
            .collect();
        orders.extend(aimed);
    }
    let mut extra: Vec<Command> = orders.into_iter().map(Command::Attack).collect();
    extra.push(Command::StandUp { who });
    extra.push(Command::CurePoison { who });
    extra.push(Command::HandOver { who });
    extra.push(Command::DropProne { who });
    extra.push(Command::DiveForCover { who });
    extra.push(Command::Delay { who });
    extra.extend(
        fighters
            .iter()
            .filter(|f| f.side != me.side)
            .map(|f| Command::Feint { who, target: f.id }),
    );
    if let Some(d) = rules.digimon() {
        for x in crate::battle::family::digimon::digivolve::higher_stages(d, &me) {
            extra.push(Command::Digivolve {
                who,
                into: x.id.clone(),
            });
        }
        extra.push(Command::Fly { who, up: true });
        extra.push(Command::Fly { who, up: false });
    }
    if crate::battle::family::skill::makes_skill_checks(&rules)
        && let Some(at) = me.position
    {
        for sq in crate::grid::Dir8::ALL.map(|d| at.step(d)) {
            for way in crate::battle::command::SkillWay::ALL {
                extra.push(Command::UseSkill { who, at: sq, way });
            }
        }
    }
    for c in &me.conditions.0 {
        extra.push(Command::EndCondition {
            who,
            condition: c.kind,
        });
    }
    let legal = battle.check_each(&extra);
    let mut out: Vec<RandomOption> = extra
        .into_iter()
        .zip(legal)
        .filter(|(_, ok)| ok.is_ok())
        .map(|(cmd, _)| RandomOption::Ready(cmd))
        .collect();
    let mut moves = Vec::new();
    for boosted in [false, true] {
        if let Some(reach) = battle.move_reach(who, boosted) {
            out.extend(
                reach
                    .ends
                    .iter()
                    .map(|to| RandomOption::MoveTo { to: *to, boosted }),
            );
            moves.push((boosted, reach));
        }
    }
    // The ninja chapter's jumps, one a landing (none elsewhere).
    let jumps: Vec<Command> = battle
        .jump_options(who)
        .into_values()
        .map(|path| Command::Jump { who, path })
        .collect();
    let legal = battle.check_each(&jumps);
    out.extend(
        jumps
            .into_iter()
            .zip(legal)
            .filter(|(_, ok)| ok.is_ok())
            .map(|(cmd, _)| RandomOption::Ready(cmd)),
    );
    out.push(RandomOption::Ready(Command::EndTurn { who }));
    (out, moves)
}

/// The random policy's command for `who`: any legal command, uniformly. A drawn move whose
/// path the battle refuses is struck off and another option drawn, so the choice stays uniform
/// over the legal commands; ending the turn is always legal, so the draw ends.
pub fn random_command(battle: &mut Battle, who: CombatantId, rng: &mut ChaCha8Rng) -> Command {
    let (mut options, moves) = random_options(battle, who);
    while !options.is_empty() {
        let i = (rng.next_u32() as usize) % options.len();
        match options.swap_remove(i) {
            RandomOption::Ready(cmd) => return cmd,
            RandomOption::MoveTo { to, boosted } => {
                let path = moves
                    .iter()
                    .find(|(b, _)| *b == boosted)
                    .and_then(|(_, reach)| reach.path_to(to));
                if let Some(path) = path {
                    let cmd = Command::Move { who, path, boosted };
                    if battle.check(&cmd).is_ok() {
                        return cmd;
                    }
                }
            }
        }
    }
    Command::EndTurn { who }
}
