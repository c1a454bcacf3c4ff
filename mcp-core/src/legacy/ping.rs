//! `ping`: either side checks that the other is still there (2025-11-25 only).
//!
//! ```
//! use mcp_core::legacy::ping::PingRequest;
//! use mcp_core::method::Method;
//! use mcp_core::version::Era;
//!
//! let ping: PingRequest = serde_json::from_str(r#"{"jsonrpc": "2.0", "id": "123", "method": "ping"}"#).unwrap();
//! assert!(ping.params.is_none());
//! assert_eq!(serde_json::to_string(&ping).unwrap(), r#"{"jsonrpc":"2.0","id":"123","method":"ping"}"#);
//! assert_eq!(<mcp_core::legacy::ping::Ping as Method>::ERAS, Era::LEGACY);
//! ```

use crate::method::{TypedRequest, methods};
use crate::pagination::RequestParams;
use crate::result::EmptyResult;
use crate::version::Era;

methods! {
    /// `ping`: answer promptly with an empty result.
    Ping = "ping" {
        params: Option<RequestParams>,
        result: EmptyResult,
        eras: Era::LEGACY,
    }
}

/// A `ping` request (`PingRequest`).
pub type PingRequest = TypedRequest<Ping>;
