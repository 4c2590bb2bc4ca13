//! Property tests for the rule invariants (the reliability harness): pure rule math (dice,
//! odds, areas, reach, cover) over generated inputs, and whole battles of every shipped
//! scenario played by generated seeds and computer players with every invariant of
//! `gridclash::harness` checked after every command. A failing case proptest shrinks is kept in
//! `proptest-regressions/` and replayed first on every later run.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, OnceLock};

use gridclash::ai::Policy;
use gridclash::battle::command::{AttackOrder, AttackTarget, Command};
use gridclash::battle::components::CombatantId;
use gridclash::battle::components::Side;
use gridclash::battle::event::BattleEvent;
use gridclash::battle::event::EndReason;
use gridclash::battle::state::LimitOutcome;
use gridclash::dice::{
    BaseDie, DiceGroup, DiceSource, DiceTerm, RollKind, RollSpec, distribution, roll,
};
use gridclash::grid::{Dir8, Field, Map, Square, chebyshev};
use gridclash::harness::{Invariant, Violation, Watch, check_odds};
use gridclash::ruleset::AreaShape;
use gridclash::save::{Restore, SaveFile, SaveKind};
use gridclash::scenario::RoundLimitDef;
use gridclash::scenario::{self, Loaded};
use gridclash::sim::AiMatch;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Every property runs from the same fixed seed, so CI sees the same cases each time (and the
/// battle properties share one memo of played battles).
fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x6752_6964),
        ..Config::default()
    }
}

fn shipped() -> &'static Vec<Loaded> {
    static ALL: OnceLock<Vec<Loaded>> = OnceLock::new();
    ALL.get_or_init(|| {
        scenario::shipped()
            .iter()
            .map(|p| scenario::load(p).expect("shipped scenario loads"))
            .collect()
    })
}

/// The shipped scenarios of one ruleset family (by ruleset id prefix), or all.
fn scenarios(prefix: &str) -> Vec<usize> {
    shipped()
        .iter()
        .enumerate()
        .filter(|(_, l)| l.rules.manifest.id.starts_with(prefix))
        .map(|(i, _)| i)
        .collect()
}

/// Computer players quick enough for a debug build; the planner levels play in the soak.
const PAIRS: [(Policy, Policy); 4] = [
    (Policy::Random, Policy::Random),
    (Policy::Greedy, Policy::Random),
    (Policy::Easy, Policy::Random),
    (Policy::Normal, Policy::Greedy),
];

/// One generated battle: which scenario, seed, players and how many commands to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Game {
    scenario: usize,
    seed: u64,
    pair: usize,
    commands: usize,
}

fn game(of: Vec<usize>) -> impl Strategy<Value = Game> {
    (
        prop::sample::select(of),
        any::<u64>(),
        0..PAIRS.len(),
        10usize..120,
    )
        .prop_map(|(scenario, seed, pair, commands)| Game {
            scenario,
            seed,
            pair,
            commands,
        })
}

/// What a played battle broke: every violation of every command, the odds of every attack.
fn violations(g: Game) -> Vec<Violation> {
    static MEMO: OnceLock<Mutex<BTreeMap<Game, Vec<Violation>>>> = OnceLock::new();
    let memo = MEMO.get_or_init(Default::default);
    if let Some(v) = memo.lock().expect("memo").get(&g) {
        return v.clone();
    }
    let loaded = &shipped()[g.scenario];
    let (a, b) = PAIRS[g.pair];
    let mut game = AiMatch::new(loaded, g.seed, &[a, b], 100).expect("battle sets up");
    let mut watch = Watch::new(&mut game.battle);
    let mut out = Vec::new();
    for _ in 0..g.commands {
        if game.finished() {
            break;
        }
        let (who, side) = game.actor().expect("someone acts");
        let cmd = game.agents[side].command(&mut game.battle, who);
        if let Command::Attack(order) = &cmd
            && let Ok(p) = game.battle.preview(order)
        {
            out.extend(check_odds(&p));
        }
        game.battle
            .submit(cmd)
            .expect("the computer's command is legal");
        out.extend(watch.check(&mut game.battle));
    }
    memo.lock().expect("memo").insert(g, out.clone());
    out
}

