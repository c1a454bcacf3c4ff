//! The boot checks of MCP Apps, run on the assembled server and reported
//! all at once with the framework's own diagnostics.

use mcp_server::Server;
use mcp_server::boot::BootContext;
use mcp_server::boot::{Diagnostic, Validator};
use mcp_server::core::ext::apps::{
    McpUiResourceCsp, McpUiResourceMeta, McpUiToolMeta, RESOURCE_MIME_TYPE, URI_SCHEME_PREFIX,
};
use mcp_server::core::meta::Meta;
use mcp_server::handler::resource::UriTemplate;
use mcp_server::seam::Origin;

use crate::view::{Declared, Origins};

/// Checks every View, every `ui://` resource and every tool that names a View.
pub(crate) struct Checks;

impl Validator for Checks {
    fn validate(&self, server: &Server, boot: &BootContext) -> Vec<Diagnostic> {
        let origins = boot.shared::<Origins>();
        let at = |uri: &str| Origins::of(&origins.resources, uri);
        let mut found = Vec::new();
        for uri in boot.shared::<Declared>().uris() {
            if !uri.starts_with(URI_SCHEME_PREFIX) {
                found.push(not_a_ui_uri(&uri, at(&uri)));
            }
        }
        let (resources, templates) = (server.resources(), server.resource_templates());
        let resources = resources
            .iter()
            .map(|r| (&r.uri, r.mime_type.as_deref(), r.meta.as_ref()));
        let templates = templates
            .iter()
            .map(|t| (&t.uri_template, t.mime_type.as_deref(), t.meta.as_ref()));
        for (uri, mime, meta) in resources.chain(templates) {
            if uri.starts_with(URI_SCHEME_PREFIX) {
                found.extend(mime_type(uri, mime, at(uri)));
                found.extend(sandbox(uri, meta, at(uri)));
            }
        }
        let views = Views::of(server);
        for tool in server.tools() {
            let origin = Origins::of(&origins.tools, &tool.name);
            found.extend(linkage(&tool.name, tool.meta.as_ref(), origin, &views));
        }
        found
    }
}

/// The `ui://` resources and templates a tool may name.
struct Views {
    fixed: Vec<String>,
    templates: Vec<UriTemplate>,
}

impl Views {
    fn of(server: &Server) -> Self {
        let ui = |uri: &&str| uri.starts_with(URI_SCHEME_PREFIX);
        Self {
            fixed: server
                .resources()
                .iter()
                .map(|r| r.uri.as_str())
                .filter(ui)
                .map(str::to_owned)
                .collect(),
            templates: server
                .resource_templates()
                .iter()
                .map(|t| t.uri_template.as_str())
                .filter(ui)
                .filter_map(|t| UriTemplate::parse(t).ok())
                .collect(),
        }
    }

    fn contains(&self, uri: &str) -> bool {
        self.fixed.iter().any(|v| v == uri)
            || self.templates.iter().any(|t| t.matches(uri).is_some())
    }

    fn closest(&self, uri: &str) -> Option<&str> {
        self.fixed
            .iter()
            .map(String::as_str)
            .chain(self.templates.iter().map(UriTemplate::as_str))
            .map(|v| (strsim::jaro_winkler(uri, v), v))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, v)| v)
    }
}

fn located(diagnostic: Diagnostic, what: &str, origin: Option<Origin>) -> Diagnostic {
    match origin {
        Some(origin) => diagnostic.note(format!("{what} at {origin}")),
        None => diagnostic,
    }
}

fn not_a_ui_uri(uri: &str, origin: Option<Origin>) -> Diagnostic {
    let name = uri
        .rsplit(['/', ':'])
        .find(|s| !s.is_empty())
        .unwrap_or("view");
    located(
        Diagnostic::new(
            "mcp_apps::view_uri",
            format!("View `{uri}` does not have a `ui://` URI"),
        ),
        "declared",
        origin,
    )
    .note("hosts render only `ui://` resources as Views")
    .help(format!("give it a URI such as `ui://my-server/{name}`"))
}

