//! A worker: one thread, one current-thread tokio runtime with up to
//! `in_flight` inputs running at once, and a heartbeat for the watchdog.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

use crate::judge::judge_on;
use crate::panics;
use crate::tally::{Drawn, InputRef, Judged, Shared, lock};
use crate::target::{PeerKind, TargetKind};
use crate::totals::FailureKind;

/// An input running on a worker.
#[derive(Clone)]
struct Running {
    target: TargetKind,
    caller: PeerKind,
    bytes: Arc<[u8]>,
}

/// What a worker shows the watchdog.
#[derive(Default)]
struct WorkerState {
    heartbeat: Mutex<Option<Instant>>,
    running: Mutex<HashMap<u64, Running>>,
}

/// A worker thread, as the watchdog sees it.
pub(crate) struct Worker {
    number: usize,
    state: Arc<WorkerState>,
    thread: JoinHandle<()>,
}

impl Worker {
    /// Starts worker `number` of the run `shared`.
    pub(crate) fn start(number: usize, shared: &Arc<Shared>) -> Self {
        let state = Arc::new(WorkerState::default());
        *lock(&state.heartbeat) = Some(Instant::now());
        let thread = {
            let (shared, state) = (shared.clone(), state.clone());
            std::thread::Builder::new()
                .name(format!("mcp-fuzz-{number}"))
                .spawn(move || work(&shared, &state))
                .expect("a worker thread starts")
        };
        Self {
            number,
            state,
            thread,
        }
    }

    /// Whether its thread has ended.
    pub(crate) fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// How long its thread has not beaten.
    pub(crate) fn silence(&self) -> Duration {
        lock(&self.state.heartbeat).map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Counts the inputs running on it as timeouts, its thread having
    /// been silent for `silence`.
    pub(crate) fn give_up(&self, shared: &Shared, silence: Duration) {
        let running: Vec<(u64, Running)> = lock(&self.state.running)
            .iter()
            .map(|(index, running)| (*index, running.clone()))
            .collect();
        let others = running.len().saturating_sub(1);
        for (index, running) in running {
            let detail = format!(
                "the thread of worker {} has been blocked for {silence:.1?}, running this input and {others} others",
                self.number
            );
            let input = InputRef {
                index,
                target: running.target,
                caller: running.caller,
                bytes: &running.bytes,
            };
            shared.fail(FailureKind::Timeout, Some(input), detail);
        }
    }
}

/// A worker's loop: takes the next input numbers, keeps up to
/// `in_flight` inputs running, until the run's inputs are taken.
fn work(shared: &Arc<Shared>, state: &Arc<WorkerState>) {
    panics::adopt_thread(shared.base);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread runtime builds");
    runtime.block_on(async {
        let beating = tokio::spawn(beat(state.clone()));
        let mut running = JoinSet::new();
        loop {
            while running.len() < shared.config.in_flight
                && let Some(index) = shared.next_input()
            {
                let input = shared.draw(index);
                running.spawn(one(shared.clone(), state.clone(), index, input));
            }
            match running.join_next().await {
                None => break,
                Some(Ok(())) => {}
                Some(Err(error)) => shared.fail(
                    FailureKind::Panic,
                    None,
                    format!("an input's task ended abnormally: {error}"),
                ),
            }
        }
        beating.abort();
    });
}

/// Tells the watchdog the thread is alive.
async fn beat(state: Arc<WorkerState>) {
    loop {
        *lock(&state.heartbeat) = Some(Instant::now());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Judges input `index` and counts it.
async fn one(shared: Arc<Shared>, state: Arc<WorkerState>, index: u64, input: Drawn) {
    let bytes: Arc<[u8]> = input.bytes.into();
    let running = Running {
        target: input.target,
        caller: input.caller,
        bytes: bytes.clone(),
    };
    lock(&state.running).insert(index, running);
    let started = Instant::now();
    let (verdict, busy) = judge_on(
        &shared.target,
        input.target,
        shared.base + index,
        &bytes,
        input.caller,
        shared.config.limit,
    )
    .await;
    let wall = started.elapsed();
    lock(&state.running).remove(&index);
    let judged = Judged {
        input: InputRef {
            index,
            target: input.target,
            caller: input.caller,
            bytes: &bytes,
        },
        redrawn: input.redrawn,
        wall,
        busy,
    };
    shared.judged(&judged, verdict);
}
