//! What the three fuzz targets share: a private scratch directory, and the shipped files.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A directory of this process's own (removed when the fuzzer's process ends is not needed:
/// it lives under the system's temp directory and is reused by every input).
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("gridclash-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("scratch directory");
        d
    })
}

/// The shipped rules files as (ruleset id, file name), sorted.
pub fn rules_files() -> Vec<(String, String)> {
    let root = gridclash::ruleset::rules_root();
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).expect("rules/").flatten() {
        let id = dir.file_name().to_string_lossy().into_owned();
        for f in std::fs::read_dir(dir.path()).expect("a ruleset").flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.ends_with(".ron") {
                out.push((id.clone(), name));
            }
        }
    }
    out.sort();
    out
}
