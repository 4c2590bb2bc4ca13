//! The Digimon chapter's Clash, a grapple: starting one, the control checks at its start and
//! every round after, what the controller may do (a [Melee] Attack as a Complex Action, End,
//! Pin, Throw), the one held not acting, nobody in it Dodging, outsiders' damage lowered by
//! both participants' BIT, and the ways a Clash ends.
//!
//! The engine's `BattleEvent::Clash` is the opposed Accuracy-Dodge roll of every ruleset; the
//! Digimon grapple is called a Clash on screen but "grapple" here to keep the two apart.
//!
//! Readings of ours where the chapter is silent: when both participants miss their TN the
//! greater margin still controls (so someone always does); "the Player Controls the Clash" on
//! a total tie becomes the one who started it; a Pin succeeds when the controller's roll meets
//! or beats the opponent's (the chapter's attacker wins ties); a Throw goes straight away from
//! the thrower, stopping at the first obstruction.

use super::hold::hold;
use crate::battle::components::{ClashHold, CombatantId};
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::family::digimon::{add_stat, check, stat};
use crate::battle::fighter::Fighter;
use crate::dice::{DiceSource, RollKind, RollSpec, distribution, roll};
use crate::ruleset::digimon::{AGI, BIT, BODY, DigiAttackDef, DigimonData, EffectKind, Tag};

/// `f`'s size tag and its value (a Tamer's is the ruleset's Tamer size).
pub fn size(d: &DigimonData, f: &Fighter) -> (String, i64) {
    let tag = if crate::battle::family::digimon::is_tamer(f) {
        d.combat.clash.tamer_size.clone()
    } else {
        crate::battle::family::digimon::form(d, f).map_or_else(String::new, |x| x.size.clone())
    };
    let v = d.combat.clash.sizes.get(&tag).copied().unwrap_or(0);
    (tag, v)
}

/// A Clash check of `me` against `opp` in a Clash `starter` started: 3d6 + Body, plus the size
/// difference when `me` is larger and minus it when smaller; the starter of a Clash at a range
/// takes the squares between them off ("a penalty to all Clash Rolls equal to the number of
/// squares it is away from the target").
pub fn check_spec(d: &DigimonData, me: &Fighter, opp: &Fighter, starter: CombatantId) -> RollSpec {
    let mut s = check(d, RollKind::Amount("Clash check".into()));
    add_stat(d, me, BODY, "Body", &mut s);
    let ((mine, a), (theirs, b)) = (size(d, me), size(d, opp));
    if a != b {
        s.add(format!("Size: {mine} against {theirs}"), a - b);
    }
    let away = me.distance_to(opp).unwrap_or(1);
    if me.id == starter && away > 1 {
        s.add(
            format!("Clash at a range: {away} squares away"),
            -i64::from(away),
        );
    }
    s
}

/// The TN of `me`'s Clash check: its opponent's Agility.
pub fn tn(d: &DigimonData, opp: &Fighter) -> i64 {
    stat(d, opp, AGI)
}

/// Who controls when `a` beats its TN by `ma` and `b` by `mb`: the greater margin, then the
/// higher Body, then "In the event of a total tie where everything matched up perfectly, the
/// Player Controls the Clash" (a player character against one that is not), then (ours: two
/// player characters, or none) the one who started the Clash.
fn controller(
    d: &DigimonData,
    a: &Fighter,
    b: &Fighter,
    ma: i64,
    mb: i64,
    starter: CombatantId,
) -> CombatantId {
    let (ba, bb) = (stat(d, a, BODY), stat(d, b, BODY));
    match (ma.cmp(&mb), ba.cmp(&bb)) {
        (std::cmp::Ordering::Greater, _) => a.id,
        (std::cmp::Ordering::Less, _) => b.id,
        (_, std::cmp::Ordering::Greater) => a.id,
        (_, std::cmp::Ordering::Less) => b.id,
        _ => match (is_player(a), is_player(b)) {
            (true, false) => a.id,
            (false, true) => b.id,
            _ => starter,
        },
    }
}

/// True for a player character (see [`crate::battle::state::Opening::players`]).
pub fn is_player(f: &Fighter) -> bool {
    f.digi.as_ref().is_some_and(|s| s.player)
}

/// The exact chance that `a` controls a Clash with `b` after both roll (the rule
/// [`roll_control`] plays, from the same check rolls).
pub fn control_chance(d: &DigimonData, a: &Fighter, b: &Fighter, starter: CombatantId) -> f64 {
    let da = distribution(&check_spec(d, a, b, starter));
    let db = distribution(&check_spec(d, b, a, starter));
    let (ta, tb) = (tn(d, b), tn(d, a));
    let mut p = 0.0;
    for (i, pa) in da.p.iter().enumerate() {
        if *pa == 0.0 {
            continue;
        }
        let ma = da.offset + i as i64 - ta;
        // b's margin below ma: b's roll below ma + tb.
        p += pa * db.cdf(ma + tb - 1);
        if controller(d, a, b, ma, ma, starter) == a.id {
            p += pa * db.prob(ma + tb);
        }
    }
    p.clamp(0.0, 1.0)
}

