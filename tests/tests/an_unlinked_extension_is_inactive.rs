//! A dependency that no code names is not linked, so it registers nothing.

use mcp_server::Server;

#[test]
fn nothing_from_an_unnamed_dependency_is_registered() {
    let server = Server::builder().build();
    assert!(
        server
            .report()
            .members
            .iter()
            .all(|m| m.origin.crate_name != "weather-ext")
    );
    assert!(server.capabilities().tools.is_none());
}
