//! Tests of the third-party extensions (in `tests/`): every seam an outside
//! crate can build on, and guard parity on every path, through the public
//! API of mcp-server only.
