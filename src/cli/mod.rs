//! The sub-commands of the `gridclash` command line, one file each, and what they share.

use gridclash::scenario;

pub mod bench;
pub mod demo;
pub mod generate;
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
