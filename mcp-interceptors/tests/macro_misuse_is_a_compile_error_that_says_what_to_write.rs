//! Misuse of `#[validator]` and `#[mutator]` is a compile error spanned on
//! the offending tokens and saying what to write instead; correct use
//! compiles under strict lints.

#[test]
fn attribute_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}

#[test]
fn attribute_expansions_compile_under_strict_lints() {
    trybuild::TestCases::new().pass("tests/pass/*.rs");
}
