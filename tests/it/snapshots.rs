//! The snapshot cache: every combatant's snapshot the rule systems, the command checks and
//! the state hash read equals a fresh copy of its components, whatever changed them.

use bevy::ecs::system::RunSystemOnce;
use gridclash::ai::Policy;
use gridclash::battle::Battle;
use gridclash::battle::components::{Cards, CombatantId, Life};
use gridclash::battle::fighter::{Fighter, FighterQuery};
use gridclash::battle::snapshot::Fighters;
use gridclash::{scenario, sim};

use crate::common::*;

/// Every combatant copied afresh from its components, in id order, bypassing the cache (and
/// reading the world only, so the battle goes on trusting which combatants its systems wrote).
fn fresh(b: &mut Battle) -> Vec<Fighter> {
    let world = b.world();
    let mut q = world
        .try_query::<FighterQuery>()
        .expect("a battle's world knows the combatants' components");
    let mut all: Vec<Fighter> = q.iter(world).map(|f| f.snapshot()).collect();
    all.sort_by_key(|f| f.id);
    all
}

#[test]
fn cached_snapshots_equal_fresh_copies_after_every_command_of_every_ruleset() {
    // One battle of each shipped scenario, the computer on both sides: every rule system of
    // every family writes combatants somewhere in them.
    for path in scenario::shipped() {
        let loaded = scenario::load(&path).expect("a shipped scenario loads");
        let mut game = sim::AiMatch::new(&loaded, 11, &[Policy::Normal, Policy::Random], 6)
            .expect("a shipped scenario plays");
        let mut commands = 0;
        while !game.finished() {
            game.step().expect("the computer's commands are legal");
            commands += 1;
            let cached = game.battle.fighters();
            assert_eq!(
                cached,
                fresh(&mut game.battle),
                "{}: after command {commands}",
                path.display()
            );
        }
        assert!(commands > 0, "{}: no command played", path.display());
    }
}

#[test]
fn a_change_made_outside_the_rule_systems_shows_in_the_next_snapshot() {
    let mut b = duel("brawler", "tank", &[]);
    let before = b.fighters();
    // Changes made through the world between reads (as tests and tools stage situations).
    let life_of = |b: &mut Battle| b.fighter(CombatantId(1)).map(|f| f.life.current);
    set_life(&mut b, 1, 3);
    assert_eq!(life_of(&mut b), Some(3));
    set_life(&mut b, 1, 4);
    assert_eq!(life_of(&mut b), Some(4));
    let world = b.world_mut();
    let mut q = world.query::<&mut Life>();
    for mut life in q.iter_mut(world) {
        life.current = 2;
    }
    assert!(b.fighters().iter().all(|f| f.life.current == 2));
    assert_ne!(b.fighters(), before);
    assert_eq!(b.fighters(), fresh(&mut b));
}

#[test]
fn an_optional_component_added_or_removed_shows_in_the_next_snapshot() {
    let mut b = duel("brawler", "tank", &[]);
    let cards_of = |b: &mut Battle| b.fighter(CombatantId(1)).and_then(|f| f.cards);
    assert!(cards_of(&mut b).is_none());
    let entity = {
        let world = b.world_mut();
        let mut q = world.query::<(bevy::prelude::Entity, &CombatantId)>();
        q.iter(world)
            .find(|(_, id)| id.0 == 1)
            .map(|(e, _)| e)
            .expect("combatant 1")
    };
    b.world_mut().entity_mut(entity).insert(Cards::default());
    assert_eq!(cards_of(&mut b), Some(Cards::default()));
    b.world_mut().entity_mut(entity).remove::<Cards>();
    assert!(cards_of(&mut b).is_none());
    // A combatant removed from the battle leaves the snapshots too.
    b.world_mut().entity_mut(entity).despawn();
    assert_eq!(b.fighters().len(), 1);
    assert_eq!(b.fighters(), fresh(&mut b));
}

#[test]
fn a_change_made_through_the_world_after_a_refresh_of_its_own_shows_in_the_next_snapshot() {
    // A tool holding the world may run a rule system (which refreshes the cache and so
    // believes nothing is written since) and then write a combatant directly.
    let mut b = duel("brawler", "tank", &[]);
    let world = b.world_mut();
    world
        .run_system_once(|mut f: Fighters| {
            f.snapshots();
        })
        .expect("the system runs");
    let mut q = world.query::<&mut Life>();
    for mut life in q.iter_mut(world) {
        life.current = 5;
    }
    assert!(b.fighters().iter().all(|f| f.life.current == 5));
    assert_eq!(b.fighters(), fresh(&mut b));
}
