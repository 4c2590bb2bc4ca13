//! The DBU chapter: the default pipeline. Every hook's default in [`super::Family`] calls the
//! functions here, and other families call them where they share a step.

use super::{DamagePhase, DefenseAsk, HitOn, RollPhase, assemble, target_numbers};
use crate::battle::command::DefenseChoice;
use crate::battle::components::{CombatantId, DefenseChange, DefensePolicy};
use crate::battle::context::{AttackContext, Declaration, TargetContext, declaration};
use crate::battle::context::{DamageResult, damage_against, guard_down_against, push_destination};
use crate::battle::effects::{LifeCause, expiry_after, grant_condition, set_life};
use crate::battle::effects::{convert_action, spend_actions};
use crate::battle::event::{ActionKind, BattleEvent, EventLog, Pool};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::fighter::{at_tier, eval, occupied};
use crate::battle::odds::TargetNumbers;
use crate::battle::snapshot::Fighters;
use crate::battle::state::TurnOrder;
use crate::battle::state::{AttackPhase, AttackState};
use crate::dice::{RollBreakdown, RollSpec, roll};
use crate::grid::footprint;
use crate::ruleset::ProfileEffect;
use crate::ruleset::Rules;

/// The DBU family; its data is all in the shared tables.
pub struct Dbu;

impl super::Family for Dbu {
    /// The chapter names the bonus by its attribute: "Initiative (AG n / 2)".
    fn initiative_spec(&self, rules: &Rules, f: &Fighter) -> RollSpec {
        let label = format!("Initiative (AG {} / 2)", f.attributes.get("AG"));
        crate::battle::checks::initiative_roll(rules, f, label)
    }

    /// The default odds' numbers without building the odds for people.
    fn target_numbers(
        &self,
        rules: &Rules,
        ctx: &AttackContext,
        t: &TargetContext,
        decl: &Declaration,
        target: &Fighter,
        choice: DefenseChoice,
    ) -> TargetNumbers {
        crate::battle::odds::default_target_numbers(rules, ctx, t, decl, target, choice)
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

/// What a point of Ki counts for against a point of damage when a defense policy weighs a
/// Reflect (ours: Ki comes back slowly and pays for every attack).
const REFLECT_KI_WORTH: f64 = 0.25;

/// The default pipeline's answer (Dodge, or Parry with a Counter Action when clearly better,
/// or a Reflect when what it sends back outweighs its Ki).
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
            let Ok(mut decl) = declaration(rules, attacker, order, all.len()) else {
                return Some(DefenseChoice::Dodge);
            };
            decl.numbers_only = true;
            decl.bystanders = ask.bystanders;
            let ctx = assemble(rules, field, attacker, all, &decl);
            let Some(t) = ctx.targets.iter().find(|t| t.id == target.id) else {
                return Some(DefenseChoice::Dodge);
            };
            let dodge = target_numbers(rules, &ctx, t, &decl, target, DefenseChoice::Dodge);
            let parry = target_numbers(rules, &ctx, t, &decl, target, DefenseChoice::Parry);
            let mut best = if parry.expected_damage + 0.5 < dodge.expected_damage {
                (DefenseChoice::Parry, parry.expected_damage + 0.5)
            } else {
                (DefenseChoice::Dodge, dodge.expected_damage)
            };
            // A Reflect: the Parry's roll, the Ki paid only when it wins, the damage sent back.
            let opponent = attacker.side != target.side;
            if opponent && t.defenses.iter().any(|(c, _)| *c == DefenseChoice::Reflect) {
                let r = target_numbers(rules, &ctx, t, &decl, target, DefenseChoice::Reflect);
                let ki = crate::battle::reflect::cost(rules, target).unwrap_or(0) as f64;
                let price = (1.0 - r.hit_chance) * ki * REFLECT_KI_WORTH;
                let cost = r.expected_damage + 0.5 + price - r.reflected_damage;
                if cost < best.1 {
                    best = (DefenseChoice::Reflect, cost);
                }
            }
            Some(best.0)
        }
    }
}

/// The default pipeline's speed: Normal or Boosted Speed, as conditions leave it.
pub fn default_speed(rules: &Rules, f: &Fighter, boosted: bool) -> u32 {
    let d = f.derived(rules);
    let v = if boosted {
        d.boosted_speed
    } else {
        d.normal_speed
    };
    v.max(0) as u32
}

