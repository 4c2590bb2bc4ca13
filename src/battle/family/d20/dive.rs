//! d20 "Dive for cover": the one answer to a shot from beyond melee range. The diver rolls a
//! Dodge check against the shot, lands prone on a square it can jump to, and pays with its
//! next Move action; lying prone makes later shots at it harder until it moves. On its own
//! turn it may dive ahead of the shots, a Move action then, keeping the Dodge check for the
//! first shot at it before its next turn.

use crate::battle::command::RuleError;
use crate::battle::components::CombatantId;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::TargetOdds;
use crate::grid::path::{diagonal_open, step_cost};
use crate::grid::{Field, Square, chebyshev};
use crate::ruleset::Rules;
use crate::ruleset::d20::D20Data;

/// True when `target` may dive now: the ruleset has the action, and the Move action its last
/// dive took has been spent ("You get a dodge check against the first missile attack
/// against you": one dive for each Move action given up).
pub fn can_dive(d: &D20Data, target: &Fighter) -> bool {
    d.combat.dive_for_cover.is_some()
        && d.combat.prone.is_some()
        && !target.encounter.dive_owed
        && !target.defeated()
        && target.position.is_some()
}

/// What lying prone adds to a shot's DC at `target` (0 standing), after a dive or a Drop
/// prone.
pub fn prone_bonus(d: &D20Data, target: &Fighter) -> i64 {
    match &d.combat.prone {
        Some(rule) if target.encounter.prone => rule.shots,
        _ => 0,
    }
}

/// Where a dive lands: of the free squares within the rule's reach (the diver's own
/// included), the one with the most cover or concealment against the shooters, added up ("if
/// you choose a spot that grants standard cover"); ties keep the nearest, then the first in
/// reading order. A diagonal one-square dive cannot cut a corner closed by two walls.
pub fn landing(
    d: &D20Data,
    field: &Field,
    fighters: &[Fighter],
    diver: &Fighter,
    shooters: &[&Fighter],
) -> Option<Square> {
    let rule = d.combat.dive_for_cover.as_ref()?;
    let from = diver.position?;
    let reach = i32::try_from(rule.squares).unwrap_or(0);
    let mut best: Option<(i64, u32, Square)> = None;
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let to = Square {
                x: from.x + dx,
                y: from.y + dy,
            };
            if to != from {
                let diagonal = dx != 0 && dy != 0;
                if step_cost(field, to, diver.size.squares).is_none()
                    || !crate::battle::fighter::can_end_on(fighters, diver, to)
                    || (diagonal && chebyshev(from, to) == 1 && !diagonal_open(field, from, to))
                {
                    continue;
                }
            }
            let mut there = diver.clone();
            there.position = Some(to);
            let bonus: i64 = shooters
                .iter()
                .map(|s| {
                    super::aimed::protection(d, field, s, &there, Default::default())
                        .bonus
                        .map_or(0, |c| c.1)
                })
                .sum();
            let far = chebyshev(from, to);
            if best.is_none_or(|(b, f, _)| bonus > b || (bonus == b && far < f)) {
                best = Some((bonus, far, to));
            }
        }
    }
    best.map(|b| b.2)
}

