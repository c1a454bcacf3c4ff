//! Linked crates serve fixed documents beside the endpoint; two at one path
//! fail boot naming both, and none can take the endpoint's own path.

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use mcp_server::Server;
use mcp_server::seam::Item;
use mcp_server::transport::http::{Document, Documents, HttpConfig, router};
use tower::ServiceExt;

fn document(path: &str, body: &'static str) -> Item {
    Item::member::<Documents>(Document::new(path, "application/json", body).unwrap())
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
        error.contains("error[mcp::duplicate_http_document]"),
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

#[tokio::test]
async fn a_document_at_the_endpoint_path_leaves_the_endpoint_in_place() {
    let server = Server::builder()
        .without_linked()
        .register(mcp_server::origin!(), "squatter", 0, document("/mcp", "{}"))
        .build();
    let app = router(server, "/mcp", HttpConfig::default());
    let response = app
        .oneshot(
            Request::get("/mcp")
                .header("accept", "text/event-stream")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        StatusCode::METHOD_NOT_ALLOWED,
        "the endpoint answers its own GET (no session: 405), not the document"
    );
}
