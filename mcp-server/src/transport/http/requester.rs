//! Requests to a legacy client, sent on the POST stream of the call that
//! asks: the client's response comes back as a POST of its own.

use std::sync::Arc;

use mcp_core::json::JsonValue;

use super::outlet::Outlet;
use crate::handler::BoxFuture;
use crate::input::{ClientRequester, InputError};
use crate::transport::outbound::Outbound;

/// Asks the client on the stream of one request.
pub(crate) struct StreamRequester {
    pub(crate) outbound: Arc<Outbound>,
    pub(crate) outlet: Arc<Outlet>,
}

impl ClientRequester for StreamRequester {
    fn request(
        &self,
        method: &'static str,
        params: JsonValue,
    ) -> BoxFuture<'static, Result<JsonValue, InputError>> {
        let sent = self
            .outbound
            .begin(method, params)
            .and_then(|(bytes, pending)| {
                if self.outlet.send(bytes) {
                    Ok(pending)
                } else {
                    Err(InputError::Unavailable(
                        "the client accepts only a JSON response, which cannot carry a request",
                    ))
                }
            });
        Box::pin(async move { sent?.answer().await })
    }
}
