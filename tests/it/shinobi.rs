//! The shinobi ruleset (the ninja d20 chapter): each rule of the text and of our data
//! defaults, the exact preview against the resolution, and the AI against random play.

use std::collections::BTreeMap;
use std::sync::Arc;

use gridclash::battle::Battle;
use gridclash::battle::command::DefenseChoice;
use gridclash::battle::command::{AttackOrder, AttackTarget, Command, RuleError};
use gridclash::battle::components::*;
use gridclash::battle::context::Absorb;
use gridclash::battle::event::BattleEvent;
use gridclash::battle::family::shinobi;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::DiceSource;
use gridclash::ruleset::shinobi::move_squares;
use gridclash::ruleset::{ConditionKind, Rules};

use crate::common::stage;
use crate::common::{Arena, ruleset};

/// The shipped shinobi ruleset.
fn rules() -> Arc<Rules> {
    ruleset("shinobi").clone()
}

/// A unit that always answers with `defense` and never makes opportunity attacks.
fn unit(archetype: &str, side: u8, at: (i32, i32), defense: DefensePolicy) -> UnitSetup {
    let mut u = UnitSetup::new(archetype, side, Square::new(at.0, at.1));
    u.controller = Controller {
        defense,
        responses: ResponsePolicy::Never,
        exploits: ExploitPolicy::Never,
    };
    u
}

/// A battle of `units` on open ground, run until unit 0's turn.
fn battle(units: Vec<UnitSetup>, seed: u64) -> Battle {
    Arena::new("shinobi")
        .size(16, 8)
        .units(units)
        .seed(seed)
        .build_at_unit_0()
}

/// An attack order (the common helper, named for what these tests read).
fn order(attacker: u32, profile: &str, target: AttackTarget) -> AttackOrder {
    crate::common::attack(attacker, profile, target)
}

fn at(id: u32) -> AttackTarget {
    AttackTarget::Combatant(CombatantId(id))
}

/// The chance that d20 + `a` is at least d20 + `d`, counted over all 400 pairs.
fn at_least(a: i64, d: i64) -> f64 {
    let mut n = 0;
    for x in 1..=20 {
        for y in 1..=20 {
            if x + a >= y + d {
                n += 1;
            }
        }
    }
    f64::from(n) / 400.0
}

#[test]
fn shinobi_attacker_wins_ties() {
    // Brawler: Taijutsu Strike 1d20 + STR 4 + TAI 4; Blade Dancer dodges 1d20 + DEX 4 + TAI 1.
    let mut b = battle(
        vec![
            unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (3, 2), DefensePolicy::AlwaysDodge),
        ],
        3,
    );
    let p = b.preview(&order(0, "taijutsu", at(1))).expect("legal");
    let dodge = &p.odds.targets[0][0];
    assert_eq!(dodge.defense, DefenseChoice::Dodge);
    assert!((dodge.hit_chance - at_least(8, 5)).abs() < 1e-12);
    // Equal bonuses: ties (1 in 20) go to the attacker, so the hit chance is 21/40, not 19/40.
    assert!((at_least(0, 0) - 0.525).abs() < 1e-12);
    // And the resolution agrees: a logged tie is a hit.
    let mut ties = 0;
    for seed in 0..200 {
        let mut b = battle(
            vec![
                unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
                unit("blade", 1, (3, 2), DefensePolicy::AlwaysDodge),
            ],
            seed,
        );
        let n = b.events().len();
        b.submit(Command::Attack(order(0, "taijutsu", at(1))))
            .expect("attack");
        for e in &b.events()[n..] {
            if let BattleEvent::Clash {
                strike,
                defense,
                hit,
                ..
            } = e
            {
                assert_eq!(*hit, strike >= defense, "the attacker wins ties");
                ties += usize::from(strike == defense);
            }
        }
    }
    assert!(ties > 0, "200 attacks produced at least one tie");
}

#[test]
fn shinobi_standard_attacks_add_ability_and_rank() {
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (8, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    // Ranged: DEX + WEP to hit, STR + WEP damage.
    let p = b
        .preview(&order(0, "kunai_throw", at(1)))
        .expect("in range");
    let hit: i64 = p.context.strike.modifiers.iter().map(|m| m.value).sum();
    let dmg: i64 = p.context.wound.modifiers.iter().map(|m| m.value).sum();
    assert_eq!((hit, dmg), (4 + 4, 4 + 4));
    assert_eq!(p.context.strike.base.as_ref().map(|d| d.sides), Some(20));
    // Melee weapon strike needs melee range.
    assert!(matches!(
        b.preview(&order(0, "weapon_strike", at(1))),
        Err(RuleError::OutOfRange { .. })
    ));
}

#[test]
fn shinobi_movement_by_speed_table() {
    let r = rules();
    let data = r.action_points().expect("shinobi data");
    // "4 speed - 30 ft", 5 ft a square.
    assert_eq!(move_squares(&data.combat, 4), 6);
    assert_eq!(move_squares(&data.combat, 1), 3);
    assert_eq!(move_squares(&data.combat, 10), 12);
    let mut b = battle(
        vec![
            unit("brawler", 0, (0, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (15, 7), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let path = |n: i32| (1..=n).map(|x| Square::new(x, 2)).collect::<Vec<_>>();
    assert!(matches!(
        b.check(&Command::Move {
            who: CombatantId(0),
            path: path(7),
            boosted: false
        }),
        Err(RuleError::PathTooLong { speed: 6, .. })
    ));
    b.submit(Command::Move {
        who: CombatantId(0),
        path: path(6),
        boosted: false,
    })
    .expect("a Speed 4 ninja moves 6 squares for 1 AP");
}

#[test]
fn shinobi_three_action_points_a_round() {
    let mut b = battle(
        vec![
            unit("iron_guard", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (3, 2), DefensePolicy::AlwaysDodge),
        ],
        2,
    );
    // A heavy weapon costs 2 AP, a move 1: then the round's 3 AP are gone.
    b.submit(Command::Attack(order(0, "heavy_swing", at(1))))
        .expect("2 AP");
    assert_eq!(b.fighter(CombatantId(0)).expect("me").actions.usable(), 1);
    let f = b.fighter(CombatantId(0)).expect("me");
    if let Some(target) = b.fighter(CombatantId(1)).and_then(|t| t.position)
        && f.distance_to(&b.fighter(CombatantId(1)).expect("t")) == Some(1)
    {
        let _ = target;
        assert!(matches!(
            b.check(&Command::Attack(order(0, "heavy_swing", at(1)))),
            Err(RuleError::NotEnoughAp {
                need: 2,
                have: 1,
                ..
            })
        ));
    }
    b.submit(Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(2, 3)],
        boosted: false,
    })
    .expect("1 AP left for a move");
    assert_ne!(
        b.turn().active(),
        Some(CombatantId(0)),
        "no AP left: the turn is over"
    );
}

#[test]
fn shinobi_block_needs_a_weapon() {
    // The Brawler has no weapon: Dodge and Deflect only.
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (3, 2), DefensePolicy::Prompt),
        ],
        4,
    );
    let p = b.preview(&order(0, "weapon_strike", at(1))).expect("legal");
    let offered: Vec<DefenseChoice> = p.odds.targets[0].iter().map(|o| o.defense).collect();
    assert_eq!(offered, [DefenseChoice::Dodge, DefenseChoice::Deflect]);
    b.submit(Command::Attack(order(0, "weapon_strike", at(1))))
        .expect("attack");
    assert!(matches!(
        b.check(&Command::Defend {
            defender: CombatantId(1),
            choice: DefenseChoice::Block,
            counter: None,
        }),
        Err(RuleError::DefenseNotOffered { .. })
    ));
    b.submit(Command::Defend {
        defender: CombatantId(1),
        choice: DefenseChoice::Deflect,
        counter: None,
    })
    .expect("Deflect is offered");
}

