//! The balance meter: each side's chance of winning a scenario, estimated from quick headless
//! battles between computer players, with its 95 % uncertainty, so a player or a GM can see
//! how even a battle is before playing it.
//!
//! Battle `i` of a meter seeded `seed` is battle `i` of `gridclash simulate --seed SEED` with
//! the same players: the meter is the simulator's first battles, counted as they finish.

use crate::ai::Policy;
use crate::scenario::Loaded;
use crate::sim::{battle_seed, play};

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins and draws counted so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Battles counted so far.
    pub battles: u32,
    /// Wins of each side, by side index.
    pub wins: Vec<u32>,
    /// Battles that ended without a winner (a round limit's draw).
    pub draws: u32,
}

/// A proportion with its 95 % interval (Wilson's score interval, which stays inside 0-1 and
/// is honest for few battles and for sides that always or never win).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chance {
    /// The share measured so far (0 to 1).
    pub estimate: f64,
    /// The lowest true share the battles so far leave likely (95 %).
    pub low: f64,
    /// The highest true share the battles so far leave likely (95 %).
    pub high: f64,
}

impl Chance {
    /// `hits` out of `n`; with no battles yet, anything from 0 to 1.
    pub fn of(hits: u32, n: u32) -> Self {
        if n == 0 {
            return Self {
                estimate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let n = f64::from(n);
        let p = f64::from(hits) / n;
        let z2 = Z95 * Z95;
        let scale = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / scale;
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / scale;
        Self {
            estimate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    /// True when `p` lies inside the interval.
    pub fn covers(&self, p: f64) -> bool {
        (self.low..=self.high).contains(&p)
    }
}

impl Tally {
    /// An empty tally for `sides` sides.
    pub fn new(sides: usize) -> Self {
        Self {
            battles: 0,
            wins: vec![0; sides],
            draws: 0,
        }
    }

    /// Counts one battle's end: its winning side, or a draw.
    pub fn add(&mut self, winner: Option<u8>) {
        self.battles += 1;
        match winner.and_then(|w| self.wins.get_mut(usize::from(w))) {
            Some(w) => *w += 1,
            None => self.draws += 1,
        }
    }

    /// Side `side`'s chance of winning.
    pub fn chance(&self, side: usize) -> Chance {
        Chance::of(self.wins.get(side).copied().unwrap_or(0), self.battles)
    }

    /// The chance of a draw.
    pub fn draw_chance(&self) -> Chance {
        Chance::of(self.draws, self.battles)
    }

    /// One line for people: `Red 52 % (42-61), Blue 41 % (32-51), draws 7 % (4-14)`.
    pub fn describe(&self, names: &[String]) -> String {
        let pct = |c: Chance| {
            format!(
                "{:.0} % ({:.0}-{:.0})",
                c.estimate * 100.0,
                c.low * 100.0,
                c.high * 100.0
            )
        };
        let mut parts: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{n} {}", pct(self.chance(i))))
            .collect();
        parts.push(format!("draws {}", pct(self.draw_chance())));
        parts.join(", ")
    }
}

/// Plays battle `index` of a meter seeded `seed` (the simulator's battle of that index) and
/// returns its winning side, if any.
pub fn play_battle(
    loaded: &Loaded,
    seed: u64,
    index: u64,
    policies: &[Policy],
    max_rounds: u32,
) -> Result<Option<u8>, String> {
    let done = play(loaded, battle_seed(seed, index), policies, max_rounds)?;
    Ok(done.winner.map(|w| w.0))
}

/// The first `battles` battles of a meter, counted.
pub fn measure(
    loaded: &Loaded,
    seed: u64,
    battles: u32,
    policies: &[Policy],
    max_rounds: u32,
) -> Result<Tally, String> {
    let mut tally = Tally::new(loaded.scenario.sides.len());
    for i in 0..battles {
        tally.add(play_battle(
            loaded,
            seed,
            u64::from(i),
            policies,
            max_rounds,
        )?);
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_its_textbook_values() {
        // 10 of 20: 0.5 with 0.299-0.701 (Wilson, z = 1.96).
        let c = Chance::of(10, 20);
        assert!(
            (c.low - 0.2993).abs() < 1e-3 && (c.high - 0.7007).abs() < 1e-3,
            "{c:?}"
        );
        // 0 of 10 still admits up to 0.278.
        let c = Chance::of(0, 10);
        assert_eq!(c.low, 0.0);
        assert!((c.high - 0.2775).abs() < 1e-3, "{c:?}");
        assert_eq!(Chance::of(0, 0).high, 1.0);
    }

    #[test]
    fn tally_counts_wins_per_side_and_draws() {
        let mut t = Tally::new(2);
        for w in [Some(0), Some(1), Some(0), None] {
            t.add(w);
        }
        assert_eq!((t.battles, t.wins.clone(), t.draws), (4, vec![2, 1], 1));
        let line = t.describe(&["Red".into(), "Blue".into()]);
        assert!(line.starts_with("Red 50 % (15-85), Blue 25 %"), "{line}");
    }
}
