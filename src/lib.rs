//! Gridclash: turn-based tactical battles on a square grid, played by tabletop rules.
//!
//! The rules core (`dice`, `ruleset`, `battle`) is headless and builds without a window; the
//! `gui` cargo feature adds the desktop game on top.

pub mod ai;
pub mod balance;
pub mod battle;
pub mod character;
pub mod dice;
pub mod grid;
#[cfg(feature = "gui")]
pub mod gui;
pub mod harness;
pub mod icons;
pub mod par;
pub mod paths;
pub mod percentile;
pub mod ruleset;
pub mod save;
pub mod scenario;
pub mod sim;
