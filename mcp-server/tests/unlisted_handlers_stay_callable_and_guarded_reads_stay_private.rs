//! A customizer may keep a handler out of its list while it stays callable
//! under its guards; and a read of a guarded resource is never marked as
//! shareable between callers, whatever its handler said.

mod support;

use mcp_server::core::resources::{ReadResourceResult, Resource};
use mcp_server::core::result::CacheScope;
use mcp_server::core::tools::Tool;
use mcp_server::handler::resource::read_handler;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::sink::Change;
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::{origin, with_tools};

/// Unlists every handler whose identity starts with `hidden`.
struct Unlist;

impl HandlerCustomizer<Resource> for Unlist {
    fn customize(&self, config: &mut HandlerConfig<'_, Resource>) {
        if config.descriptor().uri.starts_with("hidden") {
            config.unlist();
        }
    }
}

impl HandlerCustomizer<Tool> for Unlist {
    fn customize(&self, config: &mut HandlerConfig<'_, Tool>) {
        if config.descriptor().name.starts_with("hidden") {
            config.unlist();
            assert!(!config.is_listed());
        }
    }
}

/// Guards every resource whose URI says `guarded`: `open` allows everyone,
/// `closed` nobody.
struct Guarded;

impl HandlerCustomizer<Resource> for Guarded {
    fn customize(&self, config: &mut HandlerConfig<'_, Resource>) {
        let uri = config.descriptor().uri.clone();
        if uri.contains("guarded-open") {
            config.add_guard(guard_fn("open", |_, _| Decision::Allow));
        } else if uri.contains("guarded-closed") {
            config.add_guard(guard_fn("closed", |_, _| Decision::deny("closed")));
        }
    }
}

fn server() -> mcp_server::Server {
    with_tools(&["hidden_tool", "shown_tool"])
        .contributor(
            origin("app", 2),
            "resources",
            contributor_fn(|c| {
                for uri in [
                    "hidden://a",
                    "shown://b",
                    "public://guarded-open",
                    "public://guarded-closed",
                    "public://free",
                ] {
                    let resource = Resource {
                        uri: uri.into(),
                        name: uri.into(),
                        ..Default::default()
                    };
                    let handler = read_handler(Some("text/plain"), move |_, _| async move {
                        Ok(ReadResourceResult {
                            contents: Vec::new(),
                            ttl_ms: Some(60_000),
                            cache_scope: Some(CacheScope::Public),
                            ..Default::default()
                        })
                    });
                    c.resource(resource, handler);
                }
            }),
        )
        .register(
            origin("lists", 1),
            "unlist-resources",
            0,
            Item::customizer::<Resource>(Unlist),
        )
        .register(
            origin("lists", 2),
            "unlist-tools",
            0,
            Item::customizer::<Tool>(Unlist),
        )
        .register(
            origin("auth", 1),
            "guards",
            0,
            Item::customizer::<Resource>(Guarded),
        )
        .build()
}

#[tokio::test]
async fn an_unlisted_resource_is_readable_but_absent_from_resources_list() {
    let server = server();
    let client = MemoryClient::new(&server);
    let list = client
        .request_raw("resources/list", json!({}))
        .await
        .unwrap();
    let uris: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        ["public://free", "public://guarded-open", "shown://b"]
    );
    let read = client
        .request_raw("resources/read", json!({"uri": "hidden://a"}))
        .await
        .unwrap();
    assert_eq!(read["resultType"], "complete");
    // The server still knows it, for validators and reports.
    assert!(server.resources().iter().any(|r| r.uri == "hidden://a"));
}

#[tokio::test]
async fn an_unlisted_tool_is_callable_but_absent_from_tools_list() {
    let server = server();
    let client = MemoryClient::new(&server);
    let list = client.request_raw("tools/list", json!({})).await.unwrap();
    assert_eq!(list["tools"].as_array().unwrap().len(), 1);
    assert_eq!(list["tools"][0]["name"], "shown_tool");
    let called = client
        .request_raw("tools/call", json!({"name": "hidden_tool"}))
        .await
        .unwrap();
    assert_eq!(called["content"][0]["text"], "hidden_tool");
}

#[tokio::test]
async fn a_read_behind_a_guard_is_private_even_when_its_handler_says_public() {
    let server = server();
    let client = MemoryClient::new(&server);
    let guarded = client
        .request_raw("resources/read", json!({"uri": "public://guarded-open"}))
        .await
        .unwrap();
    assert_eq!(guarded["cacheScope"], "private");
    assert_eq!(guarded["ttlMs"], 60_000);
    let free = client
        .request_raw("resources/read", json!({"uri": "public://free"}))
        .await
        .unwrap();
    assert_eq!(free["cacheScope"], "public");
}

#[tokio::test]
async fn a_resource_its_guard_hides_is_unreadable_and_unlisted() {
    let server = server();
    let client = MemoryClient::new(&server);
    let error = client
        .request_raw("resources/read", json!({"uri": "public://guarded-closed"}))
        .await
        .unwrap_err();
    let unknown = client
        .request_raw("resources/read", json!({"uri": "public://nothing"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, unknown.code);
    assert_eq!(
        error.message.replace("guarded-closed", "X"),
        unknown.message.replace("nothing", "X")
    );
}

#[tokio::test]
async fn a_request_without_its_meta_learns_nothing_of_what_a_guard_hides() {
    let server = server();
    let client = MemoryClient::new(&server);
    // No `_meta`: the request is refused either way, and the refusal is
    // the same for a hidden resource as for one that does not exist.
    let answer = |uri: &'static str| {
        let client = &client;
        async move {
            let request = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": uri}});
            client.send(&request).await.unwrap()
        }
    };
    let hidden = answer("public://guarded-closed").await.to_string();
    let absent = answer("public://nothing-here").await.to_string();
    assert_eq!(
        hidden.replace("public://guarded-closed", "URI"),
        absent.replace("public://nothing-here", "URI"),
    );
    assert!(hidden.contains("-32602"), "{hidden}");
}

#[tokio::test]
async fn a_subscription_to_a_resource_not_served_yet_is_kept_and_one_hidden_is_not() {
    let server = server();
    let client = MemoryClient::new(&server).connected();
    client.initialize("2025-11-25").await.unwrap();
    for uri in ["public://later", "public://guarded-closed"] {
        client
            .request_raw("resources/subscribe", json!({"uri": uri}))
            .await
            .unwrap();
    }
    let later = Change::resource_updated("public://later");
    assert!(
        client.notification_for(&later).is_some(),
        "a resource added later is heard of by who subscribed before"
    );
    let hidden = Change::resource_updated("public://guarded-closed");
    assert!(client.notification_for(&hidden).is_none());
}
