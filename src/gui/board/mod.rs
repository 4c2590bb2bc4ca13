//! The battlefield on screen: the terrain tilemap (`bevy_ecs_tilemap`), the overlay layer for
//! move ranges, paths and area templates, the combatants' tokens, floating damage text, the
//! camera (keys, mouse drag and wheel, gamepad stick) and the square under the mouse.

pub mod backdrop;
mod badges;
pub mod camera;
mod fx;
mod overlay;

pub use badges::{HoveredBadge, badge_spots};
pub use camera::{BoardView, MIN_SQUARE_PX};

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use super::art::{Art, TILE_PX, TokenShape, make_art};
use super::input::CursorSquare;
use super::session::Session;
use bevy::ui::{ComputedNode, UiGlobalTransform};

use super::{Screen, Settings, palette};
use crate::battle::components::CombatantId;
use crate::battle::event::BattleEvent;
use crate::battle::fighter::Fighter;
use crate::grid::Square;
use overlay::draw_overlay;

/// World units per square.
pub const TILE: f32 = TILE_PX as f32;

/// The centre of a square in world space (row 0 is the top of the map).
pub fn square_to_world(square: Square, map_height: u32) -> Vec2 {
    Vec2::new(
        square.x as f32 * TILE,
        (map_height as i32 - 1 - square.y) as f32 * TILE,
    )
}

/// The square a world point falls on, if it is on the map.
pub fn world_to_square(p: Vec2, width: u32, height: u32) -> Option<Square> {
    let x = ((p.x + TILE / 2.0) / TILE).floor() as i32;
    let row = ((p.y + TILE / 2.0) / TILE).floor() as i32;
    let y = height as i32 - 1 - row;
    (x >= 0 && y >= 0 && x < width as i32 && y < height as i32).then(|| Square::new(x, y))
}

/// The overlay layer's tiles, one per square.
#[derive(Component)]
struct OverlayLayer;

/// The terrain layer's tiles, one per square: redrawn when a square's terrain changes (a
/// boulder heaved aside).
#[derive(Component)]
struct TerrainLayer;

/// A combatant's token and the id it draws.
#[derive(Component)]
pub struct Token(pub CombatantId);

/// Parts of a token redrawn from the battle each frame.
#[derive(Component)]
struct LifeFill(CombatantId);

#[derive(Component)]
struct KiFill(CombatantId);

#[derive(Component)]
struct ActiveRing(CombatantId);

#[derive(Component)]
struct Body(CombatantId);

/// A token walking along the squares of its last move.
#[derive(Component, Default)]
struct Walk {
    path: Vec<Vec2>,
}

/// Damage, miss and critical words rising over a token, fading out.
#[derive(Component)]
struct Floating {
    /// Seconds since it showed; below zero while it waits for the attack to land.
    age: f32,
    /// Where it starts, over the token.
    from: Vec2,
}

/// How far the board has read the event log (for animations and floating text).
#[derive(Resource, Default)]
struct SeenEvents(usize);

/// The camera drawing the board.
#[derive(Component)]
pub struct BoardCamera;

/// Width of the right-hand panel and heights of the top and bottom bars, in logical pixels at
/// 100 % UI scale (the panels give way to the board on small windows).
pub const PANEL_W: f32 = 360.0;

/// Height of the turn-order bar.
pub const TOP_H: f32 = 64.0;

/// Height of the action bar and combat log.
pub const BOTTOM_H: f32 = 190.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SeenEvents>()
        .init_resource::<HoveredBadge>()
        .init_resource::<fx::Shake>()
        .add_plugins(camera::plugin)
        .add_plugins(backdrop::plugin)
        .add_systems(Startup, spawn_camera)
        .add_systems(OnEnter(Screen::Battle), (spawn_board, camera::reset_view))
        .add_systems(
            Update,
            (
                (
                    fx::steady_camera,
                    camera::measure_viewport,
                    camera::open_view,
                    // Under the pause menu or the help screen the keys and the wheel are theirs.
                    camera::pan_and_zoom_camera.run_if(not_paused),
                    camera::centre_on_actor,
                    point_cursor_at_square,
                    animate_events,
                    redraw_changed_terrain,
                    draw_overlay.run_if(super::redraw::redraw_needed),
                    draw_tokens.run_if(super::redraw::redraw_needed),
                    fx::fade_defeated_tokens,
                    badges::draw_condition_icons.run_if(super::redraw::redraw_needed),
                    badges::find_hovered_badge,
                )
                    .chain(),
                (
                    walk_tokens,
                    fx::lunge_tokens,
                    fx::play_attack_animations,
                    fx::flash_hit_tokens,
                    camera::follow_the_action,
                    camera::glide_camera,
                    fx::shake_camera,
                    rise_floating_text,
                )
                    .chain(),
            )
                .chain()
                .after(super::redraw::ReadScreen)
                .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        );
}

