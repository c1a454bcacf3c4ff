//! A time limit that arms no timer for work that is done the first time it
//! is polled, as most requests and request bodies are: a timer costs a
//! clock read, a runtime handle and a slot in the timer wheel.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::Sleep;

/// The output of `future`, or `None` when it is not done within `limit`
/// (counted from the first time it is found unfinished).
pub(crate) fn within<F: Future>(limit: Duration, future: F) -> Within<F> {
    Within {
        future,
        limit,
        timer: None,
    }
}

pin_project_lite::pin_project! {
    /// The future [`within`] returns.
    pub(crate) struct Within<F> {
        #[pin]
        future: F,
        limit: Duration,
        timer: Option<Pin<Box<Sleep>>>,
    }
}

impl<F: Future> Future for Within<F> {
    type Output = Option<F::Output>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        if let Poll::Ready(output) = this.future.poll(cx) {
            return Poll::Ready(Some(output));
        }
        let limit = *this.limit;
        let timer = this
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        timer.as_mut().poll(cx).map(|()| None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn ready_work_is_answered_and_slow_work_is_cut_at_the_limit() {
        assert_eq!(within(Duration::from_secs(1), async { 7 }).await, Some(7));
        let slow = tokio::time::sleep(Duration::from_secs(2));
        assert_eq!(within(Duration::from_secs(1), slow).await, None);
        let late = async {
            tokio::time::sleep(Duration::from_millis(500)).await;
            8
        };
        assert_eq!(within(Duration::from_secs(1), late).await, Some(8));
    }
}
