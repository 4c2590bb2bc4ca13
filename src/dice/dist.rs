//! Exact probability distributions of rolls, computed from the same [`RollSpec`] that is rolled.
//!
//! Every roll total is a small integer, so a distribution is a dense vector of probabilities with
//! an offset. Convolution is exact up to floating-point rounding (errors around 1e-15), which is
//! what the odds preview, the AI and the sampling tests compare against.

use super::formula::DiceGroup;
use super::roll::RollSpec;

/// A probability distribution over integers: `p[i]` is the chance of `offset + i`.
#[derive(Debug, Clone, PartialEq)]
pub struct Dist {
    pub offset: i64,
    pub p: Vec<f64>,
}

impl Dist {
    /// Certainly `v`.
    pub fn point(v: i64) -> Self {
        Self {
            offset: v,
            p: vec![1.0],
        }
    }

    /// Nothing at all (total probability 0); the neutral element of [`Dist::mix`].
    pub fn empty() -> Self {
        Self {
            offset: 0,
            p: Vec::new(),
        }
    }

    /// One fair die with `sides` faces.
    pub fn die(sides: u32) -> Self {
        let n = sides.max(1) as usize;
        Self {
            offset: 1,
            p: vec![1.0 / n as f64; n],
        }
    }

    /// `count` fair dice with `sides` faces, summed.
    pub fn dice(group: DiceGroup) -> Self {
        let mut d = Self::point(0);
        let one = Self::die(group.sides);
        for _ in 0..group.count {
            d = d.convolve(&one);
        }
        d
    }

    /// `count` dice that each add another roll on their maximum, and again while maxima come
    /// (each die's chain as [`explosion`] follows it).
    pub fn exploding_dice(group: DiceGroup) -> Self {
        let s = i64::from(group.sides.max(2));
        let mut one = Self::empty();
        for face in 1..s {
            one.add_at(face, 1.0 / s as f64);
        }
        one.mix(&explosion(group.sides).shift(s), 1.0 / s as f64);
        let mut d = Self::point(0);
        for _ in 0..group.count {
            d = d.convolve(&one);
        }
        d
    }

    /// The total probability (1 for a proper distribution).
    pub fn mass(&self) -> f64 {
        self.p.iter().sum()
    }

    /// The distribution of the sum of two independent variables.
    pub fn convolve(&self, other: &Dist) -> Dist {
        if self.p.is_empty() || other.p.is_empty() {
            return Dist::empty();
        }
        let mut p = vec![0.0; self.p.len() + other.p.len() - 1];
        for (i, a) in self.p.iter().enumerate() {
            if *a == 0.0 {
                continue;
            }
            for (j, b) in other.p.iter().enumerate() {
                p[i + j] += a * b;
            }
        }
        Dist {
            offset: self.offset + other.offset,
            p,
        }
    }

    /// The same distribution moved by `k`.
    pub fn shift(mut self, k: i64) -> Dist {
        self.offset += k;
        self
    }

    /// The distribution of `k * X` (k ≥ 1).
    pub fn scale(&self, k: i64) -> Dist {
        if k == 1 || self.p.is_empty() {
            return self.clone();
        }
        let k = k.max(1);
        let mut p = vec![0.0; (self.p.len() - 1) * k as usize + 1];
        for (i, a) in self.p.iter().enumerate() {
            p[i * k as usize] += a;
        }
        Dist {
            offset: self.offset * k,
            p,
        }
    }

    /// Adds `weight` times `other` into this (unnormalised) mixture. In place: the AI mixes
    /// thousands of small distributions per decision, so the vector only grows when `other`
    /// reaches outside it.
    pub fn mix(&mut self, other: &Dist, weight: f64) {
        if other.p.is_empty() || weight == 0.0 {
            return;
        }
        if self.p.is_empty() {
            self.offset = other.offset;
        }
        self.cover(other.offset, other.offset + other.p.len() as i64);
        let start = (other.offset - self.offset) as usize;
        for (slot, a) in self.p[start..].iter_mut().zip(&other.p) {
            *slot += a * weight;
        }
    }

