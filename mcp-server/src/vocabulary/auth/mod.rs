//! Who is calling: the [`Credentials`] a transport reads, the
//! [`Principal`] the active
//! [`PrincipalSource`](crate::seam::source::PrincipalSource) makes of them,
//! and the [`Challenge`] that refuses a caller and tells it how to
//! authenticate or which further permission to ask for.
//!
//! ```
//! use mcp_server::auth::{Credentials, Principal};
//!
//! let credentials = Credentials::bearer_token("secret");
//! assert_eq!(credentials.bearer(), Some("secret"));
//! let alice = Principal::named("alice").with_role("admin");
//! assert!(alice.has_role("admin") && alice.is_authenticated());
//! ```

mod challenge;
mod principal;

pub use challenge::{AUTHENTICATION_REQUIRED, Challenge, INSUFFICIENT_PERMISSION, Status};
pub use principal::{Channel, Credentials, Principal};
