//! Digimon attack effects and what 0 HP does: potency and duration, stacking, each effect's work,
//! knockback, Temporary HP, falling to the Default Stage or a Digitama, and what each turn and round
//! start ticks.

use super::check;
use super::rolls::{base_stat, has, stat};
use crate::battle::components::{ActiveEffect, CombatantId, DigiState};
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::dice::{DiceSource, RollKind, roll};
use crate::ruleset::digimon::{BIT, CPU, DigiAttackDef, DigimonData, EffectKind, Lasting, RAM};

/// An effect's potency when `user` gives it to `target`: the user's stat times the effect's
/// multiplier (Confuse: the target's higher of CPU and BIT), with a Complex use's own
/// multiplier (Heal x7, Lifesteal doubled) or Bolster's +2.
pub fn potency(
    d: &DigimonData,
    kind: EffectKind,
    user: &Fighter,
    target: &Fighter,
    complex: bool,
    bolstered: bool,
) -> i64 {
    let Some(def) = d.effect(kind) else {
        return 0;
    };
    let base = if kind == EffectKind::Confuse {
        stat(d, target, CPU).max(stat(d, target, BIT))
    } else {
        base_stat(d, user, &def.stat)
    };
    let times = match def.complex_times {
        Some(t) if complex => t,
        _ => def.times,
    };
    let bonus = if bolstered && def.complex_times.is_none() {
        d.combat.bolster
    } else {
        0
    };
    base * times + bonus
}

/// How many of the target's turns an effect given by `user` lasts: RAM ÷ 2 (at least 1),
/// times the effect's multiplier (Poison x3); 0 for one without a Duration.
pub fn duration(d: &DigimonData, kind: EffectKind, user: &Fighter) -> i64 {
    let c = &d.combat;
    let normal = (base_stat(d, user, RAM) / c.duration_divisor.max(1)).max(c.min_duration);
    match d.effect(kind).map(|e| e.lasting) {
        Some(Lasting::Normal) => normal,
        Some(Lasting::Times(n)) => normal * n,
        _ => 0,
    }
}

/// Puts an effect with a Duration on `f` under the stacking rule: the same user renews it to
/// a full Duration; another user adds its Duration and sets its potency.
pub fn stack(state: &mut DigiState, kind: EffectKind, potency: i64, turns: i64, by: CombatantId) {
    match state.effects.iter_mut().find(|e| e.kind == kind) {
        Some(e) if e.source == by => {
            e.turns = turns;
            e.potency = potency;
        }
        Some(e) => {
            e.turns += turns;
            e.potency = potency;
            e.source = by;
        }
        None => state.effects.push(ActiveEffect {
            kind,
            potency,
            turns,
            source: by,
        }),
    }
}

/// What an effect landing did, for the log.
pub(super) fn effect_note(d: &DigimonData, kind: EffectKind) -> String {
    d.effect(kind)
        .map_or(format!("{kind:?}"), |e| e.name.clone())
}

/// Gives the effect of `a` to `target` after a hit (`dealt`: the damage it took), with the
/// stacking rule; Lifesteal heals the user instead (`user_heal` is what it gets back, once a
/// round), Knockback is the caller's (it moves the target), Heal adds Temporary HP, Haste a
/// Simple Action next round, Cleanse shortens negative effects, Direct waits for the next roll.
pub fn apply_effect(
    d: &DigimonData,
    a: &DigiAttackDef,
    bolstered: bool,
    user: &Fighter,
    target: &mut FighterQueryItem,
    dealt: i64,
    log: &mut EventLog,
) -> Option<i64> {
    let kind = a.effect?;
    let snap = target.snapshot();
    let p = potency(d, kind, user, &snap, a.complex || bolstered, bolstered);
    let turns = duration(d, kind, user);
    let who = *target.id;
    let name = effect_note(d, kind);
    let state = target.digi.as_mut()?;
    let text = match kind {
        EffectKind::Lifesteal => return Some(p.min(dealt)),
        EffectKind::Knockback => return None,
        EffectKind::Heal => {
            // Temporary HP do not add up (our reading; the chapter is silent): the larger
            // amount is kept.
            state.temp_hp = state.temp_hp.max(p);
            format!("gives {p} Temporary HP (now {})", state.temp_hp)
        }
        EffectKind::Haste => {
            state.haste = true;
            "gains a Simple Action next round".into()
        }
        EffectKind::Direct => {
            state.directed = Some((p, user.id));
            format!("adds {p} to its next Dodge or Accuracy roll")
        }
        EffectKind::Cleanse => {
            let count = usize::try_from(base_stat(d, user, BIT).max(0)).unwrap_or(0);
            let by = base_stat(d, user, CPU).max(0);
            let mut cut = 0;
            for e in state
                .effects
                .iter_mut()
                .filter(|e| !e.kind.positive())
                .take(count)
            {
                e.turns -= by;
                cut += 1;
            }
            state.effects.retain(|e| e.turns > 0);
            format!("{cut} effect(s) shortened by {by} turn(s)")
        }
        EffectKind::Charm => {
            // "The user takes control of the target's actions": the user's side commands it
            // (and it fights for that side) until the Charm ends.
            stack(state, kind, p, turns, user.id);
            let now = state.effects.iter().find(|e| e.kind == kind);
            let left = now.map_or(turns, |e| e.turns);
            state.charmed_from.get_or_insert(*target.side);
            *target.side = user.side;
            format!(
                "{}'s side commands it for {left} turn(s)",
                user.identity.name
            )
        }
        _ => {
            stack(state, kind, p, turns, user.id);
            let now = state.effects.iter().find(|e| e.kind == kind);
            format!(
                "potency {}, {} turn(s) left",
                now.map_or(p, |e| e.potency),
                now.map_or(turns, |e| e.turns)
            )
        }
    };
    log.push(BattleEvent::DigiEffect {
        who,
        by: user.id,
        effect: name,
        text,
    });
    None
}

