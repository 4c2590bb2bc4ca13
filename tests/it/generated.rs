//! The random battlefield generator (`gridclash generate-map`): the same seed makes the same
//! field, every field it makes loads as a scenario and can be fought out, mirrored fields are
//! even, and a recipe outside the limits is refused naming the limit.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use gridclash::ai::Policy;
use gridclash::ruleset::{Rules, rules_root};
use gridclash::scenario::generate::{GenerateError, Recipe, generate, zones};
use gridclash::scenario::reach::stranded_units;
use gridclash::scenario::{self, Scenario, write};

const RULESETS: [&str; 5] = ["dbu", "d20", "digimon", "shinobi", "power-stages"];

fn rules(id: &str) -> Arc<Rules> {
    Arc::new(Rules::load(&rules_root().join(id)).expect("shipped ruleset loads"))
}

/// A fresh folder under the target directory for files a test writes.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Writes `s` as a file and loads it the way `validate` and the game do.
fn write_and_load(s: &Scenario, rules: &Arc<Rules>, path: &Path) -> scenario::Loaded {
    let text = write::to_ron(s, "a test's battlefield").expect("writes");
    std::fs::write(path, &text).expect("file written");
    scenario::load_with(path, |_| Ok(Arc::clone(rules)))
        .unwrap_or_else(|e| panic!("{} does not load:\n{e}\n{text}", path.display()))
}

#[test]
fn generated_field_is_the_same_for_the_same_recipe_and_differs_by_seed() {
    let r = rules("dbu");
    let a = generate(&Recipe::new("dbu", 7), &r).expect("generates");
    let b = generate(&Recipe::new("dbu", 7), &r).expect("generates");
    let c = generate(&Recipe::new("dbu", 8), &r).expect("generates");
    assert_eq!(a, b);
    assert_ne!(a.map.rows, c.map.rows);
}

/// The generator's output is pinned: the dice are the battles' portable generator, so a
/// change here means every player's `--seed 7` field changed (deliberately, or by mistake).
#[test]
fn generated_field_of_a_known_seed_is_pinned() {
    let r = rules("dbu");
    let mut recipe = Recipe::new("dbu", 7);
    recipe.mirror = true;
    let s = generate(&recipe, &r).expect("generates");
    assert_eq!(
        s.map.rows[..3],
        [
            ".#.#........ww.c".to_string(),
            ".###............".to_string(),
            ".~.#............".to_string(),
        ],
        "{:#?}",
        s.map.rows
    );
    let teams: Vec<&str> = s
        .units
        .iter()
        .filter_map(|u| u.archetype.as_deref())
        .collect();
    assert_eq!(teams.len(), 6);
    assert_eq!(teams[..3], teams[3..]);
    // The start zones are written with the field, each unit inside its own side's.
    assert_eq!(s.start_zones.len(), s.map.rows.len());
    for u in &s.units {
        let at = gridclash::grid::Square::new(u.at.0, u.at.1);
        assert_eq!(gridclash::scenario::zones::zone_at(&s, at), Some(u.side));
    }
}

/// Every generated field, for every ruleset, 2 to 4 sides, bare to crowded, mirrored or not,
/// is a scenario that loads (what `gridclash validate` checks) and in which every unit can
/// walk next to a unit of every other side.
#[test]
fn every_generated_field_loads_and_every_unit_reaches_every_other_side() {
    let dir = scratch("generated-fields");
    let mut made = 0;
    for id in RULESETS {
        let r = rules(id);
        for seed in 0..12 {
            for (sides, density, mirror) in [
                (2, 0, false),
                (2, 30, true),
                (2, 60, false),
                (3, 45, true),
                (4, 60, true),
            ] {
                let mut recipe = Recipe::new(id, seed);
                recipe.sides = sides;
                recipe.density = density;
                recipe.mirror = mirror;
                recipe.width = 12 + (seed as u32 % 3) * 6;
                recipe.height = 10 + (seed as u32 % 4) * 4;
                let s = generate(&recipe, &r).unwrap_or_else(|e| panic!("{recipe:?}: {e}"));
                let loaded = write_and_load(&s, &r, &dir.join(format!("{id}-{seed}.ron")));
                assert_eq!(loaded.scenario, s, "{recipe:?}: reads back as written");
                assert_eq!(s.sides.len(), usize::from(sides));
                assert_eq!(
                    stranded_units(&s, &r),
                    vec![],
                    "{recipe:?}\n{}",
                    s.map.rows.join("\n")
                );
                made += 1;
            }
        }
    }
    assert_eq!(made, 5 * 12 * 5);
}

