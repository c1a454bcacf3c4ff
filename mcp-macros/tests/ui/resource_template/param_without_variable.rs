use mcp_server::resource_template;

/// `name` is not a variable of the template.
#[resource_template(uri_template = "file:///{path}")]
async fn file(path: String, name: String) -> String {
    format!("{path}{name}")
}

fn main() {}
