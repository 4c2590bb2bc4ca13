//! Tiled maps made into scenarios (`gridclash import-tiled`): the `terrain` tile layer, the
//! `units` object layer and the map's properties, and every problem named with its layer and
//! square or object.

use std::path::{Path, PathBuf};

use gridclash::ruleset::{Rules, rules_root};
use gridclash::scenario::tiled_map::import;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiled")
}

fn dbu() -> Rules {
    Rules::load(&rules_root().join("dbu")).expect("dbu loads")
}

/// A copy of the courtyard map with `edit` applied, beside a copy of its tileset.
fn edited(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("tiled")
        .join(name);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    std::fs::copy(fixtures().join("terrain.tsx"), dir.join("terrain.tsx")).expect("tileset");
    let text = std::fs::read_to_string(fixtures().join("courtyard.tmx")).expect("fixture");
    let path = dir.join("courtyard.tmx");
    std::fs::write(&path, edit(text)).expect("written");
    path
}

#[test]
fn tiled_map_imports_terrain_units_sides_and_rounds() {
    let got = import(&fixtures().join("courtyard.tmx"), &dbu()).expect("imports");
    let s = &got.scenario;
    assert_eq!(s.name, "Tiled Courtyard");
    assert_eq!(s.ruleset, "dbu");
    assert_eq!(
        s.map.rows,
        [
            "..........",
            ".##....c..",
            "....::....",
            "....::....",
            "..c....##.",
            "..........",
        ],
        "wall by a property, rubble by the tile's class, crates, empty squares open"
    );
    let names: Vec<(&str, &str)> = s
        .sides
        .iter()
        .map(|d| (d.name.as_str(), d.color.as_str()))
        .collect();
    assert_eq!(names, [("Red Fist", "#d04a3a"), ("Blue Wave", "#3a7bd0")]);
    type Placed<'a> = (Option<&'a str>, Option<&'a str>, u8, (i32, i32));
    let units: Vec<Placed> = s
        .units
        .iter()
        .map(|u| (u.archetype.as_deref(), u.name.as_deref(), u.side, u.at))
        .collect();
    assert_eq!(
        units,
        [
            (Some("brawler"), Some("Kaito"), 0, (0, 2)),
            (Some("ki_blaster"), Some("Suri"), 1, (9, 3)),
            (Some("mage"), None, 0, (1, 5)),
        ],
        "a point, a rectangle and a tile object, each on the square under its centre"
    );
    assert_eq!(s.victory.round_limit.map(|l| l.rounds), Some(25));
    assert_eq!(got.notes.len(), 1, "{:?}", got.notes);
    assert!(got.notes[0].contains("layer `decoration` (tiles) is not read"));
}