fn mime_type(uri: &str, mime: Option<&str>, origin: Option<Origin>) -> Option<Diagnostic> {
    if mime == Some(RESOURCE_MIME_TYPE) {
        return None;
    }
    let has = mime.map_or_else(|| "no MIME type".to_owned(), |m| format!("MIME type `{m}`"));
    Some(
        located(
            Diagnostic::new(
                "mcp_apps::view_mime_type",
                format!("`ui://` resource `{uri}` has {has}"),
            ),
            "contributed",
            origin,
        )
        .note(format!(
            "every `ui://` resource is a View, of MIME type `{RESOURCE_MIME_TYPE}`"
        ))
        .help(format!(
            "declare it with `mcp_apps::View`, or set its MIME type to `{RESOURCE_MIME_TYPE}`"
        )),
    )
}

/// The problems of a View's `_meta.ui`: unreadable, or CSP entries that are not origins.
fn sandbox(uri: &str, meta: Option<&Meta>, origin: Option<Origin>) -> Vec<Diagnostic> {
    let ui = match meta.map(McpUiResourceMeta::from_meta).transpose() {
        Ok(ui) => ui.flatten(),
        Err(error) => {
            return vec![
                located(
                    Diagnostic::new(
                        "mcp_apps::view_meta",
                        format!("View `{uri}` has a `_meta.ui` that is not a View's settings"),
                    ),
                    "contributed",
                    origin,
                )
                .note(error.to_string())
                .help("build the settings with `mcp_apps::View` or `McpUiResourceMeta`"),
            ];
        }
    };
    let Some(csp) = ui.and_then(|ui| ui.csp) else {
        return Vec::new();
    };
    let McpUiResourceCsp {
        connect_domains,
        resource_domains,
        frame_domains,
        base_uri_domains,
    } = csp;
    let lists = [
        ("connectDomains", connect_domains),
        ("resourceDomains", resource_domains),
        ("frameDomains", frame_domains),
        ("baseUriDomains", base_uri_domains),
    ];
    let mut found = Vec::new();
    for (list, values) in lists {
        for value in values.unwrap_or_default() {
            let Some(problem) = crate::csp::problem(&value) else {
                continue;
            };
            found.push(
                located(
                    Diagnostic::new(
                        "mcp_apps::csp_domain",
                        format!("View `{uri}` lists `{value}` in `csp.{list}`, which is not an origin"),
                    ),
                    "contributed",
                    origin,
                )
                .note(problem)
                .help(match as_origin(&value) {
                    Some(fixed) if fixed != value => format!("write the origin alone: `{fixed}`"),
                    _ => "write an origin: `https://api.example.com`, or `https://*.example.com` for its subdomains".to_owned(),
                }),
            );
        }
    }
    found
}

/// `value` cut to its scheme and authority, when that makes an origin.
fn as_origin(value: &str) -> Option<String> {
    let (scheme, rest) = value.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let fixed = format!("{scheme}://{authority}");
    crate::csp::problem(&fixed).is_none().then_some(fixed)
}

/// The problems of a tool's `_meta.ui`: unreadable, or naming a View that
/// is not a `ui://` URI or does not exist.
fn linkage(
    tool: &str,
    meta: Option<&Meta>,
    origin: Option<Origin>,
    views: &Views,
) -> Option<Diagnostic> {
    let ui = match meta.map(McpUiToolMeta::from_meta).transpose() {
        Ok(ui) => ui.flatten()?,
        Err(error) => {
            return Some(
                located(
                    Diagnostic::new(
                        "mcp_apps::tool_meta",
                        format!("tool `{tool}` has a `_meta.ui` that is not a tool's UI settings"),
                    ),
                    "contributed",
                    origin,
                )
                .note(error.to_string())
                .help("link the tool with `mcp_apps::ui!(tool, \"ui://…\")`"),
            );
        }
    };
    let uri = ui.resource_uri?;
    if !uri.starts_with(URI_SCHEME_PREFIX) {
        return Some(
            located(
                Diagnostic::new(
                    "mcp_apps::tool_view_uri",
                    format!("tool `{tool}` names `{uri}` as its View, which is not a `ui://` URI"),
                ),
                "contributed",
                origin,
            )
            .help("name the `ui://` URI of a View the server declares"),
        );
    }
    if views.contains(&uri) {
        return None;
    }
    let diagnostic = located(
        Diagnostic::new(
            "mcp_apps::unknown_view",
            format!("tool `{tool}` names View `{uri}`, which does not exist"),
        ),
        "contributed",
        origin,
    );
    Some(match views.closest(&uri) {
        Some(closest) => diagnostic.help(format!("the closest View is `{closest}`")),
        None => diagnostic.note("the server declares no View").help(format!(
            "declare `{uri}` with `mcp_apps::view!`, or fix the URI"
        )),
    })
}
