//! A declared attack resolved against the ruleset: the profile, technique, element, wager and
//! called shot an order uses, checked, with what it costs in Ki and how far it reaches.

use super::*;

/// A declared attack, resolved against the ruleset: what is used and how hard.
#[derive(Debug, Clone, Copy)]
pub struct Declaration<'a> {
    pub profile: &'a ProfileDef,
    pub attack_type: &'a AttackTypeDef,
    pub technique: Option<&'a TechniqueDef>,
    pub element: Option<&'a ElementDef>,
    pub wager: i64,
    /// How many targets the attack has (Blast's single-target bonus).
    pub target_count: usize,
    /// Shinobi: a sneak attack whose contest is still to be rolled (the preview mixes both
    /// outcomes).
    pub sneak: bool,
    /// Shinobi: targets whose sneak contest was won (their defenses take the penalty).
    pub sneak_won: &'a [CombatantId],
    /// Everyone on the battlefield, for what a hit does beyond its targets (a shinobi push is
    /// stopped by someone standing in the way). Empty: only the targets are known.
    pub bystanders: &'a [Fighter],
    /// The square an area order is aimed at (a d20 grenade's DC counts the distance to it).
    pub aimed_at: Option<crate::grid::Square>,
    /// Assembled for a computer player or a defense policy, which weigh only the numbers: the
    /// rolls' terms get no words (see [`crate::dice::RollSpec::numbers_only`]).
    pub numbers_only: bool,
    /// Energy Charges the attacker holds for this very attack (the Energy Charge maneuver).
    pub held_charges: u32,
    /// DBU: the Called Shot this attack is, with the body part it names.
    pub called_shot: Option<(&'a CalledShotRules, &'a CalledShotTarget)>,
    /// DBU: the ally joining with a United Attack (its terms come from `bystanders`).
    pub united: Option<crate::battle::command::United>,
    /// d20: the Power Attack the order declares (the family works out what is in effect).
    pub power_attack: i64,
    /// d20: an aimed shot at the armour's gaps or through the cover.
    pub aimed: crate::battle::command::AimedShot,
}

impl Declaration<'_> {
    /// True when the profile has this special rule.
    pub fn has(&self, f: impl Fn(&ProfileEffect) -> bool) -> bool {
        self.profile.effects.iter().any(f)
    }

    /// Energy Charges on the attack: those that come with the profile (Beam) and those the
    /// attacker held for it.
    pub fn charges(&self) -> u32 {
        self.free_charges() + self.held_charges
    }

    /// Free Energy Charges that come with the profile (Beam).
    pub fn free_charges(&self) -> u32 {
        self.profile
            .effects
            .iter()
            .map(|e| match e {
                ProfileEffect::FreeEnergyCharges { count } => *count,
                _ => 0,
            })
            .sum()
    }

    /// The Critical Target changes (Strike, Wound) of the profile.
    pub(super) fn critical_changes(&self) -> (i64, i64) {
        self.profile
            .effects
            .iter()
            .fold((0, 0), |(s, w), e| match e {
                ProfileEffect::CriticalTarget { strike, wound } => (s + strike, w + wound),
                _ => (s, w),
            })
    }
}

/// Ki Point cost of a declared attack for this attacker (profile cost plus technique extra),
/// not counting the wager.
pub fn ki_cost(attacker: &Fighter, decl: &Declaration) -> i64 {
    let vars = attacker.vars();
    let extra = decl.technique.map_or(0, |t| eval(&t.extra_cost, &vars));
    let called = decl
        .called_shot
        .map_or(0, |(cs, _)| eval(&cs.ki_cost, &vars));
    (eval(&decl.profile.cost, &vars) + extra).max(0) + called.max(0)
}

/// How far a declared attack reaches for this attacker, in squares (`None`: any distance).
pub fn reach(attacker: &Fighter, decl: &Declaration) -> Option<u32> {
    match decl.attack_type.reach {
        Reach::Any => None,
        Reach::Within(n) => Some(n),
        Reach::Melee => {
            let extra: u32 = decl
                .profile
                .effects
                .iter()
                .map(|e| match e {
                    ProfileEffect::ExtraReach { squares } => *squares,
                    _ => 0,
                })
                .sum();
            Some(attacker.size.melee_range + extra)
        }
    }
}

