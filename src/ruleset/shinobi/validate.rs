//! The checks of a shinobi ruleset's own files (`shinobi.ron`, `roster.ron`) and of any
//! `terrain.ron` against the chapter's rules, each error naming its file, line and field.

use super::*;

/// Every problem in a shinobi ruleset's own files: `src` and `roster_src` are their paths and
/// texts, for positions.
pub fn validate(
    rules: &ShinobiRules,
    roster: &ShinobiRoster,
    src: &(PathBuf, String),
    roster_src: &(PathBuf, String),
) -> Vec<RulesError> {
    let mut errors = Vec::new();
    let root = FieldPath::root();
    let mut at = |s: &(PathBuf, String), path: &FieldPath, msg: String| {
        errors.push(RulesError::at(&s.0, &s.1, path, msg));
    };
    let mut stat_ids = BTreeSet::new();
    for (i, s) in rules.stats.iter().enumerate() {
        if s.id.is_empty()
            || [HP, CHAKRA, MOVE].contains(&s.id.as_str())
            || !stat_ids.insert(s.id.as_str())
        {
            at(
                src,
                &root.field("stats").index(i).field("id"),
                format!(
                    "stat id `{}` is empty, reserved (HP, CHK, MV) or used twice",
                    s.id
                ),
            );
        }
    }
    let known = |id: &str| stat_ids.contains(id);
    let check_stat = |path: FieldPath, id: &str, errs: &mut Vec<(FieldPath, String)>| {
        if !known(id) {
            errs.push((path, format!("unknown stat `{id}` (see `stats`)")));
        }
    };
    let mut stat_errors: Vec<(FieldPath, String)> = Vec::new();
    if !(2..=1000).contains(&rules.die) {
        at(
            src,
            &root.field("die"),
            format!("a die has 2 to 1000 sides, not {}", rules.die),
        );
    }
    if rules.action_points == 0 || rules.action_points > 100 {
        at(
            src,
            &root.field("action_points"),
            "a character has 1 to 100 action points a round".into(),
        );
    }
    if rules.move_cost == 0 || rules.move_cost > rules.action_points {
        at(
            src,
            &root.field("move_cost"),
            "a move costs at least 1 AP and no more than a round's AP".into(),
        );
    }
    if rules.opportunity_cost == 0 || rules.opportunity_cost > rules.action_points {
        at(
            src,
            &root.field("opportunity_cost"),
            "an opportunity attack costs at least 1 AP and no more than a round's AP".into(),
        );
    }
    check_stat(
        root.field("speed_stat"),
        &rules.speed_stat,
        &mut stat_errors,
    );
    check_stat(
        root.field("initiative_tie_stat"),
        &rules.initiative_tie_stat,
        &mut stat_errors,
    );
    check_stat(
        root.field("sneak").field("attacker_skill"),
        &rules.sneak.attacker_skill,
        &mut stat_errors,
    );
    check_stat(
        root.field("sneak").field("defender_skill"),
        &rules.sneak.defender_skill,
        &mut stat_errors,
    );
    for (i, w) in rules.sneak.ways.iter().enumerate() {
        let p = root.field("sneak").field("ways").index(i);
        check_stat(
            p.field("attacker_skill"),
            &w.attacker_skill,
            &mut stat_errors,
        );
        check_stat(
            p.field("defender_skill"),
            &w.defender_skill,
            &mut stat_errors,
        );
    }
    check_stat(
        root.field("falling").field("skill"),
        &rules.falling.skill,
        &mut stat_errors,
    );
    for (name, _) in rules.initiative.variables() {
        check_stat(root.field("initiative"), &name, &mut stat_errors);
    }
    if rules.speed_table.is_empty()
        || rules
            .speed_table
            .windows(2)
            .any(|w| w[0].speed >= w[1].speed)
    {
        at(
            src,
            &root.field("speed_table"),
            "the Speed table needs rows in rising Speed order".into(),
        );
    }
    if rules.feet_per_square == 0 || rules.speed_table.iter().any(|r| r.feet > 100_000) {
        at(
            src,
            &root.field("feet_per_square"),
            "a square is at least 1 foot and a move at most 100,000 feet".into(),
        );
    }
    let kinds: BTreeSet<DefenseKind> = rules.defenses.iter().map(|d| d.kind).collect();
    if kinds.len() != 3 || rules.defenses.len() != 3 {
        at(
            src,
            &root.field("defenses"),
            "Dodge, Block and Deflect each need exactly one entry".into(),
        );
    }
    for (i, d) in rules.defenses.iter().enumerate() {
        for (j, t) in d.terms.iter().enumerate() {
            check_stat(
                root.field("defenses").index(i).field("terms").index(j),
                t,
                &mut stat_errors,
            );
        }
    }
    let mut weapon_names = BTreeSet::new();
    for (i, w) in rules.weapons.iter().enumerate() {
        let p = root.field("weapons").index(i);
        if w.name.is_empty() || !weapon_names.insert(w.name.as_str()) {
            at(
                src,
                &p.field("name"),
                format!("weapon name `{}` is empty or given twice", w.name),
            );
        }
        if !(1..=2).contains(&w.hands) {
            at(
                src,
                &p.field("hands"),
                format!("a weapon takes 1 or 2 hands, not {}", w.hands),
            );
        }
    }
    for (i, t) in rules.gen_resist.iter().enumerate() {
        check_stat(root.field("gen_resist").index(i), t, &mut stat_errors);
    }
    if rules.blindness > 100 {
        at(
            src,
            &root.field("blindness"),
            "a miss chance is a percent from 0 to 100".into(),
        );
    }
    for (i, a) in rules.attacks.iter().enumerate() {
        if let Some(w) = &a.sneak_with
            && !rules.sneak.ways.iter().any(|x| &x.id == w)
        {
            at(
                src,
                &root.field("attacks").index(i).field("sneak_with"),
                format!("unknown sneak way `{w}` (see `sneak.ways`)"),
            );
        }
    }
    if let Some(i) = rules.attacks.iter().position(|a| a.genjutsu)
        && rules.gen_resist.is_empty()
    {
        at(
            src,
            &root.field("attacks").index(i).field("genjutsu"),
            "a Genjutsu is resisted with Gen Resist: give `gen_resist` (the stats it adds, e.g. [\"AWA\", \"GEN\"])".into(),
        );
    }
    if rules.partial_cover_chance > 100 {
        at(
            src,
            &root.field("partial_cover_chance"),
            "a chance is a percent from 0 to 100".into(),
        );
    }
    if rules.deflect_chakra.denominator == 0 {
        at(
            src,
            &root.field("deflect_chakra").field("denominator"),
            "a fraction's denominator cannot be 0".into(),
        );
    }
    for (name, v) in [
        ("undefendable_penalty", rules.undefendable_penalty),
        (
            "deflect_low_chakra_penalty",
            rules.deflect_low_chakra_penalty,
        ),
    ] {
        if !(0..=MAX_VALUE).contains(&v) {
            at(
                src,
                &root.field(name),
                format!("a penalty is written as 0 to {MAX_VALUE}, not {v}"),
            );
        }
    }
    if !(0..=MAX_VALUE).contains(&rules.sneak.penalty) {
        at(
            src,
            &root.field("sneak").field("penalty"),
            format!("a penalty is written as 0 to {MAX_VALUE}"),
        );
    }
    let mut attack_ids = BTreeSet::new();
    for (i, a) in rules.attacks.iter().enumerate() {
        let p = root.field("attacks").index(i);
        if a.id.is_empty() || !attack_ids.insert(a.id.as_str()) {
            at(
                src,
                &p.field("id"),
                format!("attack id `{}` is empty or used twice", a.id),
            );
        }
        if a.ap == 0 || a.ap > rules.action_points {
            at(
                src,
                &p.field("ap"),
                format!(
                    "an attack costs 1 to {} AP (a round's AP), not {}",
                    rules.action_points, a.ap
                ),
            );
        }
        if a.hit.is_empty() {
            at(
                src,
                &p.field("hit"),
                "an attack needs at least one stat to hit with".into(),
            );
        }
        for (j, t) in a.hit.iter().enumerate() {
            check_stat(p.field("hit").index(j), t, &mut stat_errors);
        }
        for (j, t) in a.damage.iter().enumerate() {
            check_stat(p.field("damage").index(j), t, &mut stat_errors);
        }
        for (name, v) in [("chakra", a.chakra), ("damage_bonus", a.damage_bonus)] {
            if !(0..=MAX_VALUE).contains(&v) {
                at(
                    src,
                    &p.field(name),
                    format!("must be 0 to {MAX_VALUE}, not {v}"),
                );
            }
        }
        if a.push > 100 {
            at(
                src,
                &p.field("push"),
                "a push moves at most 100 squares".into(),
            );
        }
        if a.push > 0 && !matches!(a.targeting, Targeting::Single) {
            at(
                src,
                &p.field("push"),
                "only a single-target attack can push (an area's targets would be pushed into each other)".into(),
            );
        }
        if let Targeting::Area {
            origin: AreaOrigin::ChosenSquare,
            ..
        } = a.targeting
            && a.reach == Reach::Melee
        {
            at(
                src,
                &p.field("reach"),
                "an area placed on a chosen square needs a reach of Within(n) or Any".into(),
            );
        }
    }
    let mut counter_ids = BTreeSet::new();
    for (i, c) in rules.counters.iter().enumerate() {
        let p = root.field("counters").index(i);
        if c.id.is_empty()
            || attack_ids.contains(c.id.as_str())
            || !counter_ids.insert(c.id.as_str())
        {
            at(
                src,
                &p.field("id"),
                format!(
                    "counter id `{}` is empty, an attack's id or used twice",
                    c.id
                ),
            );
        }
        if c.ap == 0 || c.ap > rules.action_points {
            at(
                src,
                &p.field("ap"),
                format!(
                    "a counter costs 1 to {} AP, not {}",
                    rules.action_points, c.ap
                ),
            );
        }
        for (j, t) in c.damage.iter().enumerate() {
            check_stat(p.field("damage").index(j), t, &mut stat_errors);
        }
        for (name, v) in [("chakra", c.chakra), ("damage_bonus", c.damage_bonus)] {
            if !(0..=MAX_VALUE).contains(&v) {
                at(
                    src,
                    &p.field(name),
                    format!("must be 0 to {MAX_VALUE}, not {v}"),
                );
            }
        }
    }
    for (path, msg) in stat_errors {
        at(src, &path, msg);
    }
    if roster.ninja.is_empty() {
        at(
            roster_src,
            &root.field("ninja"),
            "at least one ninja is needed".into(),
        );
    }
    let mut ids = BTreeSet::new();
    for (i, n) in roster.ninja.iter().enumerate() {
        let p = root.field("ninja").index(i);
        if n.id.is_empty() || !ids.insert(n.id.as_str()) {
            at(
                roster_src,
                &p.field("id"),
                format!("ninja id `{}` is empty or used twice", n.id),
            );
        }
        for s in &rules.stats {
            if !n.stats.contains_key(&s.id) {
                at(
                    roster_src,
                    &p.field("stats"),
                    format!(
                        "stat `{}` is missing: every stat of shinobi.ron needs a value",
                        s.id
                    ),
                );
            }
        }
        for (id, v) in &n.stats {
            if !stat_ids.contains(id.as_str()) {
                at(
                    roster_src,
                    &p.field("stats").field(id),
                    format!("unknown stat `{id}` (see shinobi.ron's stats)"),
                );
            } else if !(0..=MAX_VALUE).contains(v) {
                at(
                    roster_src,
                    &p.field("stats").field(id),
                    format!("a stat is 0 to {MAX_VALUE}, not {v}"),
                );
            } else if let Some(kind) = rules.stats.iter().find(|s| &s.id == id).map(|s| s.kind)
                && let Some(msg) = rules
                    .build
                    .refuse("shinobi.ron", &[kind.build_key()], id, *v)
            {
                at(roster_src, &p.field("stats").field(id), msg);
            }
        }
        if !(1..=MAX_VALUE).contains(&n.hp) {
            at(
                roster_src,
                &p.field("hp"),
                format!("HP is 1 to {MAX_VALUE}, not {}", n.hp),
            );
        } else if let Some(msg) = rules.build.refuse("shinobi.ron", &["hp"], "HP", n.hp) {
            at(roster_src, &p.field("hp"), msg);
        }
        if !(0..=MAX_VALUE).contains(&n.chakra) {
            at(
                roster_src,
                &p.field("chakra"),
                format!("chakra is 0 to {MAX_VALUE}, not {}", n.chakra),
            );
        } else if let Some(msg) = rules
            .build
            .refuse("shinobi.ron", &["chakra"], "Chakra", n.chakra)
        {
            at(roster_src, &p.field("chakra"), msg);
        }
        if n.attacks.is_empty() {
            at(
                roster_src,
                &p.field("attacks"),
                "a ninja needs at least one attack".into(),
            );
        }
        if let Some(w) = &n.weapon
            && !rules.weapons.iter().any(|x| &x.name == w)
        {
            at(
                roster_src,
                &p.field("weapon"),
                format!(
                    "unknown weapon `{w}` (see shinobi.ron's weapons, which say the hands each takes)"
                ),
            );
        }
        for (j, a) in n.attacks.iter().enumerate() {
            match rules.attacks.iter().find(|x| &x.id == a) {
                None => at(
                    roster_src,
                    &p.field("attacks").index(j),
                    format!("unknown attack `{a}` (see shinobi.ron's attacks)"),
                ),
                Some(x) if x.weapon && n.weapon.is_none() => at(
                    roster_src,
                    &p.field("attacks").index(j),
                    format!("`{a}` needs a weapon and this ninja has none"),
                ),
                Some(_) => {}
            }
        }
        for (j, c) in n.counters.iter().enumerate() {
            match rules.counters.iter().find(|x| &x.id == c) {
                None => at(
                    roster_src,
                    &p.field("counters").index(j),
                    format!("unknown counter `{c}` (see shinobi.ron's counters)"),
                ),
                Some(x) if x.weapon && n.weapon.is_none() => at(
                    roster_src,
                    &p.field("counters").index(j),
                    format!("`{c}` needs a weapon and this ninja has none"),
                ),
                Some(_) => {}
            }
        }
    }
    errors
}

