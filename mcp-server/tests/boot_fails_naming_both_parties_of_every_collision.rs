//! Boot gathers every collision before failing, names both parties with
//! their origins, and renders each like a compiler error.

mod support;

use std::sync::Arc;

use mcp_server::boot::BootError;
use mcp_server::core::completion::{Complete, CompleteResult};
use mcp_server::core::error::ErrorObject;
use mcp_server::core::ext::tasks::GetTaskResult;
use mcp_server::core::prompts::{GetPrompt, GetPromptResult, Prompt};
use mcp_server::core::resources::{ReadResource, ReadResourceResult, Resource, ResourceTemplate};
use mcp_server::core::tools::{CallTool, CallToolResult, ListTools, ListToolsResult, Tool};
use mcp_server::handler::handler_fn;
use mcp_server::seam::Item;
use mcp_server::seam::Origin;
use mcp_server::seam::TargetKind;
use mcp_server::seam::contributor::{CompletionRef, contributor_fn};
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::source::AnonymousPrincipalSource;
use support::{add_named_tool, builder, origin, tool};

fn everything_twice(c: &mut mcp_server::seam::contributor::Contributions) {
    add_named_tool(c, "echo");
    c.prompt(
        Prompt {
            name: "greet".into(),
            ..Default::default()
        },
        handler_fn::<GetPrompt, _, _, _>(|_, _| async { Ok(GetPromptResult::default()) }),
    );
    c.resource(
        Resource {
            uri: "file:///a".into(),
            name: "a".into(),
            ..Default::default()
        },
        handler_fn::<ReadResource, _, _, _>(|_, _| async { Ok(ReadResourceResult::default()) }),
    );
    c.resource_template(
        ResourceTemplate {
            uri_template: "file:///{path}".into(),
            name: "files".into(),
            ..Default::default()
        },
        handler_fn::<ReadResource, _, _, _>(|_, _| async { Ok(ReadResourceResult::default()) }),
    );
    c.completion(
        CompletionRef::Prompt("greet".into()),
        handler_fn::<Complete, _, _, _>(|_, _| async { Ok(CompleteResult::default()) }),
    );
}

#[test]
fn every_collision_is_found_before_boot_fails() {
    let errors = builder()
        .contributor(
            origin("weather-ext", 12),
            "weather",
            contributor_fn(everything_twice),
        )
        .contributor(
            origin("shell-ext", 7),
            "shell",
            contributor_fn(everything_twice),
        )
        .try_build()
        .unwrap_err();
    let kinds: Vec<(String, TargetKind)> = errors
        .errors()
        .iter()
        .map(|e| match e {
            BootError::Duplicate {
                kind,
                name,
                first,
                second,
            } => {
                assert_eq!(
                    first.crate_name, "shell-ext",
                    "sorted by origin, shell-ext first"
                );
                assert_eq!(second.crate_name, "weather-ext");
                (name.clone(), *kind)
            }
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("echo".into(), TargetKind::Tool),
            ("greet".into(), TargetKind::Prompt),
            ("file:///a".into(), TargetKind::Resource),
            ("file:///{path}".into(), TargetKind::ResourceTemplate),
            ("prompt `greet`".into(), TargetKind::Completion),
        ]
    );
}

#[test]
fn a_duplicate_tool_renders_like_a_compiler_error() {
    let weather = Origin {
        crate_name: "weather-ext",
        crate_version: "0.3.1",
        module: "weather_ext::tools",
        file: "src/tools.rs",
        line: 12,
    };
    let shell = Origin {
        crate_name: "shell-ext",
        crate_version: "0.1.0",
        module: "shell_ext::echo",
        file: "src/echo.rs",
        line: 7,
    };
    let errors = builder()
        .contributor(
            weather,
            "weather",
            contributor_fn(|c| add_named_tool(c, "echo")),
        )
        .contributor(
            shell,
            "shell",
            contributor_fn(|c| add_named_tool(c, "echo")),
        )
        .try_build()
        .unwrap_err();
    assert_eq!(
        errors.to_string(),
        "\
error[mcp::duplicate_tool]: tool `echo` is contributed twice
  = note: first:  shell-ext 0.1.0 (shell_ext::echo, src/echo.rs:7)
  = note: second: weather-ext 0.3.1 (weather_ext::tools, src/tools.rs:12)
  = help: rename one with `name = \"...\"`, or remove one crate from the build

error: boot failed because of the previous error"
    );
}

