//! `gridclash soak`: seeded battles over every scenario with every invariant checked after
//! every command.

use std::process::ExitCode;

use super::{progress, scenarios_or_all};
use crate::SoakArgs;

/// Runs the soak and prints its report; any panic, refused command or violation fails.
pub fn soak(args: &SoakArgs) -> Result<ExitCode, String> {
    let scenarios = scenarios_or_all(args.scenario.as_deref())?;
    if let (Some(seed), Some(loaded)) = (args.battle_seed, scenarios.first()) {
        let w = gridclash::harness::watch_battle(loaded, seed, &args.ai, args.max_rounds);
        out!(
            "{} commands, {} attack previews checked",
            w.commands,
            w.previews
        );
        return Ok(match w.problem {
            None => {
                out!("no problem");
                ExitCode::SUCCESS
            }
            Some((kind, detail, command)) => {
                out!("after {command} commands: {kind}: {detail}");
                for line in &w.log_tail {
                    out!("  | {line}");
                }
                ExitCode::FAILURE
            }
        });
    }
    let bar = progress::bar(args.battles, "battles", args.json);
    let report = gridclash::harness::soak_with_progress(
        &gridclash::harness::SoakOptions {
            scenarios,
            battles: args.battles,
            seed: args.seed,
            max_rounds: args.max_rounds,
            jobs: args.jobs.unwrap_or_else(gridclash::par::default_jobs),
        },
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    if args.json {
        out!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
    } else {
        out!("{}", report.text().trim_end());
    }
    Ok(if report.clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
