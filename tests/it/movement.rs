//! Movement, Exploits, lines of sight, cover, terrain and reach on the battlefield.

use gridclash::battle::command::{AttackTarget, Command, Decision, RuleError};
use gridclash::battle::components::{CombatantId, ExploitPolicy, Square};
use gridclash::battle::setup::UnitSetup;

use crate::common::*;

const OPEN: [&str; 8] = [
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
];

fn sq(x: i32, y: i32) -> Square {
    Square::new(x, y)
}

fn path(points: &[(i32, i32)]) -> Vec<Square> {
    points.iter().map(|(x, y)| sq(*x, *y)).collect()
}

fn mv(who: u32, points: &[(i32, i32)], boosted: bool) -> Command {
    Command::Move {
        who: CombatantId(who),
        path: path(points),
        boosted,
    }
}

fn far_duel(rows: &[&str]) -> gridclash::battle::Battle {
    battle_on(
        rows,
        vec![unit("brawler", 0, 1, 1), unit("ki_blaster", 1, 15, 7)],
        &[10, 1],
    )
}

#[test]
fn dbu_a_move_costs_an_action_and_covers_up_to_normal_speed() {
    let mut b = far_duel(&OPEN);
    let got = run(
        &mut b,
        mv(0, &[(2, 1), (3, 1), (4, 2), (5, 2), (6, 2)], false),
    );
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on a move.",
            "Brawler moves at Normal Speed, cost 5: (2, 1) -> (3, 1) -> (4, 2) -> (5, 2) -> (6, 2).",
        ]
    );
    assert_eq!(b.fighter(CombatantId(0)).unwrap().position, Some(sq(6, 2)));
    assert_eq!(
        b.submit(mv(
            0,
            &[(7, 2), (8, 2), (9, 2), (10, 2), (11, 2), (12, 2)],
            false
        )),
        Err(RuleError::PathTooLong { cost: 6, speed: 5 })
    );
}

#[test]
fn dbu_boosted_speed_reaches_further_for_three_t_ki() {
    let mut b = far_duel(&OPEN);
    let steps: Vec<(i32, i32)> = (2..=9).map(|x| (x, 1)).collect();
    let got = run(&mut b, mv(0, &steps, true));
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on a move at Boosted Speed.",
            "Brawler Ki 98 -> 92 (Boosted Speed costs 3(T)).",
            "Brawler Capacity 36 -> 30 (Ki spent this round).",
            "Brawler moves at Boosted Speed, cost 8: (2, 1) -> (3, 1) -> (4, 1) -> (5, 1) -> (6, 1) -> (7, 1) -> (8, 1) -> (9, 1).",
        ]
    );
}

#[test]
fn dbu_difficult_terrain_costs_double() {
    let mut b = far_duel(&[
        "................",
        "..::............",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
    ]);
    assert_eq!(
        b.submit(mv(0, &[(2, 1), (3, 1), (4, 1), (5, 1)], false)),
        Err(RuleError::PathTooLong { cost: 6, speed: 5 })
    );
    let got = run(&mut b, mv(0, &[(2, 1), (3, 1), (4, 1)], false));
    assert_contains(
        &got,
        &["Brawler moves at Normal Speed, cost 5: (2, 1) -> (3, 1) -> (4, 1)."],
    );
}

#[test]
fn dbu_walls_and_opponents_block_a_path_and_a_move_never_ends_on_someone() {
    let mut b = battle_on(
        &[
            "................",
            "..#.............",
            "................",
            "................",
            "................",
            "................",
            "................",
            "................",
        ],
        vec![
            unit("brawler", 0, 1, 1),
            unit("ki_blaster", 1, 3, 2),
            unit("gunner", 0, 2, 0),
        ],
        &[10, 1, 1],
    );
    assert_eq!(
        b.submit(mv(0, &[(2, 1)], false)),
        Err(RuleError::PathBlocked {
            at: sq(2, 1),
            why: "it is off the map or cannot be entered"
        })
    );
    assert_eq!(
        b.submit(mv(0, &[(2, 2), (3, 2), (4, 2)], false)),
        Err(RuleError::PathBlocked {
            at: sq(3, 2),
            why: "an opponent stands there"
        })
    );
    assert_eq!(
        b.submit(mv(0, &[(2, 0)], false)),
        Err(RuleError::EndsOccupied { at: sq(2, 0) })
    );
    assert_eq!(
        b.submit(mv(0, &[(3, 1)], false)),
        Err(RuleError::PathNotAdjacent {
            from: sq(1, 1),
            to: sq(3, 1)
        })
    );
    assert_eq!(b.submit(mv(0, &[], false)), Err(RuleError::EmptyPath));
    // Through the ally at (2, 0), around the wall.
    run(&mut b, mv(0, &[(2, 0), (3, 0), (4, 1)], false));
    assert_eq!(b.fighter(CombatantId(0)).unwrap().position, Some(sq(4, 1)));
}

