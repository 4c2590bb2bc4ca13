//! Shinobi cover and concealment (text 004:76-89): the miss chance of mist, sand, shadow and
//! blindness; partial cover struck 60 % of the time, full cover struck by every attack, and
//! people standing in the way; the percentile rolls and the wear cover takes.

use std::collections::BTreeMap;

use super::blinded;
use crate::battle::components::{CombatantId, Square};
use crate::battle::context::{Absorb, cover_feature};
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::Fighter;
use crate::dice::{BaseDie, DiceSource, Dist, RollKind, RollSpec, roll};
use crate::grid::{Field, footprint};
use crate::ruleset::shinobi::{AttackDef, ShinobiData};

/// The miss chance of `attacker`'s attack on `target`, and where it comes from: the higher of
/// the target's concealment and the attacker's blindness ("being attacked by a blinded enemy
/// … Blindness - 50%").
pub fn miss_chance(
    data: &ShinobiData,
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
) -> Option<(u32, String)> {
    let blind = (blinded(attacker) && data.combat.blindness > 0).then(|| {
        (
            data.combat.blindness,
            format!("{} is blinded", attacker.identity.name),
        )
    });
    match (concealment(field, target), blind) {
        (Some(c), Some(b)) => Some(if b.0 > c.0 { b } else { c }),
        (c, b) => c.or(b),
    }
}

/// The highest concealment on the target's squares: its miss chance and where it comes from.
pub fn concealment(field: &Field, target: &Fighter) -> Option<(u32, String)> {
    let at = target.position?;
    footprint(at, target.size.squares)
        .into_iter()
        .filter_map(|s| {
            let t = field.terrain(s)?;
            t.concealment
                .filter(|c| *c > 0)
                .map(|c| (c, t.name.clone()))
        })
        .max_by_key(|(c, _)| *c)
}

/// The cover between `attacker` and `target` that may absorb a single-target attack's damage.
/// With no clear line, the full cover beside the target that the line crosses, which every
/// hit strikes. Otherwise partial cover: an unbroken cover square next to the target that the
/// line crosses, or someone of `bystanders` standing on one ("A Person - Their HP (Always
/// Partial Cover)"); the one with the most left.
pub fn absorb_against(
    data: &ShinobiData,
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
    a: &AttackDef,
    bystanders: &[Fighter],
) -> Option<Absorb> {
    // An area is not aimed along a line from the attacker: no cover stands in its way. A
    // Genjutsu works on the mind: no obstruction takes it.
    if !matches!(a.targeting, crate::ruleset::Targeting::Single) || a.genjutsu {
        return None;
    }
    let (Some(a_at), Some(t_at)) = (attacker.position, target.position) else {
        return None;
    };
    let (a_size, t_size) = (attacker.size.squares, target.size.squares);
    if !crate::grid::los::clear_between(field, a_at, a_size, t_at, t_size) {
        return cover_feature(field, attacker, target, |s, _| field.full_cover_left(s)).map(
            |(at, ter, left)| Absorb {
                name: ter.name.clone(),
                at,
                left,
                chance: 100,
                person: None,
                full: true,
            },
        );
    }
    let chance = data.combat.partial_cover_chance;
    let ground = cover_feature(field, attacker, target, |s, t| {
        field.absorb_left(s).filter(|_| !t.blocks_sight)
    })
    .map(|(at, ter, left)| Absorb {
        name: ter.name.clone(),
        at,
        left,
        chance,
        person: None,
        full: false,
    });
    let body = person_in_the_way(field, attacker, target, bystanders, chance);
    match (ground, body) {
        (Some(g), Some(b)) => Some(if b.left > g.left { b } else { g }),
        (g, b) => g.or(b),
    }
}

/// Someone beside `target` whom the line from `attacker` crosses: partial cover with its HP
/// (the one with the most HP, when there are several).
fn person_in_the_way(
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
    bystanders: &[Fighter],
    chance: u32,
) -> Option<Absorb> {
    let standing = |s: Square| {
        bystanders.iter().find(|f| {
            f.id != attacker.id
                && f.id != target.id
                && !f.defeated()
                && f.position
                    .is_some_and(|p| footprint(p, f.size.squares).contains(&s))
        })
    };
    let (at, _, left) = cover_feature(field, attacker, target, |s, _| {
        standing(s).map(|f| f.life.current)
    })?;
    let who = standing(at)?;
    Some(Absorb {
        name: who.identity.name.clone(),
        at,
        left,
        chance,
        person: Some(who.id),
        full: false,
    })
}

/// The damage the target takes from one landed hit of `wound`, partial cover included: with
/// the cover's chance the obstruction takes what it has left and the rest goes through.
pub fn landed_damage(wound: &Dist, absorb: Option<&Absorb>) -> Dist {
    let Some(c) = absorb else {
        return wound.map(|w| w.max(0));
    };
    let through = wound.map(|w| (w - c.left).max(0));
    let p = f64::from(c.chance.min(100)) / 100.0;
    let mut out = Dist::empty();
    out.mix(&wound.map(|w| w.max(0)), 1.0 - p);
    out.mix(&through, p);
    out
}

/// A percentile roll (1d100), for miss chances and partial cover.
pub fn roll_percent(dice: &mut DiceSource, what: &str) -> i64 {
    let mut s = RollSpec::new(RollKind::Amount(what.into()));
    s.base = Some(BaseDie::plain(100));
    roll(&s, dice).total
}

/// Concealment after a hit: rolls the miss chance and logs it; true when the attack misses.
pub fn roll_concealment(
    dice: &mut DiceSource,
    target: CombatantId,
    chance: u32,
    source: &str,
    log: &mut EventLog,
) -> bool {
    let r = roll_percent(dice, "Concealment");
    let missed = r <= i64::from(chance);
    log.push(BattleEvent::MissChanceRolled {
        target,
        chance,
        source: source.into(),
        roll: r,
        missed,
    });
    missed
}

/// Cover on a landed hit of `damage`: rolls whether partial cover is hit (full cover always
/// is, with no roll); if it is, it absorbs what it has left (terrain wears down in `wear`,
/// broken at 0; a person's HP is the caller's to take) and the rest goes through. Returns the
/// damage the target takes.
pub fn absorb_hit(
    dice: &mut DiceSource,
    wear: &mut BTreeMap<Square, i64>,
    target: CombatantId,
    cover: &Absorb,
    damage: i64,
    log: &mut EventLog,
) -> i64 {
    let r = if cover.full {
        0
    } else {
        roll_percent(dice, "Partial cover")
    };
    let (absorbed, left) = if r <= i64::from(cover.chance) {
        let absorbed = damage.clamp(0, cover.left);
        if cover.person.is_none() {
            *wear.entry(cover.at).or_insert(0) += absorbed;
        }
        (absorbed, cover.left - absorbed)
    } else {
        (0, cover.left)
    };
    log.push(BattleEvent::CoverRolled {
        target,
        cover: cover.name.clone(),
        at: cover.at,
        chance: cover.chance,
        roll: r,
        absorbed,
        left,
        person: cover.person,
        full: cover.full,
    });
    damage - absorbed
}