/// The one camera, for the board and the UI. Without multisampling: everything it draws is an
/// axis-aligned textured quad or text, whose edges the textures already smooth, and 4x MSAA
/// made the software renderer write four colour samples a pixel (an idle board's frame took
/// 40 ms with it, 26 ms without, side by side).
fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d, Msaa::Off, BoardCamera));
}

/// Builds the terrain and overlay tilemaps and a token per combatant.
fn spawn_board(
    mut commands: Commands,
    mut session: ResMut<Session>,
    mut images: ResMut<Assets<Image>>,
    settings: Res<Settings>,
    options: Res<super::PlayOptions>,
    icons: Res<super::icons::Icons>,
    mut seen: ResMut<SeenEvents>,
) {
    seen.0 = session.battle.events().len();
    // A shake the last battle left on its camera is not this one's.
    commands.insert_resource(fx::Shake::default());
    let rules = session.battle.rules().clone();
    let art = make_art(&mut images, &rules.terrain.types);
    let map = session.battle.map().clone();
    let size = TilemapSize {
        x: map.width,
        y: map.height,
    };
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    for layer in 0..2 {
        let tilemap = commands.spawn_empty().id();
        let mut storage = TileStorage::empty(size);
        for y in 0..map.height {
            for x in 0..map.width {
                let square = Square::new(x as i32, y as i32);
                let pos = TilePos {
                    x,
                    y: map.height - 1 - y,
                };
                let (texture, visible) = if layer == 0 {
                    (u32::from(map.at(square).unwrap_or(0)), true)
                } else {
                    (0, false)
                };
                let tile = commands
                    .spawn(TileBundle {
                        position: pos,
                        tilemap_id: TilemapId(tilemap),
                        texture_index: TileTextureIndex(texture),
                        visible: TileVisible(visible),
                        ..default()
                    })
                    .id();
                storage.set(&pos, tile);
            }
        }
        let texture = if layer == 0 {
            TilemapTexture::Vector(art.terrain.clone())
        } else {
            TilemapTexture::Single(art.overlay.clone())
        };
        let mut entity = commands.entity(tilemap);
        entity.insert((
            Name::new(if layer == 0 { "Terrain" } else { "Overlay" }),
            DespawnOnExit(Screen::Battle),
            TilemapBundle {
                grid_size: tile_size.into(),
                map_type: TilemapType::Square,
                size,
                storage,
                texture,
                tile_size,
                transform: Transform::from_xyz(0.0, 0.0, layer as f32),
                ..default()
            },
        ));
        if layer == 1 {
            entity.insert(OverlayLayer);
        } else {
            entity.insert(TerrainLayer);
        }
    }
    let colour_blind = settings.colour_blind || options.colour_blind;
    let fighters = session.fighters();
    for f in &fighters {
        let icon = icons.archetype(&rules.manifest.id, &f.identity.archetype);
        let look = TokenLook { colour_blind, icon };
        spawn_token(&mut commands, &art, look, &session, f, map.height);
    }
    commands.insert_resource(art);
}

/// How a token is drawn beyond its side: the colour-blind palette, and its archetype's icon
/// (letters when it has none).
struct TokenLook {
    colour_blind: bool,
    icon: Option<Handle<Image>>,
}

