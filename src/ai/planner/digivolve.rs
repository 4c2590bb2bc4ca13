//! The planner's Digivolutions (Digimon): what bringing a fallen partner back to its higher
//! stage is worth to the unit.

use super::{Candidate, Situation};
use crate::battle::command::Command;
use crate::battle::fighter::Fighter;
use crate::battle::policy::candidate_attacks;

/// The Digivolutions `me` may make now, each scored as the Hit Points it brings back (weighed
/// as Combat Recovery weighs Life) and the best attack of the higher stage for each action
/// left after it, less the risk of standing here (`risk_here`, worked out once a decision).
pub(super) fn options(
    s: &mut Situation,
    d: &crate::ruleset::digimon::DigimonData,
    fighters: &[Fighter],
    me: &Fighter,
    risk_here: f64,
) -> Vec<Candidate> {
    use crate::battle::family::digimon::digivolve::{check_digivolve, higher_stages};
    let Some(rule) = d.combat.digivolve.as_ref() else {
        return Vec::new();
    };
    let risk = s.settings.risk_weight * risk_here;
    let mut out = Vec::new();
    for x in higher_stages(d, me) {
        let command = Command::Digivolve {
            who: me.id,
            into: x.id.clone(),
        };
        // The turn is the unit's own: the family's rule is the rest of the check.
        if check_digivolve(s.rules, fighters, me, &x.id).is_err() {
            continue;
        }
        let mut evolved = me.clone();
        evolved.life.max = x.hp;
        evolved.life.current = x.hp;
        evolved.loadout.profiles = crate::ruleset::digimon::loadout(&d.combat, &x.attacks);
        evolved.actions.standard = evolved.actions.standard.saturating_sub(rule.actions);
        if let Some(st) = evolved.digi.as_mut() {
            st.form = (x.id != me.identity.archetype).then(|| x.id.clone());
            st.digivolved += 1;
        }
        let mut roster = fighters.to_vec();
        if let Some(r) = roster.iter_mut().find(|r| r.id == me.id) {
            *r = evolved.clone();
        }
        let best = candidate_attacks(s.rules, &roster, &evolved)
            .iter()
            .filter(|o| o.wager == 0)
            .filter_map(|o| s.attack_value(&roster, &evolved, o))
            .fold(0.0f64, f64::max);
        let healed = (x.hp - me.life.current).max(0) as f64;
        out.push(Candidate {
            score: 0.6 * healed + f64::from(evolved.actions.usable()) * best - risk,
            command,
        });
    }
    out
}
