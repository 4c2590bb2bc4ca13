//! The Movement maneuver: a path checked square by square (Speed, difficult terrain, walls,
//! opponents, where it may end), then walked step by step, stopping for the Exploits that
//! leaving an opponent's Melee Attack Range provokes.

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::attack::{Provocation, offer_exploit};
use super::attack::{begin_attack, check_attack};
use super::command::{Command, RuleError};
use super::components::*;
use super::event::{BattleEvent, EventLog};
use super::fighter::{Fighter, at_tier, can_end_on, eval, provoked_by};
use super::state::*;
use crate::grid::path::{Reach, diagonal_open, reachable, step_cost};
use crate::grid::{Field, chebyshev, footprint};
use crate::ruleset::Rules;

/// The squares a move may cover, as the ruleset's family counts them.
pub fn speed(rules: &Rules, f: &Fighter, boosted: bool) -> u32 {
    super::family::of(rules).speed(rules, f, boosted)
}

/// The action points a move along `path` costs (1 where turns are not paid in points).
pub fn move_ap(rules: &Rules, field: &Field, path: &[Square]) -> u32 {
    super::family::of(rules).move_ap(field, path)
}

/// True when a move along `path` is the round's free single step (d20): no longer than the
/// step, over ground that costs no more than it, and the step not taken yet this round.
pub fn is_free_step(rules: &Rules, field: &Field, f: &Fighter, path: &[Square]) -> bool {
    let Some(left) = super::family::of(rules).free_step_left(f) else {
        return false;
    };
    let cost: Option<u32> = path
        .iter()
        .map(|s| step_cost(field, *s, f.size.squares))
        .sum();
    !path.is_empty() && cost.is_some_and(|c| c <= left)
}

/// The Ki a Boosted move costs `f`.
pub fn boosted_cost(rules: &Rules, f: &Fighter) -> i64 {
    eval(&rules.actions.boosted_move_cost, &f.vars()).max(0)
}

/// True when a living opponent of `me` covers square `s` (Digimon: at its height, so a flyer
/// in the air passes over the ground and the ground under it).
fn opponent_at(fighters: &[Fighter], me: &Fighter, s: Square) -> bool {
    fighters.iter().any(|o| {
        o.side != me.side
            && !o.defeated()
            && super::family::digimon::height::melee_meets(me, o)
            && o.position
                .is_some_and(|p| footprint(p, o.size.squares).contains(&s))
    })
}

/// Every square `me` can reach with one move, with its cost and the square it comes from;
/// allies can be passed through, opponents cannot. The squares where a move may end are those
/// for which [`can_end_on`] holds.
pub fn reachable_squares(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    boosted: bool,
) -> BTreeMap<Square, Reach> {
    let Some(at) = me.position else {
        return BTreeMap::new();
    };
    if matches!(me.encounter.grapple, Some(h) if !h.holds) {
        return BTreeMap::new();
    }
    reachable_within(field, fighters, me, at, speed(rules, me, boosted))
}

/// Every square `me` could reach from `at` with `budget` squares of movement, by
/// [`reachable_squares`]' rules (the threat overlay asks with the Speed of several moves).
pub fn reachable_within(
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    at: Square,
    budget: u32,
) -> BTreeMap<Square, Reach> {
    over_ground(field, me, |field| {
        // Digimon: a Clash participant moves only along squares in contact with its opponent.
        reachable(field, at, me.size.squares, budget, |s| {
            opponent_at(fighters, me, s)
                || !super::family::digimon::grapple::keeps_contact(me, fighters, s)
        })
    })
}

/// Runs `f` with the ground as `me` moves over it: a Digimon in the air flies over what does
/// not stand tall (water, swamps, rubble) as open ground.
pub fn over_ground<T>(field: &Field, me: &Fighter, f: impl FnOnce(&Field) -> T) -> T {
    use super::family::digimon::flight;
    if flight::airborne(me) == 0 {
        return f(field);
    }
    let air = flight::air_terrain(field.terrain);
    f(&flight::air_field(field, &air))
}

/// Checks a Movement maneuver along `path` and returns what it costs in Speed.
pub fn check_move(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    path: &[Square],
    boosted: bool,
) -> Result<u32, RuleError> {
    over_ground(field, me, |field| {
        check_move_over(rules, field, fighters, me, path, boosted)
    })
}