    /// Adds `weight` to the chance of `v` (the same as mixing in `Dist::point(v)`).
    fn add_at(&mut self, v: i64, weight: f64) {
        if weight == 0.0 {
            return;
        }
        if self.p.is_empty() {
            self.offset = v;
        }
        self.cover(v, v + 1);
        self.p[(v - self.offset) as usize] += weight;
    }

    /// Grows the vector with zeros so it holds every value in `lo..hi`.
    fn cover(&mut self, lo: i64, hi: i64) {
        let end = self.offset + self.p.len() as i64;
        if hi > end {
            self.p.resize((hi - self.offset) as usize, 0.0);
        }
        if lo < self.offset {
            let grow = (self.offset - lo) as usize;
            self.p.splice(0..0, std::iter::repeat_n(0.0, grow));
            self.offset = lo;
        }
    }

    /// `max(X, floor)`: everything below `floor` is moved onto it.
    pub fn clamp_min(&self, floor: i64) -> Dist {
        self.shifted_floor(0, floor)
    }

    /// `max(X + k, floor)`, without copying `self` first ([`Dist::shift`] then
    /// [`Dist::clamp_min`]): the chances of values at or below the floor are summed onto it,
    /// and no zero chance is kept above the last non-zero one.
    pub fn shifted_floor(&self, k: i64, floor: i64) -> Dist {
        if self.offset + k >= floor || self.p.is_empty() {
            return Dist {
                offset: self.offset + k,
                p: self.p.clone(),
            };
        }
        let mut below = 0.0;
        let mut p = Vec::with_capacity(self.p.len());
        p.push(0.0);
        for (i, a) in self.p.iter().enumerate() {
            let v = self.offset + k + i as i64;
            if v <= floor {
                below += a;
            } else {
                p.push(*a);
            }
        }
        p[0] = below;
        while p.len() > 1 && p.last() == Some(&0.0) {
            p.pop();
        }
        Dist { offset: floor, p }
    }

    /// The chance of exactly `v`.
    pub fn prob(&self, v: i64) -> f64 {
        let i = v - self.offset;
        if i < 0 {
            return 0.0;
        }
        self.p.get(i as usize).copied().unwrap_or(0.0)
    }

    /// The chance of a value at or below `v`.
    pub fn cdf(&self, v: i64) -> f64 {
        let i = v - self.offset;
        if i < 0 {
            return 0.0;
        }
        let end = ((i + 1) as usize).min(self.p.len());
        self.p[..end].iter().sum()
    }

    /// The expected value.
    pub fn mean(&self) -> f64 {
        self.p
            .iter()
            .enumerate()
            .map(|(i, a)| (self.offset + i as i64) as f64 * a)
            .sum()
    }

    /// The smallest and largest values with non-zero chance.
    pub fn range(&self) -> Option<(i64, i64)> {
        let first = self.p.iter().position(|a| *a > 0.0)?;
        let last = self.p.iter().rposition(|a| *a > 0.0)?;
        Some((self.offset + first as i64, self.offset + last as i64))
    }

    /// `P(self > other)` for independent variables: the attacker's chance when ties go to the
    /// defender.
    pub fn prob_greater(&self, other: &Dist) -> f64 {
        // `other.cdf(v - 1)` for each `v` of ours, in one pass: the running sum adds the same
        // terms in the same order as `cdf`'s, so every chance is the same to the last bit.
        let mut total = 0.0;
        let mut below = -0.0;
        let mut summed = 0usize;
        for (i, a) in self.p.iter().enumerate() {
            if *a == 0.0 {
                continue;
            }
            let j = self.offset + i as i64 - 1 - other.offset;
            if j < 0 {
                continue;
            }
            let end = ((j + 1) as usize).min(other.p.len());
            while summed < end {
                below += other.p[summed];
                summed += 1;
            }
            total += a * below;
        }
        total
    }

    /// The distribution of `f(X)` for any integer map.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Dist {
        let mut out = Dist::empty();
        for (i, a) in self.p.iter().enumerate() {
            if *a > 0.0 {
                out.add_at(f(self.offset + i as i64), *a);
            }
        }
        out
    }
}

