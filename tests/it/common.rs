//! Helpers shared by the rule tests: the shipped ruleset, small battles with scripted dice,
//! attack orders and the event log as lines of text.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackOrder, AttackTarget, Command};
use gridclash::battle::components::*;
use gridclash::battle::fighter::FighterQuery;
use gridclash::battle::setup::{BattleSetup, UnitSetup};
use gridclash::dice::DiceSource;
use gridclash::grid::Dir8;
use gridclash::ruleset::{ConditionKind, Rules, rules_root};

/// A shipped ruleset by id (`dbu`, `d20`, `digimon`, `shinobi`, `power-stages`), loaded once
/// for the whole test binary and kept for its lifetime.
pub fn ruleset(id: &str) -> &'static Arc<Rules> {
    static LOADED: OnceLock<Mutex<BTreeMap<String, &'static Arc<Rules>>>> = OnceLock::new();
    let mut loaded = LOADED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    loaded.entry(id.to_string()).or_insert_with(|| {
        let rules = Rules::load(&rules_root().join(id))
            .unwrap_or_else(|e| panic!("the shipped {id} ruleset loads: {e}"));
        Box::leak(Box::new(Arc::new(rules)))
    })
}

/// The shipped DBU ruleset.
pub fn rules() -> Arc<Rules> {
    ruleset("dbu").clone()
}

/// The shipped DBU ruleset with a `'static` lifetime, for borrowing its terrain in tests.
pub fn rules_static() -> &'static Rules {
    ruleset("dbu")
}

/// The one builder of every test battle: a ruleset, a map (open ground by default, 20×12),
/// units, and dice (scripted faces or a seed), e.g.
/// `Arena::new("d20").size(40, 10).units(vec![..]).dice(&[15, 3]).build()`.
pub struct Arena {
    rules: Arc<Rules>,
    size: (u32, u32),
    rows: Vec<String>,
    units: Vec<UnitSetup>,
    dice: DiceSource,
}

impl Arena {
    /// A battle of the shipped ruleset `id`.
    pub fn new(id: &str) -> Self {
        Self::with_rules(ruleset(id).clone())
    }

    /// A battle of `rules` (a shipped ruleset a test changed, say).
    pub fn with_rules(rules: Arc<Rules>) -> Self {
        Self {
            rules,
            size: (20, 12),
            rows: Vec::new(),
            units: Vec::new(),
            dice: DiceSource::seeded(1),
        }
    }

    /// Open ground of `width` × `height` squares.
    pub fn size(mut self, width: u32, height: u32) -> Self {
        self.size = (width, height);
        self
    }

    /// A map drawn with the ruleset's terrain symbols, one string a row.
    pub fn map(mut self, rows: &[&str]) -> Self {
        self.rows = rows.iter().map(|r| r.to_string()).collect();
        self.size = (rows[0].len() as u32, rows.len() as u32);
        self
    }

    /// The combatants, in order (their ids are their places in this list).
    pub fn units(mut self, units: Vec<UnitSetup>) -> Self {
        self.units = units;
        self
    }

    /// Dice that come up `faces`, in order (initiative first).
    pub fn dice(mut self, faces: &[u32]) -> Self {
        self.dice = DiceSource::scripted(faces.iter().copied());
        self
    }

    /// Seeded dice.
    pub fn seed(mut self, seed: u64) -> Self {
        self.dice = DiceSource::seeded(seed);
        self
    }

    /// The battle, started.
    pub fn build(self) -> Battle {
        let mut setup = BattleSetup::open(self.size.0, self.size.1, self.units);
        for (y, row) in self.rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let t = self
                    .rules
                    .terrain_by_symbol(c)
                    .expect("known terrain symbol");
                setup.map.set(Square::new(x as i32, y as i32), t);
            }
        }
        Battle::new(self.rules, &setup, self.dice).expect("valid setup")
    }

    /// The battle, run until unit 0's turn (everyone before it ends its turn).
    pub fn build_at_unit_0(self) -> Battle {
        let mut b = self.build();
        while b.turn().active() != Some(CombatantId(0)) {
            let who = b.turn().active().expect("someone acts");
            b.submit(Command::EndTurn { who }).expect("end turn");
        }
        b
    }
}

