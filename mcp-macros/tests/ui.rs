//! Misuse of the macros is a compile error spanned on the offending tokens,
//! saying what to write instead.

#[test]
fn tool_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/tool/*.rs");
}

#[test]
fn tool_expansion_compiles_under_strict_lints() {
    trybuild::TestCases::new().pass("tests/pass/*.rs");
}
