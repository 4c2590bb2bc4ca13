//! The attack-context assembly: from a declared attack and plain snapshots of the fighters, the
//! exact rolls it will make (Strike, each target's Dodge or Parry, the Wound) and how damage is
//! then worked out.
//!
//! Resolution rolls these specs and the odds preview computes their distributions, so what a
//! player is shown and what the dice decide cannot disagree.

use serde::{Deserialize, Serialize};

mod declaration;

pub use declaration::{Declaration, declaration, ki_cost, reach, used_profile};

use super::command::DefenseChoice;
use super::command::{AttackOrder, RuleError};
use super::components::{CombatantId, Square};
pub use super::cover::{Cover, cover_against, cover_feature, cover_feature_from};
use super::fighter::{Fighter, at_tier, eval};
use crate::dice::{BaseDie, DiceFormula, RollKind, RollSpec};
pub use crate::grid::push_destination;
use crate::grid::{Field, footprint};
use crate::ruleset::{
    AttackTypeDef, CalledShotRules, CalledShotTarget, Category, ConditionKind, ConditionRule,
    ElementDef, ProfileDef, ProfileEffect, Reach, Rules, Targeting, TechniqueDef,
};

/// A Combat Roll's common part for `f`: the base die with its Critical Target and Botch Range,
/// Tier of Power Extra and Critical Dice and Superiority. [`add_roll_modifiers`] adds the rest.
pub(crate) fn combat_roll(
    rules: &Rules,
    f: &Fighter,
    kind: RollKind,
    critical_change: i64,
    botch_range: Option<u32>,
    with_base: bool,
    numbers_only: bool,
) -> RollSpec {
    let mut s = RollSpec::new(kind);
    s.numbers_only = numbers_only;
    let t = f.power.tier;
    let bt = f.power.base_tier;
    let row = rules.tier(t);
    let vars = f.vars();
    if with_base {
        let floor = i64::from(rules.dice.critical_target_floor);
        let target = (i64::from(rules.dice.critical_target) + critical_change)
            .max(floor)
            .min(i64::from(rules.dice.base_die));
        s.base = Some(BaseDie {
            sides: rules.dice.base_die,
            rolls: 1,
            critical_target: Some(target as u32),
            botch_range: botch_range.unwrap_or(rules.dice.botch_range),
            botch_penalty: at_tier(&rules.dice.botch_penalty, t, bt),
            penalization: None,
            exploding: false,
        });
        if let Ok(pool) = row.extra_dice.eval(&vars) {
            for g in pool.dice {
                s.add_dice_with(|| format!("ToP {t} Extra Dice"), g);
            }
        }
        if let Ok(pool) = row.critical_dice.eval(&vars) {
            for g in pool.dice {
                s.critical_dice.push(crate::dice::DiceTerm {
                    label: s.words(|| format!("ToP {t} Critical Dice")),
                    group: g,
                    exploding: false,
                });
            }
        }
        if f.is(rules, ConditionKind::Superiority) {
            s.superiority = Some(s.words(|| "Superiority die".to_string()));
        }
    }
    s
}

