//! The odds panel: what the order being aimed would do, every die and modifier with the rule it
//! came from, from the same assembly that resolves it.

use bevy::prelude::*;

use super::{Keys, live_grenade_lines};
use crate::battle::command::DefenseChoice;
use crate::battle::odds::{RollSummary, TargetOdds};
use crate::gui::input::GameAction;
use crate::gui::session::{Intent, Session};
use crate::gui::view::BattleView;

/// The two answers to an attack, as this ruleset names them.
pub(super) fn defense_names(rules: &crate::ruleset::Rules) -> (&'static str, &'static str) {
    if rules.stages().is_some() {
        ("Take it", "Block (plays a defense card)")
    } else if rules.d20().is_some() {
        ("Dodge", "Parry (with a parry feat)")
    } else if rules.action_points().is_some() {
        ("Dodge", "Block (with a weapon)")
    } else {
        ("Dodge", "Parry (a Counter Action)")
    }
}

/// A shinobi defense's name with what it rolls ("Block (1d20 + DEX + WEP)").
pub(super) fn shinobi_answer(
    rules: &crate::ruleset::Rules,
    choice: DefenseChoice,
    name: String,
) -> String {
    use crate::ruleset::shinobi::DefenseKind;
    let kind = match choice {
        DefenseChoice::Block => DefenseKind::Block,
        DefenseChoice::Deflect => DefenseKind::Deflect,
        _ => DefenseKind::Dodge,
    };
    match rules.action_points().and_then(|d| d.defense(kind)) {
        Some(d) => format!(
            "{} (1d{} + {})",
            d.name,
            rules.action_points().map_or(20, |s| s.combat.die),
            d.terms.join(" + ")
        ),
        None => name,
    }
}

/// The key that answers with `choice` and its name in this ruleset.
pub(super) fn answer_key(
    rules: &crate::ruleset::Rules,
    choice: DefenseChoice,
    keys: &Keys,
) -> (String, String) {
    let (first, second) = defense_names(rules);
    match choice {
        DefenseChoice::Dodge => (keys.of(GameAction::Dodge).to_string(), first.to_string()),
        DefenseChoice::Parry | DefenseChoice::Block => {
            (keys.of(GameAction::Parry).to_string(), second.to_string())
        }
        DefenseChoice::Deflect => (keys.of(GameAction::Deflect).to_string(), "Deflect".into()),
        // d20, against a shot from beyond melee range: the Dodge key takes it, the Parry key
        // dives.
        DefenseChoice::Take => (
            keys.of(GameAction::Dodge).to_string(),
            "Take the shot (no roll, no action)".into(),
        ),
        DefenseChoice::Dive => (
            keys.of(GameAction::Parry).to_string(),
            format!(
                "Dive for cover (spends your next Move action; you land prone, {})",
                prone_terms(rules)
            ),
        ),
        // The Deflect key drops prone: an immediate action.
        DefenseChoice::DropProne => (
            keys.of(GameAction::Deflect).to_string(),
            format!(
                "Drop prone (immediate action: your Swift action, or your attack of opportunity once it is spent; {})",
                prone_terms(rules)
            ),
        ),
    }
}

/// What lying prone changes, in the second person, for prompts.
fn prone_terms(rules: &crate::ruleset::Rules) -> String {
    let prone = rules.d20().and_then(|d| d.combat.prone.as_ref());
    match prone {
        Some(p) => format!(
            "shots +{}, your Dodge against melee -{}, until you move",
            p.shots, p.melee
        ),
        None => "until you move".into(),
    }
}

/// A power-stages attack's outcome for one target and one answer.
pub(super) fn stage_target_line(name: &str, how: &str, t: &TargetOdds) -> String {
    format!(
        "{name} {how}: {}\n  -{} power stage(s), -{} life card(s)  |  defeat {}",
        t.automatic_hit.clone().unwrap_or_default(),
        t.stage_loss.unwrap_or(0),
        t.expected_damage,
        pct(t.defeat_chance)
    )
}

