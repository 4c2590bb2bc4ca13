//! d20 aimed shots: armour treated as cover ("Can armor be treated as Cover?") and cover
//! treated as concealment ("Can I treat Cover as Concealment?"), their refusals, their exact
//! preview, and the computer player choosing one where it pays.

use std::sync::Arc;

use gridclash::ai::{Agent, Policy};
use gridclash::battle::Battle;
use gridclash::battle::command::{AimedShot, AttackOrder, AttackTarget, Command, RuleError};
use gridclash::battle::components::*;
use gridclash::battle::event::BattleEvent;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::DiceSource;
use gridclash::ruleset::Rules;

use crate::common::{assert_contains, attack, ruleset, run};

const GAPS: AimedShot = AimedShot {
    armour_gaps: true,
    through_cover: false,
};
const THROUGH: AimedShot = AimedShot {
    armour_gaps: false,
    through_cover: true,
};

fn rules() -> Arc<Rules> {
    ruleset("d20").clone()
}

/// A unit that always dodges and never strikes back out of turn (`common::unit`).
fn unit(archetype: &str, side: u8, at: (i32, i32)) -> UnitSetup {
    crate::common::unit(archetype, side, at.0, at.1)
}

/// A shooter (id 0) and its target (id 1) on a 30 x 4 field, with `terrain` symbols set on
/// the given squares; the shooter acts first (initiative faces 15 and 1), then `faces`.
fn field(
    r: &Arc<Rules>,
    (shooter, target): (&str, &str),
    at: (i32, i32),
    terrain: &[((i32, i32), char)],
    faces: &[u32],
) -> Battle {
    let mut setup = BattleSetup::open(30, 4, vec![unit(shooter, 0, (1, 1)), unit(target, 1, at)]);
    for ((x, y), sym) in terrain {
        setup.map.set(
            Square::new(*x, *y),
            r.terrain_by_symbol(*sym).expect("terrain"),
        );
    }
    let mut all = vec![15, 1];
    all.extend_from_slice(faces);
    Battle::new(r.clone(), &setup, DiceSource::scripted(all)).expect("starts")
}

fn aimed(profile: &str, aim: AimedShot) -> AttackOrder {
    AttackOrder {
        aimed: aim,
        ..attack(0, profile, AttackTarget::Combatant(CombatantId(1)))
    }
}

fn worn(b: &Battle) -> bool {
    b.events()
        .iter()
        .any(|e| matches!(e, BattleEvent::ArmourWorn { .. }))
}

#[test]
fn d20_aimed_shot_treats_armour_as_cover_and_ignores_its_dr() {
    // "an attack may attempt to bypass the DR of a targets armor by treating it as cover …
    // All armor provides at least Standard cover": Arne's studded leather counts as cover +4
    // on the DC, and a hit goes past its Blade DR 2 without wearing it.
    let r = rules();
    let mut plain = field(&r, ("marksman", "adam"), (16, 1), &[], &[15, 3, 3]);
    let l = run(
        &mut plain,
        Command::Attack(aimed("crossbow_bolt", AimedShot::default())),
    );
    assert!(
        l.iter()
            .any(|x| x.contains("Studded leather stops 2 Blade")),
        "{l:#?}"
    );
    assert!(worn(&plain), "an ordinary hit past the DR wears it");
    let mut b = field(&r, ("marksman", "adam"), (16, 1), &[], &[15, 3, 3]);
    let p = b.preview(&aimed("crossbow_bolt", GAPS)).expect("in range");
    let dc = p.context.targets[0].difficulty.clone().expect("a DC");
    assert_eq!(dc.flat_total(), 15 + 4, "{:?}", dc.modifiers);
    assert!(
        dc.modifiers
            .iter()
            .any(|m| m.label == "aimed at the gaps: Studded leather as cover +4")
    );
    let l = run(&mut b, Command::Attack(aimed("crossbow_bolt", GAPS)));
    let line = l
        .iter()
        .find(|x| x.starts_with("Adam takes") && x.contains(" damage"))
        .expect("a damage line");
    assert!(
        line.contains("aimed at the gaps: Studded leather stops nothing"),
        "{line}"
    );
    assert!(!line.contains("Studded leather stops 2"), "{line}");
    assert!(!worn(&b), "armour aimed around does not wear");
    // The whole Wound gets through: 8 rolled (3d6+2 faces 3 and 3 at 28 Effect Points, the
    // Success Value 11 four lower than the plain shot's 15), 8 taken.
    assert_contains(
        &l,
        &["Crossbow Marksman: Wound 8 = d6:3 [28 EP] + d6:3 [28 EP] + 28 EP 2"],
    );
    assert!(line.starts_with("Adam takes 8 damage"), "{line}");
    assert_eq!(
        b.fighter(CombatantId(1)).expect("Adam").life.current,
        23 - 8
    );
}

