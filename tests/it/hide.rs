//! DBU's Hide (the digest's Skill Clash, Stealth against Perception) and the chapter's Hidden:
//! one Stealth check must beat every opponent's Perception (ties to the one looking), refused
//! within an opponent's Melee Range; Hidden ends at the end of a turn within one; a side knows
//! nothing of a Hidden opponent's square. A skill check rolls one d10 here.

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, RuleError};
use gridclash::battle::components::{CombatantId, Side};
use gridclash::battle::hide::{as_known_to, hide_chance};
use gridclash::grid::Square;
use gridclash::ruleset::ConditionKind;

use crate::common::*;

fn hide(who: u32) -> Command {
    Command::Hide {
        who: CombatantId(who),
    }
}

/// A Gunner (id 0, first; Stealth AG 7 / 2 = 3) far from a Brawler (id 1; Perception IN 3 / 2
/// = 1); then `faces`.
fn gunner_far(faces: &[u32]) -> Battle {
    let mut all = vec![10, 1];
    all.extend_from_slice(faces);
    battle(
        vec![unit("gunner", 0, 2, 2), unit("brawler", 1, 12, 8)],
        &all,
    )
}

fn hidden(b: &mut Battle, id: u32) -> bool {
    b.fighter(CombatantId(id))
        .expect("fighter")
        .conditions
        .has(ConditionKind::Hidden)
}

#[test]
fn dbu_hide_beats_every_opponents_perception_for_hidden() {
    // Stealth 8 + 3 = 11 against Perception 2 + 1 = 3.
    let mut b = gunner_far(&[8, 2]);
    let got = run(&mut b, hide(0));
    assert!(
        got.iter()
            .any(|l| l.starts_with("Gunner tries to Hide:") && l.ends_with("-> unseen.")),
        "{got:?}"
    );
    assert!(hidden(&mut b, 0));
    assert_eq!(
        b.fighter(CombatantId(0)).expect("Gunner").actions.usable(),
        2
    );
    // Once a round, and not when Hidden already.
    assert!(matches!(
        b.check(&hide(0)),
        Err(RuleError::HideRefused { .. })
    ));
}

#[test]
fn dbu_hide_tie_goes_to_the_one_looking() {
    // Stealth 5 + 3 = 8 against Perception 7 + 1 = 8: seen.
    let mut b = gunner_far(&[5, 7]);
    let got = run(&mut b, hide(0));
    assert!(got.iter().any(|l| l.ends_with("-> seen.")), "{got:?}");
    assert!(!hidden(&mut b, 0));
}

#[test]
fn dbu_hide_is_refused_within_an_opponents_melee_range() {
    let mut b = duel("gunner", "brawler", &[]);
    assert!(matches!(
        b.check(&hide(0)),
        Err(RuleError::HideRefused { why }) if why.contains("Melee Range")
    ));
}

#[test]
fn dbu_hidden_ends_at_the_end_of_a_turn_within_an_opponents_melee_range() {
    let mut b = battle(
        vec![unit("gunner", 0, 5, 5), unit("brawler", 1, 7, 5)],
        &[10, 1],
    );
    give(&mut b, 0, ConditionKind::Hidden, None);
    run(
        &mut b,
        Command::Move {
            who: CombatantId(0),
            path: vec![Square::new(6, 5)],
            boosted: false,
        },
    );
    assert!(hidden(&mut b, 0), "still Hidden while its turn lasts");
    let got = run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(0),
        },
    );
    assert!(got.iter().any(|l| l.contains("Hidden ends")), "{got:?}");
    assert!(!hidden(&mut b, 0));
}

#[test]
fn dbu_a_side_does_not_know_a_hidden_opponents_square() {
    let mut b = gunner_far(&[8, 2]);
    run(&mut b, hide(0));
    let all = b.fighters();
    let theirs = as_known_to(all.clone(), Side(1));
    assert_eq!(theirs[0].position, None, "the Brawler's side does not know");
    let ours = as_known_to(all, Side(0));
    assert_eq!(
        ours[0].position,
        Some(Square::new(2, 2)),
        "its own side does"
    );
}

#[test]
fn dbu_hide_odds_match_the_rolls_made() {
    // The exact chance against the share of 1,500 seeded Hides unseen.
    let arena = |seed| {
        Arena::new("dbu")
            .units(vec![
                unit("gunner", 0, 2, 2),
                unit("brawler", 1, 12, 8),
                unit("mage", 1, 14, 2),
            ])
            .seed(seed)
            .build_at_unit_0()
    };
    let mut b = arena(1);
    let fs = b.fighters();
    let p = hide_chance(&rules(), &fs, &fs[0]);
    let n = 1500;
    let mut won = 0;
    for seed in 0..n {
        let mut b = arena(seed);
        run(&mut b, hide(0));
        if hidden(&mut b, 0) {
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
