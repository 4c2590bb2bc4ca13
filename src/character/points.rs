//! Point costs: what a unit is worth under its ruleset's price table (`points.ron`
//! `points`), so a skirmish can give each side a budget and a builder can refuse a side
//! that spends more.
//!
//! None of the five texts prices a character for an encounter, so each ruleset's table is
//! ours and says so in its file. A price is read off the character's own sheet (the same
//! fields the character editor shows), so a roster entry and a character of your own are
//! priced alike, and a modder prices a new stat by naming its field.

use super::{Character, Field, Value};
pub use crate::ruleset::build::Price;
use crate::ruleset::{FamilyData, Rules};

/// A DBU minion's whole cost is scaled by this price (`(1, 4)`: a quarter).
pub const MINION: &str = "minion";
/// A Digimon ruleset's Tamer (not made in the editor) costs this flat price.
pub const TAMER: &str = "tamer";

/// One priced line of a unit's cost, for the breakdown the builder and editor show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointLine {
    /// What it prices (`Power Level 5`, `Weapon: rifle`, `Minion`).
    pub what: String,
    /// The price-table key that priced it (`power_level`, `weapon=rifle`).
    pub key: String,
    pub points: i64,
}

/// A unit's cost and where each point came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Points {
    pub total: i64,
    pub lines: Vec<PointLine>,
}

/// The price-table keys that may price `field`, most specific first: its own key
/// (`stats.STR`), the chosen option of a choice (`weapon=rifle`), its kind with a wildcard
/// (`stats.*`, `attacks:*`, `power_stages[*]`), then its sheet heading (`@Skills`).
pub fn keys_for(field: &Field) -> Vec<String> {
    let mut keys = vec![field.key.clone()];
    if let Value::Choice { chosen, .. } = &field.value {
        keys.push(format!("{}={chosen}", field.key));
    }
    if let Some(at) = field.key.find(['.', ':', '[']) {
        let (kind, rest) = field.key.split_at(at);
        let sep = &rest[..1];
        let close = if sep == "[" { "]" } else { "" };
        keys.push(format!("{kind}{sep}*{close}"));
    }
    keys.push(format!("@{}", field.group));
    keys
}

impl Character {
    /// Its cost under `rules`' price table: each priced field of its sheet, then the minion
    /// scale. A ruleset with no table prices everything at 0.
    pub fn points(&self, rules: &Rules) -> Points {
        let prices = &rules.points;
        let mut out = Points::default();
        for field in self.fields(rules) {
            let Some((key, price)) = keys_for(&field)
                .into_iter()
                .find_map(|k| prices.get(&k).map(|p| (k, *p)))
            else {
                continue;
            };
            let (what, points) = match &field.value {
                Value::Number(v) => (
                    format!("{} {v}", field.label),
                    // Saturating: a hand-edited price or value must not overflow.
                    v.saturating_mul(price.points).div_euclid(price.per.max(1)),
                ),
                Value::Toggle(true) => (field.label.clone(), price.points),
                Value::Toggle(false) => continue,
                // A choice is priced only by the option chosen (`weapon=rifle`).
                Value::Choice { chosen, options } => {
                    if !key.ends_with(&format!("={chosen}")) {
                        continue;
                    }
                    let label = options
                        .iter()
                        .find(|(id, _)| id == chosen)
                        .map_or(chosen.as_str(), |(_, l)| l.as_str());
                    (format!("{}: {label}", field.label), price.points)
                }
            };
            if points != 0 {
                out.total = out.total.saturating_add(points);
                out.lines.push(PointLine { what, key, points });
            }
        }
        if let (Self::Dbu(a), Some(p)) = (self, prices.get(MINION))
            && a.minion
        {
            let scaled = out.total.saturating_mul(p.points).div_euclid(p.per.max(1));
            out.lines.push(PointLine {
                what: format!("Minion ({} of {})", scaled, out.total),
                key: MINION.into(),
                points: scaled - out.total,
            });
            out.total = scaled;
        }
        out
    }
}

/// The sheet of roster entry `id` of `rules` (a DBU minion among them), if it has one. Only
/// that entry is cloned: the builder prices every unit row with this.
pub fn roster_character(rules: &Rules, id: &str) -> Option<Character> {
    match &rules.family {
        FamilyData::Dbu => rules
            .roster
            .archetypes
            .iter()
            .find(|a| a.id == id)
            .map(|a| Character::Dbu(Box::new(a.clone()))),
        FamilyData::D20(d) => d
            .roster
            .characters
            .iter()
            .find(|c| c.id == id)
            .map(|c| Character::D20(c.clone())),
        FamilyData::Digimon(d) => d.digimon(id).map(|g| Character::Digimon(g.clone())),
        FamilyData::Shinobi(d) => d
            .roster
            .ninja
            .iter()
            .find(|n| n.id == id)
            .map(|n| Character::Shinobi(n.clone())),
        FamilyData::PowerStages(d) => d
            .roster
            .personalities
            .iter()
            .find(|p| p.id == id)
            .map(|p| Character::Stages(p.clone())),
    }
}

/// What unit `id` of `rules` costs: its sheet's price, or a Digimon ruleset's Tamer's flat
/// price; `None` when the roster has no such unit.
pub fn unit_points(rules: &Rules, id: &str) -> Option<Points> {
    if let Some(c) = roster_character(rules, id) {
        return Some(c.points(rules));
    }
    let tamer = rules.digimon()?.tamer(id)?;
    let price = rules.points.get(TAMER).map_or(0, |p| p.points);
    Some(Points {
        total: price,
        lines: vec![PointLine {
            what: format!("Tamer {}", tamer.name),
            key: TAMER.into(),
            points: price,
        }],
    })
}

/// What is wrong with `rules`' price table: a key no field of any roster entry answers to
/// (a typo would silently price nothing), or a price that is negative or per nothing. Each
/// problem is its key and a message naming the file and the key.
pub fn check_prices(rules: &Rules) -> Vec<(String, String)> {
    let file = crate::ruleset::build::PRICES_FILE;
    let sheets: Vec<Vec<Field>> = Character::templates(rules)
        .iter()
        .map(|c| c.fields(rules))
        .collect();
    let mut out = Vec::new();
    for (key, price) in &rules.points {
        if price.points < 0 || price.per < 1 {
            out.push((
                key.clone(),
                format!(
                    "{file} \"{key}\": a price is 0 or more points per 1 or more, not {} per {}",
                    price.points, price.per
                ),
            ));
        }
        let special = match key.as_str() {
            MINION => matches!(rules.family, FamilyData::Dbu),
            TAMER => matches!(rules.family, FamilyData::Digimon(_)),
            _ => false,
        };
        let used = special
            || sheets
                .iter()
                .flatten()
                .any(|f| keys_for(f).contains(key) || choice_option(f, key));
        if !used {
            out.push((
                key.clone(),
                format!(
                    "{file} \"{key}\": no field of any roster entry is priced by it (a field's \
                     key, `KEY=OPTION`, `KIND.*`, `KIND:*`, `KIND[*]` or `@Heading`)"
                ),
            ));
        }
    }
    out
}

/// Whether `key` names an option `field` could be given (`weapon=rifle` when another weapon
/// is chosen today).
fn choice_option(field: &Field, key: &str) -> bool {
    let Value::Choice { options, .. } = &field.value else {
        return false;
    };
    key.split_once('=')
        .is_some_and(|(k, o)| k == field.key && options.iter().any(|(id, _)| id == o))
}
