use mcp_server::resource_template;

/// No URI template.
#[resource_template(name = "files")]
async fn file(path: String) -> String {
    path
}

fn main() {}
