//! The unit panel: the combatant under the cursor (or the one acting), as its ruleset's family
//! shows a unit: DBU's pools and conditions, power stages' cards, the ninja chapter's, d20's and
//! Digimon's sheets.

use bevy::prelude::*;

use super::{shown_unit, side_name};
use crate::gui::palette;
use crate::gui::session::Session;

pub(super) fn unit_text(session: &mut Session, cursor: Option<crate::grid::Square>) -> String {
    let Some(f) = shown_unit(session, cursor) else {
        return String::new();
    };
    let rules = session.battle.rules().clone();
    if let Some(data) = rules.stages() {
        return stage_unit_text(session, &f, data);
    }
    if let Some(d) = rules.d20() {
        return d20_unit_text(session, &f, d);
    }
    if let Some(d) = rules.digimon() {
        return digimon_unit_text(session, &f, d);
    }
    if let Some(data) = rules.action_points() {
        return shinobi_unit_text(session, &f, data);
    }
    let d = f.derived(&rules);
    let attrs = f
        .attributes
        .0
        .iter()
        .map(|(k, v)| format!("{} {v}", k.to_uppercase()))
        .collect::<Vec<_>>()
        .join("  ");
    let mut out = format!(
        "{} {}  |  {}\n{} ({})\nLife {}/{}   Ki {}/{}   Capacity {}/{}\nToP {}   {}\nHaste {}  Awareness {}  Defense Value {}  Soak {}\nSpeed {} / Boosted {}\nActions: {} standard, {} counter  |  moves {}/2",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        f.identity.archetype,
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        f.life.current,
        f.life.max,
        f.ki.current,
        f.ki.max,
        f.capacity.current,
        f.capacity.max,
        f.power.tier,
        attrs,
        d.haste,
        d.awareness,
        d.defense_value,
        d.soak,
        d.normal_speed,
        d.boosted_speed,
        f.actions.usable(),
        f.actions.counter,
        f.round.moves,
    );
    if f.defeated() {
        out.push_str("\nDEFEATED");
    }
    for c in &f.conditions.0 {
        let def = rules.condition(c.kind);
        let until = match c.expires {
            crate::battle::components::Expiry::UntilEnded => "until ended".to_string(),
            crate::battle::components::Expiry::EndOfRound(r) => format!("until end of round {r}"),
            crate::battle::components::Expiry::EndOfTurn { round, .. } => {
                format!("until a turn's end in round {round}")
            }
        };
        let stacks = if c.stacks > 1 {
            format!(" x{}", c.stacks)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "\n[{}] {}{stacks} ({until}): {}",
            palette::badge(&def.name),
            def.name,
            def.description
        ));
    }
    out
}

/// The unit panel of a power-stages combatant: life cards, stage and power, the cards it holds
/// (its maneuvers), its deck and discard pile, and what is left of its turn.
fn stage_unit_text(
    session: &Session,
    f: &crate::battle::fighter::Fighter,
    data: &crate::ruleset::stages::StageData,
) -> String {
    let names = &data.combat.pool_names;
    let power = crate::battle::family::stages::power(data, f);
    let mut out = format!(
        "{} {}  |  {}\n{} ({})\n{} {}/{}   {} {}/{} (power {power})\nSpeed {}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        f.identity.archetype,
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        names.life,
        f.life.current,
        f.life.max,
        names.stages,
        f.ki.current,
        f.ki.max,
        f.derived(session.battle.rules()).normal_speed,
    );
    if let Some(cards) = &f.cards {
        let hand: Vec<String> = cards
            .hand
            .iter()
            .map(|(id, n)| {
                let name = crate::battle::family::stages::card_name(data, id);
                if *n > 1 { format!("{name} x{n}") } else { name }
            })
            .collect();
        out.push_str(&format!(
            "\nHand ({}): {}\nDeck {}  |  discarded {}\nThis turn: {} of {} move(s), {} of {} attack(s)",
            cards.held(),
            if hand.is_empty() {
                "empty".to_string()
            } else {
                hand.join(", ")
            },
            cards.deck.values().sum::<u32>(),
            cards.discard.values().sum::<u32>(),
            f.round.moves,
            data.combat.turn.moves,
            cards.attacks_this_turn,
            data.combat.turn.attacks,
        ));
        if cards.passed {
            out.push_str("\nPassed after a Final Physical Attack: no attacks or blocks this round");
        }
    }
    if f.defeated() {
        out.push_str("\nDEFEATED (no life cards left)");
    }
    out
}

