//! The legacy (2025-11-25) lifecycle a transport runs before and beside the
//! pipeline: `initialize`, `ping` and `logging/setLevel`.
//!
//! A 2025-11-25 client negotiates once per stdio process or HTTP session;
//! what it negotiated becomes the [`Session`] of every later request.
//!
//! ```
//! use mcp_server::legacy;
//! use mcp_server::core::legacy::initialize::InitializeRequestParams;
//! use mcp_server::core::content::Implementation;
//!
//! let server = mcp_server::Server::builder().without_linked().named("demo", "1.0.0").build();
//! let params = InitializeRequestParams::new("2025-06-18", Default::default(), Implementation::new("client", "1"));
//! let (session, result) = legacy::initialize(&server, params);
//! assert_eq!(result.protocol_version, "2025-06-18");
//! assert_eq!(session.protocol_version, "2025-06-18");
//! assert_eq!(result.server_info.name, "demo");
//! ```

use mcp_core::legacy::initialize::{InitializeRequestParams, InitializeResult};
use mcp_core::version;

use crate::server::{Server, Session};

/// Answers `initialize`: echoes a supported legacy version (or offers the
/// newest one), and returns the session the client's later requests carry.
pub fn initialize(server: &Server, params: InitializeRequestParams) -> (Session, InitializeResult) {
    let negotiated =
        version::negotiate_legacy(&params.protocol_version, version::SUPPORTED).version();
    let session = Session {
        protocol_version: negotiated.to_owned(),
        client_capabilities: params.capabilities,
        client_info: Some(params.client_info),
        log_level: None,
    };
    let mut capabilities = server.capabilities().clone();
    capabilities.logging.get_or_insert_default();
    let result = InitializeResult {
        meta: None,
        protocol_version: negotiated.to_owned(),
        capabilities,
        server_info: server.info().clone(),
        instructions: server.instructions().map(str::to_owned),
    };
    (session, result)
}