fn broken(g: Game, which: Invariant) -> Vec<String> {
    violations(g)
        .into_iter()
        .filter(|v| v.invariant == which)
        .map(|v| v.detail)
        .collect()
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn pools_stay_within_their_bounds(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::PoolBounds), Vec::<String>::new());
    }

    #[test]
    fn combatants_stay_on_enterable_squares_of_the_map(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::OnTheMap), Vec::<String>::new());
    }

    #[test]
    fn no_two_combatants_share_a_square(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::NoSharedSquares), Vec::<String>::new());
    }

    #[test]
    fn turn_order_lists_every_fighter_once(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::TurnOrder), Vec::<String>::new());
    }

    #[test]
    fn defeated_combatants_never_act(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::DefeatedNeverAct), Vec::<String>::new());
    }

    #[test]
    fn conditions_expire_when_they_say(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::ConditionsExpire), Vec::<String>::new());
    }

    #[test]
    fn damage_after_soak_is_never_negative(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::DamageNonNegative), Vec::<String>::new());
    }

    #[test]
    fn moves_step_square_by_square_onto_enterable_squares(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::MovesStepBySquare), Vec::<String>::new());
    }

    #[test]
    fn exact_odds_are_probability_distributions(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::OddsAreDistributions), Vec::<String>::new());
    }

    #[test]
    fn state_hash_is_a_function_of_the_state(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::HashStable), Vec::<String>::new());
    }

    #[test]
    fn event_log_only_grows(g in game(scenarios(""))) {
        prop_assert_eq!(broken(g, Invariant::LogOnlyGrows), Vec::<String>::new());
    }

    #[test]
    fn stages_cards_are_neither_made_nor_lost(g in game(scenarios("power-stages"))) {
        prop_assert_eq!(broken(g, Invariant::CardsConserved), Vec::<String>::new());
    }

    #[test]
    fn shinobi_action_points_stay_within_the_round_allowance(g in game(scenarios("shinobi"))) {
        prop_assert_eq!(broken(g, Invariant::ActionPointsBounded), Vec::<String>::new());
    }

    #[test]
    fn shinobi_cover_never_absorbs_more_than_it_holds(g in game(scenarios("shinobi"))) {
        prop_assert_eq!(broken(g, Invariant::CoverWear), Vec::<String>::new());
    }

    #[test]
    fn shinobi_walks_and_jumps_land_on_enterable_squares_over_nothing_that_blocks_sight(
        g in game(scenarios("shinobi"))
    ) {
        prop_assert_eq!(broken(g, Invariant::MovesStepBySquare), Vec::<String>::new());
    }
}

/// Moves `who` along `path` and, if the rules let it be taken back (it drew no dice, asked
/// nobody anything and the turn is still `who`'s), undoes it. `Ok(true)` when undone with the
/// state exactly as before, `Ok(false)` when the move was final, else what went wrong.
fn undo_move(
    battle: &mut gridclash::battle::Battle,
    who: CombatantId,
    path: Vec<Square>,
) -> Result<bool, String> {
    let before = battle.state_hash();
    let offered = battle.undoable().len();
    let (draws, events) = (battle.dice().rolled(), battle.events().len());
    let cmd = Command::Move {
        who,
        path,
        boosted: false,
    };
    // A reachable square is not always a legal move (no actions or moves left this round).
    if battle.check(&cmd).is_err() {
        return Ok(false);
    }
    battle
        .submit(cmd)
        .map_err(|e| format!("a listed move was refused: {e}"))?;
    let asked = battle.events()[events..].iter().any(|e| {
        matches!(
            e,
            BattleEvent::ExploitProvoked { .. } | BattleEvent::ResponseWindow { .. }
        )
    });
    let still_mine = battle.active() == Some(who) && battle.awaiting().is_none();
    if battle.dice().rolled() != draws || asked || !still_mine || battle.outcome().is_some() {
        return Ok(false);
    }
    if battle.undoable().len() <= offered {
        return Err("a move that drew no dice is not offered for undo".into());
    }
    battle.undo().map_err(|e| format!("undo: {e}"))?;
    let after = battle.state_hash();
    if after != before {
        return Err(format!(
            "state {before:016x} before the move, {after:016x} after undoing it"
        ));
    }
    Ok(true)
}

