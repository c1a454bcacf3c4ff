//! A panic hook that records every panic raised while an input runs: its
//! message, place, thread and backtrace, and the input it belongs to.
//!
//! The framework answers a panicking handler with `-32603` and goes on, so
//! a panic never shows in a reply: this hook is where it shows. Inputs run
//! on current-thread runtimes; a panic inside an input's own task names
//! that input, one in a task the input spawned names the inputs running on
//! the thread then. Panics on other threads go to the previous hook.

use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::panic::PanicHookInfo;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

tokio::task_local! {
    static INPUT: u64;
}

thread_local! {
    /// The inputs running on this thread; `None` on threads that run none.
    static RUNNING: RefCell<Option<Vec<u64>>> = const { RefCell::new(None) };
    /// The first input id of the run this thread works for, if it does.
    static OWNER: Cell<Option<u64>> = const { Cell::new(None) };
}

/// One recorded panic.
#[derive(Debug, Clone)]
pub struct Panic {
    /// The panic message.
    pub message: String,
    /// `file:line:column` of the panic.
    pub location: String,
    /// The name of the thread that panicked.
    pub thread: String,
    /// The backtrace, captured whatever `RUST_BACKTRACE` says.
    pub backtrace: String,
    /// The input whose own task panicked; `None` in a task it spawned.
    pub input: Option<u64>,
    /// The inputs running on the thread when it panicked.
    pub running: Vec<u64>,
    /// The first input id of the run whose thread panicked, if one did.
    pub owner: Option<u64>,
}

impl Panic {
    /// Whether the panic belongs to input `id`, or may.
    fn concerns(&self, id: u64) -> bool {
        match self.input {
            Some(input) => input == id,
            None => self.running.contains(&id),
        }
    }

    /// A panic the hook did not see (a hook installed over this one),
    /// known only by its payload.
    pub fn unrecorded(payload: &(dyn std::any::Any + Send)) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(a panic payload that is not text)".to_owned());
        Self {
            message,
            location: "(unknown)".to_owned(),
            thread: std::thread::current()
                .name()
                .unwrap_or("(unnamed)")
                .to_owned(),
            backtrace: String::new(),
            input: None,
            running: Vec::new(),
            owner: None,
        }
    }
}

static RECORDS: Mutex<Vec<Panic>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Reserves `count` input ids, unique in the process; the first is returned.
pub fn reserve(count: u64) -> u64 {
    NEXT_ID.fetch_add(count, Ordering::Relaxed)
}
static INSTALL: Once = Once::new();

/// The recorded panics, locked.
fn records() -> MutexGuard<'static, Vec<Panic>> {
    RECORDS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Installs the hook, once per process.
pub fn install() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let input = INPUT.try_with(|id| *id).ok();
            let running = RUNNING.with(|r| r.try_borrow().ok().and_then(|r| r.clone()));
            if input.is_none() && running.is_none() {
                previous(info);
                return;
            }
            records().push(record(info, input, running.unwrap_or_default()));
        }));
    });
}

/// A record of the panic `info` describes.
fn record(info: &PanicHookInfo<'_>, input: Option<u64>, running: Vec<u64>) -> Panic {
    Panic {
        message: info
            .payload_as_str()
            .unwrap_or("(a panic payload that is not text)")
            .to_owned(),
        location: info
            .location()
            .map_or_else(|| "(unknown)".to_owned(), ToString::to_string),
        thread: std::thread::current()
            .name()
            .unwrap_or("(unnamed)")
            .to_owned(),
        backtrace: Backtrace::force_capture().to_string(),
        input,
        running,
        owner: OWNER.get(),
    }
}

/// Runs `future` as input `id`: its panics, and those of the tasks it
/// spawns on this thread while it runs, are recorded under `id`.
pub async fn attributed<F: Future>(id: u64, future: F) -> F::Output {
    let _running = Running::start(id);
    INPUT.scope(id, future).await
}

/// Marks input `id` as running on this thread until dropped.
struct Running(u64);

impl Running {
    fn start(id: u64) -> Self {
        RUNNING.with(|r| r.borrow_mut().get_or_insert_with(Vec::new).push(id));
        Self(id)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.with(|r| {
            if let Some(running) = r.borrow_mut().as_mut() {
                running.retain(|id| *id != self.0);
            }
        });
    }
}

/// Marks this thread as one that runs the inputs of the run whose first
/// input id is `owner`: a panic on it, even outside any input, is
/// recorded for that run rather than printed.
pub fn adopt_thread(owner: u64) {
    OWNER.set(Some(owner));
    RUNNING.with(|r| {
        r.borrow_mut().get_or_insert_with(Vec::new);
    });
}

/// Takes the panics that belong to input `id`, or may.
pub fn take_for(id: u64) -> Vec<Panic> {
    take(|p| p.concerns(id))
}

/// Takes the panics of the run whose first input id is `owner`: on its
/// threads, or in its inputs (`owner..owner + count`).
pub fn take_run(owner: u64, count: u64) -> Vec<Panic> {
    let ids = owner..owner.saturating_add(count);
    take(|p| {
        p.owner == Some(owner)
            || p.input.is_some_and(|id| ids.contains(&id))
            || p.running.iter().any(|id| ids.contains(id))
    })
}

/// Takes the recorded panics that are `mine`.
fn take(mine: impl Fn(&Panic) -> bool) -> Vec<Panic> {
    let mut records = records();
    let (taken, others) = records.drain(..).partition(|p| mine(p));
    *records = others;
    taken
}
