//! Scripted play for end-to-end tests and screenshots: a list of steps (wait, press a key,
//! point at a square, click, save a screenshot, check the log, quit) fed to the real game as
//! input events, one step after another.
//!
//! ```text
//! # comments start with #
//! wait 30              # frames
//! until-human 600      # wait (at most N frames) until a person must act
//! key KeyM             # press a key for one frame (KeyCode names: KeyM, Digit1, Enter…)
//! cursor 4 8           # point at square (4, 8)
//! click                # the Select action (left mouse button)
//! shot out/board.png   # save a screenshot of the window
//! expect moves         # fail (exit code 3) unless some log line contains the text
//! click-bar End turn   # move the mouse onto the action bar button saying this and click
//! wheel 3              # turn the mouse wheel 3 notches away from you (-3: towards you)
//! expect-square-px 32  # fail unless the board draws squares at least 32 px wide
//! expect-active-in-view  # fail unless the unit that acts is inside the board's view
//! mouse 640 300        # move the mouse to this point of the window (logical pixels)
//! hover-term Soak      # move the mouse onto the first word of the rules in a panel saying this
//! expect-tooltip Soak  # fail unless the rules tooltip shown contains the text
//! walk-terms           # hover every linked word on screen in turn; fail unless each one's
//!                      # tooltip quotes its glossary entry
//! mouse-square 4 8     # move the mouse onto square (4, 8) as the board draws it now
//! point-foe            # move the mouse onto the nearest opponent of the person's unit
//! hover-badge          # move the mouse onto the first condition icon on a token
//! click-button Next    # move the mouse onto the button saying this and click; fail if none
//! click-button-if Dodge  # the same, and go on when there is no such button
//! until-human-or-over 600  # wait until a person must act or the battle is over
//! repeat 30            # the steps up to `end-repeat`, 30 times
//! break-if-over        # leave the innermost `repeat` when the battle is over
//! end-repeat
//! expect-winner Red    # fail unless the battle is over and this side won
//! expect-guide-done    # fail unless every prompt of the guided battle was learned
//! expect-screen End    # fail unless this screen shows (Title, Battle, End…)
//! quit
//! ```

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use leafwing_input_manager::prelude::*;

use super::PlayOptions;
use super::input::{CursorSquare, DIGIT_KEYS};
use super::session::Session;
use crate::grid::Square;

/// One step of a script.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Wait(u32),
    UntilHuman(u32),
    Key(KeyCode),
    /// Text typed on the keyboard (a save slot's name).
    Type(String),
    Cursor(Square),
    Click,
    Shot(PathBuf),
    Expect(String),
    /// Move the mouse onto the action bar's button whose words contain the text and click it.
    ClickBar(String),
    /// Turn the mouse wheel this many notches where the mouse is (negative: towards you).
    Wheel(i32),
    /// Fail unless the board draws a square at least this many pixels wide.
    ExpectSquarePx(u32),
    /// Fail unless the unit that acts stands inside the board's view.
    ExpectActiveInView,
    /// Move the mouse to this point of the window, in logical pixels.
    Mouse(Vec2),
    /// Move the mouse onto the first linked word of the rules that says this.
    HoverTerm(String),
    /// Fail unless the rules tooltip is shown and contains this text.
    ExpectTooltip(String),
    /// Hover every linked word on screen; fail unless each tooltip quotes its entry.
    WalkTerms,
    /// Move the mouse onto the centre of this square as drawn now.
    MouseSquare(Square),
    /// Move the mouse onto the nearest opponent of the person's unit asked to act.
    PointFoe,
    /// Move the mouse onto the free square beside the nearest opponent that the person's unit
    /// reaches with the shortest Normal move, or onto the unit itself when it is beside one.
    MouseBesideFoe,
    /// Move the mouse onto the first condition icon shown on a token.
    HoverBadge,
    /// Move the mouse onto the shown button whose words contain the text and click; fail
    /// unless `optional`.
    ClickButton {
        text: String,
        optional: bool,
    },
    /// Wait (at most N frames) until a person must act or the battle is over.
    UntilHumanOrOver(u32),
    /// The steps up to the matching `EndRepeat` (at `end`), `times` times.
    Repeat {
        times: u32,
        end: usize,
    },
    /// The end of the block that starts at `start`.
    EndRepeat {
        start: usize,
    },
    /// Leave the innermost block (ending at `end`) when the battle is over.
    BreakIfOver {
        end: usize,
    },
    /// Fail unless the battle is over and the side with this name won.
    ExpectWinner(String),
    /// Fail unless every prompt of the guided battle was learned.
    ExpectGuideDone,
    /// Fail unless this screen shows (`Title`, `Battle`, `End`…).
    ExpectScreen(String),
    Quit,
}

