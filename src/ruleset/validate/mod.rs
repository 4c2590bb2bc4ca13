//! Checks a parsed ruleset for everything serde cannot: unknown ids, formulas that read names
//! that do not exist, numbers outside the rules' limits, and roster builds over budget.

mod archetype;

pub use archetype::archetype_errors;

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::locate::FieldPath;
use super::schema::*;
use super::{Rules, RulesError};
use crate::dice::{DiceFormula, Formula};
use archetype::check_archetype;

const RULESET: usize = 0;

const DICE: usize = 1;

const CHARACTERS: usize = 2;

const ATTACKS: usize = 3;

const DAMAGE: usize = 4;

const CONDITIONS: usize = 5;

const ACTIONS: usize = 6;

const ROSTER: usize = 7;

const TERRAIN: usize = 8;

const TIER: &[&str] = &["T", "bT"];

struct Checker<'a> {
    sources: &'a [(PathBuf, String)],
    errors: Vec<RulesError>,
}

impl Checker<'_> {
    fn err(&mut self, file: usize, path: &FieldPath, message: impl Into<String>) {
        let (f, src) = &self.sources[file];
        self.errors.push(RulesError::at(f, src, path, message));
    }

    fn names(
        &mut self,
        file: usize,
        path: &FieldPath,
        vars: Vec<(String, usize)>,
        allowed: &[&str],
    ) {
        for (name, _) in vars {
            if !allowed.contains(&name.as_str()) {
                self.err(
                    file,
                    path,
                    format!(
                        "unknown name `{name}` in this formula (allowed here: {})",
                        allowed.join(", ")
                    ),
                );
            }
        }
    }

    fn formula(&mut self, file: usize, path: &FieldPath, f: &Formula, allowed: &[&str]) {
        self.names(file, path, f.variables(), allowed);
    }

    fn dice(&mut self, file: usize, path: &FieldPath, f: &DiceFormula, allowed: &[&str]) {
        self.names(file, path, f.variables(), allowed);
    }

    fn unique<'b>(&mut self, file: usize, list: &FieldPath, ids: impl Iterator<Item = &'b str>) {
        let mut seen = BTreeSet::new();
        for (i, id) in ids.enumerate() {
            if id.is_empty() {
                self.err(file, &list.index(i).field("id"), "an id cannot be empty");
            } else if !seen.insert(id) {
                self.err(
                    file,
                    &list.index(i).field("id"),
                    format!("duplicate id `{id}`"),
                );
            }
        }
    }

    fn fraction(&mut self, file: usize, path: &FieldPath, f: &Fraction) {
        if f.denominator == 0 {
            self.err(
                file,
                &path.field("denominator"),
                "a denominator cannot be 0",
            );
        }
    }
}

