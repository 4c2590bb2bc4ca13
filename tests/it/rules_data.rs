//! The DBU ruleset as data: what ships loads and is complete, and a broken file gets an error
//! that names its file, line, column and field, never a panic.

use std::path::{Path, PathBuf};

use gridclash::ruleset::{ConditionKind, DBU_FILES, Rules, RulesError, rules_root};

use crate::common::rules;

#[test]
fn shipped_dbu_ruleset_is_complete() {
    let r = rules();
    assert_eq!(r.manifest.id, "dbu");
    let profiles: Vec<&str> = r.attacks.profiles.iter().map(|p| p.id.as_str()).collect();
    for p in [
        "shot",
        "simple",
        "combination",
        "powered",
        "crushing",
        "sweeping",
        "soaring",
        "sphere",
        "rapid_fire",
        "kiai",
        "blast",
        "explosion",
        "beam",
        "cutting",
        "spell",
        "elemental",
        "spiritual_assault",
    ] {
        assert!(profiles.contains(&p), "missing profile {p}");
    }
    for k in ConditionKind::ALL {
        let _ = r.condition(k);
    }
    assert_eq!(r.conditions.conditions.len(), 16);
    assert_eq!(r.damage.recoveries.len(), 4);
    assert!(r.roster.archetypes.len() >= 6);
    assert_eq!(r.damage.thresholds.len(), 3);
}

/// A copy of the shipped ruleset in a temporary directory, one file edited.
fn broken(file: &str, edit: impl FnOnce(&str) -> String) -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    for f in DBU_FILES {
        std::fs::copy(rules_root().join("dbu").join(f), dir.path().join(f)).unwrap();
    }
    let path = dir.path().join(file);
    let text = edit(&std::fs::read_to_string(&path).unwrap());
    std::fs::write(&path, &text).unwrap();
    (dir, path, text)
}

/// Line and column (1-based) of the first occurrence of `needle` in `text`.
fn pos(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in file"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap().chars().count() + 1;
    (line, col)
}

fn errors(dir: &Path) -> Vec<RulesError> {
    Rules::load(dir)
        .expect_err("the broken ruleset must be refused")
        .0
}

#[track_caller]
fn assert_error(dir: &Path, path: &Path, line: usize, col: usize, field: &str, message: &str) {
    let want = format!("{}:{line}:{col}: {field}: {message}", path.display());
    let got: Vec<String> = errors(dir).iter().map(|e| e.to_string()).collect();
    assert!(
        got.contains(&want),
        "expected\n  {want}\namong\n  {}",
        got.join("\n  ")
    );
}

#[test]
fn dbu_rules_error_names_an_unknown_profile_in_the_roster() {
    let (dir, path, text) = broken("roster.ron", |t| {
        t.replacen(
            "\"crushing\", \"sweeping\", \"soaring\"",
            "\"crushing\", \"sweping\", \"soaring\"",
            1,
        )
    });
    let (l, c) = pos(&text, "\"sweping\"");
    assert_error(
        dir.path(),
        &path,
        l,
        c,
        "archetypes[0].profiles[4]",
        "unknown profile `sweping` (see attacks.ron)",
    );
}

#[test]
fn dbu_rules_error_names_a_score_over_the_tier_cap_and_the_build_budget() {
    let (dir, path, text) = broken("roster.ron", |t| {
        t.replacen("{\"AG\": 6, \"FO\": 8,", "{\"AG\": 6, \"FO\": 12,", 1)
    });
    let (l, c) = pos(&text, "12,");
    assert_error(
        dir.path(),
        &path,
        l,
        c,
        "archetypes[0].attributes.FO",
        "FO 12 is over the cap of 11 for Tier of Power 2",
    );
    let (l, c) = pos(&text, "{\"AG\": 6, \"FO\": 12");
    assert_error(
        dir.path(),
        &path,
        l,
        c,
        "archetypes[0].attributes",
        "scores add up to 30, but a Power Level 5 build has 26 (1 per attribute, 5 racial, 7 Attribute Additions of 2)",
    );
}

#[test]
fn dbu_rules_error_names_a_bad_formula() {
    let (dir, path, text) = broken("attacks.ron", |t| {
        t.replacen("cost: \"6(T)\",", "cost: \"6(T) +\",", 1)
    });
    let (l, c) = pos(&text, "\"6(T) +\"");
    assert_error(
        dir.path(),
        &path,
        l,
        c,
        "profiles[2].cost",
        "bad formula: the formula ends too early (at character 6 of \"6(T) +\")",
    );
}

