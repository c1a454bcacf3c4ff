//! Boot failures, shaped like compiler errors: what clashed, both parties
//! with their origins, and how to fix it.

use std::fmt;

use crate::origin::Origin;
use crate::target::TargetKind;

/// Why boot failed; one value per cause.
///
/// Tests match on the fields; [`Display`](fmt::Display) renders the
/// diagnostic a person reads.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BootError {
    /// Two contributions claim one identity (tool name, prompt name, resource
    /// URI, URI template, completion reference).
    Duplicate {
        /// What kind of thing is contributed twice.
        kind: TargetKind,
        /// Its identity.
        name: String,
        /// The registration that came first in the sorted order.
        first: Origin,
        /// The other one.
        second: Origin,
    },
    /// A method is contributed twice, or contributed and built in.
    DuplicateMethod {
        /// The wire name.
        method: String,
        /// The first owner ([`Origin::FRAMEWORK`] for a built-in method).
        first: Origin,
        /// The other one.
        second: Origin,
    },
    /// Two members are registered for a seam where exactly one may be active.
    DuplicateStrategy {
        /// The seam, such as `PrincipalSource`.
        seam: &'static str,
        /// The first member's name and origin.
        first: (String, Origin),
        /// The other one.
        second: (String, Origin),
    },
    /// A customizer changed what identifies the target it customizes.
    IdentityChanged {
        /// The customizer's name.
        customizer: String,
        /// Where the customizer was registered.
        origin: Origin,
        /// The kind of target.
        kind: TargetKind,
        /// The target's identity before the customizer ran.
        target: String,
        /// The identity field it changed.
        field: &'static str,
        /// The value before.
        before: String,
        /// The value after.
        after: String,
    },
    /// A typed interceptor's types are not those of the method served under its name.
    TypedInterceptorMismatch {
        /// The interceptor's name.
        interceptor: String,
        /// Where it was registered.
        origin: Origin,
        /// The method name.
        method: String,
        /// The params type of the method's handler.
        expected: &'static str,
        /// The params type of the interceptor.
        found: &'static str,
    },
    /// A typed interceptor names a method that nothing serves.
    UnknownMethod {
        /// The interceptor's name.
        interceptor: String,
        /// Where it was registered.
        origin: Origin,
        /// The method it names.
        method: String,
    },
    /// A resource template does not parse.
    InvalidUriTemplate {
        /// The template.
        template: String,
        /// Where it was registered.
        origin: Origin,
        /// What is wrong.
        reason: String,
    },
    /// The application expects an extension that is not linked.
    MissingExtension {
        /// The extension's package name.
        name: String,
    },
}

impl BootError {
    /// The diagnostic code, such as `mcp::duplicate_tool`.
    pub fn code(&self) -> &'static str {
        match self {
            BootError::Duplicate { kind, .. } => match kind {
                TargetKind::Tool => "mcp::duplicate_tool",
                TargetKind::Prompt => "mcp::duplicate_prompt",
                TargetKind::Resource => "mcp::duplicate_resource",
                TargetKind::ResourceTemplate => "mcp::duplicate_resource_template",
                TargetKind::Completion => "mcp::duplicate_completion",
                TargetKind::Method => "mcp::duplicate_method",
            },
            BootError::DuplicateMethod { .. } => "mcp::duplicate_method",
            BootError::DuplicateStrategy { .. } => "mcp::duplicate_strategy",
            BootError::IdentityChanged { .. } => "mcp::identity_changed",
            BootError::TypedInterceptorMismatch { .. } => "mcp::typed_interceptor_mismatch",
            BootError::UnknownMethod { .. } => "mcp::unknown_method",
            BootError::InvalidUriTemplate { .. } => "mcp::invalid_uri_template",
            BootError::MissingExtension { .. } => "mcp::missing_extension",
        }
    }
}

fn crate_ident(package: &str) -> String {
    package.replace('-', "_")
}

