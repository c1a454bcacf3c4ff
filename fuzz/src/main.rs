//! `mcp-fuzz`: runs the fuzz driver, or replays inputs; see [`mcp_fuzz::cli::USAGE`].

use std::process::ExitCode;

use mcp_fuzz::cli::{self, Command};
use mcp_fuzz::corpus;
use mcp_fuzz::driver::{self, Config};
use mcp_fuzz::judge::replay_on;
use mcp_fuzz::report;
use mcp_fuzz::target::{Target, TargetKind};

fn main() -> ExitCode {
    match cli::parse(std::env::args().skip(1)) {
        Ok(Command::Help) => {
            println!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Run(config)) => run(&config),
        Ok(Command::Replay {
            files,
            target,
            limit,
        }) => replay_files(&files, target, limit),
        Err(error) => {
            eprintln!("mcp-fuzz: {error}\n\n{}", cli::USAGE);
            ExitCode::from(2)
        }
    }
}

/// Runs the fuzz driver, printing progress, the totals and the failures.
fn run(config: &Config) -> ExitCode {
    let mut config = config.clone();
    config.verbose = true;
    let targets: Vec<&str> = config.targets.iter().map(|t| t.name()).collect();
    println!(
        "mcp-fuzz: {} inputs through {}, seed {}, {} jobs with {} inputs in flight each, {:?} per input",
        config.inputs,
        targets.join(", "),
        config.seed,
        config.jobs,
        config.in_flight,
        config.limit
    );
    let totals = driver::run(&config);
    print!("{}", report::totals(&totals));
    if totals.passed() {
        return ExitCode::SUCCESS;
    }
    println!();
    for failure in &totals.failures {
        println!("{}\n", report::failure(failure));
    }
    ExitCode::FAILURE
}

/// Judges each file through `target` (or the target of its folder), by
/// every kind of caller for the dispatch, printing the verdicts.
fn replay_files(
    files: &[std::path::PathBuf],
    target: Option<TargetKind>,
    limit: std::time::Duration,
) -> ExitCode {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread runtime builds");
    let demo = Target::demo();
    let mut passed = true;
    for file in files {
        let bytes = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("{}: {error}", file.display());
                passed = false;
                continue;
            }
        };
        let through = target.unwrap_or_else(|| corpus::target_of(file));
        let failed = runtime.block_on(replay_on(&demo, through, &bytes, limit));
        if failed.is_empty() {
            println!("{} ({}): passed", file.display(), through.name());
        }
        for (by, verdict) in failed {
            passed = false;
            println!("{} ({by}): {verdict}", file.display());
        }
    }
    if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
