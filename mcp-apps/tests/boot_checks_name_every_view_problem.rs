//! The boot checks of a linked `mcp-apps`: each problem fails boot with a
//! rustc-shaped diagnostic that names the tool or View, where it was
//! contributed, and the fix; every problem is reported at once.

use mcp_apps::{ContributeViews, View};
use mcp_server::Server;
use mcp_server::core::meta::Meta;
use mcp_server::core::resources::{ReadResourceResult, Resource};
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::handler::resource::read_handler;
use mcp_server::seam::Origin;
use mcp_server::seam::contributor::{Contributions, contributor_fn};

const APP: Origin = Origin {
    crate_name: "weather",
    crate_version: "1.0.0",
    module: "weather::ui",
    file: "src/ui.rs",
    line: 7,
};

fn tool_naming(into: &mut Contributions<'_>, name: &str, uri: &str) {
    let mut ui = Meta::new();
    ui.insert("resourceUri".into(), uri.into());
    let mut tool = Tool {
        name: name.into(),
        meta: Some(Meta::new().with("ui", serde_json::Value::Object(ui.0))),
        ..Tool::default()
    };
    tool.input_schema.insert("type".into(), "object".into());
    into.tool(
        tool,
        handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("ok")) }),
    );
}

fn dashboard() -> View {
    View::new("ui://weather/dashboard", "dashboard").html("<!DOCTYPE html><p>dashboard</p>")
}

