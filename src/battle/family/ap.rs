//! What the three action-point families (shinobi, d20, Digimon) share beyond their tables: how
//! a target's defense policy answers an attack when it has a choice of defenses.

use super::{DefenseAsk, RollPhase, assemble, target_odds};
use crate::battle::aim::MoveHelp;
use crate::battle::bar::{BarView, ExploitPrompt};
use crate::battle::command::DefenseChoice;
use crate::battle::components::DefensePolicy;
use crate::battle::context::{TargetContext, declaration};
use crate::battle::event::BattleEvent;
use crate::battle::fighter::Fighter;
use crate::battle::odds::TargetOdds;
use crate::battle::state::{AttackPhase, AttackState};
use crate::dice::roll;
use crate::ruleset::shinobi::{DefenseKind, ShinobiData};

/// The maneuver of `cmd` the action-point families (and the card game, besides Power Up) do not
/// have: the default pipeline's own maneuvers, named for the refusal.
pub fn foreign_maneuver(cmd: &crate::battle::command::Command) -> Option<&'static str> {
    use crate::battle::command::Command;
    match cmd {
        Command::ConvertAction { .. } => {
            Some("converting an action (held AP answer opportunity attacks as they are)")
        }
        other => default_pipeline_only(other),
    }
}

/// The default pipeline's maneuvers no other family has, named for the refusal.
pub fn default_pipeline_only(cmd: &crate::battle::command::Command) -> Option<&'static str> {
    use crate::battle::command::Command;
    match cmd {
        Command::PowerUp { .. } => Some("Power Up"),
        Command::Recover { .. } => Some("Combat Recovery"),
        Command::Surge { .. } => Some("a Surge"),
        Command::EndCondition { .. } => Some("ending a condition"),
        Command::StandUp { .. } => Some("standing up"),
        Command::CurePoison { .. } => Some("curing poison"),
        Command::Move { boosted: true, .. } => Some("a Boosted move"),
        _ => None,
    }
}

