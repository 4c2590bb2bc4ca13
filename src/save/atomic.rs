//! Crash-safe file replacement: a slot always holds either its old save or the new one,
//! complete, whenever the game is killed or the machine loses power.
//!
//! The new bytes go to a temporary file in the same directory, which is flushed and synced,
//! then renamed over the old file (an atomic replace on every platform Gridclash runs on), and
//! the directory is synced so the rename itself is durable.
//!
//! For the crash test, `GRIDCLASH_CRASH_AT=<stage>` makes the process abort at one stage of a
//! write (see [`STAGES`]); nothing else reads it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The environment variable that aborts a write at a stage (crash tests only).
pub const CRASH_ENV: &str = "GRIDCLASH_CRASH_AT";

/// The stages of a write where the crash test stops the process, in order.
pub const STAGES: [&str; 6] = [
    "created",
    "half-written",
    "written",
    "synced",
    "renamed",
    "dir-synced",
];

/// Aborts the process if the crash test asked to stop at `stage`.
fn crash_point(stage: &str) {
    if std::env::var(CRASH_ENV).is_ok_and(|s| s == stage) {
        std::process::abort();
    }
}

/// The temporary file a write to `path` goes through: hidden, beside it, and unique to this
/// process and write, so two writers of one slot (two game windows) never share one.
pub fn temp_path(path: &Path) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Replaces `path` with `bytes` atomically (see the module documentation). The directory is
/// created if missing.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let tmp = temp_path(path);
    let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
    crash_point("created");
    let (first, rest) = bytes.split_at(bytes.len() / 2);
    file.write_all(first)?;
    file.flush()?;
    crash_point("half-written");
    file.write_all(rest)?;
    file.flush()?;
    crash_point("written");
    file.sync_all()?;
    drop(file);
    crash_point("synced");
    if let Err(e) = fs::rename(&tmp, path) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    crash_point("renamed");
    sync_dir(dir)?;
    crash_point("dir-synced");
    Ok(())
}

/// Makes a rename in `dir` durable. Windows has no directory handles to sync; its rename is
/// journaled by NTFS.
fn sync_dir(dir: &Path) -> io::Result<()> {
    if cfg!(unix) {
        File::open(dir)?.sync_all()
    } else {
        Ok(())
    }
}
