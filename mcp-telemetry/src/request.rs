//! What a message says about itself before it is served: the facts every
//! span and metric point of it carries.

use mcp_server::core::jsonrpc::RequestId;
use mcp_server::core::version::Era;
use mcp_server::seam::interceptor::RawCall;

use crate::names;

/// The notifications a client may send that the protocol defines; any
/// other is recorded as [`names::OTHER`], so a client cannot make up
/// metric labels.
const CLIENT_NOTIFICATIONS: [&str; 4] = [
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
];

/// The facts of one request or notification.
#[derive(Debug)]
pub(crate) struct Request<'a> {
    /// The method, as recorded.
    pub(crate) method: &'a str,
    /// The JSON-RPC id; `None` for a notification.
    pub(crate) id: Option<&'a RequestId>,
    /// The protocol version the request speaks.
    pub(crate) protocol_version: Option<&'a str>,
    /// The id of the 2025-11-25 session the request came on.
    pub(crate) session_id: Option<&'a str>,
    /// `network.transport`: `tcp` or `pipe`.
    pub(crate) transport: Option<&'static str>,
}

impl<'a> Request<'a> {
    /// The facts of `call`.
    pub(crate) fn of(call: &'a RawCall<'a>) -> Self {
        let ctx = call.ctx();
        // Only routed methods reach the interceptors; notifications of any
        // name do.
        let method = match call.method() {
            method if !call.is_notification() || CLIENT_NOTIFICATIONS.contains(&method) => method,
            _ => names::OTHER,
        };
        let session = ctx.session();
        let session_id = session
            .filter(|_| ctx.era() == Era::Legacy)
            .and_then(|s| s.id());
        Self {
            method,
            id: call.id(),
            protocol_version: ctx.protocol_version(),
            session_id,
            transport: session.and_then(|s| network_transport(s.transport()?)),
        }
    }

    /// Whether this is a `tools/call`.
    pub(crate) fn is_tool_call(&self) -> bool {
        self.method == "tools/call"
    }
}

/// `network.transport` for the transport named `name`.
fn network_transport(name: &str) -> Option<&'static str> {
    match name {
        "http" => Some("tcp"),
        "stdio" => Some("pipe"),
        _ => None,
    }
}
