//! The planner's flights (Digimon): taking to the air when the foes that threaten the unit
//! cannot follow it there, landing when the ground pays better.

use super::{Candidate, Situation};
use crate::battle::command::Command;
use crate::battle::family::digimon::flight::check_fly;
use crate::battle::fighter::Fighter;
use crate::battle::policy::candidate_attacks;
use crate::grid::Square;

/// Taking to the air or landing, if `me` may now: each scored as the best one-action attack
/// it leaves for the actions after it, less the risk of standing here at the new height (the
/// foes' threats worked out again for the flyer).
pub(super) fn options(
    s: &mut Situation,
    fighters: &[Fighter],
    me: &Fighter,
    here: Square,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for up in [true, false] {
        let Ok(height) = check_fly(s.rules, &s.field, me, up) else {
            continue;
        };
        let mut moved = me.clone();
        if let Some(st) = moved.digi.as_mut() {
            st.airborne = height;
        }
        moved.actions.standard = moved.actions.standard.saturating_sub(1);
        moved.round.moves += 1;
        let mut roster = fighters.to_vec();
        if let Some(r) = roster.iter_mut().find(|r| r.id == me.id) {
            *r = moved.clone();
        }
        let family = crate::battle::family::of(s.rules);
        let one_action = family.actions_after(&moved, None);
        let best = candidate_attacks(s.rules, &roster, &moved)
            .iter()
            .filter(|o| o.wager == 0)
            .filter(|o| family.actions_after(&moved, Some(&o.profile)) >= one_action)
            .filter_map(|o| s.attack_value(&roster, &moved, o))
            .fold(0.0f64, f64::max);
        let risk = risk_as(s, &moved, here);
        out.push(Candidate {
            score: f64::from(moved.actions.usable()) * best - s.settings.risk_weight * risk,
            command: Command::Fly { who: me.id, up },
        });
    }
    out
}

/// The risk of `as_me` standing on `here`: the situation's risk with every opponent's threat
/// worked out against it (the height changes who can reach it in melee).
fn risk_as(s: &mut Situation, as_me: &Fighter, here: Square) -> f64 {
    let saved = (s.me.clone(), s.threat.clone());
    let foes: Vec<Fighter> = s.opponents().cloned().collect();
    for o in &foes {
        let t = super::threat_of(s.rules, &s.field, o, as_me);
        s.threat.insert(o.id, t);
    }
    s.me = as_me.clone();
    let risk = s.risk(here);
    (s.me, s.threat) = saved;
    risk
}