/// The density asked for is what the open field gets, within the clumps' rounding, and none
/// of it lands in a start zone.
#[test]
fn generated_field_covers_the_density_asked_outside_the_start_zones() {
    let r = rules("dbu");
    let open = '.';
    for density in [0, 20, 40, 60] {
        let mut recipe = Recipe::new("dbu", 3);
        recipe.width = 30;
        recipe.height = 20;
        recipe.density = density;
        recipe.mirror = false;
        let s = generate(&recipe, &r).expect("generates");
        let zs = zones(30, 20, 2);
        let mut field = 0;
        let mut rough = 0;
        for (y, row) in s.map.rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let sq = gridclash::grid::Square::new(x as i32, y as i32);
                let in_zone = zs
                    .iter()
                    .any(|z| z.x.contains(&sq.x) && z.y.contains(&sq.y));
                if in_zone {
                    assert_eq!(c, open, "a feature in a start zone at {sq}");
                } else {
                    field += 1;
                    rough += usize::from(c != open);
                }
            }
        }
        let got = rough * 100 / field;
        assert!(
            got.abs_diff(density as usize) <= 3,
            "asked {density} %, got {got} %"
        );
    }
}

/// `--mirror`: the ground turned half a turn is the same ground, and the facing side's units
/// stand where the first side's would after the turn, so neither side has the better field.
#[test]
fn mirrored_field_is_the_same_from_either_side() {
    for id in RULESETS {
        let r = rules(id);
        for seed in 0..6 {
            let mut recipe = Recipe::new(id, seed);
            recipe.mirror = true;
            recipe.width = 17;
            recipe.height = 13;
            let s = generate(&recipe, &r).expect("generates");
            let rows: Vec<Vec<char>> = s.map.rows.iter().map(|r| r.chars().collect()).collect();
            for (y, row) in rows.iter().enumerate() {
                for (x, c) in row.iter().enumerate() {
                    assert_eq!(*c, rows[12 - y][16 - x], "{id} seed {seed} at ({x}, {y})");
                }
            }
            let (a, b): (Vec<_>, Vec<_>) = s.units.iter().partition(|u| u.side == 0);
            for (u, v) in a.iter().zip(&b) {
                assert_eq!(u.archetype, v.archetype);
                let size = r
                    .archetype(u.archetype.as_deref().unwrap_or_default())
                    .and_then(|d| r.size(&d.size))
                    .map_or(1, |z| z.squares) as i32;
                assert_eq!(v.at, (17 - u.at.0 - size, 13 - u.at.1 - size));
            }
        }
    }
}

/// A generated battle is fought to its end by the computer on both sides, in every ruleset.
#[test]
fn generated_battle_is_played_to_the_end_in_every_ruleset() {
    let dir = scratch("generated-battles");
    for id in RULESETS {
        let r = rules(id);
        let mut recipe = Recipe::new(id, 11);
        recipe.mirror = true;
        let s = generate(&recipe, &r).expect("generates");
        let loaded = write_and_load(&s, &r, &dir.join(format!("{id}.ron")));
        let end = gridclash::sim::play(&loaded, 5, &[Policy::Easy], 30)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(
            end.battle.outcome().is_some() || end.rounds >= 30,
            "{id}: the battle stopped without an end"
        );
    }
}

#[test]
fn generated_team_names_a_roster_archetype_or_is_refused_listing_the_roster() {
    let r = rules("dbu");
    let mut recipe = Recipe::new("dbu", 1);
    recipe.teams = vec![vec!["brawler".into(), "dragon".into()]];
    let e = generate(&recipe, &r).expect_err("no dragon in the DBU roster");
    assert!(
        matches!(&e, GenerateError::UnknownArchetype { id, .. } if id == "dragon"),
        "{e:?}"
    );
    assert!(e.to_string().contains("brawler, ki_blaster"), "{e}");
}

