//! The measurements of one run, as `run.sh` writes them: `#` lines are
//! notes about the run, every other line is one row of tab-separated fields.
//!
//! The fields are: key, label, connections, requests, requests per second,
//! mean latency, p50, p99 (the three as wrk prints them, `812.00us`), server
//! CPU seconds, server peak RSS in KiB, load generator CPU seconds, wall
//! seconds of the measurement, and CPU seconds of every other process (the
//! kernel's threads aside) during it.

/// One server measured at one connection count.
#[derive(Debug, Clone)]
pub struct Row {
    /// Which server and era: `floor`, `rmcp`, `rmcp-session`, or another.
    pub key: String,
    /// The server's name in the table; the chart breaks it at its first `, `.
    pub label: String,
    /// wrk's keep-alive connections.
    pub connections: u32,
    /// Requests completed during the measurement.
    pub requests: u64,
    /// Requests per second.
    pub rps: f64,
    /// Mean latency, in microseconds.
    pub mean_us: f64,
    /// Median latency, in microseconds.
    pub p50_us: f64,
    /// 99th percentile latency, in microseconds.
    pub p99_us: f64,
    /// The server's user and system CPU time.
    pub server_cpu_s: f64,
    /// The server's peak resident set (VmHWM), in KiB.
    pub peak_rss_kib: u64,
    /// The load generator's user and system CPU time.
    pub wrk_cpu_s: f64,
    /// How long the measurement lasted.
    pub wall_s: f64,
    /// CPU time of every other process on the machine meanwhile.
    pub other_cpu_s: f64,
    /// The lowest and highest requests per second over the rounds this row
    /// is the median of.
    pub rps_range: (f64, f64),
    /// How many rounds the median is of.
    pub rounds: usize,
    /// How many rounds measured this row, disturbed ones included.
    pub measured_rounds: usize,
}

impl Row {
    /// The server's CPU time per request, in microseconds.
    pub fn cpu_per_request_us(&self) -> f64 {
        self.server_cpu_s * 1e6 / self.requests.max(1) as f64
    }

    /// The connections that had a request in flight, on average: requests
    /// per second times the mean latency (Little's law). Well below
    /// [`Row::connections`], requests were left unanswered: wrk counts only
    /// those that complete.
    pub fn busy_connections(&self) -> f64 {
        self.rps * self.mean_us / 1e6
    }

    /// The load generator's share of its one core, in percent.
    pub fn wrk_cpu_percent(&self) -> f64 {
        100.0 * self.wrk_cpu_s / self.wall_s
    }

    /// Other processes' CPU use, in percent of one core.
    pub fn other_cpu_percent(&self) -> f64 {
        100.0 * self.other_cpu_s.max(0.0) / self.wall_s
    }

    /// The key of the row this one is compared with as "vs rmcp": rmcp's
    /// session row for a session row, rmcp's stateless row otherwise.
    pub fn rmcp_key(&self) -> &'static str {
        if self.key.ends_with("-session") {
            "rmcp-session"
        } else {
            "rmcp"
        }
    }
}

/// Everything one run measured, one row per server and connection count.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// The notes about the run, without their `#`.
    pub notes: Vec<String>,
    /// The rows, in the order they were first measured: each one is the
    /// median of its rounds.
    pub rows: Vec<Row>,
}

impl Run {
    /// The row of `key` at `connections`, if it was measured.
    pub fn find(&self, key: &str, connections: u32) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.key == key && r.connections == connections)
    }

    /// The connection counts, in the order they first appear.
    pub fn connection_counts(&self) -> Vec<u32> {
        let mut counts = Vec::new();
        for row in &self.rows {
            if !counts.contains(&row.connections) {
                counts.push(row.connections);
            }
        }
        counts
    }

    /// The servers (key and label), in the order they first appear.
    pub fn servers(&self) -> Vec<(&str, &str)> {
        let mut servers: Vec<(&str, &str)> = Vec::new();
        for row in &self.rows {
            if !servers.iter().any(|(k, _)| *k == row.key) {
                servers.push((&row.key, &row.label));
            }
        }
        servers
    }

    /// `row`'s requests per second over those of the row of `key` at the
    /// same connection count.
    pub fn ratio(&self, row: &Row, key: &str) -> Option<f64> {
        self.find(key, row.connections)
            .filter(|other| other.rps > 0.0)
            .map(|other| row.rps / other.rps)
    }
}

/// Parses the whole file, and keeps the median round of every row.
pub fn parse(text: &str) -> Result<Run, String> {
    let mut run = Run::default();
    let mut measured = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if let Some(note) = line.strip_prefix('#') {
            run.notes.push(note.trim().to_owned());
        } else if !line.trim().is_empty() {
            measured.push(row(line).map_err(|e| format!("line {}: {e}", index + 1))?);
        }
    }
    if measured.is_empty() {
        return Err("no rows".into());
    }
    run.rows = crate::rounds::medians(measured);
    Ok(run)
}

/// Parses one row.
fn row(line: &str) -> Result<Row, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [
        key,
        label,
        connections,
        requests,
        rps,
        mean,
        p50,
        p99,
        server,
        rss,
        wrk,
        wall,
        other,
    ] = fields.as_slice()
    else {
        return Err(format!("{} fields, not 13", fields.len()));
    };
    Ok(Row {
        key: (*key).to_owned(),
        label: (*label).to_owned(),
        connections: number(connections)?,
        requests: number(requests)?,
        rps: number(rps)?,
        mean_us: micros(mean)?,
        p50_us: micros(p50)?,
        p99_us: micros(p99)?,
        server_cpu_s: number(server)?,
        peak_rss_kib: number(rss)?,
        wrk_cpu_s: number(wrk)?,
        wall_s: number(wall)?,
        other_cpu_s: number(other)?,
        rps_range: (0.0, 0.0),
        rounds: 1,
        measured_rounds: 1,
    })
}

/// Parses a number field.
fn number<T: std::str::FromStr>(field: &str) -> Result<T, String> {
    field
        .trim()
        .parse()
        .map_err(|_| format!("`{field}` is not a number"))
}

/// Reads a wrk duration (`812.00us`, `1.20ms`, `1.01s`) as microseconds.
pub fn micros(field: &str) -> Result<f64, String> {
    let field = field.trim();
    let (value, scale) = if let Some(v) = field.strip_suffix("us") {
        (v, 1.0)
    } else if let Some(v) = field.strip_suffix("ms") {
        (v, 1e3)
    } else if let Some(v) = field.strip_suffix('m') {
        (v, 60e6)
    } else if let Some(v) = field.strip_suffix('s') {
        (v, 1e6)
    } else {
        return Err(format!("`{field}` is not a wrk duration"));
    };
    Ok(number::<f64>(value)? * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_wrk_durations() {
        assert_eq!(micros("812.00us"), Ok(812.0));
        assert_eq!(micros("1.50ms"), Ok(1500.0));
        assert_eq!(micros("2.00s"), Ok(2e6));
        assert!(micros("12").is_err());
    }

    #[test]
    fn reads_rows_and_notes() {
        let text = "# load 0.10\nfloor\techo, floor\t32\t1000\t100.0\t300.00ms\t1.00ms\t2.00ms\t0.5\t4096\t0.9\t10.0\t0.1\n";
        let run = parse(text).unwrap();
        assert_eq!(run.notes, ["load 0.10"]);
        let row = &run.rows[0];
        assert_eq!(row.cpu_per_request_us(), 500.0);
        assert_eq!(row.busy_connections(), 30.0);
        assert_eq!(run.ratio(row, "floor"), Some(1.0));
    }
}
