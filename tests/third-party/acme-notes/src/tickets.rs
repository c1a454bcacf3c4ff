//! An alternate result on `tools/call`: a tool marked [`Deferred`] answers
//! with a ticket, and runs later; only for callers its guards allow, since
//! the invocation exists only once they passed.

use std::sync::Mutex;

use mcp_server::core::error::ErrorObject;
use mcp_server::core::result::ResultType;
use mcp_server::core::tools::Tool;
use mcp_server::prelude::extension::*;

/// The `_meta` key that marks a tool as deferred.
pub const DEFERRED: &str = "acme/deferred";

/// Marks a tool as deferred (what `#[acme_macros::deferred]` attaches).
#[derive(Debug, Default)]
pub struct Deferred;

impl HandlerCustomizer<Tool> for Deferred {
    fn customize(&self, config: &mut HandlerConfig<'_, Tool>) {
        config
            .descriptor_mut()
            .meta
            .get_or_insert_default()
            .insert(DEFERRED.into(), true.into());
    }
}

/// The deferred invocations, waiting to run.
#[derive(Debug, Default)]
pub struct Ticketed(Mutex<Vec<DeferredInvocation>>);

impl Ticketed {
    /// Takes every waiting invocation out.
    pub fn take(&self) -> Vec<DeferredInvocation> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Answers a deferred tool's call with a ticket.
#[derive(Debug)]
pub struct Tickets {
    waiting: std::sync::Arc<Ticketed>,
}

impl AlternateResultInterceptor for Tickets {
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        let deferred = invocation
            .target()
            .meta
            .as_ref()
            .and_then(|m| m.get(DEFERRED))
            .is_some_and(|v| v == &serde_json::Value::Bool(true));
        if !deferred {
            return invocation.proceed();
        }
        let proof = invocation.authorized();
        let mut waiting = self.waiting.0.lock().unwrap_or_else(|e| e.into_inner());
        waiting.push(invocation.defer());
        let mut body = serde_json::Map::new();
        body.insert("ticket".into(), waiting.len().into());
        Box::pin(async move {
            Ok(proof.alternate(AlternateResult {
                result_type: ResultType::from_static("acme.ticket"),
                body,
            }))
        })
    }
}

fn tickets(boot: &BootContext) -> Item {
    Item::alternate_result_interceptor(Tickets {
        waiting: boot.shared::<Ticketed>(),
    })
}

mcp_server::register!(Registration::new(origin!(), "Tickets", 0, tickets));
