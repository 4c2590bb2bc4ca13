//! Saves, replays and undo: round trips at every turn boundary, crash-safe writes, clear
//! refusals of broken files, golden replays, and undo that never takes back a roll.

use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::time::Duration;

use gridclash::ai::Policy;
use gridclash::battle::UndoError;
use gridclash::battle::command::Command;
use gridclash::battle::components::{CombatantId, ExploitPolicy, Square};
use gridclash::save::{self, LoadError, Restore, SaveFile, SaveKind, atomic, slots};
use gridclash::scenario;
use gridclash::sim::AiMatch;

use crate::common::*;

fn duel_scenario() -> scenario::Loaded {
    scenario::load(&scenario::find("duel")).expect("duel loads")
}

/// A duel between computer players, stopped after `commands` commands.
/// The duel after `commands` commands, or at its end if it ends sooner.
fn game_after(commands: usize) -> AiMatch {
    let loaded = duel_scenario();
    let mut game = AiMatch::new(&loaded, 3, &[Policy::Easy, Policy::Normal], 100).unwrap();
    for _ in 0..commands {
        if game.finished() {
            break;
        }
        game.step().unwrap();
    }
    game
}

fn save_text(game: &AiMatch) -> String {
    let loaded = duel_scenario();
    SaveFile::capture(
        SaveKind::Save,
        &game.battle,
        &loaded,
        save::ai_sides(&loaded, &game.agents),
    )
    .unwrap()
    .to_ron()
}

#[test]
fn save_load_save_is_byte_identical_at_every_turn_boundary_and_continuing_ends_the_same() {
    let loaded = duel_scenario();
    for seed in [1, 2] {
        let r = save::check::check_battle(&loaded, seed, &[Policy::Easy, Policy::Normal], 100, 1)
            .unwrap();
        assert!(r.boundaries >= 8, "{r:?}");
        assert_eq!(r.continued, r.boundaries);
    }
    let skirmish = scenario::load(&scenario::find("skirmish")).unwrap();
    let r = save::check::check_battle(&skirmish, 5, &[Policy::Normal], 100, 8).unwrap();
    assert!(r.boundaries > 20 && r.continued >= 3, "{r:?}");
}

#[test]
fn golden_replays_verify_command_by_command() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let mut scenarios = std::collections::BTreeSet::new();
    let mut players = std::collections::BTreeSet::new();
    let mut rulesets = std::collections::BTreeSet::new();
    for f in &files {
        let v = save::verify(f).unwrap_or_else(|e| {
            panic!(
                "{e}\nIf the rules changed on purpose, re-record it with `gridclash record` (docs/src/testing.md, Golden replays)."
            )
        });
        assert!(
            v.ending.is_some(),
            "{} is not a finished battle",
            f.display()
        );
        let (s, _) = SaveFile::read(f).unwrap();
        assert_eq!(s.kind, SaveKind::Replay);
        scenarios.insert(s.scenario.clone());
        rulesets.insert(s.ruleset.clone());
        players.extend(s.sides.iter().map(|x| x.player.clone()));
    }
    assert!(scenarios.len() >= 5, "{scenarios:?}");
    assert!(players.len() >= 4, "{players:?}");
    assert!(rulesets.contains("power-stages"), "{rulesets:?}");
    assert!(rulesets.contains("shinobi"), "{rulesets:?}");
}

#[test]
fn replay_verify_names_the_first_command_that_diverges() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/duel-easy-vs-hard.ron");
    let text = std::fs::read_to_string(&src).unwrap();
    let (save, _) = SaveFile::read(&src).unwrap();
    let wrong = &save.commands[6].hash;
    let edited = text.replacen(wrong, "0123456789abcdef", 1);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("edited.ron");
    std::fs::write(&file, &edited).unwrap();
    let err = save::verify(&file).unwrap_err().to_string();
    assert!(err.contains("command 7 ("), "{err}");
    assert!(err.contains("diverges"), "{err}");
    let line = edited
        .lines()
        .position(|l| l.contains("0123456789abcdef"))
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!("edited.ron:{line}:")),
        "{err} (line {line})"
    );
    // The binary prints it and fails.
    let out = Process::new(env!("CARGO_BIN_EXE_gridclash"))
        .args(["replay", "--verify"])
        .arg(&file)
        .arg(&src)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("command 7 (") && stdout.contains("verified"),
        "{stdout}"
    );
}

