use mcp_server::tools;

#[derive(Default)]
struct Counter {
    count: usize,
}

#[tools]
impl Counter {
    /// Mutates the shared instance.
    #[tool]
    async fn bump(&mut self) -> String {
        self.count += 1;
        self.count.to_string()
    }
}

fn main() {}
