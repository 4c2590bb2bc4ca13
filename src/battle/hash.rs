//! The state hash's bytes, kept cheap: a combatant's JSON is written again only for the
//! components whose snapshot changed, and the hash is carried on from the last combatant that
//! did not change, so a command that changed one combatant's Life hashes the bytes from that
//! combatant on and writes out only its Life.

use serde::Serialize;
use serde_json::value::RawValue;
use xxhash_rust::xxh3::Xxh3Default;

use super::fighter::Fighter;
use super::snapshot::{COMPONENTS, PartVersions};

/// The bytes the state hash reads are serde_json's of `{"fighters": [..], ..rest}`: the
/// combatants' JSON in id order, then the rest of the battle's state. This keeps each
/// combatant's JSON, its components' JSON and the hash state after it, so that a hash carries
/// on from the last unchanged combatant; the bytes, and so the hash, are those of writing it
/// all out at once (the golden replays, which record the hash after every command, check it).
#[derive(Default)]
pub struct StateHasher {
    fighters: Vec<Written>,
}

/// One combatant as the last hash wrote it.
struct Written {
    /// The snapshot version it was written from.
    version: u64,
    /// Per component, in `FighterQuery`'s order: the version it was written from and its
    /// JSON (`None`: an optional component the combatant does not have).
    parts: Vec<(u64, Option<Box<RawValue>>)>,
    /// The whole combatant's JSON, as serde_json writes a `Fighter`.
    json: String,
    /// The hash state after the bytes up to and including this combatant.
    after: Xxh3Default,
}

/// A `Fighter`'s fields after `id`, in its declaration order (which serde keeps), as
/// `FighterQuery` lists the components; the last two are left out when absent.
const FIELDS: [&str; COMPONENTS] = [
    "identity",
    "side",
    "attributes",
    "power",
    "size",
    "life",
    "ki",
    "capacity",
    "position",
    "conditions",
    "thresholds",
    "defense",
    "actions",
    "round",
    "encounter",
    "loadout",
    "controller",
    "cards",
    "digi",
];

/// Component `c` of `f` (in [`FIELDS`]' order) as JSON; `None` when absent.
fn part_json(f: &Fighter, c: usize) -> Option<Box<RawValue>> {
    fn json(v: &impl Serialize) -> Box<RawValue> {
        // Plain data with string keys: this cannot fail; should it, the error's text stands
        // in, so different states still differ.
        serde_json::value::to_raw_value(v)
            .unwrap_or_else(|e| serde_json::value::to_raw_value(&e.to_string()).unwrap_or_default())
    }
    Some(match c {
        0 => json(&f.identity),
        1 => json(&f.side),
        2 => json(&f.attributes),
        3 => json(&f.power),
        4 => json(&f.size),
        5 => json(&f.life),
        6 => json(&f.ki),
        7 => json(&f.capacity),
        8 => json(&f.position),
        9 => json(&f.conditions),
        10 => json(&f.thresholds),
        11 => json(&f.defense),
        12 => json(&f.actions),
        13 => json(&f.round),
        14 => json(&f.encounter),
        15 => json(&f.loadout),
        16 => json(&f.controller),
        17 => json(f.cards.as_ref()?),
        _ => json(f.digi.as_ref()?),
    })
}

impl Written {
    /// Writes `f` out again where `parts` (its components' versions) say it changed.
    fn update(&mut self, f: &Fighter, version: u64, parts: &PartVersions) {
        for (c, (seen, json)) in self.parts.iter_mut().enumerate() {
            if *seen != parts[c] {
                *json = part_json(f, c);
                *seen = parts[c];
            }
        }
        self.version = version;
        self.json.clear();
        self.json.push_str("{\"id\":");
        self.json.push_str(&f.id.0.to_string());
        for (name, (_, json)) in FIELDS.iter().zip(&self.parts) {
            if let Some(json) = json {
                self.json.push_str(",\"");
                self.json.push_str(name);
                self.json.push_str("\":");
                self.json.push_str(json.get());
            }
        }
        self.json.push('}');
    }

