//! Fuzzes the rules loader: the input replaces one file of a copy of a shipped ruleset, and
//! the whole ruleset is loaded. The file is named by a first line `// file: RULESET/FILE.ron`
//! (a RON comment, so seeds stay valid RON; `fuzz/seed.sh` writes them), else chosen by the
//! input's length. Loading may fail, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let files = gridclash::harness::rules_files();
    let Some((id, file)) = gridclash::harness::rules_file_for(data, &files) else {
        return;
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
