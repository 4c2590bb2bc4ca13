//! The battle's source of dice: a portable seeded generator, or a script of faces for tests.
//!
//! `rand`'s `StdRng` and `SmallRng` may change between releases, so battles use `ChaCha8Rng`
//! (a fixed, documented stream) and turn its 32-bit words into die faces with our own unbiased
//! rejection sampling, which no dependency bump can alter. A golden test pins the first faces of a
//! known seed.

use std::collections::VecDeque;

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// Where a battle's dice come from.
#[derive(Debug)]
pub enum DiceSource {
    /// The normal case: one generator per battle, seeded from the battle's seed.
    Seeded {
        seed: u64,
        rng: ChaCha8Rng,
        rolled: u64,
    },
    /// Tests: the next faces, in order. When the script runs out, the source falls back to a
    /// seeded generator so a test that under-specifies its dice still runs; tests assert
    /// [`DiceSource::script_left`] is 0 to prove they fixed every die.
    Scripted {
        faces: VecDeque<u32>,
        fallback: ChaCha8Rng,
        rolled: u64,
    },
}

/// A die face that was out of range for the die asked for: a broken test script.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("scripted face {face} cannot come up on a d{sides} (roll #{index})")]
pub struct ScriptError {
    pub face: u32,
    pub sides: u32,
    pub index: u64,
}

impl Clone for DiceSource {
    fn clone(&self) -> Self {
        let copy = |r: &ChaCha8Rng| ChaCha8Rng::deserialize_state(&r.serialize_state());
        match self {
            Self::Seeded { seed, rng, rolled } => Self::Seeded {
                seed: *seed,
                rng: copy(rng),
                rolled: *rolled,
            },
            Self::Scripted {
                faces,
                fallback,
                rolled,
            } => Self::Scripted {
                faces: faces.clone(),
                fallback: copy(fallback),
                rolled: *rolled,
            },
        }
    }
}

impl DiceSource {
    /// A seeded, portable generator.
    pub fn seeded(seed: u64) -> Self {
        Self::Seeded {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            rolled: 0,
        }
    }

    /// Fixed faces, in order, for tests that assert exact events.
    pub fn scripted(faces: impl IntoIterator<Item = u32>) -> Self {
        Self::Scripted {
            faces: faces.into_iter().collect(),
            fallback: ChaCha8Rng::seed_from_u64(0),
            rolled: 0,
        }
    }

    /// Rolls one die with `sides` faces (1..=sides).
    ///
    /// # Panics
    /// Only on a scripted face larger than the die, which is a bug in a test script.
    pub fn roll(&mut self, sides: u32) -> u32 {
        match self {
            Self::Seeded { rng, rolled, .. } => {
                *rolled += 1;
                uniform_face(rng, sides)
            }
            Self::Scripted {
                faces,
                fallback,
                rolled,
            } => {
                *rolled += 1;
                match faces.pop_front() {
                    Some(face) => {
                        assert!(
                            (1..=sides).contains(&face),
                            "{}",
                            ScriptError {
                                face,
                                sides,
                                index: *rolled
                            }
                        );
                        face
                    }
                    None => uniform_face(fallback, sides),
                }
            }
        }
    }

    /// The generator's position in its stream (32-bit words used): part of the state hash.
    pub fn word_pos(&self) -> u128 {
        match self {
            Self::Seeded { rng, .. } => rng.get_word_pos(),
            Self::Scripted {
                faces, fallback, ..
            } => fallback.get_word_pos() + faces.len() as u128,
        }
    }

    /// How many dice have been rolled so far.
    pub fn rolled(&self) -> u64 {
        match self {
            Self::Seeded { rolled, .. } | Self::Scripted { rolled, .. } => *rolled,
        }
    }

    /// Scripted faces not yet used (0 for a seeded source).
    pub fn script_left(&self) -> usize {
        match self {
            Self::Seeded { .. } => 0,
            Self::Scripted { faces, .. } => faces.len(),
        }
    }

    /// The seed a seeded source started from.
    pub fn seed(&self) -> Option<u64> {
        match self {
            Self::Seeded { seed, .. } => Some(*seed),
            Self::Scripted { .. } => None,
        }
    }
}

/// An unbiased face in 1..=sides from 32-bit words, by rejection (the zone is the largest
/// multiple of `sides` below 2^32). Written here so the mapping from stream to faces is ours.
fn uniform_face(rng: &mut ChaCha8Rng, sides: u32) -> u32 {
    let sides = u64::from(sides.max(1));
    let span = 1u64 << 32;
    let limit = span - span % sides;
    loop {
        let word = u64::from(rng.next_u32());
        if word < limit {
            return (word % sides) as u32 + 1;
        }
    }
}

/// A serializable record of which generator a battle used, for logs and saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneratorName {
    /// ChaCha8 seeded with `seed_from_u64`, faces by rejection sampling on 32-bit words.
    ChaCha8RejectionV1,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_stay_in_range_and_cover_the_die() {
        let mut d = DiceSource::seeded(1);
        let mut seen = [false; 11];
        for _ in 0..1000 {
            let f = d.roll(10);
            assert!((1..=10).contains(&f));
            seen[f as usize] = true;
        }
        assert!(seen[1..].iter().all(|s| *s));
        assert_eq!(d.rolled(), 1000);
    }

    #[test]
    fn scripted_faces_come_out_in_order() {
        let mut d = DiceSource::scripted([3, 10, 1]);
        assert_eq!((d.roll(10), d.roll(10), d.roll(4)), (3, 10, 1));
        assert_eq!(d.script_left(), 0);
    }
}
