//! Which browser origins may call the endpoint, and how long a browser may
//! cache a preflight: what CORS is configured with.

use std::time::Duration;

/// How long a browser may cache a preflight unless configured: two hours,
/// the most Chromium honours.
const DEFAULT_MAX_AGE: Duration = Duration::from_secs(2 * 60 * 60);

/// The origins browser pages may call the endpoint from, and how long a
/// browser may cache a preflight.
#[derive(Clone, Debug)]
pub(crate) struct CorsPolicy {
    origins: Vec<String>,
    pub(super) max_age: Duration,
}

impl Default for CorsPolicy {
    fn default() -> Self {
        Self {
            origins: Vec::new(),
            max_age: DEFAULT_MAX_AGE,
        }
    }
}

impl CorsPolicy {
    /// Allows `origin` (`scheme://host[:port]`, or `*` for any).
    pub(crate) fn allow(&mut self, origin: &str) {
        let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
        if !self.origins.contains(&origin) {
            self.origins.push(origin);
        }
    }

    /// Sets how long a browser may cache a preflight.
    pub(crate) fn set_max_age(&mut self, max_age: Duration) {
        self.max_age = max_age;
    }

    /// Whether any origin is allowed, so the endpoint speaks CORS at all.
    pub(crate) fn is_on(&self) -> bool {
        !self.origins.is_empty()
    }

    /// Whether `origin`, lowercased, is allowed.
    pub(crate) fn allows(&self, origin: &str) -> bool {
        self.any() || self.origins.iter().any(|allowed| allowed == origin)
    }

    pub(crate) fn any(&self) -> bool {
        self.origins.iter().any(|allowed| allowed == "*")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_match_without_case_or_trailing_slash_and_star_matches_all() {
        let mut policy = CorsPolicy::default();
        assert!(!policy.is_on());
        policy.allow("HTTPS://App.Example.com/");
        assert!(policy.is_on());
        assert!(policy.allows("https://app.example.com"));
        assert!(!policy.allows("http://app.example.com"));
        policy.allow("*");
        assert!(policy.allows("https://anything.example"));
    }
}
