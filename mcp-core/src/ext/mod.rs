//! Wire types of the official extensions, negotiated through `capabilities.extensions`.
