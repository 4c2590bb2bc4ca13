//! The shinobi family's unit sheet (see [`crate::battle::sheet`]).

use crate::battle::fighter::Fighter;
use crate::battle::sheet::{SheetContext, UnitSheet};
use crate::ruleset::shinobi::ShinobiData;

/// The unit panel of a shinobi: HP and chakra (and whether Deflect takes its penalty), AP left
/// this round, weapon, abilities and ranks, move, and the attacks it knows with their costs.
pub fn unit_sheet(ctx: &SheetContext, f: &Fighter, data: &ShinobiData) -> UnitSheet {
    use crate::ruleset::shinobi::StatKind;
    let names = &data.combat.pool_names;
    let stats = |kind: StatKind| stat_line(&data.combat.stats, f, kind);
    let ninja = data.ninja(&f.identity.archetype);
    let weapon = ninja
        .and_then(|n| n.weapon.clone())
        .unwrap_or_else(|| "none (cannot Block)".into());
    let deflect = if crate::battle::family::shinobi::above_deflect_line(data, f) {
        ""
    } else {
        " (Deflect at -5)"
    };
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
    let mut out = format!(
        "{} {}/{}   {} {}/{}{deflect}\nAP {} of {} left this round  |  move {} squares\nWeapon: {weapon}\n{}\n{}\n{}\nAttacks: {}",
        names.life,
        f.life.current,
        f.life.max,
        names.chakra,
        f.ki.current,
        f.ki.max,
        f.actions.usable(),
        data.combat.action_points,
        f.derived(ctx.rules).normal_speed,
        stats(StatKind::Ability),
        stats(StatKind::Rank),
        stats(StatKind::Skill),
        attacks.join(", "),
    );
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
    if !deflect.is_empty() {
        labels.push("Deflect".into());
    }
    if f.defeated() {
        out.push_str("\nDEFEATED (0 HP)");
        labels.push("DEFEATED".into());
    }
    UnitSheet {
        kind: ninja
            .map_or(f.identity.archetype.as_str(), |n| n.name.as_str())
            .to_string(),
        side_note: String::new(),
        body: out,
        labels,
    }
}

/// The ids of the stats an action-point family's sheet lists, which its glossary explains.
pub fn stat_ids(stats: &[crate::ruleset::shinobi::StatDef]) -> impl Iterator<Item = String> + '_ {
    stats.iter().map(|s| s.id.clone())
}

/// One kind of stat (abilities, ranks, skills) as `ID value` pairs, as the action-point
/// families' sheets list them.
pub fn stat_line(
    stats: &[crate::ruleset::shinobi::StatDef],
    f: &Fighter,
    kind: crate::ruleset::shinobi::StatKind,
) -> String {
    stats
        .iter()
        .filter(|s| s.kind == kind)
        .map(|s| format!("{} {}", s.id, f.attributes.get(&s.id)))
        .collect::<Vec<_>>()
        .join("  ")
}
