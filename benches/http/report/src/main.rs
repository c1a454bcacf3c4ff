//! `http-bench-report ROWS.tsv RESULTS.md CHART.svg`: reads the rows
//! `benches/http/run.sh` measured, keeps the median of each row's rounds,
//! prints the Markdown table, writes it to `RESULTS.md`, and draws the
//! requests per second of every row as grouped bars in `CHART.svg`.

mod chart;
mod rounds;
mod rows;
mod table;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [rows_path, results_path, chart_path] = args.as_slice() else {
        eprintln!("usage: http-bench-report ROWS.tsv RESULTS.md CHART.svg");
        return ExitCode::from(2);
    };
    match run(rows_path, results_path, chart_path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("http-bench-report: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the rows, then writes the table and the chart.
fn run(rows_path: &str, results_path: &str, chart_path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(rows_path).map_err(|e| format!("{rows_path}: {e}"))?;
    let run = rows::parse(&text)?;
    let markdown = table::markdown(&run);
    print!("{markdown}");
    std::fs::write(results_path, &markdown).map_err(|e| format!("{results_path}: {e}"))?;
    chart::draw(&run, chart_path).map_err(|e| format!("{chart_path}: {e}"))
}
