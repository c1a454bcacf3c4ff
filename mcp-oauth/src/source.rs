//! The principal source of a resource server: a bearer token, validated,
//! becomes the request's principal; a missing or refused one, a challenge
//! that points the client to the protected resource metadata.

use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::Algorithm;
use mcp_server::auth::Challenge;
use mcp_server::auth::{Channel, Credentials, Principal};
use mcp_server::seam::source::{Authenticated, Authentication, PrincipalSource};

use crate::config::OAuthSection;
use crate::introspection::Introspection;
use crate::jwks::Jwks;
use crate::jwt::{self, Expected};
use crate::metadata::{Resource, bearer};
use crate::token;

/// Validates bearer tokens for one resource.
pub struct OAuthPrincipalSource {
    resource: Resource,
    metadata_url: String,
    expected: Expected,
    jwks: Option<Arc<Jwks>>,
    introspection: Option<Introspection>,
    required: bool,
    scopes_supported: String,
    anonymous: Arc<Principal>,
}

impl std::fmt::Debug for OAuthPrincipalSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthPrincipalSource")
            .field("resource", &self.resource.uri())
            .field("issuer", &self.expected.issuer)
            .finish_non_exhaustive()
    }
}

impl OAuthPrincipalSource {
    /// The issuer's keys this source verifies tokens with, if it uses a JWKS.
    pub(crate) fn keys(&self) -> Option<Arc<Jwks>> {
        self.jwks.clone()
    }

    /// The source `section` configures; `None` when `oauth.resource` is not set.
    ///
    /// # Errors
    ///
    /// Each thing wrong with the section, as a line of a diagnostic.
    pub fn from_section(section: &OAuthSection) -> Result<Option<Self>, Vec<String>> {
        let Some(uri) = section.resource.as_deref() else {
            return Ok(None);
        };
        let mut problems = Vec::new();
        let resource = Resource::parse(uri)
            .map_err(|e| problems.push(format!("`oauth.resource`: {e}")))
            .ok();
        if section.authorization_servers.is_empty() {
            problems.push(
                "`oauth.authorization_servers` is empty: name the issuer of the tokens".into(),
            );
        }
        if section.jwks_uri.is_none() && section.introspection_endpoint.is_none() {
            problems.push(
                "neither `oauth.jwks_uri` nor `oauth.introspection_endpoint` is set: tokens could not be checked"
                    .into(),
            );
        }
        let mut algorithms = Vec::new();
        for name in &section.algorithms {
            match name.parse::<Algorithm>() {
                Ok(a) if !matches!(a, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512) => {
                    algorithms.push(a);
                }
                _ => problems.push(format!(
                    "`oauth.algorithms`: `{name}` is not an asymmetric JWS algorithm"
                )),
            }
        }
        let client = reqwest::Client::builder()
            .timeout(Duration::from_millis(section.http_timeout_ms))
            .build()
            .map_err(|e| problems.push(format!("the HTTP client could not be made: {e}")))
            .ok();
        let (Some(resource), Some(issuer), Some(client), true) =
            (resource, section.issuer(), client, problems.is_empty())
        else {
            return Err(problems);
        };
        let jwks = section.jwks_uri.clone().map(|uri| {
            Arc::new(Jwks::new(
                uri,
                client.clone(),
                Duration::from_secs(section.jwks_min_refresh_s),
                Duration::from_secs(section.jwks_ttl_s),
            ))
        });
        let introspection = section
            .introspection_endpoint
            .clone()
            .map(|endpoint| Introspection {
                endpoint,
                client_id: section.introspection_client_id.clone(),
                client_secret: section.introspection_client_secret.clone(),
                client,
            });
        Ok(Some(Self {
            metadata_url: resource.metadata_url(),
            expected: Expected::new(issuer, resource.uri(), &algorithms, section.leeway_s),
            resource,
            jwks,
            introspection,
            required: section.required,
            scopes_supported: section.scopes_supported.join(" "),
            anonymous: Arc::new(Principal::anonymous()),
        }))
    }

    /// The challenge to a request without a token.
    fn sign_in(&self) -> Challenge {
        let mut params = vec![("resource_metadata", self.metadata_url.as_str())];
        if !self.scopes_supported.is_empty() {
            params.push(("scope", &self.scopes_supported));
        }
        Challenge::unauthorized(
            bearer(&params),
            format!(
                "Authentication required: send a bearer token issued for {}",
                self.resource.uri()
            ),
        )
    }

    /// The challenge to a request whose token is refused.
    fn refuse(&self, why: &str) -> Challenge {
        tracing::debug!(target: "mcp_oauth", reason = why, "a bearer token was refused");
        Challenge::unauthorized(
            bearer(&[
                ("error", "invalid_token"),
                ("error_description", why),
                ("resource_metadata", &self.metadata_url),
            ]),
            format!("Invalid token: {why}"),
        )
    }

    async fn validate(&self, token: &str) -> Authenticated {
        let claims = match (&self.jwks, &self.introspection) {
            (Some(jwks), _) if jwt::looks_like_jwt(token) => {
                jwt::validate(token, jwks, &self.expected).await
            }
            (_, Some(introspection)) => {
                introspection
                    .validate(
                        token,
                        &self.expected.issuer,
                        &self.expected.audience,
                        self.expected.leeway_s,
                    )
                    .await
            }
            (Some(_), None) => Err("the token is not a JWT".to_owned()),
            (None, None) => Err("no way to check tokens is configured".to_owned()),
        };
        match claims {
            Ok(claims) => Ok(Arc::new(token::principal(claims))),
            Err(why) => Err(self.refuse(&why)),
        }
    }
}

impl PrincipalSource for OAuthPrincipalSource {
    /// Without waiting, no token can be checked: the caller is anonymous.
    fn principal(&self, _: &Credentials) -> Arc<Principal> {
        self.anonymous.clone()
    }

    fn authenticate<'a>(&'a self, credentials: &'a Credentials) -> Authentication<'a> {
        match credentials.bearer() {
            Some(token) => Authentication::later(self.validate(token)),
            // A stdio process without credentials in its environment runs
            // as its user chose: anonymous (MCP authorization is for HTTP).
            None if credentials.channel == Channel::Stdio || !self.required => {
                Authentication::ready(Ok(self.anonymous.clone()))
            }
            None => Authentication::ready(Err(self.sign_in())),
        }
    }
}
