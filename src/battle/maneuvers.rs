//! Maneuvers other than attacks, applied from validated commands: ending the turn, converting
//! an action, Surges, standing up, ending a condition, curing poison, and the answers to the
//! battle's questions (defense choice, Instant window).

use bevy::prelude::*;

use super::checks::{healing_surge_spec, roll_against, save_spec, skill_spec};
use super::command::{Command, SurgeKind};
use super::effects::{LifeCause, end_condition, set_life};
use super::effects::{convert_action, spend_actions};
use super::event::{BattleEvent, EventLog, Pool};
use super::fighter::FighterQueryItem;
use super::state::*;
use crate::battle::snapshot::Fighters;
use crate::dice::roll;
use crate::ruleset::{ConditionKind, ConditionRule, Rules};

/// Uses the encounter's Surge: Healing (2d10(T) + Surgency Life) or Ki (1/4 Max Ki +
/// Surgency, and 1/4 Max Capacity).
pub fn use_surge(
    rules: &Rules,
    dice: &mut crate::dice::DiceSource,
    f: &mut FighterQueryItem,
    kind: SurgeKind,
    log: &mut EventLog,
) {
    f.encounter.surge_used = true;
    let snap = f.snapshot();
    match kind {
        SurgeKind::Healing => {
            let r = roll(&healing_surge_spec(rules, &snap), dice);
            let amount = r.total;
            log.push(BattleEvent::SurgeUsed {
                who: *f.id,
                healing: true,
                amount,
                roll: Some(r),
            });
            let to = f.life.current + amount;
            set_life(
                rules,
                f,
                crate::battle::family::of(rules).life_pool(),
                to,
                LifeCause::Healing,
                "Healing Surge",
                log,
            );
        }
        SurgeKind::Ki => {
            let d = snap.derived(rules);
            let surgency = super::checks::surgency(rules, &snap);
            let ki = rules.actions.ki_surge_fraction.of(d.max_ki) + surgency;
            let cap = rules.actions.ki_surge_capacity_fraction.of(d.max_capacity);
            log.push(BattleEvent::SurgeUsed {
                who: *f.id,
                healing: false,
                amount: ki,
                roll: None,
            });
            let (k0, c0) = (f.ki.current, f.capacity.current);
            f.ki.current = (k0 + ki).min(d.max_ki);
            f.capacity.current = (c0 + cap).min(d.max_capacity);
            log.push(BattleEvent::PoolChanged {
                who: *f.id,
                pool: Pool::Ki,
                from: k0,
                to: f.ki.current,
                reason: "Ki Surge".into(),
            });
            log.push(BattleEvent::PoolChanged {
                who: *f.id,
                pool: Pool::Capacity,
                from: c0,
                to: f.capacity.current,
                reason: "Ki Surge".into(),
            });
        }
    }
}

/// `EndTurn`: the active combatant ends its turn early.
pub fn apply_end_turn(
    mut pending: ResMut<PendingCommand>,
    mut order: ResMut<TurnOrder>,
    mut progress: ResMut<Progress>,
) {
    if take(&mut pending, |c| {
        matches!(c, Command::EndTurn { .. }).then_some(())
    })
    .is_some()
    {
        order.phase = TurnPhase::TurnEnd;
        progress.0 = true;
    }
}

/// `ConvertAction`: one Standard Action becomes a Counter Action.
pub fn apply_convert_action(
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(who) = take(&mut pending, |c| match c {
        Command::ConvertAction { who } => Some(*who),
        _ => None,
    }) else {
        return;
    };
    if let Some(mut f) = q.one_mut(who) {
        convert_action(&mut f, &mut log);
    }
    progress.0 = true;
}

/// `Surge` on one's own turn.
pub fn apply_surge(
    rules: Res<RulesRes>,
    mut dice: ResMut<BattleDice>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some((who, kind)) = take(&mut pending, |c| match c {
        Command::Surge { who, kind } => Some((*who, *kind)),
        _ => None,
    }) else {
        return;
    };
    if let Some(mut f) = q.one_mut(who) {
        use_surge(&rules.0, &mut dice.0, &mut f, kind, &mut log);
    }
    progress.0 = true;
}

