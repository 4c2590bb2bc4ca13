//! Who is held in a Digimon Clash (the grapple), and what that forbids or lowers: the state the
//! rolls, the attack check and movement read, kept apart from the Clash's own actions.

use crate::battle::command::RuleError;
use crate::battle::components::ClashHold;
use crate::battle::fighter::Fighter;
use crate::ruleset::digimon::{ClashMove, DigiAttackDef, Tag};

/// The Clash `f` is in.
pub fn hold(f: &Fighter) -> Option<&ClashHold> {
    f.digi.as_ref().and_then(|s| s.clash.as_ref())
}

/// True when `f` is in a Clash it does not control: it may not act.
pub fn held(f: &Fighter) -> bool {
    hold(f).is_some_and(|h| !h.control)
}

/// The damage `attacker`'s hit on `target` loses because `target` is in a Clash that
/// `attacker` is not part of, and why.
pub fn outside_penalty(attacker: &Fighter, target: &Fighter) -> Option<(i64, String)> {
    let h = hold(target)?;
    if h.opponent == attacker.id || attacker.id == target.id {
        return None;
    }
    Some((
        h.shield,
        format!(
            "Clash: -{} damage from outside (both participants' BIT)",
            h.shield
        ),
    ))
}

/// Why a hit by `attacker` on `target` deals half damage, if it does: `attacker` controls a
/// Clash at a range with `target` and its Reach (`reach`) is shorter ("If the opponent does not
/// also have the Reach Quality, they may make Attacks and Actions if they Control the Clash,
/// but they only deal half of the normal Damage").
pub fn halved(attacker: &Fighter, target: &Fighter, reach: u32) -> Option<String> {
    let h = hold(attacker)?;
    let away = attacker.distance_to(target)?;
    (h.opponent == target.id && h.control && away > 1 && reach < away)
        .then(|| format!("half: a Clash at a range ({away} squares) and no Reach to match it"))
}

/// The refusals of the Clash: only someone free starts one, on someone free; only the
/// controller ends, pins or throws, and only its opponent; in a Clash the controller's only
/// attack is a [Melee] Attack on its opponent, and the one held does nothing.
pub fn check_attack(
    attacker: &Fighter,
    a: &DigiAttackDef,
    targets: &[&Fighter],
) -> Result<(), RuleError> {
    let mine = hold(attacker);
    let rule = |s: String| Err(RuleError::DigimonRule(s));
    if let Some(h) = mine
        && !h.control
    {
        return rule(format!(
            "{} is held in a Clash it does not control: it may not act",
            attacker.identity.name
        ));
    }
    match (a.clash, mine) {
        (Some(ClashMove::Start), Some(_)) => {
            rule(format!("{} is in a Clash already", attacker.identity.name))
        }
        (Some(ClashMove::Start), None) => match targets.iter().find(|t| hold(t).is_some()) {
            Some(t) => rule(format!("{} is in a Clash already", t.identity.name)),
            None => Ok(()),
        },
        (Some(m), None) => rule(format!(
            "{m:?} is a Clash action: {} controls no Clash",
            attacker.identity.name
        )),
        (_, Some(h)) => {
            if let Some(t) = targets.iter().find(|t| t.id != h.opponent) {
                return rule(format!(
                    "in a Clash, {} acts only on its opponent, not {}",
                    attacker.identity.name, t.identity.name
                ));
            }
            if a.clash.is_none() && a.tag != Tag::Melee {
                return rule(format!(
                    "in a Clash the controller's attack is a [Melee] Attack on its opponent; {} is not [Melee]",
                    a.name
                ));
            }
            Ok(())
        }
        (None, None) => Ok(()),
    }
}

/// Why a hit on `target` needs no Dodge roll because of a Clash, if it does.
pub fn no_dodge(a: &DigiAttackDef, target: &Fighter) -> Option<&'static str> {
    if a.clash.is_some() {
        Some("a Clash action: no Accuracy or Dodge roll")
    } else if hold(target).is_some() {
        Some("in a Clash: it cannot Dodge")
    } else {
        None
    }
}
