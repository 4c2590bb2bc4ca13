//! The Digimon ruleset (the Digimon RPG's combat chapter): each rule of the text with scripted
//! dice, the exact preview against the resolution, broken files, and the AI against random
//! play.

use std::sync::Arc;

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackTarget, Command, Decision, RuleError, SkillWay};
use gridclash::battle::components::*;
use gridclash::battle::family::digimon;
use gridclash::battle::family::digimon::grapple;
use gridclash::battle::family::skill;
use gridclash::battle::fighter::Fighter;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::{DiceGroup, DiceSource, Dist, RollKind, RollSpec, distribution, roll};
use gridclash::ruleset::Rules;
use gridclash::ruleset::digimon::{DigimonData, EffectKind};

use crate::common::{Arena, ruleset};
use crate::common::{assert_contains, stage};

/// The shipped Digimon ruleset.
fn rules() -> Arc<Rules> {
    ruleset("digimon").clone()
}

/// Its Digimon data.
fn data() -> &'static DigimonData {
    ruleset("digimon").digimon().expect("a Digimon ruleset")
}

fn unit(archetype: &str, side: u8, at: (i32, i32)) -> UnitSetup {
    UnitSetup::new(archetype, side, Square::new(at.0, at.1))
}

/// A battle on open ground whose dice come from `faces` (initiative first: 3d6 for each unit
/// that rolls, in unit order; a partnered Tamer rolls none).
fn battle(units: Vec<UnitSetup>, faces: &[u32]) -> Battle {
    Arena::new("digimon")
        .size(30, 8)
        .units(units)
        .dice(faces)
        .build()
}

fn battle_on(setup: BattleSetup, faces: &[u32]) -> Battle {
    Battle::new(rules(), &setup, DiceSource::scripted(faces.iter().copied()))
        .expect("battle starts")
}

fn order(attacker: u32, profile: &str, target: u32) -> gridclash::battle::command::AttackOrder {
    crate::common::attack(
        attacker,
        profile,
        AttackTarget::Combatant(CombatantId(target)),
    )
}

/// Submits an attack and returns the lines it logged.
fn attack(b: &mut Battle, attacker: u32, profile: &str, target: u32) -> Vec<String> {
    crate::common::run(b, Command::Attack(order(attacker, profile, target)))
}

fn fighter(b: &mut Battle, id: u32) -> Fighter {
    b.fighter(CombatantId(id)).expect("combatant")
}

/// Puts an effect on combatant `id` directly.
fn give(b: &mut Battle, id: u32, kind: EffectKind, potency: i64, turns: i64, source: u32) {
    stage(b, id, |f| {
        if let Some(s) = f.digi.as_mut() {
            digimon::stack(s, kind, potency, turns, CombatantId(source));
        }
    });
}

fn end_turn(b: &mut Battle) {
    let who = b.turn().active().expect("someone acts");
    b.submit(Command::EndTurn { who }).expect("end turn");
}

/// A Greymon (0) against a Gabumon (1) beside it; Greymon wins initiative 14 to 7.
fn greymon_and_gabumon(faces: &[u32]) -> Battle {
    let mut all = vec![3, 3, 3, 1, 1, 1];
    all.extend_from_slice(faces);
    battle(
        vec![unit("greymon", 0, (1, 1)), unit("gabumon", 1, (2, 1))],
        &all,
    )
}

#[test]
fn digimon_initiative_is_3d6_plus_agility_and_ties_go_to_agility() {
    // Greymon (Agility 5) rolls 2+2+2 = 11; Garurumon (Agility 6) rolls 1+2+2 = 11: a tie on
    // the total goes to the higher Agility.
    let mut b = battle(
        vec![unit("greymon", 0, (1, 1)), unit("garurumon", 1, (9, 1))],
        &[2, 2, 2, 1, 2, 2],
    );
    let lines = crate::common::lines(&mut b, 0);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Greymon rolls Initiative 11 =") && l.contains("Agility 5")),
        "{lines:#?}"
    );
    assert_eq!(
        b.turn().order,
        vec![CombatantId(1), CombatantId(0)],
        "Garurumon's higher Agility breaks the tie"
    );
}

/// Two units on an open 30 x 8 field, with `players` the scenario's people's sides.
fn battle_with_players(units: Vec<UnitSetup>, players: &[u8], faces: &[u32]) -> Battle {
    let mut setup = BattleSetup::open(30, 8, units);
    setup.opening.players = players.to_vec();
    battle_on(setup, faces)
}

#[test]
fn digimon_initiative_ties_that_persist_go_to_the_player_characters() {
    // "If the tie still persists, the GM should give the player characters the higher turn
    // order." (003:45) Greymon (0, Agility 5) and Patamon (1, Agility 5) both roll 6 + 5 = 11;
    // Patamon's side is the people's: it goes first, with no roll-off.
    let units = || vec![unit("greymon", 0, (1, 1)), unit("patamon", 1, (9, 1))];
    let b = battle_with_players(units(), &[1], &[2, 2, 2, 2, 2, 2]);
    assert_eq!(b.turn().order, vec![CombatantId(1), CombatantId(0)]);
    crate::common::assert_dice_used(&b);
    let b = battle_with_players(units(), &[0], &[2, 2, 2, 2, 2, 2]);
    assert_eq!(b.turn().order, vec![CombatantId(0), CombatantId(1)]);
    crate::common::assert_dice_used(&b);
    // Both sides the people's (hot-seat), or neither: the roll-off decides (ours).
    let b = battle_with_players(units(), &[0, 1], &[2, 2, 2, 2, 2, 2, 1, 6, 1]);
    assert_eq!(b.turn().order, vec![CombatantId(1), CombatantId(0)]);
}

#[test]
fn digimon_tamer_acts_on_its_partners_turn() {
    // Tai rolls no initiative: he acts right after Greymon, whatever the order of the others.
    let mut b = battle(
        vec![
            unit("tai", 0, (0, 1)),
            unit("greymon", 0, (1, 1)),
            unit("garurumon", 1, (9, 1)),
        ],
        &[1, 1, 1, 5, 5, 5],
    );
    assert_eq!(
        b.turn().order,
        vec![CombatantId(2), CombatantId(1), CombatantId(0)],
        "Garurumon 21, then Greymon 8 with Tai"
    );
    let f = fighter(&mut b, 0);
    assert_eq!(
        f.digi.as_ref().and_then(|s| s.partner),
        Some(CombatantId(1))
    );
}

#[test]
fn digimon_tamer_combat_stats_are_derived_from_attributes() {
    // Tai: STR 4, DEX 5, CON 5, CHA 6; Fight 2, Dodge 3, Endurance 3, Survival 2; a modifier is
    // half the attribute. HP = CON + Endurance = 8; Accuracy = Dex Mod 2 + Fight 2 = 4; Damage
    // = Str Mod 2 + Fight/3 0 = 2; Dodge = 2 + 3 = 5; Armor = Con Mod 2 + Endurance 3 = 5;
    // Movement = DEX 5 + Survival 2 = 7.
    let mut b = battle(
        vec![unit("tai", 0, (0, 1)), unit("gabumon", 1, (9, 1))],
        &[1, 1, 1, 1, 1, 1],
    );
    let tai = fighter(&mut b, 0);
    assert_eq!(tai.life.max, 8);
    let d = data();
    assert_eq!(
        [
            digimon::stat(d, &tai, "ACC"),
            digimon::stat(d, &tai, "DMG"),
            digimon::stat(d, &tai, "DODGE"),
            digimon::stat(d, &tai, "ARM"),
        ],
        [4, 2, 5, 5]
    );
    assert_eq!(digimon::movement(d, &tai), 7);
}

