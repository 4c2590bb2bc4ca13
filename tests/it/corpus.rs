//! The bad-input corpus: more than 10,000 files derived, deterministically, from every shipped
//! rules file, scenario and save (the golden replays) by eight kinds of damage — byte flips,
//! truncations, duplicated keys, deep nesting, huge numbers, wrong variants, unknown ids and
//! missing fields — each fed to its loader. Every file the loader refuses must be refused with
//! a typed error that says where (file, line and column, or the field), none may panic, and
//! none may take a second. A damaged file that still reads as a valid one (a flipped letter in
//! a name, a field with a default removed) must load completely; those are counted apart.
//! It is in the full-size tier (`#[ignore]`d in the quick `cargo test`; CI runs it with
//! `cargo test --profile fast --no-default-features -- --ignored`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gridclash::ruleset::{Rules, RulesError, RulesErrors, rules_root};
use gridclash::save::{LoadError, Restore};
use gridclash::scenario;

/// SplitMix64: the corpus is the same on every machine and every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The eight kinds of damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Damage {
    FlipByte,
    Truncate,
    DuplicateKey,
    DeepNesting,
    HugeNumber,
    WrongVariant,
    UnknownId,
    MissingField,
}

const ALL: [Damage; 8] = [
    Damage::FlipByte,
    Damage::Truncate,
    Damage::DuplicateKey,
    Damage::DeepNesting,
    Damage::HugeNumber,
    Damage::WrongVariant,
    Damage::UnknownId,
    Damage::MissingField,
];

/// Byte ranges of `text` that match `is_start` then continue while `cont` holds, outside
/// comments.
fn tokens(
    text: &str,
    is_start: impl Fn(u8) -> bool,
    cont: impl Fn(u8) -> bool,
) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let boundary = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if boundary && is_start(b[i]) {
            let start = i;
            i += 1;
            while i < b.len() && cont(b[i]) {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// The lines that hold one `key: value` (a field), as byte ranges of the whole line.
fn field_lines(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let key_len = t
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
            .count();
        if key_len > 0 && t[key_len..].trim_start().starts_with(':') && !t.starts_with("//") {
            out.push((at, at + line.len()));
        }
        at += line.len();
    }
    out
}

fn splice(text: &str, (a, b): (usize, usize), with: &str) -> Vec<u8> {
    let mut out = text.as_bytes()[..a].to_vec();
    out.extend_from_slice(with.as_bytes());
    out.extend_from_slice(&text.as_bytes()[b..]);
    out
}

/// One damaged copy of `text`, or `None` when this kind of damage finds nothing to damage.
fn damage(text: &str, kind: Damage, rng: &mut Rng) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    let pick = |v: &Vec<(usize, usize)>, rng: &mut Rng| -> Option<(usize, usize)> {
        (!v.is_empty()).then(|| v[rng.below(v.len())])
    };
    match kind {
        Damage::FlipByte => {
            let mut out = bytes.to_vec();
            let i = rng.below(out.len());
            out[i] ^= 1 << rng.below(8);
            Some(out)
        }
        Damage::Truncate => Some(bytes[..rng.below(bytes.len())].to_vec()),
        Damage::DuplicateKey => {
            let line = pick(&field_lines(text), rng)?;
            let copy = &text[line.0..line.1];
            Some(splice(text, (line.1, line.1), copy))
        }
        Damage::DeepNesting => {
            let line = pick(&field_lines(text), rng)?;
            let colon = text[line.0..line.1].find(':')? + line.0 + 1;
            let depth = [64, 129, 500, 5_000, 50_000][rng.below(5)];
            let (open, close) = [("[", "]"), ("(", ")"), ("Some(", ")")][rng.below(3)];
            let nested = format!(" {}1{},\n", open.repeat(depth), close.repeat(depth));
            Some(splice(text, (colon, line.1), &nested))
        }
        Damage::HugeNumber => {
            let numbers = tokens(text, |c| c.is_ascii_digit(), |c| c.is_ascii_digit());
            let n = pick(&numbers, rng)?;
            let huge = [
                "99999999999999999999999999999",
                "18446744073709551616",
                "9223372036854775807",
                "4294967296",
                "2147483648",
                "65536",
                "1e309",
                "-9223372036854775808",
            ][rng.below(8)];
            Some(splice(text, n, huge))
        }
        Damage::WrongVariant => {
            let idents = tokens(
                text,
                |c| c.is_ascii_uppercase(),
                |c| c.is_ascii_alphanumeric() || c == b'_',
            );
            let id = pick(&idents, rng)?;
            let other = pick(&idents, rng)?;
            let with = if rng.below(2) == 0 || text[id.0..id.1] == text[other.0..other.1] {
                format!("Bogus{}", rng.below(100))
            } else {
                text[other.0..other.1].to_string()
            };
            Some(splice(text, id, &with))
        }
        Damage::UnknownId => {
            let strings = tokens(text, |c| c == b'"', |c| c != b'"' && c != b'\n');
            let s = pick(&strings, rng)?;
            Some(splice(
                text,
                (s.0 + 1, s.1),
                &format!("no_such_id_{}", rng.below(1000)),
            ))
        }
        Damage::MissingField => {
            let line = pick(&field_lines(text), rng)?;
            Some(splice(text, line, ""))
        }
    }
}

