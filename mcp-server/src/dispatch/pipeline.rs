//! The raw layer of one message: the raw interceptors, then the method's
//! route, or, for a client notification, nothing more to run.

use std::sync::Arc;

use mcp_core::error::ErrorObject;
use serde_json::value::RawValue;

use super::route::Route;
use crate::seam::interceptor::{RawAnswer, RawCall, RawInterceptor, RawRest};
use crate::vocabulary::BoxFuture;

/// What runs after the raw interceptors.
enum Below<'a> {
    /// A request: its method's route.
    Route(&'a dyn Route),
    /// A client notification: the transport acts on it once admitted.
    Notification,
}

/// The raw layer of one message.
pub(crate) struct Pipeline<'a> {
    interceptors: &'a [Arc<dyn RawInterceptor>],
    below: Below<'a>,
}

impl<'a> Pipeline<'a> {
    pub(crate) fn request(
        interceptors: &'a [Arc<dyn RawInterceptor>],
        route: &'a dyn Route,
    ) -> Self {
        Self {
            interceptors,
            below: Below::Route(route),
        }
    }

    pub(crate) fn notification(interceptors: &'a [Arc<dyn RawInterceptor>]) -> Self {
        Self {
            interceptors,
            below: Below::Notification,
        }
    }
}

impl RawRest for Pipeline<'_> {
    fn interceptors(&self) -> &[Arc<dyn RawInterceptor>] {
        self.interceptors
    }

    fn dispatch<'a>(
        &'a self,
        call: &'a RawCall<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        match self.below {
            Below::Route(route) => route.dispatch(call.ctx(), call.params()),
            Below::Notification => {
                let admitted = RawValue::from_string("{}".to_owned())
                    .map(|empty| RawAnswer::new(empty, call.ctx().key()))
                    .map_err(|e| ErrorObject::internal_error(e.to_string()));
                Box::pin(async move { admitted })
            }
        }
    }

    fn authorize(&self, call: &RawCall<'_>) -> Result<(), ErrorObject> {
        match self.below {
            Below::Route(route) => route.authorize(call.ctx(), call.params()),
            Below::Notification => Err(ErrorObject::invalid_request(
                "A notification has no answer to give in place of the server",
            )),
        }
    }
}