/// What every Combat Roll of `f` gets from its state: Power Up stacks, then the penalties
/// (Impediment, lowest failed threshold, Poisoned while Wounded, Minion Weakness, the ground it
/// stands on). Added last so breakdowns read the roll's own bonuses first.
pub(crate) fn add_roll_modifiers(rules: &Rules, field: &Field, f: &Fighter, s: &mut RollSpec) {
    let t = f.power.tier;
    let bt = f.power.base_tier;
    if f.encounter.power > 0 {
        let per = at_tier(&rules.actions.power_up.roll_bonus, t, bt);
        s.add_with(
            || format!("Power Up x{}", f.encounter.power),
            per * i64::from(f.encounter.power),
        );
    }
    if let Some(ConditionRule::Impediment { flat_penalty }) = f
        .active(rules, ConditionKind::Impediment)
        .map(|_| &rules.condition(ConditionKind::Impediment).rule)
    {
        if s.superiority.take().is_some() {
            let why = s.words(|| "Superiority die (Impediment)".into());
            s.dropped.push(why);
        } else if let Some(i) = s.dice.iter().position(|d| d.group.sides == 10) {
            s.dice[i].group.count -= 1;
            let why = s.words(|| format!("1d10 of {} (Impediment)", s.dice[i].label));
            s.dropped.push(why);
            if s.dice[i].group.count == 0 {
                s.dice.remove(i);
            }
        } else {
            s.add("Impediment (no d10 to drop)", -flat_penalty);
        }
    }
    if !f.raging() {
        if let Some(i) = f.penalty_threshold() {
            let th = &rules.damage.thresholds[i];
            s.add_with(
                || format!("{} threshold", th.id),
                -at_tier(&th.penalty, t, bt),
            );
        }
        if let Some(ConditionRule::Poisoned {
            low_life_penalty, ..
        }) = f
            .active(rules, ConditionKind::Poisoned)
            .map(|_| &rules.condition(ConditionKind::Poisoned).rule)
            && f.below_lowest_threshold(rules)
        {
            s.add("Poisoned while Wounded", -at_tier(low_life_penalty, t, bt));
        }
        let arrogance = f.arrogance_penalty(rules);
        if arrogance != 0 {
            s.add("after Arrogant Declaration", -arrogance);
        }
    }
    s.add("Minion Weakness", -f.power.minion_roll_penalty);
    if let Some(at) = f.position {
        let mut seen: Vec<&str> = Vec::new();
        for sq in footprint(at, f.size.squares) {
            if let Some(ter) = field.terrain(sq)
                && let Some(m) = &ter.roll_modifier
                && !seen.contains(&ter.id.as_str())
                && !(f.raging() && at_tier(m, t, bt) < 0)
            {
                seen.push(&ter.id);
                s.add_with(|| format!("standing in {}", ter.name), at_tier(m, t, bt));
            }
        }
    }
}

/// Modifiers of a Strike that depend on the target: Long Range and Shaken.
fn strike_target_modifiers(
    rules: &Rules,
    attacker: &Fighter,
    target: &Fighter,
    distance: Option<u32>,
    s: &mut RollSpec,
) {
    if attacker.raging() {
        return;
    }
    let lr = &rules.attacks.long_range;
    if let Some(d) = distance
        && d > lr.beyond
    {
        s.add_with(
            || format!("Long Range ({d} squares > {})", lr.beyond),
            -at_tier(
                &lr.strike_penalty,
                attacker.power.tier,
                attacker.power.base_tier,
            ),
        );
    }
    if let Some(c) = attacker.active(rules, ConditionKind::Shaken)
        && c.source == Some(target.id)
        && let ConditionRule::Shaken { strike_penalty, .. } =
            &rules.condition(ConditionKind::Shaken).rule
    {
        s.add_with(
            || format!("Shaken by {}", target.identity.name),
            -at_tier(strike_penalty, c.source_tier, c.source_tier),
        );
    }
}

/// The attacker's Strike, without target-dependent modifiers (rolled once for all targets).
pub fn strike_spec(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    decl: &Declaration,
) -> RollSpec {
    let (crit, _) = decl.critical_changes();
    let botch = decl.profile.effects.iter().find_map(|e| match e {
        ProfileEffect::StrikeBotchRange { range } => Some(*range),
        _ => None,
    });
    let mut s = combat_roll(
        rules,
        attacker,
        RollKind::Strike,
        crit,
        botch,
        true,
        decl.numbers_only,
    );
    let d = attacker.derived(rules);
    s.add_with(
        || format!("Haste (AG {} / 2)", attacker.attributes.get("AG")),
        d.haste,
    );
    s.add("Awareness", d.awareness);
    if let Some(w) = &attacker.loadout.weapon
        && w.attack_type == decl.attack_type.id
    {
        s.add_with(|| w.name.clone(), eval(&w.strike, &attacker.vars()));
    }
    if let Some((cs, part)) = decl.called_shot {
        s.add_with(
            || format!("Called Shot ({})", part.name),
            -at_tier(
                &cs.strike_penalty,
                attacker.power.tier,
                attacker.power.base_tier,
            ),
        );
    }
    add_roll_modifiers(rules, field, attacker, &mut s);
    s
}