/// A DBU Brawler beside a Ki Blaster, seeded as `Arena` does: where a test checks that
/// another ruleset's command is refused in a DBU battle with the rule.
pub fn dbu_pair() -> Battle {
    Arena::new("dbu")
        .units(vec![
            UnitSetup::new("brawler", 0, Square::new(1, 1)),
            UnitSetup::new("ki_blaster", 1, Square::new(2, 1)),
        ])
        .build()
}

/// A unit that always dodges and never uses Instants, so tests control every roll.
pub fn unit(archetype: &str, side: u8, x: i32, y: i32) -> UnitSetup {
    let mut u = UnitSetup::new(archetype, side, Square::new(x, y));
    u.controller = Controller {
        defense: DefensePolicy::AlwaysDodge,
        responses: ResponsePolicy::Never,
        exploits: ExploitPolicy::Never,
    };
    u
}

/// A 20×12 battle of `units` whose dice come from `faces` (initiative first, in unit order).
pub fn battle(units: Vec<UnitSetup>, faces: &[u32]) -> Battle {
    battle_with(rules(), units, faces)
}

/// Like [`battle`] with another ruleset.
pub fn battle_with(rules: Arc<Rules>, units: Vec<UnitSetup>, faces: &[u32]) -> Battle {
    Arena::with_rules(rules).units(units).dice(faces).build()
}

/// A battle on a map drawn with terrain symbols (`.` open, `:` rubble, `#` wall, `c` crates…).
pub fn battle_on(rows: &[&str], units: Vec<UnitSetup>, faces: &[u32]) -> Battle {
    battle_on_with(rules(), rows, units, faces)
}

/// [`battle_on`] in another ruleset, with its terrain symbols.
pub fn battle_on_with(
    r: Arc<Rules>,
    rows: &[&str],
    units: Vec<UnitSetup>,
    faces: &[u32],
) -> Battle {
    Arena::with_rules(r)
        .map(rows)
        .units(units)
        .dice(faces)
        .build()
}

/// Two fighters side by side; the first wins initiative (its d10 is a 10, the second's a 1).
pub fn duel(a: &str, b: &str, faces: &[u32]) -> Battle {
    let mut all = vec![10, 1];
    all.extend_from_slice(faces);
    battle(vec![unit(a, 0, 5, 5), unit(b, 1, 6, 5)], &all)
}

/// An attack order with no wager.
pub fn attack(attacker: u32, profile: &str, target: AttackTarget) -> AttackOrder {
    AttackOrder {
        attacker: CombatantId(attacker),
        profile: profile.to_string(),
        technique: None,
        target,
        wager: 0,
        element: None,
        push: None,
        sneak: false,
        called_shot: None,
        united: None,
        discard: None,
        power_attack: 0,
        aimed: Default::default(),
    }
}

/// A single-target attack command.
pub fn hit(attacker: u32, profile: &str, target: u32) -> Command {
    Command::Attack(attack(
        attacker,
        profile,
        AttackTarget::Combatant(CombatantId(target)),
    ))
}

/// A cone attack command.
pub fn cone(attacker: u32, profile: &str, dir: Dir8) -> Command {
    Command::Attack(attack(attacker, profile, AttackTarget::Direction(dir)))
}

/// The events from index `from` on, in words.
pub fn lines(b: &mut Battle, from: usize) -> Vec<String> {
    let names = b.names();
    b.events()[from..]
        .iter()
        .map(|e| e.describe(&names))
        .collect()
}

/// Submits `cmd` and returns the lines it produced.
pub fn run(b: &mut Battle, cmd: Command) -> Vec<String> {
    let n = b.events().len();
    b.submit(cmd.clone())
        .unwrap_or_else(|e| panic!("{cmd:?} was refused: {e}"));
    lines(b, n)
}

/// Asserts that `got` contains `want` as a contiguous run of lines.
#[track_caller]
pub fn assert_contains(got: &[String], want: &[&str]) {
    let ok = got
        .windows(want.len().max(1))
        .any(|w| w.iter().zip(want).all(|(a, b)| a == b));
    assert!(
        ok,
        "expected these lines in order:\n  {}\n\ngot:\n  {}",
        want.join("\n  "),
        got.join("\n  ")
    );
}

