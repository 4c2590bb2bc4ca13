//! The desktop game (cargo feature `gui`): screens, the board, the HUD and input, on top of
//! the headless rules. It reads the battle and sends commands; it never changes a component.
//!
//! [`logic_plugin`] holds everything that runs without a window (screen states, input
//! actions, the battle controls, title and end screens), so headless app tests drive it;
//! [`run`] adds the window, the tilemap renderer and the drawing systems.

pub mod art;
pub mod board;
pub mod control;
pub mod end;
pub mod hud;
pub mod input;
pub mod palette;
pub mod script;
pub mod session;
pub mod title;

use bevy::prelude::*;
use bevy::window::WindowResolution;

pub use session::{BattleSpec, Session, SideControl};

/// The screens of the game.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    #[default]
    Title,
    Battle,
    End,
}

/// Player settings the screens read.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Settings {
    /// UI scale, 1.0 to 2.0.
    pub ui_scale: f32,
    /// Sides in the Okabe-Ito colour-blind safe colours instead of the scenario's.
    pub colour_blind: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            colour_blind: false,
        }
    }
}

/// How the game was started: the title screen, or straight into a battle, optionally driven
/// by a script of inputs that saves screenshots.
#[derive(Resource, Debug, Clone, Default)]
pub struct PlayOptions {
    pub seed: u64,
    /// Start straight in this battle instead of the title screen.
    pub battle: Option<BattleSpec>,
    /// A script of inputs and screenshots (see [`script`]).
    pub script: Option<script::Script>,
    /// Seconds between the computer's commands.
    pub ai_pace: Option<f32>,
}

/// Everything that works without a window: what the app tests use.
pub fn logic_plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<Settings>()
        .add_plugins((input::plugin, control::plugin, title::plugin, end::plugin))
        .add_systems(Startup, open_first_screen);
}

fn open_first_screen(
    mut commands: Commands,
    options: Res<PlayOptions>,
    mut next: ResMut<NextState<Screen>>,
    mut pace: ResMut<control::Pace>,
) {
    if let Some(p) = options.ai_pace {
        pace.seconds_per_command = p;
    }
    if let Some(spec) = &options.battle {
        match Session::start(spec.clone()) {
            Ok(session) => {
                commands.insert_resource(session);
                next.set(Screen::Battle);
            }
            Err(e) => error!("could not start the battle: {e}"),
        }
    }
}

/// Opens the game window and runs until the player quits.
pub fn run(options: PlayOptions) -> AppExit {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Gridclash".into(),
                    resolution: WindowResolution::new(1280, 720),
                    ..default()
                }),
                ..default()
            })
            .set(ImagePlugin::default_nearest()),
    )
    .add_plugins(bevy_ecs_tilemap::TilemapPlugin)
    .insert_resource(ClearColor(palette::BACKDROP))
    .insert_resource(options.clone())
    .add_plugins(logic_plugin)
    .add_plugins((board::plugin, hud::plugin, script::plugin));
    app.run()
}
