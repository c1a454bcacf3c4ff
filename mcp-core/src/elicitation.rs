//! Elicitation: the server asks the user for input, by form or by URL.
//!
//! ```
//! use mcp_core::elicitation::{ElicitAction, ElicitResult, ElicitValue};
//!
//! let result: ElicitResult = serde_json::from_value(serde_json::json!({
//!     "action": "accept", "content": {"name": "octocat", "age": 12, "tags": ["a"]}
//! })).unwrap();
//! assert_eq!(result.action, ElicitAction::Accept);
//! assert_eq!(result.content.unwrap()["age"], ElicitValue::Number(12.into()));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::json::OrderedMap;
use crate::meta::RequestMeta;
use crate::method::{MethodCall, methods, params};
use crate::tag::wire_tag;
use crate::version::Era;

wire_tag!(
    /// `"mode": "form"`.
    FormModeTag = "form"
);
wire_tag!(
    /// `"mode": "url"`.
    UrlModeTag = "url"
);
wire_tag!(
    /// `"type": "object"`.
    ObjectTypeTag = "object"
);
wire_tag!(
    /// `"type": "string"`.
    StringTypeTag = "string"
);
wire_tag!(
    /// `"type": "boolean"`.
    BooleanTypeTag = "boolean"
);
wire_tag!(
    /// `"type": "array"`.
    ArrayTypeTag = "array"
);

/// Form-mode params (`ElicitRequestFormParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ElicitRequestFormParams {
    /// Legacy (2025-11-25): request metadata.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// `form`; may be left out, as form is the default mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<FormModeTag>,
    /// What to ask the user.
    pub message: String,
    /// The form: a flat object schema of primitive fields.
    pub requested_schema: RequestedSchema,
    /// Legacy (2025-11-25): run the request as a task.
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<crate::legacy::tasks::TaskMetadata>,
}

/// The form schema of a form-mode elicitation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RequestedSchema {
    /// The JSON Schema dialect.
    #[serde(rename = "$schema")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Always `object`.
    #[serde(rename = "type")]
    pub kind: ObjectTypeTag,
    /// The fields, in the order the form shows them.
    pub properties: OrderedMap<PrimitiveSchemaDefinition>,
    /// The fields that must be filled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<Vec<String>>,
}

/// URL-mode params (`ElicitRequestURLParams`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ElicitRequestUrlParams {
    /// Legacy (2025-11-25): request metadata.
    #[serde(rename = "_meta")]
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Always `url`.
    pub mode: UrlModeTag,
    /// Why the user should open the URL.
    pub message: String,
    /// The URL to open.
    pub url: String,
    /// Legacy (2025-11-25): ties the request to `notifications/elicitation/complete`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elicitation_id: Option<String>,
    /// Legacy (2025-11-25): run the request as a task.
    #[cfg_attr(feature = "arbitrary", arbitrary(value = None))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<crate::legacy::tasks::TaskMetadata>,
}

/// Params of `elicitation/create` (`ElicitRequestParams`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum ElicitRequestParams {
    /// URL mode (tried first: its `mode` is required).
    Url(ElicitRequestUrlParams),
    /// Form mode.
    Form(ElicitRequestFormParams),
}

/// A string field (`StringSchema`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct StringSchema {
    /// Always `string`.
    #[serde(rename = "type")]
    pub kind: StringTypeTag,
    /// The field's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The field's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The shortest allowed length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// The longest allowed length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    /// `email`, `uri`, `date` or `date-time`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<StringFormat>,
    /// The default value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// The formats a string field may require.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum StringFormat {
    /// An email address.
    Email,
    /// A URI.
    Uri,
    /// A date.
    Date,
    /// A date and time.
    DateTime,
}

/// Whether a number field takes any number or only integers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum NumberType {
    /// Any number.
    #[default]
    Number,
    /// Integers only.
    Integer,
}

/// A number field (`NumberSchema`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NumberSchema {
    /// `number` or `integer`.
    #[serde(rename = "type")]
    pub kind: NumberType,
    /// The field's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The field's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The smallest allowed value.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_finite_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<f64>,
    /// The largest allowed value.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_finite_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<f64>,
    /// The default value.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = crate::arb::opt_finite_f64))]
    #[serde(serialize_with = "crate::json::opt_number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<f64>,
}

/// A boolean field (`BooleanSchema`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct BooleanSchema {
    /// Always `boolean`.
    #[serde(rename = "type")]
    pub kind: BooleanTypeTag,
    /// The field's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The field's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The default value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<bool>,
}

/// A single choice among plain values (`UntitledSingleSelectEnumSchema`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UntitledSingleSelectEnumSchema {
    /// Always `string`.
    #[serde(rename = "type")]
    pub kind: StringTypeTag,
    /// The field's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The field's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The values to choose from.
    #[serde(rename = "enum")]
    pub values: Vec<String>,
    /// The default value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// A value with a display title (`{ const, title }`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TitledValue {
    /// The value.
    #[serde(rename = "const")]
    pub value: String,
    /// Its display title.
    pub title: String,
}

