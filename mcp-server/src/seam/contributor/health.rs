//! Health checks: what any crate contributes for the liveness and
//! readiness probes an orchestrator polls.
//!
//! A check is a value contributed at boot (the kind [`HealthChecks`],
//! keyed by name: two checks of one name fail boot naming both) and run at
//! each probe, within its timeout: a check that hangs counts as failing.
//! Each says which probe it affects ([`Probe`]). What a check returns on
//! failure is logged, never served: the probes' answers name each check
//! with its status and duration only, so they reveal no secret and no
//! setting.
//!
//! ```
//! use std::time::Duration;
//! use mcp_server::seam::Item;
//! use mcp_server::seam::contributor::health::{HealthCheck, Probe};
//!
//! let check = HealthCheck::new("disk", Probe::Readiness, || async {
//!     let free = 12_u64; // GiB, say
//!     if free > 1 { Ok(()) } else { Err(format!("{free} GiB free")) }
//! })
//! .timeout(Duration::from_millis(500));
//! let item = Item::health_check(check);
//! # let _ = item;
//! ```

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::vocabulary::BoxFuture;
use crate::vocabulary::registration::Item;
use crate::vocabulary::seam::{Kind, SeamWord};

/// Which probe a check affects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Probe {
    /// Whether the process can serve at all: failing it gets the process
    /// restarted.
    Liveness,
    /// Whether the process should get traffic now: failing it takes the
    /// instance out of the load balancer until it passes again.
    Readiness,
    /// Both.
    Both,
}

impl Probe {
    /// Whether a check of this kind counts for `probe`.
    pub fn counts_for(self, probe: Probe) -> bool {
        self == Probe::Both || probe == Probe::Both || self == probe
    }
}

type Check = Arc<dyn Fn() -> BoxFuture<'static, Result<(), String>> + Send + Sync>;

/// One named check, with the probe it affects and its timeout (2 s unless
/// set).
#[derive(Clone)]
pub struct HealthCheck {
    name: String,
    probe: Probe,
    timeout: Duration,
    check: Check,
}

impl fmt::Debug for HealthCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HealthCheck")
            .field("name", &self.name)
            .field("probe", &self.probe)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// The status of one check at one probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It passed.
    Pass,
    /// It failed; why is logged.
    Fail,
    /// It did not answer within its timeout.
    Timeout,
}

/// What one check said at one probe.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checked {
    /// The check's name.
    pub name: String,
    /// Its status.
    pub status: Status,
    /// How long it took, in milliseconds.
    pub duration_ms: u64,
}

impl HealthCheck {
    /// A check named `name` for `probe`: `check` resolves `Ok(())` when
    /// healthy, or `Err(why)` (logged, never served).
    pub fn new<F, Fut>(name: impl Into<String>, probe: Probe, check: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), String>> + Send + 'static,
    {
        Self {
            name: name.into(),
            probe,
            timeout: Duration::from_secs(2),
            check: Arc::new(move || Box::pin(check())),
        }
    }

    /// With this timeout: past it, the check counts as failing.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The probe it affects.
    pub fn probe(&self) -> Probe {
        self.probe
    }

    /// Runs it once, within its timeout.
    pub async fn run(&self) -> Checked {
        let started = Instant::now();
        let status = match tokio::time::timeout(self.timeout, (self.check)()).await {
            Ok(Ok(())) => Status::Pass,
            Ok(Err(why)) => {
                tracing::warn!(check = %self.name, %why, "a health check failed");
                Status::Fail
            }
            Err(_) => {
                tracing::warn!(check = %self.name, timeout_ms = self.timeout.as_millis() as u64, "a health check timed out");
                Status::Timeout
            }
        };
        Checked {
            name: self.name.clone(),
            status,
            duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        }
    }
}

/// The registration kind of health checks, keyed by name.
#[derive(Debug)]
pub struct HealthChecks;

impl Kind for HealthChecks {
    type Member = HealthCheck;
    const NAME: &'static str = "health check";
    const CODE: &'static str = "mcp::duplicate_health_check";
    const WORD: SeamWord = SeamWord::Contributor;
    const HELP: &'static str = "give one of the checks another name";

    fn key(check: &HealthCheck) -> String {
        check.name.clone()
    }
}

impl Item {
    /// A health check ([`HealthChecks`]).
    pub fn health_check(check: HealthCheck) -> Self {
        Self::member::<HealthChecks>(check)
    }
}
