//! Admission: what happens to a decoded message once, before it is served,
//! whatever transport brought it. The era follows from the peer, the
//! principal from its credentials, the route from the method; a 2026-07-28
//! request's `_meta` is checked, and so are the headers that mirror it when
//! its transport has any. Whatever is refused for a target the guards hide
//! answers as an unknown target would.

use std::borrow::Cow;
use std::sync::Arc;

use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};
use mcp_core::jsonrpc::{Notification, Request, RequestId};
use mcp_core::meta::{self, RequestMeta};
use mcp_core::version::{self, Era};
use serde::Deserialize;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::mirror::{self, Headers};
use super::outcome::Outcome;
use super::peer::Peer;
use super::{Server, caught, unwound};
use crate::context::{ContextParts, RequestContext};
use crate::dispatch::{Pipeline, Route};
use crate::seam::interceptor::{RawCall, RawNext};
use crate::vocabulary::auth::{Challenge, Principal};
use crate::vocabulary::error::missing_meta;

/// A request the server admitted: its era and route are known, its
/// `_meta` checked, its context made; [`Server::serve`] serves it.
pub struct Admitted {
    pub(super) id: RequestId,
    pub(super) params: Option<Box<RawValue>>,
    pub(super) route: Arc<dyn Route>,
    pub(super) ctx: RequestContext,
}

impl std::fmt::Debug for Admitted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Admitted")
            .field("id", &self.id)
            .field("method", &self.ctx.method())
            .field("era", &self.ctx.era())
            .finish_non_exhaustive()
    }
}

impl Admitted {
    /// The request's id.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The request's method.
    pub fn method(&self) -> &str {
        self.ctx.method()
    }

    /// The era the request is served in.
    pub fn era(&self) -> Era {
        self.ctx.era()
    }
}

/// Why a request was answered before it was served.
#[derive(Debug)]
pub struct Refusal {
    outcome: Outcome,
    malformed: bool,
}

impl Refusal {
    /// A request that breaks the protocol's rules for its transport (its
    /// `_meta`, or the headers that mirror it): Streamable HTTP answers
    /// with a `4xx` status whatever the error's code.
    fn malformed(id: RequestId, error: ErrorObject) -> Self {
        Self {
            outcome: Outcome::new(id, Era::Modern, Err(error)),
            malformed: true,
        }
    }

    /// Any other answer given before serving: an unknown method, a target
    /// the guards hide, credentials the principal source refuses.
    fn answered(id: RequestId, era: Era, error: ErrorObject) -> Self {
        Self {
            outcome: Outcome::new(id, era, Err(error)),
            malformed: false,
        }
    }

    /// Whether the request broke the protocol's rules for its transport,
    /// rather than being answered as the server answers such a request.
    pub fn is_malformed(&self) -> bool {
        self.malformed
    }

    /// The error response.
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// The error response, to send.
    pub fn into_outcome(self) -> Outcome {
        self.outcome
    }
}

/// What a 2026-07-28 request carries in `params._meta`, checked: the
/// version it names is one the server speaks, and it declares its
/// capabilities.
#[derive(Debug)]
pub(super) struct Checked {
    pub(super) protocol_version: String,
    pub(super) capabilities: Box<mcp_core::capabilities::ClientCapabilities>,
    pub(super) meta: RequestMeta,
}

impl Checked {
    /// Checks a modern request's `_meta`.
    fn new(mut meta: RequestMeta) -> Result<Self, ErrorObject> {
        let protocol_version = meta
            .protocol_version
            .take()
            .ok_or_else(|| missing_meta(meta::PROTOCOL_VERSION))?;
        let capabilities = meta
            .client_capabilities
            .take()
            .ok_or_else(|| missing_meta(meta::CLIENT_CAPABILITIES))?;
        version::negotiate_modern(&protocol_version, version::SUPPORTED)
            .map_err(ErrorObject::from)?;
        Ok(Self {
            protocol_version,
            capabilities,
            meta,
        })
    }
}

/// What a message's `_meta` told, checked (a 2026-07-28 request) or as it came.
pub(super) enum Told {
    Checked(Checked),
    Unchecked(RequestMeta),
}

/// Only the `_meta` of a request's params.
#[derive(Deserialize)]
struct MetaOnly {
    #[serde(rename = "_meta", default)]
    meta: Option<RequestMeta>,
}

