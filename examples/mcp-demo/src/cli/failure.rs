//! A failed boot on stderr: the boot diagnostics, rendered in colour and
//! written through `anstream`, which keeps the colour only where clap's and
//! cargo's would be kept: on a terminal unless `NO_COLOR` is set, and
//! anywhere when `CLICOLOR_FORCE` is.

use std::io::Write;

use mcp_server::boot::BootErrors;
use mcp_server::boot::Colour;

/// Prints `errors` on stderr, coloured only where stderr should get colour.
pub fn print_boot_failure(errors: &BootErrors) {
    let mut stderr = anstream::stderr();
    // Nothing is left to tell when stderr itself fails.
    let _ = writeln!(stderr, "{}", errors.render(Colour::Always));
}
