//! The server under test, and what an input goes through: the envelope
//! decoder of `mcp-core` and `Server::handle` of the demo server (sent by
//! one kind of caller, with what came back checked), or one of its
//! transports ([`crate::http`], [`crate::stdio`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_server::Server;
use mcp_server::context::Session;
use mcp_server::core::jsonrpc;
use mcp_server::transport::Peer;
use serde_json::json;
use tokio::sync::OnceCell;
use tokio_util::sync::CancellationToken;

use crate::busy::Busy;
use crate::check::{self, Invalid};
use crate::http::HttpTarget;
use crate::state::{self, TaskTool};
use crate::stdio::StdioTarget;

/// What an input is fed through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TargetKind {
    /// The envelope decoder and `Server::handle`, by a [`PeerKind`].
    Dispatch,
    /// The Streamable HTTP router, one request per input ([`crate::http`]).
    Http,
    /// The stdio transport over in-memory pipes, one connection per input
    /// ([`crate::stdio`]).
    Stdio,
}

impl TargetKind {
    /// Every target.
    pub const ALL: [Self; 3] = [Self::Dispatch, Self::Http, Self::Stdio];

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Dispatch => "dispatch",
            Self::Http => "http",
            Self::Stdio => "stdio",
        }
    }

    /// The target named `name`.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Its position in [`Self::ALL`].
    pub fn slot(self) -> usize {
        match self {
            Self::Dispatch => 0,
            Self::Http => 1,
            Self::Stdio => 2,
        }
    }
}

/// Who sends an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PeerKind {
    /// A 2026-07-28 caller on no connection.
    Stateless,
    /// A connection that has not been initialized (where `initialize` lands).
    Connecting,
    /// A 2025-11-25 session, after `initialize` and `notifications/initialized`.
    Session,
    /// One 2025-11-25 session that every input of this kind shares, on
    /// every thread at once: what one input leaves in it (subscriptions,
    /// a log level) the next one meets.
    SharedSession,
}

impl PeerKind {
    /// Every kind of caller.
    pub const ALL: [Self; 4] = [
        Self::Stateless,
        Self::Connecting,
        Self::Session,
        Self::SharedSession,
    ];

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Stateless => "stateless",
            Self::Connecting => "connecting",
            Self::Session => "session",
            Self::SharedSession => "shared session",
        }
    }
}

/// How long a caller waits for its reply before it cancels the request,
/// as a client that goes away does: requests that wait for the client
/// (`subscriptions/listen`, a blocking `tasks/result`) end then.
pub const PATIENCE: Duration = Duration::from_millis(250);

/// The server under test, with its transports.
#[derive(Debug, Clone)]
pub struct Target {
    server: Server,
    task_tool: Option<TaskTool>,
    /// The session of [`PeerKind::SharedSession`], once initialized.
    shared: Arc<OnceCell<Arc<Session>>>,
    /// The Streamable HTTP router over the same server.
    http: Arc<HttpTarget>,
    /// The stdio transport over the same server.
    stdio: Arc<StdioTarget>,
}

impl Target {
    /// The demo server, booted without reading the environment; its
    /// `confirm_delete` makes the tasks inputs name. Its drain lasts 1 s:
    /// stdio answers what it read before it ends, so a stdio input naming
    /// a slow tool ends within the harness's time limit only if the drain
    /// cuts it first.
    pub fn demo() -> Self {
        let server = mcp_demo::builder()
            .without_environment()
            .setting("server.drain_timeout_s", 1)
            .build();
        Self::new(server).with_task_tool(TaskTool {
            name: "confirm_delete".into(),
            arguments: json!({"filename": "notes.txt"}),
        })
    }

    /// Any server, with its Streamable HTTP router (default limits, at
    /// `/mcp`) and its stdio transport.
    pub fn new(server: Server) -> Self {
        Self {
            http: Arc::new(HttpTarget::new(server.clone())),
            stdio: Arc::new(StdioTarget::new(server.clone())),
            server,
            task_tool: None,
            shared: Arc::default(),
        }
    }

    /// With `tool` making the tasks that inputs naming a task get.
    #[must_use]
    pub fn with_task_tool(mut self, tool: TaskTool) -> Self {
        self.task_tool = Some(tool);
        self
    }

