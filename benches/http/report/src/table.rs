//! The Markdown table of a run, with its notes and what the columns mean.

use std::fmt::Write;

use crate::rounds::DISTURBED_PERCENT;
use crate::rows::{Row, Run};

/// The whole of `results.md`: a title, the run's notes, the table, and a
/// key to the columns.
pub fn markdown(run: &Run) -> String {
    let mut out = String::from("# HTTP benchmark: `tools/call` over Streamable HTTP\n\n");
    for note in &run.notes {
        let _ = writeln!(out, "- {note}");
    }
    out.push_str(
        "\n| server | conns | requests/s | range | rounds | p50 | p99 | server CPU / request | above floor | peak RSS | wrk CPU | other CPU | vs floor | vs rmcp |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for row in &run.rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {}–{} | {} | {} | {} | {:.1} µs | {} | {:.1} MiB | {:.0} % | {:.0} % | {} | {} |",
            row.label,
            row.connections,
            thousands(row.rps),
            thousands(row.rps_range.0),
            thousands(row.rps_range.1),
            rounds(row),
            latency(row.p50_us),
            latency(row.p99_us),
            row.cpu_per_request_us(),
            above_floor(run, row),
            row.peak_rss_kib as f64 / 1024.0,
            row.wrk_cpu_percent(),
            row.other_cpu_percent(),
            ratio(run, row, "floor"),
            ratio(run, row, row.rmcp_key()),
        );
    }
    let _ = write!(
        out,
        "\nEach row is the median of its rounds (by requests/s), whole; range: the lowest and \
         highest requests/s over those rounds. rounds: how many, and of how many measured \
         when some were left out because other load disturbed them (other CPU of \
         {DISTURBED_PERCENT:.0} % or more). server CPU / request: the server's user + system \
         time over the requests it answered; above floor: that less the floor's at the same \
         connection count, the CPU the server spends on what the floor does not do. peak RSS: the server's VmHWM at the end of its \
         row. wrk CPU and other CPU: the load generator's CPU time, and that of every other \
         process (the kernel's threads aside), in percent of one core; wrk near 100 % would mean the load generator, not the server, set the pace. \
         vs floor and vs rmcp: requests/s over those of the floor and of rmcp (its session \
         row for a session row) at the same connection count.\n",
    );
    for row in run.rows.iter().filter(|r| stalled(r)) {
        let _ = writeln!(
            out,
            "\n**{} at {} connections left requests unanswered**: requests/s × mean latency \
             (Little's law) puts {:.1} connections at work on average, and wrk counts only the \
             requests that complete.",
            row.label,
            row.connections,
            row.busy_connections(),
        );
    }
    out
}

/// Whether fewer than half of a row's connections had a request in flight
/// on average: a server that left some unanswered.
fn stalled(row: &Row) -> bool {
    row.busy_connections() < 0.5 * f64::from(row.connections)
}

/// How many rounds the median is of, and of how many when some were left out.
fn rounds(row: &Row) -> String {
    if row.rounds == row.measured_rounds {
        row.rounds.to_string()
    } else {
        format!("{} of {}", row.rounds, row.measured_rounds)
    }
}

/// A ratio of requests per second, or `–` when the other row is missing.
fn ratio(run: &Run, row: &Row, key: &str) -> String {
    run.ratio(row, key)
        .map_or_else(|| "–".to_owned(), |r| format!("{r:.2}×"))
}

/// A row's CPU per request less the floor's, or `–` for the floor itself
/// or without one.
fn above_floor(run: &Run, row: &Row) -> String {
    match run.find("floor", row.connections) {
        Some(floor) if row.key != "floor" => format!(
            "{:+.1} µs",
            row.cpu_per_request_us() - floor.cpu_per_request_us()
        ),
        _ => "–".to_owned(),
    }
}

/// A latency in µs below a millisecond, in ms above.
fn latency(us: f64) -> String {
    if us < 1000.0 {
        format!("{us:.0} µs")
    } else {
        format!("{:.2} ms", us / 1000.0)
    }
}

/// A whole number with `,` between thousands.
pub fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers() {
        assert_eq!(thousands(94002.4), "94,002");
        assert_eq!(thousands(512.0), "512");
        assert_eq!(latency(812.0), "812 µs");
        assert_eq!(latency(1500.0), "1.50 ms");
    }

    #[test]
    fn gives_each_row_its_cpu_per_request_above_the_floors() {
        let run = crate::rows::parse(
            "floor\tfloor\t32\t1000\t1000\t30ms\t1ms\t2ms\t0.010\t1\t0.9\t10.0\t0.0\n\
             plain\tplain\t32\t1000\t1000\t30ms\t1ms\t2ms\t0.015\t1\t0.9\t10.0\t0.0\n",
        )
        .unwrap();
        assert_eq!(above_floor(&run, &run.rows[1]), "+5.0 µs");
        assert_eq!(above_floor(&run, &run.rows[0]), "–");
    }

    #[test]
    fn tells_a_stalled_row() {
        let line = |mean: &str| {
            format!("rmcp\trmcp, x\t32\t1000\t1000\t{mean}\t1ms\t2ms\t0.5\t1\t0.9\t10.0\t0.0\n")
        };
        let stalled_run = crate::rows::parse(&line("2ms")).unwrap();
        assert!(markdown(&stalled_run).contains("left requests unanswered"));
        let busy_run = crate::rows::parse(&line("30ms")).unwrap();
        assert!(!markdown(&busy_run).contains("left requests unanswered"));
    }
}
