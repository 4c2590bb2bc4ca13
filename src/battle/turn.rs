//! Rounds and turns: initiative, the start of a round (actions refresh, Diminishing Defense
//! clears, Capacity refills), each turn's Effect Phase (Absorbed, Poisoned, Damage Over Time),
//! its End Phase (durations run out), and the end of the battle.

use bevy::prelude::*;

use super::checks::{rolloff_spec, save_spec};
use super::command::Command;
use super::components::*;
use super::effects::announce_defeat;
use super::effects::{
    LifeCause, expire_conditions, grant_condition, resolve_pending_threshold, set_life,
};
use super::event::{BattleEvent, EndReason, EventLog, Pool};
use super::fighter::occupied;
use super::state::*;
use crate::battle::snapshot::Fighters;
use crate::dice::roll;
use crate::grid::{Dir8, footprint};
use crate::ruleset::{ConditionKind, ConditionRule};

/// Run condition: the turn phase is `phase`.
pub fn in_phase(phase: TurnPhase) -> impl Fn(Res<TurnOrder>) -> bool {
    move |order: Res<TurnOrder>| order.phase == phase
}

/// Run condition: nobody is being waited on.
pub fn nothing_awaited(awaiting: Res<AwaitingInput>) -> bool {
    awaiting.0.is_none()
}

/// Setup: the battle's first log line, before any card is dealt or initiative rolled.
pub fn announce_battle(dice: Res<BattleDice>, mut log: ResMut<EventLog>) {
    log.push(BattleEvent::BattleStarted {
        seed: dice.0.seed(),
    });
}

/// Rolls Initiative once for the encounter and fixes the turn order: highest first, ties to
/// the higher Agility Score, then (Digimon) to a player character, then a roll-off.
pub fn roll_initiative(
    rules: Res<RulesRes>,
    opening: Res<Opening>,
    mut dice: ResMut<BattleDice>,
    mut order: ResMut<TurnOrder>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let rules = &rules.0;
    let fighters = q.snapshots();
    let tie_attr = rules.actions.initiative_tie_attribute.clone();
    let mut rolled: Vec<(i64, i64, CombatantId, bool)> = Vec::new();
    // Digimon: a Tamer with a partner takes its turn with it, right after it.
    let shares =
        |f: &super::fighter::Fighter| f.digi.as_ref().filter(|s| s.tamer).and_then(|s| s.partner);
    for f in fighters.iter() {
        if shares(f).is_some() {
            continue;
        }
        let family = super::family::of(rules);
        let mut spec = family.initiative_spec(rules, f);
        if opening.surprise == Some(f.side.0)
            && let Some(bonus) = family.surprise_initiative()
        {
            spec.add("Surprise Round", bonus);
        }
        if opening.cautious.contains(&f.side.0)
            && let Some((why, bonus)) = family.cautious_initiative(f, &fighters)
        {
            spec.add(why, bonus);
        }
        let r = roll(&spec, &mut dice.0);
        // Digimon: "If the tie still persists, the GM should give the player characters the
        // higher turn order."
        let player = f.digi.as_ref().is_some_and(|s| s.player);
        rolled.push((r.total, f.attributes.get(&tie_attr), f.id, player));
        log.push(BattleEvent::InitiativeRolled { who: f.id, roll: r });
    }
    // Roll-offs for combatants still tied on total, Agility and being a player character, in
    // id order.
    let mut rolloff: std::collections::BTreeMap<CombatantId, i64> = Default::default();
    for i in 0..rolled.len() {
        let tied = rolled
            .iter()
            .enumerate()
            .any(|(j, o)| j != i && o.0 == rolled[i].0 && o.1 == rolled[i].1 && o.3 == rolled[i].3);
        if tied {
            let r = roll(&rolloff_spec(rules), &mut dice.0);
            rolloff.insert(rolled[i].2, r.total);
            log.push(BattleEvent::InitiativeRollOff {
                who: rolled[i].2,
                roll: r,
            });
        }
    }
    rolled.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(b.3.cmp(&a.3))
            .then(
                rolloff
                    .get(&b.2)
                    .copied()
                    .unwrap_or(0)
                    .cmp(&rolloff.get(&a.2).copied().unwrap_or(0)),
            )
            .then(a.2.cmp(&b.2))
    });
    order.order = Vec::new();
    for r in &rolled {
        order.order.push(r.2);
        for f in fighters.iter().filter(|f| shares(f) == Some(r.2)) {
            order.order.push(f.id);
        }
    }
    log.push(BattleEvent::TurnOrder {
        order: order.order.clone(),
    });
    order.phase = TurnPhase::RoundStart;
    progress.0 = true;
}

