//! A Digimon attack's hits resolved: damage through Armor and Temporary HP, effects given,
//! pushes and Clash moves, the end of the attack, and what an effect is worth to the computer.

use super::effects::{
    Landing, apply_effect, duration, effect_note, fall, knockback_squares, land_damage, potency,
    spend_direct,
};
use super::rolls::{attack_of, helps, hit_damage, stat};
use crate::battle::components::CombatantId;
use crate::battle::context::AttackContext;
use crate::battle::event::{BattleEvent, EventLog};
use crate::battle::family::RollPhase;
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::state::{AttackPhase, AttackState, Resolve};
use crate::dice::roll;
use crate::ruleset::digimon::{ARM, ClashMove, DMG, DigimonData, EffectKind};

/// What a Digimon attack's damage phase reads: the rules, the attack and its assembled rolls,
/// its targets (in the order of the attack's target states) and everyone on the field.
#[derive(Clone, Copy)]
pub struct HitScene<'a> {
    pub rules: &'a crate::ruleset::Rules,
    pub d: &'a DigimonData,
    pub field: &'a crate::grid::Field<'a>,
    pub attacker: &'a Fighter,
    pub targets: &'a [&'a Fighter],
    pub all: &'a [Fighter],
    pub ctx: &'a AttackContext,
    pub profile: &'a str,
    /// The round now (Lifesteal heals once a round).
    pub round: u32,
}

/// The damage phase of a Digimon attack that hit someone: one damage roll; each target hit
/// takes it minus its Armor (at least 1), through Temporary HP, and falls at 0 HP; then the
/// attack's effect lands on each target still in the fight (Knockback pushes, Lifesteal heals
/// the user once a round).
pub fn resolve_hits(
    hit: &HitScene,
    state: &mut crate::battle::state::AttackState,
    res: &mut Resolve,
) {
    let HitScene {
        rules,
        d,
        field,
        attacker,
        targets,
        all,
        ctx,
        profile,
        round,
    } = *hit;
    let (dice, q, log) = (&mut *res.dice, &mut *res.q, &mut *res.log);
    let Some((a, bolstered)) = attack_of(d, profile) else {
        return;
    };
    let wound = a.damage.then(|| roll(&ctx.wound, dice));
    if let Some(w) = &wound {
        log.push(BattleEvent::WoundRolled {
            attacker: attacker.id,
            roll: w.clone(),
        });
    }
    let mut dealt_total = 0;
    // Foes a thrown Digimon crashed into: targets of the Throw from now on.
    let mut crashed = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        if state.targets[i].hit != Some(true) {
            continue;
        }
        let Some(mut f) = q.one_mut(t.id) else {
            continue;
        };
        let mut dealt = 0;
        if let Some(w) = &wound {
            let armor = stat(d, t, ARM).max(0);
            let outside = ctx.targets.get(i).and_then(|x| x.damage_less.clone());
            let less = outside.as_ref().map_or(0, |x| x.0);
            let halved = ctx.targets.get(i).and_then(|x| x.damage_halved.clone());
            let full = hit_damage(d, t, w.total, less, halved.is_some());
            // Shielded by an ally's Intercede against an [Area] attack: half, at least 1.
            let half = state.targets[i].half;
            let damage = if half { (full / 2).max(1) } else { full };
            let mut notes = vec![format!("Armor {armor}")];
            if half {
                notes.push(format!("half of {full}: an ally Interceded"));
            }
            if let Some((_, why)) = outside {
                notes.insert(0, why);
            }
            if let Some(why) = halved {
                notes.push(why);
            }
            if w.total - less - armor < 1 {
                notes.push("at least 1 from a successful Attack".into());
            }
            state.targets[i].damage = damage;
            dealt = damage;
            dealt_total += damage;
            let raw = land_damage(
                rules,
                attacker.id,
                Landing {
                    wound: w.total,
                    armor,
                    damage,
                    notes,
                    reason: &format!("{}'s {}", attacker.identity.name, a.name),
                },
                &mut f,
                log,
            );
            if raw <= 0 && !fall(d, &mut f, raw, dice, log) {
                continue;
            }
        }
        if let Some(m) = a.clash {
            crashed.extend(clash_move(
                (rules, d),
                (field, all),
                m,
                (attacker, t),
                &mut Resolve { dice, q, log },
            ));
            continue;
        }
        if let Some(item) = a.item {
            super::effects::restore(item.restore, attacker, &a.name, &mut f, log);
            continue;
        }
        if a.effect == Some(EffectKind::Knockback) {
            let steps = knockback_squares(d, attacker, t, bolstered);
            push_away(field, all, attacker, t, steps, &mut f, log);
            continue;
        }
        let _ = apply_effect(d, a, bolstered, attacker, &mut f, dealt, log);
    }
    state.targets.extend(crashed);
    let Some(mut me) = q.one_mut(attacker.id) else {
        return;
    };
    if a.item.is_some()
        && let Some(s) = me.digi.as_mut()
    {
        *s.items_used.entry(a.id.clone()).or_default() += 1;
    }
    if a.effect == Some(EffectKind::Lifesteal) && dealt_total > 0 {
        let used = me.digi.as_ref().is_some_and(|s| s.lifesteal_round == round);
        let heal = potency(
            d,
            EffectKind::Lifesteal,
            attacker,
            attacker,
            bolstered,
            false,
        )
        .min(dealt_total)
        .max(0);
        let name = effect_note(d, EffectKind::Lifesteal);
        if used {
            log.push(BattleEvent::DigiEffect {
                who: attacker.id,
                by: attacker.id,
                effect: name,
                text: "was already activated this round (once per round)".into(),
            });
        } else if let Some(s) = me.digi.as_mut() {
            s.lifesteal_round = round;
            let to = (me.life.current + heal).min(me.life.max);
            log.push(BattleEvent::DigiEffect {
                who: attacker.id,
                by: attacker.id,
                effect: name,
                text: format!(
                    "heals {} HP ({} -> {to})",
                    to - me.life.current,
                    me.life.current
                ),
            });
            me.life.current = to;
        }
    }
}

