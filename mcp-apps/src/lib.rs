//! The MCP Apps extension (`io.modelcontextprotocol/ui`) for `mcp-server`:
//! tools that come with an interactive View, an HTML document the host
//! renders in a sandboxed frame.
//!
//! Activate it by linking: `use mcp_apps as _;` in the application's crate
//! root (or any use of its items). Declare a View with [`view!`] on a
//! function that returns a [`View`] (or with [`ContributeViews::view`] from
//! a contributor), and link a tool to it with [`ui!`] next to its `#[tool]`:
//!
//! ```
//! use mcp_apps::View;
//! use mcp_server::testing::MemoryClient;
//! use mcp_server::{Server, tool};
//!
//! /// Sales per region, as text for the model and as data for the chart.
//! #[tool]
//! async fn sales() -> String {
//!     "North 120, South 95".into()
//! }
//! mcp_apps::ui!(sales, "ui://shop/sales-chart");
//!
//! fn sales_chart() -> View {
//!     View::new("ui://shop/sales-chart", "sales_chart")
//!         .html("<!DOCTYPE html><html><body><div id=chart></div></body></html>")
//! }
//! mcp_apps::view!(sales_chart);
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let server = Server::builder().build();
//! let client = MemoryClient::new(&server);
//! let tools = client.request_raw("tools/list", serde_json::json!({})).await.unwrap();
//! assert_eq!(tools["tools"][0]["_meta"]["ui"]["resourceUri"], "ui://shop/sales-chart");
//! let view = client
//!     .request_raw("resources/read", serde_json::json!({"uri": "ui://shop/sales-chart"}))
//!     .await
//!     .unwrap();
//! assert_eq!(view["contents"][0]["mimeType"], "text/html;profile=mcp-app");
//! # });
//! ```
//!
//! The extension is built on the public seams of `mcp-server` only:
//!
//! | what | seam |
//! |---|---|
//! | a View, served by `resources/read` | a contributor ([`view!`], [`ContributeViews`]) |
//! | a View kept out of `resources/list` ([`View::unlisted`]) | a customizer of every resource, which unlists it |
//! | a tool's `_meta.ui` | a customizer of that tool ([`ToolUi`], [`ui!`]) |
//! | the capability in `server/discover` and in `initialize` | a capabilities customizer |
//! | the boot checks (`mcp_apps::unknown_view`, …) | a validator |
//! | the client's `mimeTypes` in handler code | the request context's client capabilities ([`UiClient`]) |
//!
//! The wire types live in [`wire`] (`mcp_core::ext::apps`).
//!
//! The guide is [docs/apps.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/apps.md).

mod check;
mod client;
mod csp;
mod linkage;
mod view;

use mcp_server::boot::BootContext;
use mcp_server::core::resources::Resource;
use mcp_server::core::tools::Tool;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::{Extension, Item, Origin, Registration};
use mcp_server::{origin, register};

pub use client::UiClient;
pub use linkage::{ToolUi, Visibility};
pub use mcp_server::core::ext::apps as wire;
pub use view::{ContributeViews, FIXED_VIEW_TTL, View};

use crate::view::{Declared, Origins};

/// `io.modelcontextprotocol/ui` under `capabilities.extensions`, in
/// `server/discover` and in a 2025-11-25 `initialize` alike.
fn extension(_: &BootContext) -> Item {
    Item::extension(
        Extension::new(wire::EXTENSION_ID, env!("CARGO_PKG_VERSION"))
            .advertises(Default::default())
            .also_to_legacy_clients(),
    )
}

fn checks(_: &BootContext) -> Item {
    Item::validator(check::Checks)
}

fn every_tool(_: &BootContext) -> Item {
    Item::customizer::<Tool>(linkage::EveryTool)
}

fn every_resource(_: &BootContext) -> Item {
    Item::customizer::<Resource>(EveryResource)
}

register!(Registration::extension(origin!(), "mcp-apps", extension));
register!(Registration::new(origin!(), "apps-checks", 0, checks));
register!(Registration::new(origin!(), "apps-tools", 0, every_tool));
register!(Registration::new(
    origin!(),
    "apps-resources",
    0,
    every_resource
));

/// Runs on every resource: records where it came from, and unlists the
/// Views declared [`unlisted`](View::unlisted).
struct EveryResource;

impl HandlerCustomizer<Resource> for EveryResource {
    fn customize(&self, config: &mut HandlerConfig<'_, Resource>) {
        let uri = config.descriptor().uri.clone();
        let origins = config.boot().shared::<Origins>();
        Origins::record(&origins.resources, &uri, config.origin());
        if config.boot().shared::<Declared>().listed(&uri) == Some(false) {
            config.unlist();
        }
    }
}

/// The contributor [`view!`] registers: adds the View `make` returns, at
/// the origin of the macro.
#[doc(hidden)]
pub fn declared_view(make: fn() -> View, at: Origin) -> Item {
    Item::contributor(contributor_fn(move |into| {
        into.at(at).view(make());
    }))
}

/// Declares the View a function returns, written next to it:
/// `mcp_apps::view!(my_view);` with `fn my_view() -> View`. Linking the
/// crate that writes it adds the View to every server it builds.
///
/// ```
/// use mcp_apps::View;
///
/// fn dashboard() -> View {
///     View::new("ui://weather/dashboard", "dashboard")
///         .html(include_str!("../views/hello.html"))
///         .unlisted()
/// }
/// mcp_apps::view!(dashboard);
/// ```
#[macro_export]
macro_rules! view {
    ($view:path) => {
        const _: () = {
            fn make(_: &::mcp_server::boot::BootContext) -> ::mcp_server::seam::Item {
                $crate::declared_view($view, ::mcp_server::origin!())
            }
            ::mcp_server::register!(::mcp_server::seam::Registration::new(
                ::mcp_server::origin!(),
                ::core::concat!("view ", ::core::stringify!($view)),
                0,
                make
            ));
        };
    };
}

/// The guide, `docs/apps.md`, compiled as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../docs/apps.md")]
struct AppsGuide;