/// A new Combat Round: 3 Standard + 1 Counter Action each (less for Slowed, Pinned, Rage's
/// aftermath, Reduced Momentum), Diminishing Defense cleared, Capacity refilled.
pub fn start_round(
    sys: RuleSys,
    victory: Res<VictoryRules>,
    opening: Res<Opening>,
    mut order: ResMut<TurnOrder>,
    mut outcome: ResMut<Outcome>,
) {
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let rules = &rules.0;
    progress.0 = true;
    if let Some((limit, result)) = victory.round_limit
        && order.round >= limit.saturating_add(opening.extra_rounds())
    {
        let winner = match result {
            LimitOutcome::Draw => None,
            LimitOutcome::SideWins(s) => Some(Side(s)),
        };
        finish(
            &mut order,
            &mut outcome,
            &mut log,
            winner,
            EndReason::RoundLimit,
        );
        return;
    }
    order.round += 1;
    order.index = 0;
    order.paused = None;
    order.resume_at = None;
    order.hand_overs = 0;
    order.delayed.clear();
    log.push(BattleEvent::RoundStarted { round: order.round });
    let mut items: Vec<_> = q.iter_mut().collect();
    items.sort_by_key(|f| *f.id);
    for f in items.iter_mut() {
        super::family::stages::clear_passes(f);
        if f.life.current <= 0 {
            continue;
        }
        let snap = f.snapshot();
        let minion = &rules.characters.minion;
        let mut standard = if f.power.minion {
            minion.standard_actions
        } else {
            rules.actions.standard_actions
        } as i64;
        let mut counter = if f.power.minion {
            minion.counter_actions
        } else {
            rules.actions.counter_actions
        };
        let mut notes = Vec::new();
        for c in &snap.conditions.0 {
            if snap.active(rules, c.kind).is_none() {
                continue;
            }
            match &rules.condition(c.kind).rule {
                ConditionRule::Slowed { actions_per_stack } => {
                    let n = i64::from(actions_per_stack * c.stacks);
                    standard -= n;
                    notes.push(format!("Slowed x{}: -{n}", c.stacks));
                }
                ConditionRule::Transfigured { slowed_stacks } => {
                    if let ConditionRule::Slowed { actions_per_stack } =
                        &rules.condition(ConditionKind::Slowed).rule
                    {
                        let n = i64::from(actions_per_stack * slowed_stacks);
                        standard -= n;
                        notes.push(format!("Transfigured (Slowed): -{n}"));
                    }
                }
                _ => {}
            }
        }
        if f.round.next_round_penalty > 0 {
            let n = i64::from(f.round.next_round_penalty);
            standard -= n;
            notes.push(format!("Reduced Momentum: -{n}"));
        }
        if f.encounter.rage_aftermath == Some(order.round) {
            if let ConditionRule::Rage { aftermath_actions } =
                &rules.condition(ConditionKind::Rage).rule
            {
                // "During the next Combat Round, you can only use One Action": Counter
                // Actions and a held Steady Momentum action count too; to Parry, the unit
                // converts its Standard Action.
                let one = i64::from(*aftermath_actions);
                standard = standard.min(one);
                counter = 0;
                let steady = (one - standard.max(0)).clamp(0, i64::from(f.actions.steady));
                if i64::from(f.actions.steady) > steady {
                    f.actions.steady = steady as u32;
                    notes.push("its Steady Momentum action unused".into());
                }
                notes.push(format!(
                    "after Rage: {aftermath_actions} Action in all and Guard Down"
                ));
            }
            grant_condition(
                rules,
                f,
                ConditionKind::GuardDown,
                None,
                0,
                Expiry::EndOfRound(order.round),
                &mut log,
            );
        }
        let mut standard = standard.max(0) as u32;
        if snap.is(rules, ConditionKind::Pinned) {
            f.actions.lost_to_pin = (standard, counter);
            notes.push(format!("Pinned: -{standard} Standard, -{counter} Counter"));
            standard = 0;
            counter = 0;
        } else {
            f.actions.lost_to_pin = (0, 0);
        }
        super::family::of(rules).refresh_actions(f, &mut standard, &mut notes, &mut log);
        f.actions.standard = standard;
        f.actions.counter = counter;
        log.push(BattleEvent::ActionsRefreshed {
            who: *f.id,
            standard,
            counter,
            notes,
            ap: super::family::of(rules).acts_in_points(),
        });
        if f.defense.diminishing != 0 {
            f.defense.diminishing = 0;
        }
        let max_cap = f.snapshot().derived(rules).max_capacity;
        if f.capacity.current != max_cap {
            log.push(BattleEvent::PoolChanged {
                who: *f.id,
                pool: Pool::Capacity,
                from: f.capacity.current,
                to: max_cap,
                reason: "Capacity refills at the start of the round".into(),
            });
            f.capacity.current = max_cap;
        }
        *f.round = RoundLog::default();
    }
    drop(items);
    super::family::of(rules).start_round(order.round, &mut q, &mut dice.0, &mut log);
    order.phase = TurnPhase::TurnStart;
    progress.0 = true;
}

