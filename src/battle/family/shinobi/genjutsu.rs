//! Genjutsu and Gen Resist (text 004: "Gen Resist allows one to attempt to resist mind
//! effecting Genjutsus. They roll 1d20 + AWA + GEN. They can make a resist roll at no AP cost
//! 1/ round on the opponent's initiative … The Genjutsu will continue to effect a target until
//! they pass the roll. The caster must set a new DC each round"), and the blindness a Genjutsu
//! of ours gives ("Blindness - 50%").
//!
//! A Genjutsu is an attack whose only answer is Gen Resist (assembled in
//! [`super::assemble`], so the preview is the roll); a hit blinds ([`blind`]); the hold is
//! rolled again as its caster's turn starts ([`hold`]), and ends when its caster is down.

use crate::battle::components::CombatantId;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::Fighter;
use crate::battle::snapshot::Fighters;
use crate::battle::state::TurnOrder;
use crate::dice::{DiceSource, RollKind, RollSpec, roll};
use crate::ruleset::shinobi::{AttackDef, ShinobiData, TieWinner};
use crate::ruleset::{ConditionKind, Rules};

/// Gen Resist, the answer to a Genjutsu: 1d20 + its stats ("They roll 1d20 + AWA + GEN"),
/// −5 against a sneak attack that won its contest (a penalty "on all defense options").
pub fn resist_spec(data: &ShinobiData, target: &Fighter, sneak_won: bool) -> RollSpec {
    let mut s = super::base(data, RollKind::Amount("Gen Resist".into()));
    super::add_terms(data, target, &data.combat.gen_resist, &mut s);
    if sneak_won {
        s.add("Sneak attack", -data.combat.sneak.penalty);
    }
    s
}

/// True when `f` is blinded by a Genjutsu.
pub fn blinded(f: &Fighter) -> bool {
    f.conditions.has(ConditionKind::Blinded)
}

/// The Genjutsu `caster` holds others with: the first of its attacks that is one (its new DC
/// each round is a new roll of that attack's casting stats).
pub fn genjutsu_of<'d>(data: &'d ShinobiData, caster: &Fighter) -> Option<&'d AttackDef> {
    data.ninja(&caster.identity.archetype)?
        .attacks
        .iter()
        .filter_map(|id| data.attack(id))
        .find(|a| a.genjutsu)
}

/// A Genjutsu's hit: the target is blinded until it resists.
pub fn blind(
    rules: &Rules,
    caster: &Fighter,
    target: CombatantId,
    q: &mut Fighters,
    log: &mut EventLog,
) {
    if let Some(mut f) = q.one_mut(target) {
        crate::battle::effects::grant_condition(
            rules,
            &mut f,
            ConditionKind::Blinded,
            Some((caster.id, caster.power.tier)),
            0,
            crate::battle::components::Expiry::UntilEnded,
            log,
        );
    }
}

/// As `active`'s turn starts: each ninja its Genjutsu blinds rolls Gen Resist against a new
/// roll of the caster's, for free, and is free when it wins (ties as the chapter's tie rule);
/// a Genjutsu whose caster is down or gone ends.
pub fn hold(
    data: &ShinobiData,
    rules: &Rules,
    order: &TurnOrder,
    active: &Fighter,
    all: &[Fighter],
    (q, dice, log): (&mut Fighters, &mut DiceSource, &mut EventLog),
) {
    for held in all.iter().filter(|f| blinded(f) && !f.defeated()) {
        let source = held
            .conditions
            .get(ConditionKind::Blinded)
            .and_then(|c| c.source);
        let caster = source.and_then(|s| all.iter().find(|c| c.id == s));
        let reason = match caster {
            Some(c) if !c.defeated() && c.position.is_some() => {
                if c.id != active.id {
                    continue;
                }
                let Some(g) = genjutsu_of(data, c) else {
                    end(
                        rules,
                        order,
                        held.id,
                        "its caster knows no Genjutsu",
                        q,
                        log,
                    );
                    continue;
                };
                let mut spec = super::strike_spec(data, c, g);
                spec.kind = RollKind::Amount(format!("{}'s new DC", g.name));
                let dc = roll(&spec, dice);
                let resist = roll(&resist_spec(data, held, false), dice);
                let passed = match data.combat.ties {
                    TieWinner::Attacker => resist.total > dc.total,
                    TieWinner::Defender => resist.total >= dc.total,
                };
                log.push(BattleEvent::OpposedSave {
                    who: held.id,
                    against: c.id,
                    roll: resist,
                    against_roll: dc,
                    passed,
                });
                if !passed {
                    continue;
                }
                "resisted the Genjutsu (Gen Resist)"
            }
            _ => "its caster is down",
        };
        end(rules, order, held.id, reason, q, log);
    }
}

/// Ends `who`'s blindness, saying why.
fn end(
    rules: &Rules,
    order: &TurnOrder,
    who: CombatantId,
    reason: &str,
    q: &mut Fighters,
    log: &mut EventLog,
) {
    if let Some(mut f) = q.one_mut(who) {
        crate::battle::effects::end_condition(
            rules,
            order,
            &mut f,
            ConditionKind::Blinded,
            reason,
            log,
        );
    }
}

/// What blinding `t` is worth to the computer players, in damage points: the part of its best
/// attack's damage the blindness takes away, over the rounds a hold lasts on average (our
/// estimate: two). Nothing when it is blinded already.
pub fn blind_worth(data: &ShinobiData, t: &Fighter) -> f64 {
    if blinded(t) {
        return 0.0;
    }
    let best = data
        .ninja(&t.identity.archetype)
        .map(|n| {
            n.attacks
                .iter()
                .filter_map(|id| data.attack(id))
                .filter(|a| !a.genjutsu)
                .map(|a| a.damage.iter().map(|s| t.attributes.get(s)).sum::<i64>() + a.damage_bonus)
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0);
    let attacks_a_round = f64::from(data.combat.action_points.saturating_sub(1).max(1));
    f64::from(data.combat.blindness) / 100.0 * best.max(0) as f64 * attacks_a_round * 2.0 * 0.5
}
