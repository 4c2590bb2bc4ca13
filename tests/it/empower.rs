//! The Empower maneuver (digest §3.3): once a round, each Action hands an ally 2 × Might Ki
//! (doubled within Melee Range) without using Capacity; the Full Empowerment hands over any
//! amount for the giver's Capacity, Fatigued and Impediment; adjacent opponents Exploit first.

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, Decision, RuleError};
use gridclash::battle::components::{CombatantId, ExploitPolicy};
use gridclash::ruleset::ConditionKind;

use crate::common::*;

fn empower(who: u32, ally: u32, actions: u32, full: bool) -> Command {
    Command::Empower {
        who: CombatantId(who),
        ally: CombatantId(ally),
        actions,
        full,
    }
}

/// Gunner (id 0, first) and Ki Blaster (id 1) on one side, `apart` squares between them on a
/// row; a Brawler (id 2) of the other side far off. The Ki Blaster has 10 Ki left.
fn gunner_and_blaster(apart: i32) -> Battle {
    let units = vec![
        unit("gunner", 0, 2, 2),
        unit("ki_blaster", 0, 2 + apart, 2),
        unit("brawler", 1, 18, 10),
    ];
    let mut b = battle(units, &[10, 5, 1]);
    stage(&mut b, 1, |f| f.ki.current = 10);
    b
}

#[test]
fn dbu_empower_hands_two_might_ki_per_action_without_using_capacity() {
    let mut b = gunner_and_blaster(8);
    let before = b.fighter(CombatantId(0)).expect("Gunner").clone();
    let might = before.derived(&rules()).might;
    assert_eq!(might, 3, "the Gunner's Might is max(FO 3, MA 1)");
    let got = run(&mut b, empower(0, 1, 2, false));
    let giver = b.fighter(CombatantId(0)).expect("Gunner");
    let ally = b.fighter(CombatantId(1)).expect("Ki Blaster");
    // Two Actions, 8 squares apart: 2 x 2 x Might = 12.
    assert_eq!(ally.ki.current, 10 + 12);
    assert_eq!(giver.ki.current, before.ki.current - 12);
    assert_eq!(giver.capacity.current, before.capacity.current);
    assert_eq!(giver.actions.usable(), before.actions.usable() - 2);
    assert_contains(&got, &["Gunner Empowers Ki Blaster with 12 Ki."]);
}

#[test]
fn dbu_empower_doubles_within_melee_range() {
    let mut b = gunner_and_blaster(1);
    run(&mut b, empower(0, 1, 1, false));
    // One Action, side by side: 2 x Might x 2 = 12.
    assert_eq!(
        b.fighter(CombatantId(1)).expect("Ki Blaster").ki.current,
        22
    );
}

#[test]
fn dbu_empower_gives_no_more_than_the_ally_can_hold_or_the_giver_has() {
    let mut b = gunner_and_blaster(1);
    let max = b
        .fighter(CombatantId(1))
        .expect("Ki Blaster")
        .derived(&rules())
        .max_ki;
    stage(&mut b, 1, |f| f.ki.current = max - 5);
    run(&mut b, empower(0, 1, 3, false));
    assert_eq!(
        b.fighter(CombatantId(1)).expect("Ki Blaster").ki.current,
        max
    );
    let mut b = gunner_and_blaster(1);
    stage(&mut b, 0, |f| f.ki.current = 4);
    run(&mut b, empower(0, 1, 3, false));
    assert_eq!(b.fighter(CombatantId(0)).expect("Gunner").ki.current, 0);
    assert_eq!(
        b.fighter(CombatantId(1)).expect("Ki Blaster").ki.current,
        14
    );
}

#[test]
fn dbu_full_empowerment_gives_any_amount_for_capacity_fatigued_and_impediment() {
    let mut b = gunner_and_blaster(8);
    let giver0 = b.fighter(CombatantId(0)).expect("Gunner").clone();
    let room = b
        .fighter(CombatantId(1))
        .expect("Ki Blaster")
        .derived(&rules())
        .max_ki
        - 10;
    // Far more than 2 x Might for one Action at range.
    assert!(room > 6);
    let got = run(&mut b, empower(0, 1, 1, true));
    let giver = b.fighter(CombatantId(0)).expect("Gunner");
    let ally = b.fighter(CombatantId(1)).expect("Ki Blaster");
    let given = room.min(giver0.ki.current);
    assert_eq!(ally.ki.current, 10 + given);
    assert_eq!(giver.capacity.current, 0);
    assert!(giver.conditions.has(ConditionKind::Fatigued));
    assert!(giver.conditions.has(ConditionKind::Impediment));
    // Fatigued halves the maximum Ki; what is left never exceeds it.
    let d = giver.derived(&rules());
    assert!(giver.ki.current <= d.max_ki);
    assert_contains(
        &got,
        &[&format!(
            "Gunner Empowers Ki Blaster with {given} Ki (Full Empowerment: Capacity 0, Fatigued and Impediment)."
        )],
    );
}

