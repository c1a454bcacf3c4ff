use mcp_server::contributor;
use mcp_server::seam::contributor::{Contributions, Contributor};

#[derive(Default)]
struct Catalog;

#[contributor(order = 3)]
impl Contributor for Catalog {
    fn contribute(&self, _: &mut Contributions) {}
}

fn main() {}
