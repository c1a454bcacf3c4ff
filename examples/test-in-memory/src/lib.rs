//! A server tested with the in-memory client: `MemoryClient` drives the
//! whole pipeline (guards, schema checks, every interceptor) without a
//! transport, so a test calls tools as a client would, in microseconds.
//! The tests are in `tests/`; run them with `cargo test -p test-in-memory`.

use mcp_server::prelude::*;

/// Converts a temperature from Celsius to Fahrenheit.
#[tool(read_only)]
pub async fn to_fahrenheit(celsius: f64) -> Structured<f64> {
    Structured(celsius * 9.0 / 5.0 + 32.0)
}

/// The server, as `main` of a binary would build it.
pub fn server() -> Server {
    Server::builder()
        .named("test-in-memory", env!("CARGO_PKG_VERSION"))
        .build()
}
