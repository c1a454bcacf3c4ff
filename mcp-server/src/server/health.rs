//! The server's answer to a liveness or readiness probe.

use futures_util::future::join_all;

use super::Server;
use crate::seam::contributor::health::{Checked, HealthChecks, Probe, Status};

/// What one probe found: healthy or not, and each check that counts for it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Health {
    /// The probe answered.
    pub probe: Probe,
    /// `pass` when every check passed (and, for readiness, the server is
    /// not draining), `fail` otherwise.
    pub status: Status,
    /// Whether the server is draining: never ready then.
    pub draining: bool,
    /// Each check that counts for the probe, in name order.
    pub checks: Vec<Checked>,
}

impl Health {
    /// Whether the probe passes.
    pub fn passes(&self) -> bool {
        self.status == Status::Pass
    }
}

impl Server {
    /// Runs every health check that counts for `probe`, at once, each
    /// within its timeout. A draining server is not ready; it stays live.
    pub async fn health(&self, probe: Probe) -> Health {
        let checks = self
            .members::<HealthChecks>()
            .iter()
            .filter(|check| check.probe().counts_for(probe));
        let checks = join_all(checks.map(|check| check.run())).await;
        let draining = self.shutdown().is_draining();
        let healthy = checks.iter().all(|c| c.status == Status::Pass)
            && !(draining && probe != Probe::Liveness);
        Health {
            probe,
            status: if healthy { Status::Pass } else { Status::Fail },
            draining,
            checks,
        }
    }
}
