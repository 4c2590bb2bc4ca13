//! The Energy Charge maneuver (digest §7.2): what it costs, what it adds to the attack it
//! feeds, Guard Down while charging, what a charging unit may not do, the Exploits it
//! provokes, and how the charges end.

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, Decision, RuleError};
use gridclash::battle::components::{CombatantId, ExploitPolicy, HeldCharge};

use crate::common::*;

/// The Energy Charge command for combatant `who`'s Basic Attack `profile`.
fn charge(who: u32, profile: &str) -> Command {
    Command::EnergyCharge {
        who: CombatantId(who),
        profile: profile.to_string(),
        technique: None,
    }
}

/// Ki Blaster (id 0) beside Brawler (id 1), Ki Blaster first.
fn blaster_and_brawler() -> Battle {
    duel("ki_blaster", "brawler", &[])
}

fn held(b: &mut Battle, id: u32) -> Option<HeldCharge> {
    b.fighter(CombatantId(id)).and_then(|f| f.encounter.charge)
}

#[test]
fn dbu_energy_charge_costs_an_action_and_two_bt_ki() {
    let mut b = blaster_and_brawler();
    let before = b.fighter(CombatantId(0)).expect("Ki Blaster");
    let got = run(&mut b, charge(0, "sphere"));
    let after = b.fighter(CombatantId(0)).expect("Ki Blaster");
    let two_bt = 2 * i64::from(before.power.base_tier);
    assert_eq!(after.ki.current, before.ki.current - two_bt);
    assert_eq!(after.capacity.current, before.capacity.current - two_bt);
    assert_eq!(after.actions.usable(), before.actions.usable() - 1);
    assert_contains(
        &got,
        &["Ki Blaster charges Sphere: 1 Energy Charge(s) held, Guard Down until it is made."],
    );
    assert_eq!(
        held(&mut b, 0),
        Some(HeldCharge {
            profile: "sphere".into(),
            technique: None,
            charges: 1
        })
    );
}

#[test]
fn dbu_each_held_energy_charge_adds_one_d6_t_to_the_wound_and_costs_a_parry_one_bt() {
    let mut b = blaster_and_brawler();
    let order = attack(
        0,
        "sphere",
        gridclash::battle::command::AttackTarget::Combatant(CombatantId(1)),
    );
    let plain = b.preview(&order).expect("a Sphere can be previewed");
    run(&mut b, charge(0, "sphere"));
    let charged = b
        .preview(&order)
        .expect("a charged Sphere can be previewed");
    let held_dice: Vec<_> = charged
        .odds
        .wound
        .terms
        .iter()
        .filter(|t| t.label == "Energy Charges held (1)")
        .filter_map(|t| t.die.clone())
        .collect();
    // ToP 2: 1d6(T) is 2d6.
    assert_eq!(held_dice, vec!["2d6".to_string()]);
    assert!(charged.odds.wound.mean > plain.odds.wound.mean + 6.9);
    let parry = &charged.odds.targets[0]
        .iter()
        .find(|o| o.defense == gridclash::battle::command::DefenseChoice::Parry)
        .expect("Brawler may Parry")
        .defense_roll;
    assert!(
        parry
            .terms
            .iter()
            .any(|t| t.label == "Energy Charges on the attack (1)" && t.value == Some(-2)),
        "{:?}",
        parry.terms
    );
}

#[test]
fn dbu_a_charging_unit_has_guard_down_until_it_makes_the_attack() {
    let mut b = blaster_and_brawler();
    run(&mut b, charge(0, "sphere"));
    run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(0),
        },
    );
    let against = b
        .preview(&attack(
            1,
            "simple",
            gridclash::battle::command::AttackTarget::Combatant(CombatantId(0)),
        ))
        .expect("Brawler's Simple can be previewed");
    let dodge = &against.odds.targets[0][0].defense_roll;
    assert!(
        dodge
            .terms
            .iter()
            .any(|t| t.label == "Guard Down (charging)"),
        "{:?}",
        dodge.terms
    );
}

#[test]
fn dbu_a_charging_unit_may_make_no_other_attacking_or_standard_maneuver() {
    let mut b = blaster_and_brawler();
    run(&mut b, charge(0, "sphere"));
    let who = CombatantId(0);
    assert!(matches!(
        b.check(&hit(0, "simple", 1)),
        Err(RuleError::Charging { .. })
    ));
    assert!(matches!(
        b.check(&Command::PowerUp { who }),
        Err(RuleError::Charging { .. })
    ));
    assert!(matches!(
        b.check(&charge(0, "beam")),
        Err(RuleError::Charging { .. })
    ));
    // More charges for the same attack, the attack itself and cancelling stay open.
    assert!(b.check(&charge(0, "sphere")).is_ok());
    assert!(b.check(&hit(0, "sphere", 1)).is_ok());
    assert!(b.check(&Command::CancelCharge { who }).is_ok());
}

