//! The Digimon chapter's Use a Skill on the battlefield: "a Skill Check in Combat … a check to
//! move a hazardous object". A Tamer or Digimon beside a square whose terrain names a Skill
//! Check (`skill_check` in `terrain.ron`: heave a boulder aside, clear data rubble) rolls the
//! check dice + the named stat against its TN; on a success the square becomes the terrain
//! the data names, for everyone, for the rest of the battle.
//!
//! It costs a Simple Action, or the round's Interrupt Action ("An Interrupt Action can either
//! be used to make a Skill Check for free, or … to attempt an Intercede Action"): one or the
//! other once a round, so a free check spends that round's Intercede. Readings of ours: the
//! free check is made on the user's own part of the turn (the chapter gives no moment on
//! another's turn when a check on the ground would interrupt anything); a combatant in a
//! Clash cannot reach past its opponent, and a Stunned or Paralysed one has no Interrupt.
//!
//! The preview ([`chance`]) and the roll ([`apply_use_skill`]) both use [`spec`], so the odds
//! shown are the odds rolled.

use bevy::prelude::*;

use super::command::{Command, RuleError};
use super::components::Square;
use super::digimon::{add_stat, has};
use super::event::{BattleEvent, EventLog};
use super::fighter::{Fighter, FighterQuery};
use super::maneuvers::take;
use super::odds::RollSummary;
use super::shinobi::spend_ap;
use super::state::*;
use crate::dice::{RollKind, RollSpec, distribution, roll};
use crate::grid::{Field, chebyshev};
use crate::ruleset::digimon::{DigimonData, EffectKind};
use crate::ruleset::{Rules, SkillCheckDef};

/// A Simple Action's action points on this engine path (the ruleset lowers a turn's Simple
/// Actions to action points, one each).
const SIMPLE_ACTION: u32 = 1;

/// The Digimon rules, when the ruleset has them.
fn digimon(rules: &Rules) -> Option<&DigimonData> {
    rules.shinobi.as_ref().and_then(|s| s.digimon.as_deref())
}

/// True when `me` has not spent this round's Interrupt Action (on an Intercede or a free
/// Skill Check) and can take one.
pub fn interrupt_left(me: &Fighter, round: u32) -> bool {
    me.digi
        .as_ref()
        .is_some_and(|s| s.interceded_round != round)
        && !has(me, EffectKind::Stun)
        && !has(me, EffectKind::Paralysis)
}

/// Why `me` cannot make the Skill Check on `at` now (a Simple Action, or the Interrupt with
/// `interrupt`); otherwise the check it would make.
pub fn check_use_skill<'r>(
    rules: &'r Rules,
    field: &Field,
    round: u32,
    me: &Fighter,
    at: Square,
    interrupt: bool,
) -> Result<&'r SkillCheckDef, RuleError> {
    if digimon(rules).is_none() {
        return Err(RuleError::NotInRuleset {
            what: "Use a Skill on the battlefield",
            ruleset: rules.manifest.id.clone(),
        });
    }
    let refuse = |why: String| RuleError::CannotUseSkill { who: me.id, why };
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
    if interrupt {
        if !interrupt_left(me, round) {
            return Err(refuse(
                "its Interrupt Action is spent this round (an Intercede or a free Skill Check), or it is Stunned or Paralysed".into(),
            ));
        }
    } else if me.actions.standard < SIMPLE_ACTION {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Simple Action",
        });
    }
    Ok(check)
}

/// The Skill Check `me` rolls for `check`: the check dice + its stat and the effects on it.
pub fn spec(d: &DigimonData, me: &Fighter, check: &SkillCheckDef) -> RollSpec {
    let mut s = super::digimon::check(d, RollKind::Skill(check.name.clone()));
    add_stat(d, me, &check.stat, &stat_name(&check.stat), &mut s);
    s
}

/// A stat id as the roll breakdown names it ("BODY" -> "Body").
fn stat_name(id: &str) -> String {
    let mut c = id.chars();
    match c.next() {
        Some(f) => f
            .to_uppercase()
            .chain(c.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
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

/// The exact chance that `me` succeeds at `check` (the roll meets or beats the TN).
pub fn chance(rules: &Rules, me: &Fighter, check: &SkillCheckDef) -> f64 {
    let Some(d) = digimon(rules) else {
        return 0.0;
    };
    // 1 - P(below the TN): an exploding roll's cut-off tail lies above any TN, a success.
    (1.0 - distribution(&spec(d, me, check)).cdf(check.target - 1)).clamp(0.0, 1.0)
}

/// `UseSkill`: spends the Simple Action or the Interrupt, rolls the check and, on a success,
/// turns the square into the terrain the check names.
pub fn apply_use_skill(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut ground: ResMut<Battleground>,
    mut dice: ResMut<BattleDice>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Query<FighterQuery>,
) {
    let Some((who, at, interrupt)) = take(&mut pending, |c| match c {
        Command::UseSkill { who, at, interrupt } => Some((*who, *at, *interrupt)),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let rules = &rules.0;
    let Some(d) = digimon(rules) else {
        return;
    };
    let Some(mut f) = q.iter_mut().find(|f| *f.id == who) else {
        return;
    };
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
    if interrupt {
        if let Some(s) = f.digi.as_mut() {
            s.interceded_round = order.round;
        }
        log.push(BattleEvent::InterruptSpent {
            who,
            what: check.name.clone(),
        });
    } else {
        spend_ap(&mut f, SIMPLE_ACTION, "a Skill Check", &mut log);
    }
    let r = roll(&spec(d, &f.snapshot(), &check), &mut dice.0);
    let passed = r.total >= check.target;
    log.push(BattleEvent::CheckRolled {
        who,
        purpose: format!(
            "makes a Skill Check to {} at {at}",
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
    let became = &rules.terrain.types[usize::from(to)];
    log.push(BattleEvent::GroundChanged {
        who,
        at,
        from: rules.terrain.types[usize::from(index)].name.clone(),
        to: became.name.clone(),
    });
}

/// A Skill Check `me` may make now, as the action bar and the board show it: where, how it
/// is paid, what it does, its roll and its exact chance.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillOption {
    pub at: Square,
    /// Paid with the round's Interrupt Action, not a Simple Action.
    pub interrupt: bool,
    pub check: SkillCheckDef,
    /// The name of the terrain the square becomes on a success.
    pub becomes: String,
    pub roll: RollSummary,
    pub chance: f64,
}

/// Every Skill Check `me` could make now on the squares beside it, each way it may pay.
pub fn options(rules: &Rules, field: &Field, round: u32, me: &Fighter) -> Vec<SkillOption> {
    let (Some(pos), Some(d)) = (me.position, digimon(rules)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for at in crate::grid::Dir8::ALL.map(|dir| pos.step(dir)) {
        for interrupt in [false, true] {
            if let Ok(c) = check_use_skill(rules, field, round, me, at, interrupt) {
                let becomes = rules
                    .terrain
                    .types
                    .iter()
                    .find(|t| t.id == c.becomes)
                    .map_or_else(|| c.becomes.clone(), |t| t.name.clone());
                out.push(SkillOption {
                    at,
                    interrupt,
                    check: c.clone(),
                    becomes,
                    roll: RollSummary::of(&spec(d, me, c)),
                    chance: chance(rules, me, c),
                });
            }
        }
    }
    out
}
