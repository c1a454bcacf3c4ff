//! A skill a guard hides from a caller is absent from `skills/list`,
//! `resources/list` and directory reads, and `skills/get` of it, reads of
//! its files and reads of its directories answer byte for byte as on a
//! server that never had it.

use std::sync::Arc;

use mcp_server::Server;
use mcp_server::auth::{Credentials, Principal};
use mcp_server::core::json::JsonValue;
use mcp_server::core::resources::Resource;
use mcp_server::seam::contributor::contributor_fn;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};
use mcp_server::seam::guard::{Decision, guard_fn};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::seam::{Item, Origin};
use mcp_server::testing::MemoryClient;
use mcp_skills::{ContributeSkills, Skill};
use serde_json::json;

/// The bearer token names the caller and its tenant: `acme-ada` is of `acme`.
struct Tenants;

impl PrincipalSource for Tenants {
    fn principal(&self, credentials: &Credentials) -> Arc<Principal> {
        Arc::new(match credentials.bearer() {
            Some(token) => Principal::named(token)
                .with_claim("tenant", token.split('-').next().unwrap_or_default()),
            None => Principal::anonymous(),
        })
    }
}

/// Every file under `skill://acme/` is for tenant acme only; so is the
/// one file `skill://shared/faq/internal.md`.
struct AcmeOnly;

impl HandlerCustomizer<Resource> for AcmeOnly {
    fn customize(&self, config: &mut HandlerConfig<'_, Resource>) {
        let uri = config.descriptor().uri.clone();
        let acme = uri.starts_with("skill://acme/") || uri == "skill://shared/faq/internal.md";
        // Of `skill://zeta/plans`, only the SKILL.md is guarded.
        if acme || uri == "skill://zeta/plans/SKILL.md" {
            config.add_guard(guard_fn("acme-only", |ctx, _| {
                match ctx.principal().claim("tenant").and_then(|t| t.as_str()) {
                    Some("acme") => Decision::Allow,
                    _ => Decision::deny("another tenant's skill"),
                }
            }));
        }
    }
}

fn faq() -> Skill {
    Skill::new(
        "shared/faq",
        "---\nname: faq\ndescription: Answer the common questions\n---\nSee `answers.md`.\n",
    )
    .file("answers.md", "Shipping takes two days.")
    .file("internal.md", "Margins are 40%.")
}

fn plans() -> Skill {
    Skill::new(
        "zeta/plans",
        "---\nname: plans\ndescription: Plan the quarter\n---\nSee `steps/one.md`.\n",
    )
    .file("steps/one.md", "Count the stock.")
}

fn refunds() -> Skill {
    Skill::new(
        "acme/refunds",
        "---\nname: refunds\ndescription: Refund acme's orders\n---\nSee `policy/limits.md`.\n",
    )
    .file("policy/limits.md", "Up to 500 EUR without approval.")
}

/// A server with the shared skill, and acme's unless `without_acme`.
fn server(without_acme: bool) -> Server {
    Server::builder()
        .named("test", "1.0.0")
        .supply::<dyn PrincipalSource>(Origin::FRAMEWORK, "tenants", Arc::new(Tenants))
        .register(
            Origin::FRAMEWORK,
            "acme-only",
            0,
            Item::customizer::<Resource>(AcmeOnly),
        )
        .contributor(
            Origin::FRAMEWORK,
            "skills",
            contributor_fn(move |into| {
                into.skill(faq());
                if !without_acme {
                    into.skill(refunds());
                }
            }),
        )
        .build()
}

fn as_bob(server: &Server) -> MemoryClient {
    MemoryClient::new(server).with_credentials(Credentials::bearer_token("zeta-bob"))
}

/// The whole response to one 2026-07-28 request, as sent.
async fn answer(client: &MemoryClient, method: &str, mut params: JsonValue) -> String {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    client.send(&request).await.expect("a response").to_string()
}

