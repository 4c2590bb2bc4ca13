//! Skill Checks on the battlefield: a combatant beside a square whose terrain names a Skill
//! Check (`skill_check` in `terrain.ron`: heave a boulder aside, clear rubble) rolls against
//! its TN; on a success the square becomes the terrain the data names, for everyone, for the
//! rest of the battle.
//!
//! - **Digimon** ("Use a Skill (Simple Action): … a check to move a hazardous object"): the
//!   check dice + the named stat, for a Simple Action or for free with the round's Interrupt
//!   Action ("An Interrupt Action can either be used to make a Skill Check for free, or … to
//!   attempt an Intercede Action"): one or the other once a round, so a free check spends that
//!   round's Intercede. Readings of ours: the free check is made on the user's own part of the
//!   turn (the chapter gives no moment on another's turn when a check on the ground would
//!   interrupt anything); a combatant in a Clash cannot reach past its opponent, and a Stunned
//!   or Paralysed one has no Interrupt.
//! - **d20** (1d20 + ability against a DC, a natural 20 adding another d20, a natural 1 always
//!   failing): a Standard action (the text gives skill checks no action; ours). **Taking 10**:
//!   "If the character can take their time and is not under pressure, such as in combat, they
//!   may take a 10 on their 1d20 roll." Our reading on a battlefield: a character no foe can
//!   see is not under pressure; it may count its die as 10 instead of rolling.
//!
//! The preview ([`chance`]) and the roll ([`apply_use_skill`]) both use [`spec`], so the odds
//! shown are the odds rolled.

use bevy::prelude::*;

use super::shinobi::spend_ap;
use crate::battle::command::{Command, RuleError, SkillWay};
use crate::battle::components::Square;
use crate::battle::event::BattleEvent;
use crate::battle::fighter::Fighter;
use crate::battle::odds::RollSummary;
use crate::battle::state::take;
use crate::battle::state::*;
use crate::dice::{RollKind, RollSpec, distribution, roll};
use crate::grid::{Field, chebyshev};
use crate::ruleset::{Rules, SkillCheckDef};

/// The action points a check costs on this engine path: a Digimon Simple Action and a d20
/// Standard action are one each (the rulesets lower a turn's actions to action points).
const CHECK_ACTION: u32 = 1;

/// What Taking 10 counts the die as.
const TAKE_TEN: i64 = 10;

/// The families that make Skill Checks on the ground.
enum Family<'r> {
    Digimon(&'r crate::ruleset::digimon::DigimonData),
    D20(&'r crate::ruleset::d20::D20Data),
}

fn family(rules: &Rules) -> Option<Family<'_>> {
    match &rules.family {
        crate::ruleset::FamilyData::Digimon(digimon) => Some(Family::Digimon(digimon)),
        crate::ruleset::FamilyData::D20(d20) => Some(Family::D20(d20)),
        _ => None,
    }
}

/// True when `rules` makes Skill Checks on the ground (d20 and Digimon), so a player or the
/// computer may try one on the squares beside a unit.
pub fn makes_skill_checks(rules: &Rules) -> bool {
    family(rules).is_some()
}

/// The first foe (on the field and able to act) that can see `me`: what puts it under
/// pressure, so it cannot Take 10.
pub fn watched_by<'a>(field: &Field, all: &'a [Fighter], me: &Fighter) -> Option<&'a Fighter> {
    let at = me.position?;
    all.iter().find(|f| {
        f.side != me.side
            && !f.defeated()
            && f.position.is_some_and(|p| {
                crate::grid::los::clear_between(field, p, f.size.squares, at, me.size.squares)
            })
    })
}