#[test]
fn dbu_an_attack_holds_at_most_seven_energy_charges() {
    let mut b = blaster_and_brawler();
    stage(&mut b, 0, |f| {
        f.encounter.charge = Some(HeldCharge {
            profile: "sphere".into(),
            technique: None,
            charges: 7,
        });
    });
    assert!(matches!(
        b.check(&charge(0, "sphere")),
        Err(RuleError::ChargeLimit { max: 7 })
    ));
}

#[test]
fn dbu_energy_charge_feeds_no_firearm() {
    let mut b = duel("gunner", "brawler", &[]);
    assert!(matches!(
        b.check(&charge(0, "shot")),
        Err(RuleError::CannotCharge { .. })
    ));
}

#[test]
fn dbu_held_charges_go_into_the_attack_and_are_spent_with_it() {
    // Strike 9 and 4 against Dodge 1 and 1: a hit; the Wound's dice all small.
    let mut b = duel("ki_blaster", "brawler", &[9, 4, 1, 1, 3, 2, 3, 3, 3]);
    run(&mut b, charge(0, "sphere"));
    let got = run(&mut b, hit(0, "sphere", 1));
    assert!(
        got.iter().any(|l| l.contains("Energy Charges held (1)")),
        "{got:#?}"
    );
    assert_contains(
        &got,
        &["Ki Blaster releases 1 Energy Charge(s) into the attack."],
    );
    assert_eq!(held(&mut b, 0), None);
}

#[test]
fn dbu_energy_charge_provokes_an_exploit_from_each_adjacent_opponent() {
    let mut brawler = unit("brawler", 1, 6, 5);
    brawler.controller.exploits = ExploitPolicy::Prompt;
    // A second opponent two squares away is not adjacent.
    let mut far = unit("tank", 1, 7, 5);
    far.controller.exploits = ExploitPolicy::Prompt;
    let mut b = battle(vec![unit("ki_blaster", 0, 5, 5), brawler, far], &[10, 1, 1]);
    let got = run(&mut b, charge(0, "sphere"));
    assert_contains(
        &got,
        &["Ki Blaster charges at (5, 5) beside Brawler: Exploit!"],
    );
    assert_eq!(
        b.awaiting(),
        Some(&Decision::Exploit {
            who: CombatantId(1),
            mover: CombatantId(0)
        })
    );
    assert!(
        b.exploit_prompt(CombatantId(0), CombatantId(1))
            .question
            .starts_with("Ki Blaster charges an attack beside Brawler."),
        "the prompt says why"
    );
    run(
        &mut b,
        Command::Exploit {
            who: CombatantId(1),
            order: None,
        },
    );
    assert_eq!(b.awaiting(), None, "the tank two squares away is not asked");
}

#[test]
fn dbu_cancelled_charges_are_lost_and_cancelling_costs_no_action() {
    let mut b = blaster_and_brawler();
    run(&mut b, charge(0, "sphere"));
    let got = run(
        &mut b,
        Command::CancelCharge {
            who: CombatantId(0),
        },
    );
    assert_contains(&got, &["Ki Blaster loses 1 Energy Charge(s) (cancelled)."]);
    assert_eq!(held(&mut b, 0), None);
    assert!(
        !got.iter().any(|l| l.contains("spends")),
        "No Effort is an Instant: {got:?}"
    );
    // Cancelling is an Instant: no action spent, and nothing left to cancel.
    assert!(matches!(
        b.check(&Command::CancelCharge {
            who: CombatantId(0)
        }),
        Err(RuleError::NotCharging)
    ));
}

#[test]
fn dbu_energy_charge_is_refused_in_a_ruleset_without_it() {
    let d20 = ruleset("d20").clone();
    let units = vec![unit("adam", 0, 2, 2), unit("betty", 1, 8, 2)];
    let mut b = battle_with(d20, units, &[]);
    let who = b.turn().active().expect("someone acts first");
    let profile = if who == CombatantId(0) {
        "bow_shot"
    } else {
        "great_sword_cut"
    };
    let got = b.check(&charge(who.0, profile));
    assert!(
        matches!(got, Err(RuleError::NotInRuleset { .. })),
        "{got:?}"
    );
}

/// `gridclash odds` with its arguments, as text.
fn odds(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gridclash"))
        .arg("odds")
        .args(args)
        .output()
        .expect("gridclash runs")
}

#[test]
fn dbu_odds_command_adds_one_d6_t_per_held_energy_charge() {
    let base = [
        "--scenario",
        "duel",
        "--attacker",
        "Suri",
        "--target",
        "Kaito",
    ];
    let out = odds(&[&base[..], &["--maneuver", "sphere", "--charges", "2"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        text.matches("2d6  Energy Charges held (2)").count(),
        2,
        "{text}"
    );
    // More charges than the maneuver allows are refused with the rule.
    let out = odds(&[&base[..], &["--maneuver", "sphere", "--charges", "8"]].concat());
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 7 Energy Charges"));
}
