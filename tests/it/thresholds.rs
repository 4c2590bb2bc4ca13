//! Health Thresholds, Steadfast Saves, health triggers, momentum and Defeated.

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackTarget, Command, RuleError};
use gridclash::battle::components::CombatantId;
use gridclash::ruleset::ConditionKind;

use crate::common::*;

fn powered_with_wager(attacker: u32, target: u32, wager: i64) -> Command {
    let mut o = attack(
        attacker,
        "powered",
        AttackTarget::Combatant(CombatantId(target)),
    );
    o.wager = wager;
    Command::Attack(o)
}

#[test]
fn dbu_reaching_a_threshold_asks_a_steadfast_save_after_the_maneuver() {
    // 90 - 11 = 79: at or below half of 168.
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 5, 2, 4, 3, 6]);
    set_life(&mut b, 1, 90);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster takes 11 Standard damage (Wound 15 - Soak 4 of 4).",
            "Ki Blaster Life 90 -> 79 (Brawler's Simple).",
            "Ki Blaster reaches the Bloodied threshold.",
            "Ki Blaster makes a Steadfast Save for Bloodied: Steadfast 6 = d10:6 -> passed.",
            "Brawler gains a Standard Action: Bonus Momentum (knocked Ki Blaster through a threshold).",
            "Ki Blaster's Diminishing Defense: -1 (now -1).",
            "Brawler's attack ends.",
        ],
    );
    assert!(
        b.fighter(CombatantId(1))
            .unwrap()
            .thresholds
            .failed
            .is_empty()
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_failed_steadfast_applies_the_threshold_penalty_to_combat_rolls() {
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 5, 2, 4, 3, 5, 1, 1, 9, 4]);
    set_life(&mut b, 1, 90);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster makes a Steadfast Save for Bloodied: Steadfast 5 = d10:5 -> failed.",
            "Ki Blaster suffers the Bloodied penalty: -2 to Combat Rolls.",
        ],
    );
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Dodge 16 = d10:9 + d4:4 [ToP 2 Extra Dice] + Defense Value 6 - Diminishing Defense 1 - Bloodied threshold 2",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_steadfast_rolls_only_for_the_lowest_threshold_passed_through() {
    // 43 -> 4 passes Injured and Wounded at once: one save, for Wounded.
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 5, 2, 4, 3, 3, 5]);
    set_life(&mut b, 1, 43);
    let got = run(&mut b, powered_with_wager(0, 1, 20));
    assert_contains(
        &got,
        &[
            "Ki Blaster takes 39 Standard damage (Wound 43 - Soak 4 of 4).",
            "Ki Blaster Life 43 -> 4 (Brawler's Powered).",
            "Ki Blaster reaches the Wounded threshold.",
            "Ki Blaster makes a Steadfast Save for Wounded: Steadfast 3 = d10:3 -> failed.",
            "Ki Blaster suffers the Wounded penalty: -6 to Combat Rolls.",
            "Ki Blaster resists Rage at Wounded (Morale Save): Morale Save 9 = d10:5 + PE Score 2 + racial Save 2 against TN 6 -> success.",
            "Brawler gains a Standard Action: Bonus Momentum (knocked Ki Blaster through a threshold).",
        ],
    );
    assert_eq!(
        b.fighter(CombatantId(1)).unwrap().thresholds.failed,
        [2].into_iter().collect()
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_threshold_penalties_do_not_stack() {
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 5, 2, 9, 4, 2, 1, 1, 9, 4]);
    set_life(&mut b, 1, 50);
    stage(&mut b, 1, |f| {
        f.thresholds.failed.insert(0);
    });
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Dodge 11 = d10:5 + d4:2 [ToP 2 Extra Dice] + Defense Value 6 - Bloodied threshold 2",
        ],
    );
    assert_contains(
        &got,
        &[
            "Ki Blaster Life 50 -> 33 (Brawler's Simple).",
            "Ki Blaster reaches the Injured threshold.",
            "Ki Blaster makes a Steadfast Save for Injured: Steadfast 2 = d10:2 -> failed.",
            "Ki Blaster suffers the Injured penalty: -4 to Combat Rolls.",
        ],
    );
    // Only the lowest failed threshold counts: -4, not -2 - 4.
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Dodge 14 = d10:9 + d4:4 [ToP 2 Extra Dice] + Defense Value 6 - Diminishing Defense 1 - Injured threshold 4",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_rising_above_a_threshold_clears_its_penalty_and_falling_again_asks_again() {
    let mut b = duel("ki_blaster", "brawler", &[1, 1, 1, 1, 6, 2, 5, 2, 4, 3, 7]);
    set_life(&mut b, 0, 80);
    stage(&mut b, 0, |f| {
        f.thresholds.failed.insert(0);
    });
    let got = run(
        &mut b,
        Command::Surge {
            who: CombatantId(0),
            kind: gridclash::battle::command::SurgeKind::Healing,
        },
    );
    assert_eq!(
        got,
        [
            "Ki Blaster uses a Healing Surge: Healing Surge 11 = d10:1 [Healing Surge] + d10:1 [Healing Surge] + d10:1 [Healing Surge] + d10:1 [Healing Surge] + Surgency 7; regains 11.",
            "Ki Blaster Life 80 -> 91 (Healing Surge).",
            "Ki Blaster has no threshold penalty.",
        ]
    );
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .unwrap();
    let got = run(&mut b, hit(1, "simple", 0));
    assert_contains(
        &got,
        &[
            "Ki Blaster Life 91 -> 80 (Brawler's Simple).",
            "Ki Blaster reaches the Bloodied threshold.",
            "Ki Blaster makes a Steadfast Save for Bloodied: Steadfast 7 = d10:7 -> passed.",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_life_lost_without_damage_applies_the_penalty_without_a_save() {
    // Poisoned takes 1/10 of 168 = 16 Life at the start of the turn: not damage.
    let mut b = duel("brawler", "ki_blaster", &[]);
    give(&mut b, 1, ConditionKind::Poisoned, None);
    set_life(&mut b, 1, 90);
    let got = run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(0),
        },
    );
    assert_eq!(
        got,
        [
            "Brawler ends the turn.",
            "-- Ki Blaster's turn (round 1) --",
            "Ki Blaster Life 90 -> 74 (Poisoned).",
            "Ki Blaster reaches the Bloodied threshold without damage (penalty, no triggers).",
            "Ki Blaster suffers the Bloodied penalty: -2 to Combat Rolls.",
        ]
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_health_triggers_fire_once_per_encounter_per_threshold() {
    let mut b = duel(
        "brawler",
        "ki_blaster",
        &[6, 2, 5, 2, 4, 3, 6, 6, 2, 1, 1, 4, 3, 6],
    );
    set_life(&mut b, 1, 90);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler gains a Standard Action: Bonus Momentum (knocked Ki Blaster through a threshold).",
        ],
    );
    // Back above Bloodied, and a fresh round's worth of Bonus Momentum for the Brawler.
    set_life(&mut b, 1, 90);
    stage(&mut b, 0, |f| f.round.bonus_momentum = false);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster reaches the Bloodied threshold.",
            "Ki Blaster makes a Steadfast Save for Bloodied: Steadfast 6 = d10:6 -> passed.",
            "Ki Blaster's Diminishing Defense: -1 (now -2).",
        ],
    );
    assert!(!got.iter().any(|l| l.contains("Bonus Momentum")));
    assert_dice_used(&b);
}

