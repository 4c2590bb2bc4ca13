//! End to end: the real game under `xvfb-run` with software Vulkan starts a battle, moves,
//! attacks with a preview by scripted input, and saves screenshots. Needs `xvfb-run` and
//! Mesa's Vulkan driver (`.ci/setup` installs them); set `GRIDCLASH_SKIP_E2E=1` to skip it on
//! a machine without them.

use std::process::Command;

/// The script: the first Red Fist unit (the Brawler) moves, aims its Sphere at the Tank with
/// a wager of 2 and attacks, then ends its turn and the computer plays.
fn script(dir: &std::path::Path) -> String {
    let shot = |name: &str| dir.join(name).display().to_string();
    format!(
        "wait 30
shot {start}
key KeyM
cursor 4 7
wait 3
shot {moving}
click
wait 30
expect moves at Normal Speed
key Digit7
key Equal
key Equal
cursor 12 2
wait 3
shot {aim}
click
wait 20
expect attacks Tank with Sphere
key KeyT
wait 10
shot {ai}
quit
",
        start = shot("1-start.png"),
        moving = shot("2-move.png"),
        aim = shot("3-aim.png"),
        ai = shot("4-after.png"),
    )
}

#[test]
fn gui_end_to_end_under_xvfb_moves_attacks_and_saves_screenshots() {
    if std::env::var_os("GRIDCLASH_SKIP_E2E").is_some() {
        eprintln!("GRIDCLASH_SKIP_E2E is set: skipping the window test");
        return;
    }
    let dir = match std::env::var_os("GRIDCLASH_SHOTS_DIR") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::env::temp_dir().join(format!("gridclash-e2e-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    let script_path = dir.join("e2e.script");
    std::fs::write(&script_path, script(&dir)).expect("script written");
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_gridclash"))
        .args([
            "play",
            "--scenario",
            "skirmish",
            "--sides",
            "human,ai",
            "--seed",
            "1",
        ])
        .args(["--ai-pace", "0.1", "--script"])
        .arg(&script_path)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("GRIDCLASH_CONFIG_DIR", &dir)
        .env("GRIDCLASH_DATA_DIR", &dir)
        .output()
        .expect("xvfb-run is installed (bash .ci/setup), or set GRIDCLASH_SKIP_E2E=1");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the game failed: {}\n{log}",
        out.status
    );
    for name in ["1-start.png", "2-move.png", "3-aim.png", "4-after.png"] {
        let path = dir.join(name);
        let bytes =
            std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}\n{log}", path.display()));
        assert!(bytes.starts_with(b"\x89PNG"), "{} is a PNG", path.display());
        assert!(bytes.len() > 20_000, "{} has a drawn board", path.display());
    }
}
