//! Digivolving in combat: "Digivolve (Simple Action): The Digimon may Digivolve to a higher
//! stage. The Digimon must meet the campaign's prerequisites to do so" (003:21); "it removes
//! all damage taken to its Hit Points, essentially coming in as a new Digimon" (003:89).
//!
//! The higher stage is the roster Digimon whose Default Stage is the one it is now (Greymon's
//! is Agumon), so a partner that fell back to its Default Stage at 0 HP can Digivolve to the
//! stage it fell from. The prerequisites are the ruleset's (`digivolve` in `digimon.ron`):
//! so many times a battle, and only with its Tamer conscious in the fight.

use bevy::prelude::*;

use crate::battle::command::{Command, RuleError};
use crate::battle::event::BattleEvent;
use crate::battle::family::shinobi::spend_ap;
use crate::battle::fighter::Fighter;
use crate::battle::snapshot::Fighters;
use crate::battle::state::take;
use crate::battle::state::{PendingCommand, Progress, RulesRes};
use crate::ruleset::Rules;
use crate::ruleset::digimon::{DigimonData, DigimonDef, DigivolveRule};

/// The stages `f` could Digivolve to from the one it is now, in roster order (none for a
/// Tamer or at the top of its line).
pub fn higher_stages<'d>(d: &'d DigimonData, f: &Fighter) -> Vec<&'d DigimonDef> {
    if super::is_tamer(f) {
        return Vec::new();
    }
    let Some(now) = super::form(d, f) else {
        return Vec::new();
    };
    d.roster
        .digimon
        .iter()
        .filter(|x| x.default_stage.as_deref() == Some(now.id.as_str()))
        .collect()
}

/// The rule that refuses `me` Digivolving to `into` now, or the stage it would become. The
/// turn, the unit being out of the fight and the actions' owner are checked by the caller.
pub fn check_digivolve<'r>(
    rules: &'r Rules,
    fighters: &[Fighter],
    me: &Fighter,
    into: &str,
) -> Result<(&'r DigivolveRule, &'r DigimonDef), RuleError> {
    let (Some(d), Some(rule)) = (
        rules.digimon(),
        rules.digimon().and_then(|d| d.combat.digivolve.as_ref()),
    ) else {
        return Err(RuleError::NotInRuleset {
            what: "Digivolve",
            ruleset: rules.manifest.id.clone(),
        });
    };
    let refuse = |why: String| RuleError::CannotDigivolve { who: me.id, why };
    if super::is_tamer(me) {
        return Err(refuse("a Tamer does not Digivolve".into()));
    }
    let now = super::form(d, me).map_or(me.identity.name.as_str(), |x| x.name.as_str());
    let higher = higher_stages(d, me);
    let Some(def) = higher.iter().copied().find(|x| x.id == into) else {
        let names: Vec<&str> = higher.iter().map(|x| x.name.as_str()).collect();
        return Err(refuse(if names.is_empty() {
            format!("{now} has no higher stage on the roster")
        } else {
            format!(
                "`{into}` is not a higher stage of {now} (it can become {})",
                names.join(", ")
            )
        }));
    };
    let done = me.digi.as_ref().map_or(0, |s| s.digivolved);
    if done >= rule.per_battle {
        return Err(refuse(format!(
            "it has Digivolved {done} time{} this battle, as often as the ruleset allows",
            if done == 1 { "" } else { "s" }
        )));
    }
    if rule.needs_tamer {
        let tamer = me
            .digi
            .as_ref()
            .and_then(|s| s.partner)
            .and_then(|p| fighters.iter().find(|f| f.id == p));
        match tamer {
            None => return Err(refuse("it has no Tamer in the fight".into())),
            Some(t) if t.defeated() => {
                return Err(refuse(format!(
                    "its Tamer {} is out of the fight",
                    t.identity.name
                )));
            }
            Some(_) => {}
        }
    }
    if me.actions.usable() < rule.actions {
        return Err(RuleError::NoActions {
            who: me.id,
            what: "Simple Action",
        });
    }
    Ok((rule, def))
}

/// The Digivolve command: its Simple Action paid, the higher stage's stats and attacks, every
/// Hit Point back.
pub fn apply_digivolve(
    rules: Res<RulesRes>,
    mut pending: ResMut<PendingCommand>,
    mut log: ResMut<crate::battle::event::EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let Some((who, into)) = take(&mut pending, |c| match c {
        Command::Digivolve { who, into } => Some((*who, into.clone())),
        _ => None,
    }) else {
        return;
    };
    progress.0 = true;
    let rules = &rules.0;
    let Some(d) = rules.digimon() else {
        return;
    };
    let (Some(rule), Some(def)) = (d.combat.digivolve.as_ref(), d.digimon(&into)) else {
        return;
    };
    let Some(mut f) = q.one_mut(who) else {
        return;
    };
    let snap = f.snapshot();
    let from = super::form(d, &snap).map_or_else(
        || snap.identity.name.clone(),
        |x| format!("{} ({})", x.name, x.stage),
    );
    spend_ap(&mut f, rule.actions, "Digivolving", &mut log);
    let healed = def.hp - f.life.current;
    f.life.max = def.hp;
    f.life.current = def.hp;
    f.loadout.profiles = crate::ruleset::digimon::loadout(&d.combat, &def.attacks);
    let archetype = snap.identity.archetype.clone();
    if let Some(state) = f.digi.as_mut() {
        state.form = (def.id != archetype).then(|| def.id.clone());
        state.digivolved += 1;
        // A stage without wings comes down to the ground.
        if def.fly == 0 {
            state.airborne = 0;
        }
    }
    log.push(BattleEvent::Digivolved {
        who,
        into: def.id.clone(),
        text: format!(
            "{} Digivolves from {from} into {} ({}): all damage removed ({healed:+} HP), {} HP.",
            snap.identity.name, def.name, def.stage, def.hp
        ),
    });
}
