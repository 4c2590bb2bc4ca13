//! The licences that ship with the game: every crate in Cargo.lock is accounted for in
//! assets/licenses/THIRD-PARTY-LICENSES.md (in the game, or used only to build or test), so
//! a dependency change cannot leave the archive and the credits screen out of date.

use std::collections::BTreeSet;

fn manifest_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `name version` of every package in Cargo.lock but the game itself.
fn locked_packages() -> BTreeSet<String> {
    let lock = std::fs::read_to_string(manifest_dir().join("Cargo.lock")).expect("Cargo.lock");
    let mut out = BTreeSet::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = \"") {
            name = Some(n.trim_end_matches('"').to_string());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = \""), name.take())
            && n != "gridclash"
        {
            out.insert(format!("{n} {}", v.trim_end_matches('"')));
        }
    }
    out
}

#[test]
fn licences_file_lists_every_locked_crate_and_ships_each_licence_text() {
    let path = manifest_dir().join("assets/licenses/THIRD-PARTY-LICENSES.md");
    let text = std::fs::read_to_string(&path).expect("the licences file is written");
    let mut listed = BTreeSet::new();
    let mut section = "";
    for line in text.lines() {
        if line.starts_with("## ") {
            section = line;
        } else if section == "## Crates in the game" && line.starts_with("| ") {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if cells[1] != "crate" {
                listed.insert(format!("{} {}", cells[1], cells[2]));
            }
        } else if section.starts_with("## Crates used only") && line.starts_with("- ") {
            let mut words = line[2..].split_whitespace();
            if let (Some(n), Some(v)) = (words.next(), words.next()) {
                listed.insert(format!("{n} {v}"));
            }
        }
    }
    let locked = locked_packages();
    let missing: Vec<_> = locked.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&locked).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "run python3 scripts/third-party-licences.py: missing {missing:?}, no longer locked {stale:?}"
    );
    assert!(listed.iter().any(|p| p.starts_with("bevy ")), "Bevy itself");
    assert!(text.contains("Apache License") && text.contains("Permission is hereby granted"));
    let fonts = std::fs::read_to_string(manifest_dir().join("assets/fonts/LICENSE-DejaVu.txt"))
        .expect("the fonts' licence ships beside them");
    assert!(fonts.contains("Bitstream Vera"));
}