/// True when every error names a line and column (the rules and scenario loaders).
fn rules_errors_located(e: &RulesErrors) -> bool {
    !e.0.is_empty()
        && e.0.iter().all(|e| match e {
            RulesError::Invalid { line, col, .. } => *line >= 1 && *col >= 1,
            RulesError::Unreadable { .. } => false,
        })
}

/// True when a save's error says where: a position, a byte offset, a field, or (for a file
/// too large to read) the file as a whole.
fn load_error_located(e: &LoadError) -> bool {
    match e {
        LoadError::Malformed(r)
        | LoadError::Sides(r)
        | LoadError::Illegal(r)
        | LoadError::Diverged(r) => {
            matches!(r, RulesError::Invalid { line, .. } if *line >= 1)
        }
        LoadError::NewerFormat { at, .. }
        | LoadError::UnknownFormat { at, .. }
        | LoadError::Scenario { at, .. }
        | LoadError::OtherRuleset { at, .. }
        | LoadError::DataChanged { at, .. } => at.line >= 1 && !at.field.is_empty(),
        LoadError::NotText { .. } | LoadError::TooLarge { .. } => true,
        LoadError::Unreadable { .. } => false,
    }
}

/// What a loader said of one damaged file.
enum Verdict {
    /// Refused with a located error.
    Refused,
    /// Still a valid file, loaded completely.
    Valid,
    /// Refused without saying where.
    Unlocated(String),
}

/// One shipped file and how to load a copy of it.
struct Source {
    kind: &'static str,
    /// The shipped file.
    path: PathBuf,
}

fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn shipped_sources() -> Vec<Source> {
    let root = rules_root();
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("rules/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        out.extend(ron_files(&d).into_iter().map(|path| Source {
            kind: "rules",
            path,
        }));
    }
    out.extend(scenario::shipped().into_iter().map(|path| Source {
        kind: "scenario",
        path,
    }));
    let replays = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
    out.extend(
        ron_files(&replays)
            .into_iter()
            .map(|path| Source { kind: "save", path }),
    );
    out
}

/// Copies a ruleset directory into `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("temp ruleset directory");
    for f in ron_files(from) {
        std::fs::copy(&f, to.join(f.file_name().expect("a file name"))).expect("copied");
    }
}

/// Damaged copies of each shipped file.
const PER_FILE: usize = 384;