fn spawn_token(
    commands: &mut Commands,
    art: &Art,
    TokenLook { colour_blind, icon }: TokenLook,
    session: &Session,
    f: &Fighter,
    map_height: u32,
) {
    let side = usize::from(f.side.0);
    let colour = palette::side_colour(session, side, colour_blind);
    let squares = f.size.squares.max(1) as f32;
    let at = f
        .position
        .map_or(Vec2::ZERO, |p| token_centre(p, f.size.squares, map_height));
    let edge = TILE * squares * 0.86;
    let id = f.id;
    commands
        .spawn((
            Name::new(format!("Token {}", f.identity.name)),
            Token(id),
            Walk::default(),
            DespawnOnExit(Screen::Battle),
            Transform::from_translation(at.extend(10.0)),
            Visibility::Inherited,
        ))
        .with_children(|t| {
            // Everything drawn for the token hangs from its pose, which a lunge moves.
            t.spawn((fx::Pose(id), Transform::default(), Visibility::Inherited))
                .with_children(|t| {
                    t.spawn((
                        ActiveRing(id),
                        Sprite {
                            image: art.ring.clone(),
                            custom_size: Some(Vec2::splat(TILE * squares * 1.08)),
                            color: palette::ACTIVE,
                            ..default()
                        },
                        Transform::from_xyz(0.0, 0.0, -0.5),
                        Visibility::Hidden,
                    ));
                    t.spawn((
                        Body(id),
                        Sprite {
                            image: art.tokens
                                [TokenShape::of_side(side) as usize % art.tokens.len()]
                            .clone(),
                            custom_size: Some(Vec2::splat(edge)),
                            color: colour,
                            ..default()
                        },
                    ));
                    t.spawn((
                        fx::FlashSprite(id),
                        Sprite {
                            image: art.tokens
                                [TokenShape::of_side(side) as usize % art.tokens.len()]
                            .clone(),
                            custom_size: Some(Vec2::splat(edge)),
                            color: Color::WHITE.with_alpha(0.0),
                            ..default()
                        },
                        Transform::from_xyz(0.0, 0.0, 0.25),
                    ));
                    match icon {
                        // The archetype's icon, dark on the side's colour.
                        Some(image) => {
                            t.spawn((
                                Sprite {
                                    image,
                                    custom_size: Some(Vec2::splat(edge * 0.62)),
                                    color: Color::srgba(0.05, 0.05, 0.08, 0.9),
                                    ..default()
                                },
                                Transform::from_xyz(0.0, 1.0, 0.2),
                            ));
                        }
                        None => {
                            t.spawn((
                                Text2d::new(f.identity.glyph.clone()),
                                TextFont::from_font_size(15.0 * squares),
                                TextColor(Color::BLACK),
                                Transform::from_xyz(0.0, -1.0, 0.2).with_scale(Vec3::splat(0.9)),
                            ));
                        }
                    }
                    let bar_w = TILE * squares * 0.9;
                    let bar_y = -TILE * squares / 2.0 + 3.0;
                    for (i, fill_colour) in [palette::LIFE, palette::KI].into_iter().enumerate() {
                        let y = bar_y - i as f32 * 3.5;
                        t.spawn((
                            Sprite::from_color(
                                Color::srgb(0.08, 0.08, 0.1),
                                Vec2::new(bar_w + 2.0, 4.0),
                            ),
                            Transform::from_xyz(0.0, y, 0.3),
                        ));
                        let mut bar = t.spawn((
                            Sprite {
                                color: fill_colour,
                                custom_size: Some(Vec2::new(bar_w, 2.5)),
                                ..default()
                            },
                            bevy::sprite::Anchor::CENTER_LEFT,
                            Transform::from_xyz(-bar_w / 2.0, y, 0.4),
                        ));
                        if i == 0 {
                            bar.insert(LifeFill(id));
                        } else {
                            bar.insert(KiFill(id));
                        }
                    }
                    badges::spawn_badges(t, id, squares, art);
                });
        });
}

/// The centre of a combatant's footprint.
fn token_centre(at: Square, size: u32, map_height: u32) -> Vec2 {
    let a = square_to_world(at, map_height);
    let off = (size.max(1) as f32 - 1.0) * TILE / 2.0;
    Vec2::new(a.x + off, a.y - off)
}

/// The right-hand panel (unit sheet and odds): moving the mouse onto it keeps the square
/// pointed at, so what the panel describes does not change under the mouse.
#[derive(Component)]
pub struct ReadingPanel;

/// A box drawn over the board (the guide): the mouse over it points at no square, so a click
/// on its buttons does not also move or attack on the square beneath.
#[derive(Component)]
pub struct CoversBoard;

