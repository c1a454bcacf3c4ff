//! The table from schema definitions to Rust types: one line per definition.
//!
//! Each line names a `$defs` entry of one schema document and the Rust type
//! that models it. Where that type is wider than the definition (an abstract
//! base, a type shared by several definitions such as the error codes), the
//! line also names a generator that keeps generated values inside the
//! definition.

use arbitrary::Unstructured;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::schema::Schema;

mod ext_apps;
mod ext_tasks;
mod legacy;
mod modern;

pub use ext_apps::EXT_APPS;
pub use ext_tasks::EXT_TASKS;
pub use legacy::LEGACY;
pub use modern::MODERN;

/// One schema definition and the Rust type that models it.
#[derive(Debug, Clone, Copy)]
pub struct Definition {
    /// The schema document the definition is validated against.
    pub schema: Schema,
    /// The definition's name under `$defs`.
    pub name: &'static str,
    /// The Rust type, as written in the table.
    pub rust_type: &'static str,
    /// Decodes a value into the Rust type and encodes it back.
    pub round_trip: fn(&Value) -> Result<Value, String>,
    /// Generates a value of the Rust type that the definition accepts, and encodes it.
    pub generate: fn(&mut Unstructured<'_>) -> arbitrary::Result<Value>,
}

impl Definition {
    /// `<schema dir>/$defs/<name>`, for messages.
    pub fn label(&self) -> String {
        format!(
            "{} $defs/{} ({})",
            self.schema.dir_name(),
            self.name,
            self.rust_type
        )
    }
}

/// Every table: the 2026-07-28 definitions, the tasks and apps extensions'
/// own, and the 2025-11-25 definitions the 2026-07-28 schema no longer has.
pub fn all() -> impl Iterator<Item = &'static Definition> {
    MODERN.iter().chain(EXT_TASKS).chain(EXT_APPS).chain(LEGACY)
}

/// The table for `schema`.
pub fn for_schema(schema: Schema) -> &'static [Definition] {
    match schema {
        Schema::Modern => MODERN,
        Schema::Legacy => LEGACY,
        Schema::ExtTasks => EXT_TASKS,
        Schema::ExtApps => EXT_APPS,
    }
}

/// The entry for `name` in `schema`'s table.
pub fn find(schema: Schema, name: &str) -> Option<&'static Definition> {
    for_schema(schema).iter().find(|d| d.name == name)
}

/// Decodes `value` into `T` from its JSON text, as a peer's bytes would be
/// decoded, and encodes the result back to a value.
///
/// # Errors
///
/// The decode or encode error, as text.
pub fn round_trip<T: Serialize + DeserializeOwned>(value: &Value) -> Result<Value, String> {
    let decoded: T =
        serde_json::from_str(&value.to_string()).map_err(|e| format!("decode: {e}"))?;
    let text = serde_json::to_string(&decoded).map_err(|e| format!("encode: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("re-read of the encoding: {e}"))
}

/// Encodes a generated value.
///
/// # Errors
///
/// Never; an encoding failure is a bug in the model and panics.
pub fn encode<T: Serialize>(value: &T) -> arbitrary::Result<Value> {
    let text = serde_json::to_string(value)
        .unwrap_or_else(|e| panic!("a generated value does not encode: {e}"));
    Ok(serde_json::from_str(&text).expect("the encoding is JSON"))
}

/// Declares a table of definitions.
///
/// ```text
/// definitions!(MODERN for Schema::Modern {
///     "CallToolRequest" => mcp_core::tools::CallToolRequest,
///     "ParseError" => ErrorObject, gen = error_with_code(-32700),
/// });
/// ```
///
/// Without `gen`, values come from the type's `Arbitrary` implementation.
/// A `gen` is an expression callable as
/// `fn(&mut Unstructured) -> arbitrary::Result<Type>`.
macro_rules! definitions {
    (
        $(#[$attr:meta])*
        $table:ident for $schema:expr => {
            $($name:literal => $ty:ty $(, gen = $gen:expr)?;)*
        }
    ) => {
        $(#[$attr])*
        pub static $table: &[$crate::table::Definition] = &[$(
            $crate::table::Definition {
                schema: $schema,
                name: $name,
                rust_type: stringify!($ty),
                round_trip: |value| $crate::table::round_trip::<$ty>(value),
                generate: definitions!(@generate $ty $(, $gen)?),
            },
        )*];
    };
    (@generate $ty:ty) => {
        |u| $crate::table::encode(&<$ty as ::arbitrary::Arbitrary>::arbitrary(u)?)
    };
    (@generate $ty:ty, $gen:expr) => {
        |u| {
            let value: $ty = ($gen)(u)?;
            $crate::table::encode(&value)
        }
    };
}
use definitions;
