use mcp_server::seam::interceptor::Invocation;
use mcp_server::handler::AlternateResult;
use mcp_server::core::result::ResultType;

fn main() {
    // An alternate result needs the proof an invocation gives, and an
    // invocation exists only once the guards passed.
    let _ = Invocation::alternate(AlternateResult {
        result_type: ResultType::from_static("task"),
        body: Default::default(),
    });
}
