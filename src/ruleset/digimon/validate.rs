//! A Digimon ruleset's own checks: every problem in `digimon.ron` and `roster.ron` with its file,
//! line and field, and the terrain rules it refuses.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::{
    CHA, COMBAT_STATS, ClashMove, DigimonRoster, DigimonRules, EffectKind, Lasting,
    TAMER_ATTRIBUTES, TAMER_SKILLS, Tag,
};
use crate::ruleset::RulesError;
use crate::ruleset::locate::FieldPath;
use crate::ruleset::neutral;
use crate::ruleset::neutral::MAX_NUMBER;
use crate::ruleset::schema::*;

/// Every problem in a Digimon ruleset's own files, with file, line and field.
pub fn validate(
    rules: &DigimonRules,
    roster: &DigimonRoster,
    src: &(PathBuf, String),
    roster_src: &(PathBuf, String),
) -> Vec<RulesError> {
    let mut errors = Vec::new();
    let root = FieldPath::root();
    let mut at = |s: &(PathBuf, String), path: FieldPath, msg: String| {
        errors.push(RulesError::at(&s.0, &s.1, &path, msg));
    };
    if !(1..=10).contains(&rules.check_dice) {
        at(
            src,
            root.field("check_dice"),
            "a check rolls 1 to 10 dice".into(),
        );
    }
    if !(2..=100).contains(&rules.die) {
        at(src, root.field("die"), "a die has 2 to 100 sides".into());
    }
    if !(1..=10).contains(&rules.simple_actions) {
        at(
            src,
            root.field("simple_actions"),
            "a turn has 1 to 10 Simple Actions".into(),
        );
    }
    let small = 0..=MAX_NUMBER;
    for (name, v) in [
        ("dodge_penalty_per_attack", rules.dodge_penalty_per_attack),
        ("bolster", rules.bolster),
        ("min_duration", rules.min_duration),
        ("ranged.penalty", rules.ranged.penalty),
        ("ranged.adjacent_base", rules.ranged.adjacent_base),
        ("area.per_target", rules.area.per_target),
        ("area.ally_penalty", rules.area.ally_penalty),
        ("death_save.fail_at", rules.death_save.fail_at),
    ] {
        if !small.contains(&v) {
            let mut p = root.clone();
            for part in name.split('.') {
                p = p.field(part);
            }
            at(src, p, format!("must be 0 to {MAX_NUMBER}"));
        }
    }
    for (name, v) in [
        ("duration_divisor", rules.duration_divisor),
        ("death_save", rules.death_save.per_points),
        ("attribute_modifier", rules.attribute_modifier.divisor),
    ] {
        if !(1..=MAX_NUMBER).contains(&v) {
            at(
                src,
                root.field(name),
                format!("a divisor is 1 to {MAX_NUMBER}"),
            );
        }
    }
    if rules.ranged.per_squares == 0 {
        at(
            src,
            root.field("ranged").field("per_squares"),
            "the long-range penalty needs a step of at least 1 square".into(),
        );
    }
    let mut seen = BTreeSet::new();
    for (i, s) in rules.stages.iter().enumerate() {
        if s.is_empty() || !seen.insert(s.clone()) {
            at(
                src,
                root.field("stages").index(i),
                format!("stage `{s}` is empty or listed twice"),
            );
        }
    }
    if !seen.contains(&rules.rookie_stage) {
        at(
            src,
            root.field("rookie_stage"),
            format!("`{}` is not one of `stages`", rules.rookie_stage),
        );
    }
    let mut kinds = BTreeSet::new();
    for (i, e) in rules.effects.iter().enumerate() {
        let p = root.field("effects").index(i);
        if !kinds.insert(e.kind) {
            at(
                src,
                p.field("kind"),
                format!("{:?} is defined twice", e.kind),
            );
        }
        if !COMBAT_STATS.contains(&e.stat.as_str()) {
            at(
                src,
                p.field("stat"),
                format!(
                    "unknown stat `{}` (one of {})",
                    e.stat,
                    COMBAT_STATS.join(", ")
                ),
            );
        }
        if !(0..=MAX_NUMBER).contains(&e.times)
            || e.complex_times
                .is_some_and(|t| !(0..=MAX_NUMBER).contains(&t))
        {
            at(src, p.field("times"), format!("must be 0 to {MAX_NUMBER}"));
        }
        if let Lasting::Times(n) = e.lasting
            && !(1..=10).contains(&n)
        {
            at(
                src,
                p.field("lasting"),
                "a duration multiplier is 1 to 10".into(),
            );
        }
    }
    for k in EffectKind::ALL {
        if !kinds.contains(&k) {
            at(
                src,
                root.field("effects"),
                format!("effect {k:?} is missing"),
            );
        }
    }
    let mut attack_ids = BTreeSet::new();
    for (i, a) in rules.attacks.iter().enumerate() {
        let p = root.field("attacks").index(i);
        if a.id.is_empty() || a.id.contains('+') || !attack_ids.insert(a.id.clone()) {
            at(
                src,
                p.field("id"),
                format!(
                    "attack `{}` is empty, has a `+` (kept for Bolstered uses) or is defined twice",
                    a.id
                ),
            );
        }
        match (a.tag, a.targeting) {
            (Tag::Area, Targeting::Single) => at(
                src,
                p.field("targeting"),
                "an [Area] attack needs an area".into(),
            ),
            (Tag::Melee | Tag::Ranged, Targeting::Area { .. }) => at(
                src,
                p.field("tag"),
                "an attack with an area is tagged Area".into(),
            ),
            _ => {}
        }
        if let Some(m) = a.clash {
            let wants_damage = m == ClashMove::Throw;
            if a.tag != Tag::Melee || a.effect.is_some() || a.damage != wants_damage {
                at(
                    src,
                    p.field("clash"),
                    format!(
                        "a Clash action is tagged Melee, carries no effect and {}",
                        if wants_damage {
                            "deals damage (Throw)"
                        } else {
                            "deals no damage"
                        }
                    ),
                );
            }
            continue;
        }
        if let Some(item) = a.item {
            if a.damage || a.effect.is_some() || !matches!(a.targeting, Targeting::Single) {
                at(
                    src,
                    p.field("item"),
                    "an item deals no damage, carries no effect and has a single target".into(),
                );
            }
            if item.uses == 0 || item.restore < 1 {
                at(
                    src,
                    p.field("item"),
                    "an item needs at least one use and restores at least 1 HP".into(),
                );
            }
            continue;
        }
        if !a.damage && a.effect.is_none() {
            at(
                src,
                p.field("effect"),
                "an attack without damage needs an effect".into(),
            );
        }
        if let Some(k) = a.effect {
            if k.positive() && a.damage && k != EffectKind::Lifesteal {
                at(
                    src,
                    p.field("effect"),
                    format!("{k:?} helps its target: a damaging attack cannot carry it"),
                );
            }
            if k == EffectKind::Lifesteal && !a.damage {
                at(
                    src,
                    p.field("effect"),
                    "Lifesteal heals from the damage dealt: the attack must deal damage".into(),
                );
            }
            if k.positive() && !matches!(a.targeting, Targeting::Single) {
                at(
                    src,
                    p.field("targeting"),
                    format!("{k:?} is given to one ally: it has no area"),
                );
            }
            if k == EffectKind::Haste && !a.complex {
                at(
                    src,
                    p.field("complex"),
                    "\"An Attack with the Haste Effect must be used as a Complex Action\"".into(),
                );
            }
        }
    }
    for m in ClashMove::ALL {
        let n = rules.attacks.iter().filter(|a| a.clash == Some(m)).count();
        if n != 1 {
            at(
                src,
                root.field("attacks"),
                format!(
                    "the Clash action {m:?} must be one attack (`clash: Some({m:?})`), not {n}"
                ),
            );
        }
    }
    for (k, v) in &rules.clash.sizes {
        if !small.contains(v) {
            at(
                src,
                root.field("clash").field("sizes").field(k),
                format!("a size's value is 0 to {MAX_NUMBER}"),
            );
        }
    }
    if !rules.clash.sizes.contains_key(&rules.clash.tamer_size) {
        at(
            src,
            root.field("clash").field("tamer_size"),
            format!(
                "unknown size `{}` (see `clash.sizes`)",
                rules.clash.tamer_size
            ),
        );
    }
    if !small.contains(&rules.clash.pin_bonus) {
        at(
            src,
            root.field("clash").field("pin_bonus"),
            format!("must be 0 to {MAX_NUMBER}"),
        );
    }
    if let Some(dv) = &rules.digivolve {
        if dv.actions == 0 || dv.actions > rules.simple_actions {
            at(
                src,
                root.field("digivolve").field("actions"),
                format!(
                    "must be 1 to {} (the Simple Actions of a turn)",
                    rules.simple_actions
                ),
            );
        }
        if dv.per_battle == 0 {
            at(
                src,
                root.field("digivolve").field("per_battle"),
                "must be at least 1 (leave `digivolve` out to play without it)".to_string(),
            );
        }
    }
    // The roster.
    let mut ids = BTreeSet::new();
    for (i, d) in roster.digimon.iter().enumerate() {
        let p = root.field("digimon").index(i);
        if d.id.is_empty() || !ids.insert(d.id.clone()) {
            at(
                roster_src,
                p.field("id"),
                format!("`{}` is empty or defined twice", d.id),
            );
        }
        if d.fly > 40 {
            at(
                roster_src,
                p.field("fly"),
                format!("a Fly score is 0 to 40 squares, not {}", d.fly),
            );
        }
        if d.reach > 20 {
            at(
                roster_src,
                p.field("reach"),
                format!("a Reach is 0 to 20 squares, not {}", d.reach),
            );
        }
        if !rules.clash.sizes.contains_key(&d.size) {
            at(
                roster_src,
                p.field("size"),
                format!(
                    "unknown size `{}` (see `clash.sizes` in digimon.ron)",
                    d.size
                ),
            );
        }
        if !rules.stages.contains(&d.stage) {
            at(
                roster_src,
                p.field("stage"),
                format!("unknown stage `{}` (see `stages` in digimon.ron)", d.stage),
            );
        }
        let stage_stat = format!("{} stat", d.stage);
        let stage_hp = format!("{} hp", d.stage);
        let stat_keys = [stage_stat.as_str(), "stat"];
        for k in COMBAT_STATS.iter().filter(|k| **k != CHA) {
            match d.stats.get(*k) {
                None => at(
                    roster_src,
                    p.field("stats"),
                    format!("stat `{k}` is missing"),
                ),
                Some(v) if !(0..=MAX_NUMBER).contains(v) => at(
                    roster_src,
                    p.field("stats").field(k),
                    format!("must be 0 to {MAX_NUMBER}"),
                ),
                Some(v) => {
                    if let Some(msg) = rules.build.refuse("digimon.ron", &stat_keys, k, *v) {
                        at(roster_src, p.field("stats").field(k), msg);
                    }
                }
            }
        }
        for k in d.stats.keys() {
            if !COMBAT_STATS.contains(&k.as_str()) || k == CHA {
                at(
                    roster_src,
                    p.field("stats").field(k),
                    format!("`{k}` is not a Digimon stat"),
                );
            }
        }
        if !(1..=MAX_NUMBER * 10).contains(&d.hp) {
            at(
                roster_src,
                p.field("hp"),
                format!("HP is 1 to {}", MAX_NUMBER * 10),
            );
        } else if let Some(msg) =
            rules
                .build
                .refuse("digimon.ron", &[stage_hp.as_str(), "hp"], "HP", d.hp)
        {
            at(roster_src, p.field("hp"), msg);
        }
        if !(0..=MAX_NUMBER).contains(&d.movement) {
            at(
                roster_src,
                p.field("movement"),
                format!("must be 0 to {MAX_NUMBER}"),
            );
        } else if let Some(msg) =
            rules
                .build
                .refuse("digimon.ron", &["movement"], "Movement", d.movement)
        {
            at(roster_src, p.field("movement"), msg);
        }
        check_attacks(rules, &d.attacks, roster_src, &p, &mut at);
    }
    for (i, d) in roster.digimon.iter().enumerate() {
        if let Some(ds) = &d.default_stage {
            let p = root.field("digimon").index(i).field("default_stage");
            match roster.digimon.iter().find(|x| &x.id == ds) {
                None => at(roster_src, p, format!("unknown Digimon `{ds}`")),
                Some(x) if x.default_stage.is_some() || x.id == d.id => at(
                    roster_src,
                    p,
                    format!("`{ds}` must be a Default Stage itself (no `default_stage`)"),
                ),
                _ => {}
            }
        }
    }
    for (i, t) in roster.tamers.iter().enumerate() {
        let p = root.field("tamers").index(i);
        if t.id.is_empty() || !ids.insert(t.id.clone()) {
            at(
                roster_src,
                p.field("id"),
                format!("`{}` is empty or defined twice", t.id),
            );
        }
        for (field, map, need) in [
            ("attributes", &t.attributes, &TAMER_ATTRIBUTES[..]),
            ("skills", &t.skills, &TAMER_SKILLS[..]),
        ] {
            for k in need {
                match map.get(*k) {
                    None => at(roster_src, p.field(field), format!("`{k}` is missing")),
                    Some(v) if !(0..=MAX_NUMBER).contains(v) => at(
                        roster_src,
                        p.field(field).field(k),
                        format!("must be 0 to {MAX_NUMBER}"),
                    ),
                    _ => {}
                }
            }
            for k in map.keys() {
                if !need.contains(&k.as_str()) {
                    at(
                        roster_src,
                        p.field(field).field(k),
                        format!("`{k}` is not one of {}", need.join(", ")),
                    );
                }
            }
        }
        if let Some(partner) = &t.partner
            && !roster.digimon.iter().any(|d| &d.id == partner)
        {
            at(
                roster_src,
                p.field("partner"),
                format!("unknown Digimon `{partner}`"),
            );
        }
        check_attacks(rules, &t.attacks, roster_src, &p, &mut at);
    }
    errors
}

