//! `mcp.server.session.duration`: a 2025-11-25 session lives from the
//! answer to its `initialize` until its transport ends it (end of input on
//! stdio, `DELETE` or expiry on HTTP).
//!
//! A clock is kept with the session, which drops it when the
//! session ends; the clock records the session's life as it is dropped.
//! (An expired HTTP session is ended when the transport next sweeps its
//! sessions, so its life is counted until then.)

use std::time::Instant;

use mcp_server::core::error::ErrorObject;
use mcp_server::seam::interceptor::{RawAnswer, RawCall};
use opentelemetry::KeyValue;
use serde::Deserialize;

use crate::metrics::Instruments;
use crate::names;
use crate::request::Request;

/// Measures one session; records it when dropped.
struct SessionClock {
    started: Instant,
    attributes: Vec<KeyValue>,
    instruments: &'static Instruments,
}

impl Drop for SessionClock {
    fn drop(&mut self) {
        self.instruments
            .session(self.started.elapsed(), &self.attributes);
    }
}

/// Starts the clock of the session `call` made, if it is an `initialize`
/// that was answered on a session.
pub(crate) fn start(
    call: &RawCall<'_>,
    request: &Request<'_>,
    answer: &Result<RawAnswer, ErrorObject>,
    instruments: &'static Instruments,
) {
    let (Some(session), Ok(answer)) = (call.ctx().session(), answer) else {
        return;
    };
    if call.method() != "initialize" {
        return;
    }
    let mut attributes = Vec::with_capacity(2);
    if let Some(version) = negotiated(answer) {
        attributes.push(KeyValue::new(names::PROTOCOL_VERSION, version));
    }
    if let Some(transport) = request.transport {
        attributes.push(KeyValue::new(names::NETWORK_TRANSPORT, transport));
    }
    session.insert(SessionClock {
        started: Instant::now(),
        attributes,
        instruments,
    });
}

/// The protocol version an `initialize` result negotiated.
fn negotiated(answer: &RawAnswer) -> Option<String> {
    #[derive(Deserialize)]
    struct Initialized {
        #[serde(rename = "protocolVersion")]
        protocol_version: String,
    }
    let result = serde_json::from_str::<Initialized>(answer.result().get()).ok()?;
    Some(result.protocol_version)
}
