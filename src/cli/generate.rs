//! `gridclash generate-map`: a random battlefield from a seed, written as an ordinary scenario
//! file into the player's own scenarios (or anywhere), checked as `validate` checks it.

use std::path::PathBuf;
use std::process::ExitCode;

use gridclash::scenario::{self, generate};

/// The options of `generate-map`: the recipe, and where the scenario goes.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// The ruleset the battle plays (a directory of the rules folder).
    #[arg(long, default_value = "dbu")]
    ruleset: String,
    /// The map's size in squares, WIDTHxHEIGHT (8 to 128 each way).
    #[arg(long, default_value = "16x12", value_name = "WxH", value_parser = parse_size)]
    size: (u32, u32),
    /// How much of the field outside the start zones is rough or blocked, in percent (0-60).
    #[arg(long, default_value_t = 20)]
    density: u32,
    /// The seed: the same options and seed make the same battlefield on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The same ground seen from either side (turned half a turn about the centre), and
    /// facing sides with the same team placed as each other's mirror image.
    #[arg(long)]
    mirror: bool,
    /// How many sides: 2 (left, right), 3 (and top) or 4 (and bottom).
    #[arg(long, default_value_t = 2)]
    sides: u8,
    /// A side's units as roster ids, e.g. `--team brawler,mage,gunner`: once for every side,
    /// or once per side in side order. Without it each side draws from the roster.
    #[arg(long = "team", value_name = "IDS")]
    teams: Vec<String>,
    /// How many units each side draws from the roster when no --team is given.
    #[arg(long, default_value_t = 3)]
    team_size: usize,
    /// The battle is a draw after this many rounds.
    #[arg(long, default_value_t = 30)]
    rounds: u32,
    /// Where to write the scenario (`-` prints it). Default: `field-RULESET-SEED.ron` in the
    /// player's own scenarios folder (`gridclash paths`), which the title screen lists.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Replace the file if it exists.
    #[arg(long)]
    force: bool,
}

/// `WIDTHxHEIGHT` in squares.
fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{s}` is not WIDTHxHEIGHT in squares, e.g. 16x12");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?))
}

/// Generates, writes and re-reads the scenario, so what lands on disk is known to load.
pub fn generate_map(args: &GenerateArgs) -> Result<ExitCode, String> {
    let recipe = generate::Recipe {
        ruleset: args.ruleset.clone(),
        width: args.size.0,
        height: args.size.1,
        density: args.density,
        seed: args.seed,
        mirror: args.mirror,
        sides: args.sides,
        teams: args
            .teams
            .iter()
            .map(|t| t.split(',').map(|id| id.trim().to_string()).collect())
            .collect(),
        team_size: args.team_size,
        round_limit: args.rounds,
    };
    let rules = super::load_ruleset(&recipe.ruleset)?;
    let text = generate::file_text(&recipe, &rules).map_err(|e| e.to_string())?;
    let out = args.out.clone().unwrap_or_else(|| {
        scenario::user_dir().join(format!("field-{}-{}.ron", recipe.ruleset, recipe.seed))
    });
    let Some(loaded) = super::write_scenario(&out, &text, args.force)? else {
        return Ok(ExitCode::SUCCESS);
    };
    super::report_written(&out, &loaded);
    Ok(ExitCode::SUCCESS)
}
