//! The enemy threat overlay's squares (`Battle::threat_map`): an opponent's melee reach after
//! the moves it may make and still attack, the farther reach of its ranged and area attacks,
//! and nothing from an opponent the viewer cannot see.

use gridclash::battle::components::{CombatantId, Side, Square};
use gridclash::battle::movement::speed;
use gridclash::ruleset::ConditionKind;

use crate::common::{Arena, give, rules, unit};

/// A Grunt of side 0 far to the west of `archetype` of side 1 on an open 40×9 field.
fn facing(archetype: &str) -> gridclash::battle::Battle {
    Arena::new("dbu")
        .size(40, 9)
        .units(vec![unit("grunt", 0, 1, 4), unit(archetype, 1, 30, 4)])
        .seed(1)
        .build()
}

#[test]
fn dbu_threat_of_a_tank_is_two_moves_at_normal_speed_then_its_melee_range() {
    let mut b = facing("tank");
    let tank = b.fighter(CombatantId(1)).expect("the tank");
    let rules = rules();
    let far = rules.actions.moves_per_round * speed(&rules, &tank, false) + tank.size.melee_range;
    let edge = 30 - far as i32;
    let map = b.threat_map(Side(0));
    assert!(
        map.melee.contains(&Square::new(edge, 4)),
        "x = {edge} is in reach"
    );
    assert!(
        !map.melee.contains(&Square::new(edge - 1, 4)),
        "x = {} is not",
        edge - 1
    );
    assert!(
        map.melee.contains(&Square::new(edge, 4 + 4)),
        "diagonals count one square"
    );
    // The Tank has no attack that reaches farther than melee.
    assert!(map.ranged.is_empty(), "{:?}", map.ranged);
}

#[test]
fn dbu_threat_of_a_ki_blaster_reaches_farther_than_its_melee() {
    let mut b = facing("ki_blaster");
    let map = b.threat_map(Side(0));
    assert!(!map.melee.is_empty());
    assert!(
        map.ranged.contains(&Square::new(0, 0)),
        "its Beam reaches the far corner"
    );
    assert!(
        map.melee.is_disjoint(&map.ranged),
        "a square is one or the other"
    );
}

#[test]
fn dbu_threat_leaves_out_a_hidden_opponent_and_the_viewer_s_own_side() {
    let mut b = facing("tank");
    // Side 1 looks: the Grunt threatens squares around it; side 0's own Tank is not counted.
    let seen_by_1 = b.threat_map(Side(1));
    assert!(seen_by_1.melee.contains(&Square::new(2, 4)));
    assert!(!seen_by_1.melee.contains(&Square::new(29, 4)));
    give(&mut b, 1, ConditionKind::Hidden, None);
    let map = b.threat_map(Side(0));
    assert!(
        map.melee.is_empty() && map.ranged.is_empty(),
        "a Hidden Tank shows no threat"
    );
}

#[test]
fn every_shipped_scenario_shows_each_side_the_squares_its_opponents_threaten() {
    use gridclash::ai::Policy;
    use gridclash::{scenario, sim};
    for path in scenario::shipped() {
        let loaded = scenario::load(&path).expect("a shipped scenario loads");
        let sides = loaded.scenario.sides.len();
        let mut game = sim::AiMatch::new(&loaded, 3, &vec![Policy::Random; sides], 6)
            .expect("a shipped scenario plays");
        for side in 0..sides as u8 {
            let map = game.battle.threat_map(Side(side));
            // A crossbow alone (first-d20's Marksman) threatens no square in melee.
            assert!(
                !(map.melee.is_empty() && map.ranged.is_empty()),
                "{}: side {side}'s opponents threaten nothing",
                path.display()
            );
            assert!(map.melee.is_disjoint(&map.ranged), "{}", path.display());
            let m = game.battle.map().clone();
            assert!(
                map.melee.iter().chain(&map.ranged).all(|s| s.x >= 0
                    && s.y >= 0
                    && (s.x as u32) < m.width
                    && (s.y as u32) < m.height),
                "{}: squares on the map only",
                path.display()
            );
        }
    }
}
