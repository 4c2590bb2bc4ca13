//! Another battle on a scenario's map (the skirmish builder's "Map" row): the builder's teams
//! placed where each side's own units stood, on every shipped scenario's map; the result a
//! scenario that validates and is fought to its end.

use std::sync::Arc;

use gridclash::ai::Policy;
use gridclash::grid::{Square, chebyshev};
use gridclash::ruleset::Rules;
use gridclash::scenario::restage::restage;
use gridclash::scenario::{self, write};

/// Every shipped scenario's map takes two teams of two of its ruleset's first roster entries;
/// each unit stands near where its side stood, the file validates, and the battle ends.
#[test]
fn restaged_shipped_maps_validate_and_each_side_starts_where_it_stood() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("restage");
    std::fs::create_dir_all(&dir).expect("folder");
    for path in scenario::shipped() {
        let base = scenario::load(&path).expect("a shipped scenario loads");
        let rules: Arc<Rules> = Arc::clone(&base.rules);
        let team: Vec<String> = rules
            .roster
            .archetypes
            .iter()
            .filter(|a| !a.minion && rules.digimon().is_none_or(|d| d.tamer(&a.id).is_none()))
            .take(2)
            .map(|a| a.id.clone())
            .collect();
        let teams = vec![team.clone(), team];
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        let s = restage(&base.scenario, &teams, &rules).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            s.map, base.scenario.map,
            "{name}: the map is the scenario's"
        );
        assert_eq!(s.units.len(), 4);
        for u in &s.units {
            let near = base
                .scenario
                .units
                .iter()
                .filter(|b| b.side == u.side)
                .map(|b| chebyshev(Square::new(b.at.0, b.at.1), Square::new(u.at.0, u.at.1)))
                .min()
                .expect("the side had units");
            assert!(
                near <= 3,
                "{name}: a unit of side {} starts {near} squares away",
                u.side
            );
        }
        let file = dir.join(format!("{name}.ron"));
        std::fs::write(&file, write::to_ron(&s, "restaged").expect("writes")).expect("file");
        let loaded = scenario::load_with(&file, |_| Ok(Arc::clone(&rules)))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let end = gridclash::sim::play(&loaded, 3, &[Policy::Easy], 40)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(end.battle.outcome().is_some() || end.rounds >= 40, "{name}");
    }
}

#[test]
fn restage_refuses_more_sides_than_the_map_has_and_unknown_units() {
    let base = scenario::load(&scenario::find("duel")).expect("duel");
    let rules = Arc::clone(&base.rules);
    let three = vec![vec!["brawler".to_string()]; 3];
    assert!(
        restage(&base.scenario, &three, &rules).is_err(),
        "duel has two sides"
    );
    let unknown = vec![vec!["dragon".to_string()], vec!["brawler".to_string()]];
    let e = restage(&base.scenario, &unknown, &rules).expect_err("no dragon");
    assert!(e.to_string().contains("dragon"), "{e}");
}

/// A map with start zones places each team inside its side's zone (never in another's), keeps
/// the zones of the sides fielded, and refuses a zone too small for its team, naming it.
#[test]
fn restaged_teams_start_inside_their_start_zones() {
    use gridclash::scenario::zones;
    let base = scenario::load(&scenario::find("duel")).expect("duel loads");
    let rules = Arc::clone(&base.rules);
    let mut zoned = base.scenario.clone();
    // Red's zone: the three squares of column 0 from row 2; Blue's: column 11, rows 2-6.
    for y in 2..5 {
        zones::toggle(&mut zoned, 0, Square::new(0, y)).expect("Red's zone");
    }
    for y in 2..7 {
        zones::toggle(&mut zoned, 1, Square::new(11, y)).expect("Blue's zone");
    }
    let team = vec!["brawler".to_string(), "mage".into(), "gunner".into()];
    let s = restage(&zoned, &[team.clone(), team.clone()], &rules).expect("restaged");
    for u in &s.units {
        let at = Square::new(u.at.0, u.at.1);
        assert_eq!(
            zones::zone_at(&s, at),
            Some(u.side),
            "{at} of side {}",
            u.side
        );
    }
    assert_eq!(s.start_zones, zoned.start_zones);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("restage-zones");
    std::fs::create_dir_all(&dir).expect("folder");
    let file = dir.join("zoned.ron");
    std::fs::write(&file, write::to_ron(&s, "zoned").expect("writes")).expect("saved");
    scenario::load(&file).expect("the restaged field validates");
    // Four units for Red's three squares: refused, naming the zone and the team.
    let big = vec!["brawler".to_string(); 4];
    let why = restage(&zoned, &[big, team], &rules)
        .expect_err("no room")
        .to_string();
    assert!(
        why.contains("start zone (3 squares) has no room for its 4 units"),
        "{why}"
    );
    let _ = chebyshev(Square::new(0, 0), Square::new(0, 0));
}
