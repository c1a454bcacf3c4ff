use mcp_server::seam::interceptor::RawAnswer;

fn main() {
    // A raw answer is made by proceeding or with a proof.
    let result = serde_json::value::RawValue::from_string("{}".into()).unwrap();
    let _ = RawAnswer::new(result);
}