#[test]
fn shinobi_deflect_needs_a_free_hand() {
    // The Iron Guard holds its Great Axe in both hands: Dodge and Block, no Deflect. The Blade
    // Dancer's ninjato leaves a hand free: all three.
    let mut b = battle(
        vec![
            unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("iron_guard", 1, (3, 2), DefensePolicy::Prompt),
            unit("blade", 1, (2, 3), DefensePolicy::Prompt),
        ],
        4,
    );
    let offered = |b: &mut gridclash::battle::Battle, target: u32| -> Vec<DefenseChoice> {
        let p = b.preview(&order(0, "taijutsu", at(target))).expect("legal");
        p.odds.targets[0].iter().map(|o| o.defense).collect()
    };
    assert_eq!(
        offered(&mut b, 1),
        [DefenseChoice::Dodge, DefenseChoice::Block]
    );
    assert_eq!(
        offered(&mut b, 2),
        [
            DefenseChoice::Dodge,
            DefenseChoice::Block,
            DefenseChoice::Deflect
        ]
    );
    b.submit(Command::Attack(order(0, "taijutsu", at(1))))
        .expect("attack");
    let refused = b.check(&Command::Defend {
        defender: CombatantId(1),
        choice: DefenseChoice::Deflect,
        counter: None,
    });
    assert!(
        matches!(refused, Err(RuleError::DefenseNotOffered { .. })),
        "{refused:?}"
    );
    let sheet = b.unit_sheet(CombatantId(1)).expect("sheet");
    assert!(
        sheet
            .texts()
            .iter()
            .any(|t| t.contains("Great Axe, in both hands (cannot Deflect)")),
        "{:?}",
        sheet.texts()
    );
}

#[test]
fn shinobi_weapons_unlisted_or_with_three_hands_are_refused_with_file_and_field() {
    let err = crate::common::load_error_of_edited("shinobi", |f, text| match f {
        "roster.ron" => text.replace("weapon: \"Great Axe\"", "weapon: \"Halberd\""),
        "shinobi.ron" => text.replace("(name: \"Kunai\", hands: 1)", "(name: \"Kunai\", hands: 3)"),
        _ => text,
    });
    for want in [
        "weapons[1].hands: a weapon takes 1 or 2 hands, not 3",
        "roster.ron",
        "].weapon: unknown weapon `Halberd`",
    ] {
        assert!(err.contains(want), "missing {want:?} in:\n{err}");
    }
}