/// Squares a Knockback pushes: the user's CPU value x2 (with Bolster's +2).
pub fn knockback_squares(
    d: &DigimonData,
    user: &Fighter,
    target: &Fighter,
    bolstered: bool,
) -> u32 {
    u32::try_from(potency(d, EffectKind::Knockback, user, target, false, bolstered).max(0))
        .unwrap_or(0)
}

/// Damage taken through Temporary HP first: returns what reaches HP.
pub fn through_temp_hp(f: &mut FighterQueryItem, damage: i64) -> i64 {
    let Some(state) = f.digi.as_mut() else {
        return damage;
    };
    let soaked = state.temp_hp.min(damage).max(0);
    state.temp_hp -= soaked;
    damage - soaked
}

/// A combatant brought to `raw` HP (0 or below): a partnered Digimon above its Default Stage
/// falls back to it at 1 HP; one already there, or brought to minus its maximum, becomes a
/// Digitama (out of the fight); a Digimon with no Tamer is defeated; a Tamer is knocked out and
/// makes its Death Saving Throw (3d6, failing at 3, one higher per 2 HP below 0), or is killed
/// outright at minus its maximum. True when it stays in the fight.
pub fn fall(
    d: &DigimonData,
    f: &mut FighterQueryItem,
    raw: i64,
    dice: &mut DiceSource,
    log: &mut EventLog,
) -> bool {
    let snap = f.snapshot();
    let who = *f.id;
    let max = f.life.max;
    let Some(state) = f.digi.as_mut() else {
        return false;
    };
    if state.down.is_some() {
        return false;
    }
    if state.tamer {
        if raw <= -max {
            state.down = Some("killed outright".into());
            log.push(BattleEvent::DigiFall {
                who,
                text: format!(
                    "{} falls to {raw} HP (minus its maximum {max}) and is killed outright.",
                    snap.identity.name
                ),
            });
            return false;
        }
        let c = &d.combat;
        let tn = c.death_save.fail_at + 1 + (-raw) / c.death_save.per_points.max(1);
        let mut spec = check(d, RollKind::Amount("Death Saving Throw".into()));
        spec.modifiers.clear();
        let r = roll(&spec, dice);
        let lives = r.total >= tn;
        state.down = Some(if lives {
            "unconscious (passed the Death Saving Throw)".into()
        } else {
            "unconscious, dying (failed the Death Saving Throw)".into()
        });
        log.push(BattleEvent::DigiFall {
            who,
            text: format!(
                "{} is unconscious at {raw} HP. Death Saving Throw {} against {tn}: {}.",
                snap.identity.name,
                r.total,
                if lives { "survives" } else { "fails" }
            ),
        });
        return false;
    }
    // The Default Stage below the stage it is now (its own, one it fell back to, or one it
    // Digivolved to): none at the bottom of its line.
    let default = super::form(d, &snap).and_then(|x| x.default_stage.clone());
    let at_default = default.is_none();
    if state.partner.is_none() {
        state.down = Some("defeated".into());
        return false;
    }
    if at_default || raw <= -max {
        state.down = Some("became a Digitama".into());
        state.effects.clear();
        state.airborne = 0;
        log.push(BattleEvent::DigiFall {
            who,
            text: format!(
                "{} falls to {raw} HP {} and becomes a Digitama (a Digi-Egg): out of the fight.",
                snap.identity.name,
                if at_default {
                    "at its Default Stage"
                } else {
                    "(minus its maximum)"
                }
            ),
        });
        return false;
    }
    let Some(form_id) = default else {
        return false;
    };
    let Some(form) = d.digimon(&form_id) else {
        return false;
    };
    state.form = (form_id != snap.identity.archetype).then(|| form_id.clone());
    state.effects.clear();
    state.clash = None;
    state.temp_hp = 0;
    // Ours: knocked down to its Default Stage, a flyer comes down to the ground too.
    state.airborne = 0;
    f.life.max = form.hp;
    f.life.current = 1;
    // From now on it attacks with its Default Stage's attacks (the action bar and the AI read
    // the loadout).
    f.loadout.profiles = crate::ruleset::digimon::loadout(&d.combat, &form.attacks);
    log.push(BattleEvent::DigiFall {
        who,
        text: format!(
            "{} drops to 0 HP and falls back to its Default Stage: {} ({}) at 1 HP.",
            snap.identity.name, form.name, form.stage
        ),
    });
    true
}

