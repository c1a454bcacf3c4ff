use mcp_interceptors::validator;

#[validator(request = ["tools/call"])]
struct Guard;

fn main() {}
