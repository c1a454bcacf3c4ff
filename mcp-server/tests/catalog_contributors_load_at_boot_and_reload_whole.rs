//! Catalog contributors: members described by data, loaded at boot (where
//! a problem fails boot) and reloaded whole when their source changes.

mod support;

use std::sync::{Arc, Mutex};

use mcp_server::boot::Diagnostic;
use mcp_server::catalog::{Catalog, CatalogChange};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::contributor::catalog::CatalogContributor;
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::origin;

/// A source: tool names, each with the text its tool answers, or why it
/// cannot be read.
type Source = Arc<Mutex<Result<Vec<(&'static str, &'static str)>, &'static str>>>;

struct FromSource {
    name: &'static str,
    source: Source,
    watched: Arc<Mutex<Option<Catalog>>>,
}

impl CatalogContributor for FromSource {
    fn name(&self) -> &str {
        self.name
    }

    fn load(&self) -> Result<CatalogChange, Diagnostic> {
        let source = self.source.lock().unwrap().clone();
        let tools = source.map_err(|why| {
            Diagnostic::new(
                "plugins::unreadable",
                format!("the plugin list cannot be read: {why}"),
            )
        })?;
        let mut change = CatalogChange::new(origin("plugins", 3));
        for (name, text) in tools {
            let answer = handler_fn::<CallTool, _, _, _>(move |_, _| async move {
                Ok(CallToolResult::text(text))
            });
            change = change.add_tool(support::tool(name), answer);
        }
        Ok(change)
    }

    fn watch(&self, catalog: &Catalog) {
        *self.watched.lock().unwrap() = Some(catalog.clone());
    }
}

fn source(tools: &[(&'static str, &'static str)]) -> Source {
    Arc::new(Mutex::new(Ok(tools.to_vec())))
}

fn from_source(name: &'static str, source: &Source) -> (FromSource, Arc<Mutex<Option<Catalog>>>) {
    let watched = Arc::new(Mutex::new(None));
    let contributor = FromSource {
        name,
        source: source.clone(),
        watched: watched.clone(),
    };
    (contributor, watched)
}

fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content[0]).unwrap()["text"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn names(client: &MemoryClient) -> Vec<String> {
    client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect()
}

#[tokio::test]
async fn a_contributor_serves_from_boot_and_a_reload_applies_what_changed_whole() {
    let plugins = source(&[("alpha", "a1"), ("beta", "b1")]);
    let (contributor, watched) = from_source("plugins", &plugins);
    let server = support::with_tools(&["boot_tool"])
        .register(
            origin("plugins", 1),
            "plugins",
            0,
            Item::catalog_contributor(contributor),
        )
        .build();
    let client = MemoryClient::new(&server);
    assert_eq!(names(&client).await, ["alpha", "beta", "boot_tool"]);
    assert_eq!(
        text(&client.call_tool("alpha", json!({})).await.unwrap()),
        "a1"
    );
    // Watching began once the server was built, with its catalog.
    let catalog = watched.lock().unwrap().clone().expect("watch was called");
    assert_eq!(catalog.version(), server.catalog().version());

    let mut listening = client.listen(json!({"toolsListChanged": true}));
    listening.next().await.expect("the acknowledgement");
    *plugins.lock().unwrap() = Ok(vec![("beta", "b2"), ("gamma", "g1")]);
    let applied = catalog.reload("plugins").unwrap();
    assert_eq!(applied.tools, ["beta", "gamma", "alpha"]);
    assert_eq!(
        listening.next().await.unwrap().method,
        "notifications/tools/list_changed"
    );
    assert_eq!(names(&client).await, ["beta", "boot_tool", "gamma"]);
    assert_eq!(
        text(&client.call_tool("beta", json!({})).await.unwrap()),
        "b2"
    );
    assert!(client.call_tool("alpha", json!({})).await.is_err());
}

#[tokio::test]
async fn a_reload_that_cannot_load_or_collides_keeps_what_was_served() {
    let plugins = source(&[("alpha", "a1")]);
    let (contributor, _) = from_source("plugins", &plugins);
    let server = support::with_tools(&["boot_tool"])
        .register(
            origin("plugins", 1),
            "plugins",
            0,
            Item::catalog_contributor(contributor),
        )
        .build();
    let version = server.catalog().version();

    *plugins.lock().unwrap() = Err("permission denied");
    let refused = server.catalog().reload("plugins").unwrap_err().to_string();
    assert!(
        refused.starts_with(
            "error[plugins::unreadable]: the plugin list cannot be read: permission denied"
        ),
        "{refused}"
    );
    assert!(
        refused.contains("while loading catalog contributor `plugins`"),
        "{refused}"
    );

    *plugins.lock().unwrap() = Ok(vec![("alpha", "a2"), ("boot_tool", "taken")]);
    let refused = server.catalog().reload("plugins").unwrap_err().to_string();
    assert!(
        refused.starts_with("error[mcp::duplicate_tool]: tool `boot_tool` is contributed twice"),
        "{refused}"
    );
    assert_eq!(server.catalog().version(), version);
    let client = MemoryClient::new(&server);
    assert_eq!(
        text(&client.call_tool("alpha", json!({})).await.unwrap()),
        "a1"
    );

    // Once the source is right again, the reload replaces what was kept.
    *plugins.lock().unwrap() = Ok(vec![("alpha", "a3")]);
    assert_eq!(server.catalog().reload("plugins").unwrap().tools, ["alpha"]);
    assert_eq!(
        text(&client.call_tool("alpha", json!({})).await.unwrap()),
        "a3"
    );

    let unknown = server.catalog().reload("plugin").unwrap_err().to_string();
    assert!(
        unknown.starts_with(
            "error[mcp::unknown_catalog_contributor]: no catalog contributor is named `plugin`"
        ),
        "{unknown}"
    );
    assert!(unknown.contains("did you mean `plugins`?"), "{unknown}");
}

#[test]
fn a_contributor_that_cannot_load_or_collides_at_boot_fails_boot() {
    let broken: Source = Arc::new(Mutex::new(Err("no such file")));
    let (contributor, watched) = from_source("plugins", &broken);
    let errors = support::with_tools(&["boot_tool"])
        .register(
            origin("plugins", 1),
            "plugins",
            0,
            Item::catalog_contributor(contributor),
        )
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(
        errors.starts_with(
            "error[plugins::unreadable]: the plugin list cannot be read: no such file"
        ),
        "{errors}"
    );
    assert!(
        errors.ends_with("boot failed because of the previous error"),
        "{errors}"
    );
    assert!(
        watched.lock().unwrap().is_none(),
        "a server that failed boot watches nothing"
    );

    let colliding = source(&[("boot_tool", "again")]);
    let (contributor, _) = from_source("plugins", &colliding);
    let errors = support::with_tools(&["boot_tool"])
        .register(
            origin("plugins", 1),
            "plugins",
            0,
            Item::catalog_contributor(contributor),
        )
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(
        errors.starts_with("error[mcp::duplicate_tool]: tool `boot_tool` is contributed twice"),
        "{errors}"
    );

    let (first, _) = from_source("plugins", &source(&[]));
    let (second, _) = from_source("plugins", &source(&[]));
    let errors = support::with_tools(&["boot_tool"])
        .register(
            origin("plugins", 1),
            "first",
            0,
            Item::catalog_contributor(first),
        )
        .register(
            origin("other", 2),
            "second",
            0,
            Item::catalog_contributor(second),
        )
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(
        errors.starts_with("error[mcp::duplicate_catalog_contributor]"),
        "{errors}"
    );
}

/// Brands the one tool it is registered for.
struct Brand;

impl mcp_server::seam::customizer::HandlerCustomizer<mcp_server::core::tools::Tool> for Brand {
    fn customize(
        &self,
        config: &mut mcp_server::seam::customizer::HandlerConfig<'_, mcp_server::core::tools::Tool>,
    ) {
        config.descriptor_mut().description = Some("branded".into());
    }
}

#[tokio::test]
async fn a_customizer_of_one_tool_finds_it_among_a_contributor_s_and_fails_boot_only_if_none_has_it()
 {
    let (contributor, _) = from_source("plugins", &source(&[("alpha", "a1")]));
    let server = support::with_tools(&["boot_tool"])
        .register(
            origin("plugins", 1),
            "plugins",
            0,
            Item::catalog_contributor(contributor),
        )
        .register(
            origin("brand", 2),
            "brand-alpha",
            0,
            Item::customizer_for("alpha", Brand),
        )
        .build();
    let alpha = server
        .tools()
        .into_iter()
        .find(|t| t.name == "alpha")
        .unwrap();
    assert_eq!(alpha.description.as_deref(), Some("branded"));

    let (contributor, _) = from_source("plugins", &source(&[("alpha", "a1")]));
    let errors = support::with_tools(&["boot_tool"])
        .register(
            origin("plugins", 1),
            "plugins",
            0,
            Item::catalog_contributor(contributor),
        )
        .register(
            origin("brand", 2),
            "brand-alph",
            0,
            Item::customizer_for("alph", Brand),
        )
        .try_build()
        .unwrap_err()
        .to_string();
    assert!(errors.contains("`alph`"), "{errors}");
    assert!(
        errors.contains("alpha"),
        "the closest tool is named: {errors}"
    );
}
