//! Strategies: deployment-supplied choices of how the framework does a thing.
//! The first is the [`KeyStrategy`], which supplies the keys that seal the
//! `requestState` of multi round-trip requests, so a client can neither
//! read, forge nor alter the state it echoes back.
//!
//! Exactly one strategy is active per seam: the framework's default when none
//! is registered, the registered one otherwise; two registered fail boot. The
//! boot report says which one won and why (see [`seam`](crate::seam)).
//!
//! The default, [`ConfiguredKeys`], derives its key from the secret set as
//! `server.request_state_key` (on the builder with
//! [`Builder::request_state_key`](crate::boot::Builder::request_state_key), or
//! the environment variable `MCP_SERVER__REQUEST_STATE_KEY`); keys listed in
//! `server.request_state_previous_keys` still open what they sealed, so a key
//! can be rotated without failing the exchanges in flight. Without a secret it
//! draws a key at boot and the boot report warns: instances behind one load
//! balancer then refuse each other's state.
//!
//! ```
//! use mcp_server::seam::strategy::{ConfiguredKeys, KeyStrategy, StateKey};
//!
//! let old = StateKey::derive("an old secret of at least 32 bytes!!");
//! let new = StateKey::derive("the new secret, also 32 bytes or more");
//! let keys = ConfiguredKeys::new(new.clone(), vec![old.clone()]);
//! // The active key seals; the previous one still opens.
//! assert_eq!(keys.sealing_key().id(), new.id());
//! assert!(keys.opening_key(old.id()).is_some());
//! assert!(keys.opening_key("k-unknown").is_none());
//! ```

use std::fmt;
use std::sync::Arc;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use crate::vocabulary::config::{Secret, ServerSection};
use crate::vocabulary::seam::{OneActive, SeamWord};
use crate::vocabulary::{BootContext, BootError, Diagnostic};

/// The fewest bytes a configured secret may have.
pub const MIN_SECRET_LEN: usize = 32;

/// A key that seals or opens request state: 32 secret bytes and the id that
/// sealed state names it by.
#[derive(Clone, PartialEq, Eq)]
pub struct StateKey {
    id: String,
    bytes: [u8; 32],
}

impl fmt::Debug for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StateKey {{ id: {:?}, bytes: <redacted> }}", self.id)
    }
}

impl StateKey {
    /// A key with an id of the caller's choosing (a KMS key version, say).
    pub fn new(id: impl Into<String>, bytes: [u8; 32]) -> Self {
        Self {
            id: id.into(),
            bytes,
        }
    }

    /// The key derived from a configured secret (HMAC-SHA256 of a fixed
    /// label under the secret); its id is derived from the key, so every
    /// instance configured with the same secret names it alike.
    pub fn derive(secret: &str) -> Self {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes())
            .expect("HMAC takes any key length");
        mac.update(b"mcp-server request-state key v1");
        let bytes: [u8; 32] = mac.finalize().into_bytes().into();
        Self::new(id_of(&bytes), bytes)
    }

    /// A key from the operating system's random source.
    ///
    /// # Panics
    ///
    /// When the operating system has no random source.
    pub fn random() -> Self {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the operating system provides randomness");
        Self::new(id_of(&bytes), bytes)
    }

    /// The id sealed state names this key by.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The secret bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.bytes
    }
}

/// `k` and the first 8 bytes of SHA-256 over a label and the key, in hex:
/// names a key without telling anything about it.
fn id_of(bytes: &[u8; 32]) -> String {
    let mut hash = Sha256::new();
    hash.update(b"mcp-server request-state key id");
    hash.update(bytes);
    let digest = hash.finalize();
    let mut id = String::with_capacity(17);
    id.push('k');
    for byte in &digest[..8] {
        id.push_str(&format!("{byte:02x}"));
    }
    id
}

/// Supplies the keys that seal and open request state.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a key strategy",
    note = "implement `mcp_server::seam::strategy::KeyStrategy` and register it (the `#[strategy]` attribute on the `impl` block does both)"
)]
pub trait KeyStrategy: Send + Sync + 'static {
    /// The key that seals new state.
    fn sealing_key(&self) -> StateKey;
    /// The key named `id`, while state it sealed may still be opened.
    fn opening_key(&self, id: &str) -> Option<StateKey>;
}

/// The default key strategy: one active key and the previous keys that
/// still open; see the [module documentation](self).
#[derive(Clone)]
pub struct ConfiguredKeys {
    active: StateKey,
    previous: Vec<StateKey>,
}

impl fmt::Debug for ConfiguredKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConfiguredKeys")
            .field("active", &self.active.id)
            .field(
                "previous",
                &self.previous.iter().map(|k| &k.id).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl ConfiguredKeys {
    /// `active` seals; it and `previous` open.
    pub fn new(active: StateKey, previous: Vec<StateKey>) -> Self {
        Self { active, previous }
    }

    /// One key drawn at random: state does not outlive this process, and
    /// no other instance opens it.
    pub fn random() -> Self {
        Self::new(StateKey::random(), Vec::new())
    }

    /// The keys `server.request_state_key` and
    /// `server.request_state_previous_keys` name; `None` when no key is set.
    fn configured(section: &ServerSection) -> Result<Option<Self>, Diagnostic> {
        let Some(active) = section.request_state_key.as_ref().map(Secret::expose) else {
            return Ok(None);
        };
        let secrets = std::iter::once(("request_state_key", active)).chain(
            section
                .request_state_previous_keys
                .iter()
                .map(|s| ("request_state_previous_keys", s.expose())),
        );
        for (key, secret) in secrets {
            if secret.len() < MIN_SECRET_LEN {
                return Err(Diagnostic::new(
                    "mcp::weak_request_state_key",
                    format!("`server.{key}` is shorter than {MIN_SECRET_LEN} bytes"),
                )
                .note(format!("it has {} bytes", secret.len()))
                .help("set a random secret of at least 32 bytes, the same on every instance (`openssl rand -base64 48`)"));
            }
        }
        Ok(Some(Self::new(
            StateKey::derive(active),
            section
                .request_state_previous_keys
                .iter()
                .map(|s| StateKey::derive(s.expose()))
                .collect(),
        )))
    }
}

impl KeyStrategy for ConfiguredKeys {
    fn sealing_key(&self) -> StateKey {
        self.active.clone()
    }

    fn opening_key(&self, id: &str) -> Option<StateKey> {
        std::iter::once(&self.active)
            .chain(&self.previous)
            .find(|k| k.id == id)
            .cloned()
    }
}

impl OneActive for dyn KeyStrategy {
    const NAME: &'static str = "KeyStrategy";
    const WORD: SeamWord = SeamWord::Strategy;
    fn fallback(boot: &BootContext) -> (&'static str, Arc<Self>) {
        let section = boot.section::<ServerSection>();
        match ConfiguredKeys::configured(&section) {
            Ok(Some(keys)) => ("ConfiguredKeys", Arc::new(keys)),
            Ok(None) => {
                boot.warn(
                    "no `server.request_state_key` is set: request state is sealed with a key drawn at this boot, \
                     so it does not survive a restart and other instances refuse it; set the same secret of 32 bytes \
                     or more on every instance (`MCP_SERVER__REQUEST_STATE_KEY`)",
                );
                (
                    "ConfiguredKeys (a key drawn at boot)",
                    Arc::new(ConfiguredKeys::random()),
                )
            }
            Err(diagnostic) => {
                boot.fail(BootError::Extension(diagnostic));
                ("ConfiguredKeys", Arc::new(ConfiguredKeys::random()))
            }
        }
    }
}