/// The Strike against one target: the common Strike plus that target's modifiers.
pub fn strike_spec_against(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    decl: &Declaration,
    target: &Fighter,
) -> RollSpec {
    let mut s = strike_spec(rules, field, attacker, decl);
    strike_target_modifiers(
        rules,
        attacker,
        target,
        attacker.distance_to(target),
        &mut s,
    );
    s
}

/// Why an attack hits this target without a Clash (Rage), if it does.
pub fn automatic_hit(attacker: &Fighter) -> Option<&'static str> {
    attacker
        .raging()
        .then_some("Rage: Strike Rolls automatically succeed")
}

/// True when the target fights as if Guard Down against this attacker (its own Guard Down or
/// Prone, or an attacker striking from Hidden); returns the tier for its "(T)".
pub fn guard_down_against(rules: &Rules, target: &Fighter, attacker: &Fighter) -> Option<u32> {
    if target.raging() {
        return None;
    }
    target.guard_down_tier(rules).or_else(|| {
        attacker
            .is(rules, ConditionKind::Hidden)
            .then_some(attacker.power.tier)
    })
}

/// The defender's roll against this attack: Dodge, or Parry (its Strike as a Physical attack).
pub fn defense_spec(
    rules: &Rules,
    field: &Field,
    defender: &Fighter,
    attacker: &Fighter,
    decl: &Declaration,
    choice: DefenseChoice,
) -> RollSpec {
    let d = defender.derived(rules);
    match choice {
        // The d20 answers are never offered in DBU; they read as a Dodge.
        DefenseChoice::Dodge
        | DefenseChoice::Take
        | DefenseChoice::Dive
        | DefenseChoice::DropProne => {
            let mut s = combat_roll(
                rules,
                defender,
                RollKind::Dodge,
                0,
                None,
                true,
                decl.numbers_only,
            );
            s.add("Defense Value", d.defense_value);
            if !defender.raging() {
                s.add("Diminishing Defense", -defender.defense.diminishing);
                for c in &defender.defense.changes {
                    s.add_with(|| c.label.clone(), c.amount);
                }
            }
            for e in &decl.profile.effects {
                if let ProfileEffect::TargetDefense { modifier } = e
                    && !defender.raging()
                {
                    s.add_with(
                        || format!("{} (Defense Value)", decl.profile.name),
                        eval(modifier, &attacker.vars()),
                    );
                }
            }
            if let Some(tier) = guard_down_against(rules, defender, attacker)
                && let ConditionRule::GuardDown {
                    dodge_penalty,
                    dodge_rolls,
                } = &rules.condition(ConditionKind::GuardDown).rule
            {
                let why = if defender.is(rules, ConditionKind::GuardDown) {
                    "Guard Down"
                } else if defender.is(rules, ConditionKind::Prone) {
                    "Guard Down (Prone)"
                } else if defender.encounter.charge.is_some() {
                    "Guard Down (charging)"
                } else if defender.encounter.grapple.is_some() {
                    "Guard Down (in a Grapple)"
                } else {
                    "Guard Down (attacked from Hidden)"
                };
                if let Some(b) = s.base.as_mut() {
                    b.rolls = *dodge_rolls;
                    b.penalization = Some(if decl.numbers_only {
                        String::new()
                    } else {
                        format!("{why}: keep the lower")
                    });
                }
                s.add(why, -at_tier(dodge_penalty, tier, tier));
            }
            add_roll_modifiers(rules, field, defender, &mut s);
            s
        }
        DefenseChoice::Parry
        | DefenseChoice::Reflect
        | DefenseChoice::Block
        | DefenseChoice::Deflect
        | DefenseChoice::Resist => {
            let mut s = combat_roll(
                rules,
                defender,
                RollKind::Parry,
                0,
                None,
                true,
                decl.numbers_only,
            );
            s.add_with(
                || format!("Haste (AG {} / 2)", defender.attributes.get("AG")),
                d.haste,
            );
            s.add("Awareness", d.awareness);
            let charges = i64::from(decl.charges());
            if charges > 0 {
                let per = at_tier(
                    &rules.attacks.energy_charge.parry_penalty_per_charge,
                    attacker.power.tier,
                    attacker.power.base_tier,
                );
                s.add_with(
                    || format!("Energy Charges on the attack ({charges})"),
                    -per * charges,
                );
            }
            add_roll_modifiers(rules, field, defender, &mut s);
            s
        }
    }
}