/// The battle is not under the pause menu or the help screen.
fn not_paused(ui: Res<super::control::BattleUi>) -> bool {
    !ui.paused
}

/// A UI node's area, and whether it is the board viewport, the reading panel or a box over
/// the board.
type UiArea = (
    &'static ComputedNode,
    &'static UiGlobalTransform,
    Has<BoardViewport>,
    Has<ReadingPanel>,
    Has<CoversBoard>,
);

/// The nodes [`UiArea`] reads: the board viewport, the reading panel, boxes over the board.
type UiAreaKinds = Or<(With<BoardViewport>, With<ReadingPanel>, With<CoversBoard>)>;

/// Sets the cursor square from the mouse when it is over the board viewport (not a panel).
fn point_cursor_at_square(
    windows: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    panels: Query<UiArea, UiAreaKinds>,
    session: Res<Session>,
    mut cursor: ResMut<CursorSquare>,
    mut last: Local<Option<Vec2>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let Some(pos) = window.cursor_position() else {
        return;
    };
    // Only a moving mouse takes the cursor over from the gamepad or a script.
    if *last == Some(pos) {
        return;
    }
    *last = Some(pos);
    // Tested against the nodes where they are now, not last frame's `RelativeCursorPosition`:
    // a mouse that jumps (a flick, a script) would otherwise be read as still on the board.
    let physical = pos * window.scale_factor();
    let over = |want: fn(&(bool, bool, bool)) -> bool| {
        panels.iter().any(|(node, t, viewport, reading, covers)| {
            want(&(viewport, reading, covers)) && node.contains_point(*t, physical)
        })
    };
    if !over(|p| p.0) || over(|p| p.2) {
        // Over the unit and odds panel the square pointed at stays, so its words can be
        // hovered for their rules while the panel still describes it.
        if !over(|p| p.1) {
            cursor.0 = None;
        }
        return;
    }
    let Ok((cam, cam_t)) = camera.single() else {
        return;
    };
    let map = session.battle.map();
    cursor.0 = cam
        .viewport_to_world_2d(cam_t, pos)
        .ok()
        .and_then(|p| world_to_square(p, map.width, map.height));
}

/// Gives every terrain tile the texture of its square's terrain now, where it differs: the
/// map changes during a battle (a Skill Check clears a square) and after an undo or a load.
fn redraw_changed_terrain(
    session: Res<Session>,
    layer: Query<&TileStorage, With<TerrainLayer>>,
    mut tiles: Query<&mut TileTextureIndex>,
) {
    let Ok(storage) = layer.single() else {
        return;
    };
    let map = session.battle.map();
    for y in 0..map.height {
        for x in 0..map.width {
            let pos = TilePos {
                x,
                y: map.height - 1 - y,
            };
            let want = u32::from(map.at(Square::new(x as i32, y as i32)).unwrap_or(0));
            if let Some(tile) = storage.get(&pos)
                && let Ok(mut index) = tiles.get_mut(tile)
                && index.0 != want
            {
                index.0 = want;
            }
        }
    }
}