#[test]
fn digimon_attacker_wins_ties() {
    // Accuracy 2+2+2 + 7 = 13 against Dodge 3+3+2 + 5 = 13: a hit. Damage 4d6 = 1+1+1+1 = 4,
    // minus Armor 2 = 2.
    let mut b = greymon_and_gabumon(&[2, 2, 2, 3, 3, 2, 1, 1, 1, 1]);
    let lines = attack(&mut b, 0, "strike", 1);
    assert_contains(
        &lines,
        &["Strike 13 ties 13: the attacker wins ties, Greymon hits Gabumon."],
    );
    assert_contains(&lines, &["Gabumon takes 2 of the 4 damage [Armor 2]."]);
    assert_eq!(fighter(&mut b, 1).life.current, 16);
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_sixes_explode() {
    // A 6 on any die rolls another d6 and adds it: 6 (then 6, then 2) + 1 + 1 + Accuracy 7 = 23.
    let mut b = greymon_and_gabumon(&[6, 6, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let lines = attack(&mut b, 0, "strike", 1);
    assert!(
        lines.iter().any(|l| l.starts_with("Greymon: Strike 23 =")),
        "{lines:#?}"
    );
    // The exact distribution of one exploding d6: 1..5 at 1/6 each, 7..11 at 1/36 each…
    let one = Dist::exploding_dice(DiceGroup { count: 1, sides: 6 });
    assert!((one.cdf(5) - 5.0 / 6.0).abs() < 1e-12);
    assert!(
        (one.cdf(6)).abs() - 5.0 / 6.0 < 1e-12,
        "a total of 6 cannot happen"
    );
    assert!((one.cdf(11) - (5.0 / 6.0 + 5.0 / 36.0)).abs() < 1e-12);
    assert!((one.mass() - 1.0).abs() < 1e-12);
    // … with the mean 6/5 x 3.5 = 4.2.
    assert!((one.mean() - 4.2).abs() < 1e-9, "{}", one.mean());
}

#[test]
fn digimon_damage_is_half_the_damage_stat_in_d6_minus_armor_at_least_one() {
    // Greymon's Damage 9: (9 / 2) = 4d6. 1+1+1+1 = 4 against Garurumon's Armor 3 deals 1; the
    // rule's minimum: Tai's unarmed 1 + Damage 2 = 3 against Greymon's Armor 4 still deals 1.
    let d = data();
    let mut b = greymon_and_gabumon(&[]);
    let g = fighter(&mut b, 0);
    let a = d.attack("strike").expect("strike");
    let w = digimon::wound_spec(d, &g, a);
    assert_eq!(w.dice.len(), 1);
    assert_eq!(w.dice[0].group.count, 4);
    assert!(w.dice[0].exploding);
    let gab = fighter(&mut b, 1);
    assert_eq!(digimon::hit_damage(d, &gab, 4, 0, false), 2);
    assert_eq!(digimon::hit_damage(d, &gab, 1, 0, false), 1, "at least 1");
    let mut t = battle(
        vec![unit("tai", 0, (1, 1)), unit("greymon", 1, (2, 1))],
        &[1, 1, 1, 1, 1, 1],
    );
    let tai = fighter(&mut t, 0);
    let w = digimon::wound_spec(d, &tai, d.attack("tamer_strike").expect("a"));
    assert!(w.dice.is_empty(), "unarmed: no dice");
    assert_eq!(w.flat_total(), 3, "1 + Str Mod 2 + Fight 2 / 3");
    let grey = fighter(&mut t, 1);
    assert_eq!(digimon::hit_damage(d, &grey, 3, 0, false), 1);
}

#[test]
fn digimon_dodge_penalty_stacks_for_every_attack_past_the_first_and_clears_each_round() {
    // Two Strikes at Gabumon in one round: the second Dodge takes -1; next round it is gone.
    let mut b = greymon_and_gabumon(&[1, 1, 1, 5, 5, 5, 1, 1, 1, 5, 5, 5]);
    attack(&mut b, 0, "strike", 1);
    let lines = attack(&mut b, 0, "strike", 1);
    assert!(
        lines.iter().any(|l| l.starts_with("Gabumon: Dodge 19 =")
            && l.contains("Dodge penalty (1 earlier attack(s) this round) 1")),
        "{lines:#?}"
    );
    assert_eq!(fighter(&mut b, 1).defense.diminishing, 2);
    end_turn(&mut b);
    end_turn(&mut b);
    assert_eq!(fighter(&mut b, 1).defense.diminishing, 0);
}

#[test]
fn digimon_melee_attacks_need_an_adjacent_target() {
    let mut b = battle(
        vec![unit("greymon", 0, (1, 1)), unit("gabumon", 1, (3, 1))],
        &[3, 3, 3, 1, 1, 1],
    );
    let err = b
        .submit(Command::Attack(order(0, "strike", 1)))
        .expect_err("two squares away");
    assert!(
        err.to_string().contains("adjacent") || matches!(err, RuleError::OutOfRange { .. }),
        "{err}"
    );
}

#[test]
fn digimon_ranged_at_an_adjacent_target_takes_one_plus_stages_above_rookie() {
    // Greymon is a Champion (one stage above Rookie): -2; Agumon, a Rookie: -1.
    let d = data();
    let mut b = battle(
        vec![
            unit("greymon", 0, (1, 1)),
            unit("gabumon", 1, (2, 1)),
            unit("agumon", 0, (3, 1)),
        ],
        &[3, 3, 3, 1, 1, 1, 2, 2, 2],
    );
    let (g, gab, ag) = (fighter(&mut b, 0), fighter(&mut b, 1), fighter(&mut b, 2));
    let nova = d.attack("nova_blast").expect("a");
    let pepper = d.attack("pepper_breath").expect("a");
    let s = digimon::strike_spec(d, &g, nova, &gab, &[&gab]);
    assert_eq!(s.flat_total(), 7 - 2, "{s:?}");
    let s = digimon::strike_spec(d, &ag, pepper, &gab, &[&gab]);
    assert_eq!(s.flat_total(), 5 - 1, "{s:?}");
}

#[test]
fn digimon_ranged_loses_one_for_every_five_squares_beyond_ten() {
    // 25 squares: (25 - 10) / 5 = -3; 14 squares: 0 (rounded down); 15: -1.
    let d = data();
    for (x, penalty) in [(25, 3), (14, 0), (15, 1), (5, 0)] {
        let mut b = battle(
            vec![unit("agumon", 0, (0, 1)), unit("gabumon", 1, (x, 1))],
            &[3, 3, 3, 1, 1, 1],
        );
        let (ag, gab) = (fighter(&mut b, 0), fighter(&mut b, 1));
        let s = digimon::strike_spec(d, &ag, d.attack("pepper_breath").expect("a"), &gab, &[&gab]);
        assert_eq!(s.flat_total(), 5 - penalty, "{x} squares: {s:?}");
    }
}

#[test]
fn digimon_area_loses_one_per_target_past_the_second_and_two_for_an_ally() {
    // Howling Blaster's cone catches three opponents and an ally: -1 and -2.
    let d = data();
    let mut b = battle(
        vec![
            unit("garurumon", 0, (1, 1)),
            unit("agumon", 1, (2, 1)),
            unit("gabumon", 1, (3, 1)),
            unit("patamon", 1, (4, 1)),
            unit("tentomon", 0, (2, 2)),
        ],
        &[3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    );
    let all: Vec<Fighter> = b.fighters();
    let refs: Vec<&Fighter> = all.iter().skip(1).collect();
    let s = digimon::strike_spec(
        d,
        &all[0],
        d.attack("howling_blaster").expect("a"),
        refs[0],
        &refs,
    );
    assert_eq!(s.flat_total(), 7 - 2 - 2, "{s:?}");
    let foes: Vec<&Fighter> = refs[..2].to_vec();
    let s = digimon::strike_spec(
        d,
        &all[0],
        d.attack("howling_blaster").expect("a"),
        foes[0],
        &foes,
    );
    assert_eq!(s.flat_total(), 7, "two targets: no penalty");
}

#[test]
fn digimon_two_simple_actions_or_one_complex_action() {
    // Angemon's Hand of Fate is a Complex Action: after one Strike (a Simple Action) it cannot
    // be used; a Bolstered attack is Complex too.
    let mut b = battle(
        vec![unit("angemon", 0, (1, 1)), unit("gabumon", 1, (2, 1))],
        &[3, 3, 3, 1, 1, 1, 1, 1, 1, 5, 5, 5],
    );
    attack(&mut b, 0, "strike", 1);
    let err = b
        .submit(Command::Attack(order(0, "hand_of_fate", 1)))
        .expect_err("one action left");
    assert!(
        matches!(err, RuleError::NotEnoughAp { need: 2, .. }),
        "{err}"
    );
}

#[test]
fn digimon_moving_into_difficult_terrain_is_a_complex_action() {
    let rows = ["......", "..:...", "......"];
    let mut setup = BattleSetup::open(
        6,
        3,
        vec![unit("agumon", 0, (0, 1)), unit("gabumon", 1, (5, 1))],
    );
    let r = rules();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let t = r.terrain_by_symbol(c).expect("known terrain symbol");
            setup.map.set(Square::new(x as i32, y as i32), t);
        }
    }
    let mut b = battle_on(setup, &[3, 3, 3, 1, 1, 1]);
    let lines = crate::common::run(
        &mut b,
        Command::Move {
            who: CombatantId(0),
            path: vec![Square::new(1, 1), Square::new(2, 1)],
            boosted: false,
        },
    );
    assert!(
        lines
            .iter()
            .filter(|l| l.contains("a move through Difficult Terrain (a Complex Action)"))
            .count()
            == 2,
        "{lines:#?}"
    );
    assert_eq!(fighter(&mut b, 0).actions.usable(), 0);
}

#[test]
fn digimon_effects_last_half_ram_turns_and_poison_triple() {
    let d = data();
    let mut b = greymon_and_gabumon(&[]);
    let g = fighter(&mut b, 0);
    // Greymon's RAM 4: 2 turns; Poison 6; an instant effect none.
    assert_eq!(digimon::duration(d, EffectKind::Blind, &g), 2);
    assert_eq!(digimon::duration(d, EffectKind::Poison, &g), 6);
    assert_eq!(digimon::duration(d, EffectKind::Knockback, &g), 0);
    // Gabumon's RAM 2: 1; never below 1.
    let gab = fighter(&mut b, 1);
    assert_eq!(digimon::duration(d, EffectKind::Blind, &gab), 1);
}

#[test]
fn digimon_same_effect_same_user_renews_another_user_adds_and_sets_potency() {
    let mut s = DigiState::default();
    digimon::stack(&mut s, EffectKind::Blind, 5, 2, CombatantId(0));
    s.effects[0].turns = 1;
    digimon::stack(&mut s, EffectKind::Blind, 5, 2, CombatantId(0));
    assert_eq!(
        (s.effects[0].turns, s.effects[0].potency),
        (2, 5),
        "renewed"
    );
    digimon::stack(&mut s, EffectKind::Blind, 10, 3, CombatantId(1));
    assert_eq!(
        (
            s.effects[0].turns,
            s.effects[0].potency,
            s.effects[0].source
        ),
        (5, 10, CombatantId(1)),
        "another user adds its duration and sets the potency"
    );
    assert_eq!(s.effects.len(), 1);
}

#[test]
fn digimon_an_effect_lands_on_a_hit_and_wears_off_after_its_turns() {
    // Foxfire (Garurumon, BIT 1): Blind 5 for 2 of the target's turns.
    let mut b = battle(
        vec![unit("garurumon", 0, (1, 1)), unit("agumon", 1, (5, 1))],
        &[3, 3, 3, 1, 1, 1, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1],
    );
    let lines = attack(&mut b, 0, "fox_fire", 1);
    assert_contains(
        &lines,
        &["Blind from Garurumon on Agumon: potency 5, 2 turn(s) left."],
    );
    let d = data();
    let ag = fighter(&mut b, 1);
    assert_eq!(digimon::stat(d, &ag, "DODGE"), 0);
    assert_eq!(digimon::movement(d, &ag), 0);
    end_turn(&mut b);
    end_turn(&mut b);
    assert!(digimon::has(&fighter(&mut b, 1), EffectKind::Blind));
    end_turn(&mut b);
    end_turn(&mut b);
    assert!(!digimon::has(&fighter(&mut b, 1), EffectKind::Blind));
}

#[test]
fn digimon_stat_effects_change_the_rolls_they_name() {
    // Each effect's penalty or bonus on the rolls and Movement the chapter names.
    let d = data();
    let mut b = greymon_and_gabumon(&[]);
    let cases: [(EffectKind, &[(&str, i64)]); 9] = [
        (EffectKind::Immobilize, &[("MV", -2)]),
        (EffectKind::Confuse, &[("ACC", -2), ("DODGE", -2)]),
        (EffectKind::Vigor, &[("DODGE", 2), ("MV", 2)]),
        (EffectKind::Fury, &[("ACC", 2), ("DMG", 2)]),
        (EffectKind::Blind, &[("ACC", -2), ("DODGE", -2), ("MV", -2)]),
        (EffectKind::Paralysis, &[("DODGE", -2), ("ARM", -2)]),
        (
            EffectKind::Weaken,
            &[("ACC", -2), ("DMG", -2), ("DODGE", -2), ("ARM", -2)],
        ),
        (
            EffectKind::Strengthen,
            &[("ACC", 2), ("DMG", 2), ("DODGE", 2), ("ARM", 2)],
        ),
        (EffectKind::Regenerate, &[]),
    ];
    for (kind, changes) in cases {
        stage(&mut b, 1, |f| {
            if let Some(s) = f.digi.as_mut() {
                s.effects.clear();
            }
        });
        let before = fighter(&mut b, 1);
        give(&mut b, 1, kind, 2, 2, 0);
        let after = fighter(&mut b, 1);
        for stat in ["ACC", "DMG", "DODGE", "ARM", "MV"] {
            let want = changes
                .iter()
                .find(|(s, _)| *s == stat)
                .map_or(0, |(_, v)| *v);
            assert_eq!(
                digimon::stat(d, &after, stat) - digimon::stat(d, &before, stat),
                want,
                "{kind:?} on {stat}"
            );
        }
    }
    // Paralysis: "cannot move".
    give(&mut b, 1, EffectKind::Paralysis, 2, 2, 0);
    assert_eq!(digimon::movement(d, &fighter(&mut b, 1)), 0);
}

#[test]
fn digimon_confuse_takes_the_targets_higher_of_cpu_and_bit() {
    // Gabumon (CPU 1, BIT 1) Confuses Greymon (CPU 2, BIT 1): the potency is Greymon's CPU 2
    // x2 = 4, not the user's value.
    let d = data();
    let mut b = greymon_and_gabumon(&[]);
    let (grey, gab) = (fighter(&mut b, 0), fighter(&mut b, 1));
    assert_eq!(
        digimon::potency(d, EffectKind::Confuse, &gab, &grey, false, false),
        4
    );
    assert_eq!(
        digimon::potency(d, EffectKind::Confuse, &grey, &gab, false, false),
        2
    );
}

#[test]
fn digimon_taunt_and_fear_lower_accuracy_against_the_right_target() {
    let d = data();
    let mut b = battle(
        vec![
            unit("gabumon", 0, (1, 1)),
            unit("devimon", 1, (2, 1)),
            unit("gazimon", 1, (3, 1)),
        ],
        &[3, 3, 3, 1, 1, 1, 1, 1, 1],
    );
    give(&mut b, 0, EffectKind::Taunt, 5, 2, 1);
    let all = b.fighters();
    let pepper = d.attack("blue_blaster").expect("a");
    let at_taunter = digimon::strike_spec(d, &all[0], pepper, &all[1], &[&all[1]]);
    let at_other = digimon::strike_spec(d, &all[0], pepper, &all[2], &[&all[2]]);
    // Devimon stands beside Gabumon: -1 for a [Ranged] attack on an adjacent target.
    assert_eq!(
        at_taunter.flat_total() - at_other.flat_total(),
        5 - 1,
        "{at_other:?}"
    );
    stage(&mut b, 0, |f| {
        if let Some(s) = f.digi.as_mut() {
            s.effects.clear();
        }
    });
    give(&mut b, 0, EffectKind::Fear, 5, 2, 1);
    let all = b.fighters();
    let at_feared = digimon::strike_spec(d, &all[0], pepper, &all[1], &[&all[1]]);
    let at_other = digimon::strike_spec(d, &all[0], pepper, &all[2], &[&all[2]]);
    assert_eq!(at_other.flat_total() - at_feared.flat_total(), 5 + 1);
}

#[test]
fn digimon_stun_takes_every_action_and_poison_hurts_past_armor() {
    // Gabumon is Stunned and Poisoned (4) when its turn comes: it loses 4 HP and has no action.
    let mut b = greymon_and_gabumon(&[]);
    give(&mut b, 1, EffectKind::Stun, 0, 1, 0);
    give(&mut b, 1, EffectKind::Poison, 4, 3, 0);
    end_turn(&mut b);
    let g = fighter(&mut b, 1);
    assert_eq!(g.life.current, 18 - 4);
    assert_eq!(
        b.turn().active(),
        Some(CombatantId(0)),
        "Gabumon's turn ended at once"
    );
}

#[test]
fn digimon_helping_effects_go_to_allies_without_a_dodge() {
    // Angemon's Angel Heal on T.K.: BIT 2 x5 = 10 Temporary HP, no roll; damage takes them
    // first. Once a round.
    let mut b = battle(
        vec![
            unit("angemon", 0, (1, 1)),
            unit("tk", 0, (2, 1)),
            unit("gabumon", 1, (9, 1)),
        ],
        &[3, 3, 3, 1, 1, 1],
    );
    let lines = attack(&mut b, 0, "angel_heal", 1);
    assert_contains(
        &lines,
        &["Angemon hits T.K. automatically (a helping effect: allies do not roll Dodge)."],
    );
    assert_eq!(fighter(&mut b, 1).digi.expect("digi").temp_hp, 10);
    let err = b
        .submit(Command::Attack(order(0, "angel_heal", 1)))
        .expect_err("once a round");
    assert!(err.to_string().contains("once per Round"), "{err}");
    let err = b
        .submit(Command::Attack(order(0, "angel_heal", 2)))
        .expect_err("not a foe");
    assert!(err.to_string().contains("helps an ally"), "{err}");
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_direct_adds_charisma_to_the_partners_next_roll() {
    // Direct adds "the Tamer's Charisma Attribute score": Tai's 6 goes to Greymon's next
    // Accuracy or Dodge roll, then it is spent.
    let mut b = battle(
        vec![
            unit("greymon", 0, (1, 1)),
            unit("tai", 0, (0, 1)),
            unit("gabumon", 1, (2, 1)),
        ],
        &[3, 3, 3, 1, 1, 1, 1, 1, 1, 5, 5, 5],
    );
    end_turn(&mut b);
    assert_eq!(
        b.turn().active(),
        Some(CombatantId(1)),
        "Tai acts after Greymon"
    );
    let lines = attack(&mut b, 1, "direct", 0);
    assert_contains(
        &lines,
        &["Direct from Tai on Greymon: adds 6 to its next Dodge or Accuracy roll."],
    );
    // Gabumon's turn: its strike at Greymon meets Greymon's Directed Dodge.
    end_turn(&mut b);
    let lines = attack(&mut b, 2, "strike", 0);
    assert!(
        lines.iter().any(|l| l.contains("Directed by its Tamer 6")),
        "{lines:#?}"
    );
    assert!(fighter(&mut b, 0).digi.expect("digi").directed.is_none());
    let err = b
        .submit(Command::Attack(order(1, "direct", 2)))
        .expect_err("not Tai's turn");
    drop(err);
}

/// Greymon (0) with Tai (1) behind it against a Gabumon (2) beside it; Greymon wins
/// initiative 14 to 7, so the order is Greymon (with Tai), Gabumon.
fn greymon_with_tai(faces: &[u32]) -> Battle {
    let mut all = vec![3, 3, 3, 1, 1, 1];
    all.extend_from_slice(faces);
    battle(
        vec![
            unit("greymon", 0, (1, 1)),
            unit("tai", 0, (0, 1)),
            unit("gabumon", 1, (2, 1)),
        ],
        &all,
    )
}

#[test]
fn digimon_use_an_item_is_a_complex_action_once_a_battle() {
    // "Use an Item (Complex Action): The Digimon or Tamer may use an item to support their
    // team." (003:29) Tai (1) uses his Recovery Floppy (ours: 12 HP, once a battle) on Greymon
    // (0) beside him: no roll, both of Tai's actions, and none left afterwards.
    let mut b = greymon_with_tai(&[]);
    crate::common::set_life(&mut b, 0, 20);
    let order_view = order(1, "recovery_floppy", 0);
    let preview = b.preview(&order_view).expect("a preview");
    let view = b.aim_view(&order_view, &preview, 0);
    assert!(view.head.contains("a Complex Action"), "{}", view.head);
    assert_contains(
        &view.lines,
        &[
            "Used on Greymon: 12 HP back (20 -> 32 of 36; it gives up to 12)",
            "0 of 1 left for the battle after this one",
        ],
    );
    hand_over(&mut b, 0);
    let lines = attack(&mut b, 1, "recovery_floppy", 0);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Recovery Floppy") && l.contains("restores 12 HP (20 -> 32")),
        "{lines:#?}"
    );
    assert_eq!(fighter(&mut b, 0).life.current, 32);
    assert_eq!(fighter(&mut b, 1).actions.usable(), 0, "a Complex Action");
    crate::common::assert_dice_used(&b);
    // The next round, none is left.
    let tai = fighter(&mut b, 1);
    let (a, _) = digimon::attack_of(data(), "recovery_floppy").expect("the item");
    assert_eq!(digimon::items_left(&tai, a), 0);
    let err = gridclash::battle::family::digimon::check_attack(
        data(),
        &tai,
        "recovery_floppy",
        &[&fighter(&mut b, 0)],
    )
    .expect_err("used up");
    assert_eq!(
        err.to_string(),
        "Tai has no Recovery Floppy left (it carried 1 for the battle)"
    );
}

#[test]
fn digimon_items_go_to_oneself_or_an_adjacent_ally_and_stop_at_the_maximum() {
    let mut b = greymon_with_tai(&[]);
    let d = data();
    let (gr, tai, gb) = (fighter(&mut b, 0), fighter(&mut b, 1), fighter(&mut b, 2));
    let check = |t: &Fighter| digimon::check_attack(d, &tai, "recovery_floppy", &[t]);
    assert!(check(&gb).is_err(), "not on a foe");
    assert!(check(&tai).is_ok(), "on oneself");
    assert!(check(&gr).is_ok(), "on the ally beside it");
    stage(&mut b, 1, |f| f.position.0 = Some(Square::new(0, 5)));
    let far = fighter(&mut b, 1);
    assert!(
        digimon::check_attack(d, &far, "recovery_floppy", &[&gr]).is_err(),
        "an ally four squares away"
    );
    stage(&mut b, 1, |f| f.position.0 = Some(Square::new(0, 1)));
    // Greymon 5 short of its maximum gets 5 back, not 12.
    crate::common::set_life(&mut b, 0, 31);
    hand_over(&mut b, 0);
    attack(&mut b, 1, "recovery_floppy", 0);
    assert_eq!(fighter(&mut b, 0).life.current, 36);
}

#[test]
fn digimon_ai_uses_an_item_on_a_hurt_partner_beside_it() {
    use gridclash::ai::planner::{Level, decide};
    use rand::SeedableRng;
    for level in [Level::Normal, Level::Hard] {
        let mut b = greymon_with_tai(&[6; 40]);
        crate::common::set_life(&mut b, 0, 8);
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
        let mut played = Vec::new();
        while let Some(who) = b.turn().active().filter(|w| w.0 < 2) {
            let cmd = decide(&mut b, who, level, &mut rng);
            played.push(cmd.clone());
            if b.submit(cmd).is_err() || played.len() > 10 {
                break;
            }
        }
        assert!(
            played
                .iter()
                .any(|c| matches!(c, Command::Attack(o) if o.profile == "recovery_floppy")),
            "{level:?}: {played:?}"
        );
    }
}

fn hand_over(b: &mut Battle, who: u32) -> Vec<String> {
    crate::common::run(
        b,
        Command::HandOver {
            who: CombatantId(who),
        },
    )
}

#[test]
fn digimon_tamer_and_digimon_act_on_the_same_turn_in_either_order() {
    // "Tamers and their partner Digimon act on the same turn": Greymon lets Tai go first, Tai
    // Directs it, and Greymon takes the turn back with both its actions to attack with the
    // bonus, in the same turn; then the order goes past both of them.
    let mut b = greymon_with_tai(&[1, 1, 1, 5, 5, 5, 4, 4, 4, 1, 1, 1, 1, 1, 1]);
    assert_eq!(b.turn().active(), Some(CombatantId(0)));
    let lines = hand_over(&mut b, 0);
    assert_contains(
        &lines,
        &[
            "Greymon hands the turn to Tai and keeps 2 actions for when Tai is done.",
            "-- Tai's turn (round 1) --",
        ],
    );
    assert_eq!(b.turn().active(), Some(CombatantId(1)));
    assert_eq!(b.turn().paused, Some(CombatantId(0)));
    let ids = |b: &Battle| b.turn().upcoming().iter().map(|c| c.0).collect::<Vec<_>>();
    assert_eq!(
        ids(&b),
        vec![1, 0, 2],
        "the turn-order bar: Tai now, Greymon next"
    );
    attack(&mut b, 1, "direct", 0);
    let before = b.events().len();
    end_turn(&mut b);
    let lines = crate::common::lines(&mut b, before);
    assert_contains(
        &lines,
        &[
            "Tai ends the turn.",
            "-- Greymon takes the turn back (2 actions left) --",
        ],
    );
    assert_eq!(b.turn().active(), Some(CombatantId(0)));
    assert_eq!(
        fighter(&mut b, 0).actions.usable(),
        2,
        "its actions were kept"
    );
    assert_eq!(
        ids(&b),
        vec![0, 2, 1],
        "Tai's part is done: it comes round again last"
    );
    let lines = attack(&mut b, 0, "strike", 2);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Greymon") && l.contains("Directed by its Tamer 6")),
        "the Direct is on this turn's Accuracy roll: {lines:#?}"
    );
    end_turn(&mut b);
    assert_eq!(
        b.turn().active(),
        Some(CombatantId(2)),
        "past both partners: Tai does not get a second part"
    );
    assert!(b.turn().has_acted(CombatantId(1)));
}

#[test]
fn digimon_hand_over_needs_a_partner_yet_to_end_its_part() {
    let mut b = greymon_with_tai(&[5; 30]);
    // Back and forth three times at most: four Simple Actions between two.
    hand_over(&mut b, 0);
    hand_over(&mut b, 1);
    assert_eq!(b.turn().active(), Some(CombatantId(0)));
    assert_eq!(b.turn().paused, Some(CombatantId(1)));
    hand_over(&mut b, 0);
    let err = b
        .submit(Command::HandOver {
            who: CombatantId(1),
        })
        .expect_err("a fourth hand-over");
    assert!(err.to_string().contains("three times"), "{err}");
    // Tai ends; Greymon takes it back and ends; Gabumon has no partner to hand to.
    end_turn(&mut b);
    assert_eq!(b.turn().active(), Some(CombatantId(0)));
    let err = b
        .submit(Command::HandOver {
            who: CombatantId(0),
        })
        .expect_err("Tai's part is over");
    assert!(err.to_string().contains("ended its part"), "{err}");
    end_turn(&mut b);
    assert_eq!(b.turn().active(), Some(CombatantId(2)));
    let err = b
        .submit(Command::HandOver {
            who: CombatantId(2),
        })
        .expect_err("no partner");
    assert!(err.to_string().contains("no partner"), "{err}");
    // A Tamer whose Digimon went first and ended cannot give the turn back to it.
    end_turn(&mut b);
    assert_eq!(b.turn().active(), Some(CombatantId(0)), "round 2");
    assert_eq!(b.turn().hand_overs, 0);
    end_turn(&mut b);
    assert_eq!(b.turn().active(), Some(CombatantId(1)));
    let err = b
        .submit(Command::HandOver {
            who: CombatantId(1),
        })
        .expect_err("Greymon's part is over");
    assert!(err.to_string().contains("ended its part"), "{err}");
    // Other rulesets have no shared turns.
    let mut dbu = crate::common::duel("brawler", "brawler", &[5; 20]);
    let who = dbu.turn().active().expect("someone acts");
    let err = dbu
        .submit(Command::HandOver { who })
        .expect_err("not a DBU rule");
    assert!(err.to_string().contains("share a turn"), "{err}");
}

#[test]
fn digimon_bolster_makes_it_complex_and_adds_two_to_potency() {
    // Bolstered Foxfire: Blind 5 + 2 = 7, costing both actions.
    let mut b = battle(
        vec![unit("garurumon", 0, (1, 1)), unit("agumon", 1, (5, 1))],
        &[3, 3, 3, 1, 1, 1, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1],
    );
    let lines = attack(&mut b, 0, "fox_fire+bolstered", 1);
    assert_contains(
        &lines,
        &["Blind from Garurumon on Agumon: potency 7, 2 turn(s) left."],
    );
    assert_eq!(fighter(&mut b, 0).actions.usable(), 0);
    let d = data();
    let heal = d.attack("angel_heal").expect("a");
    let ang = fighter(&mut b, 0);
    assert_eq!(
        digimon::potency(d, EffectKind::Heal, &ang, &ang, true, true),
        7,
        "a Complex Heal is BIT x7 (Garurumon's BIT 1), not +2"
    );
    assert!(gridclash::ruleset::digimon::can_bolster(&d.combat, heal));
}

/// Gabumon (0) acting first against Greymon (1), Tai's (2) partner: the dice let its first two
/// Strikes on Greymon land.
fn gabumon_strikes_greymon_with_tai() -> Battle {
    battle(
        vec![
            unit("gabumon", 1, (2, 1)),
            unit("greymon", 0, (1, 1)),
            unit("tai", 0, (0, 1)),
        ],
        &[
            5, 5, 5, 1, 1, 1, 5, 5, 5, 1, 1, 1, 5, 5, 5, 5, 5, 5, 1, 1, 1, 5, 5, 5,
        ],
    )
}

#[test]
fn digimon_partnered_digimon_falls_back_to_its_default_stage_then_becomes_a_digitama() {
    // Greymon with Tai at 0 HP becomes Agumon at 1 HP; Agumon at 0 HP becomes a Digitama.
    let mut b = gabumon_strikes_greymon_with_tai();
    crate::common::set_life(&mut b, 1, 1);
    let lines = attack(&mut b, 0, "strike", 1);
    assert_contains(
        &lines,
        &["Greymon drops to 0 HP and falls back to its Default Stage: Agumon (Rookie) at 1 HP."],
    );
    let g = fighter(&mut b, 1);
    assert_eq!((g.life.current, g.life.max), (1, 18));
    let d = data();
    assert_eq!(digimon::stat(d, &g, "DMG"), 6, "Agumon's stats");
    assert_eq!(
        digimon::attacks_now(d, &g)[..2],
        ["strike".to_string(), "pepper_breath".to_string()]
    );
    let lines = attack(&mut b, 0, "strike", 1);
    assert!(
        lines.iter().any(|l| l.contains("becomes a Digitama")),
        "{lines:#?}"
    );
    assert!(fighter(&mut b, 1).defeated());
}

#[test]
fn digimon_without_a_tamer_is_simply_defeated_at_zero() {
    let mut b = greymon_and_gabumon(&[5, 5, 5, 1, 1, 1, 5, 5, 5, 5]);
    crate::common::set_life(&mut b, 1, 1);
    let lines = attack(&mut b, 0, "strike", 1);
    assert_contains(&lines, &["Gabumon is Defeated by Greymon!"]);
    assert!(!lines.iter().any(|l| l.contains("Default Stage")));
}

#[test]
fn digimon_tamer_makes_a_death_saving_throw_or_is_killed_outright() {
    // Tai (8 HP, Armor 5) has no partner here and rolls initiative 1+1+1 + 4; Greymon 5+5+5 +
    // 5 acts first. Strike 22 against Dodge 8; damage 3+3+3+1 = 10 - 5 = 5 takes Tai from 2 to
    // -3: TN 3 + 1 + 3 / 2 = 5 on 3d6; 1+2+2 = 5 survives.
    let mut b = battle(
        vec![unit("tai", 0, (1, 1)), unit("greymon", 1, (2, 1))],
        &[1, 1, 1, 5, 5, 5, 5, 5, 5, 1, 1, 1, 3, 3, 3, 1, 1, 2, 2],
    );
    crate::common::set_life(&mut b, 0, 2);
    let lines = attack(&mut b, 1, "strike", 0);
    assert_contains(
        &lines,
        &["Tai is unconscious at -3 HP. Death Saving Throw 5 against 5: survives."],
    );
    assert!(fighter(&mut b, 0).defeated());
    crate::common::assert_dice_used(&b);
    // From 7 HP, 5+5+5+5 = 20 - 5 = 15 takes him to -8, minus his maximum: killed outright.
    let mut b = battle(
        vec![unit("tai", 0, (1, 1)), unit("greymon", 1, (2, 1))],
        &[1, 1, 1, 5, 5, 5, 5, 5, 5, 1, 1, 1, 5, 5, 5, 5],
    );
    crate::common::set_life(&mut b, 0, 7);
    let lines = attack(&mut b, 1, "strike", 0);
    assert_contains(
        &lines,
        &["Tai falls to -8 HP (minus its maximum 8) and is killed outright."],
    );
}

#[test]
fn digimon_knockback_pushes_cpu_times_two_and_lifesteal_heals_once_a_round() {
    // Horn Impulse (Greymon, CPU 2): 4 squares straight back.
    let mut b = greymon_and_gabumon(&[5, 5, 5, 1, 1, 1, 1, 1, 1, 1]);
    let lines = attack(&mut b, 0, "horn_impulse", 1);
    assert_contains(&lines, &["Gabumon is pushed from (2, 1) to (6, 1)."]);
    // Heaven's Knuckle (Angemon, CPU 2): heals 2, once a round.
    let mut b = battle(
        vec![unit("angemon", 0, (1, 1)), unit("gabumon", 1, (2, 1))],
        &[
            3, 3, 3, 1, 1, 1, 5, 5, 5, 1, 1, 1, 3, 3, 3, 3, 5, 5, 5, 1, 1, 1, 3, 3, 3, 3,
        ],
    );
    crate::common::set_life(&mut b, 0, 20);
    let lines = attack(&mut b, 0, "heavens_knuckle", 1);
    assert_contains(&lines, &["Angemon's Lifesteal heals 2 HP (20 -> 22)."]);
    let lines = attack(&mut b, 0, "heavens_knuckle", 1);
    assert_contains(
        &lines,
        &["Angemon's Lifesteal was already activated this round (once per round)."],
    );
}

#[test]
fn digimon_haste_regenerate_and_cleanse() {
    let d = data();
    let mut b = greymon_and_gabumon(&[]);
    stage(&mut b, 0, |f| {
        if let Some(s) = f.digi.as_mut() {
            s.haste = true;
        }
    });
    give(&mut b, 0, EffectKind::Regenerate, 3, 5, 0);
    crate::common::set_life(&mut b, 0, 30);
    end_turn(&mut b);
    end_turn(&mut b);
    let g = fighter(&mut b, 0);
    assert_eq!(g.actions.usable(), 3, "Haste: one more Simple Action");
    assert_eq!(g.life.current, 33, "Regenerate at the start of the round");
    // Cleanse by Tentomon (BIT 1, CPU 1) on an ally: one negative effect loses 1 turn.
    let mut b = battle(
        vec![
            unit("tentomon", 0, (1, 1)),
            unit("gazimon", 0, (2, 1)),
            unit("agumon", 1, (9, 1)),
        ],
        &[5, 5, 5, 1, 1, 1, 1, 1, 1],
    );
    give(&mut b, 1, EffectKind::Blind, 5, 2, 2);
    give(&mut b, 1, EffectKind::Poison, 2, 3, 2);
    let lines = attack(&mut b, 0, "purify", 1);
    assert_contains(
        &lines,
        &["Cleanse from Tentomon on Gazimon: 1 effect(s) shortened by 1 turn(s)."],
    );
    let turns: Vec<i64> = fighter(&mut b, 1)
        .digi
        .expect("digi")
        .effects
        .iter()
        .map(|e| e.turns)
        .collect();
    assert_eq!(turns, vec![1, 3]);
    let _ = d;
}

#[test]
fn digimon_preview_is_exactly_what_happens() {
    // Over 2000 seeded Strikes the hit rate and mean damage agree with the exact preview
    // (within about four standard errors).
    let (mut hits, mut damage, n) = (0.0, 0.0, 2000u32);
    let mut expected = None;
    for seed in 0..n {
        let setup = BattleSetup::open(
            10,
            4,
            vec![unit("greymon", 0, (2, 2)), unit("garurumon", 1, (3, 2))],
        );
        let mut b =
            Battle::new(rules(), &setup, DiceSource::seeded(u64::from(seed))).expect("starts");
        while b.turn().active() != Some(CombatantId(0)) {
            end_turn(&mut b);
        }
        let o = order(0, "strike", 1);
        let p = b.preview(&o).expect("legal");
        let dodge = p.odds.targets[0][0].clone();
        expected.get_or_insert((dodge.hit_chance, dodge.expected_damage));
        let before = fighter(&mut b, 1).life.current;
        b.submit(Command::Attack(o)).expect("attack");
        let after = fighter(&mut b, 1).life.current;
        if after < before {
            hits += 1.0;
        }
        damage += (before - after) as f64;
    }
    let (p_hit, mean) = expected.expect("previewed");
    let n = f64::from(n);
    assert!(
        (hits / n - p_hit).abs() < 0.06,
        "hit {} vs {p_hit}",
        hits / n
    );
    assert!(
        (damage / n - mean).abs() < 1.2,
        "damage {} vs {mean}",
        damage / n
    );
    // The exact hit chance itself: 3d6! + 7 against 3d6! + 6, ties to the attacker.
    let mut s = RollSpec::new(RollKind::Strike);
    s.add_exploding_dice("3d6", DiceGroup { count: 3, sides: 6 });
    let mut d = s.clone();
    s.add("ACC", 7);
    d.add("DODGE", 6);
    assert!((digimon::hit_chance(&s, &d) - p_hit).abs() < 1e-12);
    let _ = (distribution(&s), roll(&s, &mut DiceSource::seeded(1)));
}

/// The Clash of `id` as the rules hold it.
fn hold(b: &mut Battle, id: u32) -> Option<ClashHold> {
    fighter(b, id).digi.and_then(|s| s.clash)
}

/// Greymon (0, Large, Body 6, Agility 5) starts a Clash with Gabumon (1, Small, Body 3,
/// Agility 4) and wins control on equal margins by its higher Body: 1+1+1 + 6 + 4 (size) = 13
/// against TN 4, and 5+5+5 + 3 - 4 = 14 against TN 5, both margins 9.
fn greymon_clashes_gabumon(more: &[u32]) -> Battle {
    let mut faces = vec![1, 1, 1, 5, 5, 5];
    faces.extend_from_slice(more);
    let mut b = greymon_and_gabumon(&faces);
    let lines = attack(&mut b, 0, "clash", 1);
    assert_contains(
        &lines,
        &["Greymon controls the Clash (equal margins (9); the higher Body); Gabumon may not act."],
    );
    b
}

#[test]
fn digimon_clash_size_tags_add_their_difference() {
    // "A Huge Digimon would gain a bonus of +4 … the Medium Digimon would take a -4 Penalty."
    let d = data();
    let size = |t: &str| d.combat.clash.sizes[t];
    assert_eq!(size("Huge") - size("Medium"), 4);
    // Greymon (Large) against Gabumon (Small): +4 and -4.
    let mut b = greymon_and_gabumon(&[]);
    let (g, gb) = (fighter(&mut b, 0), fighter(&mut b, 1));
    let mine = grapple::check_spec(d, &g, &gb, g.id);
    let theirs = grapple::check_spec(d, &gb, &g, g.id);
    let size_mod = |s: &RollSpec| {
        s.modifiers
            .iter()
            .find(|m| m.label.starts_with("Size"))
            .map(|m| m.value)
    };
    assert_eq!(size_mod(&mine), Some(4));
    assert_eq!(size_mod(&theirs), Some(-4));
    assert_eq!(grapple::tn(d, &gb), 4, "the TN is the opponent's Agility");
}

#[test]
fn digimon_clash_greater_margin_controls_then_body() {
    // Greymon 1+1+1 + 6 + 4 = 13 against TN 4 (margin 9); Gabumon 5+5+6 (+1) + 3 - 4 = 16
    // against TN 5 (margin 11): the greater margin controls, though Greymon started it.
    let mut b = greymon_and_gabumon(&[1, 1, 1, 5, 5, 6, 1]);
    let lines = attack(&mut b, 0, "clash", 1);
    assert_contains(
        &lines,
        &["Gabumon controls the Clash (margin 11 against 9); Greymon may not act."],
    );
    assert!(hold(&mut b, 1).is_some_and(|h| h.control));
    assert!(hold(&mut b, 0).is_some_and(|h| !h.control && h.opponent == CombatantId(1)));
    // "The character who does not Control the Clash may not take any actions": Greymon's
    // second action goes, and the turn passes to Gabumon.
    assert_eq!(fighter(&mut b, 0).actions.usable(), 0);
    assert_eq!(b.active(), Some(CombatantId(1)));
    crate::common::assert_dice_used(&b);
    // Equal margins: the higher Body Stat controls.
    let b = greymon_clashes_gabumon(&[]);
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_clash_tied_in_every_way_goes_to_the_player() {
    // "In the event of a total tie where everything matched up perfectly, the Player Controls
    // the Clash." (003:159) Two Gabumon (Body 3, Agility 4, both Small) each roll 4+4+4 + 3 =
    // 15 against TN 4: margin 11 each, equal Body. The people's Gabumon (1) controls, though
    // the other started it; with neither side the people's, the starter does (ours).
    let units = || vec![unit("gabumon", 0, (1, 1)), unit("gabumon", 1, (2, 1))];
    let faces = [5, 5, 5, 1, 1, 1, 4, 4, 4, 4, 4, 4];
    let mut b = battle_with_players(units(), &[1], &faces);
    let lines = attack(&mut b, 0, "clash", 1);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Gabumon controls the Clash")),
        "{lines:#?}"
    );
    assert!(hold(&mut b, 1).is_some_and(|h| h.control), "the player's");
    let d = data();
    let (a, p) = (fighter(&mut b, 0), fighter(&mut b, 1));
    assert!(grapple::is_player(&p) && !grapple::is_player(&a));
    let mut b = battle_with_players(units(), &[], &faces);
    attack(&mut b, 0, "clash", 1);
    assert!(hold(&mut b, 0).is_some_and(|h| h.control), "the starter's");
    // The preview's chance counts the player's tie too.
    let with = grapple::control_chance(d, &p, &a, a.id);
    let (a0, p0) = (fighter(&mut b, 0), fighter(&mut b, 1));
    let without = grapple::control_chance(d, &p0, &a0, a0.id);
    assert!(with > without, "{with} > {without}");
}

#[test]
fn digimon_clash_held_one_loses_its_turn_and_the_controllers_attack_is_complex_without_dodge() {
    let mut b = greymon_clashes_gabumon(&[
        // Round 2's control checks: Greymon 2+2+2 + 10 = 16 (margin 12), Gabumon 1+1+1 - 1 = 2
        // (margin -3).
        2, 2, 2, 1, 1, 1, // Greymon's Strike: 4d6 = 3+3+3+3 = 12 - Armor 2 = 10.
        3, 3, 3, 3,
    ]);
    // Clash was a Simple Action: one left, and a [Melee] Attack in a Clash is Complex.
    let refused = b.submit(Command::Attack(order(0, "strike", 1)));
    assert!(
        matches!(
            refused,
            Err(RuleError::NotEnoughAp {
                need: 2,
                have: 1,
                ..
            })
        ),
        "{refused:?}"
    );
    // Gabumon's turn is taken by the Clash and ends at once.
    end_turn(&mut b);
    let lines = crate::common::lines(&mut b, 0);
    assert!(
        lines
            .iter()
            .any(|l| l == "Gabumon is held in a Clash it does not control: no actions this turn."),
        "{lines:#?}"
    );
    // Round 2: both roll again ("at the start of each round following").
    assert_eq!((b.turn().round, b.active()), (2, Some(CombatantId(0))));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Greymon controls the Clash (margin 12 against -3)")),
        "{lines:#?}"
    );
    let lines = attack(&mut b, 0, "strike", 1);
    assert_contains(
        &lines,
        &[
            "Greymon spends 1 AP on an attack (Strike).",
            "Greymon spends 1 AP on an attack (Strike).",
            "Greymon attacks Gabumon with Strike.",
            "Greymon hits Gabumon automatically (in a Clash: it cannot Dodge).",
        ],
    );
    assert_eq!(fighter(&mut b, 1).life.current, 18 - 10);
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_clash_outsiders_deal_less_by_both_bit_values() {
    // Greymon (0) holds Gabumon (1); Agumon (0) fires Pepper Breath from outside the Clash:
    // no Dodge, 3d6 = 4+4+4 = 12, minus both BIT values (1 + 1) and Armor 2 = 8.
    let mut b = battle(
        vec![
            unit("greymon", 0, (1, 1)),
            unit("gabumon", 1, (2, 1)),
            unit("agumon", 0, (2, 4)),
        ],
        &[3, 3, 3, 1, 1, 1, 2, 2, 2, 1, 1, 1, 5, 5, 5, 4, 4, 4],
    );
    attack(&mut b, 0, "clash", 1);
    end_turn(&mut b);
    let lines = attack(&mut b, 2, "pepper_breath", 1);
    assert_contains(
        &lines,
        &["Agumon hits Gabumon automatically (in a Clash: it cannot Dodge)."],
    );
    assert!(
        lines.iter().any(|l| l
            == "Gabumon takes 8 of the 12 damage [Clash: -2 damage from outside (both participants' BIT); Armor 2]."),
        "{lines:#?}"
    );
    // The preview says the same before the roll.
    let (g, gb, ag) = (fighter(&mut b, 0), fighter(&mut b, 1), fighter(&mut b, 2));
    assert_eq!(
        gridclash::battle::family::digimon::hold::outside_penalty(&ag, &gb).map(|x| x.0),
        Some(2)
    );
    assert_eq!(
        gridclash::battle::family::digimon::hold::outside_penalty(&g, &gb),
        None,
        "not for its opponent"
    );
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_clash_pin_skips_the_next_control_check_and_end_frees_both() {
    let mut b = greymon_clashes_gabumon(&[
        // Round 2's checks: Greymon 2+2+2 + 10 = 16, Gabumon 1+1+1 - 1 = 2.
        2, 2, 2, 1, 1, 1, // Pin: Greymon 1+1+1 + 6 + 4 = 13 against Gabumon 3+3+3 + 3 = 12.
        1, 1, 1, 3, 3, 3,
    ]);
    end_turn(&mut b);
    assert_eq!((b.turn().round, b.active()), (2, Some(CombatantId(0))));
    let lines = attack(&mut b, 0, "clash_pin", 1);
    assert_contains(
        &lines,
        &["Gabumon is Pinned: it does not roll for control next round."],
    );
    // The Pin used Greymon's turn; Gabumon's is the Clash's. Round 3: no dice; the Pinned one
    // loses control outright.
    assert_eq!((b.turn().round, b.active()), (3, Some(CombatantId(0))));
    let lines = crate::common::lines(&mut b, 0);
    assert!(
        lines.iter().any(|l| l
            == "Gabumon is Pinned: it does not roll for control, and Greymon keeps the Clash."),
        "{lines:#?}"
    );
    crate::common::assert_dice_used(&b);
    assert!(hold(&mut b, 1).is_some_and(|h| !h.pinned && !h.control));
    // End the Clash (Simple): both free, still adjacent.
    let lines = attack(&mut b, 0, "clash_end", 1);
    assert_contains(&lines, &["The Clash ends: Greymon lets go; both are free."]);
    assert!(hold(&mut b, 0).is_none() && hold(&mut b, 1).is_none());
    assert_eq!(fighter(&mut b, 0).distance_to(&fighter(&mut b, 1)), Some(1));
}

#[test]
fn digimon_clash_participants_cannot_move_away_and_throw_sends_body_squares() {
    let mut b = greymon_clashes_gabumon(&[2, 2, 2, 1, 1, 1]);
    // Staying in contact is allowed; stepping away is not.
    let away = b.submit(Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(0, 1)],
        boosted: false,
    });
    assert!(
        matches!(away, Err(RuleError::PathBlocked { .. })),
        "{away:?}"
    );
    b.submit(Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(1, 2)],
        boosted: false,
    })
    .expect("a step that keeps contact");
    // That was Greymon's last action; Gabumon's turn is the Clash's: round 2.
    assert_eq!((b.turn().round, b.active()), (2, Some(CombatantId(0))));
    // Throw: Body 6 squares straight away from Greymon at (1, 2): Gabumon from (2, 1) to
    // (8, -5) is off the map, so it stops at the edge (3, 0); Damage stat 9 - Armor 2 = 7.
    let lines = attack(&mut b, 0, "clash_throw", 1);
    assert_contains(&lines, &["The Clash ends: Greymon throws Gabumon."]);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Gabumon takes 7 of the 9 damage")),
        "{lines:#?}"
    );
    assert_eq!(fighter(&mut b, 1).life.current, 11);
    assert!(hold(&mut b, 0).is_none() && hold(&mut b, 1).is_none());
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_throw_into_a_group_of_enemies_is_a_basic_ranged_attack_with_cpu_times_three() {
    // "If the thrown Digimon would hit a group of enemies, consider it a basic [Ranged]
    // Attack, with a bonus to the Damage and Accuracy equal to the thrower's CPU Value times
    // three." (003:167) Greymon (0) at (1, 1) holds Gabumon (1) at (2, 1); Patamon (1) stands
    // at (5, 1), in the throw's line.
    let mut b = battle(
        vec![
            unit("greymon", 0, (1, 1)),
            unit("gabumon", 1, (2, 1)),
            unit("patamon", 1, (5, 1)),
        ],
        &[
            // Initiative: Greymon 15 + 5, Gabumon 3 + 4, Patamon 3 + 5.
            5, 5, 5, 1, 1, 1, 1, 1, 1, // The Clash: Greymon controls (equal margins, Body).
            1, 1, 1, 5, 5, 5, // Round 2's checks: Greymon 16, Gabumon 2.
            2, 2, 2, 1, 1, 1, // The crash: Accuracy 4+4+4 + 7 + CPU 2 x3 = 25 ...
            4, 4, 4, // ... against Patamon's Dodge 5+5+5 + 6 = 21: a hit.
            5, 5, 5, // Damage (9 + 6) / 2 = 7d6: 2 x 7 = 14, minus Armor 1 = 13.
            2, 2, 2, 2, 2, 2, 2,
        ],
    );
    attack(&mut b, 0, "clash", 1);
    end_turn(&mut b);
    end_turn(&mut b);
    assert_eq!((b.turn().round, b.active()), (2, Some(CombatantId(0))));
    // The preview names the foe in the way and the exact chance, from the crash's own rolls.
    let order = order(0, "clash_throw", 1);
    let preview = b.preview(&order).expect("a Throw preview");
    let view = b.aim_view(&order, &preview, 0);
    let d = data();
    let (g, pt) = (fighter(&mut b, 0), fighter(&mut b, 2));
    let strike = digimon::throw::crash_strike_spec(d, &g).expect("a crash");
    let chance = digimon::hit_chance(&strike, &digimon::defense_spec(d, &pt));
    let line = view
        .lines
        .iter()
        .find(|l| l.starts_with("Thrown into Patamon"))
        .unwrap_or_else(|| panic!("{:#?}", view.lines));
    assert!(
        line.contains(&gridclash::battle::aim::pct(chance)),
        "{line} / {chance}"
    );
    assert_eq!(
        strike.modifiers.iter().map(|m| m.value).sum::<i64>(),
        7 + 6,
        "Accuracy 7 + CPU 2 x3"
    );
    // The computer weighs the crash: the chance times the mean damage past Armor.
    // 7d6 less Armor 1 all but always fells Patamon's 16 HP, so it is worth about 16 a hit.
    let gb = fighter(&mut b, 1);
    let all = b.fighters();
    let worth = digimon::throw::crash_worth(d, &b.field(), &all, &g, &gb);
    assert!(
        worth > 0.95 * chance * 16.0 && worth <= chance * 16.0,
        "{worth} for {chance}"
    );
    let lines = attack(&mut b, 0, "clash_throw", 1);
    assert_contains(
        &lines,
        &[
            "Gabumon is thrown into Patamon: a basic [Ranged] attack by Greymon, CPU x3 to Accuracy and Damage.",
        ],
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Patamon takes 13 of the 14 damage")),
        "{lines:#?}"
    );
    // Gabumon stops on the square before Patamon; Patamon dodged one attack this round.
    assert_eq!(fighter(&mut b, 1).position, Some(Square::new(4, 1)));
    let pt = fighter(&mut b, 2);
    assert_eq!(pt.life.current, 16 - 13);
    assert_eq!(pt.defense.diminishing, 1);
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_throw_into_an_ally_or_a_wall_only_stops() {
    // Only foes of the thrower make a group: an ally of the thrower in the way stops the flight
    // and nobody rolls.
    let mut b = battle(
        vec![
            unit("greymon", 0, (1, 1)),
            unit("gabumon", 1, (2, 1)),
            unit("agumon", 0, (5, 1)),
        ],
        &[
            5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 5, 2, 2, 2, 1, 1, 1,
        ],
    );
    attack(&mut b, 0, "clash", 1);
    end_turn(&mut b);
    end_turn(&mut b);
    let lines = attack(&mut b, 0, "clash_throw", 1);
    assert!(
        !lines.iter().any(|l| l.contains("is thrown into")),
        "{lines:#?}"
    );
    assert_eq!(fighter(&mut b, 1).position, Some(Square::new(4, 1)));
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_stun_ends_the_clash() {
    // "Stun … If the target was Clashing, the Clash ends" (Paralysis says the same).
    let mut b = greymon_clashes_gabumon(&[]);
    give(&mut b, 1, EffectKind::Stun, 0, 2, 0);
    end_turn(&mut b);
    assert!(hold(&mut b, 0).is_none() && hold(&mut b, 1).is_none());
    let lines = crate::common::lines(&mut b, 0);
    assert!(
        lines
            .iter()
            .any(|l| l == "The Clash ends: Gabumon is Stunned."),
        "{lines:#?}"
    );
}

#[test]
fn digimon_paralysis_ends_the_clash() {
    // "Paralysis … If the target was Clashing, the Clash ends": on the controller too.
    let mut b = greymon_clashes_gabumon(&[]);
    give(&mut b, 0, EffectKind::Paralysis, 2, 2, 1);
    end_turn(&mut b);
    assert!(hold(&mut b, 0).is_none() && hold(&mut b, 1).is_none());
    let lines = crate::common::lines(&mut b, 0);
    assert!(
        lines
            .iter()
            .any(|l| l == "The Clash ends: Greymon is Paralysed."),
        "{lines:#?}"
    );
}

#[test]
fn digimon_clash_control_odds_are_exact() {
    // The preview's chance of control against 200,000 pairs of the resolution's own rolls.
    let d = data();
    let mut b = greymon_and_gabumon(&[]);
    let (g, gb) = (fighter(&mut b, 0), fighter(&mut b, 1));
    let p = grapple::control_chance(d, &g, &gb, g.id);
    let q = grapple::control_chance(d, &gb, &g, g.id);
    assert!(
        (p + q - 1.0).abs() < 1e-9,
        "someone always controls: {p} + {q}"
    );
    let mut dice = DiceSource::seeded(11);
    let (sa, sb) = (
        grapple::check_spec(d, &g, &gb, g.id),
        grapple::check_spec(d, &gb, &g, g.id),
    );
    let n = 200_000;
    let mut won = 0;
    for _ in 0..n {
        let ma = roll(&sa, &mut dice).total - grapple::tn(d, &gb);
        let mb = roll(&sb, &mut dice).total - grapple::tn(d, &g);
        // Greymon's higher Body wins equal margins.
        if ma >= mb {
            won += 1;
        }
    }
    let freq = f64::from(won) / f64::from(n);
    let sigma = (p * (1.0 - p) / f64::from(n)).sqrt();
    assert!((freq - p).abs() < 5.0 * sigma, "{freq} against {p}");
    // The Pin the same way: the controller meets or beats its opponent.
    let pin = grapple::pin_chance(d, &g, &gb);
    let (pa, pb) = grapple::pin_specs(d, &g, &gb);
    let mut won = 0;
    for _ in 0..n {
        if roll(&pa, &mut dice).total >= roll(&pb, &mut dice).total {
            won += 1;
        }
    }
    let freq = f64::from(won) / f64::from(n);
    let sigma = (pin * (1.0 - pin) / f64::from(n)).sqrt();
    assert!((freq - pin).abs() < 5.0 * sigma, "{freq} against {pin}");
    assert!(pin > 0.8, "Body 6 + 4 against Body 3: {pin}");
}

#[test]
fn digimon_charm_gives_the_target_to_the_charmers_side_until_it_wears_off() {
    // Devimon (1) wins initiative and uses Touch of Evil on Greymon (0), 4 squares away:
    // Accuracy 3+3+3 + 7 = 16 against Dodge 1+1+1 + 5 = 8.
    let mut b = battle(
        vec![unit("devimon", 1, (5, 1)), unit("greymon", 0, (1, 1))],
        &[3, 3, 3, 1, 1, 1, 3, 3, 3, 1, 1, 1],
    );
    let lines = attack(&mut b, 0, "touch_of_evil", 1);
    assert_contains(
        &lines,
        &["Charm from Devimon on Greymon: Devimon's side commands it for 2 turn(s)."],
    );
    let g = fighter(&mut b, 1);
    assert_eq!(g.side, Side(1), "the charmer's side commands it");
    assert_eq!(g.digi.as_ref().and_then(|s| s.charmed_from), Some(Side(0)));
    assert!(
        b.outcome().is_none(),
        "a Charmed unit still counts for its own side"
    );
    // Devimon's Complex Action used its turn: Greymon's comes, fighting for Devimon's side, so
    // Devimon is no opponent of it.
    assert_eq!(b.active(), Some(CombatantId(1)));
    let refused = b.submit(Command::Attack(order(1, "strike", 0)));
    assert!(
        matches!(
            refused,
            Err(RuleError::NotAnOpponent(_)) | Err(RuleError::DigimonTarget(_))
        ),
        "{refused:?}"
    );
    end_turn(&mut b);
    assert_eq!(
        fighter(&mut b, 1).side,
        Side(1),
        "one of its 2 turns is left"
    );
    end_turn(&mut b);
    end_turn(&mut b);
    // RAM 4 / 2 = 2 of Greymon's turns, then it is its own side's again.
    let g = fighter(&mut b, 1);
    assert_eq!(g.side, Side(0));
    let lines = crate::common::lines(&mut b, 0);
    assert!(
        lines
            .iter()
            .any(|l| l == "Greymon is no longer Charmed: it fights for its own side again."),
        "{lines:#?}"
    );
    crate::common::assert_dice_used(&b);
}

/// A battle on `rows` (the shipped terrain symbols) whose dice come from `faces`.
fn battle_on_rows(rows: &[&str], units: Vec<UnitSetup>, faces: &[u32]) -> Battle {
    crate::common::battle_on_with(rules(), rows, units, faces)
}

/// The terrain id of square `(x, y)` of a battle's map.
fn terrain_at(b: &Battle, x: i32, y: i32) -> String {
    crate::common::terrain(b, x, y).id
}

fn use_skill(who: u32, at: (i32, i32), interrupt: bool) -> Command {
    let way = if interrupt {
        SkillWay::Interrupt
    } else {
        SkillWay::Action
    };
    crate::common::use_skill(who, at, way)
}

#[test]
fn digimon_use_a_skill_moves_a_hazardous_object() {
    // "Use a Skill (Simple Action): … a check to move a hazardous object". Greymon (0) beside
    // a boulder heaves it aside: 3d6 3+3+4 + Body 6 = 16 meets TN 16, and the square is open
    // ground from then on. Its second Simple Action on the data rubble: 1+1+1 + 6 = 9 misses
    // TN 12 and the rubble stays.
    let mut b = battle_on_rows(
        &[".:....", "..o...", "......"],
        vec![unit("greymon", 0, (1, 1)), unit("gabumon", 1, (5, 1))],
        &[3, 3, 3, 1, 1, 1, 3, 3, 4, 1, 1, 1],
    );
    let me = fighter(&mut b, 0);
    let boulder = data_check(&b, 2, 1);
    let p = skill::chance(&rules(), &me, &boulder, SkillWay::Action);
    assert_eq!(
        p,
        1.0 - distribution(&skill::spec(&rules(), &me, &boulder, SkillWay::Action)).cdf(15)
    );
    // 3d6 >= 10 is 62.5 %; a 6 that explodes adds a little more.
    assert!(p > 0.625 && p < 0.7, "{p}");
    let lines = crate::common::run(&mut b, use_skill(0, (2, 1), false));
    assert_contains(
        &lines,
        &[
            "Greymon spends 1 AP on a Skill Check.",
            "Greymon makes a Skill Check to heave the boulder aside at (2, 1): Heave the boulder aside check 16 = d6:3 [6s explode] + d6:3 [6s explode] + d6:4 [6s explode] + Body 6 against TN 16 -> success.",
            "Greymon clears (2, 1): the boulder is now open ground.",
        ],
    );
    assert_eq!(terrain_at(&b, 2, 1), "open");
    assert_eq!(fighter(&mut b, 0).actions.usable(), 1, "a Simple Action");
    let lines = crate::common::run(&mut b, use_skill(0, (1, 0), false));
    assert!(
        lines.iter().any(|l| l
            .starts_with("Greymon makes a Skill Check to clear the data rubble at (1, 0):")
            && l.contains("check 9 = ")
            && l.ends_with("+ Body 6 against TN 12 -> failure.")),
        "{lines:#?}"
    );
    assert_eq!(terrain_at(&b, 1, 0), "rubble");
    // The boulder's square now lets a move and a line of sight through.
    assert!(b.field().cost(Square::new(2, 1)).is_some());
    crate::common::assert_dice_used(&b);
}

/// The Skill Check the terrain at `(x, y)` offers.
fn data_check(b: &Battle, x: i32, y: i32) -> gridclash::ruleset::SkillCheckDef {
    crate::common::terrain(b, x, y)
        .skill_check
        .expect("a Skill Check")
}

#[test]
fn digimon_use_a_skill_needs_a_square_beside_it_that_a_check_changes() {
    let mut b = battle_on_rows(
        &["......", ".....o", "..o..."],
        vec![unit("greymon", 0, (1, 1)), unit("gabumon", 1, (3, 1))],
        &[3, 3, 3, 1, 1, 1],
    );
    let why = |e: RuleError| match e {
        RuleError::CannotUseSkill { why, .. } => why,
        e => panic!("{e:?}"),
    };
    let far = b.check(&use_skill(0, (5, 1), false)).expect_err("too far");
    assert!(why(far).contains("is not beside it"));
    let open = b
        .check(&use_skill(0, (1, 0), false))
        .expect_err("open ground");
    assert!(why(open).contains("(1, 0) is Open ground, which no Skill Check changes"));
    assert!(matches!(
        b.check(&use_skill(1, (2, 2), false)),
        Err(RuleError::NotYourTurn { .. })
    ));
    b.check(&use_skill(0, (2, 2), false))
        .expect("beside a boulder");
    // With no Simple Action left only the free check remains.
    stage(&mut b, 0, |f| f.actions.standard = 0);
    assert!(matches!(
        b.check(&use_skill(0, (2, 2), false)),
        Err(RuleError::NoActions { .. })
    ));
    b.check(&use_skill(0, (2, 2), true)).expect("the Interrupt");
    let ten = crate::common::use_skill(0, (2, 2), SkillWay::TakeTen);
    assert!(why(b.check(&ten).expect_err("a d20 rule")).contains("Taking 10 is a d20 rule"));
    // Another ruleset has no Skill Check on the ground.
    let mut dbu = crate::common::duel("brawler", "ki_blaster", &[]);
    assert!(matches!(
        dbu.check(&use_skill(0, (1, 1), false)),
        Err(RuleError::NotInRuleset { .. })
    ));
}

#[test]
fn digimon_interrupt_makes_a_free_skill_check_once_a_round_instead_of_intercede() {
    // Garurumon (0) uses its Interrupt Action for a free check on the boulder beside it
    // (1+1+1 + Body 5 = 8 against TN 16: the boulder stays), keeping both Simple Actions; a
    // second free check this round is refused. Then Greymon's Nova Blast hits Gabumon and
    // Garurumon, whose player is asked about Intercedes, is not offered one: the round's
    // Interrupt is spent.
    let mut b = battle_on_rows(
        &[
            "............",
            "............",
            "............",
            ".........o..",
            "............",
        ],
        vec![
            asked("garurumon", 1, (8, 3)),
            unit("greymon", 0, (2, 1)),
            unit("gabumon", 1, (5, 1)),
        ],
        &[
            3, 3, 3, 2, 2, 2, 1, 1, 1, // initiative: Garurumon 15, Greymon 11, Gabumon 7
            1, 1, 1, // the free check
            3, 3, 3, 1, 1, 1, 2, 2, 2, 2, // Nova Blast: 16 against 8, damage 8
        ],
    );
    let lines = crate::common::run(&mut b, use_skill(0, (9, 3), true));
    assert_contains(
        &lines,
        &[
            "Garurumon uses its Interrupt Action for a free Skill Check (Heave the boulder aside): no Intercede this round.",
        ],
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("check 8 = ") && l.ends_with("+ Body 5 against TN 16 -> failure.")),
        "{lines:#?}"
    );
    assert_eq!(terrain_at(&b, 9, 3), "rock");
    assert_eq!(
        fighter(&mut b, 0).actions.usable(),
        2,
        "no Simple Action spent"
    );
    let again = b
        .check(&use_skill(0, (9, 3), true))
        .expect_err("once a round");
    assert!(
        matches!(again, RuleError::CannotUseSkill { .. }),
        "{again:?}"
    );
    b.check(&use_skill(0, (9, 3), false))
        .expect("a Simple Action still can");
    end_turn(&mut b);
    let lines = attack(&mut b, 1, "nova_blast", 2);
    assert!(b.awaiting().is_none(), "no Intercede offered");
    assert_contains(&lines, &["Gabumon takes 6 of the 8 damage [Armor 2]."]);
    crate::common::assert_dice_used(&b);
}

/// A unit whose player is asked about Intercedes.
fn asked(archetype: &str, side: u8, at: (i32, i32)) -> UnitSetup {
    let mut u = unit(archetype, side, at);
    u.controller = Controller {
        exploits: ExploitPolicy::Prompt,
        ..Controller::default()
    };
    u
}

#[test]
fn digimon_intercede_takes_the_hit_with_its_own_armor_no_dodge_once_a_round() {
    // Greymon (0) fires Nova Blast at Gabumon (1), 3 squares away: 3+3+3 + 7 = 16 against
    // Dodge 1+1+1 + 5 = 8, a hit. Garurumon (1), 5 squares off, Intercedes: it moves next to
    // Gabumon on Greymon's side and takes the same damage roll, 2+2+2+2 = 8, minus its own
    // Armor 3 = 5, and the Weaken; Gabumon takes nothing.
    let mut b = battle(
        vec![
            unit("greymon", 0, (2, 1)),
            unit("gabumon", 1, (5, 1)),
            asked("garurumon", 1, (8, 3)),
        ],
        &[
            3, 3, 3, 1, 1, 1, 1, 1, 1, // initiative: Greymon, Garurumon, Gabumon
            3, 3, 3, 1, 1, 1, 2, 2, 2, 2, // the first Nova Blast
            3, 3, 3, 1, 1, 1, 1, 1, 1, 1, // the second
        ],
    );
    b.submit(Command::Attack(order(0, "nova_blast", 1)))
        .expect("Nova Blast");
    assert_eq!(
        b.awaiting(),
        Some(&Decision::Intercede {
            who: CombatantId(2),
            target: CombatantId(1),
            attacker: CombatantId(0),
        })
    );
    let lines = crate::common::run(
        &mut b,
        Command::Intercede {
            who: CombatantId(2),
            accept: true,
        },
    );
    assert!(
        lines.iter().any(
            |l| l.starts_with("Garurumon Intercedes: moves from (8, 3) to ")
                && l.ends_with("steps between Gabumon and Greymon and takes the hit (no Dodge).")
        ),
        "{lines:#?}"
    );
    assert_contains(&lines, &["Garurumon takes 5 of the 8 damage [Armor 3]."]);
    let (gab, gar) = (fighter(&mut b, 1), fighter(&mut b, 2));
    assert_eq!((gab.life.current, gar.life.current), (18, 29));
    assert_eq!(gar.distance_to(&gab), Some(1));
    assert!(
        gar.distance_to(&fighter(&mut b, 0)) < Some(3),
        "between them"
    );
    assert!(
        digimon::has(&gar, EffectKind::Weaken),
        "the effect lands on it"
    );
    assert_eq!(gar.defense.diminishing, 0, "it rolled no Dodge");
    // Once a round: the second hit on Gabumon is not offered (16 against 3 + 5 - 1 = 7).
    let lines = attack(&mut b, 0, "nova_blast", 1);
    assert!(b.awaiting().is_none());
    assert_contains(&lines, &["Gabumon takes 2 of the 4 damage [Armor 2]."]);
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_intercede_against_an_area_leaves_half_the_damage_behind() {
    // Devimon's Evil Wing bursts on Gabumon (0); Greymon (0) Intercedes. The one damage roll,
    // 3+3+3+3 = 12: Greymon takes 12 - Armor 4 = 8, Gabumon behind it half of 12 - 2 = 5.
    let mut b = battle(
        vec![
            unit("devimon", 1, (8, 1)),
            unit("gabumon", 0, (3, 1)),
            asked("greymon", 0, (6, 1)),
        ],
        &[3, 3, 3, 1, 1, 1, 1, 1, 1, 3, 3, 3, 1, 1, 1, 3, 3, 3, 3],
    );
    b.submit(Command::Attack(crate::common::attack(
        0,
        "evil_wing",
        AttackTarget::Square(Square::new(3, 1)),
    )))
    .expect("Evil Wing");
    let lines = crate::common::run(
        &mut b,
        Command::Intercede {
            who: CombatantId(2),
            accept: true,
        },
    );
    assert!(
        lines.iter().any(|l| l.contains("Greymon Intercedes:")
            && l.ends_with("Gabumon still takes half the damage.")),
        "{lines:#?}"
    );
    assert_contains(&lines, &["Greymon takes 8 of the 12 damage [Armor 4]."]);
    assert!(
        lines
            .iter()
            .any(|l| l
                == "Gabumon takes 5 of the 12 damage [Armor 2; half of 10: an ally Interceded]."),
        "{lines:#?}"
    );
    assert_eq!(fighter(&mut b, 1).life.current, 13);
    assert_eq!(fighter(&mut b, 2).life.current, 28);
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_intercede_needs_the_movement_to_reach_and_may_be_declined() {
    // Too far: Garurumon 20 squares off cannot reach a square between (Movement 7).
    let mut b = battle(
        vec![
            unit("greymon", 0, (2, 1)),
            unit("gabumon", 1, (5, 1)),
            asked("garurumon", 1, (27, 6)),
        ],
        &[3, 3, 3, 1, 1, 1, 1, 1, 1, 3, 3, 3, 1, 1, 1, 2, 2, 2, 2],
    );
    b.submit(Command::Attack(order(0, "nova_blast", 1)))
        .expect("Nova Blast");
    assert!(b.awaiting().is_none(), "nobody can reach");
    assert_eq!(fighter(&mut b, 1).life.current, 18 - 6);
    // In reach but declined: the hit lands on the target.
    let mut b = battle(
        vec![
            unit("greymon", 0, (2, 1)),
            unit("gabumon", 1, (5, 1)),
            asked("garurumon", 1, (8, 3)),
        ],
        &[3, 3, 3, 1, 1, 1, 1, 1, 1, 3, 3, 3, 1, 1, 1, 2, 2, 2, 2],
    );
    b.submit(Command::Attack(order(0, "nova_blast", 1)))
        .expect("Nova Blast");
    crate::common::run(
        &mut b,
        Command::Intercede {
            who: CombatantId(2),
            accept: false,
        },
    );
    assert_eq!(fighter(&mut b, 1).life.current, 18 - 6);
    assert_eq!(fighter(&mut b, 2).position, Some(Square::new(8, 3)));
    crate::common::assert_dice_used(&b);
}

#[test]
#[ignore = "full-size tier: cargo test --profile fast --no-default-features -- --ignored"]
fn digimon_ai_beats_random_play_ninety_percent_over_200_battles() {
    let (won, played) = crate::common::normal_against_random(&["digimon-rivals", "digimon-ambush"]);
    assert!(
        won * 10 >= played * 9,
        "normal AI won {won} of {played} against random play"
    );
}

#[test]
fn digimon_broken_files_name_file_line_and_field() {
    // An unknown attack, a Clash action with an effect, an unknown size, an unknown stage,
    // another family's terrain field and a Skill Check with an unknown stat and an unknown
    // terrain to become are each refused with where they are.
    let err = crate::common::load_error_of_edited("digimon", |f, text| {
        match f {
        "roster.ron" => text
            .replace("\"pepper_breath\"]", "\"pepper_breth\"]")
            .replace("stage: \"Champion\", role: \"Champion tyrant\"", "stage: \"Armor\", role: \"Champion tyrant\"")
            .replace("size: \"Tiny\"", "size: \"Titanic\"")
            .replace("reach: 3,", "reach: 30,"),
        "digimon.ron" => text
            .replace(
                "damage: false, complex: true, clash: Some(Pin)",
                "damage: false, complex: true, effect: Some(Stun), clash: Some(Pin)",
            )
            .replace("digivolve: Some((actions: 1, per_battle: 1,", "digivolve: Some((actions: 3, per_battle: 0,"),
        "terrain.ron" => text
            .replace("difficult: true,\n            description: \"Difficult Terrain: a move that enters it is a Complex Action (both of your Simple Actions).\",\n        ),\n        (\n            id: \"water\"", "concealment: 40,\n            description: \"x\",\n        ),\n        (\n            id: \"water\"")
            .replace("stat: \"BODY\", target: 16, becomes: \"open\"", "stat: \"BRAWN\", target: 16, becomes: \"lava\""),
        _ => text,
    }
    });
    for want in [
        "roster.ron",
        "unknown attack `pepper_breth`",
        "unknown stage `Armor`",
        "reach: a Reach is 0 to 20 squares, not 30",
        "digimon.ron",
        "unknown size `Titanic`",
        "a Clash action is tagged Melee, carries no effect",
        "digivolve.actions: must be 1 to 2 (the Simple Actions of a turn)",
        "digivolve.per_battle: must be at least 1",
        "terrain.ron",
        "`concealment` is not a Digimon rule",
        "unknown stat `BRAWN`",
        "unknown terrain `lava`",
    ] {
        assert!(err.contains(want), "missing {want:?} in:\n{err}");
    }
    assert!(
        err.lines()
            .any(|l| l.contains("roster.ron:") && l.contains("attacks[1]")),
        "{err}"
    );
}

/// Greymon (0) as if it had fallen back to its Default Stage: Agumon at 1 HP.
fn fall_back_to_agumon(b: &mut Battle, id: u32) {
    stage(b, id, |f| {
        if let Some(s) = f.digi.as_mut() {
            s.form = Some("agumon".into());
        }
        f.life.max = 18;
        f.life.current = 1;
        f.loadout.profiles = gridclash::ruleset::digimon::loadout(
            &data().combat,
            &["strike".into(), "pepper_breath".into()],
        );
    });
}

fn digivolve(who: u32, into: &str) -> Command {
    Command::Digivolve {
        who: CombatantId(who),
        into: into.into(),
    }
}

/// Why `who` may not Digivolve to `into` now, in words.
fn refusal(b: &mut Battle, who: u32, into: &str) -> String {
    let fighters = b.fighters();
    let me = fighters
        .iter()
        .find(|f| f.id == CombatantId(who))
        .expect("combatant");
    digimon::digivolve::check_digivolve(&rules(), &fighters, me, into)
        .map(|_| ())
        .expect_err("refused")
        .to_string()
}

#[test]
fn digimon_digivolve_is_a_simple_action_that_removes_all_damage() {
    // "Digivolve (Simple Action)"; "it removes all damage taken to its Hit Points": Greymon,
    // fallen back to Agumon at 1 HP, Digivolves with one of its two Simple Actions into
    // Greymon at its full 36 HP, with Greymon's attacks, and attacks with the other.
    let mut b = greymon_with_tai(&[6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1]);
    fall_back_to_agumon(&mut b, 0);
    let view = b.bar_view(CombatantId(0)).expect("its bar");
    assert_eq!(
        view.digivolve
            .iter()
            .map(|o| (o.into.as_str(), o.hp))
            .collect::<Vec<_>>(),
        [("greymon", 36)]
    );
    let lines = crate::common::run(&mut b, digivolve(0, "greymon"));
    assert_contains(
        &lines,
        &[
            "Greymon Digivolves from Agumon (Rookie) into Greymon (Champion): all damage removed (+35 HP), 36 HP.",
        ],
    );
    let g = fighter(&mut b, 0);
    assert_eq!((g.life.current, g.life.max), (36, 36));
    assert_eq!(g.actions.usable(), 1, "a Simple Action spent");
    let greymon = data().digimon("greymon").expect("on the roster");
    assert_eq!(
        digimon::stat(data(), &g, "DMG"),
        greymon.stats["DMG"],
        "Greymon's stats again"
    );
    assert!(digimon::attacks_now(data(), &g).contains(&"nova_blast".to_string()));
    assert!(
        g.digi
            .as_ref()
            .is_some_and(|s| s.form.is_none() && s.digivolved == 1)
    );
    assert!(
        b.bar_view(CombatantId(0))
            .expect("bar")
            .digivolve
            .is_empty()
    );
    attack(&mut b, 0, "nova_blast", 2);
}

#[test]
fn digimon_digivolve_needs_a_higher_stage_its_tamer_and_comes_once_a_battle() {
    let mut b = greymon_with_tai(&[6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1]);
    // At the top of its line there is nothing to become.
    assert_eq!(
        refusal(&mut b, 0, "greymon"),
        "#0 cannot Digivolve: Greymon has no higher stage on the roster"
    );
    fall_back_to_agumon(&mut b, 0);
    assert_eq!(
        refusal(&mut b, 0, "garurumon"),
        "#0 cannot Digivolve: `garurumon` is not a higher stage of Agumon (it can become Greymon)"
    );
    assert_eq!(
        refusal(&mut b, 1, "greymon"),
        "#1 cannot Digivolve: a Tamer does not Digivolve"
    );
    // Gabumon has no Tamer here (our prerequisite: the partner's bond).
    assert_eq!(
        refusal(&mut b, 2, "garurumon"),
        "#2 cannot Digivolve: it has no Tamer in the fight"
    );
    // With Tai out of the fight, Agumon cannot either.
    stage(&mut b, 1, |f| f.life.current = 0);
    assert_eq!(
        refusal(&mut b, 0, "greymon"),
        "#0 cannot Digivolve: its Tamer Tai is out of the fight"
    );
    stage(&mut b, 1, |f| f.life.current = 8);
    // Once a battle: after one Digivolution and a second fall, it stays Agumon.
    crate::common::run(&mut b, digivolve(0, "greymon"));
    fall_back_to_agumon(&mut b, 0);
    assert_eq!(
        refusal(&mut b, 0, "greymon"),
        "#0 cannot Digivolve: it has Digivolved 1 time this battle, as often as the ruleset allows"
    );
    assert!(
        b.bar_view(CombatantId(0))
            .expect("bar")
            .digivolve
            .is_empty()
    );
    let err = b.submit(digivolve(0, "greymon")).expect_err("refused");
    assert!(matches!(err, RuleError::CannotDigivolve { .. }), "{err}");
}

#[test]
fn digimon_digivolve_needs_a_simple_action_left() {
    let mut b = greymon_with_tai(&[6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1]);
    fall_back_to_agumon(&mut b, 0);
    stage(&mut b, 0, |f| f.actions.standard = 0);
    let err = b.submit(digivolve(0, "greymon")).expect_err("no actions");
    assert!(matches!(err, RuleError::NoActions { .. }), "{err}");
}

#[test]
fn digimon_partner_falls_back_again_after_digivolving() {
    // After Digivolving back to Greymon, 0 HP takes it down to Agumon at 1 HP again (the
    // Champion it is falls to its Default Stage), not straight to a Digitama.
    let mut b = gabumon_strikes_greymon_with_tai();
    stage(&mut b, 1, |f| {
        if let Some(s) = f.digi.as_mut() {
            s.digivolved = 1;
        }
    });
    crate::common::set_life(&mut b, 1, 1);
    let lines = attack(&mut b, 0, "strike", 1);
    assert_contains(
        &lines,
        &["Greymon drops to 0 HP and falls back to its Default Stage: Agumon (Rookie) at 1 HP."],
    );
}

#[test]
fn digimon_digivolve_is_refused_outside_the_digimon_rules() {
    // A foreign command (from a replay, a script, the command line) is refused with the rule.
    let mut b = Arena::new("dbu")
        .units(vec![
            UnitSetup::new("brawler", 0, Square::new(1, 1)),
            UnitSetup::new("brawler", 1, Square::new(3, 1)),
        ])
        .build();
    let who = b.turn().active().expect("someone acts");
    let err = b
        .submit(Command::Digivolve {
            who,
            into: "greymon".into(),
        })
        .expect_err("not a DBU maneuver");
    assert!(
        matches!(
            err,
            RuleError::NotInRuleset {
                what: "Digivolve",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn digimon_ai_digivolves_a_fallen_partner_at_every_level() {
    use gridclash::ai::planner::{Level, decide};
    use rand::SeedableRng;
    // Greymon fallen to Agumon at 1 HP, Tai beside it: in the turn they share (Tai may
    // Direct first), Agumon Digivolves.
    for level in [Level::Easy, Level::Normal, Level::Hard] {
        let mut b = greymon_with_tai(&[6; 40]);
        fall_back_to_agumon(&mut b, 0);
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
        let mut played = Vec::new();
        while let Some(who) = b.turn().active().filter(|w| w.0 < 2) {
            let cmd = decide(&mut b, who, level, &mut rng);
            played.push(cmd.clone());
            b.submit(cmd).expect("a legal command");
            if played.len() > 10 {
                break;
            }
        }
        assert!(
            played.contains(&digivolve(0, "greymon")),
            "{level:?}: {played:?}"
        );
    }
}

#[test]
fn digimon_partners_digivolve_in_the_shipped_battles() {
    // The computer players Digivolve a fallen partner in the shipped partner battles.
    let l = gridclash::scenario::load(&gridclash::scenario::find("digimon-rivals")).expect("loads");
    let mut seen = 0;
    for seed in 1..=6 {
        let done = gridclash::sim::play(
            &l,
            seed,
            &[gridclash::ai::Policy::Normal, gridclash::ai::Policy::Normal],
            60,
        )
        .expect("plays");
        seen += done
            .battle
            .events()
            .iter()
            .filter(|e| matches!(e, gridclash::battle::event::BattleEvent::Digivolved { .. }))
            .count();
    }
    assert!(seen >= 3, "{seen} Digivolutions in 6 battles");
}

/// Devimon (0, Reach 3) and a Gabumon (1) three squares east of it; Devimon acts first.
fn devimon_and_gabumon_apart(faces: &[u32]) -> Battle {
    let mut all = vec![5, 5, 5, 1, 1, 1];
    all.extend_from_slice(faces);
    battle(
        vec![unit("devimon", 0, (1, 1)), unit("gabumon", 1, (4, 1))],
        &all,
    )
}

/// Makes 0 and 1 a Clash at `reach` squares that `control` controls and `starter` started.
fn stage_clash(b: &mut Battle, control: u32, starter: u32, reach: u32) {
    for (me, opp) in [(0, 1), (1, 0)] {
        stage(b, me, |f| {
            if let Some(s) = f.digi.as_mut() {
                s.clash = Some(ClashHold {
                    opponent: CombatantId(opp),
                    control: me == control,
                    started_by: CombatantId(starter),
                    pinned: false,
                    shield: 2,
                    reach,
                });
            }
        });
    }
}

#[test]
fn digimon_reach_starts_a_clash_at_a_range_with_a_penalty_per_square() {
    // "If a Digimon has the Reach Quality, it can start Clashes at a Range equal to its Reach
    // value … takes a penalty to all Clash Rolls equal to the number of squares it is away":
    // Devimon (Reach 3) grapples Gabumon three squares away, its check 5+5+5 + Body 6 + 4
    // (Large against Small) - 3 (the range) = 22 against Gabumon's Agility 4; Gabumon's
    // 1+1+1 + Body 3 - 4 = 2 against Devimon's 5. The two stay that far apart at most.
    let mut b = devimon_and_gabumon_apart(&[5, 5, 5, 1, 1, 1]);
    let d = data();
    let (dv, gb) = (fighter(&mut b, 0), fighter(&mut b, 1));
    let mods = |s: &RollSpec| {
        s.modifiers
            .iter()
            .map(|m| (m.label.clone(), m.value))
            .collect::<Vec<_>>()
    };
    assert!(
        mods(&grapple::check_spec(d, &dv, &gb, dv.id))
            .contains(&("Clash at a range: 3 squares away".to_string(), -3))
    );
    assert!(
        !mods(&grapple::check_spec(d, &gb, &dv, dv.id))
            .iter()
            .any(|(l, _)| l.contains("range")),
        "only the one who reaches out takes the penalty"
    );
    let lines = attack(&mut b, 0, "clash", 1);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Clash at a range: 3 squares away") && l.contains("22")),
        "{lines:#?}"
    );
    assert_contains(
        &lines,
        &["Devimon controls the Clash (margin 18 against -3); Gabumon may not act."],
    );
    let h = hold(&mut b, 1).expect("held");
    assert_eq!((h.reach, h.control), (3, false));
    // It may not move away (four squares), but may close in.
    let away = b.submit(Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(0, 1)],
        boosted: false,
    });
    assert!(away.is_err(), "moved away from its Clash: {away:?}");
    let near = Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(2, 1)],
        boosted: false,
    };
    b.submit(near).expect("closing in keeps the Clash");
    assert!(hold(&mut b, 0).is_some());
}

#[test]
fn digimon_reach_is_how_far_a_clash_may_start() {
    // Greymon has no Reach: a Clash only with an adjacent foe. Devimon's Reach is 3.
    let mut b = devimon_and_gabumon_apart(&[]);
    stage(&mut b, 1, |f| f.position.0 = Some(Square::new(5, 1)));
    let err = b
        .submit(Command::Attack(order(0, "clash", 1)))
        .expect_err("four squares");
    assert_eq!(err.to_string(), "#1 is 4 squares away; Clash reaches 3");
    let mut b = battle(
        vec![unit("greymon", 0, (1, 1)), unit("gabumon", 1, (3, 1))],
        &[5, 5, 5, 1, 1, 1],
    );
    let err = b
        .submit(Command::Attack(order(0, "clash", 1)))
        .expect_err("two squares");
    assert_eq!(err.to_string(), "#1 is 2 squares away; Clash reaches 1");
}

#[test]
fn digimon_reach_clash_controller_without_reach_deals_half_damage() {
    // "If the opponent does not also have the Reach Quality, they may make Attacks and Actions
    // if they Control the Clash, but they only deal half of the normal Damage": Gabumon
    // controls Devimon's Clash three squares away and strikes it at half (at least 1); the
    // preview says so and is what the hit deals. Devimon, with Reach, deals it in full.
    let mut b = devimon_and_gabumon_apart(&[]);
    stage_clash(&mut b, 1, 0, 3);
    while b.turn().active() != Some(CombatantId(1)) {
        end_turn(&mut b);
    }
    let o = order(1, "strike", 0);
    let p = b
        .preview(&o)
        .expect("a [Melee] Attack on its opponent at the Clash's range");
    let why = p.context.targets[0].damage_halved.clone().expect("halved");
    assert!(why.contains("3 squares"), "{why}");
    let d = data();
    let devimon = fighter(&mut b, 0);
    let mean_half = distribution(&p.context.wound)
        .map(|w| digimon::hit_damage(d, &devimon, w, 0, true))
        .mean();
    let odds = &p.odds.targets[0][0];
    assert!(odds.automatic_hit.is_some(), "no Dodge in a Clash");
    assert!((odds.expected_damage - mean_half).abs() < 1e-9);
    let before = fighter(&mut b, 0).life.current;
    let lines = crate::common::run(&mut b, Command::Attack(o));
    assert!(
        lines.iter().any(|l| l.contains("half: a Clash at a range")),
        "{lines:#?}"
    );
    let dealt = before - fighter(&mut b, 0).life.current;
    let wound = b
        .events()
        .iter()
        .rev()
        .find_map(|e| match e {
            gridclash::battle::event::BattleEvent::WoundRolled { roll, .. } => Some(roll.total),
            _ => None,
        })
        .expect("a damage roll");
    assert_eq!(dealt, digimon::hit_damage(d, &devimon, wound, 0, true));
    // Devimon in control, with its Reach: full damage.
    let mut b = devimon_and_gabumon_apart(&[]);
    stage_clash(&mut b, 0, 0, 3);
    let p = b.preview(&order(0, "strike", 1)).expect("legal");
    assert!(p.context.targets[0].damage_halved.is_none());
}

#[test]
fn digimon_reach_clash_ends_when_they_are_farther_apart_than_it_started() {
    let mut b = devimon_and_gabumon_apart(&[]);
    stage_clash(&mut b, 0, 0, 3);
    let all = b.fighters();
    assert_eq!(grapple::broken(&all[0], &all), None);
    stage(&mut b, 1, |f| f.position.0 = Some(Square::new(5, 1)));
    let all = b.fighters();
    assert_eq!(
        grapple::broken(&all[0], &all).as_deref(),
        Some("the participants are more than 3 squares apart")
    );
}

fn fly(who: u32, up: bool) -> Command {
    Command::Fly {
        who: CombatantId(who),
        up,
    }
}

#[test]
fn digimon_flyer_takes_to_the_air_as_a_move_and_only_a_flyer_reaches_it_in_melee() {
    // "A Digimon still needs the proper method of movement in order to move closer to an enemy
    // in the air" (003:65). Patamon (0, Fly 7) takes to the air for a Move (a Simple Action);
    // Greymon (1, no Fly score) cannot reach it with a [Melee] attack, only a [Ranged] one.
    let mut b = battle(
        vec![unit("patamon", 0, (1, 1)), unit("greymon", 1, (2, 1))],
        &[5, 5, 5, 1, 1, 1],
    );
    let lines = crate::common::run(&mut b, fly(0, true));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Patamon takes to the air, 3 squares up")),
        "{lines:#?}"
    );
    let pt = fighter(&mut b, 0);
    assert_eq!(digimon::flight::airborne(&pt), 3);
    assert_eq!((pt.actions.usable(), pt.round.moves), (1, 1), "a Move");
    // In the air it does not melee a foe on the ground either.
    let gr = fighter(&mut b, 1);
    let refused = digimon::check_attack(data(), &pt, "strike", &[&gr]).expect_err("ground");
    assert!(refused.to_string().contains("land first"), "{refused}");
    end_turn(&mut b);
    let err = b
        .submit(Command::Attack(order(1, "strike", 0)))
        .expect_err("out of reach");
    assert_eq!(
        err.to_string(),
        "Patamon is in the air: Greymon needs to fly to close in on it (003:65)"
    );
    let err = b
        .submit(Command::Attack(order(1, "clash", 0)))
        .expect_err("no Clash either");
    assert!(err.to_string().contains("needs to fly"), "{err}");
    assert!(b.check(&Command::Attack(order(1, "nova_blast", 0))).is_ok());
    // Greymon has no Fly score.
    let err = b.check(&fly(1, true)).expect_err("no wings");
    assert_eq!(
        err.to_string(),
        "#1 cannot take to the air: Greymon has no Fly score"
    );
}

#[test]
fn digimon_flyer_moves_by_its_fly_score_over_water_and_cannot_land_on_it() {
    // In the air Patamon moves by its Fly score, 7 (its Movement is 6), over deep water,
    // which no one on the ground may enter; it may not land above the water.
    let mut b = Arena::new("digimon")
        .map(&[
            "..........", //
            "..wwww....",
            "..........",
        ])
        .units(vec![unit("patamon", 0, (0, 1)), unit("greymon", 1, (9, 2))])
        .dice(&[5, 5, 5, 1, 1, 1])
        .build();
    let across: Vec<Square> = (1..=3).map(|x| Square::new(x, 1)).collect();
    assert!(
        b.check(&Command::Move {
            who: CombatantId(0),
            path: across.clone(),
            boosted: false,
        })
        .is_err(),
        "the water stops a walker"
    );
    crate::common::run(&mut b, fly(0, true));
    let seven: Vec<Square> = (1..=7).map(|x| Square::new(x, 1)).collect();
    b.submit(Command::Move {
        who: CombatantId(0),
        path: seven[..4].to_vec(),
        boosted: false,
    })
    .expect("over the water by air");
    assert_eq!(fighter(&mut b, 0).position, Some(Square::new(4, 1)));
    // Both actions spent, the turn passed; Greymon ends its own. Above the water, Patamon
    // cannot land.
    end_turn(&mut b);
    assert_eq!(b.active(), Some(CombatantId(0)));
    let err = b.check(&fly(0, false)).expect_err("deep water");
    assert_eq!(
        err.to_string(),
        "#0 cannot land: it is above Deep water, which cannot be stood on"
    );
    let reach = b.move_reach(CombatantId(0), false).expect("on the map").all;
    assert!(
        reach.contains_key(&Square::new(0, 1)) && reach.contains_key(&Square::new(8, 1)),
        "over the water each way: {:?}",
        reach.keys().collect::<Vec<_>>()
    );
}

#[test]
fn digimon_pinned_flyer_falls_and_takes_the_squares_less_its_bit() {
    // "If the opponent is airbone and is Pinned, both parties fall to the ground immediately,
    // and the Pinned Digimon takes damage equal to the number of squares fallen, reduced by
    // their Bit Value … The Controller does not take any damage from falling." (003:171)
    // Devimon (0) controls a Clash with Angemon (1), both 3 squares up; the Pin wins:
    // Devimon 4+4+4 + Body 6 + 4 = 22 against Angemon 1+1+1 + Body 5 = 8. Angemon falls 3
    // squares: 3 - BIT 2 = 1 damage.
    let mut b = battle(
        vec![unit("devimon", 0, (1, 1)), unit("angemon", 1, (2, 1))],
        &[5, 5, 5, 1, 1, 1, 4, 4, 4, 1, 1, 1],
    );
    stage_clash(&mut b, 0, 0, 1);
    for id in [0, 1] {
        stage(&mut b, id, |f| {
            if let Some(s) = f.digi.as_mut() {
                s.airborne = 3;
            }
        });
    }
    let lines = attack(&mut b, 0, "clash_pin", 1);
    assert_contains(
        &lines,
        &[
            "Angemon is Pinned in the air: both fall 3 squares to the ground; Angemon takes 3 - BIT 2 = 1 damage, Devimon none.",
        ],
    );
    let (dv, an) = (fighter(&mut b, 0), fighter(&mut b, 1));
    assert_eq!(
        (
            digimon::flight::airborne(&dv),
            digimon::flight::airborne(&an)
        ),
        (0, 0)
    );
    assert_eq!(an.life.current, 32 - 1);
    assert_eq!(dv.life.current, 44, "the controller takes none");
    crate::common::assert_dice_used(&b);
}

#[test]
fn digimon_flying_is_refused_outside_the_digimon_rules() {
    let mut b = Arena::new("dbu")
        .units(vec![
            UnitSetup::new("brawler", 0, Square::new(1, 1)),
            UnitSetup::new("brawler", 1, Square::new(5, 1)),
        ])
        .seed(1)
        .build();
    let who = b.turn().active().expect("someone acts");
    let err = b.check(&Command::Fly { who, up: true }).expect_err("DBU");
    assert!(
        matches!(err, RuleError::NotInRuleset { what: "flying", .. }),
        "{err}"
    );
}

#[test]
fn digimon_ai_takes_to_the_air_out_of_a_ground_foes_reach() {
    use gridclash::ai::planner::{Level, decide};
    use rand::SeedableRng;
    // Patamon (Fly 7, Boom Bubble at range) beside a Greymon with only its melee attacks,
    // which cannot fly: in the air its claws and Clash cannot reach Patamon, and Boom Bubble
    // still reaches Greymon. (With Nova Blast, Greymon's threat at range is nearly its melee
    // one, and the computer rightly bubbles twice instead.)
    for level in [Level::Normal, Level::Hard] {
        let mut b = battle(
            vec![unit("patamon", 0, (1, 1)), unit("greymon", 1, (2, 1))],
            &[5, 5, 5, 1, 1, 1],
        );
        stage(&mut b, 1, |f| {
            f.loadout.profiles = gridclash::ruleset::digimon::loadout(
                &data().combat,
                &["strike".into(), "horn_impulse".into()],
            );
        });
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
        let mut played = Vec::new();
        while b.active() == Some(CombatantId(0)) && played.len() < 4 {
            let cmd = decide(&mut b, CombatantId(0), level, &mut rng);
            played.push(cmd.clone());
            if b.submit(cmd).is_err() {
                break;
            }
        }
        assert!(played.contains(&fly(0, true)), "{level:?}: {played:?}");
    }
}

#[test]
fn digimon_bar_greys_the_clash_actions_of_a_unit_in_no_clash_whatever_the_target() {
    // Tai (1) beside nobody: End the Clash, Pin and Throw need a Clash to act in, so the bar
    // refuses them with the rule even though no foe is near enough for the probe to reach.
    let mut b = greymon_with_tai(&[]);
    stage(&mut b, 1, |f| f.position.0 = Some(Square::new(0, 6)));
    hand_over(&mut b, 0);
    let slots = gridclash::battle::menu::attack_slots(&mut b, CombatantId(1));
    for id in ["clash_end", "clash_pin", "clash_throw"] {
        let s = slots
            .iter()
            .find(|s| s.profile == id)
            .unwrap_or_else(|| panic!("{id} on the bar"));
        let why = s.refusal.as_ref().map(ToString::to_string);
        assert!(
            why.as_deref()
                .is_some_and(|w| w.contains("controls no Clash")),
            "{id}: {why:?}"
        );
    }
    // Starting a Clash is a matter of reach, not refused outright.
    let start = slots.iter().find(|s| s.profile == "clash").expect("Clash");
    assert!(start.refusal.is_none(), "{:?}", start.refusal);
}
