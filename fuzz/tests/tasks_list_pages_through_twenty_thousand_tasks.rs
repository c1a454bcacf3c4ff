//! `tasks/list` (2025-11-25) pages through every task of an owner with
//! twenty thousand of them, each once and oldest first.
//!
//! Found by the fuzz driver: its inputs/s fell from 19,500 to 3,600 over a
//! run of a million inputs, half the CPU in `MemoryTaskStore::list`, which
//! cloned and sorted every record of the owner (every anonymous client is
//! one owner) under the store's mutex to answer one page. The store now
//! keeps its records in list order per owner, so a page costs the page;
//! paging through all of them here would take half a minute otherwise.

use std::collections::HashSet;
use std::sync::Arc;

use mcp_server::context::Session;
use mcp_server::transport::Peer;
use serde_json::{Value, json};

const TASKS: usize = 20_000;

#[tokio::test]
async fn every_task_is_listed_once_in_order_across_the_pages() {
    let server = mcp_demo::builder().without_environment().build();
    let peer = Peer::on(Arc::new(Session::default()));
    let initialize = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{},"tasks":{"requests":{"tools":{"call":{}}}}},"clientInfo":{"name":"many-tasks","version":"1"}}}"#;
    server.handle(initialize, &peer).await.unwrap();
    let initialized = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert!(server.handle(initialized, &peer).await.is_none());
    let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"confirm_delete","arguments":{"filename":"a"},"task":{"ttl":3600000}}}"#;
    let mut made = Vec::with_capacity(TASKS);
    for _ in 0..TASKS {
        let reply: Value =
            serde_json::from_slice(&server.handle(call, &peer).await.unwrap()).unwrap();
        made.push(
            reply["result"]["task"]["taskId"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let mut listed = Vec::with_capacity(TASKS);
    let mut cursor: Option<String> = None;
    loop {
        let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
        let request = json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/list", "params": params});
        let reply: Value = serde_json::from_slice(
            &server
                .handle(&serde_json::to_vec(&request).unwrap(), &peer)
                .await
                .unwrap(),
        )
        .unwrap();
        for task in reply["result"]["tasks"].as_array().unwrap() {
            listed.push((
                milliseconds(task["createdAt"].as_str().unwrap()),
                task["taskId"].as_str().unwrap().to_owned(),
            ));
        }
        match reply["result"]["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(listed.len(), TASKS);
    let ids: HashSet<&String> = listed.iter().map(|(_, id)| id).collect();
    assert_eq!(ids, made.iter().collect::<HashSet<_>>());
    // Oldest first.
    if let Some(w) = listed.windows(2).find(|w| w[0].0 > w[1].0) {
        panic!("listed out of creation order: {w:?}");
    }
}

/// `2026-12-02T11:01:56.22Z` as `2026-12-02T11:01:56.220`: the fraction
/// padded to milliseconds, so that text order is time order.
fn milliseconds(stamp: &str) -> String {
    let stamp = stamp.trim_end_matches('Z');
    let (whole, fraction) = stamp.split_once('.').unwrap_or((stamp, ""));
    format!("{whole}.{fraction:0<3}")
}
