//! The `gridclash` command line: the demo battle (the default until the window exists), the
//! rules and scenario validator, and the headless simulator.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use gridclash::ai::{Agent, Policy};
use gridclash::battle::Battle;
use gridclash::battle::components::Controller;
use gridclash::dice::DiceSource;
use gridclash::ruleset::{DBU_FILES, Rules, RulesError};
use gridclash::{scenario, sim};

/// Gridclash: turn-based tactical battles played by tabletop rules.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play a scenario with every side run by the computer and print the battle log, every
    /// roll with its dice and modifiers (the default command).
    Demo(DemoArgs),
    /// Check rules directories, rules files and scenario files; print each problem as
    /// PATH:LINE:COL: message and exit with 1 if there is any.
    Validate {
        /// Ruleset directories (rules/dbu), files inside one, or scenario files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Run whole battles headless and print a summary.
    Simulate(SimulateArgs),
}

#[derive(clap::Args)]
struct DemoArgs {
    /// A shipped scenario's name (duel, skirmish, siege, boss…) or a scenario file.
    #[arg(long, default_value = "duel")]
    scenario: String,
    /// Seed of the battle's dice: the same seed gives the same battle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many rounds if the scenario has no round limit.
    #[arg(long, default_value_t = 30)]
    max_rounds: u32,
}

#[derive(clap::Args)]
struct SimulateArgs {
    /// A shipped scenario's name or a scenario file; every shipped scenario in turn when left out.
    #[arg(long)]
    scenario: Option<String>,
    /// How many battles.
    #[arg(long, default_value_t = 100)]
    battles: u32,
    /// The seed the battles' seeds are drawn from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The policy of each side, comma-separated: greedy or random.
    #[arg(long, default_value = "greedy,greedy", value_delimiter = ',')]
    ai: Vec<Policy>,
    /// Rounds after which a battle without a round limit stops as a draw.
    #[arg(long, default_value_t = 100)]
    max_rounds: u32,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => demo(&DemoArgs {
            scenario: "duel".into(),
            seed: 1,
            max_rounds: 30,
        }),
        Some(Cmd::Demo(args)) => demo(&args),
        Some(Cmd::Validate { paths }) => validate(&paths),
        Some(Cmd::Simulate(args)) => simulate(&args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("gridclash: {message}");
            ExitCode::FAILURE
        }
    }
}

fn load_scenario(name: &str) -> Result<scenario::Loaded, String> {
    let path = scenario::find(name);
    scenario::load(&path).map_err(|e| format!("the scenario has errors:\n{e}"))
}

fn demo(args: &DemoArgs) -> Result<ExitCode, String> {
    let loaded = load_scenario(&args.scenario)?;
    let rules = loaded.rules.clone();
    let mut battle = Battle::new(
        rules.clone(),
        &loaded.setup(Controller::default()),
        DiceSource::seeded(args.seed),
    )
    .map_err(|e| e.to_string())?;
    println!(
        "Gridclash demo: {} ({} ruleset), seed {}. Every side is played by the greedy policy.",
        loaded.scenario.name, rules.manifest.name, args.seed
    );
    println!("{}\n", loaded.scenario.description);
    for f in battle.fighters() {
        let d = f.derived(&rules);
        let side = &loaded.scenario.sides[usize::from(f.side.0)].name;
        println!(
            "{} ({side}) at {}: Life {}, Ki {}, Capacity {}, ToP {}, Haste {}, Awareness {}, Defense Value {}, Soak {}, Speed {}/{}",
            f.identity.name,
            f.position.map_or("-".into(), |p| p.to_string()),
            f.life.max,
            f.ki.max,
            f.capacity.max,
            f.power.tier,
            d.haste,
            d.awareness,
            d.defense_value,
            d.soak,
            d.normal_speed,
            d.boosted_speed
        );
    }
    println!();
    let names = battle.names();
    let mut agent = Agent::new(Policy::Greedy, args.seed);
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
        let cmd = agent.command(&mut battle, active);
        if let Err(e) = battle.submit(cmd.clone()) {
            return Err(format!(
                "the demo policy chose an illegal command {cmd:?}: {e}"
            ));
        }
    }
    if battle.outcome().is_none() {
        println!("No winner after {} rounds.", args.max_rounds);
    }
    Ok(ExitCode::SUCCESS)
}

/// The ruleset directory a rules path belongs to, if it is one.
fn ruleset_dir(path: &Path) -> Option<PathBuf> {
    if path.is_dir() {
        return Some(path.to_path_buf());
    }
    let name = path.file_name()?.to_str()?;
    let dir = path.parent()?;
    (DBU_FILES.contains(&name) && dir.join("ruleset.ron").is_file()).then(|| dir.to_path_buf())
}

fn validate(paths: &[PathBuf]) -> Result<ExitCode, String> {
    let mut problems = 0;
    for path in paths {
        let errors: Vec<RulesError> = match ruleset_dir(path) {
            Some(dir) => match Rules::load(&dir) {
                Ok(_) => Vec::new(),
                Err(e) => e.0,
            },
            None => match scenario::load(path) {
                Ok(_) => Vec::new(),
                Err(e) => e.0,
            },
        };
        if errors.is_empty() {
            println!("{}: ok", path.display());
        }
        for e in &errors {
            println!("{e}");
        }
        problems += errors.len();
    }
    if problems > 0 {
        eprintln!("{problems} problem(s) found");
        Ok(ExitCode::FAILURE)
    } else {
        Ok(ExitCode::SUCCESS)
    }
}

fn simulate(args: &SimulateArgs) -> Result<ExitCode, String> {
    let scenarios = match &args.scenario {
        Some(name) => vec![load_scenario(name)?],
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
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    let started = Instant::now();
    let report = sim::run(&sim::Options {
        scenarios,
        battles: args.battles,
        seed: args.seed,
        ai: args.ai.clone(),
        max_rounds: args.max_rounds,
    })?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", report.text());
        eprintln!("({:.1} s)", started.elapsed().as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}