#[test]
fn dbu_a_diagonal_step_cannot_squeeze_between_two_walls() {
    let mut b = far_duel(&[
        "................",
        "..#.............",
        ".#..............",
        "................",
        "................",
        "................",
        "................",
        "................",
    ]);
    // From (1, 1) to (2, 2) passes the corner between the walls at (2, 1) and (1, 2).
    assert_eq!(
        b.submit(mv(0, &[(2, 2)], false)),
        Err(RuleError::PathBlocked {
            at: sq(2, 2),
            why: "the corner between two walls is closed"
        })
    );
    assert!(
        b.move_options(CombatantId(0), false)
            .get(&sq(2, 2))
            .is_some_and(|r| r.cost > 1)
    );
}

#[test]
fn dbu_at_most_two_moves_a_round() {
    let mut b = far_duel(&OPEN);
    run(&mut b, mv(0, &[(2, 1)], false));
    run(&mut b, mv(0, &[(3, 1)], false));
    assert_eq!(
        b.submit(mv(0, &[(4, 1)], false)),
        Err(RuleError::MoveLimit { limit: 2 })
    );
}

#[test]
fn dbu_move_options_and_paths_follow_the_cheapest_route() {
    let mut b = far_duel(&[
        "................",
        "................",
        ".#..............",
        ".#..............",
        "................",
        "................",
        "................",
        "................",
    ]);
    let options = b.move_options(CombatantId(0), false);
    // Speed 5 on an open 16 x 8 map from (1, 1), walls at (1, 2) and (1, 3).
    assert_eq!(options.get(&sq(6, 1)).map(|r| r.cost), Some(5));
    assert!(!options.contains_key(&sq(7, 1)));
    assert_eq!(options.get(&sq(1, 4)).map(|r| r.cost), Some(3));
    let p = b.path_to(CombatantId(0), sq(1, 4), false).unwrap();
    assert_eq!(p.len(), 3);
    assert_eq!(p.last(), Some(&sq(1, 4)));
    assert!(
        b.check(&Command::Move {
            who: CombatantId(0),
            path: p,
            boosted: false
        })
        .is_ok()
    );
}

fn exploit_duel(faces: &[u32]) -> gridclash::battle::Battle {
    let mut blaster = unit("ki_blaster", 1, 6, 5);
    blaster.controller.exploits = ExploitPolicy::Prompt;
    let mut all = vec![10, 1];
    all.extend_from_slice(faces);
    battle_on(&OPEN, vec![unit("brawler", 0, 5, 5), blaster], &all)
}

#[test]
fn dbu_leaving_melee_range_provokes_an_exploit_whose_damage_stops_the_move() {
    let mut b = exploit_duel(&[6, 2, 2, 1, 4, 3]);
    let got = run(&mut b, mv(0, &[(4, 5), (3, 5)], false));
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on a move.",
            "Brawler leaves Ki Blaster's reach at (5, 5): Exploit!",
        ]
    );
    assert_eq!(
        b.awaiting(),
        Some(&Decision::Exploit {
            who: CombatantId(1),
            mover: CombatantId(0)
        })
    );
    let got = run(
        &mut b,
        Command::Exploit {
            who: CombatantId(1),
            order: Some(attack(1, "simple", AttackTarget::Combatant(CombatantId(0)))),
        },
    );
    assert_eq!(
        got,
        [
            "Ki Blaster spends a Counter Action on an Exploit (Simple).",
            "Ki Blaster attacks Brawler with Simple: Ki cost 0, wager 0.",
            "Brawler will Dodge.",
            "Ki Blaster: Strike 16 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 5",
            "Brawler: Dodge 9 = d10:2 + d4:1 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 16 beats 9: Ki Blaster hits Brawler.",
            "Ki Blaster: Wound 14 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 7) 7",
            "Brawler takes 8 Standard damage (Wound 14 - Soak 6 of 6).",
            "Brawler Life 183 -> 175 (Ki Blaster's Simple).",
            "Brawler's Diminishing Defense: -1 (now -1).",
            "Ki Blaster's attack ends.",
            "Brawler moves at Normal Speed, cost 0: stays put (stopped by an Exploit).",
        ]
    );
    assert_eq!(b.fighter(CombatantId(0)).unwrap().position, Some(sq(5, 5)));
    assert_eq!(b.fighter(CombatantId(1)).unwrap().actions.counter, 0);
    assert_dice_used(&b);
}