/// Every problem in `rules`; `sources` are the files' paths and texts in [`super::DBU_FILES`]
/// order.
pub(super) fn validate(rules: &Rules, sources: &[(PathBuf, String)]) -> Vec<RulesError> {
    let mut c = Checker {
        sources,
        errors: Vec::new(),
    };
    let root = FieldPath::root();
    let attrs: Vec<&str> = rules
        .characters
        .attributes
        .iter()
        .map(|a| a.id.as_str())
        .collect();
    let with_attrs: Vec<&str> = attrs.iter().copied().chain(TIER.iter().copied()).collect();

    // ruleset.ron
    if rules.manifest.id.is_empty() {
        c.err(RULESET, &root.field("id"), "the ruleset id cannot be empty");
    }

    // dice.ron
    let d = &rules.dice;
    if d.base_die < 2 {
        c.err(
            DICE,
            &root.field("base_die"),
            "the base die needs at least 2 sides",
        );
    }
    if d.tiers.is_empty() {
        c.err(
            DICE,
            &root.field("tiers"),
            "at least one Tier of Power row is needed",
        );
    }
    for (i, t) in d.tiers.iter().enumerate() {
        let p = root.field("tiers").index(i);
        if t.tier as usize != i + 1 {
            c.err(
                DICE,
                &p.field("tier"),
                format!(
                    "rows must be numbered 1, 2, 3… in order; expected {}",
                    i + 1
                ),
            );
        }
        c.dice(DICE, &p.field("extra_dice"), &t.extra_dice, &[]);
        c.dice(DICE, &p.field("critical_dice"), &t.critical_dice, &[]);
        if t.diminishing_defense < 0 {
            c.err(DICE, &p.field("diminishing_defense"), "cannot be negative");
        }
    }
    c.formula(
        DICE,
        &root.field("tier_from_power_level"),
        &d.tier_from_power_level,
        &["PL"],
    );
    if d.critical_target_floor < 2 || d.critical_target_floor > d.base_die {
        c.err(
            DICE,
            &root.field("critical_target_floor"),
            format!("must be between 2 and the base die's {} sides", d.base_die),
        );
    }
    if d.critical_target < d.critical_target_floor || d.critical_target > d.base_die {
        c.err(
            DICE,
            &root.field("critical_target"),
            format!(
                "must be between the floor {} and {}",
                d.critical_target_floor, d.base_die
            ),
        );
    }
    if d.botch_range >= d.critical_target_floor {
        c.err(
            DICE,
            &root.field("botch_range"),
            "the Botch Range must stay below every possible Critical Target",
        );
    }
    c.formula(DICE, &root.field("botch_penalty"), &d.botch_penalty, TIER);
    c.dice(
        DICE,
        &root.field("skill_critical_dice"),
        &d.skill_critical_dice,
        &[],
    );
    if d.superiority_critical == 0 || d.superiority_critical > 10 {
        c.err(
            DICE,
            &root.field("superiority_critical"),
            "must be a face of a d10",
        );
    }
    let s = &d.steadfast;
    if s.pass_at == 0 || s.pass_at > s.die || s.critical_at > s.die {
        c.err(
            DICE,
            &root.field("steadfast"),
            "pass_at and critical_at must be faces of the die",
        );
    }
    c.unique(
        DICE,
        &root.field("difficulties"),
        d.difficulties.iter().map(|x| x.id.as_str()),
    );

    // characters.ron
    let ch = &rules.characters;
    c.unique(
        CHARACTERS,
        &root.field("attributes"),
        ch.attributes.iter().map(|a| a.id.as_str()),
    );
    let derived_vars: Vec<&str> = attrs
        .iter()
        .copied()
        .chain(["T", "bT", "PL", "RLM", "SIZE_DV", "SIZE_SOAK", "SIZE_SPEED"])
        .collect();
    let dv = root.field("derived");
    let df = &ch.derived;
    for (name, f) in [
        ("haste", &df.haste),
        ("awareness", &df.awareness),
        ("might", &df.might),
        ("defense_value", &df.defense_value),
        ("soak", &df.soak),
        ("soak_minimum", &df.soak_minimum),
        ("normal_speed", &df.normal_speed),
        ("boosted_speed", &df.boosted_speed),
        ("initiative", &df.initiative),
        ("life", &df.life),
        ("ki", &df.ki),
        ("capacity", &df.capacity),
    ] {
        c.formula(CHARACTERS, &dv.field(name), f, &derived_vars);
    }
    c.unique(
        CHARACTERS,
        &root.field("sizes"),
        ch.sizes.iter().map(|s| s.id.as_str()),
    );
    for (i, s) in ch.sizes.iter().enumerate() {
        let p = root.field("sizes").index(i);
        if s.squares == 0 {
            c.err(
                CHARACTERS,
                &p.field("squares"),
                "a size occupies at least 1 square",
            );
        }
        if s.melee_range == 0 {
            c.err(
                CHARACTERS,
                &p.field("melee_range"),
                "melee range is at least 1 (adjacent)",
            );
        }
        c.formula(
            CHARACTERS,
            &p.field("defense_value"),
            &s.defense_value,
            TIER,
        );
        c.formula(CHARACTERS, &p.field("soak"), &s.soak, TIER);
    }
    c.unique(
        CHARACTERS,
        &root.field("saves"),
        ch.saves.iter().map(|s| s.id.as_str()),
    );
    for (i, s) in ch.saves.iter().enumerate() {
        if !attrs.contains(&s.attribute.as_str()) {
            c.err(
                CHARACTERS,
                &root.field("saves").index(i).field("attribute"),
                format!("unknown attribute `{}`", s.attribute),
            );
        }
    }
    c.formula(
        CHARACTERS,
        &root.field("racial_save_bonus"),
        &ch.racial_save_bonus,
        TIER,
    );
    c.unique(
        CHARACTERS,
        &root.field("skills"),
        ch.skills.iter().map(|s| s.id.as_str()),
    );
    for (i, s) in ch.skills.iter().enumerate() {
        if !attrs.contains(&s.attribute.as_str()) {
            c.err(
                CHARACTERS,
                &root.field("skills").index(i).field("attribute"),
                format!("unknown attribute `{}`", s.attribute),
            );
        }
    }
    c.formula(
        CHARACTERS,
        &root.field("skill_bonus"),
        &ch.skill_bonus,
        &["SCORE", "RANKS"],
    );
    let m = root.field("minion");
    c.fraction(
        CHARACTERS,
        &m.field("life_fraction"),
        &ch.minion.life_fraction,
    );
    c.fraction(CHARACTERS, &m.field("ki_fraction"), &ch.minion.ki_fraction);
    for (i, t) in ch.minion.thresholds.iter().enumerate() {
        if rules.threshold_index(t).is_none() {
            c.err(
                CHARACTERS,
                &m.field("thresholds").index(i),
                format!("unknown Health Threshold `{t}`"),
            );
        }
    }

    // attacks.ron
    let at = &rules.attacks;
    c.unique(
        ATTACKS,
        &root.field("types"),
        at.types.iter().map(|t| t.id.as_str()),
    );
    for (i, t) in at.types.iter().enumerate() {
        let p = root.field("types").index(i);
        if let Some(a) = &t.damage_attribute
            && !attrs.contains(&a.as_str())
        {
            c.err(
                ATTACKS,
                &p.field("damage_attribute"),
                format!("unknown attribute `{a}`"),
            );
        }
        if let Some(r) = &t.required_score
            && !attrs.contains(&r.attribute.as_str())
        {
            c.err(
                ATTACKS,
                &p.field("required_score").field("attribute"),
                format!("unknown attribute `{}`", r.attribute),
            );
        }
    }
    c.formula(
        ATTACKS,
        &root.field("long_range").field("strike_penalty"),
        &at.long_range.strike_penalty,
        TIER,
    );
    let ec = root.field("energy_charge");
    c.dice(
        ATTACKS,
        &ec.field("wound_per_charge"),
        &at.energy_charge.wound_per_charge,
        TIER,
    );
    c.formula(
        ATTACKS,
        &ec.field("parry_penalty_per_charge"),
        &at.energy_charge.parry_penalty_per_charge,
        TIER,
    );
    if let Some(m) = &at.energy_charge.maneuver {
        let mp = ec.field("maneuver");
        c.formula(ATTACKS, &mp.field("ki_cost"), &m.ki_cost, TIER);
        c.dice(
            ATTACKS,
            &mp.field("technique_wound_per_charge"),
            &m.technique_wound_per_charge,
            TIER,
        );
        if m.actions == 0 || m.max_charges == 0 {
            c.err(
                ATTACKS,
                &mp,
                "an Energy Charge costs at least one Action and holds at least one charge",
            );
        }
        for (i, t) in m.attack_types.iter().enumerate() {
            if rules.attack_type(t).is_none() {
                c.err(
                    ATTACKS,
                    &mp.field("attack_types").index(i),
                    format!("unknown attack type `{t}`"),
                );
            }
        }
    }
    if let Some(r) = &at.reflect {
        let rp = root.field("reflect");
        c.formula(ATTACKS, &rp.field("ki_cost"), &r.ki_cost, TIER);
        for (i, t) in r.attack_types.iter().enumerate() {
            if rules.attack_type(t).is_none() {
                c.err(
                    ATTACKS,
                    &rp.field("attack_types").index(i),
                    format!("unknown attack type `{t}`"),
                );
            }
        }
    }
    c.unique(
        ATTACKS,
        &root.field("profiles"),
        at.profiles.iter().map(|p| p.id.as_str()),
    );
    for (i, pr) in at.profiles.iter().enumerate() {
        let p = root.field("profiles").index(i);
        if rules.attack_type(&pr.attack_type).is_none() {
            c.err(
                ATTACKS,
                &p.field("attack_type"),
                format!("unknown attack type `{}`", pr.attack_type),
            );
        }
        c.formula(ATTACKS, &p.field("cost"), &pr.cost, &with_attrs);
        if let Targeting::Area { shape, .. } = pr.targeting {
            match shape {
                AreaShape::Cone { length, width } | AreaShape::Line { length, width }
                    if length == 0 || width % 2 == 0 =>
                {
                    c.err(
                        ATTACKS,
                        &p.field("targeting"),
                        "cones and lines need a length of at least 1 and an odd width",
                    );
                }
                _ => {}
            }
        }
        for (j, e) in pr.effects.iter().enumerate() {
            let ep = p.field("effects").index(j);
            match e {
                ProfileEffect::MultiHit {
                    hits,
                    damage_per_hit,
                } => {
                    c.dice(ATTACKS, &ep, hits, TIER);
                    if *damage_per_hit < 1 {
                        c.err(ATTACKS, &ep, "damage_per_hit must be at least 1");
                    }
                }
                ProfileEffect::ReplaceWound { dice } => c.dice(ATTACKS, &ep, dice, TIER),
                ProfileEffect::GuardDownBonus { wound, push } => {
                    c.formula(ATTACKS, &ep, wound, &with_attrs);
                    c.formula(ATTACKS, &ep, push, &with_attrs);
                }
                ProfileEffect::SingleTargetWound { dice } => c.dice(ATTACKS, &ep, dice, TIER),
                ProfileEffect::TargetDefense { modifier } => {
                    c.formula(ATTACKS, &ep, modifier, &with_attrs)
                }
                ProfileEffect::DefenseDownOnDamage { amount } => {
                    c.formula(ATTACKS, &ep, amount, &with_attrs)
                }
                ProfileEffect::KiDrain { fraction } => c.fraction(ATTACKS, &ep, fraction),
                ProfileEffect::CriticalTarget { strike, wound } => {
                    if *strike > 0 || *wound > 0 {
                        c.err(
                            ATTACKS,
                            &ep,
                            "Critical Target changes lower it: use 0 or less",
                        );
                    }
                }
                ProfileEffect::StrikeBotchRange { range } => {
                    if *range >= rules.dice.critical_target_floor {
                        c.err(
                            ATTACKS,
                            &ep,
                            "a Botch Range must stay below the Critical Target floor",
                        );
                    }
                }
                ProfileEffect::DamageAttributeAgain
                | ProfileEffect::ExtraReach { .. }
                | ProfileEffect::CriticalStrikeCategory { .. }
                | ProfileEffect::FreeEnergyCharges { .. }
                | ProfileEffect::ElementChoice => {}
            }
        }
        let multi = pr
            .effects
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    ProfileEffect::MultiHit { .. } | ProfileEffect::ReplaceWound { .. }
                )
            })
            .count();
        if multi > 1 {
            c.err(
                ATTACKS,
                &p.field("effects"),
                "a profile can replace its Wound dice only once (MultiHit or ReplaceWound)",
            );
        }
    }
    c.unique(
        ATTACKS,
        &root.field("elements"),
        at.elements.iter().map(|e| e.id.as_str()),
    );
    for (i, el) in at.elements.iter().enumerate() {
        for (j, g) in el.on_damage.iter().enumerate() {
            let gp = root.field("elements").index(i).field("on_damage").index(j);
            check_grant(&mut c, ATTACKS, &gp, g);
        }
    }
    if let Some(cs) = &at.called_shot {
        let cp = root.field("called_shot");
        c.formula(ATTACKS, &cp.field("ki_cost"), &cs.ki_cost, TIER);
        c.formula(
            ATTACKS,
            &cp.field("strike_penalty"),
            &cs.strike_penalty,
            TIER,
        );
        if cs.targets.is_empty() {
            c.err(
                ATTACKS,
                &cp.field("targets"),
                "a Called Shot names at least one body part",
            );
        }
        c.unique(
            ATTACKS,
            &cp.field("targets"),
            cs.targets.iter().map(|t| t.id.as_str()),
        );
        for (i, t) in cs.targets.iter().enumerate() {
            for (j, g) in t.on_damage.iter().enumerate() {
                let gp = cp.field("targets").index(i).field("on_damage").index(j);
                check_grant(&mut c, ATTACKS, &gp, g);
            }
        }
    }

    // damage.ron
    let dm = &rules.damage;
    for cat in [Category::Standard, Category::Direct, Category::Lethal] {
        let n = dm.categories.iter().filter(|c| c.category == cat).count();
        if n != 1 {
            c.err(
                DAMAGE,
                &root.field("categories"),
                format!("{cat:?} must be listed exactly once (found {n})"),
            );
        }
    }
    for (i, cd) in dm.categories.iter().enumerate() {
        c.fraction(
            DAMAGE,
            &root.field("categories").index(i).field("soak"),
            &cd.soak,
        );
    }
    c.unique(
        DAMAGE,
        &root.field("thresholds"),
        dm.thresholds.iter().map(|t| t.id.as_str()),
    );
    let mut last = f64::INFINITY;
    for (i, t) in dm.thresholds.iter().enumerate() {
        let p = root.field("thresholds").index(i);
        c.fraction(DAMAGE, &p.field("fraction"), &t.fraction);
        c.formula(DAMAGE, &p.field("penalty"), &t.penalty, TIER);
        let v = f64::from(t.fraction.numerator) / f64::from(t.fraction.denominator.max(1));
        if v >= last || v >= 1.0 {
            c.err(
                DAMAGE,
                &p.field("fraction"),
                "thresholds go from the highest to the lowest, each below 1",
            );
        }
        last = v;
    }
    let re = root.field("rage_entry");
    if rules.threshold_index(&dm.rage_entry.threshold).is_none() {
        c.err(
            DAMAGE,
            &re.field("threshold"),
            format!("unknown Health Threshold `{}`", dm.rage_entry.threshold),
        );
    }
    if rules.save(&dm.rage_entry.save).is_none() {
        c.err(
            DAMAGE,
            &re.field("save"),
            format!("unknown Save `{}`", dm.rage_entry.save),
        );
    }
    check_difficulty(
        &mut c,
        rules,
        DAMAGE,
        &re.field("difficulty"),
        &dm.rage_entry.difficulty,
    );
    c.unique(
        DAMAGE,
        &root.field("recoveries"),
        dm.recoveries.iter().map(|r| r.id.as_str()),
    );
    for (i, r) in dm.recoveries.iter().enumerate() {
        c.fraction(
            DAMAGE,
            &root.field("recoveries").index(i).field("restores"),
            &r.restores,
        );
    }

    // conditions.ron
    let cs = &rules.conditions;
    for kind in ConditionKind::ALL {
        let n = cs
            .conditions
            .iter()
            .filter(|d| d.rule.kind() == kind)
            .count();
        if n != 1 {
            c.err(
                CONDITIONS,
                &root.field("conditions"),
                format!("the {kind:?} condition must be defined exactly once (found {n})"),
            );
        }
    }
    for (i, cd) in cs.conditions.iter().enumerate() {
        let p = root.field("conditions").index(i).field("rule");
        match &cd.rule {
            ConditionRule::Absorbed { save, .. } if rules.save(save).is_none() => {
                c.err(CONDITIONS, &p, format!("unknown Save `{save}`"));
            }
            ConditionRule::Blinded { divisor }
            | ConditionRule::Fatigued { divisor, .. }
            | ConditionRule::Weakened { divisor, .. }
            | ConditionRule::Shaken {
                speed_divisor: divisor,
                ..
            } if *divisor < 1 => {
                c.err(CONDITIONS, &p, "a divisor must be at least 1");
            }
            ConditionRule::DamageOverTime { cap, .. } => c.formula(CONDITIONS, &p, cap, TIER),
            ConditionRule::GuardDown {
                dodge_penalty,
                dodge_rolls,
            } => {
                c.formula(CONDITIONS, &p, dodge_penalty, TIER);
                if *dodge_rolls == 0 {
                    c.err(CONDITIONS, &p, "dodge_rolls must be at least 1");
                }
            }
            ConditionRule::Poisoned {
                life_loss,
                low_life_penalty,
                cure,
            } => {
                c.fraction(CONDITIONS, &p, life_loss);
                c.formula(CONDITIONS, &p, low_life_penalty, TIER);
                check_check(&mut c, rules, CONDITIONS, &p.field("cure"), cure);
            }
            ConditionRule::Shaken { strike_penalty, .. } => {
                c.formula(CONDITIONS, &p, strike_penalty, TIER)
            }
            _ => {}
        }
    }
    check_check(
        &mut c,
        rules,
        CONDITIONS,
        &root.field("end_condition"),
        &cs.end_condition,
    );

    // actions.ron
    let ac = &rules.actions;
    if !attrs.contains(&ac.initiative_tie_attribute.as_str()) {
        c.err(
            ACTIONS,
            &root.field("initiative_tie_attribute"),
            format!("unknown attribute `{}`", ac.initiative_tie_attribute),
        );
    }
    c.dice(
        ACTIONS,
        &root.field("healing_surge"),
        &ac.healing_surge,
        TIER,
    );
    c.formula(ACTIONS, &root.field("surgency"), &ac.surgency, &with_attrs);
    c.fraction(
        ACTIONS,
        &root.field("ki_surge_fraction"),
        &ac.ki_surge_fraction,
    );
    c.fraction(
        ACTIONS,
        &root.field("ki_surge_capacity_fraction"),
        &ac.ki_surge_capacity_fraction,
    );
    if let Some(a) = &ac.arrogant_declaration {
        let ap = root.field("arrogant_declaration");
        c.formula(ACTIONS, &ap.field("penalty"), &a.penalty, TIER);
        if a.actions == 0 {
            c.err(
                ACTIONS,
                &ap.field("actions"),
                "an Arrogant Declaration costs at least one Action",
            );
        }
    }

    if let Some(e) = &ac.empower {
        let ep = root.field("empower");
        if e.might_per_action == 0 {
            c.err(
                ACTIONS,
                &ep.field("might_per_action"),
                "an Empower hands over at least 1 x Might Ki per Action",
            );
        }
        for (j, g) in e.full_conditions.iter().enumerate() {
            check_grant(&mut c, ACTIONS, &ep.field("full_conditions").index(j), g);
        }
    }

    if let Some(g) = &ac.grapple {
        let gp = root.field("grapple");
        if rules.profile(&g.profile).is_none() {
            c.err(
                ACTIONS,
                &gp.field("profile"),
                format!("no attack profile \"{}\" in attacks.ron", g.profile),
            );
        }
        for (name, n) in [
            ("actions", g.actions),
            ("pin_actions", g.pin_actions),
            ("absorb_actions", g.absorb_actions),
        ] {
            if n == 0 {
                c.err(
                    ACTIONS,
                    &gp.field(name),
                    "a grappling maneuver costs at least one Action",
                );
            }
        }
        c.formula(ACTIONS, &gp.field("pin_penalty"), &g.pin_penalty, TIER);
        c.formula(
            ACTIONS,
            &gp.field("escape_bonus_per_action"),
            &g.escape_bonus_per_action,
            TIER,
        );
    }

    if let Some(u) = &ac.united_attack {
        let up = root.field("united_attack");
        if u.actions == 0 {
            c.err(
                ACTIONS,
                &up.field("actions"),
                "a United Attack costs the ally at least one Action",
            );
        }
        for (name, f) in [
            ("attribute_share", &u.attribute_share),
            ("wager_share", &u.wager_share),
        ] {
            if f.denominator == 0 {
                c.err(
                    ACTIONS,
                    &up.field(name).field("denominator"),
                    "a share needs a denominator of at least 1",
                );
            }
        }
    }

    if let Some(h) = &ac.hide {
        let hp = root.field("hide");
        for (name, skill) in [("skill", &h.skill), ("against", &h.against)] {
            if rules.skill(skill).is_none() {
                c.err(
                    ACTIONS,
                    &hp.field(name),
                    format!("no skill \"{skill}\" in characters.ron"),
                );
            }
        }
        if h.actions == 0 {
            c.err(
                ACTIONS,
                &hp.field("actions"),
                "a Hide costs at least one Action",
            );
        }
    }

    // terrain.ron
    check_terrain(&mut c, &rules.terrain, TERRAIN);

    // roster.ron
    c.unique(
        ROSTER,
        &root.field("archetypes"),
        rules.roster.archetypes.iter().map(|a| a.id.as_str()),
    );
    for (i, a) in rules.roster.archetypes.iter().enumerate() {
        check_archetype(
            &mut c,
            rules,
            &attrs,
            ROSTER,
            &root.field("archetypes").index(i),
            a,
        );
    }
    c.errors
}

