//! A Digimon ruleset lowered onto the engine's shared tables and the action-point tables it is
//! played on: Tamers' stats and initiative, Bolstered attacks, loadouts and Clash actions.

use std::collections::BTreeMap;

use super::{
    ACC, AGI, ARM, BIT, BODY, CHA, CPU, DMG, DODGE, DigiAttackDef, DigimonRoster, DigimonRules,
    EffectKind, MOVE, ModifierRule, RAM, Tag, TamerDef,
};
use crate::dice::Formula;
use crate::ruleset::neutral;
use crate::ruleset::schema::*;
use crate::ruleset::shinobi::{
    self, AttackDef, DefenseDef, DefenseKind, FallingRules, NinjaDef, ShinobiPools, ShinobiRoster,
    ShinobiRules, SneakRules, StatDef, StatKind, TieWinner,
};

/// A Tamer attribute's modifier.
pub fn modifier(rule: &ModifierRule, value: i64) -> i64 {
    (value - rule.base).div_euclid(rule.divisor.max(1))
}

/// A Tamer's combat stats, as "Tamers in Combat" derives them: HP (Constitution + Endurance,
/// at least 2), Accuracy (Dex Mod + Fight), Damage (Str Mod + Fight / 3), Dodge (Dex Mod +
/// Dodge), Armor (Con Mod + Endurance, at least 0), Movement (Dexterity + Survival).
pub fn tamer_stats(rules: &DigimonRules, t: &TamerDef) -> (BTreeMap<String, i64>, i64, i64) {
    let a = |k: &str| t.attributes.get(k).copied().unwrap_or(0);
    let s = |k: &str| t.skills.get(k).copied().unwrap_or(0);
    let m = |k: &str| modifier(&rules.attribute_modifier, a(k));
    let mut stats = BTreeMap::new();
    stats.insert(ACC.into(), m("DEX") + s("FIGHT"));
    stats.insert(DMG.into(), m("STR") + s("FIGHT").div_euclid(3));
    stats.insert(DODGE.into(), m("DEX") + s("DODGE"));
    stats.insert(ARM.into(), (m("CON") + s("ENDURANCE")).max(0));
    // Body and Agility for Clash-free play and ties: the Tamer's Constitution and Dexterity
    // modifiers (our default; the chapter gives Tamers no Body or Agility).
    stats.insert(BODY.into(), m("CON"));
    stats.insert(AGI.into(), m("DEX"));
    for k in [BIT, CPU, RAM] {
        stats.insert(k.into(), 0);
    }
    // Direct adds "the Tamer's Charisma Attribute score" (003 §How Does Combat Work?): the
    // score, not a modifier.
    stats.insert(CHA.into(), a("CHA"));
    let hp = (a("CON") + s("ENDURANCE")).max(2);
    let movement = a("DEX") + s("SURVIVAL");
    (stats, hp, movement)
}

/// A Tamer's initiative when it has no partner: "their Dexterity mod + Fight score" (added to
/// the 3d6 every initiative rolls; our reading).
pub fn tamer_initiative(rules: &DigimonRules, t: &TamerDef) -> i64 {
    modifier(
        &rules.attribute_modifier,
        t.attributes.get("DEX").copied().unwrap_or(0),
    ) + t.skills.get("FIGHT").copied().unwrap_or(0)
}

/// The id suffix of an attack's Bolstered use: the same attack as a Complex Action with +2 to
/// its effect's potency ("Bolster … turn a Simple Action type into a Complex Action type in
/// order to add +2 to the potency"). Every Simple attack whose effect has a number gets one.
pub const BOLSTERED: &str = "+bolstered";

/// True when `a` can be Bolstered: a Simple Action whose effect has a number to add to.
pub fn can_bolster(rules: &DigimonRules, a: &DigiAttackDef) -> bool {
    let Some(k) = a.effect else {
        return false;
    };
    !a.complex
        && !matches!(k, EffectKind::Haste | EffectKind::Stun | EffectKind::Charm)
        && rules.effects.iter().any(|e| e.kind == k && e.times > 0)
}

/// The attacks a combatant with `attacks` can choose from: each, and its Bolstered use.
pub fn with_bolstered(rules: &DigimonRules, attacks: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for id in attacks {
        out.push(id.clone());
        if rules
            .attacks
            .iter()
            .any(|a| &a.id == id && can_bolster(rules, a))
        {
            out.push(format!("{id}{BOLSTERED}"));
        }
    }
    out
}