#[test]
fn dbu_bonus_momentum_at_most_once_per_round() {
    let mut b = duel(
        "brawler",
        "ki_blaster",
        &[6, 2, 5, 2, 4, 3, 6, 6, 2, 5, 2, 4, 3, 6],
    );
    set_life(&mut b, 1, 90);
    run(&mut b, hit(0, "simple", 1));
    let got = run(&mut b, powered_with_wager(0, 1, 20));
    assert_contains(
        &got,
        &[
            "Ki Blaster Life 79 -> 40 (Brawler's Powered).",
            "Ki Blaster reaches the Injured threshold.",
            "Ki Blaster makes a Steadfast Save for Injured: Steadfast 6 = d10:6 -> passed.",
            "Ki Blaster's Diminishing Defense: -1 (now -2).",
        ],
    );
    // 3 actions, 2 spent, 1 Bonus Momentum.
    assert_eq!(b.fighter(CombatantId(0)).unwrap().actions.standard, 2);
    assert_dice_used(&b);
}

#[test]
fn dbu_steady_momentum_on_a_natural_ten() {
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 5, 2, 4, 3, 10]);
    set_life(&mut b, 1, 90);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster makes a Steadfast Save for Bloodied: Steadfast 10 = d10:10 -> passed.",
            "Ki Blaster gains a Momentum Action: Steady Momentum (natural 10 on the Steadfast Save).",
        ],
    );
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .unwrap();
    // Usable on its coming turn, on top of its 3 Standard Actions; gone after it.
    assert_eq!(b.fighter(CombatantId(1)).unwrap().actions.usable(), 4);
    b.submit(Command::EndTurn {
        who: CombatantId(1),
    })
    .unwrap();
    assert_eq!(b.fighter(CombatantId(1)).unwrap().actions.steady, 0);
}

