//! A crate written with `#[tool]` under strict lints.
#![deny(missing_docs)]
#![warn(unused_crate_dependencies)]
#![forbid(unsafe_code)]

use mcp_server::tool;

/// Echoes its argument.
#[tool]
pub async fn echo(text: String) -> String {
    text
}

fn main() {}
