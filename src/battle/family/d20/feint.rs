//! d20 feints ("Persuasion or Bluff may be used to put any opponent off guard … as a standard
//! action"): who may feint at whom, the check and the target's opposing roll with the
//! cumulative penalty, their exact chance, the command, and what an attack does to the marks;
//! and the unseen attacker, the other cause of being off guard that is not flanking.

use bevy::prelude::*;

use super::{add_stat, d20_base, flanker, success_chances};
use crate::battle::command::{Command, RuleError};
use crate::battle::components::{CombatantId, FeintMark};
use crate::battle::event::BattleEvent;
use crate::battle::fighter::Fighter;
use crate::battle::snapshot::Fighters;
use crate::battle::state::{Battleground, PendingCommand, RuleSys, take};
use crate::dice::{RollKind, RollSpec, roll};
use crate::grid::Field;
use crate::grid::los::clear_line;
use crate::ruleset::Rules;
use crate::ruleset::d20::{D20AttackDef, D20Data, FeintRule};

/// The feint rule of this ruleset, if it has one.
pub fn rule(d: &D20Data) -> Option<&FeintRule> {
    d.combat.off_guard.as_ref()?.feint.as_ref()
}

/// What `f`'s feints at `target` have left, if anything.
pub fn mark(f: &Fighter, target: CombatantId) -> Option<&FeintMark> {
    f.encounter.feints.iter().find(|m| m.target == target)
}

/// True when `f`'s last feint caught `target` and no attack on it has come since.
pub fn feinted(f: &Fighter, target: CombatantId) -> bool {
    mark(f, target).is_some_and(|m| m.ready)
}

/// Refuses a feint the rules do not allow now: outside d20 or without the rule, with no
/// action or the round's Standard action spent, at anyone but a living opponent in sight.
pub fn check_feint(
    rules: &Rules,
    field: &Field,
    fighters: &[Fighter],
    me: &Fighter,
    target: CombatantId,
) -> Result<(), RuleError> {
    if rules.d20().and_then(rule).is_none() {
        return Err(RuleError::NotInRuleset {
            what: "a feint",
            ruleset: rules.manifest.id.clone(),
        });
    }
    if me.actions.usable() == 0 {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Standard Action",
        });
    }
    if me.round.standard_attack {
        return Err(RuleError::FeintNeedsStandardAction { who: me.id });
    }
    let seen = fighters.iter().find(|f| f.id == target).is_some_and(|t| {
        t.side != me.side
            && !t.defeated()
            && matches!((me.position, t.position), (Some(a), Some(b)) if clear_line(field, a, b))
    });
    if !seen {
        return Err(RuleError::FeintTarget { who: me.id, target });
    }
    Ok(())
}

/// The feint's check and the target's opposing roll: 1d20 + the rule's stats each, the check
/// less the penalty of every earlier attempt on this target ("cumulative -2 penalties").
pub fn specs(d: &D20Data, me: &Fighter, target: &Fighter) -> Option<(RollSpec, RollSpec)> {
    let r = rule(d)?;
    let mut check = d20_base(d, RollKind::Amount("Feint".into()));
    for s in &r.check {
        add_stat(d, me, s, &mut check);
    }
    let before = mark(me, target.id).map_or(0, |m| m.attempts);
    if before > 0 && r.penalty > 0 {
        check.add(
            format!("{before} earlier feint(s) at {}", target.identity.name),
            -(i64::from(before) * r.penalty),
        );
    }
    let mut resist = d20_base(d, RollKind::Amount("Reads the feint".into()));
    for s in &r.resist {
        add_stat(d, target, s, &mut resist);
    }
    Some((check, resist))
}

/// The exact chance that `me`'s feint catches `target`: the check meets or exceeds the
/// opposing roll, neither a natural 1 for the feint nor saved by one for the target.
pub fn chance(d: &D20Data, me: &Fighter, target: &Fighter) -> f64 {
    specs(d, me, target).map_or(0.0, |(check, resist)| {
        success_chances(&check, 0, Some(&resist)).values().sum()
    })
}

