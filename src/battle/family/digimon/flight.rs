//! Flying (Digimon): "Move (Simple Action): The Digimon or Tamer may move a number of Squares
//! equal to a chosen Movement Score (Movement, Fly, Swim, etc), terrain allowing" (003:35); "A
//! Digimon still needs the proper method of movement in order to move closer to an enemy in
//! the air" (003:65); "If the opponent is airbone and is Pinned, both parties fall to the
//! ground immediately, and the Pinned Digimon takes damage equal to the number of squares
//! fallen, reduced by their Bit Value" (003:171).
//!
//! A Digimon with a Fly score (`fly` in `roster.ron`) takes to the air or lands as a Move (a
//! Simple Action, one of the round's moves), flying the ruleset's `flight.height` squares up.
//! In the air its Moves cover its Fly score, over water, swamps and rubble as open ground (not
//! through walls, trees or boulders, which stand taller); [Melee] attacks and Clashes reach
//! only between two flyers in the air or two units on the ground (ours: the text asks for "the
//! proper method of movement" to close in on a flyer; a flyer swooping on a grounded foe is
//! not in the text, so it lands first).

pub use super::height::{airborne, melee_meets, melee_refusal};

use bevy::prelude::*;

use crate::battle::command::{Command, RuleError};
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::family::shinobi::spend_ap;
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::snapshot::Fighters;
use crate::battle::state::take;
use crate::battle::state::{Battleground, PendingCommand, Progress, RulesRes};
use crate::grid::{Field, footprint};
use crate::ruleset::digimon::{BIT, DigimonData, EffectKind};
use crate::ruleset::{Rules, TerrainDef};

/// The Fly score of the Digimon `f` is now (0 for a Tamer or a Digimon without wings).
pub fn fly_score(d: &DigimonData, f: &Fighter) -> u32 {
    if super::is_tamer(f) {
        return 0;
    }
    super::form(d, f).map_or(0, |x| x.fly)
}

/// The squares one Move covers in the air: the Fly score with Movement's effects (Vigor adds,
/// Blind takes off), none while Paralysed.
pub fn fly_movement(d: &DigimonData, f: &Fighter) -> u32 {
    if super::has(f, EffectKind::Paralysis) {
        return 0;
    }
    let mods: i64 = super::effect_mods(d, f, crate::ruleset::digimon::MOVE)
        .iter()
        .map(|m| m.1)
        .sum();
    u32::try_from((i64::from(fly_score(d, f)) + mods).max(0)).unwrap_or(0)
}

/// The ground as a flyer sees it: what does not block sight (water, a swamp, rubble) is open
/// ground at 1 a square, with no drop to fall down; walls, trees and boulders still stop it.
pub fn air_terrain(terrain: &[TerrainDef]) -> Vec<TerrainDef> {
    terrain
        .iter()
        .map(|t| {
            let mut t = t.clone();
            if !t.blocks_sight {
                t.move_cost = Some(1);
                t.difficult = None;
                t.drop = None;
                t.swimming = None;
            }
            t
        })
        .collect()
}

/// The battlefield as `me` moves over it: the flyer's ground while it is in the air, `None` on
/// the ground (the caller's field stands).
pub fn air_field<'a>(field: &Field<'a>, terrain: &'a [TerrainDef]) -> Field<'a> {
    Field {
        map: field.map,
        terrain,
        corners: field.corners,
    }
}

/// True when `attacker` could close in on `victim` for a [Melee] attack, flying or landing
/// first if it must: false only for a victim in the air and an attacker with no Fly score.
pub fn can_close_in(rules: &Rules, attacker: &Fighter, victim: &Fighter) -> bool {
    if airborne(victim) == 0 {
        return true;
    }
    rules.digimon().is_some_and(|d| fly_score(d, attacker) > 0)
}

