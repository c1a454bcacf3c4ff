//! What 2025-11-25 adds to URL-mode elicitation: `notifications/elicitation/complete`
//! and the `-32042` URL-elicitation-required error.
//!
//! ```
//! use mcp_core::elicitation::{ElicitRequestUrlParams, UrlModeTag};
//! use mcp_core::error::ErrorCode;
//! use mcp_core::legacy::elicitation::UrlElicitationRequiredData;
//!
//! let data = UrlElicitationRequiredData::new(vec![ElicitRequestUrlParams {
//!     meta: None,
//!     mode: UrlModeTag,
//!     message: "Authorization is required.".into(),
//!     url: "https://mcp.example.com/connect?id=550e8400".into(),
//!     elicitation_id: Some("550e8400".into()),
//!     task: None,
//! }]);
//! let error = data.clone().into_error("This request requires more information.");
//! assert_eq!(error.code, ErrorCode::URL_ELICITATION_REQUIRED);
//! assert_eq!(error.data.as_ref().unwrap()["elicitations"][0]["elicitationId"], "550e8400");
//! assert_eq!(UrlElicitationRequiredData::from_error(&error), Some(data));
//! ```

use serde::{Deserialize, Serialize};

use crate::elicitation::ElicitRequestUrlParams;
use crate::error::{ErrorCode, ErrorObject};
use crate::json::JsonObject;
use crate::meta::NotificationMeta;
use crate::method::{TypedNotification, notifications, params};
use crate::version::Era;

/// Params of `notifications/elicitation/complete`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ElicitationCompleteNotificationParams {
    /// Notification metadata (the schema does not name it, but any notification may carry it).
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// The `elicitationId` of the URL-mode elicitation that completed.
    pub elicitation_id: String,
}

impl ElicitationCompleteNotificationParams {
    /// Params announcing that elicitation `elicitation_id` completed.
    pub fn new(elicitation_id: impl Into<String>) -> Self {
        Self {
            meta: None,
            elicitation_id: elicitation_id.into(),
        }
    }
}

/// The `data` of a `-32042` error (`URLElicitationRequiredError.error.data`):
/// the URL-mode elicitations the request needs first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UrlElicitationRequiredData {
    /// The elicitations; each needs its `elicitationId` in 2025-11-25.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = arbitrary_url_params))]
    pub elicitations: Vec<ElicitRequestUrlParams>,
    /// Members this model does not name, kept as they came.
    #[serde(flatten)]
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::any_json_object))]
    pub extra: JsonObject,
}

impl UrlElicitationRequiredData {
    /// Data listing `elicitations`.
    pub fn new(elicitations: Vec<ElicitRequestUrlParams>) -> Self {
        Self {
            elicitations,
            extra: JsonObject::new(),
        }
    }

    /// The `-32042` error carrying this data.
    pub fn into_error(self, message: impl Into<String>) -> ErrorObject {
        ErrorObject::new(ErrorCode::URL_ELICITATION_REQUIRED, message).with_typed_data(&self)
    }

    /// Reads the data of a `-32042` error; `None` for another code or malformed data.
    pub fn from_error(error: &ErrorObject) -> Option<Self> {
        if error.code != ErrorCode::URL_ELICITATION_REQUIRED {
            return None;
        }
        serde_json::from_value(error.data.clone()?).ok()
    }
}

impl From<UrlElicitationRequiredData> for ErrorObject {
    fn from(data: UrlElicitationRequiredData) -> Self {
        data.into_error("URL elicitation required")
    }
}

/// A full `-32042` error response (`URLElicitationRequiredError`); build its
/// `error` with [`UrlElicitationRequiredData::into_error`].
pub type UrlElicitationRequiredError = crate::jsonrpc::ErrorResponse;

params!(ElicitationCompleteNotificationParams);

notifications! {
    /// `notifications/elicitation/complete`: an out-of-band URL elicitation finished.
    ElicitationComplete = "notifications/elicitation/complete" {
        params: ElicitationCompleteNotificationParams,
        eras: Era::LEGACY,
    }
}

/// A `notifications/elicitation/complete` notification (`ElicitationCompleteNotification`).
pub type ElicitationCompleteNotification = TypedNotification<ElicitationComplete>;

/// URL-mode params as 2025-11-25 requires them: with an `elicitationId`.
#[cfg(feature = "arbitrary")]
fn arbitrary_url_param(
    u: &mut arbitrary::Unstructured<'_>,
) -> arbitrary::Result<ElicitRequestUrlParams> {
    let mut params: ElicitRequestUrlParams = u.arbitrary()?;
    if params.elicitation_id.is_none() {
        params.elicitation_id = Some(crate::arb::key(u)?);
    }
    Ok(params)
}

#[cfg(feature = "arbitrary")]
fn arbitrary_url_params(
    u: &mut arbitrary::Unstructured<'_>,
) -> arbitrary::Result<Vec<ElicitRequestUrlParams>> {
    (0..u.int_in_range(0..=3u8)?)
        .map(|_| arbitrary_url_param(u))
        .collect()
}
