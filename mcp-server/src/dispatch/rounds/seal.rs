//! Sealed request state: what one round of a multi round-trip request hands
//! the client to echo back, authenticated under a key of the active
//! [`KeyStrategy`] so that the client can neither forge nor alter it.
//!
//! With the `seal` feature the state is encrypted too (XChaCha20-Poly1305),
//! and a token reads `v1.<key id>.<base64url(nonce ‖ ciphertext ‖ tag)>`.
//! Without it the state is signed (HMAC-SHA256) but readable by the client,
//! and a token reads `s1.<key id>.<base64url(state)>.<base64url(tag)>`. In
//! both the version and key id are authenticated, so neither can be swapped
//! without the check failing; a server opens only the tokens of its own
//! kind.

use std::time::{SystemTime, UNIX_EPOCH};

use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonObject, JsonValue};
use serde::{Deserialize, Serialize};

use crate::seam::strategy::{KeyStrategy, StateKey};

/// What a sealed state holds. Short member names keep tokens small.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StateBody {
    /// A random id, for one-time use.
    #[serde(rename = "i")]
    pub(crate) id: String,
    /// The method of the request.
    #[serde(rename = "m")]
    pub(crate) method: String,
    /// The tool or prompt name, or the resource URI.
    #[serde(rename = "t")]
    pub(crate) target: String,
    /// SHA-256 over the request's params, canonical, without `_meta`,
    /// `inputResponses` and `requestState`.
    #[serde(rename = "d")]
    pub(crate) digest: String,
    /// The caller's subject; `None` for an anonymous caller.
    #[serde(rename = "p")]
    pub(crate) principal: Option<String>,
    /// Answers gathered in earlier rounds, by key.
    #[serde(rename = "a", default, skip_serializing_if = "JsonObject::is_empty")]
    pub(crate) answers: JsonObject,
    /// The keys asked for in the round that sealed this state.
    #[serde(rename = "q", default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) asked: Vec<String>,
    /// The handler's own state, carried across rounds.
    #[serde(rename = "c", default, skip_serializing_if = "Option::is_none")]
    pub(crate) carried: Option<JsonValue>,
    /// Seconds since the Unix epoch after which the state is refused.
    #[serde(rename = "e")]
    pub(crate) expires: u64,
}

/// Why a `requestState` is refused; each is a `-32602` with `data.reason`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Not a token, altered, or sealed with another key of the same id.
    Tampered,
    /// Sealed with a key this server no longer holds.
    UnknownKey(String),
    /// Past its expiry.
    Expired,
    /// Issued for another method or target.
    OtherRequest { issued_for: String },
    /// Issued for the same target with other arguments.
    OtherArguments,
    /// Issued to another caller.
    OtherPrincipal,
    /// Already used by a request that ran.
    Used,
}

impl Refusal {
    /// The JSON-RPC error a client gets.
    pub(crate) fn error(&self) -> ErrorObject {
        let (reason, message) = match self {
            Refusal::Tampered => (
                "tampered",
                "Invalid requestState: it was not issued by this server, or it was altered".to_owned(),
            ),
            Refusal::UnknownKey(id) => (
                "unknown_key",
                format!("Invalid requestState: it was sealed with key `{id}`, which this server does not hold"),
            ),
            Refusal::Expired => (
                "expired",
                "Invalid requestState: it has expired; send the request again without inputResponses and requestState".to_owned(),
            ),
            Refusal::OtherRequest { issued_for } => (
                "other_request",
                format!("Invalid requestState: it was issued for {issued_for}"),
            ),
            Refusal::OtherArguments => (
                "other_arguments",
                "Invalid requestState: it was issued for the same request with other arguments".to_owned(),
            ),
            Refusal::OtherPrincipal => (
                "other_principal",
                "Invalid requestState: it was issued to another caller".to_owned(),
            ),
            Refusal::Used => (
                "used",
                "Invalid requestState: it was already used; each requestState answers one retry".to_owned(),
            ),
        };
        ErrorObject::invalid_params(message).with_data(serde_json::json!({ "reason": reason }))
    }
}

/// Seals `body` with the active key: encrypted with the `seal` feature,
/// signed without it.
pub(crate) fn seal(keys: &dyn KeyStrategy, body: &StateBody) -> String {
    #[cfg(feature = "seal")]
    {
        encrypted::seal(keys, body)
    }
    #[cfg(not(feature = "seal"))]
    {
        signed::seal(keys, body)
    }
}

/// Opens a token: its body if it verifies under a key the strategy still
/// holds and has not expired at `now`.
pub(crate) fn open(
    keys: &dyn KeyStrategy,
    token: &str,
    now: SystemTime,
) -> Result<StateBody, Refusal> {
    #[cfg(feature = "seal")]
    let body = encrypted::open(keys, token)?;
    #[cfg(not(feature = "seal"))]
    let body = signed::open(keys, token)?;
    unexpired(body, now)
}

/// `body`, unless it expired at `now`.
fn unexpired(body: StateBody, now: SystemTime) -> Result<StateBody, Refusal> {
    if body.expires <= unix_seconds(now) {
        return Err(Refusal::Expired);
    }
    Ok(body)
}

