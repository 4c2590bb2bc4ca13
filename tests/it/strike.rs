//! Strike against Dodge: the dice of a Combat Roll, criticals, botches, ties, ranges, Ki costs
//! and wagers.

use gridclash::battle::command::RuleError;
use gridclash::battle::components::CombatantId;

use crate::common::*;

#[test]
fn dbu_defender_wins_ties() {
    // Strike 5 + 2 + Haste 3 + Awareness 3 = 13; Dodge 5 + 2 + Defense Value 6 = 13.
    let mut b = duel("brawler", "ki_blaster", &[5, 2, 5, 2]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_eq!(
        got,
        [
            "Brawler spends a Standard Action on an attack (Simple).",
            "Brawler attacks Ki Blaster with Simple: Ki cost 0, wager 0.",
            "Ki Blaster will Dodge.",
            "Brawler: Strike 13 = d10:5 + d4:2 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3",
            "Ki Blaster: Dodge 13 = d10:5 + d4:2 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 13 against 13: Brawler misses Ki Blaster (the defender wins ties).",
            "Ki Blaster's Diminishing Defense: -1 (now -1).",
            "Brawler's attack ends.",
        ]
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_higher_strike_hits_and_wound_adds_force() {
    // Strike 14 beats Dodge 13; Wound 4 + 3 + Force 8 = 15, less Soak 4 = 11 damage.
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 5, 2, 4, 3]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Strike 14 beats 13: Brawler hits Ki Blaster.",
            "Brawler: Wound 15 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8",
            "Ki Blaster takes 11 Standard damage (Wound 15 - Soak 4 of 4).",
            "Ki Blaster Life 168 -> 157 (Brawler's Simple).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_critical_result_adds_the_tiers_critical_dice() {
    // A natural 10 adds ToP 2's Critical Dice (1d8): 10 + 1 + 5 + 6 = 22.
    let mut b = duel("brawler", "ki_blaster", &[10, 1, 5, 9, 4, 2, 1]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Strike 22 = d10:10 CRIT + d4:1 [ToP 2 Extra Dice] + d8:5 [ToP 2 Critical Dice] + Haste (AG 6 / 2) 3 + Awareness 3",
            "Ki Blaster: Dodge 19 = d10:9 + d4:4 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 22 beats 19: Brawler hits Ki Blaster.",
            "Brawler: Wound 11 = d10:2 + d4:1 [ToP 2 Extra Dice] + Force (FO 8) 8",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_critical_strike_can_still_lose_to_a_higher_dodge() {
    // No automatic hit: 10 + 1 + 1 + 6 = 18 loses to a critical Dodge 10 + 4 + 8 + 6 = 28.
    let mut b = duel("brawler", "ki_blaster", &[10, 1, 1, 10, 4, 8]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Dodge 28 = d10:10 CRIT + d4:4 [ToP 2 Extra Dice] + d8:8 [ToP 2 Critical Dice] + Defense Value 6",
            "Strike 18 against 28: Brawler misses Ki Blaster (the defender wins ties).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_botch_takes_two_bt_off_the_roll() {
    // A natural 1 botches: -2(bT) = -4 at base ToP 2.
    let mut b = duel("brawler", "ki_blaster", &[1, 4, 2, 1]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Strike 7 = d10:1 BOTCH + d4:4 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 3 - Botch (natural 1 <= 1) 4",
            "Ki Blaster: Dodge 9 = d10:2 + d4:1 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 7 against 9: Brawler misses Ki Blaster (the defender wins ties).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_tier_one_rolls_no_extra_dice() {
    // The Grunt is a Minion: base ToP 2 - 1 = 1, which has no Extra Dice.
    let mut b = duel("grunt", "brawler", &[6, 5, 3]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Grunt: Strike 13 = d10:6 + Haste (AG 6 / 2) 3 + Awareness 4",
            "Brawler: Dodge 14 = d10:5 + d4:3 [ToP 2 Extra Dice] + Defense Value 6",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_tier_three_rolls_1d6_extra_and_1d10_critical_dice() {
    let mut b = duel("champion", "brawler", &[10, 3, 7, 1, 1, 5, 2]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Champion: Strike 27 = d10:10 CRIT + d6:3 [ToP 3 Extra Dice] + d10:7 [ToP 3 Critical Dice] + Haste (AG 7 / 2) 3 + Awareness 4",
            "Brawler: Dodge 4 = d10:1 BOTCH + d4:1 [ToP 2 Extra Dice] + Defense Value 6 - Botch (natural 1 <= 1) 4",
            "Strike 27 beats 4: Champion hits Brawler.",
            "Champion: Wound 16 = d10:5 + d6:2 [ToP 3 Extra Dice] + Force (FO 9) 9",
            "Brawler takes 10 Standard damage (Wound 16 - Soak 6 of 6).",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_physical_attacks_only_reach_melee_range() {
    let mut b = battle(
        vec![unit("brawler", 0, 5, 5), unit("ki_blaster", 1, 8, 5)],
        &[10, 1],
    );
    let before = b.state_hash();
    assert_eq!(
        b.submit(hit(0, "simple", 1)),
        Err(RuleError::OutOfRange {
            target: CombatantId(1),
            distance: 3,
            profile: "Simple".into(),
            reach: 1,
        })
    );
    assert_eq!(b.state_hash(), before, "a refused command changes nothing");
}

#[test]
fn dbu_soaring_reaches_eight_more_squares_and_deals_direct_damage() {
    // Distance 8: in Soaring's reach (1 + 8) and not yet Long Range.
    let mut b = battle(
        vec![unit("brawler", 0, 1, 5), unit("ki_blaster", 1, 9, 5)],
        &[10, 1, 6, 2, 5, 2, 4, 3],
    );
    let got = run(&mut b, hit(0, "soaring", 1));
    assert_contains(
        &got,
        &[
            "Brawler: Wound 15 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8",
            "Ki Blaster takes 13 Direct damage (Wound 15 - Soak 2 of 4).",
        ],
    );
    let mut far = battle(
        vec![unit("brawler", 0, 0, 5), unit("ki_blaster", 1, 10, 5)],
        &[10, 1],
    );
    assert!(matches!(
        far.submit(hit(0, "soaring", 1)),
        Err(RuleError::OutOfRange {
            distance: 10,
            reach: 9,
            ..
        })
    ));
}

#[test]
fn dbu_energy_attacks_reach_any_distance_with_long_range_penalty() {
    // 19 squares away: more than 8, so the Strike takes -2(bT) = -4.
    let mut b = battle(
        vec![unit("ki_blaster", 0, 0, 0), unit("brawler", 1, 19, 11)],
        &[10, 1, 8, 4, 9, 4],
    );
    let got = run(&mut b, hit(0, "sphere", 1));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Strike 16 = d10:8 + d4:4 [ToP 2 Extra Dice] + Haste (AG 6 / 2) 3 + Awareness 5 - Long Range (19 squares > 8) 4",
            "Brawler: Dodge 19 = d10:9 + d4:4 [ToP 2 Extra Dice] + Defense Value 6",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_magical_attacks_reach_eight_squares() {
    let mut b = battle(
        vec![unit("mage", 0, 0, 5), unit("brawler", 1, 8, 5)],
        &[10, 1, 2, 1, 9, 4],
    );
    run(&mut b, hit(0, "spell", 1));
    let mut far = battle(
        vec![unit("mage", 0, 0, 5), unit("brawler", 1, 9, 5)],
        &[10, 1],
    );
    assert!(matches!(
        far.submit(hit(0, "spell", 1)),
        Err(RuleError::OutOfRange {
            distance: 9,
            reach: 8,
            ..
        })
    ));
}

#[test]
fn dbu_magical_wound_adds_the_magic_attribute() {
    // The chapter's "Spirit" is the Magic attribute.
    let mut b = duel("mage", "brawler", &[7, 3, 2, 2, 6, 1]);
    let got = run(&mut b, hit(0, "spell", 1));
    assert_contains(
        &got,
        &[
            "Mage attacks Brawler with Spell: Ki cost 4, wager 0.",
            "Mage Ki 98 -> 94 (Ki cost 4 + wager 0).",
        ],
    );
    assert_contains(
        &got,
        &[
            "Mage: Strike 18 = d10:7 + d4:3 [ToP 2 Extra Dice] + Haste (AG 4 / 2) 2 + Awareness 6",
            "Brawler: Dodge 10 = d10:2 + d4:2 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 18 beats 10: Mage hits Brawler.",
            "Mage: Wound 15 = d10:6 + d4:1 [ToP 2 Extra Dice] + Magic (MA 8) 8",
            "Brawler takes 9 Standard damage (Wound 15 - Soak 6 of 6).",
        ],
    );
}

#[test]
fn dbu_ballistic_wound_comes_from_the_weapon() {
    let mut b = duel("gunner", "brawler", &[7, 3, 2, 2, 6, 1]);
    let got = run(&mut b, hit(0, "shot", 1));
    assert_contains(
        &got,
        &[
            "Gunner: Strike 19 = d10:7 + d4:3 [ToP 2 Extra Dice] + Haste (AG 7 / 2) 3 + Awareness 6",
            "Brawler: Dodge 10 = d10:2 + d4:2 [ToP 2 Extra Dice] + Defense Value 6",
            "Strike 19 beats 10: Gunner hits Brawler.",
            "Gunner: Wound 13 = d10:6 + d4:1 [ToP 2 Extra Dice] + Blaster rifle 6",
            "Brawler takes 7 Standard damage (Wound 13 - Soak 6 of 6).",
        ],
    );
}

#[test]
fn dbu_ballistic_attacks_cannot_wager() {
    let mut b = duel("gunner", "brawler", &[]);
    let mut order = attack(
        0,
        "shot",
        gridclash::battle::command::AttackTarget::Combatant(CombatantId(1)),
    );
    order.wager = 1;
    assert_eq!(
        b.submit(gridclash::battle::command::Command::Attack(order)),
        Err(RuleError::NoWager {
            kind: "Ballistic".into()
        })
    );
}

fn wagered(
    attacker: u32,
    profile: &str,
    target: u32,
    wager: i64,
) -> gridclash::battle::command::Command {
    let mut o = attack(
        attacker,
        profile,
        gridclash::battle::command::AttackTarget::Combatant(CombatantId(target)),
    );
    o.wager = wager;
    gridclash::battle::command::Command::Attack(o)
}

#[test]
fn dbu_ki_cost_and_wager_are_paid_before_the_strike_and_lost_on_a_miss() {
    let mut b = duel("ki_blaster", "brawler", &[2, 1, 9, 4]);
    let got = run(&mut b, wagered(0, "sphere", 1, 10));
    assert_eq!(
        got[..5],
        [
            "Ki Blaster spends a Standard Action on an attack (Sphere).",
            "Ki Blaster attacks Brawler with Sphere: Ki cost 4, wager 10.",
            "Ki Blaster Ki 98 -> 84 (Ki cost 4 + wager 10).",
            "Ki Blaster Capacity 36 -> 22 (Ki spent this round).",
            "Brawler will Dodge.",
        ]
    );
    assert_contains(
        &got,
        &["Strike 11 against 19: Ki Blaster misses Brawler (the defender wins ties)."],
    );
    assert_eq!(b.fighter(CombatantId(0)).unwrap().ki.current, 84);
}

#[test]
fn dbu_ki_wager_adds_to_the_wound_roll() {
    let mut b = duel("ki_blaster", "brawler", &[9, 4, 2, 1, 5, 2]);
    let got = run(&mut b, wagered(0, "sphere", 1, 10));
    assert_contains(
        &got,
        &[
            "Ki Blaster: Wound 24 = d10:5 + d4:2 [ToP 2 Extra Dice] + Force (FO 7) 7 + Ki Wager 10",
            "Brawler takes 18 Standard damage (Wound 24 - Soak 6 of 6).",
        ],
    );
}

#[test]
fn dbu_wager_cannot_exceed_the_remaining_capacity() {
    // Beam costs 8(T) = 16; Capacity is 36, so at most 20 may be wagered.
    let mut b = duel("ki_blaster", "brawler", &[]);
    assert_eq!(
        b.submit(wagered(0, "beam", 1, 21)),
        Err(RuleError::NotEnoughCapacity { need: 37, have: 36 })
    );
    assert_eq!(b.check(&wagered(0, "beam", 1, 20)), Ok(()));
    assert_eq!(
        b.submit(wagered(0, "beam", 1, -1)),
        Err(RuleError::NegativeWager)
    );
}

#[test]
fn dbu_attack_needs_enough_ki() {
    let mut b = duel("ki_blaster", "brawler", &[]);
    stage(&mut b, 0, |f| f.ki.current = 3);
    assert_eq!(
        b.submit(hit(0, "sphere", 1)),
        Err(RuleError::NotEnoughKi { need: 4, have: 3 })
    );
}

#[test]
fn dbu_commands_out_of_turn_are_refused() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    assert_eq!(
        b.submit(hit(1, "sphere", 0)),
        Err(RuleError::NotYourTurn {
            who: CombatantId(1),
            active: CombatantId(0)
        })
    );
    assert_eq!(
        b.submit(hit(0, "beam", 1)),
        Err(RuleError::UnknownProfile {
            who: CombatantId(0),
            profile: "beam".into()
        })
    );
}
