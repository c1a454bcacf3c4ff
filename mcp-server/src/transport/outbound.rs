//! Requests from the server to a legacy client: numbered, remembered until
//! the client's response settles them, forgotten when their asker gives up.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use mcp_core::json::JsonValue;
use mcp_core::jsonrpc::{Request, RequestId, Response};
use tokio::sync::oneshot;

use crate::context::InputError;
use crate::context::input::ClientRequester;
use crate::vocabulary::{BoxFuture, lock};

type Waiter = oneshot::Sender<Result<JsonValue, InputError>>;

/// The server's requests to one client still waiting for its response: a
/// transport numbers each with [`begin`](Self::begin), sends it, and hands
/// the client's response to [`settle`](Self::settle).
#[derive(Debug, Default)]
pub struct Outbound {
    next: AtomicI64,
    waiting: Mutex<HashMap<RequestId, Waiter>>,
    /// Set when the connection ended: nothing more can be asked.
    closed: AtomicBool,
}

impl Outbound {
    /// Numbers a request and remembers it; returns its encoded form and
    /// what resolves with the client's answer.
    pub fn begin(
        self: &Arc<Self>,
        method: &'static str,
        params: JsonValue,
    ) -> Result<(Vec<u8>, Pending), InputError> {
        let id = RequestId::Number(self.next.fetch_add(1, Ordering::Relaxed));
        let request = Request::new(id.clone(), method, &params)
            .map_err(|e| InputError::Malformed(e.to_string()))?;
        let bytes =
            serde_json::to_vec(&request).map_err(|e| InputError::Malformed(e.to_string()))?;
        let (tx, rx) = oneshot::channel();
        {
            let mut waiting = self.lock();
            // Checked under the lock `close` empties the table with.
            if self.closed.load(Ordering::Acquire) {
                return Err(InputError::Cancelled);
            }
            waiting.insert(id.clone(), tx);
        }
        let pending = Pending {
            id,
            answer: rx,
            outbound: self.clone(),
        };
        Ok((bytes, pending))
    }

    /// Settles the request a client response answers; `false` when no
    /// request of that id is waiting.
    pub fn settle(&self, response: Response) -> bool {
        let (id, outcome) = match response {
            Response::Result(r) => (Some(r.id), Ok(r.result)),
            Response::Error(e) => (e.id, Err(InputError::Refused(e.error))),
        };
        let Some(waiter) = id.and_then(|id| self.lock().remove(&id)) else {
            return false;
        };
        let _ = waiter.send(outcome);
        true
    }

    /// Ends every request still waiting, and any asked from now on, with
    /// [`InputError::Cancelled`]: the client went away. A handler waiting
    /// for its answer (one that runs on past its request, as a task does)
    /// learns it at once instead of at its input timeout.
    pub fn close(&self) {
        let waiting = {
            let mut waiting = self.lock();
            self.closed.store(true, Ordering::Release);
            std::mem::take(&mut *waiting)
        };
        // Dropped senders: their receivers answer `Cancelled`.
        drop(waiting);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, Waiter>> {
        lock(&self.waiting)
    }
}

/// One request on its way to the client; dropping it forgets the request.
#[derive(Debug)]
pub struct Pending {
    id: RequestId,
    answer: oneshot::Receiver<Result<JsonValue, InputError>>,
    outbound: Arc<Outbound>,
}

impl Pending {
    /// The client's answer; `Cancelled` if the connection went away first.
    pub async fn answer(mut self) -> Result<JsonValue, InputError> {
        (&mut self.answer)
            .await
            .unwrap_or(Err(InputError::Cancelled))
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.outbound.lock().remove(&self.id);
    }
}

/// Asks the client of one session: numbers each request with
/// `outbound`, hands its bytes to `send`, and awaits the client's response.
/// `send` says whether the bytes can reach the client.
pub struct Requester<S> {
    /// Where the requests wait for their responses.
    pub outbound: Arc<Outbound>,
    /// Sends one encoded request to the client.
    pub send: S,
}

impl<S> std::fmt::Debug for Requester<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Requester").finish_non_exhaustive()
    }
}

impl<S> ClientRequester for Requester<S>
where
    S: Fn(Vec<u8>) -> bool + Send + Sync + 'static,
{
    fn request(
        &self,
        method: &'static str,
        params: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>> {
        let sent = self
            .outbound
            .begin(method, params)
            .and_then(|(bytes, pending)| {
                if (self.send)(bytes) {
                    Ok(pending)
                } else {
                    Err(InputError::Unavailable(
                        "the connection cannot carry a request to the client",
                    ))
                }
            });
        Box::pin(async move { sent?.answer().await })
    }
}
