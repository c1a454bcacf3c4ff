use mcp_server::tools;

#[derive(Default)]
struct Greeter;

#[tools]
impl Greeter {
    /// Not async.
    #[tool]
    fn greet(&self, name: String) -> String {
        format!("hello, {name}")
    }
}

fn main() {}
