//! Observers: the fire-and-forget kind. An observer is handed a copy of
//! each payload of the events it hooks, on its own task, and the payload
//! goes on at once: an observer never delays, blocks or changes anything,
//! and its failures are its own.
//!
//! Observers are this crate's own kind (SEP-1763 named it; SEP-2624 has
//! validators and mutators only), so `interceptors/list` does not list
//! them and `interceptor/invoke` cannot run them: they observe the
//! server's own traffic, requests and results it serves and the
//! client-feature requests it sends with their answers.
//!
//! ```
//! use mcp_interceptors::{Observer, observed};
//! use mcp_interceptors::wire::Phase;
//! use mcp_server::seam::Registration;
//! use mcp_server::{origin, register};
//!
//! fn request_logger(_: &mcp_server::boot::BootContext) -> mcp_server::seam::Item {
//!     observed(Observer::new("request-logger").on(Phase::Request, ["tools/call"]).run(
//!         |invocation| async move {
//!             tracing::info!(event = invocation.event(), "called");
//!         },
//!     ))
//! }
//! register!(Registration::new(origin!(), "request-logger", 0, request_logger));
//! ```

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::BoxFuture;
use mcp_server::RequestContext;
use mcp_server::core::json::JsonValue;
use mcp_server::seam::{Item, Kind, SeamWord};

use crate::invocation::Invocation;
use crate::wire::{EVERY_EVENT, Phase};

/// How many observer runs may be pending at once; past it, an
/// observation is dropped (and counted) rather than queued.
pub const MAX_PENDING: usize = 1024;

static PENDING: AtomicUsize = AtomicUsize::new(0);
static DROPPED: AtomicUsize = AtomicUsize::new(0);

type Run = Arc<dyn Fn(Invocation) -> BoxFuture<'static, ()> + Send + Sync>;

/// A fire-and-forget interceptor: a name, the events it hooks per phase,
/// and what it runs on a copy of each payload.
#[derive(Clone)]
pub struct Observer {
    name: String,
    hooks: Vec<(Phase, String)>,
    run: Option<Run>,
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observer")
            .field("name", &self.name)
            .field("hooks", &self.hooks)
            .finish_non_exhaustive()
    }
}

impl Observer {
    /// An observer named `name` that hooks nothing yet.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            hooks: Vec::new(),
            run: None,
        }
    }

    /// Hooks `events` (method names, or `*`) in `phase`.
    #[must_use]
    pub fn on<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        phase: Phase,
        events: I,
    ) -> Self {
        self.hooks
            .extend(events.into_iter().map(|e| (phase, e.into())));
        self
    }

    /// Runs `f` on a copy of each payload it hooks, on a task of its own.
    #[must_use]
    pub fn run<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(Invocation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.run = Some(Arc::new(move |invocation| Box::pin(f(invocation))));
        self
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn hooks(&self, event: &str, phase: Phase) -> bool {
        self.hooks
            .iter()
            .any(|(p, e)| *p == phase && (e == event || e == EVERY_EVENT))
    }
}

/// The kind of observers, a sink (one-way, fire-and-forget): one per name.
#[derive(Debug)]
pub struct Observers;

impl Kind for Observers {
    type Member = Observer;
    const NAME: &'static str = "observer sink";
    const CODE: &'static str = "mcp_interceptors::duplicate_observer";
    const WORD: SeamWord = SeamWord::Sink;
    fn key(member: &Observer) -> String {
        member.name.clone()
    }
}

/// Registers `observer`.
pub fn observed(observer: Observer) -> Item {
    Item::member::<Observers>(observer)
}

/// How many observations were dropped because [`MAX_PENDING`] runs were
/// pending, since the process started.
pub fn dropped() -> usize {
    DROPPED.load(Ordering::Relaxed)
}

/// Whether some observer hooks `event` in either phase.
pub(crate) fn hooked(ctx: &RequestContext, event: &str) -> bool {
    ctx.members::<Observers>()
        .iter()
        .any(|o| o.hooks(event, Phase::Request) || o.hooks(event, Phase::Response))
}

/// Hands a copy of `payload` to every observer of `event` in `phase`, each
/// on a task of its own; returns at once.
pub(crate) fn notice(ctx: &RequestContext, event: &str, phase: Phase, payload: &JsonValue) {
    let observers = ctx.members::<Observers>();
    if observers.is_empty() {
        return;
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    for observer in observers.iter().filter(|o| o.hooks(event, phase)) {
        let Some(run) = observer.run.clone() else {
            continue;
        };
        if PENDING.fetch_add(1, Ordering::Relaxed) >= MAX_PENDING {
            PENDING.fetch_sub(1, Ordering::Relaxed);
            DROPPED.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(target: "mcp_interceptors", observer = observer.name(), event, "an observation was dropped: too many are pending");
            continue;
        }
        let mut invocation = Invocation::new(event, phase, payload.clone());
        invocation.principal = ctx.principal().clone();
        runtime.spawn(async move {
            /// Counts the run as done however it ends.
            struct Done;
            impl Drop for Done {
                fn drop(&mut self) {
                    PENDING.fetch_sub(1, Ordering::Relaxed);
                }
            }
            let _done = Done;
            run(invocation).await;
        });
    }
}
