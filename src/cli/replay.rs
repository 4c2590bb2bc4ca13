//! `gridclash replay`, `record` and `saves`: replays verified or watched, recorded, and the
//! save slots listed.

use std::path::PathBuf;
use std::process::ExitCode;

use gridclash::{save, sim};

#[cfg(feature = "gui")]
use super::play::play;
use super::{load_scenario, progress};
#[cfg(feature = "gui")]
use crate::PlayArgs;
use crate::{RecordArgs, ReplayArgs};

/// `replay --verify`: re-simulates each file; `replay FILE`: opens it in the window.
pub fn replay(args: &ReplayArgs) -> Result<ExitCode, String> {
    if !args.verify {
        #[cfg(feature = "gui")]
        {
            let [file] = args.files.as_slice() else {
                return Err("watch one replay at a time (or use --verify)".into());
            };
            return play(&PlayArgs {
                replay: Some(file.clone()),
                script: args.script.clone(),
                ..PlayArgs::default()
            });
        }
        #[cfg(not(feature = "gui"))]
        return Err("this build has no window: use `gridclash replay --verify FILE`".into());
    }
    let mut failed = 0;
    let bar = progress::bar(args.files.len() as u64, "files", false);
    for file in &args.files {
        let verified = save::verify(file);
        bar.inc(1);
        // Lines are printed above the bar, which stays at the bottom until the last file.
        bar.suspend(|| match verified {
            Ok(v) => out!(
                "{}: verified, {} commands, {}, final state {}",
                file.display(),
                v.commands,
                match v.ending {
                    Some(e) => format!(
                        "{} after {} rounds",
                        e.winner
                            .map_or("a draw".into(), |w| format!("side {w} won")),
                        e.rounds
                    ),
                    None => "not finished".into(),
                },
                v.final_hash
            ),
            Err(e) => {
                failed += 1;
                out!("{e}");
            }
        });
    }
    bar.finish_and_clear();
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `record`: an AI-vs-AI battle kept as a replay (how the golden replays are made).
pub fn record(args: &RecordArgs) -> Result<ExitCode, String> {
    let loaded = load_scenario(&args.scenario)?;
    let mut game = sim::AiMatch::new(&loaded, args.seed, &args.ai, args.max_rounds)?;
    game.finish()?;
    let sides = save::ai_sides(&loaded, &game.agents);
    let replay = save::SaveFile::capture(save::SaveKind::Replay, &game.battle, &loaded, sides)
        .map_err(|e| e.to_string())?;
    save::slots::write_file(&args.out, &replay).map_err(|e| e.to_string())?;
    out!(
        "{}: {} commands, round {}, {}",
        args.out.display(),
        replay.commands.len(),
        replay.round,
        match replay.ending {
            Some(e) => e
                .winner
                .map_or("a draw".into(), |w| format!("side {w} won")),
            None => "stopped at the round limit".into(),
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// `saves`: the slot list and the kept replays.
pub fn saves(data_dir: Option<PathBuf>) -> Result<ExitCode, String> {
    let root = data_dir.unwrap_or_else(save::slots::data_dir);
    for (title, dir) in [
        ("Saves", save::slots::saves_dir(&root)),
        ("Replays", save::slots::replays_dir(&root)),
    ] {
        let list = save::slots::list(&dir);
        out!("{title} in {} ({}):", dir.display(), list.len());
        for slot in list {
            out!("  {}", slot.line());
        }
    }
    Ok(ExitCode::SUCCESS)
}