/// The active combatant's Effect Phase: Sweeping's Defense reductions it caused end; Absorbed
/// tries to escape; Poisoned loses Life; Damage Over Time deals Lethal damage.
pub fn start_turn(
    sys: RuleSys,
    opening: Res<Opening>,
    mut order: ResMut<TurnOrder>,
    mut ground: ResMut<Battleground>,
) {
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let rules = &rules.0;
    progress.0 = true;
    let Some(active) = order.active() else {
        order.phase = TurnPhase::TurnEnd;
        return;
    };
    // d20: a delayed turn began before its delay; it is taken up again, not begun anew.
    if order.delayed.contains(&active)
        && let Some(me) = q.snapshots().iter().find(|f| f.id == active)
        && !me.defeated()
    {
        log.push(BattleEvent::TurnResumed {
            who: active,
            actions: me.actions.usable(),
        });
        order.phase = TurnPhase::Acting;
        return;
    }
    set_off_due(
        rules,
        &order,
        active,
        &mut ground,
        &mut dice.0,
        &mut q,
        &mut log,
    );
    let field = ground.field(rules);
    // Defense changes that last until this turn run out (found first, so only those
    // combatants are written).
    let lapsing: Vec<CombatantId> = q
        .iter()
        .filter(|f| f.defense.changes.iter().any(|c| c.until_turn_of == active))
        .map(|f| *f.id)
        .collect();
    for id in lapsing {
        if let Some(mut f) = q.one_mut(id) {
            f.defense.changes.retain(|c| c.until_turn_of != active);
        }
    }
    super::family::of(rules).before_turn(&mut q, &mut log);
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == active).cloned() else {
        order.phase = TurnPhase::TurnEnd;
        return;
    };
    if me.defeated() {
        log.push(BattleEvent::TurnSkipped {
            who: active,
            reason: "Defeated".into(),
        });
        order.phase = TurnPhase::TurnEnd;
        return;
    }
    if opening.surprised(me.side.0, order.round) {
        log.push(BattleEvent::TurnSkipped {
            who: active,
            reason: "the other side's Surprise Round (\"a free round where the opposing party cannot attack them back\")".into(),
        });
        order.phase = TurnPhase::TurnEnd;
        return;
    }
    log.push(BattleEvent::TurnStarted {
        who: active,
        round: order.round,
    });
    super::family::of(rules).hold_on_others(
        rules,
        &order,
        &me,
        &all,
        (&mut q, &mut dice.0, &mut log),
    );
    if let Some(mut f) = q.one_mut(active) {
        super::family::of(rules).turn_started(&mut f, &mut dice.0, &mut log);
    }
    if me.encounter.dive_owed
        && let Some(mut f) = q.one_mut(active)
    {
        super::family::d20::dive::pay_for_dive(&mut f, &mut log);
    }
    if let Some(c) = me.conditions.get(ConditionKind::Absorbed).cloned() {
        let absorber = c.source.and_then(|s| all.iter().find(|f| f.id == s));
        let freed_at = match absorber {
            Some(a) if !a.defeated() && a.position.is_some() => {
                let save = match &rules.condition(ConditionKind::Absorbed).rule {
                    ConditionRule::Absorbed {
                        save,
                        bonus_per_failure,
                    } => (save.clone(), *bonus_per_failure),
                    _ => ("Cognitive".into(), 1),
                };
                let mine = roll(
                    &save_spec(rules, &me, &save.0, me.encounter.absorb_failures * save.1),
                    &mut dice.0,
                );
                let theirs = roll(&save_spec(rules, a, &save.0, 0), &mut dice.0);
                let passed = mine.total > theirs.total;
                log.push(BattleEvent::OpposedSave {
                    who: active,
                    against: a.id,
                    roll: mine,
                    against_roll: theirs,
                    passed,
                });
                if passed {
                    free_square_beside(a, &all, &field)
                } else {
                    if let Some(mut f) = q.one_mut(active) {
                        f.encounter.absorb_failures += 1;
                        if let Some(inst) = f
                            .conditions
                            .0
                            .iter_mut()
                            .find(|x| x.kind == ConditionKind::Absorbed)
                        {
                            inst.failures += 1;
                        }
                    }
                    log.push(BattleEvent::TurnSkipped {
                        who: active,
                        reason: "Absorbed".into(),
                    });
                    order.phase = TurnPhase::TurnEnd;
                    return;
                }
            }
            // The absorber is gone: the absorbed one comes out where it can.
            _ => absorber
                .and_then(|a| free_square_beside(a, &all, &field))
                .or_else(|| first_free_square(&all, &field)),
        };
        if let Some(mut f) = q.one_mut(active) {
            super::effects::end_condition(
                rules,
                &order,
                &mut f,
                ConditionKind::Absorbed,
                "escaped",
                &mut log,
            );
            f.position.0 = freed_at;
        }
    }
    let Some(mut f) = q.one_mut(active) else {
        return;
    };
    super::family::of(rules).effect_phase(rules, &mut f, &mut dice.0, &mut log);
    let snap = f.snapshot();
    if let Some(ConditionRule::Poisoned { life_loss, .. }) = snap
        .active(rules, ConditionKind::Poisoned)
        .map(|_| &rules.condition(ConditionKind::Poisoned).rule)
    {
        let loss = life_loss.of(f.life.max);
        let to = f.life.current - loss;
        set_life(
            rules,
            &mut f,
            crate::battle::family::of(rules).life_pool(),
            to,
            LifeCause::Loss,
            "Poisoned",
            &mut log,
        );
    }
    if let Some(c) = snap.active(rules, ConditionKind::DamageOverTime).cloned()
        && f.life.current > 0
        && let ConditionRule::DamageOverTime { category, .. } =
            &rules.condition(ConditionKind::DamageOverTime).rule
    {
        // An Elemental technique's burn keeps the technique's category (Direct).
        let category = c.category.unwrap_or(*category);
        let soak = snap.derived(rules).soak;
        let used = rules.soak_fraction(category).of(soak);
        let damage = (c.amount - used).max(0);
        log.push(BattleEvent::Damage {
            attacker: c.source.unwrap_or(active),
            target: active,
            wound: c.amount,
            category,
            soak,
            soak_used: used,
            damage,
            notes: vec!["Damage Over Time".into()],
            flat: false,
        });
        let to = f.life.current - damage;
        set_life(
            rules,
            &mut f,
            crate::battle::family::of(rules).life_pool(),
            to,
            LifeCause::Damage {
                by: c.source,
                attack: false,
            },
            "Damage Over Time",
            &mut log,
        );
        resolve_pending_threshold(rules, &mut dice.0, &order, &mut f, &mut log);
    }
    if f.life.current <= 0 {
        announce_defeat(rules, &order, &mut f, None, &mut log);
        order.phase = TurnPhase::TurnEnd;
        return;
    }
    order.phase = TurnPhase::Acting;
}