/// Writes `text` to a fresh file, tries to load it, and checks the file is left as it was.
fn load_broken(name: &str, text: &[u8]) -> LoadError {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    let err = match save::load(&file, Restore::default()) {
        Ok(_) => panic!("{name} loaded"),
        Err(e) => e,
    };
    assert_eq!(
        std::fs::read(&file).unwrap(),
        text,
        "a failed load changed {name}"
    );
    err
}

#[test]
fn broken_saves_get_a_message_naming_what_is_wrong_and_are_left_as_they_were() {
    let good = save_text(&game_after(12));
    // Truncated: the position where the text stops.
    let cut = &good[..good.len() * 2 / 3];
    let e = load_broken("cut.ron", cut.as_bytes()).to_string();
    assert!(e.contains("cut.ron:"), "{e}");
    // Not text.
    let mut bytes = good.clone().into_bytes();
    bytes[40] = 0xff;
    let e = load_broken("binary.ron", &bytes);
    assert!(matches!(e, LoadError::NotText { offset: 40, .. }), "{e}");
    // A newer format.
    let newer = good.replacen("format: 1,", "format: 7,", 1);
    let e = load_broken("newer.ron", newer.as_bytes()).to_string();
    assert!(
        e.contains("newer Gridclash") && e.contains("format 7"),
        "{e}"
    );
    // A field that does not exist.
    let unknown = good.replacen("seed:", "mana: 3,\n    seed:", 1);
    let e = load_broken("unknown.ron", unknown.as_bytes()).to_string();
    assert!(e.contains("unknown.ron:") && e.contains("mana"), "{e}");
    // A hand-edited command: the battle refuses it, or it leads elsewhere.
    let edited = good.replacen("PowerUp(who: 1)", "PowerUp(who: 9)", 1);
    assert_ne!(edited, good);
    let e = load_broken("edited.ron", edited.as_bytes()).to_string();
    assert!(
        e.contains("refused by the rules") && e.contains("no combatant has id #9"),
        "{e}"
    );
    // A hand-edited seed: the setup already differs.
    let reseeded = good.replacen("seed: 3,", "seed: 4,", 1);
    let e = load_broken("seed.ron", reseeded.as_bytes()).to_string();
    assert!(e.contains("start_hash") || e.contains("diverges"), "{e}");
    // Another ruleset than the scenario's.
    let other = good.replacen("ruleset: \"dbu\"", "ruleset: \"d20\"", 1);
    let e = load_broken("other.ron", other.as_bytes()).to_string();
    assert!(
        e.contains("ruleset `d20`") && e.contains("plays `dbu`"),
        "{e}"
    );
    // A scenario that is not there.
    let missing = good.replacen("scenario: \"duel\"", "scenario: \"nowhere\"", 1);
    let e = load_broken("missing.ron", missing.as_bytes()).to_string();
    assert!(e.contains("scenario `nowhere`"), "{e}");
    // An empty file.
    let e = load_broken("empty.ron", b"").to_string();
    assert!(e.contains("empty.ron:"), "{e}");
}

#[test]
fn a_save_whose_scenario_changed_says_so_and_loads_only_when_the_player_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let scenario_file = dir.path().join("my-duel.ron");
    std::fs::copy(scenario::find("duel"), &scenario_file).unwrap();
    let loaded = scenario::load(&scenario_file).unwrap();
    let mut game = AiMatch::new(&loaded, 3, &[Policy::Easy], 100).unwrap();
    for _ in 0..5 {
        game.step().unwrap();
    }
    let save_file = dir.path().join("slot.ron");
    let s = SaveFile::capture(
        SaveKind::Save,
        &game.battle,
        &loaded,
        save::ai_sides(&loaded, &game.agents),
    )
    .unwrap();
    assert_eq!(s.scenario, scenario_file.display().to_string());
    slots::write_file(&save_file, &s).unwrap();
    // Same data: loads and arrives at the same state.
    let (_, mut back) = save::load(&save_file, Restore::default()).unwrap();
    assert_eq!(back.battle.state_hash(), game.battle.state_hash());
    // The scenario's text changes (a comment): the player is told and may accept.
    let mut text = std::fs::read_to_string(&scenario_file).unwrap();
    text.push_str("\n// edited by a modder\n");
    std::fs::write(&scenario_file, text).unwrap();
    let before = std::fs::read(&save_file).unwrap();
    let err = save::load(&save_file, Restore::default()).err().unwrap();
    assert!(err.is_data_changed(), "{err}");
    assert!(err.to_string().contains("scenario"), "{err}");
    let (_, mut anyway) = save::load(
        &save_file,
        Restore {
            accept_changed_data: true,
        },
    )
    .unwrap();
    assert!(anyway.data_changed);
    assert_eq!(anyway.battle.state_hash(), game.battle.state_hash());
    assert_eq!(std::fs::read(&save_file).unwrap(), before);
}

