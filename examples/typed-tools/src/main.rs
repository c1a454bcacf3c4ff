//! Typed arguments and structured output: the input schema comes from the
//! parameters (an enum among them), the output schema from the returned
//! type, and a call with a wrong argument is refused before the function
//! runs, with an error the model can read.
//!
//! ```sh
//! cargo run -p typed-tools          # stdio
//! ```

use mcp_server::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How fast an order travels.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Speed {
    /// Five days.
    Standard,
    /// The next day.
    Express,
}

/// What an order costs and when it arrives.
#[derive(Debug, Serialize, JsonSchema)]
struct Quote {
    /// The price, in cents.
    total_cents: u64,
    /// Days until it arrives.
    days: u32,
}

/// Quotes an order of `quantity` items at `unit_cents` each.
#[tool(read_only)]
async fn quote(
    #[arg(description = "How many items")] quantity: u32,
    #[arg(description = "The price of one, in cents")] unit_cents: u64,
    speed: Option<Speed>,
) -> Structured<Quote> {
    let (extra, days) = match speed.unwrap_or(Speed::Standard) {
        Speed::Standard => (0, 5),
        Speed::Express => (1500, 1),
    };
    Structured(Quote {
        total_cents: u64::from(quantity) * unit_cents + extra,
        days,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("typed-tools", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::stdio::serve_stdio(server).await
}
