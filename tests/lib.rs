//! Shared helpers for the end-to-end tests: the `tabletape` binary, golden
//! expectation files, and a seeded random player that plays from `legal`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;
use tabletape_engine::rng::TableRng;
use tabletape_events::Actor;
use tabletape_store::{ActRequest, Journal};

/// The directory of checked-in test data (`tests/data`).
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// The path of the `tabletape` binary: `TABLETAPE_BIN` when set (the test
/// command builds it once, beside every test), else built once for this test
/// run (cargo only hands `CARGO_BIN_EXE_*` to tests of the binary's own
/// package). It is built as `cargo test --workspace` builds: a narrower build
/// (`-p tabletape-cli`) resolves other features and compiles every
/// dependency a second time.
pub fn tabletape_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(bin) = std::env::var_os("TABLETAPE_BIN") {
            let bin = PathBuf::from(bin);
            assert!(
                bin.exists(),
                "TABLETAPE_BIN names no file: {}",
                bin.display()
            );
            return bin;
        }
        let exe = std::env::current_exe().expect("test binary path");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>/deps");
        let bin = profile_dir.join("tabletape");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "--workspace", "--all-targets"]);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let status = build
            .status()
            .expect("run cargo build for the tabletape binary");
        assert!(status.success(), "building the tabletape binary failed");
        assert!(bin.exists(), "no binary at {}", bin.display());
        bin
    })
}

/// The owner's request to play `action` on `main`, at whatever seq.
pub fn as_owner(action: Value) -> ActRequest {
    ActRequest {
        branch: tabletape_events::MAIN_BRANCH.into(),
        actor: Actor::Owner,
        by: None,
        action,
        expect_seq: None,
        idempotency_key: None,
    }
}

/// The first action a `legal` answer offers that needs nothing more, if any.
pub fn open_action(legal: &Value) -> Option<Value> {
    legal
        .as_array()?
        .iter()
        .find(|l| l.get("needs").is_none())
        .map(|l| l["action"].clone())
}

/// One HTTP/1.1 request on a fresh connection to a `tabletape serve`:
/// (status, body text). An error is a connection that failed or closed
/// before its answer.
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<(u16, String)> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(60)))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status line: {answer:?}")))?;
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Ok((status, body.to_string()))
}

/// A `tabletape` command line against one temporary store.
pub struct Cli {
    pub dir: tempfile::TempDir,
}

impl Default for Cli {
    fn default() -> Self {
        Self::new()
    }
}

impl Cli {
    pub fn new() -> Self {
        Cli {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn store(&self) -> PathBuf {
        self.dir.path().join("store")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(tabletape_bin());
        cmd.arg("--store").arg(self.store()).args(args);
        cmd.env_remove("TABLETAPE_STORE");
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run tabletape")
    }

    /// Runs and asserts exit 0; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "tabletape {args:?} failed ({:?})\nstdout:\n{}\nstderr:\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    /// Runs with `--json`, asserts exit 0, parses stdout.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let out = self.ok(&all);
        serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("tabletape {args:?} printed no JSON ({e}):\n{out}"))
    }

    /// Runs and asserts the exit code; returns (stdout, stderr).
    pub fn fails(&self, args: &[&str], code: i32) -> (String, String) {
        let out = self.run(args);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(
            out.status.code(),
            Some(code),
            "tabletape {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
        );
        (stdout, stderr)
    }
}

/// Compares `actual` with the expectation file at `path`. A missing file is
/// written (and the test passes); `UPDATE_EXPECT=1` rewrites it.
pub fn expect_file(path: &Path, actual: &str) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    match std::fs::read_to_string(path) {
        Ok(expected) if !update => {
            if expected != actual {
                let diff = similar::TextDiff::from_lines(expected.as_str(), actual)
                    .unified_diff()
                    .header("expected", "actual")
                    .to_string();
                panic!(
                    "{} differs from this run (UPDATE_EXPECT=1 rewrites it):\n{diff}",
                    path.display()
                );
            }
        }
        _ => {
            std::fs::write(path, actual).unwrap_or_else(|e| panic!("write {}: {e}", path.display()))
        }
    }
}

/// The seed for a property test: `TABLETAPE_SEED` if set, else `default`.
pub fn seeds(default: std::ops::Range<u64>) -> Vec<u64> {
    match std::env::var("TABLETAPE_SEED") {
        Ok(s) => vec![s.parse().expect("TABLETAPE_SEED is a number")],
        Err(_) => default.collect(),
    }
}

/// Plays random ready legal actions (chosen from `legal` by a seeded RNG) as
/// the owner until the game ends or `max_actions` were taken. Returns how many.
pub fn play_random(
    journal: &Journal,
    game: &str,
    branch: &str,
    seed: u64,
    max_actions: usize,
) -> usize {
    let mut rng = TableRng::for_event(seed, u64::MAX);
    for taken in 0..max_actions {
        // Actions that still need something from the table (a commitment's
        // salt, a physical roll) are not ready to submit as they stand.
        let legal: Vec<_> = journal
            .legal(game, branch, None)
            .expect("legal")
            .into_iter()
            .map(|l| l.with_words())
            .filter(|l| l.needs.is_empty())
            .collect();
        if legal.is_empty() {
            return taken;
        }
        let pick = legal[rng.below(legal.len() as u32) as usize].action.clone();
        journal
            .act(
                game,
                ActRequest {
                    branch: branch.to_string(),
                    actor: Actor::Owner,
                    by: None,
                    action: pick.clone(),
                    expect_seq: None,
                    idempotency_key: None,
                },
            )
            .unwrap_or_else(|e| panic!("seed {seed}: legal action {pick} was refused: {e}"));
    }
    max_actions
}
