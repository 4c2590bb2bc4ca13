//! `gridclash demo`: one battle between computer players, told in the terminal.

use std::process::ExitCode;

use gridclash::ai::Agent;
use gridclash::battle::Battle;
use gridclash::battle::components::Controller;
use gridclash::dice::DiceSource;
use gridclash::sim;

use super::load_scenario;
use crate::DemoArgs;

/// Plays one battle between computer players and tells it in the terminal, event by event.
pub fn demo(args: &DemoArgs) -> Result<ExitCode, String> {
    let loaded = load_scenario(&args.scenario)?;
    let rules = loaded.rules.clone();
    let mut battle = Battle::new(
        rules.clone(),
        &loaded.setup(Controller::default()),
        DiceSource::seeded(args.seed),
    )
    .map_err(|e| e.to_string())?;
    let players: Vec<String> = (0..loaded.scenario.sides.len())
        .map(|s| {
            format!(
                "{}: {}",
                loaded.scenario.sides[s].name,
                args.ai[s % args.ai.len().max(1)]
            )
        })
        .collect();
    out!(
        "Gridclash demo: {} ({} ruleset), seed {}. Computer players: {}.",
        loaded.scenario.name,
        rules.manifest.name,
        args.seed,
        players.join(", ")
    );
    out!("{}\n", loaded.scenario.description);
    let family = gridclash::battle::family::of(&rules);
    for f in battle.fighters() {
        let side = &loaded.scenario.sides[usize::from(f.side.0)].name;
        out!(
            "{} ({side}) at {}: {}",
            f.identity.name,
            f.position.map_or("-".into(), |p| p.to_string()),
            family.unit_line(&rules, &f)
        );
    }
    out!();
    let names = battle.names();
    let mut agents: Vec<Agent> = (0..loaded.scenario.sides.len())
        .map(|s| {
            Agent::new(
                args.ai[s % args.ai.len().max(1)],
                sim::battle_seed(args.seed, 1000 + s as u64),
            )
        })
        .collect();
    let mut printed = 0;
    loop {
        for e in &battle.events()[printed..] {
            out!("{}", e.describe(&names));
        }
        printed = battle.events().len();
        if battle.outcome().is_some() || battle.turn().round > args.max_rounds {
            break;
        }
        let Some(active) = battle.active() else {
            break;
        };
        let side = battle
            .fighter(active)
            .map_or(0, |f| usize::from(f.side.0) % agents.len().max(1));
        let cmd = agents[side].command(&mut battle, active);
        if let Err(e) = battle.submit(cmd.clone()) {
            return Err(format!(
                "the demo policy chose an illegal command {cmd:?}: {e}"
            ));
        }
    }
    if battle.outcome().is_none() {
        out!("No winner after {} rounds.", args.max_rounds);
    }
    Ok(ExitCode::SUCCESS)
}
