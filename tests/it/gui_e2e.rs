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
    let log = play_script(&dir, "skirmish", 1, &script(&dir));
    for name in ["1-start.png", "2-move.png", "3-aim.png", "4-after.png"] {
        assert_drawn(&dir.join(name), &log);
    }
}

/// A fresh directory for one window test's screenshots and script, or `None` (the test then
/// passes without running) when `GRIDCLASH_SKIP_E2E` is set.
fn e2e_dir(name: &str) -> Option<std::path::PathBuf> {
    if std::env::var_os("GRIDCLASH_SKIP_E2E").is_some() {
        eprintln!("GRIDCLASH_SKIP_E2E is set: skipping the window test");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("gridclash-e2e-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    Some(dir)
}

/// The screenshot at `shot` is a PNG with a drawn board (a blank window compresses to far
/// less); `log` is the game's output, shown when it is not.
fn assert_drawn(shot: &std::path::Path, log: &str) {
    let bytes = std::fs::read(shot).unwrap_or_else(|e| panic!("{}: {e}\n{log}", shot.display()));
    assert!(bytes.starts_with(b"\x89PNG"), "{} is a PNG", shot.display());
    assert!(bytes.len() > 20_000, "{} has a drawn board", shot.display());
}

/// Every family's test ends with `walk-terms`: each word of the rules on screen (its unit
/// sheet, odds and log) is hovered and its tooltip checked against the ruleset's glossary.
///
/// Runs the real game under xvfb on `scenario` with `seed` (Red human, Blue computer) and the
/// script `text`, and returns its log; panics if the game fails.
fn play_script(dir: &std::path::Path, scenario: &str, seed: u64, text: &str) -> String {
    let seed = seed.to_string();
    let args = [
        "--scenario",
        scenario,
        "--sides",
        "human,ai",
        "--seed",
        &seed,
        "--ai-pace",
        "0.1",
    ];
    play_with(dir, scenario, &args, text)
}

/// The real game's `play` with `args` under xvfb, its settings and data in `dir`.
fn play_command(dir: &std::path::Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("xvfb-run");
    cmd.args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_gridclash"))
        .arg("play")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("GRIDCLASH_CONFIG_DIR", dir)
        .env("GRIDCLASH_DATA_DIR", dir);
    cmd
}

/// Runs the real game under xvfb with `play`'s `args` and the script `text` (saved as
/// `NAME.script` in `dir`, whose settings and data the game uses), and returns its log;
/// panics if the game fails.
fn play_with(dir: &std::path::Path, name: &str, args: &[&str], text: &str) -> String {
    let script_path = dir.join(format!("{name}.script"));
    std::fs::write(&script_path, text).expect("script written");
    let out = play_command(dir, args)
        .arg("--script")
        .arg(&script_path)
        .output()
        .expect("xvfb-run is installed (bash .ci/setup), or set GRIDCLASH_SKIP_E2E=1");
    // What the script reports (`walk-terms`) is on standard output, the game's log on error.
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the game failed: {}\n{log}",
        out.status
    );
    log
}

#[test]
fn gui_end_to_end_power_stages_prompt_blocks_an_energy_attack() {
    let Some(dir) = e2e_dir("stages") else {
        return;
    };
    let shot = dir.join("stages-after.png");
    // Seed 1: Kenji ends his turns; at every question P blocks if a card allows. Within eight
    // of his turns the Energy Fighter blasts him while he holds an Energy Shield.
    let mut text = String::from("wait 30\n");
    for _ in 0..8 {
        text.push_str("until-human 900\nwait 3\nkey KeyP\nwait 3\nkey KeyT\n");
    }
    text.push_str(&format!(
        "until-human 900\nwait 5\nshot {}\nexpect plays Energy Shield: blocks the attack\nwalk-terms\nquit\n",
        shot.display()
    ));
    let log = play_script(&dir, "stages-duel", 1, &text);
    assert_drawn(&shot, &log);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gui_end_to_end_power_stages_final_physical_attack_discards_the_card_picked_with_the_mouse() {
    // "you can make a Final Physical Attack by discarding any one card from your hand": the
    // Sentinel holds Energy Shield, Forearm Block and Side Step; the bar's Discard button steps
    // from the first to the second, and the attack gives up that one.
    let Some(dir) = e2e_dir("final-physical") else {
        return;
    };
    let shot = dir.join("final-physical.png");
    let text = format!(
        "until-human 900\nclick-bar Final Physical\npoint-foe\nwait 5\nclick-bar Discard\n\
         point-foe\nwait 5\nshot {}\nclick\nwait 30\n\
         expect plays Forearm Block: discarded for the Final Physical Attack\nwalk-terms\nquit\n",
        shot.display()
    );
    let args = [
        "--scenario",
        "docs/final-physical.ron",
        "--sides",
        "human,ai",
        "--seed",
        "1",
    ];
    let log = play_with(&dir, "final-physical", &args, &text);
    assert_drawn(&shot, &log);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gui_end_to_end_shinobi_prompt_deflects_a_thrown_kunai() {
    let Some(dir) = e2e_dir("shinobi") else {
        return;
    };
    let prompt = dir.join("shinobi-prompt.png");
    // Seed 3: Rokuro (a Brawler, no weapon) ends his turn; the Blade Dancer throws a kunai and
    // he is asked: E deflects.
    let text = format!(
        "wait 30\nuntil-human 900\nkey KeyT\nwait 10\nuntil-human 2000\nwait 5\nshot {}\nkey KeyE\nwait 30\nexpect Rokuro will Deflect\nuntil-human 3000\nwait 10\nwalk-terms\nquit\n",
        prompt.display()
    );
    let log = play_script(&dir, "shinobi-duel", 3, &text);
    assert_drawn(&prompt, &log);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gui_end_to_end_shinobi_genjutsu_is_resisted_with_the_gen_resist_button() {
    let Some(dir) = e2e_dir("genjutsu") else {
        return;
    };
    let prompt = dir.join("genjutsu-prompt.png");
    // Veil of Sand, seed 1: the Leaf player answers every attack with D (Gen Resist against a
    // Genjutsu) and ends each turn (T). In round 2 Maboroshi's Dark Veil reaches Rokuro: the
    // prompt has one answer, Gen Resist, clicked with the mouse; the roll fails and Rokuro is
    // blinded, which his sheet says and a token's condition icon explains under the mouse. The mouse leaves the action bar before
    // the words are walked: a hovered button's hint line moves the log.
    let mut text = String::from("wait 30\n");
    for _ in 0..8 {
        text.push_str("until-human 1500\nwait 5\nkey KeyD\nwait 15\nkey KeyT\nwait 15\n");
    }
    text.push_str(&format!(
        "until-human 1500\nwait 5\nshot {}\nexpect Maboroshi attacks Rokuro with Dark Veil\nclick-button Gen Resist\nwait 30\nexpect Rokuro will resist (Gen Resist)\nexpect Rokuro gains Blinded from Maboroshi\nuntil-human 3000\nmouse 1250 700\nwait 10\nwalk-terms\nhover-badge\nexpect-tooltip Genjutsu\nquit\n",
        prompt.display()
    ));
    let log = play_script(&dir, "shinobi-veil", 1, &text);
    assert_drawn(&prompt, &log);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gui_end_to_end_digimon_heaves_a_boulder_then_hands_the_turn_to_the_tamer_who_directs() {
    let Some(dir) = e2e_dir("digimon") else {
        return;
    };
    let shot = dir.join("digimon-directed.png");
    // Seed 3: Garurumon acts first and its Foxfire is about to hit Greymon: the player is
    // offered an Intercede by Tai and lets it hit (Escape). On Greymon's turn the player uses
    // its Interrupt Action for a free Skill Check on the boulder beside it (K twice, aimed at
    // (2, 3)), which heaves it aside; then hands the turn to Tai (G), Tai Directs Greymon
    // (slot 2, aimed at Greymon's square) and ends his part (T); Greymon takes the turn back
    // with both actions and fires Nova Blast (slot 2) at Garurumon with the +3.
    let text = format!(
        "wait 30\nuntil-human 900\nkey Escape\nwait 30\nuntil-human 900\nkey KeyK\nkey KeyK\ncursor 2 3\nwait 10\nclick\nwait 30\nexpect Greymon uses its Interrupt Action for a free Skill Check\nexpect Greymon clears (2, 3): the boulder is now open ground.\nkey KeyG\nwait 20\nexpect Greymon hands the turn to Tai\nuntil-human 900\nkey Digit2\ncursor 2 4\nwait 10\nclick\nwait 30\nexpect Direct from Tai on Greymon\nkey KeyT\nwait 20\nuntil-human 900\nexpect Greymon takes the turn back (2 actions left)\nkey Digit2\ncursor 15 5\nwait 10\nclick\nwait 60\nshot {}\nexpect Directed by its Tamer 6\nuntil-human 3000\nwait 10\nwalk-terms\nquit\n",
        shot.display()
    );
    let log = play_script(&dir, "digimon-rivals", 3, &text);
    assert_drawn(&shot, &log);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gui_end_to_end_d20_drops_prone_against_a_shot_as_an_immediate_action() {
    let Some(dir) = e2e_dir("d20") else {
        return;
    };
    let prompt = dir.join("d20-prompt.png");
    // Seed 1: Vex acts first and ends his turn (T); Quill's crossbow bolt comes in and Vex is
    // asked: E drops prone, an immediate action paid with the round's Swift action. The
    // prone icon on his token shows the rule of lying prone when the mouse is on it.
    let text = format!(
        "wait 30\nuntil-human 900\nkey KeyT\nuntil-human 3000\nwait 5\nshot {}\nkey KeyE\nwait 30\nexpect Vex will drop prone\nexpect Vex spends its Swift action on Drop prone\nexpect drops prone where it stands as an immediate action (its Swift action)\nuntil-human 3000\nwait 10\nwalk-terms\nhover-badge\nexpect-tooltip prone\nquit\n",
        prompt.display()
    );
    let log = play_script(&dir, "d20-patrol", 1, &text);
    assert_drawn(&prompt, &log);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gui_end_to_end_war_reads_at_32_pixels_a_square_and_follows_each_unit_s_turn() {
    let Some(dir) = e2e_dir("war") else {
        return;
    };
    let threats = dir.join("war-threats.png");
    // War's 32×32 map does not fit whole at 32 px a square: the camera opens on the unit that
    // acts, follows the computer's turns and comes back to the next person's unit; F2 shows
    // the squares the opponents threaten. The camera glides (a share exp(-7) of the way left
    // after a second): 60 frames let it arrive however far the first unit stands, where 10
    // frames at full speed left it short now and then.
    let text = format!(
        "until-human 1200
wait 60
expect-square-px 32
expect-active-in-view
key KeyT
until-human 3000
wait 40
expect-active-in-view
key KeyT
until-human 3000
wait 40
expect-active-in-view
key F2
wait 5
shot {}
quit
",
        threats.display()
    );
    let log = play_script(&dir, "war", 1, &text);
    assert_drawn(&threats, &log);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gui_end_to_end_a_turn_and_a_defense_with_the_mouse_alone() {
    let Some(dir) = e2e_dir("mouse") else {
        return;
    };
    let bar = dir.join("mouse-bar.png");
    // No key is pressed: the Brawler's Sphere button aims, a click on the Tank attacks, the End
    // turn button ends the turn, and when the Gunner shoots, the Dodge button answers.
    let text = format!(
        "until-human 1200
wait 5
click-bar Sphere
wait 3
cursor 12 2
wait 3
shot {}
click
wait 30
expect attacks Tank with Sphere
click-bar End turn
wait 10
until-human 3000
wait 5
click-bar Dodge
wait 30
expect Brawler will Dodge
quit
",
        bar.display()
    );
    let log = play_script(&dir, "skirmish", 1, &text);
    assert_drawn(&bar, &log);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gui_end_to_end_every_rules_word_in_the_panels_shows_its_rule_and_f1_opens_help() {
    let Some(dir) = e2e_dir("terms") else {
        return;
    };
    let (tip, help) = (dir.join("terms-soak.png"), dir.join("terms-help.png"));
    // The Brawler aims its Sphere at the Tank: the unit panel and the odds panel are full of
    // words of the rules. The mouse goes onto the panel (the Tank stays described), Soak's
    // tooltip quotes the chapter, then every linked word on screen is hovered in turn and its
    // tooltip checked against the glossary; F1 opens the help screen.
    let text = format!(
        "until-human 1200
wait 30
key Digit7
wait 5
cursor 12 2
wait 10
hover-term Soak
expect-tooltip Tenacity Modifier
shot {}
wait 5
walk-terms
key F1
wait 10
shot {}
key F1
wait 5
quit
",
        tip.display(),
        help.display()
    );
    let log = play_script(&dir, "skirmish", 1, &text);
    assert_drawn(&tip, &log);
    assert_drawn(&help, &log);
    let walked: usize = log
        .lines()
        .find_map(|l| l.strip_prefix("walk-terms: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("walk-terms reports its count\n{log}"));
    // The Tank's sheet alone has 21 words; the odds panel and the log add more.
    assert!(walked >= 40, "{walked} words walked\n{log}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A PNG's width, height and RGBA8 pixels.
fn pixels(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    use bevy::asset::RenderAssetUsages;
    use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType};
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let image = Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let data = image
        .clone()
        .try_into_dynamic()
        .expect("an RGBA image")
        .to_rgba8();
    (image.width(), image.height(), data.into_raw())
}

/// The share of pixels where some channel differs by more than 8 of 255.
fn differing_share(a: &[u8], b: &[u8]) -> f64 {
    let differ = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    differ as f64 / (a.len() / 4).max(1) as f64
}

/// The most pixels in any 16x16 tile where some channel differs by more than 64 of 255: a
/// changed word or number is a small area changed a lot, which the share over the whole
/// image lets through (a title once said "5 of 7" for "6 of 8" within the share).
fn worst_tile(a: &[u8], b: &[u8], width: u32) -> (usize, (u32, u32)) {
    let width = width as usize;
    let height = a.len() / 4 / width.max(1);
    let mut counts = vec![0usize; width.div_ceil(16) * height.div_ceil(16)];
    for (i, (p, q)) in a.chunks_exact(4).zip(b.chunks_exact(4)).enumerate() {
        if p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 64) {
            let (x, y) = (i % width, i / width);
            counts[(y / 16) * width.div_ceil(16) + x / 16] += 1;
        }
    }
    let (at, worst) = counts
        .iter()
        .enumerate()
        .max_by_key(|(_, n)| **n)
        .map_or((0, 0), |(i, n)| (i, *n));
    let tiles_across = width.div_ceil(16).max(1);
    (
        worst,
        (
            (at % tiles_across * 16) as u32,
            (at / tiles_across * 16) as u32,
        ),
    )
}

/// The book's screenshots are the golden images: each docs script is played again (its shots
/// written to a temporary directory) and every shot compared with the committed one, so a
/// change to the look shows in review as a changed image. Software rendering here is
/// byte-for-byte repeatable, so the tolerance (0.5 % of pixels off by more than 8 of 255, and
/// no 16x16 square with more than 12 pixels off by more than 64) only absorbs another CPU's
/// rounding. `GRIDCLASH_BLESS_SHOTS=1` writes the new shots over the
/// committed ones instead of failing.
/// Replays `docs/{script}.script` with `args` and compares every screenshot it takes with
/// the committed image in `docs/src/images` (or, with `GRIDCLASH_BLESS_SHOTS=1`, rewrites
/// them); the names of the shots compared.
fn compare_book_shots(dir: &std::path::Path, script: &str, args: &[&str]) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let images = root.join("docs/src/images");
    let bless = std::env::var_os("GRIDCLASH_BLESS_SHOTS").is_some();
    let text = std::fs::read_to_string(root.join(format!("docs/{script}.script")))
        .expect("the docs script");
    let shots: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("shot docs/src/images/"))
        .map(str::to_string)
        .collect();
    assert!(!shots.is_empty(), "{script} takes screenshots");
    let local = text.replace("shot docs/src/images/", &format!("shot {}/", dir.display()));
    let log = play_with(dir, script, args, &local);
    let mut compared = Vec::new();
    for shot in shots {
        let (new, golden) = (dir.join(&shot), images.join(&shot));
        assert_drawn(&new, &log);
        if bless {
            std::fs::copy(&new, &golden).expect("golden written");
            continue;
        }
        let (w, h, a) = pixels(&golden);
        let (w2, h2, b) = pixels(&new);
        assert_eq!((w, h), (w2, h2), "{shot}: the same size");
        let share = differing_share(&a, &b);
        assert!(
            share <= 0.005,
            "{shot}: {:.2} % of pixels differ from docs/src/images/{shot}; look at {} and, if the change is meant, rerun with GRIDCLASH_BLESS_SHOTS=1",
            share * 100.0,
            new.display()
        );
        let (worst, (x, y)) = worst_tile(&a, &b, w);
        assert!(
            worst <= 12,
            "{shot}: {worst} pixels of the 16x16 square at ({x}, {y}) changed a lot from docs/src/images/{shot}; look at {} and, if the change is meant, rerun with GRIDCLASH_BLESS_SHOTS=1",
            new.display()
        );
        compared.push(shot);
    }
    compared
}

#[test]
fn gui_golden_screenshots_of_the_book_match_the_game_as_drawn_now() {
    let Some(dir) = e2e_dir("golden") else {
        return;
    };
    let skirmish = [
        "--scenario",
        "skirmish",
        "--sides",
        "human,ai",
        "--seed",
        "1",
    ];
    let runs: [(&str, &[&str]); 4] = [
        ("screenshot", &skirmish),
        ("screens", &skirmish),
        ("menus", &skirmish),
        ("title", &[]),
    ];
    let mut compared = Vec::new();
    for (script, args) in runs {
        compared.extend(compare_book_shots(&dir, script, args));
    }
    if std::env::var_os("GRIDCLASH_BLESS_SHOTS").is_none() {
        assert_eq!(
            compared.len(),
            8,
            "battle, rules tooltip, help, defense, pause, settings, title, credits"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// The DBU guided first battle, won with the mouse alone: `docs/first-battle.script` presses
/// no key and points at no square but with the mouse (no `key`, `type` or `cursor` step); it
/// follows the guide's prompts, ends with `expect-winner Red` and `expect-guide-done` (the
/// game exits with code 3 otherwise), and its screenshots of the guide, the aim and the end
/// screen match the book's.
#[test]
fn gui_end_to_end_first_battle_is_won_with_the_mouse_alone() {
    let Some(dir) = e2e_dir("first-battle") else {
        return;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/first-battle.script")).unwrap();
    let steps: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect();
    for s in &steps {
        let word = s.split(' ').next().unwrap_or("");
        assert!(
            !["key", "type", "cursor"].contains(&word),
            "`{s}` is not the mouse"
        );
    }
    assert!(steps.contains(&"expect-winner Red") && steps.contains(&"expect-guide-done"));
    let args = [
        "--scenario",
        "first-dbu",
        "--sides",
        "human,ai:easy",
        "--seed",
        "1",
        "--ai-pace",
        "0",
    ];
    let shots = compare_book_shots(&dir, "first-battle", &args);
    if std::env::var_os("GRIDCLASH_BLESS_SHOTS").is_none() {
        assert_eq!(shots.len(), 3, "guide, aim, end screen");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// `--frame-stats`: the game times its battle frames and the first frame drawn in full (no
/// render pipeline still compiling, which cannot come before the second frame after the
/// battle appears), prints one line with the figures and the sprites, and quits by itself.
#[test]
fn gui_frame_stats_counts_the_first_battle_frame_drawn_in_full() {
    let Some(dir) = e2e_dir("frame-stats") else {
        return;
    };
    let args = [
        "--scenario",
        "skirmish",
        "--sides",
        "human,ai",
        "--seed",
        "1",
    ];
    let out = play_command(&dir, &args)
        .args(["--frame-stats", "5"])
        .output()
        .expect("xvfb-run is installed (bash .ci/setup), or set GRIDCLASH_SKIP_E2E=1");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the game failed: {}\n{text}",
        out.status
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("battle: 5 frames: p50 "))
        .unwrap_or_else(|| panic!("no frame report in:\n{text}"));
    let number_after = |word: &str| -> f64 {
        let rest = &line[line
            .find(word)
            .unwrap_or_else(|| panic!("{word} in {line}"))
            + word.len()..];
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        digits
            .parse()
            .unwrap_or_else(|e| panic!("{word}: {e} in {line}"))
    };
    let p50 = number_after("p50 ");
    let p99 = number_after("p99 ");
    let first = number_after("first frame ");
    assert!(p50 > 0.0 && p50 <= p99, "{line}");
    // The whole start-up and two frames at least after the battle appeared.
    assert!(first > p50, "{line}");
    assert!(
        number_after("after start; ") >= 12.0,
        "skirmish's units and board sprites: {line}"
    );
}
