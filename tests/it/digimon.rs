//! The Digimon ruleset (the Digimon RPG's combat chapter): each rule of the text with scripted
//! dice, the exact preview against the resolution, broken files, and the AI against random
//! play.

use std::sync::{Arc, OnceLock};

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackTarget, Command, RuleError};
use gridclash::battle::components::*;
use gridclash::battle::digimon;
use gridclash::battle::fighter::Fighter;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::{DiceGroup, DiceSource, Dist, RollKind, RollSpec, distribution, roll};
use gridclash::ruleset::digimon::{DigimonData, EffectKind};
use gridclash::ruleset::{Rules, rules_root};

use crate::common::{assert_contains, stage};

static RULES: OnceLock<Arc<Rules>> = OnceLock::new();

/// The shipped Digimon ruleset, loaded once.
fn rules() -> Arc<Rules> {
    RULES
        .get_or_init(|| {
            Arc::new(Rules::load(&rules_root().join("digimon")).expect("digimon loads"))
        })
        .clone()
}

/// Its Digimon data.
fn data() -> &'static DigimonData {
    rules();
    RULES
        .get()
        .and_then(|r| r.shinobi.as_ref())
        .and_then(|s| s.digimon.as_deref())
        .expect("a Digimon ruleset")
}

fn unit(archetype: &str, side: u8, at: (i32, i32)) -> UnitSetup {
    UnitSetup::new(archetype, side, Square::new(at.0, at.1))
}

/// A battle on open ground whose dice come from `faces` (initiative first: 3d6 for each unit
/// that rolls, in unit order; a partnered Tamer rolls none).
fn battle(units: Vec<UnitSetup>, faces: &[u32]) -> Battle {
    battle_on(BattleSetup::open(30, 8, units), faces)
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
    assert_eq!(digimon::hit_damage(d, &gab, 4), 2);
    assert_eq!(digimon::hit_damage(d, &gab, 1), 1, "at least 1");
    let mut t = battle(
        vec![unit("tai", 0, (1, 1)), unit("greymon", 1, (2, 1))],
        &[1, 1, 1, 1, 1, 1],
    );
    let tai = fighter(&mut t, 0);
    let w = digimon::wound_spec(d, &tai, d.attack("tamer_strike").expect("a"));
    assert!(w.dice.is_empty(), "unarmed: no dice");
    assert_eq!(w.flat_total(), 3, "1 + Str Mod 2 + Fight 2 / 3");
    let grey = fighter(&mut t, 1);
    assert_eq!(digimon::hit_damage(d, &grey, 3), 1);
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
    // Tai's Charisma 6 gives a modifier of 3 to Greymon's next Accuracy roll, then it is spent.
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
        &["Direct from Tai on Greymon: adds 3 to its next Dodge or Accuracy roll."],
    );
    // Gabumon's turn: its strike at Greymon meets Greymon's Directed Dodge.
    end_turn(&mut b);
    let lines = attack(&mut b, 2, "strike", 0);
    assert!(
        lines.iter().any(|l| l.contains("Directed by its Tamer 3")),
        "{lines:#?}"
    );
    assert!(fighter(&mut b, 0).digi.expect("digi").directed.is_none());
    let err = b
        .submit(Command::Attack(order(1, "direct", 2)))
        .expect_err("not Tai's turn");
    drop(err);
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

#[test]
fn digimon_partnered_digimon_falls_back_to_its_default_stage_then_becomes_a_digitama() {
    // Greymon with Tai at 0 HP becomes Agumon at 1 HP; Agumon at 0 HP becomes a Digitama.
    let mut b = battle(
        vec![
            unit("gabumon", 1, (2, 1)),
            unit("greymon", 0, (1, 1)),
            unit("tai", 0, (0, 1)),
        ],
        &[
            5, 5, 5, 1, 1, 1, 5, 5, 5, 1, 1, 1, 5, 5, 5, 5, 5, 5, 1, 1, 1, 5, 5, 5,
        ],
    );
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
    assert_eq!(digimon::attacks_now(d, &g), vec!["strike", "pepper_breath"]);
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

#[test]
fn digimon_ai_beats_random_play_ninety_percent_over_200_battles() {
    let (won, played) = crate::common::normal_against_random(&["digimon-rivals", "digimon-ambush"]);
    assert!(
        won * 10 >= played * 9,
        "normal AI won {won} of {played} against random play"
    );
}

#[test]
fn digimon_broken_files_name_file_line_and_field() {
    // An unknown attack, a Charm attack, an unknown stage and another family's terrain field
    // are each refused with where they are.
    let dir = std::env::temp_dir().join(format!("gridclash-digimon-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = rules_root().join("digimon");
    for f in ["ruleset.ron", "digimon.ron", "roster.ron", "terrain.ron"] {
        let text = std::fs::read_to_string(src.join(f)).expect("shipped file");
        let text = match f {
            "roster.ron" => text
                .replace("\"pepper_breath\"]", "\"pepper_breth\"]")
                .replace("stage: \"Champion\", role: \"Champion tyrant\"", "stage: \"Armor\", role: \"Champion tyrant\""),
            "digimon.ron" => text.replace("effect: Some(Taunt)", "effect: Some(Charm)"),
            "terrain.ron" => text.replace("difficult: true,\n            description: \"Difficult Terrain: a move that enters it is a Complex Action (both of your Simple Actions).\",\n        ),\n        (\n            id: \"bog\"", "concealment: 40,\n            description: \"x\",\n        ),\n        (\n            id: \"bog\""),
            _ => text,
        };
        std::fs::write(dir.join(f), text).expect("written");
    }
    let err = Rules::load(&dir).expect_err("broken").to_string();
    std::fs::remove_dir_all(&dir).ok();
    for want in [
        "roster.ron",
        "unknown attack `pepper_breth`",
        "unknown stage `Armor`",
        "digimon.ron",
        "Charm",
        "terrain.ron",
        "`concealment` is not a Digimon rule",
    ] {
        assert!(err.contains(want), "missing {want:?} in:\n{err}");
    }
    assert!(
        err.lines()
            .any(|l| l.contains("roster.ron:") && l.contains("attacks[1]")),
        "{err}"
    );
}