/// [`check_move`] over the ground as `me` moves over it.
fn check_move_over(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    path: &[Square],
    boosted: bool,
) -> Result<u32, RuleError> {
    if me.defeated() {
        return Err(RuleError::Defeated(me.id));
    }
    let Some(mut at) = me.position else {
        return Err(RuleError::Absorbed(me.id));
    };
    let free = is_free_step(rules, field, me, path);
    if free {
        // d20: the free single step needs no action and is not one of the round's moves.
    } else {
        super::family::of(rules).check_move_cost(me, move_ap(rules, field, path))?;
    }
    if !free && me.round.moves >= rules.actions.moves_per_round {
        return Err(RuleError::MoveLimit {
            limit: rules.actions.moves_per_round,
        });
    }
    if boosted {
        me.can_pay(boosted_cost(rules, me))?;
    }
    if matches!(me.encounter.grapple, Some(h) if !h.holds) {
        return Err(RuleError::GrappleHold {
            why: "held in a Grapple: escape first",
        });
    }
    if crate::battle::family::digimon::hold::held(me) {
        return Err(RuleError::DigimonRule(format!(
            "{} is held in a Clash it does not control: it may not act",
            me.identity.name
        )));
    }
    let Some(&last) = path.last() else {
        return Err(RuleError::EmptyPath);
    };
    let mut cost = 0;
    for &next in path {
        if chebyshev(at, next) != 1 {
            return Err(RuleError::PathNotAdjacent { from: at, to: next });
        }
        let Some(c) = step_cost(field, next, me.size.squares) else {
            return Err(RuleError::PathBlocked {
                at: next,
                why: "it is off the map or cannot be entered",
            });
        };
        if me.size.squares == 1
            && at.x != next.x
            && at.y != next.y
            && !diagonal_open(field, at, next)
        {
            return Err(RuleError::PathBlocked {
                at: next,
                why: "the corner between two walls is closed",
            });
        }
        if !super::family::digimon::grapple::keeps_contact(me, fighters, next) {
            return Err(RuleError::PathBlocked {
                at: next,
                why: "a Clash participant must stay in contact with its opponent",
            });
        }
        if footprint(next, me.size.squares)
            .iter()
            .any(|s| opponent_at(fighters, me, s))
        {
            return Err(RuleError::PathBlocked {
                at: next,
                why: "an opponent stands there",
            });
        }
        cost += c;
        at = next;
    }
    let budget = if free {
        cost
    } else {
        speed(rules, me, boosted)
    };
    if cost > budget {
        return Err(RuleError::PathTooLong {
            cost,
            speed: budget,
        });
    }
    if !can_end_on(fighters, me, last) {
        return Err(RuleError::EndsOccupied { at: last });
    }
    Ok(cost)
}

/// How far a jump of `me` may reach now, in squares, with the words that say why; `None`
/// where the ruleset has no jumps.
pub fn jump_reach(rules: &Rules, me: &Fighter) -> Option<(u32, String)> {
    use super::family::shinobi::jump;
    super::family::of(rules).jumps().then(|| {
        let mv = speed(rules, me, false);
        (jump::reach(me, mv), jump::reach_words(me, mv))
    })
}

/// Checks a jump (the ninja chapter) along `path`: the move's cost and limits as a walk's,
/// then the leap itself ([`super::family::shinobi::jump::check`]). Returns the squares covered.
pub fn check_jump(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    path: &[Square],
) -> Result<u32, RuleError> {
    if me.defeated() {
        return Err(RuleError::Defeated(me.id));
    }
    let Some((reach, words)) = jump_reach(rules, me) else {
        return Err(RuleError::NotInRuleset {
            what: "jumping",
            ruleset: rules.manifest.id.clone(),
        });
    };
    super::family::of(rules).check_move_cost(me, move_ap(rules, field, &[]))?;
    if me.round.moves >= rules.actions.moves_per_round {
        return Err(RuleError::MoveLimit {
            limit: rules.actions.moves_per_round,
        });
    }
    super::family::shinobi::jump::check(field, fighters, me, path, reach, || words)
}

/// Every square `me` could land on with a jump now, with the path to it; empty where the
/// ruleset has no jumps or no move is left.
pub fn jump_landings(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
) -> BTreeMap<Square, Vec<Square>> {
    let Some((reach, _)) = jump_reach(rules, me) else {
        return BTreeMap::new();
    };
    super::family::shinobi::jump::landings(field, fighters, me, reach)
}

