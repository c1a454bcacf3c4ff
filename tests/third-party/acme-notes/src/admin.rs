//! Who may see the administrative targets: callers with the `admin` role.

use mcp_server::prelude::extension::*;
use mcp_server::seam::customizer::GuardAttacher;

/// Allows only callers with the `admin` role.
#[derive(Debug, Default)]
pub struct AdminOnly;

impl Guard for AdminOnly {
    fn name(&self) -> &str {
        "acme-admin-only"
    }

    fn check(&self, ctx: &RequestContext, _: &Target) -> Decision {
        if ctx.principal().has_role("admin") {
            Decision::Allow
        } else {
            Decision::deny("admins only")
        }
    }
}

fn guard_purge(_: &BootContext) -> Item {
    Item::customizer_for::<mcp_server::core::tools::Tool>(
        "note.purge",
        GuardAttacher::new(AdminOnly),
    )
}

fn guard_digest(_: &BootContext) -> Item {
    Item::customizer_for::<mcp_server::core::prompts::Prompt>(
        "note.digest",
        GuardAttacher::new(AdminOnly),
    )
}

fn guard_all(_: &BootContext) -> Item {
    Item::customizer_for::<mcp_server::core::resources::Resource>(
        "notes-admin://all",
        GuardAttacher::new(AdminOnly),
    )
}

mcp_server::register!(Registration::new(
    origin!(),
    "admin-only-purge",
    0,
    guard_purge
));
mcp_server::register!(Registration::new(
    origin!(),
    "admin-only-digest",
    0,
    guard_digest
));
mcp_server::register!(Registration::new(origin!(), "admin-only-all", 0, guard_all));