/// What a hit brings to a Digimon combatant, as the log tells it: the damage roll, the Armor
/// it met, the damage after both, and the notes that explain them (a Temporary HP note is
/// added here).
pub struct Landing<'a> {
    pub wound: i64,
    pub armor: i64,
    pub damage: i64,
    pub notes: Vec<String>,
    /// What brought the HP down, for the HP change's line ("Greymon's Nova Blast").
    pub reason: &'a str,
}

/// `by`'s hit landing on `f`: Temporary HP first, the Damage event, then HP. Returns the HP it
/// would have now, which the caller takes to [`fall`] at 0 or below.
pub fn land_damage(
    rules: &crate::ruleset::Rules,
    by: crate::battle::components::CombatantId,
    hit: Landing,
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) -> i64 {
    let Landing {
        wound,
        armor,
        damage,
        mut notes,
        reason,
    } = hit;
    let to_hp = through_temp_hp(f, damage);
    if to_hp < damage {
        notes.push(format!("{} absorbed by Temporary HP", damage - to_hp));
    }
    log.push(BattleEvent::Damage {
        attacker: by,
        target: *f.id,
        wound,
        category: crate::ruleset::Category::Lethal,
        soak: armor,
        soak_used: armor.min(wound),
        damage,
        notes,
        flat: true,
    });
    let raw = f.life.current - to_hp;
    crate::battle::effects::set_life(
        rules,
        f,
        crate::battle::event::Pool::Hp,
        raw,
        crate::battle::effects::LifeCause::Damage {
            by: Some(by),
            attack: true,
        },
        reason,
        log,
    );
    raw
}

/// An item used on `f` by `user`: up to `amount` Hit Points back, not past its maximum.
pub fn restore(
    amount: i64,
    user: &Fighter,
    item: &str,
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) {
    let before = f.life.current;
    let to = (before + amount.max(0)).min(f.life.max).max(before);
    f.life.current = to;
    log.push(BattleEvent::DigiEffect {
        who: *f.id,
        by: user.id,
        effect: item.to_string(),
        text: format!(
            "restores {} HP ({before} -> {to}; it gives up to {amount})",
            to - before
        ),
    });
}

/// Ends one of `f`'s turns for its effects: each loses a turn and those at 0 end.
pub fn tick_effects(d: &DigimonData, f: &mut FighterQueryItem, log: &mut EventLog) {
    let who = *f.id;
    let Some(state) = f.digi.as_mut() else {
        return;
    };
    let mut ended = Vec::new();
    for e in state.effects.iter_mut() {
        e.turns -= 1;
        if e.turns <= 0 {
            ended.push(effect_note(d, e.kind));
        }
    }
    state.effects.retain(|e| e.turns > 0);
    for name in ended {
        log.push(BattleEvent::DigiEffect {
            who,
            by: who,
            effect: name,
            text: "wears off".into(),
        });
    }
}

/// Gives a combatant whose Charm is over (worn off, Cleansed, lost in a fall) back to its
/// own side.
pub fn release_charms(q: &mut crate::battle::snapshot::Fighters, log: &mut EventLog) {
    for mut f in q.iter_mut() {
        let charmed = f
            .digi
            .as_ref()
            .is_some_and(|s| s.effects.iter().any(|e| e.kind == EffectKind::Charm));
        let who = *f.id;
        let name = f.identity.name.clone();
        let Some(state) = f.digi.as_mut() else {
            continue;
        };
        if charmed && state.down.is_none() {
            continue;
        }
        let Some(own) = state.charmed_from.take() else {
            continue;
        };
        *f.side = own;
        log.push(BattleEvent::DigiNote {
            who,
            text: format!("{name} is no longer Charmed: it fights for its own side again."),
        });
    }
}

