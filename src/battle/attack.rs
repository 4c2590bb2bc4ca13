//! The anatomy of an Attacking Maneuver as ordered systems: Attack Declaration, the window for
//! Instants, Defense Declaration, Opposed Rolls, Damage, Threshold Saves and the End of the
//! Attack. Each system does one phase and hands over to the next; all the math comes from
//! [`super::context`].

use bevy::prelude::*;

use super::command::{AttackOrder, AttackTarget, Command, Decision, RuleError};
use super::components::*;
use super::context::{
    Declaration, DefenseChoice, assemble, damage_against, guard_down_against, push_destination,
    reach,
};
use super::effects::{LifeCause, end_condition, expiry_after, grant_condition, set_life};
use super::event::{ActionKind, BattleEvent, EventLog, Pool};
use super::fighter::{Fighter, FighterQuery, FighterQueryItem, at_tier, eval, snapshots};
use super::maneuvers::{convert_action, spend_actions, use_surge};
use super::odds::target_odds;
use super::state::*;
use super::turn::{announce_defeat, occupied};
use crate::dice::{RollBreakdown, RollSpec, roll};
use crate::grid::area::covered;
use crate::grid::los::clear_between;
use crate::grid::{Field, footprint, footprint_distance};
use crate::ruleset::{
    Affects, AreaOrigin, AreaShape, ConditionKind, Polarity, ProfileEffect, Rules, Targeting,
    TechniqueDef,
};

/// Run condition: an attack is in `phase` and nobody is being waited on.
pub fn attack_in(phase: AttackPhase) -> impl Fn(Res<CurrentAttack>, Res<AwaitingInput>) -> bool {
    move |a: Res<CurrentAttack>, w: Res<AwaitingInput>| {
        w.0.is_none() && a.0.as_ref().is_some_and(|s| s.phase == phase)
    }
}

/// The profile and technique an order uses.
pub fn used_profile<'r>(
    rules: &'r Rules,
    attacker: &'r Fighter,
    order: &AttackOrder,
) -> Result<(&'r crate::ruleset::ProfileDef, Option<&'r TechniqueDef>), RuleError> {
    let technique = match &order.technique {
        Some(id) => Some(
            attacker
                .loadout
                .techniques
                .iter()
                .find(|t| &t.id == id)
                .ok_or_else(|| RuleError::UnknownTechnique {
                    who: attacker.id,
                    technique: id.clone(),
                })?,
        ),
        None => None,
    };
    let profile_id = technique.map_or(order.profile.as_str(), |t| t.profile.as_str());
    if technique.is_none() && !attacker.loadout.profiles.iter().any(|p| p == profile_id) {
        return Err(RuleError::UnknownProfile {
            who: attacker.id,
            profile: profile_id.to_string(),
        });
    }
    let profile = rules
        .profile(profile_id)
        .ok_or_else(|| RuleError::UnknownProfile {
            who: attacker.id,
            profile: profile_id.to_string(),
        })?;
    Ok((profile, technique))
}

/// Resolves an order into a [`Declaration`] for `target_count` targets, checking the profile,
/// technique, element and wager rules (not actions, Ki or targets).
pub fn declaration<'r>(
    rules: &'r Rules,
    attacker: &'r Fighter,
    order: &AttackOrder,
    target_count: usize,
) -> Result<Declaration<'r>, RuleError> {
    let (profile, technique) = used_profile(rules, attacker, order)?;
    let attack_type =
        rules
            .attack_type(&profile.attack_type)
            .ok_or_else(|| RuleError::UnknownProfile {
                who: attacker.id,
                profile: profile.id.clone(),
            })?;
    let wants_element = profile
        .effects
        .iter()
        .any(|e| matches!(e, ProfileEffect::ElementChoice));
    let element = match (&order.element, wants_element) {
        (Some(id), true) if attacker.loadout.elements.contains(id) => {
            Some(rules.element(id).ok_or_else(|| RuleError::BadElement {
                who: attacker.id,
                element: id.clone(),
            })?)
        }
        (Some(id), _) => {
            return Err(RuleError::BadElement {
                who: attacker.id,
                element: id.clone(),
            });
        }
        (None, true) => {
            return Err(RuleError::ElementNeeded {
                profile: profile.name.clone(),
                options: attacker.loadout.elements.join(", "),
            });
        }
        (None, false) => None,
    };
    if order.wager < 0 {
        return Err(RuleError::NegativeWager);
    }
    if order.wager > 0 && !attack_type.wager {
        return Err(RuleError::NoWager {
            kind: attack_type.name.clone(),
        });
    }
    Ok(Declaration {
        profile,
        attack_type,
        technique,
        element,
        wager: order.wager,
        target_count,
        sneak: order.sneak,
        sneak_won: &[],
        bystanders: &[],
        aimed_at: order.target.square(),
    })
}

/// Who an order hits: its single target, or every character its area covers that the area
/// affects. Single targets must be opponents in reach and in sight; areas stop at walls.
pub fn attack_targets(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    attacker: &Fighter,
    order: &AttackOrder,
) -> Result<Vec<CombatantId>, RuleError> {
    let (profile, _) = used_profile(rules, attacker, order)?;
    let decl = declaration(rules, attacker, order, 1)?;
    let reach_sq = reach(attacker, &decl);
    let Some(at) = attacker.position else {
        return Err(RuleError::Absorbed(attacker.id));
    };
    let needs = |n: &'static str| RuleError::WrongTarget {
        profile: profile.name.clone(),
        needs: n,
    };
    let out_of_range = |target: CombatantId, distance: u32, reach: u32| RuleError::OutOfRange {
        target,
        distance,
        profile: profile.name.clone(),
        reach,
    };
    let mut ids: Vec<CombatantId> = match profile.targeting {
        Targeting::Single => {
            let AttackTarget::Combatant(id) = order.target else {
                return Err(needs("a target combatant"));
            };
            let t = fighters
                .iter()
                .find(|f| f.id == id)
                .ok_or(RuleError::UnknownCombatant(id))?;
            let helping = rules
                .digimon()
                .and_then(|d| super::digimon::attack_of(d, &order.profile))
                .is_some_and(|(a, _)| super::digimon::helps(a));
            // Digimon: a helping effect may be given to oneself (Direct is the partner's).
            if id == attacker.id && !helping {
                return Err(RuleError::SelfTarget(id));
            }
            if t.defeated() {
                return Err(RuleError::TargetDefeated(id));
            }
            let Some(tp) = t.position else {
                return Err(RuleError::TargetAbsent(id));
            };
            if t.conditions.has(ConditionKind::Hidden) {
                return Err(RuleError::TargetHidden(id));
            }
            if t.side == attacker.side && !helping {
                return Err(RuleError::NotAnOpponent(id));
            }
            if let (Some(r), Some(d)) = (reach_sq, attacker.distance_to(t))
                && d > r
            {
                return Err(out_of_range(id, d, r));
            }
            if !clear_between(field, at, attacker.size.squares, tp, t.size.squares) {
                return Err(RuleError::NoLineOfSight(id));
            }
            vec![id]
        }
        Targeting::Area {
            shape,
            origin,
            affects,
        } => {
            let squares = area_squares(
                field,
                attacker,
                order,
                &profile.name,
                shape,
                origin,
                reach_sq,
            )?;
            fighters
                .iter()
                .filter(|f| {
                    f.id != attacker.id
                        && !f.defeated()
                        && !f.conditions.has(ConditionKind::Hidden)
                        && (affects == Affects::AllButAttacker || f.side != attacker.side)
                })
                .filter(|f| {
                    f.position.is_some_and(|p| {
                        footprint(p, f.size.squares)
                            .iter()
                            .any(|s| squares.binary_search(&s).is_ok())
                    })
                })
                .map(|f| f.id)
                .collect()
        }
    };
    ids.sort();
    if ids.is_empty() {
        return Err(RuleError::NoTargets {
            profile: profile.name.clone(),
        });
    }
    Ok(ids)
}