/// Why `me` cannot make the Skill Check on `at` now the way `way` says; otherwise the check
/// it would make.
pub fn check_use_skill<'r>(
    rules: &'r Rules,
    field: &Field,
    round: u32,
    all: &[Fighter],
    me: &Fighter,
    at: Square,
    way: SkillWay,
) -> Result<&'r SkillCheckDef, RuleError> {
    let Some(fam) = family(rules) else {
        return Err(RuleError::NotInRuleset {
            what: "a Skill Check on the battlefield",
            ruleset: rules.manifest.id.clone(),
        });
    };
    let refuse = |why: String| RuleError::CannotUseSkill { who: me.id, why };
    match (&fam, way) {
        (Family::Digimon(_), SkillWay::TakeTen) => {
            return Err(refuse("Taking 10 is a d20 rule".into()));
        }
        (Family::D20(_), SkillWay::Interrupt) => {
            return Err(refuse("the Interrupt Action is a Digimon rule".into()));
        }
        _ => {}
    }
    let terrain = field
        .map
        .at(at)
        .and_then(|i| rules.terrain.types.get(usize::from(i)));
    let Some(check) = terrain.and_then(|t| t.skill_check.as_ref()) else {
        let what = terrain.map_or("nothing", |t| t.name.as_str());
        return Err(refuse(format!(
            "{at} is {what}, which no Skill Check changes"
        )));
    };
    let Some(pos) = me.position else {
        return Err(refuse("it is not on the battlefield".into()));
    };
    if chebyshev(pos, at) != 1 {
        return Err(refuse(format!(
            "{at} is not beside it (a Skill Check on the ground is made from an adjacent square)"
        )));
    }
    if me.digi.as_ref().is_some_and(|s| s.clash.is_some()) {
        return Err(refuse("it is in a Clash".into()));
    }
    match way {
        SkillWay::Interrupt if !super::digimon::interrupt_left(me, round) => Err(refuse(
            "its Interrupt Action is spent this round (an Intercede or a free Skill Check), or it is Stunned or Paralysed".into(),
        )),
        SkillWay::Interrupt => Ok(check),
        SkillWay::Action | SkillWay::TakeTen if me.actions.standard < CHECK_ACTION => {
            Err(RuleError::NoActions {
                who: me.id,
                what: match fam {
                    Family::Digimon(_) => "Simple Action",
                    Family::D20(_) => "Standard action",
                },
            })
        }
        SkillWay::TakeTen => match watched_by(field, all, me) {
            Some(foe) => Err(refuse(format!(
                "it cannot Take 10 under pressure: {} can see it",
                foe.identity.name
            ))),
            None => Ok(check),
        },
        SkillWay::Action => Ok(check),
    }
}

/// The Skill Check `me` makes for `check` the way `way` says: Digimon's check dice + the
/// stat and the effects on it; d20's 1d20 (a natural 20 adds another, a natural 1 fails) +
/// the ability, or 10 + the ability when Taking 10.
pub fn spec(rules: &Rules, me: &Fighter, check: &SkillCheckDef, way: SkillWay) -> RollSpec {
    let kind = RollKind::Skill(check.name.clone());
    match family(rules) {
        Some(Family::Digimon(d)) => {
            let mut s = super::digimon::check(d, kind);
            // The stat's name as the ruleset gives it ("Body", "BIT value").
            let name = rules
                .action_points()
                .and_then(|x| x.combat.stats.iter().find(|st| st.id == check.stat))
                .map_or(check.stat.as_str(), |st| st.name.as_str());
            super::digimon::add_stat(d, me, &check.stat, name, &mut s);
            s
        }
        Some(Family::D20(d)) => {
            let mut s = if way == SkillWay::TakeTen {
                let mut s = RollSpec::new(kind);
                s.add("Taking 10", TAKE_TEN);
                s
            } else {
                super::d20::d20_base(d, kind)
            };
            super::d20::add_stat(d, me, &check.stat, &mut s);
            s
        }
        None => RollSpec::new(kind),
    }
}