#[test]
fn dbu_an_exploit_that_misses_or_is_declined_lets_the_move_go_on() {
    let mut b = exploit_duel(&[1, 1, 9, 4]);
    run(&mut b, mv(0, &[(4, 5), (3, 5)], false));
    let got = run(
        &mut b,
        Command::Exploit {
            who: CombatantId(1),
            order: Some(attack(1, "simple", AttackTarget::Combatant(CombatantId(0)))),
        },
    );
    assert_eq!(
        got.last().map(String::as_str),
        Some("Brawler moves at Normal Speed, cost 2: (4, 5) -> (3, 5).")
    );
    let mut b = exploit_duel(&[]);
    run(&mut b, mv(0, &[(4, 5), (3, 5)], false));
    let got = run(
        &mut b,
        Command::Exploit {
            who: CombatantId(1),
            order: None,
        },
    );
    assert_eq!(
        got,
        ["Brawler moves at Normal Speed, cost 2: (4, 5) -> (3, 5)."]
    );
}

#[test]
fn dbu_exploit_must_be_a_basic_attack_on_the_mover() {
    let mut b = exploit_duel(&[]);
    run(&mut b, mv(0, &[(4, 5)], false));
    let mut o = attack(1, "simple", AttackTarget::Combatant(CombatantId(0)));
    o.attacker = CombatantId(0);
    assert!(
        b.submit(Command::Exploit {
            who: CombatantId(1),
            order: Some(o)
        })
        .is_err()
    );
    assert!(matches!(
        b.submit(Command::EndTurn {
            who: CombatantId(0)
        }),
        Err(RuleError::AwaitingDecision(_))
    ));
}

#[test]
fn dbu_an_automatic_exploit_spends_the_counter_action() {
    let mut blaster = unit("ki_blaster", 1, 6, 5);
    blaster.controller.exploits = ExploitPolicy::Always;
    let mut b = gridclash::battle::Battle::new(
        rules(),
        &{
            let mut s = gridclash::battle::setup::BattleSetup::open(
                16,
                8,
                vec![unit("brawler", 0, 5, 5), blaster],
            );
            s.map = gridclash::grid::Map::filled(16, 8, 0);
            s
        },
        gridclash::dice::DiceSource::seeded(3),
    )
    .unwrap();
    while b.active() != Some(CombatantId(0)) {
        let who = b.active().unwrap();
        b.submit(Command::EndTurn { who }).unwrap();
    }
    let got = run(&mut b, mv(0, &[(4, 5), (3, 5)], false));
    assert_contains(
        &got,
        &["Brawler leaves Ki Blaster's reach at (5, 5): Exploit!"],
    );
    assert!(
        got.iter()
            .any(|l| l.starts_with("Ki Blaster spends a Counter Action on an Exploit"))
    );
    assert!(
        got.last()
            .unwrap()
            .starts_with("Brawler moves at Normal Speed")
    );
    assert_eq!(b.fighter(CombatantId(1)).unwrap().actions.counter, 0);
}

#[test]
fn dbu_walls_block_the_line_of_sight_for_single_targets() {
    let mut b = battle_on(
        &[
            "................",
            "................",
            "....#...........",
            "................",
            "................",
            "................",
            "................",
            "................",
        ],
        vec![unit("ki_blaster", 0, 2, 2), unit("brawler", 1, 7, 2)],
        &[10, 1],
    );
    assert_eq!(
        b.submit(hit(0, "sphere", 1)),
        Err(RuleError::NoLineOfSight(CombatantId(1)))
    );
}

