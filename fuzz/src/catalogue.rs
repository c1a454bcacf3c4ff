//! What a server lists (tools, prompts, resources, templates), as valid
//! params for each method that names one of them.

use mcp_server::Server;
use serde_json::{Map, Value, json};

use crate::guard;
use crate::schema_example::example_of;
use crate::state::{REQUEST_STATE, TASK_ID};

/// What the server lists, as the params that name it.
#[derive(Debug, Default)]
pub(crate) struct Catalogue {
    /// Each tool's name and arguments that fit its input schema.
    tools: Vec<(String, Value)>,
    /// Each prompt's name and arguments.
    prompts: Vec<(String, Value)>,
    /// Resource URIs, and URIs that fit each template.
    uris: Vec<String>,
    /// The resource templates.
    templates: Vec<String>,
}

impl Catalogue {
    /// What `server` lists.
    pub(crate) fn of(server: &Server) -> Self {
        let tools = server
            .tools()
            .into_iter()
            .filter(|tool| !guard::SLOW_TOOLS.contains(&tool.name.as_str()))
            .map(|tool| {
                let schema = Value::Object(tool.input_schema.clone().into_iter().collect());
                (tool.name.clone(), example_of(&schema, &schema, 0))
            })
            .collect();
        let prompts = server
            .prompts()
            .into_iter()
            .map(|prompt| {
                let arguments: Map<String, Value> = prompt
                    .arguments
                    .iter()
                    .flatten()
                    .map(|a| (a.name.clone(), json!("test://static-text")))
                    .collect();
                (prompt.name.clone(), Value::Object(arguments))
            })
            .collect();
        let templates: Vec<String> = server
            .resource_templates()
            .into_iter()
            .map(|t| t.uri_template.clone())
            .collect();
        let mut uris: Vec<String> = server
            .resources()
            .into_iter()
            .map(|r| r.uri.clone())
            .collect();
        uris.extend(templates.iter().map(|t| filled(t)));
        Self {
            tools,
            prompts,
            uris,
            templates,
        }
    }

    /// Valid params for `method`, one per target where it has targets.
    pub(crate) fn params_for(&self, method: &str) -> Vec<Value> {
        match method {
            "tools/call" => self.tool_calls(),
            "prompts/get" => self
                .prompts
                .iter()
                .map(|(name, arguments)| json!({"name": name, "arguments": arguments}))
                .collect(),
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                self.uris.iter().map(|uri| json!({"uri": uri})).collect()
            }
            "completion/complete" => {
                let mut params = vec![json!({
                    "ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
                    "argument": {"name": "arg1", "value": "par"},
                    "context": {"arguments": {"arg2": "x"}}
                })];
                params.extend(self.templates.iter().map(|t| {
                    json!({"ref": {"type": "ref/resource", "uri": t}, "argument": {"name": "id", "value": "4"}})
                }));
                params
            }
            "initialize" => ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
                .into_iter()
                .map(|version| {
                    json!({
                        "protocolVersion": version,
                        "capabilities": {"roots": {"listChanged": true}, "sampling": {}, "elicitation": {}},
                        "clientInfo": {"name": "fuzz", "version": "1.0.0"}
                    })
                })
                .collect(),
            "logging/setLevel" => vec![json!({"level": "debug"}), json!({"level": "emergency"})],
            "subscriptions/listen" => vec![json!({"notifications": {
                "toolsListChanged": true,
                "promptsListChanged": true,
                "resourcesListChanged": true,
                "resourceSubscriptions": ["test://watched-resource"],
                "taskIds": [TASK_ID]
            }})],
            "tasks/get" | "tasks/cancel" | "tasks/result" => {
                vec![json!({"taskId": TASK_ID})]
            }
            "tasks/update" => vec![json!({
                "taskId": TASK_ID,
                "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": true}}}
            })],
            _ => vec![json!({}), json!({"cursor": "Y3Vyc29y"})],
        }
    }

    /// A call of every tool; input-asking tools also as a retry carrying
    /// answers and a request state; tools also as a legacy task.
    fn tool_calls(&self) -> Vec<Value> {
        let mut calls = Vec::new();
        for (name, arguments) in &self.tools {
            calls.push(json!({"name": name, "arguments": arguments}));
            calls.push(json!({"name": name, "arguments": arguments, "task": {"ttl": 60000}}));
            calls.push(json!({
                "name": name,
                "arguments": arguments,
                "inputResponses": {
                    "user_name": {"action": "accept", "content": {"name": "Ada"}},
                    "confirm": {"action": "decline"},
                    "sampling-0": {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"},
                    "roots-0": {"roots": [{"uri": "file:///tmp"}]}
                },
                "requestState": REQUEST_STATE
            }));
        }
        calls
    }
}

/// `template` with every `{variable}` filled.
fn filled(template: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in template.chars() {
        match c {
            '{' => inside = true,
            '}' if inside => {
                inside = false;
                out.push_str("42");
            }
            _ if inside => {}
            _ => out.push(c),
        }
    }
    out
}
