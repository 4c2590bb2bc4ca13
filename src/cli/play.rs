//! `gridclash play`: opens the game window for a scenario, sides, a save or a script.

use std::path::PathBuf;
use std::process::ExitCode;

use gridclash::save;

use crate::PlayArgs;

/// Opens the game window; a bad scenario, side list or script is reported before it opens.
#[cfg(feature = "gui")]
pub fn play(args: &PlayArgs) -> Result<ExitCode, String> {
    use gridclash::gui::{self, BattleSpec, PlayOptions, Session, SideControl};
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        return Err(
            "no display to open the game window on (neither DISPLAY nor WAYLAND_DISPLAY \
             is set). Run it in a desktop session, under `xvfb-run -a`, or watch a battle in the \
             terminal with `gridclash demo`"
                .into(),
        );
    }
    let sides = args
        .sides
        .iter()
        .map(|s| s.parse::<SideControl>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let battle = match &args.scenario {
        Some(scenario) => {
            let spec = BattleSpec {
                scenario: scenario.clone(),
                seed: args.seed,
                sides,
                auto_defense: args.auto_defense,
            };
            // Start it once here so a broken scenario is reported in the terminal.
            Session::start(spec.clone()).map_err(|e| e.to_string())?;
            Some(spec)
        }
        None if !sides.is_empty() => {
            return Err("--sides needs --scenario".into());
        }
        None => None,
    };
    let script = match &args.script {
        Some(path) => Some(gui::script::Script::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let root = args.data_dir.clone().unwrap_or_else(save::slots::data_dir);
    let load = match &args.load {
        Some(name) => {
            let path = save_path(&root, name);
            // Checked here so a broken save is reported in the terminal.
            match save::load(&path, save::Restore::default()) {
                Ok(_) => {}
                Err(e) if e.is_data_changed() && args.load_anyway => {}
                Err(e) if e.is_data_changed() => {
                    return Err(format!("{e}\nadd --load-anyway to load it anyway"));
                }
                Err(e) => return Err(e.to_string()),
            }
            Some(path)
        }
        None => None,
    };
    if let Some(file) = &args.replay {
        save::verify(file).map_err(|e| e.to_string())?;
    }
    let exit = gui::run(PlayOptions {
        seed: args.seed,
        battle,
        script,
        ai_pace: args.ai_pace,
        colour_blind: args.colour_blind,
        load,
        load_anyway: args.load_anyway,
        replay: args.replay.clone(),
        data_dir: Some(root),
        frame_stats: args.frame_stats,
        window: args.window,
    });
    Ok(match exit {
        bevy::app::AppExit::Success => ExitCode::SUCCESS,
        bevy::app::AppExit::Error(code) => ExitCode::from(code.get()),
    })
}

/// A save named on the command line: a file if one is there, else a slot name.
#[cfg(feature = "gui")]
pub fn save_path(root: &std::path::Path, name: &str) -> PathBuf {
    let file = PathBuf::from(name);
    if file.is_file() {
        file
    } else {
        save::slots::slot_path(root, name)
    }
}
