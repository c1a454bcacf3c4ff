//! `mcp-fuzz`: runs the fuzz driver, or replays inputs; see [`mcp_fuzz::cli::USAGE`].

use std::process::ExitCode;

use mcp_fuzz::cli::{self, Command};
use mcp_fuzz::driver::{self, Config};
use mcp_fuzz::judge::{self, replay};
use mcp_fuzz::report;
use mcp_fuzz::target::Target;

fn main() -> ExitCode {
    match cli::parse(std::env::args().skip(1)) {
        Ok(Command::Help) => {
            println!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Run(config)) => run(&config),
        Ok(Command::Replay(files)) => replay_files(&files),
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
    println!(
        "mcp-fuzz: {} inputs, seed {}, {} jobs with {} inputs in flight each, {:?} per input",
        config.inputs, config.seed, config.jobs, config.in_flight, config.limit
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

/// Judges each file by every kind of caller, printing the verdicts.
fn replay_files(files: &[std::path::PathBuf]) -> ExitCode {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread runtime builds");
    let target = Target::demo();
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
        let failed = runtime.block_on(replay(&target, &bytes, judge::LIMIT));
        if failed.is_empty() {
            println!("{}: passed", file.display());
        }
        for (caller, verdict) in failed {
            passed = false;
            println!("{} ({}): {verdict}", file.display(), caller.name());
        }
    }
    if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
