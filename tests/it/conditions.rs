//! The 16 combat conditions: what each does and how each ends.

use gridclash::battle::Battle;
use gridclash::battle::command::DefenseChoice;
use gridclash::battle::command::{AttackTarget, Command, RuleError};
use gridclash::battle::components::{CombatantId, ConditionInstance, Expiry, Square};
use gridclash::battle::effects::{end_condition, grant_condition};
use gridclash::battle::event::EventLog;
use gridclash::battle::fighter::FighterQuery;
use gridclash::battle::state::TurnOrder;
use gridclash::ruleset::ConditionKind;

use crate::common::*;

/// Gives a condition through the same rule function the systems use; returns its log lines.
fn grant(
    b: &mut Battle,
    id: u32,
    kind: ConditionKind,
    source: Option<u32>,
    amount: i64,
    expires: Expiry,
) -> Vec<String> {
    let rules = rules();
    let mut log = EventLog::default();
    {
        let world = b.world_mut();
        let mut q = world.query::<FighterQuery>();
        for mut f in q.iter_mut(world) {
            if f.id.0 == id {
                grant_condition(
                    &rules,
                    &mut f,
                    kind,
                    source.map(|s| (CombatantId(s), 2)),
                    amount,
                    expires,
                    &mut log,
                );
            }
        }
    }
    let names = b.names();
    log.events.iter().map(|e| e.describe(&names)).collect()
}

fn end(b: &mut Battle, id: u32, kind: ConditionKind) -> Vec<String> {
    let rules = rules();
    let order: TurnOrder = b.turn().clone();
    let mut log = EventLog::default();
    {
        let world = b.world_mut();
        let mut q = world.query::<FighterQuery>();
        for mut f in q.iter_mut(world) {
            if f.id.0 == id {
                end_condition(&rules, &order, &mut f, kind, "test", &mut log);
            }
        }
    }
    let names = b.names();
    log.events.iter().map(|e| e.describe(&names)).collect()
}

fn end_turns(b: &mut Battle, n: usize) -> Vec<String> {
    let from = b.events().len();
    for _ in 0..n {
        let who = b.active().unwrap();
        b.submit(Command::EndTurn { who }).unwrap();
    }
    lines(b, from)
}

#[test]
fn dbu_hidden_cannot_be_targeted() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    give(&mut b, 1, ConditionKind::Hidden, None);
    assert_eq!(
        b.submit(hit(0, "simple", 1)),
        Err(RuleError::TargetHidden(CombatantId(1)))
    );
}

#[test]
fn dbu_attacking_from_hidden_treats_the_target_as_guard_down_and_ends_hidden() {
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 7, 3, 2, 4, 3]);
    give(&mut b, 0, ConditionKind::Hidden, None);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Dodge 7 = d10:7 (discarded) [Base die, Penalization: Guard Down (attacked from Hidden): keep the lower] + d10:3 [Base die, Penalization: Guard Down (attacked from Hidden): keep the lower] + d4:2 [ToP 2 Extra Dice] + Defense Value 6 - Guard Down (attacked from Hidden) 4",
            "Strike 14 beats 7: Brawler hits Ki Blaster.",
        ],
    );
    assert_contains(
        &got,
        &[
            "Ki Blaster's Diminishing Defense: -1 (now -1).",
            "Brawler's Hidden ends (attacked).",
            "Brawler's attack ends.",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_rage_strikes_hit_automatically_and_ignore_penalties_and_negative_conditions() {
    let mut b = duel("brawler", "ki_blaster", &[2, 1, 4, 3]);
    give(&mut b, 0, ConditionKind::Rage, None);
    give(&mut b, 0, ConditionKind::Impediment, None);
    set_life(&mut b, 0, 80);
    stage(&mut b, 0, |f| {
        f.thresholds.failed.insert(0);
    });
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Strike 9 = d10:2 + d4:1 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3",
            "Brawler hits Ki Blaster automatically (Rage: Strike Rolls automatically succeed).",
            "Brawler: Wound 15 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_rage_is_entered_at_wounded_on_a_failed_morale_save() {
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 2, 1, 4, 3, 7, 2]);
    set_life(&mut b, 1, 25);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler Life 25 -> 17 (Ki Blaster's Simple).",
            "Brawler reaches the Wounded threshold.",
            "Brawler makes a Steadfast Save for Wounded: Steadfast 7 = d10:7 -> passed.",
            "Brawler resists Rage at Wounded (Morale Save): Morale Save 3 = d10:2 + PE Score 1 against TN 6 -> failure.",
            "Brawler gains Rage, until the end of Brawler's turn in round 1.",
            "Ki Blaster gains a Standard Action: Bonus Momentum (knocked Brawler through a threshold).",
        ],
    );
    assert!(b.fighter(CombatantId(1)).unwrap().encounter.rage_used);
    assert_dice_used(&b);
}

