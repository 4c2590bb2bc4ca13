//! The ninja chapter's jump (text 004:55): half the move from a standstill, the whole move with
//! a running start, over people, crates, water and drops but not over what blocks sight, and
//! the opportunity attacks a jump past a foe still provokes.

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, DefenseChoice, RuleError};
use gridclash::battle::components::*;
use gridclash::battle::event::BattleEvent;
use gridclash::grid::Dir8;

use gridclash::ai::planner::{Level, decide};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::common::Arena;

/// A unit that always dodges and never strikes at a passer-by.
fn unit(archetype: &str, side: u8, at: (i32, i32)) -> gridclash::battle::setup::UnitSetup {
    let mut u = gridclash::battle::setup::UnitSetup::new(archetype, side, Square::new(at.0, at.1));
    u.controller = Controller {
        defense: DefensePolicy::AlwaysDodge,
        responses: ResponsePolicy::Never,
        exploits: ExploitPolicy::Never,
    };
    u
}

/// A Brawler (Speed 4: a 30 ft move, 6 squares) at (1, 3) and the others of `more` on `rows`,
/// run until the Brawler's turn.
fn on(rows: &[&str], more: Vec<gridclash::battle::setup::UnitSetup>, seed: u64) -> Battle {
    let mut units = vec![unit("brawler", 0, (1, 3))];
    units.extend(more);
    Arena::new("shinobi")
        .map(rows)
        .units(units)
        .seed(seed)
        .build_at_unit_0()
}

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

fn east(from: i32, to: i32, y: i32) -> Vec<Square> {
    (from..=to).map(|x| Square::new(x, y)).collect()
}

fn jump(path: Vec<Square>) -> Command {
    Command::Jump {
        who: CombatantId(0),
        path,
    }
}

fn why(got: Result<(), RuleError>) -> String {
    match got {
        Err(RuleError::BadJump { why, .. }) => why,
        other => panic!("expected a refused jump, got {other:?}"),
    }
}

#[test]
fn shinobi_jump_half_the_move_from_a_standstill_the_whole_move_with_a_running_start() {
    let mut b = on(&OPEN, vec![unit("blade", 1, (14, 7))], 1);
    // From a standstill: 3 of the 6 squares.
    assert_eq!(b.check(&jump(east(2, 4, 3))), Ok(()));
    let w = why(b.check(&jump(east(2, 5, 3))));
    assert!(w.contains("half the move, 3 of 6"), "{w}");
    // A walked move is a running start: the whole move, 6 squares, and no more.
    b.submit(Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(2, 3)],
        boosted: false,
    })
    .expect("walk");
    assert_eq!(b.check(&jump(east(3, 8, 3))), Ok(()));
    let w = why(b.check(&jump(east(3, 9, 3))));
    assert!(w.contains("running start"), "{w}");
    let n = b.events().len();
    b.submit(jump(east(3, 8, 3))).expect("a running jump");
    let me = b.fighter(CombatantId(0)).expect("me");
    assert_eq!(me.position, Some(Square::new(8, 3)));
    assert_eq!(me.actions.usable(), 1, "a walk and a jump: 1 AP each");
    assert!(b.events()[n..].iter().any(|e| matches!(
        e,
        BattleEvent::Moved {
            jump: true,
            cost: 6,
            ..
        }
    )));
    assert!(
        b.describe_events()[n..]
            .iter()
            .any(|l| l.contains("jumps 6 squares to (8, 3), over (3, 3)")),
        "{:?}",
        &b.describe_events()[n..]
    );
    // A landing is a standstill again: half the move.
    let w = why(b.check(&jump(east(9, 12, 3))));
    assert!(w.contains("half the move"), "{w}");
}