/// What the board's animations may touch: the art, each token's pose and flash, the shake.
#[derive(bevy::ecs::system::SystemParam)]
struct Stage<'w, 's> {
    commands: Commands<'w, 's>,
    art: Res<'w, Art>,
    poses: Query<'w, 's, (Entity, &'static fx::Pose)>,
    flashes: Query<'w, 's, (Entity, &'static fx::FlashSprite)>,
    shake: ResMut<'w, fx::Shake>,
}

/// Reads new events: walks a token along its move, pushes, starts each attack's animation,
/// and raises floating words for damage, misses, criticals and defeats.
fn animate_events(
    mut stage: Stage,
    mut session: ResMut<Session>,
    mut seen: ResMut<SeenEvents>,
    mut walks: Query<(Entity, &Token, &mut Walk, &Transform)>,
    mut view: ResMut<BoardView>,
) {
    if session.battle.events().len() < seen.0 {
        // Undo rebuilt the battle: stop every walk, tokens snap to where they are now.
        for (_, _, mut walk, _) in &mut walks {
            walk.path.clear();
        }
    }
    let events = session.battle.events()[seen.0.min(session.battle.events().len())..].to_vec();
    seen.0 = session.battle.events().len();
    if events.is_empty() {
        return;
    }
    let map_h = session.battle.map().height;
    let fighters = session.fighters();
    let size_of = |id: CombatantId| {
        fighters
            .iter()
            .find(|f| f.id == id)
            .map_or(1, |f| f.size.squares)
    };
    let at_of = |id: CombatantId| {
        fighters
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.position)
            .map(|p| token_centre(p, size_of(id), map_h))
    };
    let rules = session.battle.rules().clone();
    // Seconds until the attack under way lands: the words and flashes it causes wait for it.
    let mut lands = 0.0;
    for e in &events {
        if let Some(focus) = camera_focus(e, &at_of) {
            view.focus = Some(focus);
        }
        match e {
            BattleEvent::AttackDeclared {
                attacker,
                profile,
                element,
                targets,
                ..
            } => {
                let style = crate::battle::look::attack_style(&rules, profile);
                let pose = stage.poses.iter().find(|(_, p)| p.0 == *attacker);
                if let (Some(style), Some((pose, _)), Some(from)) = (style, pose, at_of(*attacker))
                {
                    let aims: Vec<Vec2> = targets.iter().filter_map(|t| at_of(*t)).collect();
                    let colour = fx::tint_colour(style.tint, element.as_deref());
                    lands = fx::start_attack(
                        &mut stage.commands,
                        &stage.art,
                        (pose, from),
                        &aims,
                        style,
                        colour,
                    );
                }
            }
            BattleEvent::AttackEnded { .. } => lands = 0.0,
            BattleEvent::Moved { who, path, .. } => {
                for (_, token, mut walk, _) in &mut walks {
                    if token.0 == *who {
                        walk.path = path
                            .iter()
                            .map(|s| token_centre(*s, size_of(*who), map_h))
                            .collect();
                    }
                }
            }
            BattleEvent::Pushed { who, to, .. } => {
                for (_, token, mut walk, _) in &mut walks {
                    if token.0 == *who {
                        walk.path.push(token_centre(*to, size_of(*who), map_h));
                    }
                }
            }
            BattleEvent::Clash {
                defender,
                hit: false,
                automatic,
                ..
            } => float(
                &mut stage.commands,
                lands,
                at_of(*defender),
                if automatic.is_some() {
                    "blocked"
                } else {
                    "miss"
                }
                .into(),
                palette::TEXT,
            ),
            // d20: a missed attack roll, and a combatant lying down.
            BattleEvent::D20Check {
                defender,
                hit: false,
                ..
            } => float(
                &mut stage.commands,
                lands,
                at_of(*defender),
                "miss".into(),
                palette::TEXT,
            ),
            BattleEvent::DroppedProne { who, .. } => float(
                &mut stage.commands,
                0.0,
                at_of(*who).map(|p| p - Vec2::new(0.0, 12.0)),
                "prone".into(),
                palette::TEXT,
            ),
            BattleEvent::StageHit {
                target,
                stages,
                life_cards,
                ..
            } => {
                let words = match (*stages, *life_cards) {
                    (s, 0) => format!("-{s} stage"),
                    (0, l) => format!("-{l} cards"),
                    (s, l) => format!("-{s} st -{l} cards"),
                };
                land_blow(&mut stage, *target, lands, at_of(*target), words);
            }
            BattleEvent::StrikeRolled { attacker, roll } if roll.critical => float(
                &mut stage.commands,
                0.0,
                at_of(*attacker).map(|p| p + Vec2::new(0.0, 10.0)),
                "CRITICAL".into(),
                palette::ACCENT,
            ),
            BattleEvent::Damage { target, damage, .. } if *damage > 0 => {
                land_blow(
                    &mut stage,
                    *target,
                    lands,
                    at_of(*target),
                    format!("-{damage}"),
                );
            }
            BattleEvent::Damage { target, damage, .. } => float(
                &mut stage.commands,
                lands,
                at_of(*target),
                format!("-{damage}"),
                palette::DANGER,
            ),
            BattleEvent::Defeated { who, .. } => {
                if let Some((token, ..)) = walks.iter().find(|(_, t, ..)| t.0 == *who) {
                    fx::fade(&mut stage.commands, token, lands);
                }
                fx::shake(&mut stage.shake, 6.0, lands);
                float(
                    &mut stage.commands,
                    lands + 0.15,
                    at_of(*who).map(|p| p - Vec2::new(0.0, 12.0)),
                    "DEFEATED".into(),
                    palette::DANGER,
                );
            }
            _ => {}
        }
    }
}

/// What the camera should keep in view after `e`: a unit that moves, where an attack lands.
fn camera_focus(
    e: &BattleEvent,
    at_of: &impl Fn(CombatantId) -> Option<Vec2>,
) -> Option<camera::Focus> {
    match e {
        BattleEvent::Moved { who, .. } | BattleEvent::Pushed { who, .. } => {
            Some(camera::Focus::Token(*who))
        }
        BattleEvent::Clash { defender, .. } | BattleEvent::D20Check { defender, .. } => {
            at_of(*defender).map(camera::Focus::Point)
        }
        BattleEvent::StageHit { target, .. } | BattleEvent::Damage { target, .. } => {
            at_of(*target).map(camera::Focus::Point)
        }
        _ => None,
    }
}

/// A blow lands on `target` after `wait` seconds: it flashes, the view shakes, its loss rises.
fn land_blow(stage: &mut Stage, target: CombatantId, wait: f32, at: Option<Vec2>, words: String) {
    fx::flash(&mut stage.commands, &stage.flashes, target, wait);
    fx::shake(&mut stage.shake, 3.0, wait);
    float(&mut stage.commands, wait, at, words, palette::DANGER);
}

/// Shows a word over a token after `wait` seconds (the attack's animation landing).
fn float(commands: &mut Commands, wait: f32, at: Option<Vec2>, text: String, colour: Color) {
    let Some(at) = at else { return };
    let from = at + Vec2::new(0.0, TILE * 0.5);
    commands.spawn((
        Name::new("Floating text"),
        Floating { age: -wait, from },
        DespawnOnExit(Screen::Battle),
        Text2d::new(text),
        TextFont::from_font_size(16.0),
        TextColor(colour.with_alpha(0.0)),
        Transform::from_translation(from.extend(30.0)),
    ));
}

/// Seconds a floating word stays.
const FLOAT_SECONDS: f32 = 1.6;
/// How far a floating word rises, in board units.
const FLOAT_RISE: f32 = 30.0;

/// The floating words, with their laid-out size.
type FloatQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut Floating,
        &'static mut Transform,
        &'static mut TextColor,
        &'static bevy::text::TextLayoutInfo,
    ),
