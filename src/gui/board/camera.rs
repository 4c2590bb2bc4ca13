//! The board camera: the view a battle opens on (the whole map when its squares are drawn at
//! least [`MIN_SQUARE_PX`] wide, else the active unit at that size), the player's pan and zoom,
//! and following the active unit and the computer's actions so a big map stays readable.

use bevy::prelude::*;
use bevy::ui::UiGlobalTransform;

use super::{BoardCamera, BoardViewport, TILE, Token, square_to_world, token_centre};
use crate::battle::components::CombatantId;
use crate::grid::Square;
use crate::gui::Settings;
use crate::gui::input::{CursorSquare, GameAction, PlayerInput};
use crate::gui::session::Session;

/// The smallest a square is drawn at the zoom a battle opens with, in logical pixels: a
/// token's letters, bars and condition badges stay legible (fitted whole, `war`'s 32×32 map
/// gave squares of 14 px in a 1280×720 window).
pub const MIN_SQUARE_PX: f32 = 32.0;

/// The closest the player may zoom in (world units per logical pixel): squares of 128 px.
const MIN_SCALE: f32 = 0.25;

/// How far from the view's centre a followed unit may stand before the camera moves, as a
/// share of the view's half-size (1.0 is the edge): the camera stays put for small steps.
const FOLLOW_MARGIN: f32 = 0.7;

/// How quickly a glide closes on its destination: the share left after one second is
/// `exp(-GLIDE_RATE)`.
const GLIDE_RATE: f32 = 7.0;

/// What the camera keeps in view when it follows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Focus {
    /// A combatant's token, wherever it walks.
    Token(CombatantId),
    /// A point of the board (where an attack landed).
    Point(Vec2),
    /// Both tokens when they fit in the view together (the one answering a question and the
    /// one that asks it), else the first.
    Pair(CombatantId, CombatantId),
}

/// Where the board is seen through and what the camera is doing.
#[derive(Resource, Debug, Clone, Default)]
pub struct BoardView {
    /// The viewport's size in logical pixels; zero until the UI is laid out.
    pub size: Vec2,
    /// The window's centre less the viewport's (y up), in logical pixels: the camera stands
    /// this far, times its scale, from the world point at the viewport's centre.
    pub offset: Vec2,
    /// The view must be opened again: a battle began or the viewport changed size.
    pub reopen: bool,
    /// What the camera follows, when following is on and the player has not moved it.
    pub focus: Option<Focus>,
    /// The world point the camera glides to bring to the viewport's centre.
    pub glide_to: Option<Vec2>,
    /// The player moved the camera: it follows again when the next unit's turn begins or
    /// the centre key is pressed.
    pub held: bool,
    /// The unit whose turn the camera last turned to.
    pub actor: Option<CombatantId>,
    /// The cursor square last seen, to bring a square the pad or a script points at into
    /// view.
    pub cursor: Option<crate::grid::Square>,
}

/// The scale (world units per logical pixel) that shows the whole map in the viewport.
pub fn fit_scale(map: UVec2, viewport: Vec2) -> f32 {
    ((map.x as f32 * TILE) / viewport.x.max(1.0)).max((map.y as f32 * TILE) / viewport.y.max(1.0))
        * 1.02
}

/// The scale a battle opens with: the whole map when its squares are at least
/// [`MIN_SQUARE_PX`] that way, else squares of [`MIN_SQUARE_PX`].
pub fn opening_scale(map: UVec2, viewport: Vec2) -> f32 {
    fit_scale(map, viewport).clamp(MIN_SCALE, TILE / MIN_SQUARE_PX)
}

/// The farthest the player may zoom out: the whole map, with a little room around it.
pub fn max_scale(map: UVec2, viewport: Vec2) -> f32 {
    (fit_scale(map, viewport) * 1.25).max(TILE / MIN_SQUARE_PX)
}

/// The viewport's centre kept over the map: on an axis where the whole map shows, the map's
/// middle; else no more than a square beyond the map's edge.
pub fn clamp_centre(centre: Vec2, map: UVec2, half_view: Vec2) -> Vec2 {
    let axis = |c: f32, squares: u32, half: f32| {
        let lo = -TILE / 2.0;
        let hi = (squares as f32 - 0.5) * TILE;
        if hi - lo <= 2.0 * half {
            (lo + hi) / 2.0
        } else {
            c.clamp(lo + half - TILE, hi - half + TILE)
        }
    };
    Vec2::new(
        axis(centre.x, map.x, half_view.x),
        axis(centre.y, map.y, half_view.y),
    )
}