/// `StandUp`: one Action ends Prone.
pub fn apply_stand_up(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(who) = take(&mut pending, |c| match c {
        Command::StandUp { who } => Some(*who),
        _ => None,
    }) else {
        return;
    };
    let rules = &rules.0;
    let n = match &rules.condition(ConditionKind::Prone).rule {
        ConditionRule::Prone { stand_up_actions } => *stand_up_actions,
        _ => 1,
    };
    if let Some(mut f) = q.one_mut(who) {
        spend_actions(&mut f, n, "standing up", &mut log);
        end_condition(
            rules,
            &order,
            &mut f,
            ConditionKind::Prone,
            "stood up",
            &mut log,
        );
    }
    progress.0 = true;
}

/// `EndCondition`: one Action and a Morale Save, TN Hard; success ends the condition.
pub fn apply_end_condition(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut dice: ResMut<BattleDice>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some((who, kind)) = take(&mut pending, |c| match c {
        Command::EndCondition { who, condition } => Some((*who, *condition)),
        _ => None,
    }) else {
        return;
    };
    let rules = &rules.0;
    let m = &rules.conditions.end_condition;
    if let Some(mut f) = q.one_mut(who) {
        let name = rules.condition(kind).name.clone();
        spend_actions(&mut f, m.actions, &format!("ending {name}"), &mut log);
        let snap = f.snapshot();
        let spec = match rules.save(&m.check) {
            Some(_) => Some(save_spec(rules, &snap, &m.check, 0)),
            None => skill_spec(rules, &snap, &m.check),
        };
        if let Some(spec) = spec {
            let purpose = format!("tries to end {name}");
            if roll_against(
                rules,
                &mut dice.0,
                &spec,
                &m.difficulty,
                who,
                purpose,
                &mut log,
            ) {
                end_condition(
                    rules,
                    &order,
                    &mut f,
                    kind,
                    "ended by a Morale Save",
                    &mut log,
                );
            }
        }
    }
    progress.0 = true;
}

/// `CurePoison`: one Action and a Medicine check, TN Very Hard; success ends Poisoned.
pub fn apply_cure_poison(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut dice: ResMut<BattleDice>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some(who) = take(&mut pending, |c| match c {
        Command::CurePoison { who } => Some(*who),
        _ => None,
    }) else {
        return;
    };
    let rules = &rules.0;
    let ConditionRule::Poisoned { cure, .. } = &rules.condition(ConditionKind::Poisoned).rule
    else {
        return;
    };
    if let Some(mut f) = q.one_mut(who) {
        spend_actions(&mut f, cure.actions, "treating the poison", &mut log);
        if let Some(spec) = skill_spec(rules, &f.snapshot(), &cure.check) {
            let purpose = "treats the poison".to_string();
            if roll_against(
                rules,
                &mut dice.0,
                &spec,
                &cure.difficulty,
                who,
                purpose,
                &mut log,
            ) {
                end_condition(
                    rules,
                    &order,
                    &mut f,
                    ConditionKind::Poisoned,
                    "cured with Medicine",
                    &mut log,
                );
            }
        }
    }
    progress.0 = true;
}

/// `Defend`: the prompted target's choice of Dodge or Parry.
pub fn apply_defense_answer(
    rules: Res<RulesRes>,
    mut pending: ResMut<PendingCommand>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some((who, choice, counter)) = take(&mut pending, |c| match c {
        Command::Defend {
            defender,
            choice,
            counter,
        } => Some((*defender, *choice, counter.clone())),
        _ => None,
    }) else {
        return;
    };
    if let Some(state) = attack.0.as_mut()
        && let Some(t) = state.targets.iter_mut().find(|t| t.id == who)
        && let Some(mut f) = q.one_mut(who)
    {
        super::attack::declare_defense(&mut f, t, choice, &mut log);
        if let Some(id) = counter
            && super::family::of(&rules.0).cast_counter(&mut f, &id, &mut log)
        {
            t.counter = Some(id);
        }
    }
    awaiting.0 = None;
    progress.0 = true;
}

/// `Respond`: a prompted combatant's Instant (a Surge) or pass.
pub fn apply_response(
    sys: RuleSys,
    mut pending: ResMut<PendingCommand>,
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
    let Some((who, surge)) = take(&mut pending, |c| match c {
        Command::Respond { who, surge } => Some((*who, *surge)),
        _ => None,
    }) else {
        return;
    };
    if let (Some(kind), Some(mut f)) = (surge, q.one_mut(who)) {
        use_surge(&rules.0, &mut dice.0, &mut f, kind, &mut log);
    }
    if let Some(state) = attack.0.as_mut() {
        state.responders.retain(|r| *r != who);
    }
    awaiting.0 = None;
    progress.0 = true;
}