/// The profile and technique an order uses.
pub fn used_profile<'r>(
    rules: &'r Rules,
    attacker: &'r Fighter,
    order: &AttackOrder,
) -> Result<(&'r crate::ruleset::ProfileDef, Option<&'r TechniqueDef>), RuleError> {
    let technique = match &order.technique {
        Some(id) => Some(
            attacker
                .loadout
                .techniques
                .iter()
                .find(|t| &t.id == id)
                .ok_or_else(|| RuleError::UnknownTechnique {
                    who: attacker.id,
                    technique: id.clone(),
                })?,
        ),
        None => None,
    };
    let profile_id = technique.map_or(order.profile.as_str(), |t| t.profile.as_str());
    if technique.is_none() && !attacker.loadout.profiles.iter().any(|p| p == profile_id) {
        return Err(RuleError::UnknownProfile {
            who: attacker.id,
            profile: profile_id.to_string(),
        });
    }
    let profile = rules
        .profile(profile_id)
        .ok_or_else(|| RuleError::UnknownProfile {
            who: attacker.id,
            profile: profile_id.to_string(),
        })?;
    Ok((profile, technique))
}

/// Resolves an order into a [`Declaration`] for `target_count` targets, checking the profile,
/// technique, element and wager rules (not actions, Ki or targets).
pub fn declaration<'r>(
    rules: &'r Rules,
    attacker: &'r Fighter,
    order: &AttackOrder,
    target_count: usize,
) -> Result<Declaration<'r>, RuleError> {
    let (profile, technique) = used_profile(rules, attacker, order)?;
    let attack_type =
        rules
            .attack_type(&profile.attack_type)
            .ok_or_else(|| RuleError::UnknownProfile {
                who: attacker.id,
                profile: profile.id.clone(),
            })?;
    let wants_element = profile
        .effects
        .iter()
        .any(|e| matches!(e, ProfileEffect::ElementChoice));
    let element = match (&order.element, wants_element) {
        (Some(id), true) if attacker.loadout.elements.contains(id) => {
            Some(rules.element(id).ok_or_else(|| RuleError::BadElement {
                who: attacker.id,
                element: id.clone(),
            })?)
        }
        (Some(id), _) => {
            return Err(RuleError::BadElement {
                who: attacker.id,
                element: id.clone(),
            });
        }
        (None, true) => {
            return Err(RuleError::ElementNeeded {
                profile: profile.name.clone(),
                options: attacker.loadout.elements.join(", "),
            });
        }
        (None, false) => None,
    };
    if order.wager < 0 {
        return Err(RuleError::NegativeWager);
    }
    if order.power_attack != 0 && rules.d20().is_none() {
        return Err(RuleError::NotInRuleset {
            what: "Power Attack",
            ruleset: rules.manifest.id.clone(),
        });
    }
    if !order.aimed.is_plain() && rules.d20().is_none() {
        return Err(RuleError::NotInRuleset {
            what: "an aimed shot at armour's gaps or through cover",
            ruleset: rules.manifest.id.clone(),
        });
    }
    if order.wager > 0 && !attack_type.wager {
        return Err(RuleError::NoWager {
            kind: attack_type.name.clone(),
        });
    }
    let called_shot = match &order.called_shot {
        None => None,
        Some(part) => Some(called_shot_at(rules, profile, part)?),
    };
    Ok(Declaration {
        profile,
        attack_type,
        technique,
        element,
        wager: order.wager,
        target_count,
        sneak: order.sneak,
        sneak_won: &[],
        bystanders: &[],
        aimed_at: order.target.square(),
        numbers_only: false,
        held_charges: attacker
            .encounter
            .charge
            .as_ref()
            .filter(|c| c.feeds(&order.profile, order.technique.as_deref()))
            .map_or(0, |c| c.charges),
        called_shot,
        united: order.united,
        power_attack: order.power_attack,
        aimed: order.aimed,
    })
}

/// The Called Shot rules and the body part `part` names, refusing a ruleset without the
/// modifier, an unknown part and an attack at more than one target ("name a body part").
fn called_shot_at<'r>(
    rules: &'r Rules,
    profile: &ProfileDef,
    part: &str,
) -> Result<(&'r CalledShotRules, &'r CalledShotTarget), RuleError> {
    let Some(cs) = &rules.attacks.called_shot else {
        return Err(RuleError::NotInRuleset {
            what: "a Called Shot",
            ruleset: rules.manifest.id.clone(),
        });
    };
    if !matches!(profile.targeting, Targeting::Single) {
        return Err(RuleError::CalledShotArea {
            profile: profile.name.clone(),
        });
    }
    let target =
        cs.targets
            .iter()
            .find(|t| t.id == part)
            .ok_or_else(|| RuleError::NoSuchBodyPart {
                part: part.to_string(),
                options: cs
                    .targets
                    .iter()
                    .map(|t| t.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
    Ok((cs, target))
}
