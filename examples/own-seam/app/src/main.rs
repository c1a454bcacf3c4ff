//! An application that links the `greetings` extension crate and supplies
//! its seam: `greet` answers in French, and the boot report names
//! `French` as the active phrasebook.
//!
//! ```sh
//! cargo run -p own-seam-app        # stdio
//! ```

use greetings::Phrasebook;
use mcp_server::prelude::*;
use mcp_server::source;

/// Greets in French.
#[derive(Debug, Default)]
struct French;

#[source(name = "French")]
impl Phrasebook for French {
    fn greeting(&self, name: &str) -> String {
        format!("Bonjour, {name} !")
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("own-seam-app", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::stdio::serve_stdio(server).await
}