/// The side `f` belongs to (a Charmed combatant's own, not its charmer's): the side whose
/// victory it counts for.
pub fn own_side(f: &Fighter) -> crate::battle::components::Side {
    f.digi
        .as_ref()
        .and_then(|s| s.charmed_from)
        .unwrap_or(f.side)
}

/// The Poison on `f`, if any: the HP it takes at the start of each of `f`'s turns, and who
/// gave it.
pub fn poison_damage(f: &Fighter) -> Option<(i64, CombatantId)> {
    f.digi.as_ref()?.effects.iter().find_map(|e| {
        (e.kind == EffectKind::Poison && e.potency > 0).then_some((e.potency, e.source))
    })
}

/// What Regenerate gives `f` back at the start of a round.
pub fn regeneration(f: &Fighter) -> i64 {
    f.digi.as_ref().map_or(0, |s| {
        s.effects
            .iter()
            .filter(|e| e.kind == EffectKind::Regenerate)
            .map(|e| e.potency)
            .sum()
    })
}

/// True when `me` has not spent this round's Interrupt Action ("once per round … either
/// … a Skill Check for free, or … an Intercede Action") and can take one: not Stunned or
/// Paralysed.
pub fn interrupt_left(me: &Fighter, round: u32) -> bool {
    me.digi
        .as_ref()
        .is_some_and(|s| s.interceded_round != round)
        && !has(me, EffectKind::Stun)
        && !has(me, EffectKind::Paralysis)
}

/// Spends a waiting Direct: the next Dodge or Accuracy roll has used it.
pub fn spend_direct(f: &mut FighterQueryItem) {
    if let Some(state) = f.digi.as_mut() {
        state.directed = None;
    }
}

/// A new round for `f`: Regenerate heals, Haste adds its Simple Action, Stun leaves none.
pub fn refresh_round(
    d: &DigimonData,
    f: &mut FighterQueryItem,
    actions: &mut u32,
    notes: &mut Vec<String>,
    log: &mut EventLog,
) {
    let snap = f.snapshot();
    let who = *f.id;
    let heal = regeneration(&snap);
    if heal > 0 && f.life.current < f.life.max {
        let to = (f.life.current + heal).min(f.life.max);
        log.push(BattleEvent::DigiEffect {
            who,
            by: who,
            effect: effect_note(d, EffectKind::Regenerate),
            text: format!(
                "restores {} HP ({} -> {to})",
                to - f.life.current,
                f.life.current
            ),
        });
        f.life.current = to;
    }
    let Some(state) = f.digi.as_mut() else {
        return;
    };
    state.hasted_now = state.haste;
    if state.haste {
        state.haste = false;
        *actions += 1;
        notes.push("Haste: +1 Simple Action".into());
    }
    if has(&snap, EffectKind::Stun) {
        *actions = 0;
        notes.push("Stunned: no actions".into());
    }
}

/// The start of `f`'s turn: Poison's unalterable damage (straight off HP, past Armor and
/// Temporary HP), and Stun taking whatever actions it has.
pub fn begin_turn(
    rules: &crate::ruleset::Rules,
    d: &DigimonData,
    f: &mut FighterQueryItem,
    dice: &mut DiceSource,
    log: &mut EventLog,
) {
    let snap = f.snapshot();
    if let Some((amount, by)) = poison_damage(&snap) {
        let raw = f.life.current - amount;
        crate::battle::effects::set_life(
            rules,
            f,
            crate::battle::event::Pool::Hp,
            raw,
            crate::battle::effects::LifeCause::Damage {
                by: Some(by),
                attack: false,
            },
            &format!("{} ({amount})", effect_note(d, EffectKind::Poison)),
            log,
        );
        if raw <= 0 {
            fall(d, f, raw, dice, log);
        }
    }
    if crate::battle::family::digimon::hold::held(&snap) {
        f.actions.standard = 0;
        log.push(BattleEvent::DigiNote {
            who: snap.id,
            text: format!(
                "{} is held in a Clash it does not control: no actions this turn.",
                snap.identity.name
            ),
        });
    }
    if has(&snap, EffectKind::Stun) && f.actions.standard > 0 {
        f.actions.standard = 0;
        log.push(BattleEvent::DigiEffect {
            who: snap.id,
            by: snap.id,
            effect: effect_note(d, EffectKind::Stun),
            text: "leaves it no actions this turn".into(),
        });
    }
}
