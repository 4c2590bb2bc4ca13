//! The map editor's model: painting terrain, placing and taking away units and resizing, each
//! refused with the rule `gridclash validate` applies when it would break one, undone and
//! redone in order, and the result a scenario that validates and plays.

use std::sync::Arc;

use gridclash::ai::Policy;
use gridclash::grid::Square;
use gridclash::ruleset::{Rules, rules_root};
use gridclash::scenario::edit::{Brush, MapEdit};
use gridclash::scenario::generate::{Recipe, generate};
use gridclash::scenario::{self, write};

fn rules(id: &str) -> Arc<Rules> {
    Arc::new(Rules::load(&rules_root().join(id)).expect("shipped ruleset loads"))
}

/// A 16x12 DBU field of open ground with three units a side.
fn open_field(r: &Rules) -> MapEdit {
    let mut recipe = Recipe::new("dbu", 5);
    recipe.density = 0;
    MapEdit::new(generate(&recipe, r).expect("generates"))
}

#[test]
fn map_edit_paints_terrain_and_undoes_and_redoes_in_order() {
    let r = rules("dbu");
    let mut e = open_field(&r);
    let a = Square::new(7, 5);
    let b = Square::new(8, 5);
    e.apply(&Brush::Terrain('#'), a, &r).expect("a wall");
    e.apply(&Brush::Terrain('~'), b, &r).expect("a bog");
    assert_eq!((e.symbol_at(a), e.symbol_at(b)), (Some('#'), Some('~')));
    assert!(e.undo());
    assert_eq!((e.symbol_at(a), e.symbol_at(b)), (Some('#'), Some('.')));
    assert!(e.undo());
    assert_eq!(e.symbol_at(a), Some('.'));
    assert!(!e.undo(), "nothing more to undo");
    assert!(e.redo());
    assert!(e.redo());
    assert_eq!(e.symbol_at(b), Some('~'));
    assert!(!e.redo());
    // A new change after an undo drops what could have been redone.
    assert!(e.undo());
    e.apply(&Brush::Terrain('R'), a, &r).expect("rock");
    assert!(!e.redo());
}

#[test]
fn map_edit_refuses_a_wall_under_a_unit_and_a_unit_on_a_unit_naming_the_rule() {
    let r = rules("dbu");
    let mut e = open_field(&r);
    let u = e.scenario.units[0].at;
    let at = Square::new(u.0, u.1);
    let before = e.scenario.clone();
    let why = e
        .apply(&Brush::Terrain('#'), at, &r)
        .expect_err("no one can stand on a wall");
    assert!(why.contains("no one can stand there"), "{why}");
    assert_eq!(e.scenario, before, "a refused change changes nothing");
    // A unit placed on another unit's square takes its place.
    let other = e.scenario.units[1].at;
    let square = Square::new(other.0, other.1);
    let mage = Brush::Unit {
        side: 1,
        archetype: "mage".into(),
    };
    e.apply(&mage, square, &r)
        .expect("the unit there is replaced");
    assert_eq!(e.scenario.units.len(), 6);
    let at_square = e.unit_at(square, &r).expect("a unit there");
    assert_eq!(e.scenario.units[at_square].side, 1);
    // A unit on a wall is refused with the same rule.
    e.apply(&Brush::Terrain('#'), Square::new(8, 0), &r)
        .expect("a wall");
    let why = e
        .apply(&mage, Square::new(8, 0), &r)
        .expect_err("no one can stand on a wall");
    assert!(why.contains("no one can stand there"), "{why}");
    let why = e
        .apply(&Brush::Terrain('?'), at, &r)
        .expect_err("no such terrain");
    assert!(why.contains("no terrain"), "{why}");
}

#[test]
fn map_edit_places_and_erases_units_and_lists_a_side_left_without_any() {
    let r = rules("dbu");
    let mut e = open_field(&r);
    e.apply(
        &Brush::Unit {
            side: 0,
            archetype: "brawler".into(),
        },
        Square::new(8, 6),
        &r,
    )
    .expect("placed");
    assert_eq!(e.scenario.units.len(), 7);
    assert_eq!(e.unit_at(Square::new(8, 6), &r), Some(6));
    e.apply(&Brush::Erase, Square::new(8, 6), &r)
        .expect("erased");
    assert_eq!(e.scenario.units.len(), 6);
    let why = e
        .apply(&Brush::Erase, Square::new(8, 6), &r)
        .expect_err("nothing there");
    assert!(why.contains("no unit"), "{why}");
    // Taking away every unit of Blue one by one: the last is refused (a side needs a unit).
    let blue: Vec<Square> = e
        .scenario
        .units
        .iter()
        .filter(|u| u.side == 1)
        .map(|u| Square::new(u.at.0, u.at.1))
        .collect();
    for sq in &blue[..blue.len() - 1] {
        e.apply(&Brush::Erase, *sq, &r).expect("erased");
    }
    let why = e
        .apply(&Brush::Erase, blue[blue.len() - 1], &r)
        .expect_err("Blue needs a unit");
    assert!(why.contains("has no units"), "{why}");
}

#[test]
fn map_edit_resizes_keeping_what_fits_and_refuses_to_empty_a_side() {
    let r = rules("dbu");
    let mut e = open_field(&r);
    e.resize(20, 14, '.', &r).expect("bigger");
    assert_eq!((e.scenario.map.width, e.scenario.map.height), (20, 14));
    assert!(
        e.scenario
            .map
            .rows
            .iter()
            .all(|row| row.chars().count() == 20)
    );
    assert_eq!(e.scenario.map.rows.len(), 14);
    assert!(e.problems(&r).is_empty(), "{:?}", e.problems(&r));
    // Blue stands along the east edge: a field cut to 10 wide would lose all of it.
    let why = e.resize(10, 14, '.', &r).expect_err("Blue would be gone");
    assert!(why.contains("no units left"), "{why}");
    assert_eq!(e.scenario.map.width, 20);
    assert!(e.undo());
    assert_eq!(e.scenario.map.width, 16);
}

