//! The chain run by whoever invokes interceptors on its own side of a trust
//! boundary: a client or a gateway that governs what it sends and receives
//! with a server's interceptors.

use std::sync::Arc;

use mcp_server::Server;
use mcp_server::auth::Principal;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonValue;

use crate::chain::{Chains, For, pass};
use crate::declare::Interceptors;
use crate::wire::Phase;

/// Which side of the trust boundary a payload is crossing.
///
/// The side that sends a payload mutates it and then validates the result,
/// so what leaves is what was validated; the side that receives one
/// validates it first and then mutates it. A server receives requests and
/// sends results; a client sends requests and receives results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The payload is about to leave.
    Sending,
    /// The payload has just arrived.
    Receiving,
}

/// What a chain gave back: the payload after the applied rewrites.
#[derive(Debug, Clone, PartialEq)]
pub struct Executed {
    /// The payload, rewritten by every active mutator.
    pub payload: JsonValue,
    /// Whether it differs from the payload given.
    pub modified: bool,
}

/// The interceptors linked into a server, sorted once into per-event
/// chains, to run on payloads the caller holds.
///
/// A server runs its interceptors on its own requests already; an executor
/// is for the invoker-side orchestration of the proposal, where the caller
/// crosses the boundary itself.
///
/// ```
/// use mcp_interceptors::wire::Phase;
/// use mcp_interceptors::{Executor, Side};
///
/// let server = mcp_server::Server::builder().build();
/// let executor = Executor::of(&server);
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let payload = serde_json::json!({"method": "tools/call", "params": {"name": "echo"}});
/// let executed = executor
///     .run("tools/call", Phase::Request, Side::Sending, payload.clone(), None)
///     .await
///     .unwrap();
/// assert_eq!(executed.payload, payload);
/// assert!(!executed.modified);
/// # });
/// ```
#[derive(Clone)]
pub struct Executor {
    chains: Arc<Chains>,
}

impl Executor {
    /// The chains of the interceptors `server` was built with.
    pub fn of(server: &Server) -> Self {
        Self {
            chains: Arc::new(Chains::of(server.members::<Interceptors>())),
        }
    }

    /// Runs the interceptors `event` has in `phase` on `payload` crossing
    /// the boundary on `side`, as `principal` (anonymous when `None`).
    ///
    /// # Errors
    ///
    /// The JSON-RPC error the governed operation fails with: an active
    /// validator refused the payload, or an interceptor that does not fail
    /// open failed or ran out of time. Nothing of the payload is rewritten
    /// then.
    pub async fn run(
        &self,
        event: &str,
        phase: Phase,
        side: Side,
        payload: JsonValue,
        principal: Option<&Principal>,
    ) -> Result<Executed, ErrorObject> {
        let anonymous;
        let principal = match principal {
            Some(principal) => principal,
            None => {
                anonymous = Principal::anonymous();
                &anonymous
            }
        };
        let events = self.chains.of_event(event);
        let chain = match phase {
            Phase::Request => &events.request,
            Phase::Response => &events.response,
        };
        let who = For {
            event,
            principal,
            request: None,
        };
        let passed = pass(chain, &who, phase, side, payload).await?;
        Ok(Executed {
            payload: passed.payload,
            modified: passed.modified,
        })
    }
}

impl std::fmt::Debug for Executor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executor").finish_non_exhaustive()
    }
}
