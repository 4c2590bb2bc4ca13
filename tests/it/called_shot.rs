//! The Called Shot modifier (digest §3.6): an Action and 2(T) Ki more, −2(T) to the Strike,
//! +1 Damage Category, the named body part's condition on a damaging hit, once a round, one
//! target only.

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackOrder, AttackTarget, Command, RuleError};
use gridclash::battle::components::CombatantId;
use gridclash::ruleset::{Category, ConditionKind};

use crate::common::*;

/// Combatant `attacker`'s `profile` at `target`, a Called Shot at `part`.
fn called(attacker: u32, profile: &str, target: u32, part: &str) -> AttackOrder {
    AttackOrder {
        called_shot: Some(part.to_string()),
        ..attack(
            attacker,
            profile,
            AttackTarget::Combatant(CombatantId(target)),
        )
    }
}

/// Brawler (id 0, ToP 2) beside Ki Blaster (id 1), Brawler first; then `faces`.
fn brawler_first(faces: &[u32]) -> Battle {
    duel("brawler", "ki_blaster", faces)
}

#[test]
fn dbu_called_shot_costs_an_action_and_two_t_ki_more_and_two_t_off_the_strike() {
    let mut b = brawler_first(&[]);
    let plain = b
        .preview(&attack(
            0,
            "simple",
            AttackTarget::Combatant(CombatantId(1)),
        ))
        .expect("a Simple can be previewed");
    let shot = b
        .preview(&called(0, "simple", 1, "gut"))
        .expect("a Called Shot can be previewed");
    // ToP 2: 2(T) is 4, in Ki and off the Strike.
    assert_eq!(shot.ki_cost, plain.ki_cost + 4);
    let strike = &shot.odds.targets[0][0].strike;
    assert!(
        strike
            .terms
            .iter()
            .any(|t| t.label == "Called Shot (Gut)" && t.value == Some(-4)),
        "{:?}",
        strike.terms
    );
    assert!((plain.odds.targets[0][0].strike.mean - strike.mean - 4.0).abs() < 1e-9);
    let before = b.fighter(CombatantId(0)).expect("Brawler");
    let got = run(&mut b, Command::Attack(called(0, "simple", 1, "gut")));
    let after = b.fighter(CombatantId(0)).expect("Brawler");
    assert_eq!(after.actions.usable(), before.actions.usable() - 2);
    assert_eq!(after.ki.current, before.ki.current - 4);
    assert_contains(
        &got,
        &[
            "Brawler spends a Standard Action on a Called Shot at the Gut.",
            "Brawler attacks Ki Blaster with Simple, a Called Shot at the Gut: Ki cost 4, wager 0.",
        ],
    );
}

#[test]
fn dbu_called_shot_raises_the_damage_category_by_one() {
    let mut b = brawler_first(&[]);
    let plain = b
        .preview(&attack(
            0,
            "simple",
            AttackTarget::Combatant(CombatantId(1)),
        ))
        .expect("a Simple can be previewed");
    let shot = b
        .preview(&called(0, "simple", 1, "head"))
        .expect("a Called Shot can be previewed");
    assert_eq!(plain.odds.targets[0][0].category, Category::Standard);
    assert_eq!(shot.odds.targets[0][0].category, Category::Direct);
    // Direct halves the Soak used.
    assert!(shot.odds.targets[0][0].soak_used < plain.odds.targets[0][0].soak_used);
}

#[test]
fn dbu_called_shot_at_the_gut_knocks_the_target_prone_when_it_deals_damage() {
    // Strike 9 and 4 against Dodge 1 and 1: a hit; a Wound of 5 and 3 + Force 8, Direct.
    let mut b = brawler_first(&[9, 4, 1, 1, 5, 3]);
    let got = run(&mut b, Command::Attack(called(0, "simple", 1, "gut")));
    let target = b.fighter(CombatantId(1)).expect("Ki Blaster");
    assert!(target.life.current < target.life.max, "{got:#?}");
    assert!(target.conditions.has(ConditionKind::Prone), "{got:#?}");
    assert!(
        got.iter()
            .any(|l| l.contains("Called Shot (Gut): +1 Damage Category")),
        "{got:#?}"
    );
}