/// What `active` left to go off goes off as its turn starts (d20: the grenades it threw that
/// missed), defeated or not; whoever it fells is announced.
fn set_off_due(
    rules: &crate::ruleset::Rules,
    order: &TurnOrder,
    active: CombatantId,
    ground: &mut Battleground,
    dice: &mut crate::dice::DiceSource,
    q: &mut Fighters,
    log: &mut EventLog,
) {
    let mut r = Resolve { dice, q, log };
    let caught = super::family::of(rules).set_off_due(rules, active, ground, &mut r);
    for mut f in q.iter_mut() {
        if caught.contains(f.id) {
            let by = (*f.id != active).then_some(active);
            announce_defeat(rules, order, &mut f, by, log);
        }
    }
}

/// The first free square around a combatant, clockwise from north.
fn free_square_beside(
    a: &super::fighter::Fighter,
    all: &[super::fighter::Fighter],
    field: &crate::grid::Field,
) -> Option<Square> {
    let at = a.position?;
    let n = a.size.squares as i32;
    let own = footprint(at, a.size.squares);
    let mut ring = Vec::new();
    for d in Dir8::ALL {
        let (dx, dy) = d.step();
        for o in &own {
            let s = Square::new(o.x + dx, o.y + dy);
            if !own.contains(&s) && !ring.contains(&s) {
                ring.push(s);
            }
        }
    }
    let _ = n;
    ring.into_iter()
        .find(|s| field.cost(*s).is_some() && !occupied(all, *s))
}

