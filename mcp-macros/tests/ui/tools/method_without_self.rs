use mcp_server::tools;

#[derive(Default)]
struct Greeter;

#[tools]
impl Greeter {
    /// Forgets `&self`.
    #[tool]
    async fn greet(name: String) -> String {
        format!("hello, {name}")
    }
}

fn main() {}
