//! What the three fuzz targets share: a private scratch directory.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A scratch directory of this process's own under the system's temp directory, reused by
/// every input (left behind: a fuzzer run ends by being stopped, not by returning).
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("gridclash-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("scratch directory");
        d
    })
}