/// The squares an area order covers (walls and squares out of sight left out), for the
/// template a player sees and for finding who the area hits.
#[allow(clippy::too_many_arguments)]
fn area_squares(
    field: &Field,
    attacker: &Fighter,
    order: &AttackOrder,
    profile_name: &str,
    shape: AreaShape,
    origin: AreaOrigin,
    reach_sq: Option<u32>,
) -> Result<Vec<Square>, RuleError> {
    let Some(at) = attacker.position else {
        return Err(RuleError::Absorbed(attacker.id));
    };
    let needs = |n: &'static str| RuleError::WrongTarget {
        profile: profile_name.to_string(),
        needs: n,
    };
    let out_of_range = |target: CombatantId, distance: u32, reach: u32| RuleError::OutOfRange {
        target,
        distance,
        profile: profile_name.to_string(),
        reach,
    };
    let melee = reach_sq.unwrap_or(attacker.size.melee_range);
    let (from, size, dir) = match (origin, shape, order.target) {
        (
            AreaOrigin::Attacker,
            AreaShape::Cone { .. } | AreaShape::Line { .. },
            AttackTarget::Direction(d),
        ) => (at, attacker.size.squares, Some(d)),
        (AreaOrigin::Attacker, AreaShape::Cone { .. } | AreaShape::Line { .. }, _) => {
            return Err(needs("a direction"));
        }
        (AreaOrigin::Attacker, _, AttackTarget::InReach) => (at, attacker.size.squares, None),
        (AreaOrigin::Attacker, _, _) => {
            return Err(needs("no target: it covers everyone around the attacker"));
        }
        (
            AreaOrigin::ChosenSquare,
            _,
            AttackTarget::Square(s) | AttackTarget::SquareToward(s, _),
        ) => {
            if !field.bounds().contains(s) {
                return Err(RuleError::OffMap(s));
            }
            if let Some(r) = reach_sq {
                let d = footprint_distance(at, attacker.size.squares, s, 1);
                if d > r {
                    return Err(out_of_range(attacker.id, d, r));
                }
            }
            let dir = match (shape, order.target) {
                (
                    AreaShape::Cone { .. } | AreaShape::Line { .. },
                    AttackTarget::SquareToward(_, d),
                ) => Some(d),
                (AreaShape::Cone { .. } | AreaShape::Line { .. }, _) => {
                    return Err(needs("a square and a direction"));
                }
                _ => None,
            };
            // Choosing a square one occupies counts as choosing all of them.
            if footprint(at, attacker.size.squares).contains(&s) {
                (at, attacker.size.squares, dir)
            } else {
                if !clear_between(field, at, attacker.size.squares, s, 1) {
                    return Err(RuleError::SquareNotVisible(s));
                }
                (s, 1, dir)
            }
        }
        (AreaOrigin::ChosenSquare, _, _) => return Err(needs("a target square")),
    };
    Ok(covered(field, shape, from, size, dir, melee))
}

/// The squares an order's area of effect covers, or `None` for a single-target profile: what
/// the game draws as the area template, from the same geometry that resolution uses.
pub fn template(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    order: &AttackOrder,
) -> Result<Option<Vec<Square>>, RuleError> {
    let (profile, _) = used_profile(rules, attacker, order)?;
    let decl = declaration(rules, attacker, order, 1)?;
    match profile.targeting {
        Targeting::Single => Ok(None),
        Targeting::Area { shape, origin, .. } => area_squares(
            field,
            attacker,
            order,
            &profile.name,
            shape,
            origin,
            reach(attacker, &decl),
        )
        .map(Some),
    }
}

/// Checks every rule that could forbid an attack order right now. An Exploit (`exploit` is
/// the mover) is paid with a Counter Action, must be a Basic Attack and must hit the mover.
pub fn check_attack(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    attacker: &Fighter,
    order: &AttackOrder,
    exploit: Option<CombatantId>,
) -> Result<Vec<CombatantId>, RuleError> {
    if attacker.defeated() {
        return Err(RuleError::Defeated(attacker.id));
    }
    if attacker.conditions.has(ConditionKind::Absorbed) {
        return Err(RuleError::Absorbed(attacker.id));
    }
    match exploit {
        // A d20 full-round attack's later swings are already paid for.
        None if attacker.actions.usable() == 0
            && super::d20::follow_up(&attacker.round, &order.profile).is_none() =>
        {
            return Err(RuleError::NoActions {
                who: attacker.id,
                what: "Standard Action",
            });
        }
        Some(_)
            if attacker.actions.counter == 0
                && !(rules.actions.conversion && attacker.actions.standard > 0) =>
        {
            return Err(RuleError::NoActions {
                who: attacker.id,
                what: "Counter Action",
            });
        }
        _ => {}
    }
    if order.sneak {
        if rules.action_points().is_none() {
            return Err(RuleError::NotInRuleset {
                what: "a sneak attack",
                ruleset: rules.manifest.id.clone(),
            });
        }
        if exploit.is_some() || !matches!(order.target, AttackTarget::Combatant(_)) {
            return Err(RuleError::BadSneak);
        }
    }
    // The family's own refusals first: a card not held, or action points short, is the
    // reason, not the distance.
    let family = super::family::of(rules);
    family.check_order(field, attacker, order, exploit.is_some())?;
    let targets = attack_targets(rules, field, fighters, attacker, order)?;
    let ts: Vec<&Fighter> = fighters
        .iter()
        .filter(|f| targets.contains(&f.id))
        .collect();
    family.check_targets(attacker, &order.profile, &ts)?;
    if let Some(mover) = exploit
        && (order.technique.is_some() || !targets.contains(&mover))
    {
        return Err(RuleError::BadExploit(mover));
    }
    let decl = declaration(rules, attacker, order, targets.len())?;
    if let Some(req) = &decl.attack_type.required_score {
        let has = attacker.attributes.get(&req.attribute);
        if has < req.at_least {
            return Err(RuleError::ScoreTooLow {
                who: attacker.id,
                kind: decl.attack_type.name.clone(),
                attribute: req.attribute.clone(),
                at_least: req.at_least,
                has,
            });
        }
    }
    if (decl.attack_type.magical || decl.technique.is_some())
        && attacker.is(rules, ConditionKind::Transfigured)
    {
        return Err(RuleError::Transfigured);
    }
    if decl.technique.is_some() {
        if attacker.round.technique_used {
            return Err(RuleError::TechniqueUsedThisRound);
        }
    } else if rules.attacks.profile_once_per_round
        && !decl.profile.repeatable
        && attacker.round.profiles_used.contains(&decl.profile.id)
    {
        return Err(RuleError::ProfileUsedThisRound {
            profile: decl.profile.name.clone(),
        });
    }
    let limit = rules.characters.minion.attacks_per_round;
    if attacker.power.minion && attacker.round.attacks >= limit {
        return Err(RuleError::MinionAttackLimit { limit });
    }
    attacker.can_pay(super::context::ki_cost(attacker, &decl).saturating_add(decl.wager))?;
    Ok(targets)
}

