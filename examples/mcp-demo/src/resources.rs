//! The resources: static text, static bytes, a resource clients subscribe
//! to, and a template that echoes its `id`.

use mcp_server::core::resources::{BlobResourceContents, ResourceContents};
use mcp_server::{resource, resource_template};
use serde_json::json;

use crate::media::{PNG_BASE64, PNG_MIME_TYPE};

/// A static text resource for testing.
#[resource(
    uri = "test://static-text",
    name = "static-text",
    title = "Static Text Resource",
    mime_type = "text/plain"
)]
pub async fn static_text() -> String {
    "This is the content of the static text resource.".into()
}

/// A static binary resource (image) for testing.
#[resource(
    uri = "test://static-binary",
    name = "static-binary",
    title = "Static Binary Resource",
    mime_type = "image/png"
)]
pub async fn static_binary() -> ResourceContents {
    ResourceContents::Blob(BlobResourceContents {
        uri: "test://static-binary".into(),
        mime_type: Some(PNG_MIME_TYPE.into()),
        blob: PNG_BASE64.into(),
        ..BlobResourceContents::default()
    })
}

/// A resource clients subscribe to, for the subscription tests.
#[resource(
    uri = "test://watched-resource",
    name = "watched-resource",
    title = "Watched Resource",
    mime_type = "text/plain"
)]
pub async fn watched_resource() -> String {
    "Watched resource content".into()
}

/// A resource template with parameter substitution.
#[resource_template(
    uri_template = "test://template/{id}/data",
    name = "template",
    title = "Resource Template",
    mime_type = "application/json"
)]
pub async fn template(id: String) -> String {
    json!({
        "id": id,
        "templateTest": true,
        "data": format!("Data for ID: {id}"),
    })
    .to_string()
}
