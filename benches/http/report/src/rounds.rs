//! Folds the rounds of a run: of the rounds that measured one server at one
//! connection count, the row keeps the median one (by requests per second),
//! whole, with the range the rounds spanned. Rounds that other load
//! disturbed (other processes took [`DISTURBED_PERCENT`] of a core or more)
//! are left out whenever at least one round was not disturbed.

use crate::rows::Row;

/// Other CPU use, in percent of one core, from which a round is disturbed.
pub const DISTURBED_PERCENT: f64 = 10.0;

/// One row per key and connection count, in the order each was first
/// measured: its median undisturbed round (or, when every round was
/// disturbed, its median round), with [`Row::rps_range`], [`Row::rounds`]
/// and [`Row::measured_rounds`] set. With an even number of rounds, the
/// lower of the middle two.
pub fn medians(measured: Vec<Row>) -> Vec<Row> {
    let mut groups: Vec<Vec<Row>> = Vec::new();
    for row in measured {
        match groups
            .iter_mut()
            .find(|g| g[0].key == row.key && g[0].connections == row.connections)
        {
            Some(group) => group.push(row),
            None => groups.push(vec![row]),
        }
    }
    groups
        .into_iter()
        .map(|all| {
            let measured_rounds = all.len();
            let quiet: Vec<Row> = all
                .iter()
                .filter(|r| r.other_cpu_percent() < DISTURBED_PERCENT)
                .cloned()
                .collect();
            let mut group = if quiet.is_empty() { all } else { quiet };
            group.sort_by(|a, b| a.rps.total_cmp(&b.rps));
            let range = (group[0].rps, group[group.len() - 1].rps);
            let rounds = group.len();
            let mut median = group.swap_remove((rounds - 1) / 2);
            median.rps_range = range;
            median.rounds = rounds;
            median.measured_rounds = measured_rounds;
            median
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rows::parse;

    #[test]
    fn keeps_the_median_round_with_the_range() {
        let line = |rps: u32, rss: u32, other: f64| {
            format!(
                "floor\tfloor\t32\t1000\t{rps}\t1ms\t1ms\t2ms\t0.5\t{rss}\t0.9\t10.0\t{other}\n"
            )
        };
        let text = [
            line(300, 1, 0.0),
            line(100, 2, 0.0),
            line(50, 4, 5.0),
            line(200, 3, 0.0),
        ]
        .concat();
        let run = parse(&text).unwrap();
        assert_eq!(run.rows.len(), 1);
        let row = &run.rows[0];
        assert_eq!((row.rps, row.peak_rss_kib), (200.0, 3));
        assert_eq!(row.rps_range, (100.0, 300.0));
        assert_eq!((row.rounds, row.measured_rounds), (3, 4));
    }

    #[test]
    fn keeps_every_round_when_all_were_disturbed() {
        let line = |rps: u32| {
            format!("floor\tfloor\t1\t1000\t{rps}\t1ms\t1ms\t2ms\t0.5\t1\t0.9\t10.0\t5.0\n")
        };
        let run = parse(&[line(10), line(30), line(20)].concat()).unwrap();
        let row = &run.rows[0];
        assert_eq!((row.rps, row.rounds, row.measured_rounds), (20.0, 3, 3));
    }
}
