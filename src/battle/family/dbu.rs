//! The DBU chapter: the default pipeline. Every hook's default in [`super::Family`] calls the
//! functions here, and other families call them where they share a step.

use super::{DefenseAsk, assemble, target_odds};
use crate::battle::command::DefenseChoice;
use crate::battle::components::DefensePolicy;
use crate::battle::context::{AttackContext, Declaration, TargetContext, declaration};
use crate::battle::effects::{convert_action, spend_actions};
use crate::battle::event::{ActionKind, BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::TargetOdds;
use crate::dice::RollSpec;
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
