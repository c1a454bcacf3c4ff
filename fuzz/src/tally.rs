//! What the workers of a run share: the run itself (config, target,
//! generator, the next input number), and its tally: counts, the slowest
//! inputs, and the failures kept and written to the corpus.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::corpus;
use crate::driver::Config;
use crate::generate::Generator;
use crate::judge::Verdict;
use crate::report;
use crate::target::{CallerKind, Target};
use crate::totals::{Failure, FailureKind, Slowest, Totals};

/// How many failures are kept in detail, and written to the corpus.
const KEPT: usize = 16;

/// What the workers share.
pub(crate) struct Shared {
    pub(crate) config: Config,
    pub(crate) target: Target,
    pub(crate) generator: Generator,
    /// The panic id of input 0 (see [`crate::panics::reserve`]).
    pub(crate) base: u64,
    next: AtomicU64,
    stop: AtomicBool,
    counts: Counts,
    slowest: Record,
    busiest: Record,
    failures: Mutex<Failures>,
}

#[derive(Default)]
struct Counts {
    done: AtomicU64,
    redrawn: AtomicU64,
    by_caller: [AtomicU64; 4],
    panics: AtomicU64,
    timeouts: AtomicU64,
    invalid: AtomicU64,
}

#[derive(Default)]
struct Failures {
    kept: Vec<Failure>,
    /// What failed already, by kind and first line, so each is kept once.
    seen: HashSet<(FailureKind, String)>,
}

/// An input as the tally sees it.
pub(crate) struct Judged<'a> {
    pub(crate) index: u64,
    pub(crate) bytes: &'a [u8],
    pub(crate) caller: CallerKind,
    pub(crate) redrawn: u64,
    /// From its start to its reply.
    pub(crate) wall: Duration,
    /// The framework's time on it.
    pub(crate) busy: Duration,
}

/// Locks `mutex`, poisoned or not.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// The run of `config` against `target`, inputs from `generator`, input 0 having panic id `base`.
    pub(crate) fn new(config: Config, target: Target, generator: Generator, base: u64) -> Self {
        Self {
            config,
            target,
            generator,
            base,
            next: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            counts: Counts::default(),
            slowest: Record::default(),
            busiest: Record::default(),
            failures: Mutex::new(Failures::default()),
        }
    }

    /// The number of the next input to run, while inputs are left and
    /// the run goes on.
    pub(crate) fn next_input(&self) -> Option<u64> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        (index < self.config.inputs).then_some(index)
    }

    /// Ends the run: no input starts after.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Counts one failure; keeps and writes the first of its kind.
    pub(crate) fn fail(
        &self,
        kind: FailureKind,
        input: Option<(u64, CallerKind, &[u8])>,
        detail: String,
    ) {
        let counter = match kind {
            FailureKind::Panic => &self.counts.panics,
            FailureKind::Timeout => &self.counts.timeouts,
            FailureKind::Invalid => &self.counts.invalid,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        let first_line = detail.lines().next().unwrap_or_default().to_owned();
        let mut failures = lock(&self.failures);
        if failures.kept.len() >= KEPT || !failures.seen.insert((kind, first_line)) {
            return;
        }
        let saved = match (&self.config.corpus, input) {
            (Some(dir), Some((_, _, bytes))) => corpus::save(dir, bytes).ok(),
            _ => None,
        };
        let failure = Failure {
            kind,
            index: input.map(|(index, _, _)| index),
            caller: input.map(|(_, caller, _)| caller),
            detail,
            saved,
        };
        if self.config.verbose {
            eprintln!("{}", report::failure(&failure));
        }
        failures.kept.push(failure);
    }

    /// Counts one judged input.
    pub(crate) fn judged(&self, input: &Judged<'_>, verdict: Verdict) {
        let counts = &self.counts;
        counts.done.fetch_add(1, Ordering::Relaxed);
        counts.redrawn.fetch_add(input.redrawn, Ordering::Relaxed);
        let slot = CallerKind::ALL
            .iter()
            .position(|k| *k == input.caller)
            .unwrap_or(0);
        counts.by_caller[slot].fetch_add(1, Ordering::Relaxed);
        self.slowest.note(input.wall, input.index, input.caller);
        self.busiest.note(input.busy, input.index, input.caller);
        let kind = match &verdict {
            Verdict::Passed => return,
            Verdict::Panicked(_) => FailureKind::Panic,
            Verdict::TimedOut(_) => FailureKind::Timeout,
            Verdict::Invalid(_) => FailureKind::Invalid,
        };
        let detail = verdict.to_string();
        self.fail(kind, Some((input.index, input.caller, input.bytes)), detail);
    }

    /// Prints one line of progress.
    pub(crate) fn report_progress(&self, started: Instant) {
        let counts = &self.counts;
        let done = counts.done.load(Ordering::Relaxed);
        let time = started.elapsed().as_secs_f64();
        eprintln!(
            "{done:>10} inputs {time:>8.1} s {:>8.0}/s   panics {}   timeouts {}   invalid {}",
            done as f64 / time.max(1e-9),
            counts.panics.load(Ordering::Relaxed),
            counts.timeouts.load(Ordering::Relaxed),
            counts.invalid.load(Ordering::Relaxed),
        );
    }

    /// The totals so far, over `time`.
    pub(crate) fn totals(&self, time: Duration) -> Totals {
        let counts = &self.counts;
        Totals {
            inputs: counts.done.load(Ordering::Relaxed),
            redrawn: counts.redrawn.load(Ordering::Relaxed),
            by_caller: counts
                .by_caller
                .each_ref()
                .map(|c| c.load(Ordering::Relaxed)),
            time,
            slowest: self.slowest.get(),
            busiest: self.busiest.get(),
            panics: counts.panics.load(Ordering::Relaxed),
            timeouts: counts.timeouts.load(Ordering::Relaxed),
            invalid: counts.invalid.load(Ordering::Relaxed),
            failures: lock(&self.failures).kept.clone(),
        }
    }
}

/// The longest time of a run, by one measure, and its input.
#[derive(Default)]
struct Record {
    nanos: AtomicU64,
    input: Mutex<Option<Slowest>>,
}

impl Record {
    fn note(&self, time: Duration, index: u64, caller: CallerKind) {
        let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        if nanos <= self.nanos.fetch_max(nanos, Ordering::Relaxed) {
            return;
        }
        let mut input = lock(&self.input);
        if input.is_none_or(|s| s.time < time) {
            *input = Some(Slowest {
                time,
                index,
                caller,
            });
        }
    }

    fn get(&self) -> Option<Slowest> {
        *lock(&self.input)
    }
}
