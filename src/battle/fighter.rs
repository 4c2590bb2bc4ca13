//! A plain snapshot of one combatant and the values derived from it (Haste, Defense Value,
//! Soak…), with conditions and Tier of Power applied. The rules math reads only this, never a
//! `Query`, so previews, the AI and resolution share it.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;

use super::components::*;
use crate::dice::{Formula, Vars};
use crate::grid::{footprint, footprint_distance};
use crate::ruleset::{ConditionKind, ConditionRule, Rules};

/// Everything the rules need to know about one combatant at one moment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Fighter {
    pub id: CombatantId,
    pub identity: Identity,
    pub side: Side,
    pub attributes: Attributes,
    pub power: Power,
    pub size: BodySize,
    pub life: Life,
    pub ki: Ki,
    pub capacity: Capacity,
    pub position: Option<Square>,
    pub conditions: Conditions,
    pub thresholds: Thresholds,
    pub defense: Defense,
    pub actions: Actions,
    pub round: RoundLog,
    pub encounter: EncounterLog,
    pub loadout: Loadout,
    pub controller: Controller,
    /// Held, deck and discarded cards (power-stages combatants only; left out of the state
    /// hash's bytes when absent, so other rulesets hash as before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cards: Option<Cards>,
    /// Effects, Temporary HP, stage and partner (Digimon combatants only; left out of the
    /// state hash's bytes when absent).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub digi: Option<DigiState>,
}

/// The query over a combatant's components. Iterating it read-only gives snapshots; the
/// mutable items are how rule systems write results back. The components a battle never
/// writes are read as `Ref`, so their change ticks tell the snapshot cache too.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct FighterQuery {
    pub entity: Entity,
    pub id: &'static CombatantId,
    pub identity: Ref<'static, Identity>,
    pub side: &'static mut Side,
    pub attributes: Ref<'static, Attributes>,
    pub power: Ref<'static, Power>,
    pub size: Ref<'static, BodySize>,
    pub life: &'static mut Life,
    pub ki: &'static mut Ki,
    pub capacity: &'static mut Capacity,
    pub position: &'static mut Position,
    pub conditions: &'static mut Conditions,
    pub thresholds: &'static mut Thresholds,
    pub defense: &'static mut Defense,
    pub actions: &'static mut Actions,
    pub round: &'static mut RoundLog,
    pub encounter: &'static mut EncounterLog,
    /// Mutable for a Digimon that falls back to its Default Stage (that stage's attacks).
    pub loadout: &'static mut Loadout,
    pub controller: Ref<'static, Controller>,
    pub cards: Option<&'static mut Cards>,
    pub digi: Option<&'static mut DigiState>,
}

macro_rules! snapshot_impl {
    ($item:ident) => {
        impl $item<'_, '_> {
            /// Copies the components into a plain snapshot.
            pub fn snapshot(&self) -> Fighter {
                Fighter {
                    id: *self.id,
                    identity: (*self.identity).clone(),
                    side: *self.side,
                    attributes: (*self.attributes).clone(),
                    power: (*self.power).clone(),
                    size: (*self.size).clone(),
                    life: *self.life,
                    ki: *self.ki,
                    capacity: *self.capacity,
                    position: self.position.0,
                    conditions: (*self.conditions).clone(),
                    thresholds: (*self.thresholds).clone(),
                    defense: (*self.defense).clone(),
                    actions: (*self.actions).clone(),
                    round: (*self.round).clone(),
                    encounter: (*self.encounter).clone(),
                    loadout: (*self.loadout).clone(),
                    controller: *self.controller,
                    cards: self.cards.as_ref().map(|c| (**c).clone()),
                    digi: self.digi.as_ref().map(|c| (**c).clone()),
                }
            }
        }
    };
}
snapshot_impl!(FighterQueryItem);
snapshot_impl!(FighterQueryReadOnlyItem);

