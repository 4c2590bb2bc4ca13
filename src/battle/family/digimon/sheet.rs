//! The Digimon family's unit sheet (see [`crate::battle::sheet`]).

use crate::battle::fighter::Fighter;
use crate::battle::sheet::{SheetContext, SheetSection, Tone, UnitSheet};
use crate::ruleset::digimon::DigimonData;

/// The unit panel of a Digimon or Tamer: stage (and the Default Stage it fell back to), HP
/// with Temporary HP, actions left, its partner, its stats with what effects do to them, the
/// effects on it with potency and turns left, a waiting Direct, and its attacks with their
/// action cost.
pub fn unit_sheet(ctx: &SheetContext, f: &Fighter, d: &DigimonData) -> UnitSheet {
    use crate::battle::family::digimon as dg;
    let state = f.digi.clone().unwrap_or_default();
    let kind = if state.tamer {
        "Tamer".to_string()
    } else {
        match state.form.as_deref().and_then(|id| d.digimon(id)) {
            Some(form) => {
                // Below its own stage it fell back; above it, it Digivolved.
                let fell = d
                    .digimon(&f.identity.archetype)
                    .and_then(|own| own.default_stage.as_deref())
                    == Some(form.id.as_str());
                let how = if fell {
                    "fell back to its Default Stage"
                } else {
                    "Digivolved"
                };
                format!("{} ({}, {how})", form.name, form.stage)
            }
            None => dg::stage(d, f).unwrap_or("?").to_string(),
        }
    };
    let names = ctx.names;
    let partner = state
        .partner
        .and_then(|p| names.get(&p).cloned())
        .map_or(String::new(), |n| format!("  |  partner {n}"));
    let stat = |sec: SheetSection, id: &str, label: &str| {
        let base = dg::base_stat(d, f, id);
        let now = dg::stat(d, f, id);
        if now == base {
            sec.cell(label, now)
        } else {
            sec.toned(
                label,
                format!("{now} ({base}{:+})", now - base),
                Tone::Changed,
            )
        }
    };
    let mut labels: Vec<String> = [
        d.combat.pool_name.as_str(),
        "actions",
        // A Move in the air covers the Fly score.
        if state.airborne > 0 {
            "Fly"
        } else {
            "Movement"
        },
        "Accuracy",
        "Damage",
        "Dodge",
        "Armor",
    ]
    .map(String::from)
    .to_vec();
    let stats = [
        ("ACC", "Accuracy"),
        ("DMG", "Damage"),
        ("DODGE", "Dodge"),
        ("ARM", "Armor"),
    ]
    .into_iter()
    .fold(SheetSection::new("Stats"), |sec, (id, label)| {
        stat(sec, id, label)
    });
    let specs = if state.tamer {
        labels.push("Charisma".into());
        SheetSection::new("Attributes").cell("Charisma", f.attributes.get("CHA"))
    } else {
        labels.extend(["Size", "Body", "Agility", "BIT", "CPU", "RAM"].map(String::from));
        let reach = dg::reach(d, f);
        let sec = SheetSection::new("Attributes").cell(
            "Size",
            crate::battle::family::digimon::grapple::size(d, f).0,
        );
        // The Reach Quality, only where it has one.
        let sec = if reach > 1 {
            labels.push("Reach".into());
            sec.cell("Reach", reach)
        } else {
            sec
        };
        // The Fly score, only where it flies.
        let fly = dg::flight::fly_score(d, f);
        let sec = if fly > 0 {
            labels.push("Fly".into());
            sec.cell("Fly", fly)
        } else {
            sec
        };
        sec.cell("Body", dg::base_stat(d, f, "BODY"))
            .cell("Agility", dg::base_stat(d, f, "AGI"))
            .cell("BIT", dg::base_stat(d, f, "BIT"))
            .cell("CPU", dg::base_stat(d, f, "CPU"))
            .cell("RAM", dg::base_stat(d, f, "RAM"))
    };
    let effects: Vec<String> = state
        .effects
        .iter()
        .map(|e| {
            let name = d.effect(e.kind).map_or("?", |x| x.name.as_str());
            labels.push(name.to_string());
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
        labels.push("Temporary HP".into());
    }
    if let Some((bonus, _)) = state.directed {
        extras.push(format!(
            "Directed: +{bonus} to its next Dodge or Accuracy roll"
        ));
        labels.push("Directed".into());
    }
    if state.haste {
        extras.push("Haste: +1 Simple Action next round".into());
        labels.push("Haste".into());
    }
    if ctx.paused == Some(f.id) {
        let now = ctx
            .active
            .and_then(|a| names.get(&a).cloned())
            .unwrap_or_default();
        extras.push(format!(
            "Handed the turn to {now}: takes it back with {} action(s) when {now} is done",
            f.actions.usable()
        ));
    }
    if state.airborne > 0 {
        labels.push("In the air".into());
        extras.push(format!(
            "In the air, {} squares up: moves by its Fly score over water and rough ground; in melee it reaches and is reached only by flyers",
            state.airborne
        ));
    }
    if let Some(h) = &state.clash {
        let other = names.get(&h.opponent).cloned().unwrap_or_default();
        labels.push("Clash".into());
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
        labels.push("Dodge penalty".into());
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
            labels.extend([a.name.clone(), tag.to_string(), cost.to_string()]);
            format!("{} [{tag}{effect}] ({cost})", a.name)
        })
        .collect();
    let mut pools =
        SheetSection::new("Pools").pool(&d.combat.pool_name, f.life.current, f.life.max);
    if state.temp_hp > 0 {
        pools = pools.cell("Temporary HP", state.temp_hp);
    }
    let turn = SheetSection::new("This round").left(
        "actions",
        f.actions.usable(),
        Some(d.combat.simple_actions),
    );
    // A Move in the air covers the Fly score.
    let turn = if state.airborne > 0 {
        turn.cell("Fly", dg::flight::fly_movement(d, f))
    } else {
        turn.cell("Movement", dg::movement(d, f))
    };
    let mut status = SheetSection::new("Effects").lines(effects).lines(extras);
    if let Some(why) = &state.down {
        status = status.line(format!("OUT OF THE FIGHT: {why}"));
        labels.push("OUT OF THE FIGHT".into());
    } else if f.defeated() {
        status = status.line("DEFEATED (0 HP)");
        labels.push("DEFEATED".into());
    }
    if !status.is_empty() {
        labels.push("Effects".into());
    }
    if !attacks.is_empty() {
        labels.push("Attacks".into());
    }
    let mut sheet = UnitSheet::new(
        kind,
        vec![
            pools,
            turn,
            stats,
            specs,
            status,
            SheetSection::new("Attacks").lines(attacks).detail(),
        ],
        labels,
    );
    sheet.side_note = partner;
    sheet
}
