//! The issuer's signing keys (JWKS), fetched when first needed, used until
//! they are old, and fetched again for a key id they do not hold, at most
//! once per refresh interval however many requests ask.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};

/// The kind of key an algorithm verifies with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Ec,
    Rsa,
    Okp,
}

fn family_of(algorithm: Algorithm) -> Option<Family> {
    use Algorithm::*;
    match algorithm {
        ES256 | ES384 => Some(Family::Ec),
        RS256 | RS384 | RS512 | PS256 | PS384 | PS512 => Some(Family::Rsa),
        EdDSA => Some(Family::Okp),
        // Symmetric algorithms never verify with an issuer's public key.
        HS256 | HS384 | HS512 => None,
    }
}

/// One usable signing key.
struct Key {
    id: Option<String>,
    family: Family,
    /// The one algorithm the issuer declared for it, if it did.
    algorithm: Option<Algorithm>,
    key: DecodingKey,
}

/// The keys of one fetch.
struct KeySet {
    keys: Vec<Key>,
    fetched: Instant,
}

impl KeySet {
    fn from_set(set: &JwkSet) -> Self {
        let keys = set.keys.iter().filter_map(key_of).collect();
        Self {
            keys,
            fetched: Instant::now(),
        }
    }

    /// The key a token signed with `algorithm` names by `id`: of the
    /// algorithm's family, and of its declared algorithm if it has one.
    /// Without an id, the only key that fits.
    fn find(&self, id: Option<&str>, algorithm: Algorithm) -> Option<&DecodingKey> {
        let family = family_of(algorithm)?;
        let mut fitting = self
            .keys
            .iter()
            .filter(|k| k.family == family && k.algorithm.is_none_or(|a| a == algorithm));
        match id {
            Some(id) => fitting
                .find(|k| k.id.as_deref() == Some(id))
                .map(|k| &k.key),
            None => {
                let first = fitting.next()?;
                fitting.next().is_none().then_some(&first.key)
            }
        }
    }

    fn holds(&self, id: Option<&str>) -> bool {
        id.is_none_or(|id| self.keys.iter().any(|k| k.id.as_deref() == Some(id)))
    }
}

/// A signing key of the set, if it is one this server can use.
fn key_of(jwk: &Jwk) -> Option<Key> {
    if matches!(&jwk.common.public_key_use, Some(u) if *u != PublicKeyUse::Signature) {
        return None;
    }
    let family = match &jwk.algorithm {
        AlgorithmParameters::EllipticCurve(_) => Family::Ec,
        AlgorithmParameters::RSA(_) => Family::Rsa,
        AlgorithmParameters::OctetKeyPair(_) => Family::Okp,
        // A shared secret is never published as a verification key.
        AlgorithmParameters::OctetKey(_) => return None,
    };
    // A declared algorithm that is no signature algorithm (an encryption
    // key's) makes the key useless here.
    let algorithm = match jwk.common.key_algorithm {
        Some(declared) => Some(format!("{declared:?}").parse::<Algorithm>().ok()?),
        None => None,
    };
    let key = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key {
        id: jwk.common.key_id.clone(),
        family,
        algorithm,
        key,
    })
}

/// The cached keys of one issuer.
pub(crate) struct Jwks {
    uri: String,
    client: reqwest::Client,
    current: RwLock<Option<Arc<KeySet>>>,
    /// When the keys were last fetched or tried; held while fetching, so
    /// one request fetches and the others wait for its keys.
    last_try: tokio::sync::Mutex<Option<Instant>>,
    min_refresh: Duration,
    ttl: Duration,
}

impl Jwks {
    pub(crate) fn new(
        uri: String,
        client: reqwest::Client,
        min_refresh: Duration,
        ttl: Duration,
    ) -> Self {
        Self {
            uri,
            client,
            current: RwLock::new(None),
            last_try: tokio::sync::Mutex::new(None),
            min_refresh,
            ttl,
        }
    }

    /// Whether keys can be had: held already, or fetched now (at most as
    /// often as a refresh may be).
    pub(crate) async fn ready(&self) -> Result<(), String> {
        if self.current().is_some() {
            return Ok(());
        }
        self.refresh(None).await.map(drop)
    }

    fn current(&self) -> Option<Arc<KeySet>> {
        self.current.read().ok()?.clone()
    }

    /// The key to verify a token signed with `algorithm` by key `id`.
    pub(crate) async fn key(
        &self,
        id: Option<&str>,
        algorithm: Algorithm,
    ) -> Result<DecodingKey, String> {
        let current = self.current();
        if let Some(set) = &current
            && set.fetched.elapsed() < self.ttl
            && let Some(key) = set.find(id, algorithm)
        {
            return Ok(key.clone());
        }
        let set = self.refresh(id).await?;
        set.find(id, algorithm).cloned().ok_or_else(|| match id {
            Some(id) => format!("the issuer has no {algorithm:?} signing key `{id}`"),
            None => {
                format!("the token names no key, and the issuer has no single {algorithm:?} key")
            }
        })
    }

    /// Fetches the keys again, unless another request just did (then its
    /// keys), or the last try was too recent (then the keys held).
    async fn refresh(&self, id: Option<&str>) -> Result<Arc<KeySet>, String> {
        let mut last_try = self.last_try.lock().await;
        let current = self.current();
        if let Some(set) = &current
            && set.fetched.elapsed() < self.ttl
            && set.holds(id)
        {
            return Ok(set.clone());
        }
        // Keys are fetched at most once per interval (and no less often
        // than they grow old), however many tokens name unknown keys.
        if let (Some(set), Some(at)) = (&current, *last_try)
            && at.elapsed() < self.min_refresh.min(self.ttl)
        {
            return Ok(set.clone());
        }
        *last_try = Some(Instant::now());
        match self.fetch().await {
            Ok(set) => {
                let set = Arc::new(KeySet::from_set(&set));
                if let Ok(mut current) = self.current.write() {
                    *current = Some(set.clone());
                }
                tracing::debug!(target: "mcp_oauth", uri = %self.uri, keys = set.keys.len(), "fetched the issuer's keys");
                Ok(set)
            }
            Err(error) => {
                tracing::warn!(target: "mcp_oauth", uri = %self.uri, %error, "could not fetch the issuer's keys");
                // Old keys still verify what they signed.
                current.ok_or(error)
            }
        }
    }

    async fn fetch(&self) -> Result<JwkSet, String> {
        let response = self
            .client
            .get(&self.uri)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("the issuer's keys could not be fetched: {e}"))?;
        response
            .json::<JwkSet>()
            .await
            .map_err(|e| format!("the issuer's keys are not a JWK set: {e}"))
    }
}