/// The Wound Roll. `single_target` is the only target when there is exactly one (Kiai's bonus
/// against Guard Down depends on it).
pub fn wound_spec(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    decl: &Declaration,
    single_target: Option<&Fighter>,
) -> RollSpec {
    let vars = attacker.vars();
    let (_, crit) = decl.critical_changes();
    let replacement = decl.profile.effects.iter().find_map(|e| match e {
        ProfileEffect::MultiHit {
            hits,
            damage_per_hit,
        } => Some((hits, *damage_per_hit, "Hits")),
        ProfileEffect::ReplaceWound { dice } => Some((dice, 1, "Wound dice")),
        _ => None,
    });
    let mut s = combat_roll(
        rules,
        attacker,
        RollKind::Wound,
        crit,
        None,
        replacement.is_none(),
        decl.numbers_only,
    );
    if let Some((dice, per_hit, label)) = replacement {
        let label = s.words(|| format!("{} ({})", label, decl.profile.name));
        add_dice(&mut s, dice, &vars, &label);
        if per_hit != 1 {
            // Every modifier so far is added after the hits are counted: keep them flat.
            s.dice_multiplier = per_hit;
        }
    }
    let attribute_bonus = match &decl.attack_type.damage_attribute {
        Some(a) => Some((
            s.words(|| {
                format!(
                    "{} ({a} {})",
                    rules
                        .characters
                        .attributes
                        .iter()
                        .find(|x| &x.id == a)
                        .map_or(a.as_str(), |x| x.name.as_str()),
                    attacker.attributes.get(a)
                )
            }),
            attacker.attributes.get(a),
        )),
        None => attacker
            .loadout
            .weapon
            .as_ref()
            .filter(|w| w.attack_type == decl.attack_type.id)
            .map(|w| (s.words(|| w.name.clone()), eval(&w.damage, &vars))),
    };
    if let Some((label, v)) = &attribute_bonus {
        s.add_with(|| label.clone(), *v);
        if decl.has(|e| matches!(e, ProfileEffect::DamageAttributeAgain)) {
            s.add_with(|| format!("{} again ({})", label, decl.profile.name), *v);
        }
    }
    // A melee weapon (an attack type with an attribute): its damage comes on top of the
    // attribute ("A Physical Attack can either use a Melee Weapon or your own fist").
    if decl.attack_type.damage_attribute.is_some()
        && let Some(w) = &attacker.loadout.weapon
        && w.attack_type == decl.attack_type.id
    {
        s.add_with(|| w.name.clone(), eval(&w.damage, &vars));
    }
    if let Some(t) = decl.technique {
        s.add_with(|| t.name.clone(), eval(&t.wound_bonus, &vars));
    }
    s.add("Ki Wager", decl.wager);
    for (label, v) in
        super::united::wound_terms(rules, decl.bystanders, decl.attack_type, decl.united)
    {
        s.add_with(|| label.clone(), v);
    }
    let free = decl.free_charges();
    if free > 0 {
        let label = s.words(|| format!("Energy Charge ({})", decl.profile.name));
        for _ in 0..free {
            add_dice(
                &mut s,
                &rules.attacks.energy_charge.wound_per_charge,
                &vars,
                &label,
            );
        }
    }
    if decl.held_charges > 0 {
        // "Each Energy Charge adds 1d6(T) to the Wound Roll, or 1d8(T) if the attack is a
        // Signature Technique."
        let per = match (&rules.attacks.energy_charge.maneuver, decl.technique) {
            (Some(m), Some(_)) => &m.technique_wound_per_charge,
            _ => &rules.attacks.energy_charge.wound_per_charge,
        };
        let label = s.words(|| format!("Energy Charges held ({})", decl.held_charges));
        for _ in 0..decl.held_charges {
            add_dice(&mut s, per, &vars, &label);
        }
    }
    for e in &decl.profile.effects {
        match e {
            ProfileEffect::SingleTargetWound { dice } if decl.target_count == 1 => {
                let label = s.words(|| format!("{} single target", decl.profile.name));
                add_dice(&mut s, dice, &vars, &label);
            }
            ProfileEffect::GuardDownBonus { wound, .. } => {
                if let Some(t) = single_target
                    && guard_down_against(rules, t, attacker).is_some()
                {
                    s.add_with(
                        || format!("{} against Guard Down", decl.profile.name),
                        eval(wound, &vars),
                    );
                }
            }
            _ => {}
        }
    }
    add_roll_modifiers(rules, field, attacker, &mut s);
    s
}