/// The panel while a Skill Check is being chosen: how it is paid, every square it may be made
/// on with its exact chance, and the one under the cursor with its roll, or why not there.
fn skill_text(
    session: &Session,
    view: &BattleView,
    keys: &Keys,
    way: crate::battle::command::SkillWay,
) -> String {
    use crate::battle::command::SkillWay;
    let again = keys.of(GameAction::UseSkill);
    let digimon = session.battle.rules().digimon().is_some();
    let paid = match way {
        SkillWay::Interrupt => {
            "free, with the round's Interrupt Action (no Intercede this round)".to_string()
        }
        SkillWay::TakeTen => {
            "Taking 10 for a Standard action: no roll, only where no foe can see the unit"
                .to_string()
        }
        SkillWay::Action if digimon => {
            format!("a Simple Action ({again} again: free, with the round's Interrupt Action)")
        }
        SkillWay::Action => {
            format!("a Standard action, rolled ({again} again: Take 10 where no foe sees you)")
        }
    };
    let mut out = format!("Use a Skill, {paid}: click a lit square beside the unit.");
    let offered: Vec<_> = view.skills.iter().filter(|o| o.way == way).collect();
    if offered.is_empty() {
        out.push_str(match way {
            SkillWay::Interrupt => {
                "\nThe Interrupt Action is spent this round (or the unit is Stunned or Paralysed)."
            }
            SkillWay::TakeTen => {
                "\nNot now: a foe can see the unit (under pressure), or no action is left."
            }
            SkillWay::Action => "\nNo action is left.",
        });
    }
    for o in &offered {
        out.push_str(&format!(
            "\n{} at {}: {} vs TN {} -> {}",
            o.check.name,
            o.at,
            pct(o.chance),
            o.check.target,
            o.becomes
        ));
    }
    match &view.skill_aim {
        Some(Ok(o)) => out.push_str(&format!(
            "\n\n{} at {}: {}\nAgainst TN {}: {} to succeed; the square becomes {}.",
            o.check.name,
            o.at,
            terms(&o.roll),
            o.check.target,
            pct(o.chance),
            o.becomes
        )),
        Some(Err(why)) => out.push_str(&format!("\n\nNot here: {why}")),
        None => {}
    }
    out
}

pub(super) fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

pub(super) fn terms(r: &RollSummary) -> String {
    let mut parts: Vec<String> = r
        .terms
        .iter()
        .map(|t| match (&t.die, t.value) {
            (Some(d), _) => format!("{d} {}", t.label),
            (None, Some(v)) => format!("{v:+} {}", t.label),
            (None, None) => t.label.clone(),
        })
        .collect();
    if let Some(c) = r.critical_target {
        parts.push(format!("crit on {c}+"));
    }
    if r.botch_range > 0 {
        parts.push(format!(
            "botch on <={} ({:+})",
            r.botch_range, r.botch_penalty
        ));
    }
    format!("{}: {}", r.kind, parts.join(", "))
}

/// Thresholds the attack may push the target through, with their chances (none if no
/// outcome reaches one).
fn threshold_text(t: &TargetOdds) -> String {
    let reachable: Vec<String> = t
        .threshold_chances
        .iter()
        .filter(|c| !c.already && c.chance > 0.0)
        .map(|c| format!("{} {}", c.threshold, pct(c.chance)))
        .collect();
    if reachable.is_empty() {
        "no Health Threshold reachable".into()
    } else {
        reachable.join("  ")
    }
}

fn target_line(name: &str, how: &str, t: &TargetOdds, exploding: bool) -> String {
    let lo = t
        .damage_distribution
        .iter()
        .find(|(d, p)| **d > 0 && **p > 0.0)
        .map_or(0, |(d, _)| *d);
    let hi = t
        .damage_distribution
        .keys()
        .next_back()
        .copied()
        .unwrap_or(0);
    if exploding {
        // d20 and Digimon: exploding dice leave a long, thin tail; say where 99.9 % of damaging
        // hits end.
        let hurts: f64 = t.damage_distribution.range(1..).map(|(_, p)| p).sum();
        let mut acc = 0.0;
        let typical = t
            .damage_distribution
            .range(1..)
            .find(|(_, p)| {
                acc += **p;
                acc >= 0.999 * hurts
            })
            .map_or(hi, |(d, _)| *d);
        let crit = if t.critical_hit_chance > 0.0 || t.difficulty.is_some() {
            format!(" (crit {})", pct(t.critical_hit_chance))
        } else {
            String::new()
        };
        if hi == 0 {
            return format!(
                "{name} {how}: hit {}{crit}  |  no damage",
                pct(t.hit_chance)
            );
        }
        return format!(
            "{name} {how}: hit {}{crit}\n  damage {lo}-{typical} (99.9% of damaging hits; up to {hi}), mean {:.1}  |  defeat {}",
            pct(t.hit_chance),
            t.expected_damage,
            pct(t.defeat_chance)
        );
    }
    if t.critical_hit_chance == 0.0 && t.threshold_chances.is_empty() {
        // A ruleset without criticals or thresholds (shinobi): what is left to say.
        return format!(
            "{name} {how}: hit {}  |  damage {lo}-{hi}, mean {:.1}  |  defeat {}",
            pct(t.hit_chance),
            t.expected_damage,
            pct(t.defeat_chance)
        );
    }
    format!(
        "{name} {how}: hit {} (crit {})\n  damage {lo}-{hi}, mean {:.1}\n  {}  |  defeat {}",
        pct(t.hit_chance),
        pct(t.critical_hit_chance),
        t.expected_damage,
        threshold_text(t),
        pct(t.defeat_chance)
    )
}

