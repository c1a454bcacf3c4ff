//! The frames of one SSE response on their way to its body: an unbounded
//! queue that allocates only for what waits in it, so a held stream that
//! is mostly idle (a `subscriptions/listen` stream) costs a few dozen bytes
//! rather than a channel's preallocated block. Senders (the outlet, the
//! standalone stream's forwarder) push; the response body pops.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use axum::body::Bytes;
use tokio::sync::Notify;

use crate::lock::lock;

struct Shared {
    queue: Mutex<VecDeque<Bytes>>,
    /// Wakes the receiver: a frame came, or the last sender left.
    ready: Notify,
    /// Wakes senders waiting in `closed`: the receiver left.
    gone: Notify,
    receiver_gone: AtomicBool,
    senders: AtomicUsize,
}

/// A queue of frames: its sending and its receiving end.
pub(crate) fn channel() -> (FrameSender, FrameReceiver) {
    let shared = Arc::new(Shared {
        queue: Mutex::new(VecDeque::new()),
        ready: Notify::new(),
        gone: Notify::new(),
        receiver_gone: AtomicBool::new(false),
        senders: AtomicUsize::new(1),
    });
    (FrameSender(shared.clone()), FrameReceiver(shared))
}

/// Pushes frames; the receiver ends once every sender is gone.
pub(crate) struct FrameSender(Arc<Shared>);

impl FrameSender {
    /// Queues `frame`; hands it back when the receiver is gone.
    pub(crate) fn send(&self, frame: Bytes) -> Result<(), Bytes> {
        if self.is_closed() {
            return Err(frame);
        }
        lock(&self.0.queue).push_back(frame);
        self.0.ready.notify_one();
        Ok(())
    }

    /// How many frames wait for the receiver.
    pub(crate) fn queued(&self) -> usize {
        lock(&self.0.queue).len()
    }

    /// Whether the receiver is gone.
    pub(crate) fn is_closed(&self) -> bool {
        self.0.receiver_gone.load(Ordering::Acquire)
    }

    /// Resolves once the receiver is gone.
    pub(crate) async fn closed(&self) {
        loop {
            let notified = self.0.gone.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.is_closed() {
                return;
            }
            notified.await;
        }
    }

    /// A handle that does not keep the receiver open.
    pub(crate) fn downgrade(&self) -> WeakFrameSender {
        WeakFrameSender(Arc::downgrade(&self.0))
    }
}

impl Drop for FrameSender {
    fn drop(&mut self) {
        if self.0.senders.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.ready.notify_one();
        }
    }
}

/// A sender that does not keep the queue open.
pub(crate) struct WeakFrameSender(Weak<Shared>);

impl WeakFrameSender {
    /// A sender again, while some sender still holds the queue open.
    pub(crate) fn upgrade(&self) -> Option<FrameSender> {
        let shared = self.0.upgrade()?;
        shared
            .senders
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n > 0).then_some(n + 1)
            })
            .ok()?;
        Some(FrameSender(shared))
    }
}

/// Pops frames in order; `None` once every sender is gone and nothing waits.
pub(crate) struct FrameReceiver(Arc<Shared>);

impl FrameReceiver {
    /// The next frame.
    pub(crate) async fn recv(&mut self) -> Option<Bytes> {
        loop {
            // A frame or the last sender's leaving, since the check, left a
            // permit: no wake-up is lost.
            if let Some(frame) = lock(&self.0.queue).pop_front() {
                return Some(frame);
            }
            if self.0.senders.load(Ordering::Acquire) == 0 {
                return lock(&self.0.queue).pop_front();
            }
            self.0.ready.notified().await;
        }
    }
}

impl Drop for FrameReceiver {
    fn drop(&mut self) {
        self.0.receiver_gone.store(true, Ordering::Release);
        lock(&self.0.queue).clear();
        self.0.gone.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn frames_arrive_in_order_and_the_receiver_ends_after_the_last_sender() {
        let (sender, mut receiver) = channel();
        let weak = sender.downgrade();
        let second = weak.upgrade().unwrap();
        sender.send(Bytes::from_static(b"a")).unwrap();
        second.send(Bytes::from_static(b"b")).unwrap();
        drop(sender);
        assert_eq!(receiver.recv().await.unwrap(), "a");
        drop(second);
        assert_eq!(receiver.recv().await.unwrap(), "b");
        assert!(receiver.recv().await.is_none());
        assert!(
            weak.upgrade().is_none(),
            "no sender comes back once all left"
        );
    }

    #[tokio::test]
    async fn a_sender_learns_when_the_receiver_leaves() {
        let (sender, receiver) = channel();
        let waiting = tokio::spawn(async move {
            sender.closed().await;
            sender.send(Bytes::from_static(b"late")).is_err()
        });
        tokio::task::yield_now().await;
        drop(receiver);
        assert!(waiting.await.unwrap());
    }
}
