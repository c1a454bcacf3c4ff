//! The MCP tasks extension (`io.modelcontextprotocol/tasks`) for
//! `mcp-server`, with the core tasks of 2025-11-25 for older clients.
//!
//! Activate it by linking: `use mcp_tasks as _;` in the application's crate
//! root (or any use of its items). Mark a tool with [`task!`] next to its
//! `#[tool]`; a client that declares the extension (2026-07-28) or asks for
//! a task (`params.task`, 2025-11-25) then gets a task handle, polls the
//! task with `tasks/get`, answers its input requests with `tasks/update`
//! (or on the `tasks/result` stream) and stops it with `tasks/cancel`.
//!
//! The extension is built on the public seams of `mcp-server` only:
//!
//! | what | seam |
//! |---|---|
//! | the task handle instead of the tool's result | an alternate-result interceptor, after guards and validation |
//! | a tool's opt-in | a customizer of that tool ([`RunsAsTask`], [`task!`]) |
//! | `tasks/get`, `tasks/update`, `tasks/cancel` (and the legacy four) | typed methods, contributed per era |
//! | the capability in `server/discover`, the legacy one in `initialize` | a capabilities customizer, per era |
//! | where records live | the one-active [`TaskStore`] seam (memory, SQLite) |
//! | who runs a task | the one-active [`ExecutionStrategy`] seam (in process) |
//! | a handler's input questions inside a task | the deferred run's requester |
//! | `notifications/tasks` for the `taskIds` a listener owns | a grant customizer, and changes published per task |
//! | settings | the `tasks` configuration section ([`config::TasksSection`]) |
//!
//! ```
//! use mcp_server::{Server, tool};
//! use mcp_server::testing::MemoryClient;
//!
//! /// Counts to a number, slowly.
//! #[tool]
//! async fn count_slowly(to: u32) -> String {
//!     format!("counted to {to}")
//! }
//! mcp_tasks::task!(count_slowly);
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let server = Server::builder().build();
//! let client = MemoryClient::new(&server).with_capabilities(
//!     serde_json::from_value(serde_json::json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})).unwrap(),
//! );
//! let handle = client.request_raw("tools/call", serde_json::json!({"name": "count_slowly", "arguments": {"to": 3}})).await.unwrap();
//! assert_eq!(handle["resultType"], "task");
//! let id = handle["taskId"].as_str().unwrap().to_owned();
//! loop {
//!     let task = client.request_raw("tasks/get", serde_json::json!({"taskId": id})).await.unwrap();
//!     if task["status"] == "completed" {
//!         assert_eq!(task["result"]["content"][0]["text"], "counted to 3");
//!         break;
//!     }
//!     tokio::time::sleep(std::time::Duration::from_millis(10)).await;
//! }
//! # });
//! ```
//!
//! The guide is [docs/tasks.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/tasks.md).

#![cfg_attr(docsrs, feature(doc_cfg))]
pub mod config;
mod create;
pub mod executor;
pub mod handoff;
mod input;
mod legacy;
mod listen;
mod methods;
pub mod record;
mod service;
pub mod store;
mod support;
pub mod tck;
mod wire;

use std::sync::Arc;

use mcp_server::boot::BootContext;
use mcp_server::core::capabilities::ServerCapabilities;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::EXTENSION_ID;
use mcp_server::core::legacy::tasks::ServerTasksCapability;
use mcp_server::core::tools::{ListTools, ListToolsResult};
use mcp_server::core::version::Era;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::ServerCapabilitiesCustomizer;
use mcp_server::seam::interceptor::{Answer, TypedInterceptor, TypedNext};
use mcp_server::seam::sink::GrantCustomizers;
use mcp_server::seam::{Extension, Item, Registration};
use mcp_server::{BoxFuture, RequestContext, origin, register};

pub use methods::{UpdateParams, UpdateTask};
pub use support::{RunsAsTask, TaskTools};

use crate::create::CreateTasks;
use crate::executor::ExecutionStrategy;
use crate::service::Tasks;
use crate::store::TaskStore;

