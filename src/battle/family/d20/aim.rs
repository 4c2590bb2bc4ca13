//! The d20 aim panel and defense prompt: actions spent, the range difficulty each target's
//! shot must meet, exploding odds, the Effect Points a hit turns into dice, a grenade's
//! throw and blast, and the live grenades lying on the field.

use super::grenade::{self, Grenade};
use super::swift::SwiftPay;
use crate::battle::aim::{
    AimContext, AimOption, AimView, MoveHelp, pct, roll_lines, target_lines, terms,
};
use crate::battle::bar::BarView;
use crate::battle::command::DefenseChoice;
use crate::battle::components::CombatantId;
use crate::battle::event::Names;
use crate::battle::fighter::Fighter;
use crate::battle::odds::TargetOdds;
use crate::grid::{Map, Square};
use crate::ruleset::d20::D20Data;

/// What lying prone changes, in the second person, for prompts.
fn prone_terms(d: &D20Data) -> String {
    match d.combat.prone.as_ref() {
        Some(p) => format!(
            "shots +{}, your Dodge against melee -{}, until you move",
            p.shots, p.melee
        ),
        None => "until you move".into(),
    }
}

/// A d20 answer's name, with what it costs.
pub fn answer_name(d: &D20Data, choice: DefenseChoice) -> String {
    match choice {
        DefenseChoice::Dodge => "Dodge".into(),
        DefenseChoice::Parry | DefenseChoice::Block => "Parry (with a parry feat)".into(),
        DefenseChoice::Deflect | DefenseChoice::Reflect | DefenseChoice::Resist => {
            choice.name().into()
        }
        DefenseChoice::Take => "Take the shot (no roll, no action)".into(),
        DefenseChoice::Dive => format!(
            "Dive for cover (the Dodge check your dive on your turn kept, else your next Move action; you land prone, {})",
            prone_terms(d)
        ),
        DefenseChoice::DropProne => format!(
            "Drop prone (immediate action: your Swift action, or your attack of opportunity once it is spent; {})",
            prone_terms(d)
        ),
    }
}

/// A d20 answer in the defense prompt: taking the shot as it is, dropping prone with the DC the
/// shot must now meet, any other with this defender's own roll.
pub fn answer_label(d: &D20Data, o: &TargetOdds) -> String {
    let what = answer_name(d, o.defense);
    match o.defense {
        DefenseChoice::Take => what,
        DefenseChoice::DropProne => {
            // No roll: the shot's DC rises.
            let dc: i64 = o
                .difficulty
                .iter()
                .flat_map(|d| &d.terms)
                .filter_map(|t| t.value)
                .sum();
            format!("{what}: DC {dc}")
        }
        _ => {
            // This defender's own roll (a Deflecting Parry rolls DEX, a sai adds 1…), from the
            // same summary the odds come from.
            let terms: Vec<String> = o
                .defense_roll
                .terms
                .iter()
                .map(|t| match (&t.die, t.value) {
                    (Some(d), _) => d.clone(),
                    (None, Some(v)) => format!("{} {v:+}", t.label),
                    _ => t.label.clone(),
                })
                .collect();
            format!("{} ({})", what, terms.join(", "))
        }
    }
}

/// Moving in d20: an action, the round's first one-square step free, and what provokes.
pub fn move_help() -> MoveHelp {
    MoveHelp {
        text: "Moving (1 action; the round's first one-square step is free): click a lit square.\nMoving provokes nothing; shooting with an enemy blade beside you provokes its attack of opportunity.".into(),
        boost: false,
    }
}

/// The grenades lying live, one line each: everyone's business until they go off.
pub fn field_notes(d: &D20Data, map: &Map, names: &Names) -> Vec<String> {
    map.grenades
        .iter()
        .map(|l| {
            let by = names
                .get(&CombatantId(l.thrower))
                .cloned()
                .unwrap_or_default();
            let name = d.weapon(&l.weapon).map_or(l.weapon.as_str(), |w| w.name.as_str());
            format!(
                "Live {name} at {}: goes off when {by}'s turn starts (red: where its blast can reach)",
                l.at
            )
        })
        .collect()
}