#[test]
fn shinobi_defenses_add_their_stats_and_take_minus_five() {
    let mut b = battle(
        vec![
            unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (3, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let total = |o: &gridclash::battle::odds::TargetOdds| -> i64 {
        o.defense_roll.terms.iter().filter_map(|t| t.value).sum()
    };
    // Shadow Fang is undodgeable: Dodge DEX 4 + TAI 1 - 5; Block DEX 4 + WEP 4; Deflect SPT 1 +
    // NIN 0, and the Blade Dancer's 10 chakra is above half.
    let p = b.preview(&order(0, "shadow_fang", at(1))).expect("legal");
    let v = &p.odds.targets[0];
    assert_eq!(
        v.iter().map(|o| (o.defense, total(o))).collect::<Vec<_>>(),
        [
            (DefenseChoice::Dodge, 0),
            (DefenseChoice::Block, 8),
            (DefenseChoice::Deflect, 1)
        ]
    );
    // At half chakra or less, Deflect takes -5.
    stage(&mut b, 1, |f| f.ki.current = 5);
    let p = b.preview(&order(0, "shadow_fang", at(1))).expect("legal");
    assert_eq!(total(&p.odds.targets[0][2]), 1 - 5);
}

#[test]
fn shinobi_jutsu_damage_is_its_base_plus_modifying_damage_and_unblockable_blocks_at_minus_five() {
    // "Jutsu have a base damage and modifying damage" (ability + rank); "If they are targeted
    // by an attack that is unblockable they still get a roll at -5." The Fire Adept's
    // Fireball: SPT 4 + NIN 4 to hit, 4 + SPT 4 + NIN 4 damage, at a Blade Dancer who Dodges
    // with DEX 4 + TAI 1, Blocks with DEX 4 + WEP 4 - 5, Deflects with SPT 1 + NIN 0.
    let mut b = battle(
        vec![
            unit("fire_adept", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (6, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let p = b
        .preview(&order(
            0,
            "fireball",
            AttackTarget::Square(Square::new(6, 2)),
        ))
        .expect("in range");
    let sum =
        |spec: &gridclash::dice::RollSpec| -> i64 { spec.modifiers.iter().map(|m| m.value).sum() };
    assert_eq!(sum(&p.context.strike), 4 + 4);
    assert_eq!(sum(&p.context.wound), 4 + 4 + 4);
    let total = |o: &gridclash::battle::odds::TargetOdds| -> i64 {
        o.defense_roll.terms.iter().filter_map(|t| t.value).sum()
    };
    assert_eq!(
        p.odds.targets[0]
            .iter()
            .map(|o| (o.defense, total(o)))
            .collect::<Vec<_>>(),
        [
            (DefenseChoice::Dodge, 5),
            (DefenseChoice::Block, 8 - 5),
            (DefenseChoice::Deflect, 1)
        ]
    );
}

#[test]
fn shinobi_concealment_miss_chance() {
    // A target in thick mist (40%): the hit chance is the roll's times 0.6, exactly.
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (6, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let plain = b
        .preview(&order(0, "kunai_throw", at(1)))
        .expect("legal")
        .odds
        .targets[0][0]
        .hit_chance;
    let mist = rules().terrain_index("mist").expect("mist");
    b.world_mut()
        .resource_mut::<gridclash::battle::state::Battleground>()
        .0
        .set(Square::new(6, 2), mist);
    let p = b.preview(&order(0, "kunai_throw", at(1))).expect("legal");
    assert!((p.odds.targets[0][0].hit_chance - plain * 0.6).abs() < 1e-12);
    assert_eq!(
        p.context.targets[0].miss_chance,
        Some((40, "Thick mist".to_string()))
    );
}

#[test]
fn shinobi_cover_absorbs_until_broken() {
    let mut wear = BTreeMap::new();
    let crate_at = Square::new(5, 2);
    let mut dice = DiceSource::seeded(9);
    let mut log = gridclash::battle::event::EventLog::default();
    let mut left = 20;
    let mut through = 0;
    let mut rolls = 0;
    while left > 0 && rolls < 100 {
        rolls += 1;
        let cover = Absorb {
            name: "Wooden crates".into(),
            at: crate_at,
            left,
            chance: 60,
            person: None,
            full: false,
        };
        through += shinobi::absorb_hit(&mut dice, &mut wear, CombatantId(1), &cover, 7, &mut log);
        left = 20 - wear.get(&crate_at).copied().unwrap_or(0);
    }
    assert_eq!(left, 0, "20 damage absorbed, then broken");
    assert_eq!(wear[&crate_at], 20);
    // Every hit either went past the crates (60% hit them) or lost what the crates took.
    assert_eq!(through + 20, 7 * rolls);
    // The exact preview mixes the two: 40% the whole 7, 60% what is left over the cover.
    let wound = gridclash::dice::Dist::point(7);
    let cover = Absorb {
        name: "Wooden crates".into(),
        at: crate_at,
        left: 5,
        chance: 60,
        person: None,
        full: false,
    };
    let d = shinobi::landed_damage(&wound, Some(&cover));
    assert!((d.prob(7) - 0.4).abs() < 1e-12 && (d.prob(2) - 0.6).abs() < 1e-12);
}

#[test]
fn shinobi_partial_cover_is_sixty_percent_in_play() {
    // A kunai thrown past a crate beside the target: the preview names the cover and the
    // battle wears it down only by what it absorbs.
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (7, 2), DefensePolicy::AlwaysDodge),
        ],
        11,
    );
    let crates = rules().terrain_index("crates").expect("crates");
    b.world_mut()
        .resource_mut::<gridclash::battle::state::Battleground>()
        .0
        .set(Square::new(6, 2), crates);
    let p = b.preview(&order(0, "kunai_throw", at(1))).expect("legal");
    let a = p.context.targets[0].absorb.clone().expect("partial cover");
    assert_eq!((a.left, a.chance, a.at), (20, 60, Square::new(6, 2)));
    let before = b.fighter(CombatantId(1)).expect("t").life.current;
    let n = b.events().len();
    b.submit(Command::Attack(order(0, "kunai_throw", at(1))))
        .expect("attack");
    let absorbed: i64 = b.events()[n..]
        .iter()
        .map(|e| match e {
            BattleEvent::CoverRolled { absorbed, .. } => *absorbed,
            _ => 0,
        })
        .sum();
    let after = b.fighter(CombatantId(1)).expect("t").life.current;
    let wear = b.map().wear.get(&Square::new(6, 2)).copied().unwrap_or(0);
    assert_eq!(wear, absorbed);
    let dealt = p.context.wound.flat_total();
    assert!(before - after + absorbed == dealt || before == after);
}

#[test]
fn shinobi_preview_is_exactly_what_happens() {
    // Over 400 seeded attacks the hit rate and mean damage agree with the exact preview.
    let (mut hits, mut damage, n) = (0.0, 0.0, 400);
    let mut expected = None;
    for seed in 0..n {
        let mut b = battle(
            vec![
                unit("scout", 0, (2, 2), DefensePolicy::Best),
                unit("fire_adept", 1, (3, 2), DefensePolicy::Best),
            ],
            seed,
        );
        let o = order(0, "shadow_fang", at(1));
        let p = b.preview(&o).expect("legal");
        // The Best policy answers with the defense that leaves the least expected damage.
        let best = p.odds.targets[0]
            .iter()
            .min_by(|a, b| a.expected_damage.total_cmp(&b.expected_damage))
            .expect("answers")
            .clone();
        expected.get_or_insert((best.hit_chance, best.expected_damage));
        let before = b.fighter(CombatantId(1)).expect("t").life.current;
        b.submit(Command::Attack(o)).expect("attack");
        let after = b.fighter(CombatantId(1)).expect("t").life.current;
        if after < before {
            hits += 1.0;
        }
        damage += (before - after) as f64;
    }
    let (p_hit, mean) = expected.expect("previewed");
    let n = f64::from(n as u32);
    assert!((hits / n - p_hit).abs() < 0.08, "{} vs {p_hit}", hits / n);
    assert!((damage / n - mean).abs() < 0.8, "{} vs {mean}", damage / n);
}

#[test]
fn shinobi_opportunity_attack_needs_reach_entered_and_left() {
    let enemy = |at: (i32, i32)| {
        let r = rules();
        let mut b = battle(
            vec![
                unit("brawler", 0, (0, 2), DefensePolicy::AlwaysDodge),
                unit("blade", 1, at, DefensePolicy::AlwaysDodge),
            ],
            1,
        );
        drop(r);
        b.fighter(CombatantId(1)).expect("enemy")
    };
    let e = enemy((5, 2));
    let sq = |x: i32| Square::new(x, 3);
    // Passing by: out of reach at (2,3), in at (4,3)..(6,3): entered at (4,3).
    let visited: Vec<Square> = (2..=6).map(sq).collect();
    assert_eq!(
        shinobi::entered_reach(&visited, 1, &e),
        Some(Square::new(4, 3))
    );
    // Starting beside it and walking away never entered its reach: no opportunity attack.
    let visited: Vec<Square> = (5..=6).map(sq).collect();
    assert_eq!(shinobi::entered_reach(&visited, 1, &e), None);
}

#[test]
fn shinobi_opportunity_attack_stops_the_move_where_it_entered_reach() {
    // The Blade Dancer (with AP held) strikes the Brawler running past; on a hit the Brawler
    // stands where it entered the reach.
    let mut stopped = 0;
    for seed in 0..40 {
        let mut guard = unit("blade", 1, (5, 2), DefensePolicy::AlwaysDodge);
        guard.controller.exploits = ExploitPolicy::Always;
        let mut b = battle(
            vec![
                unit("brawler", 0, (1, 3), DefensePolicy::AlwaysDodge),
                guard,
            ],
            seed,
        );
        let path: Vec<Square> = (2..=7).map(|x| Square::new(x, 3)).collect();
        let n = b.events().len();
        b.submit(Command::Move {
            who: CombatantId(0),
            path,
            boosted: false,
        })
        .expect("move");
        let hit = b.events()[n..]
            .iter()
            .any(|e| matches!(e, BattleEvent::Clash { hit: true, .. }));
        let pos = b.fighter(CombatantId(0)).expect("me").position;
        if hit {
            stopped += 1;
            assert_eq!(pos, Some(Square::new(4, 3)), "seed {seed}");
            assert!(
                b.events()[n..]
                    .iter()
                    .any(|e| matches!(e, BattleEvent::StoppedAtReach { .. }))
            );
        } else {
            assert_eq!(pos, Some(Square::new(7, 3)), "seed {seed}");
        }
        let guard_ap = b.fighter(CombatantId(1)).expect("guard").actions.usable();
        assert_eq!(guard_ap, 2, "the opportunity attack cost 1 of its 3 AP");
    }
    assert!(stopped > 0);
}

#[test]
fn shinobi_opportunity_attack_stop_never_leaves_the_mover_on_an_ally() {
    // The Brawler runs through three allies standing in the Blade Dancer's reach; hit as it
    // leaves, it would stop where it entered (4,3), but every square from there is an ally's:
    // it goes back to (3,3), the last square of its path where it may stand (found by the
    // soak: the mover used to stay on the ally's square).
    let mut stopped = 0;
    for seed in 0..40 {
        let mut guard = unit("blade", 1, (5, 2), DefensePolicy::AlwaysDodge);
        guard.controller.exploits = ExploitPolicy::Always;
        let mut b = battle(
            vec![
                unit("brawler", 0, (1, 3), DefensePolicy::AlwaysDodge),
                guard,
                unit("scout", 0, (4, 3), DefensePolicy::AlwaysDodge),
                unit("scout", 0, (5, 3), DefensePolicy::AlwaysDodge),
                unit("scout", 0, (6, 3), DefensePolicy::AlwaysDodge),
            ],
            seed,
        );
        let path: Vec<Square> = (2..=7).map(|x| Square::new(x, 3)).collect();
        let n = b.events().len();
        b.submit(Command::Move {
            who: CombatantId(0),
            path,
            boosted: false,
        })
        .expect("move");
        let hit = b.events()[n..]
            .iter()
            .any(|e| matches!(e, BattleEvent::Clash { hit: true, .. }));
        let pos = b.fighter(CombatantId(0)).expect("me").position;
        if hit {
            stopped += 1;
            assert_eq!(pos, Some(Square::new(3, 3)), "seed {seed}");
        } else {
            assert_eq!(pos, Some(Square::new(7, 3)), "seed {seed}");
        }
        assert!(
            gridclash::harness::check_state(&mut b).is_empty(),
            "seed {seed}: {:?}",
            gridclash::harness::check_state(&mut b)
        );
    }
    assert!(stopped > 0);
}

#[test]
fn shinobi_slam_damage_when_a_push_is_stopped() {
    // Wind Palm throws the target 3 squares back; a wall 1 square behind stops it: slam damage
    // equal to the Fire Adept's Spirit (4), the first stat it hits with.
    let mut seen = false;
    for seed in 0..40 {
        let mut b = battle(
            vec![
                unit("fire_adept", 0, (2, 2), DefensePolicy::AlwaysDodge),
                unit("brawler", 1, (4, 2), DefensePolicy::AlwaysDodge),
            ],
            seed,
        );
        let wall = rules().terrain_index("wall").expect("wall");
        b.world_mut()
            .resource_mut::<gridclash::battle::state::Battleground>()
            .0
            .set(Square::new(6, 2), wall);
        let n = b.events().len();
        b.submit(Command::Attack(order(0, "wind_palm", at(1))))
            .expect("attack");
        let ev = &b.events()[n..];
        if ev
            .iter()
            .any(|e| matches!(e, BattleEvent::Clash { hit: true, .. }))
        {
            seen = true;
            assert!(ev.iter().any(|e| matches!(
                e,
                BattleEvent::Slammed { damage: 4, at, .. } if *at == Square::new(5, 2)
            )));
            assert_eq!(
                b.fighter(CombatantId(1)).expect("t").position,
                Some(Square::new(5, 2))
            );
        }
    }
    assert!(seen);
}

fn sneak(attacker: u32, profile: &str, target: u32) -> AttackOrder {
    AttackOrder {
        sneak: true,
        ..order(attacker, profile, at(target))
    }
}

#[test]
fn shinobi_sneak_attack_takes_five_off_every_defense() {
    // The Shadow Scout (Sleight of Hand 4) palms a kunai at the Iron Guard (Perception 1) 5
    // squares away: the preview mixes a won and a lost contest with their exact chances.
    let mut b = battle(
        vec![
            unit("scout", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("iron_guard", 1, (7, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let plain = b.preview(&order(0, "kunai_throw", at(1))).expect("legal");
    let sly = b.preview(&sneak(0, "kunai_throw", 1)).expect("legal");
    let (won, penalised) = sly.context.targets[0]
        .sneak
        .clone()
        .expect("a sneak attack");
    // d20 + 4 beats d20 + 1 (the defender wins ties, our default).
    let mut n = 0;
    for x in 1..=20 {
        for y in 1..=20 {
            if x + 4 > y + 1 {
                n += 1;
            }
        }
    }
    assert!((won - f64::from(n) / 400.0).abs() < 1e-12);
    for (c, spec) in &penalised {
        assert!(
            spec.modifiers
                .iter()
                .any(|m| m.label == "Sneak attack" && m.value == -5),
            "{c:?}"
        );
    }
    let p0 = plain.odds.targets[0][0].hit_chance;
    let p1 = sly.odds.targets[0][0].hit_chance;
    // Dodge DEX 2 + TAI 1 - 5 against 1d20 + DEX 4 + WEP 3.
    let p_won = at_least(7, 3 - 5);
    assert!((p1 - (won * p_won + (1.0 - won) * p0)).abs() < 1e-12);
    // Resolved: the contest is logged, and a won contest puts the penalty on the defense roll.
    let mut seen_won = false;
    for seed in 0..30 {
        let mut b = battle(
            vec![
                unit("scout", 0, (2, 2), DefensePolicy::AlwaysDodge),
                unit("iron_guard", 1, (7, 2), DefensePolicy::AlwaysDodge),
            ],
            seed,
        );
        let n = b.events().len();
        b.submit(Command::Attack(sneak(0, "kunai_throw", 1)))
            .expect("attack");
        let ev = &b.events()[n..];
        let won = ev.iter().find_map(|e| match e {
            BattleEvent::SneakContest { won, .. } => Some(*won),
            _ => None,
        });
        let penalty = ev.iter().any(|e| match e {
            BattleEvent::DefenseRolled { roll, .. } => {
                roll.modifiers.iter().any(|m| m.label == "Sneak attack")
            }
            _ => false,
        });
        assert_eq!(Some(penalty), won, "seed {seed}");
        seen_won |= penalty;
    }
    assert!(seen_won);
}

#[test]
fn shinobi_spotted_sneak_attack_provokes_an_opportunity_attack() {
    // The Brawler (Stealth 1) sneaks on the Blade Dancer (Perception 2) beside it; when spotted,
    // the Blade Dancer strikes first (1 AP), then the attack is made as an ordinary one.
    let mut seen = false;
    for seed in 0..40 {
        let mut guard = unit("blade", 1, (3, 2), DefensePolicy::AlwaysDodge);
        guard.controller.exploits = ExploitPolicy::Always;
        let mut b = battle(
            vec![
                unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
                guard,
            ],
            seed,
        );
        let n = b.events().len();
        b.submit(Command::Attack(sneak(0, "taijutsu", 1)))
            .expect("attack");
        let ev: Vec<&BattleEvent> = b.events()[n..].iter().collect();
        let spotted = ev
            .iter()
            .any(|e| matches!(e, BattleEvent::SneakContest { won: false, .. }));
        if !spotted {
            continue;
        }
        seen = true;
        let provoked = ev
            .iter()
            .position(|e| matches!(e, BattleEvent::ExploitProvoked { sneak: true, .. }))
            .expect("an opportunity attack is offered");
        let declared: Vec<(usize, CombatantId)> = ev
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                BattleEvent::AttackDeclared { attacker, .. } => Some((i, *attacker)),
                _ => None,
            })
            .collect();
        assert_eq!(declared.len(), 2, "seed {seed}: {declared:?}");
        assert!(provoked < declared[0].0);
        assert_eq!(declared[0].1, CombatantId(1), "the defender strikes first");
        assert_eq!(declared[1].1, CombatantId(0), "then the attack is made");
        // 1 AP for the opportunity attack, and 1 more if it also countered the attack.
        let countered = ev
            .iter()
            .filter(|e| matches!(e, BattleEvent::CounterCast { .. }))
            .count() as u32;
        assert_eq!(
            b.fighter(CombatantId(1)).expect("guard").actions.usable(),
            2 - countered
        );
    }
    assert!(seen);
}

#[test]
fn shinobi_falling_damage_half_the_feet_acrobatics_negates_or_halves() {
    let r = rules();
    let data = r.action_points().expect("shinobi");
    let mut b = battle(
        vec![
            unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (9, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let me = b.fighter(CombatantId(0)).expect("me");
    // 30 ft: 15 damage; Acrobatics (1d20 + 3) 15+ negates; "DC 1/4 the fall distance" is 7.5,
    // so a total of 8+ (not 7) halves it to 7.
    let f = shinobi::fall(data, &me, 30);
    assert_eq!((f.damage, f.negate_dc, f.halve_dc), (15, 15, 8));
    let d = shinobi::fall_dist(&f);
    assert!(
        (d.prob(0) - 9.0 / 20.0).abs() < 1e-12,
        "d20 + 3 >= 15: 9 of 20"
    );
    assert!((d.prob(7) - 7.0 / 20.0).abs() < 1e-12, "8..=14: 7 of 20");
    assert!((d.prob(15) - 4.0 / 20.0).abs() < 1e-12, "below 8: 4 of 20");
    // An odd distance: 25 ft (12 damage) is negated at 12.5, so 13, and halved at 6.25, so 7.
    let odd = shinobi::fall(data, &me, 25);
    assert_eq!((odd.damage, odd.negate_dc, odd.halve_dc), (12, 13, 7));
    // Under 20 ft: no damage, no roll.
    let short = shinobi::fall(data, &me, 15);
    assert_eq!((short.damage, short.acrobatics.is_none()), (0, true));
    // Stepping onto a rooftop edge falls.
    let mut b = battle(
        vec![
            unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (9, 6), DefensePolicy::AlwaysDodge),
        ],
        3,
    );
    let ledge = rules().terrain_index("ledge").expect("ledge");
    b.world_mut()
        .resource_mut::<gridclash::battle::state::Battleground>()
        .0
        .set(Square::new(3, 2), ledge);
    let before = b.fighter(CombatantId(0)).expect("me").life.current;
    let n = b.events().len();
    b.submit(Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(3, 2)],
        boosted: false,
    })
    .expect("move");
    let hurt = b.events()[n..]
        .iter()
        .find_map(|e| match e {
            BattleEvent::Fell {
                damage, feet: 30, ..
            } => Some(*damage),
            _ => None,
        })
        .expect("a fall is logged");
    assert!([0, 7, 15].contains(&hurt));
    assert_eq!(
        b.fighter(CombatantId(0)).expect("me").life.current,
        before - hurt
    );
    // Walking on along the bottom of the drop does not fall again.
    b.world_mut()
        .resource_mut::<gridclash::battle::state::Battleground>()
        .0
        .set(Square::new(4, 2), ledge);
    let n = b.events().len();
    b.submit(Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(4, 2)],
        boosted: false,
    })
    .expect("move");
    assert!(
        !b.events()[n..]
            .iter()
            .any(|e| matches!(e, BattleEvent::Fell { .. }))
    );
}

#[test]
fn shinobi_push_onto_a_drop_falls_and_the_preview_counts_it() {
    // Wind Palm throws the Brawler 3 squares toward a rooftop edge 2 squares behind it: it stops
    // there and falls; the preview's damage includes the fall's exact distribution.
    let mut b = battle(
        vec![
            unit("fire_adept", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (4, 2), DefensePolicy::AlwaysDodge),
        ],
        5,
    );
    let ledge = rules().terrain_index("ledge").expect("ledge");
    b.world_mut()
        .resource_mut::<gridclash::battle::state::Battleground>()
        .0
        .set(Square::new(6, 2), ledge);
    let p = b.preview(&order(0, "wind_palm", at(1))).expect("legal");
    let k = p.context.targets[0].knockback.clone().expect("a push");
    assert_eq!(k.to, Square::new(6, 2));
    assert!(k.slam.is_none() && k.fall.as_ref().is_some_and(|f| f.feet == 30));
    // Wind Palm deals SPT 4 + NIN 4 = 8, then the fall (0, 7 or 15 with d20 + ACRO 3).
    let dodge = &p.odds.targets[0][0];
    let landed: f64 = [8, 15, 23]
        .iter()
        .map(|d| dodge.damage_distribution.get(d).copied().unwrap_or(0.0))
        .sum();
    assert!((landed - dodge.hit_chance).abs() < 1e-9);
}

/// A Brawler (Counter Strike) attacked by a Blade Dancer beside it, asked how to defend.
fn counter_battle(seed: u64) -> Battle {
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (3, 2), DefensePolicy::Prompt),
        ],
        seed,
    );
    b.submit(Command::Attack(order(0, "weapon_strike", at(1))))
        .expect("attack");
    b
}

#[test]
fn shinobi_counter_strikes_back_with_the_kept_roll() {
    let (mut struck, mut wasted) = (0, 0);
    for seed in 0..60 {
        let mut b = counter_battle(seed);
        let (ap, chakra) = {
            let f = b.fighter(CombatantId(1)).expect("brawler");
            (f.actions.usable(), f.ki.current)
        };
        let n = b.events().len();
        b.submit(Command::Defend {
            defender: CombatantId(1),
            choice: DefenseChoice::Dodge,
            counter: Some("counter_strike".into()),
        })
        .expect("the Brawler may counter");
        let me = b.fighter(CombatantId(1)).expect("brawler");
        assert_eq!(
            (me.actions.usable(), me.ki.current),
            (ap - 1, chakra - 2),
            "1 AP and 2 chakra, spent either way"
        );
        let ev = &b.events()[n..];
        let dodge = ev.iter().find_map(|e| match e {
            BattleEvent::DefenseRolled { roll, .. } => Some(roll.total),
            _ => None,
        });
        for e in ev {
            match e {
                BattleEvent::CounterStruck {
                    kept,
                    defense,
                    hit,
                    damage,
                    ..
                } => {
                    struck += 1;
                    assert_eq!(
                        Some(*kept),
                        dodge,
                        "the evasion roll is kept as the hit roll"
                    );
                    assert_eq!(
                        *hit,
                        *kept >= defense.total,
                        "the countering ninja wins ties"
                    );
                    assert_eq!(*damage, if *hit { 4 + 4 } else { 0 }, "STR + TAI");
                }
                BattleEvent::CounterWasted { .. } => wasted += 1,
                _ => {}
            }
        }
    }
    assert!(struck > 0 && wasted > 0, "{struck} struck, {wasted} wasted");
}

#[test]
fn shinobi_counter_preview_is_exact() {
    let mut b = counter_battle(1);
    let p = b.counter_preview().expect("a counter is offered");
    assert_eq!((p.counter.id.as_str(), p.damage), ("counter_strike", 8));
    // Dodge: 1d20 + DEX 3 + TAI 4 against 1d20 + STR 4 + WEP 4 (the attacker wins ties), then
    // the kept roll against the Blade Dancer's best defense, Block 1d20 + 8 (ties to the counter).
    let mut n = 0;
    for s in 1..=20 {
        for d in 1..=20 {
            for c in 1..=20 {
                if d + 7 > s + 8 && d + 7 >= c + 8 {
                    n += 1;
                }
            }
        }
    }
    let (_, dodge) = p.chances[0];
    assert!((dodge - f64::from(n) / 8000.0).abs() < 1e-12);
    // Too far away, or without AP, there is no counter.
    let far = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (6, 2), DefensePolicy::Prompt),
        ],
        1,
    );
    let mut far = far;
    far.submit(Command::Attack(order(0, "kunai_throw", at(1))))
        .expect("attack");
    assert!(far.counter_preview().is_none());
    assert!(matches!(
        far.check(&Command::Defend {
            defender: CombatantId(1),
            choice: DefenseChoice::Dodge,
            counter: Some("counter_strike".into()),
        }),
        Err(RuleError::CannotCounter { .. })
    ));
}