/// True when `p` lies outside the part of the view around its centre where a followed unit
/// may stand without the camera moving.
pub fn outside_margin(p: Vec2, centre: Vec2, half_view: Vec2, margin: f32) -> bool {
    let d = (p - centre).abs();
    d.x > half_view.x * margin || d.y > half_view.y * margin
}

/// Where a box of half-size `half_box` centred at `p` must stand to show whole in the view
/// (centre `centre`, half-size `half_view`): moved in from any edge it crosses, or centred on
/// an axis where it is wider than the view. Keeps a floating word over a unit at the map's
/// edge from running under the panels.
pub fn keep_inside(p: Vec2, half_box: Vec2, centre: Vec2, half_view: Vec2) -> Vec2 {
    let axis = |v: f32, half: f32, c: f32, view: f32| {
        if half >= view {
            c
        } else {
            v.clamp(c - view + half, c + view - half)
        }
    };
    Vec2::new(
        axis(p.x, half_box.x, centre.x, half_view.x),
        axis(p.y, half_box.y, centre.y, half_view.y),
    )
}

/// The world point at the viewport's centre and the view's half-size in world units, from
/// the camera as it stands.
pub fn visible_rect(eye: &Transform, projection: &Projection, view: &BoardView) -> (Vec2, Vec2) {
    let scale = zoom_of(projection);
    (centre_of(eye, view, scale), view.size * scale / 2.0)
}

/// World units per logical pixel: the orthographic camera's scale (1 for any other kind),
/// for whatever must keep a fixed size or place on screen whatever the zoom.
pub fn zoom_of(projection: &Projection) -> f32 {
    match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    }
}

/// The camera's systems, in the board's chain.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardView>();
}

/// A new battle's camera opens its view again once the viewport is laid out.
pub(super) fn reset_view(mut view: ResMut<BoardView>) {
    *view = BoardView {
        reopen: true,
        ..default()
    };
}

/// The board viewport's layout, when it changed.
type ViewportChanged<'w, 's> = Query<
    'w,
    's,
    (&'static ComputedNode, &'static UiGlobalTransform),
    (With<BoardViewport>, Changed<ComputedNode>),
>;

/// Keeps [`BoardView`]'s size and offset up to date with the viewport (the window less the
/// panels); a new size opens the view again.
pub(super) fn measure_viewport(
    windows: Query<&Window>,
    viewport: ViewportChanged,
    mut view: ResMut<BoardView>,
) {
    let Ok((node, at)) = viewport.single() else {
        return;
    };
    let Ok(window) = windows.single() else {
        return;
    };
    // UI sizes are physical pixels; the 2D camera works in the window's logical ones (the
    // node's own inverse scale factor would also undo the UI scale).
    let to_logical = 1.0 / window.scale_factor();
    let size = node.size * to_logical;
    if size.x < 1.0 || size.y < 1.0 {
        return;
    }
    let vp_centre = at.translation * to_logical;
    let win_centre = Vec2::new(window.width(), window.height()) / 2.0;
    let offset = Vec2::new(win_centre.x - vp_centre.x, vp_centre.y - win_centre.y);
    if (size - view.size).length() > 0.5 {
        view.reopen = true;
    }
    view.size = size;
    view.offset = offset;
}

/// The camera's transform and orthographic projection.
type CameraQuery<'w, 's> =
    Query<'w, 's, (&'static mut Transform, &'static mut Projection), With<BoardCamera>>;

/// The map's size in squares.
fn map_size(session: &Session) -> UVec2 {
    let map = session.battle.map();
    UVec2::new(map.width, map.height)
}

/// Where the camera stands to show `centre` in the middle of the viewport at `scale`.
fn place(t: &mut Transform, view: &BoardView, centre: Vec2, scale: f32) {
    t.translation = (centre + view.offset * scale).extend(t.translation.z);
}

/// The world point at the viewport's centre.
fn centre_of(t: &Transform, view: &BoardView, scale: f32) -> Vec2 {
    t.translation.truncate() - view.offset * scale
}

/// The middle of the map in the world.
fn map_centre(map: UVec2) -> Vec2 {
    Vec2::new(
        (map.x as f32 - 1.0) * TILE / 2.0,
        (map.y as f32 - 1.0) * TILE / 2.0,
    )
}

