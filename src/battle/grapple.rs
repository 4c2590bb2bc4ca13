//! DBU's grappling maneuvers (digest §3.3, special maneuvers): Grapple, Pin, the escape and
//! letting go, and our Absorb; the exact chance of each, worked out from the very roll specs
//! the maneuver rolls; and the system that ends a hold once its participants part.
//!
//! Readings of ours, documented in `docs/src/dbu.md`: the Grapple Check rolls the Simple
//! profile's Strike (every combatant can grapple); the one defending rolls whichever of its
//! Strike and Dodge is better; the one acting must beat the other's total (ties go to the
//! defender, as in every DBU Clash); the one held may not move; a hold ends when its
//! participants are no longer within the grappler's Melee Range (the grappler walking away,
//! a knockback), when either falls or is taken in, and the Pinned it gave ends with it.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::attack::StandingStill;
use super::bar::GrappleOffer;
use super::checks::save_spec;
use super::command::{Command, GrappleAct, RuleError};
use super::components::{CombatantId, EncounterLog, GrappleHold};
use super::context::{Declaration, defense_spec, strike_spec_against};
use super::effects::{end_condition, expiry_after, grant_condition, spend_actions};
use super::event::{BattleEvent, EventLog};
use super::fighter::{Fighter, at_tier};
use super::snapshot::Fighters;
use super::state::*;
use crate::dice::{RollKind, RollSpec, distribution, roll};
use crate::grid::{Field, footprint_distance};
use crate::ruleset::{ConditionKind, ConditionRule, GrappleRules, Rules};

/// One opposed roll of a grappling maneuver: what it is called, the actor's roll and the
/// other participant's.
#[derive(Debug, Clone)]
pub struct OpposedRoll {
    /// Its name in the log and the panel ("Grapple Check", "Might Clash", "opposed Save").
    pub check: String,
    /// The actor's roll.
    pub mine: RollSpec,
    /// The other participant's roll, which the actor must beat.
    pub theirs: RollSpec,
}

/// A failed Grapple waiting on the target's Exploit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LostGrapple {
    /// The one who tried.
    pub who: CombatantId,
    /// The target, if it still is to be asked.
    pub provokers: Vec<CombatantId>,
}

/// The failed Grapple whose Exploit is being offered, if any.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentGrapple(pub Option<LostGrapple>);

/// The ruleset's grappling rules, or why there are none.
fn grapple_rules(rules: &Rules, act: GrappleAct) -> Result<&GrappleRules, RuleError> {
    rules
        .actions
        .grapple
        .as_ref()
        .ok_or_else(|| RuleError::NotInRuleset {
            what: act.name(),
            ruleset: rules.manifest.id.clone(),
        })
}

/// The declaration of an unarmed blow with the grapple profile, whose Strike, Dodge and Parry
/// a Grapple Check rolls.
fn grapple_declaration<'r>(rules: &'r Rules, g: &GrappleRules) -> Option<Declaration<'r>> {
    let profile = rules.profile(&g.profile)?;
    let attack_type = rules.attack_type(&profile.attack_type)?;
    Some(Declaration {
        profile,
        attack_type,
        technique: None,
        element: None,
        wager: 0,
        target_count: 1,
        sneak: false,
        sneak_won: &[],
        bystanders: &[],
        aimed_at: None,
        numbers_only: false,
        held_charges: 0,
        called_shot: None,
        united: None,
        power_attack: 0,
        aimed: Default::default(),
    })
}

/// A Grapple Check of `me` against `other`: `me`'s Strike plus `bonus`, against `other`'s
/// better of its Strike (rolled as a Parry) and its Dodge.
fn grapple_check(
    rules: &Rules,
    field: &Field,
    g: &GrappleRules,
    me: &Fighter,
    other: &Fighter,
    bonus: (&str, i64),
) -> Option<OpposedRoll> {
    let decl = grapple_declaration(rules, g)?;
    let mut mine = strike_spec_against(rules, field, me, &decl, other);
    mine.add(bonus.0, bonus.1);
    let strike = defense_spec(
        rules,
        field,
        other,
        me,
        &decl,
        super::command::DefenseChoice::Parry,
    );
    let dodge = defense_spec(
        rules,
        field,
        other,
        me,
        &decl,
        super::command::DefenseChoice::Dodge,
    );
    let theirs = if distribution(&strike).mean() > distribution(&dodge).mean() {
        strike
    } else {
        dodge
    };
    Some(OpposedRoll {
        check: "Grapple Check".into(),
        mine,
        theirs,
    })
}

