//! Views: the HTML documents a host renders for a tool, declared as
//! `ui://` resources with the MCP Apps MIME type and their sandbox settings.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use mcp_server::BoxFuture;
use mcp_server::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::apps::{
    McpUiResourceCsp, McpUiResourceMeta, McpUiResourcePermissions, RESOURCE_MIME_TYPE,
};
use mcp_server::core::meta::Meta;
use mcp_server::core::resources::{
    ReadResource, ReadResourceRequestParams, ReadResourceResult, Resource, ResourceContents,
    TextResourceContents,
};
use mcp_server::core::result::CacheScope;
use mcp_server::handler::{Handler, HandlerResult};
use mcp_server::seam::Origin;
use mcp_server::seam::contributor::Contributions;

/// How long hosts may keep a View whose HTML is fixed, unless it says
/// otherwise: one hour.
pub const FIXED_VIEW_TTL: Duration = Duration::from_secs(3600);

/// Renders a View's HTML for one read.
type Render =
    Arc<dyn Fn(RequestContext) -> BoxFuture<'static, Result<String, ErrorObject>> + Send + Sync>;

/// Where a View's HTML comes from.
#[derive(Clone)]
enum Source {
    /// Fixed text: a string, or a file embedded with `include_str!`.
    Fixed(Cow<'static, str>),
    /// A function run for every read.
    Rendered(Render),
}

/// A View: one `ui://` resource of MIME type `text/html;profile=mcp-app`
/// that a host renders in a sandboxed frame, with its `_meta.ui` settings.
///
/// Declare it with [`view!`](crate::view) on a function that returns it,
/// or add it from a contributor with [`ContributeViews::view`].
///
/// ```
/// use mcp_apps::View;
///
/// let chart = View::new("ui://shop/sales-chart", "sales_chart")
///     .title("Sales chart")
///     .html("<!DOCTYPE html><html><body>…</body></html>")
///     .connect_domain("https://api.shop.example")
///     .prefers_border(true);
/// assert_eq!(chart.uri(), "ui://shop/sales-chart");
/// ```
#[derive(Clone)]
pub struct View {
    uri: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    source: Source,
    ui: McpUiResourceMeta,
    listed: bool,
    cache: Option<(u64, CacheScope)>,
}

impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("View")
            .field("uri", &self.uri)
            .field("name", &self.name)
            .field("ui", &self.ui)
            .field("listed", &self.listed)
            .finish_non_exhaustive()
    }
}

impl View {
    /// A View at `uri` (which must start with `ui://`) named `name`, with
    /// an empty document until [`html`](Self::html) or
    /// [`render`](Self::render) gives it one.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            source: Source::Fixed(Cow::Borrowed("")),
            ui: McpUiResourceMeta::default(),
            listed: true,
            cache: None,
        }
    }

    /// The View's URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// A title for people.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the View shows.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The View's HTML: a string, or a file embedded at compile time with
    /// `include_str!`, so a release binary needs no file beside it. Hosts
    /// may keep it for [`FIXED_VIEW_TTL`], shared between callers (the
    /// framework keeps a View behind a guard private).
    #[must_use]
    pub fn html(mut self, html: impl Into<Cow<'static, str>>) -> Self {
        self.source = Source::Fixed(html.into());
        self
    }

    /// The View's HTML, rendered by `render` on every read; not to be kept
    /// by hosts unless [`cache`](Self::cache) says otherwise.
    #[must_use]
    pub fn render<F, Fut>(mut self, render: F) -> Self
    where
        F: Fn(RequestContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, ErrorObject>> + Send + 'static,
    {
        self.source = Source::Rendered(Arc::new(move |ctx| Box::pin(render(ctx))));
        self
    }

    /// How long hosts may keep the View, and whether callers may share it.
    #[must_use]
    pub fn cache(mut self, ttl: Duration, scope: CacheScope) -> Self {
        let ttl = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self.cache = Some((ttl, scope));
        self
    }

    /// Keeps the View out of `resources/list`: hosts find it through the
    /// tools that name it, and read it as any other resource.
    #[must_use]
    pub fn unlisted(mut self) -> Self {
        self.listed = false;
        self
    }

    /// All of the View's sandbox settings at once (`_meta.ui`).
    #[must_use]
    pub fn ui(mut self, ui: McpUiResourceMeta) -> Self {
        self.ui = ui;
        self
    }

    /// The origins the View may reach (`_meta.ui.csp`).
    #[must_use]
    pub fn csp(mut self, csp: McpUiResourceCsp) -> Self {
        self.ui.csp = Some(csp);
        self
    }

    /// Adds an origin the View may fetch from or open sockets to (`connectDomains`).
    #[must_use]
    pub fn connect_domain(mut self, origin: impl Into<String>) -> Self {
        push(&mut self.csp_mut().connect_domains, origin);
        self
    }

    /// Adds an origin the View may load images, scripts, styles, fonts and media from (`resourceDomains`).
    #[must_use]
    pub fn resource_domain(mut self, origin: impl Into<String>) -> Self {
        push(&mut self.csp_mut().resource_domains, origin);
        self
    }

    /// Adds an origin the View may embed in frames (`frameDomains`).
    #[must_use]
    pub fn frame_domain(mut self, origin: impl Into<String>) -> Self {
        push(&mut self.csp_mut().frame_domains, origin);
        self
    }

    /// Adds an origin the View's document may use as its base URI (`baseUriDomains`).
    #[must_use]
    pub fn base_uri_domain(mut self, origin: impl Into<String>) -> Self {
        push(&mut self.csp_mut().base_uri_domains, origin);
        self
    }

    /// The browser permissions the View asks for (`_meta.ui.permissions`).
    #[must_use]
    pub fn permissions(mut self, permissions: McpUiResourcePermissions) -> Self {
        self.ui.permissions = Some(permissions);
        self
    }

    /// A dedicated sandbox origin, in the format the host defines (`_meta.ui.domain`).
    #[must_use]
    pub fn domain(mut self, domain: impl Into<String>) -> Self {
        self.ui.domain = Some(domain.into());
        self
    }

    /// Whether the View wants a visible border and background (`_meta.ui.prefersBorder`).
    #[must_use]
    pub fn prefers_border(mut self, prefers: bool) -> Self {
        self.ui.prefers_border = Some(prefers);
        self
    }

    fn csp_mut(&mut self) -> &mut McpUiResourceCsp {
        self.ui.csp.get_or_insert_default()
    }

    /// `_meta` with `ui`, or none when the View has no settings.
    fn meta(&self) -> Option<Meta> {
        (self.ui != McpUiResourceMeta::default()).then(|| {
            let mut meta = Meta::new();
            self.ui.insert_into(&mut meta);
            meta
        })
    }

    /// The resource as `resources/list` shows it.
    fn descriptor(&self) -> Resource {
        Resource {
            uri: self.uri.clone(),
            name: self.name.clone(),
            title: self.title.clone(),
            description: self.description.clone(),
            mime_type: Some(RESOURCE_MIME_TYPE.to_owned()),
            meta: self.meta(),
            ..Resource::default()
        }
    }
}

