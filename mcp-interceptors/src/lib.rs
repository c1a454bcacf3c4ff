//! The MCP interceptors extension (`io.modelcontextprotocol/interceptors`)
//! for `mcp-server`: validators and mutators that a host may list
//! (`interceptors/list`) and invoke (`interceptor/invoke`), and that this
//! server also runs on its own requests and results.
//!
//! **Experimental.** The extension is a proposal (SEP-2624, which
//! superseded SEP-1763), not part of any released MCP version; its wire
//! may change, and every wire shape of this crate lives in [`wire`] so it
//! can follow.
//!
//! Activate it by linking: `use mcp_interceptors as _;` in the
//! application's crate root (or any use of its items). Declare an
//! interceptor with [`validator`] or [`mutator`] on an `async fn`, or on
//! the `impl` block of [`Validate`] or [`Mutate`] for a `Default` type:
//!
//! ```
//! use mcp_interceptors::{Invocation, Message, Validation, validator};
//! use mcp_server::testing::MemoryClient;
//! use mcp_server::{Server, tool};
//!
//! /// Echoes its text.
//! #[tool]
//! async fn shout(text: String) -> String {
//!     text.to_uppercase()
//! }
//!
//! /// Refuses text with a semicolon in it.
//! #[validator(name = "no-semicolons", request = ["tools/call"])]
//! async fn no_semicolons(invocation: &Invocation) -> Validation {
//!     match invocation.arguments().and_then(|a| a["text"].as_str()) {
//!         Some(text) if text.contains(';') => {
//!             Validation::invalid("semicolons are not allowed").with_message(
//!                 Message::error("found `;`").at("params.arguments.text"),
//!             )
//!         }
//!         _ => Validation::valid(),
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let server = Server::builder().build();
//! let client = MemoryClient::new(&server);
//! let ok = client.request_raw("tools/call", serde_json::json!({"name": "shout", "arguments": {"text": "hi"}})).await;
//! assert_eq!(ok.unwrap()["content"][0]["text"], "HI");
//! let refused = client.request_raw("tools/call", serde_json::json!({"name": "shout", "arguments": {"text": "a; b"}})).await;
//! assert_eq!(refused.unwrap_err().data.unwrap()["interceptor"], "no-semicolons");
//! let listed = client.request_raw("interceptors/list", serde_json::json!({})).await.unwrap();
//! assert_eq!(listed["interceptors"][0]["name"], "no-semicolons");
//! # });
//! ```
//!
//! The guide is [docs/interceptors.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/interceptors.md).
//!
//! # Where it runs
//!
//! The proposal describes interceptor servers that a host invokes, one
//! interceptor per `interceptor/invoke`, and advises them not to serve
//! tools, prompts or resources too. This crate serves that (see
//! [`interceptor_server`] for an endpoint with nothing else), and it also
//! runs the declared interceptors inside the server's own pipeline, on
//! every request of an event they hook:
//!
//! - a request: every validator at once, then the mutators one after
//!   another by priority (lower first, ties by name);
//! - its result: the mutators, then every validator at once;
//! - an active validator's error verdict answers the request with a
//!   JSON-RPC error naming the interceptor and its messages (`-32602` for a
//!   request, `-32603` for a result); an audit one is recorded only;
//! - a crash (a panic or an error) or a timeout blocks unless the
//!   interceptor is `failOpen`; a blocked mutation pass discards every
//!   rewrite it made;
//! - only a call its caller may make is shown: an unknown or hidden target
//!   answers as it would without interceptors, and a rewritten request is
//!   guarded again as written;
//! - each run is a `tracing` event (target `mcp_interceptors`) with the
//!   interceptor's name, the event, the phase, the outcome and the duration.
//!
//! The extension is built on the public seams of `mcp-server` only:
//!
//! | what | seam |
//! |---|---|
//! | a declared interceptor | a member of the registration kind [`Interceptors`] |
//! | `interceptors/list`, `interceptor/invoke` | typed methods, contributed in both eras |
//! | `capabilities.extensions["io.modelcontextprotocol/interceptors"]` | a capabilities customizer: in `server/discover`, and in a 2025-11-25 `initialize` under `capabilities.extensions` as `mcp-apps` puts its own |
//! | running them on the server's requests | a raw interceptor, rewriting params with `RawNext::run_with` |
//! | running them on the client-feature requests the server sends, and their answers | a sending interceptor |
//! | observers, the fire-and-forget kind | a registration kind of its own, [`Observers`] |
//! | the boot checks (`mcp_interceptors::not_interceptable`, …) | a validator |