/// The Brawler at 93 Life (then `prepare`d) swings a Reckless Haymaker that misses; its
/// Backlash takes it through Bloodied, and `save` is the natural die of its Steadfast Save.
/// The battle and log.
fn haymaker_with_backlash(save: u32, prepare: impl FnOnce(&mut Battle)) -> (Battle, Vec<String>) {
    let mut b = duel("brawler", "ki_blaster", &[1, 1, 9, 4, save]);
    set_life(&mut b, 0, 93);
    prepare(&mut b);
    let mut o = attack(0, "powered", AttackTarget::Combatant(CombatantId(1)));
    o.technique = Some("reckless_haymaker".into());
    let got = run(&mut b, Command::Attack(o));
    (b, got)
}

#[test]
fn dbu_steady_momentum_gained_on_ones_own_turn_lasts_to_the_end_of_the_next() {
    // A natural 10 on the save for one's own Backlash: "+1 Action to use by the end of your
    // next turn" is the next turn, not the one under way.
    let (mut b, got) = haymaker_with_backlash(10, |_| {});
    assert_contains(
        &got,
        &[
            "Brawler makes a Steadfast Save for Bloodied: Steadfast 10 = d10:10 -> passed.",
            "Brawler gains a Momentum Action: Steady Momentum (natural 10 on the Steadfast Save).",
        ],
    );
    for who in [0, 1] {
        b.submit(Command::EndTurn {
            who: CombatantId(who),
        })
        .unwrap();
    }
    // Round 2, its next turn: 3 Standard Actions less Reduced Momentum's 1, and the action.
    let brawler = b.fighter(CombatantId(0)).unwrap();
    assert_eq!((brawler.actions.standard, brawler.actions.steady), (2, 1));
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .unwrap();
    assert_eq!(b.fighter(CombatantId(0)).unwrap().actions.steady, 0);
    assert_dice_used(&b);
}

#[test]
fn dbu_backlash_saves_after_the_maneuver_and_costs_reduced_momentum() {
    let (mut b, got) = haymaker_with_backlash(7, |_| {});
    assert_contains(
        &got,
        &[
            "Strike 4 against 19: Brawler misses Ki Blaster (the defender wins ties).",
            "Brawler Life 93 -> 89 (Backlash).",
            "Brawler reaches the Bloodied threshold.",
            "Brawler makes a Steadfast Save for Bloodied: Steadfast 7 = d10:7 -> passed.",
            "Brawler will have 1 fewer Standard Action next round (Reduced Momentum: its own effect took it through Bloodied).",
            "Ki Blaster's Diminishing Defense: -1 (now -1).",
        ],
    );
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .unwrap();
    let got = run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(1),
        },
    );
    assert_contains(
        &got,
        &["Brawler has 2 Standard and 1 Counter Actions (Reduced Momentum: -1)."],
    );
}

#[test]
fn dbu_defeated_at_zero_life_and_the_battle_ends() {
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 5, 2, 4, 3]);
    set_life(&mut b, 1, 5);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster Life 5 -> 0 (Brawler's Simple).",
            "Ki Blaster is Defeated by Brawler!",
            "Brawler's attack ends.",
            "Battle over in round 1: side 0 wins.",
        ],
    );
    assert_eq!(
        b.submit(Command::EndTurn {
            who: CombatantId(0)
        }),
        Err(RuleError::BattleOver)
    );
}