fn first_free_square(
    all: &[super::fighter::Fighter],
    field: &crate::grid::Field,
) -> Option<Square> {
    let b = field.bounds();
    (0..b.height as i32)
        .flat_map(|y| (0..b.width as i32).map(move |x| Square::new(x, y)))
        .find(|s| field.cost(*s).is_some() && !occupied(all, *s))
}

/// Ends the turn of a combatant with no usable action left ("your turn ends automatically when
/// you run out of Actions"), or defeated during its own turn.
pub fn end_turn_without_actions(
    rules: Res<RulesRes>,
    mut order: ResMut<TurnOrder>,
    attack: Res<CurrentAttack>,
    underway: Underway,
    pending: Res<PendingCommand>,
    mut progress: ResMut<Progress>,
    q: Fighters,
) {
    if attack.0.is_some() || underway.any() || pending.0.is_some() {
        return;
    }
    let Some(active) = order.active() else {
        return;
    };
    // Out of actions, or defeated on its own turn (by an Exploit or its own Backlash).
    // A family may keep it open a while (d20: the round's free single step, a Drop prone).
    let family = super::family::of(&rules.0);
    if let Some(f) = q.iter().find(|f| *f.id == active)
        && ((f.actions.usable() == 0
            && !swings_left(f.round)
            && !family.keeps_turn_open(f.round, f.encounter.prone))
            || f.life.current <= 0)
    {
        order.phase = TurnPhase::TurnEnd;
        progress.0 = true;
    }
}

