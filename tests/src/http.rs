//! Streamable HTTP as the tests speak it: requests of both protocol eras
//! built with their standard headers, sent to an in-process
//! [`axum::Router`] and read back as JSON or as server-sent events; and a
//! server process of a test's own on a free loopback port, spoken to in
//! plain HTTP/1.1 over TCP.
//!
//! ```
//! use axum::Router;
//! use axum::routing::post as route_post;
//! use mcp_tests::http::{VERSION, json_body, post_modern, send};
//! use serde_json::json;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let app = Router::new().route(
//!     "/mcp",
//!     route_post(|| async { ([("content-type", "application/json")], r#"{"ok":true}"#) }),
//! );
//! let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
//! let request = post_modern("tools/list", None, &body);
//! assert_eq!(request.headers()["mcp-protocol-version"], VERSION);
//! assert_eq!(request.headers()["mcp-method"], "tools/list");
//! assert_eq!(json_body(send(&app, request).await).await, json!({"ok": true}));
//! # });
//! ```

use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, BodyDataStream, to_bytes};
use axum::http::{Request, Response, StatusCode};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tower::ServiceExt;

pub use crate::sse::Event;

/// The modern protocol version, whose requests stand alone.
pub const VERSION: &str = "2026-07-28";

/// The legacy protocol version, whose requests live in sessions.
pub const LEGACY: &str = "2025-11-25";

/// The standard headers of a modern request of `method`, naming `name` when given.
///
/// ```
/// use mcp_tests::http::{VERSION, headers};
///
/// assert_eq!(
///     headers("tools/call", Some("echo")),
///     [("mcp-protocol-version", VERSION), ("mcp-method", "tools/call"), ("mcp-name", "echo")]
/// );
/// ```
pub fn headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("mcp-protocol-version", VERSION), ("mcp-method", method)];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    headers
}

/// A legacy POST of `body`, on `session` (with the legacy version header) when given.
///
/// ```
/// use mcp_tests::http::{LEGACY, post};
/// use serde_json::json;
///
/// let request = post(Some("abc"), &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
/// assert_eq!(request.headers()["mcp-session-id"], "abc");
/// assert_eq!(request.headers()["mcp-protocol-version"], LEGACY);
/// assert!(post(None, &json!({})).headers().get("mcp-session-id").is_none());
/// ```
pub fn post(session: Option<&str>, body: &Value) -> Request<Body> {
    let mut sent = Vec::new();
    if let Some(session) = session {
        sent.push(("mcp-session-id", session));
        sent.push(("mcp-protocol-version", LEGACY));
    }
    post_json(&sent, body)
}

/// A modern POST of `body` with the standard headers of `method` and `name`.
pub fn post_modern(method: &str, name: Option<&str>, body: &Value) -> Request<Body> {
    post_json(&headers(method, name), body)
}

/// A POST with exactly these headers (besides content negotiation) and the JSON `body`.
pub fn post_json(headers: &[(&str, &str)], body: &Value) -> Request<Body> {
    post_bytes(headers, serde_json::to_vec(body).unwrap())
}

/// A POST with exactly these headers (besides content negotiation) and body bytes.
///
/// ```
/// use mcp_tests::http::post_bytes;
///
/// let request = post_bytes(&[("mcp-method", "ping")], b"{".to_vec());
/// assert_eq!(request.headers()["content-type"], "application/json");
/// assert_eq!(request.headers()["accept"], "application/json, text/event-stream");
/// assert_eq!(request.headers()["mcp-method"], "ping");
/// assert!(request.headers().get("mcp-protocol-version").is_none());
/// ```
pub fn post_bytes(headers: &[(&str, &str)], body: Vec<u8>) -> Request<Body> {
    let mut request = Request::post("/mcp")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::from(body)).unwrap()
}

/// A modern `tools/call` body of tool `name` whose `_meta` has the version and no capabilities.
pub fn call_body(id: i64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "_meta": {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {}
    }}})
}

/// Sends `request` to `app` in process (tower's `oneshot`); its response.
pub async fn send(app: &Router, request: Request<Body>) -> Response<Body> {
    app.clone().oneshot(request).await.unwrap()
}

/// Whether `response` is a stream of server-sent events.
fn is_event_stream(response: &Response<Body>) -> bool {
    response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"))
}