/// What a shinobi `terrain.ron` may not say: DBU's Hardness cover and roll modifiers are not
/// rules of this chapter (cover here absorbs damage: `absorb`), so refuse them rather than
/// ignore them silently.
pub fn terrain_errors(terrain: &TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    let mut errors = Vec::new();
    for (i, t) in terrain.types.iter().enumerate() {
        let p = FieldPath::root().field("types").index(i);
        if t.roll_modifier.is_some() {
            errors.push(RulesError::at(
                &src.0,
                &src.1,
                &p.field("roll_modifier"),
                "shinobi terrain cannot change rolls (concealment is `concealment`)",
            ));
        }
        if t.cover_rank.is_some() {
            errors.push(RulesError::at(
                &src.0,
                &src.1,
                &p.field("cover_rank"),
                "shinobi cover absorbs damage: write `absorb: N`, not a Hardness rank",
            ));
        }
        if t.absorb.is_some_and(|a| !(1..=MAX_VALUE).contains(&a)) {
            errors.push(RulesError::at(
                &src.0,
                &src.1,
                &p.field("absorb"),
                format!("cover absorbs 1 to {MAX_VALUE} damage"),
            ));
        }
        if let Some(into) = &t.breaks_into {
            let known = terrain.types.iter().any(|o| o.id == *into && o.id != t.id);
            let why = if t.absorb.is_none() {
                Some("only cover that absorbs damage (`absorb`) breaks".to_string())
            } else if !known {
                Some(format!(
                    "`{into}` is not another terrain here (known: {})",
                    terrain
                        .types
                        .iter()
                        .map(|o| o.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            } else {
                None
            };
            if let Some(why) = why {
                errors.push(RulesError::at(&src.0, &src.1, &p.field("breaks_into"), why));
            }
        }
        errors.extend(super::neutral::drop_error(t, src, &p));
        if t.concealment.is_some_and(|c| c > 100) {
            errors.push(RulesError::at(
                &src.0,
                &src.1,
                &p.field("concealment"),
                "a miss chance is a percent from 0 to 100",
            ));
        }
    }
    errors
}

/// What a non-shinobi `terrain.ron` may not say: absorbing cover and concealment are shinobi
/// rules, which other families would silently ignore.
pub fn foreign_terrain_errors(terrain: &TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| {
            vec![
                ("absorb", t.absorb.is_some()),
                ("concealment", t.concealment.is_some()),
                ("drop", t.drop.is_some()),
                ("breaks_into", t.breaks_into.is_some()),
                ("swimming", t.swimming.is_some()),
            ]
        },
        |field| format!("`{field}` is a shinobi rule; this ruleset's family does not use it"),
    )
}
