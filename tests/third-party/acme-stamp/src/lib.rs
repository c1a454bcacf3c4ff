//! acme-stamp: a sending interceptor an outside crate declares with the
//! public API of `mcp-server` only. Linked, it adds
//! `_meta["dev.acme/stamp"]` to every progress notification the server
//! sends, numbering them per request, as each leaves.

use std::collections::HashMap;
use std::sync::Mutex;

use mcp_server::boot::BootContext;
use mcp_server::seam::interceptor::{End, Outbound, SendingInterceptor};
use mcp_server::seam::{Item, Registration};
use mcp_server::{RequestContext, origin, register};
use serde_json::json;

/// The `_meta` key each progress notification gets.
pub const STAMP: &str = "dev.acme/stamp";

/// Numbers each request's progress notifications in `_meta`, and forgets a
/// request's count when it ends.
#[derive(Debug, Default)]
pub struct ProgressStamp {
    /// By request id, how many progress notifications were stamped.
    counts: Mutex<HashMap<String, u64>>,
}

impl ProgressStamp {
    /// How many requests' counts are held (none once every request ended).
    pub fn held(&self) -> usize {
        self.counts.lock().map_or(0, |c| c.len())
    }
}

fn key(ctx: &RequestContext) -> String {
    ctx.id().map(|id| format!("{id:?}")).unwrap_or_default()
}

impl SendingInterceptor for ProgressStamp {
    fn notify(&self, message: &mut Outbound) {
        if message.method() != "notifications/progress" {
            return;
        }
        let request = message.ctx().map(key).unwrap_or_default();
        let seq = {
            let Ok(mut counts) = self.counts.lock() else {
                return;
            };
            let count = counts.entry(request).or_insert(0);
            *count += 1;
            *count
        };
        message
            .meta_mut()
            .insert(STAMP.into(), json!({"by": "acme-stamp", "seq": seq}));
    }

    fn end(&self, ctx: &RequestContext, _: End) {
        if let Ok(mut counts) = self.counts.lock() {
            counts.remove(&key(ctx));
        }
    }
}

fn stamp(_: &BootContext) -> Item {
    Item::sending_interceptor(ProgressStamp::default())
}

register!(Registration::new(origin!(), "acme-stamp", 0, stamp));