fn add_dice(
    s: &mut RollSpec,
    f: &DiceFormula,
    vars: &(impl crate::dice::Vars + ?Sized),
    label: &str,
) {
    if let Ok(pool) = f.eval(vars) {
        for g in pool.dice {
            s.add_dice_with(|| label.to_string(), g);
        }
        s.add_with(|| label.to_string(), pool.flat);
    }
}

/// How one target takes one Wound: category after every change, Soak used, damage dealt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageResult {
    pub category: Category,
    pub soak: i64,
    pub soak_used: i64,
    pub damage: i64,
    /// Why the category is what it is, and any cover.
    pub notes: Vec<String>,
}

/// The damage a Wound total deals to `target`: the profile's category, +1/−1 changes clamped
/// to Standard..Lethal, a critical Strike's upgrade, Prone's "all damage is Lethal", then Soak
/// (halved for Direct, ignored for Lethal) taken once off the total.
pub fn damage_against(
    rules: &Rules,
    wound: i64,
    decl: &Declaration,
    target: &Fighter,
    strike_critical: bool,
    cover: Option<&Cover>,
) -> DamageResult {
    let mut notes = Vec::new();
    let mut level = decl.profile.category.level();
    if strike_critical {
        for e in &decl.profile.effects {
            if let ProfileEffect::CriticalStrikeCategory { category } = e {
                level = level.max(category.level());
                notes.push(format!(
                    "critical {} Strike: {category:?}",
                    decl.profile.name
                ));
            }
        }
    }
    if let Some((cs, part)) = decl.called_shot {
        level += cs.category_increase;
        notes.push(format!(
            "Called Shot ({}): +{} Damage Category",
            part.name, cs.category_increase
        ));
    }
    if let Some(ConditionRule::Pinned { category_increase }) = target
        .active(rules, ConditionKind::Pinned)
        .map(|_| &rules.condition(ConditionKind::Pinned).rule)
    {
        level += category_increase;
        notes.push(format!("Pinned: +{category_increase} Damage Category"));
    }
    let mut category = Category::from_level(level);
    if target.is(rules, ConditionKind::Prone) {
        category = Category::Lethal;
        notes.push("Prone: all damage is Lethal".into());
    }
    let soak = target.derived(rules).soak;
    let arrogance = target.arrogance_penalty(rules);
    if arrogance != 0 {
        notes.push(format!("after Arrogant Declaration: Soak -{arrogance}"));
    }
    let soak_used = rules.soak_fraction(category).of(soak);
    let shelter = cover.map_or(0, |c| {
        notes.push(format!(
            "cover behind {} at {}: -{}",
            c.name, c.at, c.reduction
        ));
        c.reduction
    });
    DamageResult {
        category,
        soak,
        soak_used,
        damage: (wound - soak_used - shelter).max(0),
        notes,
    }
}