/// The End Phase: conditions that last "until the end of the turn" run out, unused Steady
/// Momentum expires, and the next combatant's turn (or a new round) comes.
pub fn end_turn(
    rules: Res<RulesRes>,
    mut order: ResMut<TurnOrder>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let rules = &rules.0;
    progress.0 = true;
    let active = order.active();
    let round = order.round;
    let mut items: Vec<_> = q.iter_mut().collect();
    items.sort_by_key(|f| *f.id);
    if let Some(a) = active {
        if let Some(f) = items.iter().find(|f| *f.id == a)
            && f.life.current > 0
            && !f.conditions.has(ConditionKind::Absorbed)
        {
            log.push(BattleEvent::TurnEnded { who: a });
        }
        for f in items.iter_mut() {
            expire_conditions(
                rules,
                &order,
                f,
                |e| matches!(e, Expiry::EndOfTurn { round: r, of } if *of == a && *r <= round),
                &mut log,
            );
            if *f.id == a && f.actions.steady > 0 && f.actions.steady_round <= round {
                f.actions.steady = 0;
            }
            crate::battle::effects::fade_power(rules, a, round, f, &mut log);
            if *f.id == a {
                super::family::of(rules).end_phase(f, &mut log);
            }
        }
    }
    if let Some(partner) = order.paused.take()
        && let Some(at) = order.position(partner)
    {
        // Digimon: the partner that handed the turn over takes it back with what it kept.
        let past_both = order.index.max(at) + 1;
        order.resume_at = Some(order.resume_at.unwrap_or(past_both).max(past_both));
        let left = items
            .iter()
            .find(|f| *f.id == partner)
            .map_or(0, |f| f.actions.usable());
        take_turn_back(&mut order, partner, at, left, &mut log);
        // A Charm that wore off at this End Phase gives its target back now, as below.
        drop(items);
        super::family::digimon::release_charms(&mut q, &mut log);
        return;
    }
    order.index = order.resume_at.take().unwrap_or(order.index + 1);
    order.hand_overs = 0;
    if order.index >= order.order.len() {
        for f in items.iter_mut() {
            expire_conditions(
                rules,
                &order,
                f,
                |e| matches!(e, Expiry::EndOfRound(r) if *r <= round),
                &mut log,
            );
        }
        order.phase = TurnPhase::RoundStart;
    } else {
        order.phase = TurnPhase::TurnStart;
    }
    drop(items);
    super::family::of(rules).after_turn(&mut q, &mut log);
}

/// The most times a shared turn changes hands: Tamer and Digimon have at most four Simple
/// Actions between them, so more hand-overs could not put an action between two of them.
pub const MAX_HAND_OVERS: u8 = 3;

/// Digimon: whether `me` (acting now) may hand the turn it shares to its partner: the partner
/// stands, is on its side, and has not ended its part of this turn.
pub fn check_hand_over(
    rules: &crate::ruleset::Rules,
    order: &TurnOrder,
    fighters: &[super::fighter::Fighter],
    me: &super::fighter::Fighter,
) -> Result<(), super::command::RuleError> {
    use super::command::RuleError;
    if !super::family::of(rules).shares_turns() {
        return Err(RuleError::NotInRuleset {
            what: "handing the turn to a partner (Digimon: Tamers and their Digimon share a turn)",
            ruleset: rules.manifest.id.clone(),
        });
    }
    let refuse = |why: &str| {
        Err(RuleError::CannotHandOver {
            who: me.id,
            why: why.to_string(),
        })
    };
    let Some(partner) = me.digi.as_ref().and_then(|s| s.partner) else {
        return refuse("it has no partner (only a Tamer and its Digimon share a turn)");
    };
    let Some(p) = fighters.iter().find(|f| f.id == partner) else {
        return refuse("its partner is not in this battle");
    };
    if p.defeated() || p.position.is_none() {
        return refuse("its partner is out of the fight");
    }
    if p.side != me.side {
        return refuse("its partner is Charmed onto the other side");
    }
    if !order.yet_to_end(partner) {
        return refuse("its partner has ended its part of this turn");
    }
    if order.hand_overs >= MAX_HAND_OVERS {
        return refuse(
            "the turn has changed hands three times already (four Simple Actions between two)",
        );
    }
    Ok(())
}

