//! The save round-trip check: a simulated battle is saved at every turn boundary, each save
//! is loaded and saved again (the bytes must not change), and the battle is continued from
//! loaded saves to its end (it must reach the uninterrupted battle's final state).

use std::path::Path;

use super::{Restore, SaveFile, SaveKind, ai_sides, restore};
use crate::ai::Policy;
use crate::battle::components::CombatantId;
use crate::scenario::Loaded;
use crate::sim::AiMatch;

/// What one battle's check covered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoundTrips {
    /// Turn boundaries saved, loaded and saved again, byte-identical.
    pub boundaries: usize,
    /// Loads continued to the end, each reaching the uninterrupted final hash.
    pub continued: usize,
    /// Commands in the battle.
    pub commands: usize,
}

/// Saves `game` as the simulator would, loads it back and saves again; the two texts must
/// be identical. Returns the loaded match, ready to continue.
fn round_trip(game: &AiMatch, loaded: &Loaded, max_rounds: u32) -> Result<AiMatch, String> {
    let first = SaveFile::capture(
        SaveKind::Save,
        &game.battle,
        loaded,
        ai_sides(loaded, &game.agents),
    )
    .map_err(|e| e.to_string())?;
    let text = first.to_ron();
    let name = Path::new("(round trip)");
    let parsed = SaveFile::parse(name, &text).map_err(|e| e.to_string())?;
    let back = restore(&parsed, name, &text, Restore::default()).map_err(|e| e.to_string())?;
    let again = AiMatch::resume(&back.loaded, back.battle, back.agents, max_rounds);
    let second = SaveFile::capture(
        SaveKind::Save,
        &again.battle,
        &back.loaded,
        ai_sides(&back.loaded, &again.agents),
    )
    .map_err(|e| e.to_string())?
    .to_ron();
    if second != text {
        let line = text
            .lines()
            .zip(second.lines())
            .position(|(a, b)| a != b)
            .map_or(0, |i| i + 1);
        return Err(format!(
            "save -> load -> save changed the file at line {line} (round {})",
            game.battle.turn().round
        ));
    }
    Ok(again)
}

/// Plays one seeded AI battle, checking a save round trip at every turn boundary and
/// continuing to the end from every `continue_every`-th one (0: never).
pub fn check_battle(
    loaded: &Loaded,
    seed: u64,
    policies: &[Policy],
    max_rounds: u32,
    continue_every: usize,
) -> Result<RoundTrips, String> {
    let mut game = AiMatch::new(loaded, seed, policies, max_rounds)?;
    let mut report = RoundTrips::default();
    let mut resumed: Vec<(usize, AiMatch)> = Vec::new();
    let mut last: Option<(u32, Option<CombatantId>)> = None;
    loop {
        let now = (game.battle.turn().round, game.battle.active());
        if last != Some(now) || game.finished() {
            last = Some(now);
            let again = round_trip(&game, loaded, max_rounds)?;
            if continue_every > 0 && report.boundaries.is_multiple_of(continue_every) {
                resumed.push((game.battle.history().len(), again));
            }
            report.boundaries += 1;
        }
        if game.finished() {
            break;
        }
        game.step()?;
    }
    let expected = game.battle.state_hash();
    report.commands = game.battle.history().len();
    for (at, mut g) in resumed {
        let got = g.finish()?;
        if got != expected {
            return Err(format!(
                "continued after a load at command {at}, the battle ended in state {got:016x}, not {expected:016x}"
            ));
        }
        report.continued += 1;
    }
    Ok(report)
}