#[test]
#[ignore = "full-size tier: cargo test --profile fast --no-default-features -- --ignored"]
fn bad_input_corpus_is_refused_with_located_errors_and_never_panics() {
    let sources = shipped_sources();
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut rules_cache: BTreeMap<String, Arc<Rules>> = BTreeMap::new();
    let mut rules_for = |id: &str| -> Result<Arc<Rules>, RulesErrors> {
        if let Some(r) = rules_cache.get(id) {
            return Ok(Arc::clone(r));
        }
        let r = Arc::new(Rules::load(&rules_root().join(id))?);
        rules_cache.insert(id.to_string(), Arc::clone(&r));
        Ok(r)
    };
    let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    let mut files = 0;
    for (n, src) in sources.iter().enumerate() {
        let text = std::fs::read_to_string(&src.path).expect("shipped file is text");
        let name = src.path.file_name().expect("a name").to_owned();
        // Where the damaged copy goes: a ruleset's copy beside the others, a scenario in the
        // shipped scenarios' stead is not needed (it names its ruleset), a save anywhere.
        let (dir, target) = match src.kind {
            "rules" => {
                let ruleset = src.path.parent().expect("in a ruleset");
                let d = tmp.path().join(format!("rules-{n}"));
                copy_dir(ruleset, &d);
                (d.clone(), d.join(&name))
            }
            _ => (tmp.path().to_path_buf(), tmp.path().join(&name)),
        };
        let mut rng = Rng(0xC0FF_EE00 ^ (n as u64) << 20);
        for i in 0..PER_FILE {
            let kind = ALL[i % ALL.len()];
            let Some(bytes) = damage(&text, kind, &mut rng) else {
                continue;
            };
            if bytes == text.as_bytes() {
                continue;
            }
            files += 1;
            std::fs::write(&target, &bytes).expect("damaged copy written");
            let what = format!("{} #{i} ({kind:?})", src.path.display());
            let started = Instant::now();
            let verdict =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match src.kind {
                    "rules" => match Rules::load(&dir) {
                        Ok(_) => Verdict::Valid,
                        Err(e) if rules_errors_located(&e) => Verdict::Refused,
                        Err(e) => Verdict::Unlocated(e.to_string()),
                    },
                    "scenario" => match scenario::load_with(&target, &mut rules_for) {
                        Ok(_) => Verdict::Valid,
                        Err(e) if rules_errors_located(&e) => Verdict::Refused,
                        Err(e) => Verdict::Unlocated(e.to_string()),
                    },
                    _ => match gridclash::save::load(&target, Restore::default()) {
                        Ok(_) => Verdict::Valid,
                        Err(e) if load_error_located(&e) => Verdict::Refused,
                        Err(e) => Verdict::Unlocated(e.to_string()),
                    },
                }));
            let took = started.elapsed();
            if took > slowest.0 {
                slowest = (took, what.clone());
            }
            // A player's (release) build loads each in under a second (the 625-command war save,
            // the slowest, in 0.45 s). A debug build replays it several times slower, and wall
            // time on a busy 2-core machine with the other tests running beside this one
            // reached 8 s: its limit only catches hangs and runaway work.
            let limit = if cfg!(debug_assertions) { 20 } else { 1 };
            if took > Duration::from_secs(limit) {
                failures.push(format!("{what}: took {took:?}"));
            }
            match verdict {
                Ok(Verdict::Refused) => *counts.entry((src.kind, "refused")).or_default() += 1,
                Ok(Verdict::Valid) => *counts.entry((src.kind, "valid")).or_default() += 1,
                Ok(Verdict::Unlocated(msg)) => failures.push(format!("{what}: no location: {msg}")),
                Err(_) => {
                    let keep = tmp.path().join(format!("panic-{n}-{i}.ron"));
                    std::fs::write(&keep, &bytes).ok();
                    failures.push(format!(
                        "{what}: PANICKED (copy kept as {})",
                        keep.display()
                    ));
                }
            }
        }
        std::fs::write(&target, &text).expect("original restored");
    }
    let refused: usize = counts
        .iter()
        .filter(|((_, v), _)| *v == "refused")
        .map(|(_, n)| n)
        .sum();
    println!(
        "corpus: {files} damaged files from {} shipped files; {counts:?}; slowest {:?} ({})",
        sources.len(),
        slowest.0,
        slowest.1
    );
    assert!(
        failures.is_empty(),
        "{} of {files} damaged files failed:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        refused >= 10_000,
        "only {refused} of {files} damaged files were refused; the corpus needs 10,000"
    );
}

/// Inputs the fuzzers once crashed a loader with (`tests/fuzz-regressions/<target>/`, see
/// `fuzz/README.md`): each is loaded again and must be refused (or loaded) without a panic.
#[test]
fn fuzz_regressions_are_refused_without_panic() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut checked = 0;
    let files = gridclash::harness::rules_files();
    for target in ["rules_file", "scenario", "save"] {
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(root.join(target))
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        inputs.retain(|p| p.file_name().is_some_and(|n| n != ".keep"));
        inputs.sort();
        for input in inputs {
            let bytes = std::fs::read(&input).expect("regression input");
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match target {
                "rules_file" => {
                    // The file the fuzz target replaced when it found the crash.
                    let (id, file) = gridclash::harness::rules_file_for(&bytes, &files)
                        .expect("shipped rules files");
                    let dir = tmp.path().join(&id);
                    copy_dir(&rules_root().join(&id), &dir);
                    std::fs::write(dir.join(file), &bytes).expect("written");
                    let _ = Rules::load(&dir);
                }
                "scenario" => {
                    let path = tmp.path().join("scenario.ron");
                    std::fs::write(&path, &bytes).expect("written");
                    let _ = scenario::load(&path);
                }
                _ => {
                    let path = tmp.path().join("save.ron");
                    std::fs::write(&path, &bytes).expect("written");
                    let _ = gridclash::save::load(&path, Restore::default());
                }
            }));
            assert!(outcome.is_ok(), "{} panics again", input.display());
            checked += 1;
        }
    }
    println!("fuzz regressions checked: {checked}");
}
