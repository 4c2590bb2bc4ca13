//! d20 grenades and splash weapons ("How do grenades and splash weapons work?"): a throw aimed
//! at a square, a blast centred on one of its corners (each 5 over the DC strikes off one the
//! thrower does not want), a miss that lands off target and lies live until the thrower's next
//! turn, a throw-back at a higher DC whose every miss is a critical failure, a critical
//! failure that goes off near the thrower at once, and a Roll check for half the damage.
//!
//! The aim roll, the DC and the Roll check are built here once; [`crate::battle::family::d20::assemble`] puts
//! them in the attack context, the preview reads the chances [`catch_chance`] works out from
//! the same geometry [`throw`] and [`detonate_due`] resolve with.

use std::collections::BTreeMap;

use crate::battle::components::CombatantId;
use crate::battle::context::BlastCatch;
use crate::battle::event::BattleEvent;
use crate::battle::fighter::Fighter;
use crate::battle::state::{AttackState, Resolve, TargetState};
use crate::dice::{Dist, RollKind, RollSpec, roll};
use crate::grid::area::covered;
use crate::grid::{Dir8, Field, LiveGrenade, Square, chebyshev, footprint};
use crate::ruleset::d20::{BlastDef, D20AttackDef, D20Data, GrenadeRule, WeaponClass, WeaponDef};
use crate::ruleset::{AreaShape, Rules};

/// A grenade attack's parts, found once.
pub struct Grenade<'d> {
    pub attack: &'d D20AttackDef,
    pub weapon: &'d WeaponDef,
    pub blast: BlastDef,
    pub rule: &'d GrenadeRule,
}

/// Where a grenade goes off: the rules, the d20 tables, the field and everyone on it (whose
/// places the blast and the thrower's corners are read from).
#[derive(Clone, Copy)]
pub struct Scene<'a> {
    pub rules: &'a Rules,
    pub d: &'a D20Data,
    pub field: &'a Field<'a>,
    pub all: &'a [Fighter],
}

/// The grenade `profile` throws, if it is a grenade attack.
pub fn of<'d>(d: &'d D20Data, profile: &str) -> Option<Grenade<'d>> {
    let attack = d.attack(profile)?;
    let weapon = d
        .weapon(&attack.weapon)
        .filter(|w| w.class == WeaponClass::Grenade)?;
    Some(Grenade {
        attack,
        weapon,
        blast: weapon.blast?,
        rule: d.combat.grenade.as_ref()?,
    })
}

/// The corners of a square a blast may be centred on: the corner point's offset from the
/// square's north-west corner, and its name.
pub const CORNERS: [((i32, i32), &str); 4] = [
    ((0, 0), "north-west"),
    ((1, 0), "north-east"),
    ((0, 1), "south-west"),
    ((1, 1), "south-east"),
];

/// The blast's radius in squares from its corner.
pub fn radius(d: &D20Data, g: &Grenade) -> u32 {
    crate::ruleset::d20::blast_squares(&d.combat, &g.blast)
}

/// The squares a blast of radius `r` on `corner` of `at` covers: the 2r × 2r squares around
/// that corner (the square alone when `r` is 0) that the blast reaches from `at` (walls and
/// squares out of its sight are left out, as for every area).
pub fn blast_squares(field: &Field, at: Square, corner: usize, r: u32) -> Vec<Square> {
    let reach = covered(field, AreaShape::Sphere { radius: r }, at, 1, None, 1);
    on_corner(reach, at, corner, r)
}

/// [`blast_squares`] of each of the four corners of `at`, in [`CORNERS`] order: the area the
/// blast reaches is worked out once for all four.
pub fn blast_corners(field: &Field, at: Square, r: u32) -> [Vec<Square>; 4] {
    let reach = covered(field, AreaShape::Sphere { radius: r }, at, 1, None, 1);
    std::array::from_fn(|c| on_corner(reach.clone(), at, c, r))
}

