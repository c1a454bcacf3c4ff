//! `notifications/tasks` on `subscriptions/listen` streams: a listener asks
//! for the tasks it follows under `taskIds`, and is granted those it owns;
//! every status change of a task is published as a change of that item.
//! A 2025-11-25 session follows the tasks it creates, and hears
//! `notifications/tasks/status`.

use std::sync::Arc;

use mcp_server::core::ext::tasks::{TASK_IDS, TaskStatusNotificationParams};
use mcp_server::core::legacy::tasks::TaskStatusNotificationParams as LegacyStatusParams;
use mcp_server::seam::sink::{Change, Topic};
use mcp_server::seam::sink::{Grant, GrantCustomizer, ListenRequest};
use mcp_server::{BoxFuture, RequestContext};

use crate::methods::require_extension;
use crate::record::{TaskRecord, Wire};
use crate::service::Tasks;

/// The method of the notification a task's status change is sent as.
pub(crate) const NOTIFICATION: &str = "notifications/tasks";

/// Grants `taskIds` items to the owner of each task, and refuses the
/// member to a request that does not declare the extension.
pub(crate) struct TaskListeners {
    pub(crate) tasks: Arc<Tasks>,
}

impl GrantCustomizer for TaskListeners {
    fn grant(&self, _: &ListenRequest<'_>, _: &mut Grant) {}

    fn grant_async<'a>(
        &'a self,
        request: &'a ListenRequest<'a>,
        grant: &'a mut Grant,
    ) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let ctx = request.context();
            if !request.requested().extra.contains_key(TASK_IDS) {
                return;
            }
            if let Err(refused) = require_extension(ctx) {
                ctx.escalate(refused);
                return;
            }
            let asked: Vec<String> = request.asks_items(TASK_IDS).map(str::to_owned).collect();
            for id in asked {
                if self.tasks.find(ctx, &id).await.is_ok() {
                    grant.allow_item(TASK_IDS, id);
                }
            }
        })
    }
}

/// The notification of a 2025-11-25 task's status change.
pub(crate) const LEGACY_NOTIFICATION: &str = "notifications/tasks/status";

/// The member under which a 2025-11-25 session follows its tasks.
pub(crate) const LEGACY_MEMBER: &str = "io.modelcontextprotocol/legacyTaskIds";

/// Publishes the task's current state to whoever follows it: the listen
/// streams granted its id (2026-07-28), or the session that created it
/// (2025-11-25).
pub(crate) fn publish(ctx: &RequestContext, record: TaskRecord) {
    let change = match record.wire {
        Wire::Extension => {
            let topic = Topic::Item {
                member: TASK_IDS.into(),
                item: record.id.clone(),
            };
            let params = TaskStatusNotificationParams::new(crate::wire::detailed(record));
            Change::new(NOTIFICATION, topic).with_params(params)
        }
        Wire::Legacy => {
            let params = LegacyStatusParams::from(crate::wire::legacy_task(&record));
            let topic = Topic::Item {
                member: LEGACY_MEMBER.into(),
                item: record.id.clone(),
            };
            Change::new(LEGACY_NOTIFICATION, topic).with_params(params)
        }
    };
    ctx.changes().publish(change);
}
