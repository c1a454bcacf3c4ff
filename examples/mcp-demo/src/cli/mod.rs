//! The command line of the `mcp-demo` binary: what to do (serve stdio,
//! serve Streamable HTTP, run queued tasks, or print the boot report), which web origins may
//! call the HTTP endpoint from a browser, and the settings the server boots
//! with.
//!
//! ```
//! use clap::Parser;
//! use mcp_demo::cli::{Cli, Mode, ReportFormat};
//!
//! let cli = Cli::try_parse_from(["mcp-demo", "--http", "127.0.0.1:8080"]).unwrap();
//! let http = Mode::Http { addr: "127.0.0.1:8080".parse().unwrap(), cors_origins: vec![] };
//! assert_eq!(cli.mode(), http);
//!
//! let cli = Cli::try_parse_from(["mcp-demo", "--boot-report", "--task-store", "memory"]).unwrap();
//! assert_eq!(cli.mode(), Mode::BootReport(ReportFormat::Text));
//! assert_eq!(cli.settings.settings()[0].key, "tasks.store");
//!
//! let cli = Cli::try_parse_from(["mcp-demo", "--worker"]).unwrap();
//! assert_eq!(cli.mode(), Mode::Worker);
//!
//! assert!(Cli::try_parse_from(["mcp-demo"]).is_err());
//! ```

mod failure;
mod origin;
pub mod settings;

use std::net::SocketAddr;

use clap::{ArgGroup, Parser, ValueEnum};

pub use failure::print_boot_failure;
pub use settings::{Setting, SettingFlags, TaskStore};

/// What `mcp-demo` is asked to do, and with which settings.
#[derive(Debug, Clone, PartialEq, Parser)]
#[command(
    name = "mcp-demo",
    version,
    about = "The demo MCP server: the conformance suite's everything-server contract",
    after_help = "Logs go to stderr; stdout carries only protocol messages (or the boot report).",
    after_long_help = "\
Logs go to stderr; stdout carries only protocol messages (or the boot report).

Settings come, lowest precedence first, from the environment's MCP_<SECTION>__<KEY> variables \
(MCP_TASKS__STORE=sqlite is the setting tasks.store) and from this command line; when the \
server cannot boot, it prints why on stderr, shaped like compiler errors, and exits with status 1."
)]
#[command(group(
    ArgGroup::new("mode")
        .required(true)
        .args(["stdio", "http", "worker", "boot_report"])
))]
pub struct Cli {
    /// Serve newline-delimited JSON-RPC on stdin and stdout.
    #[arg(long)]
    pub stdio: bool,

    /// Serve Streamable HTTP at http://ADDRESS:PORT/mcp.
    ///
    /// ADDRESS is an IP address, not a host name: --http 127.0.0.1:8080
    /// serves http://127.0.0.1:8080/mcp.
    #[arg(long, value_name = "ADDRESS:PORT")]
    pub http: Option<SocketAddr>,

    /// With --http: let web pages of ORIGIN call the endpoint from a browser (CORS).
    #[arg(
        long_help = "With --http: let web pages of ORIGIN call the endpoint from a browser (CORS).\n\n\
                     ORIGIN is scheme://host[:port], such as https://app.example.com; \
                     repeat the option for more origins; * allows any origin (only for a \
                     server that checks Authorization).",
        long = "cors-origin",
        value_name = "ORIGIN",
        requires = "http",
        conflicts_with_all = ["stdio", "boot_report"],
        value_parser = origin::parse
    )]
    pub cors_origins: Vec<String>,

    /// Run the tasks other instances queued (with redis.queue on), until
    /// interrupted.
    ///
    /// A worker is the same server booted with the same settings, that
    /// takes jobs from the Redis named by redis.url instead of serving
    /// clients: MCP_REDIS__URL=redis://127.0.0.1:6379 mcp-demo --worker.
    #[arg(long, conflicts_with_all = ["stdio", "http", "boot_report"])]
    pub worker: bool,

    /// Boot the server, print its boot report on stdout, and exit.
    ///
    /// The report lists every tool, prompt, resource, interceptor and
    /// one-active seam with where it came from, and each method's
    /// pipeline; FORMAT is text (the default) or json.
    #[arg(
        long,
        value_name = "FORMAT",
        value_enum,
        num_args = 0..=1,
        default_missing_value = "text"
    )]
    pub boot_report: Option<ReportFormat>,

    /// The settings the server boots with.
    #[command(flatten, next_help_heading = "Settings")]
    pub settings: SettingFlags,
}

/// The format of `--boot-report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// The report as a person reads it.
    Text,
    /// The report as JSON.
    Json,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Serve on stdin and stdout.
    Stdio,
    /// Serve Streamable HTTP.
    Http {
        /// The address to serve on.
        addr: SocketAddr,
        /// The web origins allowed to call the endpoint from a browser.
        cors_origins: Vec<String>,
    },
    /// Run queued tasks.
    Worker,
    /// Print the boot report and exit.
    BootReport(ReportFormat),
}

impl Cli {
    /// What to do: the command line names exactly one of `--stdio`,
    /// `--http`, `--worker` and `--boot-report` (parsing refuses anything
    /// else).
    pub fn mode(&self) -> Mode {
        if let Some(format) = self.boot_report {
            Mode::BootReport(format)
        } else if self.worker {
            Mode::Worker
        } else if let Some(addr) = self.http {
            Mode::Http {
                addr,
                cors_origins: self.cors_origins.clone(),
            }
        } else {
            Mode::Stdio
        }
    }
}