#[test]
fn dbu_defeated_combatants_make_no_maneuvers_and_their_turns_are_skipped() {
    let mut b = battle(
        vec![
            unit("brawler", 0, 5, 5),
            unit("ki_blaster", 1, 6, 5),
            unit("grunt", 1, 9, 9),
        ],
        &[10, 5, 1, 6, 2, 5, 2, 4, 3],
    );
    set_life(&mut b, 1, 5);
    run(&mut b, hit(0, "simple", 1));
    let got = run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(0),
        },
    );
    assert_eq!(
        got,
        [
            "Brawler ends the turn.",
            "Ki Blaster's turn is skipped: Defeated.",
            "-- Grunt's turn (round 1) --",
        ]
    );
    assert!(matches!(
        b.submit(hit(0, "simple", 1)),
        Err(RuleError::NotYourTurn { .. })
    ));
    assert!(matches!(
        b.submit(hit(2, "simple", 1)),
        Err(RuleError::TargetDefeated(_) | RuleError::OutOfRange { .. })
    ));
}

#[test]
fn dbu_no_steadfast_save_when_defeated() {
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 5, 2, 9, 4]);
    set_life(&mut b, 1, 20);
    let got = run(&mut b, hit(0, "powered", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster Life 20 -> 0 (Brawler's Powered).",
            "Ki Blaster reaches the Wounded threshold.",
            "Brawler gains a Standard Action: Bonus Momentum (knocked Ki Blaster through a threshold).",
            "Ki Blaster is Defeated by Brawler!",
        ],
    );
    assert!(!got.iter().any(|l| l.contains("Steadfast")));
    assert_dice_used(&b);
}

#[test]
fn dbu_bonus_momentum_for_defeating_a_minion() {
    let mut b = duel("brawler", "grunt", &[6, 2, 2, 4, 3]);
    set_life(&mut b, 1, 5);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Grunt Life 5 -> 0 (Brawler's Simple).",
            "Grunt is Defeated by Brawler!",
            "Brawler gains a Standard Action: Bonus Momentum (defeated the Minion Grunt).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_minions_have_only_the_injured_threshold() {
    let mut b = duel("brawler", "grunt", &[6, 2, 2, 4, 3, 6, 2, 2, 9, 4, 6]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(&got, &["Grunt Life 44 -> 34 (Brawler's Simple)."]);
    let got2 = run(&mut b, hit(0, "powered", 1));
    assert_contains(
        &got2,
        &[
            "Grunt Life 34 -> 10 (Brawler's Powered).",
            "Grunt reaches the Injured threshold.",
            "Grunt makes a Steadfast Save for Injured: Steadfast 6 = d10:6 -> passed.",
        ],
    );
    assert!(!got.iter().chain(&got2).any(|l| l.contains("Bloodied")));
    assert_dice_used(&b);
}

#[test]
fn dbu_no_bonus_momentum_for_defeating_an_allied_minion() {
    // "Defeat a Minion" means an opponent's: the Ki Blaster's Explosion finishes its own Grunt.
    let mut b = battle(
        vec![
            unit("ki_blaster", 0, 5, 5),
            unit("grunt", 0, 6, 5),
            unit("tank", 1, 15, 5),
        ],
        &[10, 6, 1, 7, 2, 1, 9, 4],
    );
    set_life(&mut b, 1, 1);
    let got = run(
        &mut b,
        Command::Attack(attack(
            0,
            "explosion",
            gridclash::battle::command::AttackTarget::Square(
                gridclash::battle::components::Square::new(8, 5),
            ),
        )),
    );
    assert_contains(&got, &["Grunt is Defeated by Ki Blaster!"]);
    assert!(
        !got.iter().any(|l| l.contains("Bonus Momentum")),
        "{got:#?}"
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_steady_momentum_for_the_round_after_rage_is_withheld() {
    // The action would be spent in the round after Rage, which allows one Action in all.
    let (mut b, got) = haymaker_with_backlash(10, |b| {
        stage(b, 0, |f| f.encounter.rage_aftermath = Some(2));
    });
    assert_contains(
        &got,
        &[
            "Brawler gains no Action from Steady Momentum (natural 10 on the Steadfast Save): after Rage, one Action this round.",
        ],
    );
    assert_eq!(b.fighter(CombatantId(0)).unwrap().actions.steady, 0);
    assert_dice_used(&b);
}
