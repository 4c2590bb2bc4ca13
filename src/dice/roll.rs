//! A roll described before it is made ([`RollSpec`]) and the labelled record of how it came out
//! ([`RollBreakdown`]).
//!
//! The rules build one `RollSpec` per roll from the same context assembly that the odds preview
//! uses; [`roll`] turns it into a breakdown with every die and every modifier, and
//! [`crate::dice::dist::distribution`] turns the very same spec into exact odds.
//!
//! Order in which a roll consumes dice (test scripts rely on it): the base die (twice under a
//! Penalization Die), the Superiority die, the other dice groups in order, then the Critical Dice
//! if the roll is a Critical Result.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::formula::DiceGroup;
use super::rng::DiceSource;

/// What a roll is for; decides how it is shown and compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RollKind {
    Strike,
    Dodge,
    Parry,
    Wound,
    Steadfast,
    Initiative,
    /// A Saving Throw, named by its save (`Morale`, `Cognitive`…).
    Save(String),
    /// A Skill Check, named by its skill.
    Skill(String),
    /// A roll that only produces a number, such as Combat Recovery's 1d10(bT).
    Amount(String),
}

impl fmt::Display for RollKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Strike => f.write_str("Strike"),
            Self::Dodge => f.write_str("Dodge"),
            Self::Parry => f.write_str("Parry"),
            Self::Wound => f.write_str("Wound"),
            Self::Steadfast => f.write_str("Steadfast"),
            Self::Initiative => f.write_str("Initiative"),
            Self::Save(s) => write!(f, "{s} Save"),
            Self::Skill(s) => write!(f, "{s} check"),
            Self::Amount(s) => f.write_str(s),
        }
    }
}

/// A flat number added to a roll, labelled with the rule or value it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub label: String,
    pub value: i64,
}

impl Modifier {
    /// A labelled modifier.
    pub fn new(label: impl Into<String>, value: i64) -> Self {
        Self {
            label: label.into(),
            value,
        }
    }
}

/// A group of dice added to a roll, labelled with where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceTerm {
    pub label: String,
    pub group: DiceGroup,
    /// Every die of the group that shows its maximum adds another roll, and again while maxima
    /// come (the Digimon chapter's "Critical Success Dice": "When you roll a 6 … you then get
    /// to roll an additional 6").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exploding: bool,
}

/// The natural die of a roll (DBU's base d10), which decides Critical and Botch Results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseDie {
    pub sides: u32,
    /// 1 normally; 2 under a Penalization Die (roll twice, keep the lower).
    pub rolls: u32,
    /// A natural result at or above this is a Critical Result; `None` when the roll cannot crit.
    pub critical_target: Option<u32>,
    /// A natural result at or below this is a Botch; 0 means it cannot botch.
    pub botch_range: u32,
    /// What a Botch takes off the total (positive number).
    pub botch_penalty: i64,
    /// Why the roll penalizes (shown when `rolls` is 2).
    pub penalization: Option<String>,
    /// A natural maximum adds another roll of the die, and again while maxima come (the d20
    /// system's "keep rolling and adding").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exploding: bool,
}

impl BaseDie {
    /// One roll of a `sides`-sided die that cannot crit, botch or explode: the plain die of a
    /// percentile, a Steadfast roll or the ninja chapter's d20.
    pub fn plain(sides: u32) -> Self {
        Self {
            sides,
            rolls: 1,
            critical_target: None,
            botch_range: 0,
            botch_penalty: 0,
            penalization: None,
            exploding: false,
        }
    }
}

/// The most extra dice one exploding roll adds (a guard against a scripted die that always
/// shows its maximum; the chance of reaching it with a fair d20 is 20^-64).
/// Everything about a [`BaseDie`] that decides its distribution, labels left out: sides,
/// rolls, critical target, botch range, botch penalty and exploding. Caches of exact odds key
/// on it.
pub type BaseShape = (u32, u32, Option<u32>, u32, i64, bool);

impl BaseDie {
    /// This die's [`BaseShape`].
    pub fn shape(&self) -> BaseShape {
        (
            self.sides,
            self.rolls,
            self.critical_target,
            self.botch_range,
            self.botch_penalty,
            self.exploding,
        )
    }
}

pub const MAX_EXPLOSIONS: u32 = 64;