/// A parsed script and where it has got to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Script {
    pub steps: Vec<Step>,
}

/// Why a script could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Parse {
        path: String,
        line: usize,
        message: String,
    },
}

/// The key codes a script may press, by name.
fn key_named(name: &str) -> Option<KeyCode> {
    use KeyCode as K;
    let letters = [
        K::KeyA,
        K::KeyB,
        K::KeyC,
        K::KeyD,
        K::KeyE,
        K::KeyF,
        K::KeyG,
        K::KeyH,
        K::KeyI,
        K::KeyJ,
        K::KeyK,
        K::KeyL,
        K::KeyM,
        K::KeyN,
        K::KeyO,
        K::KeyP,
        K::KeyQ,
        K::KeyR,
        K::KeyS,
        K::KeyT,
        K::KeyU,
        K::KeyV,
        K::KeyW,
        K::KeyX,
        K::KeyY,
        K::KeyZ,
    ];
    if let Some(c) = name.strip_prefix("Key")
        && c.len() == 1
        && let Some(ch) = c.chars().next().filter(char::is_ascii_uppercase)
    {
        return Some(letters[(ch as u8 - b'A') as usize]);
    }
    if let Some(c) = name.strip_prefix("Digit")
        && c.len() == 1
        && let Some(d) = c.chars().next().and_then(|ch| ch.to_digit(10))
    {
        return DIGIT_KEYS.get(d as usize).copied();
    }
    Some(match name {
        "Enter" => K::Enter,
        "Escape" => K::Escape,
        "Space" => K::Space,
        "Tab" => K::Tab,
        "Equal" => K::Equal,
        "Minus" => K::Minus,
        "ArrowUp" => K::ArrowUp,
        "ArrowDown" => K::ArrowDown,
        "ArrowLeft" => K::ArrowLeft,
        "ArrowRight" => K::ArrowRight,
        "F1" => K::F1,
        "F2" => K::F2,
        "F5" => K::F5,
        "F9" => K::F9,
        "F10" => K::F10,
        "F11" => K::F11,
        "Home" => K::Home,
        "PageUp" => K::PageUp,
        "PageDown" => K::PageDown,
        "Backspace" => K::Backspace,
        "BracketLeft" => K::BracketLeft,
        "BracketRight" => K::BracketRight,
        "Semicolon" => K::Semicolon,
        "Quote" => K::Quote,
        "Backslash" => K::Backslash,
        "Backquote" => K::Backquote,
        "Period" => K::Period,
        "Comma" => K::Comma,
        "Slash" => K::Slash,
        _ => return None,
    })
}

