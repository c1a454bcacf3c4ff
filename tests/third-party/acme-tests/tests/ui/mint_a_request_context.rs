use mcp_server::RequestContext;

fn main() {
    // Only the framework makes a context; tests of handler code enable
    // `test-util` to make one that no server accepts.
    let _ = RequestContext::for_tests();
}