/// The JSON body of `response`: the body itself, or from an SSE stream the
/// message that answers the request (the first with a `result` or an `error`).
///
/// # Panics
///
/// When the body is not JSON, or the stream ends without an answer.
///
/// ```
/// use axum::body::Body;
/// use axum::http::Response;
/// use mcp_tests::http::json_body;
/// use serde_json::json;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let stream = "id: 1\ndata:\n\ndata: {\"method\":\"notifications/progress\"}\n\n\
///               data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
/// let response = Response::builder()
///     .header("content-type", "text/event-stream")
///     .body(Body::from(stream))
///     .unwrap();
/// assert_eq!(json_body(response).await, json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
/// # });
/// ```
pub async fn json_body(response: Response<Body>) -> Value {
    if is_event_stream(&response) {
        let mut events = Events::unchecked(response);
        while let Some(event) = events.next().await {
            if event.data.is_empty() {
                continue;
            }
            let message = event.json();
            if message.get("result").is_some() || message.get("error").is_some() {
                return message;
            }
        }
        panic!("the stream ended without an answer: {}", events.raw);
    }
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "the body is not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    })
}

/// The status of `response` and its JSON body as [`json_body`] reads it,
/// `null` for a body that is not JSON (an empty one, say).
pub async fn json_of(response: Response<Body>) -> (StatusCode, Value) {
    let status = response.status();
    if is_event_stream(&response) {
        return (status, json_body(response).await);
    }
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Sends `request` to `app`; the status and JSON body of a response that must be JSON.
pub async fn answer(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = send(app, request).await;
    let status = response.status();
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "a JSON-RPC answer is JSON"
    );
    (status, json_body(response).await)
}

/// Initializes a legacy session on `app` with no client capabilities; its id.
///
/// ```
/// use mcp_server::Server;
/// use mcp_server::transport::http::{HttpConfig, router};
/// use mcp_tests::http::{answer, initialize, post};
/// use serde_json::json;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let server = Server::builder().named("doc", "1.0.0").without_linked().build();
/// let app = router(server, "/mcp", HttpConfig::default());
/// let session = initialize(&app).await;
/// let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
/// let (status, body) = answer(&app, post(Some(&session), &ping)).await;
/// assert_eq!(status, 200);
/// assert_eq!(body["result"], json!({}));
/// # });
/// ```
pub async fn initialize(app: &Router) -> String {
    initialize_with(app, json!({})).await
}

/// Initializes a legacy session on `app` whose client declared `capabilities`; its id.
pub async fn initialize_with(app: &Router, capabilities: Value) -> String {
    let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": capabilities,
        "clientInfo": {"name": "old", "version": "1"}}});
    let response = send(app, post(None, &body)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        send(app, post(Some(&session), &initialized)).await.status(),
        StatusCode::ACCEPTED
    );
    session
}

/// The events of an SSE response body, read as they arrive.
pub struct Events {
    body: BodyDataStream,
    buffer: String,
    /// Everything read so far, as sent.
    pub raw: String,
}

impl fmt::Debug for Events {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Events")
            .field("buffer", &self.buffer)
            .field("raw", &self.raw)
            .finish_non_exhaustive()
    }
}

impl Events {
    /// The events of `response`, which must be a `200` SSE stream.
    pub fn of(response: Response<Body>) -> Self {
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Self::unchecked(response)
    }

    /// The events of `response`, whatever its status and content type.
    pub fn unchecked(response: Response<Body>) -> Self {
        Self {
            body: response.into_body().into_data_stream(),
            buffer: String::new(),
            raw: String::new(),
        }
    }

    /// The next event (comments skipped); `None` when the stream ends.
    ///
    /// # Panics
    ///
    /// When the stream neither goes on nor ends within 5 s.
    pub async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = crate::sse::next_event(&mut self.buffer) {
                return Some(event);
            }
            let chunk = tokio::time::timeout(Duration::from_secs(5), self.body.next())
                .await
                .expect("the stream goes on or ends within 5 s")?
                .unwrap();
            let text = std::str::from_utf8(&chunk).unwrap();
            self.raw.push_str(text);
            self.buffer.push_str(text);
        }
    }

    /// Every remaining event, to the end of the stream.
    pub async fn rest(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            events.push(event);
        }
        events
    }

    /// Whether nothing arrives within `wait` (the stream neither ends nor speaks).
    pub async fn silent_for(&mut self, wait: Duration) -> bool {
        self.buffer.is_empty() && tokio::time::timeout(wait, self.body.next()).await.is_err()
    }
}

/// Asserts a JSON-RPC error response with this code, and this id or none at all.
///
/// ```
/// use mcp_tests::http::assert_error;
/// use serde_json::json;
///
/// let body = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "no"}});
/// assert_error(&body, -32601, Some(json!(3)));
/// ```
pub fn assert_error(body: &Value, code: i64, id: Option<Value>) {
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(body["error"]["message"].is_string(), "{body}");
    assert!(body.get("result").is_none(), "{body}");
    match id {
        Some(id) => assert_eq!(body["id"], id, "{body}"),
        None => assert!(body.get("id").is_none(), "no id was read: {body}"),
    }
}

