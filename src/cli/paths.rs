//! `gridclash paths`: the directories this build reads and writes.

use std::process::ExitCode;

/// Prints the directories this build uses, one `name: path` per line, so a player or a
/// packaging check can see the data is read from beside the executable.
pub fn paths() -> Result<ExitCode, String> {
    println!("rules: {}", gridclash::ruleset::rules_root().display());
    println!("assets: {}", gridclash::scenario::assets_root().display());
    println!("data: {}", gridclash::save::slots::data_dir().display());
    println!(
        "your scenarios: {}",
        gridclash::scenario::user_dir().display()
    );
    println!(
        "your characters: {}",
        gridclash::character::user_dir_in(&gridclash::save::slots::data_dir()).display()
    );
    println!(
        "your rulesets: {}",
        gridclash::ruleset::user_rules_root().display()
    );
    println!(
        "your teams: {}",
        gridclash::character::team::dir_in(&gridclash::save::slots::data_dir()).display()
    );
    #[cfg(feature = "gui")]
    if let Some(settings) = gridclash::gui::settings::settings_path() {
        println!("settings: {}", settings.display());
    }
    Ok(ExitCode::SUCCESS)
}
