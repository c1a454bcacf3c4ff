//! A real `redis-server` per test: on a free port, in a temporary
//! directory, stopped when dropped. Tests that need Redis start their own,
//! never a shared or default instance.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `redis-server` of this test's own.
#[derive(Debug)]
pub struct RedisServer {
    child: Option<Child>,
    port: u16,
    dir: tempfile::TempDir,
    persist: bool,
    password: Option<String>,
}

impl RedisServer {
    /// Starts one without persistence; `None` (with a message saying why)
    /// when `redis-server` is not installed and the run is not CI's, where
    /// its absence fails the test.
    pub fn start() -> Option<Self> {
        Self::start_with(false)
    }

    /// Starts one that persists every write (append-only file, `fsync`
    /// always) in its directory.
    pub fn start_persistent() -> Option<Self> {
        Self::start_with(true)
    }

    /// Starts one that requires `password` (`requirepass`); its
    /// [`url`](Self::url) carries it.
    pub fn start_with_password(password: &str) -> Option<Self> {
        let mut server = Self::start_with(false)?;
        server.kill();
        server.password = Some(password.to_owned());
        server.spawn();
        Some(server)
    }

    fn start_with(persist: bool) -> Option<Self> {
        if Command::new("redis-server")
            .arg("--version")
            .output()
            .is_err()
        {
            assert!(
                std::env::var_os("CI").is_none(),
                "redis-server is not installed: .ci/run installs it (apt-get install redis-server)"
            );
            eprintln!("SKIPPED: redis-server is not installed (apt-get install redis-server)");
            return None;
        }
        let port = crate::http::free_port();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut server = Self {
            child: None,
            port,
            dir,
            persist,
            password: None,
        };
        server.spawn();
        Some(server)
    }

    fn spawn(&mut self) {
        let mut command = Command::new("redis-server");
        command
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", ""])
            .arg("--dir")
            .arg(self.dir.path());
        if let Some(password) = &self.password {
            command.args(["--requirepass", password]);
        }
        if self.persist {
            command.args(["--appendonly", "yes", "--appendfsync", "always"]);
        } else {
            command.args(["--appendonly", "no"]);
        }
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        wait_for(self.port);
    }

    /// `redis://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        match &self.password {
            Some(password) => format!("redis://:{password}@127.0.0.1:{}", self.port),
            None => format!("redis://127.0.0.1:{}", self.port),
        }
    }

    /// Its directory (its append-only file, when it persists).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Kills the server (SIGKILL: nothing is flushed that was not already).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port and directory.
    pub fn restart(&mut self) {
        self.kill();
        self.spawn();
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits until the port accepts a connection and answers PING.
fn wait_for(port: u16) {
    use std::io::{Read, Write};
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
            let mut answer = [0u8; 7];
            if stream.write_all(b"PING\r\n").is_ok()
                && stream.read_exact(&mut answer).is_ok()
                // PONG, or NOAUTH from one that requires a password: up.
                && (&answer == b"+PONG\r\n" || &answer == b"-NOAUTH")
            {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("redis-server did not answer on port {port}");
}

/// The first answer `ask` gives without an error, asked every 100 ms for at
/// most 5 s: what a client reads once a restarted Redis takes it back.
pub async fn first_answer<T, E, F, Fut>(mut ask: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    for _ in 0..50 {
        if let Ok(answer) = ask().await {
            return Some(answer);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}
