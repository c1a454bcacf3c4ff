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
use crate::target::{PeerKind, Target, TargetKind};
use crate::totals::{Failure, FailureKind, Slowest, TargetTotals, Totals};
use crate::{http, stdio};

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
    by_target: [TargetCounts; 3],
}

/// The counts of one target.
#[derive(Default)]
struct TargetCounts {
    done: AtomicU64,
    panics: AtomicU64,
    timeouts: AtomicU64,
    invalid: AtomicU64,
}

impl TargetCounts {
    fn get(&self) -> TargetTotals {
        TargetTotals {
            inputs: self.done.load(Ordering::Relaxed),
            panics: self.panics.load(Ordering::Relaxed),
            timeouts: self.timeouts.load(Ordering::Relaxed),
            invalid: self.invalid.load(Ordering::Relaxed),
        }
    }
}

/// One input of a run, drawn for the target it goes through.
#[derive(Debug, Clone)]
pub(crate) struct Drawn {
    pub(crate) target: TargetKind,
    pub(crate) bytes: Vec<u8>,
    pub(crate) caller: PeerKind,
    pub(crate) redrawn: u64,
}

/// An input, as a failure names it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InputRef<'a> {
    pub(crate) index: u64,
    pub(crate) target: TargetKind,
    pub(crate) caller: PeerKind,
    pub(crate) bytes: &'a [u8],
}

#[derive(Default)]
struct Failures {
    kept: Vec<Failure>,
    /// What failed already, by kind, target and first line, so each is
    /// kept once.
    seen: HashSet<(FailureKind, Option<TargetKind>, String)>,
}

/// An input as the tally sees it.
pub(crate) struct Judged<'a> {
    pub(crate) input: InputRef<'a>,
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

    /// Input number `index`: the targets of the run take turns, and each
    /// makes its input around the generator's message of that number.
    pub(crate) fn draw(&self, index: u64) -> Drawn {
        let targets = &self.config.targets;
        let target = match targets.len() {
            0 => TargetKind::Dispatch,
            n => targets[usize::try_from(index % n as u64).unwrap_or(0)],
        };
        let (bytes, caller, redrawn) = match target {
            TargetKind::Dispatch => {
                let input = self.generator.input(index);
                (input.bytes, input.caller, input.redrawn)
            }
            TargetKind::Http => {
                let (request, caller, redrawn) =
                    http::make::input(&self.generator, self.target.server(), index);
                (request.to_bytes(), caller, redrawn)
            }
            TargetKind::Stdio => stdio::make::input(&self.generator, index),
        };
        Drawn {
            target,
            bytes,
            caller,
            redrawn,
        }
    }

    /// Ends the run: no input starts after.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Counts one failure; keeps and writes the first of its kind.
    pub(crate) fn fail(&self, kind: FailureKind, input: Option<InputRef<'_>>, detail: String) {
        let counts = &self.counts;
        count(kind, [&counts.panics, &counts.timeouts, &counts.invalid]);
        if let Some(input) = input {
            let counts = &counts.by_target[input.target.slot()];
            count(kind, [&counts.panics, &counts.timeouts, &counts.invalid]);
        }
        let first_line = detail.lines().next().unwrap_or_default().to_owned();
        let mut failures = lock(&self.failures);
        let seen = (kind, input.map(|i| i.target), first_line);
        if failures.kept.len() >= KEPT || !failures.seen.insert(seen) {
            return;
        }
        let saved = match (&self.config.corpus, input) {
            (Some(dir), Some(input)) => {
                corpus::save(&corpus::dir_of(dir, input.target), input.bytes).ok()
            }
            _ => None,
        };
        let failure = Failure {
            kind,
            index: input.map(|i| i.index),
            target: input.map(|i| i.target),
            caller: input.map(|i| i.caller),
            detail,
            saved,
        };
        if self.config.verbose {
            eprintln!("{}", report::failure(&failure));
        }
        failures.kept.push(failure);
    }

    /// Counts one judged input.
    pub(crate) fn judged(&self, judged: &Judged<'_>, verdict: Verdict) {
        let counts = &self.counts;
        let input = judged.input;
        counts.done.fetch_add(1, Ordering::Relaxed);
        counts.by_target[input.target.slot()]
            .done
            .fetch_add(1, Ordering::Relaxed);
        counts.redrawn.fetch_add(judged.redrawn, Ordering::Relaxed);
        let slot = PeerKind::ALL
            .iter()
            .position(|k| *k == input.caller)
            .unwrap_or(0);
        counts.by_caller[slot].fetch_add(1, Ordering::Relaxed);
        self.slowest.note(judged.wall, &input);
        self.busiest.note(judged.busy, &input);
        let kind = match &verdict {
            Verdict::Passed => return,
            Verdict::Panicked(_) => FailureKind::Panic,
            Verdict::TimedOut(_) => FailureKind::Timeout,
            Verdict::Invalid(_) => FailureKind::Invalid,
        };
        let detail = verdict.to_string();
        self.fail(kind, Some(input), detail);
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
            by_target: counts.by_target.each_ref().map(TargetCounts::get),
            failures: lock(&self.failures).kept.clone(),
            notes: self.target.notes(),
        }
    }
}

/// Adds one to the counter of `kind` among the counters of panics,
/// timeouts and invalid replies.
fn count(kind: FailureKind, [panics, timeouts, invalid]: [&AtomicU64; 3]) {
    let counter = match kind {
        FailureKind::Panic => panics,
        FailureKind::Timeout => timeouts,
        FailureKind::Invalid => invalid,
    };
    counter.fetch_add(1, Ordering::Relaxed);
}

/// The longest time of a run, by one measure, and its input.
#[derive(Default)]
struct Record {
    nanos: AtomicU64,
    input: Mutex<Option<Slowest>>,
}

impl Record {
    fn note(&self, time: Duration, input: &InputRef<'_>) {
        let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        if nanos <= self.nanos.fetch_max(nanos, Ordering::Relaxed) {
            return;
        }
        let mut slowest = lock(&self.input);
        if slowest.is_none_or(|s| s.time < time) {
            *slowest = Some(Slowest {
                time,
                index: input.index,
                target: input.target,
                caller: input.caller,
            });
        }
    }

    fn get(&self) -> Option<Slowest> {
        *lock(&self.input)
    }
}