/// At the start of every shipped scenario, the first combatant's move to its first listed
/// square is undone and the state is as before (so the property above is not vacuous).
#[test]
fn undo_is_offered_at_the_start_of_every_scenario() {
    for loaded in shipped() {
        let mut game = AiMatch::new(loaded, 1, &[Policy::Normal], 100).expect("sets up");
        let (who, _) = game.actor().expect("someone acts first");
        let to = game.battle.move_options(who, false).into_keys().next();
        let to = to.unwrap_or_else(|| panic!("{}: the first combatant cannot move", loaded.id()));
        let path = game.battle.path_to(who, to, false).expect("path");
        assert_eq!(
            undo_move(&mut game.battle, who, path),
            Ok(true),
            "{}",
            loaded.id()
        );
    }
}

/// Plays `g` and returns the battle and its match (for the properties that need the battle).
fn played(g: Game) -> AiMatch {
    let loaded = &shipped()[g.scenario];
    let (a, b) = PAIRS[g.pair];
    let mut game = AiMatch::new(loaded, g.seed, &[a, b], 100).expect("battle sets up");
    for _ in 0..g.commands {
        if game.finished() {
            break;
        }
        game.step().expect("the computer's command is legal");
    }
    game
}

/// A command built from generated numbers: any combatant, any square (the map's or beyond),
/// any profile name; most are illegal at any moment.
fn wild_command(ids: &[CombatantId], pick: (u8, u8, i32, i32, u8)) -> Command {
    let (kind, who, x, y, p) = pick;
    let who = ids[usize::from(who) % ids.len()];
    let target = ids[usize::from(p) % ids.len()];
    let profile = ["melee", "ranged", "no_such_profile", "Punch", "kunai"][usize::from(p) % 5];
    match kind % 6 {
        0 => Command::EndTurn { who },
        1 => Command::Move {
            who,
            path: vec![Square::new(x, y)],
            boosted: p % 2 == 0,
        },
        2 => Command::Attack(AttackOrder {
            attacker: who,
            profile: profile.into(),
            technique: None,
            target: AttackTarget::Combatant(target),
            wager: i64::from(x),
            element: None,
            push: None,
            sneak: p % 3 == 0,
            called_shot: None,
            united: None,
            discard: None,
            power_attack: i64::from(p % 4) - 1,
            aimed: gridclash::battle::command::AimedShot {
                armour_gaps: p % 5 == 0,
                through_cover: p % 7 == 0,
            },
        }),
        3 => Command::PowerUp { who },
        4 => Command::Recover {
            who,
            actions: u32::from(p % 5),
        },
        _ => Command::ConvertAction { who },
    }
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn a_refused_command_changes_nothing(
        g in game(scenarios("")),
        picks in prop::collection::vec((any::<u8>(), any::<u8>(), -3i32..30, -3i32..30, any::<u8>()), 1..12),
    ) {
        let mut game = played(g);
        let ids: Vec<CombatantId> = game.battle.fighters().iter().map(|f| f.id).collect();
        for pick in picks {
            let before = game.battle.state_hash();
            let events = game.battle.events().len();
            let cmd = wild_command(&ids, pick);
            if game.battle.submit(cmd.clone()).is_err() {
                prop_assert_eq!(game.battle.state_hash(), before, "{:?} was refused but changed the state", cmd);
                prop_assert_eq!(game.battle.events().len(), events);
            } else {
                break;
            }
        }
    }

    /// A move (to a generated one of the reachable squares) that drew no dice and left the
    /// turn where it was can be taken back, and taking it back restores the state exactly.
    /// `undo_is_offered_at_the_start_of_every_scenario` keeps this from passing vacuously.
    #[test]
    fn undoing_a_move_restores_the_state_hash(g in game(scenarios("")), pick in any::<prop::sample::Index>()) {
        let mut game = played(g);
        if game.finished() {
            return Ok(());
        }
        let Ok((who, _)) = game.actor() else { return Ok(()) };
        let squares: Vec<Square> = game.battle.move_options(who, false).into_keys().collect();
        if squares.is_empty() {
            return Ok(());
        }
        let to = *pick.get(&squares);
        let path = game.battle.path_to(who, to, false).expect("a reachable square has a path");
        let undone = undo_move(&mut game.battle, who, path);
        prop_assert!(undone.is_ok(), "{:?}", undone);
    }

    #[test]
    fn a_save_loads_to_the_same_state_and_saves_the_same_bytes(g in game(scenarios(""))) {
        let mut game = played(g);
        let loaded = &shipped()[g.scenario];
        let sides = gridclash::save::ai_sides(loaded, &game.agents);
        let save = SaveFile::capture(SaveKind::Save, &game.battle, loaded, sides).expect("capture");
        let text = save.to_ron();
        let path = std::path::Path::new("property.ron");
        let parsed = SaveFile::parse(path, &text).expect("its own save parses");
        let mut restored = gridclash::save::restore(&parsed, path, &text, Restore::default()).expect("restores");
        prop_assert_eq!(restored.battle.state_hash(), game.battle.state_hash());
        let again = SaveFile::capture(SaveKind::Save, &restored.battle, loaded, restored.sides.clone()).expect("capture");
        prop_assert_eq!(again.to_ron(), text);
    }

    #[test]
    fn the_same_seed_plays_the_same_battle(g in game(scenarios(""))) {
        let (mut a, mut b) = (played(g), played(g));
        prop_assert_eq!(a.battle.state_hash(), b.battle.state_hash());
    }
}