/// Formula variables as seen by one fighter: attribute ids, `T`, `bT`, `PL`, `RLM`.
pub struct FighterVars<'a> {
    pub fighter: &'a Fighter,
    pub size: Option<(i64, i64, i64)>,
}

impl Vars for FighterVars<'_> {
    fn get(&self, name: &str) -> Option<i64> {
        let f = self.fighter;
        match name {
            "T" => Some(i64::from(f.power.tier)),
            "bT" => Some(i64::from(f.power.base_tier)),
            "PL" => Some(i64::from(f.power.level)),
            "RLM" => Some(f.power.life_modifier),
            "SIZE_DV" => self.size.map(|s| s.0),
            "SIZE_SOAK" => self.size.map(|s| s.1),
            "SIZE_SPEED" => self.size.map(|s| s.2),
            other => f.attributes.0.get(other).copied(),
        }
    }
}

/// Haste, Awareness, Might, Defense Value, Soak (after its minimum), Normal and Boosted
/// Speed and Initiative as the ruleset's formulas give them, before conditions.
type FormulaValues = [i64; 8];

/// [`FormulaValues`] of one fighter, remembered per thread. They depend only on the
/// attributes, the power, the size and the ruleset's formulas, which a battle never changes,
/// yet the rules and the computer players ask for them thousands of times a decision; every
/// input is compared in full before a remembered value is used, so a changed fighter or
/// ruleset is worked out afresh.
fn formula_values(fighter: &Fighter, rules: &Rules) -> FormulaValues {
    thread_local! {
        static MEMO: std::cell::RefCell<Vec<Remembered>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let size = rules.size(&fighter.size.id);
    // Snapshots of one combatant share its attributes' `Arc`: look for that first, which
    // spares comparing every other combatant's attributes in full.
    let same = |r: &&Remembered| std::sync::Arc::ptr_eq(&r.attributes.0, &fighter.attributes.0);
    let (found, by_value) = MEMO.with(|m| {
        let m = m.borrow();
        if let Some(r) = m
            .iter()
            .filter(same)
            .find(|r| r.matches(fighter, rules, size))
        {
            return (Some(r.values), false);
        }
        let r = m.iter().find(|r| r.matches(fighter, rules, size));
        (r.map(|r| r.values), true)
    });
    if let Some(v) = found
        && !by_value
    {
        return v;
    }
    // Equal attributes behind another `Arc` (another battle's combatant, or a twin): the
    // values are remembered again under this one, so its next look is quick.
    let values = found.unwrap_or_else(|| evaluate_formulas(fighter, rules, size));
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 128 {
            m.clear();
        }
        m.push(Remembered {
            attributes: fighter.attributes.clone(),
            power: (
                fighter.power.tier,
                fighter.power.base_tier,
                fighter.power.level,
                fighter.power.life_modifier,
            ),
            size_id: fighter.size.id.clone(),
            size: size.map(|s| (s.speed, s.defense_value.clone(), s.soak.clone())),
            formulas: derived_formulas(rules).map(|f| f.clone()),
            values,
        });
    });
    values
}

/// The formulas [`formula_values`] evaluates, in its order (Soak's minimum last).
fn derived_formulas(rules: &Rules) -> [&Formula; 9] {
    let d = &rules.characters.derived;
    [
        &d.haste,
        &d.awareness,
        &d.might,
        &d.defense_value,
        &d.soak,
        &d.normal_speed,
        &d.boosted_speed,
        &d.initiative,
        &d.soak_minimum,
    ]
}