/// The rule that refuses `me` taking to the air (`up`) or landing now, or the height it would
/// fly at. The turn, the unit being out of the fight and a held Clash are the caller's.
pub fn check_fly(rules: &Rules, field: &Field, me: &Fighter, up: bool) -> Result<u32, RuleError> {
    let what = if up { "take to the air" } else { "land" };
    let (Some(d), Some(rule)) = (
        rules.digimon(),
        rules.digimon().and_then(|d| d.combat.flight),
    ) else {
        return Err(RuleError::NotInRuleset {
            what: "flying",
            ruleset: rules.manifest.id.clone(),
        });
    };
    let refuse = |why: String| RuleError::CannotFly {
        who: me.id,
        what,
        why,
    };
    if fly_score(d, me) == 0 {
        return Err(refuse(format!("{} has no Fly score", me.identity.name)));
    }
    match (up, airborne(me)) {
        (true, h) if h > 0 => return Err(refuse(format!("it is already {h} squares up"))),
        (false, 0) => return Err(refuse("it is on the ground".into())),
        _ => {}
    }
    if fly_movement(d, me) == 0 {
        return Err(refuse("it cannot move now (Paralysed)".into()));
    }
    if me.digi.as_ref().is_some_and(|s| s.clash.is_some()) {
        return Err(refuse(
            "it is in a Clash and must stay in contact with its opponent".into(),
        ));
    }
    if let Some(at) = me.position
        && !up
        && let Some(sq) = footprint(at, me.size.squares)
            .iter()
            .find(|s| field.cost(*s).is_none())
    {
        let ground = field.terrain(sq).map_or("off the map", |t| t.name.as_str());
        return Err(refuse(format!(
            "it is above {ground}, which cannot be stood on"
        )));
    }
    if me.round.moves >= rules.actions.moves_per_round {
        return Err(RuleError::MoveLimit {
            limit: rules.actions.moves_per_round,
        });
    }
    if me.actions.usable() == 0 {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Simple Action",
        });
    }
    Ok(if up { rule.height } else { 0 })
}

/// The Fly command: a Move (a Simple Action, one of the round's moves) up to the ruleset's
/// height or down to the ground.
pub fn apply_fly(
    rules: Res<RulesRes>,
    ground: Res<Battleground>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<crate::battle::event::EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some((who, up)) = take(&mut pending, |c| match c {
        Command::Fly { who, up } => Some((*who, *up)),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let rules = &rules.0;
    let Some(d) = rules.digimon() else {
        return;
    };
    let field = ground.field(rules);
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    let snap = f.snapshot();
    let Ok(height) = check_fly(rules, &field, &snap, up) else {
        return;
    };
    spend_ap(
        &mut f,
        1,
        if up { "Taking to the air" } else { "Landing" },
        &mut log,
    );
    f.round.moves += 1;
    if let Some(s) = f.digi.as_mut() {
        s.airborne = height;
    }
    let name = &snap.identity.name;
    log.push(BattleEvent::Flew {
        who,
        height,
        text: if up {
            format!(
                "{name} takes to the air, {height} squares up: it moves by its Fly score ({}) over water and rough ground, and only a flyer can reach it in melee.",
                fly_score(d, &snap)
            )
        } else {
            format!("{name} lands.")
        },
    });
}

/// A Pinned flyer and its controller "fall to the ground immediately": the Pinned one takes a
/// damage of the squares fallen less its BIT (none below 0), the controller none. True when the
/// Pinned one stays in the fight.
pub fn pin_fall(
    (rules, d): (&Rules, &DigimonData),
    q: &mut Fighters,
    controller: &Fighter,
    pinned: &Fighter,
    dice: &mut crate::dice::DiceSource,
    log: &mut EventLog,
) -> bool {
    let height = airborne(pinned);
    if height == 0 {
        return true;
    }
    if let Some(mut c) = q.one_mut(controller.id)
        && let Some(s) = c.digi.as_mut()
    {
        s.airborne = 0;
    }
    let Some(mut f) = q.one_mut(pinned.id) else {
        return true;
    };
    let pinned: &mut FighterQueryItem = &mut f;
    if let Some(s) = pinned.digi.as_mut() {
        s.airborne = 0;
    }
    let snap = pinned.snapshot();
    let bit = super::stat(d, &snap, BIT).max(0);
    let damage = (i64::from(height) - bit).max(0);
    log.push(BattleEvent::Flew {
        who: snap.id,
        height: 0,
        text: format!(
            "{} is Pinned in the air: both fall {height} squares to the ground; {} takes {height} - BIT {bit} = {damage} damage, {} none.",
            snap.identity.name,
            snap.identity.name,
            controller.identity.name
        ),
    });
    if damage == 0 {
        return true;
    }
    let to_hp = super::through_temp_hp(pinned, damage);
    let raw = pinned.life.current - to_hp;
    crate::battle::effects::set_life(
        rules,
        pinned,
        crate::battle::event::Pool::Hp,
        raw,
        crate::battle::effects::LifeCause::Damage {
            by: Some(controller.id),
            attack: true,
        },
        "the fall from a Pin",
        log,
    );
    raw > 0 || super::fall(d, pinned, raw, dice, log)
}
