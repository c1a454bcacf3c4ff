//! Scope guards: a tool, prompt or resource that needs scopes, declared in
//! one line next to it with [`require_scope!`](crate::require_scope).
//!
//! A caller whose token lacks a scope either does not see the target at
//! all (**hide**, the default: absent from lists, and a call answers as for
//! an unknown one) or sees it and is refused each call with `403` and
//! `error="insufficient_scope"` naming the scopes needed (**challenge**), so
//! its client can ask the authorization server for them and retry.
//!
//! ```
//! use mcp_oauth::scope::{OnMissing, RequireScopes};
//! use mcp_server::seam::guard::Guard;
//!
//! let guard = RequireScopes::new("notes:write", OnMissing::Challenge, None);
//! assert_eq!(guard.name(), "require-scope(notes:write, challenge)");
//! ```

use mcp_server::RequestContext;
use mcp_server::auth::Challenge;
use mcp_server::boot::BootContext;
use mcp_server::seam::Item;
use mcp_server::seam::Target;
use mcp_server::seam::customizer::{Descriptor, GuardAttacher};
use mcp_server::seam::guard::{Decision, Guard};

use crate::config::OAuthSection;
use crate::metadata::{Resource, bearer};

/// What a caller without the scopes meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnMissing {
    /// The target is hidden from it.
    Hide,
    /// The target is listed, and each call is refused with a `403` challenge.
    Challenge,
}

/// A guard that lets through callers whose token carries every scope.
#[derive(Debug)]
pub struct RequireScopes {
    name: String,
    scopes: Vec<String>,
    on_missing: OnMissing,
    challenge: String,
}

impl RequireScopes {
    /// Requires the space-separated `scopes`; `metadata_url` is named in
    /// challenges when the server is a configured resource server.
    pub fn new(scopes: &str, on_missing: OnMissing, metadata_url: Option<&str>) -> Self {
        let scopes: Vec<String> = scopes.split_whitespace().map(str::to_owned).collect();
        let all = scopes.join(" ");
        let mode = match on_missing {
            OnMissing::Hide => "hide",
            OnMissing::Challenge => "challenge",
        };
        let description = format!("this needs the scope {all}");
        let mut params = vec![("error", "insufficient_scope"), ("scope", all.as_str())];
        if let Some(url) = metadata_url {
            params.push(("resource_metadata", url));
        }
        params.push(("error_description", &description));
        Self {
            name: format!("require-scope({all}, {mode})"),
            challenge: bearer(&params),
            scopes,
            on_missing,
        }
    }
}

impl Guard for RequireScopes {
    fn name(&self) -> &str {
        &self.name
    }

    fn check(&self, ctx: &RequestContext, target: &Target) -> Decision {
        let principal = ctx.principal();
        let Some(missing) = self.scopes.iter().find(|s| !principal.has_scope(s)) else {
            return Decision::Allow;
        };
        match self.on_missing {
            OnMissing::Hide => Decision::deny(format!("the caller lacks the scope `{missing}`")),
            OnMissing::Challenge => Decision::Challenge(Challenge::forbidden(
                self.challenge.clone(),
                format!(
                    "Insufficient scope: {target} needs the scope {}",
                    self.scopes.join(" ")
                ),
            )),
        }
    }
}

/// The item that attaches a [`RequireScopes`] guard to the one handler of
/// kind `D` named `name`: what [`require_scope!`](crate::require_scope) registers.
pub fn item<D: Descriptor>(
    boot: &BootContext,
    name: &str,
    scopes: &str,
    on_missing: OnMissing,
) -> Item {
    let section = boot.section::<OAuthSection>();
    let metadata_url = section
        .resource
        .as_deref()
        .and_then(|uri| Resource::parse(uri).ok())
        .map(|resource| resource.metadata_url());
    let guard = RequireScopes::new(scopes, on_missing, metadata_url.as_deref());
    Item::customizer_for::<D>(name, GuardAttacher::new(guard))
}

/// Requires OAuth scopes for one tool, prompt or resource, in one line next
/// to it: `require_scope!(tool "delete_note", "notes:write")` hides the
/// tool from callers without the scope; add `, challenge` to list it and
/// refuse their calls with a `403` step-up challenge instead. Several
/// scopes are written space-separated, as in a token.
///
/// ```
/// use mcp_server::{prompt, tool};
///
/// /// Deletes a note.
/// #[tool]
/// async fn delete_note(id: String) -> String { format!("deleted {id}") }
/// mcp_oauth::require_scope!(tool "delete_note", "notes:write", challenge);
///
/// /// Summarizes the notes.
/// #[prompt]
/// async fn summary() -> String { "…".into() }
/// mcp_oauth::require_scope!(prompt "summary", "notes:read");
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! require_scope {
    (tool $name:literal, $scopes:literal $(, $mode:ident)?) => {
        $crate::require_scope!(@register ::mcp_server::core::tools::Tool, $name, $scopes $(, $mode)?);
    };
    (prompt $name:literal, $scopes:literal $(, $mode:ident)?) => {
        $crate::require_scope!(@register ::mcp_server::core::prompts::Prompt, $name, $scopes $(, $mode)?);
    };
    (resource $name:literal, $scopes:literal $(, $mode:ident)?) => {
        $crate::require_scope!(@register ::mcp_server::core::resources::Resource, $name, $scopes $(, $mode)?);
    };
    (@mode) => { $crate::scope::OnMissing::Hide };
    (@mode hide) => { $crate::scope::OnMissing::Hide };
    (@mode challenge) => { $crate::scope::OnMissing::Challenge };
    (@register $descriptor:ty, $name:literal, $scopes:literal $(, $mode:ident)?) => {
        const _: () = {
            fn make(boot: &::mcp_server::boot::BootContext) -> ::mcp_server::seam::Item {
                $crate::scope::item::<$descriptor>(
                    boot,
                    $name,
                    $scopes,
                    $crate::require_scope!(@mode $($mode)?),
                )
            }
            ::mcp_server::register!(::mcp_server::seam::Registration::new(
                ::mcp_server::origin!(),
                concat!("require-scope ", $name),
                0,
                make
            ));
        };
    };
}