/// The centre of a combatant's footprint now, from the battle (not its walking token).
fn combatant_centre(session: &mut Session, id: CombatantId) -> Option<Vec2> {
    let f = session.battle.fighter(id)?;
    let at = f.position?;
    Some(token_centre(
        at,
        f.size.squares,
        session.battle.map().height,
    ))
}

/// Opens the view of a new battle or a resized viewport: the whole map if it shows at
/// [`MIN_SQUARE_PX`] a square or more, else that size around the unit that acts.
pub(super) fn open_view(
    mut session: ResMut<Session>,
    mut view: ResMut<BoardView>,
    mut camera: CameraQuery,
) {
    if !view.reopen || view.size.x < 1.0 {
        return;
    }
    let Ok((mut t, mut projection)) = camera.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = &mut *projection else {
        return;
    };
    let map = map_size(&session);
    let scale = opening_scale(map, view.size);
    let whole = scale >= fit_scale(map, view.size);
    let actor = session.actor().map(|(id, _)| id);
    let centre = match actor.and_then(|id| combatant_centre(&mut session, id)) {
        Some(at) if !whole => at,
        _ => map_centre(map),
    };
    let centre = clamp_centre(centre, map, view.size * scale / 2.0);
    o.scale = scale;
    place(&mut t, &view, centre, scale);
    view.reopen = false;
    view.glide_to = None;
    view.actor = actor;
    view.focus = actor.map(Focus::Token);
}

/// Keys, the mouse (middle-button drag, wheel) and the gamepad's sticks pan and zoom; moving
/// the camera by hand stops it following until the next unit's turn.
pub(super) fn pan_and_zoom_camera(
    input: PlayerInput,
    time: Res<Time>,
    session: Res<Session>,
    mut motion: MessageReader<bevy::input::mouse::MouseMotion>,
    board: Query<&bevy::ui::RelativeCursorPosition, With<BoardViewport>>,
    mut view: ResMut<BoardView>,
    mut camera: CameraQuery,
) {
    let drag: Vec2 = motion.read().map(|m| m.delta).sum();
    let Some(actions) = input.any() else {
        return;
    };
    let Ok((mut t, mut projection)) = camera.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = &mut *projection else {
        return;
    };
    let mut centre = centre_of(&t, &view, o.scale);
    let mut moved = Vec2::ZERO;
    moved += actions.axis_pair(&GameAction::Pan) * 480.0 * o.scale * time.delta_secs();
    if actions.pressed(&GameAction::Drag) {
        moved += Vec2::new(-drag.x, drag.y) * o.scale;
    }
    // The wheel zooms over the board; over the combat log it scrolls the log instead.
    let wheel = if board.single().is_ok_and(|b| b.cursor_over()) {
        actions.value(&GameAction::Zoom)
    } else {
        0.0
    };
    let zoom = wheel.clamp(-3.0, 3.0) * 0.1
        + actions.value(&GameAction::ZoomHold).clamp(-1.0, 1.0) * 1.5 * time.delta_secs();
    if moved == Vec2::ZERO && zoom == 0.0 {
        return;
    }
    let map = map_size(&session);
    let scale = (o.scale * (1.0 - zoom)).clamp(MIN_SCALE, max_scale(map, view.size));
    centre += moved;
    o.scale = scale;
    place(
        &mut t,
        &view,
        clamp_centre(centre, map, view.size * scale / 2.0),
        scale,
    );
    view.held = true;
    view.glide_to = None;
}

/// The centre key brings the unit that acts back to the middle and the camera follows again.
pub(super) fn centre_on_actor(input: PlayerInput, mut view: ResMut<BoardView>) {
    if input
        .any()
        .is_some_and(|a| a.just_pressed(&GameAction::CentreCamera))
    {
        view.held = false;
        view.actor = None;
    }
}

