//! The exact odds against the dice: for each of 26 attack configurations, 100,000 seeded
//! attacks resolved by the real pipeline must hit, deal damage, reach a threshold and defeat
//! as often as the exact computation says, within 3 standard errors. The 26 are the full-size
//! tier (`#[ignore]`d in the quick `cargo test`): CI runs them at full size in the optimised
//! headless build, `cargo test --profile fast --no-default-features -- --ignored`.

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackOrder, AttackTarget, Command};
use gridclash::battle::components::*;
use gridclash::battle::event::{BattleEvent, EventLog};
use gridclash::battle::fighter::{Fighter, FighterQuery};
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::DiceSource;
use gridclash::grid::Dir8;
use gridclash::ruleset::ConditionKind;

use crate::common::*;

const ATTACKS: u32 = 100_000;

/// One configuration: the battle, the attack, the target measured and how it defends.
struct Config {
    name: &'static str,
    map: &'static [&'static str],
    units: Vec<UnitSetup>,
    order: AttackOrder,
    measured: u32,
    parry: bool,
    /// Changes to the staged battle before measuring (conditions with a source, Life…).
    stage: fn(&mut Battle),
}

const OPEN: &[&str] = &[
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
];

fn single(attacker: u32, profile: &str, target: u32) -> AttackOrder {
    attack(
        attacker,
        profile,
        AttackTarget::Combatant(CombatantId(target)),
    )
}

fn with(mut u: UnitSetup, conditions: &[ConditionKind]) -> UnitSetup {
    u.conditions = conditions.to_vec();
    u
}

fn wager(mut o: AttackOrder, w: i64) -> AttackOrder {
    o.wager = w;
    o
}

fn nothing(_: &mut Battle) {}

/// Writes the staged snapshot back into the battle: every attack starts from the same state.
fn restore(b: &mut Battle, snapshot: &[Fighter]) {
    let world = b.world_mut();
    let mut q = world.query::<FighterQuery>();
    for mut f in q.iter_mut(world) {
        let Some(s) = snapshot.iter().find(|s| s.id == *f.id) else {
            continue;
        };
        *f.life = s.life;
        *f.ki = s.ki;
        *f.capacity = s.capacity;
        f.position.0 = s.position;
        *f.conditions = s.conditions.clone();
        *f.thresholds = s.thresholds.clone();
        *f.defense = s.defense.clone();
        *f.actions = s.actions.clone();
        *f.round = s.round.clone();
        *f.encounter = s.encounter.clone();
    }
    world.resource_mut::<EventLog>().events.clear();
}

fn measure(c: Config) {
    let mut units = c.units;
    for (i, u) in units.iter_mut().enumerate() {
        u.controller = Controller {
            defense: if c.parry && i as u32 == c.measured {
                DefensePolicy::AlwaysParry
            } else {
                DefensePolicy::AlwaysDodge
            },
            responses: ResponsePolicy::Never,
            exploits: ExploitPolicy::Never,
        };
    }
    let mut setup = BattleSetup::open(OPEN[0].len() as u32, OPEN.len() as u32, units);
    let r = rules();
    for (y, row) in c.map.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            setup.map.set(
                Square::new(x as i32, y as i32),
                r.terrain_by_symbol(ch).unwrap(),
            );
        }
    }
    let mut b = Battle::new(r, &setup, DiceSource::seeded(0x5eed ^ c.name.len() as u64)).unwrap();
    while b.active() != Some(c.order.attacker) {
        let who = b.active().unwrap();
        b.submit(Command::EndTurn { who }).unwrap();
    }
    (c.stage)(&mut b);
    let snapshot = b.fighters();
    let target = snapshot
        .iter()
        .find(|f| f.id.0 == c.measured)
        .unwrap()
        .clone();
    let preview = b
        .preview(&c.order)
        .unwrap_or_else(|e| panic!("{}: {e}", c.name));
    let answers = preview
        .odds
        .targets
        .iter()
        .find(|v| v[0].target.0 == c.measured)
        .unwrap_or_else(|| panic!("{}: the measured unit is not a target", c.name));
    let odds = if c.parry { &answers[1] } else { &answers[0] };
    let mass: f64 = odds.damage_distribution.values().sum();
    assert!(
        (mass - 1.0).abs() < 1e-9,
        "{}: distribution sums to {mass}",
        c.name
    );
    let mean = odds.expected_damage;
    let var: f64 = odds
        .damage_distribution
        .iter()
        .map(|(d, p)| p * (*d as f64 - mean).powi(2))
        .sum();
    let first_open = odds.threshold_chances.iter().find(|t| !t.already).cloned();
    let line = first_open.as_ref().map(|t| {
        let th = rules()
            .damage
            .thresholds
            .iter()
            .find(|x| x.id == t.threshold)
            .unwrap()
            .fraction
            .of(target.life.max);
        target.life.current - th
    });
    let (mut hits, mut damage, mut reached, mut defeats) = (0u32, 0f64, 0u32, 0u32);
    for _ in 0..ATTACKS {
        restore(&mut b, &snapshot);
        b.submit(Command::Attack(c.order.clone()))
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let mut dealt = 0i64;
        for e in b.events() {
            match e {
                BattleEvent::Clash {
                    defender,
                    hit: true,
                    ..
                } if defender.0 == c.measured => hits += 1,
                BattleEvent::Damage {
                    target, damage: d, ..
                } if target.0 == c.measured => dealt += d,
                _ => {}
            }
        }
        damage += dealt as f64;
        if line.is_some_and(|l| dealt >= l) {
            reached += 1;
        }
        if dealt >= target.life.current {
            defeats += 1;
        }
    }
    let n = f64::from(ATTACKS);
    let check = |what: &str, observed: f64, exact: f64, sd: f64| {
        let se = sd / n.sqrt();
        assert!(
            (observed - exact).abs() <= 3.0 * se + 1e-9,
            "{}: {what} observed {observed:.5}, exact {exact:.5}, 3 SE {:.5}",
            c.name,
            3.0 * se
        );
    };
    let p = odds.hit_chance;
    check("hit rate", f64::from(hits) / n, p, (p * (1.0 - p)).sqrt());
    check("mean damage", damage / n, mean, var.sqrt());
    let pd = odds.defeat_chance;
    check(
        "defeat rate",
        f64::from(defeats) / n,
        pd,
        (pd * (1.0 - pd)).sqrt(),
    );
    if let Some(t) = first_open {
        let pt = t.chance;
        check(
            &format!("{} rate", t.threshold),
            f64::from(reached) / n,
            pt,
            (pt * (1.0 - pt)).sqrt(),
        );
    }
}