/// The child half of the crash test: writes the save named by `GRIDCLASH_TEST_SAVE_TO`,
/// over and over when `GRIDCLASH_TEST_SAVE_LOOP` is set. Does nothing in a normal test run.
#[test]
fn atomic_write_child() {
    let Some(to) = std::env::var_os("GRIDCLASH_TEST_SAVE_TO") else {
        return;
    };
    let text = std::fs::read(std::env::var_os("GRIDCLASH_TEST_SAVE_FROM").unwrap()).unwrap();
    loop {
        atomic::write(Path::new(&to), &text).unwrap();
        if std::env::var_os("GRIDCLASH_TEST_SAVE_LOOP").is_none() {
            break;
        }
    }
}

fn child(to: &Path, from: &Path) -> Process {
    let mut p = Process::new(std::env::current_exe().unwrap());
    p.args([
        "--exact",
        "saves::atomic_write_child",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("GRIDCLASH_TEST_SAVE_TO", to)
    .env("GRIDCLASH_TEST_SAVE_FROM", from)
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null());
    p
}

/// The slot holds exactly one of the two saves, and it loads.
fn assert_old_or_new(slot: &Path, old: &str, new: &str, when: &str) -> bool {
    let now = std::fs::read_to_string(slot)
        .unwrap_or_else(|e| panic!("{when}: the slot is unreadable: {e}"));
    assert!(
        now == old || now == new,
        "{when}: the slot holds neither save ({} bytes)",
        now.len()
    );
    SaveFile::read(slot).unwrap_or_else(|e| panic!("{when}: {e}"));
    now == new
}

#[test]
fn killing_the_game_while_it_saves_leaves_the_old_or_the_new_save_complete() {
    let dir = tempfile::tempdir().unwrap();
    let old = save_text(&game_after(4));
    let new = save_text(&game_after(40));
    let new_file = dir.path().join("new.txt");
    std::fs::write(&new_file, &new).unwrap();
    let slot = dir.path().join("saves").join("slot.ron");
    // Stopped at every stage of a write.
    for stage in atomic::STAGES {
        atomic::write(&slot, old.as_bytes()).unwrap();
        let status = child(&slot, &new_file)
            .env(atomic::CRASH_ENV, stage)
            .status()
            .unwrap();
        assert!(!status.success(), "the writer was not stopped at {stage}");
        let is_new = assert_old_or_new(&slot, &old, &new, stage);
        let after_rename = ["renamed", "dir-synced"].contains(&stage);
        assert_eq!(is_new, after_rename, "{stage}");
    }
    // Killed at arbitrary moments of a writer saving in a loop (SIGKILL on Unix).
    let mut saw = (0, 0);
    for i in 0..40u64 {
        atomic::write(&slot, old.as_bytes()).unwrap();
        let mut writer = child(&slot, &new_file)
            .env("GRIDCLASH_TEST_SAVE_LOOP", "1")
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(2_000 + (i * 7_919) % 40_000));
        writer.kill().unwrap();
        writer.wait().unwrap();
        if assert_old_or_new(&slot, &old, &new, &format!("kill {i}")) {
            saw.1 += 1;
        } else {
            saw.0 += 1;
        }
    }
    assert!(
        saw.1 > 0,
        "no kill happened after a complete write: {saw:?}"
    );
    // Leftover temporary files never show up as slots.
    let listed = slots::list(&dir.path().join("saves"));
    assert_eq!(listed.len(), 1, "{listed:?}");
}

