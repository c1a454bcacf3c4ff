//! What acme-notes contributes: tools, a prompt with completions,
//! resources and its method, each built from the boot context (the active
//! `NoteStore`, the `notes` section, the registered shortcuts).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonObject;
use mcp_server::core::prompts::{GetPrompt, GetPromptResult, Prompt, PromptArgument};
use mcp_server::core::resources::{
    ReadResource, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
    TextResourceContents,
};
use mcp_server::core::tools::{CallTool, CallToolResult, Tool};
use mcp_server::handler::completion::complete_handler;
use mcp_server::handler::resource::TemplateVariables;
use mcp_server::prelude::extension::*;

use crate::config::NotesSection;
use crate::method::{CountNotes, CountResult};
use crate::shortcuts::Shortcuts;
use crate::store::NoteStore;

/// How many times `note.purge` ran: a side effect a test can watch.
#[derive(Debug, Default)]
pub struct Purges(pub AtomicUsize);

/// Contributes the notes tools, prompt, resources and method.
#[derive(Debug, Default)]
pub struct NoteTools;

fn owner(ctx: &RequestContext) -> String {
    ctx.principal()
        .subject
        .clone()
        .unwrap_or_else(|| "anonymous".to_owned())
}

fn tool(name: &str, description: &str, properties: serde_json::Value) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), properties);
    Tool {
        name: name.into(),
        description: Some(description.into()),
        input_schema: schema,
        ..Default::default()
    }
}

fn text(result: &mut ReadResourceResult, uri: &str, text: String) {
    result
        .contents
        .push(ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: Some("text/plain".into()),
            text,
            meta: None,
        }));
}

impl Contributor for NoteTools {
    fn contribute(&self, into: &mut Contributions<'_>) {
        let boot = into.boot();
        let Some(store) = boot.active::<dyn NoteStore>() else {
            return;
        };
        let banner = boot.section::<NotesSection>().banner.unwrap_or_default();
        let shortcuts: Vec<String> = boot
            .members::<Shortcuts>()
            .iter()
            .map(|s| format!("{}: {}", s.key, s.text))
            .collect();
        let purges = boot.shared::<Purges>();

        let s = store.clone();
        into.tool(
            tool(
                "note.add",
                "Adds a note for the caller.",
                serde_json::json!({"text": {"type": "string"}}),
            ),
            handler_fn::<CallTool, _, _, _>(move |ctx, params| {
                let s = s.clone();
                async move {
                    let text = params
                        .arguments
                        .and_then(|a| a.get("text").and_then(|t| t.as_str().map(str::to_owned)))
                        .unwrap_or_default();
                    let n = s.add(&owner(&ctx), &text);
                    Ok(CallToolResult::text(format!(
                        "note {n} kept in {}",
                        s.kind()
                    )))
                }
            }),
        );
        let s = store.clone();
        into.tool(
            tool(
                "note.list",
                "Lists the caller's notes and the shortcuts.",
                serde_json::json!({}),
            ),
            handler_fn::<CallTool, _, _, _>(move |ctx, _| {
                let (s, banner, shortcuts) = (s.clone(), banner.clone(), shortcuts.clone());
                async move {
                    let mut lines: Vec<String> = s
                        .list(&owner(&ctx))
                        .into_iter()
                        .map(|n| format!("{banner}{n}"))
                        .collect();
                    lines.extend(shortcuts);
                    Ok(CallToolResult::text(lines.join("\n")))
                }
            }),
        );
        let s = store.clone();
        into.tool(
            tool(
                "note.purge",
                "Forgets every note of every owner.",
                serde_json::json!({}),
            ),
            handler_fn::<CallTool, _, _, _>(move |_, _| {
                let (s, purges) = (s.clone(), purges.clone());
                async move {
                    s.purge();
                    purges.0.fetch_add(1, Ordering::SeqCst);
                    Ok(CallToolResult::text("purged"))
                }
            }),
        );
        into.prompt(
            Prompt {
                name: "note.digest".into(),
                description: Some("A digest of one owner's notes.".into()),
                arguments: Some(vec![PromptArgument {
                    name: "owner".into(),
                    required: Some(true),
                    ..Default::default()
                }]),
                ..Default::default()
            },
            handler_fn::<GetPrompt, _, _, _>(|_, params| async move {
                let owner = params
                    .arguments
                    .and_then(|a| a.get("owner").cloned())
                    .unwrap_or_default();
                Ok(GetPromptResult {
                    description: Some(format!("Digest of {owner}")),
                    ..Default::default()
                })
            }),
        );
        let s = store.clone();
        into.completion(
            CompletionRef::PromptArgument {
                prompt: "note.digest".into(),
                argument: "owner".into(),
            },
            complete_handler(move |_, value: String| {
                let s = s.clone();
                async move {
                    s.owners()
                        .into_iter()
                        .filter(|o| o.starts_with(&value))
                        .collect::<Vec<_>>()
                }
            }),
        );
        let s = store.clone();
        into.resource(
            Resource {
                uri: "notes-admin://all".into(),
                name: "all-notes".into(),
                ..Default::default()
            },
            handler_fn::<ReadResource, _, _, _>(move |_, params| {
                let s = s.clone();
                async move {
                    let mut result = ReadResourceResult::default();
                    text(&mut result, &params.uri, s.owners().join("\n"));
                    Ok(result)
                }
            }),
        );
        let s = store.clone();
        into.resource_template(
            ResourceTemplate {
                uri_template: "notes://{owner}".into(),
                name: "notes-of".into(),
                ..Default::default()
            },
            handler_fn::<ReadResource, _, _, _>(move |ctx, params| {
                let s = s.clone();
                async move {
                    let owner = ctx
                        .get::<TemplateVariables>()
                        .and_then(|v| v.0.get("owner").cloned())
                        .unwrap_or_default();
                    let mut result = ReadResourceResult::default();
                    text(&mut result, &params.uri, s.list(&owner).join("\n"));
                    Ok(result)
                }
            }),
        );
        let s: Arc<dyn NoteStore> = store;
        into.method::<CountNotes>(handler_fn::<CountNotes, _, _, _>(move |_, params| {
            let s = s.clone();
            async move {
                if params.owner.is_empty() {
                    return Err(ErrorObject::invalid_params("`owner` is empty"));
                }
                Ok(CountResult {
                    count: s.list(&params.owner).len(),
                    ..Default::default()
                })
            }
        }));
    }
}

fn note_tools(_: &BootContext) -> Item {
    Item::contributor(NoteTools)
}

mcp_server::register!(Registration::new(origin!(), "NoteTools", 0, note_tools));
