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
                if m == ClashMove::Throw {
                    lines.extend(crash_preview(d, a, me, target));
                }
            }
        }
        if let Some(item) = atk.item {
            let left = super::rolls::items_left(me, atk);
            for target in p.context.targets.iter().filter_map(|t| a.fighter(t.id)) {
                let (now, max) = (target.life.current, target.life.max);
                let to = (now + item.restore).min(max).max(now);
                lines.push(format!(
                    "Used on {}: {} HP back ({now} -> {to} of {max}; it gives up to {})",
                    target.identity.name,
                    to - now,
                    item.restore
                ));
            }
            lines.push(format!(
                "{} of {} left for the battle after this one",
                left.saturating_sub(1),
                item.uses
            ));
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

/// Where a Throw would crash its target into foes: the bonus and each foe's exact chance of
/// being hit, from the rolls that resolve the crash.
fn crash_preview(
    d: &DigimonData,
    a: &AimContext,
    me: &Fighter,
    target: &Fighter,
) -> Option<String> {
    let group = super::throw::crash_targets(d, a.field, a.fighters, me, target);
    let strike = super::throw::crash_strike_spec(d, me)?;
    let wound = super::throw::crash_wound_spec(d, me)?;
    if group.is_empty() {
        return None;
    }
    let odds: Vec<String> = group
        .iter()
        .map(|o| {
            let dodge = super::defense_spec(d, o);
            format!(
                "{} {}",
                o.identity.name,
                pct(super::hit_chance(&strike, &dodge))
            )
        })
        .collect();
    Some(format!(
        "Thrown into {}: a basic [Ranged] attack, {} vs each Dodge; damage {} minus Armor",
        odds.join(", "),
        terms(&RollSummary::of(&strike)),
        terms(&RollSummary::of(&wound)),
    ))
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
