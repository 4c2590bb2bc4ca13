//! How a Digimon battle opens (003 §Initiative): cautious Tamers add their Intelligence to
//! their Digimon's initiative, and a side that sneaked up gets +5 and a free Surprise Round.
//! The scenario's author stands for the GM who decides both (`surprise`, `cautious` on a side).

use gridclash::ai::Policy;
use gridclash::battle::Battle;
use gridclash::battle::components::{CombatantId, Controller};
use gridclash::battle::event::BattleEvent;
use gridclash::dice::DiceSource;
use gridclash::scenario::{self, Loaded};
use gridclash::sim::AiMatch;

/// The shipped Surprise Raid: the Chosen (side 0) planned it and sneaked up.
fn raid() -> Loaded {
    scenario::load(&scenario::find("digimon-raid")).expect("ships")
}

/// The ambush as the scenario sets it, or with its opening rules taken out.
fn raid_battle(seed: u64, opening: bool) -> Battle {
    let l = raid();
    let mut setup = l.setup(Controller::default());
    if !opening {
        setup.opening = Default::default();
    }
    Battle::new(l.rules.clone(), &setup, DiceSource::seeded(seed)).expect("starts")
}

/// Each combatant's initiative terms (label, value) as rolled.
fn initiative_terms(b: &Battle) -> Vec<(CombatantId, Vec<(String, i64)>)> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            BattleEvent::InitiativeRolled { who, roll } => Some((
                *who,
                roll.modifiers
                    .iter()
                    .map(|m| (m.label.clone(), m.value))
                    .collect(),
            )),
            _ => None,
        })
        .collect()
}

fn id_of(b: &mut Battle, name: &str) -> CombatantId {
    b.fighters()
        .iter()
        .find(|f| f.identity.name == name)
        .map(|f| f.id)
        .expect("on the field")
}

#[test]
fn digimon_cautious_tamers_add_their_intelligence_and_a_surprise_adds_five_to_initiative() {
    // "their Digimon add their Tamer's Intelligence Stat to their Initiative Roll";
    // "Not only does it add +5 to their Initiative Roll".
    let mut b = raid_battle(1, true);
    let (greymon, devimon) = (id_of(&mut b, "Greymon"), id_of(&mut b, "Devimon"));
    let terms = initiative_terms(&b);
    let of = |who: CombatantId| {
        terms
            .iter()
            .find(|(w, _)| *w == who)
            .map(|(_, t)| t.clone())
            .expect("rolled")
    };
    let g = of(greymon);
    assert!(g.contains(&("Surprise Round".to_string(), 5)), "{g:?}");
    assert!(
        g.contains(&("Tai's Intelligence (a cautious Tamer)".to_string(), 3)),
        "Tai's INT 3: {g:?}"
    );
    let garurumon = id_of(&mut b, "Garurumon");
    assert!(
        of(garurumon).contains(&("Matt's Intelligence (a cautious Tamer)".to_string(), 3)),
        "each Digimon its own Tamer's"
    );
    let d = of(devimon);
    assert!(
        d.iter()
            .all(|(l, _)| l != "Surprise Round" && !l.contains("cautious")),
        "the wild side neither sneaked up nor planned: {d:?}"
    );
    // The same battle without them: the same dice, 8 less for Greymon.
    let plain = raid_battle(1, false);
    let total = |b: &Battle, who: CombatantId| {
        b.events().iter().find_map(|e| match e {
            BattleEvent::InitiativeRolled { who: w, roll } if *w == who => Some(roll.total),
            _ => None,
        })
    };
    assert_eq!(
        total(&b, greymon)
            .zip(total(&plain, greymon))
            .map(|(a, p)| a - p),
        Some(8)
    );
}

#[test]
fn digimon_surprise_round_is_a_free_round_for_the_side_that_sneaked_up() {
    // "it gives them a free round where the opposing party cannot attack them back".
    let l = raid();
    let mut game = AiMatch::new(&l, 3, &[Policy::Normal, Policy::Normal], 30).expect("plays");
    // The wild side as the battle starts (a Charm may move someone to it later).
    let wild: Vec<CombatantId> = game
        .battle
        .fighters()
        .iter()
        .filter(|f| f.side.0 == 1)
        .map(|f| f.id)
        .collect();
    while game.battle.turn().round < 3 && !game.finished() {
        game.step().expect("the computer plays");
    }
    let mut round = 0;
    let (mut skipped, mut acted_in_1, mut acted_in_2) = (0, 0, 0);
    for e in game.battle.events() {
        match e {
            BattleEvent::RoundStarted { round: r } => round = *r,
            BattleEvent::TurnSkipped { who, reason } if wild.contains(who) && round == 1 => {
                assert!(reason.contains("Surprise Round"), "{reason}");
                skipped += 1;
            }
            BattleEvent::TurnStarted { who, .. } if wild.contains(who) => match round {
                1 => acted_in_1 += 1,
                2 => acted_in_2 += 1,
                _ => {}
            },
            _ => {}
        }
    }
    assert_eq!(
        (skipped, acted_in_1),
        (7, 0),
        "the seven wild Digimon wait out round 1"
    );
    assert!(acted_in_2 > 0, "and act from round 2 on");
}

#[test]
fn digimon_surprise_round_comes_before_the_round_limit_counts() {
    // A free round: with a limit of 1 round the battle lasts the Surprise Round and round 2.
    let mut l = raid();
    if let Some(limit) = l.scenario.victory.round_limit.as_mut() {
        limit.rounds = 1;
    }
    let mut game = AiMatch::new(&l, 5, &[Policy::Easy, Policy::Easy], 1).expect("plays");
    while !game.finished() {
        game.step().expect("the computer plays");
    }
    let last = game
        .battle
        .events()
        .iter()
        .filter_map(|e| match e {
            BattleEvent::RoundStarted { round } => Some(*round),
            _ => None,
        })
        .max();
    assert_eq!(last, Some(2));
}

/// Every problem loading shipped scenario `name` reports once its first `from` is `to`
/// (written to `dir`), one per line.
fn problems_with(dir: &std::path::Path, name: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(scenario::find(name)).expect("ships");
    let path = dir.join(format!("{name}.ron"));
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    scenario::load(&path)
        .expect_err("refused")
        .0
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn surprise_and_cautious_are_refused_outside_digimon_and_on_two_sides() {
    let dir = std::env::temp_dir().join(format!("gc-opening-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let all = problems_with(
        &dir,
        "duel",
        "controller: Human)",
        "controller: Human, surprise: true, cautious: true)",
    );
    assert!(all.contains("duel.ron:"), "{all}");
    assert!(all.contains("sides[0].surprise"), "{all}");
    assert!(
        all.contains("a Surprise Round is a Digimon rule (003:49)"),
        "{all}"
    );
    assert!(all.contains("sides[0].cautious"), "{all}");
    let all = problems_with(
        &dir,
        "digimon-raid",
        "controller: Computer)",
        "controller: Computer, surprise: true)",
    );
    assert!(all.contains("only one side can sneak up"), "{all}");
    std::fs::remove_dir_all(&dir).ok();
}