/// The key a token names, or why there is none.
fn opening_key(keys: &dyn KeyStrategy, id: &str) -> Result<StateKey, Refusal> {
    keys.opening_key(id)
        .ok_or_else(|| Refusal::UnknownKey(id.chars().take(64).collect()))
}

/// The body a token carries, read as text as every other message is; bytes
/// that are not a body are a tampered token.
fn read_body(bytes: &[u8]) -> Result<StateBody, Refusal> {
    let text = std::str::from_utf8(bytes).map_err(|_| Refusal::Tampered)?;
    serde_json::from_str(text).map_err(|_| Refusal::Tampered)
}

/// Encrypted and authenticated state: XChaCha20-Poly1305, the version and
/// key id as associated data.
#[cfg(feature = "seal")]
mod encrypted {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use chacha20poly1305::aead::{Aead, KeyInit, Payload};
    use chacha20poly1305::{XChaCha20Poly1305, XNonce};

    use super::{KeyStrategy, Refusal, StateBody, opening_key, read_body};

    const VERSION: &str = "v1";
    const NONCE: usize = 24;

    pub(super) fn seal(keys: &dyn KeyStrategy, body: &StateBody) -> String {
        let key = keys.sealing_key();
        let cipher = XChaCha20Poly1305::new(key.bytes().into());
        let mut nonce = [0u8; NONCE];
        getrandom::fill(&mut nonce).expect("the operating system provides randomness");
        let plaintext = serde_json::to_vec(body).expect("a state body always serializes");
        let aad = associated(key.id());
        let sealed = cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: &plaintext,
                    aad: aad.as_bytes(),
                },
            )
            .expect("encrypting into a vector does not fail");
        let mut bytes = Vec::with_capacity(NONCE + sealed.len());
        bytes.extend_from_slice(&nonce);
        bytes.extend_from_slice(&sealed);
        format!("{VERSION}.{}.{}", key.id(), URL_SAFE_NO_PAD.encode(bytes))
    }

    pub(super) fn open(keys: &dyn KeyStrategy, token: &str) -> Result<StateBody, Refusal> {
        let mut parts = token.splitn(3, '.');
        let (Some(VERSION), Some(id), Some(sealed)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(Refusal::Tampered);
        };
        let key = opening_key(keys, id)?;
        let bytes = URL_SAFE_NO_PAD
            .decode(sealed)
            .map_err(|_| Refusal::Tampered)?;
        let (nonce, ciphertext) = bytes.split_at_checked(NONCE).ok_or(Refusal::Tampered)?;
        let nonce = XNonce::try_from(nonce).map_err(|_| Refusal::Tampered)?;
        let cipher = XChaCha20Poly1305::new(key.bytes().into());
        let aad = associated(id);
        let plaintext = cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: ciphertext,
                    aad: aad.as_bytes(),
                },
            )
            .map_err(|_| Refusal::Tampered)?;
        read_body(&plaintext)
    }

    fn associated(key_id: &str) -> String {
        format!("mcp-request-state {VERSION} {key_id}")
    }
}

/// Signed state: HMAC-SHA256 over everything before the tag, so the
/// version, the key id and the state are all authenticated.
#[cfg_attr(feature = "seal", allow(dead_code))]
mod signed {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use hmac::{Hmac, KeyInit, Mac};
    use sha2::Sha256;

    use super::{KeyStrategy, Refusal, StateBody, opening_key, read_body};

    const VERSION: &str = "s1";

    fn mac(key: &[u8; 32], signed: &str) -> Hmac<Sha256> {
        let mut mac =
            <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes any key length");
        mac.update(b"mcp-request-state ");
        mac.update(signed.as_bytes());
        mac
    }

    pub(super) fn seal(keys: &dyn KeyStrategy, body: &StateBody) -> String {
        let key = keys.sealing_key();
        let state = serde_json::to_vec(body).expect("a state body always serializes");
        let signed = format!("{VERSION}.{}.{}", key.id(), URL_SAFE_NO_PAD.encode(state));
        let tag = mac(key.bytes(), &signed).finalize().into_bytes();
        format!("{signed}.{}", URL_SAFE_NO_PAD.encode(tag))
    }

    pub(super) fn open(keys: &dyn KeyStrategy, token: &str) -> Result<StateBody, Refusal> {
        let Some((signed, tag)) = token.rsplit_once('.') else {
            return Err(Refusal::Tampered);
        };
        let mut parts = signed.splitn(3, '.');
        let (Some(VERSION), Some(id), Some(state)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(Refusal::Tampered);
        };
        let key = opening_key(keys, id)?;
        let tag = URL_SAFE_NO_PAD.decode(tag).map_err(|_| Refusal::Tampered)?;
        mac(key.bytes(), signed)
            .verify_slice(&tag)
            .map_err(|_| Refusal::Tampered)?;
        let state = URL_SAFE_NO_PAD
            .decode(state)
            .map_err(|_| Refusal::Tampered)?;
        read_body(&state)
    }
}