/// Everything needed to make a roll or compute its exact odds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollSpec {
    pub kind: RollKind,
    pub base: Option<BaseDie>,
    /// Superiority: one more d10, a Solid Die that never botches and crits only on a 10.
    pub superiority: Option<String>,
    pub dice: Vec<DiceTerm>,
    /// Multi-hit profiles count hits with their dice and deal this much per hit; otherwise 1.
    pub dice_multiplier: i64,
    /// Added when the roll is a Critical Result.
    pub critical_dice: Vec<DiceTerm>,
    pub modifiers: Vec<Modifier>,
    /// Dice an effect removed (Impediment), for the record.
    pub dropped: Vec<String>,
    /// Built for a computer player or a defense policy, which weigh the numbers only: the
    /// terms get no words (the builders ask [`RollSpec::words`]), which otherwise cost more
    /// to write than the odds to work out. Never set on a roll that is made or shown.
    #[serde(skip)]
    pub numbers_only: bool,
}

impl RollSpec {
    /// A roll of `kind` with no dice yet.
    pub fn new(kind: RollKind) -> Self {
        Self {
            kind,
            base: None,
            superiority: None,
            dice: Vec::new(),
            dice_multiplier: 1,
            critical_dice: Vec::new(),
            modifiers: Vec::new(),
            dropped: Vec::new(),
            numbers_only: false,
        }
    }

    /// A term's words, written only when someone may read them (see
    /// [`RollSpec::numbers_only`]).
    pub fn words(&self, write: impl FnOnce() -> String) -> String {
        if self.numbers_only {
            String::new()
        } else {
            write()
        }
    }

    /// Adds a labelled flat modifier (zero modifiers are skipped to keep breakdowns short).
    pub fn add(&mut self, label: impl Into<String>, value: i64) {
        self.add_with(|| label.into(), value);
    }

    /// [`RollSpec::add`] with a label written only when it may be read.
    pub fn add_with(&mut self, label: impl FnOnce() -> String, value: i64) {
        if value != 0 {
            let label = self.words(label);
            self.modifiers.push(Modifier::new(label, value));
        }
    }

    /// Adds a labelled dice group.
    pub fn add_dice(&mut self, label: impl Into<String>, group: DiceGroup) {
        self.add_dice_with(|| label.into(), group);
    }

    /// [`RollSpec::add_dice`] with a label written only when it may be read.
    pub fn add_dice_with(&mut self, label: impl FnOnce() -> String, group: DiceGroup) {
        if group.count > 0 {
            let label = self.words(label);
            self.dice.push(DiceTerm {
                label,
                group,
                exploding: false,
            });
        }
    }

    /// Adds a labelled dice group whose every die explodes on its maximum.
    pub fn add_exploding_dice(&mut self, label: impl Into<String>, group: DiceGroup) {
        if group.count > 0 {
            self.dice.push(DiceTerm {
                label: label.into(),
                group,
                exploding: true,
            });
        }
    }

    /// The sum of the flat modifiers.
    pub fn flat_total(&self) -> i64 {
        self.modifiers.iter().map(|m| m.value).sum()
    }

    /// The spec's dice written the book's way, e.g. `1d10 + 1d4`.
    pub fn dice_text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(b) = &self.base {
            parts.push(format!("1d{}", b.sides));
        }
        if self.superiority.is_some() {
            parts.push("1d10".to_string());
        }
        for d in &self.dice {
            parts.push(d.group.to_string());
        }
        parts.join(" + ")
    }
}

/// One die as it came up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieResult {
    pub label: String,
    pub sides: u32,
    pub face: u32,
    /// False for the higher of two Penalization rolls, which is discarded.
    pub kept: bool,
    pub critical: bool,
    pub botch: bool,
}

/// The readable record of a roll: every die, every modifier, the total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollBreakdown {
    pub kind: RollKind,
    pub dice: Vec<DieResult>,
    pub dice_multiplier: i64,
    pub modifiers: Vec<Modifier>,
    pub critical: bool,
    pub botch: bool,
    pub critical_target: Option<u32>,
    pub botch_range: u32,
    /// The kept natural result of the base die, if the roll had one.
    pub natural: Option<u32>,
    pub dropped: Vec<String>,
    /// The Dice Score: multiplier × kept dice + modifiers, never below 0 (Core Rules: Minimums).
    pub total: i64,
}

impl RollBreakdown {
    /// The sum of the kept dice faces, before the multiplier.
    pub fn dice_sum(&self) -> i64 {
        self.dice
            .iter()
            .filter(|d| d.kept)
            .map(|d| i64::from(d.face))
            .sum()
    }
}

