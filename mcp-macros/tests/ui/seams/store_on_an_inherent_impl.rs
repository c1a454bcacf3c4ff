use mcp_server::store;

#[derive(Default)]
struct SessionStore;

#[store]
impl SessionStore {}

fn main() {}
