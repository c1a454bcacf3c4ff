use mcp_server::resource_template;

struct City;

/// `City` does not implement `FromStr`.
#[resource_template(uri_template = "weather://{city}")]
async fn forecast(city: City) -> String {
    let City = city;
    String::new()
}

fn main() {}
