//! The power-stages ruleset ("Combat Cards in Combat"): each rule of the text and of our data
//! defaults, the exact preview against the resolution, saves, and the AI against random play.

use std::sync::Arc;

use gridclash::ai::Policy;
use gridclash::battle::Battle;
use gridclash::battle::command::DefenseChoice;
use gridclash::battle::command::{AttackTarget, Command, RuleError};
use gridclash::battle::components::*;
use gridclash::battle::family::stages;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::DiceSource;
use gridclash::ruleset::stages::{CardKind, FINAL_PHYSICAL};
use gridclash::ruleset::{Rules, rules_root};
use gridclash::{save, scenario};

use crate::common::{Arena, ruleset};
use crate::common::{attack, lines, run, stage};

/// The shipped power-stages ruleset.
fn rules() -> Arc<Rules> {
    ruleset("power-stages").clone()
}

/// A unit whose defense answer is fixed: `block` plays a matching card when it holds one.
fn unit(archetype: &str, side: u8, x: i32, block: bool) -> UnitSetup {
    let mut u = UnitSetup::new(archetype, side, Square::new(x, 2));
    u.controller = Controller {
        defense: if block {
            DefensePolicy::AlwaysParry
        } else {
            DefensePolicy::AlwaysDodge
        },
        responses: ResponsePolicy::Never,
        exploits: ExploitPolicy::Never,
    };
    u
}

/// A two-unit battle on open ground, `gap` squares apart, run until unit 0's turn; then both
/// hands are emptied and unit 0 holds `hand`, so each test sets exactly what it needs.
fn duel(a: &str, b: &str, gap: i32, block: bool, hand: &[(&str, u32)]) -> Battle {
    let mut battle = Arena::new("power-stages")
        .size(16, 6)
        .units(vec![unit(a, 0, 2, false), unit(b, 1, 2 + gap, block)])
        .seed(5)
        .build_at_unit_0();
    set_hand(&mut battle, 1, &[]);
    set_hand(&mut battle, 0, hand);
    battle
}

fn set_hand(b: &mut Battle, id: u32, hand: &[(&str, u32)]) {
    stage(b, id, |f| {
        if let Some(cards) = f.cards.as_deref_mut() {
            cards.hand = hand.iter().map(|(c, n)| (c.to_string(), *n)).collect();
        }
    });
}

fn set_stage(b: &mut Battle, id: u32, s: i64) {
    stage(b, id, |f| f.ki.current = s);
}

fn pools(b: &mut Battle, id: u32) -> (i64, i64) {
    let f = b.fighter(CombatantId(id)).expect("fighter");
    (f.ki.current, f.life.current)
}

fn hit(attacker: u32, card: &str, target: u32) -> Command {
    Command::Attack(attack(
        attacker,
        card,
        AttackTarget::Combatant(CombatantId(target)),
    ))
}

#[test]
fn stages_shipped_table_agrees_with_the_texts_1200_vs_200_row() {
    let r = rules();
    let t = &r.stages().expect("stage data").combat.physical_table;
    // "using the fourth row down for Raditz [1200] ... and the second column ... for Gohan [200]"
    assert_eq!(t.band(1200), 3);
    assert_eq!(t.band(200), 1);
    assert_eq!(t.loss(1200, 200), 3);
}

#[test]
fn stages_losses_past_stage_zero_come_out_of_life_cards() {
    // The text's example: 1200 attacks 200; the defender loses 3 stages, 200 -> 100 -> 0, and
    // discards one life card for the stage still to be lost.
    let mut b = duel("martial_artist", "prodigy", 1, false, &[("punch", 1)]);
    set_stage(&mut b, 0, 6); // Martial Artist: stage 6 = 1200
    set_stage(&mut b, 1, 2); // Young Prodigy: stage 2 = 200
    let (_, life) = pools(&mut b, 1);
    let got = run(&mut b, hit(0, "punch", 1));
    assert!(
        got.iter().any(|l| l
            .contains("Physical Attack Table: attacker 1200 (row 4) vs defender 200 (column 2) 3")),
        "{got:#?}"
    );
    assert_eq!(pools(&mut b, 1), (0, life - 1));
    assert!(
        got.iter().any(|l| l.contains("power stage 2 -> 0")),
        "{got:#?}"
    );
    assert!(
        got.iter()
            .any(|l| l.contains(&format!("life cards {life} -> {}", life - 1)))
    );
}

