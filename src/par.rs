//! Many independent seeded battles on every core, their results in battle order whatever
//! the number of threads: what `simulate` and `soak` share.

use rayon::prelude::*;

/// A worker's stack: 8 MiB, what the main thread gets on Linux and macOS, so deep rule
/// evaluation cannot fail only on a worker.
const WORKER_STACK: usize = 8 << 20;

/// How many threads to play on when the user does not say: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// `f(i)` for every `i` in `0..n`, run on `jobs` threads (at least one) that take the next
/// battles as they free up (battles differ a hundredfold in length), returned in order of `i`.
/// Whatever `jobs` is, the same `f` gives the same vector.
pub fn map_in_order<T, F>(n: u64, jobs: usize, f: F) -> Result<Vec<T>, String>
where
    T: Send,
    F: Fn(u64) -> T + Sync + Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .stack_size(WORKER_STACK)
        .thread_name(|i| format!("battle-{i}"))
        .build()
        .map_err(|e| format!("cannot start {jobs} worker threads: {e}"))?;
    let n = usize::try_from(n).map_err(|_| format!("{n} battles are too many to count"))?;
    // One battle per task: rayon would otherwise split the range into runs that a thread keeps.
    Ok(pool.install(|| {
        (0..n)
            .into_par_iter()
            .with_max_len(1)
            .map(|i| f(i as u64))
            .collect()
    }))
}
