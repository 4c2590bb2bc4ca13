//! Fuzzes the scenario loader: the input is a scenario file, loaded with the shipped rulesets.
//! Loading may fail, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let path = common::scratch().join("scenario.ron");
    std::fs::write(&path, data).expect("write the input");
    let _ = gridclash::scenario::load(&path);
});