/// Boots a server with what `contribute` adds; the rendered boot errors.
fn boot_errors(contribute: fn(&mut Contributions<'_>)) -> String {
    Server::builder()
        .named("test", "1.0.0")
        .contributor(APP, "weather", contributor_fn(contribute))
        .try_build()
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

#[test]
fn a_tool_naming_a_missing_view_is_told_the_closest_one() {
    let errors = boot_errors(|into| {
        into.view(dashboard());
        tool_naming(into, "forecast", "ui://weather/dashbord");
    });
    assert_eq!(
        errors,
        "error[mcp_apps::unknown_view]: tool `forecast` names View `ui://weather/dashbord`, which does not exist
  = note: contributed at weather 1.0.0 (weather::ui, src/ui.rs:7)
  = help: the closest View is `ui://weather/dashboard`

error: boot failed because of the previous error"
    );
}

#[test]
fn a_tool_naming_a_view_on_a_server_without_views_is_told_to_declare_it() {
    let errors = boot_errors(|into| tool_naming(into, "forecast", "ui://weather/dashboard"));
    assert_eq!(
        errors,
        "error[mcp_apps::unknown_view]: tool `forecast` names View `ui://weather/dashboard`, which does not exist
  = note: contributed at weather 1.0.0 (weather::ui, src/ui.rs:7)
  = note: the server declares no View
  = help: declare `ui://weather/dashboard` with `mcp_apps::view!`, or fix the URI

error: boot failed because of the previous error"
    );
}

#[test]
fn a_tool_naming_a_view_that_is_not_a_ui_uri_is_refused() {
    let errors = boot_errors(|into| tool_naming(into, "forecast", "https://weather.example/view"));
    assert_eq!(
        errors,
        "error[mcp_apps::tool_view_uri]: tool `forecast` names `https://weather.example/view` as its View, which is not a `ui://` URI
  = note: contributed at weather 1.0.0 (weather::ui, src/ui.rs:7)
  = help: name the `ui://` URI of a View the server declares

error: boot failed because of the previous error"
    );
}

#[test]
fn a_ui_resource_with_another_mime_type_is_refused() {
    let errors = boot_errors(|into| {
        let raw = Resource {
            uri: "ui://weather/raw".into(),
            name: "raw".into(),
            mime_type: Some("text/html".into()),
            ..Resource::default()
        };
        into.resource(
            raw,
            read_handler(Some("text/html"), |_, _| async {
                Ok(ReadResourceResult::default())
            }),
        );
    });
    assert_eq!(
        errors,
        "error[mcp_apps::view_mime_type]: `ui://` resource `ui://weather/raw` has MIME type `text/html`
  = note: contributed at weather 1.0.0 (weather::ui, src/ui.rs:7)
  = note: every `ui://` resource is a View, of MIME type `text/html;profile=mcp-app`
  = help: declare it with `mcp_apps::View`, or set its MIME type to `text/html;profile=mcp-app`

error: boot failed because of the previous error"
    );
}

#[test]
fn a_view_declared_outside_the_ui_scheme_is_refused() {
    let errors = boot_errors(|into| {
        into.view(View::new("https://weather.example/dashboard", "dashboard").html("<p>x</p>"));
    });
    assert_eq!(
        errors,
        "error[mcp_apps::view_uri]: View `https://weather.example/dashboard` does not have a `ui://` URI
  = note: declared at weather 1.0.0 (weather::ui, src/ui.rs:7)
  = note: hosts render only `ui://` resources as Views
  = help: give it a URI such as `ui://my-server/dashboard`

error: boot failed because of the previous error"
    );
}

#[test]
fn csp_entries_that_are_not_origins_are_refused_one_by_one() {
    let errors = boot_errors(|into| {
        into.view(
            dashboard()
                .connect_domain("https://api.weather.example/v1")
                .connect_domain("wss://live.weather.example")
                .resource_domain("cdn.weather.example"),
        );
    });
    assert_eq!(
        errors,
        "error[mcp_apps::csp_domain]: View `ui://weather/dashboard` lists `https://api.weather.example/v1` in `csp.connectDomains`, which is not an origin
  = note: contributed at weather 1.0.0 (weather::ui, src/ui.rs:7)
  = note: it has a path, and an origin ends after the host and port
  = help: write the origin alone: `https://api.weather.example`

error[mcp_apps::csp_domain]: View `ui://weather/dashboard` lists `cdn.weather.example` in `csp.resourceDomains`, which is not an origin
  = note: contributed at weather 1.0.0 (weather::ui, src/ui.rs:7)
  = note: it has no scheme (write `https://` or `wss://` before the host)
  = help: write an origin: `https://api.example.com`, or `https://*.example.com` for its subdomains

error: boot failed because of 2 previous errors"
    );
}

#[test]
fn every_problem_is_reported_in_one_boot_failure() {
    let errors = boot_errors(|into| {
        into.view(dashboard().frame_domain("maps.example"));
        into.view(View::new("app://weather/other", "other").html("<p>x</p>"));
        tool_naming(into, "forecast", "ui://weather/dash");
        tool_naming(into, "radar", "ui://weather/radar");
    });
    let codes: Vec<&str> = errors
        .lines()
        .filter_map(|l| l.strip_prefix("error["))
        .map(|l| &l[..l.find(']').unwrap()])
        .collect();
    assert_eq!(
        codes,
        [
            "mcp_apps::view_uri",
            "mcp_apps::csp_domain",
            "mcp_apps::unknown_view",
            "mcp_apps::unknown_view",
        ],
        "{errors}"
    );
    assert!(errors.ends_with("error: boot failed because of 4 previous errors"));
}

#[test]
fn a_server_whose_views_and_tools_agree_boots() {
    Server::builder()
        .named("test", "1.0.0")
        .contributor(
            APP,
            "weather",
            contributor_fn(|into| {
                into.view(dashboard().connect_domain("https://*.weather.example:8443"));
                tool_naming(into, "forecast", "ui://weather/dashboard");
            }),
        )
        .try_build()
        .unwrap();
}

/// A tool whose `_meta.ui.resourceUri` is `uri`.
fn tool_of_view(name: &str, uri: &str) -> Tool {
    let mut ui = Meta::new();
    ui.insert("resourceUri".into(), uri.into());
    let mut tool = Tool {
        name: name.into(),
        meta: Some(Meta::new().with("ui", serde_json::Value::Object(ui.0))),
        ..Tool::default()
    };
    tool.input_schema.insert("type".into(), "object".into());
    tool
}

#[test]
fn a_runtime_tool_naming_a_missing_view_is_refused_as_boot_would_fail() {
    let server = Server::builder()
        .named("test", "1.0.0")
        .contributor(
            APP,
            "weather",
            contributor_fn(|into| {
                into.view(dashboard());
                tool_naming(into, "forecast", "ui://weather/dashboard");
            }),
        )
        .build();
    let answer =
        || handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("ok")) });
    let change = mcp_server::catalog::CatalogChange::new(APP)
        .add_tool(tool_of_view("radar", "ui://weather/radr"), answer());
    let refused = server.catalog().apply(change).unwrap_err().to_string();
    assert!(
        refused.starts_with(
            "error[mcp_apps::unknown_view]: tool `radar` names View `ui://weather/radr`, which does not exist"
        ),
        "{refused}"
    );
    assert!(
        refused.contains("the closest View is `ui://weather/dashboard`"),
        "{refused}"
    );
    assert!(refused.ends_with("the catalog change was refused because of the previous error"));
    assert_eq!(server.catalog().version(), 0);
    assert!(server.tools().iter().all(|t| t.name != "radar"));

    let change = mcp_server::catalog::CatalogChange::new(APP)
        .add_tool(tool_of_view("radar", "ui://weather/dashboard"), answer());
    server.catalog().apply(change).unwrap();
    assert!(server.tools().iter().any(|t| t.name == "radar"));
}