#[test]
fn stages_energy_attack_costs_two_stages_and_takes_four_life_cards() {
    let mut b = duel(
        "energy_fighter",
        "martial_artist",
        8,
        false,
        &[("energy_blast", 1)],
    );
    set_stage(&mut b, 0, 5);
    let (stage1, life1) = pools(&mut b, 1);
    run(&mut b, hit(0, "energy_blast", 1));
    assert_eq!(pools(&mut b, 0).0, 3, "2 stages spent");
    assert_eq!(
        pools(&mut b, 1),
        (stage1, life1 - 4),
        "4 life cards, no stages"
    );
}

#[test]
fn stages_no_energy_attack_below_two_stages() {
    let mut b = duel(
        "energy_fighter",
        "martial_artist",
        8,
        false,
        &[("energy_blast", 1)],
    );
    set_stage(&mut b, 0, 1);
    assert_eq!(
        b.submit(hit(0, "energy_blast", 1)),
        Err(RuleError::TooFewStages { need: 2, have: 1 })
    );
    set_stage(&mut b, 0, 2);
    b.submit(hit(0, "energy_blast", 1))
        .expect("at stage 2 it can");
    assert_eq!(pools(&mut b, 0).0, 0);
}

#[test]
fn stages_energy_defense_blocks_an_energy_attack() {
    let mut b = duel(
        "energy_fighter",
        "martial_artist",
        8,
        true,
        &[("energy_blast", 1)],
    );
    set_hand(&mut b, 1, &[("energy_shield", 1), ("forearm_block", 1)]);
    let before = pools(&mut b, 1);
    let got = run(&mut b, hit(0, "energy_blast", 1));
    assert_eq!(pools(&mut b, 1), before, "blocked: nothing lost");
    assert!(
        got.iter()
            .any(|l| l.contains("plays Energy Shield: blocks the attack"))
    );
    let cards = b
        .fighter(CombatantId(1))
        .and_then(|f| f.cards)
        .expect("cards");
    assert_eq!(
        cards.count("energy_shield"),
        0,
        "the defense card is discarded"
    );
    assert_eq!(cards.discard.get("energy_shield"), Some(&1));
}

#[test]
fn stages_physical_defense_does_not_block_an_energy_attack() {
    let mut b = duel(
        "energy_fighter",
        "martial_artist",
        8,
        true,
        &[("energy_blast", 1)],
    );
    set_hand(&mut b, 1, &[("forearm_block", 2)]);
    assert_eq!(
        b.submit(Command::Defend {
            defender: CombatantId(1),
            choice: DefenseChoice::Parry,
            counter: None,
        }),
        Err(RuleError::NothingToAnswer(CombatantId(1)))
    );
    let (_, life) = pools(&mut b, 1);
    run(&mut b, hit(0, "energy_blast", 1));
    assert_eq!(pools(&mut b, 1).1, life - 4);
}

#[test]
fn stages_physical_defense_blocks_a_physical_attack() {
    let mut b = duel("martial_artist", "energy_fighter", 1, true, &[("kick", 1)]);
    set_hand(&mut b, 1, &[("side_step", 1)]);
    let before = pools(&mut b, 1);
    run(&mut b, hit(0, "kick", 1));
    assert_eq!(pools(&mut b, 1), before);
}

#[test]
fn stages_physical_attack_needs_melee_range_energy_any_range() {
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        6,
        false,
        &[("punch", 1), ("energy_blast", 1)],
    );
    assert!(matches!(
        b.submit(hit(0, "punch", 1)),
        Err(RuleError::OutOfRange { .. })
    ));
    b.submit(hit(0, "energy_blast", 1))
        .expect("energy attacks reach any distance");
}

#[test]
fn stages_attack_needs_its_card_in_hand_and_plays_it() {
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("punch", 1)],
    );
    assert_eq!(
        b.submit(hit(0, "kick", 1)),
        Err(RuleError::CardNotHeld {
            card: "Roundhouse Kick".into()
        })
    );
    run(&mut b, hit(0, "punch", 1));
    let cards = b
        .fighter(CombatantId(0))
        .and_then(|f| f.cards)
        .expect("cards");
    assert_eq!(cards.count("punch"), 0);
    assert_eq!(cards.discard.get("punch"), Some(&1));
}

