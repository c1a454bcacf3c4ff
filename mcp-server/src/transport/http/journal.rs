//! The writes of one legacy session's events into the event store, in the
//! order the events went out, without holding them back: an event goes
//! out live at once, and its write completes on the spot when the store
//! answers at once (the in-memory store), or in a task of the session's
//! own otherwise (a store on another machine). A write not finished yet
//! holds the server's drain open ([`Shutdown::hold_record`]), so a stream
//! resumed on another instance after this one stops misses nothing.

use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll, Waker};

use tokio::sync::{mpsc, oneshot};

use crate::BoxFuture;
use crate::seam::store::{EventId, EventStore, Unavailable};
use crate::vocabulary::{Recording, Shutdown, lock};

/// One session's event writes.
pub(crate) struct Journal {
    store: Arc<dyn EventStore>,
    session: Arc<str>,
    queue: Arc<Mutex<Queue>>,
    shutdown: Shutdown,
}

/// The writes that could not complete at once, and the task finishing them.
#[derive(Default)]
struct Queue {
    jobs: Option<mpsc::UnboundedSender<Job>>,
    /// Writes handed to the task and not finished yet.
    behind: usize,
}

enum Job {
    /// A write, and the drain it holds open until it finishes.
    Write(BoxFuture<'static, Result<(), Unavailable>>, Recording),
    /// Answered once every write before it finished.
    Flush(oneshot::Sender<()>),
}

impl Journal {
    /// The writes of `session`'s events into `store`, holding `shutdown`'s
    /// drain open while any is pending.
    pub(crate) fn new(session: &str, store: Arc<dyn EventStore>, shutdown: Shutdown) -> Self {
        Self {
            store,
            session: session.into(),
            queue: Arc::default(),
            shutdown,
        }
    }

    /// The store the events go to.
    pub(crate) fn store(&self) -> &Arc<dyn EventStore> {
        &self.store
    }

    /// Writes one event, after every event written before it.
    pub(crate) fn write(&self, id: EventId, message: &[u8]) {
        let (store, session, message) =
            (self.store.clone(), self.session.clone(), message.to_vec());
        let mut write: BoxFuture<'static, _> =
            Box::pin(async move { store.append(&session, id, message).await });
        let mut queue = lock(&self.queue);
        if queue.behind == 0 {
            // Nothing ahead of it: a store that answers at once is done now.
            if let Poll::Ready(result) =
                write.as_mut().poll(&mut Context::from_waker(Waker::noop()))
            {
                report(&self.session, result);
                return;
            }
        }
        let jobs = queue
            .jobs
            .get_or_insert_with(|| spawn(&self.session, Arc::downgrade(&self.queue)))
            .clone();
        if jobs
            .send(Job::Write(write, self.shutdown.hold_record()))
            .is_ok()
        {
            queue.behind += 1;
        }
    }

    /// Resolves once every event written so far is in the store (or failed).
    pub(crate) async fn flush(&self) {
        let done = {
            let queue = lock(&self.queue);
            if queue.behind == 0 {
                return;
            }
            let Some(jobs) = &queue.jobs else { return };
            let (done, finished) = oneshot::channel();
            if jobs.send(Job::Flush(done)).is_err() {
                return;
            }
            finished
        };
        let _ = done.await;
    }
}

/// Starts the task that finishes a session's writes in order; it ends
/// with the session's journal.
fn spawn(session: &Arc<str>, queue: Weak<Mutex<Queue>>) -> mpsc::UnboundedSender<Job> {
    let (jobs, mut pending) = mpsc::unbounded_channel();
    let session = session.clone();
    tokio::spawn(async move {
        while let Some(job) = pending.recv().await {
            match job {
                Job::Write(write, recording) => {
                    report(&session, write.await);
                    drop(recording);
                    // Without its journal the writes still finish, in order.
                    if let Some(queue) = queue.upgrade() {
                        lock(&queue).behind -= 1;
                    }
                }
                Job::Flush(done) => {
                    let _ = done.send(());
                }
            }
        }
    });
    jobs
}

fn report(session: &str, written: Result<(), Unavailable>) {
    if let Err(error) = written {
        tracing::warn!(
            session,
            %error,
            "an event went out live but is not kept: its stream cannot be resumed past it"
        );
    }
}

/// Runs `work` to its end: at once when it completes at once, otherwise
/// in a task (when there is a runtime to run it).
pub(crate) fn soon(mut work: BoxFuture<'static, ()>) {
    if work
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
        .is_pending()
        && let Ok(runtime) = tokio::runtime::Handle::try_current()
    {
        runtime.spawn(work);
    }
}
