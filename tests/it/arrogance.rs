//! The Arrogant Declaration maneuver (digest §3.3): Superiority until the end of one's next
//! turn for an Action, once per encounter, then −1(bT) to Combat Rolls, Surgency and Soak for
//! the rest of it; the Exploits it provokes; one Minion per encounter.

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackTarget, Command, Decision, RuleError};
use gridclash::battle::components::{Arrogance, CombatantId, Expiry, ExploitPolicy};
use gridclash::ruleset::ConditionKind;

use crate::common::*;

fn declare(who: u32) -> Command {
    Command::ArrogantDeclaration {
        who: CombatantId(who),
    }
}

fn end_turn(who: u32) -> Command {
    Command::EndTurn {
        who: CombatantId(who),
    }
}

/// Brawler (id 0) beside Ki Blaster (id 1), Brawler first.
fn brawler_first() -> Battle {
    duel("brawler", "ki_blaster", &[])
}

#[test]
fn dbu_arrogant_declaration_gives_superiority_until_the_end_of_the_next_turn() {
    let mut b = brawler_first();
    let round = b.turn().round;
    let before = b.fighter(CombatantId(0)).expect("Brawler");
    let got = run(&mut b, declare(0));
    assert_contains(
        &got,
        &[
            "Brawler makes an Arrogant Declaration: Superiority until the end of its next turn, then a lasting penalty.",
        ],
    );
    let after = b.fighter(CombatantId(0)).expect("Brawler");
    assert_eq!(after.actions.usable(), before.actions.usable() - 1);
    assert_eq!(after.encounter.arrogance, Some(Arrogance::Superior));
    let sup = after
        .conditions
        .get(ConditionKind::Superiority)
        .expect("Superiority given");
    assert_eq!(
        sup.expires,
        Expiry::EndOfTurn {
            round: round + 1,
            of: CombatantId(0)
        }
    );
    // The Superiority die is on the Brawler's Strike now, and no penalty yet.
    let preview = b
        .preview(&attack(
            0,
            "simple",
            AttackTarget::Combatant(CombatantId(1)),
        ))
        .expect("a Simple can be previewed");
    let strike = &preview.odds.targets[0][0].strike;
    assert!(
        strike.terms.iter().any(|t| t.label == "Superiority die"),
        "{:?}",
        strike.terms
    );
    assert!(
        !strike
            .terms
            .iter()
            .any(|t| t.label == "after Arrogant Declaration"),
        "{:?}",
        strike.terms
    );
}

#[test]
fn dbu_arrogant_declaration_is_made_once_a_combat_encounter() {
    let mut b = brawler_first();
    run(&mut b, declare(0));
    assert_eq!(b.check(&declare(0)), Err(RuleError::ArroganceMade));
}

#[test]
fn dbu_after_arrogant_declaration_combat_rolls_surgency_and_soak_take_one_bt() {
    // Ki Blaster (id 0) first, beside Brawler (id 1); both made their declaration and its
    // Superiority is over.
    let mut b = duel("ki_blaster", "brawler", &[]);
    let rules = rules();
    let sphere = attack(0, "sphere", AttackTarget::Combatant(CombatantId(1)));
    let plain = b.preview(&sphere).expect("a Sphere can be previewed");
    let brawler = b.fighter(CombatantId(1)).expect("Brawler");
    let soak = brawler.derived(&rules).soak;
    for id in [0, 1] {
        stage(&mut b, id, |f| {
            f.encounter.arrogance = Some(Arrogance::Superior)
        });
    }
    let (bt0, bt1) = (
        i64::from(
            b.fighter(CombatantId(0))
                .expect("Ki Blaster")
                .power
                .base_tier,
        ),
        i64::from(brawler.power.base_tier),
    );
    let after = b.fighter(CombatantId(1)).expect("Brawler");
    assert_eq!(after.arrogance_penalty(&rules), bt1);
    assert_eq!(after.derived(&rules).soak, soak - bt1);
    let odds = b.preview(&sphere).expect("a Sphere can be previewed").odds;
    let dodge = &odds.targets[0][0];
    let penalty = |terms: &[gridclash::battle::odds::Term], v: i64| {
        terms
            .iter()
            .any(|t| t.label == "after Arrogant Declaration" && t.value == Some(-v))
    };
    assert!(
        penalty(&dodge.strike.terms, bt0),
        "{:?}",
        dodge.strike.terms
    );
    assert!(
        penalty(&dodge.defense_roll.terms, bt1),
        "{:?}",
        dodge.defense_roll.terms
    );
    assert!(penalty(&odds.wound.terms, bt0), "{:?}", odds.wound.terms);
    // A Sphere is Standard: all of the Soak is used, so one bT less of it.
    assert_eq!(dodge.soak_used, plain.odds.targets[0][0].soak_used - bt1);
    let surge = gridclash::battle::checks::healing_surge_spec(&rules, &after);
    assert!(
        surge
            .modifiers
            .iter()
            .any(|m| m.label == "after Arrogant Declaration" && m.value == -bt1),
        "{:?}",
        surge.modifiers
    );
}