/// Pushes `t` (whose query item is `f`) `steps` squares straight away from `from_who`,
/// stopping before walls and anyone standing in the way (Knockback, a Throw).
pub(super) fn push_away(
    field: &crate::grid::Field,
    all: &[Fighter],
    from_who: &Fighter,
    t: &Fighter,
    steps: u32,
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) {
    let Some(super::throw::PushPath { from: at, to, .. }) =
        super::throw::push_path(field, all, from_who, t, steps)
    else {
        return;
    };
    if to != at {
        f.position.0 = Some(to);
        log.push(BattleEvent::Pushed {
            who: t.id,
            from: at,
            to,
        });
    }
}

/// What a Clash action does once declared: Start rolls for control, End frees both, Pin rolls
/// the contested Body checks, Throw (its damage already dealt) sends the opponent Body squares
/// away, ends the Clash and crashes it into the foes in the way (returned as new targets).
pub(super) fn clash_move(
    (rules, d): (&crate::ruleset::Rules, &DigimonData),
    (field, all): (&crate::grid::Field, &[Fighter]),
    m: ClashMove,
    (attacker, t): (&Fighter, &Fighter),
    res: &mut Resolve,
) -> Vec<crate::battle::state::TargetState> {
    let (dice, q, log) = (&mut *res.dice, &mut *res.q, &mut *res.log);
    use crate::battle::family::digimon::grapple;
    match m {
        ClashMove::Start => {
            let w = grapple::roll_control(d, attacker, t, attacker.id, dice, log);
            let shield = grapple::shield(d, attacker, t);
            // At a range (the Reach Quality) the Clash holds them that far apart.
            let reach = attacker.distance_to(t).unwrap_or(1).max(1);
            grapple::set_control(q, attacker, t, attacker.id, w, (shield, reach));
        }
        ClashMove::End => grapple::release(
            q,
            attacker.id,
            t.id,
            &format!("{} lets go; both are free", attacker.identity.name),
            log,
        ),
        ClashMove::Pin => {
            let (sa, sb) = grapple::pin_specs(d, attacker, t);
            let (ra, rb) = (roll(&sa, dice), roll(&sb, dice));
            let won = ra.total >= rb.total;
            let (ta, tb) = (ra.total, rb.total);
            log.push(BattleEvent::CheckRolled {
                who: attacker.id,
                purpose: format!("Pin against {}'s Body check", t.identity.name),
                roll: ra,
                target: tb,
                passed: won,
            });
            log.push(BattleEvent::CheckRolled {
                who: t.id,
                purpose: format!("resists {}'s Pin", attacker.identity.name),
                roll: rb,
                target: ta + 1,
                passed: !won,
            });
            if won {
                grapple::pin(q, t.id);
                // A Pinned flyer and its controller fall to the ground.
                super::flight::pin_fall((rules, d), q, attacker, t, dice, log);
                log.push(BattleEvent::DigiNote {
                    who: t.id,
                    text: format!(
                        "{} is Pinned: it does not roll for control next round.",
                        t.identity.name
                    ),
                });
            }
        }
        ClashMove::Throw => {
            let steps = super::throw::throw_squares(d, attacker);
            grapple::release(
                q,
                attacker.id,
                t.id,
                &format!("{} throws {}", attacker.identity.name, t.identity.name),
                log,
            );
            {
                let Some(mut f) = q.one_mut(t.id) else {
                    return Vec::new();
                };
                if f.digi.as_ref().is_some_and(|s| s.down.is_some()) {
                    return Vec::new();
                }
                push_away(field, all, attacker, t, steps, &mut f, log);
            }
            let group = super::throw::crash_targets(d, field, all, attacker, t);
            return super::throw::crash((rules, d), attacker, t, &group, res);
        }
    }
    Vec::new()
}