mod chain;
mod check;
mod declare;
pub mod events;
mod executor;
mod host;
mod invocation;
mod methods;
pub mod observe;
mod outcome;
mod pipeline;
mod run;
mod sending;
pub mod wire;

use std::sync::Arc;

use mcp_server::boot::BootContext;
use mcp_server::core::capabilities::ServerCapabilities;
use mcp_server::core::json::{JsonObject, JsonValue};
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::ServerCapabilitiesCustomizer;
use mcp_server::seam::source::PrincipalSource;
use mcp_server::seam::{Extension, Item, Registration};
use mcp_server::{origin, register};

pub use declare::{DEFAULT_TIMEOUT, Interceptor, Interceptors, Mutate, Validate};
pub use executor::{Executed, Executor, Side};
pub use invocation::Invocation;
pub use mcp_interceptors_macros::{mutator, validator};
pub use observe::{Observer, Observers, observed};
pub use outcome::{Failure, IntoMutation, IntoValidation, Message, Mutation, Validation};
/// The JSON Schema derive for a configuration type named by `config = Type`.
pub use schemars;
pub use sending::CLIENT_FEATURES;

use crate::declare::Interceptors as Kind;
use crate::host::Host;
use crate::wire::{EXTENSION_ID, InterceptorsCapability};

fn extension(_: &BootContext) -> Item {
    Item::extension(declaration())
}

/// The extension, advertised in both eras with the events its
/// interceptors hook.
fn declaration() -> Extension {
    Extension::new(EXTENSION_ID, env!("CARGO_PKG_VERSION"))
        .advertises_with(hooked_events)
        .also_to_legacy_clients()
}

/// The capability: every event some linked interceptor hooks, sorted.
fn hooked_events(boot: &BootContext) -> JsonObject {
    let mut events: Vec<String> = boot
        .members::<Kind>()
        .iter()
        .flat_map(|m| &m.descriptor().hooks)
        .flat_map(|h| h.events.iter().cloned())
        .collect();
    events.sort();
    events.dedup();
    let capability = InterceptorsCapability {
        supported_events: Some(events),
    };
    match serde_json::to_value(capability) {
        Ok(JsonValue::Object(capability)) => capability,
        _ => JsonObject::new(),
    }
}

fn methods(boot: &BootContext) -> Item {
    let host = boot.shared::<Host>();
    Item::contributor(contributor_fn(move |into| {
        methods::contribute(&host, into);
    }))
}

fn chains(_: &BootContext) -> Item {
    Item::capabilities(Chains)
}

fn pipeline(boot: &BootContext) -> Item {
    Item::raw_interceptor(pipeline::Pipeline {
        host: boot.shared::<Host>(),
    })
}

fn sending(boot: &BootContext) -> Item {
    Item::sending_interceptor(sending::Sending {
        host: boot.shared::<Host>(),
    })
}

fn checks(_: &BootContext) -> Item {
    Item::validator(check::Checks)
}

