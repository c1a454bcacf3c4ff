//! The elicitation forms the input tools send, exactly as the suite checks
//! them (`requestedSchema`, members in this order).

use mcp_server::core::elicitation::{
    BooleanSchema, EnumSchema, LegacyTitledEnumSchema, MultiSelectEnumSchema, NumberSchema,
    NumberType, PrimitiveSchemaDefinition, RequestedSchema, SingleSelectEnumSchema, StringSchema,
    TitledEnumItems, TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema, TitledValue,
    UntitledEnumItems, UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
};

/// `test_elicitation`'s form: a required `username` and `email`.
pub fn user_details() -> RequestedSchema {
    form(
        [
            ("username", string("The user's name")),
            ("email", string("The user's email address")),
        ],
        &["username", "email"],
    )
}

/// SEP-1034: one field of each primitive type, each with a default.
pub fn sep1034_defaults() -> RequestedSchema {
    let status = UntitledSingleSelectEnumSchema {
        description: Some("User status".into()),
        values: strings(["active", "inactive", "pending"]),
        default: Some("active".into()),
        ..UntitledSingleSelectEnumSchema::default()
    };
    form(
        [
            (
                "name",
                PrimitiveSchemaDefinition::String(StringSchema {
                    description: Some("User name".into()),
                    default: Some("John Doe".into()),
                    ..StringSchema::default()
                }),
            ),
            ("age", number(NumberType::Integer, "User age", 30.0)),
            ("score", number(NumberType::Number, "User score", 95.5)),
            ("status", single(SingleSelectEnumSchema::Untitled(status))),
            (
                "verified",
                PrimitiveSchemaDefinition::Boolean(BooleanSchema {
                    description: Some("Verification status".into()),
                    default: Some(true),
                    ..BooleanSchema::default()
                }),
            ),
        ],
        &[],
    )
}

/// SEP-1330: the five enum shapes, untitled and titled, single and multiple
/// choice, and the legacy `enumNames`.
pub fn sep1330_enums() -> RequestedSchema {
    let untitled_single = UntitledSingleSelectEnumSchema {
        description: Some("Select one option".into()),
        values: strings(["option1", "option2", "option3"]),
        ..UntitledSingleSelectEnumSchema::default()
    };
    let titled_single = TitledSingleSelectEnumSchema {
        description: Some("Select one option with titles".into()),
        one_of: titled([
            ("value1", "First Option"),
            ("value2", "Second Option"),
            ("value3", "Third Option"),
        ]),
        ..TitledSingleSelectEnumSchema::default()
    };
    let legacy = LegacyTitledEnumSchema {
        description: Some("Select one option (legacy)".into()),
        values: strings(["opt1", "opt2", "opt3"]),
        enum_names: strings(["Option One", "Option Two", "Option Three"]),
        ..LegacyTitledEnumSchema::default()
    };
    let untitled_multi = UntitledMultiSelectEnumSchema {
        description: Some("Select multiple options".into()),
        min_items: Some(1),
        max_items: Some(3),
        items: UntitledEnumItems {
            values: strings(["option1", "option2", "option3"]),
            ..UntitledEnumItems::default()
        },
        ..UntitledMultiSelectEnumSchema::default()
    };
    let titled_multi = TitledMultiSelectEnumSchema {
        description: Some("Select multiple options with titles".into()),
        min_items: Some(1),
        max_items: Some(3),
        items: TitledEnumItems {
            any_of: titled([
                ("value1", "First Choice"),
                ("value2", "Second Choice"),
                ("value3", "Third Choice"),
            ]),
        },
        ..TitledMultiSelectEnumSchema::default()
    };
    form(
        [
            (
                "untitledSingle",
                single(SingleSelectEnumSchema::Untitled(untitled_single)),
            ),
            (
                "titledSingle",
                single(SingleSelectEnumSchema::Titled(titled_single)),
            ),
            (
                "legacyEnum",
                PrimitiveSchemaDefinition::Enum(EnumSchema::Legacy(legacy)),
            ),
            (
                "untitledMulti",
                multi(MultiSelectEnumSchema::Untitled(untitled_multi)),
            ),
            (
                "titledMulti",
                multi(MultiSelectEnumSchema::Titled(titled_multi)),
            ),
        ],
        &[],
    )
}

/// A form of one required field of type `string` or `boolean`, as the
/// multi round-trip scenarios send it.
pub fn one_field(name: &str, boolean: bool) -> RequestedSchema {
    let field = if boolean {
        PrimitiveSchemaDefinition::Boolean(BooleanSchema::default())
    } else {
        PrimitiveSchemaDefinition::String(StringSchema::default())
    };
    form([(name, field)], &[name])
}

/// An object form of these fields, in this order.
fn form<const N: usize>(
    fields: [(&str, PrimitiveSchemaDefinition); N],
    required: &[&str],
) -> RequestedSchema {
    RequestedSchema {
        properties: fields
            .into_iter()
            .map(|(name, schema)| (name.to_owned(), schema))
            .collect(),
        required: Some(required.iter().map(|&r| r.to_owned()).collect()),
        ..RequestedSchema::default()
    }
}

/// A described string field.
fn string(description: &str) -> PrimitiveSchemaDefinition {
    PrimitiveSchemaDefinition::String(StringSchema {
        description: Some(description.into()),
        ..StringSchema::default()
    })
}

/// A described number or integer field with a default.
fn number(kind: NumberType, description: &str, default: f64) -> PrimitiveSchemaDefinition {
    PrimitiveSchemaDefinition::Number(NumberSchema {
        kind,
        description: Some(description.into()),
        default: Some(default),
        ..NumberSchema::default()
    })
}

/// A single-choice enum field.
fn single(schema: SingleSelectEnumSchema) -> PrimitiveSchemaDefinition {
    PrimitiveSchemaDefinition::Enum(EnumSchema::Single(schema))
}

/// A multiple-choice enum field.
fn multi(schema: MultiSelectEnumSchema) -> PrimitiveSchemaDefinition {
    PrimitiveSchemaDefinition::Enum(EnumSchema::Multi(schema))
}

/// Owned strings.
fn strings<const N: usize>(values: [&str; N]) -> Vec<String> {
    values.into_iter().map(str::to_owned).collect()
}

/// `{const, title}` choices.
fn titled<const N: usize>(choices: [(&str, &str); N]) -> Vec<TitledValue> {
    choices
        .into_iter()
        .map(|(value, title)| TitledValue {
            value: value.into(),
            title: title.into(),
        })
        .collect()
}