/// The default pipeline's expected answer: a target with a Counter Action (and not set to
/// always Dodge) is assumed to take the better of Dodge and Parry for it, or a Reflect when
/// what it sends back outweighs the damage it takes.
pub fn default_expected_answer(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
) -> TargetNumbers {
    let may_answer = target.actions.counter > 0;
    let base = better_answer(rules, ctx, t, decl, target, may_answer, |d, p| {
        p.expected_damage < d.expected_damage
    });
    let reflects = t.defenses.iter().any(|(c, _)| *c == DefenseChoice::Reflect);
    // Only an opponent sends an attack back (a unit's own ally caught in its area does not).
    let opponent = ctx
        .reflected
        .as_ref()
        .is_some_and(|b| b.side != target.side);
    if opponent && may_answer && reflects && target.controller.defense != DefensePolicy::AlwaysDodge
    {
        let r = target_numbers(rules, ctx, t, decl, target, DefenseChoice::Reflect);
        if r.expected_damage - r.reflected_damage < base.expected_damage {
            return r;
        }
    }
    base
}

/// The numbers of the answer an attacker should expect when the target `may_answer` with a
/// Parry or Block: the one of Dodge and that answer which `prefers_second` picks, unless the
/// target always Dodges.
pub fn better_answer(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
    may_answer: bool,
    prefers_second: impl Fn(&TargetNumbers, &TargetNumbers) -> bool,
) -> TargetNumbers {
    let dodge = target_numbers(rules, ctx, t, decl, target, DefenseChoice::Dodge);
    if !may_answer || target.controller.defense == DefensePolicy::AlwaysDodge {
        return dodge;
    }
    let parry = target_numbers(rules, ctx, t, decl, target, DefenseChoice::Parry);
    if prefers_second(&dodge, &parry) {
        parry
    } else {
        dodge
    }
}

/// The action-point families' expected answer: their defenses cost nothing, so the one that
/// leaves the target the least expected damage (a shot that cannot be dodged: the Dodge row,
/// which the context resolves as no defense).
pub fn least_damage_answer(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
) -> TargetNumbers {
    t.defenses
        .iter()
        .map(|(c, _)| target_numbers(rules, ctx, t, decl, target, *c))
        .min_by(|a, b| a.expected_damage.total_cmp(&b.expected_damage))
        .unwrap_or_else(|| target_numbers(rules, ctx, t, decl, target, DefenseChoice::Dodge))
}

