//! A raw HTTP/2 client, frame by frame, for what hyper's client hides: the
//! server's `SETTINGS`, its `PING`s, and the streams it refuses.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What a client sends first on an HTTP/2 connection with prior knowledge.
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Frame types.
pub const DATA: u8 = 0x0;
pub const HEADERS: u8 = 0x1;
pub const RST_STREAM: u8 = 0x3;
pub const SETTINGS: u8 = 0x4;
pub const PING: u8 = 0x6;
pub const GOAWAY: u8 = 0x7;

/// The flag of a `SETTINGS` or `PING` that answers one.
pub const ACK: u8 = 0x1;
/// The flag of the last frame a side sends on a stream.
pub const END_STREAM: u8 = 0x1;
/// The flag of a header block that fits in one frame.
pub const END_HEADERS: u8 = 0x4;

/// The `SETTINGS` parameter that limits the streams open at once.
pub const MAX_CONCURRENT_STREAMS: u16 = 0x3;

/// The error code of a stream refused before any of it was processed.
pub const REFUSED_STREAM: u32 = 0x7;

/// One frame, as received.
#[derive(Debug)]
pub struct Frame {
    pub kind: u8,
    pub flags: u8,
    pub stream: u32,
    pub payload: Vec<u8>,
}

impl Frame {
    /// The value of parameter `id`, when this is a `SETTINGS` frame with one.
    pub fn setting(&self, id: u16) -> Option<u32> {
        (self.kind == SETTINGS)
            .then(|| self.payload.chunks_exact(6))
            .into_iter()
            .flatten()
            .find(|p| u16::from_be_bytes([p[0], p[1]]) == id)
            .map(|p| u32::from_be_bytes([p[2], p[3], p[4], p[5]]))
    }

    /// The error code of a `RST_STREAM`.
    pub fn error_code(&self) -> u32 {
        assert_eq!(self.kind, RST_STREAM, "{self:?}");
        u32::from_be_bytes(self.payload[..4].try_into().unwrap())
    }
}

/// A client connection that sends and reads frames as the test says.
#[derive(Debug)]
pub struct RawH2 {
    tcp: TcpStream,
}

impl RawH2 {
    /// Connects to `addr` and sends the preface and empty `SETTINGS`.
    pub async fn connect(addr: SocketAddr) -> Self {
        let mut peer = Self {
            tcp: TcpStream::connect(addr).await.unwrap(),
        };
        peer.tcp.write_all(PREFACE).await.unwrap();
        peer.send_frame(SETTINGS, 0, 0, &[]).await;
        peer
    }

    /// Sends one frame.
    pub async fn send_frame(&mut self, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
        let length = u32::try_from(payload.len()).unwrap().to_be_bytes();
        let mut frame = vec![length[1], length[2], length[3], kind, flags];
        frame.extend_from_slice(&stream.to_be_bytes());
        frame.extend_from_slice(payload);
        self.tcp.write_all(&frame).await.unwrap();
    }

    /// Opens stream `stream` with a `POST /mcp` of `body` and these headers.
    pub async fn open_post(&mut self, stream: u32, headers: &[(&str, &str)], body: &[u8]) {
        let mut block = Vec::new();
        let pseudo = [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", "/mcp"),
            (":authority", "127.0.0.1"),
        ];
        for (name, value) in pseudo.iter().chain(headers) {
            literal(&mut block, name, value);
        }
        self.send_frame(HEADERS, END_HEADERS, stream, &block).await;
        self.send_frame(DATA, END_STREAM, stream, body).await;
    }

    /// The next frame; `None` once the server has closed the connection.
    /// The server must send one or close within 10 s.
    pub async fn next(&mut self) -> Option<Frame> {
        tokio::time::timeout(Duration::from_secs(10), self.read_frame())
            .await
            .expect("the server sends a frame or closes the connection within 10 s")
    }

    /// The next frame, its `SETTINGS` acknowledged; `None` at the end.
    async fn read_frame(&mut self) -> Option<Frame> {
        let mut head = [0u8; 9];
        // A reset counts as closing.
        self.tcp.read_exact(&mut head).await.ok()?;
        let length = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
        let mut payload = vec![0u8; length];
        self.tcp.read_exact(&mut payload).await.ok()?;
        let frame = Frame {
            kind: head[3],
            flags: head[4],
            stream: u32::from_be_bytes(head[5..9].try_into().unwrap()) & 0x7fff_ffff,
            payload,
        };
        if frame.kind == SETTINGS && frame.flags & ACK == 0 {
            self.send_frame(SETTINGS, ACK, 0, &[]).await;
        }
        Some(frame)
    }
}

/// Appends a header as an HPACK literal without indexing, no Huffman coding.
fn literal(block: &mut Vec<u8>, name: &str, value: &str) {
    block.push(0);
    for text in [name, value] {
        integer(block, text.len());
        block.extend_from_slice(text.as_bytes());
    }
}

/// Appends an HPACK integer with a 7-bit prefix (a string's length).
fn integer(block: &mut Vec<u8>, mut value: usize) {
    if value < 127 {
        block.push(value as u8);
        return;
    }
    block.push(127);
    value -= 127;
    while value >= 128 {
        block.push((value % 128) as u8 | 0x80);
        value /= 128;
    }
    block.push(value as u8);
}