/// The squares of `reach` within the blast of radius `r` on `corner` of `at`.
fn on_corner(reach: Vec<Square>, at: Square, corner: usize, r: u32) -> Vec<Square> {
    if r == 0 {
        return reach;
    }
    let ((cx, cy), _) = CORNERS[corner % 4];
    let r = r as i32;
    reach
        .into_iter()
        .filter(|s| {
            let (dx, dy) = (s.x - at.x - cx, s.y - at.y - cy);
            (-r..r).contains(&dx) && (-r..r).contains(&dy)
        })
        .collect()
}

/// How many of the four corners of `at` a blast of radius `r` on which would catch `f`.
fn corners_catching(field: &Field, f: &Fighter, at: Square, r: u32) -> usize {
    blast_corners(field, at, r)
        .iter()
        .filter(|squares| catches(f, squares))
        .count()
}

/// Whether a blast over `squares` catches `f`: standing, not defeated, a square of it inside.
pub fn catches(f: &Fighter, squares: &[Square]) -> bool {
    !f.defeated()
        && f.position.is_some_and(|p| {
            footprint(p, f.size.squares)
                .iter()
                .any(|s| squares.contains(&s))
        })
}

/// The corners of `at`, best first for the thrower: the most opponents caught less everyone
/// of its own side (itself included), ties in [`CORNERS`] order. "For each 5 over DC removes
/// one possible corner": the thrower strikes off the ones it wants least.
pub fn corner_ranking(
    field: &Field,
    fighters: &[&Fighter],
    thrower: &Fighter,
    at: Square,
    r: u32,
) -> Vec<usize> {
    let corners = blast_corners(field, at, r);
    let score = |c: usize| -> i64 {
        fighters
            .iter()
            .filter(|f| catches(f, &corners[c]))
            .map(|f| if f.side == thrower.side { -1 } else { 1 })
            .sum()
    };
    let mut order: Vec<(usize, i64)> = (0..CORNERS.len()).map(|c| (c, score(c))).collect();
    order.sort_by_key(|(c, s)| (-s, *c));
    order.into_iter().map(|(c, _)| c).collect()
}

/// Corners left to the die after a throw that met its DC with `margin` to spare.
pub fn corners_left(rule: &GrenadeRule, margin: i64) -> usize {
    let struck = (margin.max(0) / rule.step.max(1)).min(3);
    CORNERS.len() - struck as usize
}

/// How far `thrower` can throw `g`, in squares: "a number of range increments equal to the
/// throwers Str + Size + 1 for every 5 ranks in the Throw skill" (every size here is 0).
pub fn reach(d: &D20Data, g: &Grenade, thrower: &Fighter) -> u32 {
    let increments = thrower.attributes.get(&d.combat.strength.stat)
        + thrower.attributes.get(&g.weapon.skill) / 5;
    u32::try_from(increments.max(0))
        .unwrap_or(0)
        .saturating_mul(g.weapon.range_increment.unwrap_or(1))
}

/// The aim roll: 1d20 + the grenade's ability and skill.
pub fn aim_spec(d: &D20Data, g: &Grenade, thrower: &Fighter) -> RollSpec {
    crate::battle::family::d20::strike_spec(d, thrower, g.attack, 0, 0)
}

/// What the aim must meet: "normally DC 15", the range table's DC when that is higher, and
/// the throw-back's +5.
pub fn aim_dc(d: &D20Data, g: &Grenade, distance: u32) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Amount("Difficulty".into()));
    let (range, why) = crate::battle::family::d20::range_dc(&d.combat, g.weapon, distance);
    if range > g.rule.aim_dc {
        s.add(why, range);
    } else {
        s.add(
            format!("aim for a square, DC {}", g.rule.aim_dc),
            g.rule.aim_dc,
        );
    }
    if g.attack.throw_back {
        s.add(
            format!("thrown back: +{}", g.rule.throw_back),
            g.rule.throw_back,
        );
    }
    s
}