fn meta_of(params: Option<&RawValue>) -> Result<RequestMeta, ErrorObject> {
    match params {
        None => Ok(RequestMeta::default()),
        Some(raw) => serde_json::from_str::<MetaOnly>(raw.get())
            .map(|m| m.meta.unwrap_or_default())
            .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}"))),
    }
}

impl Server {
    /// Admits a decoded request: decides its era from `peer`, authenticates
    /// the peer's credentials (unless the transport did), finds the route,
    /// checks a 2026-07-28 request's `_meta` and, when the transport carried
    /// `headers` beside it, that they mirror its body, in the order the
    /// Streamable HTTP specification gives; then makes its context.
    ///
    /// A refused request is answered with the [`Refusal`]'s outcome. Every
    /// refusal for a target the guards hide from the caller is the answer
    /// for an unknown target, so admission tells nothing a caller may not
    /// see.
    ///
    /// # Errors
    ///
    /// The refusal, with the response to send.
    pub async fn admit(
        &self,
        request: Request,
        peer: &Peer,
        headers: Option<&dyn Headers>,
    ) -> Result<Admitted, Refusal> {
        let Request {
            id, method, params, ..
        } = request;
        let era = peer.era_for(&method);
        let principal = match unwound(self.principal_of(peer)).await {
            Ok(principal) => principal,
            Err(error) => return Err(Refusal::answered(id, era, error)),
        };
        let mirrored = match headers {
            Some(headers) => match caught(|| {
                self.check_headers(headers, &method, params.as_deref(), peer, &principal)
            }) {
                Ok(Ok(checked)) => Some(checked),
                Ok(Err(refused)) => return Err(refused.of(id)),
                Err(panicked) => return Err(Refusal::answered(id, era, panicked)),
            },
            None => None,
        };
        // An unknown method, or one of the other era, is not found before
        // anything else in the body is checked: a client probing for its
        // era learns it here.
        let Some(route) = self.inner.routes.get(era, &method) else {
            return Err(Refusal::answered(
                id,
                era,
                ErrorObject::method_not_found(&method),
            ));
        };
        let told = match (era, mirrored) {
            (Era::Modern, Some(checked)) => Ok(Told::Checked(checked)),
            (Era::Modern, None) => meta_of(params.as_deref())
                .and_then(Checked::new)
                .map(Told::Checked),
            (Era::Legacy, _) => meta_of(params.as_deref()).map(Told::Unchecked),
        };
        let told = match told {
            Ok(told) => told,
            // What the caller cannot see, hidden or absent, answers as
            // unknown before anything else.
            Err(error) => {
                let error = match caught(|| {
                    self.hidden_from(&method, era, params.as_deref(), peer, principal)
                }) {
                    Ok(hidden) => hidden.unwrap_or(error),
                    Err(panicked) => panicked,
                };
                return Err(Refusal::answered(id, era, error));
            }
        };
        let route = route.clone();
        let ctx =
            match caught(|| self.context(Some(id.clone()), method, era, told, peer, principal)) {
                Ok(ctx) => ctx,
                Err(panicked) => return Err(Refusal::answered(id, era, panicked)),
            };
        Ok(Admitted {
            id,
            params,
            route,
            ctx,
        })
    }

    /// Passes a client notification through the raw interceptors, then to
    /// the handler an extension contributed for it, if any; `true` when no
    /// interceptor refused it, so the transport acts on it (a cancellation).
    pub async fn admit_notification(&self, notification: &Notification, peer: &Peer) -> bool {
        let era = peer.era_for(&notification.method);
        let meta = meta_of(notification.params.as_deref()).unwrap_or_default();
        // A peer whose credentials are refused is not heard.
        let Ok(principal) = self.principal_of(peer).await else {
            return false;
        };
        let ctx = self.context(
            None,
            notification.method.clone(),
            era,
            Told::Unchecked(meta),
            peer,
            principal,
        );
        let call = RawCall::new(&ctx, notification.params.as_deref());
        let pipeline = Pipeline::notification(&self.inner.raw);
        let admitted = unwound(RawNext::new(&pipeline, 0).run(&call)).await;
        let admitted = admitted.is_ok_and(|answer| ctx.key().check(answer.key).is_ok());
        if admitted
            && let Some(handler) = self.inner.notifications.get(notification.method.as_str())
            && handler.eras().contains(&era)
        {
            // A handler that panics is logged, and the connection goes on.
            if let Err(panicked) = unwound(async {
                handler.handle(&ctx, notification.params.as_deref()).await;
                Ok(())
            })
            .await
            {
                tracing::error!(notification = %notification.method, error = ?panicked, "a notification handler failed");
            }
        }
        admitted
    }