/// Where a throw's blast may catch one target, as the attack context holds it for the
/// preview and the computer players (d20 grenades, `family::d20::grenade`).
#[derive(Debug, Clone, PartialEq)]
pub struct BlastCatch {
    /// The chance the blast catches the target now, by the cover bonus its Roll check gets
    /// from where the blast goes off (0: none), smallest bonus first.
    pub by_cover: Vec<(i64, f64)>,
    /// The Roll check the target makes if the blast goes off on the square aimed at.
    pub save: RollSpec,
}

impl BlastCatch {
    /// The chance the blast catches the target at all.
    pub fn chance(&self) -> f64 {
        self.by_cover.iter().map(|(_, p)| p).sum()
    }
}

/// Everything about one target of an attack that the preview and the resolution share.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetContext {
    pub id: CombatantId,
    pub distance: Option<u32>,
    pub strike: RollSpec,
    /// Every defense this target may answer with and its roll, the default (Dodge) first.
    pub defenses: Vec<(DefenseChoice, RollSpec)>,
    pub automatic_hit: Option<&'static str>,
    pub cover: Option<Cover>,
    /// Shinobi: percent chance that a hit misses anyway (concealment), and where from.
    pub miss_chance: Option<(u32, String)>,
    /// Shinobi: the partial cover that may absorb the damage.
    pub absorb: Option<Absorb>,
    /// Shinobi: a sneak attack not yet rolled: the chance of winning the contest and the
    /// defenses then (each with the sneak penalty).
    pub sneak: Option<(f64, Vec<(DefenseChoice, RollSpec)>)>,
    /// Shinobi: where a hit pushes this target and what that adds (slam, a fall).
    pub knockback: Option<super::family::shinobi::Knockback>,
    /// d20: what the attack must meet besides any defense roll -- the range difficulty and the
    /// highest cover or concealment bonus, each a labelled modifier.
    pub difficulty: Option<RollSpec>,
    /// What a hit's damage loses before the armour, and why: Digimon outsiders hitting a
    /// Clash; d20 the DR of cover shot through as concealment.
    pub damage_less: Option<(i64, String)>,
    /// d20: the armour a shot aimed at its gaps ignores (it counted as cover instead).
    pub armour_ignored: Option<String>,
    /// Digimon: why a hit's damage is halved after Armor, if it is (a Clash controlled at a
    /// range without the Reach to match it).
    pub damage_halved: Option<String>,
    /// d20 grenade: the chance the throw's blast catches this target now (a hit on a corner
    /// left to the die, or a critical failure near the thrower), by the cover it has there.
    pub blast: Option<BlastCatch>,
}

impl TargetContext {
    /// A target with its attack roll and its answers and nothing more (no automatic hit,
    /// cover, concealment, sneak contest, knockback…): each family adds what its rules put on
    /// a target with struct update syntax.
    pub fn new(
        id: CombatantId,
        distance: Option<u32>,
        strike: RollSpec,
        defenses: Vec<(DefenseChoice, RollSpec)>,
    ) -> Self {
        Self {
            id,
            distance,
            strike,
            defenses,
            automatic_hit: None,
            cover: None,
            miss_chance: None,
            absorb: None,
            sneak: None,
            knockback: None,
            difficulty: None,
            damage_less: None,
            armour_ignored: None,
            damage_halved: None,
            blast: None,
        }
    }

