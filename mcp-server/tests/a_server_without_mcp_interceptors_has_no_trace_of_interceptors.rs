//! Linking activates: this test binary does not link `mcp-interceptors`,
//! so the server advertises no interceptors capability and serves neither
//! of its methods, in either era.

mod support;

use mcp_server::core::version::Era;
use mcp_server::testing::MemoryClient;
use serde_json::json;

#[tokio::test]
async fn without_the_extension_linked_neither_capability_nor_methods_exist() {
    let server = mcp_server::Server::builder().named("test", "1.0.0").build();
    for era in [Era::Modern, Era::Legacy] {
        assert!(
            !server
                .capabilities_in(era)
                .has_extension("io.modelcontextprotocol/interceptors"),
            "{era:?}"
        );
    }
    let modern = MemoryClient::new(&server);
    let legacy = MemoryClient::new(&server).connected();
    legacy.initialize("2025-11-25").await.unwrap();
    for client in [&modern, &legacy] {
        for method in ["interceptors/list", "interceptor/invoke"] {
            let error = client.request_raw(method, json!({})).await.unwrap_err();
            assert_eq!(error.code.0, -32601, "{method}");
        }
    }
    let report = server.report().to_string();
    assert!(!report.contains("mcp-interceptors") && !report.contains("interceptors/list"));
}
