//! Rolls that are not Combat Rolls: Steadfast Saves, Saving Throws, Skill Checks and
//! Initiative, each built as a [`RollSpec`] so it is rolled and shown like every other roll.

use super::components::CombatantId;
use super::event::{BattleEvent, EventLog};
use super::fighter::{Fighter, at_tier, eval};
use crate::dice::{BaseDie, DiceSource, DiceTerm, RollKind, RollSpec, roll};
use crate::ruleset::{ConditionKind, ConditionRule, Rules};

/// The Steadfast Save: a bare die, "not affected by any Attributes, Extra Dice, or other
/// bonuses"; it cannot crit (a natural `critical_at` is Steady Momentum instead).
pub fn steadfast_spec(rules: &Rules) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Steadfast);
    s.base = Some(BaseDie::plain(rules.dice.steadfast.die));
    s
}

/// Superiority and Impediment, which change "your rolls", Saves and Skill Checks included.
fn dice_conditions(rules: &Rules, f: &Fighter, s: &mut RollSpec) {
    if f.is(rules, ConditionKind::Superiority) {
        s.superiority = Some("Superiority die".into());
    }
    if f.is(rules, ConditionKind::Impediment) {
        if s.superiority.take().is_some() {
            s.dropped.push("Superiority die (Impediment)".into());
        } else if let ConditionRule::Impediment { flat_penalty } =
            &rules.condition(ConditionKind::Impediment).rule
        {
            s.add("Impediment (no d10 to drop)", -flat_penalty);
        }
    }
}

/// A Saving Throw: d10 + the save's attribute Score, +1(T) and a lower Critical Target on the
/// race's favoured Save; a Critical Result adds the ToP's Critical Dice, a Botch −2(bT).
pub fn save_spec(rules: &Rules, f: &Fighter, save: &str, bonus: i64) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Save(save.to_string()));
    let t = f.power.tier;
    let bt = f.power.base_tier;
    let racial = f.power.racial_save == save;
    let critical_target = if racial {
        rules.characters.racial_save_critical_target
    } else {
        rules.dice.critical_target
    };
    s.base = Some(BaseDie {
        sides: rules.dice.base_die,
        rolls: 1,
        critical_target: Some(critical_target.max(rules.dice.critical_target_floor)),
        botch_range: rules.dice.botch_range,
        botch_penalty: at_tier(&rules.dice.botch_penalty, t, bt),
        penalization: None,
        exploding: false,
    });
    if let Ok(pool) = rules.tier(t).critical_dice.eval(&f.vars()) {
        for g in pool.dice {
            s.critical_dice.push(DiceTerm {
                label: format!("ToP {t} Critical Dice"),
                group: g,
                exploding: false,
            });
        }
    }
    if let Some(def) = rules.save(save) {
        s.add(
            format!("{} Score", def.attribute),
            f.attributes.get(&def.attribute),
        );
    }
    if racial {
        s.add(
            "racial Save",
            at_tier(&rules.characters.racial_save_bonus, t, bt),
        );
    }
    s.add("earlier failures", bonus);
    s.add("Minion Weakness", -f.power.minion_roll_penalty);
    dice_conditions(rules, f, &mut s);
    s
}

/// A Skill Check: d10 + Skill Bonus; a Critical Result adds a flat die (1d4), a Botch −2.
/// `None` when the skill needs ranks the fighter lacks.
pub fn skill_spec(rules: &Rules, f: &Fighter, skill: &str) -> Option<RollSpec> {
    let bonus = f.skill_bonus(rules, skill)?;
    let mut s = RollSpec::new(RollKind::Skill(skill.to_string()));
    s.base = Some(BaseDie {
        sides: rules.dice.base_die,
        rolls: 1,
        critical_target: Some(rules.dice.critical_target),
        botch_range: rules.dice.botch_range,
        botch_penalty: rules.dice.skill_botch_penalty,
        penalization: None,
        exploding: false,
    });
    if let Ok(pool) = rules.dice.skill_critical_dice.eval(&f.vars()) {
        for g in pool.dice {
            s.critical_dice.push(DiceTerm {
                label: "Skill critical".into(),
                group: g,
                exploding: false,
            });
        }
    }
    s.add(format!("{skill} bonus"), bonus);
    dice_conditions(rules, f, &mut s);
    Some(s)
}

/// The Initiative Check as the default pipeline rolls it: the base die + the initiative bonus,
/// named `label`; it cannot crit and takes no other modifier (it is Urgent). A family that
/// rolls otherwise (d20's exploding 20, Digimon's own check) says so in its
/// [`initiative_spec`](super::family::Family::initiative_spec) hook.
pub fn initiative_roll(rules: &Rules, f: &Fighter, label: String) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Initiative);
    s.base = Some(BaseDie::plain(rules.dice.base_die));
    s.add(label, f.derived(rules).initiative);
    s
}

/// The initiative bonus as the ruleset's derived-value table writes it ("Initiative (DEX + …)").
pub fn initiative_label(rules: &Rules) -> String {
    format!(
        "Initiative ({})",
        rules.characters.derived.initiative.text()
    )
}

/// A bare die roll for a tie-break.
pub fn rolloff_spec(rules: &Rules) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Amount("Roll-off".into()));
    s.base = Some(BaseDie::plain(rules.actions.initiative_rolloff_die));
    s
}

/// Surgency, less the Arrogant Declaration's aftermath.
pub fn surgency(rules: &Rules, f: &Fighter) -> i64 {
    eval(&rules.actions.surgency, &f.vars()) - f.arrogance_penalty(rules)
}

/// The Healing Surge: 2d10(T) + Surgency.
pub fn healing_surge_spec(rules: &Rules, f: &Fighter) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Amount("Healing Surge".into()));
    if let Ok(pool) = rules.actions.healing_surge.eval(&f.vars()) {
        for g in pool.dice {
            s.add_dice("Healing Surge", g);
        }
        s.add("Healing Surge", pool.flat);
    }
    s.add("Surgency", eval(&rules.actions.surgency, &f.vars()));
    s.add("after Arrogant Declaration", -f.arrogance_penalty(rules));
    s
}

/// Rolls a Save or Skill Check against a named difficulty, logs it, and says whether it passed
/// (a Dice Score at or above the Target Number).
pub fn roll_against(
    rules: &Rules,
    dice: &mut DiceSource,
    spec: &RollSpec,
    difficulty: &str,
    who: CombatantId,
    purpose: String,
    log: &mut EventLog,
) -> bool {
    let r = roll(spec, dice);
    let target = rules.difficulty(difficulty);
    let passed = r.total >= target;
    log.push(BattleEvent::CheckRolled {
        who,
        purpose,
        roll: r,
        target,
        passed,
    });
    passed
}