>;

/// The camera, apart from the floating words' transforms.
type EyeQuery<'w, 's> = Query<
    'w,
    's,
    (&'static Transform, &'static Projection),
    (With<BoardCamera>, Without<Floating>),
>;

/// Pops each floating word in, eases it upward and fades it out, whole inside the board's
/// view (a word over a unit at the map's edge would run under a panel).
fn rise_floating_text(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    view: Res<camera::BoardView>,
    eye: EyeQuery,
    mut q: FloatQuery,
) {
    let dt = time.delta_secs() * settings.animation_speed;
    let shown = eye
        .single()
        .ok()
        .map(|(t, p)| camera::visible_rect(t, p, &view))
        .filter(|(_, half)| half.min_element() > 0.0);
    for (e, mut f, mut t, mut c, layout) in &mut q {
        f.age += dt;
        if f.age < 0.0 {
            continue;
        }
        let k = (f.age / FLOAT_SECONDS).clamp(0.0, 1.0);
        let rise = EaseFunction::CubicOut.sample_clamped(k);
        // A pop as it appears: from small past full size and back in the first quarter second.
        let pop = EaseFunction::BackOut.sample_clamped((f.age / 0.25).min(1.0));
        let mut at = f.from + Vec2::new(0.0, FLOAT_RISE * rise);
        if let Some((centre, half_view)) = shown {
            let half_word = layout.size / layout.scale_factor.max(f32::EPSILON) / 2.0;
            at = camera::keep_inside(at, half_word, centre, half_view);
        }
        t.translation = at.extend(t.translation.z);
        t.scale = Vec3::splat(0.5 + 0.5 * pop);
        c.0.set_alpha(1.0 - EaseFunction::QuadraticIn.sample_clamped(k));
        if f.age >= FLOAT_SECONDS {
            commands.entity(e).despawn();
        }
    }
}

