//! The desktop game (cargo feature `gui`): screens, the board, the HUD and input, on top of
//! the headless rules. It reads the battle and sends commands; it never changes a component.
//!
//! [`logic_plugin`] holds everything that runs without a window (screen states, input
//! actions, the battle controls, title and end screens), so headless app tests drive it;
//! [`run`] adds the window, the tilemap renderer and the drawing systems.

pub mod aiming;
pub mod art;
pub mod balance_meter;
pub mod board;
pub mod builder;
pub mod character_editor;
pub mod control;
pub mod credits;
pub mod end;
pub mod fonts;
pub mod frame_stats;
pub mod guide;
pub mod help;
pub mod hud;
pub mod icons;
pub mod input;
pub mod load_screen;
pub mod map_editor;
pub mod mouse;
pub mod pace;
pub mod page;
pub mod palette;
pub mod pointer;
pub mod redraw;
pub mod script;
pub mod session;
pub mod settings;
pub mod settings_screen;
pub mod sound;
pub mod threat;
pub mod title;
pub mod view;
pub mod window;

use bevy::prelude::*;

pub use session::{BattleSpec, Session, SideControl};
pub use settings::Settings;

/// The screens of the game.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    #[default]
    Title,
    Settings,
    Battle,
    End,
    /// The save and replay list.
    Load,
    /// Who made the game, the rules it plays and the licences of what it is built from.
    Credits,
    /// The skirmish builder: ruleset, field, sides and units, saved as a scenario.
    Builder,
    /// The character editor, reached from the builder.
    CharacterEditor,
    /// The map editor, reached from the builder.
    MapEditor,
}

/// Where saves and replays are read and written (see [`crate::save::slots`]).
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct DataDir(pub std::path::PathBuf);

impl Default for DataDir {
    fn default() -> Self {
        Self(crate::save::slots::data_dir())
    }
}

/// How the game was started: the title screen, or straight into a battle, optionally driven
/// by a script of inputs that saves screenshots.
#[derive(Resource, Debug, Clone, Default)]
pub struct PlayOptions {
    /// The seed of the first battle started from the title screen.
    pub seed: u64,
    /// Start straight in this battle instead of the title screen.
    pub battle: Option<BattleSpec>,
    /// A script of inputs and screenshots (see [`script`]).
    pub script: Option<script::Script>,
    /// Seconds between the computer's commands, instead of the settings' pace.
    pub ai_pace: Option<f32>,
    /// Use the Okabe-Ito colour-blind safe palette, whatever the settings say.
    pub colour_blind: bool,
    /// Start by continuing this save file.
    pub load: Option<std::path::PathBuf>,
    /// Load it even though its ruleset or scenario data changed (the player was told).
    pub load_anyway: bool,
    /// Start by watching this replay file.
    pub replay: Option<std::path::PathBuf>,
    /// Where saves and replays live, instead of the default data directory.
    pub data_dir: Option<std::path::PathBuf>,
    /// Measure this many battle frames, print their times and quit (`--frame-stats N`).
    pub frame_stats: Option<usize>,
    /// Open the window at this size in pixels (`--window WxH`), whatever the settings say.
    pub window: Option<(u32, u32)>,
}

/// The root of a full-window menu screen (title, settings, end): a centred column on the
/// backdrop, despawned when `screen` is left.
pub fn screen_root(name: &'static str, screen: Screen, row_gap: f32) -> impl Bundle {
    (
        Name::new(name),
        DespawnOnExit(screen),
        Node {
            width: percent(100),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: px(row_gap),
            ..default()
        },
        BackgroundColor(palette::BACKDROP),
    )
}

/// The first of a long menu's rows to show when `visible` fit: the highlighted `row` in view
/// with rows around it, the list scrolling with it.
pub fn first_shown(row: usize, rows: usize, visible: usize) -> usize {
    row.saturating_sub(visible / 2)
        .min(rows.saturating_sub(visible))
}

