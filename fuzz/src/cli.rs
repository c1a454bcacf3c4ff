//! The command line: `mcp-fuzz [--inputs N] [--seed N] [--jobs N]
//! [--in-flight N] [--limit-ms N] [--no-write]`, or `mcp-fuzz --replay FILE…`.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::driver::Config;

/// What the command line asks for.
#[derive(Debug, Clone)]
pub enum Command {
    /// A run.
    Run(Config),
    /// Each file judged by every kind of caller.
    Replay(Vec<PathBuf>),
    /// The usage.
    Help,
}

/// The usage text.
pub const USAGE: &str = "\
usage: mcp-fuzz [--inputs N] [--seed N] [--jobs N] [--in-flight N] [--limit-ms N] [--no-write]
       mcp-fuzz --replay FILE...

  --inputs N      how many inputs (default 100000)
  --seed N        the seed inputs are drawn from (default: from the clock, printed)
  --jobs N        worker threads (default: one a core)
  --in-flight N   inputs in flight on each worker (default 32)
  --limit-ms N    the time limit of one input (default 2000)
  --no-write      do not write failing inputs to fuzz/corpus/
  --replay FILE   judge each file by every kind of caller, and print the verdicts";

/// Reads the arguments (without the program name).
///
/// # Errors
///
/// What is wrong with them.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut config = Config::new(100_000, clock_seed());
    let mut replay = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--inputs" => config.inputs = value(&arg, args.next())?,
            "--seed" => config.seed = value(&arg, args.next())?,
            "--jobs" => config.jobs = positive(&arg, args.next())?,
            "--in-flight" => config.in_flight = positive(&arg, args.next())?,
            "--limit-ms" => config.limit = Duration::from_millis(value(&arg, args.next())?),
            "--no-write" => config.corpus = None,
            "--replay" => {
                let files: Vec<PathBuf> = args.by_ref().map(PathBuf::from).collect();
                if files.is_empty() {
                    return Err("--replay needs at least one file".into());
                }
                replay = Some(files);
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(match replay {
        Some(files) => Command::Replay(files),
        None => Command::Run(config),
    })
}

/// The value after option `name`.
fn value<T: FromStr>(name: &str, value: Option<String>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("{name} needs a value"))?;
    value
        .parse()
        .map_err(|_| format!("{name}: `{value}` is not a number"))
}

/// The value after option `name`, at least 1.
fn positive(name: &str, given: Option<String>) -> Result<usize, String> {
    match value(name, given)? {
        0 => Err(format!("{name} must be at least 1")),
        n => Ok(n),
    }
}

/// A seed from the clock, so each run without `--seed` explores anew.
fn clock_seed() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |t| {
        t.as_secs() ^ u64::from(t.subsec_nanos()).rotate_left(32)
    })
}
