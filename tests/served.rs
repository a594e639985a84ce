//! The CLI on a store that `tabletape serve` holds. sled lets one process
//! hold a store, so the CLI goes through the running server (as the store's
//! operator, with the token `serve` notes in the store's `serve.json`), and
//! every command prints the same and exits with the same code as on a store
//! it opens itself. Once the server stops, the note is gone and the CLI opens
//! the store directly again.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tabletape_tests::Cli;

/// `tabletape serve --addr 127.0.0.1:0` on a store, as a child process.
struct Server {
    child: Child,
    note: Value,
    log: PathBuf,
}

impl Server {
    fn start(cli: &Cli) -> Server {
        let log = cli.dir.path().join("serve.log");
        let out = cli.dir.path().join("serve.out");
        let mut command = cli.command(&["serve", "--addr", "127.0.0.1:0"]);
        command
            .env("RUST_LOG", "debug")
            .stdin(Stdio::null())
            .stdout(File::create(&out).unwrap())
            .stderr(File::create(&log).unwrap());
        let mut child = command.spawn().expect("start tabletape serve");
        let note_path = cli.store().join("serve.json");
        let deadline = Instant::now() + Duration::from_secs(60);
        let note = loop {
            if let Ok(text) = std::fs::read_to_string(&note_path) {
                if let Ok(note) = serde_json::from_str::<Value>(&text) {
                    break note;
                }
            }
            if let Some(status) = child.try_wait().unwrap() {
                panic!(
                    "serve exited ({status}): {}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                );
            }
            assert!(Instant::now() < deadline, "serve wrote no serve.json");
            std::thread::sleep(Duration::from_millis(20));
        };
        // The address printed is the one noted: the port the system chose.
        let printed = std::fs::read_to_string(&out).unwrap();
        let addr = note["addr"].as_str().unwrap();
        assert!(!addr.ends_with(":0"), "{note}");
        assert!(
            printed.contains(&format!("listening on http://{addr}")),
            "{printed}"
        );
        assert_eq!(note["pid"].as_u64(), Some(u64::from(child.id())));
        Server { child, note, log }
    }

    fn token(&self) -> &str {
        self.note["token"].as_str().unwrap()
    }

    /// Ctrl-C, as a person stops it; returns once it has exited.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        let status = Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .expect("run kill");
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "serve stopped with {status}");
                return;
            }
            assert!(Instant::now() < deadline, "serve did not stop on SIGINT");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Replaces what differs between two stores by nature: the game id, the
