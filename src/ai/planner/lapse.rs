//! A weaker player's lapses: `easy` now and then takes one of its better options at random
//! instead of the best.

use rand::Rng;
use rand::rngs::ChaCha8Rng;

use super::Candidate;

/// A weaker player's lapse: with chance `chance`, one of the options scored above ending the
/// turn (`idle`, before noise), drawn uniformly, is put first. Both draws are always made, so
/// the stream does not depend on the options.
pub(super) fn lapse(options: &mut [Candidate], idle: f64, chance: f64, rng: &mut ChaCha8Rng) {
    let roll = f64::from(rng.next_u32()) / f64::from(u32::MAX);
    let pick = rng.next_u32();
    let better = options.iter().take_while(|o| o.score > idle).count();
    if roll < chance && better > 1 {
        let i = pick as usize % better;
        options[..=i].rotate_right(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::command::Command;
    use crate::battle::components::CombatantId;
    use rand::SeedableRng;

    fn options() -> Vec<Candidate> {
        [5.0, 4.0, 3.0, -1.0, -2.0]
            .iter()
            .enumerate()
            .map(|(i, score)| Candidate {
                score: *score,
                command: Command::EndTurn {
                    who: CombatantId(i as u32),
                },
            })
            .collect()
    }

    fn first(options: &[Candidate]) -> u32 {
        match options[0].command {
            Command::EndTurn { who } => who.0,
            _ => unreachable!(),
        }
    }

    /// A lapse takes any option judged better than ending the turn, each about as often, and
    /// never one judged worse: a weak player still acts.
    #[test]
    fn easy_lapse_picks_only_options_better_than_ending_the_turn() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = [0; 5];
        for _ in 0..3000 {
            let mut o = options();
            lapse(&mut o, -1.0, 1.0, &mut rng);
            seen[first(&o) as usize] += 1;
        }
        assert_eq!(seen[3] + seen[4], 0, "{seen:?}");
        assert!(
            seen[..3].iter().all(|n| (900..1100).contains(n)),
            "{seen:?}"
        );
    }

    /// Lapses come at their rate, keep the other options in order, and draw the same two words
    /// whatever the options: a decision's stream does not depend on what it weighed.
    #[test]
    fn easy_lapse_comes_at_its_rate_and_draws_two_words() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut lapses = 0;
        for i in 0..4000 {
            let before = rng.get_word_pos();
            let mut o = options();
            if i % 2 == 0 {
                o.truncate(1);
            }
            lapse(&mut o, -1.0, 0.25, &mut rng);
            assert_eq!(rng.get_word_pos() - before, 2);
            if i % 2 == 1 {
                let order: Vec<u32> = (0..o.len()).map(|k| first(&o[k..])).collect();
                let rest: Vec<u32> = order.iter().copied().filter(|&x| x != order[0]).collect();
                assert!(rest.windows(2).all(|w| w[0] < w[1]), "{order:?}");
                lapses += usize::from(order[0] != 0);
            }
        }
        // Two of the three better options are lapses that show: 2000 × 0.25 × 2/3 ≈ 333.
        assert!((280..390).contains(&lapses), "{lapses}");
    }
}
