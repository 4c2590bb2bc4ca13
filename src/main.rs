//! The `gridclash` command line: its arguments and the dispatch to each sub-command's file
//! under `cli/` (the game window, the terminal demo battle, the validator, the odds
//! calculator, the headless simulator, soak, replays and saves).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use gridclash::ai::Policy;
use gridclash::battle::components::Square;

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
    /// What the rules engine costs per command on replays (p50/p95/p99), side by side with a
    /// plain-function kernel of the same attack, and their ratio.
    Bench(BenchArgs),
    /// Make a random battlefield from a seed: a scenario file (in your own scenarios folder
    /// unless --out says otherwise) where every unit can reach the other sides.
    GenerateMap(cli::generate::GenerateArgs),
    /// Make a Tiled map (.tmx) into a scenario file: a `terrain` tile layer and a `units`
    /// object layer, by the convention in the book's "Random battlefields and your own
    /// scenarios".
    ImportTiled(cli::import_tiled::ImportTiledArgs),
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
struct BenchArgs {
    /// Replay (or save) files to time, e.g. tests/replays/war-greedy-vs-random.ron.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// How many times each battle is replayed.
    #[arg(long, default_value_t = 5)]
    repeat: usize,
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
    /// A profile id (simple, beam…) or one of the attacker's technique ids; DBU also
    /// `grapple`, `pin`, `absorb`, `escape` (as if the hold were already there) and `hide`.
    #[arg(long)]
    maneuver: String,
    /// Ki wagered on the Wound Roll.
    #[arg(long, default_value_t = 0)]
    wager: i64,
    /// The element of an Elemental attack.
    #[arg(long)]
    element: Option<String>,
    /// How the target defends: dodge, parry or reflect (DBU; reflect against an Energy or
    /// Magical attack) (power stages: take, or block with a card;
    /// shinobi: dodge, block or deflect; d20: dodge or block, and take, dive or prone (drop
    /// prone) against a shot from beyond melee range).
    #[arg(long, default_value = "dodge")]
    defense: String,
    /// Shinobi: as a sneak attack (the odds mix a won and a lost Stealth contest).
    #[arg(long)]
    sneak: bool,
    /// What if the attacker stood on this square first (`X,Y`), e.g. beside a melee target.
    #[arg(long, value_parser = cli::odds::parse_square)]
    at: Option<Square>,
    /// DBU: what if the attacker held this many Energy Charges for the attack (made with the
    /// Energy Charge maneuver; a Beam's free charge comes on top).
    #[arg(long, default_value_t = 0)]
    charges: u32,
    /// DBU: what if the attacker had made its Arrogant Declaration: `superior` while its
    /// Superiority lasts (one more d10), `spent` after it (−1(bT) to its Combat Rolls).
    #[arg(long, value_enum)]
    arrogance: Option<cli::odds::ArroganceAsked>,
    /// DBU: as a Called Shot at this body part (head, eyes, arm, gut): an Action and 2(T) Ki
    /// more, −2(T) to the Strike, +1 Damage Category, the part's condition on a damaging hit.
    #[arg(long)]
    called_shot: Option<String>,
    /// DBU: an ally beside the attacker (number or name) joins with a United Attack: half its
    /// damage attribute on the Wound Roll.
    #[arg(long)]
    united: Option<String>,
    /// DBU: the United Attack ally's wager (at most a quarter of its Max Capacity).
    #[arg(long, default_value_t = 0)]
    united_wager: i64,
    /// Power stages: the card a Final Physical Attack discards (a card id of the attacker's
    /// hand; without it, the card held in most copies).
    #[arg(long)]
    discard: Option<String>,
    /// d20: Power Attack at this amount with a melee weapon (−N to hit, +N Effect Points,
    /// x1.5 two-handed; at most the weapon skill's ranks, with the Power Attack feat).
    #[arg(long, default_value_t = 0)]
    power_attack: i64,
    /// d20: an aimed shot at the gaps of the target's armour: the armour counts as cover (its
    /// bonus), and a hit ignores its DR.
    #[arg(long)]
    armour_gaps: bool,
    /// d20: shoot through the cover between as concealment: half its bonus, but a hit must get
    /// through the cover's DR first.
    #[arg(long)]
    through_cover: bool,
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
    /// Measure N frames of the battle screen (after 30 to warm up), print p50/p95/p99 of the
    /// frame time and the time from start to the first battle frame, and quit.
    #[arg(long, value_name = "N")]
    frame_stats: Option<usize>,
    /// Open the window at this size, e.g. 1920x1080 (at least 640x360), whatever the
    /// settings remember: for screenshots at another size.
    #[arg(long, value_name = "WxH", value_parser = parse_window_size)]
    window: Option<(u32, u32)>,
}

