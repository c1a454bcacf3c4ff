//! Single-pass decoding of objects that keep their unknown members.
//!
//! `#[serde(flatten)]` buffers every member before it sorts them out, which
//! doubles the cost of decoding `_meta` and capabilities on every request.
//! These objects are decoded in one pass instead: a known key fills its
//! field, any other key goes to the `extra` map, in arrival order.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Visitor};

/// An object key, borrowed from the input when it has no escapes.
pub(crate) struct Key<'de>(pub(crate) Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Implements `Deserialize` for a struct whose known members are all
/// optional (`field: "wire key"`) and whose other members go to `extra`.
macro_rules! deserialize_open {
    ($ty:ident { $($field:ident: $key:literal),* $(,)? }) => {
        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct OpenVisitor;
                impl<'de> ::serde::de::Visitor<'de> for OpenVisitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(concat!("an object (", stringify!($ty), ")"))
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, mut map: A) -> Result<$ty, A::Error> {
                        let mut out = $ty::default();
                        while let Some($crate::open::Key(key)) = map.next_key()? {
                            match &*key {
                                $($key => out.$field = map.next_value()?,)*
                                _ => {
                                    out.extra.insert(key.into_owned(), map.next_value()?);
                                }
                            }
                        }
                        Ok(out)
                    }
                }
                deserializer.deserialize_map(OpenVisitor)
            }
        }
    };
}
pub(crate) use deserialize_open;
