//! The Wound Roll and what each hit does: damage, Soak, pushes and the effects it carries.

use bevy::prelude::*;

use super::defend::parties;
use crate::battle::command::DefenseChoice;
use crate::battle::context::declaration;
use crate::battle::effects::{LifeCause, set_life};
use crate::battle::family::{self, DamagePhase};
use crate::battle::fighter::eval;
use crate::battle::state::*;

/// Damage: the family rolls what each hit does (the default pipeline: on-hit effects such as
/// Kiai's push, one Wound Roll for every target hit, the category and Soak of each target, Life
/// lost, then on-damage effects such as Sweeping's Defense Value reduction, Spiritual Assault's
/// Ki drain and an element's condition); then a technique's Backlash.
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
    let all = q.snapshots();
    let Some((attacker, targets)) = parties(&all, state) else {
        return;
    };
    let Ok(mut decl) = declaration(rules, attacker, &state.order, targets.len()) else {
        return;
    };
    decl.bystanders = &all;
    // A won Reflect needs the Wound Roll too: the attack comes back at its attacker.
    let any_hit = state.targets.iter().any(|t| {
        t.hit == Some(true) || (t.hit == Some(false) && t.defense == Some(DefenseChoice::Reflect))
    });
    // Shinobi cover worn down by this attack, written back to the map at the end.
    let mut wear = ground.0.wear.clone();
    if any_hit {
        let field = ground.field(rules);
        let mut p = DamagePhase {
            rules,
            order: &order_res,
            field: &field,
            attacker,
            targets: &targets,
            all: &all,
            decl: &decl,
            worn_before: &ground.0.wear,
            wear: &mut wear,
            res: Resolve {
                dice: &mut dice.0,
                q: &mut q,
                log: &mut log,
            },
        };
        family::of(rules).roll_damage(&mut p, state);
    }
    if wear != ground.0.wear {
        ground.0.wear = wear;
        leave_broken_cover(rules, &mut ground.0, attacker.id, &mut log);
    }
    if let Some(backlash) = decl.technique.and_then(|t| t.backlash.as_ref()) {
        let amount = eval(backlash, &attacker.vars()).max(0);
        if let Some(mut f) = q.one_mut(attacker.id)
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

/// Cover worn to nothing that `breaks_into` other ground becomes it, its wear forgotten: a
/// broken steel door "no longer grants any bonus", and its rubble neither blocks sight nor
/// stops a step. Logged as a change of ground by the one who broke it.
fn leave_broken_cover(
    rules: &crate::ruleset::Rules,
    map: &mut crate::grid::Map,
    who: crate::battle::components::CombatantId,
    log: &mut crate::battle::event::EventLog,
) {
    let broken: Vec<(crate::grid::Square, u16, u16)> = map
        .wear
        .iter()
        .filter_map(|(s, worn)| {
            let from = map.at(*s)?;
            let t = rules.terrain.types.get(usize::from(from))?;
            let into = rules.terrain_index(t.breaks_into.as_deref()?)?;
            (*worn >= t.absorb?).then_some((*s, from, into))
        })
        .collect();
    for (s, from, into) in broken {
        map.set(s, into);
        map.wear.remove(&s);
        log.push(crate::battle::event::BattleEvent::GroundChanged {
            who,
            at: s,
            from: rules.terrain.types[usize::from(from)].name.clone(),
            to: rules.terrain.types[usize::from(into)].name.clone(),
        });
    }
}
