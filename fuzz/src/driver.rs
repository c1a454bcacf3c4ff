//! A run: inputs made for their targets and judged on worker threads,
//! each a current-thread tokio runtime with many inputs in flight; a
//! watchdog for threads that stop making progress; failures written to the
//! corpus; the totals ([`crate::totals`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::corpus;
use crate::generate::Generator;
use crate::judge;
use crate::panics;
use crate::seeds::Seeds;
use crate::tally::Shared;
use crate::target::{Target, TargetKind};
use crate::totals::{FailureKind, Totals};
use crate::worker::Worker;

/// How a run is made.
#[derive(Debug, Clone)]
pub struct Config {
    /// How many inputs.
    pub inputs: u64,
    /// The seed every input is drawn from.
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Inputs in flight on each worker at once.
    pub in_flight: usize,
    /// The time limit of one input.
    pub limit: Duration,
    /// Where failing inputs are written; `None` writes none.
    pub corpus: Option<PathBuf>,
    /// Whether progress and failures are printed as they come.
    pub verbose: bool,
    /// What inputs go through, taking turns: input `i` goes through
    /// `targets[i % targets.len()]`, made around the generator's message
    /// number `i`. With the dispatch alone, a run is what it was before
    /// the transports were fuzzed.
    pub targets: Vec<TargetKind>,
}

impl Config {
    /// `inputs` inputs from `seed` through the dispatch, on every core,
    /// into `fuzz/corpus/`, quietly.
    pub fn new(inputs: u64, seed: u64) -> Self {
        Self {
            inputs,
            seed,
            jobs: std::thread::available_parallelism().map_or(1, usize::from),
            in_flight: 32,
            limit: judge::LIMIT,
            corpus: Some(corpus::dir()),
            verbose: false,
            targets: vec![TargetKind::Dispatch],
        }
    }

    /// Through `targets`, taking turns.
    #[must_use]
    pub fn through(mut self, targets: &[TargetKind]) -> Self {
        self.targets = targets.to_vec();
        self
    }
}

/// Runs `config` against the demo server.
pub fn run(config: &Config) -> Totals {
    let target = Target::demo();
    let generator = Generator::new(Seeds::of(target.server()), config.seed);
    run_with(config, target, generator)
}

/// Runs `config` against `target`, with inputs from `generator`.
pub fn run_with(config: &Config, target: Target, generator: Generator) -> Totals {
    panics::install();
    let base = panics::reserve(config.inputs);
    let shared = Arc::new(Shared::new(config.clone(), target, generator, base));
    let started = Instant::now();
    let workers: Vec<Worker> = (0..config.jobs.max(1))
        .map(|n| Worker::start(n, &shared))
        .collect();
    watch(&shared, &workers, started);
    for panic in panics::take_run(base, config.inputs) {
        let running: Vec<u64> = panic
            .running
            .iter()
            .filter_map(|id| id.checked_sub(base))
            .collect();
        let detail = format!(
            "panicked at {} on thread `{}` outside the inputs' own tasks (running then: {running:?}): {}\n{}",
            panic.location, panic.thread, panic.message, panic.backtrace
        );
        shared.fail(FailureKind::Panic, None, detail);
    }
    shared.totals(started.elapsed())
}

/// Waits for the workers, printing progress; a worker whose thread stops
/// beating is given up, its running inputs counted as timeouts.
fn watch(shared: &Shared, workers: &[Worker], started: Instant) {
    let stalled_after = shared.config.limit + Duration::from_secs(1);
    let mut given_up = vec![false; workers.len()];
    let mut last_report = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(50));
        for (worker, given_up) in workers.iter().zip(&mut given_up) {
            if *given_up || worker.is_finished() {
                continue;
            }
            let silence = worker.silence();
            if silence > stalled_after {
                *given_up = true;
                shared.stop();
                worker.give_up(shared, silence);
            }
        }
        let done = workers
            .iter()
            .zip(&given_up)
            .all(|(worker, given_up)| *given_up || worker.is_finished());
        if shared.config.verbose && (done || last_report.elapsed() >= Duration::from_secs(2)) {
            shared.report_progress(started);
            last_report = Instant::now();
        }
        if done {
            return;
        }
    }
}
