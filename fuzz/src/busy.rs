//! The time a future spends in its own polls: what an input costs its
//! thread, apart from the waits it shares with the inputs beside it.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// A future that adds up the time spent polling the future it wraps.
#[derive(Debug)]
pub struct Busy<F> {
    inner: Pin<Box<F>>,
    spent: Duration,
}

impl<F: Future> Busy<F> {
    /// Wraps `inner`.
    pub fn new(inner: F) -> Self {
        Self {
            inner: Box::pin(inner),
            spent: Duration::ZERO,
        }
    }
}

impl<F: Future> Future for Busy<F> {
    /// The inner future's output, and the time its polls took.
    type Output = (F::Output, Duration);

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let started = Instant::now();
        let polled = self.inner.as_mut().poll(cx);
        self.spent += started.elapsed();
        polled.map(|output| (output, self.spent))
    }
}
