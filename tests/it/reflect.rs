//! Parry's Reflect (DBU, digest §3.5): a Parry that wins against an Energy or Magical attack
//! pays 5(T) Ki and sends the attack back at its attacker with its own Wound Roll. The dice are
//! scripted: a ToP 2 Strike or Parry rolls a d10 and a d4.

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, DefenseChoice, RuleError};
use gridclash::battle::components::{CombatantId, DefensePolicy};

use crate::common::*;

/// Sets how unit `id` answers attacks.
fn answers_with(b: &mut Battle, id: u32, policy: DefensePolicy) {
    use gridclash::battle::components::Controller;
    let world = b.world_mut();
    let mut q = world.query::<(&CombatantId, &mut Controller)>();
    for (cid, mut c) in q.iter_mut(world) {
        if cid.0 == id {
            c.defense = policy;
        }
    }
}

fn answer(b: &mut Battle, choice: DefenseChoice) -> Vec<String> {
    run(
        b,
        Command::Defend {
            defender: CombatantId(1),
            choice,
            counter: None,
        },
    )
}

fn offered(b: &mut Battle) -> Vec<DefenseChoice> {
    b.defense_odds()
        .map(|v| v.iter().map(|o| o.defense).collect())
        .unwrap_or_default()
}

#[test]
fn dbu_reflect_sends_a_won_parry_back_at_the_attacker() {
    // Strike 1+1, Parry 9+4: the Parry wins; the Wound 8+3 comes back at the Ki Blaster.
    let mut b = duel("ki_blaster", "brawler", &[1, 1, 9, 4, 8, 3]);
    answers_with(&mut b, 1, DefensePolicy::Prompt);
    let life = b.fighter(CombatantId(0)).unwrap().life.current;
    let ki = b.fighter(CombatantId(1)).unwrap().ki.current;
    run(&mut b, hit(0, "sphere", 1));
    assert!(offered(&mut b).contains(&DefenseChoice::Reflect));
    let got = answer(&mut b, DefenseChoice::Reflect);
    assert_contains(
        &got,
        &[
            "Brawler will Reflect.",
            "Brawler spends a Counter Action on Reflect.",
        ],
    );
    assert_contains(
        &got,
        &[
            "Strike 6 against 19: Ki Blaster misses Brawler (the defender wins ties).",
            "Ki Blaster: Wound 18 = d10:8 + d4:3 [ToP 2 Extra Dice] + Force (FO 7) 7",
            "Brawler reflects the Sphere back at Ki Blaster!",
            "Brawler Ki 98 -> 88 (Reflect).",
            "Brawler Capacity 36 -> 26 (Ki spent this round).",
            "Ki Blaster takes 14 Standard damage (Wound 18 - Soak 4 of 4).",
            "Ki Blaster Life 168 -> 154 (Brawler's Sphere).",
        ],
    );
    assert_eq!(b.fighter(CombatantId(0)).unwrap().life.current, life - 14);
    // 5(T) Ki at ToP 2.
    assert_eq!(b.fighter(CombatantId(1)).unwrap().ki.current, ki - 10);
    assert_eq!(b.fighter(CombatantId(1)).unwrap().life.current, {
        let f = b.fighter(CombatantId(1)).unwrap();
        f.life.max
    });
    assert_dice_used(&b);
}

#[test]
fn dbu_reflect_that_loses_its_parry_costs_no_ki() {
    // Strike 9+4 beats the Parry 1+1: the Sphere hits, nothing comes back, no Ki is paid.
    let mut b = duel("ki_blaster", "brawler", &[9, 4, 1, 1, 8, 3]);
    answers_with(&mut b, 1, DefensePolicy::Prompt);
    let life = b.fighter(CombatantId(0)).unwrap().life.current;
    let ki = b.fighter(CombatantId(1)).unwrap().ki.current;
    run(&mut b, hit(0, "sphere", 1));
    let got = answer(&mut b, DefenseChoice::Reflect);
    assert!(!got.iter().any(|l| l.contains("reflects")), "{got:#?}");
    assert_eq!(b.fighter(CombatantId(0)).unwrap().life.current, life);
    assert_eq!(b.fighter(CombatantId(1)).unwrap().ki.current, ki);
    assert_eq!(b.fighter(CombatantId(1)).unwrap().actions.counter, 0);
}