#[test]
fn a_method_contributed_under_a_built_in_name_fails_naming_the_framework() {
    let errors = builder()
        .contributor(
            origin("rogue", 3),
            "rogue",
            contributor_fn(|c| {
                c.method::<ListTools>(handler_fn::<ListTools, _, _, _>(|_, _| async {
                    Ok(ListToolsResult::default())
                }));
            }),
        )
        .try_build()
        .unwrap_err();
    let [
        BootError::DuplicateMethod {
            method,
            first,
            second,
        },
    ] = errors.errors()
    else {
        panic!("{errors}")
    };
    assert_eq!(method, "tools/list");
    assert_eq!(*first, Origin::FRAMEWORK);
    assert_eq!(second.crate_name, "rogue");
    assert_eq!(
        errors.errors()[0].to_string(),
        "\
error[mcp::duplicate_method]: method `tools/list` is built in and contributed again
  = note: first:  mcp-server 0.1.0 (built in)
  = note: second: rogue 0.1.0 (rogue, src/lib.rs:3)
  = help: give a contributed method its own name under a vendor prefix (`com.example/...`), or remove one crate from the build"
    );
}

#[test]
fn a_method_contributed_twice_fails_naming_both() {
    let contribute = || {
        contributor_fn(|c| {
            c.method::<mcp_server::core::ext::tasks::GetTask>(handler_fn::<
                mcp_server::core::ext::tasks::GetTask,
                _,
                _,
                _,
            >(|_, _| async {
                Err::<GetTaskResult, _>(ErrorObject::internal_error("unused"))
            }));
        })
    };
    let errors = builder()
        .contributor(origin("a", 1), "a", contribute())
        .contributor(origin("b", 2), "b", contribute())
        .try_build()
        .unwrap_err();
    let [
        BootError::DuplicateMethod {
            method,
            first,
            second,
        },
    ] = errors.errors()
    else {
        panic!("{errors}")
    };
    assert_eq!(
        (method.as_str(), first.crate_name, second.crate_name),
        ("tasks/get", "a", "b")
    );
}

#[test]
fn two_strategies_for_one_seam_fail_boot_naming_both() {
    let source = || {
        Item::supply::<dyn mcp_server::seam::source::PrincipalSource>(Arc::new(
            AnonymousPrincipalSource::default(),
        ))
    };
    let errors = builder()
        .register(origin("auth-a", 1), "OidcSource", 0, source())
        .register(origin("auth-b", 2), "ApiKeySource", 0, source())
        .try_build()
        .unwrap_err();
    let [
        BootError::DuplicateStrategy {
            seam,
            first,
            second,
        },
    ] = errors.errors()
    else {
        panic!("{errors}")
    };
    assert_eq!(*seam, "PrincipalSource");
    assert_eq!(
        (first.0.as_str(), second.0.as_str()),
        ("OidcSource", "ApiKeySource")
    );
    assert!(
        errors
            .to_string()
            .contains("= help: remove one from the build, or register none")
    );
}

#[test]
fn the_default_strategy_wins_when_none_is_registered_and_the_report_says_why() {
    let server = builder().build();
    let selection = server
        .report()
        .selections
        .iter()
        .find(|s| s.seam == "PrincipalSource")
        .unwrap();
    assert_eq!(selection.winner, "AnonymousPrincipalSource");
    assert_eq!(selection.reason, "default: none was registered");
    assert!(
        server
            .report()
            .to_string()
            .contains("PrincipalSource: `AnonymousPrincipalSource` — default: none was registered")
    );
}

struct Renamer;
impl HandlerCustomizer<Tool> for Renamer {
    fn customize(&self, config: &mut HandlerConfig<Tool>) {
        config.descriptor_mut().name.push_str("_v2");
        config.descriptor_mut().description = Some("allowed".into());
    }
}

struct SchemaChanger;
impl HandlerCustomizer<Tool> for SchemaChanger {
    fn customize(&self, config: &mut HandlerConfig<Tool>) {
        config
            .descriptor_mut()
            .input_schema
            .insert("required".into(), serde_json::json!(["x"]));
    }
}

struct Describer;
impl HandlerCustomizer<Tool> for Describer {
    fn customize(&self, config: &mut HandlerConfig<Tool>) {
        config.descriptor_mut().description = Some("described".into());
        config.descriptor_mut().title = Some("Echo".into());
    }
}

