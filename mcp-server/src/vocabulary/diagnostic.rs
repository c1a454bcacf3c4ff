//! Boot failures, shaped like compiler errors: what clashed, both parties
//! with their origins, and how to fix it.

use std::fmt;

use crate::vocabulary::Origin;
use crate::vocabulary::TargetKind;
use crate::vocabulary::config::SettingSource;

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
    /// A typed interceptor wraps a method that nothing serves.
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
        /// The extension's identifier or package name.
        name: String,
    },
    /// The application expects a crate of which no registration is linked.
    NotLinked {
        /// The crate's package name.
        package: String,
    },
    /// A declared extension's requirement is not met by the assembled server.
    UnmetRequirement {
        /// The extension's identifier.
        extension: String,
        /// The requirement, described.
        requirement: String,
        /// Where the extension was declared.
        origin: Origin,
    },
    /// An extension was declared with `Registration::new`, after the
    /// declarations everything else reads.
    ExtensionDeclaredTooLate {
        /// The extension's identifier.
        extension: String,
        /// Where it was declared.
        origin: Origin,
    },
    /// Two members of a registration kind claim one key.
    DuplicateMember {
        /// What one member is called (`interceptor descriptor`).
        kind: &'static str,
        /// The kind's diagnostic code.
        code: &'static str,
        /// The kind's help line.
        help: &'static str,
        /// The key both claim.
        key: String,
        /// The registration that came first in the sorted order.
        first: Origin,
        /// The other one.
        second: Origin,
    },
    /// A customizer for one handler names a handler that does not exist.
    UnknownCustomizerTarget {
        /// The customizer's name.
        customizer: String,
        /// Where it was registered.
        origin: Origin,
        /// The kind of handler it customizes.
        kind: TargetKind,
        /// The identity it names.
        name: String,
        /// The closest identity that exists.
        closest: Option<String>,
    },
    /// A completion completes a prompt or template that does not exist.
    CompletionWithoutTarget {
        /// What it completes.
        reference: String,
        /// Where it was contributed.
        origin: Origin,
        /// The closest prompt or template that exists.
        closest: Option<String>,
    },
    /// A member or the declaration of a one-active seam was registered with
    /// `Registration::new`, which is made after the seams are selected.
    SuppliedTooLate {
        /// The registration's name.
        name: String,
        /// Where it was registered.
        origin: Origin,
        /// The seam.
        seam: &'static str,
    },
    /// A setting belongs to no section, or a section has no such key.
    UnknownSetting {
        /// The setting's dotted key.
        key: String,
        /// Where it was set.
        source: Option<SettingSource>,
        /// The closest section key that exists.
        closest: Option<String>,
    },
    /// A setting's value does not fit its section.
    InvalidSetting {
        /// The setting's dotted key.
        key: String,
        /// Where it was set.
        source: Option<SettingSource>,
        /// What is wrong.
        message: String,
    },
    /// A crate's own check of the assembled server failed.
    Extension(Diagnostic),
}

/// A diagnostic of a crate's own, rendered like the framework's: a code,
/// what is wrong, facts, and the fix.
///
/// ```
/// use mcp_server::boot::Diagnostic;
///
/// let d = Diagnostic::new("charts::missing_palette", "tool `chart` names a palette that does not exist")
///     .note("the palette: `sunset`")
///     .help("declare the palette, or name `sunrise`");
/// assert_eq!(d.to_string(), "error[charts::missing_palette]: tool `chart` names a palette that does not exist\n  = note: the palette: `sunset`\n  = help: declare the palette, or name `sunrise`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The code, such as `my_crate::missing_view`.
    pub code: String,
    /// What is wrong: lowercase, no trailing period, identifiers in backticks.
    pub message: String,
    /// Facts, one per line.
    pub notes: Vec<String>,
    /// The fix.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with `code` and `message`.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// Adds a fact.
    #[must_use]
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the fix.
    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error[{}]: {}", self.code, self.message)?;
        for note in &self.notes {
            write!(f, "\n  = note: {note}")?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n  = help: {help}")?;
        }
        Ok(())
    }
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
            BootError::UnknownMethod { .. } => "mcp::unknown_method",
            BootError::InvalidUriTemplate { .. } => "mcp::invalid_uri_template",
            BootError::MissingExtension { .. } => "mcp::missing_extension",
            BootError::UnmetRequirement { .. } => "mcp::unmet_extension_requirement",
            BootError::NotLinked { .. } => "mcp::not_linked",
            BootError::ExtensionDeclaredTooLate { .. } => "mcp::extension_declared_too_late",
            BootError::DuplicateMember { code, .. } => code,
            BootError::UnknownCustomizerTarget { .. } => "mcp::unknown_customizer_target",
            BootError::CompletionWithoutTarget { .. } => "mcp::completion_without_target",
            BootError::SuppliedTooLate { .. } => "mcp::supplied_too_late",
            BootError::UnknownSetting { .. } => "mcp::unknown_setting",
            BootError::InvalidSetting { .. } => "mcp::invalid_setting",
            BootError::Extension(_) => "extension",
        }
    }
}

