//! The command line: `mcp-fuzz [--target T] [--inputs N] [--seed N]
//! [--jobs N] [--in-flight N] [--limit-ms N] [--no-write]`, or
//! `mcp-fuzz [--target T] --replay FILE…`.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::driver::Config;
use crate::target::TargetKind;

/// What the command line asks for.
#[derive(Debug, Clone)]
pub enum Command {
    /// A run.
    Run(Config),
    /// Each file judged through `target`, or through the target its
    /// folder holds inputs of ([`crate::corpus::target_of`]); by every
    /// kind of caller for the dispatch.
    Replay {
        /// The files.
        files: Vec<PathBuf>,
        /// The target `--target` named, if it named one.
        target: Option<TargetKind>,
        /// The time limit of each (`--limit-ms`).
        limit: Duration,
    },
    /// The usage.
    Help,
}

/// The usage text.
pub const USAGE: &str = "\
usage: mcp-fuzz [--target T] [--inputs N] [--seed N] [--jobs N] [--in-flight N] [--limit-ms N] [--no-write]
       mcp-fuzz [--target T] --replay FILE...

  --target T      what inputs go through: dispatch (the envelope decoder and
                  Server::handle), http (the Streamable HTTP router, one request
                  each), stdio (the stdio transport, one connection each), or all
                  (default), taking turns; several as a list: http,stdio
  --inputs N      how many inputs in all (default 100000)
  --seed N        the seed inputs are drawn from (default: from the clock, printed)
  --jobs N        worker threads (default: one a core)
  --in-flight N   inputs in flight on each worker (default 32)
  --limit-ms N    the time limit of one input (default 2000)
  --no-write      do not write failing inputs to fuzz/corpus/ (HTTP requests
                  to fuzz/corpus/http/, stdio input to fuzz/corpus/stdio/)
  --replay FILE   judge each file, and print the verdicts: through the target
                  --target names, else through the one its folder is for
                  (http/, stdio/, else the dispatch, by every kind of caller)";

/// Reads the arguments (without the program name).
///
/// # Errors
///
/// What is wrong with them.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut config = Config::new(100_000, clock_seed()).through(&TargetKind::ALL);
    let mut replay = None;
    let mut named = None;
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
            "--target" => {
                let targets = targets(args.next())?;
                named = (targets.len() == 1).then(|| targets[0]);
                config.targets = targets;
            }
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
        Some(files) => Command::Replay {
            files,
            target: named,
            limit: config.limit,
        },
        None => Command::Run(config),
    })
}

/// The targets `--target` names: one, a list, or `all`.
fn targets(given: Option<String>) -> Result<Vec<TargetKind>, String> {
    let given = given.ok_or("--target needs a value")?;
    let mut targets = Vec::new();
    for name in given.split(',').map(str::trim) {
        if name == "all" {
            targets.extend(TargetKind::ALL);
            continue;
        }
        let target = TargetKind::named(name)
            .ok_or_else(|| format!("--target: `{name}` is none of dispatch, http, stdio, all"))?;
        targets.push(target);
    }
    targets.dedup();
    if targets.is_empty() {
        return Err("--target needs a value".into());
    }
    Ok(targets)
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