/// A Might Clash roll: the Combat Roll's dice and Might, with the roller's roll modifiers.
pub fn might_spec(rules: &Rules, field: &Field, f: &Fighter) -> RollSpec {
    let mut s = super::context::combat_roll(
        rules,
        f,
        RollKind::Amount("Might Clash".into()),
        0,
        None,
        true,
        false,
    );
    s.add("Might", f.derived(rules).might);
    super::context::add_roll_modifiers(rules, field, f, &mut s);
    s
}

/// The opposed rolls `act` by `me` on `other` makes, in order (each must be won): none for a
/// Release.
pub fn grapple_rolls(
    rules: &Rules,
    field: &Field,
    me: &Fighter,
    other: &Fighter,
    act: GrappleAct,
) -> Result<Vec<OpposedRoll>, RuleError> {
    let g = grapple_rules(rules, act)?;
    let bad = || RuleError::GrappleHold {
        why: "the grapple profile is missing from the ruleset",
    };
    let (t, bt) = (me.power.tier, me.power.base_tier);
    let check = |bonus| grapple_check(rules, field, g, me, other, bonus).ok_or_else(bad);
    Ok(match act {
        GrappleAct::Seize => vec![check(("", 0))?],
        GrappleAct::Pin => vec![
            check(("Pin", -at_tier(&g.pin_penalty, t, bt)))?,
            OpposedRoll {
                check: "Might Clash".into(),
                mine: might_spec(rules, field, me),
                theirs: might_spec(rules, field, other),
            },
        ],
        GrappleAct::Absorb => {
            let save = match &rules.condition(ConditionKind::Absorbed).rule {
                ConditionRule::Absorbed { save, .. } => save.clone(),
                _ => "Cognitive".into(),
            };
            vec![
                check(("", 0))?,
                OpposedRoll {
                    check: "opposed Save".into(),
                    mine: save_spec(rules, me, &save, 0),
                    theirs: save_spec(rules, other, &save, 0),
                },
            ]
        }
        GrappleAct::Escape { actions } => {
            let per = at_tier(&g.escape_bonus_per_action, t, bt);
            let extra = i64::from(actions.saturating_sub(1));
            vec![check(("extra Actions", per * extra))?]
        }
        GrappleAct::Release => Vec::new(),
    })
}

/// True when the actor's `mine` beats `theirs` (ties go to the other unless the ruleset gives
/// them to the attacker).
fn wins(rules: &Rules, mine: i64, theirs: i64) -> bool {
    if rules.dice.attacker_wins_ties {
        mine >= theirs
    } else {
        mine > theirs
    }
}

/// The exact chance of winning one opposed roll.
pub fn chance(rules: &Rules, r: &OpposedRoll) -> f64 {
    let (a, d) = (distribution(&r.mine), distribution(&r.theirs));
    if rules.dice.attacker_wins_ties {
        a.prob_greater(&d.shift(-1))
    } else {
        a.prob_greater(&d)
    }
}

/// The exact chance that `act` by `me` on `other` succeeds: every roll won (1 for a Release).
pub fn success_chance(
    rules: &Rules,
    field: &Field,
    me: &Fighter,
    other: &Fighter,
    act: GrappleAct,
) -> Result<f64, RuleError> {
    Ok(grapple_rolls(rules, field, me, other, act)?
        .iter()
        .map(|r| chance(rules, r))
        .product())
}

/// True when `a` holds `b` (or, with `holds` false, is held by it).
fn in_hold(a: &Fighter, b: CombatantId, holds: bool) -> bool {
    a.encounter.grapple == Some(GrappleHold { with: b, holds })
}

