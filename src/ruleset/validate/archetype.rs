//! The checks of a DBU archetype (a roster entry or a scenario's own unit): its attributes, Tier
//! of Power, techniques and the profiles it may use, each problem at its file, line and field.

use super::{Checker, TIER};
use crate::ruleset::locate::FieldPath;
use crate::ruleset::schema::*;
use crate::ruleset::{Rules, RulesError};

pub(super) fn check_archetype(
    c: &mut Checker,
    rules: &Rules,
    attrs: &[&str],
    file: usize,
    p: &FieldPath,
    a: &ArchetypeDef,
) {
    let ch = &rules.characters;
    if a.glyph.is_empty() || a.glyph.chars().count() > 2 {
        c.err(file, &p.field("glyph"), "a glyph is one or two characters");
    }
    if !(1..=30).contains(&a.power_level) {
        c.err(
            file,
            &p.field("power_level"),
            "Power Level runs from 1 to 30",
        );
    }
    if rules.size(&a.size).is_none() {
        c.err(file, &p.field("size"), format!("unknown size `{}`", a.size));
    }
    if rules.save(&a.race.save).is_none() {
        c.err(
            file,
            &p.field("race").field("save"),
            format!("unknown Save `{}`", a.race.save),
        );
    }
    let tier = rules
        .dice
        .tier_from_power_level
        .eval(&[("PL", i64::from(a.power_level))][..])
        .unwrap_or(1)
        .clamp(1, i64::from(rules.max_tier())) as u32;
    let cap = rules.tier(tier).attribute_cap;
    for id in attrs {
        if !a.attributes.contains_key(*id) {
            c.err(
                file,
                &p.field("attributes"),
                format!("missing attribute `{id}`"),
            );
        }
    }
    let mut racial: i64 = 0;
    for (id, v) in &a.race.increases {
        if !attrs.contains(&id.as_str()) {
            c.err(
                file,
                &p.field("race").field("increases").field(id),
                format!("unknown attribute `{id}`"),
            );
        }
        racial = racial.saturating_add(*v);
    }
    if racial != ch.build.racial_points {
        c.err(
            file,
            &p.field("race").field("increases"),
            format!(
                "a race adds {} points in all; these add {racial}",
                ch.build.racial_points
            ),
        );
    }
    let mut total: i64 = 0;
    for (id, v) in &a.attributes {
        let fp = p.field("attributes").field(id);
        if !attrs.contains(&id.as_str()) {
            c.err(file, &fp, format!("unknown attribute `{id}`"));
            continue;
        }
        total = total.saturating_add(*v);
        if *v > cap {
            c.err(
                file,
                &fp,
                format!("{id} {v} is over the cap of {cap} for Tier of Power {tier}"),
            );
        }
        let floor = ch
            .build
            .starting_score
            .saturating_add(a.race.increases.get(id).copied().unwrap_or(0));
        if *v < floor {
            c.err(
                file,
                &fp,
                format!("{id} {v} is below {floor} (starting score plus racial increase)"),
            );
        }
    }
    // Saturating: a modder's absurd number is reported as a wrong total, never an overflow.
    let additions = ch.build.additions_at_first_level.saturating_add(
        ch.build
            .addition_levels
            .iter()
            .filter(|l| **l <= a.power_level)
            .count() as i64,
    );
    let budget = ch
        .build
        .starting_score
        .saturating_mul(attrs.len() as i64)
        .saturating_add(ch.build.racial_points)
        .saturating_add(ch.build.points_per_addition.saturating_mul(additions));
    if total != budget {
        c.err(
            file,
            &p.field("attributes"),
            format!(
                "scores add up to {total}, but a Power Level {} build has {budget} \
                 ({} per attribute, {} racial, {additions} Attribute Additions of {})",
                a.power_level,
                ch.build.starting_score,
                ch.build.racial_points,
                ch.build.points_per_addition
            ),
        );
    }
    for (id, ranks) in &a.skills {
        if rules.skill(id).is_none() {
            c.err(
                file,
                &p.field("skills").field(id),
                format!("unknown skill `{id}`"),
            );
        }
        if *ranks < 0 {
            c.err(
                file,
                &p.field("skills").field(id),
                "ranks cannot be negative",
            );
        }
    }
    if a.profiles.is_empty() {
        c.err(
            file,
            &p.field("profiles"),
            "an archetype needs at least one profile",
        );
    }
    for (j, id) in a.profiles.iter().enumerate() {
        let pp = p.field("profiles").index(j);
        check_profile_use(c, rules, file, &pp, a, id);
    }
    for (j, id) in a.elements.iter().enumerate() {
        if rules.element(id).is_none() {
            c.err(
                file,
                &p.field("elements").index(j),
                format!("unknown element `{id}`"),
            );
        }
    }
    let knows_elemental = a.profiles.iter().any(|id| {
        rules.profile(id).is_some_and(|pr| {
            pr.effects
                .iter()
                .any(|e| matches!(e, ProfileEffect::ElementChoice))
        })
    });
    if knows_elemental && a.elements.is_empty() {
        c.err(
            file,
            &p.field("profiles"),
            "an archetype with an Elemental profile needs at least one element",
        );
    }
    if let Some(w) = &a.weapon {
        let wp = p.field("weapon");
        if rules.attack_type(&w.attack_type).is_none() {
            c.err(
                file,
                &wp.field("attack_type"),
                format!("unknown attack type `{}`", w.attack_type),
            );
        }
        let with_attrs: Vec<&str> = attrs.iter().copied().chain(TIER.iter().copied()).collect();
        c.formula(file, &wp.field("damage"), &w.damage, &with_attrs);
        c.formula(file, &wp.field("strike"), &w.strike, &with_attrs);
    }
    for (j, t) in a.techniques.iter().enumerate() {
        let tp = p.field("techniques").index(j);
        check_profile_use(c, rules, file, &tp.field("profile"), a, &t.profile);
        let with_attrs: Vec<&str> = attrs.iter().copied().chain(TIER.iter().copied()).collect();
        c.formula(file, &tp.field("wound_bonus"), &t.wound_bonus, &with_attrs);
        c.formula(file, &tp.field("extra_cost"), &t.extra_cost, &with_attrs);
        if let Some(b) = &t.backlash {
            c.formula(file, &tp.field("backlash"), b, &with_attrs);
        }
        for (k, g) in t.on_damage.iter().enumerate() {
            super::check_grant(c, file, &tp.field("on_damage").index(k), g);
        }
    }
}