/// A menu screen's page (the builder and its editors): the backdrop, and side by side from the
/// top a column `width` wide headed by `heading`, filled by `column`, and whatever `beside`
/// puts to its right. It is despawned when `screen` is left.
pub fn spawn_menu_page(
    commands: &mut Commands,
    screen: Screen,
    heading: &str,
    width: f32,
    column: impl FnOnce(&mut bevy::ecs::hierarchy::ChildSpawnerCommands),
    beside: impl FnOnce(&mut bevy::ecs::hierarchy::ChildSpawnerCommands),
) {
    commands
        .spawn((
            Name::new(heading.to_string()),
            DespawnOnExit(screen),
            Node {
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Row,
                justify_content: JustifyContent::Center,
                // From the top: rows that come and go must not move the highlight.
                align_items: AlignItems::FlexStart,
                padding: UiRect::top(px(12)),
                column_gap: px(24),
                ..default()
            },
            BackgroundColor(palette::BACKDROP),
        ))
        .with_children(|root| {
            root.spawn(Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(2),
                width: px(width),
                ..default()
            })
            .with_children(|col| {
                col.spawn((
                    Text::new(heading.to_string()),
                    fonts::heading(30.0),
                    TextColor(palette::ACCENT),
                ));
                column(col);
            });
            beside(root);
        });
}

/// One clickable row of a menu screen (title, load): a button with a text child, its
/// highlight drawn as a border by the screen's own system.
pub fn spawn_menu_row(
    parent: &mut bevy::ecs::hierarchy::ChildSpawnerCommands,
    marker: impl Component,
    width: f32,
    font_size: f32,
) {
    spawn_menu_row_padded(parent, marker, width, font_size, 5.0);
}

/// A menu row with `pad_y` pixels above and below its text: the title screen's are tighter,
/// so a four-side battle's twelve rows fit a 720-line window.
pub fn spawn_menu_row_padded(
    parent: &mut bevy::ecs::hierarchy::ChildSpawnerCommands,
    marker: impl Component,
    width: f32,
    font_size: f32,
    pad_y: f32,
) {
    parent
        .spawn((
            marker,
            Button,
            Node {
                width: px(width),
                max_width: percent(96),
                padding: UiRect::axes(px(14), px(pad_y)),
                border: UiRect::all(px(2)),
                ..default()
            },
            BorderColor::all(Color::NONE),
            BackgroundColor(palette::PANEL),
        ))
        .with_child((
            Text::new(""),
            TextFont::from_font_size(font_size),
            TextColor(palette::TEXT),
        ));
}

/// Shows one menu row (title, builder, load): hidden without a label, bordered when it is
/// the highlighted one, its text written only when it changed, since writing a text makes
/// bevy_ui lay the screen out again.
pub fn show_menu_row<F: bevy::ecs::query::QueryFilter>(
    label: Option<&str>,
    highlighted: bool,
    (children, node, border): (&Children, &mut Node, &mut BorderColor),
    texts: &mut Query<&mut Text, F>,
) {
    let display = if label.is_some() {
        Display::Flex
    } else {
        Display::None
    };
    if node.display != display {
        node.display = display;
    }
    *border = BorderColor::all(if highlighted {
        palette::ACCENT
    } else {
        Color::NONE
    });
    if let Some(label) = label
        && let Some(child) = children.first()
        && let Ok(mut text) = texts.get_mut(*child)
        && text.0 != label
    {
        text.0 = label.to_string();
    }
}

/// What the pointer did to a menu row: moved onto it, which moves the highlight there, or
/// pressed it, which also runs it. A pointer resting where a row appears, or found resting
/// there as the window opens ([`pointer::PointerMotion`]), does nothing, so it never steals
/// the keyboard's highlight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowPointer {
    /// The pointer moved onto the row: highlight it.
    Hover,
    /// The row was clicked: highlight it and run it.
    Press,
}

impl RowPointer {
    /// The row's `interaction` this frame, given whether the pointer really moved.
    pub fn of(interaction: Interaction, pointer_moved: bool) -> Option<Self> {
        match interaction {
            Interaction::Pressed => Some(Self::Press),
            Interaction::Hovered if pointer_moved => Some(Self::Hover),
            Interaction::Hovered | Interaction::None => None,
        }
    }
}