proptest! {
    #![proptest_config(config(6))]

    /// The rules, not the harness, end a battle at its round limit: with the limit cut to a
    /// few rounds and two random players (who rarely win that fast), every battle has an
    /// outcome once it stops, and no round past the limit ever began.
    #[test]
    fn battles_end_within_their_round_limit(
        scenario in prop::sample::select(scenarios("")),
        seed in any::<u64>(),
        limit in 2u32..6,
        side_wins in any::<bool>(),
    ) {
        let mut loaded = shipped()[scenario].clone();
        let outcome = if side_wins { LimitOutcome::SideWins(1) } else { LimitOutcome::Draw };
        loaded.scenario.victory.round_limit = Some(RoundLimitDef { rounds: limit, outcome });
        let mut game = AiMatch::new(&loaded, seed, &[Policy::Random, Policy::Random], limit).expect("sets up");
        prop_assert_eq!(game.limit, limit);
        let mut commands = 0;
        while !game.finished() {
            game.step().expect("legal");
            commands += 1;
            prop_assert!(commands < 20_000, "no end in sight");
            prop_assert!(game.battle.turn().round <= limit, "round {} began", game.battle.turn().round);
        }
        let ended = game.battle.outcome();
        prop_assert!(ended.is_some(), "stopped in round {} with no outcome", game.battle.turn().round);
        if let Some(o) = ended.filter(|o| o.reason == EndReason::RoundLimit) {
            // The limit's outcome is the scenario's: side 1 wins, or a draw.
            let want = side_wins.then_some(Side(1));
            prop_assert_eq!(o.winner, want);
            prop_assert_eq!(o.round, limit);
        }
    }
}