/// The Pin's contested Body checks: the controller's (with the Pin bonus) and its opponent's.
pub fn pin_specs(d: &DigimonData, ctrl: &Fighter, opp: &Fighter) -> (RollSpec, RollSpec) {
    let mut a = check(d, RollKind::Amount("Pin".into()));
    add_stat(d, ctrl, BODY, "Body", &mut a);
    a.add("Controls the Clash", d.combat.clash.pin_bonus);
    let mut b = check(d, RollKind::Amount("Resist the Pin".into()));
    add_stat(d, opp, BODY, "Body", &mut b);
    (a, b)
}

/// The exact chance that a Pin succeeds (the controller meets or beats its opponent).
pub fn pin_chance(d: &DigimonData, ctrl: &Fighter, opp: &Fighter) -> f64 {
    let (a, b) = pin_specs(d, ctrl, opp);
    let (da, db) = (distribution(&a), distribution(&b));
    let mut p = 0.0;
    for (i, pa) in da.p.iter().enumerate() {
        p += pa * db.cdf(da.offset + i as i64);
    }
    p.clamp(0.0, 1.0)
}

/// What outsiders' damage to a Clash participant loses: both participants' BIT values.
pub fn shield(d: &DigimonData, a: &Fighter, b: &Fighter) -> i64 {
    (stat(d, a, BIT) + stat(d, b, BIT)).max(0)
}

/// The AP an ordinary attack costs `attacker` when it differs from the attack's own: the
/// controller's [Melee] Attack on its opponent is a Complex Action.
pub fn attack_ap(d: &DigimonData, attacker: &Fighter, a: &DigiAttackDef) -> Option<u32> {
    let h = hold(attacker)?;
    (h.control && a.clash.is_none() && a.tag == Tag::Melee).then_some(d.combat.simple_actions)
}

/// Rolls the control checks of `a` and `b` (a Pinned participant does not roll and loses),
/// logs them, and returns who controls.
pub fn roll_control(
    d: &DigimonData,
    a: &Fighter,
    b: &Fighter,
    starter: CombatantId,
    dice: &mut DiceSource,
    log: &mut EventLog,
) -> CombatantId {
    let pinned = |f: &Fighter| hold(f).is_some_and(|h| h.pinned);
    let note = |who: CombatantId, text: String, log: &mut EventLog| {
        log.push(BattleEvent::DigiNote { who, text });
    };
    if pinned(a) || pinned(b) {
        let (p, w) = if pinned(a) { (a, b) } else { (b, a) };
        note(
            p.id,
            format!(
                "{} is Pinned: it does not roll for control, and {} keeps the Clash.",
                p.identity.name, w.identity.name
            ),
            log,
        );
        return w.id;
    }
    let mut margin = |me: &Fighter, opp: &Fighter, log: &mut EventLog| {
        let r = roll(&check_spec(d, me, opp, starter), dice);
        let t = tn(d, opp);
        let m = r.total - t;
        log.push(BattleEvent::CheckRolled {
            who: me.id,
            purpose: format!("Clash check against {}'s Agility", opp.identity.name),
            roll: r,
            target: t,
            passed: m >= 0,
        });
        m
    };
    let ma = margin(a, b, log);
    let mb = margin(b, a, log);
    let w = controller(d, a, b, ma, mb, starter);
    let (winner, loser) = if w == a.id { (a, b) } else { (b, a) };
    let why = if ma != mb {
        format!("margin {} against {}", ma.max(mb), ma.min(mb))
    } else if stat(d, a, BODY) != stat(d, b, BODY) {
        format!("equal margins ({ma}); the higher Body")
    } else {
        "a total tie; the one who started the Clash".into()
    };
    note(
        winner.id,
        format!(
            "{} controls the Clash ({why}); {} may not act.",
            winner.identity.name, loser.identity.name
        ),
        log,
    );
    w
}

