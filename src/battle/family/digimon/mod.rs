//! The Digimon family's combat (the Digimon RPG's combat chapter): exploding 3d6 Accuracy
//! against exploding 3d6 Dodge with the attacker winning ties, [Melee]/[Ranged]/[Area]
//! penalties, the stacking Dodge penalty, damage dice minus Armor (at least 1), attack effects
//! with potency, duration and stacking, Temporary HP, Tamers with derived stats and death
//! saves, and Digimon falling back to their Default Stage at 0 HP.
//!
//! The family plays on the ninja chapter's engine path (action points, one Dodge defense,
//! the attacker winning ties); [`assemble`] builds the attack context once, and both the
//! preview ([`target_odds`]) and the resolution (`attack.rs`, which calls [`hit_damage`] and
//! [`apply_effect`]) read it, so the odds shown are the odds rolled.

pub mod aim;
pub mod digivolve;
mod effects;
pub mod flight;
pub mod grapple;
pub mod height;
mod hits;
pub mod hold;
mod hooks;
pub mod intercede;
pub mod odds_text;
mod rolls;
pub mod sheet;
pub mod throw;

pub use effects::{
    apply_effect, begin_turn, duration, fall, interrupt_left, knockback_squares, own_side,
    poison_damage, potency, refresh_round, regeneration, release_charms, spend_direct, stack,
    through_temp_hp, tick_effects,
};
pub use hits::{HitScene, effect_worth, end_attack, resolve_hits};
pub use rolls::{
    assemble, attack_of, attacks_now, base_stat, check_attack, defense_spec, effect_mods, form,
    has, helps, hit_chance, hit_damage, initiative_spec, is_tamer, items_left, melee_reach,
    movement, reach, stage, stat, strike_spec, target_odds, wound_spec,
};

use crate::battle::fighter::Fighter;
use crate::dice::{DiceGroup, RollKind, RollSpec};
use crate::ruleset::digimon::DigimonData;

/// The suffix of a Bolstered attack's id (see [`crate::ruleset::digimon::BOLSTERED`]).
pub use crate::ruleset::digimon::BOLSTERED;

/// The check dice: 3d6, every 6 rolling another ("Critical Success Dice").
pub(crate) fn check(d: &DigimonData, kind: RollKind) -> RollSpec {
    let c = &d.combat;
    let mut s = RollSpec::new(kind);
    let g = DiceGroup {
        count: c.check_dice,
        sides: c.die,
    };
    let label = if c.exploding {
        format!("{}s explode", c.die)
    } else {
        "the check".to_string()
    };
    if c.exploding {
        s.add_exploding_dice(label, g);
    } else {
        s.add_dice(label, g);
    }
    s
}

/// Adds a stat and each effect on it to a roll.
pub(crate) fn add_stat(d: &DigimonData, f: &Fighter, id: &str, name: &str, s: &mut RollSpec) {
    s.add(name, base_stat(d, f, id));
    for (label, v) in effect_mods(d, f, id) {
        s.add(label, v);
    }
}

/// Digimon: each Tamer acts with the first Digimon of its side whose roster id is its
/// `partner` and that has no Tamer yet ("Tamers and their partner Digimon act on the same
/// turn").
pub fn link_partners(d: &DigimonData, out: &mut [Fighter]) {
    for i in 0..out.len() {
        let Some(want) = d
            .tamer(&out[i].identity.archetype)
            .and_then(|t| t.partner.clone())
        else {
            continue;
        };
        let side = out[i].side;
        let found = out.iter().position(|o| {
            o.side == side
                && o.identity.archetype == want
                && o.digi
                    .as_ref()
                    .is_some_and(|s| !s.tamer && s.partner.is_none())
        });
        if let Some(j) = found {
            let (ti, di) = (out[i].id, out[j].id);
            if let Some(s) = out[i].digi.as_mut() {
                s.partner = Some(di);
            }
            if let Some(s) = out[j].digi.as_mut() {
                s.partner = Some(ti);
            }
        }
    }
}