/// Everything that works without a window: what the app tests use. The settings file is
/// read unless a `Settings` resource is already there (tests insert their own).
pub fn logic_plugin(app: &mut App) {
    if !app.world().contains_resource::<Settings>() {
        app.add_systems(PreStartup, settings::load_settings);
    }
    if !app.world().contains_resource::<DataDir>() {
        let dir = app
            .world()
            .get_resource::<PlayOptions>()
            .and_then(|o| o.data_dir.clone())
            .map_or_else(DataDir::default, DataDir);
        app.insert_resource(dir);
    }
    app.init_state::<Screen>()
        .init_resource::<UiScale>()
        .add_plugins((
            input::plugin,
            pointer::plugin,
            control::plugin,
            redraw::plugin,
            title::plugin,
            balance_meter::plugin,
            (
                builder::plugin,
                character_editor::plugin,
                map_editor::plugin,
            ),
            settings_screen::plugin,
            end::plugin,
            load_screen::plugin,
            threat::plugin,
            help::logic_plugin,
            credits::plugin,
            hud::logic_plugin,
            guide::logic_plugin,
        ))
        .add_systems(Startup, open_first_screen)
        .add_systems(PreUpdate, (control::apply_settings, control::fit_ui_scale));
}

fn open_first_screen(
    mut commands: Commands,
    options: Res<PlayOptions>,
    mut next: ResMut<NextState<Screen>>,
) {
    let started = if let Some(path) = &options.replay {
        Some(Session::watch(path))
    } else if let Some(path) = &options.load {
        Some(Session::load(path, options.load_anyway))
    } else {
        options.battle.clone().map(Session::start)
    };
    match started {
        Some(Ok(session)) => {
            commands.insert_resource(session);
            next.set(Screen::Battle);
        }
        Some(Err(e)) => error!("could not start the battle: {e}"),
        None => {}
    }
}

/// Frames left out before `--frame-stats` counts: the first frames of a screen build its
/// text and pipelines.
const FRAME_STATS_WARM_UP: usize = 30;

/// `--frame-stats` counts battle frames only, from the first.
fn open_frame_stats(mut stats: ResMut<frame_stats::FrameStats>) {
    stats.open_in_this_frame();
}

/// Bevy's plugins as the game's window uses them: 1280×720, nearest-pixel sampling, and logs
/// at INFO in debug builds and WARN in release. The bare app the game's frames are measured
/// against (`examples/bare_sprites.rs`) opens its window with the same.
pub fn window_plugins(title: &str) -> bevy::app::PluginGroupBuilder {
    window_plugins_with(window::default_window(title))
}

/// Bevy's plugins as [`window_plugins`] sets them, opening `window`.
pub fn window_plugins_with(window: Window) -> bevy::app::PluginGroupBuilder {
    DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(window),
            ..default()
        })
        .set(ImagePlugin::default_nearest())
        .set(bevy::log::LogPlugin {
            // A player's build says only what went wrong (lower levels are compiled out).
            level: if cfg!(debug_assertions) {
                bevy::log::Level::INFO
            } else {
                bevy::log::Level::WARN
            },
            ..default()
        })
}

/// Opens the game window and runs until the player quits. A player's game opens its window
/// as the settings remember it; a scripted or measured run always opens the default one.
pub fn run(options: PlayOptions) -> AppExit {
    let remember = options.script.is_none() && options.frame_stats.is_none();
    let mut window = match settings::settings_path().map(|p| settings::load(&p)) {
        Some(Ok(s)) if remember => window::remembered_window("Gridclash", &s),
        _ => window::default_window("Gridclash"),
    };
    if let Some((w, h)) = options.window {
        window.resolution = bevy::window::WindowResolution::new(w, h);
    }
    let mut app = App::new();
    app.add_plugins(window_plugins_with(window))
        .add_plugins(fonts::plugin)
        .insert_resource(window::RememberWindow(remember))
        .add_plugins(bevy_ecs_tilemap::TilemapPlugin)
        .insert_resource(ClearColor(palette::BACKDROP))
        .insert_resource(options.clone())
        .add_plugins(logic_plugin)
        .add_plugins((
            board::plugin,
            hud::plugin,
            sound::plugin,
            script::plugin,
            window::plugin,
            help::plugin,
            guide::plugin,
            icons::plugin,
        ));
    if let Some(frames) = options.frame_stats {
        app.add_plugins(frame_stats::plugin)
            .insert_resource(frame_stats::FrameStats::new(
                "battle",
                frames,
                FRAME_STATS_WARM_UP,
            ))
            .add_systems(OnEnter(Screen::Battle), open_frame_stats);
    }
    app.run()
}
