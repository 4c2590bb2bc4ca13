//! `gridclash bench`: what the rules engine costs per command on recorded battles, side by
//! side in one process with a plain-function kernel of the same attack, so the ratio holds on
//! a noisy machine where absolute times do not.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gridclash::battle::Battle;
use gridclash::battle::command::{Command, DefenseChoice};
use gridclash::dice::DiceSource;
use gridclash::dice::roll::RollSpec;
use gridclash::percentile::nearest_rank;
use gridclash::save::{self, Restore, SaveFile};

use crate::BenchArgs;

/// Replays each file `repeat` times, timing every command, then times the kernel on the
/// battle's first attack; prints p50/p95/p99 of both and the ratio of the medians.
pub fn bench(args: &BenchArgs) -> Result<ExitCode, String> {
    for file in &args.files {
        bench_one(file, args.repeat.max(1))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_one(file: &Path, repeat: usize) -> Result<(), String> {
    let (saved, text) = SaveFile::read(file).map_err(|e| e.to_string())?;
    let restored =
        save::restore(&saved, file, &text, Restore::default()).map_err(|e| e.to_string())?;
    let recorded = &restored.battle;
    let rules = recorded.rules().clone();
    let setup = recorded.setup().clone();
    let seed = recorded
        .seed()
        .ok_or_else(|| format!("{}: the battle's dice are not seeded", file.display()))?;
    let commands: Vec<Command> = recorded
        .history()
        .iter()
        .map(|p| p.command.clone())
        .collect();
    let final_hash = recorded.history().last().map(|p| p.hash);

    let mut per_command = Vec::with_capacity(commands.len() * repeat);
    let mut kernel_attack = None;
    for round in 0..repeat {
        let mut battle = Battle::new(rules.clone(), &setup, DiceSource::seeded(seed))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        for (i, cmd) in commands.iter().enumerate() {
            if round == 0
                && kernel_attack.is_none()
                && let Command::Attack(order) = cmd
            {
                kernel_attack = KernelAttack::from_preview(&mut battle, order);
            }
            let t = Instant::now();
            battle
                .submit(cmd.clone())
                .map_err(|e| format!("{}: command {}: {e}", file.display(), i + 1))?;
            per_command.push(t.elapsed());
        }
        if battle.history().last().map(|p| p.hash) != final_hash {
            return Err(format!(
                "{}: the replayed battle ended in another state than the recorded one",
                file.display()
            ));
        }
    }
    let engine = Percentiles::of(&mut per_command);
    out!(
        "{}: {} commands x {repeat}: engine per command p50 {}, p95 {}, p99 {} (submit: \
         validation, rule systems, event log, state hash)",
        file.display(),
        commands.len(),
        micros(engine.p50),
        micros(engine.p95),
        micros(engine.p99),
    );
    let Some(attack) = kernel_attack else {
        out!("  no attack in this battle to run the kernel on");
        return Ok(());
    };
    let kernel = attack.time(seed, per_command.len().max(2_000));
    out!(
        "  kernel, the same attack as plain functions ({}): per attack p50 {}, p95 {}, p99 {}",
        attack.describe(),
        micros(kernel.p50),
        micros(kernel.p95),
        micros(kernel.p99),
    );
    out!(
        "  engine / kernel at p50: {:.0}x",
        engine.p50.as_secs_f64() / kernel.p50.as_secs_f64().max(1e-12)
    );
    Ok(())
}

/// Median, 95th and 99th percentile of a sample.
struct Percentiles {
    p50: Duration,
    p95: Duration,
    p99: Duration,
}

impl Percentiles {
    fn of(sample: &mut [Duration]) -> Self {
        sample.sort_unstable();
        let at = |q: f64| nearest_rank(sample, q);
        Self {
            p50: at(0.50),
            p95: at(0.95),
            p99: at(0.99),
        }
    }
}

fn micros(d: Duration) -> String {
    format!("{:.2} µs", d.as_secs_f64() * 1e6)
}

/// One roll reduced to what a kernel needs: the base die and how it crits and botches, the
/// other dice, and the flat total.
#[derive(Clone)]
struct PlainRoll {
    base: Option<(u32, Option<u32>, u32, i64)>,
    dice: Vec<(u32, u32)>,
    critical_dice: Vec<(u32, u32)>,
    multiplier: i64,
    flat: i64,
}

impl PlainRoll {
    fn of(spec: &RollSpec) -> Self {
        Self {
            base: spec
                .base
                .as_ref()
                .map(|b| (b.sides, b.critical_target, b.botch_range, b.botch_penalty)),
            dice: spec
                .dice
                .iter()
                .map(|t| (t.group.count, t.group.sides))
                .collect(),
            critical_dice: spec
                .critical_dice
                .iter()
                .map(|t| (t.group.count, t.group.sides))
                .collect(),
            multiplier: spec.dice_multiplier,
            flat: spec.flat_total(),
        }
    }

    /// The total, floored at 0, and whether it was a Critical Result.
    fn roll(&self, dice: &mut DiceSource) -> (i64, bool) {
        let mut total = 0;
        let mut critical = false;
        if let Some((sides, crit, botch_range, botch_penalty)) = self.base {
            let n = dice.roll(sides);
            critical = crit.is_some_and(|t| n >= t);
            total += i64::from(n);
            if !critical && n <= botch_range {
                total -= botch_penalty;
            }
        }
        let mut rolled = 0;
        for &(count, sides) in &self.dice {
            for _ in 0..count {
                rolled += i64::from(dice.roll(sides));
            }
        }
        if critical {
            for &(count, sides) in &self.critical_dice {
                for _ in 0..count {
                    rolled += i64::from(dice.roll(sides));
                }
            }
        }
        (
            (total + rolled * self.multiplier + self.flat).max(0),
            critical,
        )
    }
}

/// A DBU attack as a plain function: Strike against the Dodge (the defender wins ties), the
/// Wound less Soak off Life, thresholds counted.
struct KernelAttack {
    strike: PlainRoll,
    dodge: PlainRoll,
    wound: PlainRoll,
    soak: i64,
    life: i64,
    thresholds: Vec<i64>,
}

impl KernelAttack {
    /// The attack `order` as the engine's own preview assembles it, before it is submitted.
    fn from_preview(
        battle: &mut Battle,
        order: &gridclash::battle::command::AttackOrder,
    ) -> Option<Self> {
        let preview = battle.preview(order).ok()?;
        let t = preview.context.targets.first()?;
        let odds = preview.odds.targets.first()?.first()?;
        let target = battle.fighter(t.id)?;
        let rules = battle.rules().clone();
        Some(Self {
            strike: PlainRoll::of(&t.strike),
            dodge: PlainRoll::of(t.defense(DefenseChoice::Dodge)),
            wound: PlainRoll::of(&preview.context.wound),
            soak: odds.soak_used,
            life: target.life.max,
            thresholds: rules
                .damage
                .thresholds
                .iter()
                .map(|th| th.fraction.of(target.life.max))
                .collect(),
        })
    }

    fn describe(&self) -> String {
        let text = |r: &PlainRoll| {
            let mut parts: Vec<String> = r.base.iter().map(|b| format!("1d{}", b.0)).collect();
            parts.extend(r.dice.iter().map(|(c, s)| format!("{c}d{s}")));
            format!("{} {:+}", parts.join(" + "), r.flat)
        };
        format!(
            "Strike {} vs Dodge {}, Wound {} - Soak {}",
            text(&self.strike),
            text(&self.dodge),
            text(&self.wound),
            self.soak
        )
    }

    /// One attack on a target with `life` left; returns the Life after it and the thresholds
    /// it crossed.
    fn resolve(&self, life: i64, dice: &mut DiceSource) -> (i64, usize) {
        let (strike, _) = self.strike.roll(dice);
        let (dodge, _) = self.dodge.roll(dice);
        if strike <= dodge {
            return (life, 0);
        }
        let (wound, _) = self.wound.roll(dice);
        let after = life - (wound - self.soak).max(0);
        let crossed = self
            .thresholds
            .iter()
            .filter(|line| life > **line && after <= **line)
            .count();
        (after, crossed)
    }

    /// Times `n` attacks in batches of 100 (one attack is too short for the clock) and gives
    /// the percentiles of the per-attack time.
    fn time(&self, seed: u64, n: usize) -> Percentiles {
        const BATCH: usize = 100;
        let mut dice = DiceSource::seeded(seed);
        let mut life = self.life;
        let mut crossed = 0;
        let mut sample = Vec::with_capacity(n / BATCH + 1);
        for _ in 0..n.div_ceil(BATCH) {
            let t = Instant::now();
            for _ in 0..BATCH {
                let (after, c) = self.resolve(life, &mut dice);
                crossed += c;
                life = if after <= 0 { self.life } else { after };
            }
            sample.push(t.elapsed() / BATCH as u32);
        }
        // Keep the results alive so the loop is not optimised away.
        std::hint::black_box((life, crossed));
        Percentiles::of(&mut sample)
    }
}
