//! The tools the clients call, in a fixed rotation, and the text each must
//! answer with.

use serde_json::{Value, json};

/// What `test_simple_text` answers.
pub(crate) const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// What `sales_by_region` answers for Q1.
const SALES_Q1: &str = "Sales by region, Q1: North 98, South 104, East 121, West 77 (total 400 k$)";

/// The rotation, as the report names it.
pub(crate) const MIX: &str = "test_simple_text 40 %, greet 30 %, sales_by_region 30 %";

/// One tool call and the first text content its result must have.
#[derive(Debug, Clone)]
pub(crate) struct ToolCall {
    pub(crate) name: &'static str,
    pub(crate) arguments: Value,
    pub(crate) expected: String,
}

impl ToolCall {
    /// `test_simple_text`, which takes no arguments.
    pub(crate) fn simple() -> Self {
        Self {
            name: "test_simple_text",
            arguments: json!({}),
            expected: SIMPLE_TEXT.into(),
        }
    }

    /// `greet` with `name`.
    pub(crate) fn greet(name: &str) -> Self {
        Self {
            name: "greet",
            arguments: json!({"name": name}),
            expected: format!("Hello, {name}!"),
        }
    }

    /// `sales_by_region` for Q1.
    pub(crate) fn sales() -> Self {
        Self {
            name: "sales_by_region",
            arguments: json!({"quarter": "Q1"}),
            expected: SALES_Q1.into(),
        }
    }
}

/// Call `n` of client `client`: of every ten, four of `test_simple_text`,
/// three of `greet` with a name unique to the client and the call (so an
/// answer meant for another request shows), three of `sales_by_region`.
pub(crate) fn nth(client: usize, n: u64) -> ToolCall {
    match n % 10 {
        0..4 => ToolCall::simple(),
        4..7 => ToolCall::greet(&format!("client {client} call {n}")),
        _ => ToolCall::sales(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_calls_follow_the_stated_mix() {
        let names: Vec<&str> = (0..10).map(|n| nth(3, n).name).collect();
        let count = |tool: &str| names.iter().filter(|n| **n == tool).count();
        assert_eq!(count("test_simple_text"), 4);
        assert_eq!(count("greet"), 3);
        assert_eq!(count("sales_by_region"), 3);
    }

    #[test]
    fn a_greeting_names_its_client_and_call() {
        let call = nth(7, 15);
        assert_eq!(call.arguments["name"], "client 7 call 15");
        assert_eq!(call.expected, "Hello, client 7 call 15!");
    }
}
