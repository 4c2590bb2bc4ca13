//! `gridclash simulate`: many headless battles summed into a balance report, or the save
//! round-trip check.

use std::process::ExitCode;
use std::time::Instant;

use gridclash::{save, scenario, sim};

use super::{progress, scenarios_or_all};
use crate::SimulateArgs;

/// Runs the seeded battles and prints the balance report (or the save round-trip check with
/// `--check-saves`).
pub fn simulate(args: &SimulateArgs) -> Result<ExitCode, String> {
    let scenarios = scenarios_or_all(args.scenario.as_deref())?;
    let started = Instant::now();
    if args.check_saves {
        return check_saves(args, &scenarios, started);
    }
    let bar = progress::bar(u64::from(args.battles), "battles", args.json);
    let report = sim::run_with_progress(
        &sim::Options {
            scenarios,
            battles: args.battles,
            seed: args.seed,
            ai: args.ai.clone(),
            max_rounds: args.max_rounds,
            swap: args.swap,
            timings: args.timings,
            jobs: args.jobs.unwrap_or(if args.timings {
                1
            } else {
                gridclash::par::default_jobs()
            }),
        },
        &|| bar.inc(1),
    )?;
    bar.finish_and_clear();
    if args.json {
        out!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
    } else {
        out!("{}", report.text().trim_end());
        if args.hashes {
            for (i, b) in report.battle_hashes.iter().enumerate() {
                out!(
                    "battle {i}: {} seed {} winner {} rounds {} hash {}",
                    b.scenario,
                    b.seed,
                    b.winner.map_or("none".into(), |w| format!("side {w}")),
                    b.rounds,
                    b.hash
                );
            }
        }
        eprintln!("({:.1} s)", started.elapsed().as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}

/// `simulate --check-saves`: the save round trip over seeded simulated battles.
pub fn check_saves(
    args: &SimulateArgs,
    scenarios: &[scenario::Loaded],
    started: Instant,
) -> Result<ExitCode, String> {
    let (mut boundaries, mut continued, mut commands) = (0, 0, 0);
    let bar = progress::bar(u64::from(args.battles), "battles", args.json);
    for i in 0..args.battles {
        let loaded = &scenarios[i as usize % scenarios.len()];
        let seed = sim::battle_seed(args.seed, u64::from(i));
        let r =
            save::check::check_battle(loaded, seed, &args.ai, args.max_rounds, args.continue_every)
                .map_err(|e| format!("battle {i} ({}, seed {seed}): {e}", loaded.id()))?;
        boundaries += r.boundaries;
        continued += r.continued;
        commands += r.commands;
        bar.inc(1);
    }
    bar.finish_and_clear();
    out!(
        "{} battles, {commands} commands: {boundaries} turn boundaries saved, loaded and saved again byte-identical; {continued} loads continued to the uninterrupted final state",
        args.battles
    );
    eprintln!("({:.1} s)", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