    /// The server.
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// Its Streamable HTTP endpoint.
    pub fn http(&self) -> &HttpTarget {
        &self.http
    }

    /// Its stdio transport.
    pub fn stdio(&self) -> &StdioTarget {
        &self.stdio
    }

    /// What the transports saw, a line each (HTTP statuses, stdio lines),
    /// for those that were used.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if !self.http.is_unused() {
            notes.push(self.http.note());
        }
        if !self.stdio.is_unused() {
            notes.push(self.stdio.note());
        }
        notes
    }

    /// Decodes `bytes` and sends them to the server by a caller of `kind`
    /// (with the placeholders of [`state`] filled for real), and checks the
    /// reply. Returns the time the framework spent on them: the
    /// decoding, and the polls of `Server::handle` (the checks aside).
    ///
    /// # Errors
    ///
    /// What is wrong with the decoder's reading or with the reply.
    pub async fn run(&self, bytes: &[u8], kind: PeerKind) -> Result<Duration, Invalid> {
        let cancellation = CancellationToken::new();
        let peer = self
            .peer(kind)
            .await?
            .with_cancellation(cancellation.clone());
        let filled = state::fill(&self.server, &peer, kind, self.task_tool.as_ref(), bytes).await;
        let started = Instant::now();
        let decoded = jsonrpc::decode(&filled.bytes);
        let decoding = started.elapsed();
        if let Ok(message) = &decoded {
            check::round_trip(message)?;
        }
        let mut serving = Busy::new(self.server.handle(&filled.bytes, &peer));
        let (reply, handling) = tokio::select! {
            served = &mut serving => served,
            () = tokio::time::sleep(PATIENCE) => {
                cancellation.cancel();
                serving.await
            }
        };
        if let Some(task) = &filled.task {
            state::cancel(&self.server, &peer, kind, task).await;
        }
        check::reply(&decoded, reply.as_deref())?;
        Ok(decoding + handling)
    }

    /// A peer of `kind`, on a session of its own (or the shared one).
    async fn peer(&self, kind: PeerKind) -> Result<Peer, Invalid> {
        Ok(match kind {
            PeerKind::Stateless => Peer::modern(),
            PeerKind::Connecting => Peer::on(Arc::new(Session::default())),
            PeerKind::Session => Peer::on(self.session().await?),
            PeerKind::SharedSession => {
                let shared = self.shared.get_or_try_init(|| self.session()).await?;
                Peer::on(shared.clone())
            }
        })
    }

    /// A session after `initialize` and `notifications/initialized`.
    async fn session(&self) -> Result<Arc<Session>, Invalid> {
        let session = Arc::new(Session::default());
        let peer = Peer::on(session.clone());
        let reply = self.server.handle(&initialize(), &peer).await;
        let answered = reply
            .as_deref()
            .and_then(|r| serde_json::from_slice::<serde_json::Value>(r).ok())
            .is_some_and(|r| r.get("result").is_some());
        if !answered {
            let reply = reply.as_deref().map(check::preview);
            return Err(Invalid(format!(
                "the session's initialize failed: {reply:?}"
            )));
        }
        let initialized = initialized_notification();
        let initialized = serde_json::to_vec(&initialized).unwrap_or_default();
        if let Some(reply) = self.server.handle(&initialized, &peer).await {
            return Err(Invalid(format!(
                "a reply to notifications/initialized: {}",
                check::preview(&reply)
            )));
        }
        Ok(session)
    }
}

/// The notification that follows `initialize` on every session of every target.
pub fn initialized_notification() -> serde_json::Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

/// The `initialize` request, with `id`, that opens every session of every
/// target: the latest legacy version, with every client capability.
pub fn initialize_request(id: impl Into<serde_json::Value>) -> serde_json::Value {
    let id = id.into();
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "initialize",
        "params": {
            "protocolVersion": mcp_server::core::version::LATEST_LEGACY,
            "capabilities": {
                "roots": {"listChanged": true},
                "sampling": {},
                "elicitation": {"form": {}, "url": {}},
                "tasks": {"requests": {"tools": {"call": {}}}}
            },
            "clientInfo": {"name": "mcp-fuzz", "version": env!("CARGO_PKG_VERSION")}
        }
    })
}

fn initialize() -> Vec<u8> {
    serde_json::to_vec(&initialize_request(0)).unwrap_or_default()
}