impl fmt::Display for BootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error[{}]: ", self.code())?;
        match self {
            BootError::Duplicate {
                kind,
                name,
                first,
                second,
            } => {
                writeln!(f, "{} `{name}` is contributed twice", kind.word())?;
                writeln!(f, "  = note: first:  {first}")?;
                writeln!(f, "  = note: second: {second}")?;
                let rename = match kind {
                    TargetKind::Resource | TargetKind::ResourceTemplate => {
                        "change one's URI with `uri = \"...\"`"
                    }
                    TargetKind::Completion => "keep one completion handler",
                    _ => "rename one with `name = \"...\"`",
                };
                write!(f, "  = help: {rename}, or remove one crate from the build")
            }
            BootError::DuplicateMethod {
                method,
                first,
                second,
            } => {
                if *first == Origin::FRAMEWORK {
                    writeln!(f, "method `{method}` is built in and contributed again")?;
                    writeln!(f, "  = note: first:  {first}")?;
                } else {
                    writeln!(f, "method `{method}` is contributed twice")?;
                    writeln!(f, "  = note: first:  {first}")?;
                }
                writeln!(f, "  = note: second: {second}")?;
                write!(
                    f,
                    "  = help: give a contributed method its own name under a vendor prefix (`com.example/...`), or remove one crate from the build"
                )
            }
            BootError::DuplicateStrategy {
                seam,
                first,
                second,
            } => {
                writeln!(
                    f,
                    "two `{seam}`s are registered, and exactly one may be active"
                )?;
                writeln!(f, "  = note: first:  `{}` from {}", first.0, first.1)?;
                writeln!(f, "  = note: second: `{}` from {}", second.0, second.1)?;
                write!(
                    f,
                    "  = help: remove one from the build, or register none to use the framework's default"
                )
            }
            BootError::IdentityChanged {
                customizer,
                origin,
                kind,
                target,
                field,
                before,
                after,
            } => {
                writeln!(
                    f,
                    "customizer `{customizer}` changed the `{field}` of {} `{target}`",
                    kind.word()
                )?;
                writeln!(f, "  = note: customizer: {origin}")?;
                writeln!(f, "  = note: before: {before}")?;
                writeln!(f, "  = note: after:  {after}")?;
                write!(
                    f,
                    "  = help: a customizer may change a descriptor's title, description and `_meta`, not what identifies it; contribute a new {} instead",
                    kind.word()
                )
            }
            BootError::TypedInterceptorMismatch {
                interceptor,
                origin,
                method,
                expected,
                found,
            } => {
                writeln!(
                    f,
                    "typed interceptor `{interceptor}` does not fit method `{method}`"
                )?;
                writeln!(f, "  = note: interceptor: {origin}")?;
                writeln!(f, "  = note: the method's params are `{expected}`")?;
                writeln!(f, "  = note: the interceptor's params are `{found}`")?;
                write!(
                    f,
                    "  = help: two method types share the name `{method}`; implement `TypedInterceptor` for the one the server serves"
                )
            }
            BootError::UnknownMethod {
                interceptor,
                origin,
                method,
            } => {
                writeln!(
                    f,
                    "typed interceptor `{interceptor}` wraps method `{method}`, which nothing serves"
                )?;
                writeln!(f, "  = note: interceptor: {origin}")?;
                write!(
                    f,
                    "  = help: link the crate that contributes `{method}`, or remove the interceptor"
                )
            }
            BootError::InvalidUriTemplate {
                template,
                origin,
                reason,
            } => {
                writeln!(
                    f,
                    "resource template `{template}` is not a valid URI template"
                )?;
                writeln!(f, "  = note: {reason}")?;
                writeln!(f, "  = note: registered at: {origin}")?;
                write!(
                    f,
                    "  = help: write variables as `{{name}}`, or `{{+name}}` to allow `/` in the value"
                )
            }
            BootError::MissingExtension { name } => {
                writeln!(f, "extension `{name}` is expected but not linked")?;
                writeln!(
                    f,
                    "  = note: an extension registers itself only when the final binary links it, and a dependency nobody names is not linked"
                )?;
                write!(
                    f,
                    "  = help: add `use {} as _;` to the crate root, and `{name}` to `[dependencies]`",
                    crate_ident(name)
                )
            }
        }
    }
}

/// Every reason boot failed, found before failing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootErrors(pub Vec<BootError>);

impl BootErrors {
    /// The errors.
    pub fn errors(&self) -> &[BootError] {
        &self.0
    }
}

impl fmt::Display for BootErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for error in &self.0 {
            writeln!(f, "{error}\n")?;
        }
        match self.0.len() {
            1 => write!(f, "error: boot failed because of the previous error"),
            n => write!(f, "error: boot failed because of {n} previous errors"),
        }
    }
}

impl std::error::Error for BootErrors {}
