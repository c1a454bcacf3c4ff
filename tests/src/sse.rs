//! Server-sent events as tests read them: one event at a time off the text
//! received so far, whatever client received it.
//!
//! ```
//! use mcp_tests::sse::next_event;
//!
//! let mut buffer = String::from(": keep-alive\n\nid: 1-0\ndata: {\"a\":1}\n\nid: 1-");
//! let event = next_event(&mut buffer).unwrap();
//! assert_eq!(event.id.as_deref(), Some("1-0"));
//! assert_eq!(event.json()["a"], 1);
//! assert!(next_event(&mut buffer).is_none(), "the next event is not complete");
//! assert_eq!(buffer, "id: 1-");
//! ```

use serde_json::Value;

/// One server-sent event.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Event {
    /// Its `id`, when it has one.
    pub id: Option<String>,
    /// Its `retry`, when it has one.
    pub retry: Option<String>,
    /// Its `data` lines, joined by `\n`.
    pub data: String,
}

impl Event {
    /// The event's data, parsed as JSON.
    ///
    /// # Panics
    ///
    /// When the data is not JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.data)
            .unwrap_or_else(|e| panic!("the event's data is not JSON ({e}): {}", self.data))
    }
}

/// Takes the first complete event with fields off `buffer` (blocks of
/// comments only are dropped); `None` until one is complete.
pub fn next_event(buffer: &mut String) -> Option<Event> {
    loop {
        let normalized = buffer.replace("\r\n", "\n");
        if normalized.len() != buffer.len() {
            *buffer = normalized;
        }
        let end = buffer.find("\n\n")?;
        let block: String = buffer.drain(..end + 2).collect();
        let mut event = Event::default();
        let mut fields = false;
        for line in block
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with(':'))
        {
            fields = true;
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "id" => event.id = Some(value.to_owned()),
                "retry" => event.retry = Some(value.to_owned()),
                "data" => {
                    if !event.data.is_empty() {
                        event.data.push('\n');
                    }
                    event.data.push_str(value);
                }
                _ => {}
            }
        }
        if fields {
            return Some(event);
        }
    }
}
