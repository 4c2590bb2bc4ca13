//! The Opposed Rolls (or the family's own checks) of an attack against each target.

use bevy::prelude::*;

use super::defend::parties;
use crate::battle::command::DefenseChoice;
use crate::battle::components::*;
use crate::battle::context::declaration;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::family::assemble;
use crate::battle::fighter::{FighterQuery, snapshots};
use crate::battle::state::*;
use crate::dice::{RollBreakdown, RollSpec, roll};

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
        && crate::battle::family::d20::grenade::of(d, &state.order.profile).is_some()
    {
        // A grenade: the aim, then its blast (or a miss lying live), resolved here at once.
        let mut live = std::mem::take(&mut ground.0.grenades);
        let field = ground.field(rules);
        let ctx = assemble(rules, &field, attacker, &targets, &decl);
        let scene = crate::battle::family::d20::grenade::Scene {
            rules,
            d,
            field: &field,
            all: &all,
        };
        let mut r = Resolve {
            dice: &mut dice.0,
            q: &mut q,
            log: &mut log,
        };
        crate::battle::family::d20::grenade::throw(
            &scene, &mut live, attacker, &ctx.wound, state, &mut r,
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
                && let Ok(how) =
                    crate::battle::family::d20::swift::check_drop_prone(d, &f.snapshot(), false)
            {
                crate::battle::family::d20::swift::drop_prone(d, &mut f, how, true, &mut log);
            }
        }
        let strike = crate::battle::family::d20::roll_checks(
            &ctx,
            attacker.id,
            &mut state.targets,
            &mut dice.0,
            &mut log,
        );
        // A diver lands prone once its Dodge check is made.
        for t in state
            .targets
            .iter()
            .filter(|t| t.defense == Some(DefenseChoice::Dive))
        {
            if let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id) {
                crate::battle::family::d20::dive::dive(d, &field, &all, &mut f, attacker, &mut log);
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
                crate::battle::family::shinobi::pay_counter(&mut f, c, &mut log);
            }
            if hit {
                log.push(BattleEvent::CounterWasted {
                    who: tc.id,
                    counter: c.name.clone(),
                });
            } else if let Some(me) = all.iter().find(|f| f.id == tc.id) {
                let spec = crate::battle::family::shinobi::counter_defense(data, attacker);
                let r = roll(&spec, &mut dice.0);
                let lands = if rules.dice.attacker_wins_ties {
                    d_total >= r.total
                } else {
                    d_total > r.total
                };
                let damage = if lands {
                    crate::battle::family::shinobi::counter_damage(me, c)
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
                    crate::battle::family::shinobi::hurt(
                        rules,
                        &mut f,
                        damage,
                        Some(tc.id),
                        &why,
                        &mut log,
                    );
                }
            }
        }
        // Shinobi concealment: a hit may still miss.
        let hit = match &tc.miss_chance {
            Some((chance, source)) if hit => !crate::battle::family::shinobi::roll_concealment(
                &mut dice.0,
                tc.id,
                *chance,
                source,
                &mut log,
            ),
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
    let kind = crate::battle::family::stages::attack_kind(data, profile)
        .unwrap_or(crate::ruleset::stages::CardKind::PhysicalAttack);
    for t in state.targets.iter_mut() {
        let blocked = t.defense == Some(DefenseChoice::Parry)
            && q.iter_mut().find(|f| *f.id == t.id).is_some_and(|mut f| {
                crate::battle::family::stages::play_block(data, &mut f, kind, log)
            });
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
                crate::battle::family::stages::NO_ROLL.to_string()
            }),
            attacker_wins_ties: false,
        });
    }
    state.phase = AttackPhase::Damage;
}
