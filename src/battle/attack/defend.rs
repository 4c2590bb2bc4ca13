//! Defense Declaration: each target's answer, from its policy or the person playing it.

use bevy::prelude::*;

use crate::battle::command::Decision;
use crate::battle::command::DefenseChoice;
use crate::battle::effects::convert_action;
use crate::battle::event::{ActionKind, BattleEvent, EventLog};
use crate::battle::family::DefenseAsk;
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::state::*;

/// Snapshots of an attack's attacker and targets, the targets in the attack's order.
pub(super) fn parties<'a>(
    all: &'a [Fighter],
    state: &AttackState,
) -> Option<(&'a Fighter, Vec<&'a Fighter>)> {
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
    if matches!(choice, DefenseChoice::Parry | DefenseChoice::Reflect) {
        if f.actions.counter == 0 {
            convert_action(f, log);
        }
        f.actions.counter = f.actions.counter.saturating_sub(1);
        log.push(BattleEvent::ActionSpent {
            who: *f.id,
            kind: ActionKind::Counter,
            what: choice.name().into(),
        });
    }
}

/// Defense Declaration: each target, in id order, dodges or parries; a prompted one stops the
/// battle until it answers.
pub fn collect_defenses(
    sys: RuleSys,
    ground: Res<Battleground>,
    turn: Res<TurnOrder>,
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
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    let all = q.snapshots();
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
        let family = crate::battle::family::of(rules);
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
                let family = crate::battle::family::of(rules);
                // A Genjutsu is resisted, not evaded: no counter goes off with Gen Resist.
                let counter = (choice != DefenseChoice::Resist)
                    .then(|| family.policy_counter(&turn, target, attacker))
                    .flatten();
                if let Some(mut f) = q.one_mut(id) {
                    declare_defense(&mut f, &mut state.targets[i], choice, &mut log);
                    if let Some(c) = counter
                        && family.cast_counter(&mut f, &c, &mut log)
                    {
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