/// Checks `act` by `me` on `target` among `fighters`: the ruleset has it, once a round, the
/// Actions, and the hold it needs (none to Seize, on the target to Pin, Absorb or Release,
/// by the target to Escape).
pub fn check_grapple(
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
    target: CombatantId,
    act: GrappleAct,
) -> Result<(), RuleError> {
    let g = grapple_rules(rules, act)?;
    let need = |n: u32| {
        if me.actions.usable() < n {
            Err(RuleError::NoActions {
                who: me.id,
                what: "Standard Action",
            })
        } else {
            Ok(())
        }
    };
    let holding = || {
        if in_hold(me, target, true) {
            Ok(())
        } else {
            Err(RuleError::GrappleHold {
                why: "it needs a hold on the target: Grapple it first",
            })
        }
    };
    match act {
        GrappleAct::Seize => {
            if me.round.grappled {
                return Err(RuleError::GrappleMade { what: "Grapple" });
            }
            if me.encounter.grapple.is_some() {
                return Err(RuleError::GrappleHold {
                    why: "already in a Grapple",
                });
            }
            need(g.actions)?;
            let Some(t) = fighters.iter().find(|f| {
                f.id == target && f.side != me.side && !f.defeated() && within_reach(me, f)
            }) else {
                return Err(RuleError::GrappleReach { target });
            };
            if t.encounter.grapple.is_some() {
                return Err(RuleError::GrappleHold {
                    why: "the target is already in a Grapple",
                });
            }
            Ok(())
        }
        GrappleAct::Pin => {
            holding()?;
            if me.round.pinned {
                return Err(RuleError::GrappleMade { what: "Pin" });
            }
            need(g.pin_actions)
        }
        GrappleAct::Absorb => {
            if !me.loadout.absorber {
                return Err(RuleError::GrappleHold {
                    why: "only an absorber can Absorb",
                });
            }
            holding()?;
            if me.round.absorbed {
                return Err(RuleError::GrappleMade { what: "Absorb" });
            }
            need(g.absorb_actions)
        }
        GrappleAct::Escape { actions } => {
            if !in_hold(me, target, false) {
                return Err(RuleError::GrappleHold {
                    why: "only the one held escapes, from its grappler",
                });
            }
            if actions == 0 {
                return Err(RuleError::EscapeActions);
            }
            need(actions)
        }
        GrappleAct::Release => holding(),
    }
}

/// True when `other` stands within `me`'s Melee Range.
pub fn within_reach(me: &Fighter, other: &Fighter) -> bool {
    match (me.position, other.position) {
        (Some(a), Some(b)) => {
            footprint_distance(a, me.size.squares, b, other.size.squares) <= me.size.melee_range
        }
        _ => false,
    }
}

