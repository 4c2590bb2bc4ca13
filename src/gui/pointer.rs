//! Whether the pointer really moved this frame, so a pointer found resting where the window
//! or a menu row appears never steals the keyboard's highlight.

use bevy::prelude::*;
use bevy::window::WindowEvent;

/// What the pointer did this frame. Menus move their highlight on a hover only when this says
/// the pointer moved: the window system also reports where a resting pointer is when the
/// window opens under it or it comes back in, and that report is not a move by the player.
#[derive(Resource, Debug, Default)]
pub struct PointerMotion {
    /// Where the pointer was last reported inside the window; `None` before the first report
    /// and after it left.
    last: Option<Vec2>,
    /// Whether it moved this frame.
    moved: bool,
    /// A script put the pointer somewhere: its next report is a move even if it is the first.
    warped: bool,
}

impl PointerMotion {
    /// Whether the pointer moved inside the window this frame (a click needs no move).
    pub fn moved(&self) -> bool {
        self.moved
    }

    /// A script is about to put the pointer at a point: that counts as the player moving it.
    pub fn expect_warp(&mut self) {
        self.warped = true;
    }

    /// Takes one report from the window system, in the order they came.
    fn take(&mut self, event: &WindowEvent) {
        match event {
            WindowEvent::CursorMoved(m) => {
                let found = self.last.is_none() && !self.warped;
                if !found && self.last != Some(m.position) {
                    self.moved = true;
                }
                self.last = Some(m.position);
                self.warped = false;
            }
            WindowEvent::CursorLeft(_) => self.last = None,
            _ => {}
        }
    }
}

/// Registers the resource and the system that keeps it.
pub(super) fn plugin(app: &mut App) {
    // The window plugin registers the message too; headless tests have no window plugin.
    app.add_message::<WindowEvent>()
        .init_resource::<PointerMotion>()
        .add_systems(PreUpdate, track_pointer_motion);
}

/// Reads this frame's window reports into [`PointerMotion`].
fn track_pointer_motion(mut motion: ResMut<PointerMotion>, mut events: MessageReader<WindowEvent>) {
    motion.moved = false;
    for event in events.read() {
        motion.take(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::window::{CursorLeft, CursorMoved};

    fn moved_to(x: f32, y: f32) -> WindowEvent {
        WindowEvent::CursorMoved(CursorMoved {
            window: Entity::PLACEHOLDER,
            position: Vec2::new(x, y),
            delta: None,
        })
    }

    fn left() -> WindowEvent {
        WindowEvent::CursorLeft(CursorLeft {
            window: Entity::PLACEHOLDER,
        })
    }

    fn frame(app: &mut App, events: Vec<WindowEvent>) -> bool {
        for e in events {
            app.world_mut().write_message(e);
        }
        app.update();
        app.world().resource::<PointerMotion>().moved()
    }

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(plugin);
        app
    }

    #[test]
    fn menu_pointer_found_resting_as_the_window_opens_is_not_a_move() {
        let mut app = app();
        assert!(!frame(&mut app, vec![moved_to(640.0, 355.0)]));
        assert!(!frame(&mut app, vec![]));
        assert!(frame(&mut app, vec![moved_to(641.0, 355.0)]));
        assert!(!frame(&mut app, vec![]), "a move lasts one frame");
        assert!(
            !frame(&mut app, vec![moved_to(641.0, 355.0)]),
            "the same place"
        );
    }

    #[test]
    fn menu_pointer_coming_back_into_the_window_is_found_before_it_moves() {
        let mut app = app();
        frame(&mut app, vec![moved_to(10.0, 10.0)]);
        assert!(!frame(&mut app, vec![left(), moved_to(300.0, 200.0)]));
        assert!(frame(&mut app, vec![moved_to(300.0, 210.0)]));
        assert!(
            frame(&mut app, vec![moved_to(1.0, 1.0), left()]),
            "it moved before it left"
        );
    }

    #[test]
    fn menu_pointer_put_somewhere_by_a_script_is_a_move() {
        let mut app = app();
        app.world_mut()
            .resource_mut::<PointerMotion>()
            .expect_warp();
        assert!(frame(&mut app, vec![moved_to(400.0, 300.0)]));
    }
}
