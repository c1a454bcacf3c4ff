//! A guard that hides tools per caller: `refund` is for the support team
//! only. A caller outside it does not see it in `tools/list`, and a call
//! to it answers as a call to a tool that does not exist. Over stdio the
//! caller is whoever starts the process, named by `MCP_AUTHORIZATION`.
//!
//! ```sh
//! MCP_AUTHORIZATION="Bearer support-ada" cargo run -p guarded-tools
//! ```

use std::sync::Arc;

use mcp_server::auth::{Credentials, Principal};
use mcp_server::prelude::*;
use mcp_server::seam::Target;
use mcp_server::seam::guard::{Decision, Guard};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::{guard, source};

/// Looks up an order.
#[tool]
async fn order(id: u32) -> String {
    format!("order {id}: paid")
}

/// Refunds an order (support team only).
#[tool]
async fn refund(id: u32) -> String {
    format!("order {id}: refunded")
}

/// A bearer token `support-<name>` is a member of the support team.
#[derive(Debug, Default)]
struct Tokens;

#[source]
impl PrincipalSource for Tokens {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(match credentials.bearer() {
            Some(token) if token.starts_with("support-") => {
                Principal::named(token).with_role("support")
            }
            Some(token) => Principal::named(token),
            None => Principal::anonymous(),
        })
    }
}

/// `refund` is seen by the support team only.
#[derive(Debug, Default)]
struct SupportOnly;

#[guard(on = "tool")]
impl Guard for SupportOnly {
    fn name(&self) -> &str {
        "support-only"
    }

    fn check(&self, ctx: &RequestContext, target: &Target) -> Decision {
        if target.name != "refund" || ctx.principal().has_role("support") {
            Decision::Allow
        } else {
            Decision::deny("support team only")
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("guarded-tools", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::stdio::serve_stdio(server).await
}