/// Attack Declaration for a checked order: spend the action (a Counter Action for an Exploit),
/// pay the Ki cost and the wager from Ki and Capacity, and start the attack. `None` (nothing
/// changed) if the order is not legal any more.
pub fn begin_attack(
    rules: &Rules,
    field: &Field,
    q: &mut Query<FighterQuery>,
    log: &mut EventLog,
    order: AttackOrder,
    exploit: Option<CombatantId>,
) -> Option<AttackState> {
    let all = snapshots(q);
    let me = all.iter().find(|f| f.id == order.attacker)?;
    let targets = check_attack(rules, field, &all, me, &order, exploit).ok()?;
    let decl = declaration(rules, me, &order, targets.len()).ok()?;
    let cost = super::context::ki_cost(me, &decl);
    let pay = cost.saturating_add(decl.wager);
    let profile_id = decl.profile.id.clone();
    let name = decl.profile.name.clone();
    let technique = decl.technique.map(|t| t.name.clone());
    let element = decl.element.map(|e| e.name.clone());
    let mut f = q.iter_mut().find(|f| *f.id == order.attacker)?;
    super::family::of(rules).pay_attack(&mut f, me, decl.profile, exploit.is_some(), log);
    let cost_pool = super::family::of(rules).cost_pool();
    log.push(BattleEvent::AttackDeclared {
        attacker: order.attacker,
        profile: name.clone(),
        technique: technique.clone(),
        element,
        targets: targets.clone(),
        ki_cost: cost,
        wager: order.wager,
        cost_pool,
    });
    if pay > 0
        && let Some(pool) = cost_pool
    {
        let from = f.ki.current;
        f.ki.current -= pay;
        log.push(BattleEvent::PoolChanged {
            who: order.attacker,
            pool,
            from,
            to: f.ki.current,
            reason: format!("{name} costs {pay}"),
        });
    } else if pay > 0 {
        let (k0, c0) = (f.ki.current, f.capacity.current);
        f.ki.current -= pay;
        f.capacity.current -= pay;
        log.push(BattleEvent::KiSpent {
            who: order.attacker,
            amount: pay,
            from: k0,
            to: f.ki.current,
            what: format!("Ki cost {cost} + wager {}", order.wager),
        });
        log.push(BattleEvent::PoolChanged {
            who: order.attacker,
            pool: Pool::Capacity,
            from: c0,
            to: f.capacity.current,
            reason: "Ki spent this round".into(),
        });
    }
    f.round.attacks += 1;
    if let Some(data) = rules.stages() {
        super::stages::play_attack(data, &mut f, &profile_id, log);
    }
    if technique.is_some() {
        f.round.technique_used = true;
    } else {
        f.round.profiles_used.insert(profile_id);
    }
    Some(AttackState {
        order,
        phase: AttackPhase::Responses,
        targets: targets
            .into_iter()
            .map(|id| TargetState {
                id,
                defense: None,
                hit: None,
                damage: 0,
                counter: None,
                success: None,
                half: false,
                interceded: false,
            })
            .collect(),
        strike: None,
        exploit,
        responders: Vec::new(),
        window_opened: false,
        sneak_won: Vec::new(),
        intercede_opened: false,
        interceders: Vec::new(),
    })
}

/// `Attack`: the active combatant declares an Attacking Maneuver. A shinobi sneak attack first
/// rolls its contest: won, every defense of the target takes the penalty; lost, the target may
/// make an opportunity attack first and the attack waits in [`QueuedAttack`].
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
pub fn declare_attack(
    rules: Res<RulesRes>,
    ground: Res<Battleground>,
    mut dice: ResMut<BattleDice>,
    mut pending: ResMut<PendingCommand>,
    mut attack: ResMut<CurrentAttack>,
    mut queued: ResMut<QueuedAttack>,
    mut awaiting: ResMut<AwaitingInput>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let Some(Command::Attack(mut order)) = pending.0.clone() else {
        return;
    };
    pending.0 = None;
    progress.0 = true;
    let rules = &rules.0;
    let field = ground.field(rules);
    let sneak = match (rules.action_points(), order.target) {
        (Some(data), AttackTarget::Combatant(target)) if order.sneak => Some((data, target)),
        _ => None,
    };
    let Some((data, target)) = sneak else {
        if let Some(enemy) = d20_provoked(rules, &field, &q, &order) {
            // d20: "Adam's next ranged attack provokes an attack of opportunity from Betty
            // because she threatens his space"; the shot waits for it.
            let all = snapshots(&q);
            let (Some(me), Some(them)) = (
                all.iter().find(|f| f.id == order.attacker),
                all.iter().find(|f| f.id == enemy),
            ) else {
                return;
            };
            let at = me.position.unwrap_or_default();
            queued.0 = Some(order);
            let asked = super::movement::offer_exploit(
                rules,
                &field,
                &all,
                them,
                super::movement::Provocation {
                    mover: me.id,
                    at,
                    recovering: false,
                    sneak: false,
                    shooting: true,
                },
                &mut q,
                &mut log,
                &mut awaiting,
                &mut attack,
            );
            if !asked && let Some(order) = queued.0.take() {
                attack.0 = begin_attack(rules, &field, &mut q, &mut log, order, None);
            }
            return;
        }
        attack.0 = begin_attack(rules, &field, &mut q, &mut log, order, None);
        return;
    };
    let all = snapshots(&q);
    let (Some(me), Some(them)) = (
        all.iter().find(|f| f.id == order.attacker),
        all.iter().find(|f| f.id == target),
    ) else {
        return;
    };
    // The contest is rolled once; what follows is an ordinary attack order.
    order.sneak = false;
    if super::shinobi::roll_sneak(data, &mut dice.0, me, them, &mut log) {
        attack.0 = begin_attack(rules, &field, &mut q, &mut log, order, None);
        if let Some(s) = attack.0.as_mut() {
            s.sneak_won = vec![target];
        }
        return;
    }
    // Spotted: "provokes an opportunity attack then follows the normal rules for attacking".
    let can_strike = super::policy::best_attack(rules, &field, &all, them, Some(me.id)).is_some();
    let at = me.position.unwrap_or_default();
    queued.0 = Some(order);
    let asked = can_strike
        && super::movement::offer_exploit(
            rules,
            &field,
            &all,
            them,
            super::movement::Provocation {
                mover: me.id,
                at,
                recovering: false,
                sneak: true,
                shooting: false,
            },
            &mut q,
            &mut log,
            &mut awaiting,
            &mut attack,
        );
    if !asked && let Some(order) = queued.0.take() {
        attack.0 = begin_attack(rules, &field, &mut q, &mut log, order, None);
    }
}

/// d20: the enemy (lowest id first) whose attack of opportunity a legal shot in `order`
/// provokes, if any.
fn d20_provoked(
    rules: &Rules,
    field: &Field,
    q: &Query<FighterQuery>,
    order: &AttackOrder,
) -> Option<CombatantId> {
    let d = rules.d20()?;
    let a = d.attack(&order.profile)?;
    let all = snapshots(q);
    let me = all.iter().find(|f| f.id == order.attacker)?;
    check_attack(rules, field, &all, me, order, None).ok()?;
    let mut enemies: Vec<&Fighter> = all
        .iter()
        .filter(|e| super::d20::provokes(d, me, a, e))
        .collect();
    enemies.sort_by_key(|e| e.id);
    enemies.first().map(|e| e.id)
}

/// Run condition: a sneak attack waits and nothing else is going on.
pub fn queued_ready(
    queued: Res<QueuedAttack>,
    attack: Res<CurrentAttack>,
    awaiting: Res<AwaitingInput>,
) -> bool {
    queued.0.is_some() && attack.0.is_none() && awaiting.0.is_none()
}

/// Makes a spotted sneak attack as an ordinary attack once the opportunity attack it provoked
/// is over (nothing, if the attacker can no longer make it).
pub fn begin_queued_attack(
    rules: Res<RulesRes>,
    ground: Res<Battleground>,
    mut queued: ResMut<QueuedAttack>,
    mut attack: ResMut<CurrentAttack>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let Some(order) = queued.0.take() else {
        return;
    };
    progress.0 = true;
    let field = ground.field(&rules.0);
    attack.0 = begin_attack(&rules.0, &field, &mut q, &mut log, order, None);
}

/// The window for Instant actions: automatic policies act (a Healing Surge when low), and
/// combatants whose controller prompts are asked one by one.
pub fn open_response_window(
    rules: Res<RulesRes>,
    mut dice: ResMut<BattleDice>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    if rules.manifest.family != crate::ruleset::Family::Dbu {
        // The card game and the ninja chapter have no Instants to answer an attack with.
        state.phase = AttackPhase::DefenseDeclaration;
        return;
    }
    let attacker = state.order.attacker;
    if !state.window_opened {
        // First visit: decide who gets asked, and let automatic policies act.
        let mut asked = Vec::new();
        let mut items: Vec<_> = q.iter_mut().collect();
        items.sort_by_key(|f| *f.id);
        let injured = rules.damage.thresholds.len().min(2).saturating_sub(1);
        for f in items.iter_mut() {
            if *f.id == attacker || f.life.current <= 0 || f.encounter.surge_used {
                continue;
            }
            match f.controller.responses {
                ResponsePolicy::Prompt => asked.push(*f.id),
                ResponsePolicy::SurgeWhenLow => {
                    let targeted = state.targets.iter().any(|t| t.id == *f.id);
                    if targeted && f.thresholds.reached.contains(&injured) {
                        use_surge(
                            rules,
                            &mut dice.0,
                            f,
                            super::command::SurgeKind::Healing,
                            &mut log,
                        );
                    }
                }
                ResponsePolicy::Never => {}
            }
        }
        if !asked.is_empty() {
            log.push(BattleEvent::ResponseWindow { attacker });
        }
        state.responders = asked;
        state.window_opened = true;
    }
    if let Some(&who) = state.responders.first() {
        awaiting.0 = Some(Decision::Response { who, attacker });
        return;
    }
    state.phase = AttackPhase::DefenseDeclaration;
}