impl Script {
    /// Parses a script's text; `path` names it in errors.
    pub fn parse(text: &str, path: &str) -> Result<Self, ScriptError> {
        let mut steps = Vec::new();
        // The `repeat` blocks still open: where each starts and its `break-if-over` steps.
        let mut open: Vec<(usize, Vec<usize>)> = Vec::new();
        // The line of each step, for errors found after the loop.
        let mut lines: Vec<usize> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            lines.push(i + 1);
            let err = |message: String| ScriptError::Parse {
                path: path.to_string(),
                line: i + 1,
                message,
            };
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            let number = |what: &str| {
                rest.parse::<u32>()
                    .map_err(|_| err(format!("`{word}` needs {what}, got `{rest}`")))
            };
            let step = match word {
                "wait" => Step::Wait(number("a number of frames")?),
                "until-human" => Step::UntilHuman(number("a number of frames")?),
                "key" => {
                    Step::Key(key_named(rest).ok_or_else(|| err(format!("unknown key `{rest}`")))?)
                }
                "cursor" => {
                    let xy: Vec<i32> = rest
                        .split_whitespace()
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|_| {
                            err(format!("`cursor` needs two whole numbers, got `{rest}`"))
                        })?;
                    match xy[..] {
                        [x, y] => Step::Cursor(Square::new(x, y)),
                        _ => return Err(err(format!("`cursor` needs X Y, got `{rest}`"))),
                    }
                }
                "type" if !rest.is_empty() => Step::Type(rest.to_string()),
                "type" => return Err(err("`type` needs some text".into())),
                "click" => Step::Click,
                "shot" if !rest.is_empty() => Step::Shot(PathBuf::from(rest)),
                "shot" => return Err(err("`shot` needs a file name".into())),
                "expect" if !rest.is_empty() => Step::Expect(rest.to_string()),
                "expect" => return Err(err("`expect` needs some text".into())),
                "click-bar" if !rest.is_empty() => Step::ClickBar(rest.to_string()),
                "wheel" => Step::Wheel(rest.parse::<i32>().map_err(|_| {
                    err(format!(
                        "`wheel` needs a whole number of notches, got `{rest}`"
                    ))
                })?),
                "click-bar" => return Err(err("`click-bar` needs a button's words".into())),
                "expect-square-px" => Step::ExpectSquarePx(number("a number of pixels")?),
                "expect-active-in-view" => Step::ExpectActiveInView,
                "walk-terms" => Step::WalkTerms,
                "mouse" => {
                    let xy: Vec<f32> = rest
                        .split_whitespace()
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|_| err(format!("`mouse` needs two numbers, got `{rest}`")))?;
                    match xy[..] {
                        [x, y] => Step::Mouse(Vec2::new(x, y)),
                        _ => return Err(err(format!("`mouse` needs X Y, got `{rest}`"))),
                    }
                }
                "hover-term" if !rest.is_empty() => Step::HoverTerm(rest.to_string()),
                "hover-term" => return Err(err("`hover-term` needs a word".into())),
                "expect-tooltip" if !rest.is_empty() => Step::ExpectTooltip(rest.to_string()),
                "expect-tooltip" => return Err(err("`expect-tooltip` needs some text".into())),
                "mouse-square" => {
                    let xy: Vec<i32> = rest
                        .split_whitespace()
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|_| {
                            err(format!(
                                "`mouse-square` needs two whole numbers, got `{rest}`"
                            ))
                        })?;
                    match xy[..] {
                        [x, y] => Step::MouseSquare(Square::new(x, y)),
                        _ => return Err(err(format!("`mouse-square` needs X Y, got `{rest}`"))),
                    }
                }
                "point-foe" => Step::PointFoe,
                "hover-badge" => Step::HoverBadge,
                "mouse-beside-foe" => Step::MouseBesideFoe,
                "click-button" | "click-button-if" if !rest.is_empty() => Step::ClickButton {
                    text: rest.to_string(),
                    optional: word == "click-button-if",
                },
                "click-button" | "click-button-if" => {
                    return Err(err(format!("`{word}` needs a button's words")));
                }
                "until-human-or-over" => Step::UntilHumanOrOver(number("a number of frames")?),
                "repeat" => {
                    open.push((steps.len(), Vec::new()));
                    Step::Repeat {
                        times: number("a number of times")?,
                        end: usize::MAX,
                    }
                }
                "break-if-over" => match open.last_mut() {
                    Some((_, breaks)) => {
                        breaks.push(steps.len());
                        Step::BreakIfOver { end: usize::MAX }
                    }
                    None => return Err(err("`break-if-over` outside a `repeat`".into())),
                },
                "end-repeat" => {
                    let Some((start, breaks)) = open.pop() else {
                        return Err(err("`end-repeat` without its `repeat`".into()));
                    };
                    let end = steps.len();
                    if let Some(Step::Repeat { end: e, .. }) = steps.get_mut(start) {
                        *e = end;
                    }
                    for b in breaks {
                        steps[b] = Step::BreakIfOver { end };
                    }
                    Step::EndRepeat { start }
                }
                "expect-winner" if !rest.is_empty() => Step::ExpectWinner(rest.to_string()),
                "expect-winner" => return Err(err("`expect-winner` needs a side's name".into())),
                "expect-guide-done" => Step::ExpectGuideDone,
                "expect-screen" if !rest.is_empty() => Step::ExpectScreen(rest.to_string()),
                "expect-screen" => return Err(err("`expect-screen` needs a screen's name".into())),
                "quit" => Step::Quit,
                other => return Err(err(format!("unknown step `{other}`"))),
            };
            steps.push(step);
        }
        if let Some((start, _)) = open.first() {
            return Err(ScriptError::Parse {
                path: path.to_string(),
                line: lines[*start],
                message: "this `repeat` has no `end-repeat`".into(),
            });
        }
        Ok(Self { steps })
    }

    /// Reads and parses a script file.
    pub fn load(path: &Path) -> Result<Self, ScriptError> {
        let text = std::fs::read_to_string(path).map_err(|source| ScriptError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, &path.display().to_string())
    }
}

