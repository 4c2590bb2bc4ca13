//! The Wound Roll and what each hit does: damage, Soak, pushes and the effects it carries.

use bevy::prelude::*;

use super::defend::parties;
use crate::battle::components::*;
use crate::battle::context::declaration;
use crate::battle::context::{Declaration, damage_against, guard_down_against, push_destination};
use crate::battle::effects::{LifeCause, expiry_after, grant_condition, set_life};
use crate::battle::event::{BattleEvent, EventLog, Pool};
use crate::battle::family::assemble;
use crate::battle::fighter::occupied;
use crate::battle::fighter::{Fighter, FighterQueryItem, at_tier, eval, snapshots};
use crate::battle::state::*;
use crate::dice::roll;
use crate::grid::footprint;
use crate::ruleset::{ProfileEffect, Rules};

/// Damage: on-hit effects (Kiai's push), one Wound Roll for every target hit, the category and
/// Soak of each target, Life lost, then on-damage effects (Sweeping's Defense Value reduction,
/// Spiritual Assault's Ki drain, an element's condition) and a technique's Backlash.
pub fn roll_damage(
    sys: RuleSys,
    order_res: Res<TurnOrder>,
    mut ground: ResMut<Battleground>,
    mut attack: ResMut<CurrentAttack>,
) {
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
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
            let Some(hit) = crate::battle::family::d20::roll_hit(
                d,
                &decl.profile.id,
                &ctx.wound,
                t,
                success,
                &mut dice.0,
            ) else {
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
                notes: crate::battle::family::d20::hit_notes(&hit),
                flat: true,
            });
            state.targets[i].damage = hit.damage;
            let Some(mut f) = q.iter_mut().find(|f| *f.id == t.id) else {
                continue;
            };
            if hit.bypassed {
                crate::battle::family::d20::wear_armour(d, &mut f, &mut log);
            }
            let to = f.life.current - hit.damage;
            set_life(
                rules,
                &mut f,
                crate::battle::family::of(rules).life_pool(),
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
        let hit = crate::battle::family::digimon::HitScene {
            rules,
            d,
            field: &field,
            attacker,
            targets: &targets,
            all: &all,
            ctx: &ctx,
            profile: &decl.profile.id,
            round: order_res.round,
        };
        let mut res = Resolve {
            dice: &mut dice.0,
            q: &mut q,
            log: &mut log,
        };
        crate::battle::family::digimon::resolve_hits(&hit, state, &mut res);
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
                let now = crate::battle::context::Absorb {
                    left: cover.left - spent,
                    ..cover.clone()
                };
                if now.left > 0 {
                    r.damage = crate::battle::family::shinobi::absorb_hit(
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
                    let kind = crate::battle::family::stages::attack_kind(data, &decl.profile.id)
                        .unwrap_or(crate::ruleset::stages::CardKind::PhysicalAttack);
                    let why = format!("{}'s {}", attacker.identity.name, decl.profile.name);
                    crate::battle::family::stages::apply_hit(
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
                crate::battle::family::of(rules).life_pool(),
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
                hurt += crate::battle::family::shinobi::roll_fall(
                    &mut dice.0,
                    id,
                    k.to,
                    fall,
                    &mut log,
                );
            }
            crate::battle::family::shinobi::hurt(
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
                crate::battle::family::of(rules).life_pool(),
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
                Some((attacker.id, attacker.power.tier)),
                amount,
                expiry_after(order, g.rounds),
                log,
            );
        }
    }
}