/// Snapshots of an attack's attacker and targets, the targets in the attack's order.
fn parties<'a>(all: &'a [Fighter], state: &AttackState) -> Option<(&'a Fighter, Vec<&'a Fighter>)> {
    let attacker = all.iter().find(|f| f.id == state.order.attacker)?;
    let targets = state
        .targets
        .iter()
        .filter_map(|t| all.iter().find(|f| f.id == t.id))
        .collect();
    Some((attacker, targets))
}

/// Records a target's defense choice; a Parry spends a Counter Action, converting a Standard
/// one if none is left.
pub fn declare_defense(
    f: &mut FighterQueryItem,
    t: &mut TargetState,
    choice: DefenseChoice,
    log: &mut EventLog,
) {
    t.defense = Some(choice);
    if f.cards.is_some() {
        // Power stages: a block is logged when its card is played; taking it needs no line.
        return;
    }
    log.push(BattleEvent::DefenseDeclared {
        defender: *f.id,
        choice,
    });
    if choice == DefenseChoice::Parry {
        if f.actions.counter == 0 {
            convert_action(f, log);
        }
        f.actions.counter = f.actions.counter.saturating_sub(1);
        log.push(BattleEvent::ActionSpent {
            who: *f.id,
            kind: ActionKind::Counter,
            what: "Parry".into(),
        });
    }
}

/// The default pipeline's payment for an attack: one action, or for an Exploit (an
/// opportunity attack) the Counter Action, converting a Standard Action when none is left.
pub fn default_pay_attack(
    f: &mut FighterQueryItem,
    profile: &crate::ruleset::ProfileDef,
    opportunity: bool,
    log: &mut EventLog,
) {
    let name = &profile.name;
    if opportunity {
        if f.actions.counter == 0 {
            convert_action(f, log);
        }
        f.actions.counter -= 1;
        log.push(BattleEvent::ActionSpent {
            who: *f.id,
            kind: ActionKind::Counter,
            what: format!("an Exploit ({name})"),
        });
    } else {
        spend_actions(f, 1, &format!("an attack ({name})"), log);
    }
}

/// The whole situation a target answers an attack in: what a defense policy reads.
pub struct DefenseAsk<'a> {
    pub rules: &'a Rules,
    pub field: &'a Field<'a>,
    pub attacker: &'a Fighter,
    pub target: &'a Fighter,
    /// Every target of the attack.
    pub all: &'a [&'a Fighter],
    pub order: &'a AttackOrder,
    /// The targets whose sneak contest the attacker won.
    pub sneak_won: &'a [CombatantId],
    /// Everyone on the field (a d20 flanker).
    pub bystanders: &'a [Fighter],
}

/// The default pipeline's answer (Dodge, or Parry with a Counter Action when clearly better).
pub fn default_policy_defense(ask: &DefenseAsk) -> Option<DefenseChoice> {
    let DefenseAsk {
        rules,
        field,
        attacker,
        target,
        all,
        order,
        ..
    } = *ask;
    let can_parry =
        target.actions.counter > 0 || (rules.actions.conversion && target.actions.standard > 0);
    match target.controller.defense {
        DefensePolicy::Prompt => None,
        DefensePolicy::AlwaysDodge => Some(DefenseChoice::Dodge),
        DefensePolicy::AlwaysParry if can_parry => Some(DefenseChoice::Parry),
        DefensePolicy::AlwaysParry => Some(DefenseChoice::Dodge),
        DefensePolicy::Best => {
            // Parry only with a real Counter Action, and only when clearly better.
            if target.actions.counter == 0 {
                return Some(DefenseChoice::Dodge);
            }
            let Ok(decl) = declaration(rules, attacker, order, all.len()) else {
                return Some(DefenseChoice::Dodge);
            };
            let ctx = assemble(rules, field, attacker, all, &decl);
            let Some(t) = ctx.targets.iter().find(|t| t.id == target.id) else {
                return Some(DefenseChoice::Dodge);
            };
            let dodge = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::Dodge);
            let parry = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::Parry);
            if parry.expected_damage + 0.5 < dodge.expected_damage {
                Some(DefenseChoice::Parry)
            } else {
                Some(DefenseChoice::Dodge)
            }
        }
    }
}

/// A power-stages target's answer: nothing to decide without a matching card; otherwise its
/// policy, where `Best` blocks whatever would cost life cards or at least two stages.
pub fn stage_defense(
    data: &crate::ruleset::stages::StageData,
    ask: &DefenseAsk,
) -> Option<DefenseChoice> {
    let DefenseAsk {
        rules,
        field,
        attacker,
        target,
        all,
        order,
        ..
    } = *ask;
    // An order that is no card (validated data never makes one) cannot be blocked.
    let Some(kind) = super::stages::attack_kind(data, &order.profile) else {
        return Some(DefenseChoice::Dodge);
    };
    if super::stages::block_card(data, target, kind).is_none() {
        return Some(DefenseChoice::Dodge);
    }
    match target.controller.defense {
        DefensePolicy::Prompt => None,
        DefensePolicy::AlwaysDodge => Some(DefenseChoice::Dodge),
        DefensePolicy::AlwaysParry => Some(DefenseChoice::Parry),
        DefensePolicy::Best => {
            let Ok(decl) = declaration(rules, attacker, order, all.len()) else {
                return Some(DefenseChoice::Parry);
            };
            let ctx = assemble(rules, field, attacker, all, &decl);
            let Some(t) = ctx.targets.iter().find(|t| t.id == target.id) else {
                return Some(DefenseChoice::Parry);
            };
            let taken = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::Dodge);
            if super::stages::worth_blocking(&taken) {
                Some(DefenseChoice::Parry)
            } else {
                Some(DefenseChoice::Dodge)
            }
        }
    }
}