/// The unit panel of a shinobi: HP and chakra (and whether Deflect takes its penalty), AP left
/// this round, weapon, abilities and ranks, move, and the attacks it knows with their costs.
fn shinobi_unit_text(
    session: &Session,
    f: &crate::battle::fighter::Fighter,
    data: &crate::ruleset::shinobi::ShinobiData,
) -> String {
    use crate::ruleset::shinobi::StatKind;
    let names = &data.combat.pool_names;
    let stats = |kind: StatKind| {
        data.combat
            .stats
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| format!("{} {}", s.id, f.attributes.get(&s.id)))
            .collect::<Vec<_>>()
            .join("  ")
    };
    let ninja = data.ninja(&f.identity.archetype);
    let weapon = ninja
        .and_then(|n| n.weapon.clone())
        .unwrap_or_else(|| "none (cannot Block)".into());
    let deflect = if crate::battle::family::shinobi::above_deflect_line(data, f) {
        ""
    } else {
        " (Deflect at -5)"
    };
    let attacks: Vec<String> = ninja
        .map(|n| n.attacks.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|id| data.attack(id))
        .map(|a| {
            let chakra = if a.chakra > 0 {
                format!(", {} chakra", a.chakra)
            } else {
                String::new()
            };
            format!("{} ({} AP{chakra})", a.name, a.ap)
        })
        .collect();
    let mut out = format!(
        "{} {}  |  {}\n{} ({})\n{} {}/{}   {} {}/{}{deflect}\nAP {} of {} left this round  |  move {} squares\nWeapon: {weapon}\n{}\n{}\n{}\nAttacks: {}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        ninja.map_or(f.identity.archetype.as_str(), |n| n.name.as_str()),
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        names.life,
        f.life.current,
        f.life.max,
        names.chakra,
        f.ki.current,
        f.ki.max,
        f.actions.usable(),
        data.combat.action_points,
        f.derived(session.battle.rules()).normal_speed,
        stats(StatKind::Ability),
        stats(StatKind::Rank),
        stats(StatKind::Skill),
        attacks.join(", "),
    );
    if f.defeated() {
        out.push_str("\nDEFEATED (0 HP)");
    }
    out
}

