//! The MCP Apps View of `sales_by_region` in a real browser: `mcp-demo
//! --http` on a free port, and `.ci/browser/drive.mjs`, which reads the View
//! and calls the tool with the TypeScript SDK, puts the View into headless
//! Chromium behind the official ext-apps host bridge, checks what it draws and
//! saves a screenshot under `target/browser-test/`.
//!
//! Needs `/usr/bin/chromium` (or `$CHROMIUM`), Node.js and `npm ci` in
//! `.ci/browser`, which `.ci/run` installs. Without them the test says why and
//! passes, unless `CI` is set: then it fails.

use std::fs::{self, File};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use mcp_tests::http::{NotListening, free_port, wait_until_listening};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-demo");
/// The driver stops itself after two minutes; this is the backstop.
const DRIVER_LIMIT: Duration = Duration::from_secs(180);
const SERVER_START_LIMIT: Duration = Duration::from_secs(30);

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `target/browser-test`, in whatever target directory built the binary.
fn output_directory() -> PathBuf {
    let profile_directory = Path::new(BINARY).parent().unwrap();
    profile_directory.parent().unwrap().join("browser-test")
}

/// Why the browser test cannot run here, if it cannot.
fn missing_prerequisite() -> Option<String> {
    let chromium = std::env::var_os("CHROMIUM").unwrap_or_else(|| "/usr/bin/chromium".into());
    if !Path::new(&chromium).exists() {
        return Some(format!(
            "{} is missing (apt-get install chromium)",
            Path::new(&chromium).display()
        ));
    }
    let modules = repository().join(".ci/browser/node_modules");
    if !modules.is_dir() {
        return Some(format!(
            "{} is missing (npm ci in .ci/browser)",
            modules.display()
        ));
    }
    match Command::new("node").arg("--version").output() {
        Ok(output) if output.status.success() => None,
        _ => Some("node is not on PATH".to_owned()),
    }
}

/// A running `mcp-demo --http 127.0.0.1:PORT`, stopped when dropped.
struct HttpServer {
    child: Child,
    address: SocketAddr,
    log: PathBuf,
}

impl HttpServer {
    /// Starts the server on a free port and waits until it accepts
    /// connections. A port taken between the probe and the start is retried.
    fn start(log: PathBuf) -> Self {
        for _ in 0..3 {
            let address = SocketAddr::from((Ipv4Addr::LOCALHOST, free_port()));
            let output = File::create(&log).unwrap();
            let child = Command::new(BINARY)
                .arg("--http")
                .arg(address.to_string())
                .stdin(Stdio::null())
                .stdout(output.try_clone().unwrap())
                .stderr(output)
                .spawn()
                .unwrap();
            let mut server = Self {
                child,
                address,
                log: log.clone(),
            };
            if server.wait_until_listening() {
                return server;
            }
        }
        panic!(
            "mcp-demo --http did not start three times; its log:\n{}",
            fs::read_to_string(&log).unwrap_or_default()
        );
    }

    /// Whether it listens; `false` when it exited first (its port taken, say).
    fn wait_until_listening(&mut self) -> bool {
        match wait_until_listening(&mut self.child, self.address.port(), SERVER_START_LIMIT) {
            Ok(()) => true,
            Err(NotListening::Exited(_)) => false,
            Err(NotListening::TimedOut) => panic!(
                "mcp-demo --http {} did not listen within {SERVER_START_LIMIT:?}; its log:\n{}",
                self.address,
                fs::read_to_string(&self.log).unwrap_or_default()
            ),
        }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `child` to its end, killing it past `limit`.
fn wait_at_most(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_sales_chart_view_draws_the_tool_result_in_chromium_behind_the_official_host_bridge() {
    if let Some(reason) = missing_prerequisite() {
        if std::env::var_os("CI").is_some() {
            panic!("the browser test cannot run: {reason}");
        }
        eprintln!("skipped: the browser test cannot run: {reason}");
        return;
    }
    let out = output_directory();
    fs::create_dir_all(&out).unwrap();
    let screenshot = out.join("sales-chart.png");
    let _ = fs::remove_file(&screenshot);

    let server = HttpServer::start(out.join("server.log"));
    let driver_log = out.join("drive.log");
    let output = File::create(&driver_log).unwrap();
    let mut driver = Command::new("node")
        .arg(repository().join(".ci/browser/drive.mjs"))
        .arg(server.url())
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(output.try_clone().unwrap())
        .stderr(output)
        .spawn()
        .unwrap();
    let status = wait_at_most(&mut driver, DRIVER_LIMIT);
    drop(server);

    let log = fs::read_to_string(&driver_log).unwrap_or_default();
    println!("{log}");
    let server_log = || fs::read_to_string(out.join("server.log")).unwrap_or_default();
    match status {
        None => panic!(
            "drive.mjs ran past {DRIVER_LIMIT:?} and was killed; its output:\n{log}\nthe server's log:\n{}",
            server_log()
        ),
        Some(status) => assert!(
            status.success(),
            "drive.mjs failed ({status}); its output:\n{log}\nthe server's log:\n{}",
            server_log()
        ),
    }
    let size = fs::metadata(&screenshot)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}", screenshot.display()))
        .len();
    assert!(
        size > 1000,
        "{} has only {size} bytes",
        screenshot.display()
    );
}