#[test]
fn stages_card_stating_its_damage_ignores_the_table() {
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("crushing_blow", 1)],
    );
    set_stage(&mut b, 0, 1); // 200 against a higher defender: the table would give 1
    set_stage(&mut b, 1, 9);
    let got = run(&mut b, hit(0, "crushing_blow", 1));
    assert_eq!(pools(&mut b, 1).0, 5, "4 stages, as the card says");
    assert!(
        got.iter()
            .any(|l| l.contains("Crushing Blow states its damage"))
    );
}

#[test]
fn stages_final_physical_attack_only_without_attack_cards() {
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("punch", 1), ("forearm_block", 1)],
    );
    assert!(matches!(
        b.submit(hit(0, FINAL_PHYSICAL, 1)),
        Err(RuleError::FinalAttackNotAllowed(_))
    ));
    set_hand(&mut b, 0, &[]);
    assert!(matches!(
        b.submit(hit(0, FINAL_PHYSICAL, 1)),
        Err(RuleError::FinalAttackNotAllowed(_))
    ));
    set_hand(&mut b, 0, &[("forearm_block", 2), ("energy_shield", 1)]);
    let got = run(&mut b, hit(0, FINAL_PHYSICAL, 1));
    assert!(
        got.iter()
            .any(|l| l.contains("plays Forearm Block: discarded for the Final Physical Attack")),
        "{got:#?}"
    );
    assert!(got.iter().any(|l| l.contains("Physical Attack Table")));
}

#[test]
fn stages_final_physical_attack_passes_for_the_rest_of_the_round() {
    let r = rules();
    let data = r.stages().expect("stage data");
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("forearm_block", 1)],
    );
    let round = b.turn().round;
    run(&mut b, hit(0, FINAL_PHYSICAL, 1));
    // Even holding cards again, it makes no attack until the round ends ("must pass in all
    // remaining phases of that Combat"); passing is the attacker's, so it still blocks.
    set_hand(&mut b, 0, &[("forearm_block", 1), ("punch", 1)]);
    stage(&mut b, 0, |f| {
        if let Some(c) = f.cards.as_deref_mut() {
            c.attacks_this_turn = 0;
        }
    });
    let me = b.fighter(CombatantId(0)).expect("fighter");
    assert_eq!(
        stages::check_attack(
            data,
            &me,
            &attack(0, "punch", AttackTarget::Combatant(CombatantId(1)))
        ),
        Err(RuleError::PassedThisRound(CombatantId(0)))
    );
    assert_eq!(
        stages::block_card(data, &me, CardKind::PhysicalAttack).as_deref(),
        Some("iron_body"),
        "a personality that passed still blocks (its card power first)"
    );
    while b.turn().round == round {
        let who = b.turn().active().expect("someone");
        b.submit(Command::EndTurn { who }).expect("end");
    }
    let me = b.fighter(CombatantId(0)).expect("fighter");
    assert!(
        me.cards.is_some_and(|c| !c.passed),
        "a new round clears the pass"
    );
}

#[test]
fn stages_power_up_step_raises_the_stage_each_turn() {
    let mut b = duel("martial_artist", "prodigy", 3, false, &[]);
    set_stage(&mut b, 0, 2);
    let n = b.events().len();
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .expect("end");
    while b.turn().active() != Some(CombatantId(0)) {
        let who = b.turn().active().expect("someone");
        b.submit(Command::EndTurn { who }).expect("end");
    }
    assert_eq!(pools(&mut b, 0).0, 3, "power-up rating 1");
    let got = lines(&mut b, n);
    assert!(
        got.iter()
            .any(|l| l == "Kenji power stage 2 -> 3 (Power Up step, +1)."
                || l.contains("power stage 2 -> 3 (Power Up step, +1)"))
    );
}

#[test]
fn stages_draws_are_seeded_logged_and_kept_to_the_hand_limit() {
    let setup = BattleSetup::open(
        16,
        6,
        vec![
            unit("martial_artist", 0, 2, false),
            unit("energy_fighter", 1, 8, false),
        ],
    );
    let mut a = Battle::new(rules(), &setup, DiceSource::seeded(9)).expect("battle");
    let mut c = Battle::new(rules(), &setup, DiceSource::seeded(9)).expect("battle");
    assert_eq!(a.state_hash(), c.state_hash(), "same seed, same hands");
    let names = a.names();
    let draws = a
        .events()
        .iter()
        .filter(|e| e.describe(&names).contains(" draws "))
        .count();
    assert!(
        draws >= 10,
        "5 cards each to start, then the first turn's 2"
    );
    // Every turn: at most 7 held after the draw.
    for _ in 0..20 {
        let who = a.turn().active().expect("someone");
        a.submit(Command::EndTurn { who }).expect("end");
        for f in a.fighters() {
            assert!(f.cards.as_ref().is_some_and(|c| c.held() <= 7));
        }
    }
}

