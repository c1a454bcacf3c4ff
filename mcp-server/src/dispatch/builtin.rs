//! The built-in handlers: the four lists (with the screen every list
//! answer passes, whoever made it) and `server/discover`.

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_core::capabilities::ServerCapabilities;
use mcp_core::content::Implementation;
use mcp_core::discover::{Discover, DiscoverResult};
use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::meta::ResultMeta;
use mcp_core::method::Method;
use mcp_core::pagination::PaginatedRequestParams;
use mcp_core::prompts::{ListPrompts, ListPromptsResult, Prompt};
use mcp_core::resources::{
    ListResourceTemplates, ListResourceTemplatesResult, ListResources, ListResourcesResult,
    Resource, ResourceTemplate,
};
use mcp_core::result::CacheScope;
use mcp_core::tools::{ListTools, ListToolsResult, Tool};

use super::dynamic::{Dynamic, Dynamically, Snapshot};
use super::listed::Listed;
use super::route::Screen;
use crate::context::RequestContext;
use crate::handler::{Handler, HandlerResult};
use crate::seam::customizer::Descriptor;
use crate::vocabulary::BoxFuture;
use crate::vocabulary::sort;

/// The items of one list, in list order (sorted by their identity), with
/// their guards.
pub(crate) struct ListItems<D> {
    items: Vec<Listed<D>>,
}

impl<D: Descriptor> ListItems<D> {
    /// A catalog of `items`, sorted by identity.
    pub(crate) fn new(mut items: Vec<Listed<D>>) -> Arc<Self> {
        sort::sort_by(&mut items, |a, b| {
            a.descriptor.key().cmp(b.descriptor.key())
        });
        Arc::new(Self { items })
    }

    /// The item named `key`.
    pub(crate) fn find(&self, key: &str) -> Option<&Listed<D>> {
        self.items
            .binary_search_by(|item| item.descriptor.key().cmp(key))
            .ok()
            .map(|i| &self.items[i])
    }

    /// The descriptors, listed or not, in list order.
    pub(crate) fn descriptors(&self) -> impl ExactSizeIterator<Item = &D> {
        self.items.iter().map(|i| &i.descriptor)
    }
}

/// Every descriptor of kind `D`, of boot (`fixed`) and of `snapshot`,
/// listed or not, in list order.
pub(crate) fn every<D: Dynamically>(
    fixed: Option<&Arc<ListItems<D>>>,
    snapshot: &Snapshot,
) -> Vec<D> {
    let fixed = fixed.into_iter().flat_map(|c| c.items.iter());
    merged(fixed, D::members(snapshot))
        .map(|item| item.descriptor.clone())
        .collect()
}

/// A list method's handler: the items in a fixed order, filtered per caller
/// by their guards, cut into pages with opaque cursors. The items are those
/// of boot and those the runtime catalog holds, merged in identity order.
pub(crate) struct Listing<D> {
    pub(crate) catalog: Arc<ListItems<D>>,
    /// The runtime catalog, when the server has one.
    pub(crate) dynamic: Option<Arc<Dynamic>>,
    pub(crate) page_size: usize,
    pub(crate) ttl_ms: u64,
    pub(crate) cache_scope: CacheScope,
}

/// The screen of a list method: every answer keeps only the items that
/// exist and that the caller may see, whoever made the answer.
pub(crate) struct ListScreen<D> {
    pub(crate) catalog: Arc<ListItems<D>>,
    pub(crate) dynamic: Option<Arc<Dynamic>>,
}

impl<D: Dynamically> ListScreen<D> {
    /// Whether the item named `key` is listed and the caller may see it.
    fn visible(&self, ctx: &RequestContext, key: &str) -> bool {
        let visible = |item: &Listed<D>| item.listed && item.guards.allow(ctx);
        match self.catalog.find(key) {
            Some(item) => visible(item),
            None => self
                .dynamic
                .as_ref()
                .and_then(|d| D::member(&d.peek(), key).map(visible))
                .unwrap_or(false),
        }
    }
}

impl<D: Dynamically> Listing<D> {
    fn page(
        &self,
        ctx: &RequestContext,
        cursor: Option<&str>,
    ) -> Result<(Vec<D>, Option<String>), ErrorObject> {
        // One version of the catalog for the whole page.
        let snapshot = self.dynamic.as_ref().map(|d| d.load());
        let version = snapshot.as_ref().map_or(0, |s| s.version);
        let start = match cursor {
            None => 0,
            Some(cursor) => match decode_cursor(cursor) {
                Some((offset, issued)) if issued == version => offset,
                Some(_) => {
                    return Err(ErrorObject::invalid_params(format!(
                        "Stale cursor: {cursor:?} was issued before the list changed; list again from the start"
                    )));
                }
                None => {
                    return Err(ErrorObject::invalid_params(format!(
                        "Invalid cursor: {cursor:?} was not issued by this server"
                    )));
                }
            },
        };
        let added = snapshot.as_deref().into_iter().flat_map(|s| D::members(s));
        let mut visible = merged(self.catalog.items.iter(), added)
            .filter(|item| item.listed && item.guards.allow(ctx));
        let page: Vec<D> = visible
            .by_ref()
            .skip(start)
            .take(self.page_size)
            .map(|i| i.descriptor.clone())
            .collect();
        let next = visible
            .next()
            .is_some()
            .then(|| encode_cursor(start + page.len(), version));
        Ok((page, next))
    }
}