#[test]
fn a_customizer_that_changes_a_tool_name_or_schema_fails_boot_naming_it() {
    let errors = builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(|c| add_named_tool(c, "echo")),
        )
        .register(
            origin("rename-ext", 9),
            "Renamer",
            0,
            Item::customizer::<mcp_server::core::tools::Tool>(Renamer),
        )
        .register(
            origin("schema-ext", 4),
            "SchemaChanger",
            1,
            Item::customizer::<mcp_server::core::tools::Tool>(SchemaChanger),
        )
        .try_build()
        .unwrap_err();
    let found: Vec<(&str, &str, &str)> = errors
        .errors()
        .iter()
        .map(|e| match e {
            BootError::IdentityChanged {
                customizer,
                field,
                origin,
                ..
            } => (customizer.as_str(), *field, origin.crate_name),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        found,
        [
            ("Renamer", "name", "rename-ext"),
            ("SchemaChanger", "inputSchema", "schema-ext")
        ]
    );
    assert!(errors.errors()[0].to_string().starts_with(
        "error[mcp::identity_changed]: customizer `Renamer` changed the `name` of tool `echo`\n  = note: customizer: rename-ext 0.1.0"
    ));
}

#[test]
fn a_customizer_may_change_metadata() {
    let server = builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(|c| {
                c.tool(
                    tool("echo"),
                    handler_fn::<CallTool, _, _, _>(|_, _| async { Ok(CallToolResult::text("x")) }),
                );
            }),
        )
        .register(
            origin("docs-ext", 2),
            "Describer",
            0,
            Item::customizer::<mcp_server::core::tools::Tool>(Describer),
        )
        .build();
    assert!(server.report().to_json().contains("call-tool customizer"));
    let call = server
        .report()
        .methods
        .iter()
        .find(|m| m.method == "tools/list")
        .unwrap();
    assert_eq!(call.owner, Origin::FRAMEWORK);
}

#[tokio::test]
async fn a_customized_description_is_what_clients_list() {
    let server = builder()
        .contributor(
            origin("app", 1),
            "tools",
            contributor_fn(|c| add_named_tool(c, "echo")),
        )
        .register(
            origin("docs-ext", 2),
            "Describer",
            0,
            Item::customizer::<mcp_server::core::tools::Tool>(Describer),
        )
        .build();
    let tools = mcp_server::testing::MemoryClient::new(&server)
        .list_tools()
        .await
        .unwrap();
    assert_eq!(tools[0].description.as_deref(), Some("described"));
    assert_eq!(tools[0].title.as_deref(), Some("Echo"));
}

#[test]
fn an_expected_extension_that_is_not_linked_fails_with_the_use_to_add() {
    let errors = builder()
        .expect_extension("mcp-tasks")
        .try_build()
        .unwrap_err();
    assert_eq!(
        errors.errors()[0].to_string(),
        "\
error[mcp::missing_extension]: extension `mcp-tasks` is expected but not linked
  = note: an extension registers itself only when the final binary links it, and a dependency nobody names is not linked
  = help: add `use mcp_tasks as _;` to the crate root, and `mcp-tasks` to `[dependencies]`"
    );
}

#[test]
#[should_panic(expected = "error[mcp::duplicate_tool]: tool `echo` is contributed twice")]
fn build_panics_with_the_rendered_diagnostics() {
    builder()
        .contributor(
            origin("a", 1),
            "a",
            contributor_fn(|c| add_named_tool(c, "echo")),
        )
        .contributor(
            origin("b", 1),
            "b",
            contributor_fn(|c| add_named_tool(c, "echo")),
        )
        .build();
}

/// Counts every `tasks/get` of the legacy era, and passes it through.
struct LegacyTasksGet;

static LEGACY_GETS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl mcp_server::seam::interceptor::TypedInterceptor<mcp_server::core::legacy::tasks::GetTask>
    for LegacyTasksGet
{
    fn intercept<'a>(
        &'a self,
        _ctx: &'a mcp_server::RequestContext,
        params: <mcp_server::core::legacy::tasks::GetTask as mcp_server::core::method::Method>::Params,
        next: mcp_server::seam::interceptor::TypedNext<
            'a,
            mcp_server::core::legacy::tasks::GetTask,
        >,
    ) -> mcp_server::BoxFuture<
        'a,
        Result<
            mcp_server::seam::interceptor::Answer<mcp_server::core::legacy::tasks::GetTaskResult>,
            ErrorObject,
        >,
    > {
        LEGACY_GETS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        next.run(params)
    }
}

