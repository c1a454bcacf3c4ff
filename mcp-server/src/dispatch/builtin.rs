//! The built-in handlers: the four lists (with the screen every list
//! answer passes, whoever made it) and `server/discover`.

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_core::capabilities::ServerCapabilities;
use mcp_core::content::Implementation;
use mcp_core::discover::{Discover, DiscoverResult};
use mcp_core::error::ErrorObject;
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

use super::chain::Guards;
use super::route::Screen;
use crate::context::RequestContext;
use crate::handler::{Handler, HandlerResult};
use crate::seam::customizer::Descriptor;
use crate::vocabulary::BoxFuture;

/// One listed item with what decides its visibility.
pub(crate) struct Listed<D> {
    pub(crate) descriptor: D,
    pub(crate) guards: Arc<Guards>,
    /// Whether it appears in its list (a customizer may unlist it).
    pub(crate) listed: bool,
}

/// The items of one list, in list order (sorted by their identity), with
/// their guards.
pub(crate) struct Catalog<D> {
    items: Vec<Listed<D>>,
}

impl<D: Descriptor> Catalog<D> {
    /// A catalog of `items`, sorted by identity.
    pub(crate) fn new(mut items: Vec<Listed<D>>) -> Arc<Self> {
        items.sort_by(|a, b| a.descriptor.key().cmp(b.descriptor.key()));
        Arc::new(Self { items })
    }

    /// Whether the item named `key` is listed and the caller may see it.
    fn visible(&self, ctx: &RequestContext, key: &str) -> bool {
        self.items
            .binary_search_by(|item| item.descriptor.key().cmp(key))
            .is_ok_and(|i| self.items[i].listed && self.items[i].guards.allow(ctx))
    }

    /// The descriptors, listed or not, in list order.
    pub(crate) fn descriptors(&self) -> impl ExactSizeIterator<Item = &D> {
        self.items.iter().map(|i| &i.descriptor)
    }
}

/// A list method's handler: the items in a fixed order, filtered per caller
/// by their guards, cut into pages with opaque cursors.
pub(crate) struct Listing<D> {
    pub(crate) catalog: Arc<Catalog<D>>,
    pub(crate) page_size: usize,
    pub(crate) ttl_ms: u64,
    pub(crate) cache_scope: CacheScope,
}

/// The screen of a list method: every answer keeps only the items that
/// exist and that the caller may see, whoever made the answer.
pub(crate) struct ListScreen<D>(pub(crate) Arc<Catalog<D>>);

impl<D: Descriptor> Listing<D> {
    fn page(
        &self,
        ctx: &RequestContext,
        cursor: Option<&str>,
    ) -> Result<(Vec<D>, Option<String>), ErrorObject> {
        let start = match cursor {
            None => 0,
            Some(cursor) => decode_cursor(cursor).ok_or_else(|| {
                ErrorObject::invalid_params(format!(
                    "Invalid cursor: {cursor:?} was not issued by this server"
                ))
            })?,
        };
        let mut visible = self
            .catalog
            .items
            .iter()
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
            .then(|| encode_cursor(start + page.len()));
        Ok((page, next))
    }
}

fn encode_cursor(offset: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("o:{offset}"))
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor).ok()?;
    std::str::from_utf8(&bytes)
        .ok()?
        .strip_prefix("o:")?
        .parse()
        .ok()
}

/// Implements a list method's handler on `Listing<D>` and its screen on `ListScreen<D>`.
macro_rules! list_handler {
    ($method:ty, $descriptor:ty, $result:ident, $field:ident) => {
        impl Screen<$method> for ListScreen<$descriptor> {
            fn screen(&self, ctx: &RequestContext, result: &mut $result) {
                result.$field.retain(|item| self.0.visible(ctx, item.key()));
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

list_handler!(ListTools, Tool, ListToolsResult, tools);
list_handler!(ListPrompts, Prompt, ListPromptsResult, prompts);
list_handler!(ListResources, Resource, ListResourcesResult, resources);
list_handler!(
    ListResourceTemplates,
    ResourceTemplate,
    ListResourceTemplatesResult,
    resource_templates
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
