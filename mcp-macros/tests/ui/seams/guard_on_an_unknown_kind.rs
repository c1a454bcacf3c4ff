use mcp_server::RequestContext;
use mcp_server::guard;
use mcp_server::seam::guard::{Decision, Guard};
use mcp_server::seam::Target;

#[derive(Default)]
struct Admins;

#[guard(on = "tools")]
impl Guard for Admins {
    fn name(&self) -> &str {
        "admins"
    }
    fn check(&self, _: &RequestContext, _: &Target) -> Decision {
        Decision::Allow
    }
}

fn main() {}
