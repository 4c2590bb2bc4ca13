//! The Digimon aim panel: the action type and AP, the tie rule, what a hit's effect does to
//! each target (potency and turns as the rules would set them now), and a Clash action's exact
//! chances from the checks that resolve it.

use super::grapple as g;
use crate::battle::aim::{AimContext, AimOption, AimView, pct, roll_lines, target_lines, terms};
use crate::battle::fighter::Fighter;
use crate::battle::odds::RollSummary;
use crate::ruleset::digimon::{ClashMove, DigimonData, EffectKind};

/// The panel: the action, each target's effect and Clash odds, exploding odds, and the rolls
/// (none for an effect that only helps: allies do not roll Dodge for it).
pub fn aim_view(d: &DigimonData, a: &AimContext) -> AimView {
    let p = a.preview;
    let data = &d.ap;
    let me = a.fighter(a.order.attacker);
    let ap = me.map_or_else(
        || crate::battle::family::shinobi::ap_cost(data, &a.order.profile),
        |f| crate::battle::family::shinobi::attack_ap(data, Some(d), f, &a.order.profile),
    );
    let action = if ap >= data.combat.action_points {
        "a Complex Action"
    } else {
        "a Simple Action"
    };
    let head = format!(
        "{}: {action} ({ap} AP)  |  the attacker wins ties",
        p.odds.maneuver
    );
    let mut lines = Vec::new();
    if let (Some((atk, bolstered)), Some(me)) = (super::attack_of(d, &a.order.profile), me) {
        for t in &p.context.targets {
            if let Some((_, why)) = &t.damage_less {
                lines.push(why.clone());
            }
            if let Some(why) = &t.damage_halved {
                lines.push(format!("Damage {why}"));
            }
            if let (Some(m), Some(target)) = (atk.clash, a.fighter(t.id)) {
                lines.push(clash_preview(d, m, me, target));
            }
        }
        if let Some(kind) = atk.effect {
            let name = d.effect(kind).map_or("effect", |e| e.name.as_str());
            for t in &p.context.targets {
                let Some(target) = a.fighter(t.id) else {
                    continue;
                };
                let potency =
                    super::potency(d, kind, me, target, atk.complex || bolstered, bolstered);
                let turns = super::duration(d, kind, me);
                let what = match kind {
                    EffectKind::Knockback => format!(
                        "knocked back {} squares",
                        super::knockback_squares(d, me, target, bolstered)
                    ),
                    EffectKind::Lifesteal => format!(
                        "{} heals up to {potency} HP (once a round)",
                        me.identity.name
                    ),
                    EffectKind::Haste => "+1 Simple Action next round".into(),
                    _ if turns > 0 && potency == 0 => format!("{name} for {turns} turn(s)"),
                    _ if turns > 0 => format!("{name} {potency} for {turns} turn(s)"),
                    _ => format!("{name} {potency}"),
                };
                let when = if super::helps(atk) {
                    "Given to"
                } else {
                    "On a hit,"
                };
                lines.push(format!("{when} {}: {what}", a.name(t.id)));
            }
        }
    }
    lines.extend(target_lines(a, true, |_| false));
    let helping = p
        .odds
        .targets
        .first()
        .and_then(|v| v.first())
        .is_some_and(|o| o.automatic_hit.is_some() && o.expected_damage == 0.0);
    AimView {
        head,
        option: AimOption::None,
        lines,
        rolls: if helping { Vec::new() } else { roll_lines(a) },
    }
}

/// What a Clash action will do, with the exact chances from the rolls that resolve it.
fn clash_preview(d: &DigimonData, m: ClashMove, me: &Fighter, target: &Fighter) -> String {
    match m {
        ClashMove::Start => {
            let mine = terms(&RollSummary::of(&g::check_spec(d, me, target, me.id)));
            let theirs = terms(&RollSummary::of(&g::check_spec(d, target, me, me.id)));
            format!(
                "Clash: {} controls {} ({mine} vs TN {}; {} {theirs} vs TN {})\n\
                 The one not in control may not act; neither may Dodge or move away.",
                me.identity.name,
                pct(g::control_chance(d, me, target, me.id)),
                g::tn(d, target),
                target.identity.name,
                g::tn(d, me),
            )
        }
        ClashMove::Pin => format!(
            "Pin succeeds {}: {} does not roll for control next round",
            pct(g::pin_chance(d, me, target)),
            target.identity.name
        ),
        ClashMove::End => "Ends the Clash: both are free, adjacent".into(),
        ClashMove::Throw => format!(
            "Throw: {} squares away, Damage stat minus Armor; the Clash ends",
            super::stat(d, me, crate::ruleset::digimon::BODY)
        ),
    }
}
