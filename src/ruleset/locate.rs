//! Finds where a value sits in RON source text, so errors found after parsing (an unknown
//! profile id, a score over its cap) can still name the file's line and column.
//!
//! This is a skimmer, not a parser: it only needs to walk structs, tuples, lists, maps and
//! `Some(…)` to the value a field path names. It is only used on text that RON already parsed.

/// One step of a path into a RON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// A struct field or a map key.
    Field(String),
    /// A list or tuple element.
    Index(usize),
}

/// A field path such as `archetypes[2].profiles[1]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldPath(pub Vec<Seg>);

impl FieldPath {
    /// The empty path (the whole file).
    pub fn root() -> Self {
        Self(Vec::new())
    }

    /// This path plus a field.
    pub fn field(&self, name: &str) -> Self {
        let mut v = self.0.clone();
        v.push(Seg::Field(name.to_string()));
        Self(v)
    }

    /// This path plus an index.
    pub fn index(&self, i: usize) -> Self {
        let mut v = self.0.clone();
        v.push(Seg::Index(i));
        Self(v)
    }
}

impl std::fmt::Display for FieldPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(file)");
        }
        for (i, s) in self.0.iter().enumerate() {
            match s {
                Seg::Field(n) if i == 0 => write!(f, "{n}")?,
                Seg::Field(n) => write!(f, ".{n}")?,
                Seg::Index(k) => write!(f, "[{k}]")?,
            }
        }
        Ok(())
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The byte offset where the value at `path` starts, if the path exists in `src`.
pub fn locate(src: &str, path: &FieldPath) -> Option<usize> {
    let s = Skimmer { b: src.as_bytes() };
    let mut pos = s.ws(0);
    for seg in &path.0 {
        pos = s.descend(pos, seg)?;
    }
    // Point inside `Some(…)` at the value itself.
    while src[pos..].starts_with("Some") {
        let open = s.ws(pos + 4);
        if !src[open..].starts_with('(') {
            break;
        }
        pos = s.ws(open + 1);
    }
    Some(pos)
}

struct Skimmer<'a> {
    b: &'a [u8],
}

