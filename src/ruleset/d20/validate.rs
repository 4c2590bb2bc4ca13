//! A d20 ruleset's own checks: every problem in `d20.ron` and `roster.ron` with its file, line
//! and field, and the terrain rules it refuses.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::lower::{HP, MOVE, NONE_POOL};
use super::{CriticalRule, D20Roster, D20Rules, Feat, WeaponClass};
use crate::ruleset::RulesError;
use crate::ruleset::locate::FieldPath;
use crate::ruleset::neutral;
use crate::ruleset::schema::*;
use crate::ruleset::shinobi::{self, DefenseKind};

/// Every problem in a d20 ruleset's own files, with file, line and field.
pub fn validate(
    rules: &D20Rules,
    roster: &D20Roster,
    src: &(PathBuf, String),
    roster_src: &(PathBuf, String),
) -> Vec<RulesError> {
    let mut errors = Vec::new();
    let root = FieldPath::root();
    let mut at = |s: &(PathBuf, String), path: FieldPath, msg: String| {
        errors.push(RulesError::at(&s.0, &s.1, &path, msg));
    };
    let mut stat_ids = BTreeSet::new();
    for (i, s) in rules.stats.iter().enumerate() {
        if s.id.is_empty() || [HP, MOVE, NONE_POOL].contains(&s.id.as_str()) {
            at(
                src,
                root.field("stats").index(i).field("id"),
                format!("stat id `{}` is empty or reserved (HP, CHK, MV)", s.id),
            );
        } else if !stat_ids.insert(s.id.clone()) {
            at(
                src,
                root.field("stats").index(i).field("id"),
                format!("stat `{}` is defined twice", s.id),
            );
        }
    }
    let known = |id: &str| stat_ids.contains(id);
    if rules.die != 20 && !(2..=1000).contains(&rules.die) {
        at(src, root.field("die"), "a die has 2 to 1000 sides".into());
    }
    if !(1..=10).contains(&rules.actions_per_round) {
        at(
            src,
            root.field("actions_per_round"),
            "a round has 1 to 10 actions".into(),
        );
    }
    for (name, _) in rules.initiative.variables() {
        if !known(&name) {
            at(
                src,
                root.field("initiative"),
                format!("unknown stat `{name}` (see `stats`)"),
            );
        }
    }
    let mut need_stat = |path: FieldPath, id: &str| {
        if !known(id) {
            at(src, path, format!("unknown stat `{id}` (see `stats`)"));
        }
    };
    need_stat(
        root.field("initiative_tie_stat"),
        &rules.initiative_tie_stat,
    );
    need_stat(root.field("parry_skill"), &rules.parry_skill);
    need_stat(
        root.field("deflecting_parry_ability"),
        &rules.deflecting_parry_ability,
    );
    need_stat(root.field("strength").field("stat"), &rules.strength.stat);
    for (i, t) in rules.speed.terms.iter().enumerate() {
        need_stat(root.field("speed").field("terms").index(i), t);
    }
    for (i, d) in rules.defenses.iter().enumerate() {
        for (j, t) in d.terms.iter().enumerate() {
            need_stat(root.field("defenses").index(i).field("terms").index(j), t);
        }
    }
    for (i, w) in rules.weapons.iter().enumerate() {
        let p = root.field("weapons").index(i);
        need_stat(p.field("ability"), &w.ability);
        need_stat(p.field("skill"), &w.skill);
    }
    if let Some(f) = rules.off_guard.as_ref().and_then(|o| o.feint.as_ref()) {
        let p = root.field("off_guard").field("feint");
        for (field, terms) in [("check", &f.check), ("resist", &f.resist)] {
            for (i, t) in terms.iter().enumerate() {
                need_stat(p.field(field).index(i), t);
            }
        }
        if !(0..=20).contains(&f.penalty) {
            at(
                src,
                p.field("penalty"),
                "a feint's penalty is 0 to 20".into(),
            );
        }
    }
    if let Some(v) = rules.off_guard.as_ref().and_then(|o| o.unseen_concealment)
        && !(1..=100).contains(&v)
    {
        at(
            src,
            root.field("off_guard").field("unseen_concealment"),
            "a concealment bonus is 1 to 100".into(),
        );
    }
    let mut errors2 = Vec::new();
    let mut at2 = |s: &(PathBuf, String), path: FieldPath, msg: String| {
        errors2.push(RulesError::at(&s.0, &s.1, &path, msg));
    };
    if rules.yards_per_square == 0 {
        at2(
            src,
            root.field("yards_per_square"),
            "a square is at least 1 yard".into(),
        );
    }
    if rules.range_dcs.is_empty()
        || rules.range_dcs.windows(2).any(|w| w[0].0 >= w[1].0)
        || rules.range_dcs.iter().any(|r| r.0 == 0)
    {
        at2(
            src,
            root.field("range_dcs"),
            "range rows need increments from 1 up, each more than the one before".into(),
        );
    }
    if rules.missile_increments == 0 || rules.missile_increments > 1000 {
        at2(
            src,
            root.field("missile_increments"),
            "missiles reach 1 to 1000 increments".into(),
        );
    }
    let t = &rules.effect_table;
    if !(3..=1000).contains(&t.per_die)
        || !(2..=100).contains(&t.die)
        || !(1..=100).contains(&t.success_divisor)
        || t.remainder.first().map(|r| r.0) != Some(0)
        || t.remainder.windows(2).any(|w| w[0].0 >= w[1].0)
        || t.remainder
            .iter()
            .any(|r| r.0 >= t.per_die || !(0..=1000).contains(&r.1))
    {
        at2(
            src,
            root.field("effect_table"),
            "the table needs 3 to 1000 points per die of 2 to 100 sides, a success divisor of 1 to 100, and remainder rows from 0 up, each below `per_die`, with bonuses of 0 to 1000".into(),
        );
    }
    let crit_ok = |c: &CriticalRule| {
        (1..=1000).contains(&c.threat)
            && (1..=10).contains(&c.multiplier)
            && (10..=1000).contains(&c.step)
    };
    const CRIT: &str =
        "a critical needs a threat of 1 to 1000, a multiplier of 1 to 10 and a step of 10 to 1000";
    if !crit_ok(&rules.critical) {
        at2(src, root.field("critical"), CRIT.into());
    }
    // Bounds that keep every roll and every exact preview small (a guard against absurd
    // hand-edited numbers, not rules).
    let bounded: [(&str, i64, std::ops::RangeInclusive<i64>); 11] = [
        ("melee_dc", rules.melee_dc, 0..=1000),
        ("strength.minimum", rules.strength.minimum, -100..=1000),
        ("strength.per_point", rules.strength.per_point, 0..=100),
        ("strength.two_handed", rules.strength.two_handed, 0..=100),
        ("extra_attack_penalty", rules.extra_attack_penalty, 0..=100),
        ("rapid_shot_penalty", rules.rapid_shot_penalty, 0..=100),
        ("speed.base", rules.speed.base, -1000..=1000),
        ("speed.divisor", rules.speed.divisor, 1..=100),
        (
            "parry.parrying_weapon",
            rules.parry.parrying_weapon,
            -100..=100,
        ),
        (
            "parry.missile_weapon",
            rules.parry.missile_weapon,
            -100..=100,
        ),
        (
            "parry.unarmed_vs_weapon",
            rules.parry.unarmed_vs_weapon,
            -100..=100,
        ),
    ];
    for (name, v, range) in bounded {
        if !range.contains(&v) {
            let mut path = root.clone();
            for part in name.split('.') {
                path = path.field(part);
            }
            at2(
                src,
                path,
                format!("{v} is out of bounds: {} to {}", range.start(), range.end()),
            );
        }
    }
    for (i, (_, dc)) in rules.range_dcs.iter().enumerate() {
        if !(0..=1000).contains(dc) {
            at2(
                src,
                root.field("range_dcs").index(i),
                "a DC is 0 to 1000".into(),
            );
        }
    }
    if rules.attacks_by_rank.is_empty()
        || rules.attacks_by_rank.iter().any(|n| !(1..=10).contains(n))
    {
        at2(
            src,
            root.field("attacks_by_rank"),
            "every row gives 1 to 10 attacks".into(),
        );
    }
    let pa = &rules.power_attack_two_handed;
    if pa.denominator == 0 || pa.numerator > pa.denominator.saturating_mul(4) {
        at2(
            src,
            root.field("power_attack_two_handed"),
            "a fraction with a denominator of at least 1, at most 4 times over (x1.5 is 3/2)"
                .into(),
        );
    }
    for kind in [DefenseKind::Dodge, DefenseKind::Block] {
        if !rules.defenses.iter().any(|d| d.kind == kind) {
            at2(
                src,
                root.field("defenses"),
                format!("the {kind:?} defense is missing (Dodge, and Block for parries)"),
            );
        }
    }
    if let Some(i) = rules
        .defenses
        .iter()
        .position(|d| d.kind == DefenseKind::Deflect)
    {
        at2(
            src,
            root.field("defenses").index(i).field("kind"),
            "the d20 system has Dodge and parry (Block) only".into(),
        );
    }
    let mut types: BTreeSet<&str> = BTreeSet::new();
    for (i, t) in rules.damage_types.iter().enumerate() {
        if !types.insert(t.id.as_str()) {
            at2(
                src,
                root.field("damage_types").index(i).field("id"),
                format!("damage type `{}` is defined twice", t.id),
            );
        }
    }
    if let Some(fall) = &rules.falling {
        let p = root.field("falling");
        if !(0..=1000).contains(&fall.per_yard) {
            at2(
                src,
                p.field("per_yard"),
                "a fall does 0 to 1,000 a yard".into(),
            );
        }
        if !(0..=100_000).contains(&fall.max) {
            at2(
                src,
                p.field("max"),
                "a fall does at most 0 to 100,000".into(),
            );
        }
        if !types.contains(fall.damage_type.as_str()) {
            at2(
                src,
                p.field("damage_type"),
                format!(
                    "unknown damage type `{}` (see `damage_types`)",
                    fall.damage_type
                ),
            );
        }
    }
    let mut weapon_ids = BTreeSet::new();
    for (i, w) in rules.weapons.iter().enumerate() {
        let p = root.field("weapons").index(i);
        if !weapon_ids.insert(w.id.as_str()) {
            at2(
                src,
                p.field("id"),
                format!("weapon `{}` is defined twice", w.id),
            );
        }
        if !types.contains(w.damage_type.as_str()) {
            at2(
                src,
                p.field("damage_type"),
                format!(
                    "unknown damage type `{}` (see `damage_types`)",
                    w.damage_type
                ),
            );
        }
        if !(0..=1000).contains(&w.effect) {
            at2(
                src,
                p.field("effect"),
                "an effect is 0 to 1000 points".into(),
            );
        }
        if w.critical.as_ref().is_some_and(|c| !crit_ok(c)) {
            at2(src, p.field("critical"), CRIT.into());
        }
        if w.minimum_strength
            .is_some_and(|m| !(-100..=1000).contains(&m))
        {
            at2(
                src,
                p.field("minimum_strength"),
                "a minimum strength is -100 to 1000".into(),
            );
        }
        if w.range_increment.is_some_and(|r| r > 10_000) {
            at2(
                src,
                p.field("range_increment"),
                "a range increment is at most 10,000 squares".into(),
            );
        }
        let thrown = matches!(w.class, WeaponClass::Missile | WeaponClass::Grenade);
        match (thrown, w.range_increment) {
            (true, None | Some(0)) => at2(
                src,
                p.field("range_increment"),
                "a missile weapon or grenade needs a range increment of at least 1 square".into(),
            ),
            (true, _) | (_, None) => {}
            (_, Some(_)) => at2(
                src,
                p.field("range_increment"),
                "only missile weapons and grenades have a range increment".into(),
            ),
        }
        match (w.class == WeaponClass::Grenade, &w.blast) {
            (true, None) => at2(
                src,
                p.field("blast"),
                "a grenade needs a `blast` (radius in yards and the Roll check's DC)".into(),
            ),
            (false, Some(_)) => at2(
                src,
                p.field("blast"),
                "only a weapon of class `Grenade` has a blast".into(),
            ),
            (true, Some(b)) => {
                if b.radius > 40 {
                    at2(
                        src,
                        p.field("blast").field("radius"),
                        "a blast's radius is at most 40 yards".into(),
                    );
                }
                if !(0..=1000).contains(&b.save_dc) {
                    at2(
                        src,
                        p.field("blast").field("save_dc"),
                        "a DC is 0 to 1000".into(),
                    );
                }
                if rules.grenade.is_none() {
                    at2(
                        src,
                        p.field("class"),
                        "a grenade needs the `grenade` rule (aim DC, step, throw-back, Roll check)"
                            .into(),
                    );
                }
            }
            (false, None) => {}
        }
    }
    if let Some(g) = &rules.grenade {
        let p = root.field("grenade");
        for (name, v, range) in [
            ("aim_dc", g.aim_dc, 0..=1000),
            ("step", g.step, 1..=100),
            ("throw_back", g.throw_back, 0..=100),
        ] {
            if !range.contains(&v) {
                at2(
                    src,
                    p.field(name),
                    format!("{v} is out of bounds: {} to {}", range.start(), range.end()),
                );
            }
        }
        for (j, t) in g.save.iter().enumerate() {
            if !stat_ids.contains(t) {
                at2(
                    src,
                    p.field("save").index(j),
                    format!("unknown stat `{t}` (see `stats`)"),
                );
            }
        }
    }
    let grenade_ids: BTreeSet<&str> = rules
        .weapons
        .iter()
        .filter(|w| w.class == WeaponClass::Grenade)
        .map(|w| w.id.as_str())
        .collect();
    if rules.single_step > 10 {
        at2(
            src,
            root.field("single_step"),
            "a single step is 0 to 10 squares".into(),
        );
    }
    if let Some(off) = &rules.off_guard
        && !(0..=20).contains(&off.bonus)
    {
        at2(
            src,
            root.field("off_guard").field("bonus"),
            "the off-guard bonus is 0 to 20".into(),
        );
    }
    if let Some(dive) = &rules.dive_for_cover {
        let p = root.field("dive_for_cover");
        if dive.squares > 5 {
            at2(
                src,
                p.field("squares"),
                "a dive lands 0 to 5 squares away".into(),
            );
        }
        if rules.prone.is_none() {
            at2(
                src,
                p,
                "a Dive for cover lands the diver prone: `prone` is needed too".into(),
            );
        }
    }
    if let Some(prone) = &rules.prone {
        let p = root.field("prone");
        for (field, v) in [("shots", prone.shots), ("melee", prone.melee)] {
            if !(0..=20).contains(&v) {
                at2(
                    src,
                    p.field(field),
                    format!("what lying prone changes is 0 to 20 (`{field}`)"),
                );
            }
        }
    }
    if rules.swift_actions > 3 {
        at2(
            src,
            root.field("swift_actions"),
            "a round has 0 to 3 swift actions".into(),
        );
    }
    if rules.drop_prone && (rules.prone.is_none() || rules.swift_actions == 0) {
        at2(
            src,
            root.field("drop_prone"),
            "Drop prone is a swift action that lays one prone: `prone` and `swift_actions` of 1 or more are needed too".into(),
        );
    }
    let mut armour_ids = BTreeSet::new();
    for (i, a) in rules.armours.iter().enumerate() {
        let p = root.field("armours").index(i);
        if !armour_ids.insert(a.id.as_str()) {
            at2(
                src,
                p.field("id"),
                format!("armour `{}` is defined twice", a.id),
            );
        }
        if !(0..=1000).contains(&a.base) || a.by_type.values().any(|v| !(0..=1000).contains(v)) {
            at2(src, p.clone(), "damage reduction is 0 to 1000".into());
        }
        if a.as_cover.is_some_and(|v| !(1..=100).contains(&v)) {
            at2(src, p.field("as_cover"), "a cover bonus is 1 to 100".into());
        }
        for t in a.by_type.keys() {
            if !types.contains(t.as_str()) {
                at2(
                    src,
                    p.field("by_type"),
                    format!("unknown damage type `{t}` (see `damage_types`)"),
                );
            }
        }
    }
    let mut attack_ids = BTreeSet::new();
    for (i, a) in rules.attacks.iter().enumerate() {
        let p = root.field("attacks").index(i);
        if !attack_ids.insert(a.id.as_str()) {
            at2(
                src,
                p.field("id"),
                format!("attack `{}` is defined twice", a.id),
            );
        }
        if !weapon_ids.contains(a.weapon.as_str()) {
            at2(
                src,
                p.field("weapon"),
                format!("unknown weapon `{}` (see `weapons`)", a.weapon),
            );
        }
        if a.rapid_shot && !a.full_round {
            at2(
                src,
                p.field("rapid_shot"),
                "Rapid Shot's extra attack comes with a full-round attack (`full_round: true`)"
                    .into(),
            );
        }
        let grenade = grenade_ids.contains(a.weapon.as_str());
        if a.throw_back && !grenade {
            at2(
                src,
                p.field("throw_back"),
                format!("only a grenade is thrown back; `{}` is not one", a.weapon),
            );
        }
        if grenade && (a.full_round || a.rapid_shot) {
            at2(
                src,
                p.clone(),
                "a grenade is thrown one at a time: no full round or Rapid Shot".into(),
            );
        }
    }
    let mut character_ids = BTreeSet::new();
    for (i, c) in roster.characters.iter().enumerate() {
        let p = root.field("characters").index(i);
        if !character_ids.insert(c.id.as_str()) {
            at2(
                roster_src,
                p.field("id"),
                format!("character `{}` is defined twice", c.id),
            );
        }
        for s in &stat_ids {
            if !c.stats.contains_key(s) {
                at2(
                    roster_src,
                    p.field("stats"),
                    format!("stat `{s}` is missing"),
                );
            }
        }
        for (s, v) in &c.stats {
            if !stat_ids.contains(s) {
                at2(
                    roster_src,
                    p.field("stats").field(s),
                    format!("unknown stat `{s}` (see d20.ron `stats`)"),
                );
            } else if !(-100..=1000).contains(v) {
                at2(
                    roster_src,
                    p.field("stats").field(s),
                    "a stat is -100 to 1000".into(),
                );
            } else if let Some(kind) = rules.stats.iter().find(|d| &d.id == s).map(|d| d.kind)
                && let Some(msg) = rules.build.refuse("d20.ron", &[kind.build_key()], s, *v)
            {
                at2(roster_src, p.field("stats").field(s), msg);
            }
        }
        if !(1..=shinobi::MAX_VALUE).contains(&c.hp) {
            at2(roster_src, p.field("hp"), "HP is at least 1".into());
        } else if let Some(msg) = rules.build.refuse("d20.ron", &["hp"], "HP", c.hp) {
            at2(roster_src, p.field("hp"), msg);
        }
        if !weapon_ids.contains(c.weapon.as_str()) {
            at2(
                roster_src,
                p.field("weapon"),
                format!("unknown weapon `{}` (see d20.ron `weapons`)", c.weapon),
            );
        } else if grenade_ids.contains(c.weapon.as_str()) {
            at2(
                roster_src,
                p.field("weapon"),
                format!("`{}` is a grenade: it is carried in `grenades`", c.weapon),
            );
        }
        if let Some(a) = &c.armour
            && !rules.armours.iter().any(|x| &x.id == a)
        {
            at2(
                roster_src,
                p.field("armour"),
                format!("unknown armour `{a}` (see d20.ron `armours`)"),
            );
        }
        for (g, n) in &c.grenades {
            if !grenade_ids.contains(g.as_str()) {
                at2(
                    roster_src,
                    p.field("grenades").field(g),
                    format!("`{g}` is not a grenade (see d20.ron `weapons`, class `Grenade`)"),
                );
            } else if !(1..=100).contains(n) {
                at2(
                    roster_src,
                    p.field("grenades").field(g),
                    "a character carries 1 to 100 of a grenade".into(),
                );
            }
        }
        if c.attacks.is_empty() {
            at2(
                roster_src,
                p.field("attacks"),
                "a character needs an attack".into(),
            );
        }
        for (j, id) in c.attacks.iter().enumerate() {
            let Some(a) = rules.attacks.iter().find(|a| &a.id == id) else {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!("unknown attack `{id}` (see d20.ron `attacks`)"),
                );
                continue;
            };
            if a.throw_back {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!(
                        "`{id}` is every character's (throwing back a live grenade): leave it out"
                    ),
                );
            }
            if grenade_ids.contains(a.weapon.as_str()) {
                if !a.throw_back && c.grenades.get(&a.weapon).copied().unwrap_or(0) == 0 {
                    at2(
                        roster_src,
                        p.field("attacks").index(j),
                        format!(
                            "`{id}` throws `{}`, which this character does not carry (see `grenades`)",
                            a.weapon
                        ),
                    );
                }
            } else if a.weapon != c.weapon {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!(
                        "`{id}` is made with `{}`, not this character's weapon",
                        a.weapon
                    ),
                );
            }
            if a.rapid_shot && !c.feats.contains(&Feat::RapidShot) {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!("`{id}` needs the RapidShot feat"),
                );
            }
        }
    }
    errors.extend(errors2);
    errors
}