/// A stranded unit is listed on its square, not refused: a wall being drawn may close a way
/// for a while.
#[test]
fn map_edit_lists_a_walled_in_unit_on_its_square() {
    let r = rules("dbu");
    let mut e = open_field(&r);
    let u = e.scenario.units[0].at;
    for (dx, dy) in [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ] {
        let sq = Square::new(u.0 + dx, u.1 + dy);
        if e.symbol_at(sq).is_some() && e.unit_at(sq, &r).is_none() {
            e.apply(&Brush::Terrain('#'), sq, &r)
                .expect("walls are allowed");
        }
    }
    let problems = e.problems(&r);
    assert!(
        problems
            .iter()
            .any(|p| p.square == Some(Square::new(u.0, u.1)) && p.message.contains("cannot reach")),
        "{problems:?}"
    );
}

/// What the editor made is a plain scenario: written, it loads as `validate` loads it and is
/// fought to its end.
#[test]
fn map_edit_result_validates_and_is_played_to_the_end() {
    let r = rules("dbu");
    let mut e = open_field(&r);
    for x in 5..11 {
        e.apply(&Brush::Terrain('R'), Square::new(x, 2), &r)
            .expect("rock");
    }
    e.resize(18, 12, ':', &r).expect("wider");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("map-edit");
    std::fs::create_dir_all(&dir).expect("folder");
    let path = dir.join("edited.ron");
    std::fs::write(&path, write::to_ron(&e.scenario, "edited").expect("writes")).expect("file");
    let loaded = scenario::load_with(&path, |_| Ok(Arc::clone(&r))).expect("validates");
    assert_eq!(loaded.scenario, e.scenario);
    let end = gridclash::sim::play(&loaded, 2, &[Policy::Easy], 30).expect("plays");
    assert!(end.battle.outcome().is_some() || end.rounds >= 30);
}

/// Start zones are painted a square at a time (again to clear), a unit left outside its side's
/// zone is listed (not refused) while the zone is drawn and refused by `validate` when saved
/// so, a zone on a wall is refused, and the layer is written, read back and follows a resize.
#[test]
fn map_edit_paints_start_zones_that_hold_their_side_and_validate() {
    use gridclash::scenario::zones;
    let r = rules("dbu");
    let mut e = open_field(&r);
    // A generated field comes with its start zones; this test draws its own.
    e.scenario.start_zones.clear();
    let red: Vec<Square> = e
        .scenario
        .units
        .iter()
        .filter(|u| u.side == 0)
        .map(|u| Square::new(u.at.0, u.at.1))
        .collect();
    // The first zone square: Red's units now stand outside Red's zone, listed on their
    // squares but not refused.
    let corner = Square::new(0, 0);
    e.apply(&Brush::Zone { side: 0 }, corner, &r)
        .expect("painting a zone is never refused for the units outside it");
    assert_eq!(zones::zone_at(&e.scenario, corner), Some(0));
    let problems = e.problems(&r);
    for at in &red {
        assert!(
            problems
                .iter()
                .any(|p| p.square == Some(*at) && p.message.contains("outside Red's start zone")),
            "{at}: {problems:?}"
        );
    }
    // Painting Red's own squares into the zone mends them.
    for at in &red {
        e.apply(&Brush::Zone { side: 0 }, *at, &r).expect("zone");
    }
    assert!(e.problems(&r).is_empty(), "{:?}", e.problems(&r));
    assert_eq!(zones::squares(&e.scenario, 0).len(), red.len() + 1);
    // Again on a square: out of the zone. A wall may cross a zone (no one starts on it).
    e.apply(&Brush::Zone { side: 0 }, corner, &r)
        .expect("clear");
    assert_eq!(zones::zone_at(&e.scenario, corner), None);
    let spare = Square::new(1, 0);
    e.apply(&Brush::Zone { side: 0 }, spare, &r).expect("zone");
    e.apply(&Brush::Terrain('#'), spare, &r)
        .expect("a wall in a zone is allowed");
    // Written out and read back: the layer and its meaning survive, and validate refuses a
    // Red unit moved outside the zone by hand.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zones");
    std::fs::create_dir_all(&dir).expect("folder");
    let file = dir.join("zoned.ron");
    std::fs::write(&file, write::to_ron(&e.scenario, "zoned").expect("writes")).expect("saved");
    let back = scenario::load(&file).expect("the zoned field validates");
    assert_eq!(back.scenario.start_zones, e.scenario.start_zones);
    let mut moved = e.scenario.clone();
    let i = moved
        .units
        .iter()
        .position(|u| u.side == 0)
        .expect("a Red unit");
    moved.units[i].at = (8, 11);
    std::fs::write(&file, write::to_ron(&moved, "moved").expect("writes")).expect("saved");
    let errs = scenario::load(&file).expect_err("outside its zone").0;
    assert!(
        errs.iter().any(|x| x
            .to_string()
            .contains("(8, 11) is outside Red's start zone")),
        "{errs:?}"
    );
    // A resize keeps the layer the map's size.
    e.resize(18, 13, '.', &r).expect("bigger");
    assert_eq!(e.scenario.start_zones.len(), 13);
    assert!(e.scenario.start_zones.iter().all(|row| row.len() == 18));
    assert!(e.problems(&r).is_empty(), "{:?}", e.problems(&r));
}
