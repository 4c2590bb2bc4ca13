//! `--frame-stats N`: the game measures its own frame times (p50/p95/p99 over N frames) and the
//! time from start to its first battle frame, prints them and quits. The bare Bevy app in
//! `examples/bare_sprites.rs` uses the same plugin, so both are measured the same way.
//!
//! The first frame is the first one **drawn in full**: Bevy compiles render pipelines on other
//! threads and skips whatever waits for one, so the first frames after content appears may
//! show part of it or nothing. The clock asks the renderer's pipeline cache (in its extract
//! step) whether anything still waits, and takes the first frame rendered with nothing waiting.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::{ExtractSchedule, MainWorld, RenderApp};

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
    /// Render pipelines still compiling, as the renderer's last extract step saw them (`None`
    /// before the first, or without a renderer).
    waiting: Option<usize>,
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
            waiting: None,
            last: None,
            first_frame: None,
            samples: Vec::with_capacity(frames),
        }
    }
}

impl FrameStats {
    /// Counts from now on, for content that appears in the frame being run (the game's battle
    /// screen, opened by its `OnEnter`): that frame is the first that holds it.
    pub fn open_in_this_frame(&mut self) {
        self.open = true;
        self.seen = 1;
    }

    /// Counts from the app's first frame, for content spawned at start-up (the bare app): the
    /// first frame holds it.
    pub fn open_from_the_start(mut self) -> Self {
        self.open = true;
        self
    }
}

/// Adds the frame clock; the app inserts a [`FrameStats`] resource to use it.
pub fn plugin(app: &mut App) {
    app.add_systems(First, time_frames.run_if(resource_exists::<FrameStats>));
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render.add_systems(ExtractSchedule, count_waiting_pipelines);
    }
}

/// Runs in the renderer's extract step, at the end of each main frame: the pipeline cache then
/// holds what the renderer's last frame compiled, so no pipeline waiting means that frame drew
/// everything it had.
fn count_waiting_pipelines(mut main: ResMut<MainWorld>, cache: Res<PipelineCache>) {
    if let Some(mut stats) = main.get_resource_mut::<FrameStats>() {
        stats.waiting = Some(cache.waiting_pipelines().count());
    }
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
    // With pipelined rendering, the renderer draws frame N while the main app runs frame N+1,
    // so at the start of frame N+1 frame N-1 has been drawn; the extract step at the end of
    // frame N saw what frame N-1's drawing had compiled. The content appeared in frame 1 (seen
    // 1), so frame N-1 holds it from seen 3 on.
    if stats.first_frame.is_none() && stats.seen >= 3 && stats.waiting == Some(0) {
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
/// … ms after start; S sprites` (S: sprites in the world, for a bare app with as many). When
/// no frame was drawn with every pipeline ready, it says so instead of a time.
fn report(stats: &mut FrameStats, sprites: usize) -> String {
    let n = stats.samples.len();
    let mean = stats.samples.iter().sum::<Duration>() / n.max(1) as u32;
    stats.samples.sort_unstable();
    let at = |q: f64| crate::percentile::nearest_rank(&stats.samples, q);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let first = stats.first_frame.map_or_else(
        || "first frame not drawn in full (a render pipeline was still compiling)".to_string(),
        |d| format!("first frame {:.0} ms after start", ms(d)),
    );
    format!(
        "{}: {n} frames: p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, mean {:.2} ms; {first}; {sprites} sprites",
        stats.label,
        ms(at(0.50)),
        ms(at(0.95)),
        ms(at(0.99)),
        ms(mean),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An app with the frame clock alone and a bare app's stats; no renderer, so the test sets
    /// what its extract step would have seen.
    fn clock() -> App {
        let mut app = App::new();
        app.add_plugins(plugin)
            .insert_resource(FrameStats::new("test", 100, 0).open_from_the_start());
        app
    }

    fn waiting(app: &mut App, n: usize) {
        app.world_mut().resource_mut::<FrameStats>().waiting = Some(n);
    }

    fn first_frame(app: &App) -> Option<Duration> {
        app.world().resource::<FrameStats>().first_frame
    }

    #[test]
    fn frame_stats_first_frame_waits_for_every_pipeline() {
        let mut app = clock();
        app.update();
        waiting(&mut app, 0);
        app.update();
        // Frame 2 starts: frame 1 may not be drawn yet, whatever the cache says.
        assert_eq!(first_frame(&app), None);
        waiting(&mut app, 3);
        app.update();
        app.update();
        assert_eq!(first_frame(&app), None, "pipelines still compiling");
        waiting(&mut app, 0);
        app.update();
        assert!(first_frame(&app).is_some(), "drawn in full from here");
    }

    #[test]
    fn frame_stats_without_a_renderer_never_claims_a_first_frame() {
        let mut app = clock();
        for _ in 0..5 {
            app.update();
        }
        assert_eq!(first_frame(&app), None);
    }

    /// A report never prints a made-up time: with no frame drawn in full it says so, and the
    /// time is printed only when there is one.
    #[test]
    fn frame_stats_report_says_when_no_frame_was_drawn_in_full() {
        let mut stats = FrameStats::new("game", 2, 0);
        stats.samples = vec![Duration::from_millis(20), Duration::from_millis(30)];
        let line = report(&mut stats, 4);
        assert!(line.contains("first frame not drawn in full"), "{line}");
        assert!(!line.contains("after start"), "{line}");
        stats.first_frame = Some(Duration::from_millis(640));
        let line = report(&mut stats, 4);
        assert!(
            line.contains("; first frame 640 ms after start; 4 sprites"),
            "{line}"
        );
    }
}