#[test]
fn slots_list_date_scenario_ruleset_round_and_sides_and_show_broken_files() {
    let dir = tempfile::tempdir().unwrap();
    let loaded = duel_scenario();
    let game = game_after(20);
    let s = SaveFile::capture(
        SaveKind::Save,
        &game.battle,
        &loaded,
        save::ai_sides(&loaded, &game.agents),
    )
    .unwrap();
    slots::write_slot(dir.path(), "Before the boss", &s).unwrap();
    std::fs::write(slots::slot_path(dir.path(), "broken"), "(format: 1, seed: ").unwrap();
    assert!(slots::write_slot(dir.path(), "../escape", &s).is_err());
    assert!(slots::write_slot(dir.path(), "", &s).is_err());
    let list = slots::list(&slots::saves_dir(dir.path()));
    assert_eq!(list.len(), 2);
    let good = list.iter().find(|x| x.name == "Before the boss").unwrap();
    let line = good.line();
    assert!(line.contains("duel (dbu)"), "{line}");
    assert!(
        line.contains(&format!("round {}", game.battle.turn().round)),
        "{line}"
    );
    assert!(line.contains("Red (ai:easy) vs Blue (ai:normal)"), "{line}");
    assert!(
        line.contains(&good.date()) && good.date().len() == 16,
        "{line}"
    );
    let bad = list.iter().find(|x| x.name == "broken").unwrap();
    assert!(bad.line().contains("cannot be read") && bad.line().contains("broken.ron:1:"));
}