#[test]
fn dbu_called_shot_at_the_head_impedes_and_a_miss_gives_nothing() {
    // Strike 1 and 1 against Dodge 9 and 4: a miss.
    let mut b = brawler_first(&[1, 1, 9, 4]);
    run(&mut b, Command::Attack(called(0, "simple", 1, "head")));
    let target = b.fighter(CombatantId(1)).expect("Ki Blaster");
    assert!(!target.conditions.has(ConditionKind::Impediment));
    assert_eq!(target.life.current, target.life.max);
}

#[test]
fn dbu_one_called_shot_a_round() {
    let mut b = brawler_first(&[1, 1, 9, 4]);
    run(&mut b, Command::Attack(called(0, "simple", 1, "head")));
    assert_eq!(
        b.check(&Command::Attack(called(0, "combination", 1, "arm"))),
        Err(RuleError::CalledShotThisRound)
    );
}

#[test]
fn dbu_called_shot_names_a_body_part_of_one_target() {
    let mut b = brawler_first(&[]);
    assert!(matches!(
        b.check(&Command::Attack(called(0, "sweeping", 1, "gut"))),
        Err(RuleError::CalledShotArea { .. })
    ));
    assert_eq!(
        b.check(&Command::Attack(called(0, "simple", 1, "tail"))),
        Err(RuleError::NoSuchBodyPart {
            part: "tail".into(),
            options: "head, eyes, arm, gut".into()
        })
    );
}

#[test]
fn dbu_called_shot_needs_its_own_action_besides_the_attacks() {
    let mut b = brawler_first(&[]);
    stage(&mut b, 0, |f| f.actions.standard = 1);
    assert!(matches!(
        b.check(&Command::Attack(called(0, "simple", 1, "gut"))),
        Err(RuleError::NoActions { .. })
    ));
    assert!(b.check(&hit(0, "simple", 1)).is_ok());
}

#[test]
fn dbu_called_shot_is_refused_in_a_ruleset_without_it() {
    let d20 = ruleset("d20").clone();
    let units = vec![unit("adam", 0, 2, 2), unit("betty", 1, 3, 2)];
    let mut b = battle_with(d20, units, &[]);
    let who = b.turn().active().expect("someone acts first");
    let (profile, target) = if who == CombatantId(0) {
        ("bow_shot", 1)
    } else {
        ("great_sword_cut", 0)
    };
    let got = b.check(&Command::Attack(called(who.0, profile, target, "head")));
    assert!(
        matches!(got, Err(RuleError::NotInRuleset { .. })),
        "{got:?}"
    );
}

#[test]
fn dbu_called_shot_odds_give_the_parts_condition_the_chance_of_damage() {
    let mut b = brawler_first(&[]);
    let order = called(0, "simple", 1, "gut");
    let shot = b.preview(&order).expect("a Called Shot can be previewed");
    let odds = &shot.odds.targets[0][0];
    let none = odds.damage_distribution.get(&0).copied().unwrap_or(0.0);
    assert!((odds.damage_chance() - (1.0 - none)).abs() < 1e-12);
    let brawler = b.fighter(CombatantId(0)).expect("Brawler").clone();
    let lines = gridclash::battle::odds_text::on_damage_lines(&rules(), &brawler, &order, odds);
    assert!(
        lines.len() == 1
            && lines[0].contains(&gridclash::battle::odds_text::pct(odds.damage_chance()))
            && lines[0].contains("Prone until it stands up"),
        "{lines:?}"
    );
    let plain = attack(0, "simple", AttackTarget::Combatant(CombatantId(1)));
    assert!(
        gridclash::battle::odds_text::on_damage_lines(&rules(), &brawler, &plain, odds).is_empty()
    );
}