#[test]
fn stages_preview_is_exactly_what_happens() {
    for (card, stage_a, stage_b) in [("punch", 6, 2), ("kick", 3, 8), ("energy_blast", 4, 1)] {
        for block in [false, true] {
            let mut b = duel("martial_artist", "prodigy", 1, block, &[(card, 1)]);
            set_stage(&mut b, 0, stage_a);
            set_stage(&mut b, 1, stage_b);
            set_hand(&mut b, 1, &[("side_step", 1), ("energy_shield", 1)]);
            let before = pools(&mut b, 1);
            let Command::Attack(order) = hit(0, card, 1) else {
                unreachable!()
            };
            let preview = b.preview(&order).expect("preview");
            let (take, blk) = (&preview.odds.targets[0][0], &preview.odds.targets[0][1]);
            let o = if block { blk } else { take };
            b.submit(Command::Attack(order)).expect("attack");
            let after = pools(&mut b, 1);
            assert_eq!(
                before.0 - after.0,
                o.stage_loss.unwrap_or(0),
                "{card} {block}"
            );
            assert_eq!(
                (before.1 - after.1) as f64,
                o.expected_damage,
                "{card} {block}"
            );
            assert_eq!(o.damage_distribution.values().sum::<f64>(), 1.0);
            assert_eq!(o.hit_chance, if block { 0.0 } else { 1.0 });
        }
    }
}

#[test]
fn stages_refuses_maneuvers_of_other_rulesets() {
    let mut b = duel("martial_artist", "prodigy", 3, false, &[]);
    for cmd in [
        Command::PowerUp {
            who: CombatantId(0),
        },
        Command::Recover {
            who: CombatantId(0),
            actions: 2,
        },
        Command::Move {
            who: CombatantId(0),
            path: vec![Square::new(3, 2)],
            boosted: true,
        },
    ] {
        assert!(matches!(b.submit(cmd), Err(RuleError::NotInRuleset { .. })));
    }
}

#[test]
fn stages_one_move_and_one_attack_a_turn() {
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("punch", 2)],
    );
    run(&mut b, hit(0, "punch", 1));
    assert_eq!(
        b.submit(hit(0, "punch", 1)),
        Err(RuleError::AttacksPerTurn { limit: 1 })
    );
}