/// The cover a blast going off on `at` leaves `target`: the best cover feature beside it that
/// the line from `at` crosses. "The Cover (but not Concealment) bonus also applies to Reflex
/// saves", and "Area … attacks may bypass cover, if … blast has correct angle to target": a
/// feature on the far side of the target from the blast, or on neither line, is no cover.
pub fn blast_cover(field: &Field, at: Square, target: &Fighter) -> Option<(String, i64)> {
    crate::battle::context::cover_feature_from(field, [at], target, |_, t| t.cover_bonus)
        .map(|(_, t, b)| (format!("cover from the blast: {} +{b}", t.name), b))
}

/// The Roll check against the blast: 1d20 + the rule's stats and the cover the blast leaves
/// (see [`blast_cover`]), against the grenade's DC.
pub fn save_spec(
    d: &D20Data,
    g: &Grenade,
    target: &Fighter,
    cover: Option<(String, i64)>,
) -> RollSpec {
    let mut s = super::d20_base(d, RollKind::Amount(g.rule.save_name.clone()));
    for t in &g.rule.save {
        crate::battle::family::d20::add_stat(d, target, t, &mut s);
    }
    if let Some((label, bonus)) = cover {
        s.add(label, bonus);
    }
    s
}

/// The chance a Roll check with `cover` more meets the blast's DC (a natural 1 fails it).
pub fn save_chance(d: &D20Data, g: &Grenade, target: &Fighter, cover: i64) -> f64 {
    let cover = (cover != 0).then(|| ("cover".to_string(), cover));
    crate::battle::family::d20::success_chances(
        &save_spec(d, g, target, cover),
        g.blast.save_dc,
        None,
    )
    .values()
    .sum()
}

/// Where a grenade flying `steps` squares from `from` toward `dir` comes down: the last
/// square before a wall or the map's edge.
pub fn landing(field: &Field, from: Square, dir: Dir8, steps: u32) -> Square {
    let (dx, dy) = dir.step();
    let mut at = from;
    for _ in 0..steps {
        let next = Square::new(at.x + dx, at.y + dy);
        if !field.bounds().contains(next) || field.cost(next).is_none() {
            break;
        }
        at = next;
    }
    at
}

/// A direction as the log says it.
fn dir_name(d: Dir8) -> &'static str {
    match d {
        Dir8::N => "north",
        Dir8::NE => "north-east",
        Dir8::E => "east",
        Dir8::SE => "south-east",
        Dir8::S => "south",
        Dir8::SW => "south-west",
        Dir8::W => "west",
        Dir8::NW => "north-west",
    }
}

/// How far a miss by `under` lands from where it was aimed ("1 space + 1 space for every 5
/// under the DC") or, a critical failure, from the thrower (0: "detonating at the origin").
pub fn scatter(rule: &GrenadeRule, under: i64, critical: bool) -> u32 {
    let steps = u32::try_from(under.max(0) / rule.step.max(1)).unwrap_or(0);
    if critical { steps } else { steps + 1 }
}

/// How a throw of this aim total goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Met the DC by this much: it goes off on a corner of the square aimed at.
    Hit(i64),
    /// Missed by this much: it lands off target and lies live until the thrower's next turn.
    Miss(i64),
    /// A critical failure (a natural 1 that would have failed anyway, or any miss of a
    /// throw-back): it goes off at once where it lands near the thrower.
    Fumble(i64),
}

/// The outcome of an aim `total` against `dc`; `natural_one` always fails.
pub fn outcome(g: &Grenade, total: i64, natural_one: bool, dc: i64) -> Outcome {
    if total >= dc && !natural_one {
        Outcome::Hit(total - dc)
    } else if total < dc && (natural_one || g.attack.throw_back) {
        Outcome::Fumble(dc - total)
    } else {
        Outcome::Miss((dc - total).max(0))
    }
}