/// Seconds since the Unix epoch.
pub(crate) fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    use super::*;
    use crate::seam::strategy::ConfiguredKeys;

    /// One kind of token: its name, how it seals and how it opens.
    type Kind = (
        &'static str,
        fn(&dyn KeyStrategy, &StateBody) -> String,
        fn(&dyn KeyStrategy, &str) -> Result<StateBody, Refusal>,
    );

    /// Every kind this build has: signed always, encrypted with `seal`.
    fn kinds() -> Vec<Kind> {
        vec![
            ("signed", signed::seal, signed::open),
            #[cfg(feature = "seal")]
            ("encrypted", encrypted::seal, encrypted::open),
        ]
    }

    fn body(expires: u64) -> StateBody {
        StateBody {
            id: "s1".into(),
            method: "tools/call".into(),
            target: "weather".into(),
            digest: "d".into(),
            principal: Some("alice".into()),
            answers: JsonObject::from_iter([("k".into(), serde_json::json!({"action": "accept"}))]),
            asked: vec!["k2".into()],
            carried: Some(serde_json::json!({"step": 2})),
            expires,
        }
    }

    #[test]
    fn a_sealed_state_opens_to_what_was_sealed() {
        let keys = ConfiguredKeys::random();
        let now = SystemTime::now();
        let expected = body(unix_seconds(now) + 60);
        for (kind, seal, open) in kinds() {
            let sealed = seal(&keys, &expected);
            assert_eq!(open(&keys, &sealed), Ok(expected.clone()), "{kind}");
        }
        assert_eq!(
            open(&keys, &super::seal(&keys, &expected), now),
            Ok(expected)
        );
    }

    #[cfg(feature = "seal")]
    #[test]
    fn an_encrypted_state_does_not_show_what_it_holds() {
        let keys = ConfiguredKeys::random();
        let sealed = encrypted::seal(&keys, &body(u64::MAX));
        assert!(!sealed.contains("weather") && !sealed.contains("alice"));
        let decoded = URL_SAFE_NO_PAD
            .decode(sealed.rsplit('.').next().unwrap())
            .unwrap();
        assert!(!String::from_utf8_lossy(&decoded).contains("weather"));
    }

    #[test]
    fn a_signed_state_is_readable_and_a_server_opens_only_its_own_kind() {
        let keys = ConfiguredKeys::random();
        let token = signed::seal(&keys, &body(u64::MAX));
        let state = URL_SAFE_NO_PAD
            .decode(token.split('.').nth(2).unwrap())
            .unwrap();
        assert!(String::from_utf8_lossy(&state).contains("weather"));
        let own = super::seal(&keys, &body(u64::MAX));
        let foreign: Vec<String> = kinds()
            .into_iter()
            .map(|(_, seal, _)| seal(&keys, &body(u64::MAX)))
            .filter(|token| token[..2] != own[..2])
            .collect();
        assert_eq!(foreign.len(), usize::from(cfg!(feature = "seal")));
        for token in foreign {
            assert_eq!(
                open(&keys, &token, SystemTime::now()),
                Err(Refusal::Tampered)
            );
        }
    }

    #[test]
    fn every_altered_byte_is_refused() {
        let keys = ConfiguredKeys::random();
        for (kind, seal, open) in kinds() {
            let sealed = seal(&keys, &body(u64::MAX));
            for i in 0..sealed.len() {
                let mut bytes = sealed.clone().into_bytes();
                bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
                let altered = String::from_utf8(bytes).unwrap();
                assert!(open(&keys, &altered).is_err(), "{kind}: byte {i} altered");
            }
        }
    }

    #[test]
    fn an_expired_state_is_refused() {
        let keys = ConfiguredKeys::random();
        let now = SystemTime::now();
        let sealed = super::seal(&keys, &body(unix_seconds(now) + 10));
        let later = now + Duration::from_secs(11);
        assert_eq!(open(&keys, &sealed, later), Err(Refusal::Expired));
    }

    #[test]
    fn a_state_sealed_with_a_key_no_longer_held_is_refused_by_name() {
        let old = StateKey::derive("the old secret, long enough to be a key!");
        for (kind, seal, open) in kinds() {
            let sealed = seal(&ConfiguredKeys::new(old.clone(), vec![]), &body(u64::MAX));
            let rotated = ConfiguredKeys::new(StateKey::random(), vec![old.clone()]);
            assert!(open(&rotated, &sealed).is_ok(), "{kind}");
            let forgotten = ConfiguredKeys::new(StateKey::random(), vec![]);
            assert_eq!(
                open(&forgotten, &sealed),
                Err(Refusal::UnknownKey(old.id().to_owned())),
                "{kind}"
            );
        }
    }

    #[test]
    fn a_key_id_swapped_in_the_token_is_refused() {
        let a = StateKey::new("a", [1; 32]);
        let b = StateKey::new("b", [1; 32]);
        let keys = ConfiguredKeys::new(a, vec![b]);
        for (kind, seal, open) in kinds() {
            let sealed = seal(&keys, &body(u64::MAX));
            let swapped = sealed.replacen(".a.", ".b.", 1);
            assert_eq!(open(&keys, &swapped), Err(Refusal::Tampered), "{kind}");
        }
    }
}