#[test]
fn generated_recipe_outside_its_limits_is_refused_naming_the_limit() {
    let r = rules("dbu");
    type Change = dyn Fn(&mut Recipe);
    let cases: [(&Change, &str); 6] = [
        (&|x| x.width = 7, "8 to 128 squares"),
        (&|x| x.height = 129, "8 to 128 squares"),
        (&|x| x.density = 61, "0 to 60"),
        (&|x| x.sides = 5, "2 to 4 sides"),
        (&|x| x.team_size = 0, "1 to 12 units"),
        (
            &|x| x.teams = vec![vec!["brawler".into()], vec!["mage".into()], vec![]],
            "3 teams for 2 sides",
        ),
    ];
    for (change, says) in cases {
        let mut recipe = Recipe::new("dbu", 1);
        change(&mut recipe);
        let e = generate(&recipe, &r).expect_err("refused");
        assert!(e.to_string().contains(says), "{e} should say {says}");
    }
    let mut crowded = Recipe::new("dbu", 1);
    crowded.width = 8;
    crowded.height = 8;
    crowded.team_size = 12;
    let e = generate(&crowded, &r).expect_err("12 units in a 2x4 zone");
    assert!(matches!(e, GenerateError::ZoneFull { .. }), "{e:?}");
}

/// A unit walled in on its own is found, and so is a side on an island: what the generator
/// guards against, checked on a map drawn by hand.
#[test]
fn walled_in_unit_is_stranded() {
    let r = rules("dbu");
    let mut s = generate(&Recipe::new("dbu", 2), &r).expect("generates");
    s.map.rows = vec![
        "................".into(),
        "###.............".into(),
        "..#.............".into(),
        "###.............".into(),
    ];
    s.map.height = 4;
    s.units.truncate(2);
    s.units[0].side = 0;
    s.units[0].at = (0, 2);
    s.units[1].side = 1;
    s.units[1].at = (15, 0);
    let stranded = stranded_units(&s, &r);
    assert_eq!(stranded.len(), 2, "{stranded:?}");
    assert_eq!((stranded[0].unit, stranded[0].side), (0, 1));
    assert_eq!((stranded[1].unit, stranded[1].side), (1, 0));
    s.map.rows[1] = "#.#.............".into();
    assert_eq!(stranded_units(&s, &r), vec![]);
}

/// Every shipped scenario, written out by the scenario writer the builder and generator use,
/// reads back as the same scenario: nothing a hand-made file can say is lost.
#[test]
fn every_shipped_scenario_reads_back_the_same_once_written() {
    let dir = scratch("written-scenarios");
    for path in scenario::shipped() {
        let loaded = scenario::load(&path).expect("shipped scenario loads");
        let again = write_and_load(
            &loaded.scenario,
            &loaded.rules,
            &dir.join(path.file_name().expect("a file")),
        );
        assert_eq!(again.scenario, loaded.scenario, "{}", path.display());
    }
}

/// `gridclash generate-map` with a data folder: the file lands in the player's own scenarios,
/// `validate` accepts it, a second run refuses to overwrite it, and `simulate` plays it by name.
#[test]
fn generate_map_command_writes_into_your_scenarios_and_never_overwrites() {
    let data = scratch("generate-map-data");
    let run = |args: &[&str]| crate::common::gridclash_in(&data, args);
    let made = run(&[
        "generate-map",
        "--ruleset",
        "shinobi",
        "--seed",
        "4",
        "--mirror",
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let file = data.join("scenarios").join("field-shinobi-4.ron");
    assert!(file.is_file());
    let text = std::fs::read_to_string(&file).expect("written");
    assert!(
        text.contains("gridclash generate-map --ruleset shinobi --size 16x12 --density 20"),
        "{text}"
    );
    let valid = run(&["validate", file.to_str().expect("utf-8 path")]);
    assert!(
        valid.status.success(),
        "{}",
        String::from_utf8_lossy(&valid.stdout)
    );
    let again = run(&[
        "generate-map",
        "--ruleset",
        "shinobi",
        "--seed",
        "4",
        "--mirror",
    ]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), text);
    let sim = run(&[
        "simulate",
        "--scenario",
        "field-shinobi-4",
        "--battles",
        "2",
    ]);
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let paths = run(&["paths"]);
    assert!(
        String::from_utf8_lossy(&paths.stdout).contains(&format!(
            "your scenarios: {}",
            data.join("scenarios").display()
        )),
        "{}",
        String::from_utf8_lossy(&paths.stdout)
    );
    assert!(
        String::from_utf8_lossy(&paths.stdout).contains(&format!(
            "your characters: {}",
            data.join("characters").display()
        )),
        "{}",
        String::from_utf8_lossy(&paths.stdout)
    );
    let bad = run(&["generate-map", "--ruleset", "chess"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("there is no ruleset `chess`"));
}
