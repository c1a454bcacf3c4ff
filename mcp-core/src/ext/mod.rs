//! Wire types of the official extensions, negotiated through `capabilities.extensions`.

pub mod apps;
pub mod tasks;