/// Where a throw by `thrower` at `aim` (DC `dc`) may catch `target` in its blast now: a hit
/// on one of the corners left to the die, or a critical failure near the thrower, each with
/// the cover the blast's square leaves the target. `fighters` are those whose places decide
/// the thrower's corners (the template's).
pub fn catch_chance(
    d: &D20Data,
    g: &Grenade,
    field: &Field,
    thrower: &Fighter,
    fighters: &[&Fighter],
    (aim, dc): (Square, i64),
    target: &Fighter,
) -> BlastCatch {
    let r = radius(d, g);
    let spec = aim_spec(d, g, thrower);
    let (dist, p1) = crate::battle::family::d20::without_natural_one(&spec);
    let ranking = corner_ranking(field, fighters, thrower, aim, r);
    let caught_on: Vec<bool> = blast_corners(field, aim, r)
        .iter()
        .map(|squares| catches(target, squares))
        .collect();
    let cover_at = |at: Square| blast_cover(field, at, target).map_or(0, |c| c.1);
    let aim_cover = cover_at(aim);
    let mut by_cover: BTreeMap<i64, f64> = BTreeMap::new();
    let add = |by_cover: &mut BTreeMap<i64, f64>, bonus: i64, p: f64| {
        if p > 0.0 {
            *by_cover.entry(bonus).or_insert(0.0) += p;
        }
    };
    let on_hit = |margin: i64| -> f64 {
        let k = corners_left(g.rule, margin);
        ranking[..k].iter().filter(|c| caught_on[**c]).count() as f64 / k as f64
    };
    let from = thrower.position.unwrap_or(aim);
    // Each landing square of a critical failure, with the share of the throws it takes and
    // the cover there, worked out once per scatter distance (many totals scatter as far).
    let mut landings: BTreeMap<u32, Vec<(i64, f64)>> = BTreeMap::new();
    let mut on_fumble = |by_cover: &mut BTreeMap<i64, f64>, under: i64, p: f64| {
        let steps = scatter(g.rule, under, true);
        let found = landings.entry(steps).or_insert_with(|| {
            Dir8::ALL
                .iter()
                .map(|dir| {
                    let at = landing(field, from, *dir, steps);
                    let corners = corners_catching(field, target, at, r);
                    (cover_at(at), corners as f64 / (8.0 * CORNERS.len() as f64))
                })
                .collect()
        });
        for (cover, share) in found.iter() {
            add(by_cover, *cover, p * share);
        }
    };
    for (i, p) in dist.p.iter().enumerate() {
        if *p == 0.0 {
            continue;
        }
        let total = dist.offset + i as i64;
        match outcome(g, total, false, dc) {
            Outcome::Hit(m) => add(&mut by_cover, aim_cover, p * on_hit(m)),
            Outcome::Fumble(u) => on_fumble(&mut by_cover, u, *p),
            Outcome::Miss(_) => {}
        }
    }
    let one = 1 + spec.flat_total();
    if let Outcome::Fumble(u) = outcome(g, one, true, dc) {
        on_fumble(&mut by_cover, u, p1);
    }
    BlastCatch {
        by_cover: by_cover.into_iter().collect(),
        save: save_spec(d, g, target, blast_cover(field, aim, target)),
    }
}

/// The chances of a throw's three outcomes (hit, a miss that lies live, a critical failure).
pub fn outcome_chances(d: &D20Data, g: &Grenade, thrower: &Fighter, dc: i64) -> (f64, f64, f64) {
    let spec = aim_spec(d, g, thrower);
    let (dist, p1) = crate::battle::family::d20::without_natural_one(&spec);
    let (mut hit, mut miss, mut fumble) = (0.0, 0.0, 0.0);
    for (i, p) in dist.p.iter().enumerate() {
        match outcome(g, dist.offset + i as i64, false, dc) {
            Outcome::Hit(_) => hit += p,
            Outcome::Miss(_) => miss += p,
            Outcome::Fumble(_) => fumble += p,
        }
    }
    match outcome(g, 1 + spec.flat_total(), true, dc) {
        Outcome::Fumble(_) => fumble += p1,
        _ => miss += p1,
    }
    (hit, miss, fumble)
}