/// Follows the action (when the settings say so and the player has not moved the camera):
/// each unit's turn turns the camera to it, a walking token is kept in view, an attack's
/// target too; a square the pad or a script points at outside the view is brought into it.
pub(super) fn follow_the_action(
    session: Res<Session>,
    settings: Res<Settings>,
    cursor: Res<CursorSquare>,
    tokens: Query<(&Token, &Transform), Without<BoardCamera>>,
    mut view: ResMut<BoardView>,
    camera: CameraQuery,
) {
    if view.reopen {
        return;
    }
    let Ok((t, projection)) = camera.single() else {
        return;
    };
    let Projection::Orthographic(o) = projection else {
        return;
    };
    let centre = centre_of(t, &view, o.scale);
    let half = view.size * o.scale / 2.0;
    let asked = session.actor();
    let actor = asked.as_ref().map(|(id, _)| *id);
    if actor != view.actor {
        view.actor = actor;
        view.held = false;
        view.focus = asked.map(|(id, question)| match question.as_ref().and_then(asker) {
            Some(other) => Focus::Pair(id, other),
            None => Focus::Token(id),
        });
    }
    if cursor.0 != view.cursor {
        view.cursor = cursor.0;
        if let Some(s) = cursor.0 {
            let p = square_to_world(s, session.battle.map().height);
            // The mouse only points inside the view: this is the pad or a script.
            if outside_margin(p, centre, half, 1.0) {
                view.glide_to = Some(p);
            }
        }
    }
    if !settings.camera_follow || view.held {
        return;
    }
    let token_at = |id: CombatantId| {
        tokens
            .iter()
            .find(|(token, _)| token.0 == id)
            .map(|(_, t)| t.translation.truncate())
    };
    // The points to keep in view, and where to look to see them.
    let (points, look_at): (Vec<Vec2>, Option<Vec2>) = match view.focus {
        Some(Focus::Token(id)) => (token_at(id).into_iter().collect(), token_at(id)),
        Some(Focus::Point(p)) => (vec![p], Some(p)),
        Some(Focus::Pair(first, second)) => match (token_at(first), token_at(second)) {
            (Some(a), Some(b)) if !outside_margin(a, b, half * 2.0, FOLLOW_MARGIN) => {
                (vec![a, b], Some((a + b) / 2.0))
            }
            (a, _) => (a.into_iter().collect(), a),
        },
        None => (Vec::new(), None),
    };
    if view.glide_to.is_none()
        && points
            .iter()
            .any(|p| outside_margin(*p, centre, half, FOLLOW_MARGIN))
    {
        view.glide_to = look_at;
    }
}

/// The combatant whose attack or move a question is about.
fn asker(question: &crate::battle::command::Decision) -> Option<CombatantId> {
    use crate::battle::command::Decision;
    match question {
        Decision::Defense { attacker, .. } | Decision::Response { attacker, .. } => Some(*attacker),
        Decision::Exploit { mover, .. } => Some(*mover),
        Decision::Intercede { target, .. } => Some(*target),
    }
}

/// Moves the camera a step of its glide, easing in on the destination.
pub(super) fn glide_camera(
    time: Res<Time>,
    session: Res<Session>,
    mut view: ResMut<BoardView>,
    mut camera: CameraQuery,
) {
    let Some(to) = view.glide_to else {
        return;
    };
    let Ok((mut t, projection)) = camera.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = &*projection else {
        return;
    };
    let scale = o.scale;
    let map = map_size(&session);
    let half = view.size * scale / 2.0;
    let to = clamp_centre(to, map, half);
    let centre = centre_of(&t, &view, scale);
    let share = 1.0 - (-GLIDE_RATE * time.delta_secs()).exp();
    let next = if (to - centre).length() <= scale {
        view.glide_to = None;
        to
    } else {
        centre + (to - centre) * share
    };
    place(&mut t, &view, next, scale);
}

/// How wide the board draws a square now, in logical pixels (for scripted checks).
pub fn square_px(world: &mut World) -> Option<f32> {
    let mut q = world.query_filtered::<&Projection, With<BoardCamera>>();
    match q.single(world).ok()? {
        Projection::Orthographic(o) => Some(TILE / o.scale),
        _ => None,
    }
}

/// Whether the centre of the unit that acts lies inside the board's view (for scripted
/// checks); `None` when there is no such unit or camera.
pub fn actor_in_view(world: &mut World) -> Option<bool> {
    let at = {
        let mut session = world.get_resource_mut::<Session>()?;
        let id = session.actor()?.0;
        combatant_centre(&mut session, id)?
    };
    let view = world.get_resource::<BoardView>()?.clone();
    let mut q = world.query_filtered::<(&Transform, &Projection), With<BoardCamera>>();
    let (t, projection) = q.single(world).ok()?;
    let Projection::Orthographic(o) = projection else {
        return None;
    };
    let centre = centre_of(t, &view, o.scale);
    Some(!outside_margin(at, centre, view.size * o.scale / 2.0, 1.0))
}

