//! The shinobi family's combat (the ninja d20 chapter): d20 attacks against a chosen Dodge,
//! Block or Deflect with the attacker winning ties, flat damage, AP costs, healing jutsu,
//! pushes that slam into obstructions, and opportunity attacks that stop a move where it
//! entered reach. Cover and concealment live in `cover.rs`, counters in `counter.rs`, Genjutsu
//! in `genjutsu.rs`, falls in `fall.rs`.
//!
//! Like every family, its attack context is assembled once ([`assemble`]) and both the preview
//! ([`target_odds`]) and the resolution (`attack.rs`, which calls [`roll_percent`] and
//! [`absorb_hit`]) read it, so the odds shown are the odds rolled. (A counter's effect on the
//! attacker is previewed for the defender by [`counter_chance`]; the attacker's own preview does
//! not include being countered.)

pub mod aim;
mod counter;
mod cover;
mod fall;
pub mod genjutsu;
mod hooks;
pub mod jump;
pub mod sheet;

pub use counter::*;
pub use cover::*;
use fall::fall_damage;
pub use fall::{Fall, Knockback, fall_dist};
pub use genjutsu::{blinded, resist_spec};

use crate::battle::command::DefenseChoice;
use crate::battle::command::RuleError;
use crate::battle::components::{CombatantId, Square};
use crate::battle::context::{AttackContext, Declaration, TargetContext};
use crate::battle::event::{ActionKind, BattleEvent, EventLog};
use crate::battle::fighter::Fighter;
use crate::battle::fighter::FighterQueryItem;
use crate::battle::odds::{RollSummary, TargetOdds};
use crate::dice::{BaseDie, DiceSource, Dist, RollKind, RollSpec, distribution, roll};
use crate::grid::{Field, footprint, footprint_distance};
use crate::ruleset::digimon::DigimonData;
use crate::ruleset::shinobi::{AttackDef, DefenseKind, ShinobiData};

/// The attack a profile id names (validated data always has one).
pub fn attack<'d>(data: &'d ShinobiData, profile: &str) -> Option<&'d AttackDef> {
    data.attack(profile)
}

/// AP an attack costs (1 for an unknown one, as a standard attack).
pub fn ap_cost(data: &ShinobiData, profile: &str) -> u32 {
    attack(data, profile).map_or(1, |a| a.ap)
}

/// AP an attack costs `attacker` now: its own cost, except a Digimon Clash controller's
/// [Melee] Attack, a Complex Action (`digimon` is the Digimon data when that family plays).
pub fn attack_ap(
    data: &ShinobiData,
    digimon: Option<&DigimonData>,
    attacker: &Fighter,
    profile: &str,
) -> u32 {
    digimon
        .and_then(|d| {
            let (a, _) = crate::battle::family::digimon::attack_of(d, profile)?;
            crate::battle::family::digimon::grapple::attack_ap(d, attacker, a)
        })
        .unwrap_or_else(|| ap_cost(data, profile))
}

/// Pays for an attack in action points: an opportunity attack its opportunity cost, any
/// other attack its own (a Digimon Complex Action all of them; `digimon` is that family's
/// data when it plays).
pub fn pay_attack(
    data: &ShinobiData,
    digimon: Option<&DigimonData>,
    f: &mut FighterQueryItem,
    me: &Fighter,
    profile: &crate::ruleset::ProfileDef,
    opportunity: bool,
    log: &mut EventLog,
) {
    let name = &profile.name;
    let (ap, what) = if opportunity {
        (
            data.combat.opportunity_cost,
            format!("an opportunity attack ({name})"),
        )
    } else {
        (
            attack_ap(data, digimon, me, &profile.id),
            format!("an attack ({name})"),
        )
    };
    spend_ap(f, ap, &what, log);
    // Stopping to strike ends a run: a jump after it has no running start.
    if f.round.ran {
        f.round.ran = false;
    }
}