#[test]
fn shinobi_jump_clears_people_crates_and_water_but_not_what_blocks_sight() {
    // Row 3 east of the Brawler: a crate, water, then open ground; north of it a wall; south
    // of it a foe.
    let rows = [
        "................",
        ".....#..........",
        ".#..............",
        "..cw............",
        "................",
        "................",
        "................",
        "................",
    ];
    let mut b = on(&rows, vec![unit("blade", 1, (1, 4))], 1);
    assert_eq!(
        b.check(&jump(east(2, 4, 3))),
        Ok(()),
        "over a crate and water"
    );
    let w = why(b.check(&jump(east(2, 3, 3))));
    assert!(w.contains("cannot be stood on"), "landing in water: {w}");
    let w = why(b.check(&jump(vec![Square::new(1, 2), Square::new(1, 1)])));
    assert!(w.contains("blocks sight"), "over a wall: {w}");
    assert_eq!(
        b.check(&jump(vec![Square::new(1, 4), Square::new(1, 5)])),
        Ok(()),
        "over a foe"
    );
    let w = why(b.check(&jump(vec![Square::new(1, 4)])));
    assert!(w.contains("someone stands there"), "{w}");
    let w = why(b.check(&jump(vec![Square::new(2, 3), Square::new(3, 2)])));
    assert!(w.contains("straight line"), "{w}");
    // A walk cannot go over the crate at all.
    assert!(
        b.check(&Command::Move {
            who: CombatantId(0),
            path: vec![Square::new(2, 3)],
            boosted: false,
        })
        .is_err()
    );
    // The landings offered are exactly the jumps the engine accepts.
    let offered = b.jump_options(CombatantId(0));
    for d in Dir8::ALL {
        let mut path = Vec::new();
        let mut at = Square::new(1, 3);
        for _ in 0..4 {
            at = at.step(d);
            path.push(at);
            let ok = b.check(&jump(path.clone())).is_ok();
            assert_eq!(
                offered.get(&at) == Some(&path),
                ok,
                "{d:?} to {at}: offered {:?}",
                offered.get(&at)
            );
        }
    }
    assert!(offered.contains_key(&Square::new(4, 3)) && offered.contains_key(&Square::new(1, 5)));
}

#[test]
fn shinobi_jump_over_a_drop_does_not_fall_landing_on_one_does() {
    // 'v' is a rooftop edge: a 30 ft drop to the street.
    let rows = [
        "................",
        "................",
        "................",
        "..v.............",
        "................",
        "................",
        "................",
        "................",
    ];
    let fell = |b: &Battle, n: usize| {
        b.events()[n..]
            .iter()
            .any(|e| matches!(e, BattleEvent::Fell { feet: 30, .. }))
    };
    let mut b = on(&rows, vec![unit("blade", 1, (14, 7))], 1);
    let n = b.events().len();
    b.submit(jump(east(2, 3, 3))).expect("over the gap");
    assert!(!fell(&b, n), "a jump over the street lands on the far roof");
    let mut b = on(&rows, vec![unit("blade", 1, (14, 7))], 1);
    let n = b.events().len();
    b.submit(jump(east(2, 2, 3))).expect("down into it");
    assert!(fell(&b, n), "landing in the street is a fall");
}

