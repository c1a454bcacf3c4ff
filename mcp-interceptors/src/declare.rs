//! Declaring interceptors: the [`Validate`] and [`Mutate`] traits, the
//! [`Interceptor`] that describes one, and the registration kind
//! [`Interceptors`] that gathers them.

use std::sync::Arc;
use std::time::Duration;

use mcp_server::BoxFuture;
use mcp_server::core::json::JsonObject;
use mcp_server::seam::Origin;
use mcp_server::seam::{Kind, SeamWord};

use crate::invocation::Invocation;
use crate::outcome::{Failure, Mutation, Validation};
use crate::wire::{
    Compat, Hook, InterceptorDescriptor, InterceptorType, Mode, Phase, PriorityHint,
};

/// How long an interceptor may run when its declaration names no limit.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Judges payloads: what `#[validator]` implements for a function, or what
/// a type implements itself (with `#[validator(...)]` on the `impl` block).
pub trait Validate: Send + Sync + 'static {
    /// The verdict on `invocation`'s payload, or why none could be given.
    fn validate<'a>(
        &'a self,
        invocation: &'a Invocation,
    ) -> BoxFuture<'a, Result<Validation, Failure>>;
}

/// Rewrites payloads: what `#[mutator]` implements for a function, or what
/// a type implements itself (with `#[mutator(...)]` on the `impl` block).
pub trait Mutate: Send + Sync + 'static {
    /// The rewrite of `invocation`'s payload, or why none could be made.
    fn mutate<'a>(&'a self, invocation: &'a Invocation)
    -> BoxFuture<'a, Result<Mutation, Failure>>;
}

/// The code an interceptor runs.
#[derive(Clone)]
pub(crate) enum Run {
    Validate(Arc<dyn Validate>),
    Mutate(Arc<dyn Mutate>),
}

/// One declared interceptor: its descriptor, its code, its time limit and
/// where it was declared. A member of the registration kind [`Interceptors`].
///
/// The attributes `#[validator]` and `#[mutator]` build one; a crate may
/// also register one itself:
///
/// ```
/// use mcp_interceptors::{Interceptor, Interceptors, Validate, Validation, Failure, Invocation};
/// use mcp_interceptors::wire::Phase;
/// use mcp_server::BoxFuture;
///
/// struct NoEmptyArguments;
/// impl Validate for NoEmptyArguments {
///     fn validate<'a>(&'a self, invocation: &'a Invocation) -> BoxFuture<'a, Result<Validation, Failure>> {
///         Box::pin(async move {
///             Ok(match invocation.arguments() {
///                 Some(args) if args.as_object().is_some_and(|a| a.is_empty()) => Validation::invalid("no arguments"),
///                 _ => Validation::valid(),
///             })
///         })
///     }
/// }
///
/// let server = mcp_server::Server::builder()
///     .without_linked()
///     .register(mcp_server::origin!(), "no-empty-arguments", 0, mcp_server::seam::Item::member::<Interceptors>(
///         Interceptor::validator(mcp_server::origin!(), "no-empty-arguments", NoEmptyArguments)
///             .hook(Phase::Request, ["tools/call"]),
///     ))
///     .build();
/// assert_eq!(server.members::<Interceptors>()[0].name(), "no-empty-arguments");
/// ```
#[derive(Clone)]
pub struct Interceptor {
    pub(crate) descriptor: InterceptorDescriptor,
    pub(crate) run: Run,
    pub(crate) timeout: Duration,
    pub(crate) origin: Origin,
}

impl std::fmt::Debug for Interceptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interceptor")
            .field("descriptor", &self.descriptor)
            .field("timeout", &self.timeout)
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

impl Interceptor {
    fn new(origin: Origin, name: impl Into<String>, kind: InterceptorType, run: Run) -> Self {
        Self {
            descriptor: InterceptorDescriptor {
                name: name.into(),
                version: None,
                description: None,
                kind,
                hooks: Vec::new(),
                mode: None,
                fail_open: None,
                priority_hint: None,
                compat: None,
                config_schema: None,
            },
            run,
            timeout: DEFAULT_TIMEOUT,
            origin,
        }
    }

    /// A validator named `name`, declared at `origin`, running `validate`.
    pub fn validator(origin: Origin, name: impl Into<String>, validate: impl Validate) -> Self {
        let run = Run::Validate(Arc::new(validate));
        Self::new(origin, name, InterceptorType::Validation, run)
    }