/// The damage a blast deals `target` if it is caught with `cover` to its Roll check: the
/// grenade's Effect Points as dice, halved (rounded down) on a Roll check that meets the DC,
/// then the armour's DR.
pub fn blast_damage(
    d: &D20Data,
    g: &Grenade,
    effect: &RollSpec,
    target: &Fighter,
    cover: i64,
) -> Dist {
    let wound = crate::battle::family::d20::wound_spec(d, effect, 0);
    let raw = crate::dice::distribution(&wound);
    let dr =
        crate::battle::family::d20::armour_dr(d, target, &g.weapon.damage_type).map_or(0, |x| x.0);
    let s = save_chance(d, g, target, cover);
    let mut out = Dist::empty();
    out.mix(&raw.map(|v| (v - dr).max(0)), 1.0 - s);
    out.mix(&raw.map(|v| (v / 2 - dr).max(0)), s);
    out
}

/// The grenade a live one on the map is (its weapon's throwing attack).
pub fn of_live<'d>(d: &'d D20Data, l: &LiveGrenade) -> Option<Grenade<'d>> {
    d.combat
        .attacks
        .iter()
        .find(|a| a.weapon == l.weapon && !a.throw_back)
        .and_then(|a| of(d, &a.id))
}

/// The damage `f` can expect from the live grenades if it stands on `at` when they go off:
/// for each, the share of its four corners whose blast would reach it times the blast's mean
/// damage to it (for the computer player's choice of where to stand).
pub fn live_risk(d: &D20Data, field: &Field, f: &Fighter, at: Square) -> f64 {
    let mut there = f.clone();
    there.position = Some(at);
    field
        .map
        .grenades
        .iter()
        .filter_map(|l| {
            let g = of_live(d, l)?;
            let r = radius(d, &g);
            let corners = corners_catching(field, &there, l.at, r);
            if corners == 0 {
                return None;
            }
            let effect = crate::battle::family::d20::effect_spec(d, f, g.attack, 0, 0);
            let cover = blast_cover(field, l.at, &there).map_or(0, |c| c.1);
            Some(
                corners as f64 / CORNERS.len() as f64
                    * blast_damage(d, &g, &effect, &there, cover).mean(),
            )
        })
        .sum()
}

/// The live grenade of `weapon` on or beside `at` that a throw-back picks up (the first).
pub fn live_beside(live: &[LiveGrenade], at: Square, weapon: &str) -> Option<usize> {
    live.iter()
        .position(|l| l.weapon == weapon && chebyshev(l.at, at) <= 1)
}

/// The grenade rules that forbid a throw now: none left to throw (or none live to throw
/// back), a square beyond the thrower's reach, or one whose blast could reach the thrower.
pub fn check(
    d: &D20Data,
    g: &Grenade,
    field: &Field,
    thrower: &Fighter,
    aim: Option<Square>,
) -> Result<(), crate::battle::command::RuleError> {
    use crate::battle::command::RuleError;
    let name = g.weapon.name.clone();
    let at = thrower.position.ok_or(RuleError::Absorbed(thrower.id))?;
    if g.attack.throw_back {
        if live_beside(&field.map.grenades, at, &g.weapon.id).is_none() {
            return Err(RuleError::NoLiveGrenade {
                who: thrower.id,
                grenade: name,
            });
        }
    } else if carried(d, g, thrower) == 0 {
        return Err(RuleError::NoGrenadesLeft {
            who: thrower.id,
            grenade: name,
        });
    }
    let Some(aim) = aim else {
        return Ok(());
    };
    let distance = chebyshev(at, aim);
    let most = reach(d, g, thrower);
    if distance > most {
        return Err(RuleError::ThrowTooFar {
            who: thrower.id,
            grenade: name,
            distance,
            reach: most,
        });
    }
    if distance <= radius(d, g) {
        return Err(RuleError::BlastCatchesThrower {
            who: thrower.id,
            grenade: name,
        });
    }
    Ok(())
}

