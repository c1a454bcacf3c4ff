use mcp_server::contributor;
use mcp_server::seam::contributor::{Contributions, Contributor};

struct Catalog;

#[contributor]
impl Contributor for Catalog {
    fn contribute(&self, _: &mut Contributions) {}
}

fn main() {}
