use mcp_server::interceptor::Invocation;
use mcp_server::AlternateResult;
use mcp_server::core::result::ResultType;

fn main() {
    // An alternate result needs the proof an invocation gives, and an
    // invocation exists only once the guards passed.
    let _ = Invocation::alternate(AlternateResult {
        result_type: ResultType::from_static("task"),
        body: Default::default(),
    });
}
