//! The Hide maneuver (the digest's Hide: "a Skill Clash (Stealth vs Perception) against every
//! Opponent that does not have you in their Melee Range") giving the chapter's Hidden ("You
//! cannot be targeted for attacks and your opponents do not know your position"); its exact
//! chance; Hidden ending at the end of a turn in an opponent's Melee Range; and what a side
//! knows of the battlefield while an opponent is Hidden.
//!
//! Readings of ours, documented in `docs/src/dbu.md`: the chapter's Hidden is one condition
//! against every opponent, so the Stealth check must beat every opponent's Perception (ties go
//! to the one looking); an opponent with the unit in its Melee Range refuses the Hide.

use bevy::prelude::*;

use super::checks::skill_spec;
use super::command::{Command, RuleError};
use super::components::{CombatantId, Side};
use super::effects::{end_condition, expiry_after, grant_condition, spend_actions};
use super::event::{BattleEvent, EventLog};
use super::fighter::Fighter;
use super::grapple::within_reach;
use super::snapshot::Fighters;
use super::state::*;
use crate::dice::{distribution, roll};
use crate::ruleset::{ConditionKind, HideRules, Rules};

/// The ruleset's Hide, or why there is none.
fn hide_rules(rules: &Rules) -> Result<&HideRules, RuleError> {
    rules
        .actions
        .hide
        .as_ref()
        .ok_or_else(|| RuleError::NotInRuleset {
            what: "Hide",
            ruleset: rules.manifest.id.clone(),
        })
}

/// The opponents `me` hides from: every one standing on the battlefield.
pub fn lookers<'a>(fighters: &'a [Fighter], me: &'a Fighter) -> impl Iterator<Item = &'a Fighter> {
    fighters
        .iter()
        .filter(move |f| f.side != me.side && !f.defeated() && f.position.is_some())
}

/// Checks a Hide by `me` among `fighters`: the ruleset has it, once a round, the Actions, not
/// Hidden already, and no opponent with `me` within its Melee Range.
pub fn check_hide(rules: &Rules, fighters: &[Fighter], me: &Fighter) -> Result<(), RuleError> {
    let h = hide_rules(rules)?;
    if me.round.hid {
        return Err(RuleError::HideRefused {
            why: "one Hide a round",
        });
    }
    if me.conditions.has(ConditionKind::Hidden) {
        return Err(RuleError::HideRefused {
            why: "already Hidden",
        });
    }
    if me.actions.usable() < h.actions {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Standard Action",
        });
    }
    if lookers(fighters, me).any(|o| within_reach(o, me)) {
        return Err(RuleError::HideRefused {
            why: "an opponent has you within its Melee Range",
        });
    }
    Ok(())
}

/// The exact chance that `me`'s Stealth check beats the Perception check of every opponent
/// among `fighters` (one Stealth roll against each of theirs).
pub fn hide_chance(rules: &Rules, fighters: &[Fighter], me: &Fighter) -> f64 {
    let Some(h) = &rules.actions.hide else {
        return 0.0;
    };
    let Some(mine) = skill_spec(rules, me, &h.skill) else {
        return 0.0;
    };
    let mine = distribution(&mine);
    let theirs: Vec<_> = lookers(fighters, me)
        .filter_map(|o| skill_spec(rules, o, &h.against))
        .map(|s| distribution(&s))
        .collect();
    let Some((lo, hi)) = mine.range() else {
        return 0.0;
    };
    (lo..=hi)
        .map(|s| mine.prob(s) * theirs.iter().map(|d| d.cdf(s - 1)).product::<f64>())
        .sum()
}

/// `Hide`: spends the Action, rolls the Stealth check once against each opponent's Perception,
/// and gives Hidden (until ended) when every one was beaten.
pub fn resolve_hide(sys: RuleSys, order: Res<TurnOrder>, mut pending: ResMut<PendingCommand>) {
    let Some(who) = take(&mut pending, |c| match c {
        Command::Hide { who } => Some(*who),
        _ => None,
    }) else {
        return;
    };
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let rules = &rules.0;
    progress.0 = true;
    let all = q.snapshots();
    let (Some(me), Some(h)) = (
        all.iter().find(|f| f.id == who),
        rules.actions.hide.as_ref(),
    ) else {
        return;
    };
    if let Some(mut f) = q.one_mut(who) {
        spend_actions(&mut f, h.actions, "a Hide", &mut log);
        f.round.hid = true;
    }
    let Some(spec) = skill_spec(rules, me, &h.skill) else {
        return;
    };
    let mine = roll(&spec, &mut dice.0);
    let mut unseen = true;
    for o in lookers(&all, me) {
        let Some(theirs) = skill_spec(rules, o, &h.against) else {
            continue;
        };
        let theirs = roll(&theirs, &mut dice.0);
        let won = mine.total > theirs.total;
        unseen &= won;
        log.push(BattleEvent::HideRoll {
            who,
            against: o.id,
            roll: mine.clone(),
            against_roll: theirs,
            won,
        });
    }
    if unseen && let Some(mut f) = q.one_mut(who) {
        grant_condition(
            rules,
            &mut f,
            ConditionKind::Hidden,
            None,
            0,
            expiry_after(&order, 0),
            &mut log,
        );
    }
}

/// The End Phase of a Hidden unit's turn: Hidden ends when it ends its turn within an
/// opponent's Melee Range (the digest's "when you end your turn in their Melee Range").
pub fn reveal_at_turn_end(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut log: ResMut<EventLog>,
    mut q: Fighters,
) {
    let Some(active) = order.active() else {
        return;
    };
    let all = q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == active) else {
        return;
    };
    if !me.conditions.has(ConditionKind::Hidden) || !lookers(&all, me).any(|o| within_reach(o, me))
    {
        return;
    }
    if let Some(mut f) = q.one_mut(active) {
        end_condition(
            &rules.0,
            &order,
            &mut f,
            ConditionKind::Hidden,
            "ended its turn within an opponent's Melee Range",
            &mut log,
        );
    }
}

/// The battlefield as `side` knows it: every opponent that is Hidden is off it as far as that
/// side can tell (its square unknown). What a side's computer player plans with and what the
/// window shows its player; the battle itself keeps everything.
pub fn as_known_to(mut fighters: Vec<Fighter>, side: Side) -> Vec<Fighter> {
    for f in &mut fighters {
        if f.side != side && f.conditions.has(ConditionKind::Hidden) {
            f.position = None;
        }
    }
    fighters
}

/// True when `who` is hidden from `side` (an opponent that is Hidden).
pub fn hidden_from(fighters: &[Fighter], who: CombatantId, side: Side) -> bool {
    fighters
        .iter()
        .any(|f| f.id == who && f.side != side && f.conditions.has(ConditionKind::Hidden))
}