/// An action-point target's answer (the ninja chapter, d20, Digimon): its policy over the
/// defenses it has; `Best` takes the one that leaves it the least expected damage (Dodge on a
/// tie), `AlwaysParry` blocks when it can.
pub fn action_point_defense(ask: &DefenseAsk) -> Option<DefenseChoice> {
    let DefenseAsk {
        rules,
        field,
        attacker,
        target,
        all,
        order,
        sneak_won,
        bystanders,
    } = *ask;
    // Shinobi: a Genjutsu has one answer, Gen Resist, whatever the policy prefers.
    let genjutsu = rules
        .action_points()
        .and_then(|d| d.attack(&order.profile))
        .is_some_and(|a| a.genjutsu);
    match target.controller.defense {
        DefensePolicy::Prompt => None,
        _ if genjutsu => Some(DefenseChoice::Resist),
        // d20 looks first: a shot from beyond melee range has no Dodge to roll (it is taken).
        // Shinobi: a ninja swimming or in mid air has no Dodge either.
        DefensePolicy::AlwaysDodge
            if rules.d20().is_none()
                && !rules
                    .action_points()
                    .is_some_and(|_| super::shinobi::no_dodge(field, target)) =>
        {
            Some(DefenseChoice::Dodge)
        }
        DefensePolicy::AlwaysDodge | DefensePolicy::AlwaysParry | DefensePolicy::Best => {
            let Ok(mut decl) = declaration(rules, attacker, order, all.len()) else {
                return Some(DefenseChoice::Dodge);
            };
            decl.sneak_won = sneak_won;
            decl.bystanders = bystanders;
            let ctx = assemble(rules, field, attacker, all, &decl);
            let t = ctx.targets.iter().find(|t| t.id == target.id)?;
            if t.offers(DefenseChoice::Take) {
                // d20: a shot from beyond melee range: dive (a Move action next turn) or drop
                // prone (a swift action) only when it is worth what it costs; of the two, the
                // one that gains more over its cost.
                // d20: a dive made on its own turn already paid for this Dodge check.
                if target.encounter.dive_ready && t.offers(DefenseChoice::Dive) {
                    return Some(DefenseChoice::Dive);
                }
                if target.controller.defense != DefensePolicy::Best {
                    return Some(DefenseChoice::Take);
                }
                let (life, max) = (target.life.current, target.life.max);
                let take = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::Take);
                let mut best = (0.0, DefenseChoice::Take);
                if t.offers(DefenseChoice::Dive) {
                    let dive = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::Dive);
                    let gain =
                        crate::battle::family::d20::dive::worth_diving(&take, &dive, life, max);
                    if gain >= 0.0 {
                        best = (gain, DefenseChoice::Dive);
                    }
                }
                if t.offers(DefenseChoice::DropProne) {
                    let drop = target_odds(rules, &ctx, t, &decl, target, DefenseChoice::DropProne);
                    let gain =
                        crate::battle::family::d20::swift::worth_dropping(&take, &drop, life, max);
                    if gain >= 0.0 && (best.1 == DefenseChoice::Take || gain > best.0) {
                        best = (gain, DefenseChoice::DropProne);
                    }
                }
                return Some(best.1);
            }
            // The answer a policy prefers, or the first the target has (a swimming ninja has
            // no Dodge; one without a weapon no Block).
            let prefer = |want: DefenseChoice| {
                if t.offers(want) {
                    want
                } else {
                    t.defenses.first().map_or(want, |(c, _)| *c)
                }
            };
            if target.controller.defense == DefensePolicy::AlwaysDodge {
                return Some(prefer(DefenseChoice::Dodge));
            }
            if target.controller.defense == DefensePolicy::AlwaysParry {
                return Some(if t.offers(DefenseChoice::Block) {
                    DefenseChoice::Block
                } else {
                    prefer(DefenseChoice::Dodge)
                });
            }
            let mut best = (f64::INFINITY, DefenseChoice::Dodge);
            for (c, _) in &t.defenses {
                let o = target_odds(rules, &ctx, t, &decl, target, *c);
                if o.expected_damage < best.0 - 1e-9 {
                    best = (o.expected_damage, *c);
                }
            }
            Some(best.1)
        }
    }
}

/// An action-point family's answer as the prompts name it.
pub fn answer_name(choice: DefenseChoice) -> String {
    match choice {
        DefenseChoice::Dodge => "Dodge".into(),
        DefenseChoice::Parry | DefenseChoice::Block => "Block (with a weapon)".into(),
        other => other.name().into(),
    }
}

/// An answer in the defense prompt with what it rolls ("Block (1d20 + DEX + WEP)").
pub fn answer_label(data: &ShinobiData, o: &TargetOdds) -> String {
    if o.defense == DefenseChoice::Resist {
        return format!(
            "{} (1d{} + {})",
            o.defense.name(),
            data.combat.die,
            data.combat.gen_resist.join(" + ")
        );
    }
    let kind = match o.defense {
        DefenseChoice::Block => DefenseKind::Block,
        DefenseChoice::Deflect => DefenseKind::Deflect,
        _ => DefenseKind::Dodge,
    };
    match data.defense(kind) {
        Some(d) => format!(
            "{} (1d{} + {})",
            d.name,
            data.combat.die,
            d.terms.join(" + ")
        ),
        None => answer_name(o.defense),
    }
}

/// Moving in action points: its cost, the opportunity attacks leaving reach provokes, falls.
pub fn move_help(data: &ShinobiData) -> MoveHelp {
    MoveHelp {
        text: format!(
            "Moving ({} AP): click a lit square.\nRed path squares leave a reach the path entered: an opportunity attack (a hit stops you where you entered).\nStepping onto a drop from above is a fall (see the terrain's description).",
            data.combat.move_cost
        ),
        boost: false,
    }
}

/// The action-point families' bar: the points left and what a move costs in them.
pub fn bar_view(data: &ShinobiData, me: &Fighter) -> BarView {
    BarView::plain(
        Some(me.actions.usable()),
        format!("Move {}AP", data.combat.move_cost),
    )
}

