//! The numbers computer players and defense policies weigh: an attack assembled without
//! words rolls the same dice and totals as the one a player is shown, and its numbers equal
//! the full odds' to the last bit, in every shipped scenario.

use gridclash::ai::Policy;
use gridclash::battle::attack::check_attack;
use gridclash::battle::context::{AttackContext, declaration};
use gridclash::battle::family::{assemble, target_numbers, target_odds};
use gridclash::battle::odds::TargetNumbers;
use gridclash::battle::policy::candidate_attacks;
use gridclash::dice::RollSpec;
use gridclash::{scenario, sim};

/// `spec` with every word taken out, to compare with one built without words.
fn unworded(spec: &RollSpec) -> RollSpec {
    let mut s = spec.clone();
    s.numbers_only = false;
    if let Some(b) = s.base.as_mut()
        && b.penalization.is_some()
    {
        b.penalization = Some(String::new());
    }
    if s.superiority.is_some() {
        s.superiority = Some(String::new());
    }
    for d in s.dice.iter_mut().chain(s.critical_dice.iter_mut()) {
        d.label.clear();
    }
    for m in &mut s.modifiers {
        m.label.clear();
    }
    for d in &mut s.dropped {
        d.clear();
    }
    s
}

/// Every roll of `ctx` with its words taken out.
fn unworded_context(ctx: &AttackContext) -> AttackContext {
    let mut c = ctx.clone();
    c.strike = unworded(&c.strike);
    c.wound = unworded(&c.wound);
    for t in &mut c.targets {
        t.strike = unworded(&t.strike);
        for (_, d) in &mut t.defenses {
            *d = unworded(d);
        }
        if let Some((_, sneak)) = &mut t.sneak {
            for (_, d) in sneak {
                *d = unworded(d);
            }
        }
        t.difficulty = t.difficulty.as_ref().map(unworded);
    }
    c
}

#[test]
fn ai_numbers_equal_the_odds_players_are_shown_in_every_shipped_scenario() {
    let mut compared = 0;
    for path in scenario::shipped() {
        let loaded = scenario::load(&path).expect("a shipped scenario loads");
        let mut game = sim::AiMatch::new(&loaded, 5, &[Policy::Normal, Policy::Random], 6)
            .expect("a shipped scenario plays");
        let mut commands = 0;
        while !game.finished() && commands < 80 {
            let battle = &mut game.battle;
            let rules = battle.rules().clone();
            let fighters = battle.fighters();
            let field = battle.field();
            if let Some(me) = battle
                .turn()
                .active()
                .and_then(|id| fighters.iter().find(|f| f.id == id))
            {
                for order in candidate_attacks(&rules, &fighters, me) {
                    let Ok(targets) = check_attack(&rules, &field, &fighters, me, &order, None)
                    else {
                        continue;
                    };
                    let refs: Vec<_> = targets
                        .iter()
                        .filter_map(|id| fighters.iter().find(|f| f.id == *id))
                        .collect();
                    let mut shown = declaration(&rules, me, &order, refs.len()).expect("declared");
                    shown.bystanders = &fighters;
                    let mut weighed = shown;
                    weighed.numbers_only = true;
                    let full = assemble(&rules, &field, me, &refs, &shown);
                    let quick = assemble(&rules, &field, me, &refs, &weighed);
                    assert_eq!(
                        unworded_context(&full),
                        unworded_context(&quick),
                        "{}: {order:?}",
                        path.display()
                    );
                    for ((ft, qt), t) in full.targets.iter().zip(&quick.targets).zip(&refs) {
                        for (choice, _) in &ft.defenses {
                            let odds = target_odds(&rules, &full, ft, &shown, t, *choice);
                            let numbers = target_numbers(&rules, &quick, qt, &weighed, t, *choice);
                            assert_eq!(
                                TargetNumbers::of(&odds),
                                numbers,
                                "{}: {order:?} against {:?} answering {choice:?}",
                                path.display(),
                                t.id
                            );
                            compared += 1;
                        }
                    }
                }
            }
            game.step().expect("the computer's commands are legal");
            commands += 1;
        }
    }
    assert!(compared > 1000, "only {compared} answers compared");
}
