//! The shinobi family's unit sheet (see [`crate::battle::sheet`]).

use crate::battle::fighter::Fighter;
use crate::battle::sheet::{SheetContext, SheetSection, UnitSheet};
use crate::ruleset::shinobi::ShinobiData;

/// The unit panel of a shinobi: HP and chakra (and whether Deflect takes its penalty), AP left
/// this round, weapon, abilities and ranks, move, and the attacks it knows with their costs.
pub fn unit_sheet(ctx: &SheetContext, f: &Fighter, data: &ShinobiData) -> UnitSheet {
    use crate::ruleset::shinobi::StatKind;
    let names = &data.combat.pool_names;
    let stats = |heading: &str, kind: StatKind| stat_section(heading, &data.combat.stats, f, kind);
    let ninja = data.ninja(&f.identity.archetype);
    let weapon = match ninja.and_then(|n| n.weapon.as_deref()) {
        None => "none (cannot Block)".to_string(),
        Some(w) if !crate::battle::family::shinobi::has_free_hand(data, f) => {
            format!("{w}, in both hands (cannot Deflect)")
        }
        Some(w) => w.to_string(),
    };
    let deflect = crate::battle::family::shinobi::has_free_hand(data, f)
        && !crate::battle::family::shinobi::above_deflect_line(data, f);
    let attacks: Vec<String> = ninja
        .map(|n| n.attacks.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|id| data.attack(id))
        .map(|a| {
            let chakra = if a.chakra > 0 {
                format!(", {} chakra", a.chakra)
            } else {
                String::new()
            };
            format!("{} ({} AP{chakra})", a.name, a.ap)
        })
        .collect();
    let mut pools = SheetSection::new("Pools")
        .pool(&names.life, f.life.current, f.life.max)
        .pool(&names.chakra, f.ki.current, f.ki.max);
    if deflect {
        pools = pools.line("Deflect at -5 (chakra at half or less)");
    }
    let turn = SheetSection::new("This round")
        .left("AP", f.actions.usable(), Some(data.combat.action_points))
        .cell(
            "move",
            format!("{} squares", f.derived(ctx.rules).normal_speed),
        );
    let gear = SheetSection::new("Gear")
        .detail()
        .line(format!("Weapon: {weapon}"));
    let mut status = SheetSection::new("Conditions");
    let mut labels: Vec<String> = vec![
        names.life.clone(),
        names.chakra.clone(),
        "AP".into(),
        "move".into(),
        "Weapon".into(),
        "Attacks".into(),
    ];
    labels.extend(stat_ids(&data.combat.stats));
    labels.extend(
        ninja
            .map(|n| n.attacks.as_slice())
            .unwrap_or_default()
            .iter()
            .filter_map(|id| data.attack(id))
            .map(|a| a.name.clone()),
    );
    if deflect {
        labels.push("Deflect".into());
    }
    if let Some(c) = f.conditions.get(crate::ruleset::ConditionKind::Blinded) {
        let by = c
            .source
            .and_then(|s| ctx.names.get(&s))
            .map_or("a", String::as_str);
        status = status.line(format!(
            "Blinded by {by}'s Genjutsu: attacks miss {}%; Gen Resist ({}) on {by}'s turn",
            data.combat.blindness,
            data.combat.gen_resist.join(" + ")
        ));
        labels.push("Blinded".into());
    }
    if crate::battle::family::shinobi::swimming(&ctx.field, f) {
        status = status.line("Swimming: cannot Dodge (Block or Deflect only)");
        labels.push("Dodge".into());
    }
    if f.defeated() {
        status = status.line("DEFEATED (0 HP)");
        labels.push("DEFEATED".into());
    }
    UnitSheet::new(
        ninja
            .map_or(f.identity.archetype.as_str(), |n| n.name.as_str())
            .to_string(),
        vec![
            pools,
            turn,
            gear,
            stats("Abilities", StatKind::Ability),
            stats("Ranks", StatKind::Rank).detail(),
            stats("Skills", StatKind::Skill).detail(),
            SheetSection::new("Attacks").lines(attacks).detail(),
            status,
        ],
        labels,
    )
}

/// The ids of the stats an action-point family's sheet lists, which its glossary explains.
pub fn stat_ids(stats: &[crate::ruleset::shinobi::StatDef]) -> impl Iterator<Item = String> + '_ {
    stats.iter().map(|s| s.id.clone())
}

/// One kind of stat (abilities, ranks, skills) as a section of `ID value` figures, as the
/// action-point families' sheets list them.
pub fn stat_section(
    heading: &str,
    stats: &[crate::ruleset::shinobi::StatDef],
    f: &Fighter,
    kind: crate::ruleset::shinobi::StatKind,
) -> SheetSection {
    stats
        .iter()
        .filter(|s| s.kind == kind)
        .fold(SheetSection::new(heading), |sec, s| {
            sec.cell(&s.id, f.attributes.get(&s.id))
        })
}