/// A single choice among titled values (`TitledSingleSelectEnumSchema`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TitledSingleSelectEnumSchema {
    /// Always `string`.
    #[serde(rename = "type")]
    pub kind: StringTypeTag,
    /// The field's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The field's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The values to choose from.
    pub one_of: Vec<TitledValue>,
    /// The default value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// The items of an untitled multi-select.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UntitledEnumItems {
    /// Always `string`.
    #[serde(rename = "type")]
    pub kind: StringTypeTag,
    /// The values to choose from.
    #[serde(rename = "enum")]
    pub values: Vec<String>,
}

/// The items of a titled multi-select.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TitledEnumItems {
    /// The values to choose from.
    pub any_of: Vec<TitledValue>,
}

/// Several choices among plain values (`UntitledMultiSelectEnumSchema`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UntitledMultiSelectEnumSchema {
    /// Always `array`.
    #[serde(rename = "type")]
    pub kind: ArrayTypeTag,
    /// The field's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The field's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The fewest values to pick.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// The most values to pick.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// The values to choose from.
    pub items: UntitledEnumItems,
    /// The values picked by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<String>>,
}

/// Several choices among titled values (`TitledMultiSelectEnumSchema`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TitledMultiSelectEnumSchema {
    /// Always `array`.
    #[serde(rename = "type")]
    pub kind: ArrayTypeTag,
    /// The field's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The field's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The fewest values to pick.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// The most values to pick.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// The values to choose from.
    pub items: TitledEnumItems,
    /// The values picked by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<String>>,
}

/// A single choice with parallel display names, kept for older clients (`LegacyTitledEnumSchema`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct LegacyTitledEnumSchema {
    /// Always `string`.
    #[serde(rename = "type")]
    pub kind: StringTypeTag,
    /// The field's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The field's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The values to choose from.
    #[serde(rename = "enum")]
    pub values: Vec<String>,
    /// Display names, in the order of the values; what tells this form from a plain enum.
    pub enum_names: Vec<String>,
    /// The default value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// A single-choice field (`SingleSelectEnumSchema`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum SingleSelectEnumSchema {
    /// Titled values.
    Titled(TitledSingleSelectEnumSchema),
    /// Plain values.
    Untitled(UntitledSingleSelectEnumSchema),
}

/// A multiple-choice field (`MultiSelectEnumSchema`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum MultiSelectEnumSchema {
    /// Titled values.
    Titled(TitledMultiSelectEnumSchema),
    /// Plain values.
    Untitled(UntitledMultiSelectEnumSchema),
}

/// Any enumeration field (`EnumSchema`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum EnumSchema {
    /// With parallel display names (tried first: it is a plain enum plus `enumNames`).
    Legacy(LegacyTitledEnumSchema),
    /// One choice.
    Single(SingleSelectEnumSchema),
    /// Several choices.
    Multi(MultiSelectEnumSchema),
}

/// A field of an elicitation form (`PrimitiveSchemaDefinition`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum PrimitiveSchemaDefinition {
    /// An enumeration (tried first: it is a string schema with `enum` or `oneOf`).
    Enum(EnumSchema),
    /// A string.
    String(StringSchema),
    /// A number.
    Number(NumberSchema),
    /// A boolean.
    Boolean(BooleanSchema),
}

/// What the user did (`ElicitResult.action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum ElicitAction {
    /// Submitted the form.
    Accept,
    /// Said no.
    Decline,
    /// Dismissed the request.
    Cancel,
}

/// A submitted form value: a string, a number, a boolean or a list of strings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum ElicitValue {
    /// A string.
    String(String),
    /// A number.
    Number(
        #[cfg_attr(feature = "arbitrary", arbitrary(with = arbitrary_integer))] serde_json::Number,
    ),
    /// A boolean.
    Bool(bool),
    /// Several strings.
    Strings(Vec<String>),
}

#[cfg(feature = "arbitrary")]
fn arbitrary_integer(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<serde_json::Number> {
    Ok(serde_json::Number::from(u.arbitrary::<i64>()?))
}

/// The client's answer to `elicitation/create` (`ElicitResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted values, when accepted in form mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<BTreeMap<String, ElicitValue>>,
}

params!(ElicitRequestParams);

methods! {
    /// `elicitation/create`: ask the user for input.
    Elicit = "elicitation/create" {
        params: ElicitRequestParams,
        result: ElicitResult,
        eras: Era::ALL,
    }
}

/// An elicitation as an MRTR input request, without envelope (`ElicitRequest`).
pub type ElicitRequest = MethodCall<Elicit>;
