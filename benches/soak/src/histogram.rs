//! Latencies counted without a lock in buckets under 1.6 % wide, from which
//! percentiles are read.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Sub-buckets per doubling, as bits: 64.
const SUB_BITS: u32 = 6;

/// Values below this many microseconds have a bucket each.
const SUB: u64 = 1 << SUB_BITS;

/// Doublings above [`SUB`] counted: up to 2^28 µs (about 4.5 minutes);
/// longer values land in the last bucket.
const DOUBLINGS: u64 = 22;

/// The number of buckets.
const BUCKETS: usize = (SUB + DOUBLINGS * SUB) as usize;

/// A latency histogram shared by every client.
#[derive(Debug)]
pub(crate) struct Histogram {
    counts: Vec<AtomicU64>,
    max: AtomicU64,
}

impl Histogram {
    pub(crate) fn new() -> Self {
        Self {
            counts: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            max: AtomicU64::new(0),
        }
    }

    /// Counts one latency.
    pub(crate) fn record(&self, latency: Duration) {
        let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        self.counts[index(micros)].fetch_add(1, Ordering::Relaxed);
        self.max.fetch_max(micros, Ordering::Relaxed);
    }

    /// The latency below which a fraction `q` of those counted fall (the
    /// middle of its bucket); `None` when nothing was counted.
    pub(crate) fn quantile(&self, q: f64) -> Option<Duration> {
        let counts: Vec<u64> = self
            .counts
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect();
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let rank = ((q * total as f64).ceil() as u64).clamp(1, total);
        let mut seen = 0;
        for (i, count) in counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                let (low, width) = bounds(i);
                return Some(Duration::from_micros(low + width / 2));
            }
        }
        None
    }

    /// The longest latency counted.
    pub(crate) fn max(&self) -> Duration {
        Duration::from_micros(self.max.load(Ordering::Relaxed))
    }
}

/// The bucket of `micros`.
fn index(micros: u64) -> usize {
    if micros < SUB {
        return micros as usize;
    }
    let doubling = u64::from(63 - micros.leading_zeros() - SUB_BITS);
    let mantissa = (micros >> doubling) - SUB;
    ((SUB + doubling * SUB + mantissa) as usize).min(BUCKETS - 1)
}

/// The lowest value of bucket `i`, and its width, in microseconds.
fn bounds(i: usize) -> (u64, u64) {
    let i = i as u64;
    if i < SUB {
        return (i, 1);
    }
    let doubling = (i - SUB) / SUB;
    let mantissa = (i - SUB) % SUB;
    ((SUB + mantissa) << doubling, 1 << doubling)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_falls_within_its_bucket() {
        for micros in (0..5000).chain([65_535, 65_536, 1_000_000, 123_456_789]) {
            let (low, width) = bounds(index(micros));
            assert!(low <= micros && micros < low + width, "{micros} µs");
            assert!(width as f64 <= (low as f64 / 63.0).max(1.0), "{micros} µs");
        }
    }

    #[test]
    fn percentiles_come_from_the_counted_values() {
        let histogram = Histogram::new();
        for ms in 1..=100 {
            histogram.record(Duration::from_millis(ms));
        }
        let p50 = histogram.quantile(0.5).unwrap().as_secs_f64() * 1e3;
        let p99 = histogram.quantile(0.99).unwrap().as_secs_f64() * 1e3;
        assert!((p50 - 50.0).abs() < 1.0, "{p50}");
        assert!((p99 - 99.0).abs() < 1.6, "{p99}");
        assert_eq!(histogram.max(), Duration::from_millis(100));
        assert_eq!(Histogram::new().quantile(0.5), None);
    }
}
