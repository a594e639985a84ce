//! A throwaway PostgreSQL server of our own, for tests and the bench: its
//! cluster is made by `initdb` in a temporary directory, it listens on a
//! free port of 127.0.0.1 and trusts local connections, and it stops (and
//! its directory goes) when the process that started it exits, however it
//! exits: the server's wrapper waits on a pipe only that process holds.
//!
//! `initdb` refuses to run as root, so as root the server runs as the
//! `postgres` user (Debian's packages make it). The server binaries come
//! from `TABLETAPE_PG_BIN`, or the newest `/usr/lib/postgresql/*/bin`.
//!
//! [`test_store`] is how the suites run against either backend: with
//! `TABLETAPE_TEST_STORE=postgres` each store is a fresh database on one
//! shared scratch server; otherwise a sled directory.

use std::io::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::location::Location;

/// The role the scratch cluster is made with.
const ROLE: &str = "tabletape";

/// A running scratch server.
#[derive(Debug)]
pub struct ScratchServer {
    port: u16,
    bin: PathBuf,
    /// The wrapper; its stdin is the pipe whose end stops the server.
    wrapper: Mutex<Child>,
    databases: AtomicU64,
}

/// Where the server binaries are.
fn server_bin() -> Result<PathBuf, String> {
    if let Ok(bin) = std::env::var("TABLETAPE_PG_BIN") {
        return Ok(PathBuf::from(bin));
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("postgres").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin).ok_or_else(|| {
        "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin: install Debian's \
         `postgresql` package (.ci/run does), or set TABLETAPE_PG_BIN"
            .to_string()
    })
}

fn output(command: &mut Command, what: &str) -> Result<String, String> {
    let out = command
        .output()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn is_root() -> bool {
    output(Command::new("id").arg("-u"), "id -u").is_ok_and(|uid| uid == "0")
}

/// A command run as the server's user: `postgres` when we are root.
fn as_server_user(root: bool, program: &Path) -> Command {
    if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

impl ScratchServer {
    /// Makes a cluster and starts its server; returns once it takes connections.
    pub fn start() -> Result<ScratchServer, String> {
        let bin = server_bin()?;
        let root = is_root();
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("tabletape-pg-{}-{stamp}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if root {
            output(
                Command::new("chown").arg("postgres").arg(&dir),
                "chown postgres",
            )?;
        }
        let data = dir.join("data");
        output(
            as_server_user(root, &bin.join("initdb"))
                .arg("-D")
                .arg(&data)
                .args(["-U", ROLE, "-A", "trust", "-E", "UTF8", "--no-sync"])
                .arg("--no-instructions"),
            "initdb",
        )?;
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        // The server in the background; `read` returns when our end of the
        // pipe closes (we exited, however), and then the server is stopped
        // and its directory removed.
        let script = r#"
            "$1/postgres" -D "$2/data" -p "$3" -k "$2" -c listen_addresses=127.0.0.1 \
                -c fsync=off -c full_page_writes=off -c max_connections=400 \
                >"$2/server.log" 2>&1 &
            server=$!
            read -r _ignored
            kill -INT "$server"
            wait "$server"
            rm -rf "$2"
        "#;
        let wrapper = as_server_user(root, Path::new("/bin/sh"))
            .arg("-c")
            .arg(script)
            .arg("sh")
            .arg(&bin)
            .arg(&dir)
            .arg(port.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start postgres: {e}"))?;
        let server = ScratchServer {
            port,
            bin,
            wrapper: Mutex::new(wrapper),
            databases: AtomicU64::new(0),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let ready = Command::new(server.bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-p", &port.to_string()])
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return Ok(server);
            }
            if Instant::now() > deadline {
                let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
                return Err(format!("postgres did not start within a minute: {log}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The process's one scratch server, started on first use.
    pub fn shared() -> &'static ScratchServer {
        static SHARED: OnceLock<ScratchServer> = OnceLock::new();
        SHARED.get_or_init(|| {
            ScratchServer::start().unwrap_or_else(|e| panic!("scratch PostgreSQL server: {e}"))
        })
    }

    /// The URL of a database on this server.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://{ROLE}@127.0.0.1:{}/{database}", self.port)
    }

    /// Makes a new, empty database and returns its URL.
    pub fn database(&self) -> Result<String, String> {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            self.databases.fetch_add(1, Ordering::SeqCst)
        );
        output(
            Command::new(self.bin.join("createdb"))
                .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", ROLE])
                .arg(&name),
            "createdb",
        )?;
        Ok(self.url(&name))
    }

    /// Runs `sql` with `psql` on the database at `url`; returns what it
    /// printed (unaligned, tuples only).
    pub fn psql(&self, url: &str, sql: &str) -> Result<String, String> {
        output(
            Command::new(self.bin.join("psql")).args([
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                url,
                "-c",
                sql,
            ]),
            "psql",
        )
    }

    /// Stops the server now (it also stops when this process exits).
    pub fn stop(&self) {
        let mut wrapper = self.wrapper.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(mut stdin) = wrapper.stdin.take() {
            let _ = stdin.write_all(b"stop\n");
        }
        let _ = wrapper.wait();
    }
}

/// The store of a test's directory `dir`: a sled store in it, or, with
/// `TABLETAPE_TEST_STORE=postgres`, a database made for it on the shared
/// scratch server. The same store each time for the same `dir` (its place
/// is noted there), so a test can close and reopen it.
pub fn test_store(dir: &Path) -> Location {
    let note = dir.join("store-location.txt");
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    if let Ok(at) = std::fs::read_to_string(&note) {
        return Location::parse(&at);
    }
    let at = if testing_postgres() {
        Location::Postgres(
            ScratchServer::shared()
                .database()
                .unwrap_or_else(|e| panic!("a scratch database: {e}")),
        )
    } else {
        Location::Dir(dir.join("store"))
    };
    std::fs::write(&note, at.to_string()).unwrap_or_else(|e| panic!("{}: {e}", note.display()));
    at
}

/// Whether the suites run on PostgreSQL (`TABLETAPE_TEST_STORE=postgres`).
pub fn testing_postgres() -> bool {
    std::env::var("TABLETAPE_TEST_STORE").as_deref() == Ok("postgres")
}
