//! Shinobi counters (text 004:71): a counter jutsu cast with a defense strikes back with the
//! kept evasion roll if the defense wins, and is spent for nothing if it fails.

use super::{base, defense_roll, has_weapon, offered, spend_ap};
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::Fighter;
use crate::battle::fighter::FighterQueryItem;
use crate::dice::{RollKind, RollSpec, distribution};
use crate::grid::Field;
use crate::ruleset::shinobi::{CounterDef, ShinobiData};

/// Why `me` cannot counter `attacker` with `id` now, or the counter.
pub fn check_counter<'d>(
    data: &'d ShinobiData,
    me: &Fighter,
    attacker: &Fighter,
    id: &str,
) -> Result<&'d CounterDef, String> {
    let c = data
        .counter(id)
        .ok_or_else(|| "no such counter jutsu".to_string())?;
    if !data
        .ninja(&me.identity.archetype)
        .is_some_and(|n| n.counters.iter().any(|k| k == id))
    {
        return Err("it does not know that counter".into());
    }
    if me.actions.usable() < c.ap {
        return Err(format!(
            "it needs {} AP and has {}",
            c.ap,
            me.actions.usable()
        ));
    }
    if me.ki.current < c.chakra {
        return Err(format!(
            "it needs {} chakra and has {}",
            c.chakra, me.ki.current
        ));
    }
    if c.weapon && !has_weapon(data, me) {
        return Err("it needs a weapon".into());
    }
    let reach = match c.reach {
        crate::ruleset::Reach::Melee => Some(me.size.melee_range),
        crate::ruleset::Reach::Within(n) => Some(n),
        crate::ruleset::Reach::Any => None,
    };
    if let (Some(r), Some(d)) = (reach, me.distance_to(attacker))
        && d > r
    {
        return Err(format!("the attacker is {d} squares away; it reaches {r}"));
    }
    Ok(c)
}

/// The counters `me` could cast against `attacker` now.
pub fn counters_now<'d>(
    data: &'d ShinobiData,
    me: &Fighter,
    attacker: &Fighter,
) -> Vec<&'d CounterDef> {
    data.ninja(&me.identity.archetype)
        .map(|n| n.counters.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|id| check_counter(data, me, attacker, id).ok())
        .collect()
}

/// A computer-controlled defender's counter: the first it can cast, but only once its own turn
/// this round is over (held AP are otherwise wasted; before its turn they are its turn's AP).
pub fn policy_counter(
    data: &ShinobiData,
    turn: &crate::battle::state::TurnOrder,
    me: &Fighter,
    attacker: &Fighter,
) -> Option<String> {
    let done = turn
        .order
        .iter()
        .position(|id| *id == me.id)
        .is_some_and(|i| i < turn.index);
    if !done || me.controller.exploits == crate::battle::components::ExploitPolicy::Never {
        return None;
    }
    counters_now(data, me, attacker)
        .first()
        .map(|c| c.id.clone())
}

/// Casts a counter with a defense: its AP are spent now; its chakra when the defense is rolled
/// ([`pay_counter`]), so the defense is rolled with the chakra the defender had when it chose
/// (Deflect's half-chakra line).
pub fn cast_counter(f: &mut FighterQueryItem, c: &CounterDef, log: &mut EventLog) {
    log.push(BattleEvent::CounterCast {
        who: *f.id,
        counter: c.name.clone(),
    });
    spend_ap(f, c.ap, &c.name, log);
}

/// Pays a cast counter's chakra, whether the defense evaded or not.
pub fn pay_counter(f: &mut FighterQueryItem, c: &CounterDef, log: &mut EventLog) {
    if c.chakra > 0 {
        let from = f.ki.current;
        f.ki.current -= c.chakra;
        log.push(BattleEvent::PoolChanged {
            who: *f.id,
            pool: crate::battle::event::Pool::Chakra,
            from,
            to: f.ki.current,
            reason: format!("{} costs {}", c.name, c.chakra),
        });
    }
}

/// A counter's damage: its stats plus its bonus.
pub fn counter_damage(me: &Fighter, c: &CounterDef) -> i64 {
    c.damage
        .iter()
        .map(|s| me.attributes.get(s))
        .sum::<i64>()
        .saturating_add(c.damage_bonus)
        .max(0)
}

/// The attacker's answer to a counter: its best defense (the highest bonus; one d20 each).
pub fn counter_defense(data: &ShinobiData, field: &Field, attacker: &Fighter) -> RollSpec {
    offered(data, field, attacker)
        .into_iter()
        .map(|k| defense_roll(data, attacker, k, false, false, false))
        .max_by_key(|s| s.modifiers.iter().map(|m| m.value).sum::<i64>())
        .unwrap_or_else(|| base(data, RollKind::Dodge))
}

/// The exact chance that a defense `defense` beats the attack roll `strike` and the counter
/// then hits the attacker's `counter_defense` with the kept roll (the countering character
/// wins ties, as attackers do here).
pub fn counter_chance(
    data: &ShinobiData,
    strike: &RollSpec,
    defense: &RollSpec,
    counter_defense: &RollSpec,
) -> f64 {
    let (s, d, c) = (
        distribution(strike),
        distribution(defense),
        distribution(counter_defense),
    );
    let attacker_ties = data.combat.ties == crate::ruleset::shinobi::TieWinner::Attacker;
    let mut p = 0.0;
    for (i, pd) in d.p.iter().enumerate() {
        let v = d.offset + i as i64;
        // The defense evades when it beats the attack (ties as the ruleset says)…
        let evades = if attacker_ties {
            s.cdf(v - 1)
        } else {
            s.cdf(v)
        };
        // …and the counter hits when the kept roll beats or ties the attacker's defense.
        let lands = if attacker_ties {
            c.cdf(v)
        } else {
            c.cdf(v - 1)
        };
        p += pd * evades * lands;
    }
    p
}
