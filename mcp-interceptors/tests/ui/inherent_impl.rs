use mcp_interceptors::validator;

#[derive(Default)]
struct Guard;

#[validator(request = ["tools/call"])]
impl Guard {
    fn check(&self) {}
}

fn main() {}