macro_rules! config_test {
    ($name:ident, $cfg:expr) => {
        #[test]
        #[ignore = "full-size tier: cargo test --profile fast --no-default-features -- --ignored"]
        fn $name() {
            measure($cfg);
        }
    };
}

config_test!(
    odds_simple_strike_against_dodge,
    Config {
        name: "simple vs dodge",
        map: OPEN,
        units: vec![unit("brawler", 0, 5, 5), unit("ki_blaster", 1, 6, 5)],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_simple_strike_against_parry,
    Config {
        name: "simple vs parry",
        map: OPEN,
        units: vec![unit("brawler", 0, 5, 5), unit("ki_blaster", 1, 6, 5)],
        order: single(0, "simple", 1),
        measured: 1,
        parry: true,
        stage: nothing,
    }
);

config_test!(
    odds_kiai_crits_on_nine,
    Config {
        name: "kiai",
        map: OPEN,
        units: vec![unit("ki_blaster", 0, 5, 5), unit("brawler", 1, 6, 5)],
        order: single(0, "kiai", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_cutting_botches_and_turns_lethal_on_a_crit,
    Config {
        name: "cutting",
        map: OPEN,
        units: vec![unit("ki_blaster", 0, 5, 5), unit("tank", 1, 6, 5)],
        order: single(0, "cutting", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_superiority_adds_a_die,
    Config {
        name: "superiority",
        map: OPEN,
        units: vec![
            with(unit("brawler", 0, 5, 5), &[ConditionKind::Superiority]),
            unit("ki_blaster", 1, 6, 5)
        ],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_guard_down_penalizes_the_dodge,
    Config {
        name: "guard down",
        map: OPEN,
        units: vec![
            unit("brawler", 0, 5, 5),
            with(unit("ki_blaster", 1, 6, 5), &[ConditionKind::GuardDown])
        ],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_impediment_takes_five,
    Config {
        name: "impediment",
        map: OPEN,
        units: vec![
            with(unit("brawler", 0, 5, 5), &[ConditionKind::Impediment]),
            unit("ki_blaster", 1, 6, 5)
        ],
        order: single(0, "powered", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_impediment_drops_the_superiority_die,
    Config {
        name: "impediment and superiority",
        map: OPEN,
        units: vec![
            with(
                unit("brawler", 0, 5, 5),
                &[ConditionKind::Impediment, ConditionKind::Superiority]
            ),
            unit("ki_blaster", 1, 6, 5)
        ],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_combination_counts_hits,
    Config {
        name: "combination",
        map: OPEN,
        units: vec![unit("brawler", 0, 5, 5), unit("ki_blaster", 1, 6, 5)],
        order: single(0, "combination", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_rapid_fire_with_a_wager,
    Config {
        name: "rapid fire + wager",
        map: OPEN,
        units: vec![unit("ki_blaster", 0, 5, 5), unit("brawler", 1, 6, 5)],
        order: wager(single(0, "rapid_fire", 1), 10),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_crushing_is_lethal,
    Config {
        name: "crushing",
        map: OPEN,
        units: vec![unit("brawler", 0, 5, 5), unit("tank", 1, 6, 5)],
        order: single(0, "crushing", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_beam_direct_with_a_charge_against_parry,
    Config {
        name: "beam vs parry",
        map: OPEN,
        units: vec![unit("ki_blaster", 0, 5, 5), unit("brawler", 1, 6, 5)],
        order: single(0, "beam", 1),
        measured: 1,
        parry: true,
        stage: nothing,
    }
);

config_test!(
    odds_soaring_direct_at_range,
    Config {
        name: "soaring",
        map: OPEN,
        units: vec![unit("brawler", 0, 2, 5), unit("ki_blaster", 1, 8, 5)],
        order: single(0, "soaring", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_powered_with_a_big_wager_on_a_tank,
    Config {
        name: "powered + wager",
        map: OPEN,
        units: vec![unit("brawler", 0, 5, 5), unit("tank", 1, 6, 5)],
        order: wager(single(0, "powered", 1), 20),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_blast_single_target,
    Config {
        name: "blast single",
        map: OPEN,
        units: vec![unit("ki_blaster", 0, 5, 5), unit("brawler", 1, 7, 5)],
        order: attack(0, "blast", AttackTarget::Direction(Dir8::E)),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_explosion_two_targets,
    Config {
        name: "explosion",
        map: OPEN,
        units: vec![
            unit("ki_blaster", 0, 3, 5),
            unit("brawler", 1, 8, 5),
            unit("gunner", 1, 9, 6)
        ],
        order: attack(0, "explosion", AttackTarget::Square(Square::new(8, 5))),
        measured: 2,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_sweeping_two_targets,
    Config {
        name: "sweeping",
        map: OPEN,
        units: vec![
            unit("brawler", 0, 5, 5),
            unit("ki_blaster", 1, 6, 5),
            unit("grunt", 1, 5, 6)
        ],
        order: attack(0, "sweeping", AttackTarget::InReach),
        measured: 2,
        parry: false,
        stage: nothing,
    }
);

fn bloodied_attacker_and_stacked_defense(b: &mut Battle) {
    set_life(b, 0, 80);
    stage(b, 0, |f| {
        f.thresholds.failed.insert(0);
    });
    stage(b, 1, |f| f.defense.diminishing = 2);
}

config_test!(
    odds_threshold_penalty_and_diminishing_defense,
    Config {
        name: "thresholds and diminishing defense",
        map: OPEN,
        units: vec![unit("brawler", 0, 5, 5), unit("ki_blaster", 1, 6, 5)],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: bloodied_attacker_and_stacked_defense,
    }
);

config_test!(
    odds_long_range_sphere,
    Config {
        name: "long range",
        map: OPEN,
        units: vec![unit("ki_blaster", 0, 1, 1), unit("brawler", 1, 15, 6)],
        order: single(0, "sphere", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_prone_target_takes_lethal_damage,
    Config {
        name: "prone",
        map: OPEN,
        units: vec![
            unit("brawler", 0, 5, 5),
            with(unit("tank", 1, 6, 5), &[ConditionKind::Prone])
        ],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_pinned_target_takes_direct_damage,
    Config {
        name: "pinned",
        map: OPEN,
        units: vec![
            unit("brawler", 0, 5, 5),
            with(unit("tank", 1, 6, 5), &[ConditionKind::Pinned])
        ],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

fn weak_grunt(b: &mut Battle) {
    set_life(b, 1, 20);
}

config_test!(
    odds_tier_three_against_a_minion_with_defeat,
    Config {
        name: "champion vs grunt",
        map: OPEN,
        // A second Grunt far away keeps the battle going when the first one falls.
        units: vec![
            unit("champion", 0, 5, 5),
            unit("grunt", 1, 6, 5),
            unit("grunt", 1, 18, 7)
        ],
        order: single(0, "powered", 1),
        measured: 1,
        parry: false,
        stage: weak_grunt,
    }
);

config_test!(
    odds_rage_hits_automatically,
    Config {
        name: "rage",
        map: OPEN,
        units: vec![
            with(unit("brawler", 0, 5, 5), &[ConditionKind::Rage]),
            unit("ki_blaster", 1, 6, 5)
        ],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_cover_and_bog,
    Config {
        name: "cover and bog",
        map: &[
            "....................",
            "....................",
            "....................",
            "....................",
            "....................",
            ".~..c...............",
            "....................",
            "....................",
        ],
        units: vec![unit("gunner", 0, 1, 5), unit("brawler", 1, 5, 5)],
        order: single(0, "shot", 1),
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

config_test!(
    odds_elemental_direct_against_a_blinded_target,
    Config {
        name: "elemental vs blinded",
        map: OPEN,
        units: vec![
            unit("mage", 0, 5, 5),
            with(unit("brawler", 1, 7, 5), &[ConditionKind::Blinded])
        ],
        order: AttackOrder {
            element: Some("fire".into()),
            ..single(0, "elemental", 1)
        },
        measured: 1,
        parry: false,
        stage: nothing,
    }
);

fn shaken_by_target(b: &mut Battle) {
    give(b, 0, ConditionKind::Shaken, Some(1));
}

config_test!(
    odds_shaken_attacker_against_its_source,
    Config {
        name: "shaken",
        map: OPEN,
        units: vec![unit("brawler", 0, 5, 5), unit("ki_blaster", 1, 6, 5)],
        order: single(0, "simple", 1),
        measured: 1,
        parry: false,
        stage: shaken_by_target,
    }
);

#[test]
fn odds_command_lists_every_term_as_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gridclash"))
        .args([
            "odds",
            "--scenario",
            "duel",
            "--attacker",
            "Kaito",
            "--target",
            "1",
            "--maneuver",
            "soaring",
            "--wager",
            "4",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let dist = v["damage_distribution"].as_object().unwrap();
    let total: f64 = dist.values().map(|p| p.as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9);
    let mean: f64 = dist
        .iter()
        .map(|(d, p)| d.parse::<f64>().unwrap() * p.as_f64().unwrap())
        .sum();
    assert!((mean - v["expected_damage"].as_f64().unwrap()).abs() < 1e-9);
    assert_eq!(v["ki_cost"], 12);
    assert_eq!(v["wager"], 4);
    assert!(v["hit_chance"].as_f64().unwrap() > 0.0);
    assert_eq!(v["defeat_chance"].as_f64(), Some(0.0));
    assert_eq!(v["threshold_chances"].as_array().unwrap().len(), 3);
    let has = |roll: &str, key: &str, want: serde_json::Value| {
        v[roll]["terms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t.get(key) == Some(&want))
    };
    assert!(has("strike", "die", "1d10".into()));
    assert!(has("strike", "die", "1d4".into()));
    assert!(has("strike", "label", "Haste (AG 6 / 2)".into()));
    assert!(has("dodge", "label", "Defense Value".into()));
    assert!(has("wound", "label", "Ki Wager".into()));
    assert!(has("wound", "value", 8.into()));
    assert_eq!(v["strike"]["critical_target"], 10);
    assert_eq!(v["strike"]["botch_range"], 1);
    assert_eq!(v["category"], "Direct");
    // The same figure the battle's own preview gives.
    let duel = gridclash::scenario::load(&gridclash::scenario::find("duel")).unwrap();
    let mut b = Battle::new(
        duel.rules.clone(),
        &duel.setup(Controller::default()),
        DiceSource::seeded(1),
    )
    .unwrap();
    let p = b.preview(&wager(single(0, "soaring", 1), 4)).unwrap();
    assert_eq!(
        v["hit_chance"].as_f64(),
        Some(p.odds.targets[0][0].hit_chance)
    );
}

/// The card game's answers are taking the card or blocking it: `gridclash odds` reads
/// `take`/`dodge` and `block`/`parry`, and refuses any other answer (a Deflect is the ninja
/// chapter's) with the words each ruleset accepts instead of reading it as taking the card.
#[test]
fn stages_odds_command_refuses_an_answer_the_card_game_does_not_have() {
    let odds = |defense: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gridclash"))
            .args([
                "odds",
                "--scenario",
                "stages-duel",
                "--attacker",
                "Kenji",
                "--target",
                "Hana",
                "--maneuver",
                "punch",
                "--at",
                "9,3",
                "--defense",
                defense,
            ])
            .output()
            .expect("runs")
    };
    for word in ["take", "block"] {
        let out = odds(word);
        assert!(
            out.status.success(),
            "{word}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("  Take it: ") && text.contains("  Block: "),
            "{text}"
        );
    }
    let out = odds("deflect");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("take or block (power stages)") && err.contains("not `deflect`"),
        "{err}"
    );
}