/// Each attack a combatant lists must exist, once.
fn check_attacks(
    rules: &DigimonRules,
    attacks: &[String],
    src: &(PathBuf, String),
    p: &FieldPath,
    at: &mut impl FnMut(&(PathBuf, String), FieldPath, String),
) {
    let mut seen = BTreeSet::new();
    for (j, id) in attacks.iter().enumerate() {
        if !rules.attacks.iter().any(|a| &a.id == id) {
            at(
                src,
                p.field("attacks").index(j),
                format!("unknown attack `{id}` (see `attacks` in digimon.ron)"),
            );
        } else if !seen.insert(id.clone()) {
            at(
                src,
                p.field("attacks").index(j),
                format!("attack `{id}` is listed twice"),
            );
        }
    }
    if attacks.is_empty() {
        at(src, p.field("attacks"), "needs at least one attack".into());
    }
}

/// What a Digimon `terrain.ron` may not say: the other families' cover, concealment, drops and
/// roll modifiers (the chapter's terrain is only "Difficult Terrain", a move cost above 1).
pub fn terrain_errors(terrain: &TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    let mut errors = neutral::skill_check_errors(terrain, src, &COMBAT_STATS);
    errors.extend(neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| {
            vec![
                ("roll_modifier", t.roll_modifier.is_some()),
                ("cover_rank", t.cover_rank.is_some()),
                ("absorb", t.absorb.is_some()),
                ("concealment", t.concealment.is_some()),
                ("drop", t.drop.is_some()),
                ("breaks_into", t.breaks_into.is_some()),
                ("swimming", t.swimming.is_some()),
                ("cover_bonus", t.cover_bonus.is_some()),
                ("concealment_bonus", t.concealment_bonus.is_some()),
                ("cover_dr", t.cover_dr.is_some()),
            ]
        },
        |field| {
            format!(
                "`{field}` is not a Digimon rule (its terrain is open, Difficult (move cost above 1) or blocking)"
            )
        },
    ));
    errors
}

/// What a non-Digimon `terrain.ron` may not say: Digimon's Difficult Terrain, which other
/// families would silently ignore.
pub fn foreign_terrain_errors(terrain: &TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| vec![("difficult", t.difficult.is_some())],
        |field| format!("`{field}` is a Digimon rule; this ruleset's family does not use it"),
    )
}
