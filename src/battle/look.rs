//! How an attack looks on the board (a lunge, a shot, a beam, a cone, an explosion, a burst
//! around the attacker), worked out from the profile the battle log names, so the window
//! animates what the rules resolved and never guesses from a profile's name.

use crate::ruleset::{AreaOrigin, AreaShape, Category, Reach, Rules, Targeting};

/// The animation an attack's delivery calls for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackLook {
    /// The attacker steps into its target and back: a melee attack.
    Lunge,
    /// A bolt flies from the attacker to each target: a ranged single-target attack.
    Projectile,
    /// A straight band from the attacker: a Line area, or a ranged attack at one target that
    /// deals Direct Damage (DBU's Beam).
    Beam,
    /// A fan of rays from the attacker (a Cone area: Blast).
    Cone,
    /// A ball of light swells where the attack lands (a Sphere around a chosen square).
    Explosion,
    /// A ring swells around the attacker (Sweeping, or a Sphere around itself).
    Burst,
}

/// What an attack carries, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackTint {
    /// Fists, blades, arrows and bullets.
    Physical,
    /// Ki, chakra and other energy.
    Energy,
    /// A spell (the attack type is magical).
    Magical,
}

/// An attack's look and colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackStyle {
    pub look: AttackLook,
    pub tint: AttackTint,
    /// How far the area reaches in squares (a band's or cone's length, a sphere's radius; 1
    /// for a sweep of the attacker's reach), 0 for a single target.
    pub squares: u32,
}

/// The look of the profile named `profile` in the log (`AttackDeclared`'s `profile` is the
/// profile's name); `None` for a name the rules do not have (a replay from other data).
pub fn attack_style(rules: &Rules, profile: &str) -> Option<AttackStyle> {
    let p = rules
        .attacks
        .profiles
        .iter()
        .find(|p| p.name == profile || p.id == profile)?;
    let kind = rules.attack_type(&p.attack_type)?;
    let (look, squares) = match p.targeting {
        Targeting::Single if kind.reach == Reach::Melee => (AttackLook::Lunge, 0),
        // A ranged attack dealing Direct Damage (DBU's Beam, Elemental) is a sustained band.
        Targeting::Single if p.category == Category::Direct => (AttackLook::Beam, 0),
        Targeting::Single => (AttackLook::Projectile, 0),
        Targeting::Area { shape, origin, .. } => match (shape, origin) {
            (AreaShape::Line { length, .. }, _) => (AttackLook::Beam, length),
            (AreaShape::Cone { length, .. }, _) => (AttackLook::Cone, length),
            (AreaShape::Sphere { radius }, AreaOrigin::ChosenSquare) => {
                (AttackLook::Explosion, radius)
            }
            (AreaShape::Sphere { radius }, AreaOrigin::Attacker) => (AttackLook::Burst, radius),
            (AreaShape::Reach, _) => (AttackLook::Burst, 1),
        },
    };
    let energy = ["energy", "ki", "chakra", "ninjutsu", "jutsu"]
        .iter()
        .any(|w| kind.id.eq_ignore_ascii_case(w) || kind.name.eq_ignore_ascii_case(w));
    let tint = if kind.magical {
        AttackTint::Magical
    } else if energy {
        AttackTint::Energy
    } else {
        AttackTint::Physical
    };
    Some(AttackStyle {
        look,
        tint,
        squares,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::rules_root;

    fn rules(id: &str) -> Rules {
        Rules::load(&rules_root().join(id)).expect("shipped rules load")
    }

    fn style(ruleset: &str, profile: &str) -> AttackStyle {
        let rules = rules(ruleset);
        attack_style(&rules, profile).unwrap_or_else(|| panic!("{ruleset} has {profile}"))
    }

    #[test]
    fn dbu_profiles_look_as_their_targeting_says() {
        assert_eq!(style("dbu", "simple").look, AttackLook::Lunge);
        assert_eq!(style("dbu", "beam").look, AttackLook::Beam);
        assert_eq!(style("dbu", "beam").squares, 0);
        assert_eq!(style("dbu", "soaring").look, AttackLook::Lunge);
        assert_eq!(style("dbu", "blast").look, AttackLook::Cone);
        assert_eq!(style("dbu", "explosion").look, AttackLook::Explosion);
        assert_eq!(style("dbu", "explosion").squares, 3);
        assert_eq!(style("dbu", "sweeping").look, AttackLook::Burst);
        assert_eq!(style("dbu", "spell").tint, AttackTint::Magical);
        assert_eq!(style("dbu", "simple").tint, AttackTint::Physical);
        assert_eq!(style("dbu", "Sphere").look, AttackLook::Projectile);
        assert_eq!(style("dbu", "Sphere").tint, AttackTint::Energy);
    }

    #[test]
    fn unknown_profile_has_no_look() {
        assert_eq!(attack_style(&rules("dbu"), "no such attack"), None);
    }
}
