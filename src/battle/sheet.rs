//! The unit sheet: a combatant's panel as its ruleset's family shows it (pools, stats, what is
//! left of its turn, conditions or effects, what it can attack with), a view model in the core
//! that the window lays out and colours and that tests can read without a window.

use super::components::CombatantId;
use super::event::Names;
use super::fighter::Fighter;
use crate::ruleset::Rules;

/// What a sheet may read of the battle beyond the combatant itself.
pub struct SheetContext<'a> {
    pub rules: &'a Rules,
    /// Every combatant's name, for partners, sources and Clash opponents.
    pub names: &'a Names,
    /// Whose turn it is.
    pub active: Option<CombatantId>,
    /// The one who handed its turn over and waits to take it back (Digimon).
    pub paused: Option<CombatantId>,
}

/// A combatant's sheet: what it is, a note for the side line, and the body as text lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitSheet {
    /// What the unit is: its archetype, ninja, character, or Digimon form and stage.
    pub kind: String,
    /// Added to the line naming its side (a Digimon's partner).
    pub side_note: String,
    /// Pools, stats, turn, conditions and attacks, one line each.
    pub body: String,
    /// The words of the rules the body prints (pools, stats, conditions…), each of which the
    /// ruleset's glossary explains: the window links them to it, and a test holds every
    /// family's sheet to it.
    pub labels: Vec<String>,
}

/// The DBU sheet's fixed words, as [`default_unit_sheet`] prints them.
const DBU_LABELS: [&str; 14] = [
    "Life",
    "Ki",
    "Capacity",
    "ToP",
    "Haste",
    "Awareness",
    "Defense Value",
    "Soak",
    "Speed",
    "Boosted",
    "Actions",
    "standard",
    "counter",
    "moves",
];

/// A short badge for a condition: initials of a multi-word name, else its first two letters.
pub fn badge(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() > 1 {
        words
            .iter()
            .filter_map(|w| w.chars().next())
            .collect::<String>()
            .to_uppercase()
    } else {
        name.chars().take(2).collect()
    }
}

/// The default pipeline's sheet (DBU): Life, Ki and Capacity, Tier of Power and attributes,
/// the derived values, actions and moves left, and each condition with its badge and term.
pub fn default_unit_sheet(ctx: &SheetContext, f: &Fighter) -> UnitSheet {
    let rules = ctx.rules;
    let d = f.derived(rules);
    let attrs = f
        .attributes
        .0
        .iter()
        .map(|(k, v)| format!("{} {v}", k.to_uppercase()))
        .collect::<Vec<_>>()
        .join("  ");
    let mut out = format!(
        "Life {}/{}   Ki {}/{}   Capacity {}/{}\nToP {}   {}\nHaste {}  Awareness {}  Defense Value {}  Soak {}\nSpeed {} / Boosted {}\nActions: {} standard, {} counter  |  moves {}/2",
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
    if let Some(h) = &f.encounter.charge {
        out.push_str(&format!(
            "\n[EC] Energy Charge x{} for {}: Guard Down until it is made",
            h.charges,
            f.charged_name(rules, h)
        ));
    }
    match (f.encounter.arrogance, f.arrogance_penalty(rules)) {
        (Some(_), 0) => out.push_str(
            "\n[AD] Arrogant Declaration made: its price comes when the Superiority ends",
        ),
        (Some(_), p) => out.push_str(&format!(
            "\n[AD] Arrogant Declaration spent: -{p} to Combat Rolls, Surgency and Soak"
        )),
        (None, _) => {}
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
            badge(&def.name),
            def.name,
            def.description
        ));
    }
    let mut labels: Vec<String> = DBU_LABELS.iter().map(|l| l.to_string()).collect();
    labels.extend(f.attributes.0.keys().map(|k| k.to_uppercase()));
    if f.defeated() {
        labels.push("DEFEATED".into());
    }
    if f.encounter.charge.is_some() {
        labels.push("Energy Charge".into());
    }
    if f.encounter.arrogance.is_some() {
        labels.push("Arrogant Declaration".into());
    }
    labels.extend(
        f.conditions
            .0
            .iter()
            .map(|c| rules.condition(c.kind).name.clone()),
    );
    UnitSheet {
        kind: f.identity.archetype.to_string(),
        side_note: String::new(),
        body: out,
        labels,
    }
}