register!(Registration::extension(
    origin!(),
    "mcp-interceptors",
    extension
));
register!(Registration::new(
    origin!(),
    "interceptors-methods",
    0,
    methods
));
register!(Registration::new(
    origin!(),
    "interceptors-chains",
    0,
    chains
));
// Inside the outermost raw interceptors (telemetry's spans, at the lowest
// orders), so their records include the interceptors' time.
register!(Registration::new(
    origin!(),
    "interceptors-pipeline",
    0,
    pipeline
));
register!(Registration::new(
    origin!(),
    "interceptors-sending",
    0,
    sending
));
register!(Registration::new(
    origin!(),
    "interceptors-checks",
    0,
    checks
));

/// Makes every event's chain once, when the capabilities are assembled
/// (every interceptor is registered by then).
struct Chains;

impl ServerCapabilitiesCustomizer for Chains {
    fn customize(&self, _: &mut ServerCapabilities, boot: &BootContext) {
        boot.shared::<Host>().state(boot.members::<Kind>());
    }
}

/// A builder of a server that serves the interceptors of `server` and
/// nothing else: `interceptors/list`, `interceptor/invoke` and the
/// capability, with no tools, prompts or resources, as the proposal's
/// interceptor servers are. It authenticates callers as `server` does (the
/// same principal source); guards on its two methods are its own to add.
/// It reads no settings from the environment: those are the application's.
/// Name it, then build it.
///
/// ```
/// use mcp_server::Server;
/// use mcp_server::testing::MemoryClient;
///
/// let app = Server::builder().build();
/// let interceptors = mcp_interceptors::interceptor_server(&app)
///     .named("my-interceptors", "1.0.0")
///     .build();
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let client = MemoryClient::new(&interceptors);
/// let listed = client.request_raw("interceptors/list", serde_json::json!({})).await.unwrap();
/// assert!(listed["interceptors"].is_array());
/// let tools = client.request_raw("tools/list", serde_json::json!({})).await.unwrap_err();
/// assert_eq!(tools.code.0, -32601);
/// # });
/// ```
pub fn interceptor_server(server: &mcp_server::Server) -> mcp_server::server::Builder {
    let host = Arc::new(Host::default());
    let mut builder = mcp_server::Server::builder()
        .without_linked()
        // The environment's settings are the application's, read when it
        // was built; sections of crates linked there are unknown here.
        .without_environment()
        .extension(origin!(), declaration())
        .register(
            origin!(),
            "interceptors-methods",
            0,
            Item::contributor(contributor_fn(move |into| {
                methods::contribute(&host, into);
            })),
        )
        .register(
            origin!(),
            "interceptors-chains",
            0,
            Item::capabilities(Chains),
        )
        .register(
            origin!(),
            "interceptors-checks",
            0,
            Item::validator(check::Checks),
        );
    if let Some(source) = server.active::<dyn PrincipalSource>() {
        builder = builder.supply::<dyn PrincipalSource>(
            origin!(),
            "principal source of the served server",
            source,
        );
    }
    for interceptor in server.members::<Kind>().iter() {
        let name = interceptor.name().to_owned();
        builder = builder.register(interceptor.origin(), name, 0, declared(interceptor.clone()));
    }
    builder
}

/// Registers `interceptor`: what `#[validator]` and `#[mutator]` expand to.
pub fn declared(interceptor: Interceptor) -> Item {
    Item::member::<Kind>(interceptor)
}

/// The JSON Schema of configuration type `T`, as an object schema: what
/// `config = Type` expands to.
///
/// ```
/// #[derive(serde::Deserialize, mcp_interceptors::schemars::JsonSchema)]
/// struct Masking { mask: String }
///
/// let schema = mcp_interceptors::config_schema_of::<Masking>();
/// assert_eq!(schema["type"], "object");
/// assert_eq!(schema["required"][0], "mask");
/// ```
pub fn config_schema_of<T: schemars::JsonSchema>() -> JsonObject {
    match serde_json::to_value(schemars::schema_for!(T)) {
        Ok(JsonValue::Object(schema)) => schema,
        _ => JsonObject::new(),
    }
}

/// The guide, `docs/interceptors.md`, compiled as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../docs/interceptors.md")]
struct InterceptorsGuide;
