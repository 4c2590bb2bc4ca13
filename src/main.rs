//! The `gridclash` command line: the game window (the default with the `gui` feature), the
//! terminal demo battle, the rules and scenario validator, the odds calculator and the
//! headless simulator.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use gridclash::ai::{Agent, Policy};
use gridclash::battle::Battle;
use gridclash::battle::command::{AttackOrder, AttackTarget};
use gridclash::battle::components::{Cards, CombatantId, Controller, Identity, Position, Square};
use gridclash::battle::context::DefenseChoice;
use gridclash::dice::DiceSource;
use gridclash::grid::Dir8;
use gridclash::ruleset::{AreaOrigin, AreaShape, Targeting};
use gridclash::{save, scenario, sim};

/// Gridclash: turn-based tactical battles played by tabletop rules.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Open the game: the title screen, or straight into a battle with --scenario (the default
    /// command when built with the `gui` feature).
    #[cfg(feature = "gui")]
    Play(PlayArgs),
    /// Play a scenario with every side run by the computer and print the battle log, every
    /// roll with its dice and modifiers (the default command).
    Demo(DemoArgs),
    /// Check rules directories, rules files and scenario files; print each problem as
    /// PATH:LINE:COL: message and exit with 1 if there is any.
    Validate {
        /// Ruleset directories (rules/dbu), files inside one, scenario files, or folders of
        /// them (rules, assets/scenarios): every ruleset and scenario inside is checked.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Run whole battles headless and print a summary.
    Simulate(SimulateArgs),
    /// The exact odds of one attack in a scenario's opening position, every term labelled.
    Odds(OddsArgs),
    /// Watch a replay in the window (pause, step, speed, full log), or with --verify
    /// re-simulate replays headless and report the first command that diverges.
    Replay(ReplayArgs),
    /// Play a battle with the computer on every side and keep it as a replay file.
    Record(RecordArgs),
    /// The reliability soak: many seeded computer-against-computer battles over every shipped
    /// scenario (or one), every rule invariant checked after every command and the odds of
    /// every attack before it; exit 1 on any panic, refused command or violation.
    Soak(SoakArgs),
    /// Print where this build reads its rules and scenarios and keeps saves and settings
    /// (set GRIDCLASH_RULES, GRIDCLASH_ASSETS, GRIDCLASH_DATA_DIR or GRIDCLASH_CONFIG_DIR to
    /// move them).
    Paths,
    /// List the save slots and kept replays in the data directory.
    Saves {
        /// The data directory (default: $GRIDCLASH_DATA_DIR, else the platform's).
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
}

#[derive(clap::Args)]
struct SoakArgs {
    /// How many battles in all (spread over the scenarios and six pairings of computer
    /// players).
    #[arg(long, default_value_t = 10_000)]
    battles: u64,
    /// The seed the battles' seeds are drawn from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One scenario (a shipped name or a file) instead of every shipped one.
    #[arg(long)]
    scenario: Option<String>,
    /// Rounds after which a battle without its own round limit stops as a draw.
    #[arg(long, default_value_t = 100)]
    max_rounds: u32,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    /// Threads to play on (default: one per core). The report does not depend on it.
    #[arg(long)]
    jobs: Option<usize>,
    /// Replay one battle of a report instead: its seed (with --scenario and --ai), printing
    /// what broke and the battle log's last lines.
    #[arg(long, requires_all = ["scenario", "ai"])]
    battle_seed: Option<u64>,
    /// With --battle-seed: each side's computer player, as the report names them.
    #[arg(long, value_delimiter = ',')]
    ai: Vec<Policy>,
}

#[derive(clap::Args)]
struct ReplayArgs {
    /// Replay (or save) files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Re-simulate headless, compare the state hash after every command and print the first
    /// command that diverges; exit 1 if any file does not verify.
    #[arg(long)]
    verify: bool,
    /// Drive the viewer with a script of inputs and screenshots (see docs/src/cli.md, "Scripted play").
    #[arg(long)]
    script: Option<PathBuf>,
}

#[derive(clap::Args)]
struct RecordArgs {
    /// A shipped scenario's name or a scenario file.
    #[arg(long)]
    scenario: String,
    /// Seed of the battle's dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The computer player of each side, comma-separated (easy, normal, hard, greedy, random).
    #[arg(long, default_value = "normal,normal", value_delimiter = ',')]
    ai: Vec<Policy>,
    /// Rounds after which a battle without a round limit stops as a draw.
    #[arg(long, default_value_t = 100)]
    max_rounds: u32,
    /// The replay file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
struct OddsArgs {
    /// A shipped scenario's name or a scenario file.
    #[arg(long)]
    scenario: String,
    /// The attacker: its unit number in the scenario (from 0) or its name.
    #[arg(long)]
    attacker: String,
    /// The target: its unit number or name (an area attack is aimed at it).
    #[arg(long)]
    target: String,
    /// A profile id (simple, beam…) or one of the attacker's technique ids.
    #[arg(long)]
    maneuver: String,
    /// Ki wagered on the Wound Roll.
    #[arg(long, default_value_t = 0)]
    wager: i64,
    /// The element of an Elemental attack.
    #[arg(long)]
    element: Option<String>,
    /// How the target defends: dodge or parry (power stages: take, or block with a card;
    /// shinobi: dodge, block or deflect; d20: dodge or block, and take, dive or prone (drop
    /// prone) against a shot from beyond melee range).
    #[arg(long, default_value = "dodge")]
    defense: String,
    /// Shinobi: as a sneak attack (the odds mix a won and a lost Stealth contest).
    #[arg(long)]
    sneak: bool,
    /// What if the attacker stood on this square first (`X,Y`), e.g. beside a melee target.
    #[arg(long, value_parser = parse_square)]
    at: Option<Square>,
    /// Print the odds as one JSON object.
    #[arg(long)]
    json: bool,
    /// Compute the odds this many times and report the time per computation (on stderr).
    #[arg(long)]
    repeat: Option<u32>,
}

#[cfg(feature = "gui")]
#[derive(clap::Args, Default)]
struct PlayArgs {
    /// Start straight in a battle of this scenario (a shipped name or a file) instead of the
    /// title screen.
    #[arg(long)]
    scenario: Option<String>,
    /// Seed of the battle's dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Who plays each side, comma-separated: human, ai, ai:easy, ai:normal, ai:hard. Two or
    /// more humans play hot-seat. Default: the scenario's own choice (a human first side).
    #[arg(long, value_delimiter = ',')]
    sides: Vec<String>,
    /// Let the game choose Dodge or Parry for human units (by the best odds).
    #[arg(long)]
    auto_defense: bool,
    /// Seconds between the computer's commands (default 0.6).
    #[arg(long)]
    ai_pace: Option<f32>,
    /// Drive the game with a script of inputs and screenshots (see docs/src/cli.md, "Scripted play").
    #[arg(long)]
    script: Option<PathBuf>,
    /// Draw sides in the colour-blind safe palette (also a setting).
    #[arg(long)]
    colour_blind: bool,
    /// Continue a saved battle: a slot name (quick, autosave…) or a save file.
    #[arg(long, conflicts_with_all = ["scenario", "sides"])]
    load: Option<String>,
    /// With --load: load it even if its ruleset or scenario changed since it was saved.
    #[arg(long, requires = "load")]
    load_anyway: bool,
    /// Where saves and replays live (default: $GRIDCLASH_DATA_DIR, else the platform's user
    /// data directory).
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Watch this replay instead of playing (`gridclash replay FILE`).
    #[arg(skip)]
    replay: Option<PathBuf>,
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
    /// The computer player of each side, comma-separated (easy, normal, hard, greedy, random).
    #[arg(long, default_value = "normal,normal", value_delimiter = ',')]
    ai: Vec<Policy>,
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
    /// The computer player of each side, comma-separated: easy, normal, hard (the planner's
    /// levels), or greedy and random (simple baselines).
    #[arg(long, default_value = "normal,normal", value_delimiter = ',')]
    ai: Vec<Policy>,
    /// Swap the sides' players for the second half of the battles (for fair strength tests).
    #[arg(long)]
    swap: bool,
    /// Time every computer decision and report p50 and p99 per player.
    #[arg(long)]
    timings: bool,
    /// Rounds after which a battle without a round limit stops as a draw.
    #[arg(long, default_value_t = 100)]
    max_rounds: u32,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Print every battle's scenario, seed, winner, rounds and final state hash.
    #[arg(long)]
    hashes: bool,
    /// Instead of the summary, check saves: at every turn boundary save, load and save again
    /// (byte-identical), and continue loaded battles to the end (same final hash).
    #[arg(long)]
    check_saves: bool,
    /// With --check-saves, continue to the end from every Nth turn boundary (1: all).
    #[arg(long, default_value_t = 1)]
    continue_every: usize,
}

/// Prints a line to standard output; a closed pipe (`gridclash … | head`) ends the program
/// quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        if let Err(e) = writeln!(stdout, $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

// Declared after `out!`, which they print with.
mod progress;
mod validate;

/// The exact chances of a Digimon Clash action, from the same check rolls the Clash makes.
fn print_clash_odds(
    d: &gridclash::ruleset::digimon::DigimonData,
    m: gridclash::ruleset::digimon::ClashMove,
    me: &gridclash::battle::fighter::Fighter,
    t: &gridclash::battle::fighter::Fighter,
) {
    use gridclash::battle::grapple as g;
    use gridclash::battle::odds::RollSummary;
    use gridclash::ruleset::digimon::ClashMove;
    match m {
        ClashMove::Start => {
            out!(
                "  Clash: {} controls {:.2}% (the greater margin over its TN, then Body, then the one who started it)",
                me.identity.name,
                100.0 * g::control_chance(d, me, t, me.id)
            );
            for (who, opp) in [(me, t), (t, me)] {
                out!(
                    "  {}'s Clash check against TN {} ({}'s Agility):",
                    who.identity.name,
                    g::tn(d, opp),
                    opp.identity.name
                );
                print_terms(&RollSummary::of(&g::check_spec(d, who, opp)));
            }
        }
        ClashMove::Pin => {
            let (a, b) = g::pin_specs(d, me, t);
            out!(
                "  Pin succeeds {:.2}% (the controller's roll meets or beats the other's):",
                100.0 * g::pin_chance(d, me, t)
            );
            print_terms(&RollSummary::of(&a));
            out!("  against");
            print_terms(&RollSummary::of(&b));
        }
        ClashMove::End | ClashMove::Throw => {}
    }
}

/// A roll's dice and modifiers, one a line, as every odds roll is printed.
fn print_terms(r: &gridclash::battle::odds::RollSummary) {
    for t in &r.terms {
        match (&t.die, t.value) {
            (Some(d), _) => out!("      {d:>6}  {}", t.label),
            (None, Some(v)) => out!("      {v:>+6}  {}", t.label),
            _ => {}
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        #[cfg(feature = "gui")]
        None => play(&PlayArgs {
            seed: 1,
            ..PlayArgs::default()
        }),
        #[cfg(not(feature = "gui"))]
        None => demo(&DemoArgs {
            scenario: "duel".into(),
            seed: 1,
            max_rounds: 30,
            ai: vec![Policy::Normal],
        }),
        #[cfg(feature = "gui")]
        Some(Cmd::Play(args)) => play(&args),
        Some(Cmd::Demo(args)) => demo(&args),
        Some(Cmd::Validate { paths }) => validate::run(&paths),
        Some(Cmd::Simulate(args)) => simulate(&args),
        Some(Cmd::Odds(args)) => odds(&args),
        Some(Cmd::Replay(args)) => replay(&args),
        Some(Cmd::Record(args)) => record(&args),
        Some(Cmd::Saves { data_dir }) => saves(data_dir),
        Some(Cmd::Paths) => paths(),
        Some(Cmd::Soak(args)) => soak(&args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("gridclash: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the directories this build uses, one `name: path` per line, so a player or a
/// packaging check can see the data is read from beside the executable.
fn paths() -> Result<ExitCode, String> {
    println!("rules: {}", gridclash::ruleset::rules_root().display());
    println!("assets: {}", gridclash::scenario::assets_root().display());
    println!("data: {}", gridclash::save::slots::data_dir().display());
    #[cfg(feature = "gui")]
    if let Some(settings) = gridclash::gui::settings::settings_path() {
        println!("settings: {}", settings.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Opens the game window; a bad scenario, side list or script is reported before it opens.
#[cfg(feature = "gui")]
fn play(args: &PlayArgs) -> Result<ExitCode, String> {
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
    });
    Ok(match exit {
        bevy::app::AppExit::Success => ExitCode::SUCCESS,
        bevy::app::AppExit::Error(code) => ExitCode::from(code.get()),
    })
}

/// A save named on the command line: a file if one is there, else a slot name.
#[cfg(feature = "gui")]
fn save_path(root: &std::path::Path, name: &str) -> PathBuf {
    let file = PathBuf::from(name);
    if file.is_file() {
        file
    } else {
        save::slots::slot_path(root, name)
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
    for f in battle.fighters() {
        let d = f.derived(&rules);
        let side = &loaded.scenario.sides[usize::from(f.side.0)].name;
        if let Some(data) = rules.stages() {
            out!(
                "{} ({side}) at {}: {} {}, {} {} of {} (power {}), Speed {}",
                f.identity.name,
                f.position.map_or("-".into(), |p| p.to_string()),
                data.combat.pool_names.life,
                f.life.max,
                data.combat.pool_names.stages,
                f.ki.current,
                f.ki.max,
                gridclash::battle::stages::power(data, &f),
                d.normal_speed
            );
            continue;
        }
        out!(
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

/// One named scenario, or every shipped one.
fn scenarios_or_all(name: Option<&str>) -> Result<Vec<scenario::Loaded>, String> {
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

/// Runs the soak and prints its report; any panic, refused command or violation fails.
fn soak(args: &SoakArgs) -> Result<ExitCode, String> {
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
            jobs: args.jobs.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            }),
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

fn simulate(args: &SimulateArgs) -> Result<ExitCode, String> {
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
fn check_saves(
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

/// `replay --verify`: re-simulates each file; `replay FILE`: opens it in the window.
fn replay(args: &ReplayArgs) -> Result<ExitCode, String> {
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
fn record(args: &RecordArgs) -> Result<ExitCode, String> {
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
fn saves(data_dir: Option<PathBuf>) -> Result<ExitCode, String> {
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

/// A unit of a battle by number or name.
fn unit_id(battle: &mut Battle, key: &str) -> Result<CombatantId, String> {
    let fighters = battle.fighters();
    if let Ok(n) = key.parse::<u32>()
        && fighters.iter().any(|f| f.id.0 == n)
    {
        return Ok(CombatantId(n));
    }
    fighters
        .iter()
        .find(|f| f.identity.name.eq_ignore_ascii_case(key))
        .map(|f| f.id)
        .ok_or_else(|| {
            let known: Vec<String> = fighters
                .iter()
                .map(|f| format!("{} {}", f.id.0, f.identity.name))
                .collect();
            format!("no unit `{key}`; the units are: {}", known.join(", "))
        })
}

/// `gridclash odds` for a power-stages ruleset: the one outcome of taking the attack and of
/// blocking it. A what-if: the attacker is given the card if it does not hold it, and for
/// `--defense block` the target is given the matching defense card.
fn stage_odds(
    args: &OddsArgs,
    battle: &mut Battle,
    attacker: CombatantId,
    target: CombatantId,
    defense: DefenseChoice,
) -> Result<ExitCode, String> {
    let rules = battle.rules().clone();
    let data = rules.stages().ok_or("not a power-stages ruleset")?;
    let kind = gridclash::battle::stages::attack_kind(data, &args.maneuver).ok_or_else(|| {
        let ids: Vec<&str> = rules
            .attacks
            .profiles
            .iter()
            .map(|p| p.id.as_str())
            .collect();
        format!(
            "unknown attack card `{}`; the attacks are: {}",
            args.maneuver,
            ids.join(", ")
        )
    })?;
    let mut notes = Vec::new();
    let block = kind
        .blocked_by()
        .and_then(|k| data.combat.cards.iter().find(|c| c.kind == k))
        .map(|c| c.id.clone());
    {
        let world = battle.world_mut();
        let mut q = world.query::<(&CombatantId, &Identity, &mut Cards)>();
        for (id, who, mut cards) in q.iter_mut(world) {
            if *id == attacker
                && args.maneuver != gridclash::ruleset::stages::FINAL_PHYSICAL
                && cards.count(&args.maneuver) == 0
            {
                *cards.hand.entry(args.maneuver.clone()).or_default() += 1;
                notes.push(format!("as if {} held {}", who.name, args.maneuver));
            }
            if *id == target && defense == DefenseChoice::Parry {
                let holds = cards.hand.keys().any(|c| {
                    data.card(c)
                        .is_some_and(|d| Some(d.kind) == kind.blocked_by())
                });
                if let (false, Some(b)) = (holds, &block) {
                    *cards.hand.entry(b.clone()).or_default() += 1;
                    notes.push(format!("as if {} held {b}", who.name));
                }
            }
        }
    }
    let order = AttackOrder {
        attacker,
        profile: args.maneuver.clone(),
        technique: None,
        target: AttackTarget::Combatant(target),
        wager: 0,
        element: None,
        push: None,
        sneak: false,
    };
    let preview = battle.preview(&order).map_err(|e| e.to_string())?;
    let names = battle.names();
    let answers = preview
        .odds
        .targets
        .iter()
        .find(|v| v.first().is_some_and(|t| t.target == target))
        .ok_or("the attack does not reach the target")?;
    let answer = |c: DefenseChoice| answers.iter().find(|o| o.defense == c);
    let (Some(take), Some(blocked)) = (answer(DefenseChoice::Dodge), answer(DefenseChoice::Parry))
    else {
        return Err("the attack does not reach the target".into());
    };
    let chosen = if defense == DefenseChoice::Parry {
        blocked
    } else {
        take
    };
    if args.json {
        let v = serde_json::json!({
            "attacker": names.get(&attacker),
            "target": names.get(&target),
            "maneuver": preview.odds.maneuver,
            "defense": if defense == DefenseChoice::Parry { "block" } else { "take" },
            "stage_cost": preview.odds.ki_cost,
            "what_if": notes,
            "hit_chance": chosen.hit_chance,
            "stage_loss": chosen.stage_loss,
            "life_cards_lost": chosen.damage_distribution,
            "expected_life_cards": chosen.expected_damage,
            "defeat_chance": chosen.defeat_chance,
            "why": chosen.automatic_hit,
            "amount": preview.odds.wound,
        });
        out!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let pct = |p: f64| format!("{:.1}%", p * 100.0);
    out!(
        "{} -> {}: {}, costs {} power stage(s){}",
        names.get(&attacker).cloned().unwrap_or_default(),
        names.get(&target).cloned().unwrap_or_default(),
        preview.odds.maneuver,
        preview.odds.ki_cost,
        if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join("; "))
        }
    );
    for t in &preview.odds.wound.terms {
        if let Some(v) = t.value {
            out!("      {v:>+6}  {}", t.label);
        }
    }
    for (title, o) in [("Take it", take), ("Block", blocked)] {
        out!(
            "  {title}: {} ({}); loses {} power stage(s) and {} life card(s); defeats {}",
            if o.hit_chance > 0.0 {
                "lands"
            } else {
                "stopped"
            },
            o.automatic_hit.clone().unwrap_or_default(),
            o.stage_loss.unwrap_or(0),
            o.expected_damage,
            pct(o.defeat_chance)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Parses `X,Y` into a square.
fn parse_square(text: &str) -> Result<Square, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("`{text}` is not X,Y"))?;
    let num = |s: &str| {
        s.trim()
            .parse::<i32>()
            .map_err(|e| format!("`{s}` in `{text}`: {e}"))
    };
    Ok(Square::new(num(x)?, num(y)?))
}

fn odds(args: &OddsArgs) -> Result<ExitCode, String> {
    let loaded = load_scenario(&args.scenario)?;
    let rules = loaded.rules.clone();
    let mut battle = Battle::new(
        rules.clone(),
        &loaded.setup(Controller::default()),
        DiceSource::seeded(1),
    )
    .map_err(|e| e.to_string())?;
    let attacker = unit_id(&mut battle, &args.attacker)?;
    let target = unit_id(&mut battle, &args.target)?;
    let d20_rules = rules.d20().is_some();
    let defense = match args.defense.as_str() {
        "take" if d20_rules => DefenseChoice::Take,
        "dive" if d20_rules => DefenseChoice::Dive,
        "prone" if d20_rules => DefenseChoice::DropProne,
        "dodge" | "take" => DefenseChoice::Dodge,
        "block" if rules.action_points().is_some() => DefenseChoice::Block,
        "parry" | "block" => DefenseChoice::Parry,
        "deflect" => DefenseChoice::Deflect,
        other => {
            return Err(format!(
                "--defense is dodge or parry (DBU), take or block (power stages), dodge, block or deflect (shinobi), dodge, block, take, dive or prone (d20), not `{other}`"
            ));
        }
    };
    if let Some(square) = args.at {
        if !battle.map().bounds().contains(square) {
            return Err(format!("--at {square} is off the battlefield"));
        }
        let world = battle.world_mut();
        let mut q = world.query::<(&CombatantId, &mut Position)>();
        for (id, mut pos) in q.iter_mut(world) {
            if *id == attacker {
                pos.0 = Some(square);
            }
        }
    }
    if rules.stages().is_some() {
        return stage_odds(args, &mut battle, attacker, target, defense);
    }
    let fighters = battle.fighters();
    let me = fighters
        .iter()
        .find(|f| f.id == attacker)
        .ok_or("no attacker")?;
    let (profile, technique) = match me.loadout.techniques.iter().find(|t| t.id == args.maneuver) {
        Some(t) => (t.profile.clone(), Some(t.id.clone())),
        None => (args.maneuver.clone(), None),
    };
    let def = rules
        .profile(&profile)
        .ok_or_else(|| format!("unknown maneuver `{}`", args.maneuver))?;
    let t_at = fighters
        .iter()
        .find(|f| f.id == target)
        .and_then(|f| f.position)
        .ok_or("the target is not on the battlefield")?;
    let at = me
        .position
        .ok_or("the attacker is not on the battlefield")?;
    let aim = match def.targeting {
        Targeting::Single => AttackTarget::Combatant(target),
        Targeting::Area {
            origin: AreaOrigin::ChosenSquare,
            shape: AreaShape::Cone { .. } | AreaShape::Line { .. },
            ..
        } => AttackTarget::SquareToward(t_at, Dir8::toward(t_at.x - at.x, t_at.y - at.y)),
        Targeting::Area {
            origin: AreaOrigin::ChosenSquare,
            ..
        } => AttackTarget::Square(t_at),
        Targeting::Area {
            shape: AreaShape::Cone { .. } | AreaShape::Line { .. },
            ..
        } => AttackTarget::Direction(Dir8::toward(t_at.x - at.x, t_at.y - at.y)),
        Targeting::Area { .. } => AttackTarget::InReach,
    };
    let order = AttackOrder {
        attacker,
        profile,
        technique,
        target: aim,
        wager: args.wager,
        element: args.element.clone(),
        push: None,
        sneak: args.sneak,
    };
    let preview = battle.preview(&order).map_err(|e| e.to_string())?;
    if let Some(n) = args.repeat {
        let started = Instant::now();
        for _ in 0..n.max(1) {
            std::hint::black_box(battle.preview(&order).map_err(|e| e.to_string())?);
        }
        let per = started.elapsed().as_secs_f64() * 1e6 / f64::from(n.max(1));
        eprintln!(
            "{per:.1} µs per attack's odds (context assembly and every target's distributions, {n} runs)"
        );
    }
    let Some(answers) = preview
        .odds
        .targets
        .iter()
        .find(|v| v.first().is_some_and(|d| d.target == target))
    else {
        return Err(format!(
            "{} does not reach the target with {}",
            me.identity.name, def.name
        ));
    };
    // d20: a shot from beyond melee range is taken or dived from; `dodge` (the default)
    // means taking it.
    let chosen = answers.iter().find(|o| o.defense == defense).or_else(|| {
        answers
            .iter()
            .find(|o| defense == DefenseChoice::Dodge && o.defense == DefenseChoice::Take)
    });
    let Some(chosen) = chosen else {
        let has: Vec<&str> = answers.iter().map(|o| o.defense.name()).collect();
        return Err(format!(
            "the target cannot answer with {}; it has: {}",
            defense.name(),
            has.join(", ")
        ));
    };
    let defense = chosen.defense;
    let roll_of = |c: DefenseChoice| {
        answers
            .iter()
            .find(|o| o.defense == c)
            .map(|o| &o.defense_roll)
    };
    let names = battle.names();
    if args.json {
        let v = serde_json::json!({
            "attacker": names.get(&attacker),
            "target": names.get(&target),
            "maneuver": preview.odds.maneuver,
            "defense": defense,
            "ki_cost": preview.odds.ki_cost,
            "wager": preview.odds.wager,
            "hit_chance": chosen.hit_chance,
            "critical_hit_chance": chosen.critical_hit_chance,
            "automatic_hit": chosen.automatic_hit,
            "expected_damage": chosen.expected_damage,
            "damage_distribution": chosen.damage_distribution.iter().map(|(d, p)| (d.to_string(), serde_json::json!(p))).collect::<serde_json::Map<String, serde_json::Value>>(),
            "threshold_chances": chosen.threshold_chances,
            "defeat_chance": chosen.defeat_chance,
            "category": chosen.category,
            "critical_category": chosen.critical_category,
            "soak_used": chosen.soak_used,
            "cover": chosen.cover,
            "difficulty": chosen.difficulty,
            "strike": chosen.strike,
            "dodge": roll_of(DefenseChoice::Dodge),
            "parry": roll_of(DefenseChoice::Parry),
            "block": roll_of(DefenseChoice::Block),
            "deflect": roll_of(DefenseChoice::Deflect),
            "dive": roll_of(DefenseChoice::Dive),
            "wound": preview.odds.wound,
            "targets": preview.odds.targets.iter().map(|v| serde_json::json!({
                "target": v.first().and_then(|d| names.get(&d.target)),
                "dodge": v.iter().find(|o| o.defense == DefenseChoice::Dodge),
                "parry": v.iter().find(|o| o.defense == DefenseChoice::Parry),
                "answers": v,
            })).collect::<Vec<_>>(),
        });
        out!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let pct = |p: f64| format!("{:.1}%", p * 100.0);
    let d20 = rules.d20().is_some();
    let undefended = d20
        && preview
            .context
            .targets
            .iter()
            .find(|t| t.id == target)
            .is_some_and(|t| t.defenses.is_empty());
    // d20: a grenade's odds are its blast's: the chance of being caught, a Roll check for half.
    let grenade = rules
        .d20()
        .and_then(|d| Some((d, gridclash::battle::grenade::of(d, &order.profile)?)));
    if d20 {
        out!(
            "{} -> {}: {} ({})",
            names.get(&attacker).cloned().unwrap_or_default(),
            names.get(&target).cloned().unwrap_or_default(),
            preview.odds.maneuver,
            if grenade.is_some() {
                "a grenade aimed at its square: no defense; everyone the blast catches makes a Roll check for half"
            } else if undefended {
                "no defense possible: a shot beyond melee range"
            } else {
                defense.name()
            },
        );
    } else if rules.digimon().is_some() {
        out!(
            "{} -> {}: {} ({})",
            names.get(&attacker).cloned().unwrap_or_default(),
            names.get(&target).cloned().unwrap_or_default(),
            preview.odds.maneuver,
            if chosen.automatic_hit.is_some() {
                "no Dodge"
            } else {
                defense.name()
            },
        );
    } else if rules.action_points().is_some() {
        out!(
            "{} -> {}: {} ({}), chakra cost {}",
            names.get(&attacker).cloned().unwrap_or_default(),
            names.get(&target).cloned().unwrap_or_default(),
            preview.odds.maneuver,
            defense.name(),
            preview.odds.ki_cost,
        );
    } else {
        out!(
            "{} -> {}: {} ({:?}), Ki cost {} + wager {}",
            names.get(&attacker).cloned().unwrap_or_default(),
            names.get(&target).cloned().unwrap_or_default(),
            preview.odds.maneuver,
            defense,
            preview.odds.ki_cost,
            preview.odds.wager
        );
    }
    let digimon = rules.digimon().is_some();
    let mut rolls = vec![("Strike", &chosen.strike)];
    if let Some(dc) = &chosen.difficulty {
        rolls.push(("Difficulty", dc));
    }
    if grenade.is_some() {
        rolls.push((
            "Roll check (half the blast when it meets the DC)",
            &chosen.defense_roll,
        ));
    } else if !undefended && !matches!(defense, DefenseChoice::Take | DefenseChoice::DropProne) {
        rolls.push((defense.name(), &chosen.defense_roll));
    }
    if digimon && chosen.automatic_hit.is_some() {
        rolls.clear();
    }
    if !(digimon && preview.odds.wound.max == 0) {
        rolls.push((
            if grenade.is_some() {
                "Effect Points of the blast"
            } else if d20 {
                "Effect Points before the Success Value"
            } else if digimon {
                "Damage before Armor"
            } else {
                "Wound"
            },
            &preview.odds.wound,
        ));
    }
    if let Some(d) = rules.digimon()
        && let Some((a, _)) = gridclash::battle::digimon::attack_of(d, &order.profile)
        && let Some(m) = a.clash
        && let Some(t) = battle.fighter(target)
    {
        print_clash_odds(d, m, me, &t);
    }
    for (title, r) in rolls {
        if digimon && title == "Strike" {
            out!(
                "  Accuracy: mean {:.2}, {}..{}; every 6 rolls another d6",
                r.mean,
                r.min,
                r.max
            );
        } else if digimon {
            out!(
                "  {title}: mean {:.2}, {}..{}; every 6 rolls another d6",
                r.mean,
                r.min,
                r.max
            );
        } else if d20 && title == "Strike" {
            out!(
                "  {title}: mean {:.2}, {}..{}; a natural 1 always fails, a natural 20 adds another d20",
                r.mean,
                r.min,
                r.max
            );
        } else if rules.action_points().is_some() {
            // No criticals or botches in this chapter.
            out!("  {title}: mean {:.2}, {}..{}", r.mean, r.min, r.max);
        } else {
            out!(
                "  {title}: mean {:.2}, {}..{}; critical on {}, botch on {} (-{})",
                r.mean,
                r.min,
                r.max,
                r.critical_target
                    .map_or("never".into(), |c| format!("{c}+")),
                if r.botch_range == 0 {
                    "never".into()
                } else {
                    format!("{} or less", r.botch_range)
                },
                r.botch_penalty
            );
        }
        print_terms(r);
        for t in &r.critical_dice {
            out!(
                "      {:>6}  {} (on a Critical Result)",
                t.die.clone().unwrap_or_default(),
                t.label
            );
        }
        if r.per_hit != 1 {
            out!("      x{}  damage per hit", r.per_hit);
        }
        for d in &r.dropped {
            out!("      dropped: {d}");
        }
    }
    if let Some(why) = &chosen.automatic_hit {
        out!("  Hits automatically: {why}");
    }
    if rules.action_points().is_some() {
        let tc = preview.context.targets.iter().find(|t| t.id == target);
        let mut notes = vec![if rules.dice.attacker_wins_ties {
            "the attacker wins ties".to_string()
        } else {
            "the defender wins ties".to_string()
        }];
        if let Some((c, from)) = tc.and_then(|t| t.miss_chance.as_ref()) {
            notes.push(format!("concealment {c}% ({from})"));
        }
        if let Some(a) = tc.and_then(|t| t.absorb.as_ref()) {
            notes.push(format!(
                "partial cover: {} at {} absorbs up to {} ({}% of hits)",
                a.name, a.at, a.left, a.chance
            ));
        }
        if let Some((won, _)) = tc.and_then(|t| t.sneak.as_ref()) {
            notes.push(format!(
                "sneak contest won {:.1}% (-5 to every defense)",
                won * 100.0
            ));
        }
        if let Some(k) = tc.and_then(|t| t.knockback.as_ref()) {
            let mut what = format!("a hit knocks it to {}", k.to);
            if let Some((slam, why)) = &k.slam {
                what.push_str(&format!(", slam {slam} ({why})"));
            }
            if let Some(f) = &k.fall {
                what.push_str(&format!(", a {} ft fall", f.feet));
            }
            notes.push(what);
        }
        if d20 {
            notes.push(format!("critical {}", pct(chosen.critical_hit_chance)));
        }
        if digimon && preview.odds.wound.max > 0 {
            notes.push("damage is the roll minus Armor, at least 1".into());
        }
        if let (Some((d, g)), Some(dc)) = (&grenade, tc.and_then(|t| t.difficulty.as_ref())) {
            let (hit, miss, fumble) =
                gridclash::battle::grenade::outcome_chances(d, g, me, dc.flat_total());
            out!(
                "  The throw: hit {} (a blast on a corner of the square), miss {} (lands off target, goes off at the start of the thrower's next turn), critical failure {} (goes off near the thrower at once)",
                pct(hit),
                pct(miss),
                pct(fumble)
            );
            out!(
                "  Caught now {}; expected damage {:.2} (Roll check DC {} for half, then armour)",
                pct(chosen.hit_chance),
                chosen.expected_damage,
                g.blast.save_dc
            );
        } else {
            out!(
                "  Hit {}; expected damage {:.2} ({})",
                pct(chosen.hit_chance),
                chosen.expected_damage,
                notes.join("; ")
            );
        }
    } else {
        out!(
            "  Hit {} (critical {}); expected damage {:.2}; {:?} damage, Soak {} taken off{}",
            pct(chosen.hit_chance),
            pct(chosen.critical_hit_chance),
            chosen.expected_damage,
            chosen.category,
            chosen.soak_used,
            if chosen.cover > 0 {
                format!(", cover {}", chosen.cover)
            } else {
                String::new()
            }
        );
    }
    for t in &chosen.threshold_chances {
        if t.already {
            out!("  {}: already reached", t.threshold);
        } else {
            out!("  Reaches {}: {}", t.threshold, pct(t.chance));
        }
    }
    out!("  Defeats: {}", pct(chosen.defeat_chance));
    // d20 hits explode into a long tail of rare totals: list what shows at two decimals and
    // sum up the rest.
    let shown = |p: f64| !(d20 || digimon) || p >= 0.00005;
    let mut cells: Vec<String> = chosen
        .damage_distribution
        .iter()
        .filter(|(_, p)| shown(**p))
        .map(|(d, p)| format!("{d}:{:.2}%", p * 100.0))
        .collect();
    let rare: Vec<(&i64, &f64)> = chosen
        .damage_distribution
        .iter()
        .filter(|(_, p)| !shown(**p))
        .collect();
    if let Some((top, _)) = rare.last() {
        let mass: f64 = rare.iter().map(|(_, p)| **p).sum();
        cells.push(format!(
            "(and {} rarer totals up to {top}: {:.4}% in all)",
            rare.len(),
            mass * 100.0
        ));
    }
    out!("  Damage distribution: {}", cells.join(" "));
    Ok(ExitCode::SUCCESS)
}
