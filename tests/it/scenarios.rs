//! Scenario files, the validator, the simulator and a whole battle played to its end.

use std::path::Path;
use std::process::Command as Process;

use gridclash::ai::Policy;
use gridclash::battle::components::Side;
use gridclash::battle::event::EndReason;
use gridclash::ruleset::RulesError;
use gridclash::{scenario, sim};

fn shipped() -> Vec<scenario::Loaded> {
    scenario::shipped()
        .iter()
        .map(|p| scenario::load(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

#[test]
fn shipped_scenarios_are_valid_and_of_every_size() {
    let all = shipped();
    let ids: Vec<String> = all.iter().map(|l| l.id()).collect();
    assert_eq!(
        ids,
        [
            "boss",
            "brawl",
            "d20-duel",
            "d20-patrol",
            "digimon-ambush",
            "digimon-raid",
            "digimon-rivals",
            "duel",
            "first-d20",
            "first-dbu",
            "first-digimon",
            "first-shinobi",
            "first-stages",
            "shinobi-duel",
            "shinobi-squad",
            "shinobi-veil",
            "siege",
            "skirmish",
            "stages-duel",
            "stages-heavy",
            "stages-team",
            "tempest",
            "war"
        ]
    );
    let units = |id: &str| -> (usize, u32, u32) {
        let l = all.iter().find(|l| l.id() == id).unwrap();
        (
            l.scenario.units.len(),
            l.scenario.map.width,
            l.scenario.map.height,
        )
    };
    assert_eq!(units("duel").0, 2);
    assert_eq!(units("skirmish").0, 6);
    assert_eq!(units("siege"), (12, 24, 24));
    assert_eq!(units("war"), (24, 32, 32));
    let boss = all.iter().find(|l| l.id() == "boss").unwrap();
    assert!(
        boss.scenario
            .units
            .iter()
            .any(|u| u.archetype.as_deref() == Some("champion"))
    );
    assert!(
        boss.scenario
            .units
            .iter()
            .filter(|u| u.archetype.as_deref() == Some("grunt"))
            .count()
            >= 4
    );
}

#[test]
fn every_shipped_scenario_plays_to_the_end() {
    for l in shipped() {
        for seed in [1, 2] {
            let done = sim::play(&l, seed, &[Policy::Greedy], 100)
                .unwrap_or_else(|e| panic!("{}: {e}", l.id()));
            let limit = l.scenario.victory.round_limit.map_or(100, |r| r.rounds);
            assert!(done.rounds <= limit, "{} ran past its round limit", l.id());
            assert!(done.battle.outcome().is_some(), "{} did not end", l.id());
        }
        let done = sim::play(&l, 3, &[Policy::Random, Policy::Greedy], 100)
            .unwrap_or_else(|e| panic!("{} with the random policy: {e}", l.id()));
        assert!(done.battle.outcome().is_some());
    }
}

#[test]
fn a_whole_duel_plays_to_victory_with_exact_results() {
    // A golden battle: the duel, seed 5, both sides greedy. Any change to the rules' outcomes
    // changes these numbers, on purpose or not.
    let duel = shipped().into_iter().find(|l| l.id() == "duel").unwrap();
    let mut done = sim::play(&duel, 5, &[Policy::Greedy], 100).unwrap();
    let outcome = done.battle.outcome().unwrap();
    let stats = done.battle.stats();
    let summary: Vec<(u32, i64, i64, u32, u32)> = stats
        .combatants
        .iter()
        .map(|(id, s)| {
            (
                id.0,
                s.damage_dealt.total(),
                s.ki_spent,
                s.thresholds_reached,
                s.defeated,
            )
        })
        .collect();
    let fighters = done.battle.fighters();
    let loser = fighters.iter().find(|f| f.life.current == 0).unwrap();
    let winner = fighters.iter().find(|f| f.life.current > 0).unwrap();
    assert_eq!(outcome.reason, EndReason::LastSideStanding);
    assert_eq!(outcome.winner, Some(winner.side));
    assert_eq!(loser.side, Side(1 - winner.side.0));
    // The pinned figures of this battle.
    // (id, damage dealt, Ki spent, thresholds reached, defeated)
    assert_eq!(
        (outcome.winner, outcome.round, summary),
        (
            Some(Side(1)),
            6,
            // (Kaito's 200 became 199 when the round after Suri's Rage lost its Counter
            // Action: "you can only use One Action"; then Suri won it once Parry's Reflect
            // came in: she sends Kaito's first Sphere back at him.)
            vec![(0, 98, 97, 4, 1), (1, 222, 97, 1, 0)]
        ),
        "golden duel changed; events:\n{}",
        done.battle.describe_events().join("\n")
    );
}

#[test]
fn simulate_is_deterministic_whatever_the_threads_and_reports_every_side() {
    let opts = sim::Options {
        scenarios: shipped(),
        battles: 8,
        seed: 7,
        ai: vec![Policy::Greedy, Policy::Greedy],
        max_rounds: 100,
        swap: false,
        timings: false,
        jobs: 1,
    };
    let a = sim::run(&opts).unwrap();
    // The same battles on three threads: the same report, to the byte.
    let b = sim::run(&sim::Options {
        jobs: 3,
        ..opts.clone()
    })
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert_eq!(a.battles, 8);
    assert_eq!(a.scenarios.iter().map(|s| s.battles).sum::<u32>(), 8);
    // Two sides for each ruleset the eight battles played, never summed across rulesets.
    let mut rulesets: Vec<&str> = a.sides.iter().map(|s| s.ruleset.as_str()).collect();
    rulesets.dedup();
    assert!(rulesets.len() > 1, "{rulesets:?}");
    assert_eq!(a.sides.len(), 2 * rulesets.len());
    let wins: u32 = a.sides.iter().map(|s| s.wins).sum();
    assert_eq!(wins + a.draws, 8);
    assert!(a.sides.iter().all(|s| s.stats.attacks > 0));
    let c = sim::run(&sim::Options { seed: 8, ..opts }).unwrap();
    assert_ne!(a.hash, c.hash);
}

/// The balance report of each ruleset in its own terms: a d20 battle has no "Lethal" damage
/// and no Ki, a power-stages battle counts stages and life cards, and each figure is the sum
/// of the same battles' own statistics.
#[test]
fn simulate_reports_each_ruleset_in_its_own_terms() {
    let pick = |ids: &[&str]| -> Vec<scenario::Loaded> {
        shipped()
            .into_iter()
            .filter(|l| ids.contains(&l.id().as_str()))
            .collect()
    };
    let opts = sim::Options {
        scenarios: pick(&[
            "duel",
            "d20-duel",
            "digimon-rivals",
            "stages-duel",
            "shinobi-duel",
        ]),
        battles: 5,
        seed: 11,
        ai: vec![Policy::Greedy, Policy::Greedy],
        max_rounds: 100,
        swap: false,
        timings: false,
        jobs: 2,
    };
    assert_eq!(opts.scenarios.len(), 5);
    let report = sim::run(&opts).unwrap();
    let labels = |ruleset: &str| -> Vec<String> {
        let side = report
            .sides
            .iter()
            .find(|s| s.ruleset == ruleset)
            .unwrap_or_else(|| panic!("no {ruleset} side in {:#?}", report.sides));
        side.figures.iter().map(|f| f.label.clone()).collect()
    };
    let has = |ruleset: &str, want: &[&str], not: &[&str]| {
        let got = labels(ruleset);
        for w in want {
            assert!(got.iter().any(|g| g == w), "{ruleset} lacks {w}: {got:?}");
        }
        for n in not {
            assert!(!got.iter().any(|g| g == n), "{ruleset} names {n}: {got:?}");
        }
    };
    has(
        "dbu",
        &["Lethal", "thresholds crossed", "Ki spent"],
        &["chakra spent"],
    );
    has(
        "d20",
        &[
            "damage rolled",
            "stopped by armour DR",
            "Success Value on hits",
        ],
        &["Lethal", "Ki spent", "thresholds crossed"],
    );
    has(
        "digimon",
        &["HP damage dealt", "stopped by Armor", "effects given"],
        &["Lethal", "Ki spent"],
    );
    has(
        "power-stages",
        &["stages taken from targets", "life cards taken"],
        &["Lethal", "Ki spent"],
    );
    has(
        "shinobi",
        &["HP damage dealt", "chakra spent"],
        &["Lethal", "Ki spent"],
    );
    // Each figure is read from the side's own counts: damage dealt is what its hits did.
    for s in &report.sides {
        let dealt = s.stats.damage_dealt.total();
        let named = s
            .figures
            .iter()
            .find(|f| {
                ["damage dealt", "HP damage dealt", "life cards taken"].contains(&f.label.as_str())
            })
            .map(|f| f.value);
        assert_eq!(named, Some(dealt), "{}", s.ruleset);
    }
    let text = report.text();
    assert!(text.contains("d20 side 0"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("d20 side") && l.contains("Lethal")),
        "{text}"
    );
}

#[test]
fn simulate_timings_count_every_decision_and_every_units_turn() {
    let opts = sim::Options {
        scenarios: shipped()
            .into_iter()
            .filter(|l| l.id() == "skirmish")
            .collect(),
        battles: 2,
        seed: 3,
        ai: vec![Policy::Easy, Policy::Random],
        max_rounds: 100,
        swap: false,
        timings: true,
        jobs: 2,
    };
    let report = sim::run(&opts).unwrap();
    let names: Vec<&str> = report.timings.iter().map(|t| t.policy.as_str()).collect();
    assert_eq!(names, ["easy", "random"]);
    for t in &report.timings {
        // A unit's turn holds one command at least (ending it), usually more.
        assert!(t.turns > 0 && t.turns <= t.decisions, "{t:?}");
        assert!(t.p50_ms <= t.p99_ms && t.p99_ms <= t.max_ms, "{t:?}");
        assert!(t.turn_p50_ms <= t.turn_p99_ms && t.turn_p99_ms <= t.turn_max_ms);
        // The turn holding the slowest command took that command's time at least.
        assert!(t.turn_max_ms >= t.max_ms, "{t:?}");
    }
    // Timings are left out of the JSON when not asked for, so its output stays repeatable.
    let quiet = sim::run(&sim::Options {
        timings: false,
        jobs: 2,
        ..opts
    })
    .unwrap();
    assert!(quiet.timings.is_empty());
    assert!(!serde_json::to_string(&quiet).unwrap().contains("p99"));
}

fn gridclash() -> Process {
    Process::new(env!("CARGO_BIN_EXE_gridclash"))
}

#[test]
fn simulate_command_json_is_byte_identical_across_runs() {
    let run = || {
        let out = gridclash()
            .args(["simulate", "--battles", "8", "--seed", "7", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let a = run();
    assert_eq!(a, run());
    let v: serde_json::Value = serde_json::from_slice(&a).unwrap();
    // Piped (not a terminal) and --json: no progress bar, nothing at all on stderr.
    for args in [
        &["simulate", "--battles", "2", "--seed", "7", "--json"][..],
        &["soak", "--battles", "2", "--seed", "7", "--json"][..],
    ] {
        let out = gridclash().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
    for key in [
        "battles",
        "draws",
        "mean_rounds",
        "max_rounds",
        "sides",
        "scenarios",
        "hash",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    let side = &v["sides"][0]["stats"];
    for key in [
        "damage_dealt",
        "thresholds_reached",
        "steadfast_passed",
        "steadfast_failed",
        "ki_spent",
        "conditions_applied",
    ] {
        assert!(side.get(key).is_some(), "missing sides[0].stats.{key}");
    }
}

#[test]
fn validate_command_accepts_what_ships() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut args = vec![root.join("rules/dbu")];
    args.extend(scenario::shipped());
    let out = gridclash().arg("validate").args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// `validate rules assets/scenarios`: a folder of rulesets or of scenarios has everything in it
/// checked (it used to be read as one ruleset and fail on a missing ruleset.ron).
#[test]
fn validate_command_checks_every_ruleset_and_scenario_in_a_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = gridclash()
        .arg("validate")
        .arg(root.join("rules"))
        .arg(root.join("assets/scenarios"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let ok = text.lines().filter(|l| l.ends_with(": ok")).count();
    let rulesets = std::fs::read_dir(root.join("rules")).unwrap().count();
    assert_eq!(ok, rulesets + scenario::shipped().len(), "{text}");
    assert!(text.contains(&format!("{}: ok", root.join("rules/d20").display())));
    assert!(!text.contains("ruleset.ron: cannot read"), "{text}");
}

/// A broken scenario in a folder is reported by its own path; a folder with nothing to check
/// is a problem, not a silent pass.
#[test]
fn validate_command_reports_a_broken_file_in_a_folder_and_an_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = broken_duel(dir.path(), |s| s.replacen("at: (2, 4)", "at: (12, 4)", 1));
    let text = refused_by_validate(dir.path());
    assert!(
        text.contains(&format!("{}:", path.display()))
            && text.contains("units[0].at: (12, 4) is off the 12x8 map"),
        "{text}"
    );
    let empty = tempfile::tempdir().unwrap();
    let text = refused_by_validate(empty.path());
    assert!(text.contains("nothing to validate"), "{text}");
}

/// What `validate PATH` prints, asserting that it exits with 1 (a problem found).
fn refused_by_validate(path: &Path) -> String {
    let out = gridclash().arg("validate").arg(path).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", path.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Writes a scenario built from the duel with `edit` applied; returns the path and its text.
fn broken_duel(dir: &Path, edit: impl FnOnce(&str) -> String) -> (std::path::PathBuf, String) {
    let src = std::fs::read_to_string(scenario::find("duel")).unwrap();
    let text = edit(&src);
    let path = dir.join("broken.ron");
    std::fs::write(&path, &text).unwrap();
    (path, text)
}

fn pos(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not found"));
    let before = &text[..at];
    (
        before.matches('\n').count() + 1,
        before.rsplit('\n').next().unwrap().chars().count() + 1,
    )
}

fn problems(path: &Path) -> Vec<String> {
    scenario::load(path)
        .expect_err("the broken scenario is refused")
        .0
        .iter()
        .map(RulesError::to_string)
        .collect()
}

#[test]
fn scenario_errors_name_file_line_column_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, &str, &str, String)> = vec![
        (
            "(archetype: \"brawler\", name:",
            "(archetype: \"bruiser\", name:",
            "\"bruiser\"",
            "units[0].archetype: unknown archetype `bruiser`; the roster has: brawler, ki_blaster, mage, gunner, tank, grunt, champion, wrestler, devourer, ember_monk, swordsman".into(),
        ),
        (
            "at: (2, 4)",
            "at: (12, 4)",
            "(12, 4)",
            "units[0].at: (12, 4) is off the 12x8 map".into(),
        ),
        (
            "at: (2, 4)",
            "at: (4, 1)",
            "(4, 1)",
            "units[0].at: (4, 1) is Rock ('R'): no one can stand there".into(),
        ),
        (
            "at: (9, 3)",
            "at: (2, 4)",
            "(2, 4)),\n    ]",
            "units[1].at: (2, 4) is already taken by unit 0".into(),
        ),
        (
            "side: 1, at: (9, 3)",
            "side: 2, at: (9, 3)",
            "2, at: (9, 3)",
            "units[1].side: side 2 does not exist (there are 2)".into(),
        ),
    ];
    for (from, to, needle, message) in cases {
        let (path, text) = broken_duel(dir.path(), |s| s.replacen(from, to, 1));
        let (l, c) = pos(&text, needle);
        let want = format!("{}:{l}:{c}: {message}", path.display());
        let got = problems(&path);
        assert!(
            got.contains(&want),
            "expected\n  {want}\ngot\n  {}",
            got.join("\n  ")
        );
    }
}

#[test]
fn scenario_errors_point_at_a_bad_map_symbol_and_bad_dice_in_inline_stats() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = broken_duel(dir.path(), |s| {
        s.replacen("\"....R.......\"", "\"....R..?....\"", 1)
    });
    let (l, c) = pos(&text, "\"....R..?....\"");
    let got = problems(&path);
    assert!(
        got.iter().any(|g| g.starts_with(&format!(
            "{}:{l}:{}: map.rows[1]: unknown terrain symbol '?' at (7, 1)",
            path.display(),
            c + 8
        ))),
        "{got:?}"
    );
    // A unit with inline stats whose technique has a broken dice formula.
    let roster =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/dbu/roster.ron"))
            .unwrap();
    let start = roster
        .find("        (\n            id: \"brawler\"")
        .unwrap();
    let end = start + roster[start..].find("\n        ),\n").unwrap() + "\n        )".len();
    let stats = roster[start..end]
        .trim()
        .replace("backlash: Some(\"2(T)\")", "backlash: Some(\"2(T\")");
    let (path, text) = broken_duel(dir.path(), |s| {
        s.replacen(
            "(archetype: \"brawler\", name: \"Kaito\", side: 0, at: (2, 4))",
            &format!("(stats: {stats}, side: 0, at: (2, 4))"),
            1,
        )
    });
    let (l, c) = pos(&text, "\"2(T\"");
    let got = problems(&path);
    assert!(
        got.iter().any(|g| g.starts_with(&format!(
            "{}:{l}:{c}: units[0].stats.techniques[0].backlash: bad formula",
            path.display()
        ))),
        "{got:?}"
    );
}

#[test]
fn validate_command_prints_problems_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = broken_duel(dir.path(), |s| s.replacen("at: (2, 4)", "at: (12, 4)", 1));
    let text = refused_by_validate(&path);
    assert!(
        text.contains("units[0].at: (12, 4) is off the 12x8 map"),
        "{text}"
    );
    assert!(text.starts_with(&path.display().to_string()));
}

/// A scenario's ruleset that is there but lacks one file is reported by that file, and one
/// that is not there at all by the ruleset ids that are (not the other way round).
#[test]
fn scenario_names_a_missing_ruleset_file_or_the_known_rulesets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    for id in ["dbu", "shinobi"] {
        std::fs::create_dir_all(rules.join(id)).unwrap();
        for f in std::fs::read_dir(root.join("rules").join(id)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, rules.join(id).join(f.file_name().unwrap())).unwrap();
        }
    }
    std::fs::remove_file(rules.join("dbu/conditions.ron")).unwrap();
    let validate = |name: &str| {
        let out = gridclash()
            .env("GRIDCLASH_RULES", &rules)
            .arg("validate")
            .arg(scenario::find(name))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name} is refused");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let duel = validate("duel");
    assert!(duel.contains("conditions.ron"), "{duel}");
    assert!(!duel.contains("there is no ruleset"), "{duel}");
    let stages = validate("stages-duel");
    assert!(
        stages.contains("there is no ruleset `power-stages`") && stages.contains("dbu, shinobi"),
        "{stages}"
    );
}

/// A data file far larger than any real one is refused by its size, at its first line,
/// before it is read into memory.
#[test]
fn scenario_far_too_large_is_refused_by_size() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = broken_duel(dir.path(), |s| {
        let pad = "// padding\n"
            .repeat((gridclash::ruleset::MAX_DATA_FILE_BYTES as usize) / "// padding\n".len() + 1);
        format!("{pad}{s}")
    });
    assert!(text.len() as u64 > gridclash::ruleset::MAX_DATA_FILE_BYTES);
    let got = problems(&path);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with(&format!("{}:1:1:", path.display())) && got[0].contains("at most"),
        "{got:?}"
    );
}

/// The unit sheet is a view model of the core, read here without a window: every combatant of
/// every shipped scenario gets the sheet of its own ruleset's family, in that family's terms
/// (DBU's Tier of Power and Capacity, power stages' hand and deck, the ninja chapter's action
/// points, d20's armour and feats, Digimon's Accuracy and effects), in headed sections with
/// the pools first.
#[test]
fn unit_sheet_of_every_shipped_combatant_is_in_its_rulesets_terms() {
    use gridclash::battle::family::unit_sheet;
    use gridclash::battle::sheet::{SheetContext, pool_tone};
    use gridclash::ruleset::Family;
    for loaded in shipped() {
        let mut battle = started(&loaded);
        let names = battle.names();
        let fighters = battle.fighters();
        let want: &[&str] = match loaded.rules.manifest.family {
            Family::Dbu => &["ToP ", "Capacity ", "Soak "],
            Family::PowerStages => &["Hand ", "Deck "],
            Family::Shinobi => &["AP ", "This round", "Attacks\n"],
            Family::D20 => &["Armour: ", "Feats: ", "Attacks\n"],
            Family::Digimon => &["Accuracy ", "Movement ", "Stats\n"],
        };
        for f in &fighters {
            let ctx = SheetContext {
                rules: &loaded.rules,
                names: &names,
                active: battle.active(),
                paused: battle.turn().paused,
                field: battle.field(),
            };
            let sheet = unit_sheet(&ctx, f);
            assert!(
                !sheet.kind.is_empty(),
                "{}: {}",
                loaded.id(),
                f.identity.name
            );
            // Laid out as headed sections: Pools first, its pools coloured by how full they
            // are, no heading twice and none empty.
            let first = sheet.sections.first().expect("a section");
            assert_eq!(
                first.heading,
                "Pools",
                "{}: {}",
                loaded.id(),
                f.identity.name
            );
            let life = first.cells.first().expect("the life pool");
            assert_eq!(
                (life.value.clone(), life.tone),
                (
                    format!("{}/{}", f.life.current, f.life.max),
                    pool_tone(f.life.current, f.life.max)
                ),
                "{}: {}",
                loaded.id(),
                f.identity.name
            );
            let mut headings: Vec<&str> =
                sheet.sections.iter().map(|s| s.heading.as_str()).collect();
            let all = headings.len();
            headings.sort_unstable();
            headings.dedup();
            assert_eq!(headings.len(), all, "{}: a heading twice", loaded.id());
            assert!(
                sheet
                    .sections
                    .iter()
                    .all(|s| !s.is_empty() && !s.heading.is_empty())
            );
            let body = sheet.body();
            for w in want {
                assert!(
                    body.contains(w),
                    "{} {}: no {w:?} in\n{body}",
                    loaded.id(),
                    f.identity.name,
                );
            }
        }
    }
}

/// The action menu is a view model of the core: the acting unit's maneuvers in every shipped
/// scenario, each with its cost in its ruleset's terms (DBU's Ki, action points and chakra, the
/// cards held and the stages they cost), read without a window.
#[test]
fn action_menu_costs_are_in_each_rulesets_terms() {
    use gridclash::battle::menu::attack_slots;
    use gridclash::ruleset::Family;
    for loaded in shipped() {
        let mut battle = started(&loaded);
        let who = battle.active().expect("someone acts first");
        let slots = attack_slots(&mut battle, who);
        assert!(!slots.is_empty(), "{}: no maneuvers", loaded.id());
        for s in &slots {
            let ok = match loaded.rules.manifest.family {
                Family::Dbu => s.cost.ends_with("Ki"),
                Family::D20 => s.cost.ends_with("AP") || s.cost == " next swing",
                Family::Shinobi | Family::Digimon => s.cost.contains("AP"),
                Family::PowerStages => !s.cost.contains("Ki") && !s.cost.contains("AP"),
            };
            assert!(ok, "{} {}: cost {:?}", loaded.id(), s.name, s.cost);
        }
    }
}

/// The aim panel is a view model of the core: for the first unit of every shipped scenario,
/// standing beside its nearest foe, each maneuver it can use there is previewed and worded in
/// its own ruleset's terms (DBU's Ki and wager, the ninja chapter's AP and chakra, d20's
/// actions, Digimon's Simple or Complex Action, power stages' stage cost), with each target's
/// odds after the head.
#[test]
fn aim_view_of_every_shipped_ruleset_is_in_its_terms() {
    use gridclash::battle::aim::AimOption;
    use gridclash::battle::menu::attack_slots;
    use gridclash::grid::Square;
    use gridclash::ruleset::Family;
    for loaded in shipped() {
        let mut battle = started(&loaded);
        let who = battle.active().expect("someone acts first");
        let me = battle.fighter(who).expect("the active unit");
        let foe = battle
            .fighters()
            .into_iter()
            .filter(|f| f.side != me.side && f.position.is_some())
            .min_by_key(|f| me.distance_to(f).unwrap_or(u32::MAX))
            .expect("a foe");
        let at = foe.position.expect("on the field");
        let beside = [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .map(|(dx, dy)| {
                Square::new(
                    at.x + dx * foe.size.squares as i32,
                    at.y + dy * foe.size.squares as i32,
                )
            })
            .find(|s| battle.map().bounds().contains(*s))
            .expect("a square beside the foe");
        crate::common::stage(&mut battle, who.0, |f| f.position.0 = Some(beside));
        let mut seen = 0;
        for slot in attack_slots(&mut battle, who) {
            let order = slot_order(who, &slot, foe.id);
            let Ok(preview) = battle.preview(&order) else {
                continue;
            };
            let view = battle.aim_view(&order, &preview, 0);
            let ok = match loaded.rules.manifest.family {
                Family::Dbu => {
                    view.head.contains(": Ki ") && matches!(view.option, AimOption::Wager { .. })
                }
                Family::Shinobi => view.head.contains(" AP, ") && view.head.ends_with(" chakra"),
                Family::D20 => view.head.contains("action"),
                Family::Digimon => view.head.contains(" Action ("),
                Family::PowerStages => view.head.contains("power stage(s)"),
            };
            assert!(ok, "{} {}: {:?}", loaded.id(), slot.name, view.head);
            // Every family shows what the attack rolls or takes, apart from the odds (a
            // Digimon Clash action or helping effect rolls no Dodge: its checks are its lines).
            assert!(
                !view.rolls.is_empty() || loaded.rules.manifest.family == Family::Digimon,
                "{} {}: no rolls",
                loaded.id(),
                slot.name
            );
            assert!(
                view.lines.iter().any(|l| l.contains(&foe.identity.name)),
                "{} {}: no line for the target {}: {:#?}",
                loaded.id(),
                slot.name,
                foe.identity.name,
                view.lines
            );
            seen += 1;
        }
        assert!(seen > 0, "{}: no maneuver could be aimed", loaded.id());
    }
}

/// A sneak attack is the ninja chapter's rule: sent in any other ruleset's battle (from a
/// replay, a script or the command line) the engine refuses it and names the rule, even where
/// the same attack without the sneak is legal.
#[test]
fn sneak_attack_is_refused_outside_the_ninja_chapter() {
    use gridclash::battle::command::{AttackOrder, Command, RuleError};
    use gridclash::battle::menu::attack_slots;
    use gridclash::ruleset::Family;
    for loaded in shipped() {
        let mut battle = started(&loaded);
        let who = battle.active().expect("someone acts first");
        let me = battle.fighter(who).expect("the active unit");
        let foes: Vec<_> = battle
            .fighters()
            .into_iter()
            .filter(|f| f.side != me.side && f.position.is_some())
            .collect();
        let mut tried = 0;
        for foe in &foes {
            let at = foe.position.expect("on the field");
            crate::common::stage(&mut battle, who.0, |f| {
                f.position.0 = Some(gridclash::grid::Square::new(at.x - 1, at.y))
            });
            for slot in attack_slots(&mut battle, who) {
                let order = slot_order(who, &slot, foe.id);
                if battle.check(&Command::Attack(order.clone())).is_err() {
                    continue;
                }
                tried += 1;
                let sneak = Command::Attack(AttackOrder {
                    sneak: true,
                    ..order
                });
                let got = battle.check(&sneak);
                if loaded.rules.manifest.family == Family::Shinobi {
                    assert!(
                        !matches!(got, Err(RuleError::NotInRuleset { .. })),
                        "{}: {got:?}",
                        loaded.id()
                    );
                } else {
                    assert!(
                        matches!(
                            got,
                            Err(RuleError::NotInRuleset {
                                what: "a sneak attack",
                                ..
                            })
                        ),
                        "{} {}: {got:?}",
                        loaded.id(),
                        slot.name
                    );
                }
            }
        }
        assert!(tried > 0, "{}: no legal attack to try", loaded.id());
    }
}

/// The action bar and the controls are view models of the core: each ruleset offers its own
/// maneuvers besides attacks (DBU's Boosted Speed and Power Up, the ninja chapter's sneak
/// attack and Deflect, d20's and Digimon's Skill Checks) and words a move's cost in its terms
/// (DBU's and the card game's moves left, the action-point families' AP).
#[test]
fn action_bar_offers_each_rulesets_own_maneuvers() {
    use gridclash::battle::command::SkillWay;
    use gridclash::ruleset::Family;
    for loaded in shipped() {
        let mut battle = started(&loaded);
        let who = battle.active().expect("someone acts first");
        let offers = battle.offers();
        let bar = battle.bar_view(who).expect("the active unit's bar");
        let family = loaded.rules.manifest.family;
        let dbu = family == Family::Dbu;
        assert_eq!(offers.boosted_move, dbu, "{}", loaded.id());
        assert_eq!(offers.power_up, dbu, "{}", loaded.id());
        assert_eq!(offers.sneak, family == Family::Shinobi, "{}", loaded.id());
        assert_eq!(offers.deflect, family == Family::Shinobi, "{}", loaded.id());
        let ways: Vec<SkillWay> = offers.skill_ways.iter().map(|(w, _)| *w).collect();
        let expected: &[SkillWay] = match family {
            Family::D20 => &[SkillWay::Action, SkillWay::TakeTen],
            Family::Digimon => &[SkillWay::Action, SkillWay::Interrupt],
            _ => &[],
        };
        assert_eq!(ways, expected, "{}", loaded.id());
        match family {
            Family::Dbu | Family::PowerStages => {
                assert!(bar.points.is_none(), "{}: {bar:?}", loaded.id());
                assert!(bar.moves.ends_with("left)"), "{}: {bar:?}", loaded.id());
            }
            Family::Shinobi | Family::Digimon | Family::D20 => {
                assert!(bar.points.is_some(), "{}: {bar:?}", loaded.id());
                assert!(
                    bar.moves.ends_with("AP") || bar.moves.contains("step is free"),
                    "{}: {bar:?}",
                    loaded.id()
                );
            }
        }
    }
}

/// A shipped scenario's battle as it starts (seed 1), for reading its view models.
/// The attack of menu slot `slot` by `who` on the combatant `foe`, no wager.
fn slot_order(
    who: gridclash::battle::components::CombatantId,
    slot: &gridclash::battle::menu::MenuSlot,
    foe: gridclash::battle::components::CombatantId,
) -> gridclash::battle::command::AttackOrder {
    gridclash::battle::command::AttackOrder {
        attacker: who,
        profile: slot.profile.clone(),
        technique: slot.technique.clone(),
        target: gridclash::battle::command::AttackTarget::Combatant(foe),
        wager: 0,
        element: slot.element.clone(),
        push: None,
        sneak: false,
        called_shot: None,
        united: None,
        discard: None,
        power_attack: 0,
        aimed: Default::default(),
    }
}

fn started(loaded: &scenario::Loaded) -> gridclash::battle::Battle {
    let setup = loaded.setup(gridclash::battle::components::Controller::default());
    gridclash::battle::Battle::new(
        loaded.rules.clone(),
        &setup,
        gridclash::dice::DiceSource::seeded(1),
    )
    .expect("starts")
}

/// A maneuver the unit cannot use now is in the menu with the rule that refuses it (no
/// Standard Action left), and the same maneuvers are not refused while it has one: what the
/// action bar greys out and names.
#[test]
fn action_menu_names_the_rule_refusing_a_maneuver() {
    use gridclash::battle::command::RuleError;
    use gridclash::battle::menu::attack_slots;
    let loaded = shipped()
        .into_iter()
        .find(|l| l.id() == "skirmish")
        .expect("the skirmish scenario");
    let mut battle = started(&loaded);
    let who = battle.active().expect("someone acts first");
    let ready = attack_slots(&mut battle, who);
    assert!(!ready.is_empty());
    assert!(ready.iter().all(|s| s.refusal.is_none()), "{ready:#?}");
    crate::common::stage(&mut battle, who.0, |f| f.actions.standard = 0);
    let spent = attack_slots(&mut battle, who);
    assert_eq!(spent.len(), ready.len());
    for s in &spent {
        assert!(
            matches!(
                s.refusal,
                Some(RuleError::NoActions {
                    what: "Standard Action",
                    ..
                })
            ),
            "{}: {:?}",
            s.name,
            s.refusal
        );
    }
}

#[test]
fn dbu_storm_ridge_brings_prone_and_shaken_into_play() {
    // The Stormcallers' Earth and Wind are the shipped sources of Prone and Shaken; the
    // simulator's report counts every condition gained, by kind.
    let tempest = shipped()
        .into_iter()
        .find(|l| l.id() == "tempest")
        .expect("the tempest scenario is shipped");
    let report = sim::run(&sim::Options {
        scenarios: vec![tempest],
        battles: 40,
        seed: 1,
        ai: vec![Policy::Normal, Policy::Normal],
        max_rounds: 30,
        swap: false,
        timings: false,
        jobs: 1,
    })
    .unwrap();
    let mut gained: std::collections::BTreeMap<String, u32> = Default::default();
    for side in &report.sides {
        for (kind, n) in &side.stats.conditions_gained {
            *gained.entry(kind.clone()).or_default() += n;
        }
    }
    for kind in ["Prone", "Shaken"] {
        assert!(gained.get(kind).is_some_and(|n| *n > 0), "{gained:?}");
    }
    assert!(
        report.text().contains("conditions gained: "),
        "{}",
        report.text()
    );
}