#[test]
fn dbu_rage_ends_with_the_turn_then_one_action_in_all_and_guard_down_next_round() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    stage(&mut b, 0, |f| {
        f.conditions.0.push(ConditionInstance {
            kind: ConditionKind::Rage,
            source: None,
            source_tier: 2,
            stacks: 1,
            amount: 0,
            expires: Expiry::EndOfTurn {
                round: 1,
                of: CombatantId(0),
            },
            failures: 0,
            category: None,
        })
    });
    let got = end_turns(&mut b, 2);
    assert_eq!(
        got[..3],
        [
            "Brawler ends the turn.",
            "Brawler's Rage ends (its duration ran out).",
            "-- Ki Blaster's turn (round 1) --",
        ]
    );
    assert_contains(
        &got,
        &[
            "=== Round 2 ===",
            "Brawler gains GuardDown, until the end of round 2.",
            "Brawler has 1 Standard and 0 Counter Actions (after Rage: 1 Action in all and Guard Down).",
        ],
    );
    // "During the next Combat Round, you can only use One Action": no Counter Action beside
    // it (a Parry would take the Standard Action, converted).
    let brawler = b.fighter(CombatantId(0)).unwrap();
    assert_eq!((brawler.actions.standard, brawler.actions.counter), (1, 0));
}

#[test]
fn dbu_no_bonus_momentum_in_the_round_after_rage() {
    // The round after Rage allows one Action in all: Bonus Momentum gives none then.
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 2, 1, 4, 3, 7, 2]);
    set_life(&mut b, 1, 25);
    stage(&mut b, 0, |f| f.encounter.rage_aftermath = Some(1));
    let standard = b.fighter(CombatantId(0)).unwrap().actions.standard;
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster gains no Action from Bonus Momentum (knocked Brawler through a threshold): after Rage, one Action this round.",
        ],
    );
    assert_eq!(
        b.fighter(CombatantId(0)).unwrap().actions.standard,
        standard - 1
    );
}

#[test]
fn dbu_superiority_adds_a_d10_that_crits_on_a_ten() {
    let mut b = duel("brawler", "ki_blaster", &[5, 10, 2, 3, 9, 4, 4, 1, 3]);
    give(&mut b, 0, ConditionKind::Superiority, None);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Strike 26 = d10:5 + d10:10 CRIT [Superiority die] + d4:2 [ToP 2 Extra Dice] + d8:3 [ToP 2 Critical Dice] + Haste (AG 6 / 2) 3 + Awareness 3",
            "Ki Blaster: Dodge 19 = d10:9 + d4:4 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 26 beats 19: Brawler hits Ki Blaster.",
            "Brawler: Wound 16 = d10:4 + d10:1 [Superiority die] + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_superiority_die_crits_only_on_a_ten_even_when_critical_targets_are_lower() {
    // Kiai lowers the base die's Critical Target to 9, not the Superiority die's.
    let mut b = duel("ki_blaster", "brawler", &[5, 9, 2, 9, 4]);
    give(&mut b, 0, ConditionKind::Superiority, None);
    let got = run(&mut b, hit(0, "kiai", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Strike 24 = d10:5 + d10:9 [Superiority die] + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 5",
        ],
    );
}

