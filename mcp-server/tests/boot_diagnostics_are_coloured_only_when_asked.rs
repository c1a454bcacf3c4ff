//! Boot diagnostics render plain by default and in colour on request: the
//! `Display` text never carries escape codes, and the coloured rendering
//! styles `error[…]`, the message and the `=` of notes and helps.

use mcp_server::Server;
use mcp_server::boot::{BootError, BootErrors};
use mcp_server::boot::{Colour, Diagnostic};

const ESCAPE: char = '\u{1b}';

fn failed_boot() -> BootErrors {
    Server::builder()
        .without_linked()
        .without_environment()
        .setting("sever.page_size", 10)
        .setting("server.page_size", "ten")
        .try_build()
        .unwrap_err()
}

#[test]
fn the_plain_rendering_is_the_display_and_has_no_escape_codes() {
    let errors = failed_boot();
    let plain = errors.render(Colour::Never).to_string();
    assert_eq!(plain, errors.to_string());
    assert!(!plain.contains(ESCAPE), "{plain}");
    assert!(plain.contains("error[mcp::unknown_setting]: setting `sever` is not known"));
    assert!(plain.contains("error[mcp::invalid_setting]: setting `server.page_size` is invalid"));
    assert!(plain.ends_with("error: boot failed because of 2 previous errors"));
}

#[test]
fn the_coloured_rendering_styles_the_code_the_notes_and_the_closing_line() {
    let coloured = failed_boot().render(Colour::Always).to_string();
    assert!(
        coloured.contains("\u{1b}[1m\u{1b}[91merror[mcp::unknown_setting]\u{1b}[0m"),
        "{coloured:?}"
    );
    assert!(
        coloured.contains("\u{1b}[1m\u{1b}[94m=\u{1b}[0m \u{1b}[1mhelp:\u{1b}[0m remove it"),
        "{coloured:?}"
    );
    assert!(
        coloured.contains("\u{1b}[1m\u{1b}[91merror\u{1b}[0m\u{1b}[1m: boot failed"),
        "{coloured:?}"
    );
}

#[test]
fn colour_adds_only_escape_codes() {
    let errors = failed_boot();
    let coloured = errors.render(Colour::Always).to_string();
    assert_eq!(strip(&coloured), errors.to_string());
}

#[test]
fn a_crate_s_own_diagnostic_and_a_single_error_render_the_same_way() {
    let diagnostic = Diagnostic::new("charts::missing_palette", "tool `chart` has no palette")
        .note("the palette: `sunset`")
        .help("declare the palette");
    let error = BootError::Extension(diagnostic.clone());
    assert_eq!(
        diagnostic.render(Colour::Always).to_string(),
        error.render(Colour::Always).to_string()
    );
    assert_eq!(
        strip(&diagnostic.render(Colour::Always).to_string()),
        diagnostic.to_string()
    );
    assert!(!error.render(Colour::Never).to_string().contains(ESCAPE));
}

/// The text without its SGR escape codes (`ESC [ … m`).
fn strip(text: &str) -> String {
    let mut plain = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == ESCAPE {
            chars.by_ref().find(|&c| c == 'm');
        } else {
            plain.push(c);
        }
    }
    plain
}
