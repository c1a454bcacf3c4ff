use mcp_server::tool;

#[derive(serde::Deserialize)]
struct Point {
    x: i64,
}

/// An argument type without `JsonSchema`.
#[tool]
async fn plot(point: Point) -> String {
    point.x.to_string()
}

fn main() {}