/// The checks of a `terrain.ron` (shared by every family), `file` its index in the sources.
fn check_terrain(c: &mut Checker, tr: &TerrainRules, file: usize) {
    let root = FieldPath::root();
    c.formula(
        file,
        &root.field("cover_reduction"),
        &tr.cover_reduction,
        &["RANK", "T", "bT"],
    );
    c.unique(
        file,
        &root.field("types"),
        tr.types.iter().map(|t| t.id.as_str()),
    );
    if tr.types.is_empty() {
        c.err(
            file,
            &root.field("types"),
            "at least one terrain type is needed",
        );
    }
    let mut symbols = BTreeSet::new();
    for (i, t) in tr.types.iter().enumerate() {
        let p = root.field("types").index(i);
        if !symbols.insert(t.symbol) {
            c.err(
                file,
                &p.field("symbol"),
                format!("symbol '{}' is used by two terrain types", t.symbol),
            );
        }
        if t.symbol.is_whitespace() {
            c.err(file, &p.field("symbol"), "a symbol cannot be a space");
        }
        if t.move_cost == Some(0) {
            c.err(file, &p.field("move_cost"), "a move costs at least 1");
        }
        if let Some(f) = &t.roll_modifier {
            c.formula(file, &p.field("roll_modifier"), f, TIER);
        }
        if t.cover_rank.is_some_and(|r| r < 0) {
            c.err(file, &p.field("cover_rank"), "a Hardness Rank is 0 or more");
        }
    }
}

