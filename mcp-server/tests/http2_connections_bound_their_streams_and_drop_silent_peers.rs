//! `serve_on_with` bounds the streams one HTTP/2 connection may hold at
//! once, advertising the limit and refusing a stream beyond it, and pings
//! silent connections, closing one whose peer stops answering with every
//! stream on it. `serve_until_drained` sends `GOAWAY` when its drain
//! begins and still answers the streams the connection holds.
//!
//! A raw client (`support::h2`) sends and reads the frames, since hyper's
//! client keeps within the limit and answers pings on its own.

#![cfg(feature = "http2")]

mod support;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mcp_server::Server;
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::handler_fn;
use mcp_server::transport::http::{HttpConfig, bind, router, serve_on_with, serve_until_drained};
use mcp_tests::http::{VERSION, call_body};
use serde_json::json;
use support::h2::{
    ACK, DATA, END_STREAM, GOAWAY, MAX_CONCURRENT_STREAMS, PING, REFUSED_STREAM, RST_STREAM, RawH2,
};
use support::{server_with, tool};
use tokio::sync::Semaphore;

/// Gates of the tool `slow`: it adds a permit to `started`, then waits
/// for one of `release`.
#[derive(Clone)]
struct Gates {
    started: Arc<Semaphore>,
    release: Arc<Semaphore>,
}

impl Default for Gates {
    fn default() -> Self {
        Self {
            started: Arc::new(Semaphore::new(0)),
            release: Arc::new(Semaphore::new(0)),
        }
    }
}

impl Gates {
    /// Waits until `count` more calls of `slow` have started.
    async fn started(&self, count: u32) {
        let started =
            tokio::time::timeout(Duration::from_secs(10), self.started.acquire_many(count))
                .await
                .expect("the calls start within 10 s");
        started.unwrap().forget();
    }
}

/// A server with a tool `slow` that waits on `gates`.
fn slow_server(gates: &Gates) -> Server {
    let gates = gates.clone();
    server_with(move |c| {
        let gates = gates.clone();
        c.tool(
            tool("slow"),
            handler_fn::<CallTool, _, _, _>(move |_, _| {
                let gates = gates.clone();
                async move {
                    gates.started.add_permits(1);
                    gates.release.acquire().await.unwrap().forget();
                    Ok(CallToolResult::text("slow done"))
                }
            }),
        );
    })
}

/// Serves an endpoint with a tool `slow` and `config` on a loopback port;
/// its address and server.
async fn serving(config: HttpConfig, gates: &Gates) -> (SocketAddr, Server) {
    let server = slow_server(gates);
    let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = listener.local_addr().unwrap();
    let app = router(server.clone(), "/mcp", config.clone());
    tokio::spawn(async move { serve_on_with(listener, app, &config).await });
    (addr, server)
}

/// The headers of a modern request of `method`.
fn modern(method: &'static str, name: Option<&'static str>) -> Vec<(&'static str, &'static str)> {
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", VERSION),
        ("mcp-method", method),
    ];
    headers.extend(name.map(|name| ("mcp-name", name)));
    headers
}

/// Opens stream `stream` with a modern call of `slow`.
async fn call_slow(peer: &mut RawH2, stream: u32) {
    let body = serde_json::to_vec(&call_body(stream.into(), "slow")).unwrap();
    peer.open_post(stream, &modern("tools/call", Some("slow")), &body)
        .await;
}

/// The next frame on `stream`, those on others skipped.
async fn next_on(peer: &mut RawH2, stream: u32) -> support::h2::Frame {
    loop {
        let frame = peer.next().await.expect("the connection stays open");
        if frame.stream == stream {
            return frame;
        }
    }
}

/// The bodies of the next `count` responses on `streams` to end, by
/// stream; frames on other streams skipped.
async fn answers(peer: &mut RawH2, streams: &[u32], count: usize) -> HashMap<u32, String> {
    let mut bodies: HashMap<u32, String> = HashMap::new();
    let mut ended = HashMap::new();
    while ended.len() < count {
        let frame = peer.next().await.expect("the connection stays open");
        if !streams.contains(&frame.stream) {
            continue;
        }
        assert_ne!(frame.kind, RST_STREAM, "{frame:?}");
        if frame.kind == DATA {
            let body = bodies.entry(frame.stream).or_default();
            body.push_str(std::str::from_utf8(&frame.payload).unwrap());
            if frame.flags & END_STREAM != 0 {
                ended.insert(frame.stream, bodies.remove(&frame.stream).unwrap());
            }
        }
    }
    ended
}

