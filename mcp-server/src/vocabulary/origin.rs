//! Where a registration comes from: crate, version, module, file and line.
//!
//! Every registration carries its [`Origin`], captured where it is written, so
//! a boot failure can name both parties of a collision.
//!
//! ```
//! let origin = mcp_server::origin!();
//! assert_eq!(origin.crate_name, "mcp-server");
//! assert!(origin.to_string().starts_with("mcp-server "));
//! ```

use std::fmt;

use serde::Serialize;

/// The place a registration was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Origin {
    /// The crate's package name (`CARGO_PKG_NAME`).
    pub crate_name: &'static str,
    /// The crate's version (`CARGO_PKG_VERSION`).
    pub crate_version: &'static str,
    /// The module path.
    pub module: &'static str,
    /// The source file.
    pub file: &'static str,
    /// The line.
    pub line: u32,
}

impl Origin {
    /// The origin of what the framework itself provides.
    pub const FRAMEWORK: Origin = Origin {
        crate_name: env!("CARGO_PKG_NAME"),
        crate_version: env!("CARGO_PKG_VERSION"),
        module: "mcp_server",
        file: "(built in)",
        line: 0,
    };
}

impl fmt::Display for Origin {
    /// `weather-ext 0.3.1 (weather_ext::tools, src/tools.rs:12)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Origin::FRAMEWORK {
            return write!(f, "{} {} (built in)", self.crate_name, self.crate_version);
        }
        write!(
            f,
            "{} {} ({}, {}:{})",
            self.crate_name, self.crate_version, self.module, self.file, self.line
        )
    }
}

/// The [`Origin`] of the place this macro is written.
#[macro_export]
macro_rules! origin {
    () => {
        $crate::seam::Origin {
            crate_name: ::core::env!("CARGO_PKG_NAME"),
            crate_version: ::core::env!("CARGO_PKG_VERSION"),
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        }
    };
}