/// The end of a Digimon attack: the Accuracy roll used the attacker's Direct, each Dodge roll
/// its target's; a helping effect rolls neither, so no Direct is used and no ally's Dodge
/// penalty grows (returned: ids whose Dodge penalty grows).
pub fn end_attack(
    d: &DigimonData,
    profile: &str,
    attacker: CombatantId,
    targets: &[CombatantId],
    items: &mut [FighterQueryItem],
) -> Vec<CombatantId> {
    let rolled = attack_of(d, profile).is_some_and(|(a, _)| !helps(a) && a.clash.is_none());
    // A helping effect or a Clash action rolls neither Accuracy nor Dodge: nobody's Direct is
    // used; a Clash participant rolls no Dodge either.
    let clashing = |f: &FighterQueryItem| f.digi.as_ref().is_some_and(|s| s.clash.is_some());
    let dodged: Vec<CombatantId> = items
        .iter()
        .filter(|f| rolled && targets.contains(f.id) && !clashing(f))
        .map(|f| *f.id)
        .collect();
    // The Accuracy roll is made only when someone rolls Dodge against it.
    for f in items.iter_mut() {
        if (*f.id == attacker && !dodged.is_empty()) || dodged.contains(f.id) {
            spend_direct(f);
        }
    }
    dodged
}

