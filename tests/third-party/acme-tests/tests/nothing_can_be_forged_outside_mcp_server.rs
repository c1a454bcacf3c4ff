//! What must not compile outside mcp-server, built without any test-only
//! feature: a request context, a proof that the guards passed, an answer,
//! a settled or raw answer, an invocation or a deferred run made by hand; a
//! proof asked for another call's context; a typed interceptor for another
//! method.

#[test]
fn nothing_that_stands_for_passed_guards_can_be_made_by_hand() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
