//! A skill served with `mcp-skills`: the directory `skills/` is carried in
//! the binary, each skill in it listed by `skills/list`, fetched by
//! `skills/get` and read file by file with `resources/read`.
//!
//! ```sh
//! cargo run -p serve-a-skill       # stdio
//! ```

use mcp_server::prelude::*;

mcp_skills::embed!("skills");

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("serve-a-skill", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::stdio::serve_stdio(server).await
}
