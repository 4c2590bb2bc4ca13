//! The anatomy of an Attacking Maneuver as ordered systems: Attack Declaration, the window for
//! Instants, Defense Declaration, Opposed Rolls, Damage, Threshold Saves and the End of the
//! Attack. Each system does one phase and hands over to the next; all the math comes from
//! [`super::context`]. One file per phase: `targeting`, `check` (the one validation gate),
//! `declare`, `defend`, `opposed`, `damage`, `end`.

mod check;
mod damage;
mod declare;
mod defend;
mod end;
mod opposed;
mod targeting;

pub use check::check_attack;
pub use damage::roll_damage;
pub use declare::{
    Provocation, Standing, StandingStill, begin_attack, begin_queued_attack, declare_attack,
    offer_exploit, offer_standing_exploits, open_response_window, queued_ready,
};
pub use defend::{collect_defenses, declare_defense};
pub use end::{end_attack, roll_threshold_saves};
pub use opposed::roll_opposed_checks;
pub use targeting::{attack_targets, template};

use bevy::prelude::*;

use super::state::*;

/// Run condition: an attack is in `phase` and nobody is being waited on.
pub fn attack_in(phase: AttackPhase) -> impl Fn(Res<CurrentAttack>, Res<AwaitingInput>) -> bool {
    move |a: Res<CurrentAttack>, w: Res<AwaitingInput>| {
        w.0.is_none() && a.0.as_ref().is_some_and(|s| s.phase == phase)
    }
}