/// A port of the loopback interface that is free when asked (another
/// process may take it before it is used).
pub fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Why a process did not come to listen.
#[derive(Debug)]
pub enum NotListening {
    /// It exited first, with this status.
    Exited(ExitStatus),
    /// It was still running, not listening, when the time ran out.
    TimedOut,
}

/// Waits until `port` of the loopback interface accepts connections, for
/// at most `limit`; an error when `child` exits first or time runs out.
pub fn wait_until_listening(
    child: &mut Child,
    port: u16,
    limit: Duration,
) -> Result<(), NotListening> {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            return Err(NotListening::Exited(status));
        }
        if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(NotListening::TimedOut);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long [`spawn_listening`] waits for a process to listen.
const LISTEN_LIMIT: Duration = Duration::from_secs(30);

/// Spawns `command` (a binary with its arguments and environment), which
/// is to listen on `port` of the loopback interface, and waits until it does.
///
/// # Panics
///
/// When it cannot be spawned, exits first, or does not listen within 30 s.
///
/// ```no_run
/// use std::process::{Command, Stdio};
/// use mcp_tests::http::{free_port, spawn_listening};
///
/// let port = free_port();
/// let server = spawn_listening(
///     Command::new("mcp-demo")
///         .args(["--http", &format!("127.0.0.1:{port}")])
///         .env("RUST_LOG", "warn")
///         .stdout(Stdio::null())
///         .stderr(Stdio::null()),
///     port,
/// );
/// assert_eq!(server.port(), port);
/// ```
pub fn spawn_listening(command: &mut Command, port: u16) -> ServerProcess {
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("{program} does not start: {e}"));
    match wait_until_listening(&mut child, port, LISTEN_LIMIT) {
        Ok(()) => ServerProcess { child, port },
        Err(NotListening::Exited(status)) => {
            panic!("{program} exited ({status}) before it listened on port {port}")
        }
        Err(NotListening::TimedOut) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{program} did not listen on port {port} within {LISTEN_LIMIT:?}")
        }
    }
}

/// A server process of a test's own, listening on a loopback port and
/// spoken to in HTTP/1.1; killed with SIGKILL when dropped.
#[derive(Debug)]
pub struct ServerProcess {
    child: Child,
    port: u16,
}

impl ServerProcess {
    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Sends it SIGTERM, as an orchestrator does to begin a shutdown.
    pub fn terminate(&self) {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
    }

    /// Its exit status, if it exits within `within`.
    pub fn wait_for_exit(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let until = std::time::Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends a `GET` to `path`; its status, headers and body reader.
    pub fn get(&self, path: &str) -> Reply {
        http1_request(self.port, "GET", path, &[], b"")
    }

    /// Kills it with SIGKILL: nothing it has not written yet gets written.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends one request of `method` to its `/mcp` with `headers` and the
    /// JSON `body` if any; its status, headers and body reader.
    pub fn send(&self, method: &str, headers: &[(&str, &str)], body: Option<&Value>) -> Reply {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        http1_request(self.port, method, "/mcp", headers, body.as_bytes())
    }

    /// Sends a 2026-07-28 request of `method` (naming `name`, when it has
    /// a target) with `params` to its `/mcp`, with the headers and `_meta`
    /// the revision asks for; the JSON-RPC response.
    pub fn request(&self, method: &str, name: Option<&str>, params: Value) -> Value {
        self.request_declaring(method, name, params, serde_json::json!({}))
    }

    /// [`request`](Self::request), from a client that declares `capabilities`
    /// (extensions among them).
    pub fn request_declaring(
        &self,
        method: &str,
        name: Option<&str>,
        mut params: Value,
        capabilities: Value,
    ) -> Value {
        params["_meta"] = serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        });
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let mut headers = headers(method, name);
        headers.push(("Content-Type", "application/json"));
        headers.push(("Accept", "application/json, text/event-stream"));
        self.send("POST", &headers, Some(&body)).json()
    }

    /// POSTs `message` to its `/mcp`, in `session` (with the legacy version header) when given.
    pub fn post(&self, session: Option<&str>, message: &Value) -> Reply {
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        if let Some(session) = session {
            headers.push(("Mcp-Session-Id", session));
            headers.push(("Mcp-Protocol-Version", LEGACY));
        }
        self.send("POST", &headers, Some(message))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Sends one HTTP/1.1 request (`Connection: close`) to `path` on `port` of
/// the loopback interface over a new TCP connection; its status, headers
/// and body reader. The answer must start within 10 s.
///
/// ```
/// use std::io::{BufRead, BufReader, Write};
/// use std::net::TcpListener;
/// use mcp_tests::http::http1_request;
///
/// let listener = TcpListener::bind("127.0.0.1:0").unwrap();
/// let port = listener.local_addr().unwrap().port();
/// let server = std::thread::spawn(move || {
///     let (stream, _) = listener.accept().unwrap();
///     let mut reader = BufReader::new(stream);
///     let mut line = String::new();
///     while line != "\r\n" {
///         line.clear();
///         reader.read_line(&mut line).unwrap();
///     }
///     reader.get_mut().write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
///         Transfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n").unwrap();
/// });
/// let reply = http1_request(port, "GET", "/mcp", &[("Accept", "application/json")], b"");
/// assert_eq!(reply.status, 200);
/// assert_eq!(reply.headers["content-type"], "application/json");
/// assert_eq!(reply.json(), serde_json::json!({"a": 1}));
/// server.join().unwrap();
/// ```
pub fn http1_request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    try_http1_request(port, method, path, headers, body, Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("{method} {path} on port {port}: {e}"))
}