/// Where the running script is: the step, frames left on a wait, a key to release.
#[derive(Resource, Default)]
struct ScriptRun {
    next: usize,
    waiting: u32,
    release: Option<KeyCode>,
    release_click: bool,
    /// Frames left for the current `until-human` step.
    until_left: Option<u32>,
    /// Frames left before quitting (screenshots are written a few frames after the request).
    quitting: Option<u32>,
    /// A `walk-terms` under way: the words left to hover (window position, entry).
    walk: Option<Vec<(Vec2, usize)>>,
    /// The word hovered by the last frame of the walk, checked on this one.
    walk_current: Option<(Vec2, usize)>,
    /// Words of the walk checked so far.
    walk_checked: usize,
    /// The `repeat` blocks under way, innermost last: the times each has still to run.
    loops: Vec<u32>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ScriptRun>()
        .add_systems(Update, run_script_step);
}

/// Frames given to pending screenshots before the app exits.
const QUIT_GRACE_FRAMES: u32 = 20;

fn run_script_step(world: &mut World) {
    let Some(script) = world.resource::<PlayOptions>().script.clone() else {
        return;
    };
    let mut run = world.remove_resource::<ScriptRun>().unwrap_or_default();
    step(world, &script, &mut run);
    world.insert_resource(run);
}

/// Moves the mouse onto the middle of the action bar button whose words contain `text`;
/// false when there is none.
fn point_at_bar_button(world: &mut World, text: &str) -> bool {
    use super::hud::buttons::{BarButton, BarItems};
    let Some(index) = world.get_resource::<BarItems>().and_then(|b| {
        b.items
            .iter()
            .position(|i| i.action.is_some() && i.text.contains(text))
    }) else {
        return false;
    };
    let mut buttons = world.query::<(&BarButton, &bevy::ui::UiGlobalTransform)>();
    let Some(centre) = buttons
        .iter(world)
        .find(|(b, _)| b.0 == index)
        .map(|(_, t)| t.translation)
    else {
        return false;
    };
    set_mouse(world, centre);
    true
}

/// The script moves the pointer: the menus take its next report as a move, even the first.
fn expect_warp(world: &mut World) {
    if let Some(mut motion) = world.get_resource_mut::<super::pointer::PointerMotion>() {
        motion.expect_warp();
    }
}

/// Puts the mouse at a point of the window, in physical pixels.
fn set_mouse(world: &mut World, at: Vec2) {
    expect_warp(world);
    let mut windows = world.query::<&mut Window>();
    if let Some(mut window) = windows.iter_mut(world).next() {
        window.set_physical_cursor_position(Some(at.as_dvec2()));
    }
}

/// One frame of `walk-terms`: checks the word hovered last frame, then hovers the next. True
/// when the walk is over and the script goes on.
fn walk_terms(world: &mut World, run: &mut ScriptRun) -> bool {
    use super::hud::terms::{HoveredTerm, term_spots, tooltip_text};
    let walk = run.walk.get_or_insert_with(|| {
        term_spots(world)
            .into_iter()
            .map(|(at, entry, _)| (at, entry))
            .rev()
            .collect()
    });
    let total = walk.len();
    if total == 0 && run.walk_checked == 0 {
        run.walk = None;
        fail(world, run, "walk-terms: no linked word on screen");
        return false;
    }
    if let Some((_, entry)) = run.walk_current.take() {
        let hovered = world.resource::<HoveredTerm>().0;
        let text = world
            .get_resource::<Session>()
            .and_then(|s| s.battle.rules().glossary.entries().get(entry).cloned())
            .map(|e| e.text);
        let tip = tooltip_text(world);
        let quoted = text.zip(tip).is_some_and(|(t, tip)| tip.contains(&t));
        if hovered != Some(entry) || !quoted {
            run.walk = None;
            let term = |i: Option<usize>| -> String {
                i.and_then(|i| {
                    world
                        .get_resource::<Session>()
                        .and_then(|s| s.battle.rules().glossary.entries().get(i).cloned())
                })
                .map_or_else(|| "nothing".to_string(), |e| format!("\"{}\"", e.term))
            };
            let (want, got) = (term(Some(entry)), term(hovered));
            fail(
                world,
                run,
                &format!(
                    "walk-terms: the link to {want} (entry {entry}) hovered as {got} ({hovered:?}), its text not quoted"
                ),
            );
            return false;
        }
        run.walk_checked += 1;
    }
    match run.walk.as_mut().and_then(Vec::pop) {
        Some((at, entry)) => {
            set_mouse(world, at);
            run.walk_current = Some((at, entry));
            // Checked two frames on: the hover is found on the frame after the move, and
            // this system may run before that frame's hover test.
            run.waiting = 2;
            false
        }
        None => {
            println!(
                "walk-terms: {} linked words, each tooltip checked",
                run.walk_checked
            );
            run.walk = None;
            run.walk_checked = 0;
            true
        }
    }
}