/// The distribution of the base die's kept natural result: one roll, or the lower of `rolls`.
fn natural_dist(sides: u32, rolls: u32) -> Vec<f64> {
    let s = f64::from(sides);
    let r = rolls.max(1) as i32;
    (1..=sides)
        .map(|n| {
            // P(min >= n) - P(min >= n + 1)
            let ge = |k: u32| ((s - f64::from(k) + 1.0) / s).max(0.0).powi(r);
            ge(n) - ge(n + 1)
        })
        .collect()
}

/// What an exploding die adds after a natural maximum: another roll, and again while maxima
/// come. The chain is followed until the chance of rolling yet another die is below 1e-16 (a
/// d20: 13 dice); that last sliver is put on its smallest total, so the masses still add to 1
/// and no probability is off by more than 1e-16. [`super::roll::MAX_EXPLOSIONS`] caps both.
pub fn explosion(sides: u32) -> Dist {
    let s = i64::from(sides.max(2));
    let p = 1.0 / s as f64;
    let mut out = Dist::empty();
    let mut reach = 1.0; // chance that the k-th extra die is rolled
    for k in 0..super::roll::MAX_EXPLOSIONS {
        let last = k + 1 == super::roll::MAX_EXPLOSIONS;
        for face in 1..=s {
            if face == s && !last {
                continue;
            }
            out.add_at(i64::from(k) * s + face, reach * p);
        }
        reach *= p;
        if reach < 1e-16 && !last {
            out.add_at(i64::from(k + 1) * s + 1, reach);
            break;
        }
    }
    out
}

/// The exact distribution of the total of a roll described by `spec`, including Critical and
/// Botch Results, Penalization, Superiority, the per-hit multiplier and the floor at 0.
pub fn distribution(spec: &RollSpec) -> Dist {
    let (mut plain, crit) = distribution_split(spec);
    plain.mix(&crit, 1.0);
    plain
}

/// Like [`distribution`], split into the part where the roll is not a Critical Result and the
/// part where it is (the two masses add up to 1). Effects that depend on a critical Strike
/// (Cutting's Lethal upgrade) need the split.
pub fn distribution_split(spec: &RollSpec) -> (Dist, Dist) {
    // Only the dice decide the shape; the flat modifiers move it. The planner weighs the same
    // few shapes (a d10 Strike, 3d6, a Wound's dice) thousands of times per decision with
    // different modifiers, so the convolutions are worked out once per shape and thread.
    thread_local! {
        static SHAPES: std::cell::RefCell<bevy::platform::collections::HashMap<Shape, std::rc::Rc<(Dist, Dist)>>> =
            std::cell::RefCell::new(Default::default());
    }
    let key = Shape::of(spec);
    let parts = SHAPES.with(|c| c.borrow().get(&key).cloned());
    let parts = match parts {
        Some(p) => p,
        None => {
            let p = std::rc::Rc::new(unshifted_split(spec));
            SHAPES.with(|c| {
                let mut c = c.borrow_mut();
                if c.len() > 4096 {
                    c.clear();
                }
                c.insert(key, p.clone());
            });
            p
        }
    };
    let flat = spec.flat_total();
    (
        parts.0.shifted_floor(flat, 0),
        parts.1.shifted_floor(flat, 0),
    )
}

/// What of a [`RollSpec`] decides its distribution before the flat modifiers are added: the
/// dice, how they crit, botch and explode, and the per-hit multiplier. Labels are left out.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Shape {
    base: Option<super::roll::BaseShape>,
    superiority: bool,
    /// Count, sides and exploding of each dice term, in order (convolution order matters to
    /// the last bit of a probability).
    dice: Vec<(u32, u32, bool)>,
    multiplier: i64,
    critical_dice: Vec<(u32, u32)>,
}

impl Shape {
    fn of(spec: &RollSpec) -> Self {
        Self {
            base: spec.base.as_ref().map(super::roll::BaseDie::shape),
            superiority: spec.superiority.is_some(),
            dice: spec
                .dice
                .iter()
                .map(|t| (t.group.count, t.group.sides, t.exploding))
                .collect(),
            multiplier: spec.dice_multiplier,
            critical_dice: spec
                .critical_dice
                .iter()
                .map(|t| (t.group.count, t.group.sides))
                .collect(),
        }
    }
}