/// Waits until `server` holds `count` listeners.
async fn until_listeners(server: &Server, count: usize) {
    for _ in 0..500 {
        if server.listeners() == count {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.listeners(), count);
}

#[tokio::test]
async fn a_connection_advertises_its_stream_limit_in_its_first_settings() {
    for (config, limit) in [
        (HttpConfig::default(), 200),
        (HttpConfig::default().max_streams_per_connection(7), 7),
    ] {
        let (addr, _) = serving(config, &Gates::default()).await;
        let mut peer = RawH2::connect(addr).await;
        let settings = peer.next().await.unwrap();
        assert_eq!(settings.setting(MAX_CONCURRENT_STREAMS), Some(limit));
    }
}

#[tokio::test]
async fn a_stream_beyond_the_limit_is_refused_and_one_after_a_stream_ends_is_served() {
    let gates = Gates::default();
    let config = HttpConfig::default().max_streams_per_connection(2);
    let (addr, _) = serving(config, &gates).await;
    let mut peer = RawH2::connect(addr).await;
    call_slow(&mut peer, 1).await;
    call_slow(&mut peer, 3).await;
    gates.started(2).await;

    // A third stream while two are open: refused before it runs (its
    // body, sent before the refusal arrived, draws a second reset).
    call_slow(&mut peer, 5).await;
    let refused = next_on(&mut peer, 5).await;
    assert_eq!(refused.kind, RST_STREAM, "{refused:?}");
    assert_eq!(refused.error_code(), REFUSED_STREAM);

    // One call ends: a new stream is served.
    gates.release.add_permits(1);
    let first = answers(&mut peer, &[1, 3], 1).await;
    let (&ended, body) = first.iter().next().unwrap();
    assert!(ended == 1 || ended == 3, "{ended}");
    assert!(body.contains("slow done"), "{body}");
    call_slow(&mut peer, 7).await;
    gates.started(1).await;
    gates.release.add_permits(2);
    let rest = answers(&mut peer, &[4 - ended, 7], 2).await;
    let mut streams: Vec<_> = rest.keys().copied().collect();
    streams.sort_unstable();
    assert_eq!(streams, [4 - ended, 7]);
    assert!(
        rest.values().all(|body| body.contains("slow done")),
        "{rest:?}"
    );
}

#[tokio::test]
async fn a_peer_that_stops_answering_pings_loses_its_connection_and_its_listeners() {
    let config = HttpConfig::default()
        .http2_ping_interval(Duration::from_millis(50))
        .http2_ping_timeout(Duration::from_secs(2));
    let (addr, server) = serving(config, &Gates::default()).await;
    let mut peer = RawH2::connect(addr).await;
    let headers = modern("subscriptions/listen", None);
    let listen = json!({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
        "params": {"notifications": {"toolsListChanged": true}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientCapabilities": {}}}});
    peer.open_post(1, &headers, &serde_json::to_vec(&listen).unwrap())
        .await;
    until_listeners(&server, 1).await;

    // A peer that answers its pings keeps its connection.
    let mut answered = 0;
    while answered < 3 {
        let frame = peer
            .next()
            .await
            .expect("a peer that answers its pings keeps its connection");
        if frame.kind == PING && frame.flags & ACK == 0 {
            peer.send_frame(PING, ACK, 0, &frame.payload).await;
            answered += 1;
        }
    }
    assert_eq!(server.listeners(), 1);

    // Then silence: the server closes the connection, and the listen
    // stream on it lets go of its listener.
    while peer.next().await.is_some() {}
    until_listeners(&server, 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drain_sends_goaway_and_still_answers_the_streams_the_connection_holds() {
    let gates = Gates::default();
    let server = slow_server(&gates);
    let shutdown = server.shutdown().clone();
    let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = listener.local_addr().unwrap();
    let config = HttpConfig::default();
    let app = router(server.clone(), "/mcp", config.clone());
    let serving =
        tokio::spawn(async move { serve_until_drained(listener, app, &config, &shutdown).await });
    let mut peer = RawH2::connect(addr).await;
    call_slow(&mut peer, 1).await;
    gates.started(1).await;

    server.shutdown().begin();
    let goaway = loop {
        let frame = peer.next().await.expect("the connection stays open");
        if frame.kind == GOAWAY {
            break frame;
        }
    };
    let last = u32::from_be_bytes(goaway.payload[..4].try_into().unwrap()) & 0x7fff_ffff;
    assert!(last >= 1, "the stream in flight is kept: {goaway:?}");
    gates.release.add_permits(1);
    // The server pings to learn which streams the peer still sends on,
    // answers the one it holds, then closes the connection.
    let mut body = String::new();
    while let Some(frame) = peer.next().await {
        match frame.kind {
            PING if frame.flags & ACK == 0 => {
                peer.send_frame(PING, ACK, 0, &frame.payload).await;
            }
            DATA if frame.stream == 1 => {
                body.push_str(std::str::from_utf8(&frame.payload).unwrap());
            }
            _ => assert_ne!(frame.kind, RST_STREAM, "{frame:?}"),
        }
    }
    assert!(body.contains("slow done"), "{body}");
    let drained = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(drained.cut, 0);
}