const PROBES: &[(&str, &str)] = &[
    ("skills/list", r#"{}"#),
    ("skills/get", r#"{"uri": "skill://acme/refunds/SKILL.md"}"#),
    ("resources/list", r#"{}"#),
    (
        "resources/read",
        r#"{"uri": "skill://acme/refunds/SKILL.md"}"#,
    ),
    (
        "resources/read",
        r#"{"uri": "skill://acme/refunds/policy/limits.md"}"#,
    ),
    (
        "resources/read",
        r#"{"uri": "skill://shared/faq/internal.md"}"#,
    ),
    (
        "resources/directory/read",
        r#"{"uri": "skill://acme/refunds"}"#,
    ),
    (
        "resources/directory/read",
        r#"{"uri": "skill://acme/refunds/policy"}"#,
    ),
    (
        "resources/directory/read",
        r#"{"uri": "skill://shared/faq"}"#,
    ),
];

#[tokio::test]
async fn a_caller_the_guard_hides_a_skill_from_gets_the_answers_of_a_server_without_it() {
    let (with, without) = (server(false), server(true));
    let (bob, bob_elsewhere) = (as_bob(&with), as_bob(&without));
    for (method, params) in PROBES {
        let params: JsonValue = serde_json::from_str(params).unwrap();
        assert_eq!(
            answer(&bob, method, params.clone()).await,
            answer(&bob_elsewhere, method, params.clone()).await,
            "{method} {params}"
        );
    }
}

#[tokio::test]
async fn the_caller_the_guard_admits_sees_the_skill_on_every_path() {
    let server = server(false);
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("acme-ada"));
    let listed = ada.request_raw("skills/list", json!({})).await.unwrap();
    let uris: Vec<&str> = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://acme/refunds/SKILL.md",
            "skill://shared/faq/SKILL.md"
        ]
    );
    ada.request_raw(
        "skills/get",
        json!({"uri": "skill://acme/refunds/SKILL.md"}),
    )
    .await
    .unwrap();
    let policy = ada
        .request_raw(
            "resources/read",
            json!({"uri": "skill://acme/refunds/policy/limits.md"}),
        )
        .await
        .unwrap();
    assert_eq!(
        policy["contents"][0]["text"],
        "Up to 500 EUR without approval."
    );
    let root = ada
        .request_raw(
            "resources/directory/read",
            json!({"uri": "skill://acme/refunds"}),
        )
        .await
        .unwrap();
    assert_eq!(root["resources"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_file_hidden_inside_a_skill_one_may_see_is_left_out_of_its_manifest_and_directory() {
    let server = server(false);
    let bob = as_bob(&server);
    let faq = bob
        .request_raw("skills/get", json!({"uri": "skill://shared/faq/SKILL.md"}))
        .await
        .unwrap();
    let files: Vec<&str> = faq["skill"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "skill://shared/faq/SKILL.md",
            "skill://shared/faq/answers.md"
        ]
    );
    let dir = bob
        .request_raw(
            "resources/directory/read",
            json!({"uri": "skill://shared/faq"}),
        )
        .await
        .unwrap();
    let names: Vec<&str> = dir["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["SKILL.md", "answers.md"]);
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("acme-ada"));
    let faq = ada
        .request_raw("skills/get", json!({"uri": "skill://shared/faq/SKILL.md"}))
        .await
        .unwrap();
    assert_eq!(faq["skill"]["resources"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn a_skill_whose_skill_md_is_hidden_has_no_directory_to_read() {
    let server = Server::builder()
        .named("test", "1.0.0")
        .supply::<dyn PrincipalSource>(Origin::FRAMEWORK, "tenants", Arc::new(Tenants))
        .register(
            Origin::FRAMEWORK,
            "acme-only",
            0,
            Item::customizer::<Resource>(AcmeOnly),
        )
        .contributor(
            Origin::FRAMEWORK,
            "skills",
            contributor_fn(|into| {
                into.skill(plans());
            }),
        )
        .build();
    let bob = as_bob(&server);
    for uri in ["skill://zeta/plans", "skill://zeta/plans/steps"] {
        let error = bob
            .request_raw("resources/directory/read", json!({"uri": uri}))
            .await
            .unwrap_err();
        assert_eq!(error.message, format!("Unknown directory: {uri}"));
    }
    let listed = bob.request_raw("skills/list", json!({})).await.unwrap();
    assert_eq!(listed["skills"], json!([]));
    let ada = MemoryClient::new(&server).with_credentials(Credentials::bearer_token("acme-ada"));
    let root = ada
        .request_raw(
            "resources/directory/read",
            json!({"uri": "skill://zeta/plans"}),
        )
        .await
        .unwrap();
    assert_eq!(root["resources"].as_array().unwrap().len(), 2);
}
