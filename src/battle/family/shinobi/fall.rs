//! Falls and pushes in the shinobi chapter: what a fall or a knockback does, as plain data
//! with its exact damage, kept free of the attack assembly that carries it.

use crate::battle::components::Square;
use crate::dice::{Dist, RollSpec, distribution};

/// A fall of `feet`: the Acrobatics roll and the damage it decides.
#[derive(Debug, Clone, PartialEq)]
pub struct Fall {
    pub feet: u32,
    /// Half the feet fallen: the damage of a failed roll.
    pub damage: i64,
    /// `None` for a fall too short to hurt.
    pub acrobatics: Option<RollSpec>,
    /// "An acrobatics DC 1/2 falling distance" negates the damage… (the lowest whole total
    /// that meets it: half the feet, rounded up)
    pub negate_dc: i64,
    /// "…a DC 1/4 the fall distance reduces the damage by half." (a quarter of the feet,
    /// rounded up: DC 7.5 for 30 ft is met by a total of 8)
    pub halve_dc: i64,
}

/// Falling damage for an Acrobatics total.
pub(super) fn fall_damage(f: &Fall, total: i64) -> i64 {
    if total >= f.negate_dc {
        0
    } else if total >= f.halve_dc {
        f.damage / 2
    } else {
        f.damage
    }
}

/// The exact distribution of a fall's damage.
pub fn fall_dist(f: &Fall) -> Dist {
    match &f.acrobatics {
        Some(spec) => distribution(spec).map(|t| fall_damage(f, t)),
        None => Dist::point(0),
    }
}

/// What a hit that pushes does to a target besides its damage: where it ends, the slam if an
/// obstruction stops it, the fall if it ends on a drop.
#[derive(Debug, Clone, PartialEq)]
pub struct Knockback {
    pub to: Square,
    pub slam: Option<(i64, String)>,
    pub fall: Option<Fall>,
}

impl Knockback {
    /// The damage it adds, exactly.
    pub fn dist(&self) -> Dist {
        let slam = Dist::point(self.slam.as_ref().map_or(0, |s| s.0));
        match &self.fall {
            Some(f) => slam.convolve(&fall_dist(f)),
            None => slam,
        }
    }
}