// Every position the skimmer hands on is clamped to the text's length: an unclosed string or
// bracket at the very end of a damaged file would otherwise step one past it (found by the
// `scenario` fuzz target: a raw string opened on the last line).
impl Skimmer<'_> {
    fn ws(&self, i: usize) -> usize {
        let mut i = i.min(self.b.len());
        loop {
            while i < self.b.len() && self.b[i].is_ascii_whitespace() {
                i += 1;
            }
            if self.b[i..].starts_with(b"//") {
                while i < self.b.len() && self.b[i] != b'\n' {
                    i += 1;
                }
            } else if self.b[i..].starts_with(b"/*") {
                let mut depth = 0;
                while i < self.b.len() {
                    if self.b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if self.b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            } else {
                return i;
            }
        }
    }

    fn ident_end(&self, mut i: usize) -> usize {
        while i < self.b.len()
            && (self.b[i].is_ascii_alphanumeric() || matches!(self.b[i], b'_' | b'#'))
        {
            i += 1;
        }
        i
    }

    /// True when a raw string (`r"…"`, `r#"…"#`) starts at `i`, not a raw identifier (`r#side`).
    fn raw_string_at(&self, i: usize) -> bool {
        let hashes = self.b[i + 1..].iter().take_while(|c| **c == b'#').count();
        self.b.get(i + 1 + hashes) == Some(&b'"')
    }

    /// Skips a string, raw string or char literal starting at `i`.
    fn literal_end(&self, mut i: usize) -> usize {
        if self.b[i] == b'r' {
            let mut hashes = 0;
            i += 1;
            while i < self.b.len() && self.b[i] == b'#' {
                hashes += 1;
                i += 1;
            }
            i += 1; // opening quote
            while i < self.b.len() {
                if self.b[i] == b'"' && self.b[i + 1..].iter().take(hashes).all(|c| *c == b'#') {
                    return i + 1 + hashes;
                }
                i += 1;
            }
            return i.min(self.b.len());
        }
        let quote = self.b[i];
        i += 1;
        while i < self.b.len() && self.b[i] != quote {
            if self.b[i] == b'\\' {
                i += 1;
            }
            i += 1;
        }
        (i + 1).min(self.b.len())
    }

    /// The end of the value starting at `i`.
    fn value_end(&self, i: usize) -> usize {
        let i = self.ws(i);
        if i >= self.b.len() {
            return i;
        }
        match self.b[i] {
            b'"' | b'\'' => self.literal_end(i),
            b'r' if self.raw_string_at(i) => self.literal_end(i),
            b'(' | b'[' | b'{' => self.group_end(i),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let e = self.ident_end(i);
                let n = self.ws(e);
                if n < self.b.len() && self.b[n] == b'(' {
                    self.group_end(n)
                } else {
                    e
                }
            }
            _ => {
                let mut e = i;
                while e < self.b.len() && !b",)]}:".contains(&self.b[e]) {
                    if self.b[e].is_ascii_whitespace() {
                        break;
                    }
                    e += 1;
                }
                e
            }
        }
    }

    /// The end of a bracketed group starting at `i`.
    fn group_end(&self, i: usize) -> usize {
        let close = match self.b[i] {
            b'(' => b')',
            b'[' => b']',
            _ => b'}',
        };
        let mut j = self.ws(i + 1);
        while j < self.b.len() && self.b[j] != close {
            j = self.value_end(j);
            j = self.ws(j);
            if j < self.b.len() && (self.b[j] == b',' || self.b[j] == b':') {
                j = self.ws(j + 1);
            } else if j < self.b.len() && self.b[j] != close {
                j += 1; // not well-formed; keep moving
            }
        }
        (j + 1).min(self.b.len())
    }

    /// Moves from a value's start to the start of the child that `seg` names.
    fn descend(&self, i: usize, seg: &Seg) -> Option<usize> {
        let mut i = self.ws(i);
        // Step over a struct name or `Some`, then into the bracket.
        loop {
            if i < self.b.len() && (self.b[i].is_ascii_alphabetic() || self.b[i] == b'_') {
                let e = self.ident_end(i);
                let name = &self.b[i..e];
                let n = self.ws(e);
                if n < self.b.len() && self.b[n] == b'(' {
                    if name == b"Some" {
                        i = self.ws(n + 1);
                        continue;
                    }
                    i = n;
                }
            }
            break;
        }
        if i >= self.b.len() || !b"([{".contains(&self.b[i]) {
            return None;
        }
        let close = match self.b[i] {
            b'(' => b')',
            b'[' => b']',
            _ => b'}',
        };
        let mut j = self.ws(i + 1);
        let mut index = 0;
        while j < self.b.len() && self.b[j] != close {
            // Is this entry `key: value`?
            let key_end = if self.b[j] == b'"' {
                self.literal_end(j)
            } else {
                self.ident_end(j)
            };
            let after_key = self.ws(key_end);
            let (key, value_start) =
                if key_end > j && after_key < self.b.len() && self.b[after_key] == b':' {
                    let raw = &self.b[j..key_end];
                    let raw = raw.strip_prefix(b"\"").unwrap_or(raw);
                    let raw = raw.strip_suffix(b"\"").unwrap_or(raw);
                    let raw = raw.strip_prefix(b"r#").unwrap_or(raw);
                    (Some(raw), self.ws(after_key + 1))
                } else {
                    (None, j)
                };
            match (seg, key) {
                (Seg::Field(name), Some(k)) if k == name.as_bytes() => return Some(value_start),
                (Seg::Index(k), None) if *k == index => return Some(value_start),
                _ => {}
            }
            index += 1;
            j = self.ws(self.value_end(value_start));
            if j < self.b.len() && self.b[j] == b',' {
                j = self.ws(j + 1);
            } else if j < self.b.len() && self.b[j] != close {
                return None;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"// a comment
Roster(
    archetypes: [
        (id: "a", profiles: ["x", "y"]), /* block */
        (
            id: "b",
            weapon: Some(Weapon(name: "gun", damage: "2(T)")),
            attributes: { "AG": 6, "FO": 7 },
            profiles: ["simple", "oops"],
        ),
    ],
)
"#;

    #[test]
    fn finds_nested_fields_and_indexes() {
        let p = FieldPath::root()
            .field("archetypes")
            .index(1)
            .field("profiles")
            .index(1);
        let at = locate(SRC, &p).unwrap();
        assert!(SRC[at..].starts_with("\"oops\""));
        assert_eq!(line_col(SRC, at), (9, 34));
    }

    #[test]
    fn reads_raw_identifiers_and_survives_unclosed_literals() {
        let src = "(units: [(r#side: 1, at: (6, 11))])";
        let p = FieldPath::root().field("units").index(0).field("at");
        assert!(src[locate(src, &p).unwrap()..].starts_with("(6, 11)"));
        let p = FieldPath::root().field("units").index(0).field("side");
        assert!(src[locate(src, &p).unwrap()..].starts_with('1'));
        // Damaged files: every cut of a text with literals ending it is skimmed without panic.
        let src = "(a: r#\"x\"#, b: \"y\\\", c: [r##\"z";
        for end in 0..=src.len() {
            for field in ["a", "b", "c", "d"] {
                let _ = locate(&src[..end], &FieldPath::root().field(field).index(0));
            }
        }
    }

    #[test]
    fn steps_through_some_and_maps() {
        let p = FieldPath::root()
            .field("archetypes")
            .index(1)
            .field("weapon")
            .field("damage");
        assert!(SRC[locate(SRC, &p).unwrap()..].starts_with("\"2(T)\""));
        let p = FieldPath::root()
            .field("archetypes")
            .index(1)
            .field("attributes")
            .field("FO");
        assert!(SRC[locate(SRC, &p).unwrap()..].starts_with('7'));
        assert_eq!(
            locate(SRC, &FieldPath::root().field("nothing")),
            None,
            "a missing field is not found"
        );
    }
}
