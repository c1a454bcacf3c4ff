//! The command line of the `mcp-demo` binary: which transport to serve on,
//! and which web origins may call the HTTP endpoint from a browser.
//!
//! ```
//! use mcp_demo::cli::{self, Command};
//!
//! let args = ["--http", "127.0.0.1:8080"].map(String::from);
//! let http = Command::Http { addr: "127.0.0.1:8080".parse().unwrap(), cors_origins: vec![] };
//! assert_eq!(cli::parse(args).unwrap(), http);
//! let args = ["--http", "127.0.0.1:8080", "--cors-origin", "https://app.example.com"];
//! let Command::Http { cors_origins, .. } = cli::parse(args.map(String::from)).unwrap() else {
//!     unreachable!()
//! };
//! assert_eq!(cors_origins, ["https://app.example.com"]);
//! assert!(cli::parse(Vec::<String>::new()).is_err());
//! ```

use std::fmt;
use std::net::{AddrParseError, SocketAddr};

/// The one-line synopsis, printed with every usage error.
pub const USAGE: &str =
    "usage: mcp-demo --stdio | --http <ADDRESS:PORT> [--cors-origin <ORIGIN>]... | --help";

/// What `--help` prints.
pub const HELP: &str = "\
mcp-demo: the demo MCP server (the conformance suite's everything-server contract)

usage: mcp-demo --stdio | --http <ADDRESS:PORT> [--cors-origin <ORIGIN>]... | --help

  --stdio                 serve newline-delimited JSON-RPC on stdin and stdout
  --http <ADDRESS:PORT>   serve Streamable HTTP at http://<ADDRESS:PORT>/mcp,
                          for example --http 127.0.0.1:8080 (an IP address, not a host name)
  --cors-origin <ORIGIN>  with --http: let web pages of ORIGIN (scheme://host[:port],
                          for example https://app.example.com) call the endpoint from a
                          browser (CORS); repeat for more origins; * allows any origin
                          (only for a server that checks Authorization)
  -h, --help              print this help and exit

Logs go to stderr; stdout carries only protocol messages.
";

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Print the help.
    Help,
    /// Serve on stdin and stdout.
    Stdio,
    /// Serve Streamable HTTP.
    Http {
        /// The address to serve on.
        addr: SocketAddr,
        /// The web origins allowed to call the endpoint from a browser.
        cors_origins: Vec<String>,
    },
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
    /// A second transport, or anything else after the first.
    Unexpected(String),
    /// `--cors-origin` without an origin after it.
    MissingOrigin,
    /// `--cors-origin` with something that is neither `*` nor `scheme://host[:port]`.
    BadOrigin(String),
    /// `--cors-origin` without `--http`.
    OriginWithoutHttp,
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
            Self::MissingOrigin => {
                f.write_str("`--cors-origin` needs an origin, such as https://app.example.com")
            }
            Self::BadOrigin(arg) => write!(
                f,
                "`{arg}` is not an origin: give scheme://host[:port], such as https://app.example.com, or *"
            ),
            Self::OriginWithoutHttp => f.write_str("`--cors-origin` needs `--http`"),
        }
    }
}

impl std::error::Error for UsageError {}

/// Reads the arguments after the program name. `-h` or `--help` anywhere
/// asks for the help; otherwise exactly one of `--stdio`, `--http ADDRESS`
/// (or `--http=ADDRESS`), and with `--http`, any number of
/// `--cors-origin ORIGIN` (or `--cors-origin=ORIGIN`), before or after it.
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
    let mut transport = None;
    let mut cors_origins = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--cors-origin" {
            cors_origins.push(origin_of(args.next().ok_or(UsageError::MissingOrigin)?)?);
            continue;
        }
        if let Some(origin) = arg.strip_prefix("--cors-origin=") {
            cors_origins.push(origin_of(origin.to_owned())?);
            continue;
        }
        if transport.is_some() {
            return Err(UsageError::Unexpected(arg));
        }
        transport = Some(if arg == "--stdio" {
            Transport::Stdio
        } else if arg == "--http" {
            let address = args.next().ok_or(UsageError::MissingAddress)?;
            Transport::Http(address_of(address)?)
        } else if let Some(address) = arg.strip_prefix("--http=") {
            Transport::Http(address_of(address.to_owned())?)
        } else {
            return Err(UsageError::Unknown(arg));
        });
    }
    match transport {
        None => Err(UsageError::NoTransport),
        Some(Transport::Stdio) if !cors_origins.is_empty() => Err(UsageError::OriginWithoutHttp),
        Some(Transport::Stdio) => Ok(Command::Stdio),
        Some(Transport::Http(addr)) => Ok(Command::Http { addr, cors_origins }),
    }
}

/// The transport a command line chose.
enum Transport {
    Stdio,
    Http(SocketAddr),
}

/// Parses `ADDRESS:PORT`.
fn address_of(arg: String) -> Result<SocketAddr, UsageError> {
    arg.parse().map_err(|e| UsageError::BadAddress(arg, e))
}

/// Checks an origin: `*`, or `scheme://host[:port]`.
fn origin_of(arg: String) -> Result<String, UsageError> {
    let well_formed = arg == "*"
        || arg
            .split_once("://")
            .map(|(scheme, host)| (scheme, host.trim_end_matches('/')))
            .is_some_and(|(scheme, host)| {
                !scheme.is_empty() && !host.is_empty() && !host.contains('/')
            });
    if well_formed {
        Ok(arg)
    } else {
        Err(UsageError::BadOrigin(arg))
    }
}
