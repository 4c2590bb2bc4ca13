//! Fuzzes the save and replay loader: the input is a save file, read, checked and replayed
//! against the shipped scenarios. Loading may fail, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let path = common::scratch().join("save.ron");
    std::fs::write(&path, data).expect("write the input");
    let _ = gridclash::save::load(&path, gridclash::save::Restore::default());
});