/// What an attack costs `me` now on the action-point path, as the action bar shows it: its
/// action points (a Digimon Complex Action all of them) and any chakra.
pub fn slot_cost(
    data: &ShinobiData,
    digimon: Option<&DigimonData>,
    me: &Fighter,
    profile: &str,
    chakra: i64,
) -> String {
    let ap = attack_ap(data, digimon, me, profile);
    let chakra = if chakra > 0 {
        format!(" {chakra}ch")
    } else {
        String::new()
    };
    format!(" {ap}AP{chakra}")
}

/// True when `f` has a weapon equipped (Block and weapon attacks need one).
pub fn has_weapon(data: &ShinobiData, f: &Fighter) -> bool {
    data.ninja(&f.identity.archetype)
        .is_some_and(|n| n.weapon.is_some())
}

/// The chapter's own refusals of an attack order: AP for its cost, a weapon for a weapon attack.
/// `opportunity` is true for an opportunity attack, which costs the opportunity AP instead.
/// Digimon, played on these action points, passes its own data for its Complex Actions.
pub fn check_attack(
    data: &ShinobiData,
    digimon: Option<&DigimonData>,
    attacker: &Fighter,
    profile: &str,
    opportunity: bool,
) -> Result<(), RuleError> {
    let Some(a) = attack(data, profile) else {
        return Ok(());
    };
    let need = if opportunity {
        data.combat.opportunity_cost
    } else {
        attack_ap(data, digimon, attacker, profile)
    };
    if attacker.actions.usable() < need {
        return Err(RuleError::NotEnoughAp {
            who: attacker.id,
            need,
            have: attacker.actions.usable(),
        });
    }
    if opportunity
        && (a.reach != crate::ruleset::Reach::Melee
            || a.ap > data.combat.opportunity_cost
            || a.push > 0)
    {
        return Err(RuleError::OpportunityNeedsMelee {
            attack: a.name.clone(),
            ap: data.combat.opportunity_cost,
        });
    }
    if attacker.ki.current < a.chakra {
        return Err(RuleError::NotEnoughChakra {
            who: attacker.id,
            need: a.chakra,
            have: attacker.ki.current,
        });
    }
    if a.weapon && !has_weapon(data, attacker) {
        return Err(RuleError::NeedsWeapon {
            who: attacker.id,
            attack: a.name.clone(),
        });
    }
    Ok(())
}

/// Takes `amount` HP off `f` for a hit that is not the attack's own damage (slam, fall,
/// counter): `by` the one who caused it, if anyone, and `why` for the log.
pub fn hurt(
    rules: &crate::ruleset::Rules,
    f: &mut FighterQueryItem,
    amount: i64,
    by: Option<CombatantId>,
    why: &str,
    log: &mut EventLog,
) {
    if amount <= 0 {
        return;
    }
    let left = f.life.current.saturating_sub(amount);
    crate::battle::effects::set_life(
        rules,
        f,
        crate::battle::event::Pool::Hp,
        left,
        crate::battle::effects::LifeCause::Damage {
            by,
            attack: by.is_some(),
        },
        why,
        log,
    );
}

/// Spends `n` action points on `what`, one logged line each.
pub fn spend_ap(f: &mut FighterQueryItem, n: u32, what: &str, log: &mut EventLog) {
    for _ in 0..n {
        f.actions.standard = f.actions.standard.saturating_sub(1);
        log.push(BattleEvent::ActionSpent {
            who: *f.id,
            kind: ActionKind::ActionPoint,
            what: what.to_string(),
        });
    }
}

/// A bare d20 (or the ruleset's die): no criticals or botches in this chapter.
pub(crate) fn base(data: &ShinobiData, kind: RollKind) -> RollSpec {
    let mut s = RollSpec::new(kind);
    s.base = Some(BaseDie::plain(data.combat.die));
    s
}

/// Adds each stat of `terms` with its name and value ("Strength 4").
pub(crate) fn add_terms(data: &ShinobiData, f: &Fighter, terms: &[String], s: &mut RollSpec) {
    for t in terms {
        s.add(format!("{} ({t})", data.stat_name(t)), f.attributes.get(t));
    }
}