#[test]
fn dbu_absorbed_leaves_the_battleground_and_escapes_by_an_opposed_cognitive_save() {
    let mut b = duel("brawler", "ki_blaster", &[3, 6, 5, 2]);
    give(&mut b, 1, ConditionKind::Absorbed, Some(0));
    stage(&mut b, 1, |f| f.position.0 = None);
    assert_eq!(
        b.submit(hit(0, "simple", 1)),
        Err(RuleError::TargetAbsent(CombatantId(1)))
    );
    let got = end_turns(&mut b, 1);
    assert_eq!(
        got,
        [
            "Brawler ends the turn.",
            "-- Ki Blaster's turn (round 1) --",
            "Ki Blaster tries to escape Brawler: Cognitive Save 8 = d10:3 + IN Score 5 against Cognitive Save 9 = d10:6 + IN Score 3 -> still held.",
            "Ki Blaster's turn is skipped: Absorbed.",
            "=== Round 2 ===",
            "Brawler has 3 Standard and 1 Counter Actions.",
            "Ki Blaster has 3 Standard and 1 Counter Actions.",
            "-- Brawler's turn (round 2) --",
        ]
    );
    let got = end_turns(&mut b, 1);
    assert_contains(
        &got,
        &[
            "Ki Blaster tries to escape Brawler: Cognitive Save 11 = d10:5 + IN Score 5 + earlier failures 1 against Cognitive Save 5 = d10:2 + IN Score 3 -> free.",
            "Ki Blaster's Absorbed ends (escaped).",
        ],
    );
    assert_eq!(
        b.fighter(CombatantId(1)).unwrap().position,
        Some(Square::new(5, 4))
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_absorbed_escape_bonus_counts_every_failure_in_the_encounter() {
    // "+1 for each failure in this Combat Encounter": two failures in an earlier absorption
    // count in a new one.
    let mut b = duel("brawler", "ki_blaster", &[5, 6]);
    give(&mut b, 1, ConditionKind::Absorbed, Some(0));
    stage(&mut b, 1, |f| {
        f.position.0 = None;
        f.encounter.absorb_failures = 2;
    });
    let got = end_turns(&mut b, 1);
    assert_contains(
        &got,
        &[
            "Ki Blaster tries to escape Brawler: Cognitive Save 12 = d10:5 + IN Score 5 + earlier failures 2 against Cognitive Save 9 = d10:6 + IN Score 3 -> free.",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_blinded_halves_awareness_and_defense_value() {
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[]);
    give(&mut b, 0, ConditionKind::Blinded, None);
    let d = b.fighter(CombatantId(0)).unwrap().derived(&rules);
    assert_eq!((d.awareness, d.defense_value), (1, 3));
    let p = b
        .preview(&attack(
            0,
            "simple",
            AttackTarget::Combatant(CombatantId(1)),
        ))
        .unwrap();
    assert!(
        p.context
            .strike
            .modifiers
            .iter()
            .any(|m| m.label == "Awareness" && m.value == 1)
    );
    let p = b
        .preview(&attack(
            1,
            "simple",
            AttackTarget::Combatant(CombatantId(0)),
        ))
        .unwrap();
    assert!(
        p.context.targets[0]
            .defense(DefenseChoice::Dodge)
            .modifiers
            .iter()
            .any(|m| m.label == "Defense Value" && m.value == 3)
    );
}

#[test]
fn dbu_damage_over_time_deals_lethal_damage_at_the_start_of_each_turn() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    grant(
        &mut b,
        1,
        ConditionKind::DamageOverTime,
        Some(0),
        4,
        Expiry::UntilEnded,
    );
    let got = end_turns(&mut b, 1);
    assert_eq!(
        got,
        [
            "Brawler ends the turn.",
            "-- Ki Blaster's turn (round 1) --",
            "Ki Blaster takes 4 Lethal damage (Wound 4 - Soak 0 of 4) [Damage Over Time].",
            "Ki Blaster Life 168 -> 164 (Damage Over Time).",
        ]
    );
}

#[test]
fn dbu_damage_over_time_adds_damage_not_duration_and_caps_at_five_t() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    let first = Expiry::EndOfTurn {
        round: 3,
        of: CombatantId(0),
    };
    let later = Expiry::EndOfTurn {
        round: 5,
        of: CombatantId(0),
    };
    grant(&mut b, 1, ConditionKind::DamageOverTime, Some(0), 2, first);
    let got = grant(&mut b, 1, ConditionKind::DamageOverTime, Some(0), 2, later);
    assert_eq!(
        got,
        [
            "Ki Blaster gains DamageOverTime (4 per turn) from Brawler, until the end of Brawler's turn in round 3."
        ]
    );
    // 5(T) at ToP 2 is 10.
    let got = grant(&mut b, 1, ConditionKind::DamageOverTime, Some(0), 9, later);
    assert_eq!(
        got,
        [
            "Ki Blaster gains DamageOverTime (10 per turn) from Brawler, until the end of Brawler's turn in round 3."
        ]
    );
}

#[test]
fn dbu_fatigued_halves_ki_and_capacity_and_counts_at_most_twice() {
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[]);
    let got = grant(
        &mut b,
        1,
        ConditionKind::Fatigued,
        None,
        0,
        Expiry::UntilEnded,
    );
    assert_eq!(
        got,
        [
            "Ki Blaster gains Fatigued, until ended.",
            "Ki Blaster Ki 98 -> 49 (maximum Ki reduced).",
            "Ki Blaster Capacity 36 -> 18 (maximum Capacity reduced).",
        ]
    );
    grant(
        &mut b,
        1,
        ConditionKind::Fatigued,
        None,
        0,
        Expiry::UntilEnded,
    );
    grant(
        &mut b,
        1,
        ConditionKind::Fatigued,
        None,
        0,
        Expiry::UntilEnded,
    );
    let f = b.fighter(CombatantId(1)).unwrap();
    assert_eq!(f.conditions.stacks(ConditionKind::Fatigued), 2);
    let d = f.derived(&rules);
    assert_eq!((d.max_ki, d.max_capacity), (49, 9));
    assert_eq!((f.ki.current, f.capacity.current), (49, 9));
}

#[test]
fn dbu_weakened_halves_capacity() {
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[]);
    grant(
        &mut b,
        1,
        ConditionKind::Weakened,
        None,
        0,
        Expiry::UntilEnded,
    );
    let d = b.fighter(CombatantId(1)).unwrap().derived(&rules);
    assert_eq!((d.max_ki, d.max_capacity), (98, 18));
    grant(
        &mut b,
        1,
        ConditionKind::Weakened,
        None,
        0,
        Expiry::UntilEnded,
    );
    grant(
        &mut b,
        1,
        ConditionKind::Weakened,
        None,
        0,
        Expiry::UntilEnded,
    );
    let d = b.fighter(CombatantId(1)).unwrap().derived(&rules);
    assert_eq!(d.max_capacity, 9);
}

