//! Stdio holds every conversation of `mcp_tests::conversation`: the test
//! bodies a third party's transport runs too.

mcp_tests::conversations!(mcp_tests::conversation::Stdio);