/// The attack roll: 1d20 + the attack's stats.
pub fn strike_spec(data: &ShinobiData, attacker: &Fighter, a: &AttackDef) -> RollSpec {
    let mut s = base(data, RollKind::Strike);
    add_terms(data, attacker, &a.hit, &mut s);
    s
}

/// The sneak-attack contest rolls with attack `a`: the attacker's skill against the defender's,
/// as the attack's way says (Stealth, Sleight of Hand or Bluff against Perception or Sense
/// Motive).
pub fn sneak_specs(
    data: &ShinobiData,
    attacker: &Fighter,
    defender: &Fighter,
    a: Option<&AttackDef>,
) -> (RollSpec, RollSpec) {
    let (mine, theirs) = data.sneak_skills(a);
    let (mine, theirs) = (mine.to_string(), theirs.to_string());
    let mut s = base(data, RollKind::Skill(data.stat_name(&mine).into()));
    add_terms(data, attacker, std::slice::from_ref(&mine), &mut s);
    let mut d = base(data, RollKind::Skill(data.stat_name(&theirs).into()));
    add_terms(data, defender, std::slice::from_ref(&theirs), &mut d);
    (s, d)
}

/// True when `f` has a hand free: no weapon, or one that takes a single hand ("Deflecting is
/// an option as long as a Character … [has] a free hand").
pub fn has_free_hand(data: &ShinobiData, f: &Fighter) -> bool {
    data.ninja(&f.identity.archetype)
        .and_then(|n| n.weapon.as_deref())
        .and_then(|w| data.weapon(w))
        .is_none_or(|w| w.hands < 2)
}

/// True when `f` stands in water it must swim ("One cannot Dodge in mid air or while
/// swimming").
pub fn swimming(field: &Field, f: &Fighter) -> bool {
    f.position.is_some_and(|at| {
        footprint(at, f.size.squares)
            .into_iter()
            .any(|s| field.terrain(s).is_some_and(|t| t.swimming == Some(true)))
    })
}

/// "One cannot Dodge in mid air or while swimming": `f` swims, or is in mid air on a jump.
pub fn no_dodge(field: &Field, f: &Fighter) -> bool {
    swimming(field, f) || f.round.airborne
}

/// Which defenses `target` may answer with: Dodge unless it swims or is in mid air on a jump,
/// Block only with a weapon, Deflect only with a free hand (at a penalty at half chakra or
/// less).
pub fn offered(data: &ShinobiData, field: &Field, target: &Fighter) -> Vec<DefenseKind> {
    let mut v = Vec::new();
    if !no_dodge(field, target) {
        v.push(DefenseKind::Dodge);
    }
    if has_weapon(data, target) {
        v.push(DefenseKind::Block);
    }
    if has_free_hand(data, target) {
        v.push(DefenseKind::Deflect);
    }
    v
}

/// The engine's answer for a shinobi defense.
pub fn choice_of(kind: DefenseKind) -> DefenseChoice {
    match kind {
        DefenseKind::Dodge => DefenseChoice::Dodge,
        DefenseKind::Block => DefenseChoice::Block,
        DefenseKind::Deflect => DefenseChoice::Deflect,
    }
}

/// A defense roll: 1d20 + its stats, −5 when the attack is undodgeable (Dodge) or unblockable
/// (Block), −5 for Deflect at half chakra or less, −5 against a sneak attack that won its
/// contest.
pub fn defense_spec(
    data: &ShinobiData,
    target: &Fighter,
    a: &AttackDef,
    kind: DefenseKind,
    sneak_won: bool,
) -> RollSpec {
    let mut s = defense_roll(data, target, kind, a.undodgeable, a.unblockable, sneak_won);
    for m in s.modifiers.iter_mut() {
        if m.label == UNDODGEABLE || m.label == UNBLOCKABLE {
            m.label = format!("{} is {}", a.name, m.label);
        }
    }
    s
}