/// The default pipeline's dangerous steps: each step out of a square inside a living
/// opponent's melee reach provokes an Exploit (the first square of a path never does: the
/// mover has not left anything yet).
pub fn path_danger(fighters: &[Fighter], me: &Fighter, path: &[crate::grid::Square]) -> Vec<bool> {
    let in_reach = |s: crate::grid::Square| {
        fighters
            .iter()
            .filter(|f| f.side != me.side && !f.defeated())
            .any(|foe| {
                foe.position.is_some_and(|p| {
                    crate::grid::footprint_distance(s, me.size.squares, p, foe.size.squares)
                        <= foe.size.melee_range
                })
            })
    };
    let mut left = false;
    path.iter()
        .map(|s| {
            let danger = left;
            left = in_reach(*s);
            danger
        })
        .collect()
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

/// The assembled context of the attack in `state` as its roll phase sees it (`None` when the
/// order no longer declares).
pub fn roll_context(p: &RollPhase, state: &AttackState) -> Option<AttackContext> {
    let mut decl = declaration(p.rules, p.attacker, &state.order, p.targets.len()).ok()?;
    decl.sneak_won = &state.sneak_won;
    decl.bystanders = p.all;
    let field = p.ground.field(p.rules);
    Some(assemble(p.rules, &field, p.attacker, p.targets, &decl))
}

/// The default pipeline's roll phase: the Opposed Rolls, then the damage.
pub fn roll_checks(p: &mut RollPhase, state: &mut AttackState) {
    let Some(ctx) = roll_context(p, state) else {
        return;
    };
    opposed(p, state, &ctx, |_, _, _, _, _, hit| hit);
    state.phase = AttackPhase::Damage;
}

/// What the Opposed Rolls tell a family after each target's defense is rolled: the phase,
/// the attack, the target's index and context, its defense total, and whether it is hit.
/// Returns whether it stays hit.
pub trait AfterDefense:
    FnMut(&mut RollPhase, &mut AttackState, usize, &TargetContext, i64, bool) -> bool
{
}
impl<F: FnMut(&mut RollPhase, &mut AttackState, usize, &TargetContext, i64, bool) -> bool>
    AfterDefense for F
{
}

/// Opposed Rolls: one Strike (its dice shared, its modifiers each target's own) against each
/// target's chosen defense; the defender wins ties unless the ruleset says the attacker does;
/// an automatic hit (Rage) rolls no defense. `after` may act on each defended target and turn
/// its hit into a miss (the action-point families' counters and concealment).
pub fn opposed(
    p: &mut RollPhase,
    state: &mut AttackState,
    ctx: &AttackContext,
    mut after: impl AfterDefense,
) {
    let rules = p.rules;
    let attacker = p.attacker;
    let common = roll(&ctx.strike, p.res.dice);
    if ctx.targets.len() == 1 {
        p.res.log.push(BattleEvent::StrikeRolled {
            attacker: attacker.id,
            roll: rescore(&common, &ctx.targets[0].strike),
        });
    } else {
        p.res.log.push(BattleEvent::StrikeRolled {
            attacker: attacker.id,
            roll: common.clone(),
        });
    }
    for (i, tc) in ctx.targets.iter().enumerate() {
        let strike = rescore(&common, &tc.strike);
        if let Some(why) = tc.automatic_hit {
            state.targets[i].hit = Some(true);
            p.res.log.push(BattleEvent::Clash {
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
        let defense = roll(spec, p.res.dice);
        let hit = if rules.dice.attacker_wins_ties {
            strike.total >= defense.total
        } else {
            strike.total > defense.total
        };
        let d_total = defense.total;
        p.res.log.push(BattleEvent::DefenseRolled {
            defender: tc.id,
            roll: defense,
        });
        p.res.log.push(BattleEvent::Clash {
            attacker: attacker.id,
            defender: tc.id,
            strike: strike.total,
            defense: d_total,
            hit,
            automatic: None,
            attacker_wins_ties: rules.dice.attacker_wins_ties,
        });
        let hit = after(p, state, i, tc, d_total, hit);
        state.targets[i].hit = Some(hit);
    }
    state.strike = Some(common);
}

/// The default pipeline's damage phase: on-hit effects (Kiai's push), one Wound Roll for every
/// target hit, the category and Soak of each target, then the family's [`apply_damage`] step
/// (Life lost and on-damage effects); the ninja chapter's partial cover absorbs and its pushes
/// slam and drop after the damage, as the assembly found them.
///
/// [`apply_damage`]: super::Family::apply_damage
pub fn roll_damage<F: super::Family + ?Sized>(
    fam: &F,
    p: &mut DamagePhase,
    state: &mut AttackState,
) {
    let DamagePhase {
        rules,
        order: order_res,
        field,
        attacker,
        targets,
        all,
        decl,
        worn_before,
        ..
    } = *p;
    let strike_critical = state.strike.as_ref().is_some_and(|s| s.critical);
    let mut slams = Vec::new();
    let (dice, q, log) = (&mut *p.res.dice, &mut *p.res.q, &mut *p.res.log);
    let wear = &mut *p.wear;
    {
        let ctx = assemble(rules, field, attacker, targets, decl);
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
            if let Some(mut f) = q.one_mut(id) {
                f.position.0 = Some(to);
                log.push(BattleEvent::Pushed { who: id, from, to });
            }
        }
        let wound = roll(&ctx.wound, dice);
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
                decl,
                t,
                strike_critical,
                ctx.targets[i].cover.as_ref(),
            );
            if let Some(cover) = &ctx.targets[i].absorb {
                // Shinobi partial cover: what earlier targets of this attack wore off is gone
                // (a person in the way: the HP it has now).
                let left = match cover.person {
                    Some(p) => q.one_mut(p).map_or(0, |f| f.life.current),
                    None => {
                        cover.left
                            - (wear.get(&cover.at).copied().unwrap_or(0)
                                - worn_before.get(&cover.at).copied().unwrap_or(0))
                    }
                };
                let now = crate::battle::context::Absorb {
                    left,
                    ..cover.clone()
                };
                if now.left > 0 {
                    let before = r.damage;
                    r.damage = crate::battle::family::shinobi::absorb_hit(
                        dice, wear, t.id, &now, r.damage, log,
                    );
                    if let Some(p) = cover.person
                        && let Some(mut f) = q.one_mut(p)
                    {
                        let why = format!(
                            "{}'s {}, standing in the way",
                            attacker.identity.name, decl.profile.name
                        );
                        crate::battle::family::shinobi::hurt(
                            rules,
                            &mut f,
                            before - r.damage,
                            Some(attacker.id),
                            &why,
                            log,
                        );
                    }
                }
            }
            if let Some(k) = &ctx.targets[i].knockback {
                slams.push((t.id, k.clone()));
            }
            state.targets[i].damage = r.damage;
            let on = HitOn {
                rules,
                order: order_res,
                attacker,
                decl,
                wound: total,
            };
            fam.apply_damage(&on, t.id, &r, q, log);
        }
        // Parry's Reflect: each target whose Reflect won sends the attack back.
        if let Some(back) = &ctx.reflected {
            for (i, t) in targets.iter().enumerate() {
                let won = state.targets[i].hit == Some(false)
                    && state.targets[i].defense == Some(DefenseChoice::Reflect);
                if won {
                    let on = HitOn {
                        rules,
                        order: order_res,
                        attacker,
                        decl,
                        wound: total,
                    };
                    send_back(&on, t, back, q, log);
                }
            }
        }
        // Shinobi pushes after the damage: an obstruction that stops one slams, a drop falls.
        for (id, k) in slams.drain(..) {
            let Some(mut f) = q.one_mut(id).filter(|f| f.life.current > 0) else {
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
                hurt += crate::battle::family::shinobi::roll_fall(dice, id, k.to, fall, log);
            }
            crate::battle::family::shinobi::hurt(
                rules,
                &mut f,
                hurt,
                Some(attacker.id),
                "slam and fall",
                log,
            );
        }
        // Sweeping's reduction is used up once it has applied this round.
        if state.targets.iter().any(|t| t.damage > 0)
            && decl
                .profile
                .effects
                .iter()
                .any(|e| matches!(e, ProfileEffect::DefenseDownOnDamage { .. }))
            && let Some(mut f) = q.one_mut(attacker.id)
        {
            f.round.sweep_debuff = true;
        }
    }
}

/// The default pipeline's step for one target a hit reaches: the damage logged with its
/// category and Soak, Life lost, then the on-damage effects.
pub fn apply_damage(
    flat: bool,
    on: &HitOn,
    target: CombatantId,
    r: &DamageResult,
    q: &mut Fighters,
    log: &mut EventLog,
) {
    let HitOn {
        rules,
        order,
        attacker,
        decl,
        wound,
    } = *on;
    log.push(BattleEvent::Damage {
        attacker: attacker.id,
        target,
        wound,
        category: r.category,
        soak: r.soak,
        soak_used: r.soak_used,
        damage: r.damage,
        notes: r.notes.clone(),
        flat,
    });
    let Some(mut f) = q.one_mut(target) else {
        return;
    };
    let to = f.life.current - r.damage;
    set_life(
        rules,
        &mut f,
        super::of(rules).life_pool(),
        to,
        LifeCause::Damage {
            by: Some(attacker.id),
            attack: true,
        },
        &format!("{}'s {}", attacker.identity.name, decl.profile.name),
        log,
    );
    if r.damage > 0 {
        on_damage(rules, order, attacker, decl, &mut f, r.damage, log);
    }
}

/// Effects that happen "if the value of the Damage surpasses the value of the Soak Value".
pub fn on_damage(
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
    if let Some((_, part)) = decl.called_shot {
        grant_all(rules, order, attacker, decl, f, &part.on_damage, log);
    }
    if let Some(t) = decl.technique {
        grant_all(rules, order, attacker, decl, f, &t.on_damage, log);
    }
    if let Some(el) = decl.element {
        grant_all(rules, order, attacker, decl, f, &el.on_damage, log);
    }
}

/// Gives `f` the conditions of one on-damage list (a Called Shot's part, a technique, an
/// element). A Damage Over Time takes its amount in the sufferer's Tier of Power and, as "all
/// damage inflicted by an Elemental Signature Technique is Direct Damage", the attack's
/// category.
fn grant_all(
    rules: &Rules,
    order: &TurnOrder,
    attacker: &Fighter,
    decl: &Declaration,
    f: &mut FighterQueryItem,
    grants: &[crate::ruleset::ConditionGrant],
    log: &mut EventLog,
) {
    for g in grants {
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
        if let Some(c) = f.conditions.0.iter_mut().find(|c| {
            c.kind == g.condition
                && matches!(
                    rules.condition(c.kind).rule,
                    crate::ruleset::ConditionRule::DamageOverTime { .. }
                )
        }) {
            c.category = Some(decl.profile.category);
        }
    }
}

/// The damage phase's step for a target whose Reflect won: it pays the Ki, and the attack's
/// Wound `on.wound` hits the attacker (the reflector now its source, so the on-damage effects
/// and a defeat are the reflector's).
fn send_back(
    on: &HitOn,
    reflector: &Fighter,
    back: &crate::battle::reflect::ReflectBack,
    q: &mut Fighters,
    log: &mut EventLog,
) {
    let Some(price) = crate::battle::reflect::cost(on.rules, reflector) else {
        return;
    };
    {
        let Some(mut f) = q.one_mut(reflector.id) else {
            return;
        };
        if f.ki.current < price || f.capacity.current < price {
            return;
        }
        log.push(BattleEvent::Reflected {
            by: reflector.id,
            attacker: back.attacker,
            attack: on.decl.profile.name.clone(),
        });
        crate::battle::effects::spend_ki(&mut f, price, "Reflect", log);
    }
    let r = DamageResult {
        category: back.category,
        soak: back.soak,
        soak_used: back.soak_used,
        damage: (on.wound - back.soak_used).max(0),
        notes: back.notes.clone(),
    };
    let sent = HitOn {
        attacker: reflector,
        ..*on
    };
    apply_damage(false, &sent, back.attacker, &r, q, log);
}