/// `Move` and `Jump`: spend the Action (and the Ki for Boosted Speed) and start walking the
/// path (or leaping along it).
pub fn declare_move(
    sys: RuleSys,
    ground: Res<Battleground>,
    mut pending: ResMut<PendingCommand>,
    mut moving: ResMut<CurrentMove>,
) {
    let RuleSys {
        rules,
        mut log,
        mut progress,
        mut q,
        ..
    } = sys;
    let (who, path, boosted, jump) = match pending.0.clone() {
        Some(Command::Move { who, path, boosted }) => (who, path, boosted, false),
        Some(Command::Jump { who, path }) => (who, path, false, true),
        _ => return,
    };
    pending.0 = None;
    progress.0 = true;
    let rules = &rules.0;
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    let Some(start) = f.position.0 else {
        return;
    };
    let what = if boosted {
        "a move at Boosted Speed"
    } else {
        "a move"
    };
    let free = !jump && is_free_step(rules, &ground.field(rules), &f.snapshot(), &path);
    let name = f.identity.name.clone();
    super::family::d20::dive::stand_up(who, &name, &mut f.encounter.prone, &mut log);
    let family = super::family::of(rules);
    if family.jumps() && f.round.ran == jump {
        // The next jump has a running start only straight after a walked move.
        f.round.ran = !jump;
    }
    if jump {
        let need = move_ap(rules, &ground.field(rules), &[]);
        if family.action_points().is_some() {
            super::family::shinobi::spend_ap(&mut f, need, "a jump", &mut log);
        } else {
            family.pay_move(&mut f, need, "a jump", &mut log);
        }
    } else if free {
        f.round.stepped = true;
        log.push(BattleEvent::FreeAction {
            who,
            what: "the round's single step".into(),
        });
    } else {
        let snap = f.snapshot();
        let need = over_ground(&ground.field(rules), &snap, |field| {
            move_ap(rules, field, &path)
        });
        super::family::of(rules).pay_move(&mut f, need, what, &mut log);
    }
    if !free {
        f.round.moves += 1;
    }
    if boosted {
        let snap = f.snapshot();
        let need = boosted_cost(rules, &snap);
        let what = format!("Boosted Speed costs {}", rules.actions.boosted_move_cost);
        crate::battle::effects::spend_ki(&mut f, need, &what, &mut log);
    }
    moving.0 = Some(MoveState {
        who,
        start,
        path,
        next: 0,
        asked: Vec::new(),
        stopped: false,
        boosted,
        jump,
    });
}

/// True while a move is being walked and nothing else is going on.
pub fn move_ready(
    moving: Res<CurrentMove>,
    attack: Res<CurrentAttack>,
    awaiting: Res<AwaitingInput>,
) -> bool {
    moving.0.is_some() && attack.0.is_none() && awaiting.0.is_none()
}

/// Walks the move one step at a time. Before each step that leaves opponents' Melee Attack
/// Range, each of them (in id order) may Exploit: a policy decides, or its player is asked.
/// An Exploit that deals damage stops the move where it is.
pub fn advance_move(
    sys: RuleSys,
    ground: Res<Battleground>,
    mut moving: ResMut<CurrentMove>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
) {
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let rules = &rules.0;
    let field = ground.field(rules);
    progress.0 = true;
    // A step changes only the mover, whose snapshot alone is brought up to date after it
    // (everyone's after an Exploit offer, which may change anyone).
    let mut all = q.snapshots();
    loop {
        let Some(m) = moving.0.as_mut() else {
            return;
        };
        let Some(mover) = all.iter().find(|f| f.id == m.who) else {
            moving.0 = None;
            return;
        };
        let (Some(from), false, false) = (mover.position, m.stopped, mover.defeated()) else {
            // A jump stopped in the air comes down where it was stopped, and falls by the
            // height of where it started.
            if m.jump
                && let Some(mut f) = q.one_mut(m.who)
            {
                if f.round.airborne {
                    f.round.airborne = false;
                }
                if let Some(at) = mover.position.filter(|at| *at != m.start)
                    && m.stopped
                    && !mover.defeated()
                {
                    let step = super::family::Step {
                        rules,
                        field: &field,
                        mover,
                        from: m.start,
                        to: at,
                    };
                    super::family::of(rules).stepped(&step, &mut f, &mut dice.0, &mut log);
                }
            }
            finish_move(rules, &field, m, mover.size.squares, &mut log);
            moving.0 = None;
            return;
        };
        let Some(&to) = m.path.get(m.next) else {
            finish_move(rules, &field, m, mover.size.squares, &mut log);
            moving.0 = None;
            return;
        };
        let visited: Vec<Square> = std::iter::once(m.start)
            .chain(m.path[..m.next].iter().copied())
            .collect();
        // Only what the family says a step provokes (the ninja chapter: a reach entered during
        // this move and now left; d20 and Digimon: nothing).
        let family = super::family::of(rules);
        let pending: Vec<CombatantId> = provoked_by(&all, mover, from, to)
            .into_iter()
            .filter(|id| !m.asked.contains(id))
            .filter(|id| {
                all.iter()
                    .find(|f| f.id == *id)
                    .is_some_and(|o| family.move_provokes(&visited, mover.size.squares, o))
            })
            .collect();
        if let Some(&p) = pending.first() {
            m.asked.push(p);
            let Some(pf) = all.iter().find(|f| f.id == p) else {
                continue;
            };
            let by = Provocation {
                mover: m.who,
                at: from,
                standing: None,
                sneak: false,
                shooting: false,
            };
            let stop = offer_exploit(rules, &field, &all, pf, by, &mut q, &mut log)
                .start(&mut awaiting, &mut attack);
            if stop {
                return;
            }
            // Let go of the old snapshots first, so the cache updates its own rather than a
            // copy of them.
            drop(all);
            all = q.snapshots();
            continue;
        }
        // A jump passes over the squares before its last: only the landing touches the
        // ground, and it falls by the height of where the jump started.
        let landing = m.next + 1 == m.path.len();
        if let Some(mut f) = q.one_mut(m.who) {
            f.position.0 = Some(to);
            let up = m.jump && !landing;
            if f.round.airborne != up {
                f.round.airborne = up;
            }
            if !m.jump || landing {
                // What the step does besides (the action-point families: a drop is a fall).
                let step = super::family::Step {
                    rules,
                    field: &field,
                    mover,
                    from: if m.jump { m.start } else { from },
                    to,
                };
                family.stepped(&step, &mut f, &mut dice.0, &mut log);
            }
        }
        drop(all);
        all = q.snapshots_after(m.who);
        m.next += 1;
        m.asked.clear();
    }
}

