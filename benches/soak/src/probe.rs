//! Single checked calls outside the soak's loop: a stateless `tools/call`
//! on a given connection, or on a fresh one.

use std::time::{Duration, Instant};

use crate::answer;
use crate::calls::ToolCall;
use crate::conn::Connection;
use crate::requests;

/// Makes `call` with id `id` on `connection` and checks the answer; how
/// long it took.
pub(crate) async fn call_on(
    connection: &mut Connection,
    id: u64,
    call: &ToolCall,
) -> Result<Duration, String> {
    let started = Instant::now();
    let reply = connection.send(requests::modern_call(id, call)?).await?;
    answer::tool_text(&reply, id, &call.expected)
        .map_err(|e| format!("{} {}: {e}", call.name, call.arguments))?;
    Ok(started.elapsed())
}

/// Makes `call` on a fresh connection to `port`, then closes it; how long
/// the call took.
pub(crate) async fn call_fresh(port: u16, call: &ToolCall) -> Result<Duration, String> {
    let mut connection = Connection::open(port).await?;
    call_on(&mut connection, 1, call).await
}
