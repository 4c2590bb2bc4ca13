//! The ninja chapter's aim panel: AP and chakra spent, the sneak attack, and per target its
//! sneak contest, concealment miss chance, partial cover and where a push leaves it.

use crate::battle::aim::{AimContext, AimOption, AimView, pct, roll_lines, target_lines};
use crate::battle::components::Square;
use crate::battle::fighter::{Fighter, provoked_by};
use crate::ruleset::shinobi::ShinobiData;

/// The panel: the cost, each target's notes and odds, the rolls.
pub fn aim_view(data: &ShinobiData, a: &AimContext) -> AimView {
    let p = a.preview;
    let ap = super::ap_cost(data, &a.order.profile);
    let mut lines = Vec::new();
    if super::attack(data, &a.order.profile).is_some_and(|x| x.genjutsu) {
        lines.push(format!(
            "Genjutsu: answered only with Gen Resist; a hit blinds (its attacks miss {}%) until it resists on your turn",
            data.combat.blindness
        ));
    }
    for t in &p.context.targets {
        let tname = a.name(t.id);
        if t.automatic_hit == Some(super::HEALING)
            && let (Some(jutsu), Some(f), Some(me)) = (
                super::attack(data, &a.order.profile),
                a.fighter(t.id),
                a.fighter(a.order.attacker),
            )
        {
            let to = (f.life.current + super::healing(data, me, jutsu)).min(f.life.max);
            lines.push(format!(
                "{tname}: an ally: heals {} HP ({} -> {to} of {}), its modifying healing; no roll",
                to - f.life.current,
                f.life.current,
                f.life.max
            ));
            continue;
        }
        if let Some((won, _)) = &t.sneak {
            let (mine, theirs) = data.sneak_skills(super::attack(data, &a.order.profile));
            lines.push(format!(
                "{tname}: sneak contest ({} against {}) won {} (-{} to its defenses); lost, it may strike first",
                data.stat_name(mine),
                data.stat_name(theirs),
                pct(*won),
                data.combat.sneak.penalty
            ));
        }
        if let Some((c, from)) = &t.miss_chance {
            lines.push(format!("{tname}: {c}% miss chance ({from})"));
        }
        if let Some(ab) = &t.absorb {
            lines.push(if ab.full {
                format!(
                    "{tname}: full cover, {} at {} takes every hit and absorbs up to {}",
                    ab.name, ab.at, ab.left
                )
            } else if ab.person.is_some() {
                format!(
                    "{tname}: partial cover, {} stands in the way at {}: {}% of hits strike them (up to their {} HP)",
                    ab.name, ab.at, ab.chance, ab.left
                )
            } else {
                format!(
                    "{tname}: partial cover, {} at {} absorbs up to {} ({}% of hits)",
                    ab.name, ab.at, ab.left, ab.chance
                )
            });
        }
        if let Some(k) = &t.knockback {
            let mut what = format!("{tname}: knocked to {}", k.to);
            if let Some((slam, _)) = &k.slam {
                what.push_str(&format!(", slam {slam}"));
            }
            if let Some(f) = &k.fall {
                what.push_str(&format!(", falls {} ft", f.feet));
            }
            lines.push(what);
        }
    }
    // A jutsu healing an ally hits it for sure and hurts nothing: no answers to list.
    if !p
        .context
        .targets
        .iter()
        .all(|t| t.automatic_hit == Some(super::HEALING))
    {
        lines.extend(target_lines(a, false, |_| false));
    }
    AimView {
        rolls: roll_lines(a),
        head: format!("{}: {ap} AP, {} chakra", p.odds.maneuver, p.ki_cost),
        option: AimOption::Sneak { on: a.order.sneak },
        lines,
    }
}

/// The ninja chapter's dangerous steps: a step that leaves a reach the path entered provokes
/// that opponent's opportunity attack, if it has an action point to make it.
pub fn path_danger(fighters: &[Fighter], me: &Fighter, path: &[Square]) -> Vec<bool> {
    let Some(start) = me.position else {
        return vec![false; path.len()];
    };
    let mut visited = vec![start];
    let mut out = Vec::with_capacity(path.len());
    for s in path {
        let from = visited[visited.len() - 1];
        let provoked = provoked_by(fighters, me, from, *s)
            .into_iter()
            .filter_map(|id| fighters.iter().find(|f| f.id == id))
            .any(|o| {
                o.actions.usable() > 0
                    && super::entered_reach(&visited, me.size.squares, o).is_some()
            });
        out.push(provoked);
        visited.push(*s);
    }
    out
}