#[test]
fn dbu_the_arrogant_declarations_penalty_starts_when_its_superiority_ends() {
    let mut b = brawler_first();
    run(&mut b, declare(0));
    // Brawler's turn ends, the Ki Blaster's, then the Brawler's next: Superiority ends there.
    let mut got = Vec::new();
    for who in [0, 1, 0] {
        got.extend(run(&mut b, end_turn(who)));
    }
    let bt = b
        .fighter(CombatantId(0))
        .map(|f| f.power.base_tier)
        .expect("Brawler");
    assert_contains(
        &got,
        &[&format!(
            "Brawler's Arrogant Declaration is spent: -{bt} to Combat Rolls, Surgency and Soak for the rest of the encounter."
        )],
    );
    let f = b.fighter(CombatantId(0)).expect("Brawler");
    assert!(!f.conditions.has(ConditionKind::Superiority));
    assert_eq!(f.arrogance_penalty(&rules()), i64::from(bt));
}

#[test]
fn dbu_arrogant_declaration_provokes_exploits_before_the_superiority() {
    let mut blaster = unit("ki_blaster", 1, 6, 5);
    blaster.controller.exploits = ExploitPolicy::Prompt;
    let mut b = battle(vec![unit("brawler", 0, 5, 5), blaster], &[10, 1]);
    let got = run(&mut b, declare(0));
    assert_contains(
        &got,
        &["Brawler makes an Arrogant Declaration at (5, 5) beside Ki Blaster: Exploit!"],
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
            .starts_with("Brawler makes an Arrogant Declaration beside Ki Blaster."),
        "the prompt says why"
    );
    let waiting = b.fighter(CombatantId(0)).expect("Brawler");
    assert!(!waiting.conditions.has(ConditionKind::Superiority));
    assert_eq!(waiting.encounter.arrogance, Some(Arrogance::Declared));
    assert_eq!(waiting.arrogance_penalty(&rules()), 0, "no penalty yet");
    run(
        &mut b,
        Command::Exploit {
            who: CombatantId(1),
            order: None,
        },
    );
    let f = b.fighter(CombatantId(0)).expect("Brawler");
    assert!(f.conditions.has(ConditionKind::Superiority));
}

#[test]
fn dbu_only_one_minion_per_encounter_may_use_arrogant_declaration() {
    let mut b = battle(
        vec![
            unit("grunt", 0, 5, 5),
            unit("grunt", 0, 5, 7),
            unit("brawler", 1, 12, 5),
        ],
        &[10, 9, 1],
    );
    run(&mut b, declare(0));
    run(&mut b, end_turn(0));
    assert_eq!(b.turn().active(), Some(CombatantId(1)));
    assert_eq!(
        b.check(&declare(1)),
        Err(RuleError::MinionArrogance { limit: 1 })
    );
}

#[test]
fn dbu_a_charging_unit_may_not_make_an_arrogant_declaration() {
    let mut b = duel("ki_blaster", "brawler", &[]);
    run(
        &mut b,
        Command::EnergyCharge {
            who: CombatantId(0),
            profile: "sphere".into(),
            technique: None,
        },
    );
    assert!(matches!(
        b.check(&declare(0)),
        Err(RuleError::Charging { .. })
    ));
}

#[test]
fn dbu_arrogant_declaration_is_refused_in_a_ruleset_without_it() {
    let d20 = ruleset("d20").clone();
    let units = vec![unit("adam", 0, 2, 2), unit("betty", 1, 8, 2)];
    let mut b = battle_with(d20, units, &[]);
    let who = b.turn().active().expect("someone acts first");
    let got = b.check(&declare(who.0));
    assert!(
        matches!(got, Err(RuleError::NotInRuleset { .. })),
        "{got:?}"
    );
}
