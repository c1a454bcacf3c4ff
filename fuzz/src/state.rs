//! Real request states and task ids where an input holds the seeds'
//! placeholders for them, so that retries and task methods get past the
//! lookup of their state into the code that reads what they carry.
//!
//! Before such an input is sent, the caller makes the state for real: a
//! first call of the tool the input retries (for its `requestState`), or
//! a task (for its `taskId`); the task is cancelled after the input.

use mcp_server::Server;
use mcp_server::transport::Peer;
use memchr::memmem;
use serde_json::{Value, json};

use crate::target::PeerKind;

/// What the seeds hold where a retry carries its request state.
pub const REQUEST_STATE: &str = "c3RhdGU";

/// What the seeds hold where a task method names its task.
pub const TASK_ID: &str = "00000000-0000-4000-8000-000000000000";

/// A tool that runs as a task and waits for input, so the task it makes
/// lives while the input runs.
#[derive(Debug, Clone)]
pub struct TaskTool {
    /// Its name.
    pub name: String,
    /// Arguments it takes.
    pub arguments: Value,
}

/// An input with its placeholders filled.
#[derive(Debug)]
pub struct Filled {
    /// The bytes to send.
    pub bytes: Vec<u8>,
    /// The task made for them, to cancel after.
    pub task: Option<String>,
}

/// Fills the placeholders of `bytes` with state made by `caller`.
pub async fn fill(
    server: &Server,
    peer: &Peer,
    kind: PeerKind,
    task_tool: Option<&TaskTool>,
    bytes: &[u8],
) -> Filled {
    let mut filled = Filled {
        bytes: bytes.to_vec(),
        task: None,
    };
    if kind == PeerKind::Stateless
        && memmem::find(bytes, REQUEST_STATE.as_bytes()).is_some()
        && let Some(state) = request_state(server, peer, bytes).await
    {
        filled.bytes = replace(&filled.bytes, REQUEST_STATE, &state);
    }
    if kind != PeerKind::Connecting
        && memmem::find(bytes, TASK_ID.as_bytes()).is_some()
        && let Some(tool) = task_tool
        && let Some(task) = make_task(server, peer, kind, tool).await
    {
        filled.bytes = replace(&filled.bytes, TASK_ID, &task);
        filled.task = Some(task);
    }
    filled
}

/// Cancels the task made for an input.
pub async fn cancel(server: &Server, peer: &Peer, kind: PeerKind, task: &str) {
    let params = match kind {
        PeerKind::Stateless => with_meta(json!({"taskId": task})),
        _ => json!({"taskId": task}),
    };
    let _ = send(server, peer, "tasks/cancel", params).await;
}

/// The request state of a first call of the tool `bytes` call, with the
/// same arguments.
async fn request_state(server: &Server, peer: &Peer, bytes: &[u8]) -> Option<String> {
    let message: Value = serde_json::from_slice(bytes).ok()?;
    let params = message.get("params")?;
    let name = params.get("name")?.as_str()?;
    let arguments = params
        .get("arguments")
        .filter(|a| a.is_object())
        .cloned()
        .unwrap_or_else(|| json!({}));
    let params = with_meta(json!({"name": name, "arguments": arguments}));
    let result = send(server, peer, "tools/call", params).await?;
    Some(result.get("requestState")?.as_str()?.to_owned())
}

/// A task made by calling `tool` as a task; its id.
async fn make_task(
    server: &Server,
    peer: &Peer,
    kind: PeerKind,
    tool: &TaskTool,
) -> Option<String> {
    let call = json!({"name": tool.name, "arguments": tool.arguments});
    let result = match kind {
        PeerKind::Stateless => send(server, peer, "tools/call", with_meta(call)).await?,
        _ => {
            let mut call = call;
            call["task"] = json!({"ttl": 60_000});
            send(server, peer, "tools/call", call).await?
        }
    };
    let id = result
        .get("taskId")
        .or_else(|| result.get("task")?.get("taskId"))?;
    Some(id.as_str()?.to_owned())
}

/// Sends a request; its result, if it has one.
async fn send(server: &Server, peer: &Peer, method: &str, params: Value) -> Option<Value> {
    let request = json!({"jsonrpc": "2.0", "id": "state", "method": method, "params": params});
    let bytes = serde_json::to_vec(&request).ok()?;
    let reply = server.handle(&bytes, peer).await?;
    let mut reply: Value = serde_json::from_slice(&reply).ok()?;
    Some(reply.get_mut("result")?.take())
}

/// `params` with a 2026-07-28 `_meta` declaring every capability a tool
/// may ask for, the tasks extension included.
fn with_meta(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {
            "elicitation": {"form": {}, "url": {}},
            "sampling": {},
            "roots": {},
            "extensions": {"io.modelcontextprotocol/tasks": {}}
        }
    });
    params
}

/// `bytes` with every `placeholder` replaced by `value`.
fn replace(bytes: &[u8], placeholder: &str, value: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + value.len());
    let mut rest = bytes;
    while let Some(at) = memmem::find(rest, placeholder.as_bytes()) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(value.as_bytes());
        rest = &rest[at + placeholder.len()..];
    }
    out.extend_from_slice(rest);
    out
}
