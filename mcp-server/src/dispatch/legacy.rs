//! The handlers of the legacy (2025-11-25) lifecycle methods: `initialize`,
//! which negotiates a [`Session`], the methods that change it
//! (`logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`), and
//! `ping`.
//!
//! These are ordinary methods of the legacy era: they go through the same
//! pipeline as every other (raw interceptors see them), and their effects on
//! the session take hold only when the request is answered without error.
//! `initialize` cannot be answered in place of its handler, so no session is
//! ever half made.

use std::sync::Arc;

use mcp_core::capabilities::ServerCapabilities;
use mcp_core::content::Implementation;
use mcp_core::error::ErrorObject;
use mcp_core::legacy::initialize::{Initialize, InitializeRequestParams, InitializeResult};
use mcp_core::legacy::logging::SetLevel;
use mcp_core::legacy::ping::Ping;
use mcp_core::legacy::subscribe::{Subscribe, Unsubscribe};
use mcp_core::result::EmptyResult;
use mcp_core::version;

use crate::context::RequestContext;
use crate::context::{MAX_SUBSCRIPTIONS, Negotiated, Session};
use crate::dispatch::Route;
use crate::handler::{Handler, HandlerResult};
use crate::vocabulary::BoxFuture;
use crate::vocabulary::lock;

/// The session a lifecycle request came on.
fn session(ctx: &RequestContext) -> Result<Arc<Session>, ErrorObject> {
    ctx.session().cloned().ok_or_else(|| {
        ErrorObject::internal_error("Internal error: this transport keeps no legacy session")
    })
}

/// The answer to `initialize`: the server's identity and what a legacy
/// session may use.
pub(crate) struct Initializer {
    pub(crate) info: Implementation,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) instructions: Option<String>,
}

impl Initializer {
    pub(crate) fn new(
        info: Implementation,
        mut capabilities: ServerCapabilities,
        instructions: Option<String>,
    ) -> Self {
        // What a legacy session adds to the server's own capabilities: log
        // levels, list-change notifications and resource subscriptions.
        capabilities.logging.get_or_insert_default();
        if let Some(tools) = capabilities.tools.as_mut() {
            tools.list_changed.get_or_insert(true);
        }
        if let Some(prompts) = capabilities.prompts.as_mut() {
            prompts.list_changed.get_or_insert(true);
        }
        if let Some(resources) = capabilities.resources.as_mut() {
            resources.list_changed.get_or_insert(true);
            resources.subscribe.get_or_insert(true);
        }
        Self {
            info,
            capabilities,
            instructions,
        }
    }

    /// Echoes a supported legacy version (or offers the newest one); the
    /// session the client's later requests carry, and the result.
    pub(crate) fn answer(&self, params: InitializeRequestParams) -> (Negotiated, InitializeResult) {
        let version =
            version::negotiate_legacy(&params.protocol_version, version::SUPPORTED).version();
        let negotiated = Negotiated {
            protocol_version: version.to_owned(),
            client_capabilities: params.capabilities,
            client_info: Some(params.client_info),
            log_level: None,
        };
        let result = InitializeResult {
            meta: None,
            protocol_version: version.to_owned(),
            capabilities: self.capabilities.clone(),
            server_info: self.info.clone(),
            instructions: self.instructions.clone(),
        };
        (negotiated, result)
    }
}

impl Handler<Initialize> for Initializer {
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: InitializeRequestParams,
    ) -> BoxFuture<'a, HandlerResult<InitializeResult>> {
        let answer = session(ctx).map(|session| {
            let (negotiated, result) = self.answer(params);
            ctx.on_success(move || *lock(&session.negotiated) = Some(Arc::new(negotiated)));
            result.into()
        });
        Box::pin(async move { answer })
    }
}

/// `ping`, `logging/setLevel`, `resources/subscribe` and `resources/unsubscribe`.
pub(crate) struct Maintenance {
    /// `resources/read`, whose guards decide which resources a caller may
    /// watch.
    pub(crate) reads: Option<Arc<dyn Route>>,
}

impl Maintenance {
    /// Whether the guards hide the resource at `uri` from this caller.
    fn hidden(&self, ctx: &RequestContext, uri: &str) -> bool {
        crate::dispatch::hides_resource(self.reads.as_ref(), ctx, uri)
    }
}

impl Handler<Ping> for Maintenance {
    fn handle<'a>(
        &'a self,
        _: &'a RequestContext,
        _: <Ping as mcp_core::method::Method>::Params,
    ) -> BoxFuture<'a, HandlerResult<EmptyResult>> {
        Box::pin(async { Ok(EmptyResult::default().into()) })
    }
}

impl Handler<SetLevel> for Maintenance {
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: <SetLevel as mcp_core::method::Method>::Params,
    ) -> BoxFuture<'a, HandlerResult<EmptyResult>> {
        staged(ctx, move |session| {
            session.update(|n| n.log_level = Some(params.level));
        })
    }
}

impl Handler<Subscribe> for Maintenance {
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: <Subscribe as mcp_core::method::Method>::Params,
    ) -> BoxFuture<'a, HandlerResult<EmptyResult>> {
        let answer = session(ctx).and_then(|session| {
            let full = |subscriptions: &std::collections::BTreeSet<String>, uri: &String| {
                subscriptions.len() >= MAX_SUBSCRIPTIONS && !subscriptions.contains(uri)
            };
            if full(&lock(&session.subscriptions), &params.uri) {
                return Err(ErrorObject::invalid_params(format!(
                    "Too many subscriptions: a session may watch {MAX_SUBSCRIPTIONS} resources"
                )));
            }
            // A resource the caller may not see is watched as one that does
            // not exist: accepted, and never heard of.
            if !self.hidden(ctx, &params.uri) {
                let uri = params.uri;
                ctx.on_success(move || {
                    let mut subscriptions = lock(&session.subscriptions);
                    if !full(&subscriptions, &uri) {
                        subscriptions.insert(uri);
                    }
                });
            }
            Ok(EmptyResult::default().into())
        });
        Box::pin(async move { answer })
    }
}

impl Handler<Unsubscribe> for Maintenance {
    fn handle<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: <Unsubscribe as mcp_core::method::Method>::Params,
    ) -> BoxFuture<'a, HandlerResult<EmptyResult>> {
        staged(ctx, move |session| {
            lock(&session.subscriptions).remove(&params.uri);
        })
    }
}

/// Stages `effect` on the request's session, to take hold once the
/// request is answered without error; answers the empty result.
fn staged<'a>(
    ctx: &'a RequestContext,
    effect: impl FnOnce(&Session) + Send + 'static,
) -> BoxFuture<'a, HandlerResult<EmptyResult>> {
    let answer = session(ctx).map(|session| {
        ctx.on_success(move || effect(&session));
        EmptyResult::default().into()
    });
    Box::pin(async move { answer })
}
