//! Boot diagnostics in colour, styled as rustc styles its own: `error` and
//! its code in bold red, the message in bold, the `=` of each note and help
//! line in bold blue with its label in bold. The [`Display`](fmt::Display)
//! of every boot error stays plain (tests and logs compare it); a binary
//! that writes to a terminal asks for [`Colour::Always`], and one that
//! decides per stream (`NO_COLOR`, `CLICOLOR_FORCE`, a terminal or not)
//! leaves that to the stream, as `anstream` does.
//!
//! ```
//! use mcp_server::boot::{Colour, Diagnostic};
//! use mcp_server::boot::BootError;
//!
//! let error = BootError::Extension(Diagnostic::new("demo::broken", "it broke").help("mend it"));
//! assert_eq!(error.render(Colour::Never).to_string(), error.to_string());
//!
//! let coloured = error.render(Colour::Always).to_string();
//! assert!(coloured.starts_with("\u{1b}["));
//! assert!(coloured.contains("error[demo::broken]"));
//! assert_ne!(coloured, error.to_string());
//! ```

use std::fmt;

use anstyle::{AnsiColor, Style};

use super::diagnostic::{BootError, BootErrors, Diagnostic};

/// Whether a rendering carries colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// With ANSI escape codes, for a terminal.
    Always,
    /// Plain text, exactly the [`Display`](fmt::Display) of the diagnostic.
    Never,
}

/// A boot diagnostic as text, with or without colour; made by
/// [`BootError::render`], [`BootErrors::render`] and [`Diagnostic::render`].
pub struct Rendered<'a> {
    plain: &'a dyn fmt::Display,
    colour: Colour,
}

impl fmt::Debug for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rendered")
            .field("plain", &self.plain.to_string())
            .field("colour", &self.colour)
            .finish()
    }
}

impl BootError {
    /// The diagnostic, in colour or plain.
    pub fn render(&self, colour: Colour) -> Rendered<'_> {
        Rendered {
            plain: self,
            colour,
        }
    }
}

impl BootErrors {
    /// Every diagnostic and the closing line, in colour or plain.
    pub fn render(&self, colour: Colour) -> Rendered<'_> {
        Rendered {
            plain: self,
            colour,
        }
    }
}

impl Diagnostic {
    /// The diagnostic, in colour or plain.
    pub fn render(&self, colour: Colour) -> Rendered<'_> {
        Rendered {
            plain: self,
            colour,
        }
    }
}

/// `error` and its code.
const ERROR: Style = AnsiColor::BrightRed.on_default().bold();
/// The message after `error[…]:`.
const MESSAGE: Style = Style::new().bold();
/// The `=` before a note or help.
const GUTTER: Style = AnsiColor::BrightBlue.on_default().bold();
/// `note` and `help`.
const LABEL: Style = Style::new().bold();

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.colour == Colour::Never {
            return self.plain.fmt(f);
        }
        let plain = self.plain.to_string();
        for (i, line) in plain.split('\n').enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            styled_line(f, line)?;
        }
        Ok(())
    }
}

/// Writes one line of a plain diagnostic with its parts styled.
fn styled_line(f: &mut fmt::Formatter<'_>, line: &str) -> fmt::Result {
    if line.starts_with("error")
        && let Some((head, message)) = line.split_once(": ")
    {
        return write!(f, "{ERROR}{head}{ERROR:#}{MESSAGE}: {message}{MESSAGE:#}");
    }
    let text = line.trim_start();
    let pad = &line[..line.len() - text.len()];
    if let Some((label, text)) = text.strip_prefix("= ").and_then(|r| r.split_once(": ")) {
        return write!(
            f,
            "{pad}{GUTTER}={GUTTER:#} {LABEL}{label}:{LABEL:#} {text}"
        );
    }
    f.write_str(line)
}
