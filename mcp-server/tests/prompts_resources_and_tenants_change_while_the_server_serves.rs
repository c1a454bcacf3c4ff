//! The runtime catalog beyond tools: prompts, resources and templates added
//! and removed while the server serves, catalogs that differ by caller, and
//! the catalog report.

mod support;

use std::sync::Arc;
use std::time::Duration;

use mcp_server::RequestContext;
use mcp_server::auth::Credentials;
use mcp_server::catalog::{CatalogChange, Since};
use mcp_server::core::content::ContentBlock;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::prompts::{
    GetPrompt, GetPromptRequestParams, GetPromptResult, ListPrompts, Prompt, PromptMessage,
};
use mcp_server::core::resources::{
    ListResourceTemplates, ListResources, ReadResource, ReadResourceRequestParams,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
};
use mcp_server::core::tools::{CallTool, CallToolResult};
use mcp_server::handler::Reply;
use mcp_server::handler::handler_fn;
use mcp_server::handler::resource::TemplateVariables;
use mcp_server::seam::TargetKind;
use mcp_server::seam::contributor::Contributions;
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::testing::MemoryClient;
use serde_json::json;
use support::origin;

fn change() -> CatalogChange {
    CatalogChange::new(origin("admin", 7))
}

fn prompt(name: &str) -> Prompt {
    Prompt {
        name: name.into(),
        ..Default::default()
    }
}

/// A prompt handler whose one message says `text`.
fn saying(text: &'static str) -> impl mcp_server::handler::Handler<GetPrompt> {
    handler_fn::<GetPrompt, _, _, _>(move |_, _| async move {
        Ok(GetPromptResult {
            messages: vec![PromptMessage {
                role: mcp_server::core::content::Role::User,
                content: ContentBlock::text(text),
            }],
            ..Default::default()
        })
    })
}

fn resource(uri: &str) -> Resource {
    Resource {
        uri: uri.into(),
        name: uri.into(),
        ..Default::default()
    }
}

fn template(uri_template: &str) -> ResourceTemplate {
    ResourceTemplate {
        uri_template: uri_template.into(),
        name: uri_template.into(),
        ..Default::default()
    }
}

/// A resource handler that answers with the URI it read and its variables.
fn reading() -> impl mcp_server::handler::Handler<ReadResource> {
    handler_fn::<ReadResource, _, _, _>(
        |ctx: RequestContext, params: ReadResourceRequestParams| async move {
            let variables = ctx.get::<TemplateVariables>().unwrap_or_default();
            let text = format!("{} {:?}", params.uri, variables.0);
            Ok(ReadResourceResult {
                contents: vec![ResourceContents::text(params.uri, text)],
                ..Default::default()
            })
        },
    )
}

/// A server with one tool, one prompt, one resource and one template of boot.
fn served(c: &mut Contributions) {
    support::add_named_tool(c, "boot_tool");
    c.prompt(prompt("boot_prompt"), saying("from boot"));
    c.resource(resource("docs://boot"), reading());
    c.resource_template(template("boot://{id}"), reading());
}

async fn complete<M: mcp_server::core::method::Method>(
    client: &MemoryClient,
    params: &M::Params,
) -> Result<M::Result, ErrorObject> {
    match client.request::<M>(params).await? {
        Reply::Complete(result) => Ok(result),
        _ => Err(ErrorObject::internal_error("not a complete result")),
    }
}

async fn prompt_names(client: &MemoryClient) -> Vec<String> {
    let listed = complete::<ListPrompts>(client, &Default::default())
        .await
        .unwrap();
    listed.prompts.into_iter().map(|p| p.name).collect()
}

async fn get_prompt(client: &MemoryClient, name: &str) -> Result<GetPromptResult, ErrorObject> {
    let params = GetPromptRequestParams {
        name: name.into(),
        ..Default::default()
    };
    complete::<GetPrompt>(client, &params).await
}

async fn read(client: &MemoryClient, uri: &str) -> Result<String, ErrorObject> {
    let params = ReadResourceRequestParams {
        uri: uri.into(),
        ..Default::default()
    };
    let result = complete::<ReadResource>(client, &params).await?;
    match &result.contents[0] {
        ResourceContents::Text(text) => Ok(text.text.clone()),
        ResourceContents::Blob(_) => panic!("a text resource"),
    }
}

