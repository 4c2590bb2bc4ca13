//! DBU's grappling maneuvers (digest §3.3, special maneuvers): Grapple (a Clash of Strike
//! against the better of Strike and Dodge, both in Guard Down on a win, an Exploit on a loss),
//! Pin (a Grapple Check at -1(bT), then a Might Clash), the escape (+1(T) per extra Action),
//! Release, and our Absorb. The dice are scripted: a ToP 2 Strike or Might Clash rolls a d10
//! and a d4, a Save one d10.

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, Decision, GrappleAct, RuleError};
use gridclash::battle::components::{CombatantId, Expiry, ExploitPolicy, GrappleHold};
use gridclash::battle::grapple::success_chance;
use gridclash::grid::Square;
use gridclash::ruleset::ConditionKind;

use crate::common::*;

fn grapple(who: u32, target: u32, act: GrappleAct) -> Command {
    Command::Grapple {
        who: CombatantId(who),
        target: CombatantId(target),
        act,
    }
}

/// `a` (id 0, first to act) beside a Ki Blaster (id 1) that asks for its Exploits; then
/// `faces`.
fn beside_blaster(a: &str, faces: &[u32]) -> Battle {
    let mut kb = unit("ki_blaster", 1, 6, 5);
    kb.controller.exploits = ExploitPolicy::Prompt;
    let mut all = vec![10, 1];
    all.extend_from_slice(faces);
    battle(vec![unit(a, 0, 5, 5), kb], &all)
}

fn hold(b: &mut Battle, id: u32) -> Option<GrappleHold> {
    b.fighter(CombatantId(id))
        .expect("fighter")
        .encounter
        .grapple
}

#[test]
fn dbu_grapple_won_holds_both_in_guard_down_and_the_held_cannot_move() {
    // Brawler Strike 9+3+6 = 18 against the Ki Blaster's Strike (as a Parry) 7+1+8 = 16.
    let mut b = beside_blaster("brawler", &[9, 3, 7, 1]);
    let got = run(&mut b, grapple(0, 1, GrappleAct::Seize));
    assert_contains(
        &got,
        &["Brawler grapples Ki Blaster: both have Guard Down while the hold lasts."],
    );
    assert_eq!(
        hold(&mut b, 0),
        Some(GrappleHold {
            with: CombatantId(1),
            holds: true
        })
    );
    assert_eq!(
        hold(&mut b, 1),
        Some(GrappleHold {
            with: CombatantId(0),
            holds: false
        })
    );
    let r = rules();
    for id in [0, 1] {
        let f = b.fighter(CombatantId(id)).expect("fighter");
        assert!(f.guard_down_tier(&r).is_some(), "{id} has Guard Down");
    }
    assert_eq!(
        b.fighter(CombatantId(0)).expect("Brawler").actions.usable(),
        2
    );
    // The one held may not walk off (on its own turn).
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .expect("end turn");
    let walk = Command::Move {
        who: CombatantId(1),
        path: vec![Square::new(7, 5)],
        boosted: false,
    };
    assert!(matches!(b.check(&walk), Err(RuleError::GrappleHold { .. })));
}

#[test]
fn dbu_grapple_tie_goes_to_the_defender_and_a_loss_gives_it_an_exploit() {
    // 7+3+6 = 16 against 7+1+8 = 16: the defender wins ties.
    let mut b = beside_blaster("brawler", &[7, 3, 7, 1]);
    let got = run(&mut b, grapple(0, 1, GrappleAct::Seize));
    assert!(got.iter().any(|l| l.ends_with("-> lost.")), "{got:?}");
    assert_contains(&got, &["Brawler's Grapple on Ki Blaster fails: Exploit!"]);
    assert!(matches!(
        b.awaiting(),
        Some(Decision::Exploit { who, .. }) if *who == CombatantId(1)
    ));
    assert_eq!(hold(&mut b, 0), None);
    // Once a round.
    b.submit(Command::Exploit {
        who: CombatantId(1),
        order: None,
    })
    .expect("decline");
    assert!(matches!(
        b.check(&grapple(0, 1, GrappleAct::Seize)),
        Err(RuleError::GrappleMade { .. })
    ));
}