/// `HandOver`: the partner acts now (its turn starts, or it takes back what it kept); the one
/// handing over keeps its actions until the partner ends its part.
pub fn apply_hand_over(
    mut pending: ResMut<PendingCommand>,
    mut order: ResMut<TurnOrder>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(who) = crate::battle::state::take(&mut pending, |c| match c {
        Command::HandOver { who } => Some(*who),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == who) else {
        return;
    };
    let Some(partner) = me.digi.as_ref().and_then(|s| s.partner) else {
        return;
    };
    let Some(at) = order.position(partner) else {
        return;
    };
    log.push(BattleEvent::HandedOver {
        who,
        to: partner,
        kept: me.actions.usable(),
    });
    order.hand_overs += 1;
    let resumes = order.paused == Some(partner);
    order.paused = Some(who);
    if resumes {
        let left = all
            .iter()
            .find(|f| f.id == partner)
            .map_or(0, |f| f.actions.usable());
        take_turn_back(&mut order, partner, at, left, &mut log);
    } else {
        order.index = at;
        order.phase = TurnPhase::TurnStart;
    }
}

/// Digimon: `who` (at `at` in the order), which handed the shared turn over, acts again with
/// the `actions` it kept: no new Effect Phase, its turn never ended.
fn take_turn_back(
    order: &mut TurnOrder,
    who: CombatantId,
    at: usize,
    actions: u32,
    log: &mut EventLog,
) {
    order.index = at;
    order.phase = TurnPhase::Acting;
    log.push(BattleEvent::TurnResumed { who, actions });
}

/// Ends the battle when at most one side has anyone standing.
pub fn check_victory(
    mut order: ResMut<TurnOrder>,
    attack: Res<CurrentAttack>,
    mut outcome: ResMut<Outcome>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    q: Fighters,
) {
    if attack.0.is_some() || matches!(order.phase, TurnPhase::Setup | TurnPhase::Over) {
        return;
    }
    // A Charmed combatant still counts for its own side.
    let mut sides: Vec<Side> = q
        .iter()
        .filter(|f| f.life.current > 0)
        .map(|f| {
            f.digi
                .as_ref()
                .and_then(|s| s.charmed_from)
                .unwrap_or(*f.side)
        })
        .collect();
    sides.sort();
    sides.dedup();
    if sides.len() <= 1 {
        finish(
            &mut order,
            &mut outcome,
            &mut log,
            sides.first().copied(),
            EndReason::LastSideStanding,
        );
        progress.0 = true;
    }
}

/// Ends the battle with a result.
fn finish(
    order: &mut TurnOrder,
    outcome: &mut Outcome,
    log: &mut EventLog,
    winner: Option<Side>,
    reason: EndReason,
) {
    let result = BattleResult {
        winner,
        round: order.round,
        reason,
    };
    outcome.0 = Some(result);
    log.push(BattleEvent::BattleEnded {
        winner,
        round: result.round,
        reason,
    });
    order.phase = TurnPhase::Over;
}

/// True while a d20 full-round attack has swings to come (they need no actions).
fn swings_left(round: &RoundLog) -> bool {
    round.full_attack.as_ref().is_some_and(|fa| fa.left > 0)
}
