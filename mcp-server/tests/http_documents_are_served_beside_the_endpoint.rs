//! Linked crates serve fixed documents beside the endpoint; two at one path
//! fail boot naming both, and none can take the endpoint's own path.

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use mcp_server::Server;
use mcp_server::seam::Item;
use mcp_server::transport::http::{Document, HttpConfig, router, try_router};
use tower::ServiceExt;

fn document(path: &str, body: &'static str) -> Item {
    Item::route(Document::new(path, "application/json", body).unwrap())
}

#[tokio::test]
async fn a_document_is_served_with_get_to_any_origin() {
    let server = Server::builder()
        .without_linked()
        .register(
            mcp_server::origin!(),
            "card",
            0,
            document("/.well-known/card.json", "{\"a\":1}"),
        )
        .build();
    let app = router(server, "/mcp", HttpConfig::default());
    let response = app
        .oneshot(
            Request::get("/.well-known/card.json")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    assert_eq!(&body[..], b"{\"a\":1}");
}

#[test]
fn two_documents_at_one_path_fail_boot_naming_both() {
    let error = Server::builder()
        .without_linked()
        .register(
            mcp_server::origin!(),
            "first",
            0,
            document("/.well-known/x", "1"),
        )
        .register(
            mcp_server::origin!(),
            "second",
            0,
            document("/.well-known/x", "2"),
        )
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("error[mcp::duplicate_http_route]"),
        "{error}"
    );
    assert!(error.contains("/.well-known/x"), "{error}");
    assert_eq!(
        error
            .matches("http_documents_are_served_beside_the_endpoint.rs")
            .count(),
        2,
        "{error}"
    );
}

#[test]
fn a_document_at_the_endpoint_path_is_refused_naming_it_and_its_origin() {
    let server = Server::builder()
        .without_linked()
        .register(mcp_server::origin!(), "squatter", 0, document("/mcp", "{}"))
        .build();
    let conflict = try_router(server.clone(), "/mcp", HttpConfig::default())
        .unwrap_err()
        .to_string();
    assert!(
        conflict.starts_with("error[mcp::route_at_endpoint]: the HTTP route `/mcp` (`squatter` ("),
        "{conflict}"
    );
    assert!(
        conflict.contains("http_documents_are_served_beside_the_endpoint.rs"),
        "{conflict}"
    );
    // `router` fails as eagerly, and the same endpoint elsewhere is fine.
    let again = server.clone();
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        router(again, "/mcp", HttpConfig::default())
    }));
    assert!(panicked.is_err());
    assert!(try_router(server, "/api/mcp", HttpConfig::default()).is_ok());
}