/// An action-point target's answer (the ninja chapter, d20, Digimon): its policy over the
/// defenses it has; `Best` takes the one that leaves it the least expected damage (Dodge on a
/// tie), `AlwaysParry` blocks when it can.
pub fn action_point_defense(ask: &DefenseAsk) -> Option<DefenseChoice> {
    let DefenseAsk {
        rules,
        field,
        attacker,
        target,
        all,
        order,
        sneak_won,
        bystanders,
    } = *ask;
    match target.controller.defense {
        DefensePolicy::Prompt => None,
        // d20 looks first: a shot from beyond melee range has no Dodge to roll (it is taken).
        DefensePolicy::AlwaysDodge if rules.d20().is_none() => Some(DefenseChoice::Dodge),
        DefensePolicy::AlwaysDodge | DefensePolicy::AlwaysParry | DefensePolicy::Best => {
            let Ok(mut decl) = declaration(rules, attacker, order, all.len()) else {
                return Some(DefenseChoice::Dodge);
            };
            decl.sneak_won = sneak_won;
            decl.bystanders = bystanders;
            let ctx = assemble(rules, field, attacker, all, &decl);
            let t = ctx.targets.iter().find(|t| t.id == target.id)?;
            if t.offers(DefenseChoice::Take) {
                // d20: a shot from beyond melee range: dive (a Move action next turn) or drop
                // prone (a swift action) only when it is worth what it costs; of the two, the
                // one that gains more over its cost.
                if target.controller.defense != DefensePolicy::Best {
                    return Some(DefenseChoice::Take);
                }
                let (life, max) = (target.life.current, target.life.max);
                let take = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::Take);
                let mut best = (0.0, DefenseChoice::Take);
                if t.offers(DefenseChoice::Dive) {
                    let dive = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::Dive);
                    let gain = super::dive::worth_diving(&take, &dive, life, max);
                    if gain >= 0.0 {
                        best = (gain, DefenseChoice::Dive);
                    }
                }
                if t.offers(DefenseChoice::DropProne) {
                    let drop = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::DropProne);
                    let gain = super::swift::worth_dropping(&take, &drop, life, max);
                    if gain >= 0.0 && (best.1 == DefenseChoice::Take || gain > best.0) {
                        best = (gain, DefenseChoice::DropProne);
                    }
                }
                return Some(best.1);
            }
            if target.controller.defense == DefensePolicy::AlwaysDodge {
                return Some(DefenseChoice::Dodge);
            }
            if target.controller.defense == DefensePolicy::AlwaysParry {
                return Some(if t.offers(DefenseChoice::Block) {
                    DefenseChoice::Block
                } else {
                    DefenseChoice::Dodge
                });
            }
            let mut best = (f64::INFINITY, DefenseChoice::Dodge);
            for (c, _) in &t.defenses {
                let o = target_odds(rules, &ctx, t, &decl, target, *c);
                if o.expected_damage < best.0 - 1e-9 {
                    best = (o.expected_damage, *c);
                }
            }
            Some(best.1)
        }
    }
}

/// Defense Declaration: each target, in id order, dodges or parries; a prompted one stops the
/// battle until it answers.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
pub fn collect_defenses(
    rules: Res<RulesRes>,
    ground: Res<Battleground>,
    turn: Res<TurnOrder>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    let all = snapshots(&q);
    let Some((attacker, targets)) = parties(&all, state) else {
        return;
    };
    for i in 0..state.targets.len() {
        if state.targets[i].defense.is_some() {
            continue;
        }
        let id = state.targets[i].id;
        let Some(target) = all.iter().find(|f| f.id == id) else {
            continue;
        };
        let field = ground.field(rules);
        let family = super::family::of(rules);
        if let Some(choice) = family.forced_defense(attacker, target, &state.order.profile) {
            state.targets[i].defense = Some(choice);
            continue;
        }
        match family.policy_defense(&DefenseAsk {
            rules,
            field: &field,
            attacker,
            target,
            all: &targets,
            order: &state.order,
            sneak_won: &state.sneak_won,
            bystanders: &all,
        }) {
            Some(choice) => {
                let counter = rules
                    .action_points()
                    .and_then(|data| super::shinobi::policy_counter(data, &turn, target, attacker));
                if let Some(mut f) = q.iter_mut().find(|f| *f.id == id) {
                    declare_defense(&mut f, &mut state.targets[i], choice, &mut log);
                    if let (Some(data), Some(c)) = (rules.action_points(), counter)
                        && let Some(def) = data.counter(&c)
                    {
                        super::shinobi::cast_counter(&mut f, def, &mut log);
                        state.targets[i].counter = Some(c);
                    }
                }
            }
            None => {
                awaiting.0 = Some(Decision::Defense {
                    defender: id,
                    attacker: attacker.id,
                });
                return;
            }
        }
    }
    state.phase = AttackPhase::OpposedRolls;
}

/// Recomputes a breakdown's total with another spec's modifiers, keeping its dice: one Strike
/// Roll against several targets whose modifiers differ (Long Range, Shaken).
pub fn rescore(b: &RollBreakdown, spec: &RollSpec) -> RollBreakdown {
    let mut out = b.clone();
    let botch: Vec<_> = b
        .modifiers
        .iter()
        .filter(|m| m.label.starts_with("Botch"))
        .cloned()
        .collect();
    out.modifiers = spec.modifiers.clone();
    out.modifiers.extend(botch);
    let raw =
        out.dice_multiplier * out.dice_sum() + out.modifiers.iter().map(|m| m.value).sum::<i64>();
    out.total = raw.max(0);
    out
}

/// Opposed Rolls: one Strike against each target's Dodge or Parry; the defender wins ties;
/// Rage hits without a Clash.
pub fn roll_opposed_checks(
    rules: Res<RulesRes>,
    mut ground: ResMut<Battleground>,
    mut dice: ResMut<BattleDice>,
    mut attack: ResMut<CurrentAttack>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    let all = snapshots(&q);
    let Some((attacker, targets)) = parties(&all, state) else {
        return;
    };
    if let Some(data) = rules.stages() {
        let profile = state.order.profile.clone();
        resolve_stage_blocks(data, attacker.id, &profile, state, &mut q, &mut log);
        return;
    }
    let Ok(mut decl) = declaration(rules, attacker, &state.order, targets.len()) else {
        return;
    };
    let won = state.sneak_won.clone();
    decl.sneak_won = &won;
    decl.bystanders = &all;
    if let Some(d) = rules.d20()
        && super::grenade::of(d, &state.order.profile).is_some()
    {
        // A grenade: the aim, then its blast (or a miss lying live), resolved here at once.
        let mut live = std::mem::take(&mut ground.0.grenades);
        let field = ground.field(rules);
        let ctx = assemble(rules, &field, attacker, &targets, &decl);
        super::grenade::throw(
            rules,
            d,
            &field,
            &mut live,
            attacker,
            &all,
            &ctx.wound,
            state,
            &mut dice.0,
            &mut q,
            &mut log,
        );
        ground.0.grenades = live;
        state.phase = AttackPhase::End;
        return;
    }
    let field = ground.field(rules);
    let ctx = assemble(rules, &field, attacker, &targets, &decl);
    if let Some(d) = rules.d20() {
        // One who drops prone lies down before the shot is rolled (its difficulty already
        // counts the prone bonus, from the answer's entry).
        for t in state
            .targets
            .iter()
            .filter(|t| t.defense == Some(DefenseChoice::DropProne))
        {
            if let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id)
                && let Ok(how) = super::swift::check_drop_prone(d, &f.snapshot(), false)
            {
                super::swift::drop_prone(d, &mut f, how, true, &mut log);
            }
        }
        let strike =
            super::d20::roll_checks(&ctx, attacker.id, &mut state.targets, &mut dice.0, &mut log);
        // A diver lands prone once its Dodge check is made.
        for t in state
            .targets
            .iter()
            .filter(|t| t.defense == Some(DefenseChoice::Dive))
        {
            if let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id) {
                super::dive::dive(d, &field, &all, &mut f, attacker, &mut log);
            }
        }
        state.strike = Some(strike);
        state.phase = AttackPhase::Damage;
        return;
    }
    // Digimon: a helping effect on allies rolls nothing ("Allies do not have to roll Dodge at
    // all for Positive Effects"), so no Accuracy roll is shown either.
    if rules.digimon().is_some() && ctx.targets.iter().all(|t| t.automatic_hit.is_some()) {
        for (i, tc) in ctx.targets.iter().enumerate() {
            state.targets[i].hit = Some(true);
            log.push(BattleEvent::Clash {
                attacker: attacker.id,
                defender: tc.id,
                strike: 0,
                defense: 0,
                hit: true,
                automatic: tc.automatic_hit.map(str::to_string),
                attacker_wins_ties: false,
            });
        }
        state.phase = AttackPhase::Intercede;
        return;
    }
    let common = roll(&ctx.strike, &mut dice.0);
    if ctx.targets.len() == 1 {
        log.push(BattleEvent::StrikeRolled {
            attacker: attacker.id,
            roll: rescore(&common, &ctx.targets[0].strike),
        });
    } else {
        log.push(BattleEvent::StrikeRolled {
            attacker: attacker.id,
            roll: common.clone(),
        });
    }
    for (i, tc) in ctx.targets.iter().enumerate() {
        let strike = rescore(&common, &tc.strike);
        if let Some(why) = tc.automatic_hit {
            state.targets[i].hit = Some(true);
            log.push(BattleEvent::Clash {
                attacker: attacker.id,
                defender: tc.id,
                strike: strike.total,
                defense: 0,
                hit: true,
                automatic: Some(why.to_string()),
                attacker_wins_ties: false,
            });
            continue;
        }
        let spec = tc.defense(state.targets[i].defense.unwrap_or(DefenseChoice::Dodge));
        let defense = roll(spec, &mut dice.0);
        let hit = if rules.dice.attacker_wins_ties {
            strike.total >= defense.total
        } else {
            strike.total > defense.total
        };
        let d_total = defense.total;
        log.push(BattleEvent::DefenseRolled {
            defender: tc.id,
            roll: defense,
        });
        log.push(BattleEvent::Clash {
            attacker: attacker.id,
            defender: tc.id,
            strike: strike.total,
            defense: d_total,
            hit,
            automatic: None,
            attacker_wins_ties: rules.dice.attacker_wins_ties,
        });
        // Shinobi counters: an evading defense strikes back with its roll; a failed one wastes
        // the counter.
        if let (Some(data), Some(id)) = (rules.action_points(), state.targets[i].counter.clone())
            && let Some(c) = data.counter(&id)
        {
            if let Some(mut f) = q.iter_mut().find(|f| *f.id == tc.id) {
                super::shinobi::pay_counter(&mut f, c, &mut log);
            }
            if hit {
                log.push(BattleEvent::CounterWasted {
                    who: tc.id,
                    counter: c.name.clone(),
                });
            } else if let Some(me) = all.iter().find(|f| f.id == tc.id) {
                let spec = super::shinobi::counter_defense(data, attacker);
                let r = roll(&spec, &mut dice.0);
                let lands = if rules.dice.attacker_wins_ties {
                    d_total >= r.total
                } else {
                    d_total > r.total
                };
                let damage = if lands {
                    super::shinobi::counter_damage(me, c)
                } else {
                    0
                };
                log.push(BattleEvent::CounterStruck {
                    by: tc.id,
                    on: attacker.id,
                    counter: c.name.clone(),
                    kept: d_total,
                    defense: r,
                    hit: lands,
                    damage,
                });
                if let Some(mut f) = q.iter_mut().find(|f| *f.id == attacker.id) {
                    let why = format!("{}'s {}", me.identity.name, c.name);
                    super::shinobi::hurt(rules, &mut f, damage, Some(tc.id), &why, &mut log);
                }
            }
        }
        // Shinobi concealment: a hit may still miss.
        let hit = match &tc.miss_chance {
            Some((chance, source)) if hit => {
                !super::shinobi::roll_concealment(&mut dice.0, tc.id, *chance, source, &mut log)
            }
            _ => hit,
        };
        state.targets[i].hit = Some(hit);
    }
    state.strike = Some(common);
    // Digimon: an ally of a target about to be hit may Intercede before the damage.
    state.phase = if rules.digimon().is_some() {
        AttackPhase::Intercede
    } else {
        AttackPhase::Damage
    };
}