    /// The caller's principal: the one the transport found, or what the
    /// principal source makes of the peer's credentials.
    async fn principal_of(&self, peer: &Peer) -> Result<Arc<Principal>, ErrorObject> {
        match &peer.principal {
            Some(principal) => Ok(principal.clone()),
            None => self
                .authenticate(&peer.credentials)
                .await
                .map_err(Challenge::into_error),
        }
    }

    /// The 2026-07-28 header and `_meta` rules, in the order the transport
    /// specification gives them; the request's `_meta`, checked once.
    fn check_headers(
        &self,
        headers: &dyn Headers,
        method: &str,
        params: Option<&RawValue>,
        peer: &Peer,
        principal: &Arc<Principal>,
    ) -> Result<Checked, Refused> {
        let header_version = mirror::protocol_version(headers)?;
        let seed = ProbeSeed {
            target: self.target_member(method, Era::Modern),
            arguments: method == "tools/call" && self.mirrors_arguments(),
        };
        let probe = match params {
            None => Probe::default(),
            Some(raw) => {
                let mut deserializer = serde_json::Deserializer::from_str(raw.get());
                seed.deserialize(&mut deserializer)
                    .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}")))?
            }
        };
        let meta = probe.meta.unwrap_or_default();
        let Some(body_version) = meta.protocol_version.as_deref() else {
            return Err(missing_meta(meta::PROTOCOL_VERSION).into());
        };
        if meta.client_capabilities.is_none() {
            return Err(missing_meta(meta::CLIENT_CAPABILITIES).into());
        }
        if header_version != body_version {
            return Err(ErrorObject::header_mismatch(format!(
                "Header mismatch: MCP-Protocol-Version header value '{header_version}' does not match body value '{body_version}'"
            ))
            .into());
        }
        let checked = Checked::new(meta)?;
        let named = mirror::check_method_and_name(headers, method, probe.target.as_ref());
        let mirrored = match &probe.target {
            Some(JsonValue::String(tool)) if method == "tools/call" => {
                let mirrored = self.param_headers(tool);
                let arguments = probe
                    .arguments
                    .filter(|_| !mirrored.is_empty())
                    .and_then(|raw| serde_json::from_str::<JsonObject>(raw.get()).ok());
                mirror::check_params(headers, &mirrored, arguments.as_ref())
            }
            _ => Ok(()),
        };
        // A target the guards hide answers as an unknown one would, whatever
        // its headers: an unknown one has no headers to check.
        if let Err(error) = named.and(mirrored) {
            return Err(
                match self.hidden_from(method, Era::Modern, params, peer, principal.clone()) {
                    Some(hidden) => Refused::Hidden(hidden),
                    None => Refused::Malformed(error),
                },
            );
        }
        Ok(checked)
    }

    /// The answer for a target of `method` that this caller cannot see, one
    /// that does not exist or that the guards hide: the checks that refuse
    /// a request answer with it instead of theirs, so they tell nothing of
    /// what a caller may not see.
    fn hidden_from(
        &self,
        method: &str,
        era: Era,
        params: Option<&RawValue>,
        peer: &Peer,
        principal: Arc<Principal>,
    ) -> Option<ErrorObject> {
        let route = self.inner.routes.get(era, method)?;
        let meta = meta_of(params).unwrap_or_default();
        let ctx = self.context(
            None,
            method.to_owned(),
            era,
            Told::Unchecked(meta),
            peer,
            principal,
        );
        route.unseen(&ctx, params)
    }

    /// Whether the caller of the legacy `session` (who sent its latest
    /// request) may hear of `change`: a change of the runtime catalog
    /// reaches only callers who may see a member it touched; every other
    /// change, everyone. A transport asks before it sends a session a list
    /// change ([`ChangeFeed`](crate::transport::ChangeFeed) does).
    pub fn hears(
        &self,
        session: &Arc<crate::context::Session>,
        change: &crate::seam::sink::Change,
    ) -> bool {
        if change.audience.0.is_none() {
            return true;
        }
        let caller = session
            .caller()
            .unwrap_or_else(|| Arc::new(Principal::anonymous()));
        let peer = Peer::on(session.clone());
        let ctx = self.context(
            None,
            change.method.clone(),
            Era::Legacy,
            Told::Unchecked(RequestMeta::default()),
            &peer,
            caller,
        );
        crate::dispatch::Audience::admits(change, &ctx)
    }

    /// The context of one message.
    fn context(
        &self,
        id: Option<RequestId>,
        method: String,
        era: Era,
        told: Told,
        peer: &Peer,
        principal: Arc<Principal>,
    ) -> RequestContext {
        let session = match era {
            Era::Legacy => peer.session.as_ref().and_then(|s| {
                s.heard_from(&principal);
                s.negotiated()
            }),
            Era::Modern => None,
        };
        let (mut meta, protocol_version, client_capabilities) = match (told, &session) {
            (Told::Checked(checked), _) => (
                checked.meta,
                Some(checked.protocol_version),
                checked.capabilities,
            ),
            (Told::Unchecked(meta), Some(session)) => (
                meta,
                Some(session.protocol_version.clone()),
                Box::new(session.client_capabilities.clone()),
            ),
            // A notification, or `initialize` itself: what its `_meta` says.
            (Told::Unchecked(mut meta), None) => {
                let version = meta.protocol_version.take();
                let capabilities = meta.client_capabilities.take().unwrap_or_default();
                (meta, version, capabilities)
            }
        };
        let (client_info, log_level) = match &session {
            Some(session) => (session.client_info.clone().map(Box::new), session.log_level),
            None => (meta.client_info.take(), meta.log_level),
        };
        let ctx = RequestContext::new(ContextParts {
            id,
            method,
            era,
            protocol_version,
            client_capabilities,
            client_info,
            principal,
            cancellation: peer.cancellation.clone(),
            meta,
            notifications: peer.notifications.clone(),
            log_level,
            runtime: self.inner.runtime.clone(),
            session: peer.session.clone(),
            // Only a legacy session carries requests to its client.
            requester: peer.requester.clone().filter(|_| era == Era::Legacy),
            input_timeout: peer.input_timeout,
        });
        if let Some(seed) = &peer.seed {
            seed(&ctx);
        }
        ctx
    }
}

