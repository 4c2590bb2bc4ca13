//! The state hash's bytes, kept cheap: each combatant's JSON is written only when its snapshot
//! changed, and the hash is carried on from the last combatant that did not, so a command that
//! changed one combatant hashes the bytes from that one on, not the whole battle's.

use serde::Serialize;
use serde_json::value::RawValue;
use xxhash_rust::xxh3::Xxh3Default;

use super::fighter::Fighter;

/// The bytes the state hash reads are serde_json's of `{"fighters": [..], ..rest}`: the
/// combatants' JSON in id order, then the rest of the battle's state. This keeps each
/// combatant's JSON and the hash state after it, so that a hash carries on from the last
/// unchanged combatant; the bytes, and so the hash, are those of writing it all out at once.
#[derive(Default)]
pub struct StateHasher {
    /// Per combatant, in id order: the snapshot version its JSON was written from, the JSON,
    /// and the hash state after the bytes up to and including it.
    fighters: Vec<(u64, Box<RawValue>, Xxh3Default)>,
}

/// What starts the bytes: the open object and the combatants' list.
const OPEN: &[u8] = b"{\"fighters\":[";

impl StateHasher {
    /// The hash of `fighters` (whose snapshot versions `version` gives by index: a version
    /// seen before means the same JSON) followed by `rest`, a struct whose serde_json bytes
    /// start with `{` and a field, written after the combatants as further fields.
    pub fn hash(
        &mut self,
        fighters: &[Fighter],
        version: impl Fn(usize) -> u64,
        rest: &impl Serialize,
    ) -> u64 {
        self.fighters.truncate(fighters.len());
        let unchanged = self
            .fighters
            .iter()
            .enumerate()
            .take_while(|(i, (seen, _, _))| *seen == version(*i))
            .count();
        let mut state = match unchanged.checked_sub(1).map(|i| &self.fighters[i]) {
            Some((_, _, after)) => after.clone(),
            None => {
                let mut s = Xxh3Default::new();
                s.update(OPEN);
                s
            }
        };
        for (i, f) in fighters.iter().enumerate().skip(unchanged) {
            let v = version(i);
            // A combatant after a changed one keeps its JSON if it did not change itself.
            if self.fighters.get(i).is_none_or(|(seen, _, _)| *seen != v) {
                // Plain data with string keys: this cannot fail; should it, the error's text
                // stands in, so different states still differ.
                let json = serde_json::value::to_raw_value(f).unwrap_or_else(|e| {
                    serde_json::value::to_raw_value(&e.to_string()).unwrap_or_default()
                });
                let entry = (v, json, Xxh3Default::new());
                if i < self.fighters.len() {
                    self.fighters[i] = entry;
                } else {
                    self.fighters.push(entry);
                }
            }
            if i > 0 {
                state.update(b",");
            }
            state.update(self.fighters[i].1.get().as_bytes());
            self.fighters[i].2 = state.clone();
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
