//! The computer players: they take a sure kill, they do not walk into a losing trade when a
//! safe strong option exists, they never give an illegal command, and they are deterministic.

use gridclash::ai::planner::{Level, decide};
use gridclash::ai::{Agent, Policy};
use gridclash::battle::Battle;
use gridclash::battle::command::{AttackTarget, Command};
use gridclash::battle::components::{CombatantId, Controller};
use gridclash::battle::setup::BattleSetup;
use gridclash::dice::DiceSource;
use gridclash::grid::footprint_distance;
use gridclash::ruleset::ConditionKind;
use gridclash::{scenario, sim};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::common::*;

fn open_battle(units: Vec<gridclash::battle::setup::UnitSetup>, seed: u64) -> Battle {
    let mut units = units;
    for u in &mut units {
        u.controller = Controller::default();
    }
    Battle::new(
        rules(),
        &BattleSetup::open(20, 12, units),
        DiceSource::seeded(seed),
    )
    .unwrap()
}

fn act_first(b: &mut Battle, who: u32) {
    while b.active() != Some(CombatantId(who)) {
        let w = b.active().unwrap();
        b.submit(Command::EndTurn { who: w }).unwrap();
    }
}

#[test]
fn ai_takes_a_guaranteed_kill() {
    // Raging, the Brawler hits for sure; the Grunt at 1 Life dies to any Wound (at least 6
    // against Soak 5). The full-Life Ki Blaster beside it would take more expected damage.
    for level in [Level::Normal, Level::Hard] {
        let mut b = open_battle(
            vec![
                unit("brawler", 0, 5, 5),
                unit("grunt", 1, 6, 5),
                unit("ki_blaster", 1, 5, 6),
            ],
            11,
        );
        act_first(&mut b, 0);
        give(&mut b, 0, ConditionKind::Rage, None);
        set_life(&mut b, 1, 1);
        let order = attack(0, "simple", AttackTarget::Combatant(CombatantId(1)));
        let p = b.preview(&order).unwrap();
        assert!(p.odds.targets[0][0].defeat_chance > 1.0 - 1e-9);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // Whatever attack it picks (a Sweeping that also catches the Ki Blaster is fine), it
        // must kill the Grunt for sure.
        match decide(&mut b, CombatantId(0), level, &mut rng) {
            Command::Attack(o) => {
                let p = b.preview(&o).unwrap();
                let grunt = p
                    .odds
                    .targets
                    .iter()
                    .find(|v| v[0].target == CombatantId(1));
                assert!(
                    grunt.is_some_and(|v| v[0].defeat_chance > 1.0 - 1e-9),
                    "{level:?} attacked {:?} without the sure kill",
                    o.target
                );
            }
            other => panic!("{level:?} chose {other:?} instead of the sure kill"),
        }
    }
}

#[test]
fn ai_does_not_walk_into_a_losing_trade_when_a_safe_strong_option_exists() {
    // The Gunner can shoot the Mage from where it stands, far from the Champion and the Tank;
    // walking up to them would put it in reach of both for their whole next turn.
    for level in [Level::Normal, Level::Hard] {
        let mut b = open_battle(
            vec![
                unit("gunner", 0, 1, 5),
                unit("mage", 1, 10, 5),
                unit("champion", 1, 15, 4),
                unit("tank", 1, 15, 6),
            ],
            12,
        );
        act_first(&mut b, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut shots = 0;
        while b.active() == Some(CombatantId(0)) {
            let cmd = decide(&mut b, CombatantId(0), level, &mut rng);
            if matches!(cmd, Command::Attack(_)) {
                shots += 1;
            }
            b.submit(cmd).unwrap();
        }
        let gunner = b.fighter(CombatantId(0)).unwrap().position.unwrap();
        let champion = b.fighter(CombatantId(2)).unwrap();
        let d = footprint_distance(gunner, 1, champion.position.unwrap(), 1);
        assert!(shots >= 1, "{level:?} never shot");
        assert!(
            d >= 8,
            "{level:?} ended its turn {d} squares from the Champion"
        );
    }
}

#[test]
fn ai_never_gives_an_illegal_command_at_any_level() {
    // Every shipped scenario but the largest, each level on each side; sim::play fails on
    // an illegal command or an unanswered question.
    let all: Vec<scenario::Loaded> = scenario::shipped()
        .iter()
        .map(|p| scenario::load(p).unwrap())
        .filter(|l| l.id() != "war")
        .collect();
    for (i, l) in all.iter().enumerate() {
        let pairing = [
            [Policy::Easy, Policy::Hard],
            [Policy::Normal, Policy::Easy],
            [Policy::Hard, Policy::Normal],
        ][i % 3];
        let done = sim::play(l, 40 + i as u64, &pairing, 100)
            .unwrap_or_else(|e| panic!("{}: {e}", l.id()));
        assert!(done.battle.outcome().is_some());
    }
}

#[test]
fn ai_is_deterministic_for_a_seed() {
    let duel = scenario::load(&scenario::find("duel")).unwrap();
    let a = sim::play(&duel, 9, &[Policy::Normal, Policy::Hard], 100).unwrap();
    let b = sim::play(&duel, 9, &[Policy::Normal, Policy::Hard], 100).unwrap();
    assert_eq!(a.hash, b.hash);
    let mut ab = a.battle;
    let mut bb = b.battle;
    assert_eq!(ab.describe_events(), bb.describe_events());
}

#[test]
fn ai_agents_draw_noise_from_their_own_stream_only() {
    // Two agents on one battle: the battle's dice are untouched by deciding.
    let mut b = open_battle(
        vec![unit("brawler", 0, 5, 5), unit("ki_blaster", 1, 9, 5)],
        3,
    );
    act_first(&mut b, 0);
    let before = b.dice().word_pos();
    let mut agent = Agent::new(Policy::Easy, 5);
    let _ = agent.command(&mut b, CombatantId(0));
    assert_eq!(b.dice().word_pos(), before);
}

/// Wins of `first` over 200 battles against `second` on `scenario`, sides swapped halfway:
/// `gridclash simulate --scenario S --ai first,second --battles 200 --swap --seed 7`.
fn wins_of(scenario: &str, first: Policy, second: Policy) -> u32 {
    let report = sim::run(&sim::Options {
        scenarios: vec![scenario::load(&scenario::find(scenario)).expect("loads")],
        battles: 200,
        seed: 7,
        ai: vec![first, second],
        max_rounds: 100,
        swap: true,
        timings: false,
        jobs: 2,
    })
    .expect("simulates");
    report
        .policies
        .iter()
        .find(|p| p.policy == first.to_string())
        .map_or(0, |p| p.wins)
}

/// Issue 28's strength targets on the one-on-one and small battles where `easy` was too close
/// to `normal` before its lapses (57.5-61.5 %): `normal` wins at least 65 % of 200 battles
/// against `easy`, and `easy` still wins at least 90 % against random play.
#[test]
#[ignore = "full-size tier: cargo test --profile fast --no-default-features -- --ignored"]
fn ai_normal_beats_easy_and_easy_beats_random_in_the_small_battles() {
    for s in [
        "shinobi-duel",
        "digimon-rivals",
        "digimon-ambush",
        "digimon-raid",
    ] {
        let normal = wins_of(s, Policy::Normal, Policy::Easy);
        assert!(
            normal >= 130,
            "{s}: normal won {normal} of 200 against easy"
        );
        let easy = wins_of(s, Policy::Easy, Policy::Random);
        assert!(easy >= 180, "{s}: easy won {easy} of 200 against random");
    }
}