/// The power-stages Clash: no rolls; a target that chose to block plays its matching defense
/// card and is not hit, every other target is.
fn resolve_stage_blocks(
    data: &crate::ruleset::stages::StageData,
    attacker: CombatantId,
    profile: &str,
    state: &mut AttackState,
    q: &mut Query<FighterQuery>,
    log: &mut EventLog,
) {
    let kind = super::stages::attack_kind(data, profile)
        .unwrap_or(crate::ruleset::stages::CardKind::PhysicalAttack);
    for t in state.targets.iter_mut() {
        let blocked = t.defense == Some(DefenseChoice::Parry)
            && q.iter_mut()
                .find(|f| *f.id == t.id)
                .is_some_and(|mut f| super::stages::play_block(data, &mut f, kind, log));
        t.hit = Some(!blocked);
        log.push(BattleEvent::Clash {
            attacker,
            defender: t.id,
            strike: 0,
            defense: 0,
            hit: !blocked,
            automatic: Some(if blocked {
                "blocked with a defense card".to_string()
            } else {
                super::stages::NO_ROLL.to_string()
            }),
            attacker_wins_ties: false,
        });
    }
    state.phase = AttackPhase::Damage;
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
/// Damage: on-hit effects (Kiai's push), one Wound Roll for every target hit, the category and
/// Soak of each target, Life lost, then on-damage effects (Sweeping's Defense Value reduction,
/// Spiritual Assault's Ki drain, an element's condition) and a technique's Backlash.
pub fn roll_damage(
    rules: Res<RulesRes>,
    order_res: Res<TurnOrder>,
    mut ground: ResMut<Battleground>,
    mut dice: ResMut<BattleDice>,
    mut attack: ResMut<CurrentAttack>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    let all = snapshots(&q);
    let Some((attacker, targets)) = parties(&all, state) else {
        return;
    };
    let Ok(mut decl) = declaration(rules, attacker, &state.order, targets.len()) else {
        return;
    };
    decl.bystanders = &all;
    let strike_critical = state.strike.as_ref().is_some_and(|s| s.critical);
    let any_hit = state.targets.iter().any(|t| t.hit == Some(true));
    // Shinobi cover worn down by this attack, written back to the map at the end.
    let mut wear = ground.0.wear.clone();
    let mut slams = Vec::new();
    let field = ground.field(rules);
    if any_hit && let Some(d) = rules.d20() {
        let ctx = assemble(rules, &field, attacker, &targets, &decl);
        for (i, t) in targets.iter().enumerate() {
            let (Some(true), Some(success)) = (state.targets[i].hit, state.targets[i].success)
            else {
                continue;
            };
            let Some(hit) =
                super::d20::roll_hit(d, &decl.profile.id, &ctx.wound, t, success, &mut dice.0)
            else {
                continue;
            };
            log.push(BattleEvent::WoundRolled {
                attacker: attacker.id,
                roll: hit.roll.clone(),
            });
            log.push(BattleEvent::Damage {
                attacker: attacker.id,
                target: t.id,
                wound: hit.dealt,
                category: crate::ruleset::Category::Lethal,
                soak: 0,
                soak_used: 0,
                damage: hit.damage,
                notes: super::d20::hit_notes(&hit),
                flat: true,
            });
            state.targets[i].damage = hit.damage;
            let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id) else {
                continue;
            };
            if hit.bypassed {
                super::d20::wear_armour(d, &mut f, &mut log);
            }
            let to = f.life.current - hit.damage;
            set_life(
                rules,
                &mut f,
                to,
                LifeCause::Damage {
                    by: Some(attacker.id),
                    attack: true,
                },
                &format!("{}'s {}", attacker.identity.name, decl.profile.name),
                &mut log,
            );
        }
    } else if any_hit && let Some(d) = rules.digimon() {
        let ctx = assemble(rules, &field, attacker, &targets, &decl);
        super::digimon::resolve_hits(
            rules,
            d,
            &field,
            attacker,
            &targets,
            &all,
            &ctx,
            &decl.profile.id,
            state,
            order_res.round,
            &mut dice.0,
            &mut q,
            &mut log,
        );
    } else if any_hit {
        let ctx = assemble(rules, &field, attacker, &targets, &decl);
        // On hit: Kiai pushes a Guard Down target away before the damage.
        let mut pushes = Vec::new();
        for e in &decl.profile.effects {
            if let ProfileEffect::GuardDownBonus { push, .. } = e {
                let most = eval(push, &attacker.vars()).max(0) as u32;
                let steps = state.order.push.map_or(most, |p| p.min(most));
                for (i, t) in targets.iter().enumerate() {
                    if state.targets[i].hit == Some(true)
                        && guard_down_against(rules, t, attacker).is_some()
                        && let (Some(from), Some(at)) = (attacker.position, t.position)
                    {
                        let others: Vec<Fighter> =
                            all.iter().filter(|f| f.id != t.id).cloned().collect();
                        let size = t.size.squares;
                        let to = push_destination(at, from, steps, |s| {
                            footprint(s, size)
                                .iter()
                                .any(|sq| field.cost(sq).is_none() || occupied(&others, sq))
                        });
                        if to != at {
                            pushes.push((t.id, at, to));
                        }
                    }
                }
            }
        }
        for (id, from, to) in pushes {
            if let Some(mut f) = q.iter_mut().find(|f| *f.id == id) {
                f.position.0 = Some(to);
                log.push(BattleEvent::Pushed { who: id, from, to });
            }
        }
        let wound = roll(&ctx.wound, &mut dice.0);
        let total = wound.total;
        log.push(BattleEvent::WoundRolled {
            attacker: attacker.id,
            roll: wound,
        });
        for (i, t) in targets.iter().enumerate() {
            if state.targets[i].hit != Some(true) {
                continue;
            }
            let mut r = damage_against(
                rules,
                total,
                &decl,
                t,
                strike_critical,
                ctx.targets[i].cover.as_ref(),
            );
            if let Some(cover) = &ctx.targets[i].absorb {
                // Shinobi partial cover: what earlier targets of this attack wore off is gone.
                let spent = wear.get(&cover.at).copied().unwrap_or(0)
                    - ground.0.wear.get(&cover.at).copied().unwrap_or(0);
                let now = super::context::Absorb {
                    left: cover.left - spent,
                    ..cover.clone()
                };
                if now.left > 0 {
                    r.damage = super::shinobi::absorb_hit(
                        &mut dice.0,
                        &mut wear,
                        t.id,
                        &now,
                        r.damage,
                        &mut log,
                    );
                }
            }
            if let Some(k) = &ctx.targets[i].knockback {
                slams.push((t.id, k.clone()));
            }
            if let Some(data) = rules.stages() {
                state.targets[i].damage = r.damage;
                if let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id) {
                    let kind = super::stages::attack_kind(data, &decl.profile.id)
                        .unwrap_or(crate::ruleset::stages::CardKind::PhysicalAttack);
                    let why = format!("{}'s {}", attacker.identity.name, decl.profile.name);
                    super::stages::apply_hit(
                        rules,
                        kind,
                        r.damage,
                        attacker.id,
                        &why,
                        &mut f,
                        &mut log,
                    );
                }
                continue;
            }
            log.push(BattleEvent::Damage {
                attacker: attacker.id,
                target: t.id,
                wound: total,
                category: r.category,
                soak: r.soak,
                soak_used: r.soak_used,
                damage: r.damage,
                notes: r.notes.clone(),
                flat: rules.action_points().is_some(),
            });
            state.targets[i].damage = r.damage;
            let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id) else {
                continue;
            };
            let to = f.life.current - r.damage;
            set_life(
                rules,
                &mut f,
                to,
                LifeCause::Damage {
                    by: Some(attacker.id),
                    attack: true,
                },
                &format!("{}'s {}", attacker.identity.name, decl.profile.name),
                &mut log,
            );
            if r.damage > 0 {
                on_damage(
                    rules, &order_res, attacker, &decl, &mut f, r.damage, &mut log,
                );
            }
        }
        // Shinobi pushes after the damage: an obstruction that stops one slams, a drop falls.
        for (id, k) in slams.drain(..) {
            let Some(mut f) = q.iter_mut().find(|f| *f.id == id && f.life.current > 0) else {
                continue;
            };
            let Some(at) = f.position.0 else {
                continue;
            };
            if k.to != at {
                f.position.0 = Some(k.to);
                log.push(BattleEvent::Pushed {
                    who: id,
                    from: at,
                    to: k.to,
                });
            }
            let mut hurt = 0;
            if let Some((slam, why)) = k.slam {
                log.push(BattleEvent::Slammed {
                    who: id,
                    at: k.to,
                    damage: slam,
                    what: why,
                });
                hurt += slam;
            }
            if let Some(fall) = &k.fall {
                hurt += super::shinobi::roll_fall(&mut dice.0, id, k.to, fall, &mut log);
            }
            super::shinobi::hurt(
                rules,
                &mut f,
                hurt,
                Some(attacker.id),
                "slam and fall",
                &mut log,
            );
        }
        // Sweeping's reduction is used up once it has applied this round.
        if state.targets.iter().any(|t| t.damage > 0)
            && decl
                .profile
                .effects
                .iter()
                .any(|e| matches!(e, ProfileEffect::DefenseDownOnDamage { .. }))
            && let Some(mut f) = q.iter_mut().find(|f| *f.id == attacker.id)
        {
            f.round.sweep_debuff = true;
        }
    }
    if wear != ground.0.wear {
        ground.0.wear = wear;
    }
    if let Some(backlash) = decl.technique.and_then(|t| t.backlash.as_ref()) {
        let amount = eval(backlash, &attacker.vars()).max(0);
        if let Some(mut f) = q.iter_mut().find(|f| *f.id == attacker.id)
            && amount > 0
        {
            let to = f.life.current - amount;
            set_life(
                rules,
                &mut f,
                to,
                LifeCause::Damage {
                    by: Some(attacker.id),
                    attack: false,
                },
                "Backlash",
                &mut log,
            );
        }
    }
    state.phase = AttackPhase::ThresholdSaves;
}