fn push(list: &mut Option<Vec<String>>, origin: impl Into<String>) {
    list.get_or_insert_default().push(origin.into());
}

/// Adds Views from a contributor.
///
/// ```
/// use mcp_apps::{ContributeViews, View};
/// use mcp_server::seam::contributor::contributor_fn;
///
/// let views = contributor_fn(|into| {
///     into.view(View::new("ui://shop/cart", "cart").html("<!DOCTYPE html><p>cart</p>"));
/// });
/// # let _ = views;
/// ```
pub trait ContributeViews {
    /// Adds `view` as a resource, with its HTML served by `resources/read`.
    fn view(&mut self, view: View) -> &mut Self;
}

impl ContributeViews for Contributions<'_> {
    fn view(&mut self, view: View) -> &mut Self {
        self.boot()
            .shared::<Declared>()
            .declare(&view.uri, view.listed);
        let descriptor = view.descriptor();
        self.resource(descriptor, ReadView(view))
    }
}

/// The Views declared at boot: URI to whether it is listed.
#[derive(Debug, Default)]
pub(crate) struct Declared(Mutex<BTreeMap<String, bool>>);

impl Declared {
    fn declare(&self, uri: &str, listed: bool) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(uri.to_owned(), listed);
    }

    /// Whether a View was declared at `uri`, and then whether it is listed.
    pub(crate) fn listed(&self, uri: &str) -> Option<bool> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(uri)
            .copied()
    }

    /// The URIs of every declared View, sorted.
    pub(crate) fn uris(&self) -> Vec<String> {
        let views = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        views.keys().cloned().collect()
    }
}

/// Where each tool and resource was contributed, recorded while
/// customizers fold, for diagnostics.
#[derive(Debug, Default)]
pub(crate) struct Origins {
    pub(crate) tools: Mutex<BTreeMap<String, Origin>>,
    pub(crate) resources: Mutex<BTreeMap<String, Origin>>,
}

impl Origins {
    pub(crate) fn record(table: &Mutex<BTreeMap<String, Origin>>, key: &str, origin: Origin) {
        table
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.to_owned(), origin);
    }

    pub(crate) fn of(table: &Mutex<BTreeMap<String, Origin>>, key: &str) -> Option<Origin> {
        table
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .copied()
    }
}

/// Serves one View through `resources/read`.
struct ReadView(View);

impl Handler<ReadResource> for ReadView {
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: ReadResourceRequestParams,
    ) -> BoxFuture<'a, HandlerResult<ReadResourceResult>> {
        Box::pin(async move {
            let view = &self.0;
            let (text, (ttl, scope)) = match &view.source {
                Source::Fixed(html) => (
                    html.to_string(),
                    view.cache
                        .unwrap_or((FIXED_VIEW_TTL.as_millis() as u64, CacheScope::Public)),
                ),
                Source::Rendered(render) => (
                    render(ctx.clone()).await?,
                    view.cache.unwrap_or((0, CacheScope::Private)),
                ),
            };
            let contents = ResourceContents::Text(TextResourceContents {
                uri: params.uri,
                mime_type: Some(RESOURCE_MIME_TYPE.to_owned()),
                meta: view.meta(),
                text,
            });
            Ok(ReadResourceResult {
                contents: vec![contents],
                ttl_ms: Some(ttl),
                cache_scope: Some(scope),
                ..ReadResourceResult::default()
            }
            .into())
        })
    }
}