/// The unit panel of a d20 character: HP, actions left this round and whether its attack of
/// opportunity is spent, weapon with damage type and critical, armour with its DR by type
/// after wear, feats, abilities and skills, move, and its attacks with their cost now.
fn d20_unit_text(
    session: &Session,
    f: &crate::battle::fighter::Fighter,
    d: &crate::ruleset::d20::D20Data,
) -> String {
    use crate::ruleset::shinobi::StatKind;
    let stats = |kind: StatKind| {
        d.combat
            .stats
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| format!("{} {}", s.id, f.attributes.get(&s.id)))
            .collect::<Vec<_>>()
            .join("  ")
    };
    let c = d.character(&f.identity.archetype);
    let weapon = c
        .and_then(|c| d.weapon(&c.weapon))
        .map_or("none".into(), |w| {
            let crit = w.critical.unwrap_or(d.combat.critical);
            format!(
                "{} ({} effect {}, {}/x{}{})",
                w.name,
                d.damage_type_name(&w.damage_type),
                w.effect,
                crit.threat,
                crit.multiplier,
                w.range_increment
                    .map_or(String::new(), |i| format!(", {i}-square increments"))
            )
        });
    let armour = c
        .and_then(|c| c.armour.as_deref())
        .and_then(|id| d.armour(id))
        .map_or("none".into(), |a| {
            let cols: Vec<String> = d
                .combat
                .damage_types
                .iter()
                .filter(|t| a.by_type.contains_key(&t.id))
                .map(|t| {
                    let dr = crate::battle::family::d20::armour_dr(d, f, &t.id).map_or(0, |x| x.0);
                    format!("{} {dr}", t.id)
                })
                .collect();
            let worn = if f.encounter.armour_wear > 0 {
                format!(", worn -{}", f.encounter.armour_wear)
            } else {
                String::new()
            };
            format!("{} (DR {}{worn})", a.name, cols.join(" / "))
        });
    let feats = c.map_or(String::new(), |c| {
        c.feats
            .iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    });
    let attacks: Vec<String> = c
        .map(|c| c.attacks.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|id| d.attack(id))
        .map(|a| {
            let cost = crate::battle::family::d20::cost_now(d, f, &a.id);
            if cost == 0 {
                format!("{} (next swing, free)", a.name)
            } else {
                format!(
                    "{} ({cost} action{})",
                    a.name,
                    if cost == 1 { "" } else { "s" }
                )
            }
        })
        .collect();
    let mut out = format!(
        "{} {}  |  {}\n{} ({})\n{} {}/{}\nActions {} of {} left  |  {}attack of opportunity {}  |  move {} squares\nWeapon: {weapon}\nArmour: {armour}\nFeats: {}\n{}\n{}\nAttacks: {}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        c.map_or(f.identity.archetype.as_str(), |c| c.name.as_str()),
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        d.combat.pool_name,
        f.life.current,
        f.life.max,
        f.actions.usable(),
        d.combat.actions_per_round,
        match d.combat.swift_actions {
            0 => String::new(),
            n if f.round.swift_spent < n => "swift action ready  |  ".to_string(),
            _ => "swift action spent  |  ".to_string(),
        },
        if f.actions.counter > 0 {
            "ready"
        } else {
            "spent"
        },
        f.derived(session.battle.rules()).normal_speed,
        if feats.is_empty() {
            "none".to_string()
        } else {
            feats
        },
        stats(StatKind::Ability),
        stats(StatKind::Skill),
        attacks.join(", "),
    );
    if let Some(rule) = &d.combat.prone
        && f.encounter.prone
    {
        out.push_str(&format!(
            "\nPRONE: shots from beyond melee range +{}, its Dodge or parry against melee -{}, until it moves",
            rule.shots, rule.melee
        ));
    }
    if f.encounter.dive_owed {
        out.push_str("\nDived: its next turn starts by spending a Move action on it");
    }
    if f.defeated() {
        out.push_str("\nDEFEATED (0 HP)");
    }
    out
}