/// Stages a situation for a test: edits one combatant's components directly.
pub fn stage(
    b: &mut Battle,
    id: u32,
    edit: impl FnOnce(&mut gridclash::battle::fighter::FighterQueryItem),
) {
    let world = b.world_mut();
    let mut q = world.query::<FighterQuery>();
    for mut f in q.iter_mut(world) {
        if f.id.0 == id {
            edit(&mut f);
            return;
        }
    }
    panic!("no combatant {id}");
}

/// Gives a combatant a condition from `source` lasting until ended.
pub fn give(b: &mut Battle, id: u32, kind: ConditionKind, source: Option<u32>) {
    stage(b, id, |f| {
        f.conditions.0.push(ConditionInstance {
            kind,
            source: source.map(CombatantId),
            source_tier: 2,
            stacks: 1,
            amount: 0,
            expires: Expiry::UntilEnded,
            failures: 0,
            category: None,
        })
    });
}

/// Sets a combatant's Life, keeping the threshold bookkeeping consistent with it.
pub fn set_life(b: &mut Battle, id: u32, life: i64) {
    let rules = rules();
    stage(b, id, |f| {
        f.life.current = life;
        f.thresholds.reached =
            gridclash::battle::effects::reached_thresholds(&rules, f.power.minion, *f.life);
    });
}

/// Asserts the scripted dice were used up exactly.
#[track_caller]
pub fn assert_dice_used(b: &Battle) {
    assert_eq!(b.dice().script_left(), 0, "scripted dice left over");
}

/// The `normal` computer player against random legal moves: 100 seeded battles on each of
/// `scenarios`, half with the computer on each side (the issue's "beats a random legal-move
/// policy"). Returns (battles won by `normal`, battles played).
pub fn normal_against_random(scenarios: &[&str]) -> (u32, u32) {
    use gridclash::ai::Policy;
    use gridclash::battle::components::Side;
    use gridclash::{scenario, sim};
    let (mut won, mut played) = (0, 0);
    for name in scenarios {
        let l = scenario::load(&scenario::find(name)).expect("scenario");
        for i in 0..100u64 {
            let (policies, ai_side) = if i % 2 == 0 {
                ([Policy::Normal, Policy::Random], 0)
            } else {
                ([Policy::Random, Policy::Normal], 1)
            };
            let done = sim::play(&l, sim::battle_seed(7, i), &policies, 30).expect("plays");
            played += 1;
            if done.winner == Some(Side(ai_side)) {
                won += 1;
            }
        }
    }
    (won, played)
}

/// The terrain of square `(x, y)` of a battle's map now (a Skill Check may have changed it).
pub fn terrain(b: &Battle, x: i32, y: i32) -> gridclash::ruleset::TerrainDef {
    let i = b.map().at(Square::new(x, y)).expect("on the map");
    b.rules().terrain.types[usize::from(i)].clone()
}

/// A Skill Check by `who` on the square `at`, made the way `way` says.
pub fn use_skill(who: u32, at: (i32, i32), way: gridclash::battle::command::SkillWay) -> Command {
    Command::UseSkill {
        who: CombatantId(who),
        at: Square::new(at.0, at.1),
        way,
    }
}

/// Runs the `gridclash` executable with `args`, its data directory (saves, your scenarios)
/// at `data`, and returns what it printed and how it ended.
pub fn gridclash_in(data: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gridclash"))
        .args(args)
        .env("GRIDCLASH_DATA_DIR", data)
        .output()
        .expect("gridclash runs")
}

/// The error of loading shipped ruleset `id` with `edit` applied to each of its files (given
/// the file's name and text): how the broken-data tests check that a mistake is refused with
/// its file, line and field. Panics if the edited ruleset loads.
pub fn load_error_of_edited(id: &str, edit: impl Fn(&str, String) -> String) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    for entry in std::fs::read_dir(rules_root().join(id)).expect("shipped ruleset") {
        let path = entry.expect("a directory entry").path();
        if !path.is_file() {
            continue;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path).expect("shipped file");
        std::fs::write(dir.path().join(&name), edit(&name, text)).expect("written");
    }
    Rules::load(dir.path())
        .expect_err("the edited ruleset is refused")
        .to_string()
}