/// What a d20 `terrain.ron` may not say: the other families' cover, concealment and roll
/// modifiers (d20 cover and concealment are `cover_bonus` and `concealment_bonus`), a drop
/// when `d20.ron` has no `falling` rule or one out of 1 to 10,000 feet, and a Skill Check on a
/// stat `d20.ron` does not define.
pub fn terrain_errors(
    combat: &D20Rules,
    terrain: &TerrainRules,
    src: &(PathBuf, String),
) -> Vec<RulesError> {
    let stats: Vec<&str> = combat.stats.iter().map(|s| s.id.as_str()).collect();
    let mut errors = neutral::skill_check_errors(terrain, src, &stats);
    errors.extend(neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| {
            vec![
                ("roll_modifier", t.roll_modifier.is_some()),
                ("cover_rank", t.cover_rank.is_some()),
                ("absorb", t.absorb.is_some()),
                ("concealment", t.concealment.is_some()),
                ("drop", t.drop.is_some() && combat.falling.is_none()),
                ("breaks_into", t.breaks_into.is_some()),
                ("swimming", t.swimming.is_some()),
            ]
        },
        |field| match field {
            "drop" => "a drop needs a `falling` rule in d20.ron".into(),
            _ => {
                format!("`{field}` is not a d20 rule (write `cover_bonus` or `concealment_bonus`)")
            }
        },
    ));
    for (i, t) in terrain.types.iter().enumerate() {
        let p = FieldPath::root().field("types").index(i);
        errors.extend(crate::ruleset::neutral::drop_error(t, src, &p));
        for (field, v) in [
            ("cover_bonus", t.cover_bonus),
            ("concealment_bonus", t.concealment_bonus),
        ] {
            if v.is_some_and(|v| !(1..=100).contains(&v)) {
                errors.push(RulesError::at(
                    &src.0,
                    &src.1,
                    &p.field(field),
                    "a bonus is 1 to 100",
                ));
            }
        }
        let why = match t.cover_dr {
            Some(dr) if !(0..=1000).contains(&dr) => Some("damage reduction is 0 to 1000"),
            Some(_) if t.cover_bonus.is_none() => {
                Some("a `cover_dr` belongs to cover: give it a `cover_bonus`")
            }
            _ => None,
        };
        if let Some(why) = why {
            errors.push(RulesError::at(&src.0, &src.1, &p.field("cover_dr"), why));
        }
    }
    errors
}

/// What a `terrain.ron` of neither d20 nor Digimon may not say: d20 cover and concealment
/// bonuses and Skill Checks on the ground, which other families would silently ignore.
pub fn foreign_terrain_errors(terrain: &TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| {
            vec![
                ("cover_bonus", t.cover_bonus.is_some()),
                ("concealment_bonus", t.concealment_bonus.is_some()),
                ("cover_dr", t.cover_dr.is_some()),
                ("skill_check", t.skill_check.is_some()),
            ]
        },
        |field| {
            let whose = if field == "skill_check" {
                "a d20 and Digimon rule"
            } else {
                "a d20 rule"
            };
            format!("`{field}` is {whose}; this ruleset's family does not use it")
        },
    )
}