/// `name` with its first letter in lower case, to go inside a sentence.
fn lower_first(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The exact chance that `me` succeeds at `check` made the way `way` says: the roll meets or
/// beats the TN and, in d20, its die is not a natural 1.
pub fn chance(rules: &Rules, me: &Fighter, check: &SkillCheckDef, way: SkillWay) -> f64 {
    let s = spec(rules, me, check, way);
    let p = match family(rules) {
        Some(Family::D20(_)) if s.base.is_some() => {
            // Without the natural 1's mass; the cut-off tail of a run of 20s lies above any DC.
            let (dist, one) = super::d20::without_natural_one(&s);
            (1.0 - one) - dist.cdf(check.target - 1)
        }
        // 1 - P(below the TN): an exploding roll's cut-off tail lies above any TN, a success.
        _ => 1.0 - distribution(&s).cdf(check.target - 1),
    };
    p.clamp(0.0, 1.0)
}

/// `UseSkill`: spends the action or the Interrupt, rolls the check (or Takes 10) and, on a
/// success, turns the square into the terrain the check names.
pub fn apply_use_skill(
    sys: RuleSys,
    order: Res<TurnOrder>,
    mut ground: ResMut<Battleground>,
    mut pending: ResMut<PendingCommand>,
) {
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let Some((who, at, way)) = take(&mut pending, |c| match c {
        Command::UseSkill { who, at, way } => Some((*who, *at, *way)),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let rules = &rules.0;
    let Some((index, terrain)) = ground
        .0
        .at(at)
        .and_then(|i| Some((i, rules.terrain.types.get(usize::from(i))?)))
    else {
        return;
    };
    let Some(check) = terrain.skill_check.clone() else {
        return;
    };
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    if way == SkillWay::Interrupt {
        if let Some(s) = f.digi.as_mut() {
            s.interceded_round = order.round;
        }
        log.push(BattleEvent::InterruptSpent {
            who,
            what: check.name.clone(),
        });
    } else {
        spend_ap(&mut f, CHECK_ACTION, "a Skill Check", &mut log);
    }
    let r = roll(&spec(rules, &f.snapshot(), &check, way), &mut dice.0);
    // A natural 1 always fails (d20); a Digimon check has no natural die.
    let passed = r.total >= check.target && r.natural != Some(1);
    let taking = if way == SkillWay::TakeTen {
        ", Taking 10 (no foe can see it)"
    } else {
        ""
    };
    log.push(BattleEvent::CheckRolled {
        who,
        purpose: format!(
            "makes a Skill Check to {} at {at}{taking}",
            lower_first(&check.name)
        ),
        roll: r,
        target: check.target,
        passed,
    });
    if !passed {
        return;
    }
    let Some(to) = rules
        .terrain
        .types
        .iter()
        .position(|t| t.id == check.becomes)
        .and_then(|i| u16::try_from(i).ok())
    else {
        return;
    };
    ground.0.set(at, to);
    log.push(BattleEvent::GroundChanged {
        who,
        at,
        from: rules.terrain.types[usize::from(index)].name.clone(),
        to: rules.terrain.types[usize::from(to)].name.clone(),
    });
}

/// A Skill Check `me` may make now, as the action bar and the board show it: where, how it
/// is made, what it does, its roll and its exact chance.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillOption {
    pub at: Square,
    pub way: SkillWay,
    pub check: SkillCheckDef,
    /// The name of the terrain the square becomes on a success.
    pub becomes: String,
    pub roll: RollSummary,
    pub chance: f64,
}

/// Every Skill Check `me` could make now on the squares beside it, each way it may.
pub fn options(
    rules: &Rules,
    field: &Field,
    round: u32,
    all: &[Fighter],
    me: &Fighter,
) -> Vec<SkillOption> {
    let Some(pos) = me.position else {
        return Vec::new();
    };
    if family(rules).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for at in crate::grid::Dir8::ALL.map(|dir| pos.step(dir)) {
        for way in SkillWay::ALL {
            if let Ok(c) = check_use_skill(rules, field, round, all, me, at, way) {
                let becomes = rules
                    .terrain
                    .types
                    .iter()
                    .find(|t| t.id == c.becomes)
                    .map_or_else(|| c.becomes.clone(), |t| t.name.clone());
                out.push(SkillOption {
                    at,
                    way,
                    check: c.clone(),
                    becomes,
                    roll: RollSummary::of(&spec(rules, me, c, way)),
                    chance: chance(rules, me, c, way),
                });
            }
        }
    }
    out
}