fn finish_move(rules: &Rules, field: &Field, m: &MoveState, size: u32, log: &mut EventLog) {
    let taken: Vec<Square> = m.path[..m.next].to_vec();
    // A jump covers its squares without paying for their ground.
    let cost = if m.jump {
        taken.len() as u32
    } else {
        taken
            .iter()
            .map(|s| step_cost(field, *s, size).unwrap_or(0))
            .sum()
    };
    log.push(BattleEvent::Moved {
        who: m.who,
        path: taken,
        cost,
        boosted: m.boosted,
        stopped: m.stopped,
        by_ap: super::family::of(rules).acts_in_points(),
        jump: m.jump,
    });
}

/// `Exploit`: the answer of a prompted combatant whose reach the mover is leaving.
pub fn apply_exploit_answer(
    sys: RuleSys,
    ground: Res<Battleground>,
    mut pending: ResMut<PendingCommand>,
    underway: Underway,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
) {
    let RuleSys {
        rules,
        mut log,
        mut progress,
        mut q,
        ..
    } = sys;
    let Some(Command::Exploit { order, .. }) = pending.0.clone() else {
        return;
    };
    pending.0 = None;
    awaiting.0 = None;
    progress.0 = true;
    // The provoking combatant: the mover, or the one recovering.
    let Underway {
        moving,
        recovery,
        queued,
    } = underway;
    let provoker = moving
        .0
        .as_ref()
        .map(|m| m.who)
        .or(recovery.0.as_ref().map(|r| r.who))
        .or(queued.0.as_ref().map(|o| o.attacker));
    if let (Some(order), Some(who)) = (order, provoker) {
        let field = ground.field(&rules.0);
        attack.0 = begin_attack(&rules.0, &field, &mut q, &mut log, order, Some(who), None);
    }
}

/// Checks an answer to an Exploit prompt.
pub fn check_exploit(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    order: &super::command::AttackOrder,
    mover: CombatantId,
) -> Result<(), RuleError> {
    if order.attacker != me.id {
        return Err(RuleError::BadExploit(mover));
    }
    check_attack(rules, field, fighters, me, order, Some(mover)).map(|_| ())
}

/// A combatant's speeds in words, for panels and the command line.
pub fn describe_speed(rules: &Rules, f: &Fighter) -> String {
    format!(
        "Normal {} / Boosted {} (Boosted costs {} Ki)",
        speed(rules, f, false),
        speed(rules, f, true),
        at_tier(
            &rules.actions.boosted_move_cost,
            f.power.tier,
            f.power.base_tier
        )
    )
}

/// Where one combatant's move could go, as the battle stands: every square its search reached
/// (with costs and parents) and those it may end on.
#[derive(Debug, Clone)]
pub struct MoveReach {
    pub start: crate::grid::Square,
    pub all: BTreeMap<crate::grid::Square, crate::grid::path::Reach>,
    /// The squares the move may end on: reached, not the start, and free to stand on.
    pub ends: std::collections::BTreeSet<crate::grid::Square>,
}

impl MoveReach {
    /// The cheapest path to end the move on `to`, if it may end there.
    pub fn path_to(&self, to: crate::grid::Square) -> Option<Vec<crate::grid::Square>> {
        // The start is not among the ends, but is passed to the search as the old path_to did.
        if to != self.start && !self.ends.contains(&to) {
            return None;
        }
        crate::grid::path::path_to(&self.all, self.start, to)
    }
}
