//! A guard on every tool that keeps `admin_*` tools for administrators; the
//! benchmark's tool is not one, so every call it makes is allowed.

use mcp_server::seam::Target;
use mcp_server::seam::guard::{Decision, Guard};
use mcp_server::{RequestContext, guard};

/// Hides `admin_*` tools from callers without the `admin` role.
#[derive(Debug, Default)]
struct AdminTools;

#[guard(on = "tool")]
impl Guard for AdminTools {
    fn name(&self) -> &str {
        "admin-tools"
    }

    fn check(&self, ctx: &RequestContext, target: &Target) -> Decision {
        if !target.name.starts_with("admin_") || ctx.principal().has_role("admin") {
            Decision::Allow
        } else {
            Decision::deny("administrators only")
        }
    }
}