/// Moves tokens along their walk, a few squares a second.
fn walk_tokens(
    time: Res<Time>,
    settings: Res<Settings>,
    mut q: Query<(&mut Walk, &mut Transform), With<Token>>,
    mut redraw: ResMut<super::redraw::Redraw>,
) {
    for (mut walk, mut t) in &mut q {
        let Some(next) = walk.path.first().copied() else {
            continue;
        };
        let here = t.translation.truncate();
        let step = 6.0 * TILE * time.delta_secs() * settings.animation_speed;
        let to = next - here;
        if to.length() <= step {
            t.translation = next.extend(t.translation.z);
            walk.path.remove(0);
            if walk.path.is_empty() {
                // The token stands still again: draw it where the battle has it.
                redraw.request();
            }
        } else {
            t.translation += (to.normalize() * step).extend(0.0);
        }
    }
}

/// Whether tokens are drawn for colour-blind play: set in the settings or for this battle.
#[derive(bevy::ecs::system::SystemParam)]
struct ColourBlind<'w> {
    settings: Res<'w, Settings>,
    options: Res<'w, super::PlayOptions>,
}

impl ColourBlind<'_> {
    fn on(&self) -> bool {
        self.settings.colour_blind || self.options.colour_blind
    }
}

/// Redraws bars, the active ring, condition badges and defeated tokens; snaps idle tokens to
/// their squares.
#[allow(clippy::type_complexity)]
fn draw_tokens(
    mut session: ResMut<Session>,
    mut tokens: Query<(&Token, &Walk, &mut Transform, &mut Visibility)>,
    mut life: Query<(&LifeFill, &mut Sprite), Without<KiFill>>,
    mut ki: Query<(&KiFill, &mut Sprite), Without<LifeFill>>,
    mut rings: Query<(&ActiveRing, &mut Visibility), Without<Token>>,
    mut bodies: Query<(&Body, &mut Sprite), (Without<LifeFill>, Without<KiFill>)>,
    colour_blind: ColourBlind,
) {
    let colour_blind = colour_blind.on();
    let fighters = session.fighters();
    let map_h = session.battle.map().height;
    let active = session.battle.active();
    for (token, walk, mut t, mut vis) in &mut tokens {
        let Some(f) = fighters.iter().find(|f| f.id == token.0) else {
            continue;
        };
        match f.position {
            Some(p) => {
                *vis = Visibility::Inherited;
                if walk.path.is_empty() {
                    let want = token_centre(p, f.size.squares, map_h);
                    t.translation = want.extend(if f.defeated() { 5.0 } else { 10.0 });
                }
            }
            None => *vis = Visibility::Hidden,
        }
    }
    let frac = |cur: i64, max: i64| (cur as f32 / max.max(1) as f32).clamp(0.0, 1.0);
    for (fill, mut sprite) in &mut life {
        if let Some(f) = fighters.iter().find(|f| f.id == fill.0)
            && let Some(size) = &mut sprite.custom_size
        {
            let full = TILE * f.size.squares.max(1) as f32 * 0.9;
            size.x = full * frac(f.life.current, f.life.max);
        }
    }
    for (fill, mut sprite) in &mut ki {
        if let Some(f) = fighters.iter().find(|f| f.id == fill.0)
            && let Some(size) = &mut sprite.custom_size
        {
            let full = TILE * f.size.squares.max(1) as f32 * 0.9;
            size.x = full * frac(f.ki.current, f.ki.max);
        }
    }
    for (ring, mut vis) in &mut rings {
        *vis = if Some(ring.0) == active {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
    for (body, mut sprite) in &mut bodies {
        if let Some(f) = fighters.iter().find(|f| f.id == body.0) {
            // The side it fights for now (a Charmed Digimon takes the charmer's colour; its
            // shape stays its own side's).
            let mut colour = palette::side_colour(&session, usize::from(f.side.0), colour_blind);
            colour.set_alpha(if f.defeated() { 0.35 } else { 1.0 });
            sprite.color = colour;
        }
    }
}

/// The part of the window the board shows through: the camera fits the map to it and the
/// mouse points at squares only over it.
#[derive(Component)]
pub struct BoardViewport;