/// Ends the run with exit code 3, saying why.
fn fail(world: &mut World, run: &mut ScriptRun, why: &str) {
    error!("script: {why}");
    world.write_message(AppExit::from_code(3));
    run.quitting = Some(u32::MAX);
}

fn step(world: &mut World, script: &Script, run: &mut ScriptRun) {
    if let Some(k) = run.release.take() {
        k.release(world);
    }
    if std::mem::take(&mut run.release_click) {
        MouseButton::Left.release(world);
    }
    if let Some(left) = &mut run.quitting {
        if *left == 0 {
            world.write_message(AppExit::Success);
        } else {
            *left -= 1;
        }
        return;
    }
    if run.waiting > 0 {
        run.waiting -= 1;
        return;
    }
    let Some(s) = script.steps.get(run.next).cloned() else {
        return;
    };
    match s {
        Step::Wait(n) => run.waiting = n,
        Step::UntilHuman(n) => {
            if !wait_for_a_person(world, run, n, false) {
                return;
            }
        }
        Step::Key(k) => {
            k.press(world);
            run.release = Some(k);
            // Released next frame; the step after waits one more, so pressing the same key
            // twice in a row counts twice.
            run.waiting = 1;
        }
        Step::Type(text) => {
            for ch in text.chars() {
                world.write_message(bevy::input::keyboard::KeyboardInput {
                    key_code: KeyCode::Unidentified(
                        bevy::input::keyboard::NativeKeyCode::Unidentified,
                    ),
                    logical_key: bevy::input::keyboard::Key::Character(ch.to_string().into()),
                    state: bevy::input::ButtonState::Pressed,
                    text: Some(ch.to_string().into()),
                    repeat: false,
                    window: Entity::PLACEHOLDER,
                });
            }
        }
        Step::Cursor(sq) => world.resource_mut::<CursorSquare>().0 = Some(sq),
        Step::Click => {
            MouseButton::Left.press(world);
            run.release_click = true;
            run.waiting = 1;
        }
        Step::Shot(path) => {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            info!("screenshot requested: {}", path.display());
            world
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path));
        }
        Step::Expect(text) => {
            let found = world
                .get_resource_mut::<Session>()
                .is_some_and(|mut s| s.battle.describe_events().iter().any(|l| l.contains(&text)));
            if !found {
                fail(world, run, &format!("no log line contains `{text}`"));
                return;
            }
        }
        Step::ClickBar(text) => {
            if !point_at_bar_button(world, &text) {
                fail(world, run, &format!("no action bar button says `{text}`"));
                return;
            }
            MouseButton::Left.press(world);
            run.release_click = true;
            run.waiting = 1;
        }
        Step::Wheel(n) => {
            for _ in 0..n.unsigned_abs() {
                world.write_message(bevy::input::mouse::MouseWheel {
                    unit: bevy::input::mouse::MouseScrollUnit::Line,
                    x: 0.0,
                    y: n.signum() as f32,
                    window: Entity::PLACEHOLDER,
                    phase: bevy::input::touch::TouchPhase::Moved,
                });
            }
        }
        Step::ExpectSquarePx(n) => {
            let px = super::board::camera::square_px(world);
            if px.is_none_or(|px| px + 0.01 < n as f32) {
                fail(
                    world,
                    run,
                    &format!("squares are drawn {px:?} px wide, not {n}"),
                );
                return;
            }
        }
        Step::ExpectActiveInView => {
            let seen = super::board::camera::actor_in_view(world);
            if seen != Some(true) {
                fail(
                    world,
                    run,
                    &format!("the unit that acts is not in view ({seen:?})"),
                );
                return;
            }
        }
        Step::Mouse(at) => {
            set_logical_mouse(world, at);
            run.waiting = 1;
        }
        Step::HoverTerm(word) => {
            let spot = super::hud::terms::term_spots(world)
                .into_iter()
                .find(|(_, _, w)| *w == word);
            let Some((at, _, _)) = spot else {
                fail(world, run, &format!("no linked word `{word}` on screen"));
                return;
            };
            set_mouse(world, at);
            // The hover is found on the next frame (or the one after, by system order).
            run.waiting = 2;
        }
        Step::ExpectTooltip(text) => {
            let shown = super::hud::terms::tooltip_text(world);
            if !shown.as_deref().is_some_and(|t| t.contains(&text)) {
                fail(
                    world,
                    run,
                    &format!("the tooltip does not say `{text}` ({shown:?})"),
                );
                return;
            }
        }
        Step::WalkTerms => {
            if !walk_terms(world, run) {
                return;
            }
        }
        Step::MouseSquare(sq) => {
            let Some(at) = super::board::camera::square_on_screen(world, sq) else {
                fail(world, run, &format!("square {sq} is not on screen"));
                return;
            };
            set_logical_mouse(world, at);
            run.waiting = 1;
        }
        Step::PointFoe => {
            let Some(at) = nearest_foe(world) else {
                fail(world, run, "no opponent of a person's unit is on screen");
                return;
            };
            set_logical_mouse(world, at);
            run.waiting = 1;
        }
        Step::MouseBesideFoe => {
            let Some(sq) = square_beside_foe(world) else {
                fail(world, run, "no opponent can be reached with a move");
                return;
            };
            let Some(at) = super::board::camera::square_on_screen(world, sq) else {
                fail(world, run, &format!("square {sq} is not on screen"));
                return;
            };
            set_logical_mouse(world, at);
            run.waiting = 1;
        }
        Step::HoverBadge => {
            let Some((at, _)) = super::board::badge_spots(world).into_iter().next() else {
                fail(world, run, "no condition icon is shown on the board");
                return;
            };
            set_logical_mouse(world, at);
            // The icon is found on the next frame, the tooltip drawn on the one after.
            run.waiting = 3;
        }
        Step::ClickButton { text, optional } => match button_saying(world, &text) {
            Some(at) => {
                set_mouse(world, at);
                MouseButton::Left.press(world);
                run.release_click = true;
                run.waiting = 1;
            }
            None if optional => {}
            None => {
                fail(world, run, &format!("no button on screen says `{text}`"));
                return;
            }
        },
        Step::UntilHumanOrOver(n) => {
            if !wait_for_a_person(world, run, n, true) {
                return;
            }
        }
        Step::Repeat { times, end } => {
            if times == 0 {
                run.next = end + 1;
                return;
            }
            run.loops.push(times);
        }
        Step::EndRepeat { start } => {
            if let Some(left) = run.loops.last_mut() {
                *left -= 1;
                if *left > 0 {
                    run.next = start + 1;
                    return;
                }
            }
            run.loops.pop();
        }
        Step::BreakIfOver { end } => {
            if battle_over(world) {
                run.loops.pop();
                run.next = end + 1;
                return;
            }
        }
        Step::ExpectWinner(name) => {
            let winner = world.get_resource::<Session>().and_then(|s| {
                let side = s.battle.outcome()?.winner?;
                s.loaded
                    .scenario
                    .sides
                    .get(usize::from(side.0))
                    .map(|d| d.name.clone())
            });
            if winner.as_deref() != Some(name.as_str()) {
                fail(
                    world,
                    run,
                    &format!("`{name}` did not win (winner: {winner:?})"),
                );
                return;
            }
        }
        Step::ExpectGuideDone => {
            let run_guide = world.get_resource::<super::guide::GuideRun>();
            let done = run_guide
                .map(|g| g.progress.done.clone())
                .unwrap_or_default();
            if done.is_empty() || done.iter().any(|d| !d) {
                fail(
                    world,
                    run,
                    &format!("the guide's prompts learned: {done:?}"),
                );
                return;
            }
        }
        Step::ExpectScreen(name) => {
            let shown = world
                .get_resource::<State<super::Screen>>()
                .map(|s| format!("{:?}", s.get()));
            if shown.as_deref() != Some(name.as_str()) {
                fail(world, run, &format!("the screen is {shown:?}, not {name}"));
                return;
            }
        }
        Step::Quit => {
            run.quitting = Some(QUIT_GRACE_FRAMES);
        }
    }
    run.next += 1;
}

