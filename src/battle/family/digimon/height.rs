//! Heights on the field (Digimon): who is up in the air, and whether a [Melee] attack or a
//! Clash can reach between two units at their heights. A leaf of the family's modules (it
//! reads only the fighter), so the rolls, moves and pushes can all ask it.

use crate::battle::fighter::Fighter;

/// How many squares up `f` flies now (0 on the ground).
pub fn airborne(f: &Fighter) -> u32 {
    f.digi.as_ref().map_or(0, |s| s.airborne)
}

/// True when a [Melee] attack or a Clash of `attacker` can reach `target`: both in the air or
/// both on the ground.
pub fn melee_meets(attacker: &Fighter, target: &Fighter) -> bool {
    (airborne(attacker) > 0) == (airborne(target) > 0)
}

/// Why a [Melee] attack of `attacker` cannot reach `target` for the height between them.
pub fn melee_refusal(attacker: &Fighter, target: &Fighter) -> Option<String> {
    match (airborne(attacker) > 0, airborne(target) > 0) {
        (false, true) => Some(format!(
            "{} is in the air: {} needs to fly to close in on it (003:65)",
            target.identity.name, attacker.identity.name
        )),
        (true, false) => Some(format!(
            "{} is in the air and {} on the ground: land first",
            attacker.identity.name, target.identity.name
        )),
        _ => None,
    }
}