#[test]
fn dbu_reflect_is_refused_against_a_physical_attack() {
    let mut b = duel("ki_blaster", "brawler", &[1, 1, 9, 4]);
    answers_with(&mut b, 1, DefensePolicy::Prompt);
    run(&mut b, hit(0, "simple", 1));
    assert!(!offered(&mut b).contains(&DefenseChoice::Reflect));
    let err = b
        .submit(Command::Defend {
            defender: CombatantId(1),
            choice: DefenseChoice::Reflect,
            counter: None,
        })
        .expect_err("a Physical attack cannot be reflected");
    assert!(matches!(err, RuleError::DefenseNotOffered { .. }), "{err}");
}

#[test]
fn dbu_reflect_needs_the_ki_for_it() {
    let mut b = duel("ki_blaster", "brawler", &[1, 1, 9, 4]);
    answers_with(&mut b, 1, DefensePolicy::Prompt);
    stage(&mut b, 1, |f| f.ki.current = 9);
    run(&mut b, hit(0, "sphere", 1));
    assert!(offered(&mut b).contains(&DefenseChoice::Parry));
    assert!(!offered(&mut b).contains(&DefenseChoice::Reflect));
}

#[test]
fn dbu_reflect_odds_match_the_damage_seeded_reflections_deal() {
    // The preview's chance of a Reflect and its expected damage to the attacker, against
    // 1,500 seeded attacks answered with a Reflect.
    let build = |seed: u64| {
        let mut u = vec![unit("ki_blaster", 0, 5, 5), unit("brawler", 1, 6, 5)];
        u[1].controller.defense = DefensePolicy::Prompt;
        Arena::new("dbu").units(u).seed(seed).build_at_unit_0()
    };
    let mut b = build(1);
    run(&mut b, hit(0, "sphere", 1));
    let odds = b.defense_odds().expect("a prompt");
    let r = odds
        .iter()
        .find(|o| o.defense == DefenseChoice::Reflect)
        .and_then(|o| o.reflected)
        .expect("Reflect odds");
    let n = 1500;
    let (mut back, mut dealt) = (0, 0.0);
    for seed in 0..n {
        let mut b = build(seed);
        let before = b.fighter(CombatantId(0)).unwrap().life.current;
        run(&mut b, hit(0, "sphere", 1));
        let got = answer(&mut b, DefenseChoice::Reflect);
        if got.iter().any(|l| l.contains("reflects the Sphere")) {
            back += 1;
        }
        dealt += (before - b.fighter(CombatantId(0)).unwrap().life.current) as f64;
    }
    let seen = f64::from(back) / n as f64;
    let sd = (r.chance * (1.0 - r.chance) / n as f64).sqrt();
    assert!(
        (seen - r.chance).abs() < 4.0 * sd,
        "chance {:.3}, seen {seen:.3}",
        r.chance
    );
    let mean = dealt / n as f64;
    assert!(
        (mean - r.expected_damage).abs() < 0.1 * r.expected_damage.max(1.0),
        "expected {:.2}, seen {mean:.2}",
        r.expected_damage
    );
}

#[test]
fn dbu_best_defense_policy_reflects_when_it_pays() {
    // A Brawler (Parry from its Strike) facing a Sphere: the Best policy takes the Reflect
    // when what it sends back outweighs the Ki.
    let mut b = duel("ki_blaster", "brawler", &[1, 1, 9, 4, 8, 3]);
    answers_with(&mut b, 1, DefensePolicy::Best);
    let got = run(&mut b, hit(0, "sphere", 1));
    assert_contains(&got, &["Brawler will Reflect."]);
}
