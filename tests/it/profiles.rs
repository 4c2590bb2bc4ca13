//! Every attack profile's special rule.

use gridclash::battle::command::{AttackTarget, Command, RuleError};
use gridclash::battle::components::{CombatantId, Square};
use gridclash::grid::Dir8;
use gridclash::ruleset::ConditionKind;

use crate::common::*;

#[test]
fn dbu_combination_counts_hits_of_two_damage() {
    // 1d8 + 1d4(T) = 1d8 + 2d4 hits: 5 + 3 + 4 = 12 hits, 24 damage, + Force 8.
    let mut b = duel("brawler", "ki_blaster", &[8, 2, 2, 2, 5, 3, 4]);
    let got = run(&mut b, hit(0, "combination", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Wound 32 = 2 x (d8:5 [Hits (Combination)] + d4:3 [Hits (Combination)] + d4:4 [Hits (Combination)]) + Force (FO 8) 8",
            "Ki Blaster takes 28 Standard damage (Wound 32 - Soak 4 of 4).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_rapid_fire_counts_hits_of_two_damage() {
    let mut b = duel("ki_blaster", "brawler", &[8, 2, 2, 2, 1, 1, 1]);
    let got = run(&mut b, hit(0, "rapid_fire", 1));
    assert_contains(
        &got,
        &["Ki Blaster attacks Brawler with Rapid Fire: Ki cost 12, wager 0."],
    );
    assert_contains(
        &got,
        &[
            "Ki Blaster: Wound 13 = 2 x (d8:1 [Hits (Rapid Fire)] + d4:1 [Hits (Rapid Fire)] + d4:1 [Hits (Rapid Fire)]) + Force (FO 7) 7",
            "Brawler takes 7 Standard damage (Wound 13 - Soak 6 of 6).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_powered_adds_force_a_second_time() {
    let mut b = duel("brawler", "ki_blaster", &[8, 2, 2, 2, 4, 3]);
    let got = run(&mut b, hit(0, "powered", 1));
    assert_contains(
        &got,
        &["Brawler attacks Ki Blaster with Powered: Ki cost 8, wager 0."],
    );
    assert_contains(
        &got,
        &[
            "Brawler: Wound 23 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8 + Force (FO 8) again (Powered) 8",
            "Ki Blaster takes 19 Standard damage (Wound 23 - Soak 4 of 4).",
        ],
    );
}

#[test]
fn dbu_crushing_rolls_1d6_t_instead_of_the_wound_and_deals_lethal_damage() {
    let mut b = duel("brawler", "ki_blaster", &[8, 2, 2, 2, 3, 5]);
    let got = run(&mut b, hit(0, "crushing", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Wound 16 = d6:3 [Wound dice (Crushing)] + d6:5 [Wound dice (Crushing)] + Force (FO 8) 8",
            "Ki Blaster takes 16 Lethal damage (Wound 16 - Soak 0 of 4).",
        ],
    );
    assert_dice_used(&b);
}

fn sweep_battle(extra: &[u32]) -> gridclash::battle::Battle {
    // Brawler (0) with an ally Gunner (4) behind it; Ki Blaster (1) and Grunt (2) in reach,
    // Mage (3) out of reach. Initiative 13, 9, 7, 4 (Mage) and 4 (Gunner, higher Agility).
    let mut faces = vec![10, 6, 4, 2, 1];
    faces.extend_from_slice(extra);
    battle(
        vec![
            unit("brawler", 0, 5, 5),
            unit("ki_blaster", 1, 6, 5),
            unit("grunt", 1, 5, 6),
            unit("mage", 1, 8, 5),
            unit("gunner", 0, 4, 5),
        ],
        &faces,
    )
}

#[test]
fn dbu_sweeping_strikes_every_opponent_in_reach_with_one_strike_and_one_wound() {
    let mut b = sweep_battle(&[6, 2, 5, 2, 9, 4, 3]);
    let got = run(
        &mut b,
        Command::Attack(attack(0, "sweeping", AttackTarget::InReach)),
    );
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on an attack (Sweeping).",
            "Brawler attacks Ki Blaster, Grunt with Sweeping: Ki cost 8, wager 0.",
            "Brawler Ki 98 -> 90 (Ki cost 8 + wager 0).",
            "Brawler Capacity 36 -> 28 (Ki spent this round).",
            "Ki Blaster will Dodge.",
            "Grunt will Dodge.",
            "Brawler: Strike 14 = d10:6 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3",
            "Ki Blaster: Dodge 13 = d10:5 + d4:2 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 14 beats 13: Brawler hits Ki Blaster.",
            "Grunt: Dodge 15 = d10:9 + Defense Value 6",
            "Strike 14 against 15: Brawler misses Grunt (the defender wins ties).",
            "Brawler: Wound 15 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8",
            "Ki Blaster takes 11 Standard damage (Wound 15 - Soak 4 of 4).",
            "Ki Blaster Life 168 -> 157 (Brawler's Sweeping).",
            "Ki Blaster has -2 Defense Value until the start of Brawler's next turn (Sweeping).",
            "Ki Blaster's Diminishing Defense: -1 (now -1).",
            "Grunt's Diminishing Defense: -1 (now -1).",
            "Brawler's attack ends.",
        ]
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_sweeping_lowers_defense_until_the_start_of_the_attackers_next_turn() {
    let mut b = sweep_battle(&[6, 2, 5, 2, 9, 4, 3, 5, 2, 5, 1]);
    run(
        &mut b,
        Command::Attack(attack(0, "sweeping", AttackTarget::InReach)),
    );
    // The next attack against the Ki Blaster sees the reduction and Diminishing Defense.
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Dodge 9 = d10:5 + d4:1 [ToP 2 Extra Dice] + Defense Value 6 - Diminishing Defense 1 - Brawler's Sweeping 2",
        ],
    );
    assert_eq!(b.fighter(CombatantId(1)).unwrap().defense.changes.len(), 1);
    // Everyone ends their turns; at the start of the Brawler's next turn it is gone.
    for _ in 0..5 {
        let who = b.active().unwrap();
        b.submit(Command::EndTurn { who }).unwrap();
    }
    assert_eq!(b.active(), Some(CombatantId(0)));
    assert!(
        b.fighter(CombatantId(1))
            .unwrap()
            .defense
            .changes
            .is_empty()
    );
}

#[test]
fn dbu_sweeping_needs_no_target_and_hits_no_allies() {
    let mut b = sweep_battle(&[]);
    assert!(matches!(
        b.submit(hit(0, "sweeping", 1)),
        Err(RuleError::WrongTarget { .. })
    ));
    let targets = b
        .preview(&attack(0, "sweeping", AttackTarget::InReach))
        .unwrap()
        .targets;
    assert_eq!(targets, vec![CombatantId(1), CombatantId(2)]);
}

#[test]
fn dbu_sphere_targets_a_single_enemy() {
    let mut b = sweep_battle(&[]);
    assert_eq!(
        b.submit(hit(0, "sphere", 4)),
        Err(RuleError::NotAnOpponent(CombatantId(4)))
    );
    assert_eq!(
        b.submit(hit(0, "sphere", 0)),
        Err(RuleError::SelfTarget(CombatantId(0)))
    );
}

#[test]
fn dbu_kiai_lowers_critical_targets_by_one() {
    // Natural 9s crit on both the Strike and the Wound.
    let mut b = duel("ki_blaster", "brawler", &[9, 1, 4, 2, 2, 9, 1, 3]);
    let got = run(&mut b, hit(0, "kiai", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Strike 22 = d10:9 CRIT + d4:1 [ToP 2 Extra Dice] + d8:4 [ToP 2 Critical Dice] + Haste (AG 6 / 2) 3 + Awareness 5",
        ],
    );
    assert_contains(
        &got,
        &[
            "Ki Blaster: Wound 20 = d10:9 CRIT + d4:1 [ToP 2 Extra Dice] + d8:3 [ToP 2 Critical Dice] + Force (FO 7) 7",
            "Brawler takes 14 Standard damage (Wound 20 - Soak 6 of 6).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_kiai_against_guard_down_adds_two_t_and_pushes_up_to_half_force() {
    let mut b = duel("ki_blaster", "brawler", &[5, 1, 7, 3, 2, 4, 2]);
    give(&mut b, 1, ConditionKind::GuardDown, None);
    let got = run(&mut b, hit(0, "kiai", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Dodge 7 = d10:7 (discarded) [Base die, Penalization: Guard Down: keep the lower] + d10:3 [Base die, Penalization: Guard Down: keep the lower] + d4:2 [ToP 2 Extra Dice] + Defense Value 6 - Guard Down 4",
            "Strike 14 beats 7: Ki Blaster hits Brawler.",
            "Brawler is pushed from (6, 5) to (9, 5).",
            "Ki Blaster: Wound 17 = d10:4 + d4:2 [ToP 2 Extra Dice] + Force (FO 7) 7 + Kiai against Guard Down 4",
            "Brawler takes 11 Standard damage (Wound 17 - Soak 6 of 6).",
        ],
    );
    assert_eq!(
        b.fighter(CombatantId(1)).unwrap().position,
        Some(Square::new(9, 5))
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_kiai_push_stops_at_an_occupied_square() {
    let mut b = battle(
        vec![
            unit("ki_blaster", 0, 5, 5),
            unit("brawler", 1, 6, 5),
            unit("tank", 1, 8, 5),
        ],
        &[10, 1, 2, 5, 1, 7, 3, 2, 4, 2],
    );
    give(&mut b, 1, ConditionKind::GuardDown, None);
    let got = run(&mut b, hit(0, "kiai", 1));
    assert_contains(&got, &["Brawler is pushed from (6, 5) to (7, 5)."]);
}

#[test]
fn dbu_blast_cone_hits_everyone_in_it_friend_or_foe_with_one_wound() {
    // A cone east from (5, 5): (6,5); (7,4..6); (8,3..7). The Gunner ally at (7, 4) is hit too.
    let mut b = battle(
        vec![
            unit("ki_blaster", 0, 5, 5),
            unit("brawler", 1, 6, 5),
            unit("gunner", 0, 7, 4),
            unit("mage", 1, 9, 5),
        ],
        &[10, 6, 3, 1, 9, 4, 2, 2, 3, 3, 4, 3],
    );
    let got = run(&mut b, cone(0, "blast", Dir8::E));
    assert_contains(
        &got,
        &["Ki Blaster attacks Brawler, Gunner with Blast: Ki cost 8, wager 0."],
    );
    assert_contains(
        &got,
        &[
            "Ki Blaster: Strike 21 = d10:9 + d4:4 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 5",
            "Brawler: Dodge 10 = d10:2 + d4:2 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 21 beats 10: Ki Blaster hits Brawler.",
            "Gunner: Dodge 13 = d10:3 + d4:3 [ToP 2 Extra Dice] + Defense Value 7",
            "Strike 21 beats 13: Ki Blaster hits Gunner.",
            "Ki Blaster: Wound 14 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 7) 7",
            "Brawler takes 8 Standard damage (Wound 14 - Soak 6 of 6).",
        ],
    );
    assert_contains(
        &got,
        &["Gunner takes 10 Standard damage (Wound 14 - Soak 4 of 4)."],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_blast_with_a_single_target_adds_1d4_t_to_the_wound() {
    let mut b = duel("ki_blaster", "brawler", &[9, 4, 2, 2, 4, 3, 1, 2]);
    let got = run(&mut b, cone(0, "blast", Dir8::E));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Wound 17 = d10:4 + d4:3 [ToP 2 Extra Dice] + d4:1 [Blast single target] + d4:2 [Blast single target] + Force (FO 7) 7",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_explosion_hits_all_within_three_squares_but_the_attacker_with_lower_defense() {
    // Centre (8, 5): the Brawler (6, 5) and the Grunt (11, 5) are within 3, the Mage (12, 5)
    // is not, and the attacker at (5, 5) is inside the area but never a target.
    let mut b = battle(
        vec![
            unit("ki_blaster", 0, 5, 5),
            unit("brawler", 1, 6, 5),
            unit("grunt", 1, 11, 5),
            unit("mage", 1, 12, 5),
        ],
        &[10, 6, 3, 1, 7, 2, 5, 3, 8, 4, 3],
    );
    let got = run(
        &mut b,
        Command::Attack(attack(
            0,
            "explosion",
            AttackTarget::Square(Square::new(8, 5)),
        )),
    );
    assert_contains(
        &got,
        &["Ki Blaster attacks Brawler, Grunt with Explosion: Ki cost 12, wager 0."],
    );
    assert_contains(
        &got,
        &[
            "Ki Blaster: Strike 17 = d10:7 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 5",
            "Brawler: Dodge 12 = d10:5 + d4:3 [ToP 2 Extra Dice] + Defense Value 6 - Explosion (Defense Value) 2",
            "Strike 17 beats 12: Ki Blaster hits Brawler.",
            "Grunt: Dodge 12 = d10:8 + Defense Value 6 - Explosion (Defense Value) 2",
            "Strike 17 beats 12: Ki Blaster hits Grunt.",
            "Ki Blaster: Wound 14 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 7) 7",
            "Brawler takes 8 Standard damage (Wound 14 - Soak 6 of 6).",
            "Brawler Life 183 -> 175 (Ki Blaster's Explosion).",
            "Grunt takes 9 Standard damage (Wound 14 - Soak 5 of 5).",
        ],
    );
}

#[test]
fn dbu_beam_deals_direct_damage_with_a_free_energy_charge() {
    let mut b = duel("ki_blaster", "brawler", &[9, 4, 2, 2, 5, 2, 3, 4]);
    let got = run(&mut b, hit(0, "beam", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Wound 21 = d10:5 + d4:2 [ToP 2 Extra Dice] + d6:3 [Energy Charge (Beam)] + d6:4 [Energy Charge (Beam)] + Force (FO 7) 7",
            "Brawler takes 18 Direct damage (Wound 21 - Soak 3 of 6).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_cutting_botches_on_three_or_lower() {
    let mut b = duel("ki_blaster", "brawler", &[3, 4, 2, 2]);
    let got = run(&mut b, hit(0, "cutting", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Strike 11 = d10:3 BOTCH + d4:4 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 5 - Botch (natural 3 <= 3) 4",
        ],
    );
}

#[test]
fn dbu_cutting_crits_on_eight_and_a_critical_strike_deals_lethal_damage() {
    let mut b = duel("ki_blaster", "brawler", &[8, 1, 2, 2, 2, 5, 2]);
    let got = run(&mut b, hit(0, "cutting", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Strike 19 = d10:8 CRIT + d4:1 [ToP 2 Extra Dice] + d8:2 [ToP 2 Critical Dice] + Haste (AG 6 / 2) 3 + Awareness 5",
        ],
    );
    assert_contains(
        &got,
        &[
            "Brawler takes 14 Lethal damage (Wound 14 - Soak 0 of 6) [critical Cutting Strike: Lethal].",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_elemental_deals_direct_damage_and_gives_the_elements_condition() {
    let mut b = duel("mage", "brawler", &[7, 3, 2, 2, 6, 1]);
    let mut order = attack(0, "elemental", AttackTarget::Combatant(CombatantId(1)));
    order.element = Some("fire".into());
    let got = run(&mut b, Command::Attack(order.clone()));
    assert_contains(
        &got,
        &["Mage attacks Brawler with Elemental [Fire]: Ki cost 20, wager 0."],
    );
    assert_contains(
        &got,
        &[
            "Brawler takes 12 Direct damage (Wound 15 - Soak 3 of 6).",
            "Brawler Life 183 -> 171 (Mage's Elemental).",
            "Brawler gains DamageOverTime (2 per turn) from Mage, until the end of Mage's turn in round 3.",
        ],
    );
    let mut fresh = duel("mage", "brawler", &[]);
    order.element = None;
    assert!(matches!(
        fresh.submit(Command::Attack(order.clone())),
        Err(RuleError::ElementNeeded { .. })
    ));
    order.element = Some("wind".into());
    assert!(matches!(
        fresh.submit(Command::Attack(order)),
        Err(RuleError::BadElement { .. })
    ));
}

#[test]
fn dbu_spiritual_assault_drains_a_quarter_of_the_damage_as_ki() {
    let mut b = duel("mage", "brawler", &[7, 3, 2, 2, 6, 1]);
    let got = run(&mut b, hit(0, "spiritual_assault", 1));
    assert_contains(
        &got,
        &[
            "Brawler takes 9 Standard damage (Wound 15 - Soak 6 of 6).",
            "Brawler Life 183 -> 174 (Mage's Spiritual Assault).",
            "Brawler Ki 98 -> 96 (Spiritual Assault drains 1/4 of the damage).",
        ],
    );
}

#[test]
fn dbu_basic_attack_profiles_once_per_round_except_simple() {
    let mut b = duel(
        "brawler",
        "ki_blaster",
        &[1, 1, 9, 4, 1, 1, 9, 4, 1, 1, 9, 4],
    );
    run(&mut b, hit(0, "powered", 1));
    assert!(matches!(
        b.submit(hit(0, "powered", 1)),
        Err(RuleError::ProfileUsedThisRound { .. })
    ));
    run(&mut b, hit(0, "simple", 1));
    run(&mut b, hit(0, "simple", 1));
}

#[test]
fn dbu_signature_technique_once_per_round_with_its_bonus() {
    let mut b = duel("brawler", "ki_blaster", &[8, 2, 2, 2, 4, 3]);
    let mut order = attack(0, "powered", AttackTarget::Combatant(CombatantId(1)));
    order.technique = Some("reckless_haymaker".into());
    let got = run(&mut b, Command::Attack(order.clone()));
    assert_contains(
        &got,
        &["Brawler attacks Ki Blaster with Reckless Haymaker (Powered): Ki cost 8, wager 0."],
    );
    assert_contains(
        &got,
        &[
            "Brawler: Wound 27 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8 + Force (FO 8) again (Powered) 8 + Reckless Haymaker 4",
            "Ki Blaster takes 23 Standard damage (Wound 27 - Soak 4 of 4).",
            "Ki Blaster Life 168 -> 145 (Brawler's Powered).",
            "Brawler Life 183 -> 179 (Backlash).",
        ],
    );
    assert_eq!(
        b.submit(Command::Attack(order)),
        Err(RuleError::TechniqueUsedThisRound)
    );
}

#[test]
fn dbu_sweeping_lowers_defense_only_once_per_round() {
    // A second damaging Sweeping in the same round (the profile limit lifted for the test)
    // lowers no Defense Value again.
    let mut b = sweep_battle(&[6, 2, 5, 2, 9, 4, 3, 6, 2, 1, 1, 9, 4, 3]);
    run(
        &mut b,
        Command::Attack(attack(0, "sweeping", AttackTarget::InReach)),
    );
    stage(&mut b, 0, |f| f.round.profiles_used.clear());
    let got = run(
        &mut b,
        Command::Attack(attack(0, "sweeping", AttackTarget::InReach)),
    );
    assert_contains(&got, &["Ki Blaster Life 157 -> 146 (Brawler's Sweeping)."]);
    assert!(!got.iter().any(|l| l.contains("Defense Value until")));
    assert_eq!(b.fighter(CombatantId(1)).unwrap().defense.changes.len(), 1);
}

#[test]
fn dbu_on_damage_effects_need_damage_past_soak() {
    // Wound 6 against the Tank's halved Soak 5 deals 1: Fire burns.
    let mut b = duel("mage", "tank", &[7, 3, 2, 2, 1, 1]);
    let mut o = attack(0, "elemental", AttackTarget::Combatant(CombatantId(1)));
    o.element = Some("fire".into());
    let got = run(&mut b, Command::Attack(o));
    assert_contains(
        &got,
        &[
            "Tank takes 1 Direct damage (Wound 6 - Soak 5 of 10).",
            "Tank Life 213 -> 212 (Mage's Elemental).",
            "Tank gains DamageOverTime (2 per turn) from Mage, until the end of Mage's turn in round 3.",
        ],
    );
    // Wound 6 against the full Soak 10 deals nothing: Spiritual Assault drains no Ki.
    let mut b = duel("mage", "tank", &[7, 3, 2, 2, 1, 1]);
    let got = run(&mut b, hit(0, "spiritual_assault", 1));
    assert_contains(
        &got,
        &[
            "Tank takes 0 Standard damage (Wound 6 - Soak 10 of 10).",
            "Tank's Diminishing Defense: -1 (now -1).",
        ],
    );
    assert_eq!(b.fighter(CombatantId(1)).unwrap().ki.current, 98);
}

#[test]
fn dbu_kiai_push_distance_may_be_chosen_up_to_half_force() {
    let mut b = duel("ki_blaster", "brawler", &[5, 1, 7, 3, 2, 4, 2]);
    give(&mut b, 1, ConditionKind::GuardDown, None);
    let mut o = attack(0, "kiai", AttackTarget::Combatant(CombatantId(1)));
    o.push = Some(1);
    let got = run(&mut b, Command::Attack(o));
    assert_contains(&got, &["Brawler is pushed from (6, 5) to (7, 5)."]);
}

#[test]
fn dbu_elemental_fire_burns_with_direct_damage() {
    // "All damage inflicted by an Elemental Signature Technique is Direct Damage": the Damage
    // Over Time its Fire leaves too (Direct halves Soak: 2 against 3 of 6 does nothing).
    let mut b = duel("mage", "brawler", &[7, 3, 2, 2, 6, 1]);
    let mut order = attack(0, "elemental", AttackTarget::Combatant(CombatantId(1)));
    order.element = Some("fire".into());
    run(&mut b, Command::Attack(order));
    let got = run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(0),
        },
    );
    assert_contains(
        &got,
        &["Brawler takes 0 Direct damage (Wound 2 - Soak 3 of 6) [Damage Over Time]."],
    );
    assert_eq!(b.fighter(CombatantId(1)).unwrap().life.current, 171);
}

#[test]
fn dbu_no_bonus_momentum_for_knocking_an_ally_through_a_threshold() {
    // "Knock an Opponent through a Health Threshold": the Brawler, an ally, alone in the
    // Ki Blaster's Explosion.
    let mut b = battle(
        vec![
            unit("ki_blaster", 0, 5, 5),
            unit("brawler", 0, 6, 5),
            unit("tank", 1, 15, 5),
        ],
        &[10, 6, 1, 7, 2, 1, 1, 9, 4, 7],
    );
    set_life(&mut b, 1, 95);
    let got = run(
        &mut b,
        Command::Attack(attack(
            0,
            "explosion",
            AttackTarget::Square(Square::new(8, 5)),
        )),
    );
    assert_contains(&got, &["Brawler reaches the Bloodied threshold."]);
    assert!(
        !got.iter().any(|l| l.contains("Bonus Momentum")),
        "{got:#?}"
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_explosion_template_is_every_square_within_three_and_holds_its_targets() {
    // The template a player sees is the area resolution searches: 7 x 7 squares around the
    // chosen square, with the Brawler and the Grunt inside and the Mage outside.
    let mut b = battle(
        vec![
            unit("ki_blaster", 0, 5, 5),
            unit("brawler", 1, 6, 5),
            unit("grunt", 1, 11, 5),
            unit("mage", 1, 12, 5),
        ],
        &[10, 6, 3, 1],
    );
    let order = attack(0, "explosion", AttackTarget::Square(Square::new(8, 5)));
    let rules = b.rules().clone();
    let me = b.fighter(CombatantId(0)).expect("attacker");
    let squares = gridclash::battle::attack::template(&rules, &b.field(), &me, &order)
        .expect("legal")
        .expect("an area");
    let mut want: Vec<Square> = (2..=8)
        .flat_map(|y| (5..=11).map(move |x| Square::new(x, y)))
        .collect();
    want.sort();
    let mut got = squares.clone();
    got.sort();
    assert_eq!(got, want);
    let targets = b.preview(&order).expect("legal").targets;
    assert_eq!(targets, vec![CombatantId(1), CombatantId(2)]);
    // A single-target profile has no template.
    let single = attack(0, "simple", AttackTarget::Combatant(CombatantId(1)));
    assert_eq!(
        gridclash::battle::attack::template(&rules, &b.field(), &me, &single),
        Ok(None)
    );
}