/// Sends one request as [`http1_request`] does, waiting up to `patience`
/// for each read; the error when the connection is refused, breaks or
/// stays silent before a status line arrives (a client that retries
/// elsewhere tells these apart from an answer).
///
/// # Errors
///
/// When no status line and headers arrive.
pub fn try_http1_request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    patience: Duration,
) -> std::io::Result<Reply> {
    let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port))?;
    stream.set_read_timeout(Some(patience))?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status)?;
    let status = status
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("no HTTP/1.1 status line: {status:?}"),
            )
        })?;
    let mut headers = HashMap::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a header: {line:?}"),
            )
        })?;
        headers.insert(name.to_ascii_lowercase(), value.trim().to_owned());
    }
    let chunked = headers
        .get("transfer-encoding")
        .is_some_and(|t| t.eq_ignore_ascii_case("chunked"));
    Ok(Reply {
        status,
        headers,
        body: BufReader::new(Http1Body {
            reader,
            chunked,
            left: 0,
            done: false,
        }),
        buffer: String::new(),
    })
}

/// An HTTP/1.1 response: its status, headers and body.
#[derive(Debug)]
pub struct Reply {
    /// Its status code.
    pub status: u16,
    /// Its headers, by lowercase name.
    pub headers: HashMap<String, String>,
    body: BufReader<Http1Body>,
    /// What was read off the body and not taken as an event yet.
    buffer: String,
}

impl Reply {
    /// The whole body, parsed as JSON.
    ///
    /// # Panics
    ///
    /// When it is not JSON.
    pub fn json(self) -> Value {
        self.try_json().unwrap_or_else(|why| panic!("JSON: {why}"))
    }

    /// The whole body as JSON, or why it could not be read or parsed
    /// (a connection broken mid-body, say).
    ///
    /// # Errors
    ///
    /// When the body breaks off or is not JSON.
    pub fn try_json(mut self) -> Result<Value, String> {
        let mut text = String::new();
        self.body
            .read_to_string(&mut text)
            .map_err(|e| format!("the body broke off: {e}"))?;
        serde_json::from_str(&text).map_err(|_| format!("not JSON: {text}"))
    }

    /// The next SSE event with fields; `None` at the end of the body.
    pub fn event(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = crate::sse::next_event(&mut self.buffer) {
                return Some(event);
            }
            let mut chunk = [0u8; 4096];
            let n = self.body.read(&mut chunk).ok()?;
            if n == 0 {
                return None;
            }
            self.buffer
                .push_str(std::str::from_utf8(&chunk[..n]).unwrap());
        }
    }

    /// Every event until the body ends.
    pub fn events(mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some(event) = self.event() {
            events.push(event);
        }
        events
    }
}

/// An HTTP/1.1 response body: chunked, or until the connection closes.
#[derive(Debug)]
struct Http1Body {
    reader: BufReader<TcpStream>,
    chunked: bool,
    left: usize,
    done: bool,
}

impl Read for Http1Body {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.chunked {
            return self.reader.read(buf);
        }
        if self.done {
            return Ok(0);
        }
        if self.left == 0 {
            let mut size = String::new();
            self.reader.read_line(&mut size)?;
            self.left = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if self.left == 0 {
                self.done = true;
                return Ok(0);
            }
        }
        let wanted = buf.len().min(self.left);
        let n = self.reader.read(&mut buf[..wanted])?;
        self.left -= n;
        if self.left == 0 {
            let mut end = String::new();
            self.reader.read_line(&mut end)?;
        }
        Ok(n)
    }
}