/// A grenade's aim panel: the DC to the square, the chances of a hit (a blast on a corner of
/// it), a miss (it lies live until the thrower's next turn) and a critical failure (it goes
/// off near the thrower), the Roll check that halves, and each unit's chance of being caught
/// now with its damage -- all from the preview the throw resolves with.
fn grenade_aim_text(
    session: &mut Session,
    d: &crate::ruleset::d20::D20Data,
    g: &crate::battle::family::d20::grenade::Grenade,
    order: &crate::battle::command::AttackOrder,
    p: &crate::battle::AttackPreview,
) -> String {
    use crate::battle::family::d20::grenade;
    let Some(me) = session.battle.fighter(order.attacker) else {
        return String::new();
    };
    let mut out = if g.attack.throw_back {
        format!(
            "{}: 1 action, the live grenade beside you
",
            g.weapon.name
        )
    } else {
        format!(
            "{}: 1 action, {} left
",
            g.weapon.name,
            grenade::carried(d, g, &me)
        )
    };
    let Some(tc) = p.context.targets.first() else {
        return out;
    };
    if let Some(dc) = &tc.difficulty {
        let why: Vec<String> = dc.modifiers.iter().map(|m| m.label.clone()).collect();
        let (hit, miss, fumble) = grenade::outcome_chances(d, g, &me, dc.flat_total());
        out.push_str(&format!(
            "Aim DC {} ({})\nHit {}: goes off on a corner of that square (each {} over strikes off the corner you want least)\nMiss {}: lands off target, goes off at the start of your next turn\nCritical failure {}: goes off near you at once\n",
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
        let tname = session.names.get(&o.target).cloned().unwrap_or_default();
        out.push_str(&format!(
            "{tname}: caught {}  |  mean {:.1}  |  defeat {}
",
            pct(o.hit_chance),
            o.expected_damage,
            pct(o.defeat_chance)
        ));
    }
    if let Some(o) = p.odds.targets.first().and_then(|v| v.first()) {
        let points = p.context.wound.flat_total();
        let t = &d.combat.effect_table;
        let (n, bonus) = crate::battle::family::d20::effect_dice(t, points);
        out.push_str(&format!(
            "{}  (natural 1 fails)\nEach caught: {} against DC {} for half\nBlast: {points} Effect Points = {n}d{}{bonus:+} {}, less armour DR",
            terms(&o.strike),
            terms(&o.defense_roll),
            g.blast.save_dc,
            t.die,
            d.damage_type_name(&g.weapon.damage_type)
        ));
    }
    out
}

/// One target of several, in two lines: every defense it has side by side.
fn compact_target_line(name: &str, answers: &[TargetOdds]) -> String {
    let join =
        |f: &dyn Fn(&TargetOdds) -> String| answers.iter().map(f).collect::<Vec<_>>().join(" / ");
    let hows = join(&|o| o.defense.name().to_lowercase());
    format!(
        "{name}: hit {} ({hows})\n  mean {}  |  defeat {}",
        join(&|o| pct(o.hit_chance)),
        join(&|o| format!("{:.1}", o.expected_damage)),
        join(&|o| pct(o.defeat_chance)),
    )
}

/// The head of a Digimon attack's preview: its action type, the tie rule, and for each target
/// the effect a hit gives it (potency and turns, as the rules would set them now).
fn digimon_aim_head(
    session: &mut Session,
    data: &crate::ruleset::shinobi::ShinobiData,
    d: &crate::ruleset::digimon::DigimonData,
    order: &crate::battle::command::AttackOrder,
    p: &crate::battle::AttackPreview,
) -> String {
    use crate::battle::family::digimon as dg;
    let me = session.battle.fighter(order.attacker);
    let ap = me.as_ref().map_or_else(
        || crate::battle::family::shinobi::ap_cost(data, &order.profile),
        |f| {
            crate::battle::family::shinobi::attack_ap(
                data,
                session.battle.rules().digimon(),
                f,
                &order.profile,
            )
        },
    );
    let action = if ap >= data.combat.action_points {
        "a Complex Action"
    } else {
        "a Simple Action"
    };
    let mut head = format!(
        "{}: {action} ({ap} AP)  |  the attacker wins ties\n",
        p.odds.maneuver
    );
    let Some((a, bolstered)) = dg::attack_of(d, &order.profile) else {
        return head;
    };
    let Some(me) = me else {
        return head;
    };
    for t in &p.context.targets {
        if let Some((_, why)) = &t.damage_less {
            head.push_str(&format!("{why}\n"));
        }
        let Some(target) = session.battle.fighter(t.id) else {
            continue;
        };
        if let Some(m) = a.clash {
            head.push_str(&clash_preview(d, m, &me, &target));
        }
    }
    let Some(kind) = a.effect else {
        return head;
    };
    let name = d.effect(kind).map_or("effect", |e| e.name.as_str());
    for t in &p.context.targets {
        let Some(target) = session.battle.fighter(t.id) else {
            continue;
        };
        let tname = session.names.get(&t.id).cloned().unwrap_or_default();
        let potency = dg::potency(d, kind, &me, &target, a.complex || bolstered, bolstered);
        let turns = dg::duration(d, kind, &me);
        let what = match kind {
            crate::ruleset::digimon::EffectKind::Knockback => {
                format!(
                    "knocked back {} squares",
                    dg::knockback_squares(d, &me, &target, bolstered)
                )
            }
            crate::ruleset::digimon::EffectKind::Lifesteal => {
                format!(
                    "{} heals up to {potency} HP (once a round)",
                    me.identity.name
                )
            }
            crate::ruleset::digimon::EffectKind::Haste => "+1 Simple Action next round".into(),
            _ if turns > 0 && potency == 0 => format!("{name} for {turns} turn(s)"),
            _ if turns > 0 => format!("{name} {potency} for {turns} turn(s)"),
            _ => format!("{name} {potency}"),
        };
        let when = if dg::helps(a) {
            "Given to"
        } else {
            "On a hit,"
        };
        head.push_str(&format!("{when} {tname}: {what}\n"));
    }
    head
}

/// What a Clash action will do, with the exact chances from the rolls that resolve it.
fn clash_preview(
    d: &crate::ruleset::digimon::DigimonData,
    m: crate::ruleset::digimon::ClashMove,
    me: &crate::battle::fighter::Fighter,
    target: &crate::battle::fighter::Fighter,
) -> String {
    use crate::battle::family::digimon::grapple as g;
    use crate::ruleset::digimon::ClashMove;
    match m {
        ClashMove::Start => {
            let mine = terms(&RollSummary::of(&g::check_spec(d, me, target)));
            let theirs = terms(&RollSummary::of(&g::check_spec(d, target, me)));
            format!(
                "Clash: {} controls {} ({mine} vs TN {}; {} {theirs} vs TN {})\n\
                 The one not in control may not act; neither may Dodge or move away.\n",
                me.identity.name,
                pct(g::control_chance(d, me, target, me.id)),
                g::tn(d, target),
                target.identity.name,
                g::tn(d, me),
            )
        }
        ClashMove::Pin => format!(
            "Pin succeeds {}: {} does not roll for control next round\n",
            pct(g::pin_chance(d, me, target)),
            target.identity.name
        ),
        ClashMove::End => "Ends the Clash: both are free, adjacent\n".into(),
        ClashMove::Throw => format!(
            "Throw: {} squares away, Damage stat minus Armor; the Clash ends\n",
            crate::battle::family::digimon::stat(d, me, crate::ruleset::digimon::BODY)
        ),
    }
}

pub(super) fn odds_text(session: &mut Session, view: &BattleView, keys: &Keys) -> String {
    let wager_keys = format!(
        "{}/{}",
        keys.of(GameAction::WagerDown),
        keys.of(GameAction::WagerUp)
    );
    let Intent::Attack { slot } = session.intent else {
        let live = live_grenade_lines(session);
        return live
            + &match session.intent {
            Intent::Skill { way } => skill_text(session, view, keys, way),
            Intent::Move { .. } if session.battle.rules().stages().is_some() => {
                "Moving: click a lit square.".to_string()
            }
            Intent::Move { .. }
                if session
                    .battle
                    .rules()
                    .d20().is_some() =>
            {
                "Moving (1 action; the round's first one-square step is free): click a lit square.\nMoving provokes nothing; shooting with an enemy blade beside you provokes its attack of opportunity.".to_string()
            }
            Intent::Move { .. } if session.battle.rules().action_points().is_some() => format!(
                "Moving ({} AP): click a lit square.\nRed path squares leave a reach the path entered: an opportunity attack (a hit stops you where you entered).\nStepping onto a drop from above is a fall (see the terrain's description).",
                session
                    .battle
                    .rules()
                    .action_points()
                    .map_or(1, |d| d.combat.move_cost)
            ),
            Intent::Move { boosted } => format!(
                "Moving at {} Speed: click a lit square.\nPale squares need Boosted Speed ({}).\nRed path squares provoke an Exploit.",
                if boosted { "Boosted" } else { "Normal" },
                keys.of(GameAction::BoostedMove)
            ),
            _ => format!(
                "Hover a unit to see it here.\n{}: move  |  {}-{}: aim an attack",
                keys.of(GameAction::Move),
                keys.of(GameAction::Slot1),
                keys.of(GameAction::Slot9)
            ),
        };
    };
    let max_wager = view.max_wager;
    let name = view
        .slots
        .get(slot)
        .map_or(String::new(), |s| s.name.clone());
    let stages = session.battle.rules().stages().is_some();
    let Some(aim) = &view.aim else {
        if stages {
            return format!("{name}: point at a target.");
        }
        if session.battle.rules().action_points().is_some()
            && !session.battle.rules().is_ninja_chapter()
        {
            return format!("{name}: point at a target.");
        }
        if session.battle.rules().action_points().is_some() {
            return format!(
                "{name}: point at a target.\nSneak attack {} ({})",
                if session.sneak { "ON" } else { "off" },
                keys.of(GameAction::Sneak)
            );
        }
        return format!(
            "{name}: point at a target.\nWager {} Ki ({wager_keys}, at most {max_wager})",
            session.wager
        );
    };
    match &aim.preview {
        Err(why) => format!("{name}: {why}"),
        Ok(p) if stages => {
            let mut out = format!(
                "{}: costs {} power stage(s); no roll\n",
                p.odds.maneuver, p.ki_cost
            );
            for answers in &p.odds.targets {
                let [take, block] = answers.as_slice() else {
                    continue;
                };
                let tname = session.names.get(&take.target).cloned().unwrap_or_default();
                out.push_str(&stage_target_line(&tname, "takes it", take));
                out.push('\n');
                out.push_str(&stage_target_line(&tname, "blocks", block));
                out.push('\n');
            }
            let taken: Vec<String> = p
                .odds
                .wound
                .terms
                .iter()
                .map(|t| format!("{:+} {}", t.value.unwrap_or(0), t.label))
                .collect();
            out.push_str(&format!("Takes: {}", taken.join(", ")));
            out
        }
        Ok(p) => {
            let rules = session.battle.rules().clone();
            let d20 = rules.action_points().zip(rules.d20());
            if let Some((_, d)) = d20
                && let Some(g) = crate::battle::family::d20::grenade::of(d, &aim.order.profile)
            {
                return grenade_aim_text(session, d, &g, &aim.order, p);
            }
            let mut out = if let Some((_, d)) = d20 {
                let cost = session.battle.fighter(aim.order.attacker).map_or(1, |f| {
                    crate::battle::family::d20::cost_now(d, &f, &aim.order.profile)
                });
                let mut head = if cost == 0 {
                    format!("{}: next swing of the full round (free)\n", p.odds.maneuver)
                } else {
                    format!("{}: {cost} action(s)\n", p.odds.maneuver)
                };
                for t in &p.context.targets {
                    let tname = session.names.get(&t.id).cloned().unwrap_or_default();
                    if let Some(dc) = &t.difficulty {
                        let why: Vec<String> =
                            dc.modifiers.iter().map(|m| m.label.clone()).collect();
                        head.push_str(&format!(
                            "{tname}: must meet DC {} ({}){}\n",
                            dc.flat_total(),
                            why.join("; "),
                            if t.defenses.is_empty() {
                                ", no defense possible"
                            } else {
                                " and its defense roll"
                            }
                        ));
                    }
                }
                head
            } else if let Some((data, d)) = rules.action_points().zip(rules.digimon()) {
                digimon_aim_head(session, data, d, &aim.order, p)
            } else if let Some(data) = session.battle.rules().action_points() {
                let ap = crate::battle::family::shinobi::ap_cost(data, &aim.order.profile);
                let mut head = format!(
                    "{}: {ap} AP, {} chakra  |  sneak attack {} ({})\n",
                    p.odds.maneuver,
                    p.ki_cost,
                    if session.sneak { "ON" } else { "off" },
                    keys.of(GameAction::Sneak)
                );
                for t in &p.context.targets {
                    let tname = session.names.get(&t.id).cloned().unwrap_or_default();
                    if let Some((won, _)) = &t.sneak {
                        head.push_str(&format!(
                            "{tname}: sneak contest won {} (-{} to its defenses); lost, it may strike first\n",
                            pct(*won),
                            data.combat.sneak.penalty
                        ));
                    }
                    if let Some((c, from)) = &t.miss_chance {
                        head.push_str(&format!("{tname}: {c}% miss chance ({from})\n"));
                    }
                    if let Some(a) = &t.absorb {
                        head.push_str(&format!(
                            "{tname}: partial cover, {} at {} absorbs up to {} ({}% of hits)\n",
                            a.name, a.at, a.left, a.chance
                        ));
                    }
                    if let Some(k) = &t.knockback {
                        let mut what = format!("{tname}: knocked to {}", k.to);
                        if let Some((slam, _)) = &k.slam {
                            what.push_str(&format!(", slam {slam}"));
                        }
                        if let Some(f) = &k.fall {
                            what.push_str(&format!(", falls {} ft", f.feet));
                        }
                        head.push_str(&what);
                        head.push('\n');
                    }
                }
                head
            } else {
                format!(
                    "{}: Ki {} (wager {} of at most {max_wager}: {wager_keys})\n",
                    p.odds.maneuver, p.ki_cost, p.odds.wager
                )
            };
            let exploding = d20.is_some() || rules.digimon().is_some();
            let several = p.odds.targets.len() > 1;
            for answers in &p.odds.targets {
                let Some(first) = answers.first() else {
                    continue;
                };
                let tname = session
                    .names
                    .get(&first.target)
                    .cloned()
                    .unwrap_or_default();
                if several {
                    out.push_str(&compact_target_line(&tname, answers));
                } else {
                    let lines: Vec<String> = answers
                        .iter()
                        .map(|o| {
                            let undefended = d20.is_some()
                                && p.context
                                    .targets
                                    .iter()
                                    .any(|t| t.id == o.target && t.defenses.is_empty());
                            let how = match (o.defense, &o.automatic_hit) {
                                _ if undefended => "cannot defend".to_string(),
                                (_, Some(why)) => format!("rolls no Dodge ({why})"),
                                (DefenseChoice::Dodge, None) => "dodges".into(),
                                (DefenseChoice::Parry, None) => "parries".into(),
                                (DefenseChoice::Block, None) => "blocks".into(),
                                (DefenseChoice::Deflect, None) => "deflects".into(),
                                (DefenseChoice::Take, None) => "takes the shot".into(),
                                (DefenseChoice::Dive, None) => "dives for cover".into(),
                                (DefenseChoice::DropProne, None) => "drops prone".into(),
                            };
                            target_line(&tname, &how, o, exploding)
                        })
                        .collect();
                    out.push_str(&lines.join("\n"));
                }
                out.push('\n');
            }
            if let Some(first) = p.odds.targets.first().and_then(|v| v.first()) {
                if d20.is_some() {
                    out.push_str(&format!(
                        "{}  (natural 1 fails; natural 20 adds a d20)\n",
                        terms(&first.strike)
                    ));
                    for o in p.odds.targets.first().into_iter().flatten() {
                        let undefended = p
                            .context
                            .targets
                            .first()
                            .is_some_and(|t| t.defenses.is_empty());
                        if !undefended {
                            out.push_str(&format!("{}\n", terms(&o.defense_roll)));
                        }
                    }
                    out.push_str(&format!(
                        "{}\n+ the Success Value, then 1d{} per {} Effect Points",
                        terms(&p.odds.wound),
                        rules.d20().map_or(6, |d| d.combat.effect_table.die),
                        rules.d20().map_or(10, |d| d.combat.effect_table.per_die),
                    ));
                    return out;
                } else if first.automatic_hit.is_some() && first.expected_damage == 0.0 {
                    // Digimon: a helping effect rolls nothing.
                    return out;
                } else {
                    out.push_str(&format!(
                        "{}\n{}\n",
                        terms(&first.strike),
                        terms(&first.defense_roll)
                    ));
                }
            }
            out.push_str(&terms(&p.odds.wound));
            out
        }
    }
}
