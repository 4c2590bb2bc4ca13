//! `gridclash odds` for the maneuvers that roll without an attack (DBU's Grapple, Pin, Absorb,
//! the escape and Hide; d20's feint): the exact chance of success and every roll with its
//! terms, from the same roll specs the maneuver resolves with.

use std::process::ExitCode;

use gridclash::battle::Battle;
use gridclash::battle::aim::terms;
use gridclash::battle::command::GrappleAct;
use gridclash::battle::components::{CombatantId, EncounterLog, GrappleHold};
use gridclash::battle::grapple::{chance, grapple_rolls};
use gridclash::battle::odds::RollSummary;
use gridclash::battle::odds_text::pct;
use gridclash::ruleset::Rules;

/// A maneuver `gridclash odds --maneuver` may name besides an attack.
#[derive(Debug, Clone, Copy)]
pub enum Maneuver {
    Grapple(GrappleAct),
    Hide,
    Feint,
}

/// The maneuver `word` names: `grapple`, `pin`, `absorb`, `escape` (with one Action), `hide`,
/// `feint`.
pub fn word(word: &str) -> Option<Maneuver> {
    Some(match word {
        "grapple" => Maneuver::Grapple(GrappleAct::Seize),
        "pin" => Maneuver::Grapple(GrappleAct::Pin),
        "absorb" => Maneuver::Grapple(GrappleAct::Absorb),
        "escape" => Maneuver::Grapple(GrappleAct::Escape { actions: 1 }),
        "hide" => Maneuver::Hide,
        "feint" => Maneuver::Feint,
        _ => return None,
    })
}

/// Sets up the hold a Pin, an Absorb or an escape needs: `holder` grapples `held`.
fn stage_hold(battle: &mut Battle, holder: CombatantId, held: CombatantId) {
    let world = battle.world_mut();
    let mut q = world.query::<(&CombatantId, &mut EncounterLog)>();
    for (id, mut e) in q.iter_mut(world) {
        if *id == holder {
            e.grapple = Some(GrappleHold {
                with: held,
                holds: true,
            });
        } else if *id == held {
            e.grapple = Some(GrappleHold {
                with: holder,
                holds: false,
            });
        }
    }
}

/// One roll of the maneuver: its name, the chance of winning it, and both rolls.
struct Line {
    check: String,
    chance: f64,
    mine: RollSummary,
    theirs: Vec<(String, RollSummary)>,
}

/// Prints the odds of `m` by `me` against `them` (Hide: against every opponent that sees).
pub fn odds(
    battle: &mut Battle,
    rules: &Rules,
    me: CombatantId,
    them: CombatantId,
    m: Maneuver,
    json: bool,
) -> Result<ExitCode, String> {
    let mut assumed = Vec::new();
    if let Maneuver::Grapple(act) = m {
        match act {
            GrappleAct::Pin | GrappleAct::Absorb => {
                stage_hold(battle, me, them);
                assumed.push("as if the attacker held the target in a Grapple");
            }
            GrappleAct::Escape { .. } => {
                stage_hold(battle, them, me);
                assumed.push("as if the target held the attacker in a Grapple");
            }
            _ => {}
        }
    }
    let fighters = battle.fighters();
    let field = battle.field();
    let find = |id| fighters.iter().find(|f| f.id == id).ok_or("no such unit");
    let (a, t) = (find(me)?, find(them)?);
    let name = |id: CombatantId| {
        fighters
            .iter()
            .find(|f| f.id == id)
            .map_or_else(|| id.to_string(), |f| f.identity.name.clone())
    };
    let (what, total, lines) = match m {
        Maneuver::Grapple(act) => {
            if let Err(e) =
                gridclash::battle::grapple::check_grapple(rules, &fighters, a, them, act)
            {
                return Err(format!("{}: {e}", act.name()));
            }
            let rolls = grapple_rolls(rules, &field, a, t, act).map_err(|e| e.to_string())?;
            let lines: Vec<Line> = rolls
                .iter()
                .map(|r| Line {
                    check: r.check.clone(),
                    chance: chance(rules, r),
                    mine: RollSummary::of(&r.mine),
                    theirs: vec![(t.identity.name.clone(), RollSummary::of(&r.theirs))],
                })
                .collect();
            let total = lines.iter().map(|l| l.chance).product::<f64>();
            (act.name().to_string(), total, lines)
        }
        Maneuver::Hide => {
            gridclash::battle::hide::check_hide(rules, &fighters, a).map_err(|e| e.to_string())?;
            let h = rules
                .actions
                .hide
                .as_ref()
                .ok_or("no Hide in this ruleset")?;
            let mine = gridclash::battle::checks::skill_spec(rules, a, &h.skill)
                .ok_or("no Stealth skill")?;
            let theirs = gridclash::battle::hide::lookers(&fighters, a)
                .filter_map(|o| {
                    gridclash::battle::checks::skill_spec(rules, o, &h.against)
                        .map(|s| (o.identity.name.clone(), RollSummary::of(&s)))
                })
                .collect();
            let total = gridclash::battle::hide::hide_chance(rules, &fighters, a);
            let line = Line {
                check: format!("{} against every opponent's {}", h.skill, h.against),
                chance: total,
                mine: RollSummary::of(&mine),
                theirs,
            };
            ("Hide".to_string(), total, vec![line])
        }
        Maneuver::Feint => {
            gridclash::battle::family::d20::feint::check_feint(rules, &field, &fighters, a, them)
                .map_err(|e| e.to_string())?;
            let d = rules.d20().ok_or("no feints in this ruleset")?;
            let (check, resist) =
                gridclash::battle::family::d20::feint::specs(d, a, t).ok_or("no feint rule")?;
            let total = gridclash::battle::family::d20::feint::chance(d, a, t);
            let line = Line {
                check: "Feint, against the target's roll (ties to the feinter; a natural 1 fails either roll)".into(),
                chance: total,
                mine: RollSummary::of(&check),
                theirs: vec![(t.identity.name.clone(), RollSummary::of(&resist))],
            };
            ("Feint".to_string(), total, vec![line])
        }
    };
    if json {
        let v = serde_json::json!({
            "attacker": name(me),
            "target": name(them),
            "maneuver": what,
            "chance": total,
            "assumed": assumed,
            "rolls": lines.iter().map(|l| serde_json::json!({
                "check": l.check,
                "chance": l.chance,
                "mine": l.mine,
                "theirs": l.theirs.iter().map(|(n, r)| serde_json::json!({"who": n, "roll": r})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        });
        println!("{v}");
        return Ok(ExitCode::SUCCESS);
    }
    println!("{} -> {}: {what}", name(me), name(them));
    for a in &assumed {
        println!("  ({a})");
    }
    let ties = match m {
        Maneuver::Feint => "ties go to the feinter",
        _ => "ties go to the other side",
    };
    println!("  Succeeds {} (every roll below won; {ties})", pct(total));
    for l in &lines {
        println!("  {}: {}", l.check, pct(l.chance));
        println!("    {}: {}", name(me), terms(&l.mine));
        for (n, r) in &l.theirs {
            println!("    {n}: {}", terms(r));
        }
    }
    Ok(ExitCode::SUCCESS)
}
