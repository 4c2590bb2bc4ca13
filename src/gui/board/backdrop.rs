//! Flat panel backgrounds drawn as sprites under the UI instead of as UI node colours, because
//! filling a pixel costs the software renderer far more in the UI's shader than in the
//! sprite's (issue 26: the battle screen's three panels were ~5 ms of a 25 ms idle frame).
//!
//! A UI node with [`Backdrop`] keeps its layout and text; a sprite in the world, just below
//! the UI, is kept over the node's rectangle whatever the camera's position, zoom or shake.

use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy::ui::{UiGlobalTransform, UiSystems};

use super::BoardCamera;

/// A UI node whose flat background colour is drawn by a sprite.
#[derive(Component, Debug, Clone, Copy)]
pub struct Backdrop(pub Color);

/// The sprite drawing a [`Backdrop`]: the node it stands under.
#[derive(Component, Debug)]
struct BackdropOf(Entity);

/// In front of every board sprite (tokens, animations, floating words), behind the UI.
const BACKDROP_Z: f32 = 900.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PostUpdate,
        (spawn_backdrop_sprites, place_backdrop_sprites)
            .chain()
            .after(UiSystems::Layout)
            .before(TransformSystems::Propagate),
    );
}

/// Gives each new [`Backdrop`] node its sprite, hidden until it is placed.
fn spawn_backdrop_sprites(
    mut commands: Commands,
    added: Query<(Entity, &Backdrop), Added<Backdrop>>,
) {
    for (node, backdrop) in &added {
        commands.spawn((
            Name::new("Panel backdrop"),
            BackdropOf(node),
            Sprite::from_color(backdrop.0, Vec2::ONE),
            Transform::from_xyz(0.0, 0.0, BACKDROP_Z),
            Visibility::Hidden,
        ));
    }
}

/// The camera's place and zoom (the backdrop sprites have transforms too).
type EyeQuery<'w, 's> = Query<
    'w,
    's,
    (&'static Transform, &'static Projection),
    (With<BoardCamera>, Without<BackdropOf>),
>;

/// The node under each sprite, as the sprite needs it.
type NodeQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static ComputedNode,
        &'static UiGlobalTransform,
        &'static InheritedVisibility,
        &'static Backdrop,
    ),
>;

/// Keeps each sprite over its node's rectangle and as visible as the node; a sprite whose
/// node is gone goes with it.
fn place_backdrop_sprites(
    mut commands: Commands,
    windows: Query<&Window>,
    camera: EyeQuery,
    nodes: NodeQuery,
    mut sprites: Query<(
        Entity,
        &BackdropOf,
        &mut Sprite,
        &mut Transform,
        &mut Visibility,
    )>,
) {
    let (Ok(window), Ok((eye, projection))) = (windows.single(), camera.single()) else {
        return;
    };
    let scale = super::camera::zoom_of(projection);
    // UI rectangles are physical pixels from the window's top left; the 2D camera works in
    // logical pixels (times its scale) from its own position, y up.
    let to_logical = 1.0 / window.scale_factor();
    let half_window = Vec2::new(window.width(), window.height()) / 2.0;
    for (sprite_entity, of, mut sprite, mut t, mut visibility) in &mut sprites {
        let Ok((node, at, shown, backdrop)) = nodes.get(of.0) else {
            commands.entity(sprite_entity).despawn();
            continue;
        };
        let size = node.size * to_logical;
        let want = if shown.get() && size.x >= 1.0 && size.y >= 1.0 {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        visibility.set_if_neq(want);
        if want == Visibility::Hidden {
            continue;
        }
        let centre = at.translation * to_logical;
        let from_middle = Vec2::new(centre.x - half_window.x, half_window.y - centre.y);
        let place = (eye.translation.truncate() + from_middle * scale).extend(BACKDROP_Z);
        if t.translation != place {
            t.translation = place;
        }
        let world_size = Some(size * scale);
        if sprite.custom_size != world_size {
            sprite.custom_size = world_size;
        }
        if sprite.color != backdrop.0 {
            sprite.color = backdrop.0;
        }
    }
}
