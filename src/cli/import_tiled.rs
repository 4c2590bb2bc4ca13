//! `gridclash import-tiled`: a Tiled map (`.tmx`) made into a scenario file, by the
//! convention of docs/src/your-battles.md (a `terrain` tile layer, a `units` object layer).

use std::path::PathBuf;
use std::process::ExitCode;

use gridclash::scenario::{self, reach, tiled_map, write};

/// The options of `import-tiled`.
#[derive(clap::Args)]
pub struct ImportTiledArgs {
    /// The Tiled map, a `.tmx` file (its `.tsx` tilesets are read from where it names them).
    map: PathBuf,
    /// The ruleset, if the map has no `ruleset` property (or to play it by another one).
    #[arg(long)]
    ruleset: Option<String>,
    /// Where to write the scenario (`-` prints it). Default: the map's name with `.ron` in the
    /// player's own scenarios folder (`gridclash paths`), which the title screen lists.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Replace the file if it exists.
    #[arg(long)]
    force: bool,
}

/// Imports, writes and re-reads the scenario; notes on what was not read and on units that
/// cannot reach another side go to standard error.
pub fn import_tiled(args: &ImportTiledArgs) -> Result<ExitCode, String> {
    let named = tiled_map::ruleset_of(&args.map).map_err(|e| e.to_string())?;
    let Some(id) = args.ruleset.clone().or(named) else {
        return Err(format!(
            "{}: the map has no `ruleset` string property; add one (Map > Map Properties) or give --ruleset (one of: {})",
            args.map.display(),
            scenario::known_rulesets().join(", ")
        ));
    };
    let rules = super::load_ruleset(&id)?;
    let imported = tiled_map::import(&args.map, &rules).map_err(|e| e.to_string())?;
    for note in &imported.notes {
        eprintln!("note: {note}");
    }
    for s in reach::stranded_units(&imported.scenario, &rules) {
        let u = &imported.scenario.units[s.unit];
        eprintln!(
            "note: {} ({}, side {}) at ({}, {}) cannot walk next to any unit of side {}",
            u.name.as_deref().unwrap_or("a unit"),
            u.archetype.as_deref().unwrap_or("?"),
            u.side,
            u.at.0,
            u.at.1,
            s.side
        );
    }
    let header = format!(
        "Imported from the Tiled map {} by `gridclash import-tiled`.",
        args.map.display()
    );
    let text = write::to_ron(&imported.scenario, &header).map_err(|e| e.to_string())?;
    let stem = args
        .map
        .file_stem()
        .map_or_else(|| "tiled-map".into(), |s| s.to_string_lossy().into_owned());
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| scenario::user_dir().join(format!("{stem}.ron")));
    let Some(loaded) = super::write_scenario(&out, &text, args.force)? else {
        return Ok(ExitCode::SUCCESS);
    };
    super::report_written(&out, &loaded);
    Ok(ExitCode::SUCCESS)
}