/// Every problem in a `terrain.ron` on its own (for families other than DBU).
pub(super) fn terrain_errors(tr: &TerrainRules, source: &(PathBuf, String)) -> Vec<RulesError> {
    let sources = std::slice::from_ref(source);
    let mut c = Checker {
        sources,
        errors: Vec::new(),
    };
    check_terrain(&mut c, tr, 0);
    c.errors
}

fn check_difficulty(c: &mut Checker, rules: &Rules, file: usize, p: &FieldPath, id: &str) {
    if !rules.dice.difficulties.iter().any(|d| d.id == id) {
        c.err(file, p, format!("unknown difficulty `{id}` (see dice.ron)"));
    }
}

fn check_check(c: &mut Checker, rules: &Rules, file: usize, p: &FieldPath, m: &CheckManeuver) {
    if rules.save(&m.check).is_none() && rules.skill(&m.check).is_none() {
        c.err(
            file,
            &p.field("check"),
            format!("`{}` is neither a Save nor a skill", m.check),
        );
    }
    check_difficulty(c, rules, file, &p.field("difficulty"), &m.difficulty);
}

fn check_grant(c: &mut Checker, file: usize, p: &FieldPath, g: &ConditionGrant) {
    match (g.condition, &g.amount) {
        (ConditionKind::DamageOverTime, None) => c.err(
            file,
            &p.field("condition"),
            "Damage Over Time needs an amount, e.g. amount: Some(\"1(T)\")",
        ),
        (ConditionKind::DamageOverTime, Some(f)) => c.formula(file, &p.field("amount"), f, TIER),
        (_, Some(_)) => c.err(
            file,
            &p.field("amount"),
            "only Damage Over Time takes an amount",
        ),
        (ConditionKind::Absorbed, _) => c.err(
            file,
            &p.field("condition"),
            "Absorbed needs an absorber and cannot be granted by an attack",
        ),
        _ => {}
    }
}