/// Where a point of the board is drawn in the window now, in logical pixels (for scripts
/// that play with the mouse); `None` outside the window.
fn on_screen(world: &mut World, at: Vec2) -> Option<Vec2> {
    let mut q = world.query_filtered::<(&Camera, &GlobalTransform), With<BoardCamera>>();
    let (camera, transform) = q.single(world).ok()?;
    let p = camera.world_to_viewport(transform, at.extend(0.0)).ok()?;
    let mut windows = world.query::<&Window>();
    let size = windows.iter(world).next()?.size();
    (p.x >= 0.0 && p.y >= 0.0 && p.x < size.x && p.y < size.y).then_some(p)
}

/// Where the centre of `square` is drawn in the window, in logical pixels.
pub fn square_on_screen(world: &mut World, square: Square) -> Option<Vec2> {
    let height = world.get_resource::<Session>()?.battle.map().height;
    on_screen(world, square_to_world(square, height))
}

/// Where the centre of a combatant's token is drawn in the window, in logical pixels.
pub fn unit_on_screen(world: &mut World, id: CombatantId) -> Option<Vec2> {
    let at = combatant_centre(&mut *world.get_resource_mut::<Session>()?, id)?;
    on_screen(world, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board viewport of a 1280×720 window at 100 % UI scale.
    const VIEWPORT: Vec2 = Vec2::new(920.0, 466.0);

    #[test]
    fn a_word_at_the_views_edge_moves_in_until_it_shows_whole() {
        let (centre, half_view) = (Vec2::ZERO, Vec2::new(100.0, 50.0));
        let word = Vec2::new(30.0, 8.0);
        // Inside: unchanged.
        assert_eq!(
            keep_inside(Vec2::new(10.0, 5.0), word, centre, half_view),
            Vec2::new(10.0, 5.0)
        );
        // Over the right and top edges: its right side and top at the view's.
        assert_eq!(
            keep_inside(Vec2::new(95.0, 49.0), word, centre, half_view),
            Vec2::new(70.0, 42.0)
        );
        // Over the left edge.
        assert_eq!(
            keep_inside(Vec2::new(-99.0, 0.0), word, centre, half_view),
            Vec2::new(-70.0, 0.0)
        );
        // Wider than the view: centred on that axis.
        assert_eq!(
            keep_inside(
                Vec2::new(60.0, 0.0),
                Vec2::new(150.0, 8.0),
                centre,
                half_view
            ),
            Vec2::new(0.0, 0.0)
        );
    }

    #[test]
    fn war_opens_with_squares_of_at_least_32_pixels() {
        let scale = opening_scale(UVec2::new(32, 32), VIEWPORT);
        assert!(TILE / scale >= MIN_SQUARE_PX, "{} px", TILE / scale);
        assert!(scale < fit_scale(UVec2::new(32, 32), VIEWPORT));
    }

    #[test]
    fn a_small_map_opens_whole() {
        let map = UVec2::new(16, 12);
        assert_eq!(opening_scale(map, VIEWPORT), fit_scale(map, VIEWPORT));
        assert!(TILE / opening_scale(map, VIEWPORT) >= MIN_SQUARE_PX);
    }

    #[test]
    fn the_view_stays_over_the_map() {
        let map = UVec2::new(32, 32);
        let half = VIEWPORT / 2.0;
        let far = clamp_centre(Vec2::new(-5000.0, 5000.0), map, half);
        assert_eq!(far.x, -TILE / 2.0 + half.x - TILE);
        assert_eq!(far.y, 31.5 * TILE - half.y + TILE);
        // An axis the whole map fits on keeps the map's middle.
        let wide = clamp_centre(Vec2::new(900.0, 0.0), UVec2::new(8, 32), half);
        assert_eq!(wide.x, 3.5 * TILE);
    }

    #[test]
    fn a_unit_near_the_middle_does_not_move_the_camera() {
        let half = Vec2::new(400.0, 200.0);
        assert!(!outside_margin(
            Vec2::new(100.0, 50.0),
            Vec2::ZERO,
            half,
            FOLLOW_MARGIN
        ));
        assert!(outside_margin(
            Vec2::new(390.0, 0.0),
            Vec2::ZERO,
            half,
            FOLLOW_MARGIN
        ));
        assert!(!outside_margin(
            Vec2::new(390.0, 0.0),
            Vec2::ZERO,
            half,
            1.0
        ));
    }
}
