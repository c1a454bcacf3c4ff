//! Delivery of changes: this instance's listeners first, then the active
//! [`ChangeSink`], which carries them to the rest of the deployment.

use std::fmt;
use std::sync::Arc;

use tokio::sync::broadcast;

use super::change::Change;
use super::hub::Hub;
use crate::vocabulary::BootContext;
use crate::vocabulary::seam::{OneActive, SeamWord};

/// Carries changes between this instance and the rest of the deployment:
/// the one-active delivery seam.
///
/// The framework tells this instance's listeners (2026-07-28 listen streams
/// and 2025-11-25 sessions) of every change published here itself, then
/// hands it to [`publish`](Self::publish); a sink shared by several
/// instances (a Redis pub/sub, say) sends it to the others, and hands what
/// they publish to the [`Inbound`] it is given at boot, so a listener held
/// on one instance hears of a change published on another.
///
/// **Experimental**: the contract may change before 1.0, and the boot
/// report marks the seam `(experimental)`.
/// - *Ordering*: this instance's listeners hear a change before the sink
///   is handed it; changes from other instances arrive in the order the
///   sink delivers them, with no order across instances.
/// - *Replacement*: one sink is active; a registered one replaces the
///   in-process default, which carries nothing off the instance.
/// - *Transport limits*: delivery is at most once; a listener that falls
///   behind skips what it missed, and a 2025-11-25 stream resumes only
///   what its event store kept.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a change sink",
    note = "implement `mcp_server::seam::sink::ChangeSink` and register it (the `#[sink]` attribute on the `impl` block does both)"
)]
pub trait ChangeSink: Send + Sync + 'static {
    /// Carries a change published on this instance onward.
    fn publish(&self, change: Change);

    /// Receives, once at boot, where changes published elsewhere go: the
    /// sink hands each one to [`Inbound::deliver`]. The default keeps
    /// nothing: no change comes from elsewhere.
    fn attach(&self, inbound: Inbound) {
        let _ = inbound;
    }
}

impl OneActive for dyn ChangeSink {
    const NAME: &'static str = "ChangeSink";
    const EXPERIMENTAL: bool = true;
    const WORD: SeamWord = SeamWord::Sink;
    fn fallback(_: &BootContext) -> (&'static str, Arc<Self>) {
        ("InProcessChangeSink", Arc::new(InProcessChangeSink))
    }
}

/// The default change sink: changes stay in this process (its listeners
/// are told directly), nothing comes from elsewhere.
#[derive(Debug, Clone, Copy, Default)]
pub struct InProcessChangeSink;

impl ChangeSink for InProcessChangeSink {
    fn publish(&self, _: Change) {}
}

/// Where changes published on other instances enter this one: its
/// listeners are told of each as of a change published here.
#[derive(Clone)]
pub struct Inbound(pub(crate) Arc<Hub>);

impl fmt::Debug for Inbound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Inbound")
    }
}

impl Inbound {
    /// Tells this instance's listeners of `change`.
    pub fn deliver(&self, change: Change) {
        self.0.deliver(change);
    }
}

/// A sink that broadcasts what is published to in-process subscribers: for
/// tests that watch what a server publishes.
#[derive(Debug, Clone)]
pub struct BroadcastChangeSink {
    sender: broadcast::Sender<Change>,
}

impl BroadcastChangeSink {
    /// A sink whose subscribers may lag by at most `capacity` changes.
    pub fn new(capacity: usize) -> Self {
        Self {
            sender: broadcast::channel(capacity.max(1)).0,
        }
    }

    /// A new subscriber, which sees changes published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.sender.subscribe()
    }
}

impl Default for BroadcastChangeSink {
    fn default() -> Self {
        Self::new(256)
    }
}

impl ChangeSink for BroadcastChangeSink {
    fn publish(&self, change: Change) {
        // No subscriber is not an error: the change is simply unheard.
        let _ = self.sender.send(change);
    }
}

/// Publishes: to this instance's listeners first, then to the active sink.
pub(crate) struct Fanout {
    hub: Arc<Hub>,
    active: Arc<dyn ChangeSink>,
}

impl Fanout {
    pub(crate) fn new(hub: Arc<Hub>, active: Arc<dyn ChangeSink>) -> Self {
        active.attach(Inbound(hub.clone()));
        Self { hub, active }
    }

    pub(crate) fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }
}

impl ChangeSink for Fanout {
    fn publish(&self, change: Change) {
        self.hub.deliver(change.clone());
        self.active.publish(change);
    }
}