/// Why the headers of a modern request refuse it.
enum Refused {
    /// Its headers or `_meta` break the transport's rules.
    Malformed(ErrorObject),
    /// Its headers break them, for a target the guards hide from the caller:
    /// the answer for an unknown target instead.
    Hidden(ErrorObject),
}

impl From<ErrorObject> for Refused {
    fn from(error: ErrorObject) -> Self {
        Refused::Malformed(error)
    }
}

impl Refused {
    fn of(self, id: RequestId) -> Refusal {
        match self {
            Refused::Malformed(error) => Refusal::malformed(id, error),
            Refused::Hidden(error) => Refusal::answered(id, Era::Modern, error),
        }
    }
}

/// Only what admission checks of a modern request's params: its `_meta`,
/// the member `Mcp-Name` mirrors, and the arguments of a tool whose
/// arguments are mirrored in headers.
#[derive(Default)]
struct Probe {
    meta: Option<RequestMeta>,
    target: Option<JsonValue>,
    arguments: Option<Box<RawValue>>,
}

/// Reads a [`Probe`] out of params, skipping every other member undecoded.
struct ProbeSeed<'m> {
    target: Option<&'m str>,
    arguments: bool,
}

impl<'de> DeserializeSeed<'de> for ProbeSeed<'_> {
    type Value = Probe;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Probe, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ProbeSeed<'_> {
    type Value = Probe;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a params object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Probe, A::Error> {
        let mut probe = Probe::default();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if key == "_meta" {
                probe.meta = map.next_value()?;
            } else if Some(&*key) == self.target {
                probe.target = Some(map.next_value()?);
            } else if self.arguments && key == "arguments" {
                probe.arguments = Some(map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(probe)
    }
}

/// A member name, borrowed from the body unless it holds escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }
            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}
