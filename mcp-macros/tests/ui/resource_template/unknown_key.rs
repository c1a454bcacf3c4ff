use mcp_server::resource_template;

/// `uri` belongs to `#[resource]`.
#[resource_template(uri = "file:///{path}")]
async fn file(path: String) -> String {
    path
}

fn main() {}