/// `WIDTHxHEIGHT` in pixels, at least 640x360.
#[cfg(feature = "gui")]
fn parse_window_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{s}` is not WIDTHxHEIGHT in pixels, e.g. 1920x1080");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if w < 640 || h < 360 {
        return Err(format!(
            "{w}x{h} is smaller than the game's least window, 640x360"
        ));
    }
    Ok((w, h))
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
    /// Threads to play on (default: one per core, or one with --timings, so that the times
    /// are not slowed by the other battles). The report does not depend on it.
    #[arg(long)]
    jobs: Option<usize>,
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

// Declared after `out!`, which the commands print with.
mod cli;

/// The allocator: the rules engine, the odds and the computer players allocate many small,
/// short-lived values (roll distributions, snapshots), where glibc's malloc and free took 40 %
/// of a headless battle's time; mimalloc serves them from per-thread pages.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its position in `mi_option_e`, the same in mimalloc
/// v2 and v3): milliseconds before freed memory goes back to the system; -1 never.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps freed memory in the process. The renderer frees and allocates large buffers every
/// frame; with mimalloc's default 10 ms purge delay they came back as fresh pages for the kernel
/// to zero again (17 % of the window's start-up in a profile; six runs each to the first battle
/// frame: median 318 ms before, 245 ms after). A headless battle never frees that much.
fn configure_allocator() {
    // SAFETY: mi_option_set only stores a value in mimalloc's option table; it is called
    // first thing in main, before any other thread exists.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
}

fn main() -> ExitCode {
    configure_allocator();
    #[cfg(feature = "gui")]
    gridclash::gui::frame_stats::mark_start();
    let cli = Cli::parse();
    let result = match cli.command {
        #[cfg(feature = "gui")]
        None => cli::play::play(&PlayArgs {
            seed: 1,
            ..PlayArgs::default()
        }),
        #[cfg(not(feature = "gui"))]
        None => cli::demo::demo(&DemoArgs {
            scenario: "duel".into(),
            seed: 1,
            max_rounds: 30,
            ai: vec![Policy::Normal],
        }),
        #[cfg(feature = "gui")]
        Some(Cmd::Play(args)) => cli::play::play(&args),
        Some(Cmd::Demo(args)) => cli::demo::demo(&args),
        Some(Cmd::Validate { paths }) => cli::validate::run(&paths),
        Some(Cmd::Simulate(args)) => cli::simulate::simulate(&args),
        Some(Cmd::Odds(args)) => cli::odds::odds(&args),
        Some(Cmd::Replay(args)) => cli::replay::replay(&args),
        Some(Cmd::Record(args)) => cli::replay::record(&args),
        Some(Cmd::Saves { data_dir }) => cli::replay::saves(data_dir),
        Some(Cmd::Paths) => cli::paths::paths(),
        Some(Cmd::GenerateMap(args)) => cli::generate::generate_map(&args),
        Some(Cmd::ImportTiled(args)) => cli::import_tiled::import_tiled(&args),
        Some(Cmd::Soak(args)) => cli::soak::soak(&args),
        Some(Cmd::Bench(args)) => cli::bench::bench(&args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("gridclash: {message}");
            ExitCode::FAILURE
        }
    }
}
