//! Folds the rounds of a run: of the rounds that measured one server at one
//! connection count, the row keeps the median one (by requests per second),
//! whole, with the range the rounds spanned.

use crate::rows::Row;

/// One row per key and connection count, in the order each was first
/// measured: its median round, with [`Row::rps_range`] and [`Row::rounds`]
/// set. With an even number of rounds, the lower of the middle two.
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
        .map(|mut group| {
            group.sort_by(|a, b| a.rps.total_cmp(&b.rps));
            let range = (group[0].rps, group[group.len() - 1].rps);
            let rounds = group.len();
            let mut median = group.swap_remove((rounds - 1) / 2);
            median.rps_range = range;
            median.rounds = rounds;
            median
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rows::parse;

    #[test]
    fn keeps_the_median_round_with_the_range() {
        let line = |rps: u32, rss: u32| {
            format!("floor\tfloor\t32\t1000\t{rps}\t1ms\t1ms\t2ms\t0.5\t{rss}\t0.9\t10.0\t0.0\n")
        };
        let text = [line(300, 1), line(100, 2), line(200, 3)].concat();
        let run = parse(&text).unwrap();
        assert_eq!(run.rows.len(), 1);
        let row = &run.rows[0];
        assert_eq!((row.rps, row.peak_rss_kib), (200.0, 3));
        assert_eq!(row.rps_range, (100.0, 300.0));
        assert_eq!(row.rounds, 3);
    }
}