/// Sets both participants' holds after a control check.
pub fn set_control(
    q: &mut crate::battle::snapshot::Fighters,
    a: &Fighter,
    b: &Fighter,
    starter: CombatantId,
    control: CombatantId,
    (shield, reach): (i64, u32),
) {
    for f in q.iter_mut() {
        let (me, opp) = if *f.id == a.id {
            (a.id, b.id)
        } else if *f.id == b.id {
            (b.id, a.id)
        } else {
            continue;
        };
        let mut f = f;
        // "The character who does not Control the Clash may not take any actions": what is
        // left of its turn goes too (a starter that loses control).
        if control != me {
            f.actions.standard = 0;
            f.actions.steady = 0;
        }
        if let Some(s) = f.digi.as_mut() {
            s.clash = Some(ClashHold {
                opponent: opp,
                control: control == me,
                started_by: starter,
                pinned: false,
                shield,
                reach,
            });
        }
    }
}

/// Ends the Clash between `a` and `b` (both free; they stay where they are).
pub fn release(
    q: &mut crate::battle::snapshot::Fighters,
    a: CombatantId,
    b: CombatantId,
    why: &str,
    log: &mut EventLog,
) {
    for mut f in q.iter_mut() {
        if (*f.id == a || *f.id == b)
            && let Some(s) = f.digi.as_mut()
        {
            s.clash = None;
        }
    }
    log.push(BattleEvent::DigiNote {
        who: a,
        text: format!("The Clash ends: {why}."),
    });
}

/// Marks `who` Pinned: it does not roll for control at the next check.
pub fn pin(q: &mut crate::battle::snapshot::Fighters, who: CombatantId) {
    for mut f in q.iter_mut() {
        if *f.id == who
            && let Some(h) = f.digi.as_mut().and_then(|s| s.clash.as_mut())
        {
            h.pinned = true;
        }
    }
}

/// Why the Clash of `f` must end now, if it must: a participant out of the fight or gone
/// from the Clash, no longer in contact, or Stunned or Paralysed ("If the target was
/// Clashing, the Clash ends").
pub fn broken(f: &Fighter, all: &[Fighter]) -> Option<String> {
    let h = hold(f)?;
    let Some(o) = all.iter().find(|o| o.id == h.opponent) else {
        return Some("its opponent is gone".into());
    };
    let out = |x: &Fighter| x.defeated() || x.digi.as_ref().is_some_and(|s| s.down.is_some());
    if out(f) || out(o) {
        return Some("a participant is out of the fight".into());
    }
    if hold(o).is_none_or(|oh| oh.opponent != f.id) {
        return Some(format!("{} is out of the Clash", o.identity.name));
    }
    if f.distance_to(o).is_none_or(|x| x > h.reach.max(1)) {
        return Some(if h.reach > 1 {
            format!("the participants are more than {} squares apart", h.reach)
        } else {
            "the participants are no longer in contact".into()
        });
    }
    for x in [f, o] {
        for (k, word) in [
            (EffectKind::Stun, "Stunned"),
            (EffectKind::Paralysis, "Paralysed"),
        ] {
            if crate::battle::family::digimon::has(x, k) {
                return Some(format!("{} is {word}", x.identity.name));
            }
        }
    }
    None
}

/// Ends every Clash that [`broken`] says must end.
pub fn break_loose(q: &mut crate::battle::snapshot::Fighters, log: &mut EventLog) {
    let all = q.snapshots();
    let mut done: Vec<CombatantId> = Vec::new();
    for f in all.iter() {
        if done.contains(&f.id) {
            continue;
        }
        let Some(why) = broken(f, &all) else {
            continue;
        };
        let other = hold(f).map_or(f.id, |h| h.opponent);
        done.extend([f.id, other]);
        release(q, f.id, other, &why, log);
    }
}

/// The control checks at the start of a round, for every Clash still on.
pub fn recheck(
    d: &DigimonData,
    q: &mut crate::battle::snapshot::Fighters,
    dice: &mut DiceSource,
    log: &mut EventLog,
) {
    break_loose(q, log);
    let all = q.snapshots();
    for a in all.iter() {
        let Some(h) = hold(a) else {
            continue;
        };
        let Some(b) = all.iter().find(|o| o.id == h.opponent) else {
            continue;
        };
        if a.id > b.id {
            continue;
        }
        let w = roll_control(d, a, b, h.started_by, dice, log);
        set_control(q, a, b, h.started_by, w, (h.shield, h.reach));
    }
}

/// True when `s` keeps `me` in contact with its Clash opponent ("they must always be in
/// contact"; at a range, within the Clash's reach), or `me` is in no Clash.
pub fn keeps_contact(me: &Fighter, all: &[Fighter], s: crate::grid::Square) -> bool {
    let Some(h) = hold(me) else {
        return true;
    };
    let Some(o) = all.iter().find(|o| o.id == h.opponent) else {
        return true;
    };
    o.position.is_none_or(|p| {
        crate::grid::footprint_distance(s, me.size.squares, p, o.size.squares) <= h.reach.max(1)
    })
}
