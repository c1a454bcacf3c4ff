//! Bearer JWTs: an accepted asymmetric algorithm, a signature by one of
//! the issuer's keys, the issuer, this server as audience, and the time.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use mcp_server::core::json::JsonObject;

use crate::jwks::Jwks;

/// What a token must show besides its signature.
pub(crate) struct Expected {
    pub(crate) issuer: String,
    pub(crate) audience: String,
    pub(crate) leeway_s: u64,
    /// The checks of each accepted algorithm, made once at boot.
    validations: Vec<(Algorithm, Validation)>,
}

impl Expected {
    /// Tokens of `issuer` for `audience`, signed with one of `algorithms`.
    pub(crate) fn new(
        issuer: &str,
        audience: &str,
        algorithms: &[Algorithm],
        leeway_s: u64,
    ) -> Self {
        let validations = algorithms
            .iter()
            .map(|&algorithm| {
                let mut validation = Validation::new(algorithm);
                validation.algorithms = vec![algorithm];
                validation.leeway = leeway_s;
                validation.validate_nbf = true;
                validation.set_issuer(&[issuer]);
                validation.set_audience(&[audience]);
                validation.set_required_spec_claims(&["exp", "iss", "aud"]);
                (algorithm, validation)
            })
            .collect();
        Self {
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
            leeway_s,
            validations,
        }
    }
}

/// Whether `token` has the shape of a JWS (three parts).
pub(crate) fn looks_like_jwt(token: &str) -> bool {
    token.split('.').count() == 3
}

/// The claims of `token`, or why it is refused.
pub(crate) async fn validate(
    token: &str,
    jwks: &Jwks,
    expected: &Expected,
) -> Result<JsonObject, String> {
    // `alg: none`, and any name this library does not know, fail here.
    let header = decode_header(token).map_err(|e| format!("the token is malformed: {e}"))?;
    let Some((_, validation)) = expected.validations.iter().find(|(a, _)| *a == header.alg) else {
        return Err(format!(
            "the token is signed with {:?}, which this server does not accept",
            header.alg
        ));
    };
    let key = jwks.key(header.kid.as_deref(), header.alg).await?;
    decode::<JsonObject>(token, &key, validation)
        .map(|data| data.claims)
        .map_err(|e| describe(e.kind()))
}

/// What a client is told of a refusal.
fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet".into(),
        ErrorKind::InvalidAudience => "the token was issued for another resource".into(),
        ErrorKind::InvalidIssuer => "the token was issued by another issuer".into(),
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key".into(),
        other => format!("the token is invalid ({other:?})"),
    }
}