#[test]
fn tiled_map_problems_name_the_layer_and_the_square_or_object() {
    let rules = dbu();
    type Edit = dyn Fn(String) -> String;
    let cases: [(&str, &Edit, &str); 6] = [
        (
            "lava",
            &|t| t.replacen("0,0,0,0,0,0,0,0,0,0,", "0,0,0,4,0,0,0,0,0,0,", 1),
            "courtyard.tmx: layer `terrain`, square (3, 0): tile 3 of tileset `yard` names `lava`, which is no terrain of the dbu ruleset",
        ),
        (
            "no-archetype",
            &|t| t.replace(r#"<property name="archetype" value="ki_blaster"/>"#, ""),
            "layer `units`, object `Suri` (id 2): no `archetype` string property",
        ),
        (
            "unknown-archetype",
            &|t| t.replace(r#"value="ki_blaster""#, r#"value="dragon""#),
            "layer `units`, object `Suri` (id 2): `archetype` is `dragon`, which the dbu roster does not have",
        ),
        (
            "on-a-wall",
            &|t| t.replace(r#"x="16" y="80""#, r#"x="48" y="48""#),
            "layer `units`, object `Kaito` (id 1): it stands at (1, 1) on Wall (wall), where no one can stand",
        ),
        (
            "side-as-text",
            &|t| {
                t.replace(
                    r#"<property name="side" type="int" value="1"/>"#,
                    r#"<property name="side" value="blue"/>"#,
                )
            },
            "layer `units`, object `Suri` (id 2): `side` is StringValue(\"blue\"); it is an int property",
        ),
        (
            "no-terrain-layer",
            &|t| t.replace(r#"name="terrain""#, r#"name="ground""#),
            "courtyard.tmx: there is no tile layer named `terrain`",
        ),
    ];
    for (name, edit, says) in cases {
        let path = edited(name, edit);
        let e = import(&path, &rules).expect_err(name);
        assert!(
            e.to_string().contains(says),
            "{name}: {e}\nshould say: {says}"
        );
    }
    let broken = edited("not-xml", |t| t.replace("</map>", ""));
    let e = import(&broken, &rules).expect_err("not a whole map");
    assert!(
        e.to_string().starts_with(&broken.display().to_string()),
        "{e}"
    );
}

/// `gridclash import-tiled` writes the scenario into the player's own folder, where
/// `validate` accepts it and `simulate` plays it by name.
#[test]
fn import_tiled_command_writes_a_scenario_the_game_plays() {
    let data = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("import-tiled-data");
    let _ = std::fs::remove_dir_all(&data);
    let run = |args: &[&str]| crate::common::gridclash_in(&data, args);
    let map = fixtures().join("courtyard.tmx");
    let out = run(&["import-tiled", map.to_str().expect("utf-8")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("layer `decoration`"));
    let file = data.join("scenarios").join("courtyard.ron");
    let valid = run(&["validate", file.to_str().expect("utf-8")]);
    assert!(
        valid.status.success(),
        "{}",
        String::from_utf8_lossy(&valid.stdout)
    );
    let sim = run(&["simulate", "--scenario", "courtyard", "--battles", "2"]);
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let other = run(&[
        "import-tiled",
        map.to_str().expect("utf-8"),
        "--ruleset",
        "shinobi",
    ]);
    assert!(!other.status.success());
    assert!(
        String::from_utf8_lossy(&other.stderr)
            .contains("`archetype` is `ki_blaster`, which the shinobi roster does not have"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
}

/// The optional `start zones` object layer: each rectangle's `side` marks the squares whose
/// centres it covers; the imported scenario holds each side inside its zone, and a zone that
/// is not a rectangle or has no side is named with its layer and object.
#[test]
fn tiled_map_start_zones_layer_marks_where_each_side_starts() {
    let zones = |objects: &str| {
        let objects = objects.to_string();
        move |t: String| {
            t.replace(
                " </objectgroup>\n</map>",
                &format!(
                    " </objectgroup>\n <objectgroup id=\"4\" name=\"start zones\">\n{objects} </objectgroup>\n</map>"
                ),
            )
        }
    };
    let rect = |id: u32, x: u32, w: u32, side: i32| {
        format!(
            "  <object id=\"{id}\" x=\"{x}\" y=\"0\" width=\"{w}\" height=\"192\">\n   <properties>\n    <property name=\"side\" type=\"int\" value=\"{side}\"/>\n   </properties>\n  </object>\n"
        )
    };
    let both = format!("{}{}", rect(10, 0, 64, 0), rect(11, 256, 64, 1));
    let path = edited("zones", zones(&both));
    let got = import(&path, &dbu()).expect("imports");
    assert_eq!(got.scenario.start_zones, vec!["11......22".to_string(); 6]);
    assert!(
        got.notes.iter().all(|n| !n.contains("layer `start zones`")),
        "the zones layer is read: {:?}",
        got.notes
    );
    let out = path.with_file_name("zoned.ron");
    std::fs::write(
        &out,
        gridclash::scenario::write::to_ron(&got.scenario, "zoned").expect("writes"),
    )
    .expect("saved");
    gridclash::scenario::load(&out).expect("each side stands in its zone");
    // Blue's zone on the left instead: Suri (9, 3) is outside it, and validate says so.
    let moved = format!("{}{}", rect(10, 0, 64, 0), rect(11, 64, 64, 1));
    let got = import(&edited("zones-moved", zones(&moved)), &dbu()).expect("imports");
    std::fs::write(
        &out,
        gridclash::scenario::write::to_ron(&got.scenario, "moved").expect("writes"),
    )
    .expect("saved");
    let errs = gridclash::scenario::load(&out)
        .expect_err("Suri is outside")
        .0;
    assert!(
        errs.iter().any(|e| e
            .to_string()
            .contains("(9, 3) is outside Blue Wave's start zone")),
        "{errs:?}"
    );
    // A point has no area, and a rectangle needs its side.
    let bad = "  <object id=\"12\" name=\"here\" x=\"16\" y=\"16\">\n   <point/>\n  </object>\n  <object id=\"13\" x=\"0\" y=\"0\" width=\"64\" height=\"64\"/>\n";
    let why = import(&edited("zones-bad", zones(bad)), &dbu())
        .expect_err("refused")
        .to_string();
    assert!(
        why.contains("layer `start zones`, object `here` (id 12): no `side` int property"),
        "{why}"
    );
    assert!(
        why.contains("object `here` (id 12): a start zone is a rectangle"),
        "{why}"
    );
    assert!(
        why.contains("layer `start zones`, object 13: no `side`"),
        "{why}"
    );
}