/// A roll spec from generated numbers: maybe a base die, some dice, some modifiers.
fn spec() -> impl Strategy<Value = RollSpec> {
    (
        prop::option::of((prop::sample::select(vec![6u32, 10, 20]), 1u32..3, 0u32..3)),
        prop::collection::vec(
            (1u32..4, prop::sample::select(vec![4u32, 6, 8, 10, 12])),
            0..3,
        ),
        prop::collection::vec(-8i64..12, 0..4),
        1i64..3,
    )
        .prop_map(|(base, dice, mods, mult)| {
            let mut s = RollSpec::new(RollKind::Strike);
            s.base = base.map(|(sides, rolls, botch)| BaseDie {
                sides,
                rolls,
                critical_target: Some(sides),
                botch_range: botch.min(sides - 1),
                botch_penalty: 3,
                penalization: None,
                exploding: false,
            });
            s.dice = dice
                .into_iter()
                .map(|(count, sides)| DiceTerm {
                    label: "dice".into(),
                    group: DiceGroup { count, sides },
                    exploding: false,
                })
                .collect();
            for (i, m) in mods.into_iter().enumerate() {
                s.add(format!("modifier {i}"), m);
            }
            // The engine multiplies only base-die-free rolls (a multi-hit Wound); a base die's
            // botch penalty is not multiplied, so the two are never built together.
            if s.base.is_none() {
                s.dice_multiplier = mult;
            }
            s
        })
}

/// A map of generated terrain over a shipped ruleset's terrain types.
fn terrain_map() -> impl Strategy<Value = (u32, u32, Vec<u16>)> {
    (2u32..14, 2u32..14).prop_flat_map(|(w, h)| {
        let n = gridclash::ruleset::Rules::load(&gridclash::ruleset::rules_root().join("dbu"))
            .map_or(1, |r| r.terrain.types.len() as u16);
        (
            Just(w),
            Just(h),
            prop::collection::vec(0..n, (w * h) as usize),
        )
    })
}

fn dbu_rules() -> &'static gridclash::ruleset::Rules {
    static R: OnceLock<gridclash::ruleset::Rules> = OnceLock::new();
    R.get_or_init(|| {
        gridclash::ruleset::Rules::load(&gridclash::ruleset::rules_root().join("dbu"))
            .expect("dbu loads")
    })
}