/// The panel: a grenade's throw and blast, or an attack's actions, each target's difficulty,
/// exploding odds, and the rolls with the Effect Points a hit turns into dice.
pub fn aim_view(d: &D20Data, a: &AimContext) -> AimView {
    if let Some(g) = grenade::of(d, &a.order.profile) {
        return grenade_view(d, &g, a);
    }
    let p = a.preview;
    let cost = a
        .fighter(a.order.attacker)
        .map_or(1, |f| super::cost_now(d, f, &a.order.profile));
    let mut head = if cost == 0 {
        format!("{}: next swing of the full round (free)", p.odds.maneuver)
    } else {
        format!("{}: {cost} action(s)", p.odds.maneuver)
    };
    // The Power Attack this attack is made with: chosen now, or in effect since the turn's
    // first attack.
    if let (Some(me), Some(attack)) = (a.fighter(a.order.attacker), d.attack(&a.order.profile)) {
        let n = super::power_attack_of(d, me, attack, a.order.power_attack);
        if n > 0 && me.encounter.power_attack.is_some() {
            head.push_str(&format!(
                ", Power Attack {n} (in effect until your next turn)"
            ));
        } else if n > 0 {
            head.push_str(&format!(", Power Attack {n} (stays until your next turn)"));
        }
    }
    if a.order.aimed.armour_gaps {
        head.push_str(", aimed at the armour's gaps");
    }
    if a.order.aimed.through_cover {
        head.push_str(", through the cover");
    }
    let mut lines = Vec::new();
    for t in &p.context.targets {
        if let Some(dc) = &t.difficulty {
            let why: Vec<String> = dc.modifiers.iter().map(|m| m.label.clone()).collect();
            lines.push(format!(
                "{}: must meet DC {} ({}){}",
                a.name(t.id),
                dc.flat_total(),
                why.join("; "),
                if t.defenses.is_empty() {
                    ", no defense possible"
                } else {
                    " and its defense roll"
                }
            ));
        }
        for note in super::aimed::hit_notes(t) {
            lines.push(format!("{}: {note}", a.name(t.id)));
        }
    }
    let undefended = |o: &TargetOdds| {
        p.context
            .targets
            .iter()
            .any(|t| t.id == o.target && t.defenses.is_empty())
    };
    lines.extend(target_lines(a, true, undefended));
    let mut rolls = Vec::new();
    if let Some(first) = p.odds.targets.first().and_then(|v| v.first()) {
        rolls.push(format!(
            "{}  (natural 1 fails; natural 20 adds a d20)",
            terms(&first.strike)
        ));
        let first_undefended = p
            .context
            .targets
            .first()
            .is_some_and(|t| t.defenses.is_empty());
        if !first_undefended {
            // Taking the shot rolls nothing: no line for it.
            for o in p.odds.targets.first().into_iter().flatten() {
                if !o.defense_roll.terms.is_empty() {
                    rolls.push(terms(&o.defense_roll));
                }
            }
        }
        rolls.push(format!(
            "{}\n+ the Success Value, then 1d{} per {} Effect Points",
            terms(&p.odds.wound),
            d.combat.effect_table.die,
            d.combat.effect_table.per_die,
        ));
    } else {
        rolls.extend(roll_lines(a).into_iter().last());
    }
    AimView {
        head,
        option: if a.max_wager > 0 {
            AimOption::PowerAttack {
                amount: a.order.power_attack,
                max: a.max_wager,
            }
        } else {
            AimOption::None
        },
        lines,
        rolls,
    }
}