/// store's directory, every run of 12 or more hex digits (tokens, hashes,
/// salts, millisecond times) and every printed time.
fn normalize(text: &str, game: &str, dir: &Path) -> String {
    let text = text
        .replace(game, "GAME")
        .replace(&dir.display().to_string(), "DIR");
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        // `2026-11-23 21:35:38`
        if i + 19 <= chars.len() {
            let shape = "dddd-dd-dd dd:dd:dd";
            if chars[i..i + 19].iter().zip(shape.chars()).all(|(c, s)| {
                if s == 'd' {
                    c.is_ascii_digit()
                } else {
                    *c == s
                }
            }) {
                out.push_str("TIME");
                i += 19;
                continue;
            }
        }
        let run = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
            .count();
        if run >= 12 {
            out.push_str("HEX");
            i += run;
        } else if run > 0 {
            out.extend(&chars[i..i + run]);
            i += run;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// One command line's answer, comparable between stores.
#[derive(Debug, PartialEq)]
struct Answer {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn answer(cli: &Cli, game: &str, args: &[String]) -> Answer {
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            a.replace("GAME", game)
                .replace("DIR", &cli.dir.path().display().to_string())
        })
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let Output {
        status,
        stdout,
        stderr,
    } = cli.run(&args);
    Answer {
        code: status.code(),
        stdout: normalize(&String::from_utf8_lossy(&stdout), game, cli.dir.path()),
        stderr: normalize(&String::from_utf8_lossy(&stderr), game, cli.dir.path()),
    }
}

fn words(line: &str) -> Vec<String> {
    // Arguments are separated by two spaces, so JSON may hold single spaces.
    line.split("  ").map(str::to_string).collect()
}

/// A Lost Worlds duel and every store command, each line run on both stores.
const SCRIPT: &[&str] = &[
    "legal  GAME  --as  Ada",
    "--json  legal  GAME",
    r#"act  GAME  {"type":"choose","seat":0,"page":50}"#,
    "act  GAME  --file  DIR/acts.jsonl",
    r#"act  GAME  {"type":"choose","seat":0,"maneuver":"Down Swing Bash"}  --expect  3  --as  0"#,
    r#"act  GAME  {"type":"choose","seat":1,"maneuver":"Thrust High"}  --key  k-1"#,
    r#"act  GAME  {"type":"choose","seat":1,"maneuver":"Thrust High"}  --key  k-1"#,
    r#"act  GAME  {"type":"choose","seat":0,"maneuver":"Down Swing Bash"}"#,
    r#"--json  act  GAME  {"type":"choose","seat":0,"maneuver":"Down Swing Bash"}"#,
    r#"act  GAME  {"type":"choose","seat":0,"page":36}  --expect  1"#,
    "legal  GAME  --as  public",
    "legal  GAME  --as  Zed",
    "state  GAME",
    "state  GAME  --as  1",
    "--json  state  GAME  --at  3  --as  public",
    "log  GAME",
    "log  GAME  --as  1",
    "--json  log  GAME  --as  Bo",
    "replay  GAME",
    "replay  GAME  --to  3  --as  public",
    "--json  replay  GAME  --as  0",
    "narrate  GAME",
    "narrate  GAME  --format  txt  --as  1",
    "narrate  GAME  --format  html",
    "narrate  GAME  --format  json  --as  public",
    "--json  narrate  GAME",
    "narrate  GAME  --format  html  --out  DIR/story.html",
    "fork  GAME  --at  3  --name  what-if",
    "--json  fork  GAME  --at  2  --reseed  5",
    "fork  GAME  --at  2  --as  public",
    "fork  GAME  --at  9",
    "legal  GAME  --branch  what-if  --as  1",
    "branches  GAME",
    "branches  GAME  --as  1",
    "verify",
    "verify  GAME  --as  0",
    "--json  verify  GAME",
    "export  GAME  --out  DIR/duel.jsonl",
    "--json  export  GAME  --branch  what-if  --out  DIR/what-if.jsonl",
    "export  GAME  --as  1",
    "import  DIR/duel.jsonl",
    "games",
    "--json  games",
    "backup  --out  DIR/backup.jsonl",
    "state  g-none",
    "state  GAME  --branch  nowhere",
    "replay  GAME  --to  99",
];

#[test]
fn the_cli_goes_through_a_running_server_and_prints_the_same() {
    let local = Cli::new();
    let served = Cli::new();
    // `serve` on a fresh store creates it.
    let server = Server::start(&served);
    let token = server.token().to_string();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(served.store().join("serve.json"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "serve.json is the user's alone");
    }
    for cli in [&local, &served] {
        std::fs::write(
            cli.dir.path().join("acts.jsonl"),
            "{\"as\": \"Bo\", \"action\": {\"type\":\"choose\",\"page\":56}}\n",
        )
        .unwrap();
    }

    let new = |cli: &Cli| {
        let created = cli.json(&[
            "new",
            "lostworlds",
            "--player",
            "Ada",
            "--player",
            "Bo",
            "--seed",
            "7",
        ]);
        let game = created["game"].as_str().unwrap().to_string();
        (game, created)
    };
    let (local_game, local_created) = new(&local);
    let (served_game, served_created) = new(&served);
    assert_eq!(
        normalize(&local_created.to_string(), &local_game, local.dir.path()),
        normalize(&served_created.to_string(), &served_game, served.dir.path())
    );

    let mut through_server = Duration::ZERO;
    for line in SCRIPT {
        let args = words(line);
        let here = answer(&local, &local_game, &args);
        let started = Instant::now();
        let there = answer(&served, &served_game, &args);
        through_server += started.elapsed();
        assert_eq!(here, there, "`tabletape {line}` differs through the server");
    }
    // Through the server no command waits out sled's lock (2 s) first.
    assert!(
        through_server < Duration::from_secs(SCRIPT.len() as u64),
        "{} commands through the server took {through_server:?}",
        SCRIPT.len()
    );
    // The files written through the server hold the same game.
    assert_eq!(
        std::fs::read_to_string(local.dir.path().join("story.html")).unwrap(),
        std::fs::read_to_string(served.dir.path().join("story.html"))
            .unwrap()
            .replace(&served_game, &local_game)
    );
    let copy = Cli::new();
    copy.ok(&[
        "import",
        served.dir.path().join("duel.jsonl").to_str().unwrap(),
    ]);
    assert!(copy
        .ok(&["verify", &served_game])
        .contains("main: ok (5 events)"));
    let restored = Cli::new();
    let done = restored.json(&[
        "restore",
        served.dir.path().join("backup.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(done["games"].as_array().map(Vec::len), Some(1), "{done}");

    // A restore does not go through the server: it says so.
    let backup = served.dir.path().join("backup.jsonl");
    let (_, stderr) = served.fails(&["restore", backup.to_str().unwrap()], 2);
    assert!(
        stderr.contains("served by tabletape serve") && stderr.contains("stop it"),
        "{stderr}"
    );

    let log = server.log.clone();
    let games_through_server = served.ok(&["games"]);
    server.stop();
    assert!(!served.store().join("serve.json").exists());
    assert!(!served.store().join("holder.txt").exists());
    // The operator token never reached the server's log, nor did a game's.
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("listening"), "{logged}");
    assert!(!logged.contains(&token), "the operator token was logged");
    let owner = served_created["owner_token"].as_str().unwrap();
    assert!(!logged.contains(owner), "an owner token was logged");

    // The store is the CLI's own again.
    assert_eq!(served.ok(&["games"]), games_through_server);
    // A note left by a server that is gone is ignored.
    std::fs::write(
        served.store().join("serve.json"),
        format!(
            r#"{{"pid":{},"addr":"127.0.0.1:9","token":"{token}"}}"#,
            u32::MAX
        ),
    )
    .unwrap();
    assert!(served.ok(&["verify"]).contains("main: ok (5 events)"));
}
