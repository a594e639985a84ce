//! The CLI on a store that `tabletape serve` holds. sled lets one process
//! hold a store, so the CLI goes through the running server (as the store's
//! operator, with the token `serve` notes in the store's `serve.json`), and
//! every command prints the same and exits with the same code as on a store
//! it opens itself. Once the server stops, the note is gone and the CLI opens
//! the store directly again.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
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
        Server::start_with(cli, &[], "debug")
    }

    /// With more `serve` arguments and a RUST_LOG of its own.
    fn start_with(cli: &Cli, args: &[&str], rust_log: &str) -> Server {
        let log = cli.dir.path().join("serve.log");
        let out = cli.dir.path().join("serve.out");
        let mut all = vec!["serve", "--addr", "127.0.0.1:0"];
        all.extend_from_slice(args);
        let mut command = cli.command(&all);
        command
            .env("RUST_LOG", rust_log)
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
        // (Printed just after the note is written: wait for it.)
        let addr = note["addr"].as_str().unwrap();
        assert!(!addr.ends_with(":0"), "{note}");
        let listening = format!("listening on http://{addr}");
        loop {
            let printed = std::fs::read_to_string(&out).unwrap();
            if printed.contains(&listening) {
                break;
            }
            assert!(Instant::now() < deadline, "{printed}");
            std::thread::sleep(Duration::from_millis(20));
        }
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

/// The value of the one metric line that starts with `name` (labels included).
fn metric(text: &str, name: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with(' '))
        .unwrap_or_else(|| panic!("no metric {name} in:\n{text}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

/// The first action `legal` offers that needs nothing more.
fn first_open(addr: &str, game: &str, token: &str) -> Option<Value> {
    let (status, legal) = tabletape_tests::http(
        addr,
        "GET",
        &format!("/games/{game}/legal"),
        Some(token),
        None,
    )
    .ok()?;
    assert_eq!(status, 200, "{legal}");
    tabletape_tests::open_action(&serde_json::from_str(&legal).unwrap())
}

#[test]
fn an_operator_gets_metrics_and_json_request_lines_and_sigterm_loses_nothing_acknowledged() {
    use tabletape_tests::http;
    let cli = Cli::new();
    let server = Server::start_with(&cli, &["--log-format", "json"], "info");
    let addr = server.note["addr"].as_str().unwrap().to_string();
    let printed = std::fs::read_to_string(cli.dir.path().join("serve.out")).unwrap();
    let admin = printed
        .lines()
        .find(|l| l.starts_with("admin token (shown once"))
        .and_then(|l| l.rsplit(' ').next())
        .expect("serve prints the admin token")
        .to_string();
    let mut tokens = vec![admin.clone(), server.token().to_string()];
    let mut games = Vec::new();
    for seed in 0..5 {
        let new =
            serde_json::json!({"kind": "lostworlds", "players": ["Ada", "Bo"], "seed": 40 + seed});
        let (status, created) = http(&addr, "POST", "/games", None, Some(&new)).unwrap();
        assert_eq!(status, 201, "{created}");
        let created: Value = serde_json::from_str(&created).unwrap();
        for seat in created["seats"].as_array().unwrap() {
            tokens.push(seat["token"].as_str().unwrap().to_string());
        }
        let owner = created["owner_token"].as_str().unwrap().to_string();
        tokens.push(owner.clone());
        games.push((
            created["game"].as_str().unwrap().to_string(),
            owner,
            created["seats"][0]["token"].as_str().unwrap().to_string(),
        ));
    }

    // A quiet phase whose counts are known: four actions and one refused.
    let (game, owner, seat) = games[0].clone();
    let path = format!("/games/{game}/actions");
    let blow =
        serde_json::json!({"action": {"type": "choose", "seat": 0, "maneuver": "Down Swing Bash"}});
    let (status, _) = http(&addr, "POST", &path, Some(&owner), Some(&blow)).unwrap();
    assert_eq!(status, 422, "a close blow at extended range is refused");
    for _ in 0..4 {
        let action = first_open(&addr, &game, &owner).unwrap();
        let body = serde_json::json!({"action": action});
        let (status, answer) = http(&addr, "POST", &path, Some(&owner), Some(&body)).unwrap();
        assert_eq!(status, 201, "{answer}");
    }
    let (status, _) = http(&addr, "GET", "/metrics", None, None).unwrap();
    assert_eq!(status, 401, "no token, no metrics");
    let (status, _) = http(&addr, "GET", "/metrics", Some(&seat), None).unwrap();
    assert_eq!(status, 403, "a seat's token is not the admin's");
    let (status, text) = http(&addr, "GET", "/metrics", Some(&admin), None).unwrap();
    assert_eq!(status, 200, "{text}");
    assert_eq!(metric(&text, "tabletape_events_appended_total"), 4.0);
    assert_eq!(
        metric(
            &text,
            "tabletape_rejections_total{rule=\"lostworlds.restriction\"}"
        ),
        1.0
    );
    assert_eq!(
        metric(
            &text,
            "tabletape_http_request_duration_seconds_count{route=\"/games/{id}/actions\",method=\"POST\",status=\"201\"}"
        ),
        4.0
    );
    assert!(metric(&text, "tabletape_sync_seconds_count") >= 1.0);
    assert!(metric(&text, "tabletape_group_commit_appends_sum") >= 4.0);
    assert!(metric(&text, "tabletape_cached_folds") >= 1.0);
    assert!(metric(&text, "process_resident_memory_bytes") > 1e6);
    assert!(text.contains("# HELP tabletape_sync_seconds "), "{text}");
    assert!(!text.contains(&game), "metrics name no game");

    // Load on four games, then SIGTERM: every answer a client got is stored.
    let acked = Arc::new(std::sync::Mutex::new(Vec::<(String, u64, String)>::new()));
    let writers: Vec<_> = games[1..]
        .iter()
        .cloned()
        .map(|(game, owner, _)| {
            let (addr, acked) = (addr.clone(), Arc::clone(&acked));
            std::thread::spawn(move || loop {
                let Some(action) = first_open(&addr, &game, &owner) else {
                    return;
                };
                let body = serde_json::json!({"action": action});
                let path = format!("/games/{game}/actions");
                match http(&addr, "POST", &path, Some(&owner), Some(&body)) {
                    Ok((201, answer)) => {
                        let answer: Value = serde_json::from_str(&answer).unwrap();
                        acked.lock().unwrap().push((
                            game.clone(),
                            answer["seq"].as_u64().unwrap(),
                            answer["hash"].as_str().unwrap().to_string(),
                        ));
                    }
                    Ok((status, answer)) => panic!("{status}: {answer}"),
                    Err(_) => return, // the server has stopped
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while acked.lock().unwrap().len() < 12 {
        assert!(Instant::now() < deadline, "the writers made no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = server.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let mut server = server;
    let status = server.child.wait().unwrap();
    assert!(status.success(), "SIGTERM ends serve cleanly: {status}");
    for w in writers {
        // A writer ends at the refused connection, or at a fight's end.
        let _ = w.join();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(acked.len() >= 12);
    let journal = tabletape_store::Journal::open(&cli.store()).unwrap();
    for (game, seq, hash) in &acked {
        let events = journal
            .events(game, tabletape_store::MAIN_BRANCH, *seq, Some(*seq))
            .unwrap();
        assert_eq!(
            events.len(),
            1,
            "acknowledged seq {seq} of {game} is stored"
        );
        assert_eq!(&events[0].hash, hash, "{game} seq {seq}");
    }

    // Every log line is one JSON object; each request has its line; no token.
    let log = std::fs::read_to_string(&server.log).unwrap();
    let mut requests = 0;
    for line in log.lines() {
        let entry: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not a JSON log line ({e}): {line}"));
        if entry["target"] == "tabletape::request" {
            requests += 1;
            assert!(
                entry["method"].is_string() && entry["route"].is_string(),
                "{line}"
            );
            assert!(
                entry["status"].is_u64() && entry["latency_ms"].is_f64(),
                "{line}"
            );
        }
    }
    assert!(requests >= 2 * acked.len() + 10, "{requests} request lines");
    assert!(
        log.contains(&format!(
            "\"route\":\"/games/{{id}}/actions\",\"game\":\"{game}\",\"status\":422"
        )),
        "{log}"
    );
    for token in &tokens {
        assert!(!log.contains(token.as_str()), "a token reached the log");
    }
}

/// A body over the limit is answered 413, and the client reads that answer
/// whole: the server reads what was sent rather than cut the connection
/// while the upload is under way.
#[test]
fn a_body_over_the_limit_is_answered_413_not_a_cut_connection() {
    use std::io::{Read, Write};
    let cli = Cli::new();
    let server = Server::start(&cli);
    let addr = server.note["addr"].as_str().unwrap().to_string();
    let size = 12 * 1024 * 1024;
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "POST /games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
    )
    .unwrap();
    let chunk = vec![b' '; 64 * 1024];
    for _ in 0..size / chunk.len() {
        stream
            .write_all(&chunk)
            .expect("the whole upload is taken before the answer");
    }
    let mut answer = [0u8; 200];
    let n = stream.read(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    server.stop();
}
