//! A small extension for the linking tests: contributes `forecast` and
//! `echo`, and marks itself as a linked extension.
//!
//! Activate it with `use weather_ext as _;`.

use mcp_server::boot::BootContext;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::{Contributions, Contributor};
use mcp_server::seam::{Extension, Item, Registration};

/// Contributes the weather tools.
struct WeatherTools;

impl Contributor for WeatherTools {
    fn contribute(&self, into: &mut Contributions) {
        for name in ["forecast", "echo"] {
            let tool = Tool {
                name: name.into(),
                ..Default::default()
            };
            into.tool(
                tool,
                handler_fn::<CallTool, _, _, _>(move |_, _| async move {
                    Ok(CallToolResult::text(format!("weather-ext {name}")))
                }),
            );
        }
    }
}

fn weather_tools(_: &BootContext) -> Item {
    Item::contributor(WeatherTools)
}

fn extension(_: &BootContext) -> Item {
    Item::extension(Extension::new(
        "test.example/weather",
        env!("CARGO_PKG_VERSION"),
    ))
}

mcp_server::register!(Registration::new(
    mcp_server::origin!(),
    "WeatherTools",
    0,
    weather_tools
));

mcp_server::register!(Registration::extension(
    mcp_server::origin!(),
    "weather-ext",
    extension
));