const UNDODGEABLE: &str = "undodgeable";
const UNBLOCKABLE: &str = "unblockable";

/// A defense roll against an attack that is (or is not) undodgeable or unblockable.
fn defense_roll(
    data: &ShinobiData,
    target: &Fighter,
    kind: DefenseKind,
    undodgeable: bool,
    unblockable: bool,
    sneak_won: bool,
) -> RollSpec {
    let c = &data.combat;
    let (roll_kind, name) = match kind {
        DefenseKind::Dodge => (RollKind::Dodge, "Dodge"),
        DefenseKind::Block => (RollKind::Amount("Block".into()), "Block"),
        DefenseKind::Deflect => (RollKind::Amount("Deflect".into()), "Deflect"),
    };
    let mut s = base(data, roll_kind);
    if let Some(d) = data.defense(kind) {
        add_terms(data, target, &d.terms, &mut s);
    }
    match kind {
        DefenseKind::Dodge if undodgeable => {
            s.add(UNDODGEABLE, -c.undefendable_penalty);
        }
        DefenseKind::Block if unblockable => {
            s.add(UNBLOCKABLE, -c.undefendable_penalty);
        }
        DefenseKind::Deflect if !above_deflect_line(data, target) => {
            s.add(
                format!(
                    "{name} at {}/{} chakra or less",
                    c.deflect_chakra.numerator, c.deflect_chakra.denominator
                ),
                -c.deflect_low_chakra_penalty,
            );
        }
        _ => {}
    }
    if sneak_won {
        s.add("Sneak attack", -c.sneak.penalty);
    }
    s
}

/// True when `f` has more than the Deflect fraction of its maximum chakra.
pub fn above_deflect_line(data: &ShinobiData, f: &Fighter) -> bool {
    let fr = &data.combat.deflect_chakra;
    f.ki.current
        .saturating_mul(i64::from(fr.denominator.max(1)))
        > f.ki.max.saturating_mul(i64::from(fr.numerator))
}

/// The damage: the attack's stats plus its bonus, no dice (standard attacks deal "STR + WEP or
/// TAI"; a jutsu its base plus its modifying damage).
pub fn wound_spec(data: &ShinobiData, attacker: &Fighter, a: &AttackDef) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Wound);
    add_terms(data, attacker, &a.damage, &mut s);
    if a.damage_bonus != 0 {
        s.add(format!("{} base damage", a.name), a.damage_bonus);
    }
    s
}

/// Why a jutsu aimed at an ally rolls nothing: it heals.
pub const HEALING: &str = "an ally takes the jutsu as modifying healing";

/// The HP a jutsu aimed at an ally heals: its modifying damage, the ability and rank of its
/// `damage` stats, without its base ("If targeting an ally the user may apply this as
/// modifying healing").
pub fn healing(data: &ShinobiData, caster: &Fighter, a: &AttackDef) -> i64 {
    let mut s = RollSpec::new(RollKind::Amount("Modifying healing".into()));
    add_terms(data, caster, &a.damage, &mut s);
    s.modifiers.iter().map(|m| m.value).sum::<i64>().max(0)
}

/// Heals `target` by `caster`'s jutsu `a` aimed at it, up to its maximum HP, logged.
pub fn heal_ally(
    rules: &crate::ruleset::Rules,
    data: &ShinobiData,
    (caster, a): (&Fighter, &AttackDef),
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) {
    let to = (f.life.current + healing(data, caster, a)).min(f.life.max);
    crate::battle::effects::set_life(
        rules,
        f,
        crate::battle::event::Pool::Hp,
        to,
        crate::battle::effects::LifeCause::Healing,
        &format!("{}'s {} as modifying healing", caster.identity.name, a.name),
        log,
    );
}

