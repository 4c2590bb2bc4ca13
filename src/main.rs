//! The `gridclash` command line. Until the window exists, running it with no subcommand plays
//! the seeded demo duel and prints its battle log.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use gridclash::battle::Battle;
use gridclash::battle::components::Square;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::DiceSource;
use gridclash::grid::Bounds;
use gridclash::ruleset::{Rules, rules_root};

/// Gridclash: turn-based tactical battles played by tabletop rules.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// A seeded duel between two DBU archetypes, printed as a battle log with every roll.
    Demo(DemoArgs),
}

#[derive(clap::Args, Default)]
struct DemoArgs {
    /// Seed of the battle's dice: the same seed gives the same battle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The first fighter's roster archetype.
    #[arg(long, default_value = "brawler")]
    first: String,
    /// The second fighter's roster archetype.
    #[arg(long, default_value = "ki_blaster")]
    second: String,
    /// The ruleset directory (default: rules/dbu next to the program or in the source tree).
    #[arg(long)]
    rules: Option<PathBuf>,
    /// Stop after this many rounds if no one has won.
    #[arg(long, default_value_t = 30)]
    max_rounds: u32,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Cmd::Demo(args)) => demo(&args),
        None => demo(&DemoArgs {
            seed: 1,
            first: "brawler".into(),
            second: "ki_blaster".into(),
            rules: None,
            max_rounds: 30,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gridclash: {message}");
            ExitCode::FAILURE
        }
    }
}

fn demo(args: &DemoArgs) -> Result<(), String> {
    let dir = args
        .rules
        .clone()
        .unwrap_or_else(|| rules_root().join("dbu"));
    let rules = Arc::new(Rules::load(&dir).map_err(|e| format!("the ruleset has errors:\n{e}"))?);
    for id in [&args.first, &args.second] {
        if rules.archetype(id).is_none() {
            let known: Vec<&str> = rules
                .roster
                .archetypes
                .iter()
                .map(|a| a.id.as_str())
                .collect();
            return Err(format!(
                "unknown archetype `{id}`; the roster has: {}",
                known.join(", ")
            ));
        }
    }
    let setup = BattleSetup {
        bounds: Bounds {
            width: 12,
            height: 8,
        },
        units: vec![
            UnitSetup::new(&args.first, 0, Square::new(5, 4)),
            UnitSetup::new(&args.second, 1, Square::new(6, 4)),
        ],
    };
    let mut battle = Battle::new(rules.clone(), &setup, DiceSource::seeded(args.seed))
        .map_err(|e| e.to_string())?;
    println!(
        "Gridclash demo duel: {} (side 0) against {} (side 1), {} ruleset, seed {}.\n",
        rules.archetype(&args.first).map_or("", |a| a.name.as_str()),
        rules
            .archetype(&args.second)
            .map_or("", |a| a.name.as_str()),
        rules.manifest.name,
        args.seed
    );
    for f in battle.fighters() {
        let d = f.derived(&rules);
        println!(
            "{}: Life {}, Ki {}, Capacity {}, ToP {}, Haste {}, Awareness {}, Defense Value {}, Soak {}",
            f.identity.name,
            f.life.max,
            f.ki.max,
            f.capacity.max,
            f.power.tier,
            d.haste,
            d.awareness,
            d.defense_value,
            d.soak
        );
    }
    println!();
    let names = battle.names();
    let mut printed = 0;
    loop {
        for e in &battle.events()[printed..] {
            println!("{}", e.describe(&names));
        }
        printed = battle.events().len();
        if battle.outcome().is_some() || battle.turn().round > args.max_rounds {
            break;
        }
        let Some(active) = battle.active() else {
            break;
        };
        let cmd = gridclash::ai::greedy_command(&mut battle, active);
        if let Err(e) = battle.submit(cmd.clone()) {
            return Err(format!(
                "the demo policy chose an illegal command {cmd:?}: {e}"
            ));
        }
    }
    if battle.outcome().is_none() {
        println!("No winner after {} rounds.", args.max_rounds);
    }
    Ok(())
}