fn text_of(result: &GetPromptResult) -> String {
    serde_json::to_value(&result.messages[0].content).unwrap()["text"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_prompt_added_at_runtime_is_listed_got_announced_and_removed() {
    let server = support::server_with(served);
    let client = MemoryClient::new(&server);
    let mut listening =
        client.listen(json!({"promptsListChanged": true, "toolsListChanged": true}));
    listening.next().await.expect("the acknowledgement");

    let applied = server
        .catalog()
        .apply(change().add_prompt(prompt("added_prompt"), saying("from runtime")))
        .unwrap();
    assert_eq!(applied.prompts, ["added_prompt"]);
    assert!(applied.tools.is_empty());
    let heard = listening.next().await.unwrap();
    assert_eq!(heard.method, "notifications/prompts/list_changed");
    assert_eq!(prompt_names(&client).await, ["added_prompt", "boot_prompt"]);
    let got = get_prompt(&client, "added_prompt").await.unwrap();
    assert_eq!(text_of(&got), "from runtime");

    server
        .catalog()
        .apply(change().remove_prompt("added_prompt"))
        .unwrap();
    let unknown = get_prompt(&client, "added_prompt").await.unwrap_err();
    let never = get_prompt(&client, "never_prompt").await.unwrap_err();
    assert_eq!(unknown.code, never.code);
    assert_eq!(
        unknown.message.replace("added_prompt", "X"),
        never.message.replace("never_prompt", "X")
    );
    assert_eq!(prompt_names(&client).await, ["boot_prompt"]);
    // Only prompt changes were heard: no tool list changed.
    let second = listening.next().await.unwrap();
    assert_eq!(second.method, "notifications/prompts/list_changed");
    assert!(
        listening
            .next_within(Duration::from_millis(50))
            .await
            .is_none()
    );
}

#[tokio::test]
async fn resources_and_templates_added_at_runtime_are_listed_read_and_announced() {
    let server = support::server_with(served);
    let client = MemoryClient::new(&server);
    let mut listening = client.listen(json!({"resourcesListChanged": true}));
    listening.next().await.expect("the acknowledgement");

    let applied = server
        .catalog()
        .apply(
            change()
                .add_resource(resource("docs://added"), reading())
                .add_template(template("added://{id}/page"), reading()),
        )
        .unwrap();
    assert_eq!(applied.resources, ["docs://added"]);
    assert_eq!(applied.templates, ["added://{id}/page"]);
    // One change, one announcement for the list both belong to.
    let heard = listening.next().await.unwrap();
    assert_eq!(heard.method, "notifications/resources/list_changed");
    assert!(
        listening
            .next_within(Duration::from_millis(50))
            .await
            .is_none()
    );

    let resources = complete::<ListResources>(&client, &Default::default())
        .await
        .unwrap();
    let uris: Vec<_> = resources.resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["docs://added", "docs://boot"]);
    let templates = complete::<ListResourceTemplates>(&client, &Default::default())
        .await
        .unwrap();
    let patterns: Vec<_> = templates
        .resource_templates
        .iter()
        .map(|t| t.uri_template.as_str())
        .collect();
    assert_eq!(patterns, ["added://{id}/page", "boot://{id}"]);

    assert_eq!(
        read(&client, "docs://added").await.unwrap(),
        "docs://added {}"
    );
    assert_eq!(
        read(&client, "added://42/page").await.unwrap(),
        r#"added://42/page {"id": "42"}"#
    );
    assert_eq!(
        read(&client, "boot://7").await.unwrap(),
        r#"boot://7 {"id": "7"}"#
    );

    server
        .catalog()
        .apply(
            change()
                .remove_resource("docs://added")
                .remove_template("added://{id}/page"),
        )
        .unwrap();
    let gone = read(&client, "docs://added").await.unwrap_err();
    let never = read(&client, "docs://never").await.unwrap_err();
    assert_eq!(gone.code, never.code);
    assert!(read(&client, "added://42/page").await.is_err());
}

#[tokio::test]
async fn a_bad_template_and_a_kind_the_server_does_not_serve_are_refused_whole() {
    let tools_only = support::with_tools(&["only_tool"]).build();
    let refused = tools_only
        .catalog()
        .apply(
            change()
                .add_prompt(prompt("p"), saying("p"))
                .add_resource(resource("docs://r"), reading()),
        )
        .unwrap_err();
    let shown = refused.to_string();
    assert!(
        shown.contains(
            "error[mcp::kind_not_served]: prompt `p` cannot be added: this server serves no prompts"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("resource `docs://r` cannot be added"),
        "{shown}"
    );

    let server = support::server_with(served);
    let refused = server
        .catalog()
        .apply(
            change()
                .add_resource(resource("docs://fine"), reading())
                .add_template(template("bad://{id"), reading()),
        )
        .unwrap_err();
    assert!(
        refused.to_string().contains("bad://{id"),
        "{}",
        refused.to_string()
    );
    assert_eq!(server.catalog().version(), 0);
    assert!(server.catalog().resources().is_empty());
    let client = MemoryClient::new(&server);
    assert!(read(&client, "docs://fine").await.is_err());
}

/// A change whose members only the callers of `tenant` see.
fn for_tenant(tenant: &'static str) -> CatalogChange {
    change().scoped(support::tenant_only(tenant))
}

fn answering(text: &'static str) -> impl mcp_server::handler::Handler<CallTool> {
    handler_fn::<CallTool, _, _, _>(move |_, _| async move { Ok(CallToolResult::text(text)) })
}

#[tokio::test]
async fn two_tenants_see_only_their_own_tools_call_only_them_and_hear_only_their_changes() {
    let server = support::with_tools(&["shared"])
        .supply::<dyn PrincipalSource>(origin("auth", 1), "tenants", Arc::new(support::Tenants))
        .build();
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("acme-ada"));
    let bob = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("zeta-bob"));
    let mut ada_hears = ada.listen(json!({"toolsListChanged": true}));
    let mut bob_hears = bob.listen(json!({"toolsListChanged": true}));
    ada_hears.next().await.expect("the acknowledgement");
    bob_hears.next().await.expect("the acknowledgement");

    server
        .catalog()
        .apply(for_tenant("acme").add_tool(support::tool("acme_report"), answering("acme")))
        .unwrap();
    let heard = ada_hears.next().await.unwrap();
    assert_eq!(heard.method, "notifications/tools/list_changed");
    assert!(
        bob_hears
            .next_within(Duration::from_millis(100))
            .await
            .is_none(),
        "bob may not see acme's tool, so he does not hear of it"
    );
    server
        .catalog()
        .apply(for_tenant("zeta").add_tool(support::tool("zeta_report"), answering("zeta")))
        .unwrap();
    assert!(bob_hears.next().await.is_some());
    assert!(
        ada_hears
            .next_within(Duration::from_millis(100))
            .await
            .is_none()
    );

    let names = |tools: Vec<mcp_server::core::tools::Tool>| -> Vec<String> {
        tools.into_iter().map(|t| t.name).collect()
    };
    assert_eq!(
        names(ada.list_tools().await.unwrap()),
        ["acme_report", "shared"]
    );
    assert_eq!(
        names(bob.list_tools().await.unwrap()),
        ["shared", "zeta_report"]
    );
    let anonymous = MemoryClient::new(&server);
    assert_eq!(names(anonymous.list_tools().await.unwrap()), ["shared"]);

    let own = ada.call_tool("acme_report", json!({})).await.unwrap();
    assert_eq!(
        serde_json::to_value(&own.content[0]).unwrap()["text"],
        "acme"
    );
    let other = ada.call_tool("zeta_report", json!({})).await.unwrap_err();
    let never = ada.call_tool("never_was", json!({})).await.unwrap_err();
    assert_eq!(other.code, never.code);
    assert_eq!(
        other.message.replace("zeta_report", "X"),
        never.message.replace("never_was", "X"),
        "another tenant's tool answers exactly as one that does not exist"
    );
    assert!(bob.call_tool("acme_report", json!({})).await.is_err());

    // Removing acme's tool is heard by acme alone, too.
    server
        .catalog()
        .apply(change().remove_tool("acme_report"))
        .unwrap();
    assert!(ada_hears.next().await.is_some());
    assert!(
        bob_hears
            .next_within(Duration::from_millis(100))
            .await
            .is_none()
    );
}

