//! The command line of the `mcp-demo` binary: which transport to serve on.
//!
//! ```
//! use mcp_demo::cli::{self, Command};
//!
//! let args = ["--http", "127.0.0.1:8080"].map(String::from);
//! assert_eq!(cli::parse(args).unwrap(), Command::Http("127.0.0.1:8080".parse().unwrap()));
//! assert!(cli::parse(Vec::<String>::new()).is_err());
//! ```

use std::fmt;
use std::net::{AddrParseError, SocketAddr};

/// The one-line synopsis, printed with every usage error.
pub const USAGE: &str = "usage: mcp-demo --stdio | --http <ADDRESS:PORT> | --help";

/// What `--help` prints.
pub const HELP: &str = "\
mcp-demo: the demo MCP server (the conformance suite's everything-server contract)

usage: mcp-demo --stdio | --http <ADDRESS:PORT> | --help

  --stdio                 serve newline-delimited JSON-RPC on stdin and stdout
  --http <ADDRESS:PORT>   serve Streamable HTTP at http://<ADDRESS:PORT>/mcp,
                          for example --http 127.0.0.1:8080 (an IP address, not a host name)
  -h, --help              print this help and exit

Logs go to stderr; stdout carries only protocol messages.
";

/// What the command line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Print the help.
    Help,
    /// Serve on stdin and stdout.
    Stdio,
    /// Serve Streamable HTTP on this address.
    Http(SocketAddr),
}

/// Why a command line was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsageError {
    /// No transport was chosen.
    NoTransport,
    /// An argument this program does not know.
    Unknown(String),
    /// `--http` without an address after it.
    MissingAddress,
    /// `--http` with something that is not `ADDRESS:PORT`.
    BadAddress(String, AddrParseError),
    /// A second transport, or anything after the first.
    Unexpected(String),
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoTransport => {
                f.write_str("choose a transport: --stdio or --http <ADDRESS:PORT>")
            }
            Self::Unknown(arg) => write!(f, "unknown argument `{arg}`"),
            Self::MissingAddress => {
                f.write_str("`--http` needs an address, such as 127.0.0.1:8080")
            }
            Self::BadAddress(arg, e) => write!(
                f,
                "`{arg}` is not an IP address and port, such as 127.0.0.1:8080 ({e})"
            ),
            Self::Unexpected(arg) => write!(f, "unexpected argument `{arg}`: give one transport"),
        }
    }
}

impl std::error::Error for UsageError {}

/// Reads the arguments after the program name. `-h` or `--help` anywhere
/// asks for the help; otherwise exactly one of `--stdio`, `--http ADDRESS`
/// (or `--http=ADDRESS`).
///
/// # Errors
///
/// A [`UsageError`] naming what is wrong.
pub fn parse<I>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator<Item = String>,
{
    let args: Vec<String> = args.into_iter().collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Ok(Command::Help);
    }
    let mut args = args.into_iter();
    let command = match args.next() {
        None => return Err(UsageError::NoTransport),
        Some(arg) if arg == "--stdio" => Command::Stdio,
        Some(arg) if arg == "--http" => {
            let address = args.next().ok_or(UsageError::MissingAddress)?;
            Command::Http(address_of(address)?)
        }
        Some(arg) => match arg.strip_prefix("--http=") {
            Some(address) => Command::Http(address_of(address.to_owned())?),
            None => return Err(UsageError::Unknown(arg)),
        },
    };
    match args.next() {
        Some(extra) => Err(UsageError::Unexpected(extra)),
        None => Ok(command),
    }
}

/// Parses `ADDRESS:PORT`.
fn address_of(arg: String) -> Result<SocketAddr, UsageError> {
    arg.parse().map_err(|e| UsageError::BadAddress(arg, e))
}
