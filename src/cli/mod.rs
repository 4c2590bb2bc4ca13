//! The sub-commands of the `gridclash` command line, one file each, and what they share.

use gridclash::scenario;

pub mod bench;
pub mod demo;
pub mod generate;
pub mod import_tiled;
pub mod maneuver_odds;
pub mod odds;
pub mod paths;
#[cfg(feature = "gui")]
pub mod play;
pub mod progress;
pub mod replay;
pub mod simulate;
pub mod soak;
pub mod validate;

/// A scenario by name or path, its errors (file, line, field) as the message.
pub fn load_scenario(name: &str) -> Result<scenario::Loaded, String> {
    let path = scenario::find(name);
    scenario::load(&path).map_err(|e| format!("the scenario has errors:\n{e}"))
}

/// One named scenario, or every shipped one.
pub fn scenarios_or_all(name: Option<&str>) -> Result<Vec<scenario::Loaded>, String> {
    match name {
        Some(name) => Ok(vec![load_scenario(name)?]),
        None => {
            let all = scenario::shipped();
            if all.is_empty() {
                return Err(format!(
                    "no scenarios in {}",
                    scenario::assets_root().join("scenarios").display()
                ));
            }
            all.iter()
                .map(|p| scenario::load(p).map_err(|e| format!("{e}")))
                .collect()
        }
    }
}

/// Writes a scenario made by a command (`generate-map`, `import-tiled`) to `out` and loads it
/// back as the game would, so what lands on disk is known to load: `-` prints it instead
/// (and returns `None`); an existing file is kept unless `force`.
pub fn write_scenario(
    out: &std::path::Path,
    text: &str,
    force: bool,
) -> Result<Option<scenario::Loaded>, String> {
    if out.as_os_str() == "-" {
        print!("{text}");
        return Ok(None);
    }
    if out.exists() && !force {
        return Err(format!(
            "{} already exists; give --force to replace it or --out another file",
            out.display()
        ));
    }
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot make the folder {}: {e}", parent.display()))?;
    }
    std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    scenario::load(out)
        .map(Some)
        .map_err(|e| format!("the written scenario has errors:\n{e}"))
}

/// A ruleset by id, for commands that make scenarios: a clear error naming those installed
/// when there is no such ruleset, and the ruleset's own errors when it does not load.
pub fn load_ruleset(id: &str) -> Result<gridclash::ruleset::Rules, String> {
    use gridclash::ruleset::{Rules, rules_root, ruleset_dir, user_rules_root};
    let dir = ruleset_dir(id);
    if id.is_empty() || id.contains(['/', '\\', '.']) || !dir.join("ruleset.ron").is_file() {
        return Err(format!(
            "there is no ruleset `{id}` (rulesets in {} and {}: {})",
            rules_root().display(),
            user_rules_root().display(),
            scenario::known_rulesets().join(", ")
        ));
    }
    Rules::load(&dir).map_err(|e| format!("the ruleset has errors:\n{e}"))
}

/// The line a scenario-making command ends with: where the file is, what is in it, and how
/// to play it.
pub fn report_written(out: &std::path::Path, loaded: &scenario::Loaded) {
    let s = &loaded.scenario;
    println!(
        "{}: {} ({}x{}, {} units on {} sides); play it with `gridclash play --scenario {}`",
        out.display(),
        s.name,
        s.map.width,
        s.map.height,
        s.units.len(),
        s.sides.len(),
        out.display()
    );
}