#[tokio::test]
async fn the_catalog_report_names_every_member_with_where_and_since_when() {
    let server = support::server_with(served);
    server
        .catalog()
        .apply(change().add_prompt(prompt("added_prompt"), saying("x")))
        .unwrap();
    server
        .catalog()
        .apply(
            CatalogChange::new(origin("plugins", 3)).add_template(template("p://{x}"), reading()),
        )
        .unwrap();
    let report = server.catalog().report();
    assert_eq!(report.version, 2);
    let rows: Vec<_> = report
        .entries
        .iter()
        .map(|e| (e.kind, e.key.as_str(), e.since))
        .collect();
    assert_eq!(
        rows,
        [
            (TargetKind::Tool, "boot_tool", Since::Boot),
            (TargetKind::Prompt, "added_prompt", Since::Version(1)),
            (TargetKind::Prompt, "boot_prompt", Since::Boot),
            (TargetKind::Resource, "docs://boot", Since::Boot),
            (TargetKind::ResourceTemplate, "boot://{id}", Since::Boot),
            (TargetKind::ResourceTemplate, "p://{x}", Since::Version(2)),
        ]
    );
    assert_eq!(
        server
            .catalog()
            .origin_of(TargetKind::ResourceTemplate, "p://{x}"),
        Some(origin("plugins", 3))
    );
    assert_eq!(
        server.catalog().origin_of(TargetKind::Tool, "boot_tool"),
        Some(origin("app", 1))
    );
    let shown = report.to_string();
    assert!(
        shown.starts_with("catalog, version 2: 6 members\n"),
        "{shown}"
    );
    assert!(shown.contains("prompt `added_prompt`"), "{shown}");
    assert!(shown.contains("since version 2"), "{shown}");
}

