//! What the extension keeps for the server's life: every event's chain and
//! every configuration schema, compiled once.

use std::collections::HashMap;
use std::sync::OnceLock;

use mcp_server::core::json::JsonValue;

use crate::chain::Chains;
use crate::declare::Interceptor;

/// The state shared by the pipeline and the methods.
#[derive(Default)]
pub(crate) struct Host {
    state: OnceLock<State>,
}

/// The chains and the compiled schemas.
pub(crate) struct State {
    pub(crate) chains: Chains,
    /// By interceptor name; a schema that does not compile is a boot error
    /// (see `check`) and is missing here.
    pub(crate) schemas: HashMap<String, jsonschema::Validator>,
}

impl Host {
    /// The state, made from `members` by the first to ask (at boot).
    pub(crate) fn state(&self, members: &[Interceptor]) -> &State {
        self.state.get_or_init(|| State {
            chains: Chains::of(members),
            schemas: members
                .iter()
                .filter_map(|m| {
                    let schema = m.descriptor.config_schema.clone()?;
                    let validator = jsonschema::validator_for(&JsonValue::Object(schema)).ok()?;
                    Some((m.name().to_owned(), validator))
                })
                .collect(),
        })
    }
}