#[test]
fn dbu_one_empower_a_round() {
    let mut b = gunner_and_blaster(8);
    run(&mut b, empower(0, 1, 1, false));
    assert_eq!(
        b.check(&empower(0, 1, 1, false)),
        Err(RuleError::EmpowerMade)
    );
}

#[test]
fn dbu_empower_needs_an_ally_with_room_ki_to_give_and_the_actions() {
    let mut b = gunner_and_blaster(8);
    for whom in [0, 2, 9] {
        assert_eq!(
            b.check(&empower(0, whom, 1, false)),
            Err(RuleError::EmpowerWhom {
                ally: CombatantId(whom)
            }),
            "#{whom}"
        );
    }
    assert_eq!(
        b.check(&empower(0, 1, 0, false)),
        Err(RuleError::EmpowerActions)
    );
    assert!(matches!(
        b.check(&empower(0, 1, 4, false)),
        Err(RuleError::NoActions { .. })
    ));
    let max = b
        .fighter(CombatantId(1))
        .expect("Ki Blaster")
        .derived(&rules())
        .max_ki;
    stage(&mut b, 1, |f| f.ki.current = max);
    assert_eq!(
        b.check(&empower(0, 1, 1, false)),
        Err(RuleError::EmpowerNothing {
            why: "the ally's Ki is full"
        })
    );
    stage(&mut b, 1, |f| f.ki.current = 10);
    stage(&mut b, 0, |f| f.ki.current = 0);
    assert_eq!(
        b.check(&empower(0, 1, 1, false)),
        Err(RuleError::EmpowerNothing {
            why: "no Ki left to give"
        })
    );
}

#[test]
fn dbu_empower_provokes_exploits_from_adjacent_opponents_first() {
    let mut brawler = unit("brawler", 1, 3, 2);
    brawler.controller.exploits = ExploitPolicy::Prompt;
    let units = vec![
        unit("gunner", 0, 2, 2),
        unit("ki_blaster", 0, 10, 2),
        brawler,
    ];
    let mut b = battle(units, &[10, 5, 1]);
    stage(&mut b, 1, |f| f.ki.current = 10);
    let got = run(&mut b, empower(0, 1, 1, false));
    assert_contains(
        &got,
        &["Gunner Empowers an ally at (2, 2) beside Brawler: Exploit!"],
    );
    assert_eq!(
        b.awaiting(),
        Some(&Decision::Exploit {
            who: CombatantId(2),
            mover: CombatantId(0)
        })
    );
    assert!(
        b.exploit_prompt(CombatantId(0), CombatantId(2))
            .question
            .starts_with("Gunner Empowers an ally beside Brawler."),
        "the prompt says why"
    );
    // No Ki has moved yet.
    assert_eq!(
        b.fighter(CombatantId(1)).expect("Ki Blaster").ki.current,
        10
    );
    run(
        &mut b,
        Command::Exploit {
            who: CombatantId(2),
            order: None,
        },
    );
    assert_eq!(
        b.fighter(CombatantId(1)).expect("Ki Blaster").ki.current,
        16
    );
}

#[test]
fn dbu_a_charging_unit_may_not_empower() {
    let mut b = gunner_and_blaster(8);
    run(
        &mut b,
        Command::EnergyCharge {
            who: CombatantId(0),
            profile: "sphere".into(),
            technique: None,
        },
    );
    assert!(matches!(
        b.check(&empower(0, 1, 1, false)),
        Err(RuleError::Charging { .. })
    ));
}

#[test]
fn dbu_empower_is_refused_in_a_ruleset_without_it() {
    let d20 = ruleset("d20").clone();
    let units = vec![
        unit("adam", 0, 2, 2),
        unit("adam", 0, 3, 2),
        unit("betty", 1, 9, 2),
    ];
    let mut b = battle_with(d20, units, &[]);
    let who = b.turn().active().expect("someone acts first");
    // The ruleset is checked first, whoever acts and whoever is named.
    let ally = if who.0 == 0 { 1 } else { 0 };
    let got = b.check(&empower(who.0, ally, 1, false));
    assert!(
        matches!(got, Err(RuleError::NotInRuleset { .. })),
        "{got:?}"
    );
}
