//! The DBU chapter: the default pipeline. Every hook's default in [`super::Family`] calls the
//! functions here, and other families call them where they share a step.

use super::{DefenseAsk, RollPhase, assemble, target_odds};
use crate::battle::command::DefenseChoice;
use crate::battle::components::DefensePolicy;
use crate::battle::context::{AttackContext, Declaration, TargetContext, declaration};
use crate::battle::effects::{convert_action, spend_actions};
use crate::battle::event::{ActionKind, BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::TargetOdds;
use crate::battle::state::{AttackPhase, AttackState};
use crate::dice::{RollBreakdown, RollSpec, roll};
use crate::ruleset::Rules;

/// The DBU family; its data is all in the shared tables.
pub struct Dbu;

impl super::Family for Dbu {
    /// The chapter names the bonus by its attribute: "Initiative (AG n / 2)".
    fn initiative_spec(&self, rules: &Rules, f: &Fighter) -> RollSpec {
        let label = format!("Initiative (AG {} / 2)", f.attributes.get("AG"));
        crate::battle::checks::initiative_roll(rules, f, label)
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
/// always Dodge) is assumed to take the better of Dodge and Parry for it.
pub fn default_expected_answer(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
) -> TargetOdds {
    better_answer(
        rules,
        ctx,
        t,
        decl,
        target,
        target.actions.counter > 0,
        |d, p| p.expected_damage < d.expected_damage,
    )
}

/// The odds of the answer an attacker should expect when the target `may_answer` with a
/// Parry or Block: the one of Dodge and that answer which `prefers_second` picks, unless the
/// target always Dodges.
pub fn better_answer(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
    may_answer: bool,
    prefers_second: impl Fn(&TargetOdds, &TargetOdds) -> bool,
) -> TargetOdds {
    let dodge = target_odds(rules, ctx, t, decl, target, DefenseChoice::Dodge);
    if !may_answer || target.controller.defense == DefensePolicy::AlwaysDodge {
        return dodge;
    }
    let parry = target_odds(rules, ctx, t, decl, target, DefenseChoice::Parry);
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
) -> TargetOdds {
    t.defenses
        .iter()
        .map(|(c, _)| target_odds(rules, ctx, t, decl, target, *c))
        .min_by(|a, b| a.expected_damage.total_cmp(&b.expected_damage))
        .unwrap_or_else(|| target_odds(rules, ctx, t, decl, target, DefenseChoice::Dodge))
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
