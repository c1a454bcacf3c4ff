//! What a run found: its figures, and its failures with their inputs.

use std::path::PathBuf;
use std::time::Duration;

use crate::target::{PeerKind, TargetKind};

/// What kind of failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// A panic.
    Panic,
    /// No reply within the time limit.
    Timeout,
    /// A reply that is not what it should be.
    Invalid,
}

/// One failure, with the input that caused it.
#[derive(Debug, Clone)]
pub struct Failure {
    /// What kind.
    pub kind: FailureKind,
    /// The input's number in the run; `None` for a panic in a task an input spawned.
    pub index: Option<u64>,
    /// What it went through.
    pub target: Option<TargetKind>,
    /// Who its message was made for.
    pub caller: Option<PeerKind>,
    /// What happened.
    pub detail: String,
    /// Where the input was written, if it was.
    pub saved: Option<PathBuf>,
}

/// The slowest input of a run, by one measure.
#[derive(Debug, Clone, Copy)]
pub struct Slowest {
    /// How long it took.
    pub time: Duration,
    /// Its number.
    pub index: u64,
    /// What it went through.
    pub target: TargetKind,
    /// Who its message was made for.
    pub caller: PeerKind,
}

/// The figures of one target in a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TargetTotals {
    /// Inputs judged.
    pub inputs: u64,
    /// Inputs that panicked.
    pub panics: u64,
    /// Inputs without a reply within the time limit.
    pub timeouts: u64,
    /// Inputs with a wrong reply.
    pub invalid: u64,
}

/// The totals of a run.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    /// Inputs judged.
    pub inputs: u64,
    /// Inputs drawn again because they named a slow tool.
    pub redrawn: u64,
    /// Inputs by caller, in the order of [`PeerKind::ALL`].
    pub by_caller: [u64; 4],
    /// The figures of each target, in the order of [`TargetKind::ALL`];
    /// panics outside any input count in no target.
    pub by_target: [TargetTotals; 3],
    /// The wall time of the run.
    pub time: Duration,
    /// The slowest input, from its start to its reply.
    pub slowest: Option<Slowest>,
    /// The input whose own polls took longest.
    pub busiest: Option<Slowest>,
    /// Inputs that panicked, and panics in tasks the inputs spawned.
    pub panics: u64,
    /// Inputs without a reply within the time limit.
    pub timeouts: u64,
    /// Inputs with a wrong reply.
    pub invalid: u64,
    /// The first failures of each kind, in detail.
    pub failures: Vec<Failure>,
    /// What the transports saw, a line each.
    pub notes: Vec<String>,
}

impl Totals {
    /// Whether nothing failed.
    pub fn passed(&self) -> bool {
        self.panics == 0 && self.timeouts == 0 && self.invalid == 0
    }

    /// The figures of `target`.
    pub fn of(&self, target: TargetKind) -> TargetTotals {
        self.by_target[target.slot()]
    }

    /// Inputs judged per second.
    pub fn rate(&self) -> f64 {
        self.inputs as f64 / self.time.as_secs_f64().max(1e-9)
    }
}