#[test]
fn shinobi_initiative_skill_roll_ties_go_to_speed() {
    // "All Characters make Initiative Skill rolls … Ties go to higher speed then a roll off":
    // 1d20 + AWA + INIT, highest first; on equal totals the higher Speed goes first.
    for seed in 0..40 {
        let setup = BattleSetup::open(
            16,
            8,
            vec![
                unit("iron_guard", 0, (2, 2), DefensePolicy::AlwaysDodge),
                unit("scout", 1, (9, 2), DefensePolicy::AlwaysDodge),
            ],
        );
        let b = Battle::new(rules(), &setup, DiceSource::seeded(seed)).expect("starts");
        let mut totals = BTreeMap::new();
        for e in b.events() {
            if let BattleEvent::InitiativeRolled { who, roll } = e {
                assert!(roll.natural.is_some_and(|n| (1..=20).contains(&n)), "a d20");
                let bonus: i64 = roll.modifiers.iter().map(|m| m.value).sum();
                let expected = if who.0 == 0 { 1 } else { 4 + 3 };
                assert_eq!(bonus, expected, "AWA + INIT");
                totals.insert(*who, roll.total);
            }
        }
        let (g, s) = (totals[&CombatantId(0)], totals[&CombatantId(1)]);
        let first = b.turn().order[0];
        if g > s {
            assert_eq!(first, CombatantId(0));
        } else {
            // Higher, or tied and faster (Speed 5 against 2).
            assert_eq!(first, CombatantId(1), "seed {seed}: {g} vs {s}");
        }
    }
}