/// [`distribution_split`] before the flat total is added and the floor at 0 applied.
fn unshifted_split(spec: &RollSpec) -> (Dist, Dist) {
    // Split the base part (base die + Superiority die) by whether it is a Critical Result.
    let mut crit_part = Dist::empty();
    let mut plain_part = Dist::empty();
    let sup: Vec<(i64, bool, f64)> = if spec.superiority.is_some() {
        (1..=10).map(|f| (f, f == 10, 0.1)).collect()
    } else {
        vec![(0, false, 1.0)]
    };
    match &spec.base {
        Some(base) => {
            for (i, pn) in natural_dist(base.sides, base.rolls).into_iter().enumerate() {
                let n = i as u32 + 1;
                let crit = base.critical_target.is_some_and(|t| n >= t);
                let botch = !crit && n <= base.botch_range;
                let value = i64::from(n) - if botch { base.botch_penalty } else { 0 };
                for (s, sc, ps) in &sup {
                    if crit && base.exploding {
                        crit_part.mix(&explosion(base.sides).shift(value + s), pn * ps);
                    } else if crit || *sc {
                        crit_part.add_at(value + s, pn * ps);
                    } else {
                        plain_part.add_at(value + s, pn * ps);
                    }
                }
            }
        }
        None => {
            for (s, sc, ps) in &sup {
                if *sc {
                    crit_part.add_at(*s, *ps);
                } else {
                    plain_part.add_at(*s, *ps);
                }
            }
        }
    }
    let mut crit_dice = Dist::point(0);
    for t in &spec.critical_dice {
        crit_dice = crit_dice.convolve(&Dist::dice(t.group));
    }
    let mut rest = Dist::point(0);
    for t in &spec.dice {
        rest = rest.convolve(&if t.exploding {
            Dist::exploding_dice(t.group)
        } else {
            Dist::dice(t.group)
        });
    }
    let finish = |d: Dist| d.convolve(&rest).scale(spec.dice_multiplier);
    (finish(plain_part), finish(crit_part.convolve(&crit_dice)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::roll::{BaseDie, RollKind};

    fn d10_spec() -> RollSpec {
        let mut s = RollSpec::new(RollKind::Strike);
        s.base = Some(BaseDie {
            sides: 10,
            rolls: 1,
            critical_target: Some(10),
            botch_range: 1,
            botch_penalty: 2,
            penalization: None,
            exploding: false,
        });
        s
    }

    #[test]
    fn plain_d10_has_crit_and_botch_mass() {
        let mut s = d10_spec();
        s.critical_dice.push(crate::dice::roll::DiceTerm {
            label: "Critical Dice".into(),
            group: DiceGroup { count: 1, sides: 6 },
            exploding: false,
        });
        let d = distribution(&s);
        assert!((d.mass() - 1.0).abs() < 1e-12);
        // natural 1 botches to -1, clamped to 0
        assert!((d.prob(0) - 0.1).abs() < 1e-12);
        // natural 10 adds 1d6: 11..16 each 1/60
        assert!((d.prob(16) - 1.0 / 60.0).abs() < 1e-12);
        assert!((d.mean() - (0.0 + (2..=9).sum::<i64>() as f64 / 10.0 + 1.35)).abs() < 1e-9);
    }

    #[test]
    fn penalization_keeps_the_lower() {
        let p = natural_dist(10, 2);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((p[0] - 0.19).abs() < 1e-12);
        assert!((p[9] - 0.01).abs() < 1e-12);
    }

    #[test]
    fn ties_go_to_the_defender_in_prob_greater() {
        let a = Dist::die(10);
        let b = Dist::die(10);
        assert!((a.prob_greater(&b) - 0.45).abs() < 1e-12);
    }

    #[test]
    fn scale_multiplies_hits() {
        let d = Dist::die(4).scale(2);
        assert_eq!(d.range(), Some((2, 8)));
        assert!((d.prob(6) - 0.25).abs() < 1e-12);
        assert_eq!(d.prob(5), 0.0);
    }
}