#[test]
fn dbu_rules_error_names_an_unknown_formula_variable() {
    let (dir, path, text) = broken("characters.ron", |t| {
        t.replacen("haste: \"AG / 2\"", "haste: \"AGI / 2\"", 1)
    });
    let (l, c) = pos(&text, "\"AGI / 2\"");
    let got: Vec<String> = errors(dir.path()).iter().map(|e| e.to_string()).collect();
    let want = format!(
        "{}:{l}:{c}: derived.haste: unknown name `AGI` in this formula",
        path.display()
    );
    assert!(got.iter().any(|g| g.starts_with(&want)), "{got:?}");
}

#[test]
fn dbu_rules_error_names_an_unknown_field() {
    let (dir, path, text) = broken("dice.ron", |t| {
        t.replacen("botch_range: 1,", "botch_rnage: 1,", 1)
    });
    let (l, c) = pos(&text, "botch_rnage");
    let got = errors(dir.path());
    assert_eq!(got.len(), 1);
    let RulesError::Invalid {
        file,
        line,
        col,
        message,
        ..
    } = &got[0]
    else {
        panic!("{got:?}")
    };
    assert_eq!((file, *line, *col), (&path, l, c));
    assert!(message.contains("botch_rnage"), "{message}");
}

#[test]
fn dbu_rules_error_names_a_syntax_error() {
    let (dir, path, _) = broken("damage.ron", |t| {
        t.replacen("enabled: true,", "enabled: true", 1)
    });
    let got = errors(dir.path());
    let RulesError::Invalid { file, line, .. } = &got[0] else {
        panic!("{got:?}")
    };
    assert_eq!(file, &path);
    assert!(*line > 1);
}

#[test]
fn dbu_rules_error_refuses_a_critical_target_below_the_floor() {
    let (dir, path, text) = broken("dice.ron", |t| {
        t.replacen("critical_target: 10,", "critical_target: 6,", 1)
    });
    let (l, c) = pos(&text, "6,\n    // \"Effects");
    assert_error(
        dir.path(),
        &path,
        l,
        c,
        "critical_target",
        "must be between the floor 7 and 10",
    );
}

#[test]
fn dbu_rules_error_needs_all_sixteen_conditions() {
    let (dir, path, text) = broken("conditions.ron", |t| {
        let start = t.find("        (\n            name: \"Hidden\"").unwrap();
        let end = t[start..].find("        ),\n").unwrap() + start + "        ),\n".len();
        format!("{}{}", &t[..start], &t[end..])
    });
    let (l, c) = pos(&text, "[\n");
    assert_error(
        dir.path(),
        &path,
        l,
        c,
        "conditions",
        "the Hidden condition must be defined exactly once (found 0)",
    );
}

#[test]
fn dbu_rules_error_for_a_missing_file() {
    let (dir, _, _) = broken("actions.ron", |t| t.to_string());
    std::fs::remove_file(dir.path().join("actions.ron")).unwrap();
    let got = errors(dir.path());
    assert!(
        matches!(&got[0], RulesError::Unreadable { file, .. } if file.ends_with("actions.ron"))
    );
}

#[test]
fn dbu_rules_loader_never_panics_on_truncated_files() {
    for f in DBU_FILES {
        let full = std::fs::read_to_string(rules_root().join("dbu").join(f)).unwrap();
        let step = (full.len() / 40).max(1);
        let dir = tempfile::tempdir().unwrap();
        for g in DBU_FILES {
            std::fs::copy(rules_root().join("dbu").join(g), dir.path().join(g)).unwrap();
        }
        let mut cut = 0;
        while cut < full.len() {
            let end = (0..=cut)
                .rev()
                .find(|i| full.is_char_boundary(*i))
                .unwrap_or(0);
            std::fs::write(dir.path().join(f), &full[..end]).unwrap();
            let result = std::panic::catch_unwind(|| Rules::load(dir.path()));
            match result.expect("loading never panics") {
                Ok(_) => assert!(
                    full[end..].trim().is_empty(),
                    "{f} cut at {end} still loads, but it lost more than whitespace"
                ),
                Err(errors) => assert!(
                    errors.0.iter().all(|e| e.file().ends_with(f)),
                    "errors name the truncated file"
                ),
            }
            cut += step;
        }
    }
}

#[test]
fn dbu_rules_error_names_a_technique_condition_no_attack_can_give() {
    let (dir, path, text) = broken("roster.ron", |t| {
        t.replacen(
            "on_damage: [(condition: Transfigured, rounds: 1)]",
            "on_damage: [(condition: Absorbed, rounds: 1)]",
            1,
        )
    });
    let (l, c) = pos(&text, "Absorbed, rounds");
    assert_error(
        dir.path(),
        &path,
        l,
        c,
        "archetypes[2].techniques[0].on_damage[0].condition",
        "Absorbed needs an absorber and cannot be granted by an attack",
    );
}