/// The opportunity attack a passing foe provokes, with its cost and what a hit does.
pub fn exploit_prompt(data: &ShinobiData, mover: &str, name: &str) -> ExploitPrompt {
    ExploitPrompt {
        question: format!(
            "{mover} provokes an opportunity attack from {name} ({} AP; a hit on a runner stops it where it entered your reach).",
            data.combat.opportunity_cost
        ),
        accept: "strike (best melee attack)",
        decline: "let it go",
    }
}

/// The action-point families' roll phase: the Opposed Rolls with the ninja chapter's counters
/// (an evading defense strikes back with its roll; a failed one wastes the counter) and
/// concealment (a hit may still miss), then `next` (the damage, or Digimon's Intercede).
pub fn roll_checks(
    data: &ShinobiData,
    p: &mut RollPhase,
    state: &mut AttackState,
    next: AttackPhase,
) {
    let Some(ctx) = super::dbu::roll_context(p, state) else {
        return;
    };
    super::dbu::opposed(p, state, &ctx, |p, state, i, tc, d_total, hit| {
        counter_and_concealment(data, p, state, (i, tc), d_total, hit)
    });
    state.phase = next;
}

/// After a defended target's roll: its counter, if it declared one, and its concealment.
fn counter_and_concealment(
    data: &ShinobiData,
    p: &mut RollPhase,
    state: &mut AttackState,
    (i, tc): (usize, &TargetContext),
    d_total: i64,
    hit: bool,
) -> bool {
    let (rules, attacker, all) = (p.rules, p.attacker, p.all);
    let (dice, q, log) = (&mut *p.res.dice, &mut *p.res.q, &mut *p.res.log);
    if let Some(id) = state.targets[i].counter.clone()
        && let Some(c) = data.counter(&id)
    {
        if let Some(mut f) = q.one_mut(tc.id) {
            super::shinobi::pay_counter(&mut f, c, log);
        }
        if hit {
            log.push(BattleEvent::CounterWasted {
                who: tc.id,
                counter: c.name.clone(),
            });
        } else if let Some(me) = all.iter().find(|f| f.id == tc.id) {
            let spec = super::shinobi::counter_defense(data, &p.ground.field(rules), attacker);
            let r = roll(&spec, dice);
            let lands = if rules.dice.attacker_wins_ties {
                d_total >= r.total
            } else {
                d_total > r.total
            };
            let damage = if lands {
                super::shinobi::counter_damage(me, c)
            } else {
                0
            };
            log.push(BattleEvent::CounterStruck {
                by: tc.id,
                on: attacker.id,
                counter: c.name.clone(),
                kept: d_total,
                defense: r,
                hit: lands,
                damage,
            });
            if let Some(mut f) = q.one_mut(attacker.id) {
                let why = format!("{}'s {}", me.identity.name, c.name);
                super::shinobi::hurt(rules, &mut f, damage, Some(tc.id), &why, log);
            }
        }
    }
    match &tc.miss_chance {
        Some((chance, source)) if hit => {
            !super::shinobi::roll_concealment(dice, tc.id, *chance, source, log)
        }
        _ => hit,
    }
}

/// Whether `me` has the `need` action points a move costs.
pub fn check_move_cost(me: &Fighter, need: u32) -> Result<(), crate::battle::command::RuleError> {
    if me.actions.usable() < need {
        return Err(crate::battle::command::RuleError::NotEnoughAp {
            who: me.id,
            need,
            have: me.actions.usable(),
        });
    }
    Ok(())
}

/// Pays a move's action points: the ordinary cost, or more through Difficult Terrain (a
/// Complex Action).
pub fn pay_move(
    data: &ShinobiData,
    f: &mut crate::battle::fighter::FighterQueryItem,
    need: u32,
    log: &mut crate::battle::event::EventLog,
) {
    if need > data.combat.move_cost {
        super::shinobi::spend_ap(
            f,
            need,
            "a move through Difficult Terrain (a Complex Action)",
            log,
        );
    } else {
        super::shinobi::spend_ap(f, data.combat.move_cost, "a move", log);
    }
}
