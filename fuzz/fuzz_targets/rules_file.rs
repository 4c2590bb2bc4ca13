//! Fuzzes the rules loader: the input replaces one file of a copy of a shipped ruleset, and
//! the whole ruleset is loaded. The file is named by a first line `// file: RULESET/FILE.ron`
//! (a RON comment, so seeds stay valid RON; `fuzz/seed.sh` writes them), else chosen by the
//! input's length. Loading may fail, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let files = common::rules_files();
    let named = std::str::from_utf8(data)
        .ok()
        .and_then(|t| t.lines().next())
        .and_then(|l| l.strip_prefix("// file: "))
        .and_then(|f| f.split_once('/'));
    let (id, file) = match named.and_then(|(i, f)| files.iter().find(|(a, b)| a == i && b == f)) {
        Some(p) => p.clone(),
        None => files[data.len() % files.len()].clone(),
    };
    let shipped = gridclash::ruleset::rules_root().join(&id);
    let dir = common::scratch().join(&id);
    std::fs::create_dir_all(&dir).expect("ruleset copy");
    for (_, f) in files.iter().filter(|(i, _)| *i == id) {
        std::fs::copy(shipped.join(f), dir.join(f)).expect("copy");
    }
    std::fs::write(dir.join(&file), data).expect("write the input");
    let _ = gridclash::ruleset::Rules::load(&dir);
});