#[test]
fn shinobi_held_ap_are_spent_later_in_the_round_and_lost_at_its_end() {
    // The Blade Dancer ends its turn with 3 AP held; the Brawler runs past it: the held AP pay
    // the opportunity attack. At the next round every ninja has 3 AP again, held or not.
    let mut guard = unit("blade", 1, (5, 2), DefensePolicy::AlwaysDodge);
    guard.controller.exploits = ExploitPolicy::Always;
    let setup = BattleSetup::open(
        16,
        8,
        vec![
            unit("brawler", 0, (1, 3), DefensePolicy::AlwaysDodge),
            guard,
        ],
    );
    let mut b = Battle::new(rules(), &setup, DiceSource::seeded(2)).expect("starts");
    // Let the guard's turn come first, and end it at once, holding its 3 AP.
    while b.turn().active() != Some(CombatantId(1)) {
        let who = b.turn().active().expect("someone");
        b.submit(Command::EndTurn { who }).expect("end");
    }
    b.submit(Command::EndTurn {
        who: CombatantId(1),
    })
    .expect("hold");
    assert_eq!(
        b.fighter(CombatantId(1)).expect("guard").actions.usable(),
        3
    );
    while b.turn().active() != Some(CombatantId(0)) {
        let who = b.turn().active().expect("someone");
        b.submit(Command::EndTurn { who }).expect("end");
    }
    let round = b.turn().round;
    let path: Vec<Square> = (2..=7).map(|x| Square::new(x, 3)).collect();
    b.submit(Command::Move {
        who: CombatantId(0),
        path,
        boosted: false,
    })
    .expect("move");
    if b.turn().round == round {
        assert_eq!(
            b.fighter(CombatantId(1)).expect("guard").actions.usable(),
            2,
            "a held AP paid the opportunity attack"
        );
    }
    while b.turn().round == round {
        let who = b.turn().active().expect("someone");
        b.submit(Command::EndTurn { who }).expect("end");
    }
    assert_eq!(
        b.fighter(CombatantId(1)).expect("guard").actions.usable(),
        3
    );
    assert_eq!(
        b.fighter(CombatantId(0)).expect("brawler").actions.usable(),
        3
    );
}

