//! `--frame-stats N`: the game measures its own frame times (p50/p95/p99 over N frames) and the
//! time from start to its first battle frame, prints them and quits. The bare Bevy app in
//! `examples/bare_sprites.rs` uses the same plugin, so both are measured the same way.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bevy::prelude::*;

/// When the process started, as near as the program can tell: set first thing in `main`.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Marks the start the first-frame time is counted from; later calls change nothing.
pub fn mark_start() {
    STARTED.get_or_init(Instant::now);
}

/// What is being measured and what has been so far.
#[derive(Resource, Debug, Clone)]
pub struct FrameStats {
    /// Frames to measure.
    pub frames: usize,
    /// Frames left out first, once counting may start (shader and pipeline set-up).
    pub warm_up: usize,
    /// Counting may start: see [`FrameStats::open_in_this_frame`] and
    /// [`FrameStats::open_from_the_start`].
    open: bool,
    /// What to call the run in the printed line.
    pub label: String,
    seen: usize,
    last: Option<Instant>,
    first_frame: Option<Duration>,
    samples: Vec<Duration>,
}

impl FrameStats {
    /// Measures `frames` frames after `warm_up` frames.
    pub fn new(label: impl Into<String>, frames: usize, warm_up: usize) -> Self {
        Self {
            frames,
            warm_up,
            open: false,
            label: label.into(),
            seen: 0,
            last: None,
            first_frame: None,
            samples: Vec::with_capacity(frames),
        }
    }
}

impl FrameStats {
    /// Counts from now on, for content that appears in the frame being run (the game's battle
    /// screen, opened by its `OnEnter`): that frame is drawn by the next frame's start.
    pub fn open_in_this_frame(&mut self) {
        self.open = true;
        self.seen = 1;
    }

    /// Counts from the app's first frame, for content spawned at start-up (the bare app): it is
    /// drawn by the second frame's start.
    pub fn open_from_the_start(mut self) -> Self {
        self.open = true;
        self
    }
}

/// Adds the frame clock; the app inserts a [`FrameStats`] resource to use it.
pub fn plugin(app: &mut App) {
    app.add_systems(First, time_frames.run_if(resource_exists::<FrameStats>));
}

/// Runs at the start of every frame, so the time since the last start is one whole frame,
/// its drawing included.
fn time_frames(
    mut stats: ResMut<FrameStats>,
    mut exit: MessageWriter<AppExit>,
    sprites: Query<(), With<Sprite>>,
) {
    if !stats.open {
        return;
    }
    let now = Instant::now();
    stats.seen += 1;
    // The frame that showed the content first has been drawn.
    if stats.seen == 2 {
        let start = *STARTED.get_or_init(Instant::now);
        stats.first_frame = Some(now - start);
    }
    if let Some(last) = stats.last
        && stats.seen > stats.warm_up + 1
    {
        stats.samples.push(now - last);
    }
    stats.last = Some(now);
    if stats.samples.len() >= stats.frames {
        println!("{}", report(&mut stats, sprites.iter().count()));
        exit.write(AppExit::Success);
    }
}

/// The printed line: `LABEL: N frames: p50 … ms, p95 … ms, p99 … ms, mean … ms; first frame
/// … ms after start; S sprites` (S: sprites in the world, for a bare app with as many).
fn report(stats: &mut FrameStats, sprites: usize) -> String {
    let n = stats.samples.len();
    let mean = stats.samples.iter().sum::<Duration>() / n.max(1) as u32;
    stats.samples.sort_unstable();
    let at = |q: f64| crate::percentile::nearest_rank(&stats.samples, q);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "{}: {n} frames: p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, mean {:.2} ms; first frame {:.0} ms after start; {sprites} sprites",
        stats.label,
        ms(at(0.50)),
        ms(at(0.95)),
        ms(at(0.99)),
        ms(mean),
        stats.first_frame.map_or(0.0, ms),
    )
}
