//! The server's memory over the soak: the samples taken, and what the
//! report says of them (the level over the last two thirds, and the slope
//! of the least-squares line over the second half).

/// One sample: seconds since the load started, and `VmRSS` in KiB.
pub(crate) type Sample = (f64, u64);

/// What the report says of the samples of a load of `duration` seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Summary {
    /// At the start of the load, KiB.
    pub(crate) start: u64,
    /// The lowest and highest over the last two thirds, KiB.
    pub(crate) min: u64,
    pub(crate) max: u64,
    /// At the end of the load, KiB.
    pub(crate) end: u64,
    /// The slope over the second half, MiB per minute (`None` with fewer
    /// than two samples there).
    pub(crate) slope: Option<f64>,
    /// The samples in the second half.
    pub(crate) slope_samples: usize,
}

impl Summary {
    /// Of `samples`, in time order, the first at the start of the load;
    /// `None` when there are none.
    pub(crate) fn of(samples: &[Sample], duration: f64) -> Option<Self> {
        let (&(_, start), &(_, end)) = (samples.first()?, samples.last()?);
        let late: Vec<u64> = samples
            .iter()
            .filter(|(at, _)| *at >= duration / 3.0)
            .map(|(_, kib)| *kib)
            .collect();
        let half: Vec<(f64, f64)> = samples
            .iter()
            .filter(|(at, _)| *at >= duration / 2.0)
            .map(|(at, kib)| (*at / 60.0, *kib as f64 / 1024.0))
            .collect();
        Some(Self {
            start,
            min: late.iter().copied().min().unwrap_or(end),
            max: late.iter().copied().max().unwrap_or(end),
            end,
            slope: slope(&half),
            slope_samples: half.len(),
        })
    }
}

/// The slope of the least-squares line through `points` (x, y); `None`
/// with fewer than two distinct x.
pub(crate) fn slope(points: &[(f64, f64)]) -> Option<f64> {
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let spread: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    if points.len() < 2 || spread == 0.0 {
        return None;
    }
    let covariance: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    Some(covariance / spread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slope_of_a_line_and_of_a_flat_series() {
        let line: Vec<(f64, f64)> = (0..10).map(|x| (x as f64, 3.0 + 2.0 * x as f64)).collect();
        assert!((slope(&line).unwrap() - 2.0).abs() < 1e-9);
        let flat = [(0.0, 5.0), (1.0, 6.0), (2.0, 5.0), (3.0, 6.0), (4.0, 5.0)];
        assert!(slope(&flat).unwrap().abs() < 1e-9, "no trend in the noise");
        assert_eq!(slope(&[(1.0, 2.0)]), None);
        assert_eq!(slope(&[(1.0, 2.0), (1.0, 3.0)]), None);
    }

    #[test]
    fn a_summary_reads_the_last_two_thirds_and_the_second_half() {
        // 60 s: grows 1 MiB per sample for the first 20 s, then flat but
        // for a dip at 25 s.
        let samples: Vec<Sample> = (0..=12)
            .map(|i| {
                let at = f64::from(i) * 5.0;
                let kib = match i {
                    0..=4 => 10_240 + 1024 * i as u64,
                    5 => 13_000,
                    _ => 14_336,
                };
                (at, kib)
            })
            .collect();
        let summary = Summary::of(&samples, 60.0).unwrap();
        assert_eq!(summary.start, 10_240);
        assert_eq!((summary.min, summary.max), (13_000, 14_336));
        assert_eq!(summary.end, 14_336);
        assert_eq!(summary.slope_samples, 7);
        assert!(summary.slope.unwrap().abs() < 1e-9);
        assert_eq!(Summary::of(&[], 60.0), None);
    }
}
