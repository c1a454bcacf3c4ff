//! What every request to one endpoint shares.

use std::sync::Arc;

use tokio::sync::Semaphore;

use super::config::HttpConfig;
use super::session::Sessions;
use crate::Server;

/// What every request to one endpoint shares.
pub(crate) struct Endpoint {
    pub(crate) server: Server,
    pub(crate) config: HttpConfig,
    pub(crate) sessions: Sessions,
    pub(crate) running: Arc<Semaphore>,
}