/// Completes with `values`.
fn completing(
    values: &'static [&'static str],
) -> impl mcp_server::handler::Handler<mcp_server::core::completion::Complete> {
    handler_fn::<mcp_server::core::completion::Complete, _, _, _>(move |_, _| async move {
        let mut result = mcp_server::core::completion::CompleteResult::default();
        result.completion.values = values.iter().map(|v| (*v).to_owned()).collect();
        Ok(result)
    })
}

async fn complete_prompt(
    client: &MemoryClient,
    prompt: &str,
    argument: &str,
) -> Result<serde_json::Value, ErrorObject> {
    client
        .request_raw(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": prompt},
                   "argument": {"name": argument, "value": ""}}),
        )
        .await
}

#[tokio::test]
async fn a_runtime_prompt_completes_behind_its_guards_and_its_completions_go_with_it() {
    use mcp_server::seam::contributor::CompletionRef;
    let server = support::server_with(|c| {
        served(c);
        c.completion(
            CompletionRef::Prompt("boot_prompt".into()),
            completing(&["boot"]),
        );
    });
    let argument = |prompt: &str, argument: &str| CompletionRef::PromptArgument {
        prompt: prompt.into(),
        argument: argument.into(),
    };
    let refused = server
        .catalog()
        .apply(change().complete(argument("not_yet", "city"), completing(&["x"])))
        .unwrap_err();
    assert!(refused.to_string().contains("not_yet"), "{refused}");
    server
        .catalog()
        .apply(
            change()
                .add_prompt(prompt("trip"), saying("trip"))
                .complete(argument("trip", "city"), completing(&["Paris", "Perth"]))
                .add_prompt(prompt("secret_trip"), saying("secret"))
                .complete(argument("secret_trip", "city"), completing(&["Area 51"])),
        )
        .unwrap();
    let client = MemoryClient::new(&server);
    let cities = complete_prompt(&client, "trip", "city").await.unwrap();
    assert_eq!(cities["completion"]["values"], json!(["Paris", "Perth"]));
    let other = complete_prompt(&client, "trip", "date").await.unwrap();
    assert_eq!(
        other["completion"]["values"],
        json!([]),
        "an argument without completions"
    );

    // A prompt hidden by the change's guard hides its completions too.
    let hidden = support::server_with(|c| {
        served(c);
        c.completion(
            CompletionRef::Prompt("boot_prompt".into()),
            completing(&["boot"]),
        );
    });
    hidden
        .catalog()
        .apply(
            change()
                .scoped(guard_fn("nobody", |_, _| Decision::deny("hidden")))
                .add_prompt(prompt("secret_trip"), saying("secret"))
                .complete(argument("secret_trip", "city"), completing(&["Area 51"])),
        )
        .unwrap();
    let client_of_hidden = MemoryClient::new(&hidden);
    let denied = complete_prompt(&client_of_hidden, "secret_trip", "city")
        .await
        .unwrap_err();
    let unknown = complete_prompt(&client_of_hidden, "never_was", "city")
        .await
        .unwrap_err();
    assert_eq!(denied.code, unknown.code);
    assert_eq!(
        denied.message.replace("secret_trip", "X"),
        unknown.message.replace("never_was", "X")
    );

    server
        .catalog()
        .apply(change().remove_prompt("trip"))
        .unwrap();
    assert!(complete_prompt(&client, "trip", "city").await.is_err());
}

#[tokio::test]
async fn a_kind_a_contributor_declares_served_takes_runtime_members_though_boot_has_none() {
    let server = support::server_with(|c| {
        c.serve(TargetKind::Resource).serve(TargetKind::Prompt);
        support::add_named_tool(c, "only_tool");
    });
    let capabilities = serde_json::to_value(server.capabilities()).unwrap();
    assert!(capabilities["resources"].is_object(), "{capabilities}");
    assert!(capabilities["prompts"].is_object(), "{capabilities}");
    let client = MemoryClient::new(&server);
    let listed = client
        .request_raw("resources/list", json!({}))
        .await
        .unwrap();
    assert_eq!(listed["resources"], json!([]));
    assert!(read(&client, "docs://later").await.is_err());

    server
        .catalog()
        .apply(
            change()
                .add_resource(resource("docs://later"), reading())
                .add_prompt(prompt("later"), saying("later")),
        )
        .unwrap();
    assert_eq!(prompt_names(&client).await, ["later"]);
    assert!(read(&client, "docs://later").await.is_ok());
}
