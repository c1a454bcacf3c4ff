//! The frames of one SSE response on their way to its body: a queue that
//! allocates only for what waits in it, so a held stream that is mostly
//! idle (a `subscriptions/listen` stream) costs a few dozen bytes rather
//! than a channel's preallocated block. Senders (the outlet, the
//! standalone stream's forwarder) push; the response body pops.
//!
//! The queue holds at most a configured number of bytes: a client that
//! stops reading its stream while the server keeps sending would otherwise
//! make the server's memory grow without end. Past the limit the stream
//! overflows: what waits is dropped, senders are refused, and the body
//! ends with an error, which closes the connection.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use axum::body::Bytes;
use tokio::sync::Notify;

use crate::vocabulary::lock;

struct Shared {
    queue: Mutex<Queue>,
    /// The most bytes that may wait; one frame alone may be larger.
    limit: usize,
    /// Wakes the receiver: a frame came, or the last sender left.
    ready: Notify,
    /// Wakes senders waiting in `closed`: the receiver left.
    gone: Notify,
    receiver_gone: AtomicBool,
    senders: AtomicUsize,
}

/// The frames waiting, their size, and whether the stream overflowed.
#[derive(Default)]
struct Queue {
    frames: VecDeque<Bytes>,
    bytes: usize,
    overflowed: bool,
}

impl Queue {
    fn pop(&mut self) -> Option<Bytes> {
        let frame = self.frames.pop_front()?;
        self.bytes -= frame.len();
        Some(frame)
    }
}

/// What the receiving end gets next.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// A frame, in order.
    Frame(Bytes),
    /// Every sender is gone and nothing waits: the stream is complete.
    End,
    /// The client stopped reading and the queue overflowed.
    Overflowed,
}

/// A queue of frames holding at most `limit` bytes at a time (a single
/// larger frame still passes): its sending and its receiving end.
pub(crate) fn channel(limit: usize) -> (FrameSender, FrameReceiver) {
    let shared = Arc::new(Shared {
        queue: Mutex::new(Queue::default()),
        limit,
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
    /// Queues `frame`; hands it back when the receiver is gone, or when
    /// the frames the client has not read would pass the limit, which
    /// overflows the stream for good.
    pub(crate) fn send(&self, frame: Bytes) -> Result<(), Bytes> {
        if self.is_closed() {
            return Err(frame);
        }
        let mut queue = lock(&self.0.queue);
        if queue.overflowed {
            return Err(frame);
        }
        if queue.bytes > 0 && queue.bytes + frame.len() > self.0.limit {
            tracing::warn!(
                target: "mcp_server::http",
                waiting_bytes = queue.bytes,
                limit = self.0.limit,
                "an SSE client stopped reading its stream; the stream is closed"
            );
            *queue = Queue {
                overflowed: true,
                ..Queue::default()
            };
            drop(queue);
            self.0.ready.notify_one();
            self.0.gone.notify_waiters();
            return Err(frame);
        }
        queue.bytes += frame.len();
        queue.frames.push_back(frame);
        drop(queue);
        self.0.ready.notify_one();
        Ok(())
    }

    /// How many frames wait for the receiver.
    pub(crate) fn queued(&self) -> usize {
        lock(&self.0.queue).frames.len()
    }

    /// Whether the receiver is gone, or the stream overflowed.
    pub(crate) fn is_closed(&self) -> bool {
        self.0.receiver_gone.load(Ordering::Acquire) || lock(&self.0.queue).overflowed
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
    /// The next frame, the end, or the overflow.
    pub(crate) async fn recv(&mut self) -> Next {
        loop {
            // A frame, an overflow or the last sender's leaving, since the
            // check, left a permit: no wake-up is lost.
            {
                let mut queue = lock(&self.0.queue);
                if queue.overflowed {
                    return Next::Overflowed;
                }
                if let Some(frame) = queue.pop() {
                    return Next::Frame(frame);
                }
            }
            if self.0.senders.load(Ordering::Acquire) == 0 {
                return lock(&self.0.queue).pop().map_or(Next::End, Next::Frame);
            }
            self.0.ready.notified().await;
        }
    }
}

impl Drop for FrameReceiver {
    fn drop(&mut self) {
        self.0.receiver_gone.store(true, Ordering::Release);
        let mut queue = lock(&self.0.queue);
        queue.frames.clear();
        queue.bytes = 0;
        drop(queue);
        self.0.gone.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn frames_arrive_in_order_and_the_receiver_ends_after_the_last_sender() {
        let (sender, mut receiver) = channel(1 << 20);
        let weak = sender.downgrade();
        let second = weak.upgrade().unwrap();
        sender.send(Bytes::from_static(b"a")).unwrap();
        second.send(Bytes::from_static(b"b")).unwrap();
        drop(sender);
        assert_eq!(receiver.recv().await, Next::Frame(Bytes::from_static(b"a")));
        drop(second);
        assert_eq!(receiver.recv().await, Next::Frame(Bytes::from_static(b"b")));
        assert_eq!(receiver.recv().await, Next::End);
        assert!(
            weak.upgrade().is_none(),
            "no sender comes back once all left"
        );
    }

    #[tokio::test]
    async fn a_sender_learns_when_the_receiver_leaves() {
        let (sender, receiver) = channel(1 << 20);
        let waiting = tokio::spawn(async move {
            sender.closed().await;
            sender.send(Bytes::from_static(b"late")).is_err()
        });
        tokio::task::yield_now().await;
        drop(receiver);
        assert!(waiting.await.unwrap());
    }

    #[tokio::test]
    async fn a_stream_whose_client_stops_reading_overflows_once_and_for_all() {
        let (sender, mut receiver) = channel(10);
        // One frame larger than the limit passes when nothing waits.
        sender.send(Bytes::from(vec![b'x'; 64])).unwrap();
        assert_eq!(
            receiver.recv().await,
            Next::Frame(Bytes::from(vec![b'x'; 64]))
        );
        sender.send(Bytes::from_static(b"12345")).unwrap();
        sender.send(Bytes::from_static(b"67890")).unwrap();
        assert!(sender.send(Bytes::from_static(b"!")).is_err());
        assert!(sender.is_closed());
        assert!(sender.send(Bytes::from_static(b"?")).is_err());
        assert_eq!(receiver.recv().await, Next::Overflowed);
        assert_eq!(sender.queued(), 0);
    }
}