fn extension(_: &BootContext) -> Item {
    Item::extension(
        Extension::new(EXTENSION_ID, env!("CARGO_PKG_VERSION")).advertises(Default::default()),
    )
}

fn store_seam(_: &BootContext) -> Item {
    Item::seam::<dyn TaskStore>()
}

fn executor_seam(_: &BootContext) -> Item {
    Item::seam::<dyn ExecutionStrategy>()
}

fn section(_: &BootContext) -> Item {
    Item::section::<config::TasksSection>()
}

fn methods(boot: &BootContext) -> Item {
    let tasks = Tasks::of(boot);
    Item::contributor(contributor_fn(move |into| {
        methods::contribute(&tasks, into);
        legacy::contribute(&tasks, into);
    }))
}

fn creation(boot: &BootContext) -> Item {
    Item::alternate_result_interceptor(CreateTasks {
        tasks: Tasks::of(boot),
    })
}

fn capabilities(_: &BootContext) -> Item {
    Item::capabilities(Advertise)
}

fn listeners(boot: &BootContext) -> Item {
    let processor = listen::TaskListeners {
        tasks: Tasks::of(boot),
    };
    Item::member::<GrantCustomizers>(("mcp-tasks".into(), Arc::new(processor)))
}

/// Readiness: the active task store answers a read (of a task that does
/// not exist) within two seconds, whichever store it is: a SQLite file, a
/// shared Redis, memory.
fn health(boot: &BootContext) -> Item {
    let Some(store) = boot.active::<dyn TaskStore>() else {
        return Item::inactive("no task store is active");
    };
    let check = mcp_server::seam::contributor::health::HealthCheck::new(
        "task store",
        mcp_server::seam::contributor::health::Probe::Readiness,
        move || {
            let store = store.clone();
            async move {
                store
                    .get("mcp-tasks-health-check")
                    .await
                    .map(drop)
                    .map_err(|error| error.to_string())
            }
        },
    );
    Item::health_check(check)
}

fn listing(_: &BootContext) -> Item {
    Item::typed::<ListTools>(ModernListing)
}

register!(Registration::extension(origin!(), "mcp-tasks", extension));
register!(Registration::supply(origin!(), "TaskStore", store_seam));
register!(Registration::supply(
    origin!(),
    "ExecutionStrategy",
    executor_seam
));
register!(Registration::new(origin!(), "tasks-section", 0, section));
register!(Registration::new(origin!(), "tasks-methods", 0, methods));
register!(Registration::new(origin!(), "tasks-creation", 0, creation));
register!(Registration::new(
    origin!(),
    "tasks-capabilities",
    0,
    capabilities
));
register!(Registration::new(origin!(), "tasks-listing", 0, listing));
register!(Registration::new(origin!(), "tasks-health", 0, health));
register!(Registration::new(
    origin!(),
    "tasks-listeners",
    0,
    listeners
));

/// Advertises the core tasks capability in `initialize`; the extension's
/// declaration advertises the extension in `server/discover` (never both in
/// one era).
struct Advertise;

impl ServerCapabilitiesCustomizer for Advertise {
    fn customize(&self, _: &mut ServerCapabilities, _: &BootContext) {}

    fn customize_era(&self, era: Era, capabilities: &mut ServerCapabilities, _: &BootContext) {
        if era == Era::Legacy {
            capabilities.tasks = Some(Box::new(ServerTasksCapability::tools()));
        }
    }
}

/// Keeps the 2025-11-25 `execution` member out of 2026-07-28 tool lists,
/// where the tool schema has no such member.
struct ModernListing;

impl TypedInterceptor<ListTools> for ModernListing {
    fn intercept<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: <ListTools as mcp_server::Method>::Params,
        next: TypedNext<'a, ListTools>,
    ) -> BoxFuture<'a, Result<Answer<ListToolsResult>, ErrorObject>> {
        Box::pin(async move {
            let mut answer = next.run(params).await?;
            if ctx.era() == Era::Modern
                && let Some(list) = answer.reply_mut().complete_mut()
            {
                for tool in &mut list.tools {
                    tool.execution = None;
                }
            }
            Ok(answer)
        })
    }
}
