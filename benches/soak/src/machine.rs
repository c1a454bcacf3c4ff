//! What the report says of the machine: its load average, and the
//! open-file limit that bounds the connections.

/// The 1, 5 and 15 minute load averages, as `/proc/loadavg` gives them.
pub(crate) fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// The soft limit on open files; `None` when unlimited or unknown.
pub(crate) fn open_file_limit() -> Option<u64> {
    std::fs::read_to_string("/proc/self/limits")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("Max open files"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The number of processors.
pub(crate) fn processors() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
