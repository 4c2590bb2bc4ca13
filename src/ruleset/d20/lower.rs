//! A d20 ruleset lowered onto the engine's shared tables and the action-point tables it is
//! played on: hit points, move, blasts and reach.

use std::collections::BTreeMap;

use super::{BlastDef, D20Roster, D20Rules, WeaponClass, WeaponDef};
use crate::ruleset::neutral;
use crate::ruleset::schema::*;
use crate::ruleset::shinobi::{
    self, AttackDef, FallingRules, NinjaDef, ShinobiPools, ShinobiRoster, ShinobiRules, SneakRules,
    TieWinner,
};

/// The attribute holding a character's maximum HP in the lowered tables.
pub const HP: &str = shinobi::HP;

/// The attribute holding the squares one Move action covers.
pub const MOVE: &str = shinobi::MOVE;

/// The (unused) second pool's attribute.
pub(super) const NONE_POOL: &str = shinobi::CHAKRA;

/// Squares one Move action covers: base + (terms) / divisor yards, over the square size.
pub fn move_squares(rules: &D20Rules, stats: &BTreeMap<String, i64>) -> u32 {
    let sum: i64 = rules
        .speed
        .terms
        .iter()
        .map(|t| stats.get(t).copied().unwrap_or(0))
        .sum();
    let yards = rules.speed.base + sum / rules.speed.divisor.max(1);
    u32::try_from(yards.max(0) / i64::from(rules.yards_per_square.max(1))).unwrap_or(0)
}

/// A blast's radius in whole squares from the corner it is centred on (0: the square alone).
pub fn blast_squares(rules: &D20Rules, b: &BlastDef) -> u32 {
    b.radius / rules.yards_per_square.max(1)
}

/// How far an attack with `w` reaches, in squares.
pub fn reach_of(rules: &D20Rules, w: &WeaponDef) -> Reach {
    match (w.class, w.range_increment) {
        (WeaponClass::Missile, Some(inc)) => {
            Reach::Within(inc.saturating_mul(rules.missile_increments))
        }
        // A throw's own limit (the thrower's increments) is checked per thrower; this is the
        // difficulty table's last row.
        (WeaponClass::Grenade, Some(inc)) => {
            Reach::Within(inc.saturating_mul(rules.range_dcs.last().map_or(1, |r| r.0)))
        }
        _ => Reach::Melee,
    }
}

/// Writes the d20 data as the engine's d20 path reads it (see the module docs): a d20 attack
/// per attack (its weapon's ability and skill to hit, a full round costing every action), a
/// ninja per character with its weapon, Dodge and parry as the two defenses, no chakra, sneak,
/// counters or falls. Speed comes from the d20 speed rule.
pub fn lower(rules: &D20Rules, roster: &D20Roster) -> neutral::Lowered {
    let (s, r) = as_shinobi(rules, roster);
    let mut low = shinobi::lower(&s, &r);
    for a in low.roster.archetypes.iter_mut() {
        if let Some(c) = roster.characters.iter().find(|c| c.id == a.id) {
            a.attributes
                .insert(MOVE.into(), i64::from(move_squares(rules, &c.stats)));
        }
    }
    low.dice.critical_target = rules.die;
    // "Each round a character may take one Attack of Opportunity": the Counter Action.
    low.actions.counter_actions = 1;
    low.actions.conversion = false;
    low
}

/// The d20 data in the shape of the ninja chapter's (see [`lower`]).
pub fn as_shinobi(rules: &D20Rules, roster: &D20Roster) -> (ShinobiRules, ShinobiRoster) {
    let first = rules
        .stats
        .first()
        .map(|s| s.id.clone())
        .unwrap_or_default();
    let attacks = rules
        .attacks
        .iter()
        .filter_map(|a| {
            let w = rules.weapons.iter().find(|w| w.id == a.weapon)?;
            Some(AttackDef {
                id: a.id.clone(),
                name: a.name.clone(),
                description: a.description.clone(),
                reach: reach_of(rules, w),
                ap: if a.full_round {
                    rules.actions_per_round
                } else {
                    1
                },
                chakra: 0,
                hit: vec![w.ability.clone(), w.skill.clone()],
                damage: Vec::new(),
                damage_bonus: w.effect,
                weapon: true,
                undodgeable: false,
                unblockable: false,
                push: 0,
                genjutsu: false,
                sneak_with: None,
                targeting: match w.blast {
                    // Every square any corner's blast could cover: the template a player aims.
                    Some(b) if w.class == WeaponClass::Grenade => Targeting::Area {
                        shape: AreaShape::Sphere {
                            radius: blast_squares(rules, &b),
                        },
                        origin: AreaOrigin::ChosenSquare,
                        affects: Affects::AllButAttacker,
                    },
                    _ => Targeting::Single,
                },
            })
        })
        .collect();
    let combat = ShinobiRules {
        build: rules.build.clone(),
        weapons: Vec::new(),
        gen_resist: Vec::new(),
        blindness: 0,
        ally_healing: false,
        pool_names: ShinobiPools {
            life: rules.pool_name.clone(),
            chakra: String::new(),
        },
        die: rules.die,
        ties: TieWinner::Attacker,
        stats: rules.stats.clone(),
        action_points: rules.actions_per_round,
        move_cost: 1,
        opportunity_cost: 1,
        speed_stat: first.clone(),
        speed_table: Vec::new(),
        feet_per_square: 1,
        initiative: rules.initiative.clone(),
        initiative_tie_stat: rules.initiative_tie_stat.clone(),
        defenses: rules.defenses.clone(),
        undefendable_penalty: 0,
        deflect_chakra: neutral::nothing(),
        deflect_low_chakra_penalty: 0,
        sneak: SneakRules {
            attacker_skill: first.clone(),
            defender_skill: first.clone(),
            ways: Vec::new(),
            ties: TieWinner::Attacker,
            penalty: 0,
        },
        partial_cover_chance: 0,
        falling: FallingRules {
            min_feet: u32::MAX,
            skill: first,
        },
        attacks,
        counters: Vec::new(),
    };
    let ninja = roster
        .characters
        .iter()
        .map(|c| NinjaDef {
            id: c.id.clone(),
            name: c.name.clone(),
            description: c.description.clone(),
            role: c.role.clone(),
            glyph: c.glyph.clone(),
            stats: c.stats.clone(),
            hp: c.hp,
            chakra: 0,
            weapon: Some(c.weapon.clone()),
            attacks: c
                .attacks
                .iter()
                .cloned()
                .chain(
                    rules
                        .attacks
                        .iter()
                        .filter(|a| a.throw_back)
                        .map(|a| a.id.clone()),
                )
                .collect(),
            counters: Vec::new(),
        })
        .collect();
    (combat, ShinobiRoster { ninja })
}
