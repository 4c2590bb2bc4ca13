//! Percentiles of timing samples, taken the same way by every report that prints them
//! (`simulate --timings`, `gridclash bench`, `play --frame-stats`): the nearest rank.

/// The value at quantile `q` (0 to 1) of `sorted` (ascending), by nearest rank; the default
/// (zero) for an empty sample.
pub fn nearest_rank<T: Copy + Default>(sorted: &[T], q: f64) -> T {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}