/// The Feint command: a Standard action spent, the check rolled against the target's roll,
/// and the mark it leaves (one more attempt; off guard for the next attack when it won).
pub fn apply_feint(sys: RuleSys, ground: Res<Battleground>, mut pending: ResMut<PendingCommand>) {
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let Some((who, target)) = take(&mut pending, |c| match c {
        Command::Feint { who, target } => Some((*who, *target)),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let rules = &rules.0;
    let Some(d) = rules.d20() else {
        return;
    };
    let all = q.snapshots();
    let field = ground.field(rules);
    let (Some(me), Some(them)) = (
        all.iter().find(|f| f.id == who),
        all.iter().find(|f| f.id == target),
    ) else {
        return;
    };
    let (Ok(()), Some((check, resist))) = (
        check_feint(rules, &field, &all, me, target),
        specs(d, me, them),
    ) else {
        return;
    };
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    crate::battle::family::shinobi::spend_ap(
        &mut f,
        1,
        "a feint (\"as a standard action\")",
        &mut log,
    );
    f.round.standard_attack = true;
    let r = super::tidy(roll(&check, &mut dice.0));
    let a = super::tidy(roll(&resist, &mut dice.0));
    let caught = r.natural != Some(1) && (a.natural == Some(1) || r.total >= a.total);
    match f.encounter.feints.iter_mut().find(|m| m.target == target) {
        Some(m) => {
            m.attempts += 1;
            m.ready |= caught;
        }
        None => f.encounter.feints.push(FeintMark {
            target,
            attempts: 1,
            ready: caught,
        }),
    }
    log.push(BattleEvent::Feint {
        who,
        target,
        roll: r,
        against_roll: a,
        caught,
    });
}

/// What an attack by `attacker` on `targets` (each with whether it was off guard) does to its
/// feint marks: an attack on a target it had caught off guard spends that ("the next
/// attack"), and an attack on one that was not off guard at all resets its penalties ("reset
/// by taking a standard attack, neither feint or off guard attack, against the opponent").
pub fn after_attack(
    q: &mut Fighters,
    attacker: CombatantId,
    targets: &[&Fighter],
    off_guard: &[bool],
) {
    let Some(mut f) = q.one_mut(attacker) else {
        return;
    };
    if f.encounter.feints.is_empty() {
        return;
    }
    for (t, off_guard) in targets.iter().zip(off_guard) {
        if let Some(m) = f.encounter.feints.iter_mut().find(|m| m.target == t.id) {
            if m.ready {
                m.ready = false;
            } else if !off_guard {
                m.attempts = 0;
            }
        }
    }
    f.encounter.feints.retain(|m| m.ready || m.attempts > 0);
}

/// Why `target` is off guard against the attack `a` by `attacker`, in words (none: it is
/// not): flanked by an ally, caught by a feint, or attacked unseen. One source for the attack
/// roll's term and for what the attack does to the feint marks.
pub fn off_guard_causes(
    d: &D20Data,
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
    a: &D20AttackDef,
    everyone: &[Fighter],
) -> Vec<String> {
    let mut why = Vec::new();
    if let Some(ally) = flanker(d, attacker, target, a, everyone) {
        why.push(format!("flanked with {}", ally.identity.name));
    }
    if feinted(attacker, target.id) {
        why.push("feinted".to_string());
    }
    why.extend(unseen(d, field, attacker, target));
    why
}

/// The panel while choosing whom to feint at: the rule in the second person, then each foe it
/// may feint at now with the exact chance of catching it and the two rolls.
pub fn panel(rules: &Rules, field: &Field, fighters: &[Fighter], me: &Fighter) -> Vec<String> {
    let Some((d, r)) = rules.d20().and_then(|d| Some((d, rule(d)?))) else {
        return Vec::new();
    };
    let bonus = d.combat.off_guard.as_ref().map_or(0, |o| o.bonus);
    let mut out = vec![format!(
        "Feint (a Standard action: no attack this round): your check against the foe's; caught, your next attack on it is off guard (+{bonus}). Each attempt at the same foe is {} harder, until an attack on it that is not off guard.",
        r.penalty
    )];
    for t in fighters {
        if check_feint(rules, field, fighters, me, t.id).is_err() {
            continue;
        }
        let Some((check, resist)) = specs(d, me, t) else {
            continue;
        };
        let terms = |s: &RollSpec| {
            let mut words = vec!["1d20".to_string()];
            words.extend(
                s.modifiers
                    .iter()
                    .map(|m| format!("{} {:+}", m.label, m.value)),
            );
            words.join(", ")
        };
        out.push(format!(
            "{}: caught {} ({} against {})",
            t.identity.name,
            crate::battle::aim::pct(chance(d, me, t)),
            terms(&check),
            terms(&resist)
        ));
    }
    out
}

/// An unseen attacker, in words, when `attacker` is one to `target`: beyond melee range, in
/// concealment of at least the rule's bonus ("undetectable or unseen attackers"; our reading,
/// as the text does not define them).
pub fn unseen(d: &D20Data, field: &Field, attacker: &Fighter, target: &Fighter) -> Option<String> {
    let at_least = d.combat.off_guard.as_ref()?.unseen_concealment?;
    if attacker.distance_to(target).unwrap_or(1) <= 1 {
        return None;
    }
    let t = field.terrain(attacker.position?)?;
    t.concealment_bonus
        .filter(|b| *b >= at_least)
        .map(|_| format!("unseen in {}", t.name))
}