#[test]
fn dbu_guard_down_rolls_the_dodge_twice_keeping_the_lower_and_takes_two_t() {
    let mut b = duel("ki_blaster", "brawler", &[6, 2, 3, 8, 2]);
    give(&mut b, 1, ConditionKind::GuardDown, None);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Dodge 7 = d10:3 [Base die, Penalization: Guard Down: keep the lower] + d10:8 (discarded) [Base die, Penalization: Guard Down: keep the lower] + d4:2 [ToP 2 Extra Dice] + Defense Value 6 - Guard Down 4",
        ],
    );
}

#[test]
fn dbu_impediment_drops_a_d10_or_takes_five() {
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 9, 4]);
    give(&mut b, 0, ConditionKind::Impediment, None);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Strike 9 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3 - Impediment (no d10 to drop) 5",
        ],
    );
    // With Superiority, the extra d10 is the one dropped.
    give(&mut b, 0, ConditionKind::Superiority, None);
    let p = b
        .preview(&attack(
            0,
            "simple",
            AttackTarget::Combatant(CombatantId(1)),
        ))
        .unwrap();
    assert_eq!(p.context.strike.superiority, None);
    assert_eq!(p.context.strike.dropped, ["Superiority die (Impediment)"]);
    // At ToP 5 the Extra Dice are a d10, which is dropped.
    let mut f = b.fighter(CombatantId(0)).unwrap();
    f.conditions.remove(ConditionKind::Superiority);
    f.power.tier = 5;
    let p = b
        .with_declaration(
            &attack(0, "simple", AttackTarget::Combatant(CombatantId(1))),
            |r, field, _, d| gridclash::battle::context::strike_spec(r, field, &f, d),
        )
        .unwrap();
    assert!(p.dice.is_empty());
    assert_eq!(p.dropped, ["1d10 of ToP 5 Extra Dice (Impediment)"]);
    let _ = rules;
}