    /// A mutator named `name`, declared at `origin`, running `mutate`.
    pub fn mutator(origin: Origin, name: impl Into<String>, mutate: impl Mutate) -> Self {
        let run = Run::Mutate(Arc::new(mutate));
        Self::new(origin, name, InterceptorType::Mutation, run)
    }

    /// Its version.
    #[must_use]
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.descriptor.version = Some(version.into());
        self
    }

    /// What it does.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.descriptor.description = Some(description.into());
        self
    }

    /// Hooks `events` (method names, or `*` for every interceptable one) in
    /// `phase`; call once per phase.
    #[must_use]
    pub fn hook<E: Into<String>>(
        mut self,
        phase: Phase,
        events: impl IntoIterator<Item = E>,
    ) -> Self {
        self.descriptor.hooks.push(Hook {
            events: events.into_iter().map(Into::into).collect(),
            phase,
        });
        self
    }

    /// Active (the default) or audit: an audit interceptor is run and
    /// recorded, and never blocks or rewrites.
    #[must_use]
    pub fn mode(mut self, mode: Mode) -> Self {
        self.descriptor.mode = Some(mode);
        self
    }

    /// Whether a crash or a timeout lets the operation through (default:
    /// it blocks).
    #[must_use]
    pub fn fail_open(mut self, fail_open: bool) -> Self {
        self.descriptor.fail_open = Some(fail_open);
        self
    }

    /// A mutator's order among mutators in both phases: lower runs first,
    /// ties by name.
    #[must_use]
    pub fn priority(mut self, priority: i32) -> Self {
        self.descriptor.priority_hint = Some(PriorityHint::Both(priority));
        self
    }

    /// A mutator's order per phase.
    #[must_use]
    pub fn priority_per_phase(mut self, request: Option<i32>, response: Option<i32>) -> Self {
        self.descriptor.priority_hint = Some(PriorityHint::PerPhase { request, response });
        self
    }

    /// The protocol versions it was written for.
    #[must_use]
    pub fn compat(mut self, min: impl Into<String>, max: Option<String>) -> Self {
        self.descriptor.compat = Some(Compat {
            min_protocol: min.into(),
            max_protocol: max,
        });
        self
    }

    /// The JSON Schema of its configuration (an object schema); a
    /// configuration that does not match is refused with `-32602`.
    #[must_use]
    pub fn config_schema(mut self, schema: JsonObject) -> Self {
        self.descriptor.config_schema = Some(schema);
        self
    }

    /// How long it may run before it counts as failed (default
    /// [`DEFAULT_TIMEOUT`]); `interceptor/invoke` may ask for less.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.descriptor.name
    }

    /// Its descriptor, as `interceptors/list` sends it.
    pub fn descriptor(&self) -> &InterceptorDescriptor {
        &self.descriptor
    }

    /// Where it was declared.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Its mode.
    pub(crate) fn is_audit(&self) -> bool {
        self.descriptor.mode == Some(Mode::Audit)
    }

    /// Whether a failure lets the operation through.
    pub(crate) fn fails_open(&self) -> bool {
        self.descriptor.fail_open == Some(true)
    }

    /// Its priority in `phase` (0 unless given).
    pub(crate) fn priority_in(&self, phase: Phase) -> i32 {
        self.descriptor.priority_hint.map_or(0, |p| p.of(phase))
    }

    /// Whether it hooks `event` in `phase` (`*` hooks every interceptable event).
    pub(crate) fn hooks(&self, event: &str, phase: Phase) -> bool {
        crate::events::is_interceptable(event)
            && self.descriptor.hooks.iter().any(|hook| {
                hook.phase == phase
                    && hook
                        .events
                        .iter()
                        .any(|e| e == event || e == crate::wire::EVERY_EVENT)
            })
    }
}

impl Interceptor {
    /// Whether it hooks every event in `phase` (`*`).
    pub(crate) fn hooks_every_event(&self, phase: Phase) -> bool {
        self.descriptor.hooks.iter().any(|hook| {
            hook.phase == phase && hook.events.iter().any(|e| e == crate::wire::EVERY_EVENT)
        })
    }
}

/// The registration kind of declared interceptors, keyed by name: two with
/// one name fail boot naming both.
#[derive(Debug)]
pub struct Interceptors;

impl Kind for Interceptors {
    type Member = Interceptor;
    const NAME: &'static str = "interceptor";
    const CODE: &'static str = "mcp_interceptors::duplicate_interceptor";
    const WORD: SeamWord = SeamWord::Interceptor;
    const HELP: &'static str =
        "give one interceptor another `name = \"...\"`, or remove one crate from the build";
    fn key(member: &Interceptor) -> String {
        member.descriptor.name.clone()
    }
}
