//! The d20 family's unit sheet (see [`crate::battle::sheet`]).

use crate::battle::fighter::Fighter;
use crate::battle::sheet::{SheetContext, SheetSection, Tone, UnitSheet};
use crate::ruleset::d20::D20Data;

/// The unit panel of a d20 character: HP, actions left this round and whether its attack of
/// opportunity is spent, weapon with damage type and critical, armour with its DR by type
/// after wear, feats, abilities and skills, move, and its attacks with their cost now.
pub fn unit_sheet(ctx: &SheetContext, f: &Fighter, d: &D20Data) -> UnitSheet {
    use crate::ruleset::shinobi::StatKind;
    let stats = |heading: &str, kind: StatKind| {
        crate::battle::family::shinobi::sheet::stat_section(heading, &d.combat.stats, f, kind)
    };
    let c = d.character(&f.identity.archetype);
    let weapon = c
        .and_then(|c| d.weapon(&c.weapon))
        .map_or("none".into(), |w| {
            let crit = w.critical.unwrap_or(d.combat.critical);
            format!(
                "{} ({} effect {}, {}/x{}{})",
                w.name,
                d.damage_type_name(&w.damage_type),
                w.effect,
                crit.threat,
                crit.multiplier,
                w.range_increment
                    .map_or(String::new(), |i| format!(", {i}-square increments"))
            )
        });
    let armour = c
        .and_then(|c| c.armour.as_deref())
        .and_then(|id| d.armour(id))
        .map_or("none".into(), |a| {
            let cols: Vec<String> = d
                .combat
                .damage_types
                .iter()
                .filter(|t| a.by_type.contains_key(&t.id))
                .map(|t| {
                    let dr = crate::battle::family::d20::armour_dr(d, f, &t.id).map_or(0, |x| x.0);
                    format!("{} {dr}", t.id)
                })
                .collect();
            let worn = if f.encounter.armour_wear > 0 {
                format!(", worn -{}", f.encounter.armour_wear)
            } else {
                String::new()
            };
            format!("{} (DR {}{worn})", a.name, cols.join(" / "))
        });
    let feats = c.map_or(String::new(), |c| {
        c.feats
            .iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    });
    let attacks: Vec<String> = c
        .map(|c| c.attacks.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|id| d.attack(id))
        .map(|a| {
            let cost = crate::battle::family::d20::cost_now(d, f, &a.id);
            if cost == 0 {
                format!("{} (next swing, free)", a.name)
            } else {
                format!(
                    "{} ({cost} action{})",
                    a.name,
                    if cost == 1 { "" } else { "s" }
                )
            }
        })
        .collect();
    let pools = SheetSection::new("Pools").pool(&d.combat.pool_name, f.life.current, f.life.max);
    let mut turn = SheetSection::new("This round").left(
        "Actions",
        f.actions.usable(),
        Some(d.combat.actions_per_round),
    );
    if d.combat.swift_actions > 0 {
        let ready = f.round.swift_spent < d.combat.swift_actions;
        turn = turn.toned(
            "swift action",
            if ready { "ready" } else { "spent" },
            if ready { Tone::Plain } else { Tone::Critical },
        );
    }
    let aoo = f.actions.counter > 0;
    let turn = turn
        .toned(
            "attack of opportunity",
            if aoo { "ready" } else { "spent" },
            if aoo { Tone::Plain } else { Tone::Critical },
        )
        .cell(
            "move",
            format!("{} squares", f.derived(ctx.rules).normal_speed),
        );
    let gear = SheetSection::new("Gear")
        .detail()
        .line(format!("Weapon: {weapon}"))
        .line(format!("Armour: {armour}"))
        .line(format!(
            "Feats: {}",
            if feats.is_empty() { "none" } else { &feats }
        ));
    let mut status = SheetSection::new("Conditions");
    let mut labels: Vec<String> = [
        d.combat.pool_name.as_str(),
        "Actions",
        "attack of opportunity",
        "move",
        "Weapon",
        "Armour",
        "Feats",
        "Attacks",
    ]
    .map(String::from)
    .to_vec();
    if d.combat.swift_actions > 0 {
        labels.push("swift action".into());
    }
    if armour != "none" {
        labels.push("DR".into());
    }
    labels.extend(crate::battle::family::shinobi::sheet::stat_ids(
        &d.combat.stats,
    ));
    if let Some(c) = c {
        labels.extend(c.feats.iter().map(|x| format!("{x:?}")));
        labels.extend(
            c.attacks
                .iter()
                .filter_map(|id| d.attack(id))
                .map(|a| a.name.clone()),
        );
    }
    if let Some(rule) = &d.combat.prone
        && f.encounter.prone
    {
        labels.push("PRONE".into());
        status = status.line(format!(
            "PRONE: shots from beyond melee range +{}, its Dodge or parry against melee -{}, until it moves",
            rule.shots, rule.melee
        ));
    }
    if let Some(n) = f.encounter.power_attack.filter(|n| *n > 0) {
        status = status.line(format!(
            "PowerAttack {n}: -{n} to hit and more Effect Points on every melee attack until its next turn starts"
        ));
    }
    if f.encounter.dive_ready {
        status = status.line(
            "Dived on its turn: a Dodge check kept for the first shot from beyond melee range, until its next turn",
        );
    }
    if f.encounter.dive_owed {
        status = status.line("Dived: its next turn starts by spending a Move action on it");
        labels.push("Dived".into());
    }
    if f.defeated() {
        status = status.line("DEFEATED (0 HP)");
        labels.push("DEFEATED".into());
    }
    UnitSheet::new(
        c.map_or(f.identity.archetype.as_str(), |c| c.name.as_str())
            .to_string(),
        vec![
            pools,
            turn,
            gear,
            stats("Abilities", StatKind::Ability),
            stats("Skills", StatKind::Skill).detail(),
            SheetSection::new("Attacks").lines(attacks).detail(),
            status,
        ],
        labels,
    )
}