/// Works out [`FormulaValues`].
fn evaluate_formulas(
    fighter: &Fighter,
    rules: &Rules,
    size: Option<&crate::ruleset::SizeDef>,
) -> FormulaValues {
    let t = fighter.power.tier;
    let bt = fighter.power.base_tier;
    let sizes = size.map(|s| {
        (
            at_tier(&s.defense_value, t, bt),
            at_tier(&s.soak, t, bt),
            s.speed,
        )
    });
    let sizes = sizes.unwrap_or((0, 0, 0));
    let vars = FighterVars {
        fighter,
        size: Some(sizes),
    };
    let d = &rules.characters.derived;
    // "A Minimum Soak Value of 1(T)+1 regardless of your Tenacity Modifier (this Minimum Soak
    // Value can be reduced through other factors)": the floor is on the Soak before size, and
    // the size's part (the formula with its size Soak against without it) is added after it.
    let soak = eval(&d.soak, &vars);
    let before_size = eval(
        &d.soak,
        &FighterVars {
            fighter,
            size: Some((sizes.0, 0, sizes.2)),
        },
    );
    [
        eval(&d.haste, &vars),
        eval(&d.awareness, &vars),
        eval(&d.might, &vars),
        eval(&d.defense_value, &vars),
        before_size.max(eval(&d.soak_minimum, &vars)) + (soak - before_size),
        eval(&d.normal_speed, &vars).max(0),
        eval(&d.boosted_speed, &vars).max(0),
        eval(&d.initiative, &vars),
    ]
}

/// One fighter's [`FormulaValues`] with every input they were worked out from.
struct Remembered {
    attributes: Attributes,
    /// Tier, base tier, Power Level, Racial Life Modifier: what formulas read of the power.
    power: (u32, u32, u32, i64),
    size_id: String,
    size: Option<(i64, Formula, Formula)>,
    formulas: [Formula; 9],
    values: FormulaValues,
}

impl Remembered {
    /// True when `fighter` under `rules` has exactly the inputs these values came from.
    fn matches(
        &self,
        fighter: &Fighter,
        rules: &Rules,
        size: Option<&crate::ruleset::SizeDef>,
    ) -> bool {
        let p = &fighter.power;
        self.power == (p.tier, p.base_tier, p.level, p.life_modifier)
            && self.size_id == fighter.size.id
            && self.attributes == fighter.attributes
            && match (&self.size, size) {
                (None, None) => true,
                (Some((speed, dv, soak)), Some(s)) => {
                    *speed == s.speed
                        && dv.text() == s.defense_value.text()
                        && soak.text() == s.soak.text()
                }
                _ => false,
            }
            && self
                .formulas
                .iter()
                .zip(derived_formulas(rules))
                .all(|(a, b)| a.text() == b.text())
    }
}

/// Evaluates a validated formula; a failure (only possible with a division by zero in data)
/// counts as 0 rather than stopping a battle.
pub fn eval(f: &Formula, vars: &(impl Vars + ?Sized)) -> i64 {
    f.eval(vars).unwrap_or(0)
}

/// A ToP-only formula (`2(T)`) evaluated at tier `t` (and base tier `bt`).
pub fn at_tier(f: &Formula, t: u32, bt: u32) -> i64 {
    eval(f, &[("T", i64::from(t)), ("bT", i64::from(bt))][..])
}

/// The values the chapter derives from attributes, with size and conditions applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derived {
    pub haste: i64,
    pub awareness: i64,
    pub might: i64,
    pub defense_value: i64,
    pub soak: i64,
    pub normal_speed: i64,
    pub boosted_speed: i64,
    pub initiative: i64,
    pub max_ki: i64,
    pub max_capacity: i64,
}

