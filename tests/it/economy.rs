//! The action economy: 3 Standard + 1 Counter Action a round, conversion, turns, Minions,
//! initiative, Surges and the window for Instants, and recoveries.

use gridclash::battle::command::{Command, Decision, RuleError, SurgeKind};
use gridclash::battle::components::{CombatantId, Controller, Ki, Life, ResponsePolicy};
use gridclash::battle::effects::recover;

use crate::common::*;

#[test]
fn dbu_initiative_is_d10_plus_half_agility_highest_first() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    let got = lines(&mut b, 0);
    assert_eq!(
        got,
        [
            "Battle starts (scripted dice).",
            "Brawler rolls Initiative 13 = d10:10 + Initiative (AG 6 / 2) 3",
            "Ki Blaster rolls Initiative 4 = d10:1 + Initiative (AG 6 / 2) 3",
            "Turn order: Brawler, Ki Blaster.",
            "=== Round 1 ===",
            "Brawler has 3 Standard and 1 Counter Actions.",
            "Ki Blaster has 3 Standard and 1 Counter Actions.",
            "-- Brawler's turn (round 1) --",
        ]
    );
}

#[test]
fn dbu_initiative_ties_go_to_the_higher_agility_then_a_rolloff() {
    // Gunner (AG 7) and Brawler (AG 6) both total 8: the Gunner goes first. The Brawler and
    // Ki Blaster (both AG 6) tie on total and Agility: they roll off, 4 against 7.
    let mut b = battle(
        vec![
            unit("brawler", 0, 1, 1),
            unit("ki_blaster", 1, 5, 5),
            unit("gunner", 0, 1, 2),
        ],
        &[5, 5, 5, 4, 7],
    );
    let got = lines(&mut b, 0);
    assert_contains(
        &got,
        &[
            "Brawler breaks the initiative tie: Roll-off 4 = d10:4",
            "Ki Blaster breaks the initiative tie: Roll-off 7 = d10:7",
            "Turn order: Gunner, Ki Blaster, Brawler.",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_turn_ends_when_no_action_is_left() {
    let mut b = duel(
        "brawler",
        "ki_blaster",
        &[1, 1, 9, 4, 1, 1, 9, 4, 1, 1, 9, 4],
    );
    run(&mut b, hit(0, "simple", 1));
    run(&mut b, hit(0, "simple", 1));
    let got = run(&mut b, hit(0, "simple", 1));
    assert_eq!(
        got[got.len() - 3..],
        [
            "Brawler's attack ends.",
            "Brawler ends the turn.",
            "-- Ki Blaster's turn (round 1) --",
        ]
    );
}

#[test]
fn dbu_a_standard_action_converts_into_a_counter_action_at_any_time() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    let got = run(
        &mut b,
        Command::ConvertAction {
            who: CombatantId(0),
        },
    );
    assert_eq!(
        got,
        ["Brawler converts a Standard Action into a Counter Action."]
    );
    // Off-turn too.
    run(
        &mut b,
        Command::ConvertAction {
            who: CombatantId(1),
        },
    );
    let a = b.fighter(CombatantId(0)).unwrap().actions;
    assert_eq!((a.standard, a.counter), (2, 2));
    stage(&mut b, 0, |f| f.actions.standard = 0);
    assert_eq!(
        b.submit(Command::ConvertAction {
            who: CombatantId(0)
        }),
        Err(RuleError::NothingToConvert(CombatantId(0)))
    );
}

#[test]
fn dbu_minions_have_two_actions_no_counter_action_and_one_attack_a_round() {
    let mut b = duel("grunt", "brawler", &[1, 9, 4]);
    assert_contains(
        &lines(&mut b, 0),
        &["Grunt has 2 Standard and 0 Counter Actions."],
    );
    run(&mut b, hit(0, "simple", 1));
    assert_eq!(
        b.submit(hit(0, "simple", 1)),
        Err(RuleError::MinionAttackLimit { limit: 1 })
    );
}

#[test]
fn dbu_minions_have_a_quarter_of_the_life_half_the_ki_and_one_tier_less() {
    let mut b = duel("grunt", "champion", &[]);
    let g = b.fighter(CombatantId(0)).unwrap();
    // Normal Life 60 + 48 + (3 + 10) x 5 = 173, a quarter rounded up.
    assert_eq!((g.life.max, g.ki.max, g.capacity.max), (44, 49, 36));
    assert_eq!(
        (g.power.base_tier, g.power.tier, g.power.minion_roll_penalty),
        (1, 1, 0)
    );
    let c = b.fighter(CombatantId(1)).unwrap();
    assert_eq!(
        (c.life.max, c.ki.max, c.capacity.max, c.power.tier),
        (318, 158, 56, 3)
    );
}

#[test]
fn dbu_surge_is_an_instant_once_per_encounter() {
    let mut b = duel("ki_blaster", "brawler", &[]);
    stage(&mut b, 0, |f| {
        f.ki.current = 40;
        f.capacity.current = 10;
    });
    let got = run(
        &mut b,
        Command::Surge {
            who: CombatantId(0),
            kind: SurgeKind::Ki,
        },
    );
    // 1/4 of 98 Ki + Surgency (Force 7); 1/4 of 36 Capacity.
    assert_eq!(
        got,
        [
            "Ki Blaster uses a Ki Surge: regains 31.",
            "Ki Blaster Ki 40 -> 71 (Ki Surge).",
            "Ki Blaster Capacity 10 -> 19 (Ki Surge).",
        ]
    );
    assert_eq!(
        b.submit(Command::Surge {
            who: CombatantId(0),
            kind: SurgeKind::Healing
        }),
        Err(RuleError::SurgeUsed(CombatantId(0)))
    );
}

#[test]
fn dbu_instant_window_lets_a_combatant_act_before_the_attack_resolves() {
    let mut b = duel("brawler", "ki_blaster", &[1, 1, 1, 1, 6, 2, 5, 2, 4, 3]);
    {
        let world = b.world_mut();
        let mut q = world.query::<(&CombatantId, &mut Controller)>();
        for (id, mut c) in q.iter_mut(world) {
            if id.0 == 1 {
                c.responses = ResponsePolicy::Prompt;
            }
        }
    }
    set_life(&mut b, 1, 100);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_eq!(
        got.last().map(String::as_str),
        Some("Instant actions may answer Brawler's attack.")
    );
    assert_eq!(
        b.awaiting(),
        Some(&Decision::Response {
            who: CombatantId(1),
            attacker: CombatantId(0)
        })
    );
    let got = run(
        &mut b,
        Command::Respond {
            who: CombatantId(1),
            surge: Some(SurgeKind::Healing),
        },
    );
    assert_contains(
        &got,
        &[
            "Ki Blaster Life 100 -> 111 (Healing Surge).",
            "Ki Blaster will Dodge.",
            "Brawler: Strike 14 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3",
        ],
    );
    assert_contains(&got, &["Ki Blaster Life 111 -> 100 (Brawler's Simple)."]);
    assert_dice_used(&b);
}

#[test]
fn dbu_recoveries_restore_their_fraction_of_the_maximum() {
    let rules = rules();
    let life = Life {
        current: 10,
        max: 183,
    };
    let ki = Ki {
        current: 0,
        max: 98,
    };
    let get = |id| {
        let (l, k) = recover(&rules, id, life, ki).unwrap();
        (l.current, k.current)
    };
    assert_eq!(get("instant"), (28, 9));
    assert_eq!(get("short"), (101, 49));
    assert_eq!(get("long"), (147, 73));
    assert_eq!(get("extended"), (183, 98));
    assert!(recover(&rules, "nap", life, ki).is_none());
}

#[test]
fn dbu_power_up_adds_one_t_to_combat_rolls_and_a_quarter_capacity_until_the_next_turn_ends() {
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 9, 4]);
    let got = run(
        &mut b,
        Command::PowerUp {
            who: CombatantId(0),
        },
    );
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on a Power Up.",
            "Brawler powers up: 1 stack(s), +2 to Combat Rolls, +9 Capacity, until the end of its next turn.",
            "Brawler Capacity 36 -> 45 (Power Up).",
        ]
    );
    run(
        &mut b,
        Command::PowerUp {
            who: CombatantId(0),
        },
    );
    // Two a round (and two stacks at most).
    assert_eq!(
        b.submit(Command::PowerUp {
            who: CombatantId(0)
        }),
        Err(RuleError::PowerUpLimit { limit: 2 })
    );
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Strike 18 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3 + Power Up x2 4",
        ],
    );
    // It lasts through the Brawler's next turn, then fades.
    b.submit(Command::EndTurn {
        who: CombatantId(1),
    })
    .unwrap();
    assert_eq!(b.fighter(CombatantId(0)).unwrap().encounter.power, 2);
    let got = run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(0),
        },
    );
    assert_contains(
        &got,
        &[
            "Brawler ends the turn.",
            "Brawler's Power Up fades.",
            "Brawler Capacity 54 -> 36 (Power Up faded).",
        ],
    );
}

