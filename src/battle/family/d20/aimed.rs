//! d20 aimed shots: the target's armour treated as cover (its bonus against the hit, its DR
//! ignored) and the cover between treated as concealment (half its bonus, its DR to get
//! through), the refusals of either, and the variants a computer player weighs.

use crate::battle::command::{AimedShot, AttackOrder, AttackTarget, RuleError};
use crate::battle::context::{TargetContext, cover_feature};
use crate::battle::fighter::Fighter;
use crate::grid::{Field, footprint};
use crate::ruleset::d20::D20Data;

/// What protects a target from one attack: the highest cover or concealment bonus (with its
/// label), the DR of cover shot through, and the armour an aimed shot gets past.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Protection {
    /// "Only the highest of all Cover or Concealment bonus is applied."
    pub bonus: Option<(String, i64)>,
    /// The cover a hit must first get through, treated as concealment, and why.
    pub cover_dr: Option<(i64, String)>,
    /// The armour an aimed shot at its gaps ignores.
    pub armour_ignored: Option<String>,
}

/// The best concealment where `target` stands (smoke, foliage).
fn concealment(field: &Field, target: &Fighter) -> Option<(String, i64)> {
    let at = target.position?;
    footprint(at, target.size.squares)
        .into_iter()
        .filter_map(|sq| {
            let t = field.terrain(sq)?;
            t.concealment_bonus
                .map(|b| (format!("concealment: {} +{b}", t.name), b))
        })
        .max_by_key(|(_, b)| *b)
}

/// The armour `target` wears and the cover bonus it gives an aimed shot at its gaps, if it
/// has gaps to aim at.
pub fn armour_as_cover(d: &D20Data, target: &Fighter) -> Option<(String, i64)> {
    let c = d.character(&target.identity.archetype)?;
    let a = d.armour(c.armour.as_deref()?)?;
    Some((a.name.clone(), a.as_cover?))
}

/// What protects `target` from `attacker` with `aimed`: the cover beside it that the line
/// crosses (halved as concealment when shot through, with its DR to get through), the
/// concealment it stands in, and its armour as cover when the shot is aimed at the gaps; the
/// highest bonus counts.
pub fn protection(
    d: &D20Data,
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
    aimed: AimedShot,
) -> Protection {
    let mut p = Protection::default();
    let consider = |label: String, bonus: i64, p: &mut Protection| {
        if p.bonus.as_ref().is_none_or(|(_, b)| bonus > *b) {
            p.bonus = Some((label, bonus));
        }
    };
    if let Some((_, t, b)) = cover_feature(field, attacker, target, |_, t| t.cover_bonus) {
        match t.cover_dr.filter(|_| aimed.through_cover) {
            Some(dr) => {
                let half = b / 2;
                consider(
                    format!(
                        "cover shot through as concealment: {} +{half} (half of +{b})",
                        t.name
                    ),
                    half,
                    &mut p,
                );
                p.cover_dr = Some((dr, format!("{} DR {dr}", t.name)));
            }
            None => consider(format!("cover: {} +{b}", t.name), b, &mut p),
        }
    }
    if let Some((label, b)) = concealment(field, target) {
        consider(label, b, &mut p);
    }
    if aimed.armour_gaps
        && let Some((name, b)) = armour_as_cover(d, target)
    {
        consider(
            format!("aimed at the gaps: {name} as cover +{b}"),
            b,
            &mut p,
        );
        p.armour_ignored = Some(name);
    }
    p
}

/// Refuses an aimed shot the text does not allow: with a full round's swings or a grenade
/// ("This only can be used with aimed shots. Explosives … cannot ignore armor this way"), at
/// the gaps of armour that has none, or through cover that is not there or has no DR.
pub fn check_aimed(
    d: &D20Data,
    field: &Field,
    attacker: &Fighter,
    order: &AttackOrder,
    targets: &[&Fighter],
) -> Result<(), RuleError> {
    if order.aimed.is_plain() {
        return Ok(());
    }
    let Some(a) = d.attack(&order.profile) else {
        return Ok(());
    };
    // A blow or a shot; a grenade is an explosive.
    let single = d
        .weapon(&a.weapon)
        .is_some_and(|w| w.class != crate::ruleset::d20::WeaponClass::Grenade);
    if a.full_round || a.rapid_shot || !single {
        return Err(RuleError::AimedShotNeedsSingleAttack {
            attack: a.name.clone(),
        });
    }
    for t in targets {
        if order.aimed.armour_gaps && armour_as_cover(d, t).is_none() {
            return Err(RuleError::NoArmourGaps { target: t.id });
        }
        if order.aimed.through_cover
            && protection(d, field, attacker, t, order.aimed)
                .cover_dr
                .is_none()
        {
            return Err(RuleError::NoCoverToShootThrough {
                attacker: attacker.id,
                target: t.id,
            });
        }
    }
    Ok(())
}

/// The aimed shots `order` could also be made as (each one allowed now): at the gaps of the
/// target's armour, through the cover between, and both. A computer player weighs each with
/// the same odds as any attack.
pub fn variants(
    d: &D20Data,
    field: &Field,
    attacker: &Fighter,
    fighters: &[Fighter],
    order: &AttackOrder,
) -> Vec<AttackOrder> {
    let AttackTarget::Combatant(id) = order.target else {
        return Vec::new();
    };
    let Some(target) = fighters.iter().find(|f| f.id == id) else {
        return Vec::new();
    };
    [(true, false), (false, true), (true, true)]
        .into_iter()
        .map(|(armour_gaps, through_cover)| AttackOrder {
            aimed: AimedShot {
                armour_gaps,
                through_cover,
            },
            ..order.clone()
        })
        .filter(|o| check_aimed(d, field, attacker, o, &[target]).is_ok())
        .collect()
}

/// What an aimed shot changes on a hit on one target, in words for the aim panel and the
/// command line: the cover's DR to get through first, the armour ignored.
pub fn hit_notes(t: &TargetContext) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some((_, why)) = &t.damage_less {
        notes.push(format!(
            "shot through the cover: a hit gets through {why} first"
        ));
    }
    if let Some(a) = &t.armour_ignored {
        notes.push(format!(
            "aimed at the gaps: {a} stops nothing and does not wear"
        ));
    }
    notes
}

/// The aimed shots a player picks from, in the order a key cycles them: (id, name, shot).
pub const CHOICES: [(&str, &str, AimedShot); 3] = [
    (
        "armour_gaps",
        "at the armour's gaps",
        AimedShot {
            armour_gaps: true,
            through_cover: false,
        },
    ),
    (
        "through_cover",
        "through the cover",
        AimedShot {
            armour_gaps: false,
            through_cover: true,
        },
    ),
    (
        "both",
        "at the armour's gaps, through the cover",
        AimedShot {
            armour_gaps: true,
            through_cover: true,
        },
    ),
];

/// The aimed shot a choice's id names; an ordinary attack for none or another id.
pub fn chosen(id: Option<&str>) -> AimedShot {
    CHOICES
        .iter()
        .find(|(i, _, _)| Some(*i) == id)
        .map_or_else(AimedShot::default, |c| c.2)
}
