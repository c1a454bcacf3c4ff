//! The valid messages inputs are made from: a request for every method the
//! server serves, in each era it serves it, for every tool, prompt and
//! resource it lists, with and without `_meta`; client notifications;
//! responses; and the official example messages of 2026-07-28.

use std::fs;
use std::path::{Path, PathBuf};

use mcp_server::Server;
use mcp_server::core::version::Era;
use serde_json::{Value, json};

use crate::catalogue::Catalogue;
use crate::target::PeerKind;

/// One valid message and the caller it is meant for.
#[derive(Debug, Clone)]
pub struct Seed {
    /// The message.
    pub message: Value,
    /// Who sends it.
    pub caller: PeerKind,
}

/// The seeds, and the fragments (params, results, content from the
/// official examples) spliced into them.
#[derive(Debug, Clone, Default)]
pub struct Seeds {
    /// Whole messages.
    pub messages: Vec<Seed>,
    /// Values to put anywhere in a message.
    pub fragments: Vec<Value>,
    /// Every method and notification name the seeds use, and a few unknown ones.
    pub methods: Vec<String>,
}

/// The official 2026-07-28 examples, in the repository's schema fixtures.
pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/mcp-schema/2026-07-28/examples")
}

impl Seeds {
    /// The seeds for `server`, with the official examples.
    pub fn of(server: &Server) -> Self {
        let mut seeds = Self::generated(server);
        seeds.add_examples(&examples_dir());
        seeds.methods.sort();
        seeds.methods.dedup();
        seeds
    }

    /// The seeds made from what `server` serves and lists.
    fn generated(server: &Server) -> Self {
        let catalogue = Catalogue::of(server);
        let mut seeds = Self::default();
        for report in &server.report().methods {
            for era in &report.eras {
                let variants = catalogue.params_for(&report.method);
                // Methods of few variants are sent with each set of capabilities.
                let rounds = if variants.len() <= 2 { 3 } else { 1 };
                for round in 0..rounds {
                    for (i, params) in variants.iter().enumerate() {
                        seeds.add_request(&report.method, *era, params.clone(), i, round);
                    }
                }
            }
        }
        seeds.add_notifications();
        seeds.add_responses();
        seeds.methods.extend(
            [
                "",
                "tools/call ",
                "Tools/Call",
                "rpc.discover",
                "notifications/unknown",
            ]
            .map(String::from),
        );
        seeds
    }

    /// Adds a request for `method` with the `variant`th `params`; modern
    /// requests carry the `(variant + round)`th set of capabilities, legacy
    /// ones are added in round 0 only.
    fn add_request(&mut self, method: &str, era: Era, params: Value, variant: usize, round: usize) {
        let id = if variant.is_multiple_of(2) {
            json!(variant)
        } else {
            json!(format!("req-{variant}"))
        };
        self.methods.push(method.to_owned());
        self.fragments.push(params.clone());
        match era {
            Era::Modern => {
                if variant == 0 && round == 0 {
                    let bare = request(&id, method, params.clone());
                    self.push(bare, PeerKind::Stateless);
                }
                let params = with_meta(params, variant + round);
                self.push(request(&id, method, params), PeerKind::Stateless);
            }
            Era::Legacy if round > 0 => {}
            Era::Legacy => {
                let caller = if method == "initialize" {
                    PeerKind::Connecting
                } else {
                    PeerKind::Session
                };
                self.push(request(&id, method, params), caller);
            }
        }
    }

    fn add_notifications(&mut self) {
        let notifications = [
            ("notifications/initialized", json!({})),
            (
                "notifications/cancelled",
                json!({"requestId": 1, "reason": "The user gave up"}),
            ),
            (
                "notifications/progress",
                json!({"progressToken": "p-1", "progress": 0.5, "total": 1, "message": "half"}),
            ),
            ("notifications/roots/list_changed", json!({})),
        ];
        for (method, params) in notifications {
            self.methods.push(method.to_owned());
            for caller in PeerKind::ALL {
                let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
                self.push(message, caller);
            }
            let modern =
                json!({"jsonrpc": "2.0", "method": method, "params": with_meta(params, 1)});
            self.push(modern, PeerKind::Stateless);
        }
    }

    fn add_responses(&mut self) {
        let responses = [
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!({"jsonrpc": "2.0", "id": "e-1", "result": {"action": "accept", "content": {"name": "Ada"}}}),
            json!({"jsonrpc": "2.0", "id": 2, "result": {"roots": [{"uri": "file:///tmp", "name": "tmp"}]}}),
            json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Method not found"}}),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error", "data": {"at": 1}}}),
        ];
        for response in responses {
            self.push(response.clone(), PeerKind::Session);
            self.push(response, PeerKind::Stateless);
        }
    }

    /// Adds every official example under `dir`: messages as seeds, the
    /// rest as fragments. A missing folder adds nothing.
    fn add_examples(&mut self, dir: &Path) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .filter_map(|entry| fs::read_dir(entry.path()).ok())
            .flat_map(|files| files.flatten().map(|file| file.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for path in files {
            let Some(value) = fs::read(&path)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
            else {
                continue;
            };
            if value.get("jsonrpc").is_some() {
                if let Some(method) = value.get("method").and_then(Value::as_str) {
                    self.methods.push(method.to_owned());
                }
                self.push(value, PeerKind::Stateless);
            } else {
                self.fragments.push(value);
            }
        }
    }

    fn push(&mut self, message: Value, caller: PeerKind) {
        self.messages.push(Seed { message, caller });
    }
}

/// `params` with a modern `_meta`: the protocol version and one of a few
/// sets of client capabilities, picked by `variant`.
fn with_meta(params: Value, variant: usize) -> Value {
    let capabilities = match variant % 3 {
        0 => json!({}),
        1 => json!({
            "elicitation": {"form": {}, "url": {}},
            "sampling": {"tools": {}},
            "roots": {"listChanged": true}
        }),
        _ => json!({
            "elicitation": {"form": {}},
            "extensions": {
                "io.modelcontextprotocol/tasks": {},
                "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}
            }
        }),
    };
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1.0.0"}
    });
    if variant % 2 == 1 {
        meta["progressToken"] = json!(format!("p-{variant}"));
        meta["io.modelcontextprotocol/logLevel"] = json!("debug");
    }
    let mut params = params;
    if let Value::Object(members) = &mut params {
        members.insert("_meta".to_owned(), meta);
    }
    params
}

/// A request for `method` with `params`.
fn request(id: &Value, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}