/// Assembles a shinobi attack: one attack roll, each target's offered defenses (with the
/// sneak penalty for targets in `decl.sneak_won`; for a sneak attack not yet rolled, also the
/// chance of winning its contest and the defenses then), flat damage, concealment and partial
/// cover.
pub fn assemble(
    data: &ShinobiData,
    field: &Field,
    attacker: &Fighter,
    targets: &[&Fighter],
    decl: &Declaration,
) -> AttackContext {
    let Some(a) = attack(data, &decl.profile.id) else {
        return AttackContext::empty();
    };
    let strike = strike_spec(data, attacker, a);
    let defenses = |t: &Fighter, won: bool| -> Vec<(DefenseChoice, RollSpec)> {
        if a.genjutsu {
            return vec![(DefenseChoice::Resist, resist_spec(data, t, won))];
        }
        offered(data, field, t)
            .into_iter()
            .map(|k| (choice_of(k), defense_spec(data, t, a, k, won)))
            .collect()
    };
    // A jutsu aimed at an ally heals it: no roll, none of its other effects.
    let healed = |t: &Fighter| t.side == attacker.side && data.heals_allies(a);
    AttackContext {
        ki_cost: a.chakra,
        wager: 0,
        strike: strike.clone(),
        targets: targets
            .iter()
            .map(|t| {
                if healed(t) {
                    TargetContext {
                        automatic_hit: Some(HEALING),
                        ..TargetContext::new(
                            t.id,
                            attacker.distance_to(t),
                            strike.clone(),
                            defenses(t, false),
                        )
                    }
                } else {
                    TargetContext {
                        miss_chance: miss_chance(data, field, attacker, t),
                        absorb: absorb_against(data, field, attacker, t, a, decl.bystanders),
                        sneak: decl
                            .sneak
                            .then(|| (sneak_chance(data, attacker, t, a), defenses(t, true))),
                        knockback: knockback(data, field, attacker, t, targets, decl.bystanders, a),
                        ..TargetContext::new(
                            t.id,
                            attacker.distance_to(t),
                            strike.clone(),
                            defenses(t, decl.sneak_won.contains(&t.id)),
                        )
                    }
                }
            })
            .collect(),
        wound: wound_spec(data, attacker, a),
        reflected: None,
    }
}

/// The chance that `a` is at least `b` (the attacker wins ties).
fn prob_at_least(a: &Dist, b: &Dist) -> f64 {
    let mut p = 0.0;
    for (i, pa) in a.p.iter().enumerate() {
        let v = a.offset + i as i64;
        p += pa * b.cdf(v);
    }
    p
}

/// The chance that an attack roll beats or ties a defense roll, under the ruleset's tie rule.
pub fn hit_chance(data: &ShinobiData, strike: &RollSpec, defense: &RollSpec) -> f64 {
    let (s, d) = (distribution(strike), distribution(defense));
    match data.combat.ties {
        crate::ruleset::shinobi::TieWinner::Attacker => prob_at_least(&s, &d),
        crate::ruleset::shinobi::TieWinner::Defender => s.prob_greater(&d),
    }
}

/// The chance that the attacker wins a sneak contest with attack `a` against `defender`.
pub fn sneak_chance(
    data: &ShinobiData,
    attacker: &Fighter,
    defender: &Fighter,
    a: &AttackDef,
) -> f64 {
    let (a, d) = sneak_specs(data, attacker, defender, Some(a));
    let (a, d) = (distribution(&a), distribution(&d));
    match data.combat.sneak.ties {
        crate::ruleset::shinobi::TieWinner::Attacker => prob_at_least(&a, &d),
        crate::ruleset::shinobi::TieWinner::Defender => a.prob_greater(&d),
    }
}

/// The chance that an attack lands on this target answering `choice`: the roll beats or ties
/// the defense (or as the tie rule says), concealment aside; for a sneak attack not yet rolled,
/// the mixture of a won and a lost contest.
fn landing_chance(data: &ShinobiData, t: &TargetContext, choice: DefenseChoice) -> f64 {
    let miss = t.miss_chance.as_ref().map_or(0, |m| m.0.min(100));
    let plain = hit_chance(data, &t.strike, t.defense(choice));
    let rolled = match &t.sneak {
        Some((won, penalised)) => {
            let spec = penalised
                .iter()
                .find(|(c, _)| *c == choice)
                .map_or(t.defense(choice), |(_, s)| s);
            won * hit_chance(data, &t.strike, spec) + (1.0 - won) * plain
        }
        None => plain,
    };
    rolled * (1.0 - f64::from(miss) / 100.0)
}