#[test]
fn shinobi_worn_cover_is_part_of_the_state_hash() {
    // Cover wear decides later damage, so saves and replays must see it change.
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (7, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let h0 = b.state_hash();
    let wear = |b: &mut Battle, n: i64| {
        b.world_mut()
            .resource_mut::<gridclash::battle::state::Battleground>()
            .0
            .wear
            .insert(Square::new(6, 2), n);
    };
    wear(&mut b, 5);
    let h1 = b.state_hash();
    wear(&mut b, 6);
    let h2 = b.state_hash();
    assert!(h0 != h1 && h1 != h2 && h0 != h2);
}

#[test]
fn shinobi_opportunity_attacks_are_one_ap_melee_attacks_without_knockback() {
    let r = rules();
    let data = r.action_points().expect("shinobi");
    let b = battle(
        vec![
            unit("iron_guard", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (3, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let mut b = b;
    let guard = b.fighter(CombatantId(0)).expect("guard");
    assert!(shinobi::check_attack(data, None, &guard, "weapon_strike", true).is_ok());
    assert!(matches!(
        shinobi::check_attack(data, None, &guard, "heavy_swing", true),
        Err(RuleError::OpportunityNeedsMelee { ap: 1, .. })
    ));
}

#[test]
fn shinobi_refuses_maneuvers_of_other_rulesets() {
    let mut b = battle(
        vec![
            unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (9, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    for cmd in [
        Command::PowerUp {
            who: CombatantId(0),
        },
        Command::ConvertAction {
            who: CombatantId(0),
        },
        Command::Move {
            who: CombatantId(0),
            path: vec![Square::new(3, 2)],
            boosted: true,
        },
    ] {
        let got = b.check(&cmd);
        assert!(
            matches!(got, Err(RuleError::NotInRuleset { .. })),
            "{cmd:?}: {got:?}"
        );
    }
}

#[test]
#[ignore = "full-size tier: cargo test --profile fast --no-default-features -- --ignored"]
fn shinobi_ai_beats_random_play_ninety_percent_over_200_battles() {
    let (won, played) = crate::common::normal_against_random(&["shinobi-duel", "shinobi-squad"]);
    assert!(
        won * 10 >= played * 9,
        "normal AI won {won} of {played} against random play"
    );
}

/// An illusionist (unit 0) and a blade dancer (unit 1) three squares apart, on dice that come
/// up `faces` after the two initiative rolls (the illusionist's 20 goes first).
fn veil_battle(faces: &[u32]) -> Battle {
    let mut all = vec![20, 1];
    all.extend_from_slice(faces);
    Arena::new("shinobi")
        .size(16, 8)
        .units(vec![
            unit("illusionist", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (5, 2), DefensePolicy::Prompt),
        ])
        .dice(&all)
        .build_at_unit_0()
}

#[test]
fn shinobi_genjutsu_is_answered_only_with_gen_resist_and_its_preview_is_exact() {
    // Dark Veil: 1d20 + SPT 4 + GEN 4 against Gen Resist 1d20 + AWA 2 + GEN 0; no damage.
    let mut b = veil_battle(&[10, 10]);
    let p = b.preview(&order(0, "dark_veil", at(1))).expect("legal");
    let answers = &p.odds.targets[0];
    let offered: Vec<DefenseChoice> = answers.iter().map(|o| o.defense).collect();
    assert_eq!(offered, [DefenseChoice::Resist]);
    assert!((answers[0].hit_chance - at_least(8, 2)).abs() < 1e-12);
    assert_eq!(answers[0].expected_damage, 0.0);
    assert!(
        p.context.targets[0].absorb.is_none(),
        "no obstruction takes a Genjutsu"
    );
    b.submit(Command::Attack(order(0, "dark_veil", at(1))))
        .expect("cast");
    for choice in [
        DefenseChoice::Dodge,
        DefenseChoice::Block,
        DefenseChoice::Deflect,
    ] {
        let refused = b.check(&Command::Defend {
            defender: CombatantId(1),
            choice,
            counter: None,
        });
        assert!(
            matches!(refused, Err(RuleError::DefenseNotOffered { .. })),
            "{choice:?}: {refused:?}"
        );
    }
    let countered = b.check(&Command::Defend {
        defender: CombatantId(1),
        choice: DefenseChoice::Resist,
        counter: Some("riposte".into()),
    });
    assert!(
        matches!(&countered, Err(RuleError::CannotCounter { why, .. }) if why.contains("Genjutsu")),
        "{countered:?}"
    );
    assert!(b.counter_preview().is_none(), "no counter is offered");
    // 10 + 8 = 18 against 10 + 2 = 12: caught. No damage, no HP lost; 6 chakra spent.
    let lines = crate::common::run(
        &mut b,
        Command::Defend {
            defender: CombatantId(1),
            choice: DefenseChoice::Resist,
            counter: None,
        },
    );
    let blade = b.fighter(CombatantId(1)).expect("blade");
    assert!(blade.conditions.has(ConditionKind::Blinded), "{lines:#?}");
    assert_eq!(blade.life.current, blade.life.max);
    assert!(!lines.iter().any(|l| l.contains("damage")), "{lines:#?}");
    let caster = b.fighter(CombatantId(0)).expect("illusionist");
    assert_eq!(caster.ki.current, caster.ki.max - 6);
}

#[test]
fn shinobi_gen_resist_that_beats_the_casting_roll_is_not_blinded() {
    // 1 + 8 = 9 against 20 + 2 = 22.
    let mut b = veil_battle(&[1, 20]);
    b.submit(Command::Attack(order(0, "dark_veil", at(1))))
        .expect("cast");
    b.submit(Command::Defend {
        defender: CombatantId(1),
        choice: DefenseChoice::Resist,
        counter: None,
    })
    .expect("resist");
    let blade = b.fighter(CombatantId(1)).expect("blade");
    assert!(!blade.conditions.has(ConditionKind::Blinded));
}

#[test]
fn shinobi_blinded_attacker_misses_half_the_time_in_preview_and_roll() {
    // "Concealment … being attacked by a blinded enemy … Blindness - 50%": the hit chance is
    // the roll's times 0.5, and the higher of blindness and the target's concealment counts.
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (3, 2), DefensePolicy::AlwaysDodge),
            unit("illusionist", 1, (9, 5), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    let plain = b
        .preview(&order(0, "weapon_strike", at(1)))
        .expect("legal")
        .odds
        .targets[0][0]
        .hit_chance;
    crate::common::give(&mut b, 0, ConditionKind::Blinded, Some(2));
    let p = b.preview(&order(0, "weapon_strike", at(1))).expect("legal");
    assert!((p.odds.targets[0][0].hit_chance - plain * 0.5).abs() < 1e-12);
    let (chance, from) = p.context.targets[0]
        .miss_chance
        .clone()
        .expect("miss chance");
    assert_eq!(chance, 50);
    assert!(from.ends_with("is blinded"), "{from}");
    // Mist's 40% under the target is lower: blindness's 50% counts.
    let mist = rules().terrain_index("mist").expect("mist");
    b.world_mut()
        .resource_mut::<gridclash::battle::state::Battleground>()
        .0
        .set(Square::new(3, 2), mist);
    let p = b.preview(&order(0, "weapon_strike", at(1))).expect("legal");
    assert_eq!(
        p.context.targets[0].miss_chance.as_ref().map(|m| m.0),
        Some(50)
    );
    // Rolled: a landed hit rolls the miss chance, naming the blindness.
    let mut seen = false;
    for _ in 0..3 {
        let lines = crate::common::run(&mut b, Command::Attack(order(0, "weapon_strike", at(1))));
        seen |= lines
            .iter()
            .any(|l| l.contains("50%") && l.contains("blinded"));
    }
    assert!(seen, "no miss chance was rolled in three strikes");
}

#[test]
fn shinobi_gen_resist_each_round_on_the_casters_turn_frees_the_blinded() {
    // The blade is caught; the illusionist's next turn starts with its Gen Resist against a
    // new casting roll: 1 + 8 = 9 against 20 + 2 = 22, free.
    let mut b = veil_battle(&[1, 20]);
    crate::common::give(&mut b, 1, ConditionKind::Blinded, Some(0));
    let mut lines = crate::common::run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(0),
        },
    );
    assert!(
        b.fighter(CombatantId(1))
            .expect("blade")
            .conditions
            .has(ConditionKind::Blinded),
        "no resist on the blinded one's own turn: {lines:#?}"
    );
    lines.extend(crate::common::run(
        &mut b,
        Command::EndTurn {
            who: CombatantId(1),
        },
    ));
    assert!(
        lines.iter().any(|l| l.contains("tries to escape")
            && l.contains("Gen Resist")
            && l.ends_with("-> free.")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Blinded ends (resisted the Genjutsu")),
        "{lines:#?}"
    );
    assert!(
        !b.fighter(CombatantId(1))
            .expect("blade")
            .conditions
            .has(ConditionKind::Blinded)
    );
}

#[test]
fn shinobi_genjutsu_ends_when_its_caster_is_down() {
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (6, 2), DefensePolicy::AlwaysDodge),
            unit("illusionist", 1, (9, 5), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    crate::common::give(&mut b, 0, ConditionKind::Blinded, Some(2));
    crate::common::set_life(&mut b, 2, 0);
    let mut lines = Vec::new();
    while b.turn().active() != Some(CombatantId(0)) || lines.is_empty() {
        let who = b.turn().active().expect("someone acts");
        lines.extend(crate::common::run(&mut b, Command::EndTurn { who }));
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Blinded ends (its caster is down)")),
        "{lines:#?}"
    );
}

#[test]
fn shinobi_a_person_in_the_way_is_partial_cover_with_their_hp() {
    // "A Person - Their HP (Always Partial Cover)": the Blade Dancer's kunai at the Brawler
    // crosses the Scout standing beside him; 60% of hits strike the Scout, who absorbs up to
    // his HP (38) and takes what he absorbs; the rest of the time the Brawler is hit.
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 1, (6, 2), DefensePolicy::AlwaysDodge),
            unit("scout", 1, (5, 2), DefensePolicy::AlwaysDodge),
        ],
        2,
    );
    let p = b.preview(&order(0, "kunai_throw", at(1))).expect("legal");
    let ab = p.context.targets[0]
        .absorb
        .clone()
        .expect("the Scout is in the way");
    assert_eq!(ab.person, Some(CombatantId(2)));
    assert_eq!((ab.at, ab.left, ab.chance), (Square::new(5, 2), 38, 60));
    let o = &p.odds.targets[0][0];
    // Kunai Throw deals STR 4 + WEP 4 = 8, all of it absorbed when the Scout is struck.
    assert!((o.expected_damage - o.hit_chance * 0.4 * 8.0).abs() < 1e-9);
    let mut struck = false;
    for _ in 0..30 {
        // Others end their turns; the Blade Dancer throws while it has AP.
        while b.turn().active() != Some(CombatantId(0))
            || b.fighter(CombatantId(0)).expect("blade").actions.usable() == 0
        {
            let who = b.turn().active().expect("someone acts");
            b.submit(Command::EndTurn { who }).expect("end turn");
        }
        let scout_before = b.fighter(CombatantId(2)).expect("scout").life.current;
        let brawler_before = b.fighter(CombatantId(1)).expect("brawler").life.current;
        let lines = crate::common::run(&mut b, Command::Attack(order(0, "kunai_throw", at(1))));
        if let Some(l) = lines
            .iter()
            .find(|l| l.contains("standing in the way, who takes"))
        {
            struck = true;
            assert!(l.contains("who takes 8 ("), "{l}");
            let scout = b.fighter(CombatantId(2)).expect("scout").life.current;
            let brawler = b.fighter(CombatantId(1)).expect("brawler").life.current;
            assert_eq!(
                (scout, brawler),
                (scout_before - 8, brawler_before),
                "{lines:#?}"
            );
            break;
        }
    }
    assert!(struck, "no kunai struck the Scout in the way");
}

#[test]
fn shinobi_sneak_skills_depend_on_the_attack() {
    // "a Stealth, Sleight of Hand, or Bluff Skill roll depending on the attack against the
    // defender's Perception or Sense Motive Skill roll": a thrown kunai is palmed (Sleight of
    // Hand 4 against Perception 1), a melee blow feinted (Bluff 3 against Sense Motive 2), a
    // jutsu comes from hiding (the Fire Adept's Wind Palm: Stealth 1 against Perception 1).
    let chance = |a: i64, d: i64| -> f64 {
        let mut n = 0;
        for x in 1..=20 {
            for y in 1..=20 {
                if x + a > y + d {
                    n += 1;
                }
            }
        }
        f64::from(n) / 400.0
    };
    let won = |b: &mut Battle, attacker: u32, profile: &str| -> f64 {
        b.preview(&sneak(attacker, profile, 1))
            .expect("legal")
            .context
            .targets[0]
            .sneak
            .clone()
            .expect("a sneak attack")
            .0
    };
    let mut far = battle(
        vec![
            unit("scout", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("iron_guard", 1, (5, 2), DefensePolicy::AlwaysDodge),
            unit("fire_adept", 0, (2, 4), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    assert!((won(&mut far, 0, "kunai_throw") - chance(4, 1)).abs() < 1e-12);
    assert!((won(&mut far, 2, "wind_palm") - chance(1, 1)).abs() < 1e-12);
    let mut near = battle(
        vec![
            unit("scout", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("iron_guard", 1, (3, 2), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    assert!((won(&mut near, 0, "weapon_strike") - chance(3, 2)).abs() < 1e-12);
    // Rolled: the log names both skills.
    let lines = crate::common::run(&mut near, Command::Attack(sneak(0, "weapon_strike", 1)));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Bluff check") && l.contains("Sense Motive check")),
        "{lines:#?}"
    );
}

#[test]
fn shinobi_jutsu_on_an_ally_heals_its_modifying_damage() {
    // "If targeting an ally the user may apply this as modifying healing": the Fire Adept's
    // Wind Palm (5 chakra) on a hurt ally heals SPT 4 + NIN 4 = 8, not its base, with no
    // roll asked, no push and no damage; never above the ally's maximum.
    let mut b = battle(
        vec![
            unit("fire_adept", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("brawler", 0, (4, 2), DefensePolicy::Prompt),
            unit("blade", 1, (10, 5), DefensePolicy::AlwaysDodge),
        ],
        1,
    );
    crate::common::set_life(&mut b, 1, 30);
    let p = b
        .preview(&order(0, "wind_palm", at(1)))
        .expect("an ally may be healed");
    let o = &p.odds.targets[0][0];
    assert_eq!((o.hit_chance, o.expected_damage), (1.0, 0.0));
    assert_eq!(p.context.targets[0].automatic_hit, Some(shinobi::HEALING));
    assert!(p.context.targets[0].knockback.is_none());
    let lines = crate::common::run(&mut b, Command::Attack(order(0, "wind_palm", at(1))));
    let ally = b.fighter(CombatantId(1)).expect("brawler");
    assert_eq!(ally.life.current, 38, "{lines:#?}");
    assert_eq!(ally.position, Some(Square::new(4, 2)), "not pushed");
    assert!(b.awaiting().is_none(), "the ally is asked nothing");
    let caster = b.fighter(CombatantId(0)).expect("fire adept");
    assert_eq!(caster.ki.current, caster.ki.max - 5);
    // Topped up to the maximum, no further.
    crate::common::set_life(&mut b, 1, 47);
    crate::common::run(&mut b, Command::Attack(order(0, "wind_palm", at(1))));
    assert_eq!(b.fighter(CombatantId(1)).expect("brawler").life.current, 50);
    // Not oneself, and not with a standard attack (no chakra: not a jutsu).
    assert!(matches!(
        b.check(&Command::Attack(order(0, "wind_palm", at(0)))),
        Err(RuleError::SelfTarget(_))
    ));
    assert!(matches!(
        b.check(&Command::Attack(order(0, "kunai_throw", at(1)))),
        Err(RuleError::NotAnOpponent(_))
    ));
}

#[test]
fn shinobi_odds_of_a_jutsu_on_an_ally_say_what_it_heals() {
    // `gridclash odds` on an ally: the modifying healing, not a hit's damage.
    let data = tempfile::tempdir().expect("temp dir");
    let out = crate::common::gridclash_in(
        data.path(),
        &[
            "odds",
            "--scenario",
            "shinobi-squad",
            "--attacker",
            "Homura",
            "--target",
            "Rokuro",
            "--maneuver",
            "wind_palm",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("an ally: heals 0 HP (50 -> 50 of 50), its modifying healing; no roll"),
        "{text}"
    );
}

/// Puts terrain `id` on `s` of battle `b`'s map.
fn put(b: &mut Battle, s: (i32, i32), id: &str) {
    let t = rules().terrain_index(id).expect("a shipped terrain");
    b.world_mut()
        .resource_mut::<gridclash::battle::state::Battleground>()
        .0
        .set(Square::new(s.0, s.1), t);
}

#[test]
fn shinobi_full_cover_takes_every_hit_and_none_is_made_out_from_behind_it() {
    // "If taking full Cover one is unable to target their attacker from that position but
    // incoming attacks are guaranteed to hit the obstruction." A steel door beside the target
    // blocks sight, yet the kunai is thrown and the door takes it, no percentile rolled.
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (7, 2), DefensePolicy::AlwaysDodge),
        ],
        11,
    );
    put(&mut b, (6, 2), "steel_door");
    assert!(b.field().blocks_sight(Square::new(6, 2)));
    let p = b.preview(&order(0, "kunai_throw", at(1))).expect("legal");
    let a = p.context.targets[0].absorb.clone().expect("full cover");
    assert_eq!(
        (a.left, a.chance, a.full, a.at),
        (40, 100, true, Square::new(6, 2))
    );
    // The door absorbs up to 40: a kunai (STR + WEP) never gets through a fresh one.
    assert!(p.context.wound.flat_total() < 40);
    assert_eq!(p.odds.targets[0][0].expected_damage, 0.0);
    let before = b.fighter(CombatantId(1)).expect("t").life.current;
    let n = b.events().len();
    b.submit(Command::Attack(order(0, "kunai_throw", at(1))))
        .expect("attack");
    let rolled: Vec<_> = b.events()[n..]
        .iter()
        .filter_map(|e| match e {
            BattleEvent::CoverRolled {
                full,
                roll,
                absorbed,
                ..
            } => Some((*full, *roll, *absorbed)),
            _ => None,
        })
        .collect();
    let absorbed: i64 = rolled.iter().map(|r| r.2).sum();
    assert!(rolled.iter().all(|r| r.0 && r.1 == 0), "{rolled:?}");
    assert_eq!(b.fighter(CombatantId(1)).expect("t").life.current, before);
    assert_eq!(
        b.map().wear.get(&Square::new(6, 2)).copied().unwrap_or(0),
        absorbed
    );

    // From behind the door (it stands beside the attacker now) no attack is made, and a
    // building wall, which never breaks, stops every attack.
    let mut b = battle(
        vec![
            unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (7, 2), DefensePolicy::AlwaysDodge),
        ],
        11,
    );
    put(&mut b, (3, 2), "steel_door");
    assert_eq!(
        b.preview(&order(0, "kunai_throw", at(1))).err(),
        Some(RuleError::FromFullCover(CombatantId(1)))
    );
    put(&mut b, (3, 2), "open");
    put(&mut b, (6, 2), "wall");
    assert_eq!(
        b.preview(&order(0, "kunai_throw", at(1))).err(),
        Some(RuleError::NoLineOfSight(CombatantId(1)))
    );
}

#[test]
fn shinobi_full_cover_does_not_take_a_genjutsu_which_needs_sight() {
    let mut b = battle(
        vec![
            unit("illusionist", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (7, 2), DefensePolicy::AlwaysDodge),
        ],
        5,
    );
    put(&mut b, (6, 2), "steel_door");
    assert_eq!(
        b.preview(&order(0, "dark_veil", at(1))).err(),
        Some(RuleError::NoLineOfSight(CombatantId(1)))
    );
}

#[test]
fn shinobi_broken_full_cover_leaves_rubble_that_blocks_nothing() {
    // "When enough damage has been dealt to the obstruction, it is broken and no longer
    // grants any bonus and any excess damage is dealt to the Character taking Cover."
    let door = Square::new(6, 2);
    let mut hit_once = false;
    for seed in 1..40 {
        let mut b = battle(
            vec![
                unit("blade", 0, (2, 2), DefensePolicy::AlwaysDodge),
                unit("blade", 1, (7, 2), DefensePolicy::AlwaysDodge),
            ],
            seed,
        );
        put(&mut b, (6, 2), "steel_door");
        b.world_mut()
            .resource_mut::<gridclash::battle::state::Battleground>()
            .0
            .wear
            .insert(door, 38);
        let p = b.preview(&order(0, "kunai_throw", at(1))).expect("legal");
        let wound = p.context.wound.flat_total();
        assert_eq!(
            p.context.targets[0].absorb.as_ref().map(|a| a.left),
            Some(2)
        );
        let note = b.square_note(door).expect("on the map");
        assert!(note.ends_with("Worn: 2 of 40 left."), "{note}");
        let before = b.fighter(CombatantId(1)).expect("t").life.current;
        let n = b.events().len();
        b.submit(Command::Attack(order(0, "kunai_throw", at(1))))
            .expect("attack");
        let broke = b.events()[n..].iter().any(|e| {
            matches!(e, BattleEvent::GroundChanged { at, from, to, .. }
                if *at == door && from == "Steel door" && to == "Rubble")
        });
        let after = b.fighter(CombatantId(1)).expect("t").life.current;
        if !broke {
            assert_eq!(after, before, "a miss leaves the door and the ninja");
            continue;
        }
        hit_once = true;
        assert_eq!(before - after, wound - 2, "the excess goes through");
        assert_eq!(
            b.field().terrain(door).map(|t| t.id.as_str()),
            Some("rubble")
        );
        assert!(!b.map().wear.contains_key(&door), "rubble keeps no wear");
        assert!(!b.field().blocks_sight(door));
        let note = b.square_note(door).expect("on the map");
        assert!(note.starts_with("Rubble at (6, 2)"), "{note}");
        break;
    }
    assert!(hit_once, "some seed of 1..40 hits with the kunai");
}

#[test]
fn shinobi_breaks_into_must_name_another_terrain_and_need_absorb() {
    let err = crate::common::load_error_of_edited("shinobi", |f, text| {
        match f {
        "terrain.ron" => text
            .replacen("breaks_into: \"rubble\"", "breaks_into: \"gravel\"", 1)
            .replacen(
                "blocks_sight: false,\n            description: \"Nothing in the way.\"",
                "blocks_sight: false,\n            breaks_into: \"rubble\",\n            description: \"Nothing in the way.\"",
                1,
            ),
        _ => text,
    }
    });
    for want in [
        "terrain.ron",
        "types[0].breaks_into: only cover that absorbs damage (`absorb`) breaks",
        "breaks_into: `gravel` is not another terrain here (known: open, rubble",
    ] {
        assert!(err.contains(want), "missing {want:?} in:\n{err}");
    }
}

#[test]
fn shinobi_no_dodge_while_swimming() {
    // "One cannot Dodge in mid air or while swimming": a ninja in the river answers with Block
    // or Deflect only, the engine refuses a Dodge, and its sheet says why; out of the water
    // Dodge is back.
    let mut b = battle(
        vec![
            unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (3, 2), DefensePolicy::AlwaysDodge),
        ],
        3,
    );
    let p = b.preview(&order(0, "taijutsu", at(1))).expect("legal");
    assert!(p.context.targets[0].offers(DefenseChoice::Dodge));
    put(&mut b, (3, 2), "river");
    let p = b.preview(&order(0, "taijutsu", at(1))).expect("legal");
    let answers: Vec<DefenseChoice> = p.context.targets[0]
        .defenses
        .iter()
        .map(|(c, _)| *c)
        .collect();
    assert_eq!(answers, vec![DefenseChoice::Block, DefenseChoice::Deflect]);
    assert_eq!(
        p.odds.targets[0].len(),
        2,
        "odds for Block and Deflect only"
    );
    let sheet = b.unit_sheet(CombatantId(1)).expect("a sheet");
    let lines: Vec<&String> = sheet.sections.iter().flat_map(|s| s.lines.iter()).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Swimming: cannot Dodge")),
        "{lines:?}"
    );
    assert_eq!(
        b.answers_note(CombatantId(1)).as_deref(),
        Some("Swimming in the river: no Dodge.")
    );
    assert_eq!(b.answers_note(CombatantId(0)), None);
    // The battle asks the blade for its answer and refuses a Dodge.
    let mut b = battle(
        vec![
            unit("brawler", 0, (2, 2), DefensePolicy::AlwaysDodge),
            unit("blade", 1, (3, 2), DefensePolicy::Prompt),
        ],
        3,
    );
    put(&mut b, (3, 2), "river");
    b.submit(Command::Attack(order(0, "taijutsu", at(1))))
        .expect("attack");
    let refused = b.submit(Command::Defend {
        defender: CombatantId(1),
        choice: DefenseChoice::Dodge,
        counter: None,
    });
    assert!(refused.is_err(), "{refused:?}");
    b.submit(Command::Defend {
        defender: CombatantId(1),
        choice: DefenseChoice::Block,
        counter: None,
    })
    .expect("Block is offered");
}
