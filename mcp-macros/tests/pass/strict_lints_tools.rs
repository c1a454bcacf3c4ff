//! A crate written with `#[tools]` under strict lints.
#![deny(missing_docs)]
#![warn(unused_crate_dependencies)]
#![forbid(unsafe_code)]

use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::tools;

/// Counts calls.
#[derive(Default)]
pub struct Counter {
    calls: AtomicUsize,
}

#[tools(crate = mcp_server)]
impl Counter {
    /// Counts one more call.
    #[tool(read_only = false)]
    pub async fn count(&self) -> String {
        (self.calls.fetch_add(1, Ordering::SeqCst) + 1).to_string()
    }
}

fn main() {}
