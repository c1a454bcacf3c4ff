//! The work of one request, run on the task that serves its HTTP request:
//! a plain JSON answer needs no task of its own. If that task is dropped
//! first (the client went away), the unfinished work moves to a task of
//! its own and ends there, as a cancelled request does.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A request's work; see the module.
pub(crate) struct Work<T: Send + 'static> {
    future: Option<Pin<Box<dyn Future<Output = T> + Send>>>,
}

impl<T: Send + 'static> Work<T> {
    /// The work `future` does, not started yet.
    pub(crate) fn new(future: impl Future<Output = T> + Send + 'static) -> Self {
        Self {
            future: Some(Box::pin(future)),
        }
    }
}

impl<T: Send + 'static> Future for Work<T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let Some(future) = self.future.as_mut() else {
            // Polled again after it ended: never, in this module's callers.
            return Poll::Pending;
        };
        let output = std::task::ready!(future.as_mut().poll(cx));
        self.future = None;
        Poll::Ready(output)
    }
}

impl<T: Send + 'static> Drop for Work<T> {
    fn drop(&mut self) {
        if let (Some(future), Ok(runtime)) =
            (self.future.take(), tokio::runtime::Handle::try_current())
        {
            runtime.spawn(future);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[tokio::test]
    async fn work_runs_in_place_and_ends_on_its_own_when_dropped_unfinished() {
        assert_eq!(Work::new(async { 7 }).await, 7);
        let ended = Arc::new(AtomicBool::new(false));
        let (go, wait) = tokio::sync::oneshot::channel::<()>();
        let flag = ended.clone();
        let work = Work::new(async move {
            let _ = wait.await;
            flag.store(true, Ordering::Release);
        });
        drop(work);
        go.send(()).unwrap();
        for _ in 0..100 {
            if ended.load(Ordering::Acquire) {
                return;
            }
            tokio::task::yield_now().await;
        }
        panic!("the dropped work did not end on its own task");
    }
}
