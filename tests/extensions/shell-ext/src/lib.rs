//! A small extension for the linking tests: contributes `run` and `echo`.
//!
//! Activate it with `use shell_ext as _;`.

use mcp_server::boot::BootContext;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::{Contributions, Contributor};
use mcp_server::seam::{Extension, Item, Registration};

/// Contributes the shell tools.
struct ShellTools;

impl Contributor for ShellTools {
    fn contribute(&self, into: &mut Contributions) {
        for name in ["run", "echo"] {
            let tool = Tool {
                name: name.into(),
                ..Default::default()
            };
            into.tool(
                tool,
                handler_fn::<CallTool, _, _, _>(move |_, _| async move {
                    Ok(CallToolResult::text(format!("shell-ext {name}")))
                }),
            );
        }
    }
}

fn shell_tools(_: &BootContext) -> Item {
    Item::contributor(ShellTools)
}

fn extension(_: &BootContext) -> Item {
    Item::extension(Extension::new(
        "test.example/shell",
        env!("CARGO_PKG_VERSION"),
    ))
}

mcp_server::register!(Registration::new(
    mcp_server::origin!(),
    "ShellTools",
    0,
    shell_tools
));

mcp_server::register!(Registration::extension(
    mcp_server::origin!(),
    "shell-ext",
    extension
));
