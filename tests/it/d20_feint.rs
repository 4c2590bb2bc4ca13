//! d20 feints ("Persuasion or Bluff may be used to put any opponent off guard … as a standard
//! action"): the check against the target's Cunning, off guard for the next attack, the
//! cumulative penalty and its reset, the refusals, and the exact chance.

use std::sync::Arc;

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, RuleError};
use gridclash::battle::components::*;
use gridclash::battle::event::BattleEvent;
use gridclash::battle::family::d20;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::DiceSource;
use gridclash::ruleset::Rules;

use crate::common::{attack, ruleset, run};

fn rules() -> Arc<Rules> {
    ruleset("d20").clone()
}

/// A unit that always dodges and never strikes back out of turn (`common::unit`).
fn unit(archetype: &str, side: u8, at: (i32, i32)) -> UnitSetup {
    crate::common::unit(archetype, side, at.0, at.1)
}

/// Betty (id 0) beside Adam (id 1); Betty acts first (initiative faces 15 and 1), then
/// `faces`.
fn betty_and_adam(faces: &[u32]) -> Battle {
    let setup = BattleSetup::open(
        12,
        4,
        vec![unit("betty", 0, (4, 1)), unit("adam", 1, (5, 1))],
    );
    let mut all = vec![15, 1];
    all.extend_from_slice(faces);
    Battle::new(rules(), &setup, DiceSource::scripted(all)).expect("starts")
}

fn feint() -> Command {
    Command::Feint {
        who: CombatantId(0),
        target: CombatantId(1),
    }
}

fn cut() -> Command {
    Command::Attack(attack(
        0,
        "great_sword_cut",
        gridclash::battle::command::AttackTarget::Combatant(CombatantId(1)),
    ))
}

/// Ends turns until Betty's comes round again.
fn to_bettys_next_turn(b: &mut Battle) {
    loop {
        let who = b.turn().active().expect("someone acts");
        b.submit(Command::EndTurn { who }).expect("end turn");
        if b.turn().active() == Some(CombatantId(0)) {
            return;
        }
    }
}

/// The off-guard terms of unit 0's `profile` at unit 1, as the preview has them.
fn off_guard_terms(b: &mut Battle, profile: &str) -> Vec<String> {
    let order = attack(
        0,
        profile,
        gridclash::battle::command::AttackTarget::Combatant(CombatantId(1)),
    );
    let p = b.preview(&order).expect("previewed");
    p.context.targets[0]
        .strike
        .modifiers
        .iter()
        .filter(|m| m.label.starts_with("off guard"))
        .map(|m| format!("{} {:+}", m.label, m.value))
        .collect()
}

#[test]
fn d20_feint_is_a_standard_action_that_puts_the_target_off_guard_for_the_next_attack() {
    // Betty's Feint 1d20 + Presence 7 (face 12: 19) against Adam's 1d20 + Cunning 6 (face 5:
    // 11): caught. It took her Standard action: no attack this round. Her next attack on him
    // is off guard (+2), and only that one.
    let mut b = betty_and_adam(&[12, 5]);
    let l = run(&mut b, feint());
    assert!(
        l.iter()
            .any(|x| x == "Betty spends 1 AP on a feint (\"as a standard action\")."),
        "{l:#?}"
    );
    assert!(
        l.iter().any(|x| x
            == "Betty feints at Adam: Feint 19 = d20:12 + Presence (PRE) 7 against Reads the feint 11 = d20:5 + Cunning (CUN) 6: Adam is caught off guard; Betty's next attack on Adam is off guard."),
        "{l:#?}"
    );
    let e = b.submit(cut()).expect_err("the Standard action is spent");
    assert!(matches!(e, RuleError::OneStandardAttack { .. }), "{e}");
    to_bettys_next_turn(&mut b);
    assert_eq!(
        off_guard_terms(&mut b, "great_sword_cut"),
        ["off guard: feinted +2"]
    );
    b.submit(cut()).expect("the cut");
    let checks: Vec<i64> = b
        .events()
        .iter()
        .filter_map(|e| match e {
            BattleEvent::StrikeRolled { roll, .. } => Some(
                roll.modifiers
                    .iter()
                    .filter(|m| m.label.starts_with("off guard"))
                    .map(|m| m.value)
                    .sum(),
            ),
            _ => None,
        })
        .collect();
    assert_eq!(checks.last(), Some(&2), "the cut was rolled off guard");
    to_bettys_next_turn(&mut b);
    assert!(
        off_guard_terms(&mut b, "great_sword_cut").is_empty(),
        "spent on the next attack"
    );
}

#[test]
fn d20_each_feint_attempt_at_the_same_target_is_two_harder_until_a_plain_attack() {
    // A feint that fails (face 2 against 19): the next at the same target is at -2, after two
    // it would be -4 ("cumulative -2 penalties"); a plain cut, not off guard, resets them.
    let mut b = betty_and_adam(&[2, 19]);
    run(&mut b, feint());
    to_bettys_next_turn(&mut b);
    let f = b.fighter(CombatantId(0)).expect("Betty");
    let adam = b.fighter(CombatantId(1)).expect("Adam");
    let r = rules();
    let d = r.d20().expect("d20");
    let (check, _) = d20::feint::specs(d, &f, &adam).expect("a feint rule");
    assert!(
        check
            .modifiers
            .iter()
            .any(|m| m.label == "1 earlier feint(s) at Adam" && m.value == -2),
        "{:?}",
        check.modifiers
    );
    let mut staged = f.clone();
    staged.encounter.feints = vec![FeintMark {
        target: CombatantId(1),
        attempts: 2,
        ready: false,
    }];
    let (check, _) = d20::feint::specs(d, &staged, &adam).expect("a feint rule");
    assert!(check.modifiers.iter().any(|m| m.value == -4));
    // The plain cut resets it.
    b.submit(cut()).expect("the cut");
    let f = b.fighter(CombatantId(0)).expect("Betty");
    assert!(f.encounter.feints.is_empty(), "{:?}", f.encounter.feints);
}

