//! A tool that comes with a View (MCP Apps): `weather` answers with text
//! for the model and data for the View, and a host that renders MCP Apps
//! shows `ui://weather/card`, an HTML document, beside the result.
//!
//! ```sh
//! cargo run -p a-view              # stdio
//! ```

use mcp_apps::View;
use mcp_server::core::tools::CallToolResult;
use mcp_server::prelude::*;

/// Today's weather in a city, as text and as data for the card.
#[tool]
async fn weather(city: String) -> CallToolResult {
    let mut result = CallToolResult::text(format!("{city}: 21 °C, sunny"));
    result.structured_content =
        Some(serde_json::json!({"city": city, "celsius": 21, "sky": "sunny"}));
    result
}
mcp_apps::ui!(weather, "ui://weather/card");

/// The card: one HTML document that draws the tool's data.
fn card() -> View {
    View::new("ui://weather/card", "weather_card")
        .title("Weather card")
        .html(
            "<!DOCTYPE html><html><body><h1 id=city></h1><p id=sky></p>\
             <script>addEventListener('message', e => {\
             const d = e.data?.params?.structuredContent; if (!d) return;\
             city.textContent = d.city; sky.textContent = d.celsius + ' °C, ' + d.sky; });\
             </script></body></html>",
        )
}
mcp_apps::view!(card);

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("a-view", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::stdio::serve_stdio(server).await
}
