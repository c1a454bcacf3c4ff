//! Request ids and progress tokens: a string or an integer, never `null`.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Declares a string-or-integer identifier type.
macro_rules! string_or_integer {
    ($(#[$attr:meta])* $name:ident, $what:literal) => {
        $(#[$attr])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
        pub enum $name {
            /// A string.
            String(String),
            /// An integer.
            Number(i64),
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    Self::String(s) => serializer.serialize_str(s),
                    Self::Number(n) => serializer.serialize_i64(*n),
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("a string or an integer ", $what))
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$name, E> {
                        Ok($name::String(v.to_owned()))
                    }
                    fn visit_string<E: de::Error>(self, v: String) -> Result<$name, E> {
                        Ok($name::String(v))
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$name, E> {
                        Ok($name::Number(v))
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        i64::try_from(v).map($name::Number).map_err(|_| {
                            E::invalid_value(de::Unexpected::Unsigned(v), &"an integer within 64 bits")
                        })
                    }
                }
                deserializer.deserialize_any(V)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    Self::String(s) => f.write_str(s),
                    Self::Number(n) => n.fmt(f),
                }
            }
        }

        impl From<i64> for $name {
            fn from(n: i64) -> Self {
                Self::Number(n)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self::String(s.to_owned())
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self::String(s)
            }
        }
    };
}

string_or_integer!(
    /// A JSON-RPC request id (`RequestId`): a string or an integer, never `null`; `0` is valid.
    RequestId,
    "(a request id)"
);

string_or_integer!(
    /// A token that ties progress notifications to a request (`ProgressToken`).
    ProgressToken,
    "(a progress token)"
);
