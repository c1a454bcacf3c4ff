use mcp_server::resource_template;

/// `days` has no parameter.
#[resource_template(uri_template = "weather://{city}/{days}")]
async fn forecast(city: String) -> String {
    city
}

fn main() {}
