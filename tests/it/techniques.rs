//! Signature Techniques that give conditions on a damaging hit (our techniques, the data's
//! `on_damage`): the Mage's Transfiguring Hex (Transfigured) and the Tank's Sapping Clinch
//! (Weakened), the chapter's two conditions that only a technique or a special maneuver causes;
//! the Ki Blaster's Solar Flare (Blinded), the Champion's Frost Grip (Slowed) and the Wrestler's
//! Pinning Slam (Pinned).

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackOrder, AttackTarget, Command, RuleError};
use gridclash::battle::components::CombatantId;
use gridclash::battle::odds_text::{on_damage_lines, pct};
use gridclash::ruleset::ConditionKind;

use crate::common::*;

/// Combatant `attacker`'s technique `technique` (on `profile`) at `target`.
fn technique(attacker: u32, profile: &str, technique: &str, target: u32) -> AttackOrder {
    AttackOrder {
        technique: Some(technique.to_string()),
        ..attack(
            attacker,
            profile,
            AttackTarget::Combatant(CombatantId(target)),
        )
    }
}

/// The Mage's Transfiguring Hex at unit 1.
fn hex() -> AttackOrder {
    technique(0, "spell", "transfiguring_hex", 1)
}

/// `a` (id 0) beside `b` (id 1), `a` first; then `faces`.
fn first(a: &str, b: &str, faces: &[u32]) -> Battle {
    duel(a, b, faces)
}

#[test]
fn dbu_transfiguring_hex_transfigures_the_target_when_it_deals_damage() {
    // Strike 9 and 4 against Dodge 1 and 1: a hit; the Wound dice high enough to pass Soak.
    let mut b = first("mage", "brawler", &[9, 4, 1, 1, 6, 4]);
    let got = run(&mut b, Command::Attack(hex()));
    let target = b.fighter(CombatantId(1)).expect("Brawler");
    assert!(target.life.current < target.life.max, "{got:#?}");
    assert!(
        target.conditions.has(ConditionKind::Transfigured),
        "{got:#?}"
    );
    // Transfigured: no Signature Techniques and no Magical attacks, and Slowed.
    assert_contains(
        &got,
        &["Brawler gains Transfigured from Mage, until the end of Mage's turn in round 2."],
    );
}

#[test]
fn dbu_a_technique_that_misses_gives_no_condition() {
    // Strike 1 and 1 against Dodge 9 and 4: a miss.
    let mut b = first("mage", "brawler", &[1, 1, 9, 4]);
    run(&mut b, Command::Attack(hex()));
    let target = b.fighter(CombatantId(1)).expect("Brawler");
    assert!(!target.conditions.has(ConditionKind::Transfigured));
    assert_eq!(target.life.current, target.life.max);
}

#[test]
fn dbu_transfigured_forbids_a_signature_technique() {
    // The audit's L43: "You cannot use Signature Techniques" (only the Magical half was tested).
    let mut b = first("brawler", "mage", &[]);
    give(&mut b, 0, ConditionKind::Transfigured, Some(1));
    assert_eq!(
        b.check(&Command::Attack(technique(
            0,
            "powered",
            "reckless_haymaker",
            1
        ))),
        Err(RuleError::Transfigured)
    );
    // A plain Physical attack is still allowed.
    assert_eq!(b.check(&hit(0, "powered", 1)), Ok(()));
}

#[test]
fn dbu_sapping_clinch_weakens_the_target_and_halves_its_capacity() {
    let rules = rules();
    let mut b = first("tank", "ki_blaster", &[9, 4, 1, 1, 6, 4]);
    let before = b
        .fighter(CombatantId(1))
        .expect("Ki Blaster")
        .derived(&rules)
        .max_capacity;
    let got = run(
        &mut b,
        Command::Attack(technique(0, "powered", "sapping_clinch", 1)),
    );
    let target = b.fighter(CombatantId(1)).expect("Ki Blaster");
    assert!(target.life.current < target.life.max, "{got:#?}");
    assert!(target.conditions.has(ConditionKind::Weakened), "{got:#?}");
    assert_eq!(target.derived(&rules).max_capacity, before / 2);
}

#[test]
fn dbu_technique_odds_give_its_condition_the_chance_of_damage() {
    let mut b = first("mage", "brawler", &[]);
    let order = hex();
    let preview = b.preview(&order).expect("the Hex can be previewed");
    let odds = &preview.odds.targets[0][0];
    let mage = b.fighter(CombatantId(0)).expect("Mage").clone();
    let lines = on_damage_lines(&rules(), &mage, &order, odds);
    assert_eq!(
        lines,
        vec![format!(
            "  Transfiguring Hex, on a damaging hit: {} (Transfigured for 1 round)",
            pct(odds.damage_chance())
        )]
    );
    // A plain Spell gives nothing.
    let plain = attack(0, "spell", AttackTarget::Combatant(CombatantId(1)));
    assert!(on_damage_lines(&rules(), &mage, &plain, odds).is_empty());
}

#[test]
fn dbu_odds_command_names_the_conditions_of_a_technique_and_an_element() {
    let odds = |maneuver: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gridclash"))
            .args([
                "odds",
                "--scenario",
                "skirmish",
                "--attacker",
                "1",
                "--target",
                "3",
                "--at",
                "10,2",
                "--maneuver",
            ])
            .args(maneuver)
            .output()
            .expect("gridclash runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let hex = odds(&["transfiguring_hex"]);
    assert!(
        hex.contains("Transfiguring Hex, on a damaging hit: ")
            && hex.contains("(Transfigured for 1 round)"),
        "{hex}"
    );
    let ice = odds(&["elemental", "--element", "ice"]);
    assert!(
        ice.contains("Ice element, on a damaging hit: ") && ice.contains("(Slowed for 1 round)"),
        "{ice}"
    );
}

#[test]
fn dbu_solar_flare_blinds_the_target_when_it_deals_damage() {
    // Strike 9 and 4 against Dodge 1 and 1: a hit; the Wound past the Brawler's Soak.
    let mut b = first("ki_blaster", "brawler", &[9, 4, 1, 1, 6, 4]);
    let got = run(
        &mut b,
        Command::Attack(technique(0, "sphere", "solar_flare", 1)),
    );
    let target = b.fighter(CombatantId(1)).expect("Brawler");
    assert!(target.conditions.has(ConditionKind::Blinded), "{got:#?}");
}

#[test]
fn dbu_pinning_slam_pins_the_target_when_it_deals_damage() {
    let mut b = first("wrestler", "ki_blaster", &[9, 4, 1, 1, 6, 4]);
    let got = run(
        &mut b,
        Command::Attack(technique(0, "simple", "pinning_slam", 1)),
    );
    let target = b.fighter(CombatantId(1)).expect("Ki Blaster");
    assert!(target.conditions.has(ConditionKind::Pinned), "{got:#?}");
    // Pinned: no Actions left this round.
    assert_eq!(
        (target.actions.standard, target.actions.counter),
        (0, 0),
        "{got:#?}"
    );
}

#[test]
fn dbu_frost_grip_slows_the_target_when_it_deals_damage() {
    let mut b = first("champion", "brawler", &[9, 4, 4, 1, 1, 1, 6, 4, 4]);
    let got = run(
        &mut b,
        Command::Attack(technique(0, "simple", "frost_grip", 1)),
    );
    let target = b.fighter(CombatantId(1)).expect("Brawler");
    assert!(target.conditions.has(ConditionKind::Slowed), "{got:#?}");
}