#[test]
fn dbu_pinned_takes_every_action_and_gives_them_back_when_it_ends() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    grant(
        &mut b,
        0,
        ConditionKind::Pinned,
        Some(1),
        0,
        Expiry::UntilEnded,
    );
    let a = b.fighter(CombatantId(0)).unwrap().actions;
    assert_eq!((a.standard, a.counter, a.lost_to_pin), (0, 0, (3, 1)));
    let got = end(&mut b, 0, ConditionKind::Pinned);
    assert_eq!(
        got,
        [
            "Brawler's Pinned ends (test).",
            "Brawler gains a Standard Action: Pinned ended: 3 Standard and 1 Counter Actions back.",
        ]
    );
    let a = b.fighter(CombatantId(0)).unwrap().actions;
    assert_eq!((a.standard, a.counter), (3, 1));
}

#[test]
fn dbu_pinned_at_the_start_of_a_round_has_no_actions_and_its_turn_passes() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    give(&mut b, 0, ConditionKind::Pinned, Some(1));
    let got = end_turns(&mut b, 2);
    assert_contains(
        &got,
        &[
            "=== Round 2 ===",
            "Brawler has 0 Standard and 0 Counter Actions (Pinned: -3 Standard, -1 Counter).",
            "Ki Blaster has 3 Standard and 1 Counter Actions.",
            "-- Brawler's turn (round 2) --",
            "Brawler ends the turn.",
            "-- Ki Blaster's turn (round 2) --",
        ],
    );
}

#[test]
fn dbu_poisoned_is_cured_by_a_very_hard_medicine_check() {
    let mut b = duel("gunner", "brawler", &[7]);
    give(&mut b, 0, ConditionKind::Poisoned, None);
    let got = run(
        &mut b,
        Command::CurePoison {
            who: CombatantId(0),
        },
    );
    assert_eq!(
        got,
        [
            "Gunner spends a Standard Action on treating the poison.",
            "Gunner treats the poison: Medicine check 12 = d10:7 + Medicine bonus 5 against TN 12 -> success.",
            "Gunner's Poisoned ends (cured with Medicine).",
        ]
    );
    let mut b = duel("brawler", "gunner", &[]);
    give(&mut b, 0, ConditionKind::Poisoned, None);
    assert_eq!(
        b.submit(Command::CurePoison {
            who: CombatantId(0)
        }),
        Err(RuleError::NeedsSkill {
            who: CombatantId(0),
            skill: "Medicine".into()
        })
    );
}

#[test]
fn dbu_poisoned_takes_two_bt_off_combat_rolls_below_wounded() {
    let mut b = duel("ki_blaster", "brawler", &[]);
    give(&mut b, 0, ConditionKind::Poisoned, None);
    let order = attack(0, "simple", AttackTarget::Combatant(CombatantId(1)));
    let before = b.preview(&order).unwrap().context.strike.flat_total();
    set_life(&mut b, 0, 16);
    let p = b.preview(&order).unwrap();
    assert!(
        p.context
            .strike
            .modifiers
            .iter()
            .any(|m| m.label == "Poisoned while Wounded" && m.value == -4)
    );
    assert_eq!(p.context.strike.flat_total(), before - 4);
}

#[test]
fn dbu_prone_stands_up_for_an_action_unless_pinned() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    give(&mut b, 0, ConditionKind::Prone, None);
    give(&mut b, 0, ConditionKind::Pinned, Some(1));
    assert_eq!(
        b.submit(Command::StandUp {
            who: CombatantId(0)
        }),
        Err(RuleError::PinnedCannotStand)
    );
    stage(&mut b, 0, |f| {
        f.conditions.remove(ConditionKind::Pinned);
    });
    let got = run(
        &mut b,
        Command::StandUp {
            who: CombatantId(0),
        },
    );
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on standing up.",
            "Brawler's Prone ends (stood up).",
        ]
    );
}

#[test]
fn dbu_shaken_halves_speed_and_strikes_against_its_source_take_two_t() {
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 9, 4]);
    give(&mut b, 0, ConditionKind::Shaken, Some(1));
    let d = b.fighter(CombatantId(0)).unwrap().derived(&rules);
    assert_eq!((d.normal_speed, d.boosted_speed), (2, 4));
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Strike 10 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3 - Shaken by Ki Blaster 4",
        ],
    );
}

