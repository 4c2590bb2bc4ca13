//! `gridclash validate`: checks ruleset directories, scenario files and folders of them, and
//! prints each problem as `PATH:LINE:COL: message`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gridclash::ruleset::{FieldPath, Rules, RulesError};
use gridclash::scenario;

/// What one path given to `validate` stands for.
#[derive(Debug, PartialEq, Eq)]
enum Checked {
    /// A ruleset directory (it holds `ruleset.ron`), or a file inside one.
    Ruleset(PathBuf),
    /// A scenario file.
    Scenario(PathBuf),
}

/// The ruleset directory a rules path belongs to, if it is one: a directory holding
/// `ruleset.ron`, or a `.ron` file beside one.
fn ruleset_dir(path: &Path) -> Option<PathBuf> {
    if path.is_dir() {
        return path
            .join("ruleset.ron")
            .is_file()
            .then(|| path.to_path_buf());
    }
    let dir = path.parent()?;
    let ron = path.extension().is_some_and(|e| e == "ron");
    (ron && dir.join("ruleset.ron").is_file()).then(|| dir.to_path_buf())
}

/// Everything one `validate` argument names: a ruleset directory or a file in one, a scenario
/// file, or a folder of them (`rules/`, `assets/scenarios/`): each ruleset directory inside it
/// and each `.ron` file directly in it, in name order, so a modder can check a whole folder.
fn checked_paths(path: &Path) -> Result<Vec<Checked>, String> {
    if let Some(dir) = ruleset_dir(path) {
        return Ok(vec![Checked::Ruleset(dir)]);
    }
    if !path.is_dir() {
        return Ok(vec![Checked::Scenario(path.to_path_buf())]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut inside: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    inside.sort();
    let found: Vec<Checked> = inside
        .into_iter()
        .filter_map(|p| {
            if p.is_dir() {
                ruleset_dir(&p).map(Checked::Ruleset)
            } else if p.extension().is_some_and(|e| e == "ron") {
                Some(Checked::Scenario(p))
            } else {
                None
            }
        })
        .collect();
    if found.is_empty() {
        return Err(format!(
            "{}: nothing to validate: no ruleset.ron, no ruleset folders and no .ron scenario files in it",
            path.display()
        ));
    }
    Ok(found)
}

/// Everything wrong with the ruleset in `dir`: what the loader refuses, then a price table
/// (`points.ron`) naming no field of any roster entry.
fn ruleset_problems(dir: &Path) -> Vec<RulesError> {
    let rules = match Rules::load(dir) {
        Ok(r) => r,
        Err(e) => return e.0,
    };
    let file = dir.join(gridclash::ruleset::build::PRICES_FILE);
    let src = std::fs::read_to_string(&file).unwrap_or_default();
    gridclash::character::points::check_prices(&rules)
        .into_iter()
        .map(|(key, m)| RulesError::at(&file, &src, &FieldPath::root().field(&key), m))
        .collect()
}

/// `gridclash validate PATH...`: prints `PATH: ok` or each problem, and fails if any.
pub fn run(paths: &[PathBuf]) -> Result<ExitCode, String> {
    let mut problems = 0;
    for given in paths {
        let checked = match checked_paths(given) {
            Ok(c) => c,
            Err(e) => {
                out!("{e}");
                problems += 1;
                continue;
            }
        };
        for item in checked {
            let (path, errors): (&Path, Vec<RulesError>) = match &item {
                Checked::Ruleset(dir) => (dir, ruleset_problems(dir)),
                Checked::Scenario(file) => (
                    file,
                    scenario::load(file).err().map_or_else(Vec::new, |e| e.0),
                ),
            };
            if errors.is_empty() {
                out!("{}: ok", path.display());
            }
            for e in &errors {
                out!("{e}");
            }
            problems += errors.len();
        }
    }
    if problems > 0 {
        eprintln!("{problems} problem(s) found");
        Ok(ExitCode::FAILURE)
    } else {
        Ok(ExitCode::SUCCESS)
    }
}
