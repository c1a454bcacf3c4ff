//! Strategies: deployment-supplied choices of how the framework does a thing.
//! The first is the [`KeyStrategy`] that seals MRTR request state, so a
//! client cannot forge or alter the state it echoes back.
//!
//! Exactly one strategy is active per seam: the framework's default when none
//! is registered, the registered one otherwise; two registered fail boot. The
//! boot report says which one won and why (see [`seam`](crate::seam)).
//!
//! ```
//! use mcp_server::strategy::{HmacKeyStrategy, KeyStrategy};
//!
//! let keys = HmacKeyStrategy::from_key([7; 32]);
//! let sealed = keys.seal(b"step=2");
//! assert_eq!(keys.open(&sealed).as_deref(), Some(&b"step=2"[..]));
//! // A tampered token does not open.
//! let mut forged = sealed.clone();
//! forged.replace_range(0..1, if sealed.starts_with('A') { "B" } else { "A" });
//! assert_eq!(keys.open(&forged), None);
//! ```

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use std::sync::Arc;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::boot::BootContext;
use crate::seam::{OneActive, SeamWord};

/// Seals opaque state handed to a client, and opens it when it comes back.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a key strategy",
    note = "implement `mcp_server::strategy::KeyStrategy` and register it (the `#[strategy]` attribute on the `impl` block does both)"
)]
pub trait KeyStrategy: Send + Sync + 'static {
    /// Seals `payload` into a token safe to hand to a client.
    fn seal(&self, payload: &[u8]) -> String;
    /// The payload of a token this strategy sealed; `None` for anything else.
    fn open(&self, token: &str) -> Option<Vec<u8>>;
}

/// The default key strategy: HMAC-SHA256 over the payload, with a random key
/// drawn at boot (state sealed before a restart does not open after it).
#[derive(Clone)]
pub struct HmacKeyStrategy {
    key: [u8; 32],
}

impl fmt::Debug for HmacKeyStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HmacKeyStrategy { key: <redacted> }")
    }
}

impl HmacKeyStrategy {
    const TAG: usize = 32;

    /// A strategy with a key from the operating system's random source.
    ///
    /// # Panics
    ///
    /// When the operating system has no random source.
    pub fn random() -> Self {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).expect("the operating system provides randomness");
        Self { key }
    }

    /// A strategy with a fixed key, shared by every instance of a deployment.
    pub fn from_key(key: [u8; 32]) -> Self {
        Self { key }
    }

    fn mac(&self) -> Hmac<Sha256> {
        <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key).expect("HMAC takes any key length")
    }
}

impl KeyStrategy for HmacKeyStrategy {
    fn seal(&self, payload: &[u8]) -> String {
        let mut mac = self.mac();
        mac.update(payload);
        let mut sealed = payload.to_vec();
        sealed.extend_from_slice(&mac.finalize().into_bytes());
        URL_SAFE_NO_PAD.encode(sealed)
    }

    fn open(&self, token: &str) -> Option<Vec<u8>> {
        let sealed = URL_SAFE_NO_PAD.decode(token).ok()?;
        let split = sealed.len().checked_sub(Self::TAG)?;
        let (payload, tag) = sealed.split_at(split);
        let mut mac = self.mac();
        mac.update(payload);
        mac.verify_slice(tag).ok()?;
        Some(payload.to_vec())
    }
}

impl OneActive for dyn KeyStrategy {
    const NAME: &'static str = "KeyStrategy";
    const WORD: SeamWord = SeamWord::Strategy;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        ("HmacKeyStrategy", Arc::new(HmacKeyStrategy::random()))
    }
}
