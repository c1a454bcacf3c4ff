//! Misuse of the macros is a compile error spanned on the offending tokens,
//! saying what to write instead.

#[test]
fn tool_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/tool/*.rs");
}

#[test]
fn tool_method_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/tools/*.rs");
}

#[test]
fn tool_expansion_compiles_under_strict_lints() {
    trybuild::TestCases::new().pass("tests/pass/*.rs");
}

#[test]
fn seam_attribute_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/seams/*.rs");
}

#[test]
fn prompt_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/prompt/*.rs");
}

#[test]
fn resource_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/resource/*.rs");
}

#[test]
fn resource_template_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/resource_template/*.rs");
}

#[test]
fn completion_misuse_does_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/completion/*.rs");
}