#[test]
fn stages_broken_data_names_file_line_and_field() {
    let dir = std::env::temp_dir().join(format!("gc-stages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for f in gridclash::ruleset::stages::STAGE_FILES {
        std::fs::copy(rules_root().join("power-stages").join(f), dir.join(f)).expect("copy");
    }
    let roster = std::fs::read_to_string(dir.join("roster.ron")).expect("read");
    std::fs::write(
        dir.join("roster.ron"),
        roster.replacen("\"punch\": 6", "\"uppercut\": 6", 1),
    )
    .expect("write");
    let errs = Rules::load(&dir).expect_err("unknown card").0;
    let text = errs[0].to_string();
    assert!(text.contains("roster.ron:"), "{text}");
    assert!(text.contains("deck.uppercut"), "{text}");
    assert!(text.contains("unknown card `uppercut`"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn stages_broken_table_track_and_cards_are_each_reported() {
    let dir = std::env::temp_dir().join(format!("gc-stages-b-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for f in gridclash::ruleset::stages::STAGE_FILES {
        std::fs::copy(rules_root().join("power-stages").join(f), dir.join(f)).expect("copy");
    }
    let stages = std::fs::read_to_string(dir.join("stages.ron")).expect("read");
    let stages = stages
        .replacen("[6, 5, 4, 3, 2, 1]", "[6, 5, 4, 3, 2]", 1)
        .replacen(
            "kind: EnergyAttack,\n",
            "kind: EnergyAttack, stages: 2,\n",
            1,
        );
    std::fs::write(dir.join("stages.ron"), stages).expect("write");
    let roster = std::fs::read_to_string(dir.join("roster.ron")).expect("read");
    std::fs::write(
        dir.join("roster.ron"),
        roster.replacen("start_stage: 5,", "start_stage: 40,", 1),
    )
    .expect("write");
    let errs: Vec<String> = Rules::load(&dir)
        .expect_err("three problems")
        .0
        .iter()
        .map(|e| e.to_string())
        .collect();
    let has = |file: &str, field: &str| errs.iter().any(|e| e.contains(file) && e.contains(field));
    assert!(has("stages.ron:", "physical_table.losses[5]"), "{errs:#?}");
    assert!(has("stages.ron:", "cards[3].stages"), "{errs:#?}");
    assert!(
        has("roster.ron:", "personalities[0].start_stage"),
        "{errs:#?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The errors of loading the shipped power-stages ruleset with the first `from` in its
/// `terrain.ron` replaced by `to` (in a temporary copy named after `tag`).
fn terrain_errors(tag: &str, from: &str, to: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("gc-stages-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for f in gridclash::ruleset::stages::STAGE_FILES {
        std::fs::copy(rules_root().join("power-stages").join(f), dir.join(f)).expect("copy");
    }
    let terrain = std::fs::read_to_string(dir.join("terrain.ron")).expect("read");
    assert!(
        terrain.contains(from),
        "the shipped terrain.ron has {from:?}"
    );
    std::fs::write(dir.join("terrain.ron"), terrain.replacen(from, to, 1)).expect("write");
    let errs = Rules::load(&dir)
        .expect_err("refused")
        .0
        .iter()
        .map(|e| e.to_string())
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    errs
}

#[test]
fn stages_terrain_refuses_skill_checks_of_other_families() {
    // A Skill Check on the ground is a d20 and Digimon rule: a power-stages terrain.ron that
    // names one is refused where it says so, not silently ignored.
    let errs = terrain_errors(
        "skill",
        "description: \"Nothing in the way.\"",
        "skill_check: Some((name: \"Dig\", stat: \"STR\", target: 5, becomes: \"open\")),\n            description: \"Nothing in the way.\"",
    );
    assert!(
        errs.iter().any(|e| e.contains("terrain.ron:")
            && e.contains("types[0].skill_check")
            && e.contains("`skill_check` is a d20 and Digimon rule")),
        "{errs:#?}"
    );
}

#[test]
fn stages_attacks_cannot_be_undone() {
    // No die is rolled and nobody is asked, but the attack stays done.
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("punch", 1)],
    );
    run(&mut b, hit(0, "punch", 1));
    assert!(matches!(
        b.undo(),
        Err(gridclash::battle::UndoError::Final(_) | gridclash::battle::UndoError::NothingThisTurn)
    ));
}

#[test]
fn stages_final_physical_attack_when_energy_cards_lack_stages() {
    // "no attack cards or card powers to use": an Energy Blast at stage 1 cannot be used.
    let mut b = duel(
        "energy_fighter",
        "martial_artist",
        1,
        false,
        &[("energy_blast", 2), ("energy_shield", 1)],
    );
    set_stage(&mut b, 0, 1);
    let got = run(&mut b, hit(0, FINAL_PHYSICAL, 1));
    assert!(
        got.iter()
            .any(|l| l.contains("discarded for the Final Physical Attack"))
    );
}

#[test]
fn stages_scenarios_refuse_conditions_the_ruleset_lacks() {
    let dir = std::env::temp_dir().join(format!("gc-stages-s-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = std::fs::read_to_string(scenario::find("stages-duel")).expect("read");
    let path = dir.join("broken.ron");
    std::fs::write(
        &path,
        src.replacen(
            "side: 0, at: (1, 4))",
            "side: 0, at: (1, 4), conditions: [Prone])",
            1,
        ),
    )
    .expect("write");
    let Err(errors) = scenario::load(&path) else {
        panic!("a Prone unit in a power-stages scenario was accepted");
    };
    let errs: Vec<String> = errors.0.iter().map(|e| e.to_string()).collect();
    assert!(
        errs.iter()
            .any(|e| e.contains("units[0].conditions[0]") && e.contains("no Prone condition")),
        "{errs:#?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn stages_greedy_baseline_values_stages_taken() {
    // A punch that costs the target only stages is still worth making.
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("punch", 1)],
    );
    set_stage(&mut b, 1, 8);
    let fighters = b.fighters();
    let me = fighters[0].clone();
    let r = rules();
    let best = gridclash::battle::policy::best_attack(&r, &b.field(), &fighters, &me, None);
    assert!(
        best.is_some_and(|(score, o)| score > 0.0 && o.profile == "punch"),
        "the greedy baseline ignores a stage-only physical attack"
    );
}

#[test]
fn stages_terrain_cannot_change_rolls_or_give_cover() {
    let errs = terrain_errors(
        "t",
        "move_cost: Some(2),",
        "move_cost: Some(2), cover_rank: Some(1),",
    );
    assert!(
        errs.iter().any(|e| e.contains("terrain.ron:")
            && e.contains("cover_rank")
            && e.contains("no cover")),
        "{errs:#?}"
    );
}

#[test]
fn stages_battles_save_and_load_byte_identical() {
    let l = scenario::load(&scenario::find("stages-duel")).expect("scenario");
    let report = save::check::check_battle(&l, 3, &[Policy::Normal, Policy::Easy], 30, 3)
        .expect("round trips");
    assert!(report.boundaries > 5, "{report:?}");
}

#[test]
#[ignore = "full-size tier: cargo test --profile fast --no-default-features -- --ignored"]
fn stages_ai_beats_random_play_ninety_percent_over_200_battles() {
    let (won, played) = crate::common::normal_against_random(&["stages-duel", "stages-team"]);
    assert!(
        won * 10 >= played * 9,
        "normal AI won {won} of {played} against random play"
    );
}

/// An order for `card` at unit `target` with the Final Physical Attack's `discard` choice.
fn final_discarding(attacker: u32, target: u32, discard: &str) -> Command {
    let mut o = attack(
        attacker,
        FINAL_PHYSICAL,
        AttackTarget::Combatant(CombatantId(target)),
    );
    o.discard = Some(discard.to_string());
    Command::Attack(o)
}

fn cards_of(b: &mut Battle, id: u32) -> Cards {
    b.fighter(CombatantId(id))
        .and_then(|f| f.cards)
        .expect("cards")
}

#[test]
fn stages_final_physical_attack_discards_the_card_the_player_picks() {
    // "you can make a Final Physical Attack by discarding any one card from your hand"
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("forearm_block", 2), ("energy_shield", 1)],
    );
    assert!(matches!(
        b.submit(final_discarding(0, 1, "punch")),
        Err(RuleError::CardNotHeld { .. })
    ));
    assert_eq!(
        b.submit(Command::Attack({
            let mut o = attack(0, "punch", AttackTarget::Combatant(CombatantId(1)));
            o.discard = Some("energy_shield".into());
            o
        })),
        Err(RuleError::DiscardNotFinal),
        "only the Final Physical Attack discards a card of the player's choice"
    );
    let choices: Vec<String> = b
        .discard_choices(CombatantId(0), FINAL_PHYSICAL)
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(choices, ["energy_shield", "forearm_block"]);
    let got = run(&mut b, final_discarding(0, 1, "energy_shield"));
    assert!(
        got.iter()
            .any(|l| l.contains("plays Energy Shield: discarded for the Final Physical Attack")),
        "{got:#?}"
    );
    let cards = cards_of(&mut b, 0);
    assert_eq!(cards.count("forearm_block"), 2, "the other card is kept");
    assert_eq!(cards.count("energy_shield"), 0);
}

#[test]
fn stages_personality_power_blocks_for_its_cost_once_a_round_and_is_never_discarded() {
    // "does not have an appropriate Energy Combat card or Main Personality card power to
    // defend himself"; "the cards used to attack and defend, other than Personality cards,
    // are discarded". The Martial Artist's Iron Body blocks a physical attack for 2 stages.
    let r = rules();
    let data = r.stages().expect("stage data");
    let mut b = duel("prodigy", "martial_artist", 1, true, &[("kick", 1)]);
    set_stage(&mut b, 1, 5);
    let before = pools(&mut b, 1);
    let got = run(&mut b, hit(0, "kick", 1));
    assert!(
        got.iter()
            .any(|l| l.contains("plays Iron Body: personality card power: blocks the attack")),
        "{got:#?}"
    );
    assert_eq!(
        pools(&mut b, 1),
        (before.0 - 2, before.1),
        "only the power's 2 stages"
    );
    let cards = cards_of(&mut b, 1);
    assert_eq!(cards.discard.get("iron_body"), None, "never discarded");
    assert_eq!(cards.power_uses, 1);
    let me = b.fighter(CombatantId(1)).expect("fighter");
    assert_eq!(
        stages::block_card(data, &me, CardKind::PhysicalAttack),
        None,
        "used once this round, and no card in hand"
    );
    // Below its cost it cannot block either, even in a new round.
    stage(&mut b, 1, |f| {
        if let Some(c) = f.cards.as_deref_mut() {
            c.power_uses = 0;
        }
        f.ki.current = 1;
    });
    let me = b.fighter(CombatantId(1)).expect("fighter");
    assert_eq!(
        stages::block_card(data, &me, CardKind::PhysicalAttack),
        None
    );
    set_stage(&mut b, 1, 2);
    let me = b.fighter(CombatantId(1)).expect("fighter");
    assert_eq!(
        stages::block_card(data, &me, CardKind::PhysicalAttack).as_deref(),
        Some("iron_body")
    );
}

#[test]
fn stages_personality_power_attacks_once_a_round_and_counts_against_the_final_attack() {
    // "If you have cards left in your hand but no attack cards or card powers to use": the
    // Young Prodigy's Hidden Potential (an energy attack) is a card power to use, so no Final
    // Physical Attack while it has the stages for it.
    let mut b = duel("prodigy", "energy_fighter", 1, false, &[("side_step", 1)]);
    assert!(matches!(
        b.submit(hit(0, FINAL_PHYSICAL, 1)),
        Err(RuleError::FinalAttackNotAllowed(_))
    ));
    let before = pools(&mut b, 1);
    let got = run(&mut b, hit(0, "hidden_potential", 1));
    assert!(
        got.iter()
            .any(|l| l.contains("Hidden Potential: personality card power: attacks"))
    );
    assert_eq!(
        pools(&mut b, 1),
        (before.0, before.1 - 2),
        "the energy attack takes 2 life cards"
    );
    let cards = cards_of(&mut b, 0);
    assert_eq!(cards.count("side_step"), 1, "the hand is untouched");
    assert_eq!(cards.anger, 1, "its second part raised the anger");
    stage(&mut b, 0, |f| {
        if let Some(c) = f.cards.as_deref_mut() {
            c.attacks_this_turn = 0;
        }
    });
    assert_eq!(
        b.submit(hit(0, "hidden_potential", 1)),
        Err(RuleError::PowerUsed {
            card: "Hidden Potential".into(),
            per_round: 1
        })
    );
    // Another personality cannot use it.
    let mut b = duel("martial_artist", "energy_fighter", 1, false, &[]);
    assert_eq!(
        b.submit(hit(0, "hidden_potential", 1)),
        Err(RuleError::CardNotHeld {
            card: "Hidden Potential".into()
        })
    );
}

#[test]
fn stages_two_part_card_raises_anger_before_the_defender_blocks() {
    // "While the physical attack may be successfully blocked, it will not affect, for example,
    // the attacker's anger being raised, which occurs before the defender acts."
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        true,
        &[("angry_strike", 1)],
    );
    set_hand(&mut b, 1, &[("side_step", 1)]);
    let before = pools(&mut b, 1);
    let got = run(&mut b, hit(0, "angry_strike", 1));
    let raised = got
        .iter()
        .position(|l| l.contains("anger 0 -> 1"))
        .expect("anger raised");
    let blocked = got
        .iter()
        .position(|l| l.contains("plays Side Step: blocks the attack"))
        .expect("blocked");
    assert!(raised < blocked, "{got:#?}");
    assert_eq!(pools(&mut b, 1), before);
    assert_eq!(cards_of(&mut b, 0).anger, 1);
}

#[test]
fn stages_two_part_block_raises_its_users_stage_as_it_blocks() {
    // "If 'or' does not separate the two parts, then each part of the card power occurs
    // immediately": Rising Focus blocks the energy attack and raises its user's stage by 1.
    let mut b = duel("energy_fighter", "prodigy", 6, true, &[("energy_blast", 1)]);
    set_hand(&mut b, 1, &[("rising_focus", 1)]);
    set_stage(&mut b, 1, 3);
    let life = pools(&mut b, 1).1;
    let got = run(&mut b, hit(0, "energy_blast", 1));
    assert!(
        got.iter()
            .any(|l| l.contains("plays Rising Focus: blocks the attack")),
        "{got:#?}"
    );
    assert!(
        got.iter().any(|l| l.contains("power stage 3 -> 4")
            && l.contains("raise the card user's power stage by 1")),
        "{got:#?}"
    );
    assert_eq!(pools(&mut b, 1), (4, life), "blocked, and a stage higher");
    assert_eq!(cards_of(&mut b, 1).discard.get("rising_focus"), Some(&1));
}

#[test]
fn stages_full_anger_raises_a_level_that_adds_a_stage_on_the_table() {
    let mut b = duel(
        "martial_artist",
        "energy_fighter",
        1,
        false,
        &[("angry_strike", 1)],
    );
    stage(&mut b, 0, |f| {
        if let Some(c) = f.cards.as_deref_mut() {
            c.anger = 4;
        }
    });
    let got = run(&mut b, hit(0, "angry_strike", 1));
    assert!(
        got.iter()
            .any(|l| l.contains("anger 4 -> 5") && l.contains("full"))
    );
    assert_eq!(
        cards_of(&mut b, 0).level,
        0,
        "the level comes with its next turn"
    );
    // Its next turn: anger starts again, the level is gained.
    let round = b.turn().round;
    while b.turn().round == round || b.turn().active() != Some(CombatantId(0)) {
        let who = b.turn().active().expect("someone");
        b.submit(Command::EndTurn { who }).expect("end");
    }
    let cards = cards_of(&mut b, 0);
    assert_eq!((cards.anger, cards.level), (0, 1));
    // A punch now takes one stage more than the table: the preview and the blow agree.
    set_hand(&mut b, 0, &[("punch", 1)]);
    set_stage(&mut b, 0, 5);
    set_stage(&mut b, 1, 5);
    let order = attack(0, "punch", AttackTarget::Combatant(CombatantId(1)));
    let preview = b.preview(&order).expect("preview");
    let shown = preview.odds.targets[0][0].stage_loss.expect("stages");
    assert!(
        preview
            .odds
            .wound
            .terms
            .iter()
            .any(|t| t.label == "level 1 from anger"),
        "{:?}",
        preview.odds.wound.terms
    );
    let before = pools(&mut b, 1).0;
    run(&mut b, Command::Attack(order));
    assert_eq!(before - pools(&mut b, 1).0, shown);
}

#[test]
fn stages_or_card_is_played_as_the_attack_or_as_the_block() {
    // "If the word 'or' is in the card power's text, the player must choose which power to
    // use": Counter Kick attacks on its player's turn and blocks a physical attack otherwise.
    let mut b = duel("energy_fighter", "prodigy", 1, true, &[("counter_kick", 1)]);
    set_hand(&mut b, 1, &[("counter_kick", 1)]);
    let before = pools(&mut b, 1);
    let got = run(&mut b, hit(0, "counter_kick", 1));
    assert!(
        got.iter()
            .any(|l| l.contains("plays Counter Kick: the attack"))
    );
    assert!(
        got.iter()
            .any(|l| l.contains("plays Counter Kick: blocks the attack"))
    );
    assert_eq!(pools(&mut b, 1), before);
}

#[test]
fn stages_broken_card_parts_and_powers_name_file_and_field() {
    let dir = std::env::temp_dir().join(format!("gc-stages-p-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let src = rules_root().join("power-stages");
    std::fs::create_dir_all(&dir).expect("dir");
    for f in gridclash::ruleset::stages::STAGE_FILES {
        std::fs::copy(src.join(f), dir.join(f)).expect("copy");
    }
    let stages_ron = std::fs::read_to_string(dir.join("stages.ron")).expect("read");
    let broken = stages_ron
        .replace("or: PhysicalDefense", "or: PhysicalAttack")
        .replace(
            "also: [RaiseAnger(1)],\n         description: \"Physical Attack.",
            "also: [RaiseAnger(0)],\n         description: \"Physical Attack.",
        );
    std::fs::write(dir.join("stages.ron"), broken).expect("write");
    let roster = std::fs::read_to_string(dir.join("roster.ron")).expect("read");
    std::fs::write(
        dir.join("roster.ron"),
        roster
            .replace("power: \"iron_body\"", "power: \"punch\"")
            .replacen("\"kick\": 5,", "\"kick\": 5, \"spirit_volley\": 1,", 1),
    )
    .expect("write");
    let text = Rules::load(&dir)
        .expect_err("broken")
        .0
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    for want in [
        "stages.ron",
        "a card's two powers must differ",
        "a part of a card power raises by at least 1",
        "roster.ron",
        "unknown personality card power `punch`",
        "`spirit_volley` is a personality card power",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