impl fmt::Display for RollBreakdown {
    /// `Strike 14 = d10:7 + d4:3 + Haste 3 + Awareness 1`, with crit and botch marks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        for d in &self.dice {
            let mut s = format!("d{}:{}", d.sides, d.face);
            if !d.kept {
                s.push_str(" (discarded)");
            }
            if d.critical {
                s.push_str(" CRIT");
            }
            if d.botch {
                s.push_str(" BOTCH");
            }
            if d.label != "Base die" {
                s.push_str(&format!(" [{}]", d.label));
            }
            parts.push(s);
        }
        let mut text = parts.join(" + ");
        if self.dice_multiplier != 1 {
            text = format!("{} x ({text})", self.dice_multiplier);
        }
        for m in &self.modifiers {
            let sign = if m.value < 0 { "-" } else { "+" };
            if text.is_empty() {
                text = format!(
                    "{}{} {}",
                    if m.value < 0 { "-" } else { "" },
                    m.label,
                    m.value.abs()
                );
            } else {
                text.push_str(&format!(" {sign} {} {}", m.label, m.value.abs()));
            }
        }
        write!(f, "{} {} = {text}", self.kind, self.total)?;
        for d in &self.dropped {
            write!(f, " (dropped: {d})")?;
        }
        Ok(())
    }
}

/// Makes the roll described by `spec` with `dice`.
pub fn roll(spec: &RollSpec, dice: &mut DiceSource) -> RollBreakdown {
    let mut out = Vec::new();
    let mut critical = false;
    let mut botch = false;
    let mut natural = None;
    let mut modifiers = spec.modifiers.clone();
    if let Some(base) = &spec.base {
        let faces: Vec<u32> = (0..base.rolls.max(1))
            .map(|_| dice.roll(base.sides))
            .collect();
        let kept_at = faces
            .iter()
            .enumerate()
            .min_by_key(|(i, f)| (**f, *i))
            .map(|(i, _)| i)
            .unwrap_or(0);
        let n = faces[kept_at];
        natural = Some(n);
        critical = base.critical_target.is_some_and(|t| n >= t);
        botch = !critical && n <= base.botch_range;
        for (i, face) in faces.iter().enumerate() {
            let kept = i == kept_at;
            out.push(DieResult {
                label: if faces.len() > 1 {
                    format!(
                        "Base die, Penalization: {}",
                        base.penalization.as_deref().unwrap_or("keep the lower")
                    )
                } else {
                    "Base die".to_string()
                },
                sides: base.sides,
                face: *face,
                kept,
                critical: kept && critical,
                botch: kept && botch,
            });
        }
        if critical && base.exploding {
            let mut face = base.sides;
            let mut extra = 0;
            while face == base.sides && extra < MAX_EXPLOSIONS {
                face = dice.roll(base.sides);
                extra += 1;
                out.push(DieResult {
                    label: format!("Natural {}: another d{}", base.sides, base.sides),
                    sides: base.sides,
                    face,
                    kept: true,
                    critical: false,
                    botch: false,
                });
            }
        }
        if botch {
            modifiers.push(Modifier::new(
                format!("Botch (natural {n} <= {})", base.botch_range),
                -base.botch_penalty,
            ));
        }
    }
    if let Some(label) = &spec.superiority {
        let face = dice.roll(10);
        let crit = face == 10;
        critical |= crit;
        out.push(DieResult {
            label: label.clone(),
            sides: 10,
            face,
            kept: true,
            critical: crit,
            botch: false,
        });
    }
    let mut roll_terms = |terms: &[DiceTerm], out: &mut Vec<DieResult>| {
        for term in terms {
            for _ in 0..term.group.count {
                let face = dice.roll(term.group.sides);
                out.push(DieResult {
                    label: term.label.clone(),
                    sides: term.group.sides,
                    face,
                    kept: true,
                    critical: false,
                    botch: false,
                });
                let sides = term.group.sides;
                let (mut last, mut extra) = (face, 0);
                while term.exploding && sides > 1 && last == sides && extra < MAX_EXPLOSIONS {
                    last = dice.roll(sides);
                    extra += 1;
                    out.push(DieResult {
                        label: format!("{}: a {sides} rolls another d{sides}", term.label),
                        sides,
                        face: last,
                        kept: true,
                        critical: false,
                        botch: false,
                    });
                }
            }
        }
    };
    roll_terms(&spec.dice, &mut out);
    if critical {
        roll_terms(&spec.critical_dice, &mut out);
    }
    let mut b = RollBreakdown {
        kind: spec.kind.clone(),
        dice: out,
        dice_multiplier: spec.dice_multiplier,
        modifiers,
        critical,
        botch,
        critical_target: spec.base.as_ref().and_then(|b| b.critical_target),
        botch_range: spec.base.as_ref().map_or(0, |b| b.botch_range),
        natural,
        dropped: spec.dropped.clone(),
        total: 0,
    };
    let raw = b.dice_multiplier * b.dice_sum() + b.modifiers.iter().map(|m| m.value).sum::<i64>();
    b.total = raw.max(0);
    b
}
