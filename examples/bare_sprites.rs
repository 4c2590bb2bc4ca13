//! The yardstick for the game's frame times: a bare Bevy 2D app in the same window size with
//! as many sprites as a battle board, measured by the same `--frame-stats` plugin. Run it with
//! the same profile as the game and compare in one run (`scripts/frame-ratios.sh`):
//!
//!     cargo run --example bare_sprites -- --sprites 64 --frames 300 [--spin] [--no-msaa]
//!
//! `--spin` turns every sprite a little each frame (a busy board); without it nothing moves
//! (an idle board). `--no-msaa` sets the camera up as the game's (no multisampling); without
//! it the camera keeps Bevy's default 4x MSAA.

use bevy::prelude::*;
use gridclash::gui::frame_stats::{self, FrameStats};

/// Sprites, frames to measure, whether they turn, and whether the camera multisamples.
struct Args {
    sprites: usize,
    frames: usize,
    spin: bool,
    msaa: bool,
}

fn args() -> Result<Args, String> {
    let mut out = Args {
        sprites: 64,
        frames: 300,
        spin: false,
        msaa: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut number = |name: &str| -> Result<usize, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match a.as_str() {
            "--sprites" => out.sprites = number("--sprites")?,
            "--frames" => out.frames = number("--frames")?,
            "--spin" => out.spin = true,
            "--no-msaa" => out.msaa = false,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(out)
}

/// Marks the sprites that turn.
#[derive(Component)]
struct Spin;

fn main() -> std::process::ExitCode {
    frame_stats::mark_start();
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bare_sprites: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let mut app = App::new();
    app.add_plugins(gridclash::gui::window_plugins("bare sprites"))
        .add_plugins(frame_stats::plugin)
        .insert_resource(
            FrameStats::new(
                if args.spin {
                    "bare, spinning"
                } else {
                    "bare, still"
                },
                args.frames,
                30,
            )
            .open_from_the_start(),
        )
        .add_systems(Startup, spawn_sprites(args.sprites, args.spin, args.msaa));
    if args.spin {
        app.add_systems(Update, spin);
    }
    match app.run() {
        AppExit::Success => std::process::ExitCode::SUCCESS,
        AppExit::Error(code) => std::process::ExitCode::from(code.get()),
    }
}

/// A camera and `n` coloured squares in a grid filling the window.
fn spawn_sprites(n: usize, spin: bool, msaa: bool) -> impl Fn(Commands) {
    move |mut commands: Commands| {
        let camera = commands.spawn(Camera2d).id();
        if !msaa {
            commands.entity(camera).insert(Msaa::Off);
        }
        let across = (n as f32).sqrt().ceil().max(1.0) as usize;
        let step = 680.0 / across as f32;
        for i in 0..n {
            let (x, y) = ((i % across) as f32, (i / across) as f32);
            let colour = Color::hsl(360.0 * i as f32 / n.max(1) as f32, 0.6, 0.5);
            let mut e = commands.spawn((
                Sprite::from_color(colour, Vec2::splat(step * 0.8)),
                Transform::from_xyz(
                    (x - across as f32 / 2.0) * step,
                    (y - across as f32 / 2.0) * step,
                    0.0,
                ),
            ));
            if spin {
                e.insert(Spin);
            }
        }
    }
}

fn spin(time: Res<Time>, mut q: Query<&mut Transform, With<Spin>>) {
    for mut t in &mut q {
        t.rotate_z(time.delta_secs());
    }
}