/// Everything a combatant with `attacks` can choose from: each attack and its Bolstered use,
/// then the Clash actions, which every Digimon and Tamer has.
pub fn loadout(rules: &DigimonRules, attacks: &[String]) -> Vec<String> {
    let mut out = with_bolstered(rules, attacks);
    for id in clash_actions(rules) {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// The ids of the Clash actions, which every Digimon and Tamer has.
pub fn clash_actions(rules: &DigimonRules) -> impl Iterator<Item = String> + '_ {
    rules
        .attacks
        .iter()
        .filter(|a| a.clash.is_some())
        .map(|a| a.id.clone())
}

/// The attribute a lowered combatant's initiative bonus is kept in.
pub const INIT: &str = "INIT";

/// Writes the Digimon data as the engine's action-point path reads it (see the module docs).
pub fn lower(rules: &DigimonRules, roster: &DigimonRoster) -> neutral::Lowered {
    let (s, r) = as_shinobi(rules, roster);
    let mut low = shinobi::lower(&s, &r);
    for a in low.roster.archetypes.iter_mut() {
        let mv = roster
            .digimon
            .iter()
            .find(|d| d.id == a.id)
            .map(|d| d.movement)
            .or_else(|| {
                roster
                    .tamers
                    .iter()
                    .find(|t| t.id == a.id)
                    .map(|t| tamer_stats(rules, t).2)
            })
            .unwrap_or(0);
        a.attributes.insert(MOVE.into(), mv.max(0));
    }
    // "A stacking -1 penalty to their Dodge for every Attack past the first."
    for t in low.dice.tiers.iter_mut() {
        t.diminishing_defense = rules.dodge_penalty_per_attack;
    }
    low.actions.conversion = false;
    low
}

/// The Digimon data in the shape of the ninja chapter's (see [`lower`]).
pub fn as_shinobi(rules: &DigimonRules, roster: &DigimonRoster) -> (ShinobiRules, ShinobiRoster) {
    let mut stats: Vec<StatDef> = rules.stats_defs();
    stats.push(StatDef {
        id: INIT.into(),
        name: "Initiative bonus".into(),
        kind: StatKind::Skill,
    });
    let twins = rules
        .attacks
        .iter()
        .filter(|a| can_bolster(rules, a))
        .map(|a| DigiAttackDef {
            id: format!("{}{BOLSTERED}", a.id),
            name: format!("Bolstered {}", a.name),
            description: format!(
                "{} Bolstered: a Complex Action, +{} to the effect's potency.",
                a.description, rules.bolster
            ),
            complex: true,
            ..a.clone()
        });
    let all: Vec<DigiAttackDef> = rules.attacks.iter().cloned().chain(twins).collect();
    let attacks = all
        .iter()
        .map(|a| AttackDef {
            id: a.id.clone(),
            name: a.name.clone(),
            description: a.description.clone(),
            reach: match a.tag {
                Tag::Melee => Reach::Melee,
                _ => Reach::Any,
            },
            ap: if a.complex { rules.simple_actions } else { 1 },
            chakra: 0,
            hit: vec![ACC.into()],
            damage: Vec::new(),
            damage_bonus: 0,
            weapon: false,
            undodgeable: false,
            unblockable: false,
            push: 0,
            genjutsu: false,
            sneak_with: None,
            targeting: a.targeting,
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
        stats,
        action_points: rules.simple_actions,
        move_cost: 1,
        opportunity_cost: 1,
        speed_stat: AGI.into(),
        speed_table: Vec::new(),
        feet_per_square: 1,
        initiative: Formula::parse(INIT).unwrap_or_else(|_| Formula::constant(0)),
        initiative_tie_stat: AGI.into(),
        defenses: vec![DefenseDef {
            kind: DefenseKind::Dodge,
            name: "Dodge".into(),
            terms: vec![DODGE.into()],
        }],
        undefendable_penalty: 0,
        deflect_chakra: neutral::nothing(),
        deflect_low_chakra_penalty: 0,
        sneak: SneakRules {
            attacker_skill: AGI.into(),
            defender_skill: AGI.into(),
            ways: Vec::new(),
            ties: TieWinner::Attacker,
            penalty: 0,
        },
        partial_cover_chance: 0,
        falling: FallingRules {
            min_feet: u32::MAX,
            skill: AGI.into(),
        },
        attacks,
        counters: Vec::new(),
    };
    let mut ninja: Vec<NinjaDef> = roster
        .digimon
        .iter()
        .map(|d| {
            let mut stats = d.stats.clone();
            stats.entry(CHA.into()).or_insert(0);
            let agi = stats.get(AGI).copied().unwrap_or(0);
            stats.insert(INIT.into(), agi);
            NinjaDef {
                id: d.id.clone(),
                name: d.name.clone(),
                description: d.description.clone(),
                role: d.role.clone(),
                glyph: d.glyph.clone(),
                stats,
                hp: d.hp,
                chakra: 0,
                weapon: None,
                attacks: loadout(rules, &d.attacks),
                counters: Vec::new(),
            }
        })
        .collect();
    ninja.extend(roster.tamers.iter().map(|t| {
        let (mut stats, hp, _) = tamer_stats(rules, t);
        stats.insert(INIT.into(), tamer_initiative(rules, t));
        NinjaDef {
            id: t.id.clone(),
            name: t.name.clone(),
            description: t.description.clone(),
            role: t.role.clone(),
            glyph: t.glyph.clone(),
            stats,
            hp,
            chakra: 0,
            weapon: None,
            attacks: loadout(rules, &t.attacks),
            counters: Vec::new(),
        }
    }));
    (combat, ShinobiRoster { ninja })
}

impl DigimonRules {
    /// The combat stats as named stats of the lowered tables.
    fn stats_defs(&self) -> Vec<StatDef> {
        [
            (ACC, "Accuracy"),
            (DMG, "Damage"),
            (DODGE, "Dodge"),
            (ARM, "Armor"),
            (BODY, "Body"),
            (AGI, "Agility"),
            (BIT, "BIT value"),
            (CPU, "CPU value"),
            (RAM, "RAM value"),
            (CHA, "Charisma"),
        ]
        .into_iter()
        .map(|(id, name)| StatDef {
            id: id.into(),
            name: name.into(),
            kind: StatKind::Ability,
        })
        .collect()
    }
}
