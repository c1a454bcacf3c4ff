//! What must not compile: a typed interceptor used for another method, and
//! an interceptor that answers without passing the guards.

#[test]
fn misuse_of_the_interceptor_api_does_not_compile() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