/// Both `tasks/get` methods: the tasks extension's (2026-07-28) and the
/// legacy core one (2025-11-25), each answering with its era's name.
fn both_tasks_gets(c: &mut mcp_server::seam::contributor::Contributions<'_>) {
    use mcp_server::core::{ext, legacy};
    c.method::<ext::tasks::GetTask>(handler_fn::<ext::tasks::GetTask, _, _, _>(|_, _| async {
        Err::<GetTaskResult, _>(ErrorObject::internal_error("modern tasks/get"))
    }));
    c.method::<legacy::tasks::GetTask>(handler_fn::<legacy::tasks::GetTask, _, _, _>(
        |_, _| async {
            Err::<legacy::tasks::GetTaskResult, _>(ErrorObject::internal_error("legacy tasks/get"))
        },
    ));
}

#[tokio::test]
async fn one_wire_name_is_one_method_per_era_and_typed_interceptors_follow_the_method_type() {
    let server = builder()
        .contributor(
            origin("tasks-ext", 1),
            "tasks",
            contributor_fn(both_tasks_gets),
        )
        .register(
            origin("audit-ext", 2),
            "LegacyTasksGet",
            0,
            Item::typed(LegacyTasksGet),
        )
        .build();
    let params = serde_json::json!({"taskId": "t-1"});
    let modern = mcp_server::testing::MemoryClient::new(&server);
    let before = LEGACY_GETS.load(std::sync::atomic::Ordering::SeqCst);
    let error = modern
        .request_raw("tasks/get", params.clone())
        .await
        .unwrap_err();
    assert_eq!(error.message, "modern tasks/get");
    assert_eq!(
        LEGACY_GETS.load(std::sync::atomic::Ordering::SeqCst),
        before
    );
    let legacy = mcp_server::testing::MemoryClient::new(&server).connected();
    legacy.initialize("2025-11-25").await.unwrap();
    let error = legacy.request_raw("tasks/get", params).await.unwrap_err();
    assert_eq!(error.message, "legacy tasks/get");
    assert_eq!(
        LEGACY_GETS.load(std::sync::atomic::Ordering::SeqCst),
        before + 1
    );
    let methods = &server.report().methods;
    assert_eq!(
        methods.iter().filter(|m| m.method == "tasks/get").count(),
        2
    );
}

#[test]
fn one_method_contributed_twice_in_one_era_fails_boot() {
    let errors = builder()
        .contributor(origin("a", 1), "a", contributor_fn(both_tasks_gets))
        .contributor(
            origin("b", 1),
            "b",
            contributor_fn(|c| {
                c.method::<mcp_server::core::ext::tasks::GetTask>(handler_fn::<
                    mcp_server::core::ext::tasks::GetTask,
                    _,
                    _,
                    _,
                >(|_, _| async {
                    Err::<GetTaskResult, _>(ErrorObject::internal_error("unused"))
                }));
            }),
        )
        .try_build()
        .unwrap_err();
    assert_eq!(
        errors.errors(),
        [BootError::DuplicateMethod {
            method: "tasks/get".into(),
            first: origin("a", 1),
            second: origin("b", 1),
        }]
    );
}

#[test]
fn a_typed_interceptor_for_a_method_nothing_serves_fails_boot() {
    let errors = builder()
        .register(
            origin("audit-ext", 2),
            "LegacyTasksGet",
            0,
            Item::typed(LegacyTasksGet),
        )
        .try_build()
        .unwrap_err();
    assert_eq!(
        errors.errors(),
        [BootError::UnknownMethod {
            interceptor: "LegacyTasksGet".into(),
            origin: origin("audit-ext", 2),
            method: "tasks/get".into()
        }]
    );
}

struct AdvertiseTasks;
impl mcp_server::seam::customizer::ServerCapabilitiesCustomizer for AdvertiseTasks {
    fn customize(
        &self,
        capabilities: &mut mcp_server::core::capabilities::ServerCapabilities,
        _: &mcp_server::boot::BootContext,
    ) {
        capabilities
            .extensions
            .get_or_insert_default()
            .insert("io.modelcontextprotocol/tasks".into(), Default::default());
    }
}

#[tokio::test]
async fn an_extension_advertises_itself_through_a_capabilities_customizer() {
    let server = builder()
        .register(
            origin("tasks-ext", 3),
            "AdvertiseTasks",
            0,
            Item::capabilities(AdvertiseTasks),
        )
        .build();
    assert!(
        server
            .capabilities()
            .has_extension("io.modelcontextprotocol/tasks")
    );
    let discovered = mcp_server::testing::MemoryClient::new(&server)
        .request_raw("server/discover", serde_json::json!({}))
        .await
        .unwrap();
    assert_eq!(
        discovered["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        serde_json::json!({})
    );
}