    /// The roll of a defense; an answer this target does not have reads as its default.
    pub fn defense(&self, choice: DefenseChoice) -> &RollSpec {
        self.defenses
            .iter()
            .find(|(c, _)| *c == choice)
            .or(self.defenses.first())
            .map(|(_, s)| s)
            .unwrap_or(&self.strike)
    }

    /// True when this target may answer with `choice`.
    pub fn offers(&self, choice: DefenseChoice) -> bool {
        self.defenses.iter().any(|(c, _)| *c == choice)
    }
}

/// Shinobi cover between an attacker and its target: what is left of it to absorb damage, and
/// the percent chance an attack hits it rather than the target (100 for full cover).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absorb {
    pub name: String,
    pub at: Square,
    pub left: i64,
    pub chance: u32,
    /// Someone standing in the way ("A Person - Their HP (Always Partial Cover)"): the damage
    /// it absorbs comes off its HP. None for terrain, whose wear the map keeps.
    pub person: Option<CombatantId>,
    /// Full cover: the target is behind an obstruction that blocks sight, so every hit
    /// strikes it and no percentile is rolled ("incoming attacks are guaranteed to hit the
    /// obstruction").
    #[serde(default)]
    pub full: bool,
}

/// A declared attack against its targets, assembled once for preview or resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackContext {
    pub ki_cost: i64,
    pub wager: i64,
    pub strike: RollSpec,
    pub targets: Vec<TargetContext>,
    pub wound: RollSpec,
    /// DBU: how the attack comes back at its attacker when a target's Reflect wins.
    pub reflected: Option<super::reflect::ReflectBack>,
}

impl AttackContext {
    /// The context of an attack the ruleset does not know (validated data always has it):
    /// nothing to roll, nobody to hit.
    pub fn empty() -> Self {
        Self {
            ki_cost: 0,
            wager: 0,
            strike: RollSpec::new(RollKind::Strike),
            targets: Vec::new(),
            wound: RollSpec::new(RollKind::Wound),
            reflected: None,
        }
    }
}

/// How `decl`'s attack would come back at `attacker` if a target reflects it (`None` when its
/// type cannot be reflected): its own category and Soak against it.
fn reflect_back(
    rules: &Rules,
    attacker: &Fighter,
    decl: &Declaration,
) -> Option<super::reflect::ReflectBack> {
    if !super::reflect::reflectable(rules, &decl.attack_type.id) {
        return None;
    }
    let taken = damage_against(rules, 0, decl, attacker, false, None);
    Some(super::reflect::ReflectBack {
        attacker: attacker.id,
        side: attacker.side,
        category: taken.category,
        soak: taken.soak,
        soak_used: taken.soak_used,
        notes: taken.notes,
        life: attacker.life.current,
    })
}

/// The default pipeline's assembly (the DBU chapter's opposed rolls, Soak and thresholds),
/// which a family that rolls otherwise replaces.
pub fn default_assemble(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    targets: &[&Fighter],
    decl: &Declaration,
) -> AttackContext {
    let single = (targets.len() == 1).then(|| targets[0]);
    AttackContext {
        ki_cost: ki_cost(attacker, decl),
        wager: decl.wager,
        strike: strike_spec(rules, field, attacker, decl),
        targets: targets
            .iter()
            .map(|t| TargetContext {
                automatic_hit: automatic_hit(attacker),
                cover: cover_against(rules, field, attacker, t, &decl.profile.targeting),
                ..TargetContext::new(
                    t.id,
                    attacker.distance_to(t),
                    strike_spec_against(rules, field, attacker, decl, t),
                    super::reflect::defenses(rules, t, &decl.attack_type.id)
                        .into_iter()
                        .map(|c| (c, defense_spec(rules, field, t, attacker, decl, c)))
                        .collect(),
                )
            })
            .collect(),
        wound: wound_spec(rules, field, attacker, decl, single),
        reflected: reflect_back(rules, attacker, decl),
    }
}
