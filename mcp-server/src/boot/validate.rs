//! Validators: inspect the assembled server at boot and fail boot with
//! diagnostics of their own, all reported with the framework's.

use std::fmt;
use std::sync::Arc;

use crate::server::Server;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};
use crate::vocabulary::{BootContext, Diagnostic};

/// Inspects the assembled server; every diagnostic it returns fails boot.
///
/// ```
/// use mcp_server::boot::{Diagnostic, validator_fn};
/// use mcp_server::seam::Item;
///
/// let no_tools = validator_fn(|server, _boot| {
///     if server.tools().is_empty() {
///         vec![Diagnostic::new("demo::no_tools", "the server has no tools").help("contribute one")]
///     } else {
///         Vec::new()
///     }
/// });
/// let error = mcp_server::Server::builder()
///     .without_linked()
///     .register(mcp_server::origin!(), "no-tools", 0, Item::validator(no_tools))
///     .try_build()
///     .unwrap_err();
/// assert!(error.to_string().starts_with("error[demo::no_tools]: the server has no tools"));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a validator",
    note = "implement `mcp_server::boot::Validator`, or build one with `validator_fn(|server, boot| ...)`"
)]
pub trait Validator: Send + Sync + 'static {
    /// The problems found in `server`; none for a server that may run.
    fn validate(&self, server: &Server, boot: &BootContext) -> Vec<Diagnostic>;
}

/// A validator made from a closure; see [`validator_fn`].
pub struct ValidatorFn<F>(F);

impl<F> fmt::Debug for ValidatorFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ValidatorFn")
    }
}

/// A validator that runs `f`.
pub fn validator_fn<F>(f: F) -> ValidatorFn<F>
where
    F: Fn(&Server, &BootContext) -> Vec<Diagnostic> + Send + Sync + 'static,
{
    ValidatorFn(f)
}

impl<F> Validator for ValidatorFn<F>
where
    F: Fn(&Server, &BootContext) -> Vec<Diagnostic> + Send + Sync + 'static,
{
    fn validate(&self, server: &Server, boot: &BootContext) -> Vec<Diagnostic> {
        (self.0)(server, boot)
    }
}

/// The kind of validators: every one inspects the assembled server.
#[derive(Debug)]
pub struct Validators;

impl Kind for Validators {
    type Member = Arc<dyn Validator>;
    const NAME: &'static str = "validator";
    const CODE: &'static str = "mcp::duplicate_validator";
    const WORD: SeamWord = SeamWord::Validator;
    const UNIQUE: bool = false;
    const ORDERED: bool = false;
    fn key(_: &Self::Member) -> String {
        String::new()
    }
}

impl Item {
    /// A validator of the assembled server ([`Validators`]).
    pub fn validator(validator: impl Validator) -> Self {
        Self::member::<Validators>(Arc::new(validator))
    }
}
