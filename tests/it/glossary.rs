//! The ruleset glossary (help screen and tooltips): every word a unit sheet prints and every
//! maneuver and condition has its rule text, the window's linker finds each of them in the
//! sheet, and a mod's broken `glossary.ron` is reported at its file and line.

use gridclash::ruleset::glossary::TermKind;
use gridclash::ruleset::{Rules, RulesError, rules_root};

/// Every shipped ruleset's directory.
fn shipped_rulesets() -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(rules_root())
        .expect("rules/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("ruleset.ron").exists())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn glossary_of_every_shipped_ruleset_explains_its_conditions_maneuvers_and_attack_types() {
    let dirs = shipped_rulesets();
    assert_eq!(dirs.len(), 5, "five shipped rulesets");
    for dir in dirs {
        let rules = Rules::load(&dir).expect("a shipped ruleset loads");
        let g = &rules.glossary;
        assert!(
            dir.join("glossary.ron").exists(),
            "{} ships a glossary.ron",
            dir.display()
        );
        for c in &rules.conditions.conditions {
            let e = g.get(&c.name).expect("every condition is in the glossary");
            assert_eq!(e.kind, TermKind::Condition);
            assert_eq!(e.text, c.description, "the condition's own text");
        }
        for p in &rules.attacks.profiles {
            assert!(g.get(&p.name).is_some(), "{}: {}", dir.display(), p.name);
        }
        for t in &rules.attacks.types {
            assert!(g.get(&t.name).is_some(), "{}: {}", dir.display(), t.name);
        }
        for e in g.entries() {
            assert!(
                !e.text.trim().is_empty(),
                "{}: {} has text",
                dir.display(),
                e.term
            );
            assert!(
                !e.source.trim().is_empty(),
                "{}: {} has a source",
                dir.display(),
                e.term
            );
        }
    }
}

/// Plays every shipped scenario with random orders and, every few commands, reads every
/// combatant's sheet: each word it says it prints is in its body, has an entry with text, and
/// is one the window's linker finds in that body.
#[test]
fn glossary_explains_every_label_of_every_unit_sheet_in_every_shipped_scenario() {
    use gridclash::ai::Policy;
    use gridclash::{scenario, sim};
    let mut checked = 0usize;
    for path in scenario::shipped() {
        let loaded = scenario::load(&path).expect("a shipped scenario loads");
        let sides = loaded.scenario.sides.len();
        let mut game = sim::AiMatch::new(&loaded, 5, &vec![Policy::Random; sides], 8)
            .expect("a shipped scenario plays");
        let rules = game.battle.rules().clone();
        let g = &rules.glossary;
        let mut step = 0;
        loop {
            if step % 6 == 0 {
                let fighters = game.battle.fighters();
                let names: Vec<String> = fighters.iter().map(|f| f.identity.name.clone()).collect();
                let skip: Vec<&str> = names.iter().map(String::as_str).collect();
                for f in &fighters {
                    let sheet = game.battle.unit_sheet(f.id).expect("a sheet");
                    // The window links each heading, label and line on its own.
                    let texts = sheet.texts();
                    let linked: Vec<&str> = texts
                        .iter()
                        .flat_map(|t| g.segments(t, &skip))
                        .filter(|s| s.entry.is_some())
                        .map(|s| s.text)
                        .collect();
                    let body = sheet.body();
                    for label in &sheet.labels {
                        let at = format!("{}: {} ({label})", path.display(), f.identity.name);
                        assert!(
                            texts.iter().any(|t| t.contains(label.as_str())),
                            "{at}: printed"
                        );
                        let e = g
                            .get(label)
                            .unwrap_or_else(|| panic!("{at}: in the glossary"));
                        assert!(!e.text.is_empty(), "{at}: has text");
                        assert!(linked.contains(&label.as_str()), "{at}: linked in\n{body}");
                        checked += 1;
                    }
                }
            }
            if game.finished() || step > 120 {
                break;
            }
            game.step().expect("a random order plays");
            step += 1;
        }
    }
    assert!(checked > 1000, "{checked} labels checked");
}

#[test]
fn glossary_error_names_the_file_line_and_the_table_that_defined_the_word_first() {
    let dir = tempfile::tempdir().unwrap();
    let dbu = rules_root().join("dbu");
    for e in std::fs::read_dir(&dbu).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    let file = dir.path().join("glossary.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    // A mod that explains a condition a second time.
    let broken = text.replacen("term: \"Initiative\",", "term: \"Guard Down\",", 1);
    std::fs::write(&file, &broken).unwrap();
    let errors = Rules::load(dir.path()).expect_err("a word defined twice is refused");
    let line = broken
        .lines()
        .position(|l| l.contains("\"Guard Down\""))
        .unwrap()
        + 1;
    match &errors.0[..] {
        [
            RulesError::Invalid {
                file: f,
                line: l,
                field,
                message,
                ..
            },
        ] => {
            assert!(f.ends_with("glossary.ron"));
            assert!(l.abs_diff(line) <= 2, "line {l} near {line}");
            assert!(field.starts_with("terms["), "{field}");
            assert!(
                message.contains("Guard Down") && message.contains("Condition"),
                "{message}"
            );
        }
        other => panic!("one error, got {other:?}"),
    }
    // A mod without a glossary.ron still loads, with the generated entries only.
    std::fs::remove_file(&file).unwrap();
    let rules = Rules::load(dir.path()).expect("glossary.ron is optional");
    assert!(rules.glossary.get("Guard Down").is_some());
    assert!(rules.glossary.get("Tier of Power").is_none());
}