impl Fighter {
    /// The formula variables of this fighter.
    pub fn vars(&self) -> FighterVars<'_> {
        FighterVars {
            fighter: self,
            size: None,
        }
    }

    /// Defeated: at 0 Life, no maneuvers, turns skipped.
    pub fn defeated(&self) -> bool {
        self.life.current <= 0
    }

    /// True while Raging: negative conditions and penalties to one's rolls are ignored.
    pub fn raging(&self) -> bool {
        self.conditions.has(ConditionKind::Rage)
    }

    /// The instance of a condition that currently has an effect: negative ones are ignored
    /// while Raging.
    pub fn active(&self, rules: &Rules, kind: ConditionKind) -> Option<&ConditionInstance> {
        let c = self.conditions.get(kind)?;
        if self.raging() && rules.condition(kind).polarity == crate::ruleset::Polarity::Negative {
            return None;
        }
        Some(c)
    }

    /// True when a condition is present and in effect.
    pub fn is(&self, rules: &Rules, kind: ConditionKind) -> bool {
        self.active(rules, kind).is_some()
    }

    /// The name of the attack `held` feeds, as this fighter knows it: its technique's, or its
    /// profile's.
    pub fn charged_name(&self, rules: &Rules, held: &HeldCharge) -> String {
        match &held.technique {
            Some(t) => self
                .loadout
                .techniques
                .iter()
                .find(|x| &x.id == t)
                .map_or(t.clone(), |x| x.name.clone()),
            None => rules
                .profile(&held.profile)
                .map_or(held.profile.clone(), |p| p.name.clone()),
        }
    }

    /// What the Arrogant Declaration's aftermath takes off this fighter's Combat Rolls,
    /// Surgency and Soak: "Afterwards, −1(bT) … for the rest of the encounter", once the
    /// Superiority it gave is over (0 before, and without one).
    pub fn arrogance_penalty(&self, rules: &Rules) -> i64 {
        match (
            &rules.actions.arrogant_declaration,
            self.encounter.arrogance,
        ) {
            (Some(a), Some(Arrogance::Superior))
                if !self.conditions.has(ConditionKind::Superiority) =>
            {
                at_tier(&a.penalty, self.power.tier, self.power.base_tier)
            }
            _ => 0,
        }
    }

    /// Guard Down in effect, directly, through Prone, while holding an Energy Charge ("until
    /// you make that attack you have Guard Down") or in a Grapple ("both have Guard Down");
    /// returns the tier its "(T)" uses.
    pub fn guard_down_tier(&self, rules: &Rules) -> Option<u32> {
        if let Some(c) = self.active(rules, ConditionKind::GuardDown) {
            return Some(c.source_tier);
        }
        (self.active(rules, ConditionKind::Prone).is_some()
            || self.encounter.charge.is_some()
            || self.encounter.grapple.is_some())
        .then_some(self.power.tier)
    }

    /// The lowest threshold whose penalty applies, if any.
    pub fn penalty_threshold(&self) -> Option<usize> {
        self.thresholds.failed.iter().next_back().copied()
    }

    /// True when this fighter is below (at or under) the lowest Health Threshold.
    pub fn below_lowest_threshold(&self, rules: &Rules) -> bool {
        rules
            .damage
            .thresholds
            .len()
            .checked_sub(1)
            .is_some_and(|i| self.thresholds.reached.contains(&i))
    }

    /// Haste, Awareness, Defense Value, Soak, speeds and pool maxima, as the conditions leave
    /// them.
    pub fn derived(&self, rules: &Rules) -> Derived {
        let f = formula_values(self, rules);
        let mut out = Derived {
            haste: f[0],
            awareness: f[1],
            might: f[2],
            defense_value: f[3],
            soak: f[4],
            normal_speed: f[5],
            boosted_speed: f[6],
            initiative: f[7],
            max_ki: self.ki.max,
            max_capacity: self.capacity.max
                + rules.actions.power_up.capacity.of(self.capacity.max)
                    * i64::from(self.encounter.power.min(rules.actions.power_up.max_stacks)),
        };
        for c in &self.conditions.0 {
            if self.active(rules, c.kind).is_none() {
                continue;
            }
            match &rules.condition(c.kind).rule {
                ConditionRule::Blinded { divisor } => {
                    out.awareness = out.awareness.div_euclid(*divisor);
                    out.defense_value = out.defense_value.div_euclid(*divisor);
                }
                ConditionRule::Shaken { speed_divisor, .. } => {
                    out.normal_speed = out.normal_speed.div_euclid(*speed_divisor);
                    out.boosted_speed = out.boosted_speed.div_euclid(*speed_divisor);
                }
                ConditionRule::Fatigued {
                    max_stacks,
                    divisor,
                } => {
                    out.max_ki = out.max_ki.div_euclid(*divisor);
                    for _ in 0..c.stacks.min(*max_stacks) {
                        out.max_capacity = out.max_capacity.div_euclid(*divisor);
                    }
                }
                ConditionRule::Weakened {
                    max_stacks,
                    divisor,
                } => {
                    for _ in 0..c.stacks.min(*max_stacks) {
                        out.max_capacity = out.max_capacity.div_euclid(*divisor);
                    }
                }
                _ => {}
            }
        }
        // Arrogant Declaration's aftermath; a Soak below 0 would add damage, which no text says.
        out.soak = (out.soak - self.arrogance_penalty(rules)).max(out.soak.min(0));
        out
    }

    /// Whether `need` Ki can be paid now: it comes out of Ki and out of this round's Capacity.
    pub fn can_pay(&self, need: i64) -> Result<(), super::command::RuleError> {
        use super::command::RuleError;
        if need > self.ki.current {
            return Err(RuleError::NotEnoughKi {
                need,
                have: self.ki.current,
            });
        }
        if need > self.capacity.current {
            return Err(RuleError::NotEnoughCapacity {
                need,
                have: self.capacity.current,
            });
        }
        Ok(())
    }

    /// Skill Bonus for `skill`, or `None` when it needs ranks this fighter lacks.
    pub fn skill_bonus(&self, rules: &Rules, skill: &str) -> Option<i64> {
        let def = rules.skill(skill)?;
        let ranks = self.loadout.skills.get(skill).copied().unwrap_or(0);
        if def.requires_rank && ranks < 1 {
            return None;
        }
        let score = self.attributes.get(&def.attribute);
        Some(eval(
            &rules.characters.skill_bonus,
            &[("SCORE", score), ("RANKS", ranks)][..],
        ))
    }

    /// Chebyshev distance between the nearest squares of two footprints, or `None` when
    /// either is off the battleground.
    pub fn distance_to(&self, other: &Fighter) -> Option<u32> {
        Some(crate::grid::footprint_distance(
            self.position?,
            self.size.squares,
            other.position?,
            other.size.squares,
        ))
    }
}