#[test]
fn shinobi_jump_past_a_foe_provokes_and_a_hit_brings_the_jumper_down_where_it_entered() {
    // The Blade Dancer at (5, 2) holds its AP; the Brawler walks to (2, 3) and leaps to (8, 3),
    // entering the reach at (4, 3) and leaving it after (6, 3). A hit brings it down at (4, 3),
    // or on the first square after it where it can stand: past a crate, (5, 3); in the street
    // below a rooftop edge, with a fall.
    for (ground, stop) in [('.', 4), ('c', 5), ('v', 4)] {
        let row: String = (0..16).map(|x| if x == 4 { ground } else { '.' }).collect();
        let rows: Vec<&str> = (0..8)
            .map(|y| if y == 3 { row.as_str() } else { OPEN[0] })
            .collect();
        let mut hits = 0;
        for seed in 0..30 {
            let mut guard = unit("blade", 1, (5, 2));
            guard.controller.exploits = ExploitPolicy::Always;
            let mut b = on(&rows, vec![guard], seed);
            b.submit(Command::Move {
                who: CombatantId(0),
                path: vec![Square::new(2, 3)],
                boosted: false,
            })
            .expect("run-up");
            let n = b.events().len();
            b.submit(jump(east(3, 8, 3))).expect("jump");
            let new = b.events()[n..].to_vec();
            assert!(
                new.iter()
                    .any(|e| matches!(e, BattleEvent::ExploitProvoked { .. })),
                "{ground} seed {seed}: jumping past a foe provokes"
            );
            // "One cannot Dodge in mid air": the jumper, set to always Dodge, answers otherwise.
            let answer = new.iter().find_map(|e| match e {
                BattleEvent::DefenseDeclared {
                    defender: CombatantId(0),
                    choice,
                } => Some(*choice),
                _ => None,
            });
            assert!(
                answer.is_some_and(|c| c != DefenseChoice::Dodge),
                "{ground} seed {seed}: answered {answer:?} in mid air"
            );
            assert!(!b.fighter(CombatantId(0)).expect("me").round.airborne);
            let hit = new
                .iter()
                .any(|e| matches!(e, BattleEvent::Clash { hit: true, .. }));
            let pos = b.fighter(CombatantId(0)).expect("me").position;
            if hit {
                hits += 1;
                assert_eq!(pos, Some(Square::new(stop, 3)), "{ground} seed {seed}");
                let fell = new.iter().any(|e| matches!(e, BattleEvent::Fell { .. }));
                assert_eq!(fell, ground == 'v', "{ground} seed {seed}");
            } else {
                assert_eq!(pos, Some(Square::new(8, 3)), "{ground} seed {seed}");
            }
            assert!(
                gridclash::harness::check_state(&mut b).is_empty(),
                "{ground} seed {seed}: {:?}",
                gridclash::harness::check_state(&mut b)
            );
        }
        assert!(hits > 0, "{ground}: some opportunity attack hits");
    }
}

#[test]
fn shinobi_jump_is_refused_by_the_rulesets_without_jumps() {
    for (id, a, b_) in [("dbu", "brawler", "ki_blaster"), ("d20", "adam", "betty")] {
        let mut b = Arena::new(id)
            .size(12, 8)
            .units(vec![
                gridclash::battle::setup::UnitSetup::new(a, 0, Square::new(1, 3)),
                gridclash::battle::setup::UnitSetup::new(b_, 1, Square::new(10, 3)),
            ])
            .build_at_unit_0();
        let got = b.check(&jump(vec![Square::new(2, 3)]));
        assert!(
            matches!(got, Err(RuleError::NotInRuleset { what, .. }) if what.contains("jumping")),
            "{id}: {got:?}"
        );
    }
}

#[test]
fn shinobi_ai_jumps_the_water_that_no_walk_crosses() {
    // A channel of deep water from edge to edge at x = 2: no walk crosses it, a jump does.
    let rows: Vec<String> = (0..8)
        .map(|_| (0..16).map(|x| if x == 2 { 'w' } else { '.' }).collect())
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    // (`easy` adds noise to every score and may stay on its bank.)
    for level in [Level::Normal, Level::Hard] {
        let mut b = on(&rows, vec![unit("blade", 1, (8, 3))], 1);
        assert!(
            b.move_options(CombatantId(0), false)
                .keys()
                .all(|s| s.x < 2)
        );
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let cmd = decide(&mut b, CombatantId(0), level, &mut rng);
        assert!(
            matches!(&cmd, Command::Jump { path, .. } if path.last().is_some_and(|s| s.x > 2)),
            "{level:?}: {cmd:?}"
        );
        b.submit(cmd).expect("the planner's jump is legal");
    }
}