#[test]
fn dbu_pin_wins_both_checks_and_takes_every_action_until_the_grapplers_next_turn() {
    // Seize 18 v 16; Pin: Grapple Check 9+3+6-2 = 16 v 5+1+8 = 14, Might Clash 9+3+Might v 1+1+Might.
    let mut b = beside_blaster("brawler", &[9, 3, 7, 1, 9, 3, 5, 1, 9, 3, 1, 1]);
    run(&mut b, grapple(0, 1, GrappleAct::Seize));
    let got = run(&mut b, grapple(0, 1, GrappleAct::Pin));
    assert!(got.iter().any(|l| l.contains("- Pin 2")), "{got:?}");
    assert!(got.iter().any(|l| l.contains("Might Clash")), "{got:?}");
    let kb = b.fighter(CombatantId(1)).expect("Ki Blaster");
    let pinned = kb.conditions.get(ConditionKind::Pinned).expect("Pinned");
    assert_eq!(pinned.source, Some(CombatantId(0)));
    assert_eq!(
        pinned.expires,
        Expiry::EndOfTurn {
            round: 2,
            of: CombatantId(0)
        }
    );
    assert_eq!(kb.actions.usable(), 0);
    // Out of Actions, the Brawler's turn ended; the pinned Ki Blaster's passes at once.
    assert_eq!(b.turn().round, 2);
    assert_eq!(b.active(), Some(CombatantId(0)));
}

#[test]
fn dbu_losing_a_pin_frees_the_target() {
    // Seize 18 v 16; the Pin's Grapple Check 5+1+6-2 = 10 v 9+3+8 = 20 is lost.
    let mut b = beside_blaster("brawler", &[9, 3, 7, 1, 5, 1, 9, 3]);
    run(&mut b, grapple(0, 1, GrappleAct::Seize));
    let got = run(&mut b, grapple(0, 1, GrappleAct::Pin));
    assert_contains(
        &got,
        &["Brawler's Grapple on Ki Blaster ends (the Pin failed)."],
    );
    assert_eq!(hold(&mut b, 0), None);
    assert_eq!(hold(&mut b, 1), None);
}

#[test]
fn dbu_escape_adds_one_t_per_extra_action_and_frees_on_a_win() {
    // Seize 18 v 16; then on its turn the Ki Blaster spends 2 Actions: 5+1+8+2 = 16 against
    // the Brawler's Strike (as a Parry) 7+1+6 = 14.
    let mut b = beside_blaster("brawler", &[9, 3, 7, 1, 5, 1, 7, 1]);
    run(&mut b, grapple(0, 1, GrappleAct::Seize));
    // Only the one held escapes.
    assert!(matches!(
        b.check(&grapple(0, 1, GrappleAct::Escape { actions: 1 })),
        Err(RuleError::GrappleHold { .. })
    ));
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .expect("end turn");
    let got = run(&mut b, grapple(1, 0, GrappleAct::Escape { actions: 2 }));
    assert!(got.iter().any(|l| l.contains("extra Actions 2")), "{got:?}");
    assert_contains(
        &got,
        &["Brawler's Grapple on Ki Blaster ends (broke free)."],
    );
    assert_eq!(
        b.fighter(CombatantId(1))
            .expect("Ki Blaster")
            .actions
            .usable(),
        1
    );
}

#[test]
fn dbu_release_is_free_and_walking_out_of_reach_ends_the_hold() {
    let mut b = beside_blaster("brawler", &[9, 3, 7, 1, 9, 3, 7, 1]);
    run(&mut b, grapple(0, 1, GrappleAct::Seize));
    let got = run(&mut b, grapple(0, 1, GrappleAct::Release));
    assert_contains(&got, &["Brawler's Grapple on Ki Blaster ends (let go)."]);
    assert_eq!(
        b.fighter(CombatantId(0)).expect("Brawler").actions.usable(),
        2
    );
    // A second hold (next round) ends when the grappler walks away.
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .expect("end turn");
    b.submit(Command::EndTurn {
        who: CombatantId(1),
    })
    .expect("end turn");
    run(&mut b, grapple(0, 1, GrappleAct::Seize));
    let from = b.events().len();
    run(
        &mut b,
        Command::Move {
            who: CombatantId(0),
            path: vec![Square::new(4, 5), Square::new(3, 5)],
            boosted: false,
        },
    );
    // Leaving the Ki Blaster's reach provokes its Exploit, declined here.
    run(
        &mut b,
        Command::Exploit {
            who: CombatantId(1),
            order: None,
        },
    );
    let got = lines(&mut b, from);
    assert_contains(
        &got,
        &["Brawler's Grapple on Ki Blaster ends (out of Melee Range)."],
    );
}