/// Grenades of `g`'s kind `thrower` still carries.
pub fn carried(d: &D20Data, g: &Grenade, thrower: &Fighter) -> u32 {
    let has = d
        .character(&thrower.identity.archetype)
        .and_then(|c| c.grenades.get(&g.weapon.id))
        .copied()
        .unwrap_or(0);
    let thrown = thrower
        .encounter
        .grenades_thrown
        .get(&g.weapon.id)
        .copied()
        .unwrap_or(0);
    has.saturating_sub(thrown)
}

/// Throws the grenade of the attack in `state`: the aim against the DC; a hit goes off on a
/// corner of the square aimed at that the die picks from those left; a miss lands off target
/// and lies live on the map; a critical failure goes off at once where it lands near the
/// thrower. `state.targets` ends up with everyone the blast caught marked hit.
pub fn throw(
    scene: &Scene,
    live: &mut Vec<LiveGrenade>,
    thrower: &Fighter,
    effect: &RollSpec,
    state: &mut AttackState,
    res: &mut Resolve,
) {
    let Scene { d, field, all, .. } = *scene;
    let (dice, q, log) = (&mut *res.dice, &mut *res.q, &mut *res.log);
    let Some(g) = of(d, &state.order.profile) else {
        return;
    };
    let (Some(from), Some(aim)) = (thrower.position, state.order.target.square()) else {
        return;
    };
    let who = thrower.id;
    let name = g.weapon.name.clone();
    if g.attack.throw_back {
        if let Some(i) = live_beside(live, from, &g.weapon.id) {
            let l = live.remove(i);
            log.push(BattleEvent::Blast {
                who,
                text: format!(
                    "{} picks up the live {name} at {} to throw it back",
                    thrower.identity.name, l.at
                ),
            });
        }
    } else if let Some(mut f) = q.one_mut(who) {
        *f.encounter
            .grenades_thrown
            .entry(g.weapon.id.clone())
            .or_insert(0) += 1;
    }
    let spec = aim_spec(d, &g, thrower);
    let dc_spec = aim_dc(d, &g, chebyshev(from, aim));
    let dc = dc_spec.flat_total();
    let r = roll(&spec, dice);
    let natural_one = r.natural == Some(1);
    let total = r.total;
    let why: Vec<String> = dc_spec.modifiers.iter().map(|m| m.label.clone()).collect();
    let result = outcome(&g, total, natural_one, dc);
    log.push(BattleEvent::CheckRolled {
        who,
        purpose: format!("aims the {name} at {aim} ({})", why.join(", ")),
        roll: r,
        target: dc,
        passed: matches!(result, Outcome::Hit(_)),
    });
    let radius = radius(d, &g);
    let everyone: Vec<&Fighter> = all.iter().collect();
    let (at, corner) = match result {
        Outcome::Hit(margin) => {
            let ranking = corner_ranking(field, &everyone, thrower, aim, radius);
            let k = corners_left(g.rule, margin);
            let pick = if k > 1 {
                dice.roll(k as u32) as usize
            } else {
                1
            };
            let corner = ranking[pick.clamp(1, k) - 1];
            let struck = CORNERS.len() - k;
            let how = match (struck, k) {
                (0, _) => format!("the d{k} picks {pick}"),
                (_, 1) => format!(
                    "{struck} corners struck off for beating the DC by {margin}: one is left"
                ),
                _ => format!(
                    "{struck} corner(s) struck off for beating the DC by {margin}, the d{k} picks {pick} of those left"
                ),
            };
            log.push(BattleEvent::Blast {
                who,
                text: format!(
                    "The {name} lands on {aim}; {how}: it goes off on the {} corner",
                    CORNERS[corner].1
                ),
            });
            (aim, corner)
        }
        Outcome::Miss(under) => {
            let steps = scatter(g.rule, under, false);
            let dir = Dir8::ALL[(dice.roll(8) as usize).clamp(1, 8) - 1];
            let to = landing(field, aim, dir, steps);
            live.push(LiveGrenade {
                at: to,
                thrower: who.0,
                weapon: g.weapon.id.clone(),
            });
            log.push(BattleEvent::Blast {
                who,
                text: format!(
                    "The {name} misses by {under}: the d8 sends it {steps} square(s) {} of {aim}, to {to}, where it lies live until {}'s next turn starts",
                    dir_name(dir),
                    thrower.identity.name
                ),
            });
            for t in state.targets.iter_mut() {
                t.hit = Some(false);
            }
            return;
        }
        Outcome::Fumble(under) => {
            let steps = scatter(g.rule, under, true);
            let dir = Dir8::ALL[(dice.roll(8) as usize).clamp(1, 8) - 1];
            let to = landing(field, from, dir, steps);
            let corner = (dice.roll(4) as usize).clamp(1, 4) - 1;
            log.push(BattleEvent::Blast {
                who,
                text: format!(
                    "Critical failure: the {name} comes down {steps} square(s) {} of {}, at {to}, and goes off at once on its {} corner (the d4)",
                    dir_name(dir),
                    thrower.identity.name,
                    CORNERS[corner].1
                ),
            });
            (to, corner)
        }
    };
    let caught = detonate(
        scene,
        &g,
        (at, corner),
        thrower,
        effect,
        &mut Resolve { dice, q, log },
    );
    for t in state.targets.iter_mut() {
        t.hit = Some(caught.iter().any(|(id, _)| *id == t.id));
    }
    for (id, damage) in caught {
        match state.targets.iter_mut().find(|t| t.id == id) {
            Some(t) => t.damage = damage,
            None => state.targets.push(TargetState {
                id,
                defense: None,
                hit: Some(true),
                damage,
                counter: None,
                success: None,
                half: false,
                interceded: false,
            }),
        }
    }
}