/// A grenade's panel: the DC to the square, the chances of a hit (a blast on a corner of it),
/// a miss (it lies live until the thrower's next turn) and a critical failure (it goes off near
/// the thrower), the Roll check that halves, and each unit's chance of being caught now with
/// its damage -- all from the preview the throw resolves with.
fn grenade_view(d: &D20Data, g: &Grenade, a: &AimContext) -> AimView {
    let p = a.preview;
    let me = a.fighter(a.order.attacker);
    let head = if g.attack.throw_back {
        format!("{}: 1 action, the live grenade beside you", g.weapon.name)
    } else {
        format!(
            "{}: 1 action, {} left",
            g.weapon.name,
            me.map_or(0, |me| grenade::carried(d, g, me))
        )
    };
    let mut lines = Vec::new();
    let (Some(me), Some(tc)) = (me, p.context.targets.first()) else {
        return AimView {
            head,
            option: AimOption::None,
            lines,
            rolls: Vec::new(),
        };
    };
    if let Some(dc) = &tc.difficulty {
        let why: Vec<String> = dc.modifiers.iter().map(|m| m.label.clone()).collect();
        let (hit, miss, fumble) = grenade::outcome_chances(d, g, me, dc.flat_total());
        lines.push(format!(
            "Aim DC {} ({})\nHit {}: goes off on a corner of that square (each {} over strikes off the corner you want least)\nMiss {}: lands off target, goes off at the start of your next turn\nCritical failure {}: goes off near you at once",
            dc.flat_total(),
            why.join("; "),
            pct(hit),
            g.rule.step,
            pct(miss),
            pct(fumble)
        ));
    }
    for answers in &p.odds.targets {
        let Some(o) = answers.first() else {
            continue;
        };
        lines.push(format!(
            "{}: caught {}  |  mean {:.1}  |  defeat {}",
            a.name(o.target),
            pct(o.hit_chance),
            o.expected_damage,
            pct(o.defeat_chance)
        ));
    }
    let mut rolls = Vec::new();
    if let Some(o) = p.odds.targets.first().and_then(|v| v.first()) {
        let points = p.context.wound.flat_total();
        let t = &d.combat.effect_table;
        let (n, bonus) = super::effect_dice(t, points);
        rolls.push(format!(
            "{}  (natural 1 fails)\nEach caught: {} against DC {} for half\nBlast: {points} Effect Points = {n}d{}{bonus:+} {}, less armour DR",
            terms(&o.strike),
            terms(&o.defense_roll),
            g.blast.save_dc,
            t.die,
            d.damage_type_name(&g.weapon.damage_type)
        ));
    }
    AimView {
        head,
        option: AimOption::None,
        lines,
        rolls,
    }
}

/// The d20 bar: the actions left, a move's cost with the round's free step while it lasts, and
/// how dropping prone would be paid now.
pub fn bar_view(d: &D20Data, me: &Fighter) -> BarView {
    let step = super::step_left(d, me);
    let moves = if step > 0 {
        format!("Move 1 action (a {step}-square step is free, once a round)")
    } else {
        format!("Move {}AP", d.ap.combat.move_cost)
    };
    let drop_prone = super::swift::check_drop_prone(d, me, true)
        .ok()
        .map(|how| match how {
            SwiftPay::Swift => "swift action",
            SwiftPay::MoveAction => "trades a Move action for a swift action",
            SwiftPay::AttackOfOpportunity => "trades the attack of opportunity for a swift action",
        });
    BarView {
        drop_prone,
        dive: d.combat.prone.is_some() && super::dive::check_dive_in(d, me).is_ok(),
        ..BarView::plain(Some(me.actions.usable()), moves)
    }
}

/// Every live grenade's square and the squares its blast could reach (the widest blast of any
/// weapon, as the thrower's is not kept with it).
pub fn live_blasts(d: &D20Data, map: &Map) -> Vec<(Square, Vec<Square>)> {
    let radius = d
        .combat
        .weapons
        .iter()
        .filter_map(|w| w.blast)
        .map(|b| crate::ruleset::d20::blast_squares(&d.combat, &b))
        .max()
        .unwrap_or(0) as i32;
    map.grenades
        .iter()
        .map(|l| {
            let around = (-radius..=radius)
                .flat_map(|dy| (-radius..=radius).map(move |dx| (dx, dy)))
                .map(|(dx, dy)| Square::new(l.at.x + dx, l.at.y + dy))
                .collect();
            (l.at, around)
        })
        .collect()
}