/// `Grapple`: spends the Actions, rolls each opposed roll in turn and carries out the result:
/// a hold begins (or a failed Seize offers the target its Exploit), a Pin or an Absorb lands
/// or frees the target, an escape frees the one held, a Release lets go.
pub fn resolve_grapple(
    sys: RuleSys,
    ground: Res<Battleground>,
    order: Res<TurnOrder>,
    mut pending: ResMut<PendingCommand>,
    mut lost: ResMut<CurrentGrapple>,
) {
    let Some((who, target, act)) = take(&mut pending, |c| match c {
        Command::Grapple { who, target, act } => Some((*who, *target, *act)),
        _ => None,
    }) else {
        return;
    };
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let rules = &rules.0;
    progress.0 = true;
    let field = ground.field(rules);
    let all = q.snapshots();
    let (Some(me), Some(other), Some(g)) = (
        all.iter().find(|f| f.id == who),
        all.iter().find(|f| f.id == target),
        rules.actions.grapple.as_ref(),
    ) else {
        return;
    };
    let cost = match act {
        GrappleAct::Seize => g.actions,
        GrappleAct::Pin => g.pin_actions,
        GrappleAct::Absorb => g.absorb_actions,
        GrappleAct::Escape { actions } => actions,
        GrappleAct::Release => 0,
    };
    if let Some(mut f) = q.one_mut(who) {
        let name = act.name();
        let article = if name.starts_with(['A', 'E', 'I', 'O', 'U']) {
            "an"
        } else {
            "a"
        };
        spend_actions(&mut f, cost, &format!("{article} {name}"), &mut log);
        match act {
            GrappleAct::Seize => f.round.grappled = true,
            GrappleAct::Pin => f.round.pinned = true,
            GrappleAct::Absorb => f.round.absorbed = true,
            _ => {}
        }
    }
    let Ok(rolls) = grapple_rolls(rules, &field, me, other, act) else {
        return;
    };
    let mut won = true;
    for r in rolls {
        let mine = roll(&r.mine, &mut dice.0);
        let theirs = roll(&r.theirs, &mut dice.0);
        won = wins(rules, mine.total, theirs.total);
        log.push(BattleEvent::GrappleRoll {
            who,
            target,
            act,
            check: r.check,
            roll: mine,
            against: theirs,
            won,
        });
        if !won {
            break;
        }
    }
    let (holder, held) = match act {
        GrappleAct::Escape { .. } => (target, who),
        _ => (who, target),
    };
    match (act, won) {
        (GrappleAct::Seize, true) => {
            for (id, with, holds) in [(who, target, true), (target, who, false)] {
                if let Some(mut f) = q.one_mut(id) {
                    f.encounter.grapple = Some(GrappleHold { with, holds });
                }
            }
            log.push(BattleEvent::GrappleStarted { who, target });
        }
        (GrappleAct::Seize, false) => {
            lost.0 = Some(LostGrapple {
                who,
                provokers: vec![target],
            });
        }
        (GrappleAct::Pin, true) => {
            if let Some(mut f) = q.one_mut(target) {
                grant_condition(
                    rules,
                    &mut f,
                    ConditionKind::Pinned,
                    Some((who, me.power.tier)),
                    0,
                    expiry_after(&order, g.pinned_rounds),
                    &mut log,
                );
            }
        }
        (GrappleAct::Absorb, true) => {
            let_go(rules, &order, &mut q, (holder, held), "taken in", &mut log);
            if let Some(mut f) = q.one_mut(target) {
                grant_condition(
                    rules,
                    &mut f,
                    ConditionKind::Absorbed,
                    Some((who, me.power.tier)),
                    0,
                    expiry_after(&order, 0),
                    &mut log,
                );
            }
        }
        (GrappleAct::Pin | GrappleAct::Absorb, false) => {
            let why = format!("the {} failed", act.name());
            let_go(rules, &order, &mut q, (holder, held), &why, &mut log);
        }
        (GrappleAct::Escape { .. }, true) => {
            let_go(
                rules,
                &order,
                &mut q,
                (holder, held),
                "broke free",
                &mut log,
            );
        }
        (GrappleAct::Release, _) => {
            let_go(rules, &order, &mut q, (holder, held), "let go", &mut log);
        }
        (GrappleAct::Escape { .. }, false) => {}
    }
}

/// Ends the hold of `holder` on `held`: neither is in a Grapple any more, and a Pinned the
/// holder gave ends with it (the Actions it took come back).
fn let_go(
    rules: &Rules,
    order: &TurnOrder,
    q: &mut Fighters,
    (holder, held): (CombatantId, CombatantId),
    why: &str,
    log: &mut EventLog,
) {
    for id in [holder, held] {
        if let Some(mut f) = q.one_mut(id) {
            f.encounter.grapple = None;
        }
    }
    if let Some(mut f) = q.one_mut(held)
        && f.conditions
            .get(ConditionKind::Pinned)
            .is_some_and(|c| c.source == Some(holder))
    {
        end_condition(rules, order, &mut f, ConditionKind::Pinned, why, log);
    }
    log.push(BattleEvent::GrappleEnded {
        who: holder,
        target: held,
        why: why.to_string(),
    });
}

/// True while anyone is in a Grapple (the only time [`end_broken_grapples`] has work).
pub fn any_grapple(q: Query<&EncounterLog>) -> bool {
    q.iter().any(|e| e.grapple.is_some())
}