/// The exact outcome of a shinobi attack on one target answering `choice`: hit (ties to the
/// attacker), a sneak contest, concealment, partial cover, damage and defeat.
pub fn target_odds(
    data: &ShinobiData,
    ctx: &AttackContext,
    t: &TargetContext,
    target: &Fighter,
    choice: DefenseChoice,
) -> TargetOdds {
    let defense = t.defense(choice);
    // A jutsu healing an ally: it lands, and hurts nothing.
    if t.automatic_hit == Some(HEALING) {
        return TargetOdds::lethal(
            t.id,
            choice,
            1.0,
            &Dist::point(0),
            target.life.current,
            &t.strike,
            RollSummary::of(defense),
        );
    }
    let hit = landing_chance(data, t, choice);
    let mut landed = landed_damage(&distribution(&ctx.wound), t.absorb.as_ref());
    if let Some(k) = &t.knockback {
        landed = landed.convolve(&k.dist());
    }
    let mut dist = Dist::point(0);
    dist.p[0] = 1.0 - hit;
    dist.mix(&landed, hit);
    TargetOdds::lethal(
        t.id,
        choice,
        hit,
        &dist,
        target.life.current,
        &t.strike,
        RollSummary::of(defense),
    )
}

/// Rolls the sneak-attack contest and logs it; true when the attacker wins.
pub fn roll_sneak(
    data: &ShinobiData,
    dice: &mut DiceSource,
    (attacker, profile): (&Fighter, &str),
    defender: &Fighter,
    log: &mut EventLog,
) -> bool {
    let (a, d) = sneak_specs(data, attacker, defender, attack(data, profile));
    let (ra, rd) = (roll(&a, dice), roll(&d, dice));
    let won = match data.combat.sneak.ties {
        crate::ruleset::shinobi::TieWinner::Attacker => ra.total >= rd.total,
        crate::ruleset::shinobi::TieWinner::Defender => ra.total > rd.total,
    };
    log.push(BattleEvent::SneakContest {
        attacker: attacker.id,
        defender: defender.id,
        attack: ra,
        defense: rd,
        won,
    });
    won
}

/// Where a push of `steps` squares straight away from `from` takes a target at `at`: it stops
/// before an obstruction (a square that cannot be entered, someone standing there, the map's
/// edge), which slams it, or on a drop, which it falls down.
pub fn push_path(
    at: Square,
    from: Square,
    steps: u32,
    blocked: impl Fn(Square) -> bool,
    drop: impl Fn(Square) -> bool,
) -> (Square, bool) {
    let dx = (at.x - from.x).signum();
    let dy = (at.y - from.y).signum();
    if (dx, dy) == (0, 0) || steps == 0 {
        return (at, false);
    }
    let mut now = at;
    for _ in 0..steps {
        let next = Square::new(now.x + dx, now.y + dy);
        if blocked(next) {
            return (now, true);
        }
        now = next;
        if drop(now) {
            break;
        }
    }
    (now, false)
}

/// The fall of `feet` for `f`.
pub fn fall(data: &ShinobiData, f: &Fighter, feet: u32) -> Fall {
    let rules = &data.combat.falling;
    let hurts = feet >= rules.min_feet;
    Fall {
        feet,
        damage: if hurts { i64::from(feet / 2) } else { 0 },
        acrobatics: hurts.then(|| {
            let mut s = base(data, RollKind::Skill(data.stat_name(&rules.skill).into()));
            add_terms(data, f, std::slice::from_ref(&rules.skill), &mut s);
            s
        }),
        // The DCs are half and a quarter of the distance exactly: a d20 total meets DC 7.5 at
        // 8, so each is the fraction rounded up (004:57 does not round them).
        negate_dc: i64::from(feet.div_ceil(2)),
        halve_dc: i64::from(feet.div_ceil(4)),
    }
}

