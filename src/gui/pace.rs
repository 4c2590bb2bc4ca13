//! How fast the computer plays in the window, and whether the player skips ahead.

use bevy::prelude::*;

/// How fast the computer plays: seconds between its commands, and whether the player asked
/// to skip ahead to their own next decision.
#[derive(Resource, Debug, Clone, Copy)]
pub struct Pace {
    /// Seconds between the computer's commands.
    pub seconds_per_command: f32,
    /// Play the computer's commands at once until a person must act.
    pub skipping: bool,
}

impl Default for Pace {
    fn default() -> Self {
        Self {
            seconds_per_command: 0.6,
            skipping: false,
        }
    }
}