fn did_you_mean(f: &mut fmt::Formatter<'_>, closest: Option<&String>) -> fmt::Result {
    match closest {
        Some(closest) => write!(f, " (did you mean `{closest}`?)"),
        None => Ok(()),
    }
}

fn crate_ident(package: &str) -> String {
    package.replace('-', "_")
}

impl fmt::Display for BootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let BootError::Extension(diagnostic) = self {
            return diagnostic.fmt(f);
        }
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
            BootError::UnmetRequirement {
                extension,
                requirement,
                origin,
            } => {
                writeln!(
                    f,
                    "extension `{extension}` requires {requirement}, which this server lacks"
                )?;
                writeln!(f, "  = note: declared at: {origin}")?;
                write!(
                    f,
                    "  = help: link and configure what provides {requirement}, or remove `{}` from the build",
                    origin.crate_name
                )
            }
            BootError::ExtensionDeclaredTooLate { extension, origin } => {
                writeln!(
                    f,
                    "extension `{extension}` is declared after the declarations everything else reads"
                )?;
                writeln!(f, "  = note: declared at: {origin}")?;
                write!(f, "  = help: register it with `Registration::extension`")
            }
            BootError::NotLinked { package } => {
                writeln!(
                    f,
                    "crate `{package}` is expected but none of its registrations is linked"
                )?;
                writeln!(
                    f,
                    "  = note: a crate registers its items only when the final binary links it, and a dependency nobody names is not linked"
                )?;
                write!(
                    f,
                    "  = help: add `use {} as _;` to the crate root, and `{package}` to `[dependencies]`",
                    crate_ident(package)
                )
            }
            BootError::MissingExtension { name } if name.contains('/') => {
                writeln!(
                    f,
                    "extension `{name}` is expected but no linked crate declares it"
                )?;
                write!(
                    f,
                    "  = help: add the crate that declares `{name}` to `[dependencies]`, and `use <crate> as _;` to the crate root"
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
            BootError::DuplicateMember {
                kind,
                help,
                key,
                first,
                second,
                ..
            } => {
                writeln!(f, "{kind} `{key}` is registered twice")?;
                writeln!(f, "  = note: first:  {first}")?;
                writeln!(f, "  = note: second: {second}")?;
                write!(f, "  = help: {help}")
            }
            BootError::UnknownCustomizerTarget {
                customizer,
                origin,
                kind,
                name,
                closest,
            } => {
                writeln!(
                    f,
                    "customizer `{customizer}` customizes {} `{name}`, which nothing contributes",
                    kind.word()
                )?;
                writeln!(f, "  = note: customizer: {origin}")?;
                write!(f, "  = help: name an existing {}", kind.word())?;
                did_you_mean(f, closest.as_ref())?;
                write!(f, ", or link the crate that contributes `{name}`")
            }
            BootError::CompletionWithoutTarget {
                reference,
                origin,
                closest,
            } => {
                writeln!(
                    f,
                    "a completion completes {reference}, which nothing contributes"
                )?;
                writeln!(f, "  = note: completion: {origin}")?;
                write!(
                    f,
                    "  = help: complete an existing prompt or resource template"
                )?;
                did_you_mean(f, closest.as_ref())
            }
            BootError::SuppliedTooLate { name, origin, seam } => {
                writeln!(
                    f,
                    "`{name}` supplies or declares the `{seam}` seam after the one-active seams were selected"
                )?;
                writeln!(f, "  = note: registered at: {origin}")?;
                write!(
                    f,
                    "  = help: register it with `Registration::supply`, or with `#[store]`, `#[source]`, `#[strategy]` or `#[sink]`"
                )
            }
            BootError::UnknownSetting {
                key,
                source,
                closest,
            } => {
                writeln!(f, "setting `{key}` is not known")?;
                if let Some(source) = source {
                    writeln!(f, "  = note: {source}")?;
                }
                write!(
                    f,
                    "  = help: remove it, or link the crate whose section reads it"
                )?;
                did_you_mean(f, closest.as_ref())
            }
            BootError::InvalidSetting {
                key,
                source,
                message,
            } => {
                writeln!(f, "setting `{key}` is invalid")?;
                writeln!(f, "  = note: {message}")?;
                if let Some(source) = source {
                    writeln!(f, "  = note: {source}")?;
                }
                write!(
                    f,
                    "  = help: give `{key}` a value of the type its section expects"
                )
            }
            BootError::Extension(_) => unreachable!("rendered above"),
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

/// The candidate closest to `name`, if one is close enough to suggest.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(name, c), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c.to_owned())
}