#[test]
fn d20_cover_treated_as_concealment_halves_its_bonus_and_a_hit_must_get_through_its_dr() {
    // "You can treat cover as concealment effectively halving the bonus it provides, but if
    // you hit you must now penetrate the DR of the cover": the crates' +4 becomes +2, and a
    // hit first loses their DR 3, then meets the armour.
    let r = rules();
    let crates = [((7, 1), 'c')];
    let mut b = field(&r, ("marksman", "adam"), (8, 1), &crates, &[15, 3, 3]);
    let p = b
        .preview(&aimed("crossbow_bolt", THROUGH))
        .expect("in range");
    let dc = p.context.targets[0].difficulty.clone().expect("a DC");
    assert_eq!(dc.flat_total(), 15 + 2, "{:?}", dc.modifiers);
    assert!(
        dc.modifiers
            .iter()
            .any(|m| m.label == "cover shot through as concealment: Crates +2 (half of +4)"),
        "{:?}",
        dc.modifiers
    );
    let l = run(&mut b, Command::Attack(aimed("crossbow_bolt", THROUGH)));
    let line = l
        .iter()
        .find(|x| x.starts_with("Adam takes") && x.contains(" damage"))
        .expect("a damage line");
    assert!(
        line.contains("shot through the cover: Crates DR 3 stops 3"),
        "{line}"
    );
    assert!(line.contains("Studded leather stops 2 Blade"), "{line}");
    // Both at once: the armour's +4 and the halved crates' +2, the highest counts; the
    // crates' DR still stops 3, the armour nothing.
    let both = AimedShot {
        armour_gaps: true,
        through_cover: true,
    };
    let mut b = field(&r, ("marksman", "adam"), (8, 1), &crates, &[]);
    let p = b.preview(&aimed("crossbow_bolt", both)).expect("in range");
    let t = &p.context.targets[0];
    assert_eq!(t.difficulty.as_ref().map(|d| d.flat_total()), Some(19));
    assert_eq!(t.damage_less.as_ref().map(|x| x.0), Some(3));
    assert_eq!(t.armour_ignored.as_deref(), Some("Studded leather"));
}

#[test]
fn d20_aimed_shot_refusals_name_the_rule() {
    let r = rules();
    // "This only can be used with aimed shots. Explosives … cannot ignore armor this way": not
    // a full round of arrows, not a grenade.
    let mut b = field(&r, ("adam", "adam"), (8, 1), &[((7, 1), 'c')], &[]);
    let e = b
        .submit(Command::Attack(aimed("bow_rapid", GAPS)))
        .expect_err("refused");
    assert!(
        matches!(e, RuleError::AimedShotNeedsSingleAttack { .. }),
        "{e}"
    );
    assert!(
        e.to_string().contains("Explosives and Suppressive Fire"),
        "{e}"
    );
    let mut m = field(&r, ("marksman", "adam"), (8, 1), &[], &[]);
    let grenade = AttackOrder {
        aimed: GAPS,
        ..attack(0, "frag_throw", AttackTarget::Square(Square::new(8, 1)))
    };
    let e = m.submit(Command::Attack(grenade)).expect_err("refused");
    assert!(
        matches!(e, RuleError::AimedShotNeedsSingleAttack { .. }),
        "{e}"
    );
    // Nothing to shoot through on open ground.
    let e = m
        .submit(Command::Attack(aimed("crossbow_bolt", THROUGH)))
        .expect_err("refused");
    assert!(matches!(e, RuleError::NoCoverToShootThrough { .. }), "{e}");
    assert!(e.to_string().contains("nothing to shoot through"), "{e}");
    // Armour without an `as_cover` has no gaps to aim at.
    let mut plain = (*rules()).clone();
    let gridclash::ruleset::FamilyData::D20(d) = &mut plain.family else {
        panic!("a d20 ruleset");
    };
    for a in d.combat.armours.iter_mut() {
        a.as_cover = None;
    }
    let mut b = field(&Arc::new(plain), ("marksman", "adam"), (8, 1), &[], &[]);
    let e = b
        .submit(Command::Attack(aimed("crossbow_bolt", GAPS)))
        .expect_err("refused");
    assert!(matches!(e, RuleError::NoArmourGaps { .. }), "{e}");
    // Outside d20 the order is refused with the rule, not played.
    let mut dbu = crate::common::dbu_pair();
    let e = dbu
        .submit(Command::Attack(AttackOrder {
            aimed: GAPS,
            ..attack(0, "simple", AttackTarget::Combatant(CombatantId(1)))
        }))
        .expect_err("refused");
    assert!(matches!(e, RuleError::NotInRuleset { .. }), "{e}");
}

