//! The verdict on one input: it passed, panicked, ran past its time
//! limit, or got a reply that is not what it should be.

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures_util::FutureExt;

use crate::check::Invalid;
use crate::panics::{self, Panic};
use crate::target::{PeerKind, Target, TargetKind};

/// The time limit of one input, from its start to its reply.
pub const LIMIT: Duration = Duration::from_secs(2);

/// What became of one input.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Replied as it should, in time, without a panic.
    Passed,
    /// Something panicked while it ran (the framework may have answered for it).
    Panicked(Vec<Panic>),
    /// No reply within the time limit, or polls that took longer than it
    /// (with the time they took).
    TimedOut(Duration),
    /// A wrong reply, or a decoded message that does not re-encode to itself.
    Invalid(Invalid),
}

impl Verdict {
    /// Whether the input passed.
    pub fn passed(&self) -> bool {
        matches!(self, Self::Passed)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Passed => f.write_str("passed"),
            Self::Panicked(panics) => {
                for panic in panics {
                    writeln!(
                        f,
                        "panicked at {} on thread `{}`: {}",
                        panic.location, panic.thread, panic.message
                    )?;
                    writeln!(f, "{}", panic.backtrace)?;
                }
                Ok(())
            }
            Self::TimedOut(time) => write!(f, "no reply within the time limit ({time:.3?})"),
            Self::Invalid(invalid) => write!(f, "invalid: {invalid}"),
        }
    }
}

/// Runs `bytes` by a caller of `kind` as input `id` (see
/// [`panics::reserve`]), within `limit`, on the current-thread runtime
/// the caller is on. Returns the verdict, and the time the framework spent
/// on the input ([`Target::run`]): more than `limit` of it is a time-out
/// too, even when the reply came (polls that long block every input on
/// the thread).
pub async fn judge(
    target: &Target,
    id: u64,
    bytes: &[u8],
    kind: PeerKind,
    limit: Duration,
) -> (Verdict, Duration) {
    judged(id, limit, target.run(bytes, kind)).await
}

/// Runs `bytes` through `through` as input `id`, within `limit`: by a
/// caller of `kind` for [`TargetKind::Dispatch`], as a whole HTTP request
/// ([`crate::http`]) or as a stdio connection's input ([`crate::stdio`]).
pub async fn judge_on(
    target: &Target,
    through: TargetKind,
    id: u64,
    bytes: &[u8],
    kind: PeerKind,
    limit: Duration,
) -> (Verdict, Duration) {
    match through {
        TargetKind::Dispatch => judge(target, id, bytes, kind, limit).await,
        TargetKind::Http => judged(id, limit, target.http().run(bytes)).await,
        TargetKind::Stdio => judged(id, limit, target.stdio().run(bytes)).await,
    }
}

/// The verdict on `run`, input `id`: its panics (its own, and those of the
/// tasks it spawns on this thread), whether it ended within `limit` and
/// spent no more than `limit` in the framework, and what it found wrong.
pub async fn judged<F>(id: u64, limit: Duration, run: F) -> (Verdict, Duration)
where
    F: Future<Output = Result<Duration, Invalid>>,
{
    panics::install();
    let run = AssertUnwindSafe(run).catch_unwind();
    let outcome = panics::attributed(id, tokio::time::timeout(limit, run)).await;
    let panics = panics::take_for(id);
    let (verdict, busy) = match outcome {
        Err(_) => (Verdict::TimedOut(limit), limit),
        Ok(Err(payload)) => (
            Verdict::Panicked(vec![Panic::unrecorded(&*payload)]),
            Duration::ZERO,
        ),
        Ok(Ok(Err(invalid))) => (Verdict::Invalid(invalid), Duration::ZERO),
        Ok(Ok(Ok(busy))) if busy > limit => (Verdict::TimedOut(busy), busy),
        Ok(Ok(Ok(busy))) => (Verdict::Passed, busy),
    };
    if panics.is_empty() {
        (verdict, busy)
    } else {
        (Verdict::Panicked(panics), busy)
    }
}

/// Runs `bytes` by every kind of caller in turn; the verdicts that did
/// not pass.
pub async fn replay(target: &Target, bytes: &[u8], limit: Duration) -> Vec<(PeerKind, Verdict)> {
    let base = panics::reserve(PeerKind::ALL.len() as u64);
    let mut failed = Vec::new();
    for (id, kind) in (base..).zip(PeerKind::ALL) {
        let (verdict, _) = judge(target, id, bytes, kind, limit).await;
        if !verdict.passed() {
            failed.push((kind, verdict));
        }
    }
    failed
}

/// Runs `bytes` through `through` (by every kind of caller, for
/// [`TargetKind::Dispatch`]); the verdicts that did not pass, each with
/// who sent it.
pub async fn replay_on(
    target: &Target,
    through: TargetKind,
    bytes: &[u8],
    limit: Duration,
) -> Vec<(&'static str, Verdict)> {
    if through == TargetKind::Dispatch {
        return replay(target, bytes, limit)
            .await
            .into_iter()
            .map(|(caller, verdict)| (caller.name(), verdict))
            .collect();
    }
    let id = panics::reserve(1);
    let (verdict, _) = judge_on(target, through, id, bytes, PeerKind::Stateless, limit).await;
    if verdict.passed() {
        Vec::new()
    } else {
        vec![(through.name(), verdict)]
    }
}
