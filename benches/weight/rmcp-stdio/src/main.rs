//! The template's one-tool server written with rmcp: `greet` over stdio.

use rmcp::ServiceExt;

#[path = "../../rmcp-greeter.rs"]
mod greeter;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = greeter::greeter().serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
