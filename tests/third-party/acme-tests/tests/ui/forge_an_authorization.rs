use mcp_server::seam::interceptor::Authorized;

fn main() {
    // Only `next.authorize(..)` makes an authorization.
    let _ = Authorized::new();
}
