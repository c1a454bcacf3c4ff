//! The boot checks of declared interceptors, reported all at once with the
//! framework's own diagnostics.

use mcp_server::Server;
use mcp_server::boot::BootContext;
use mcp_server::boot::{Diagnostic, Validator};
use mcp_server::core::json::JsonValue;

use crate::declare::{Interceptor, Interceptors};
use crate::events::is_interceptable;
use crate::wire::{EVERY_EVENT, InterceptorType};

/// Checks every declared interceptor's hooks, priority and schema.
pub(crate) struct Checks;

impl Validator for Checks {
    fn validate(&self, _: &Server, boot: &BootContext) -> Vec<Diagnostic> {
        boot.members::<Interceptors>()
            .iter()
            .flat_map(problems)
            .collect()
    }
}

fn problems(interceptor: &Interceptor) -> Vec<Diagnostic> {
    let name = interceptor.name();
    let at = |d: Diagnostic| d.note(format!("declared at {}", interceptor.origin()));
    let mut found = Vec::new();
    let hooks = &interceptor.descriptor.hooks;
    if hooks.is_empty() || hooks.iter().all(|h| h.events.is_empty()) {
        found.push(
            at(Diagnostic::new(
                "mcp_interceptors::no_hooks",
                format!("interceptor `{name}` hooks no event"),
            ))
            .help("name the events it runs on, such as `request = [\"tools/call\"]`"),
        );
    }
    for event in hooks.iter().flat_map(|h| &h.events) {
        if event != EVERY_EVENT && (!is_interceptable(event) || !event.contains('/')) {
            found.push(at(Diagnostic::new(
                "mcp_interceptors::not_interceptable",
                format!("interceptor `{name}` hooks `{event}`, which is not an interceptable event"),
            ))
            .note("events are request methods such as `tools/call`; `initialize`, `ping`, `completion/complete`, `server/discover`, `subscriptions/listen`, notifications and the extension's own methods are never intercepted")
            .help(format!("remove `{event}` from its hooks")));
        }
    }
    if interceptor.descriptor.kind == InterceptorType::Validation
        && interceptor.descriptor.priority_hint.is_some()
    {
        found.push(
            at(Diagnostic::new(
                "mcp_interceptors::priority_of_validator",
                format!("validator `{name}` has a priority"),
            ))
            .note("validators run all at once; only mutators run in an order")
            .help("remove its `priority`"),
        );
    }
    if let Some(schema) = &interceptor.descriptor.config_schema {
        let schema = JsonValue::Object(schema.clone());
        if let Err(error) = jsonschema::validator_for(&schema) {
            found.push(at(Diagnostic::new(
                "mcp_interceptors::config_schema",
                format!("the configuration schema of interceptor `{name}` is not a JSON Schema: {error}"),
            ))
            .help("fix the schema, or derive it from a type with `config = Type`"));
        } else if schema.get("type").and_then(JsonValue::as_str) != Some("object") {
            found.push(
                at(Diagnostic::new(
                    "mcp_interceptors::config_schema",
                    format!(
                        "the configuration schema of interceptor `{name}` is not an object schema"
                    ),
                ))
                .help("a configuration is an object: give its schema `\"type\": \"object\"`"),
            );
        }
    }
    found
}