#[test]
fn dbu_slowed_costs_one_action_per_stack() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    grant(
        &mut b,
        0,
        ConditionKind::Slowed,
        None,
        0,
        Expiry::UntilEnded,
    );
    grant(
        &mut b,
        0,
        ConditionKind::Slowed,
        None,
        0,
        Expiry::UntilEnded,
    );
    let got = end_turns(&mut b, 2);
    assert_contains(
        &got,
        &["Brawler has 1 Standard and 1 Counter Actions (Slowed x2: -2)."],
    );
}

#[test]
fn dbu_transfigured_forbids_magical_attacks_and_slows() {
    let mut b = duel("mage", "brawler", &[]);
    give(&mut b, 0, ConditionKind::Transfigured, None);
    assert_eq!(b.submit(hit(0, "spell", 1)), Err(RuleError::Transfigured));
    assert_eq!(b.check(&hit(0, "simple", 1)), Ok(()));
    let got = end_turns(&mut b, 2);
    assert_contains(
        &got,
        &["Mage has 2 Standard and 1 Counter Actions (Transfigured (Slowed): -1)."],
    );
}

#[test]
fn dbu_end_a_condition_costs_an_action_and_a_hard_morale_save() {
    let mut b = duel("brawler", "ki_blaster", &[8, 7]);
    give(&mut b, 0, ConditionKind::Slowed, None);
    give(&mut b, 0, ConditionKind::Shaken, Some(1));
    let got = run(
        &mut b,
        Command::EndCondition {
            who: CombatantId(0),
            condition: ConditionKind::Slowed,
        },
    );
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on ending Slowed.",
            "Brawler tries to end Slowed: Morale Save 9 = d10:8 + PE Score 1 against TN 9 -> success.",
            "Brawler's Slowed ends (ended by a Morale Save).",
        ]
    );
    let got = run(
        &mut b,
        Command::EndCondition {
            who: CombatantId(0),
            condition: ConditionKind::Shaken,
        },
    );
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on ending Shaken.",
            "Brawler tries to end Shaken: Morale Save 8 = d10:7 + PE Score 1 against TN 9 -> failure.",
        ]
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_end_a_condition_may_end_any_condition_even_a_positive_one() {
    // "you may attempt to end ANY Combat Condition by spending One Action to make a Morale
    // Saving Throw, TN Hard": one's own Superiority too.
    let mut b = duel("brawler", "ki_blaster", &[9, 3]);
    give(&mut b, 0, ConditionKind::Superiority, None);
    let got = run(
        &mut b,
        Command::EndCondition {
            who: CombatantId(0),
            condition: ConditionKind::Superiority,
        },
    );
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on ending Superiority.",
            "Brawler tries to end Superiority: Morale Save 13 = d10:9 + d10:3 [Superiority die] + PE Score 1 against TN 9 -> success.",
            "Brawler's Superiority ends (ended by a Morale Save).",
        ]
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_conditions_end_at_the_end_of_the_turn_they_started_after_their_rounds() {
    // Ice gives Slowed for 1 round, in the Mage's turn of round 1: it ends with the Mage's
    // turn in round 2, after costing the Brawler an action in round 2.
    let mut b = duel("mage", "brawler", &[7, 3, 2, 2, 6, 1]);
    let mut o = attack(0, "elemental", AttackTarget::Combatant(CombatantId(1)));
    o.element = Some("ice".into());
    let got = run(&mut b, Command::Attack(o));
    assert_contains(
        &got,
        &["Brawler gains Slowed from Mage, until the end of Mage's turn in round 2."],
    );
    let got = end_turns(&mut b, 3);
    assert_contains(
        &got,
        &[
            "=== Round 2 ===",
            "Mage has 3 Standard and 1 Counter Actions.",
            "Mage Capacity 16 -> 36 (Capacity refills at the start of the round).",
            "Brawler has 2 Standard and 1 Counter Actions (Slowed x1: -1).",
            "-- Mage's turn (round 2) --",
            "Mage ends the turn.",
            "Brawler's Slowed ends (its duration ran out).",
        ],
    );
}