fn field_of(map: &Map) -> Field<'_> {
    let rules = dbu_rules();
    Field {
        map,
        terrain: &rules.terrain.types,
        corners: rules.terrain.line_of_sight,
    }
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn dice_distributions_sum_to_one(s in spec()) {
        let d = distribution(&s);
        prop_assert!((d.mass() - 1.0).abs() < 1e-9, "mass {}", d.mass());
        prop_assert!(d.p.iter().all(|p| *p >= 0.0));
    }

    #[test]
    fn every_roll_is_a_value_its_distribution_allows(s in spec(), seed in any::<u64>()) {
        let d = distribution(&s);
        let mut dice = DiceSource::seeded(seed);
        for _ in 0..20 {
            let r = roll(&s, &mut dice);
            prop_assert!(d.prob(r.total) > 0.0, "rolled {} outside the distribution", r.total);
        }
    }

    #[test]
    fn seeded_dice_repeat_exactly(seed in any::<u64>(), sides in 2u32..100) {
        let (mut a, mut b) = (DiceSource::seeded(seed), DiceSource::seeded(seed));
        for _ in 0..50 {
            let x = a.roll(sides);
            prop_assert_eq!(x, b.roll(sides));
            prop_assert!((1..=sides).contains(&x));
        }
    }

    #[test]
    fn chebyshev_distance_is_a_metric(
        a in (-50i32..50, -50i32..50), b in (-50i32..50, -50i32..50), c in (-50i32..50, -50i32..50),
    ) {
        let (a, b, c) = (Square::new(a.0, a.1), Square::new(b.0, b.1), Square::new(c.0, c.1));
        prop_assert_eq!(chebyshev(a, b), chebyshev(b, a));
        prop_assert_eq!(chebyshev(a, a), 0);
        prop_assert!(chebyshev(a, c) <= chebyshev(a, b) + chebyshev(b, c));
    }

    #[test]
    fn area_templates_stay_on_the_map_and_list_each_square_once(
        (w, h, cells) in terrain_map(),
        origin in (0i32..14, 0i32..14),
        size in 1u32..3,
        dir in 0usize..8,
        shape in 0u32..4,
        n in 1u32..6,
    ) {
        let map = Map { width: w, height: h, cells, wear: Default::default(), grenades: Vec::new() };
        let field = field_of(&map);
        let shape = match shape {
            0 => AreaShape::Reach,
            1 => AreaShape::Cone { length: n, width: 2 * (n % 3) + 1 },
            2 => AreaShape::Sphere { radius: n },
            _ => AreaShape::Line { length: n, width: 2 * (n % 2) + 1 },
        };
        let origin = Square::new(origin.0 % w as i32, origin.1 % h as i32);
        let squares = gridclash::grid::area::covered(&field, shape, origin, size, Some(Dir8::ALL[dir]), n);
        let unique: BTreeSet<Square> = squares.iter().copied().collect();
        prop_assert_eq!(unique.len(), squares.len(), "a square listed twice");
        prop_assert!(squares.iter().all(|s| field.bounds().contains(*s)), "a square off the map");
    }

    #[test]
    fn reachable_squares_never_cost_more_than_the_budget(
        (w, h, cells) in terrain_map(),
        start in (0i32..14, 0i32..14),
        budget in 0u32..9,
    ) {
        let map = Map { width: w, height: h, cells, wear: Default::default(), grenades: Vec::new() };
        let field = field_of(&map);
        let start = Square::new(start.0 % w as i32, start.1 % h as i32);
        let reach = gridclash::grid::path::reachable(&field, start, 1, budget, |_| false);
        for (s, r) in &reach {
            prop_assert!(r.cost <= budget, "{:?} costs {} of {}", s, r.cost, budget);
            if *s != start {
                let parent = reach.get(&r.from).expect("a reached parent");
                prop_assert!(parent.cost <= r.cost);
                prop_assert_eq!(chebyshev(*s, r.from), 1);
                prop_assert!(field.cost(*s).is_some());
            }
        }
    }

    #[test]
    fn shinobi_damage_through_cover_is_never_negative_and_sums_to_one(
        wound in spec(), left in 0i64..40, chance in 0u32..101,
    ) {
        let absorb = gridclash::battle::context::Absorb {
            name: "crates".into(),
            at: Square::new(0, 0),
            left,
            chance,
            person: None,
            full: chance == 100,
        };
        let d = gridclash::battle::family::shinobi::landed_damage(&distribution(&wound), Some(&absorb));
        prop_assert!((d.mass() - 1.0).abs() < 1e-9);
        prop_assert!(d.range().is_none_or(|(lo, _)| lo >= 0));
    }
}

proptest! {
    #![proptest_config(config(40))]

    #[test]
    fn exact_hit_chance_agrees_with_sampling(strike in spec(), defense in spec(), seed in any::<u64>()) {
        let exact = distribution(&strike).prob_greater(&distribution(&defense));
        let mut dice = DiceSource::seeded(seed);
        let n = 4_000;
        let hits = (0..n)
            .filter(|_| roll(&strike, &mut dice).total > roll(&defense, &mut dice).total)
            .count();
        let seen = hits as f64 / f64::from(n);
        // Five standard errors (plus a little for p near 0 or 1): a false alarm is rarer than
        // one in a million cases.
        let p = exact.clamp(0.0, 1.0);
        let sigma = (p * (1.0 - p) / f64::from(n)).sqrt();
        prop_assert!((seen - exact).abs() <= 5.0 * sigma + 0.002, "exact {} sampled {}", exact, seen);
    }
}
