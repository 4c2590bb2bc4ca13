//! Damage categories and Soak.

use gridclash::battle::components::CombatantId;
use gridclash::ruleset::ConditionKind;

use crate::common::*;

#[test]
fn dbu_standard_damage_subtracts_the_whole_soak() {
    let mut b = duel("brawler", "tank", &[8, 2, 2, 2, 4, 3]);
    let got = run(&mut b, hit(0, "simple", 1));
    // The Large Tank: Soak = TE 8 + 1(T) size = 10; Defense Value = AG 4 - 1(T) = 2.
    assert_contains(
        &got,
        &[
            "Tank: Dodge 6 = d10:2 + d4:2 [ToP 2 Extra Dice] + Defense Value 2",
            "Strike 16 beats 6: Brawler hits Tank.",
            "Brawler: Wound 15 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8",
            "Tank takes 5 Standard damage (Wound 15 - Soak 10 of 10).",
        ],
    );
}

#[test]
fn dbu_direct_damage_halves_soak() {
    // Soaring is Direct: Soak 10 counts as 5.
    let mut b = duel("brawler", "tank", &[8, 2, 2, 2, 4, 3]);
    let got = run(&mut b, hit(0, "soaring", 1));
    assert_contains(
        &got,
        &["Tank takes 10 Direct damage (Wound 15 - Soak 5 of 10)."],
    );
}

#[test]
fn dbu_lethal_ignores_soak() {
    let mut b = duel("brawler", "tank", &[8, 2, 2, 2, 1, 1]);
    let got = run(&mut b, hit(0, "crushing", 1));
    assert_contains(
        &got,
        &["Tank takes 10 Lethal damage (Wound 10 - Soak 0 of 10)."],
    );
}

#[test]
fn dbu_damage_is_never_negative() {
    let mut b = duel("grunt", "tank", &[9, 2, 1, 2]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Grunt: Wound 8 = d10:2 + Force (FO 6) 6",
            "Tank takes 0 Standard damage (Wound 8 - Soak 10 of 10).",
            "Tank's Diminishing Defense: -1 (now -1).",
        ],
    );
    assert_eq!(b.fighter(CombatantId(1)).unwrap().life.current, 213);
}

#[test]
fn dbu_soak_minimum_is_one_t_plus_one() {
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[]);
    let mut f = b.fighter(CombatantId(0)).unwrap();
    assert_eq!(f.derived(&rules).soak, 6);
    std::sync::Arc::make_mut(&mut f.attributes.0).insert("TE".into(), 1);
    // TE 1 is below 1(T) + 1 = 3 at ToP 2.
    assert_eq!(f.derived(&rules).soak, 3);
    f.power.tier = 4;
    assert_eq!(f.derived(&rules).soak, 5);
}

#[test]
fn dbu_soak_minimum_comes_before_size_which_may_lower_it() {
    // "this Minimum Soak Value can be reduced through other factors": a Small unit's −1(T)
    // Soak is taken off after the 1(T) + 1 floor, a Large unit's +1(T) added to it.
    let rules = rules();
    let mut b = duel("brawler", "ki_blaster", &[]);
    let mut f = b.fighter(CombatantId(0)).unwrap();
    std::sync::Arc::make_mut(&mut f.attributes.0).insert("TE".into(), 1);
    f.size.id = "Small".into();
    // ToP 2: the floor 3, less 2 for Small.
    assert_eq!(f.derived(&rules).soak, 1);
    f.size.id = "Large".into();
    assert_eq!(f.derived(&rules).soak, 5);
    // A Tenacity above the floor keeps its size's part as before.
    std::sync::Arc::make_mut(&mut f.attributes.0).insert("TE".into(), 6);
    f.size.id = "Small".into();
    assert_eq!(f.derived(&rules).soak, 4);
}

#[test]
fn dbu_pinned_raises_the_damage_category_by_one() {
    let mut b = duel("brawler", "tank", &[8, 2, 2, 2, 4, 3]);
    give(&mut b, 1, ConditionKind::Pinned, None);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &["Tank takes 10 Direct damage (Wound 15 - Soak 5 of 10) [Pinned: +1 Damage Category]."],
    );
}

#[test]
fn dbu_damage_category_changes_clamp_at_lethal() {
    // Crushing is already Lethal; Pinned's +1 cannot go past 3.
    let mut b = duel("brawler", "tank", &[8, 2, 2, 2, 1, 1]);
    give(&mut b, 1, ConditionKind::Pinned, None);
    let got = run(&mut b, hit(0, "crushing", 1));
    assert_contains(
        &got,
        &["Tank takes 10 Lethal damage (Wound 10 - Soak 0 of 10) [Pinned: +1 Damage Category]."],
    );
}

#[test]
fn dbu_prone_makes_all_damage_lethal_and_guard_down() {
    let mut b = duel("brawler", "tank", &[8, 2, 5, 2, 2, 4, 3]);
    give(&mut b, 1, ConditionKind::Prone, None);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Tank: Dodge 2 = d10:5 (discarded) [Base die, Penalization: Guard Down (Prone): keep the lower] + d10:2 [Base die, Penalization: Guard Down (Prone): keep the lower] + d4:2 [ToP 2 Extra Dice] + Defense Value 2 - Guard Down (Prone) 4",
            "Strike 16 beats 2: Brawler hits Tank.",
            "Brawler: Wound 15 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 8) 8",
            "Tank takes 15 Lethal damage (Wound 15 - Soak 0 of 10) [Prone: all damage is Lethal].",
        ],
    );
    assert_dice_used(&b);
}

#[test]
fn dbu_melee_weapon_adds_its_damage_on_top_of_the_force_modifier() {
    // "A Physical Attack can either use a Melee Weapon or your own fist … Add your Force
    // Modifier to the Wound Roll": the Swordsman's sword adds its 2(T) to Force.
    let mut b = duel("swordsman", "tank", &[8, 2, 2, 2, 4, 3]);
    let got = run(&mut b, hit(0, "simple", 1));
    assert_contains(
        &got,
        &[
            "Swordsman: Wound 18 = d10:4 + d4:3 [ToP 2 Extra Dice] + Force (FO 7) 7 + Sword 4",
            "Tank takes 8 Standard damage (Wound 18 - Soak 10 of 10).",
        ],
    );
}
