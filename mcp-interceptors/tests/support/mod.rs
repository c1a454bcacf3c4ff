//! Interceptors of every behaviour the tests need, and a server with tools
//! to run them on.
#![allow(dead_code, unreachable_pub)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_interceptors::wire::Phase;
use mcp_interceptors::{Failure, Interceptor, Invocation, Mutate, Mutation, Validate, Validation};
use mcp_server::core::json::JsonObject;
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::{Item, Origin};
use mcp_server::server::Builder;
use mcp_server::testing::MemoryClient;
use mcp_server::{BoxFuture, Server};
use serde_json::{Value, json};

/// What ran, in order.
#[derive(Debug, Clone, Default)]
pub struct Events(Arc<Mutex<Vec<String>>>);

impl Events {
    pub fn push(&self, event: impl Into<String>) {
        self.0.lock().unwrap().push(event.into());
    }

    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// A validator that answers with a function of the invocation.
pub struct Judge(pub fn(&Invocation) -> Validation);

impl Validate for Judge {
    fn validate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async move { Ok((self.0)(i)) })
    }
}

/// A mutator that answers with a function of the invocation.
pub struct Rewrite(pub fn(&Invocation) -> Mutation);

impl Mutate for Rewrite {
    fn mutate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Mutation, Failure>> {
        Box::pin(async move { Ok((self.0)(i)) })
    }
}

/// Records its name and the payload it saw, then passes or leaves the
/// payload as it was.
pub struct Record(pub &'static str, pub Events);

impl Validate for Record {
    fn validate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(async move {
            self.1
                .push(format!("{} {} {}", self.0, i.phase().as_str(), i.payload()));
            Ok(Validation::valid())
        })
    }
}

impl Mutate for Record {
    fn mutate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Mutation, Failure>> {
        Box::pin(async move {
            self.1
                .push(format!("{} {} {}", self.0, i.phase().as_str(), i.payload()));
            Ok(Mutation::unchanged())
        })
    }
}

/// How an interceptor misbehaves.
#[derive(Clone, Copy)]
pub enum Misbehave {
    Panic,
    Fail,
    Hang,
}

/// An interceptor that misbehaves, as a validator or a mutator.
pub struct Broken(pub Misbehave);

impl Broken {
    async fn misbehave<T>(&self) -> Result<T, Failure> {
        match self.0 {
            Misbehave::Panic => panic!("the interceptor broke"),
            Misbehave::Fail => Err(Failure::new("the policy store is unreachable")),
            Misbehave::Hang => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Err(Failure::new("woke up"))
            }
        }
    }
}

impl Validate for Broken {
    fn validate<'a>(&'a self, _: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
        Box::pin(self.misbehave())
    }
}

impl Mutate for Broken {
    fn mutate<'a>(&'a self, _: &'a Invocation) -> BoxFuture<'a, Result<Mutation, Failure>> {
        Box::pin(self.misbehave())
    }
}

/// A mutator that appends its name to `params.arguments.trail` (request)
/// or to the first content text (response).
pub struct Append(pub &'static str);

impl Mutate for Append {
    fn mutate<'a>(&'a self, i: &'a Invocation) -> BoxFuture<'a, Result<Mutation, Failure>> {
        Box::pin(async move {
            let mut payload = i.payload_owned();
            let at = match i.phase() {
                Phase::Request => "/params/arguments/trail",
                Phase::Response => "/content/0/text",
            };
            let Some(Value::String(trail)) = payload.pointer_mut(at) else {
                return Ok(Mutation::unchanged());
            };
            trail.push_str(&format!(">{}", self.0));
            Ok(Mutation::modified(payload))
        })
    }
}

pub fn origin(line: u32) -> Origin {
    Origin {
        crate_name: "interceptor-tests",
        crate_version: "0.1.0",
        module: "tests",
        file: "tests/support/mod.rs",
        line,
    }
}

/// A validator named `name` on `tools/call` requests.
pub fn validator(name: &str, v: impl Validate) -> Interceptor {
    Interceptor::validator(origin(1), name, v).hook(Phase::Request, ["tools/call"])
}

/// A mutator named `name` on `tools/call` requests.
pub fn mutator(name: &str, m: impl Mutate) -> Interceptor {
    Interceptor::mutator(origin(2), name, m).hook(Phase::Request, ["tools/call"])
}

fn tool(name: &str) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    Tool {
        name: name.into(),
        input_schema: schema,
        ..Default::default()
    }
}

struct HideFromEveryone;

impl HandlerCustomizer<Tool> for HideFromEveryone {
    fn customize(&self, config: &mut HandlerConfig<Tool>) {
        config.add_guard(guard_fn("nobody", |_, _| Decision::deny("private")));
    }
}

/// A server with the linked extension, `interceptors`, and the tools
/// `echo` (answers with its arguments as JSON text; each call is recorded
/// in `calls` as `echo <arguments>`) and `secret` (hidden from everyone).
pub fn server_with(interceptors: Vec<Interceptor>, calls: &Events) -> Server {
    builder_with(interceptors, calls).build()
}

pub fn builder_with(interceptors: Vec<Interceptor>, calls: &Events) -> Builder {
    let calls = calls.clone();
    let mut builder = Server::builder()
        .named("test", "1.0.0")
        .contributor(
            origin(10),
            "tools",
            contributor_fn(move |c| {
                for name in ["echo", "secret"] {
                    let calls = calls.clone();
                    c.tool(
                        tool(name),
                        handler_fn::<CallTool, _, _, _>(move |_, params| {
                            let calls = calls.clone();
                            async move {
                                let args = Value::Object(params.arguments.unwrap_or_default());
                                calls.push(format!("{name} {args}"));
                                Ok(CallToolResult::text(args.to_string()))
                            }
                        }),
                    );
                }
            }),
        )
        .register(
            origin(11),
            "hide-secret",
            0,
            Item::customizer_for::<Tool>("secret", HideFromEveryone),
        );
    for interceptor in interceptors {
        let name = interceptor.name().to_owned();
        builder = builder.register(
            interceptor.origin(),
            name,
            0,
            mcp_interceptors::declared(interceptor),
        );
    }
    builder
}

/// Calls `tool` with `arguments`.
pub async fn call(
    server: &Server,
    tool: &str,
    arguments: Value,
) -> Result<Value, mcp_server::core::error::ErrorObject> {
    MemoryClient::new(server)
        .request_raw("tools/call", json!({"name": tool, "arguments": arguments}))
        .await
}