#[test]
fn dbu_the_action_bar_offers_standing_up_and_ending_a_condition_when_legal() {
    // The window's bar offers the maneuvers against conditions only when the rules allow them
    // now: a Prone unit may stand up, a Shaken one may try to end it (negative first).
    let mut b = duel("brawler", "ki_blaster", &[]);
    let bar = b.bar_view(CombatantId(0)).unwrap();
    assert!(!bar.stand_up && !bar.cure_poison && bar.end_condition.is_none());
    give(&mut b, 0, ConditionKind::Superiority, None);
    give(&mut b, 0, ConditionKind::Shaken, Some(1));
    give(&mut b, 0, ConditionKind::Prone, None);
    let bar = b.bar_view(CombatantId(0)).unwrap();
    assert!(bar.stand_up);
    assert_eq!(
        bar.end_condition,
        Some((ConditionKind::Shaken, "Shaken".to_string()))
    );
    // Without an action left, none is offered.
    stage(&mut b, 0, |f| f.actions.standard = 0);
    let bar = b.bar_view(CombatantId(0)).unwrap();
    assert!(!bar.stand_up && bar.end_condition.is_none());
}

#[test]
fn dbu_the_round_after_rage_drops_a_held_steady_momentum_action() {
    // "During the next Combat Round, you can only use One Action": a Steady Momentum action
    // held into that round goes unused beside its one Standard Action.
    let mut b = duel("brawler", "ki_blaster", &[]);
    stage(&mut b, 0, |f| {
        f.conditions.0.push(ConditionInstance {
            kind: ConditionKind::Rage,
            source: None,
            source_tier: 2,
            stacks: 1,
            amount: 0,
            expires: Expiry::EndOfTurn {
                round: 1,
                of: CombatantId(0),
            },
            failures: 0,
            category: None,
        });
        f.actions.steady = 1;
        f.actions.steady_round = 2;
    });
    let got = end_turns(&mut b, 2);
    assert_contains(
        &got,
        &[
            "Brawler has 1 Standard and 0 Counter Actions (its Steady Momentum action unused; after Rage: 1 Action in all and Guard Down).",
        ],
    );
    let brawler = b.fighter(CombatantId(0)).unwrap();
    assert_eq!(brawler.actions.usable(), 1);
}

#[test]
fn dbu_power_up_under_weakened_adds_its_quarter_of_the_halved_capacity() {
    // Found by the soak: Power Up added a quarter of the unreduced Maximum Capacity (9) to a
    // Weakened unit whose maximum is halved, leaving Capacity 27 above its maximum 22.
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[]);
    grant(
        &mut b,
        0,
        ConditionKind::Weakened,
        None,
        0,
        Expiry::UntilEnded,
    );
    let before = b.fighter(CombatantId(0)).unwrap().capacity.current;
    assert_eq!(before, 18, "Capacity 36 halved");
    let got = run(
        &mut b,
        Command::PowerUp {
            who: CombatantId(0),
        },
    );
    let f = b.fighter(CombatantId(0)).unwrap();
    let max = f.derived(&rules).max_capacity;
    assert_eq!(max, (36 + 9) / 2);
    assert_eq!(f.capacity.current, before + (max - 18));
    assert!(f.capacity.current <= max, "{got:#?}");
}

#[test]
fn dbu_when_rage_ends_fatigued_holds_again_and_ki_comes_down_to_its_maximum() {
    // Found by the soak: a Fatigued unit that filled its Ki while Raging (Rage ignores
    // negative conditions) kept it above the halved maximum once Rage ended.
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[]);
    grant(
        &mut b,
        0,
        ConditionKind::Fatigued,
        None,
        0,
        Expiry::UntilEnded,
    );
    stage(&mut b, 0, |f| {
        f.conditions.0.push(ConditionInstance {
            kind: ConditionKind::Rage,
            source: None,
            source_tier: 2,
            stacks: 1,
            amount: 0,
            expires: Expiry::EndOfTurn {
                round: 1,
                of: CombatantId(0),
            },
            failures: 0,
            category: None,
        });
        f.ki.current = 90;
    });
    assert_eq!(
        b.fighter(CombatantId(0)).unwrap().derived(&rules).max_ki,
        98
    );
    let got = end_turns(&mut b, 1);
    let f = b.fighter(CombatantId(0)).unwrap();
    assert_eq!(f.derived(&rules).max_ki, 49);
    assert_eq!(f.ki.current, 49, "{got:#?}");
    assert!(
        got.iter()
            .any(|l| l.contains("Brawler Ki 90 -> 49 (maximum Ki reduced)")),
        "{got:#?}"
    );
}
