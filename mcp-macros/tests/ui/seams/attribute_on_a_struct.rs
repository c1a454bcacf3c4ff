use mcp_server::source;

#[source]
#[derive(Default)]
struct Bearer;

fn main() {}