/// Rolls a fall for `who` at `at`, logs it and returns the damage.
pub fn roll_fall(
    dice: &mut DiceSource,
    who: CombatantId,
    at: Square,
    f: &Fall,
    log: &mut EventLog,
) -> i64 {
    let r = f.acrobatics.as_ref().map(|s| roll(s, dice));
    let damage = r.as_ref().map_or(0, |r| fall_damage(f, r.total));
    log.push(BattleEvent::Fell {
        who,
        at,
        feet: f.feet,
        roll: r,
        negate_dc: f.negate_dc,
        halve_dc: f.halve_dc,
        damage,
    });
    damage
}

/// The fall of a step from `from` onto `to`: a drop square entered from one that is not a drop
/// (moving along the bottom of a drop does not fall again).
pub fn drop_between(field: &Field, from: Square, to: Square) -> Option<u32> {
    let drop = |s: Square| field.terrain(s).and_then(|t| t.drop);
    if from == to || drop(from).is_some() {
        return None;
    }
    drop(to)
}

/// The knockback of attack `a` by `attacker` on `target`: anyone in `targets` or `bystanders`
/// (everyone, when the caller knows them) stands in the way.
pub fn knockback(
    data: &ShinobiData,
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
    targets: &[&Fighter],
    bystanders: &[Fighter],
    a: &AttackDef,
) -> Option<Knockback> {
    if a.push == 0 {
        return None;
    }
    let (from, at) = (attacker.position?, target.position?);
    let size = target.size.squares;
    let stands = |o: &Fighter, s: Square| {
        o.id != target.id
            && !o.defeated()
            && o.position
                .is_some_and(|p| footprint(p, o.size.squares).contains(&s))
    };
    let occupied =
        |s: Square| targets.iter().any(|o| stands(o, s)) || bystanders.iter().any(|o| stands(o, s));
    let (to, stopped) = push_path(
        at,
        from,
        a.push,
        |s| {
            footprint(s, size)
                .iter()
                .any(|q| field.cost(q).is_none() || occupied(q))
        },
        |s| field.terrain(s).is_some_and(|t| t.drop.is_some()),
    );
    let fall = drop_between(field, at, to).map(|feet| fall(data, target, feet));
    Some(Knockback {
        to,
        slam: stopped
            .then(|| slam_damage(data, attacker, a))
            .filter(|s| s.0 > 0),
        fall,
    })
}

/// Slam damage for an attack: "equal to the attacking Character's Ability Rank used to make the
/// attack" (the first ability among the stats it hits with).
pub fn slam_damage(data: &ShinobiData, attacker: &Fighter, a: &AttackDef) -> (i64, String) {
    let is_ability = |id: &str| {
        data.combat
            .stats
            .iter()
            .any(|s| s.id == id && s.kind == crate::ruleset::shinobi::StatKind::Ability)
    };
    let stat = a
        .hit
        .iter()
        .find(|s| is_ability(s))
        .or(a.hit.first())
        .map_or("", String::as_str);
    (
        attacker.attributes.get(stat).max(0),
        format!("{} {}", data.stat_name(stat), attacker.attributes.get(stat)),
    )
}

/// Opportunity attacks: the opponent's reach must have been entered during this move and is
/// now being left ("move into and out of the … range"). `visited` is every square the mover has
/// stood on this move, the start first. Returns the square where it entered the reach.
pub fn entered_reach(visited: &[Square], mover_size: u32, opponent: &Fighter) -> Option<Square> {
    let p = opponent.position?;
    let reach = opponent.size.melee_range;
    let inside = |s: Square| footprint_distance(s, mover_size, p, opponent.size.squares) <= reach;
    let last_out = visited.iter().rposition(|s| !inside(*s))?;
    visited.get(last_out + 1).copied()
}