/// A profile an archetype uses must exist and its attack type must be usable by that build.
fn check_profile_use(
    c: &mut Checker,
    rules: &Rules,
    file: usize,
    p: &FieldPath,
    a: &ArchetypeDef,
    id: &str,
) {
    let Some(profile) = rules.profile(id) else {
        c.err(file, p, format!("unknown profile `{id}` (see attacks.ron)"));
        return;
    };
    let Some(ty) = rules.attack_type(&profile.attack_type) else {
        return;
    };
    if let Some(req) = &ty.required_score {
        let score = a.attributes.get(&req.attribute).copied().unwrap_or(0);
        if score < req.at_least {
            c.err(
                file,
                p,
                format!(
                    "`{id}` is a {} attack, which needs {} {} or more (this build has {score})",
                    ty.name, req.attribute, req.at_least
                ),
            );
        }
    }
    if ty.damage_attribute.is_none()
        && a.weapon
            .as_ref()
            .is_none_or(|w| w.attack_type != profile.attack_type)
    {
        c.err(
            file,
            p,
            format!(
                "`{id}` is a {} attack, whose damage comes from a weapon: give this archetype a {} weapon",
                ty.name, ty.name
            ),
        );
    }
}

/// Checks an archetype written in another file (a scenario's inline unit) as the roster's are
/// checked; errors point into `file`'s text `src` at `path`.
pub fn archetype_errors(
    rules: &Rules,
    file: &std::path::Path,
    src: &str,
    path: &FieldPath,
    a: &ArchetypeDef,
) -> Vec<RulesError> {
    let sources = [(file.to_path_buf(), src.to_string())];
    let mut c = Checker {
        sources: &sources,
        errors: Vec::new(),
    };
    let attrs: Vec<&str> = rules
        .characters
        .attributes
        .iter()
        .map(|a| a.id.as_str())
        .collect();
    check_archetype(&mut c, rules, &attrs, 0, path, a);
    c.errors
}
