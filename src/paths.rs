//! Where a build finds its shipped data (`assets/`, `rules/`): beside the executable, in a macOS
//! app bundle's resources, or where an environment variable says — never the current directory.

use std::path::{Path, PathBuf};

/// The directory `name` (`"assets"` or `"rules"`): `$env` when set; else the first place a
/// packaged build keeps it ([`packaged_places`]); else the source tree, for `cargo run` and
/// `cargo test`. When none exists the packaged place is returned, so an error names where a
/// player would look.
pub fn data_dir(env: &str, name: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os(env) {
        return PathBuf::from(dir);
    }
    let places = std::env::current_exe()
        .map(|exe| packaged_places(&exe, name))
        .unwrap_or_default();
    if let Some(found) = places.iter().find(|p| p.is_dir()) {
        return found.clone();
    }
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(name);
    if source.is_dir() {
        return source;
    }
    places.into_iter().next().unwrap_or(source)
}

/// Where a packaged build keeps `name` for an executable at `exe`, in the order looked at: the
/// executable's own directory (the Linux and Windows archives), then `Contents/Resources` of a
/// macOS app bundle (the executable is in `Contents/MacOS`). A symlinked executable is followed
/// to where it really is, so a link in `~/.local/bin` still finds its data.
pub fn packaged_places(exe: &Path, name: &str) -> Vec<PathBuf> {
    let exe = dunce::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let Some(dir) = exe.parent() else {
        return Vec::new();
    };
    let mut out = vec![dir.join(name)];
    if dir.file_name().is_some_and(|n| n == "MacOS")
        && let Some(contents) = dir.parent()
    {
        out.push(contents.join("Resources").join(name));
    }
    out
}

/// The environment variable that moves the data directory (tests, portable installs).
pub const DATA_DIR_ENV: &str = "GRIDCLASH_DATA_DIR";

/// The player's data directory: saves, replays and everything of their own (scenarios,
/// characters, teams, rulesets). `$GRIDCLASH_DATA_DIR` when set, else the platform's user data
/// directory's `gridclash`.
pub fn user_data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV) {
        return PathBuf::from(dir);
    }
    dirs::data_dir().map_or_else(|| PathBuf::from("gridclash-data"), |d| d.join("gridclash"))
}

/// When a file directly in `dir` last changed (the newest), to notice an edit made while the
/// game runs; none when the folder cannot be read.
pub fn newest_change(dir: &Path) -> Option<std::time::SystemTime> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.metadata().ok()?.modified().ok())
        .max()
}

/// The `.ron` files directly in `dir`, sorted by name; none when it does not exist.
pub fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mac_bundle_looks_in_its_resources_after_its_own_directory() {
        let exe = Path::new("/Applications/Gridclash.app/Contents/MacOS/gridclash");
        assert_eq!(
            packaged_places(exe, "rules"),
            vec![
                PathBuf::from("/Applications/Gridclash.app/Contents/MacOS/rules"),
                PathBuf::from("/Applications/Gridclash.app/Contents/Resources/rules"),
            ]
        );
    }

    #[test]
    fn an_archive_looks_beside_its_executable_only() {
        let exe = Path::new("/opt/gridclash-0.1.0/gridclash");
        assert_eq!(
            packaged_places(exe, "assets"),
            vec![PathBuf::from("/opt/gridclash-0.1.0/assets")]
        );
    }
}
