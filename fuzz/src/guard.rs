//! Inputs that name one of the demo's slow tools are not sent: those tools
//! sleep for seconds (or as long as they are asked to) by design and do not
//! heed cancellation, so they would only measure their own sleep.

use std::fmt;

use memchr::memmem;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The tools whose names show they are slow.
pub const SLOW_TOOLS: [&str; 3] = ["slow_compute", "long_report", "failing_job"];

/// Whether `bytes` name a slow tool: spelled out anywhere, or as any JSON
/// string (a key too, escapes decoded, every duplicate of a key visited).
pub fn names_a_slow_tool(bytes: &[u8]) -> bool {
    if SLOW_TOOLS
        .iter()
        .any(|name| memmem::find(bytes, name.as_bytes()).is_some())
    {
        return true;
    }
    let mut found = false;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    // Bytes that are not JSON reach no tool.
    let _ = Strings { found: &mut found }.deserialize(&mut deserializer);
    found
}

/// Visits every string of a JSON text, keys included.
struct Strings<'a> {
    found: &'a mut bool,
}

impl Strings<'_> {
    fn see(&mut self, text: &str) {
        if SLOW_TOOLS.iter().any(|name| text.contains(name)) {
            *self.found = true;
        }
    }
}

impl<'de> DeserializeSeed<'de> for Strings<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strings<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: de::Error>(mut self, text: &str) -> Result<(), E> {
        self.see(text);
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(Strings {
                found: &mut *self.found,
            })?
            .is_some()
        {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        loop {
            let key = map.next_key_seed(Strings {
                found: &mut *self.found,
            })?;
            if key.is_none() {
                return Ok(());
            }
            map.next_value_seed(Strings {
                found: &mut *self.found,
            })?;
        }
    }
}