#[test]
fn d20_feint_refusals_name_the_rule() {
    // After the round's Standard attack; at an ally; at a foe behind a wall; outside d20.
    let mut b = betty_and_adam(&[15, 3, 3, 3]);
    b.submit(cut()).expect("the cut");
    let e = b.submit(feint()).expect_err("refused");
    assert!(
        matches!(e, RuleError::FeintNeedsStandardAction { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("as a standard action"), "{e}");
    let rows = ["..#..", "..#..", "..#.."];
    let mut walled = crate::common::battle_on_with(
        rules(),
        &rows,
        vec![
            unit("betty", 0, (0, 1)),
            unit("knight", 0, (1, 1)),
            unit("adam", 1, (4, 1)),
        ],
        &[15, 1, 1],
    );
    for target in [1, 2] {
        let e = walled
            .submit(Command::Feint {
                who: CombatantId(0),
                target: CombatantId(target),
            })
            .expect_err("refused");
        assert!(matches!(e, RuleError::FeintTarget { .. }), "{e}");
    }
    let mut dbu = crate::common::dbu_pair();
    let who = dbu.turn().active().expect("someone acts");
    let e = dbu
        .submit(Command::Feint {
            who,
            target: CombatantId(1 - who.0),
        })
        .expect_err("refused");
    assert!(matches!(e, RuleError::NotInRuleset { .. }), "{e}");
}

#[test]
fn d20_feint_chance_is_exactly_what_happens() {
    // 400 seeded feints by Betty at Adam: the share that catches him agrees with the exact
    // chance the panel shows (1d20 + 7 against 1d20 + 6, natural 1s failing the roller).
    let r = rules();
    let d = r.d20().expect("d20");
    let (n, mut caught) = (400u32, 0.0);
    let mut expected = None;
    for seed in 0..n {
        let setup = BattleSetup::open(
            12,
            4,
            vec![unit("betty", 0, (4, 1)), unit("adam", 1, (5, 1))],
        );
        let mut b =
            Battle::new(r.clone(), &setup, DiceSource::seeded(u64::from(seed))).expect("starts");
        while let Some(who) = b.turn().active().filter(|w| *w != CombatantId(0)) {
            b.submit(Command::EndTurn { who }).expect("end turn");
        }
        let (me, adam) = (
            b.fighter(CombatantId(0)).expect("Betty"),
            b.fighter(CombatantId(1)).expect("Adam"),
        );
        expected.get_or_insert(d20::feint::chance(d, &me, &adam));
        b.submit(feint()).expect("feints");
        if b.events()
            .iter()
            .any(|e| matches!(e, BattleEvent::Feint { caught: true, .. }))
        {
            caught += 1.0;
        }
    }
    let p = expected.expect("computed");
    assert!(p > 0.4 && p < 0.7, "a real contest: {p}");
    assert!(
        (caught / f64::from(n) - p).abs() < 0.07,
        "{} vs {p}",
        caught / f64::from(n)
    );
}

#[test]
fn d20_computer_feints_with_one_action_left_beside_a_foe_only_a_full_round_can_hit() {
    // A Betty whose only attack is the full round, with one action left beside Adam: she cannot
    // attack this turn, so `normal` feints, for a full round off guard on her next.
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/d20");
    for entry in std::fs::read_dir(&shipped).expect("shipped d20") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a file").replace(
            "attacks: [\"great_sword_cut\", \"great_sword_full\"]",
            "attacks: [\"great_sword_full\"]",
        );
        std::fs::write(dir.path().join(path.file_name().expect("a name")), text).expect("written");
    }
    let r = Rules::load(dir.path()).expect("loads");
    let setup = BattleSetup::open(
        12,
        4,
        vec![unit("betty", 0, (4, 1)), unit("adam", 1, (5, 1))],
    );
    let mut b = Battle::new(Arc::new(r), &setup, DiceSource::scripted([15, 1])).expect("starts");
    crate::common::stage(&mut b, 0, |f| f.actions.standard = 1);
    let cmd =
        gridclash::ai::Agent::new(gridclash::ai::Policy::Normal, 3).command(&mut b, CombatantId(0));
    assert_eq!(cmd, feint(), "{cmd:?}");
}

#[test]
fn d20_an_unseen_attacker_in_dense_smoke_puts_the_target_off_guard() {
    // "Undetectable or unseen attackers" (our reading): Adam shooting out of dense smoke (Good
    // concealment +4) from beyond melee range; not out of foliage (+2), and not beside the
    // target, who sees who strikes it.
    let r = rules();
    let strike_terms = |smoke: char, adam_at: (i32, i32)| -> Vec<String> {
        let mut setup = BattleSetup::open(
            12,
            4,
            vec![unit("adam", 0, adam_at), unit("betty", 1, (8, 1))],
        );
        setup.map.set(
            Square::new(adam_at.0, adam_at.1),
            r.terrain_by_symbol(smoke).expect("terrain"),
        );
        let mut b = Battle::new(r.clone(), &setup, DiceSource::scripted([15, 1])).expect("starts");
        off_guard_terms(&mut b, "bow_shot")
    };
    assert_eq!(
        strike_terms('m', (2, 1)),
        ["off guard: unseen in Dense smoke +2"]
    );
    assert!(strike_terms('f', (2, 1)).is_empty(), "foliage is only +2");
    assert!(strike_terms('m', (7, 1)).is_empty(), "beside the target");
}