/// True when anyone living other than `me` covers square `s`.
fn someone_at(fighters: &[Fighter], me: &Fighter, s: Square) -> bool {
    fighters.iter().any(|o| {
        o.id != me.id
            && !o.defeated()
            && o.position
                .is_some_and(|p| footprint(p, o.size.squares).contains(&s))
    })
}

/// True when `me` may end a move with its footprint at `s`.
pub fn can_end_on(fighters: &[Fighter], me: &Fighter, s: Square) -> bool {
    footprint(s, me.size.squares)
        .iter()
        .all(|q| !someone_at(fighters, me, q))
}

/// True when a living, present combatant's footprint covers `s`.
pub fn occupied(all: &[super::fighter::Fighter], s: Square) -> bool {
    all.iter().any(|f| {
        !f.defeated()
            && f.position
                .is_some_and(|p| footprint(p, f.size.squares).contains(&s))
    })
}

/// The opponents whose Melee Attack Range `mover` leaves by stepping from `from` to `to`, in
/// id order.
pub fn provoked_by(
    fighters: &[Fighter],
    mover: &Fighter,
    from: Square,
    to: Square,
) -> Vec<CombatantId> {
    let size = mover.size.squares;
    fighters
        .iter()
        .filter(|o| o.side != mover.side && !o.defeated())
        .filter(|o| !o.conditions.has(ConditionKind::Absorbed))
        .filter_map(|o| {
            let p = o.position?;
            let reach = o.size.melee_range;
            let before = footprint_distance(from, size, p, o.size.squares);
            let after = footprint_distance(to, size, p, o.size.squares);
            (before <= reach && after > reach).then_some(o.id)
        })
        .collect()
}
