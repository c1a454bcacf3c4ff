use mcp_server::resource_template;

/// Not async.
#[resource_template(uri_template = "file:///{path}")]
fn file(path: String) -> String {
    path
}

fn main() {}
