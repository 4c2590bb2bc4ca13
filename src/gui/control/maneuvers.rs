//! The commands of the maneuver keys that need more than the key to build: the Energy
//! Charge of the attack being aimed, the Digivolution the action bar offers, a flight up or
//! down.

use super::super::session::{Intent, Session};
use crate::battle::command::Command;

/// The Energy Charge the key asks for: once more for the attack being charged, or for the
/// attack being aimed (with a word on the bar when there is none).
pub(super) fn charge_command(
    session: &mut Session,
    who: crate::battle::components::CombatantId,
) -> Option<Command> {
    if let Some(held) = session.battle.fighter(who).and_then(|f| f.encounter.charge) {
        return Some(Command::EnergyCharge {
            who,
            profile: held.profile,
            technique: held.technique,
        });
    }
    match session.intent {
        Intent::Attack { slot } => {
            let slot = session.slots().get(slot)?.clone();
            Some(Command::EnergyCharge {
                who,
                profile: slot.profile,
                technique: slot.technique,
            })
        }
        _ => {
            session.notice = Some("Energy Charge: choose the attack to charge first (1-9)".into());
            None
        }
    }
}

/// The Digivolution the action bar offers, or (when none is legal) the first higher stage on
/// the roster, so that the refusal names the rule that forbids it.
pub(super) fn digivolve_command(
    session: &mut Session,
    who: crate::battle::components::CombatantId,
) -> Option<Command> {
    let offered = session
        .battle
        .bar_view(who)
        .and_then(|b| b.digivolve.first().map(|o| o.into.clone()));
    let into = offered.or_else(|| {
        let rules = session.battle.rules().clone();
        let me = session.battle.fighter(who)?;
        let d = rules.digimon()?;
        Some(
            crate::battle::family::digimon::digivolve::higher_stages(d, &me)
                .first()
                .map_or_else(String::new, |x| x.id.clone()),
        )
    })?;
    Some(Command::Digivolve { who, into })
}

/// Taking to the air when on the ground, landing when in the air: the command asks the rules
/// either way, so a unit with no Fly score hears why.
pub(super) fn fly_command(
    session: &mut Session,
    who: crate::battle::components::CombatantId,
) -> Option<Command> {
    let me = session.battle.fighter(who)?;
    let up = crate::battle::family::digimon::flight::airborne(&me) == 0;
    Some(Command::Fly { who, up })
}