/// The unit panel of a Digimon or Tamer: stage (and the Default Stage it fell back to), HP
/// with Temporary HP, actions left, its partner, its stats with what effects do to them, the
/// effects on it with potency and turns left, a waiting Direct, and its attacks with their
/// action cost.
fn digimon_unit_text(
    session: &mut Session,
    f: &crate::battle::fighter::Fighter,
    d: &crate::ruleset::digimon::DigimonData,
) -> String {
    use crate::battle::family::digimon as dg;
    let state = f.digi.clone().unwrap_or_default();
    let kind = if state.tamer {
        "Tamer".to_string()
    } else {
        match state.form.as_deref().and_then(|id| d.digimon(id)) {
            Some(form) => format!(
                "{} ({}, fell back to its Default Stage)",
                form.name, form.stage
            ),
            None => dg::stage(d, f).unwrap_or("?").to_string(),
        }
    };
    let names = session.battle.names();
    let partner = state
        .partner
        .and_then(|p| names.get(&p).cloned())
        .map_or(String::new(), |n| format!("  |  partner {n}"));
    let stat = |id: &str, label: &str| {
        let base = dg::base_stat(d, f, id);
        let now = dg::stat(d, f, id);
        if now == base {
            format!("{label} {now}")
        } else {
            format!("{label} {now} ({base}{:+})", now - base)
        }
    };
    let stats = [
        stat("ACC", "Accuracy"),
        stat("DMG", "Damage"),
        stat("DODGE", "Dodge"),
        stat("ARM", "Armor"),
    ]
    .join("  ");
    let specs = if state.tamer {
        format!("Charisma mod {}", f.attributes.get("CHA"))
    } else {
        format!(
            "Size {}  Body {}  Agility {}  BIT {}  CPU {}  RAM {}",
            crate::battle::family::digimon::grapple::size(d, f).0,
            dg::base_stat(d, f, "BODY"),
            dg::base_stat(d, f, "AGI"),
            dg::base_stat(d, f, "BIT"),
            dg::base_stat(d, f, "CPU"),
            dg::base_stat(d, f, "RAM"),
        )
    };
    let effects: Vec<String> = state
        .effects
        .iter()
        .map(|e| {
            let name = d.effect(e.kind).map_or("?", |x| x.name.as_str());
            let by = names.get(&e.source).cloned().unwrap_or_default();
            // Stun and Charm have no number.
            let potency = if e.potency == 0 {
                String::new()
            } else {
                format!(" {}", e.potency)
            };
            format!("{name}{potency} ({} turn(s), from {by})", e.turns)
        })
        .collect();
    let mut extras = Vec::new();
    if state.temp_hp > 0 {
        extras.push(format!("Temporary HP {}", state.temp_hp));
    }
    if let Some((bonus, _)) = state.directed {
        extras.push(format!(
            "Directed: +{bonus} to its next Dodge or Accuracy roll"
        ));
    }
    if state.haste {
        extras.push("Haste: +1 Simple Action next round".into());
    }
    if session.battle.turn().paused == Some(f.id) {
        let now = session
            .battle
            .active()
            .and_then(|a| names.get(&a).cloned())
            .unwrap_or_default();
        extras.push(format!(
            "Handed the turn to {now}: takes it back with {} action(s) when {now} is done",
            f.actions.usable()
        ));
    }
    if let Some(h) = &state.clash {
        let other = names.get(&h.opponent).cloned().unwrap_or_default();
        extras.push(if h.control {
            format!("Controls a Clash with {other}: no Dodge; Attack (Complex), End, Pin, Throw")
        } else if h.pinned {
            format!("Held and Pinned in a Clash by {other}: no actions, no Dodge")
        } else {
            format!("Held in a Clash by {other}: no actions, no Dodge")
        });
    }
    if f.defense.diminishing > 0 {
        extras.push(format!(
            "Dodge penalty -{} this round",
            f.defense.diminishing
        ));
    }
    // The Clash actions everyone has are on the action bar, not listed here.
    let attacks: Vec<String> = dg::attacks_now(d, f)
        .iter()
        .filter_map(|id| d.attack(id))
        .filter(|a| a.clash.is_none())
        .map(|a| {
            let tag = match a.tag {
                crate::ruleset::digimon::Tag::Melee => "Melee",
                crate::ruleset::digimon::Tag::Ranged => "Ranged",
                crate::ruleset::digimon::Tag::Area => "Area",
            };
            let effect = a
                .effect
                .and_then(|k| d.effect(k))
                .map_or(String::new(), |e| format!(", {}", e.name));
            let cost = if a.complex { "Complex" } else { "Simple" };
            format!("{} [{tag}{effect}] ({cost})", a.name)
        })
        .collect();
    let mut out = format!(
        "{} {}  |  {kind}\n{} ({}){partner}\n{} {}/{}  |  actions {} of {} left  |  Movement {}\n{stats}\n{specs}\nEffects: {}{}\nAttacks: {}",
        palette::side_mark(usize::from(f.side.0)),
        f.identity.name,
        side_name(session, f.side.0),
        session
            .controls
            .get(usize::from(f.side.0))
            .map_or(String::new(), |c| c.to_string()),
        d.combat.pool_name,
        f.life.current,
        f.life.max,
        f.actions.usable(),
        d.combat.simple_actions,
        dg::movement(d, f),
        if effects.is_empty() {
            "none".to_string()
        } else {
            effects.join(", ")
        },
        if extras.is_empty() {
            String::new()
        } else {
            format!("\n{}", extras.join("  |  "))
        },
        attacks.join(", "),
    );
    if let Some(why) = &state.down {
        out.push_str(&format!("\nOUT OF THE FIGHT: {why}"));
    } else if f.defeated() {
        out.push_str("\nDEFEATED (0 HP)");
    }
    out
}
