//! Build limits: the range each number of a character may take in a ruleset, written as data.
//!
//! The combat chapters give no character-creation caps for d20, Digimon, shinobi or the power
//! stages, so each of those rulesets names its own in a `build` table (our defaults, commented
//! in the file). The loader holds the shipped roster to them and the character editor refuses
//! a value outside them with the same message, naming the file and the limit.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How a build limit's message names its table: `(d20.ron `build` "ability")`.
const BUILD_MARK: &str = "`build`";

/// Limit name → the lowest and highest value allowed, both included.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BuildLimits(pub BTreeMap<String, (i64, i64)>);

impl BuildLimits {
    /// The first of `keys` this table names, with its range: the most specific limit wins
    /// (a Digimon's `"Rookie stat"` before `"stat"`).
    pub fn find<'a>(&self, keys: &[&'a str]) -> Option<(&'a str, i64, i64)> {
        keys.iter()
            .find_map(|k| self.0.get(*k).map(|&(lo, hi)| (*k, lo, hi)))
    }

    /// Why `value` breaks the first limit of `keys` found, if it does: `what` names the value
    /// (`"STR"`), `file` the data file holding the table.
    pub fn refuse(&self, file: &str, keys: &[&str], what: &str, value: i64) -> Option<String> {
        let (key, lo, hi) = self.find(keys)?;
        (!(lo..=hi).contains(&value))
            .then(|| format!("{what} is {lo} to {hi}, not {value} ({file} {BUILD_MARK} \"{key}\")"))
    }

    /// Whether `message` is one [`Self::refuse`] wrote: a limit the editor refuses outright,
    /// even when it is about a whole (the deck) rather than the number just changed.
    pub fn is_limit_message(message: &str) -> bool {
        message.contains(BUILD_MARK)
    }
}

/// How much one field of a character's sheet costs in a skirmish's point budget (`ruleset.ron`
/// `points`): `points` for every `per` of its value (a number), or `points` when it is in the
/// list (a toggle) or chosen (a choice). See [`crate::character::points`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub points: i64,
    #[serde(default = "one")]
    pub per: i64,
}

fn one() -> i64 {
    1
}

/// A ruleset's price table: key (a sheet field, `KEY=OPTION`, `KIND.*`, `@Heading`) → price.
pub type Prices = BTreeMap<String, Price>;

/// The file of a ruleset's directory holding its price table; a ruleset without one prices
/// every unit at 0.
pub const PRICES_FILE: &str = "points.ron";

/// Reads `dir`'s price table, if it has one; a file that does not parse is an error located
/// at its line and column.
pub fn load_prices(dir: &std::path::Path) -> Result<Prices, super::RulesErrors> {
    let file = dir.join(PRICES_FILE);
    if !file.exists() {
        return Ok(Prices::default());
    }
    let src = super::read_text(&file).map_err(|e| super::RulesErrors(vec![e]))?;
    super::parse_ron(&file, &src).map_err(|e| super::RulesErrors(vec![e]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> BuildLimits {
        BuildLimits(
            [
                ("stat".to_string(), (0, 15)),
                ("Rookie stat".to_string(), (0, 6)),
            ]
            .into_iter()
            .collect(),
        )
    }

    #[test]
    fn build_limit_the_most_specific_key_wins() {
        let l = limits();
        assert_eq!(
            l.find(&["Rookie stat", "stat"]),
            Some(("Rookie stat", 0, 6))
        );
        assert_eq!(l.find(&["Mega stat", "stat"]), Some(("stat", 0, 15)));
        assert_eq!(l.find(&["hp"]), None);
    }

    #[test]
    fn build_limit_refusal_names_the_file_and_the_limit() {
        let l = limits();
        assert_eq!(
            l.refuse("digimon.ron", &["Rookie stat", "stat"], "ACC", 6),
            None
        );
        assert_eq!(
            l.refuse("digimon.ron", &["Rookie stat", "stat"], "ACC", 7)
                .as_deref(),
            Some("ACC is 0 to 6, not 7 (digimon.ron `build` \"Rookie stat\")")
        );
        assert_eq!(l.refuse("digimon.ron", &["hp"], "HP", 9000), None);
    }
}
