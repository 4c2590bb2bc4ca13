//! d20 delayed turns ("A character can delay his turn until later in the initiative. However
//! he remains in that later slot"): who acts first, the turn taken back rather than begun
//! again, the later slot kept in the rounds after, and the refusals.

use std::sync::Arc;

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, RuleError};
use gridclash::battle::components::*;
use gridclash::battle::event::BattleEvent;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::DiceSource;
use gridclash::grid::Square as GridSquare;
use gridclash::ruleset::Rules;

use crate::common::ruleset;

fn rules() -> Arc<Rules> {
    ruleset("d20").clone()
}

/// A unit that always dodges and never strikes back out of turn (`common::unit`).
fn unit(archetype: &str, side: u8, at: (i32, i32)) -> UnitSetup {
    crate::common::unit(archetype, side, at.0, at.1)
}

/// Betty (0), then the foes Arne (1) and Brynja (2), far apart: initiative faces 15, 10, 5.
fn three() -> Battle {
    let setup = BattleSetup::open(
        16,
        6,
        vec![
            unit("betty", 0, (1, 1)),
            unit("adam", 1, (14, 1)),
            unit("betty", 1, (14, 4)),
        ],
    );
    Battle::new(rules(), &setup, DiceSource::scripted(vec![15, 10, 5])).expect("starts")
}

fn id(n: u32) -> CombatantId {
    CombatantId(n)
}

fn end(b: &mut Battle) {
    let who = b.turn().active().expect("someone acts");
    b.submit(Command::EndTurn { who }).expect("end turn");
}

fn cannot_delay(e: &RuleError, why: &str) -> bool {
    matches!(e, RuleError::CannotDelay { why: w, .. } if w.contains(why))
}

#[test]
fn d20_delay_lets_the_next_act_first_and_keeps_the_later_slot() {
    let mut b = three();
    assert_eq!(b.turn().active(), Some(id(0)));
    b.submit(Command::Delay { who: id(0) })
        .expect("Betty delays");
    let events = b.events().to_vec();
    assert!(
        events.iter().any(|e| matches!(
            e,
            BattleEvent::Delayed { who, after } if who == &id(0) && after == &id(1)
        )),
        "{events:?}"
    );
    assert_eq!(b.turn().active(), Some(id(1)), "Arne acts first");
    assert_eq!(b.turn().order, vec![id(1), id(0), id(2)]);
    // Arne's turn ends: Betty takes up the turn she began, with all her actions, no new start.
    let who = b.turn().active().expect("Arne");
    let seen = b.events().len();
    b.submit(Command::EndTurn { who }).expect("end");
    let events = b.events()[seen..].to_vec();
    assert_eq!(b.turn().active(), Some(id(0)));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, BattleEvent::TurnResumed { who, actions: 2 } if who == &id(0))),
        "{events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, BattleEvent::TurnStarted { who, .. } if who == &id(0))),
        "a delayed turn is not begun again: {events:?}"
    );
    // She moves as on any turn, then the round goes on in the new order.
    b.submit(Command::Move {
        who: id(0),
        path: vec![GridSquare::new(2, 1)],
        boosted: false,
    })
    .expect("Betty moves");
    end(&mut b);
    assert_eq!(b.turn().active(), Some(id(2)));
    end(&mut b);
    // "He remains in that later slot": round 2 opens with Arne, then Betty.
    assert_eq!(b.turn().round, 2);
    assert_eq!(b.turn().active(), Some(id(1)));
    assert_eq!(b.turn().order, vec![id(1), id(0), id(2)]);
    assert!(b.turn().delayed.is_empty(), "a new round, a new delay");
}

#[test]
fn d20_delay_only_before_acting_once_a_round_and_with_someone_after() {
    let mut b = three();
    b.submit(Command::Move {
        who: id(0),
        path: vec![GridSquare::new(2, 1), GridSquare::new(3, 1)],
        boosted: false,
    })
    .expect("Betty moves");
    let e = b.submit(Command::Delay { who: id(0) }).expect_err("begun");
    assert!(cannot_delay(&e, "begun its turn"), "{e}");
    end(&mut b);
    // Arne delays behind Brynja; when his turn comes back he may not delay again (ours).
    b.submit(Command::Delay { who: id(1) })
        .expect("Arne delays");
    assert_eq!(b.turn().active(), Some(id(2)));
    // Brynja is not last now (Arne comes after her), so she may delay behind him.
    b.submit(Command::Delay { who: id(2) })
        .expect("Brynja delays");
    let events = b.events().to_vec();
    assert!(events.iter().any(
        |e| matches!(e, BattleEvent::Delayed { who, after } if who == &id(2) && after == &id(1))
    ));
    assert_eq!(b.turn().active(), Some(id(1)));
    let e = b.submit(Command::Delay { who: id(1) }).expect_err("twice");
    assert!(cannot_delay(&e, "once this round"), "{e}");
    end(&mut b);
    // Brynja, last in the round now, has nobody to let go first (and delayed already).
    assert_eq!(b.turn().active(), Some(id(2)));
    let e = b.submit(Command::Delay { who: id(2) }).expect_err("last");
    assert!(cannot_delay(&e, "once this round"), "{e}");
    end(&mut b);
    assert_eq!(b.turn().round, 2);
    // Arne went behind Brynja, then Brynja behind Arne: the order is as it began.
    assert_eq!(b.turn().order, vec![id(0), id(1), id(2)]);
    // The last in the order may not delay: nobody acts after it.
    end(&mut b);
    end(&mut b);
    assert_eq!(b.turn().active(), Some(id(2)));
    let e = b.submit(Command::Delay { who: id(2) }).expect_err("last");
    assert!(cannot_delay(&e, "nobody acts after it"), "{e}");
}

#[test]
fn delay_is_refused_outside_d20() {
    let mut dbu = crate::common::dbu_pair();
    let who = dbu.turn().active().expect("someone acts");
    let e = dbu.submit(Command::Delay { who }).expect_err("refused");
    assert!(matches!(e, RuleError::NotInRuleset { .. }), "{e}");
}

#[test]
fn d20_the_computer_delays_when_nothing_is_in_reach_and_a_melee_foe_acts_next() {
    use gridclash::ai::{Agent, Policy};
    // Betty against Brynja (a sword, no bow), too far apart for either to walk up and strike.
    let far = || {
        let setup = BattleSetup::open(
            16,
            6,
            vec![unit("betty", 0, (1, 1)), unit("betty", 1, (14, 4))],
        );
        Battle::new(rules(), &setup, DiceSource::scripted(vec![15, 5])).expect("starts")
    };
    let mut b = far();
    for policy in [Policy::Normal, Policy::Hard] {
        let cmd = Agent::new(policy, 3).command(&mut b, id(0));
        assert_eq!(cmd, Command::Delay { who: id(0) }, "{policy}");
    }
    // `easy` does not wait; nor does anyone whose foe would strike first anyway (beside it).
    let cmd = Agent::new(Policy::Easy, 3).command(&mut b, id(0));
    assert_ne!(cmd, Command::Delay { who: id(0) });
    let setup = BattleSetup::open(
        16,
        6,
        vec![unit("betty", 0, (1, 1)), unit("betty", 1, (5, 1))],
    );
    let mut near = Battle::new(rules(), &setup, DiceSource::scripted(vec![15, 5])).expect("starts");
    let cmd = Agent::new(Policy::Normal, 3).command(&mut near, id(0));
    assert_ne!(cmd, Command::Delay { who: id(0) });
}
