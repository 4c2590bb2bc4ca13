//! Defense Declaration: each target's answer, from its policy or the person playing it.

use bevy::prelude::*;

use super::targeting::declaration;
use crate::battle::command::{AttackOrder, Decision};
use crate::battle::components::*;
use crate::battle::context::{DefenseChoice, assemble};
use crate::battle::event::{ActionKind, BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem, snapshots};
use crate::battle::maneuvers::convert_action;
use crate::battle::odds::target_odds;
use crate::battle::state::*;
use crate::grid::Field;
use crate::ruleset::Rules;

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
    let Some(kind) = crate::battle::family::stages::attack_kind(data, &order.profile) else {
        return Some(DefenseChoice::Dodge);
    };
    if crate::battle::family::stages::block_card(data, target, kind).is_none() {
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
            if crate::battle::family::stages::worth_blocking(&taken) {
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
                    let gain =
                        crate::battle::family::d20::dive::worth_diving(&take, &dive, life, max);
                    if gain >= 0.0 {
                        best = (gain, DefenseChoice::Dive);
                    }
                }
                if t.offers(DefenseChoice::DropProne) {
                    let drop = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::DropProne);
                    let gain =
                        crate::battle::family::d20::swift::worth_dropping(&take, &drop, life, max);
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
                let counter = rules.action_points().and_then(|data| {
                    crate::battle::family::shinobi::policy_counter(data, &turn, target, attacker)
                });
                if let Some(mut f) = q.iter_mut().find(|f| *f.id == id) {
                    declare_defense(&mut f, &mut state.targets[i], choice, &mut log);
                    if let (Some(data), Some(c)) = (rules.action_points(), counter)
                        && let Some(def) = data.counter(&c)
                    {
                        crate::battle::family::shinobi::cast_counter(&mut f, def, &mut log);
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