/// A blast on `corner` of `at`: one damage roll, then everyone caught makes its Roll check
/// (half on a success), the armour's DR comes off (wearing it when passed) and the rest is
/// lost. Returns who was caught and the damage each took.
pub fn detonate(
    scene: &Scene,
    g: &Grenade,
    (at, corner): (Square, usize),
    thrower: &Fighter,
    effect: &RollSpec,
    res: &mut Resolve,
) -> Vec<(CombatantId, i64)> {
    let Scene {
        rules,
        d,
        field,
        all,
    } = *scene;
    let (dice, q, log) = (&mut *res.dice, &mut *res.q, &mut *res.log);
    let squares = blast_squares(field, at, corner, radius(d, g));
    let caught: Vec<&Fighter> = all.iter().filter(|f| catches(f, &squares)).collect();
    let name = &g.weapon.name;
    if caught.is_empty() {
        log.push(BattleEvent::Blast {
            who: thrower.id,
            text: format!("The {name} goes off at {at} and catches nobody"),
        });
        return Vec::new();
    }
    let wound = roll(&crate::battle::family::d20::wound_spec(d, effect, 0), dice);
    let points = format!(
        "Effect Points {} ({})",
        effect.flat_total(),
        effect
            .modifiers
            .iter()
            .map(|m| m.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let raw = wound.total;
    log.push(BattleEvent::WoundRolled {
        attacker: thrower.id,
        roll: wound,
    });
    let mut out = Vec::new();
    for t in caught {
        let save = roll(&save_spec(d, g, t, blast_cover(field, at, t)), dice);
        let passed = save.natural != Some(1) && save.total >= g.blast.save_dc;
        log.push(BattleEvent::CheckRolled {
            who: t.id,
            purpose: format!(
                "{} against the {name}'s blast, to take half",
                g.rule.save_name
            ),
            roll: save,
            target: g.blast.save_dc,
            passed,
        });
        let dealt = if passed { raw / 2 } else { raw };
        let (dr, armour) = match crate::battle::family::d20::armour_dr(d, t, &g.weapon.damage_type)
        {
            Some((dr, a)) => (dr, Some(a)),
            None => (0, None),
        };
        let damage = (dealt - dr).max(0);
        let mut notes = vec![points.clone()];
        if passed {
            notes.push(format!("halved by the {}", g.rule.save_name));
        }
        if let Some(a) = &armour {
            notes.push(format!(
                "{a} stops {} {}",
                dealt.min(dr),
                d.damage_type_name(&g.weapon.damage_type)
            ));
        }
        log.push(BattleEvent::Damage {
            attacker: thrower.id,
            target: t.id,
            wound: dealt,
            category: crate::ruleset::Category::Lethal,
            soak: 0,
            soak_used: 0,
            damage,
            notes,
            flat: true,
        });
        if let Some(mut f) = q.one_mut(t.id) {
            if armour.is_some() && dealt > dr {
                crate::battle::family::d20::wear_armour(d, &mut f, log);
            }
            let to = f.life.current - damage;
            crate::battle::effects::set_life(
                rules,
                &mut f,
                crate::battle::event::Pool::Hp,
                to,
                crate::battle::effects::LifeCause::Damage {
                    by: Some(thrower.id),
                    attack: true,
                },
                &format!("{}'s {name}", thrower.identity.name),
                log,
            );
        }
        out.push((t.id, damage));
    }
    out
}

/// Sets off every live grenade `active` threw ("doesn't detonate until the start of your next
/// turn"), each on the corner of its square a d4 picks, and returns who each caught.
/// The grenades `active` threw that missed go off as its turn starts ("doesn't detonate until
/// the start of your next turn"), defeated or not; returns whom they caught.
pub fn set_off_due(
    rules: &Rules,
    d: &D20Data,
    active: CombatantId,
    ground: &mut crate::battle::state::Battleground,
    r: &mut Resolve,
) -> Vec<CombatantId> {
    let (due, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut ground.0.grenades)
        .into_iter()
        .partition(|l| l.thrower == active.0);
    ground.0.grenades = keep;
    // Every d20 turn passes here: look at the fighters only when a grenade is due.
    if due.is_empty() {
        return Vec::new();
    }
    let all = r.q.snapshots();
    let Some(me) = all.iter().find(|f| f.id == active) else {
        return Vec::new();
    };
    let field = ground.field(rules);
    detonate_due(rules, d, &field, due, me, r)
}

pub fn detonate_due(
    rules: &Rules,
    d: &D20Data,
    field: &Field,
    due: Vec<LiveGrenade>,
    active: &Fighter,
    r: &mut Resolve,
) -> Vec<CombatantId> {
    let mut caught = Vec::new();
    for l in due {
        let Some(g) = of_live(d, &l) else {
            continue;
        };
        let corner = (r.dice.roll(4) as usize).clamp(1, 4) - 1;
        r.log.push(BattleEvent::Blast {
            who: active.id,
            text: format!(
                "{}'s {} at {} goes off on its {} corner (the d4)",
                active.identity.name, g.weapon.name, l.at, CORNERS[corner].1
            ),
        });
        let effect = crate::battle::family::d20::effect_spec(d, active, g.attack, 0, 0);
        let snap = r.q.snapshots();
        let scene = Scene {
            rules,
            d,
            field,
            all: &snap,
        };
        let hit = detonate(&scene, &g, (l.at, corner), active, &effect, r);
        caught.extend(hit.into_iter().map(|(id, _)| id));
    }
    caught
}