    /// `f` written out whole.
    fn new(f: &Fighter, version: u64, parts: &PartVersions) -> Self {
        let mut w = Self {
            version,
            parts: (0..FIELDS.len())
                .map(|c| (parts[c], part_json(f, c)))
                .collect(),
            json: String::new(),
            after: Xxh3Default::new(),
        };
        // Every part is fresh: only the whole JSON is left to put together.
        w.update(f, version, parts);
        w
    }
}

/// What starts the bytes: the open object and the combatants' list.
const OPEN: &[u8] = b"{\"fighters\":[";

impl StateHasher {
    /// The hash of `fighters` (whose snapshot versions `version` gives by index, and their
    /// components' versions `parts`: a version seen before means the same JSON) followed by
    /// `rest`, a struct whose serde_json bytes start with `{` and a field, written after the
    /// combatants as further fields.
    pub fn hash<'a>(
        &mut self,
        fighters: &[Fighter],
        version: impl Fn(usize) -> (u64, &'a PartVersions),
        rest: &impl Serialize,
    ) -> u64 {
        self.fighters.truncate(fighters.len());
        let unchanged = self
            .fighters
            .iter()
            .enumerate()
            .take_while(|(i, w)| w.version == version(*i).0)
            .count();
        let mut state = match unchanged.checked_sub(1).map(|i| &self.fighters[i]) {
            Some(w) => w.after.clone(),
            None => {
                let mut s = Xxh3Default::new();
                s.update(OPEN);
                s
            }
        };
        for (i, f) in fighters.iter().enumerate().skip(unchanged) {
            let (v, parts) = version(i);
            // A combatant after a changed one keeps its JSON if it did not change itself.
            match self.fighters.get_mut(i) {
                Some(w) if w.version == v => {}
                Some(w) => w.update(f, v, parts),
                None => self.fighters.push(Written::new(f, v, parts)),
            }
            if i > 0 {
                state.update(b",");
            }
            let w = &mut self.fighters[i];
            state.update(w.json.as_bytes());
            w.after = state.clone();
        }
        state.update(b"]");
        // One buffer per thread, reused, for the rest of the state.
        thread_local! {
            static BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        BYTES.with(|b| {
            let mut bytes = b.borrow_mut();
            bytes.clear();
            match serde_json::to_writer(&mut *bytes, rest) {
                // `{"turn":…}` continues the object as `,"turn":…}`.
                Ok(()) if bytes.first() == Some(&b'{') && bytes.len() > 2 => {
                    state.update(b",");
                    state.update(&bytes[1..]);
                }
                Ok(()) => state.update(b"}"),
                Err(e) => state.update(e.to_string().as_bytes()),
            }
        });
        state.digest()
    }
}

#[cfg(test)]
mod tests {
    use super::{COMPONENTS, Written};
    use crate::ai::Policy;

    #[test]
    fn a_combatant_put_together_from_its_components_is_serde_json_of_the_fighter() {
        // Every family's combatants (cards, Digimon state, d20 and shinobi loadouts), a few
        // commands into a battle of each shipped scenario.
        for path in crate::scenario::shipped() {
            let loaded = crate::scenario::load(&path).expect("a shipped scenario loads");
            let mut game = crate::sim::AiMatch::new(&loaded, 3, &[Policy::Random], 4)
                .expect("a shipped scenario plays");
            for _ in 0..30 {
                if game.finished() {
                    break;
                }
                game.step().expect("the random player's commands are legal");
            }
            for f in game.battle.fighters() {
                let written = Written::new(&f, 0, &[0; COMPONENTS]);
                let whole = serde_json::to_string(&f).expect("a fighter serialises");
                assert_eq!(written.json, whole, "{}", path.display());
            }
        }
    }
}
