//! Battle statistics, counted from the event log: what each combatant (and each side) did.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::components::{CombatantId, Side};
use super::event::BattleEvent;
use crate::ruleset::Category;

/// Damage by category.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageByCategory {
    pub standard: i64,
    pub direct: i64,
    pub lethal: i64,
}

impl DamageByCategory {
    /// The total of the three.
    pub fn total(&self) -> i64 {
        self.standard + self.direct + self.lethal
    }

    fn add(&mut self, category: Category, amount: i64) {
        match category {
            Category::Standard => self.standard += amount,
            Category::Direct => self.direct += amount,
            Category::Lethal => self.lethal += amount,
        }
    }

    fn merge(&mut self, o: &DamageByCategory) {
        self.standard += o.standard;
        self.direct += o.direct;
        self.lethal += o.lethal;
    }
}

/// What one combatant (or a whole side, summed) did in a battle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantStats {
    pub attacks: u32,
    /// Targets hit, one per target per attack.
    pub hits: u32,
    /// Targets missed.
    pub misses: u32,
    pub damage_dealt: DamageByCategory,
    pub damage_taken: i64,
    /// Health Thresholds this combatant reached.
    pub thresholds_reached: u32,
    pub steadfast_passed: u32,
    pub steadfast_failed: u32,
    pub ki_spent: i64,
    /// Conditions this combatant gave others.
    pub conditions_applied: u32,
    pub moves: u32,
    pub squares_moved: u32,
    /// Combatants this one defeated.
    pub defeats: u32,
    /// 1 if this combatant was defeated (a count for sides).
    pub defeated: u32,
    /// The damage its hits rolled before Soak, Armor or DR took their part.
    #[serde(default)]
    pub wound_rolled: i64,
    /// What the targets' Soak or Armor took off its hits.
    #[serde(default)]
    pub soaked: i64,
    /// d20: the Success Values its hits rolled (they buy the Effect Points).
    #[serde(default)]
    pub success_on_hits: i64,
    /// Power stages: the stages its attacks took from targets.
    #[serde(default)]
    pub stages_dealt: i64,
    /// d20: times a hit wore its own armour down.
    #[serde(default)]
    pub armour_worn: u32,
    /// Digimon: attack effects it gave others.
    #[serde(default)]
    pub effects_given: u32,
    /// Conditions this combatant gained, by kind, whoever gave them (its own Rage and Guard
    /// Down too): which conditions a ruleset's battles bring into play.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conditions_gained: BTreeMap<String, u32>,
}

/// One labelled quantity of a balance report, in the ruleset's own words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    pub label: String,
    pub value: i64,
}

impl CombatantStats {
    /// Adds another's counts to these (a side's or a series' totals).
    pub fn add(&mut self, o: &CombatantStats) {
        self.attacks += o.attacks;
        self.hits += o.hits;
        self.misses += o.misses;
        self.damage_dealt.merge(&o.damage_dealt);
        self.damage_taken += o.damage_taken;
        self.thresholds_reached += o.thresholds_reached;
        self.steadfast_passed += o.steadfast_passed;
        self.steadfast_failed += o.steadfast_failed;
        self.ki_spent += o.ki_spent;
        self.conditions_applied += o.conditions_applied;
        self.moves += o.moves;
        self.squares_moved += o.squares_moved;
        self.defeats += o.defeats;
        self.defeated += o.defeated;
        self.wound_rolled += o.wound_rolled;
        self.soaked += o.soaked;
        self.success_on_hits += o.success_on_hits;
        self.stages_dealt += o.stages_dealt;
        self.armour_worn += o.armour_worn;
        self.effects_given += o.effects_given;
        for (kind, n) in &o.conditions_gained {
            *self.conditions_gained.entry(kind.clone()).or_default() += n;
        }
    }

    /// These counts as a balance report names them: attacks, hits and misses, then `own`
    /// (the figures of the family playing the battle, in its terms: DBU's damage categories,
    /// thresholds and Ki; d20's Success Values, damage and armour; Digimon's HP, Armor and
    /// effects; power stages' stages and life cards; the ninja chapter's HP and chakra), then
    /// defeats. `family::balance_report` asks the family for `own`.
    pub fn figures(&self, own: Vec<(&'static str, i64)>) -> Vec<Figure> {
        let mut out: Vec<(&str, i64)> = vec![
            ("attacks", i64::from(self.attacks)),
            ("hits", i64::from(self.hits)),
            ("misses", i64::from(self.misses)),
        ];
        out.extend(own);
        out.push(("defeated", i64::from(self.defeated)));
        out.into_iter()
            .map(|(label, value)| Figure {
                label: label.to_string(),
                value,
            })
            .collect()
    }
}

/// Statistics for every combatant of a battle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleStats {
    pub combatants: BTreeMap<CombatantId, CombatantStats>,
}