#[test]
fn simulated_battles_give_the_same_hashes_in_separate_processes() {
    let run = || {
        let out = Process::new(env!("CARGO_BIN_EXE_gridclash"))
            .args(["simulate", "--battles", "10", "--seed", "21", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    let json: serde_json::Value = serde_json::from_slice(&a).unwrap();
    assert_eq!(json["battle_hashes"].as_array().unwrap().len(), 10);
}

// --- Undo ---------------------------------------------------------------------------------

fn mv(who: u32, points: &[(i32, i32)]) -> Command {
    Command::Move {
        who: CombatantId(who),
        path: points.iter().map(|&(x, y)| Square::new(x, y)).collect(),
        boosted: false,
    }
}

#[test]
fn undo_takes_back_a_move_and_redo_gives_it_again() {
    let mut b = battle(
        vec![unit("brawler", 0, 2, 2), unit("ki_blaster", 1, 15, 8)],
        &[10, 1],
    );
    let before = b.state_hash();
    b.submit(mv(0, &[(3, 2), (4, 2)])).unwrap();
    let moved = b.state_hash();
    assert_eq!(b.undoable().len(), 1);
    let undone = b.undo().unwrap();
    assert!(matches!(undone, Command::Move { .. }));
    assert_eq!(b.state_hash(), before);
    assert_eq!(
        b.fighter(CombatantId(0)).unwrap().position,
        Some(Square::new(2, 2))
    );
    b.redo().unwrap();
    assert_eq!(b.state_hash(), moved);
    assert_eq!(b.redo(), Err(UndoError::NothingToRedo));
    // Power Up draws no dice either: two commands come back, newest first.
    b.submit(Command::PowerUp {
        who: CombatantId(0),
    })
    .unwrap();
    assert_eq!(b.undoable().len(), 2);
    b.undo().unwrap();
    b.undo().unwrap();
    assert_eq!(b.state_hash(), before);
    // A new command forgets what could be redone.
    b.submit(mv(0, &[(2, 3)])).unwrap();
    assert_eq!(b.redo(), Err(UndoError::NothingToRedo));
}

#[test]
fn undo_never_takes_back_an_attack_or_anything_that_rolled() {
    let mut b = duel("brawler", "ki_blaster", &[6, 2, 2, 1, 4, 3]);
    b.submit(mv(0, &[(5, 4)])).unwrap();
    b.submit(hit(0, "simple", 1)).unwrap();
    assert!(b.undoable().is_empty());
    let err = b.undo().unwrap_err();
    assert_eq!(err, UndoError::Final("Attack".into()));
    assert!(err.to_string().contains("cannot be undone"), "{err}");
}

#[test]
fn undo_never_reaches_into_another_players_turn() {
    let mut b = battle(
        vec![unit("brawler", 0, 2, 2), unit("ki_blaster", 1, 15, 8)],
        &[10, 1],
    );
    b.submit(mv(0, &[(3, 2)])).unwrap();
    b.submit(Command::EndTurn {
        who: CombatantId(0),
    })
    .unwrap();
    assert_eq!(b.active(), Some(CombatantId(1)));
    assert_eq!(b.undo(), Err(UndoError::NothingThisTurn));
    assert!(b.undoable().is_empty());
}

#[test]
fn a_move_that_provokes_an_exploit_cannot_be_undone() {
    let mut blaster = unit("ki_blaster", 1, 6, 5);
    blaster.controller.exploits = ExploitPolicy::Prompt;
    let mut b = battle(vec![unit("brawler", 0, 5, 5), blaster], &[10, 1]);
    b.submit(mv(0, &[(4, 5), (3, 5)])).unwrap();
    assert!(b.awaiting().is_some());
    assert!(matches!(b.undo(), Err(UndoError::Final(_))));
    b.submit(Command::Exploit {
        who: CombatantId(1),
        order: None,
    })
    .unwrap();
    assert!(b.undoable().is_empty());
}

#[test]
fn commands_from_a_hand_edited_save_with_absurd_numbers_are_refused_without_panicking() {
    let mut b = duel("brawler", "ki_blaster", &[]);
    let far = Command::Move {
        who: CombatantId(0),
        path: vec![Square::new(i32::MIN, i32::MAX)],
        boosted: false,
    };
    let err = b.submit(far).unwrap_err();
    assert_eq!(
        err,
        gridclash::battle::command::RuleError::OffMap(Square::new(i32::MIN, i32::MAX))
    );
    let mut order = attack(
        0,
        "simple",
        gridclash::battle::command::AttackTarget::Combatant(CombatantId(1)),
    );
    order.wager = i64::MAX;
    assert!(b.submit(Command::Attack(order)).is_err());
    assert!(b.history().is_empty());
}

#[test]
fn a_shipped_scenario_opened_by_a_relative_path_is_saved_by_its_id() {
    // `play --scenario assets/scenarios/duel.ron` and `play --scenario duel` are the same
    // battle: both save "duel", so save -> load -> save keeps the bytes.
    let rel = scenario::load(Path::new("assets/scenarios/duel.ron")).expect("loads");
    assert_eq!(save::scenario_ref(&rel), "duel");
    let by_name = scenario::load(&scenario::find("duel")).expect("loads");
    assert_eq!(save::scenario_ref(&by_name), "duel");
}

#[test]
fn bench_times_a_replay_side_by_side_with_the_kernel_of_its_first_attack() {
    let replay = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/duel-easy-vs-hard.ron");
    let out = Process::new(env!("CARGO_BIN_EXE_gridclash"))
        .args(["bench", "--repeat", "1"])
        .arg(&replay)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "engine per command p50 ",
        " p95 ",
        " p99 ",
        "kernel, the same attack as plain functions (Strike 1d10",
        "vs Dodge 1d10",
        "engine / kernel at p50: ",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in:\n{stdout}");
    }
    // A file that is not a replay is refused with its name, not timed.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("not-a-replay.ron");
    std::fs::write(&bad, "(format: 1,").unwrap();
    let out = Process::new(env!("CARGO_BIN_EXE_gridclash"))
        .arg("bench")
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not-a-replay.ron"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn golden_replays_hold_every_dbu_maneuver_family() {
    // Each maneuver family the DBU ruleset plays is resolved in at least one golden replay,
    // so a change to its resolution shows up command by command.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
    let mut log = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = e.path();
        let (s, text) = SaveFile::read(&path).unwrap();
        if s.ruleset != "dbu" {
            continue;
        }
        let mut restored = save::restore(&s, &path, &text, Restore::default()).unwrap();
        log.extend(restored.battle.describe_events());
    }
    let families = [
        ("Energy Charge", " Energy Charge(s) held"),
        ("Arrogant Declaration", "makes an Arrogant Declaration"),
        ("Called Shot", "on a Called Shot"),
        ("Empower", " Empowers "),
        ("Grapple", "on a Grapple."),
        ("Pin", "on a Pin."),
        ("Absorb", "on an Absorb."),
        ("Hide", " tries to Hide: "),
        ("Reflect", " back at "),
        ("United Attack", " with a United Attack."),
        ("Pinning Slam", "with Pinning Slam"),
        ("Solar Flare", "with Solar Flare"),
        ("Frost Grip", "with Frost Grip"),
    ];
    let missing: Vec<&str> = families
        .iter()
        .filter(|(_, line)| !log.iter().any(|l| l.contains(line)))
        .map(|(name, _)| *name)
        .collect();
    assert!(missing.is_empty(), "no golden replay plays {missing:?}");
}
