//! Defense Declaration: Dodge or Parry, prompts, and Diminishing Defense.

use gridclash::battle::command::DefenseChoice;
use gridclash::battle::command::{Command, Decision, RuleError};
use gridclash::battle::components::{CombatantId, DefensePolicy};

use crate::common::*;

fn with_defense(b: &mut gridclash::battle::Battle, id: u32, p: DefensePolicy) {
    use gridclash::battle::components::Controller;
    let world = b.world_mut();
    let mut q = world.query::<(&CombatantId, &mut Controller)>();
    for (cid, mut c) in q.iter_mut(world) {
        if cid.0 == id {
            c.defense = p;
        }
    }
}

#[test]
fn dbu_parry_spends_a_counter_action_and_rolls_the_strike() {
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 6, 2]);
    with_defense(&mut b, 1, DefensePolicy::AlwaysParry);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler will Parry.",
            "Brawler spends a Counter Action on Parry.",
            "Ki Blaster: Strike 16 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 5",
            "Brawler: Parry 14 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3",
            "Strike 16 beats 14: Ki Blaster hits Brawler.",
        ],
    );
    assert_eq!(b.fighter(CombatantId(1)).unwrap().actions.counter, 0);
}

#[test]
fn dbu_parry_converts_a_standard_action_when_no_counter_action_is_left() {
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 9, 4]);
    with_defense(&mut b, 1, DefensePolicy::AlwaysParry);
    stage(&mut b, 1, |f| f.actions.counter = 0);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler will Parry.",
            "Brawler converts a Standard Action into a Counter Action.",
            "Brawler spends a Counter Action on Parry.",
        ],
    );
    let a = b.fighter(CombatantId(1)).unwrap().actions;
    assert_eq!((a.standard, a.counter), (2, 0));
}

#[test]
fn dbu_parry_takes_one_bt_per_energy_charge_on_the_attack() {
    // Beam carries one free Energy Charge.
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 9, 4]);
    with_defense(&mut b, 1, DefensePolicy::AlwaysParry);
    let got = run(&mut b, hit(0, "beam", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Parry 17 = d10:9 + d4:4 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3 - Energy Charges on the attack (1) 2",
        ],
    );
}

#[test]
fn dbu_defense_declaration_waits_for_a_prompted_defender() {
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 2, 1, 4, 3]);
    with_defense(&mut b, 1, DefensePolicy::Prompt);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_eq!(
        got.last().map(String::as_str),
        Some("Ki Blaster attacks Brawler with Simple: Ki cost 0, wager 0.")
    );
    assert_eq!(
        b.awaiting(),
        Some(&Decision::Defense {
            defender: CombatantId(1),
            attacker: CombatantId(0)
        })
    );
    // Nothing else may happen until the defender answers, and only the defender may answer.
    assert!(matches!(
        b.submit(Command::EndTurn {
            who: CombatantId(0)
        }),
        Err(RuleError::AwaitingDecision(_))
    ));
    let got = run(
        &mut b,
        Command::Defend {
            defender: CombatantId(1),
            choice: DefenseChoice::Dodge,
            counter: None,
        },
    );
    assert_contains(
        &got,
        &[
            "Brawler will Dodge.",
            "Ki Blaster: Strike 16 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 5",
            "Brawler: Dodge 9 = d10:2 + d4:1 [ToP 2 Extra Dice] + Defense Value 6",
        ],
    );
    assert_eq!(b.awaiting(), None);
    assert_dice_used(&b);
}

#[test]
fn dbu_best_defense_policy_parries_only_when_clearly_better() {
    // Against a Rage (automatic hit) both are equal, so it keeps its Counter Action.
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 4, 3]);
    with_defense(&mut b, 1, DefensePolicy::Best);
    give(&mut b, 0, gridclash::ruleset::ConditionKind::Rage, None);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(&got, &["Brawler will Dodge."]);
}

#[test]
fn dbu_diminishing_defense_stacks_per_attack_and_clears_each_round() {
    let mut b = duel(
        "brawler",
        "ki_blaster",
        &[1, 1, 9, 4, 1, 1, 9, 4, 1, 1, 9, 4],
    );
    run(&mut b, hit(0, "simple", 1));
    run(&mut b, hit(0, "simple", 1));
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Dodge 17 = d10:9 + d4:4 [ToP 2 Extra Dice] + Defense Value 6 - Diminishing Defense 2",
        ],
    );
    assert_eq!(b.fighter(CombatantId(1)).unwrap().defense.diminishing, 3);
    // The Brawler is out of actions; the Ki Blaster ends its turn; round 2 clears it.
    b.submit(Command::EndTurn {
        who: CombatantId(1),
    })
    .unwrap();
    assert_eq!(b.turn().round, 2);
    assert_eq!(b.fighter(CombatantId(1)).unwrap().defense.diminishing, 0);
}

#[test]
fn dbu_diminishing_defense_scales_with_base_tier_of_power() {
    // Base ToP 3: -2 per attack.
    let mut b = duel("brawler", "champion", &[1, 1, 9, 4]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(&got, &["Champion's Diminishing Defense: -2 (now -2)."]);
}

#[test]
fn dbu_defense_prompt_shows_the_odds_the_attack_was_previewed_with() {
    // A prompted defender sees the exact odds of Dodge, Parry and Reflect: the same figures the
    // attacker's preview gave for this order, from the same context assembly.
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 2, 1, 4, 3]);
    with_defense(&mut b, 1, DefensePolicy::Prompt);
    assert_eq!(b.defense_odds(), None, "no question, no odds");
    let order = attack(
        0,
        "sphere",
        gridclash::battle::command::AttackTarget::Combatant(CombatantId(1)),
    );
    let previewed = b.preview(&order).expect("legal").odds.targets[0].clone();
    run(&mut b, Command::Attack(order));
    let answers = b.defense_odds().expect("the defender is asked");
    assert_eq!(
        answers.len(),
        3,
        "DBU offers Dodge, Parry and, against an Energy attack, Reflect"
    );
    assert_eq!(answers[0].defense, DefenseChoice::Dodge);
    assert_eq!(answers[1].defense, DefenseChoice::Parry);
    assert_eq!(answers[2].defense, DefenseChoice::Reflect);
    assert!(answers[2].reflected.is_some_and(|r| r.chance > 0.0));
    assert_eq!(answers, previewed);
}
