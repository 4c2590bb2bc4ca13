//! The title screen's balance meter: on request, quick headless battles of the chosen scenario
//! between computer players, played on a thread of their own, each side's win chance shown with
//! its 95 % interval as the battles finish (see [`crate::balance`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;

use super::Screen;
use crate::ai::Policy;
use crate::balance::{Tally, play_battle};
use crate::scenario;

/// How many battles a balance check plays: enough for an interval of about ±10 points.
pub const BATTLES: u32 = 100;

/// The round cap of a scenario with no round limit of its own, as `simulate`'s default.
const MAX_ROUNDS: u32 = 100;

/// What a balance check measures: a scenario, and who plays each side. A person's side is
/// played by the normal computer player, the nearest thing to a person the game has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceKey {
    /// The scenario's id or file, as a battle spec names it.
    pub scenario: String,
    /// Each side's computer player.
    pub policies: Vec<Policy>,
}

/// A check under way or done: its tally, filled by its thread.
struct Run {
    key: BalanceKey,
    tally: Arc<Mutex<Tally>>,
    error: Arc<Mutex<Option<String>>>,
    stop: Arc<AtomicBool>,
}

impl Drop for Run {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The balance check of the title screen, if one was asked for.
#[derive(Resource, Default)]
pub struct BalanceMeter {
    run: Option<Run>,
}

impl BalanceMeter {
    /// Starts a check of `key` (stopping any other), seeded as the menu's battles are.
    pub fn start(&mut self, key: BalanceKey, seed: u64) {
        self.run = None;
        let sides = key.policies.len();
        let run = Run {
            key: key.clone(),
            tally: Arc::new(Mutex::new(Tally::new(sides))),
            error: Arc::new(Mutex::new(None)),
            stop: Arc::new(AtomicBool::new(false)),
        };
        let (tally, error, stop) = (run.tally.clone(), run.error.clone(), run.stop.clone());
        let fail = error.clone();
        let spawned = std::thread::Builder::new()
            .name("balance meter".into())
            .spawn(move || {
                let failed = |e: String| {
                    if let Ok(mut slot) = error.lock() {
                        *slot = Some(e);
                    }
                };
                let loaded = match scenario::load(&scenario::find(&key.scenario)) {
                    Ok(l) => l,
                    Err(e) => return failed(e.to_string()),
                };
                for i in 0..BATTLES {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    match play_battle(&loaded, seed, u64::from(i), &key.policies, MAX_ROUNDS) {
                        Ok(winner) => {
                            if let Ok(mut t) = tally.lock() {
                                t.add(winner);
                            }
                        }
                        Err(e) => return failed(e),
                    }
                }
            });
        if let Err(e) = spawned
            && let Ok(mut slot) = fail.lock()
        {
            *slot = Some(format!("no thread for the balance check: {e}"));
        }
        self.run = Some(run);
    }

    /// Stops the check under way, if any, and forgets it.
    pub fn stop(&mut self) {
        self.run = None;
    }

    /// The check of `key`, if that is what ran: its battles so far.
    pub fn tally(&self, key: &BalanceKey) -> Option<Tally> {
        let run = self.run.as_ref().filter(|r| r.key == *key)?;
        run.tally.lock().ok().map(|t| t.clone())
    }

    /// Why the check of `key` stopped short, if it did.
    pub fn error(&self, key: &BalanceKey) -> Option<String> {
        let run = self.run.as_ref().filter(|r| r.key == *key)?;
        run.error.lock().ok().and_then(|e| e.clone())
    }

    /// True when a check runs (or ran) for something other than `key`.
    pub fn is_stale(&self, key: Option<&BalanceKey>) -> bool {
        self.run.as_ref().is_some_and(|r| Some(&r.key) != key)
    }

    /// The title row's words for the check of `key` with these side names: how to start
    /// one, or its figures so far.
    pub fn label(&self, key: Option<&BalanceKey>, names: &[String]) -> String {
        let Some(key) = key else {
            return "Balance check: no scenario".into();
        };
        let players = key
            .policies
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" v ");
        if let Some(e) = self.error(key) {
            return format!("Balance check failed: {e}");
        }
        match self.tally(key) {
            None => format!("Balance check: {BATTLES} quick battles, computer {players}"),
            Some(t) if t.battles == 0 => format!("Balance check: playing ({players})…"),
            Some(t) if t.battles < BATTLES => format!(
                "Balance after {} of {BATTLES} battles: {}",
                t.battles,
                t.describe(names)
            ),
            Some(t) => format!("Balance ({} battles): {}", t.battles, t.describe(names)),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BalanceMeter>()
        .add_systems(OnExit(Screen::Title), stop_balance_check);
}

/// Leaving the title screen stops the check: a battle's frames need the core.
fn stop_balance_check(mut meter: ResMut<BalanceMeter>) {
    meter.stop();
}