#[test]
fn d20_aimed_shot_preview_is_exactly_what_happens() {
    // 400 seeded bolts at the gaps of Arne's armour through the crates: the hit rate and the
    // mean damage agree with the exact odds the panel shows.
    let r = rules();
    let both = AimedShot {
        armour_gaps: true,
        through_cover: true,
    };
    let (n, mut hits, mut damage) = (400u32, 0.0, Vec::new());
    let mut expected = None;
    for seed in 0..n {
        let mut setup = BattleSetup::open(
            30,
            4,
            vec![unit("marksman", 0, (1, 1)), unit("adam", 1, (8, 1))],
        );
        setup
            .map
            .set(Square::new(7, 1), r.terrain_by_symbol('c').expect("crates"));
        let mut b =
            Battle::new(r.clone(), &setup, DiceSource::seeded(u64::from(seed))).expect("starts");
        while let Some(who) = b.turn().active().filter(|w| *w != CombatantId(0)) {
            b.submit(Command::EndTurn { who }).expect("end turn");
        }
        let order = aimed("crossbow_bolt", both);
        let p = b.preview(&order).expect("previewed");
        let o = &p.odds.targets[0][0];
        expected.get_or_insert((o.hit_chance, o.expected_damage));
        let before = b.fighter(CombatantId(1)).expect("Arne").life.current;
        b.submit(Command::Attack(order)).expect("shot");
        let after = b.fighter(CombatantId(1)).expect("Arne").life.current;
        if b.events()
            .iter()
            .any(|e| matches!(e, BattleEvent::D20Check { hit: true, .. }))
        {
            hits += 1.0;
        }
        damage.push((before - after) as f64);
    }
    let (p, mean) = expected.expect("previewed");
    let f = f64::from(n);
    assert!((hits / f - p).abs() < 0.06, "{} vs {p}", hits / f);
    let got = damage.iter().sum::<f64>() / f;
    let sd = (damage.iter().map(|d| (d - got).powi(2)).sum::<f64>() / f).sqrt();
    assert!(
        (got - mean).abs() < 4.0 * sd / f.sqrt(),
        "mean damage {got} vs {mean} (sd {sd})"
    );
}

#[test]
fn d20_computer_aims_at_the_armours_gaps_when_it_pays() {
    // Adam behind crates across deep water: the crates' +4 already counts, so his studded
    // leather's +4 as cover costs nothing to hit, and the bolt gets past its DR. `normal`
    // aims at the gaps.
    let rows = [
        "....wwww..........",
        "....wwww.......c..",
        "....wwww..........",
    ];
    let mut b = crate::common::battle_on_with(
        rules(),
        &rows,
        vec![unit("marksman", 0, (1, 1)), unit("adam", 1, (16, 1))],
        &[15, 1],
    );
    let cmd = Agent::new(Policy::Normal, 3).command(&mut b, CombatantId(0));
    let Command::Attack(o) = cmd else {
        panic!("an attack: {cmd:?}");
    };
    assert_eq!(o.profile, "crossbow_bolt");
    assert!(o.aimed.armour_gaps, "{o:?}");
    assert!(!o.aimed.through_cover, "{o:?}");
}

#[test]
fn d20_broken_aimed_shot_data_names_file_line_and_field() {
    // An armour's cover bonus out of range, a cover DR on terrain that is not cover, and a
    // cover DR in another family's terrain are each refused with where they are.
    let err = crate::common::load_error_of_edited("d20", |f, text| match f {
        "d20.ron" => text.replace("as_cover: 16)", "as_cover: 0)"),
        "terrain.ron" => text.replace(
            "concealment_bonus: 2,",
            "concealment_bonus: 2,\n            cover_dr: 4,",
        ),
        _ => text,
    });
    for want in [
        "armours[1].as_cover: a cover bonus is 1 to 100",
        "types[7].cover_dr: a `cover_dr` belongs to cover: give it a `cover_bonus`",
    ] {
        assert!(err.contains(want), "{want}\n{err}");
    }
    let err = crate::common::load_error_of_edited("shinobi", |f, text| match f {
        "terrain.ron" => text.replacen("description:", "cover_dr: 4,\n            description:", 1),
        _ => text,
    });
    assert!(
        err.contains("`cover_dr` is a d20 rule; this ruleset's family does not use it"),
        "{err}"
    );
}
