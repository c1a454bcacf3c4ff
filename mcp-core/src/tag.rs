//! Zero-sized types that stand for one fixed string on the wire.
//!
//! The schema pins many fields to a single value (`"jsonrpc": "2.0"`,
//! `"type": "text"`, `"method": "tools/call"`). Each such field is typed with a
//! tag: it serializes to its string and refuses any other on decode, so a
//! struct is schema-exact on its own and an untagged union picks the right
//! variant by its tag.

/// Declares a tag type for one fixed wire string.
macro_rules! wire_tag {
    ($(#[$attr:meta])* $name:ident = $value:literal) => {
        $(#[$attr])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name;

        impl $name {
            /// The string this tag stands for.
            pub const VALUE: &'static str = $value;
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str($value)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_str($crate::tag::TagVisitor($value)).map(|()| $name)
            }
        }

        #[cfg(feature = "arbitrary")]
        impl<'a> ::arbitrary::Arbitrary<'a> for $name {
            fn arbitrary(_: &mut ::arbitrary::Unstructured<'a>) -> ::arbitrary::Result<Self> {
                Ok($name)
            }
            fn size_hint(_: usize) -> (usize, Option<usize>) {
                (0, Some(0))
            }
        }
    };
}
pub(crate) use wire_tag;

/// Accepts exactly one string without allocating.
#[doc(hidden)]
#[derive(Debug)]
pub(crate) struct TagVisitor(pub(crate) &'static str);

impl serde::de::Visitor<'_> for TagVisitor {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the string {:?}", self.0)
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<(), E> {
        if value == self.0 {
            Ok(())
        } else {
            Err(E::invalid_value(serde::de::Unexpected::Str(value), &self))
        }
    }
}
