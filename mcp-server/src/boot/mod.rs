//! Boot: collect every registration, sort, make the members of one-active
//! seams and select one per seam, make everything else with the winners in
//! hand, union the contributors, fold the customizers, build every method's
//! chain, check the configuration, run the validators, and freeze one
//! immutable server, or fail with every problem found.
//!
//! ```
//! use mcp_server::{Server, origin};
//! use mcp_server::seam::contributor::contributor_fn;
//! use mcp_server::handler::handler_fn;
//! use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
//!
//! let server = Server::builder()
//!     .named("demo", "1.0.0")
//!     .without_linked()
//!     .contributor(origin!(), "echo", contributor_fn(|c| {
//!         let tool = Tool { name: "echo".into(), ..Default::default() };
//!         c.tool(tool, handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("hi")) }));
//!     }))
//!     .try_build()
//!     .unwrap();
//! assert!(server.report().to_string().contains("tool `echo`"));
//! ```

mod assemble;
mod builder;
mod catalog;
mod chains;
mod collect;
mod contribute;
mod fold;
mod routes;
mod select;
mod validate;

pub use crate::vocabulary::{BootContext, BootError, BootErrors, Colour, Diagnostic, Rendered};
pub use builder::{Builder, DEFAULT_ENV_PREFIX};
pub use validate::{Validator, ValidatorFn, Validators, validator_fn};
