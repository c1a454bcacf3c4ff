use mcp_server::tool;

#[derive(Default)]
struct Greeter;

impl Greeter {
    /// A method marked `#[tool]` in a block without `#[tools]`.
    #[tool]
    async fn greet(&self, name: String) -> String {
        format!("hello, {name}")
    }
}

fn main() {}