/// One frame of `until-human` (or, with `or_over`, `until-human-or-over`): true once a
/// person must act (or the battle is over); fails the run after `n` frames of waiting.
fn wait_for_a_person(world: &mut World, run: &mut ScriptRun, n: u32, or_over: bool) -> bool {
    let ready = world.get_resource_mut::<Session>().is_some_and(|mut s| {
        (or_over && s.battle.outcome().is_some())
            || (s.human_to_act().is_some() && s.handoff.is_none())
    });
    if ready {
        run.until_left = None;
        return true;
    }
    let left = run.until_left.get_or_insert(n);
    if *left == 0 {
        fail(
            world,
            run,
            &format!("no person had to act within {n} frames"),
        );
    } else {
        *left -= 1;
    }
    false
}

/// Whether the battle on screen is over.
fn battle_over(world: &World) -> bool {
    world
        .get_resource::<Session>()
        .is_some_and(|s| s.battle.outcome().is_some())
}

/// Puts the mouse at a point of the window, in logical pixels.
fn set_logical_mouse(world: &mut World, at: Vec2) {
    expect_warp(world);
    let mut windows = world.query::<&mut Window>();
    if let Some(mut window) = windows.iter_mut(world).next() {
        window.set_cursor_position(Some(at));
    }
}

/// Where the nearest opponent of the person's unit asked to act is drawn (logical pixels).
fn nearest_foe(world: &mut World) -> Option<Vec2> {
    let foe = {
        let mut session = world.get_resource_mut::<Session>()?;
        let (who, _, _) = session.human_to_act()?;
        let fighters = session.fighters();
        let me = fighters.iter().find(|f| f.id == who)?.clone();
        fighters
            .iter()
            .filter(|f| f.side != me.side && f.position.is_some() && !f.defeated())
            .min_by_key(|f| me.distance_to(f).unwrap_or(u32::MAX))?
            .id
    };
    super::board::camera::unit_on_screen(world, foe)
}