#[test]
fn dbu_combat_recovery_regains_life_and_ki_per_action_and_lowers_defense_value() {
    // No opponent within 8 squares: nobody may Exploit.
    let mut b = battle(
        vec![unit("brawler", 0, 1, 1), unit("ki_blaster", 1, 15, 10)],
        &[10, 1, 1, 2, 3, 4],
    );
    stage(&mut b, 0, |f| {
        f.life.current = 100;
        f.ki.current = 50;
    });
    let got = run(
        &mut b,
        Command::Recover {
            who: CombatantId(0),
            actions: 2,
        },
    );
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on a Combat Recovery.",
            "Brawler spends a Standard Action on a Combat Recovery.",
            "Brawler begins a Combat Recovery with 2 Actions: opponents not at Long Range may Exploit.",
            "Brawler recovers: Combat Recovery 10 = d10:1 [Combat Recovery] + d10:2 [Combat Recovery] + d10:3 [Combat Recovery] + d10:4 [Combat Recovery]; regains 10 Life and 10 Ki.",
            "Brawler Life 100 -> 110 (Combat Recovery).",
            "Brawler Ki 50 -> 60 (Combat Recovery).",
            "Brawler has -4 Defense Value until the start of Brawler's next turn (Combat Recovery).",
        ]
    );
    assert_eq!(
        b.submit(Command::Recover {
            who: CombatantId(0),
            actions: 1
        }),
        Err(RuleError::RecoveryActions { min: 2, max: 3 })
    );
    stage(&mut b, 0, |f| f.actions.standard = 3);
    assert_eq!(
        b.submit(Command::Recover {
            who: CombatantId(0),
            actions: 2
        }),
        Err(RuleError::RecoveredThisRound)
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_combat_recovery_invites_exploits_and_a_hit_takes_the_life_back() {
    let mut blaster = unit("ki_blaster", 1, 6, 5);
    blaster.controller.exploits = gridclash::battle::components::ExploitPolicy::Prompt;
    let mut b = battle(
        vec![unit("brawler", 0, 5, 5), blaster],
        &[10, 1, 6, 2, 2, 1, 4, 3, 1, 2, 3, 4],
    );
    stage(&mut b, 0, |f| f.life.current = 100);
    let got = run(
        &mut b,
        Command::Recover {
            who: CombatantId(0),
            actions: 2,
        },
    );
    assert_eq!(
        got.last().map(String::as_str),
        Some("Brawler recovers at (5, 5) within Ki Blaster's reach: Exploit!")
    );
    let got = run(
        &mut b,
        Command::Exploit {
            who: CombatantId(1),
            order: Some(attack(
                1,
                "simple",
                gridclash::battle::command::AttackTarget::Combatant(CombatantId(0)),
            )),
        },
    );
    assert_contains(&got, &["Strike 16 beats 9: Ki Blaster hits Brawler."]);
    assert_contains(
        &got,
        &[
            "Brawler recovers: Combat Recovery 10 = d10:1 [Combat Recovery] + d10:2 [Combat Recovery] + d10:3 [Combat Recovery] + d10:4 [Combat Recovery]; regains 0 Ki, but no Life (an Exploit hit).",
        ],
    );
    assert_dice_used(&b);
}