/// The items of boot and those added at runtime, in identity order (no
/// identity is in both: the runtime catalog refuses a collision).
fn merged<'a, D: Descriptor>(
    fixed: impl Iterator<Item = &'a Listed<D>> + 'a,
    added: impl Iterator<Item = &'a Listed<D>> + 'a,
) -> impl Iterator<Item = &'a Listed<D>> + 'a {
    let mut fixed = fixed.peekable();
    let mut added = added.peekable();
    std::iter::from_fn(move || match (fixed.peek(), added.peek()) {
        (Some(a), Some(b)) if b.descriptor.key() < a.descriptor.key() => added.next(),
        (Some(_), _) => fixed.next(),
        (None, _) => added.next(),
    })
}

/// A page's cursor: its offset, and the version of the runtime catalog it
/// counts in (left out while nothing changed, so a server whose catalog
/// never changes issues the cursors it always did).
fn encode_cursor(offset: usize, version: u64) -> String {
    if version == 0 {
        URL_SAFE_NO_PAD.encode(format!("o:{offset}"))
    } else {
        URL_SAFE_NO_PAD.encode(format!("o:{offset}:v{version}"))
    }
}

fn decode_cursor(cursor: &str) -> Option<(usize, u64)> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let text = std::str::from_utf8(&bytes).ok()?.strip_prefix("o:")?;
    match text.split_once(":v") {
        None => Some((text.parse().ok()?, 0)),
        Some((offset, version)) => Some((offset.parse().ok()?, version.parse().ok()?)),
    }
}

/// Keeps, of the items a list result as JSON holds under `field`, those
/// whose identity (their string member `key`) is `visible`. An item
/// without one is not a descriptor of the list, and is dropped.
fn retain_listed(
    result: &mut JsonObject,
    field: &str,
    key: &str,
    visible: impl Fn(&str) -> bool,
) -> Result<(), String> {
    let Some(JsonValue::Array(items)) = result.get_mut(field) else {
        return Err(format!("it has no array `{field}`"));
    };
    items.retain(|item| {
        item.get(key)
            .and_then(JsonValue::as_str)
            .is_some_and(&visible)
    });
    Ok(())
}

/// Implements a list method's handler on `Listing<D>` and its screen on `ListScreen<D>`.
macro_rules! list_handler {
    ($method:ty, $descriptor:ty, $result:ident, $field:ident, $wire:literal, $key:literal) => {
        impl Screen<$method> for ListScreen<$descriptor> {
            fn screen(&self, ctx: &RequestContext, result: &mut $result) {
                result.$field.retain(|item| self.visible(ctx, item.key()));
            }

            fn screen_json(
                &self,
                ctx: &RequestContext,
                result: &mut JsonObject,
            ) -> Result<(), String> {
                retain_listed(result, $wire, $key, |key| self.visible(ctx, key))
            }
        }

        impl Handler<$method> for Listing<$descriptor> {
            fn handle<'a>(
                &'a self,
                ctx: &'a RequestContext,
                params: PaginatedRequestParams,
            ) -> BoxFuture<'a, HandlerResult<<$method as Method>::Result>> {
                let page = self.page(ctx, params.cursor.as_deref());
                Box::pin(async move {
                    let ($field, next_cursor) = page?;
                    Ok($result {
                        $field,
                        next_cursor,
                        ttl_ms: Some(self.ttl_ms),
                        cache_scope: Some(self.cache_scope),
                        ..Default::default()
                    }
                    .into())
                })
            }
        }
    };
}

list_handler!(ListTools, Tool, ListToolsResult, tools, "tools", "name");
list_handler!(
    ListPrompts,
    Prompt,
    ListPromptsResult,
    prompts,
    "prompts",
    "name"
);
list_handler!(
    ListResources,
    Resource,
    ListResourcesResult,
    resources,
    "resources",
    "uri"
);
list_handler!(
    ListResourceTemplates,
    ResourceTemplate,
    ListResourceTemplatesResult,
    resource_templates,
    "resourceTemplates",
    "uriTemplate"
);

/// The handler of `server/discover`.
pub(crate) struct Discovery {
    pub(crate) result: DiscoverResult,
}

impl Discovery {
    pub(crate) fn new(
        info: &Implementation,
        capabilities: &ServerCapabilities,
        instructions: Option<String>,
        supported: &[&str],
        ttl_ms: u64,
    ) -> Self {
        let meta = ResultMeta {
            server_info: Some(info.clone()),
            ..ResultMeta::default()
        };
        Self {
            result: DiscoverResult {
                meta: Some(meta),
                supported_versions: supported.iter().map(|v| (*v).to_owned()).collect(),
                capabilities: capabilities.clone(),
                instructions,
                ttl_ms: Some(ttl_ms),
                cache_scope: Some(CacheScope::Public),
                ..DiscoverResult::default()
            },
        }
    }
}

impl Handler<Discover> for Discovery {
    fn handle<'a>(
        &'a self,
        _: &'a RequestContext,
        _: <Discover as Method>::Params,
    ) -> BoxFuture<'a, HandlerResult<DiscoverResult>> {
        let result = self.result.clone();
        Box::pin(async move { Ok(result.into()) })
    }
}