#[test]
fn dbu_cover_takes_its_hardness_value_off_single_target_damage() {
    // Crates (Hardness Rank 1) beside the Brawler, on the Gunner's line: 2 x 1 x bT 2 = 4.
    let mut b = battle_on(
        &[
            "................",
            "................",
            "................",
            "................",
            "................",
            "....c...........",
            "................",
            "................",
        ],
        vec![unit("gunner", 0, 1, 5), unit("brawler", 1, 5, 5)],
        &[10, 1, 7, 3, 2, 2, 6, 1],
    );
    let got = run(&mut b, hit(0, "shot", 1));
    assert_contains(
        &got,
        &[
            "Brawler takes 3 Standard damage (Wound 13 - Soak 6 of 6) [cover behind Crates at (4, 5): -4].",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_standing_in_a_bog_takes_one_bt_off_combat_rolls() {
    let mut b = battle_on(
        &[
            "................",
            "................",
            "................",
            "................",
            "................",
            ".....~..........",
            "................",
            "................",
        ],
        vec![unit("brawler", 0, 5, 5), unit("ki_blaster", 1, 6, 5)],
        &[10, 1, 6, 2, 9, 4],
    );
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Strike 12 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3 - standing in Bog 2",
        ],
    );
}

#[test]
fn dbu_large_combatants_reach_from_their_nearest_squares() {
    // An Enormous (2 x 2) fighter has a Melee Attack Range of 2.
    let mut giant = rules().archetype("brawler").unwrap().clone();
    giant.size = "Enormous".into();
    let mut u = UnitSetup::new("brawler", 0, sq(2, 2));
    u.inline = Some(giant);
    u.controller = unit("brawler", 0, 0, 0).controller;
    let mut b = battle_on(&OPEN, vec![u, unit("ki_blaster", 1, 5, 3)], &[10, 1]);
    // Nearest squares (3, 3) and (5, 3): distance 2.
    assert_eq!(b.check(&hit(0, "simple", 1)), Ok(()));
    let f = b.fighter(CombatantId(0)).unwrap();
    assert_eq!((f.size.squares, f.size.melee_range), (2, 2));
    // Moving east one square, the 2 x 2 footprint needs both squares free.
    assert!(b.check(&mv(0, &[(3, 2)], false)).is_ok());
    assert_eq!(
        b.submit(mv(0, &[(4, 2)], false)),
        Err(RuleError::PathNotAdjacent {
            from: sq(2, 2),
            to: sq(4, 2)
        })
    );
}

#[test]
fn dbu_round_limit_ends_the_battle_with_its_outcome() {
    let rules = rules();
    let mut setup = gridclash::battle::setup::BattleSetup::open(
        16,
        8,
        vec![unit("brawler", 0, 1, 1), unit("ki_blaster", 1, 14, 6)],
    );
    setup.victory.round_limit = Some((1, gridclash::battle::state::LimitOutcome::Draw));
    let mut b = gridclash::battle::Battle::new(
        rules.clone(),
        &setup,
        gridclash::dice::DiceSource::scripted([10, 1]),
    )
    .unwrap();
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .unwrap();
    let got = run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(1),
        },
    );
    assert_eq!(
        got,
        [
            "Ki Blaster ends the turn.",
            "Battle over after round 1, the round limit: a draw.",
        ]
    );
    setup.victory.round_limit = Some((1, gridclash::battle::state::LimitOutcome::SideWins(1)));
    let mut b = gridclash::battle::Battle::new(
        rules,
        &setup,
        gridclash::dice::DiceSource::scripted([10, 1]),
    )
    .unwrap();
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .unwrap();
    b.submit(Command::EndTurn {
        who: CombatantId(1),
    })
    .unwrap();
    assert_eq!(
        b.outcome().map(|o| o.winner),
        Some(Some(gridclash::battle::components::Side(1)))
    );
}

#[test]
fn paths_of_equal_speed_go_round_a_drop_rather_than_fall() {
    // The d20 pit 'v' (an 18 ft drop): the cheapest path from (1, 3) to (7, 5) is 6 squares
    // either way, and the one drawn and walked is the one that does not step down into it.
    let rows = [
        "............",
        "............",
        "............",
        "..vv........",
        "..vv........",
        "............",
        "............",
    ];
    let mut b = Arena::new("d20")
        .map(&rows)
        .units(vec![
            UnitSetup::new("adam", 0, Square::new(1, 3)),
            UnitSetup::new("betty", 1, Square::new(10, 0)),
        ])
        .build_at_unit_0();
    let path = b
        .path_to(CombatantId(0), Square::new(7, 5), false)
        .expect("reachable");
    assert_eq!(path.len(), 6, "{path:?}");
    let pit = |s: &Square| (2..=3).contains(&s.x) && (3..=4).contains(&s.y);
    assert!(!path.iter().any(pit), "{path:?}");
    // Into the pit itself there is no other way: the path steps down.
    let down = b
        .path_to(CombatantId(0), Square::new(2, 3), false)
        .expect("reachable");
    assert_eq!(down, vec![Square::new(2, 3)]);
}