/// The dive itself, after its Dodge check: the diver lands prone and owes its next Move
/// action. A shot here never comes on the diver's own turn (attacks of opportunity are
/// melee), so "you don't have any remaining actions this turn" always holds and the next
/// turn pays.
pub fn dive(
    d: &D20Data,
    field: &Field,
    fighters: &[Fighter],
    f: &mut FighterQueryItem,
    shooter: &Fighter,
    log: &mut EventLog,
) {
    let Some(rule) = &d.combat.prone else {
        return;
    };
    let me = f.snapshot();
    // Dived on its own turn already: this is the Dodge check that dive gave it.
    if me.encounter.dive_ready {
        f.encounter.dive_ready = false;
        log.push(BattleEvent::Dive {
            who: *f.id,
            text: format!(
                "{} makes the Dodge check its Dive for cover on its turn gave it against the first shot",
                me.identity.name
            ),
        });
        return;
    }
    let (Some(from), Some(to)) = (me.position, landing(d, field, fighters, &me, &[shooter])) else {
        return;
    };
    f.position.0 = Some(to);
    f.encounter.prone = true;
    f.encounter.dive_owed = true;
    let mut there = me.clone();
    there.position = Some(to);
    let cover = super::aimed::protection(d, field, shooter, &there, Default::default())
        .bonus
        .map_or(String::new(), |(label, _)| format!(" and {label}"));
    let place = if to == from {
        "where it stands".to_string()
    } else {
        format!("at ({}, {})", to.x, to.y)
    };
    log.push(BattleEvent::Dive {
        who: *f.id,
        text: format!(
            "{} dives for cover and lands prone {place}: shots at it +{} (prone){cover}, its Dodge or parry against melee -{}, until it moves; its next turn starts by spending a Move action on the dive",
            me.identity.name, rule.shots, rule.melee
        ),
    });
}

/// Why `me` cannot Dive for cover on its own turn now: the ruleset has no dive, it is out of
/// the fight, it has no action left for "a move action", or it has dived already and its
/// Dodge check is still to come.
pub fn check_dive_now(rules: &Rules, me: &Fighter) -> Result<(), RuleError> {
    let Some(d) = rules
        .d20()
        .filter(|d| d.combat.dive_for_cover.is_some() && d.combat.prone.is_some())
    else {
        return Err(RuleError::NotInRuleset {
            what: "Dive for cover",
            ruleset: rules.manifest.id.clone(),
        });
    };
    check_dive_in(d, me)
}

/// [`check_dive_now`] within a d20 ruleset that has the dive.
pub fn check_dive_in(d: &D20Data, me: &Fighter) -> Result<(), RuleError> {
    let refuse = |why: &str| RuleError::CannotDive {
        who: me.id,
        why: why.to_string(),
    };
    if !can_dive(d, me) {
        return Err(refuse(
            "it is out of the fight, or owes the Move action of a dive already",
        ));
    }
    if me.encounter.dive_ready {
        return Err(refuse(
            "it has dived already, and the Dodge check against the first shot is still to come",
        ));
    }
    if me.actions.usable() == 0 {
        return Err(refuse(
            "\"This is a move action\", and it has no action left",
        ));
    }
    Ok(())
}

/// The start of a diver's turn: the Move action its dive took is spent before anything else
/// ("your character cannot take actions of any kind … until the move action has been spent").
pub fn pay_for_dive(f: &mut FighterQueryItem, log: &mut EventLog) {
    if !f.encounter.dive_owed {
        return;
    }
    f.encounter.dive_owed = false;
    crate::battle::family::shinobi::spend_ap(
        f,
        1,
        "the Move action taken by its Dive for cover",
        log,
    );
}

/// A prone combatant that moves gets up first ("until you move out of cover or stand up";
/// standing up is part of the move, our reading).
pub fn stand_up(who: CombatantId, name: &str, prone: &mut bool, log: &mut EventLog) {
    if !*prone {
        return;
    }
    *prone = false;
    log.push(BattleEvent::Dive {
        who,
        text: format!("{name} gets up from prone as it moves"),
    });
}

/// What diving gains the computer over taking the shot: the expected damage it saves (a
/// defeat avoided counts as the Hit Points it has left) less a seventh of its Hit Points,
/// since the dive costs it a Move action next turn. It dives when this is 0 or more.
pub fn worth_diving(take: &TargetOdds, dive: &TargetOdds, life: i64, max: i64) -> f64 {
    let saved = take.expected_damage - dive.expected_damage
        + (take.defeat_chance - dive.defeat_chance) * life.max(0) as f64;
    saved - (max as f64 / 7.0).max(1.0)
}