/// What the AI counts an attack's effect as worth on `target` if it lands, in HP of damage:
/// a rough price (our default) so the planner weighs effects against damage. Negative effects
/// are worth their penalty over their duration to a foe; helping ones the same to an ally
/// (Heal and Regenerate only when the ally is hurt, Direct only to a partner).
pub fn effect_worth(d: &DigimonData, profile: &str, me: &Fighter, target: &Fighter) -> f64 {
    let Some((a, bolstered)) = attack_of(d, profile) else {
        return 0.0;
    };
    // A turn of the foe's actions is worth about a Stun's turn; starting a Clash wins it or
    // loses one's own, by the chance of control.
    match a.clash {
        Some(ClashMove::Start) => {
            let p = crate::battle::family::digimon::grapple::control_chance(d, me, target, me.id);
            return 8.0 * (2.0 * p - 1.0);
        }
        Some(ClashMove::Pin) => {
            return 4.0 * crate::battle::family::digimon::grapple::pin_chance(d, me, target);
        }
        Some(ClashMove::End | ClashMove::Throw) => return 0.0,
        None => {}
    }
    if let Some(item) = a.item {
        // Hit Points back, worth more the nearer the ally is to falling (an item is used
        // once a battle: kept for when it matters).
        let hurt = (target.life.max - target.life.current).max(0);
        let low = hurt as f64 / target.life.max.max(1) as f64;
        return if target.side == me.side {
            item.restore.min(hurt) as f64 * (0.5 + 2.0 * low * low)
        } else {
            0.0
        };
    }
    let Some(kind) = a.effect else {
        return 0.0;
    };
    let p = potency(d, kind, me, target, a.complex || bolstered, bolstered) as f64;
    let turns = duration(d, kind, me).clamp(1, 3) as f64;
    let hurt = (target.life.max - target.life.current) as f64;
    let ally = target.side == me.side;
    let w = match kind {
        EffectKind::Immobilize => 0.3 * p * turns,
        EffectKind::Knockback => 1.0,
        EffectKind::Taunt | EffectKind::Fear => 0.4 * p * turns,
        EffectKind::Poison => p * turns,
        EffectKind::Confuse | EffectKind::Blind => 0.6 * p * turns,
        EffectKind::Stun => 8.0 * turns,
        EffectKind::Paralysis => 0.6 * p * turns,
        EffectKind::Weaken => 0.7 * p * turns,
        EffectKind::Lifesteal => 0.0,
        // A foe's turns fought for us: each worth about one of its damage rolls (denied to
        // its side and dealt to it).
        EffectKind::Charm => turns * (stat(d, target, DMG).max(0) / 2) as f64 * 3.5,
        EffectKind::Vigor | EffectKind::Fury | EffectKind::Strengthen => 0.5 * p * turns,
        EffectKind::Heal => {
            let temp = target.digi.as_ref().map_or(0, |s| s.temp_hp) as f64;
            (p - temp).max(0.0).min(hurt + 5.0) * 0.8
        }
        EffectKind::Regenerate => p.min(hurt) * turns * 0.5,
        EffectKind::Direct if target.digi.as_ref().is_some_and(|s| s.directed.is_some()) => 0.0,
        EffectKind::Direct => 0.8 * p,
        EffectKind::Haste => 6.0,
        EffectKind::Cleanse => {
            3.0 * target.digi.as_ref().map_or(0, |s| {
                s.effects.iter().filter(|e| !e.kind.positive()).count()
            }) as f64
        }
    };
    // An effect already running from this user only renews; a helping one on a foe is worth
    // nothing (the checks refuse it anyway).
    let renews = target.digi.as_ref().is_some_and(|s| {
        s.effects
            .iter()
            .any(|e| e.kind == kind && e.source == me.id && e.turns > 1)
    });
    if kind.positive() != ally || renews {
        0.0
    } else {
        w
    }
}

/// The Digimon roll phase: a helping effect on allies rolls nothing ("Allies do not have to roll
/// Dodge at all for Positive Effects"), so no Accuracy roll is shown either; anything else is
/// the action-point Opposed Rolls. Either way an ally of a target about to be hit may Intercede
/// before the damage.
pub fn roll_checks(d: &DigimonData, p: &mut RollPhase, state: &mut AttackState) {
    let Some(ctx) = crate::battle::family::dbu::roll_context(p, state) else {
        return;
    };
    if ctx.targets.iter().all(|t| t.automatic_hit.is_some()) {
        for (i, tc) in ctx.targets.iter().enumerate() {
            state.targets[i].hit = Some(true);
            p.res.log.push(BattleEvent::Clash {
                attacker: p.attacker.id,
                defender: tc.id,
                strike: 0,
                defense: 0,
                hit: true,
                automatic: tc.automatic_hit.map(str::to_string),
                attacker_wins_ties: false,
            });
        }
        state.phase = AttackPhase::Intercede;
        return;
    }
    crate::battle::family::ap::roll_checks(&d.ap, p, state, AttackPhase::Intercede);
}
