//! The requests a 2025-11-25 server may send to its client (`ServerRequest`),
//! decoded by `method`.
//!
//! ```
//! use mcp_core::legacy::messages::ServerRequest;
//! use mcp_core::jsonrpc::RequestId;
//!
//! let request: ServerRequest = serde_json::from_value(serde_json::json!({
//!     "jsonrpc": "2.0", "id": 5, "method": "tasks/get", "params": {"taskId": "786512e2"}
//! })).unwrap();
//! let ServerRequest::GetTask(get) = &request else { panic!("a tasks/get request") };
//! assert_eq!(get.params.task_id, "786512e2");
//! assert_eq!(request.method(), "tasks/get");
//! assert_eq!(request.id(), &RequestId::Number(5));
//! // A client-to-server method is not a server request.
//! assert!(serde_json::from_value::<ServerRequest>(serde_json::json!({
//!     "jsonrpc": "2.0", "id": 6, "method": "tools/list"
//! })).is_err());
//! ```

use serde::{Deserialize, Serialize};

use crate::elicitation::Elicit;
use crate::jsonrpc::{self, RequestId};
use crate::legacy::ping::Ping;
use crate::legacy::tasks::{CancelTask, GetTask, GetTaskPayload, ListTasks};
use crate::method::{Method, TypedRequest};
use crate::roots::ListRoots;
use crate::sampling::CreateMessage;

/// Declares the request union: the enum, its accessors and its decoding by `method`.
macro_rules! request_union {
    (
        $(#[$attr:meta])*
        $name:ident {
            $($(#[$vattr:meta])* $variant:ident($(#[$fattr:meta])* $method:ty),)*
        }
    ) => {
        $(#[$attr])*
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        #[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
        pub enum $name {
            $($(#[$vattr])* $variant($(#[$fattr])* TypedRequest<$method>),)*
        }

        impl $name {
            /// The wire name of the method.
            pub fn method(&self) -> &'static str {
                match self {
                    $(Self::$variant(_) => <$method as Method>::NAME,)*
                }
            }

            /// The request id.
            pub fn id(&self) -> &RequestId {
                match self {
                    $(Self::$variant(request) => &request.id,)*
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                use serde::de::Error;
                let raw = jsonrpc::Request::deserialize(deserializer)?;
                let text = serde_json::to_string(&raw).map_err(D::Error::custom)?;
                $(
                    if raw.method == <$method as Method>::NAME {
                        return serde_json::from_str(&text).map(Self::$variant).map_err(D::Error::custom);
                    }
                )*
                Err(D::Error::custom(format_args!("unknown method `{}`", raw.method)))
            }
        }
    };
}

request_union! {
    /// Every request a 2025-11-25 server may send its client (`ServerRequest`).
    ServerRequest {
        /// `ping`.
        Ping(Ping),
        /// `sampling/createMessage` (a tool result's `structuredContent` is an object in 2025-11-25).
        CreateMessage(
            #[cfg_attr(feature = "arbitrary", arbitrary(with = arbitrary_create_message))]
            CreateMessage
        ),
        /// `roots/list`.
        ListRoots(ListRoots),
        /// `elicitation/create` (URL mode needs `elicitationId` in 2025-11-25).
        Elicit(
            #[cfg_attr(feature = "arbitrary", arbitrary(with = arbitrary_elicit))]
            Elicit
        ),
        /// `tasks/get`.
        GetTask(GetTask),
        /// `tasks/result`.
        GetTaskPayload(GetTaskPayload),
        /// `tasks/list`.
        ListTasks(ListTasks),
        /// `tasks/cancel`.
        CancelTask(CancelTask),
    }
}

/// An `elicitation/create` request as 2025-11-25 requires it: URL mode with an `elicitationId`.
#[cfg(feature = "arbitrary")]
fn arbitrary_elicit(
    u: &mut arbitrary::Unstructured<'_>,
) -> arbitrary::Result<TypedRequest<Elicit>> {
    let mut request: TypedRequest<Elicit> = u.arbitrary()?;
    if let crate::elicitation::ElicitRequestParams::Url(params) = &mut request.params {
        params.elicitation_id.get_or_insert(crate::arb::key(u)?);
    }
    Ok(request)
}

/// A `sampling/createMessage` request as 2025-11-25 requires it: a tool
/// result's `structuredContent`, when present, is an object.
#[cfg(feature = "arbitrary")]
fn arbitrary_create_message(
    u: &mut arbitrary::Unstructured<'_>,
) -> arbitrary::Result<TypedRequest<CreateMessage>> {
    use crate::sampling::{SamplingContent, SamplingMessageContentBlock};

    let mut request: TypedRequest<CreateMessage> = u.arbitrary()?;
    for message in &mut request.params.messages {
        let blocks = match &mut message.content {
            SamplingContent::One(block) => std::slice::from_mut(block),
            SamplingContent::Many(blocks) => blocks.as_mut_slice(),
        };
        for block in blocks {
            if let SamplingMessageContentBlock::ToolResult(result) = block
                && !matches!(
                    result.structured_content,
                    None | Some(serde_json::Value::Object(_))
                )
            {
                result.structured_content = None;
            }
        }
    }
    Ok(request)
}