/// Effects that happen "if the value of the Damage surpasses the value of the Soak Value".
fn on_damage(
    rules: &Rules,
    order: &TurnOrder,
    attacker: &Fighter,
    decl: &Declaration,
    f: &mut FighterQueryItem,
    damage: i64,
    log: &mut EventLog,
) {
    for e in &decl.profile.effects {
        match e {
            ProfileEffect::DefenseDownOnDamage { amount } if !attacker.round.sweep_debuff => {
                let v = -eval(amount, &attacker.vars());
                f.defense.changes.push(DefenseChange {
                    amount: v,
                    label: format!("{}'s {}", attacker.identity.name, decl.profile.name),
                    until_turn_of: attacker.id,
                });
                log.push(BattleEvent::DefenseLowered {
                    who: *f.id,
                    amount: v,
                    until_turn_of: attacker.id,
                    reason: decl.profile.name.clone(),
                });
            }
            ProfileEffect::KiDrain { fraction } => {
                let drain = fraction.of(damage);
                if drain > 0 {
                    let k0 = f.ki.current;
                    f.ki.current = (k0 - drain).max(0);
                    log.push(BattleEvent::PoolChanged {
                        who: *f.id,
                        pool: Pool::Ki,
                        from: k0,
                        to: f.ki.current,
                        reason: format!("{} drains 1/4 of the damage", decl.profile.name),
                    });
                }
            }
            _ => {}
        }
    }
    if let Some(el) = decl.element {
        for g in &el.on_damage {
            let amount = g
                .amount
                .as_ref()
                .map_or(0, |a| at_tier(a, f.power.tier, f.power.base_tier));
            grant_condition(
                rules,
                f,
                g.condition,
                Some(attacker.id),
                attacker.power.tier,
                amount,
                expiry_after(order, g.rounds),
                log,
            );
        }
    }
}

/// Threshold Saves after the maneuver: a Steadfast Save for the lowest threshold each
/// combatant reached, then its triggers; Bonus Momentum for the attacker who caused it.
pub fn roll_threshold_saves(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut dice: ResMut<BattleDice>,
    mut attack: ResMut<CurrentAttack>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    let mut items: Vec<_> = q.iter_mut().collect();
    items.sort_by_key(|f| *f.id);
    let mut bonus = Vec::new();
    for f in items.iter_mut() {
        if let Some(by) =
            super::effects::resolve_pending_threshold(rules, &mut dice.0, &order, f, &mut log)
        {
            bonus.push((
                by,
                format!("knocked {} through a threshold", f.identity.name),
            ));
        }
    }
    for (by, reason) in bonus {
        if let Some(f) = items.iter_mut().find(|f| *f.id == by) {
            grant_bonus_momentum(rules, f, &reason, &mut log);
        }
    }
    state.phase = AttackPhase::End;
}