#[test]
fn dbu_absorb_takes_the_held_target_off_the_battlefield_and_only_an_absorber_can() {
    // Devourer Strike 9+3+5 = 17 v 1+1+8 = 10, twice; then Cognitive Saves 8 v 1.
    let mut b = beside_blaster("devourer", &[9, 3, 1, 1, 9, 3, 1, 1, 8, 1]);
    run(&mut b, grapple(0, 1, GrappleAct::Seize));
    let got = run(&mut b, grapple(0, 1, GrappleAct::Absorb));
    assert_contains(&got, &["Devourer's Grapple on Ki Blaster ends (taken in)."]);
    let kb = b.fighter(CombatantId(1)).expect("Ki Blaster");
    assert!(kb.position.is_none(), "off the battlefield");
    let absorbed = kb
        .conditions
        .get(ConditionKind::Absorbed)
        .expect("Absorbed");
    assert_eq!(absorbed.source, Some(CombatantId(0)));
    // A Brawler is no absorber.
    let mut b = beside_blaster("brawler", &[9, 3, 7, 1]);
    run(&mut b, grapple(0, 1, GrappleAct::Seize));
    assert!(matches!(
        b.check(&grapple(0, 1, GrappleAct::Absorb)),
        Err(RuleError::GrappleHold { .. })
    ));
}

#[test]
fn dbu_grapple_odds_match_the_rolls_made() {
    // The exact chance of a Seize, from the specs the maneuver rolls, against the share of
    // 1,500 seeded Grapples won.
    let mut b = Arena::new("dbu")
        .units(vec![unit("wrestler", 0, 5, 5), unit("mage", 1, 6, 5)])
        .seed(1)
        .build_at_unit_0();
    let fs = b.fighters();
    let (me, t) = (&fs[0], &fs[1]);
    let r = rules();
    let p = success_chance(&r, &b.field(), me, t, GrappleAct::Seize).expect("chance");
    let mut won = 0;
    let n = 1500;
    for seed in 0..n {
        let mut b = Arena::new("dbu")
            .units(vec![unit("wrestler", 0, 5, 5), unit("mage", 1, 6, 5)])
            .seed(seed)
            .build_at_unit_0();
        let got = run(&mut b, grapple(0, 1, GrappleAct::Seize));
        if got.iter().any(|l| l.contains("grapples Mage")) {
            won += 1;
        }
    }
    let seen = f64::from(won) / n as f64;
    let sd = (p * (1.0 - p) / n as f64).sqrt();
    assert!(
        (seen - p).abs() < 4.0 * sd,
        "chance {p:.3}, seen {seen:.3} over {n}"
    );
}

#[test]
fn dbu_odds_command_gives_a_grapple_s_and_a_hide_s_exact_chance() {
    // `gridclash odds --maneuver grapple|pin|hide` prints the chance the window shows, from
    // the same roll specs.
    let bin = env!("CARGO_BIN_EXE_gridclash");
    let run = |maneuver: &str, at: &str| {
        let out = std::process::Command::new(bin)
            .args([
                "odds",
                "--scenario",
                "brawl",
                "--attacker",
                "0",
                "--target",
                "5",
                "--maneuver",
                maneuver,
                "--at",
                at,
            ])
            .output()
            .expect("gridclash odds");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let seize = run("grapple", "13,7");
    assert!(seize.contains(": Grapple\n"), "{seize}");
    assert!(seize.contains("  Grapple Check: "), "{seize}");
    let pin = run("pin", "13,7");
    assert!(pin.contains("as if the attacker held the target"), "{pin}");
    assert!(pin.contains("  Might Clash: "), "{pin}");
    let hide = run("hide", "3,6");
    assert!(
        hide.contains("Stealth against every opponent's Perception"),
        "{hide}"
    );
}