/// Where the person's unit asked to act should move to stand beside its nearest opponent:
/// its own square when it already does, else the reachable square beside that opponent with
/// the shortest path.
fn square_beside_foe(world: &mut World) -> Option<Square> {
    let mut session = world.get_resource_mut::<Session>()?;
    let (who, _, _) = session.human_to_act()?;
    let fighters = session.fighters();
    let me = fighters.iter().find(|f| f.id == who)?.clone();
    let foe = fighters
        .iter()
        .filter(|f| f.side != me.side && f.position.is_some() && !f.defeated())
        .min_by_key(|f| me.distance_to(f).unwrap_or(u32::MAX))?;
    if me.distance_to(foe) == Some(1) {
        return me.position;
    }
    let around = crate::grid::footprint(foe.position?, foe.size.squares)
        .into_iter()
        .flat_map(|s| {
            (-1..=1).flat_map(move |dx| (-1..=1).map(move |dy| Square::new(s.x + dx, s.y + dy)))
        })
        .collect::<Vec<Square>>();
    around
        .into_iter()
        .filter_map(|sq| {
            let path = session.battle.path_to(who, sq, false)?;
            Some((path.len(), sq))
        })
        .min_by_key(|(len, sq)| (*len, sq.y, sq.x))
        .map(|(_, sq)| sq)
}

/// The centre (physical pixels) of a shown button whose words contain `text`.
fn button_saying(world: &mut World, text: &str) -> Option<Vec2> {
    let mut buttons = world.query_filtered::<(
        Entity,
        &bevy::ui::ComputedNode,
        &bevy::ui::UiGlobalTransform,
    ), With<Button>>();
    let shown: Vec<(Entity, Vec2)> = buttons
        .iter(world)
        .filter(|(_, node, _)| node.size().x > 0.0 && node.size().y > 0.0)
        .map(|(e, _, t)| (e, t.translation))
        .collect();
    let mut texts = world.query::<&Text>();
    let mut children = world.query::<&Children>();
    shown.into_iter().find_map(|(button, at)| {
        let mut stack = vec![button];
        while let Some(e) = stack.pop() {
            if texts.get(world, e).is_ok_and(|t| t.0.contains(text)) {
                return Some(at);
            }
            if let Ok(c) = children.get(world, e) {
                stack.extend(c.iter());
            }
        }
        None
    })
}