/// Bonus Momentum: +1 Standard Action, at most once per round.
fn grant_bonus_momentum(rules: &Rules, f: &mut FighterQueryItem, reason: &str, log: &mut EventLog) {
    if f.round.bonus_momentum || f.life.current <= 0 {
        return;
    }
    f.round.bonus_momentum = true;
    f.actions.standard += rules.actions.bonus_momentum_actions;
    log.push(BattleEvent::ActionGained {
        who: *f.id,
        kind: ActionKind::Standard,
        reason: format!("Bonus Momentum ({reason})"),
    });
}

/// End of the Attack: Diminishing Defense for everyone targeted, Defeated at 0 Life (Bonus
/// Momentum for defeating a Minion), Hidden lost by attacking.
#[allow(clippy::too_many_arguments)] // a Bevy system: each parameter is one resource or query
pub fn end_attack(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut attack: ResMut<CurrentAttack>,
    mut moving: ResMut<CurrentMove>,
    mut recovery: ResMut<CurrentRecovery>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.take() else {
        return;
    };
    progress.0 = true;
    let attacker = state.order.attacker;
    let mut items: Vec<_> = q.iter_mut().collect();
    items.sort_by_key(|f| *f.id);
    let mut minion_defeated = None;
    // An interceder rolled no Dodge: its Dodge penalty does not grow.
    let all_targets: Vec<CombatantId> = state.targets.iter().map(|t| t.id).collect();
    let ids: Vec<CombatantId> = state
        .targets
        .iter()
        .filter(|t| !t.interceded)
        .map(|t| t.id)
        .collect();
    let dodged = match rules.digimon() {
        Some(d) => super::digimon::end_attack(d, &state.order.profile, attacker, &ids, &mut items),
        None => ids,
    };
    for f in items.iter_mut() {
        let targeted = all_targets.contains(f.id);
        // Rulesets without Diminishing Defense (power stages: 0 per attack) log nothing; a
        // Digimon that rolled no Dodge (a helping effect, a Clash, Interceding) gains none.
        if dodged.contains(f.id)
            && f.life.current > 0
            && rules.tier(f.power.base_tier).diminishing_defense != 0
        {
            let stacks = rules.tier(f.power.base_tier).diminishing_defense;
            f.defense.diminishing += stacks;
            if rules.digimon().is_some() {
                log.push(BattleEvent::DigiEffect {
                    who: *f.id,
                    by: *f.id,
                    effect: "Dodge penalty".into(),
                    text: format!(
                        "grows to -{} for the rest of the round (-{stacks} for every attack past the first)",
                        f.defense.diminishing
                    ),
                });
            } else {
                log.push(BattleEvent::DiminishingDefense {
                    who: *f.id,
                    added: stacks,
                    total: f.defense.diminishing,
                });
            }
        }
        let is_attacker = *f.id == attacker;
        if !(targeted || is_attacker) {
            continue;
        }
        let by = (!is_attacker).then_some(attacker);
        let newly_defeated = announce_defeat(rules, &order, f, by, &mut log);
        if newly_defeated && f.power.minion && !is_attacker {
            minion_defeated = Some(f.identity.name.clone());
        }
    }
    if let Some(f) = items.iter_mut().find(|f| *f.id == attacker) {
        if let Some(name) = minion_defeated {
            grant_bonus_momentum(rules, f, &format!("defeated the Minion {name}"), &mut log);
        }
        if f.conditions.has(ConditionKind::Hidden) {
            end_condition(
                rules,
                &order,
                f,
                ConditionKind::Hidden,
                "attacked",
                &mut log,
            );
        }
    }
    if state.exploit.is_none()
        && rules.d20().is_some()
        && let Some(f) = items.iter_mut().find(|f| *f.id == attacker)
    {
        super::d20::count_swing(f, &state.order.profile);
    }
    log.push(BattleEvent::AttackEnded { attacker });
    // "If an Exploit caused by leaving melee deals damage, the movement stops at that point."
    // Shinobi: "If the opportunity attack succeeds, the moving Character is stopped where they
    // entered the attackers range."
    if let (Some(mover), Some(m)) = (state.exploit, moving.0.as_mut())
        && m.who == mover
    {
        if rules.action_points().is_some() {
            if state
                .targets
                .iter()
                .any(|t| t.id == mover && t.hit == Some(true))
            {
                m.stopped = true;
                stop_at_entry(m, attacker, &mut items, &mut log);
            }
        } else if state.targets.iter().any(|t| t.id == mover && t.damage > 0) {
            m.stopped = true;
            stop_where_it_may_stand(m, &mut items, &mut log);
        }
    }
    // "If an Exploit hits you, you lose the LP regained" by a Combat Recovery.
    if let (Some(who), Some(r)) = (state.exploit, recovery.0.as_mut())
        && r.who == who
        && state
            .targets
            .iter()
            .any(|t| t.id == who && t.hit == Some(true))
    {
        r.hit = true;
    }
    drop(items);
    // Digimon: a Clash ends when a hit knocks, stuns or paralyses a participant out of it.
    if rules.digimon().is_some() {
        super::grapple::break_loose(&mut q, &mut log);
        super::digimon::release_charms(&mut q, &mut log);
    }
}

/// Shinobi: moves a mover stopped by `by`'s opportunity attack back to the square where it
/// entered `by`'s reach on this move (or the first square after it where it may stand), and
/// shortens the move to end there.
fn stop_at_entry(
    m: &mut MoveState,
    by: CombatantId,
    items: &mut [FighterQueryItem],
    log: &mut EventLog,
) {
    let all: Vec<Fighter> = items.iter().map(|f| f.snapshot()).collect();
    let (Some(mover), Some(opponent)) = (
        all.iter().find(|f| f.id == m.who),
        all.iter().find(|f| f.id == by),
    ) else {
        return;
    };
    let visited: Vec<Square> = std::iter::once(m.start)
        .chain(m.path[..m.next].iter().copied())
        .collect();
    // Allies may be passed through but not stood on: the first free square from the entry on;
    // when every one from there is an ally's (the mover is stopped on one), the last free
    // square before it, as a DBU move stopped on an ally's square does.
    let free_from_entry = super::shinobi::entered_reach(&visited, mover.size.squares, opponent)
        .and_then(|entry| visited.iter().position(|s| *s == entry))
        .and_then(|first| {
            (first..visited.len()).find(|k| super::movement::can_end_on(&all, mover, visited[*k]))
        });
    let Some(k) = free_from_entry else {
        stop_where_it_may_stand(m, items, log);
        return;
    };
    let at = visited[k];
    if Some(at) == mover.position {
        return;
    }
    if let Some(f) = items.iter_mut().find(|f| *f.id == m.who) {
        f.position.0 = Some(at);
    }
    // visited[k] is path[k - 1]: the move now ends after it.
    m.next = k;
    log.push(BattleEvent::StoppedAtReach { who: m.who, by, at });
}

/// DBU: a move stopped by an Exploit "stops at that point"; an ally's square can be passed
/// through but not stood on, so a mover stopped on one goes back along its path to the last
/// square where it may stand, and the move ends there.
fn stop_where_it_may_stand(m: &mut MoveState, items: &mut [FighterQueryItem], log: &mut EventLog) {
    let all: Vec<Fighter> = items.iter().map(|f| f.snapshot()).collect();
    let Some(mover) = all.iter().find(|f| f.id == m.who) else {
        return;
    };
    let visited: Vec<Square> = std::iter::once(m.start)
        .chain(m.path[..m.next].iter().copied())
        .collect();
    if visited
        .last()
        .is_none_or(|s| super::movement::can_end_on(&all, mover, *s))
    {
        return;
    }
    let Some(k) = (0..visited.len())
        .rev()
        .find(|k| super::movement::can_end_on(&all, mover, visited[*k]))
    else {
        return;
    };
    let at = visited[k];
    if let Some(f) = items.iter_mut().find(|f| *f.id == m.who) {
        f.position.0 = Some(at);
    }
    // visited[k] is path[k - 1] (or the start): the move now ends after it.
    m.next = k;
    log.push(BattleEvent::StoppedShort { who: m.who, at });
}

/// Whether a condition may be ended with End a Condition (negative ones only).
pub fn endable(rules: &Rules, kind: ConditionKind) -> bool {
    rules.condition(kind).polarity == Polarity::Negative
}
