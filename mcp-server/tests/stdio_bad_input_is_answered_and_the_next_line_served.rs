//! stdio: a line the server cannot take is answered with the JSON-RPC error
//! it deserves, without an id (none could be read), and the line after it
//! is served as if nothing had happened.

mod support;

use std::time::Duration;

use mcp_server::transport::stdio;
use serde_json::{Value, json};
use support::with_tools;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

/// The client's ends of the server's input and output.
struct Client {
    input: DuplexStream,
    output: Lines<BufReader<DuplexStream>>,
}

impl Client {
    /// A client of a server with a tool `echo`.
    fn start() -> Self {
        let server = with_tools(&["echo"]).build();
        let (input, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, output) = tokio::io::duplex(1 << 20);
        tokio::spawn(stdio::serve(server, server_in, server_out));
        Self {
            input,
            output: BufReader::new(output).lines(),
        }
    }

    /// Writes `line` and its newline.
    async fn send(&mut self, line: &[u8]) {
        self.input.write_all(line).await.unwrap();
        self.input.write_all(b"\n").await.unwrap();
    }

    /// The next line the server writes, as JSON.
    async fn receive(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.output.next_line())
            .await
            .expect("an answer within 5 s")
            .unwrap()
            .expect("the server goes on");
        serde_json::from_str(&line).unwrap()
    }

    /// Sends `line`, expects an error with `code` and no id, then checks
    /// that the next request is served.
    async fn refused_then_served(&mut self, line: &[u8], code: i64) {
        self.send(line).await;
        let answer = self.receive().await;
        assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
        assert_eq!(answer["error"]["code"], code, "{answer}");
        assert!(answer.get("id").is_none(), "{answer}");
        self.send(&call("echo", 9)).await;
        let answer = self.receive().await;
        assert_eq!(answer["id"], 9, "{answer}");
        assert_eq!(answer["result"]["content"][0]["text"], "echo", "{answer}");
    }
}

/// A modern `tools/call` of `name`, as one line.
fn call(name: &str, id: i64) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}}}))
    .unwrap()
}

/// `levels` arrays, one inside the other.
fn nested_arrays(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

#[tokio::test]
async fn a_line_that_is_not_json_gets_a_parse_error_and_the_next_line_is_served() {
    let mut client = Client::start();
    client.refused_then_served(b"{oops", -32700).await;
    client.refused_then_served(b"\xff\xfe", -32700).await;
}

#[tokio::test]
async fn a_line_nested_too_deep_gets_a_parse_error_and_the_next_line_is_served() {
    let mut client = Client::start();
    let deep = 100_000;
    client
        .refused_then_served(nested_arrays(deep).as_bytes(), -32700)
        .await;
    let objects = format!("{}1{}", r#"{"a":"#.repeat(deep), "}".repeat(deep));
    client.refused_then_served(objects.as_bytes(), -32700).await;
    let in_arguments = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"a":{}}}}}}}"#,
        nested_arrays(deep)
    );
    client
        .refused_then_served(in_arguments.as_bytes(), -32700)
        .await;
}

#[tokio::test]
async fn a_batch_gets_an_invalid_request_and_the_next_line_is_served() {
    let mut client = Client::start();
    let batch = [b"[".as_slice(), &call("echo", 1), b"]"].concat();
    client.refused_then_served(&batch, -32600).await;
}