impl BattleStats {
    /// Counts everything from a battle's events.
    pub fn from_events(events: &[BattleEvent]) -> Self {
        let mut s = Self::default();
        for e in events {
            match e {
                BattleEvent::AttackDeclared {
                    attacker,
                    ki_cost,
                    cost_pool,
                    ..
                } => {
                    let c = s.of(*attacker);
                    c.attacks += 1;
                    // Power stages pays in stages (the "Ki spent" of that ruleset); DBU's Ki
                    // comes with its own KiSpent event.
                    if cost_pool.is_some() {
                        c.ki_spent += ki_cost;
                    }
                }
                BattleEvent::Clash { attacker, hit, .. } => {
                    let c = s.of(*attacker);
                    if *hit {
                        c.hits += 1;
                    } else {
                        c.misses += 1;
                    }
                }
                BattleEvent::D20Check {
                    attacker,
                    hit,
                    success,
                    ..
                } => {
                    let c = s.of(*attacker);
                    if *hit {
                        c.hits += 1;
                        c.success_on_hits += success.unwrap_or(0);
                    } else {
                        c.misses += 1;
                    }
                }
                BattleEvent::Damage {
                    attacker,
                    target,
                    category,
                    damage,
                    wound,
                    soak_used,
                    ..
                } => {
                    let c = s.of(*attacker);
                    c.damage_dealt.add(*category, *damage);
                    c.wound_rolled += wound;
                    c.soaked += soak_used;
                    s.of(*target).damage_taken += damage;
                }
                BattleEvent::ArmourWorn { who, .. } => s.of(*who).armour_worn += 1,
                BattleEvent::DigiEffect { who, by, .. } if who != by => {
                    s.of(*by).effects_given += 1;
                }
                // Power stages: life cards count as damage (stages lost are in the log).
                BattleEvent::StageHit {
                    attacker,
                    target,
                    stages,
                    life_cards,
                    ..
                } => {
                    let c = s.of(*attacker);
                    c.damage_dealt
                        .add(crate::ruleset::Category::Lethal, *life_cards);
                    c.stages_dealt += stages;
                    s.of(*target).damage_taken += life_cards;
                }
                BattleEvent::ThresholdReached { who, .. } => s.of(*who).thresholds_reached += 1,
                BattleEvent::SteadfastRolled { who, passed, .. } => {
                    if *passed {
                        s.of(*who).steadfast_passed += 1;
                    } else {
                        s.of(*who).steadfast_failed += 1;
                    }
                }
                BattleEvent::KiSpent { who, amount, .. } => s.of(*who).ki_spent += amount,

                BattleEvent::ConditionApplied {
                    source, who, kind, ..
                } => {
                    *s.of(*who)
                        .conditions_gained
                        .entry(format!("{kind:?}"))
                        .or_default() += 1;
                    if let Some(src) = source.filter(|src| src != who) {
                        s.of(src).conditions_applied += 1;
                    }
                }
                BattleEvent::Moved { who, path, .. } => {
                    let c = s.of(*who);
                    c.moves += 1;
                    c.squares_moved += path.len() as u32;
                }
                BattleEvent::Defeated { who, by } => {
                    s.of(*who).defeated += 1;
                    if let Some(b) = by {
                        s.of(*b).defeats += 1;
                    }
                }
                _ => {}
            }
        }
        s
    }

    fn of(&mut self, id: CombatantId) -> &mut CombatantStats {
        self.combatants.entry(id).or_default()
    }

    /// The statistics summed per side.
    pub fn by_side(&self, sides: &BTreeMap<CombatantId, Side>) -> BTreeMap<Side, CombatantStats> {
        let mut out: BTreeMap<Side, CombatantStats> = BTreeMap::new();
        for side in sides.values() {
            out.entry(*side).or_default();
        }
        for (id, c) in &self.combatants {
            if let Some(side) = sides.get(id) {
                out.entry(*side).or_default().add(c);
            }
        }
        out
    }
}

/// The default pipeline's own balance figures (DBU): damage by category, Soak used,
/// thresholds, Steadfast Saves, Ki and conditions.
pub fn default_balance_figures(s: &CombatantStats) -> Vec<(&'static str, i64)> {
    vec![
        ("damage dealt", s.damage_dealt.total()),
        ("Standard", s.damage_dealt.standard),
        ("Direct", s.damage_dealt.direct),
        ("Lethal", s.damage_dealt.lethal),
        ("Soak used", s.soaked),
        ("thresholds crossed", i64::from(s.thresholds_reached)),
        ("Steadfast passed", i64::from(s.steadfast_passed)),
        ("Steadfast failed", i64::from(s.steadfast_failed)),
        ("Ki spent", s.ki_spent),
        ("conditions applied", i64::from(s.conditions_applied)),
    ]
}