/// Ends every hold whose participants parted: either fell or was taken in, or the one held is
/// no longer within the grappler's Melee Range.
pub fn end_broken_grapples(
    rules: Res<RulesRes>,
    order: Res<TurnOrder>,
    mut log: ResMut<EventLog>,
    mut q: Fighters,
) {
    let all = q.snapshots();
    for holder in all.iter() {
        let Some(GrappleHold { with, holds: true }) = holder.encounter.grapple else {
            continue;
        };
        let other = all.iter().find(|f| f.id == with);
        let why = match other {
            _ if holder.defeated() => "the grappler is down",
            None => "the one held is gone",
            Some(o) if o.defeated() => "the one held is down",
            _ if holder.position.is_none() => "the grappler was taken in",
            Some(o) if o.position.is_none() => "the one held was taken in",
            Some(o) if !within_reach(holder, o) => "out of Melee Range",
            _ => continue,
        };
        let_go(&rules.0, &order, &mut q, (holder.id, with), why, &mut log);
    }
}

impl super::standing::StandsStill for CurrentGrapple {
    const WHY: StandingStill = StandingStill::Grappling;

    fn in_progress(&self) -> bool {
        self.0.is_some()
    }

    fn waiting(&mut self) -> Option<(CombatantId, &mut Vec<CombatantId>)> {
        self.0.as_mut().map(|c| (c.who, &mut c.provokers))
    }

    /// Nothing more: the failed Grapple already spent its Action.
    fn finish(&mut self, _ctx: super::standing::Finish) {
        self.0 = None;
    }
}

impl super::Battle {
    /// The grappling maneuvers `who` may make now, in the order the window's key cycles them:
    /// a Grapple; from a hold, Pin, Absorb and Release; held, an escape with 1, 2 or 3 Actions.
    pub fn grapple_acts(&mut self, who: CombatantId) -> Vec<GrappleAct> {
        let fighters = self.fighters_shared();
        let Some(me) = fighters.iter().find(|f| f.id == who) else {
            return Vec::new();
        };
        if self.rules.actions.grapple.is_none() {
            return Vec::new();
        }
        let mut acts = vec![
            GrappleAct::Seize,
            GrappleAct::Pin,
            GrappleAct::Absorb,
            GrappleAct::Release,
        ];
        acts.extend((1..=3).map(|actions| GrappleAct::Escape { actions }));
        acts.into_iter()
            .filter(|&act| {
                fighters.iter().filter(|t| t.side != me.side).any(|t| {
                    let cmd = Command::Grapple {
                        who,
                        target: t.id,
                        act,
                    };
                    self.check_among(&fighters, &cmd).is_ok()
                })
            })
            .collect()
    }

    /// Every opponent on the battlefield `act` by `who` could be made on, with the exact
    /// chance of each roll it makes, or the rule refusing it.
    pub fn grapple_offers(&mut self, who: CombatantId, act: GrappleAct) -> Vec<GrappleOffer> {
        let fighters = self.fighters_shared();
        let Some(me) = fighters.iter().find(|f| f.id == who) else {
            return Vec::new();
        };
        let rules = self.rules.clone();
        let names = self.names();
        let mut out = Vec::new();
        for t in fighters
            .iter()
            .filter(|t| t.side != me.side && !t.defeated() && t.position.is_some())
        {
            let cmd = Command::Grapple {
                who,
                target: t.id,
                act,
            };
            let refusal = self
                .check_among(&fighters, &cmd)
                .err()
                .map(|e| e.to_string());
            let field = self.field();
            let rolls = grapple_rolls(&rules, &field, me, t, act)
                .map(|rs| {
                    rs.iter()
                        .map(|r| (r.check.clone(), chance(&rules, r)))
                        .collect()
                })
                .unwrap_or_default();
            out.push(GrappleOffer {
                target: t.id,
                name: names.get(&t.id).cloned().unwrap_or_default(),
                at: t.position,
                rolls,
                refusal,
            });
        }
        out
    }
}
