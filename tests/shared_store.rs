//! Many `tabletape serve` processes on one PostgreSQL database (a scratch
//! server of the test's own): 32 clients racing appends to the same games
//! through two servers, one of them killed mid-load; the live stream of one
//! server hearing another's writes; `migrate` from a directory to the
//! database and back, every hash and token as it was.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tabletape_events::Actor;
use tabletape_store::scratch::ScratchServer;
use tabletape_store::{Access, ActRequest, Journal, Location, NewGame, Viewer, MAIN_BRANCH};
use tabletape_tests::{as_owner, open_action, tabletape_bin, Cli};

/// `tabletape --store URL serve --addr 127.0.0.1:0`, as a child process.
struct Served {
    child: Child,
    addr: String,
}

impl Served {
    fn start(url: &str, dir: &Path, name: &str) -> Served {
        let out = dir.join(format!("{name}.out"));
        let mut child = Command::new(tabletape_bin())
            .args(["--store", url, "serve", "--addr", "127.0.0.1:0"])
            .env_remove("TABLETAPE_STORE")
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(File::create(&out).unwrap())
            .stderr(File::create(dir.join(format!("{name}.log"))).unwrap())
            .spawn()
            .expect("start tabletape serve");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let printed = std::fs::read_to_string(&out).unwrap_or_default();
            if let Some(rest) = printed.split("listening on http://").nth(1) {
                let addr = rest.lines().next().unwrap().to_string();
                return Served { child, addr };
            }
            if let Some(status) = child.try_wait().unwrap() {
                panic!("serve {name} exited ({status}): {printed}");
            }
            assert!(Instant::now() < deadline, "serve {name} did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on a fresh connection: (status, JSON body).
fn http(
    addr: &str,
    method: &str,
    path: &str,
    token: &str,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let (status, body) = tabletape_tests::http(addr, method, path, Some(token), body)?;
    Ok((status, serde_json::from_str(&body).unwrap_or(Value::Null)))
}

fn lost_worlds(journal: &Journal, seed: u64) -> (String, String) {
    let created = journal
        .create(NewGame {
            kind: "lostworlds".into(),
            players: vec!["Nowa".into(), "Zed".into()],
            seed: Some(seed),
            ..NewGame::default()
        })
        .unwrap();
    (created.game, created.owner_token)
}

/// What a client was told was written.
#[derive(Debug, Clone)]
struct Acked {
    game: String,
    seq: u64,
    hash: String,
    key: String,
}

const CLIENTS: usize = 32;
const APPENDS_PER_CLIENT: usize = 8;
/// Acknowledged appends before one server is killed: well before the
/// fights end (a duel runs a few dozen actions).
const KILL_AFTER: usize = 24;

#[test]
fn two_servers_on_one_database_lose_nothing_acknowledged_even_when_one_is_killed() {
    let scratch = ScratchServer::shared();
    let url = scratch.database().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::open_at(&Location::Postgres(url.clone())).unwrap();
    let games: Vec<(String, String)> = (0..8).map(|s| lost_worlds(&journal, 100 + s)).collect();
    let servers = Arc::new(Mutex::new(vec![
        Some(Served::start(&url, dir.path(), "a")),
        Some(Served::start(&url, dir.path(), "b")),
    ]));
    let addrs: Vec<String> = servers
        .lock()
        .unwrap()
        .iter()
        .map(|s| s.as_ref().unwrap().addr.clone())
        .collect();
    let acked = Arc::new(Mutex::new(Vec::<Acked>::new()));
    let by_server = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
    let clients: Vec<_> = (0..CLIENTS)
        .map(|i| {
            let (game, token) = games[i % games.len()].clone();
            let addrs = addrs.clone();
            let acked = Arc::clone(&acked);
            let by_server = Arc::clone(&by_server);
            std::thread::spawn(move || {
                let mut server = i % 2;
                for n in 0..APPENDS_PER_CLIENT {
                    let key = format!("client-{i}-append-{n}");
                    // The action tried under this key: kept across a lost
                    // connection, since the server may have written it.
                    let mut pending: Option<Value> = None;
                    for _attempt in 0..200 {
                        let addr = &addrs[server];
                        let action = match &pending {
                            Some(action) => action.clone(),
                            None => {
                                let path = format!("/games/{game}/legal");
                                let Ok((200, legal)) = http(addr, "GET", &path, &token, None)
                                else {
                                    server = 1 - server;
                                    continue;
                                };
                                let open: Vec<&Value> = legal
                                    .as_array()
                                    .unwrap()
                                    .iter()
                                    .filter(|l| l.get("needs").is_none())
                                    .collect();
                                if open.is_empty() {
                                    return; // the fight is over
                                }
                                open[(i + n) % open.len()]["action"].clone()
                            }
                        };
                        let body = json!({"action": action, "idempotency_key": key});
                        let path = format!("/games/{game}/actions");
                        match http(addr, "POST", &path, &token, Some(&body)) {
                            Ok((200 | 201, answer)) => {
                                by_server[server].fetch_add(1, Ordering::SeqCst);
                                acked.lock().unwrap().push(Acked {
                                    game: game.clone(),
                                    seq: answer["seq"].as_u64().unwrap(),
                                    hash: answer["hash"].as_str().unwrap().to_string(),
                                    key: key.clone(),
                                });
                                break;
                            }
                            // Lost the race (a stale state or an action no
                            // longer open): nothing was written; look again.
                            Ok((409 | 422, _)) => pending = None,
                            Ok((status, answer)) => panic!("{status}: {answer}"),
                            // The server is gone: the same action and key
                            // through the other one.
                            Err(_) => {
                                pending = Some(action);
                                server = 1 - server;
                            }
                        }
                    }
                }
            })
        })
        .collect();
    // Kill one server mid-load, without warning.
    let deadline = Instant::now() + Duration::from_secs(120);
    while acked.lock().unwrap().len() < KILL_AFTER {
        assert!(
            Instant::now() < deadline,
            "the load never got going ({} acknowledged); server logs: {}",
            acked.lock().unwrap().len(),
            ["a", "b"]
                .map(
                    |n| std::fs::read_to_string(dir.path().join(format!("{n}.log")))
                        .unwrap_or_default()
                )
                .join("\n---\n")
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut killed = servers.lock().unwrap()[1].take().unwrap();
    killed.child.kill().unwrap();
    killed.child.wait().unwrap();
    for client in clients {
        client.join().expect("a client failed");
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        by_server[0].load(Ordering::SeqCst) > 0 && by_server[1].load(Ordering::SeqCst) > 0,
        "both servers took appends"
    );
    assert!(acked.len() >= CLIENTS, "too few appends: {}", acked.len());

    // A fresh reader: every acknowledged event where it was acknowledged,
    // no gap, no duplicate, each key written once, and a clean verify.
    let reader = Journal::open_at(&Location::Postgres(url)).unwrap();
    let mut stored: HashMap<(String, u64), (String, Option<String>)> = HashMap::new();
    for (game, _) in &games {
        let events = reader.events(game, MAIN_BRANCH, 1, None).unwrap();
        let mut keys = HashSet::new();
        let mut hashes = HashSet::new();
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e.seq, i as u64 + 1, "a gap in {game}");
            assert!(hashes.insert(e.hash.clone()), "a duplicate in {game}");
            if let Some(key) = &e.idempotency_key {
                assert!(keys.insert(key.clone()), "{key} written twice in {game}");
            }
            stored.insert(
                (game.clone(), e.seq),
                (e.hash.clone(), e.idempotency_key.clone()),
            );
        }
        for report in reader.verify(Some(game)).unwrap() {
            assert!(report.problem.is_none(), "{game}: {:?}", report.problem);
        }
    }
    for a in &acked {
        let (hash, key) = stored
            .get(&(a.game.clone(), a.seq))
            .unwrap_or_else(|| panic!("acknowledged {a:?} is not stored"));
        assert_eq!(
            (hash, key.as_deref()),
            (&a.hash, Some(a.key.as_str())),
            "{a:?}"
        );
    }
}

/// Reads server-sent events until one with `id: {seq}` arrives.
fn wait_for_frame(reader: &mut BufReader<TcpStream>, seq: u64) -> Result<(), String> {
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => return Err("the stream ended".into()),
            Ok(_) if line.trim_end() == format!("id: {seq}") => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(format!("no frame for seq {seq}: {e}")),
        }
    }
}

#[test]
fn a_write_through_one_server_reaches_the_live_stream_of_another() {
    let url = ScratchServer::shared().database().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::open_at(&Location::Postgres(url.clone())).unwrap();
    let (game, token) = lost_worlds(&journal, 7);
    let a = Served::start(&url, dir.path(), "a");
    let b = Served::start(&url, dir.path(), "b");

    let mut stream = TcpStream::connect(&a.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "GET /games/{game}/live HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\n\r\n",
        a.addr
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    assert!(status.contains(" 200 "), "{status}");

    for seq in 2..=3 {
        let (_, legal) = http(
            &b.addr,
            "GET",
            &format!("/games/{game}/legal"),
            &token,
            None,
        )
        .unwrap();
        let action = open_action(&legal).expect("an open action");
        let (code, answer) = http(
            &b.addr,
            "POST",
            &format!("/games/{game}/actions"),
            &token,
            Some(&json!({ "action": action })),
        )
        .unwrap();
        assert_eq!((code, answer["seq"].as_u64()), (201, Some(seq)), "{answer}");
        wait_for_frame(&mut reader, seq).unwrap();
    }
}

#[test]
fn migrate_moves_every_game_to_the_database_and_back_with_its_hashes_and_tokens() {
    let cli = Cli::new();
    let made = cli.json(&[
        "new",
        "lostworlds",
        "--player",
        "Nowa",
        "--player",
        "Zed",
        "--seed",
        "3",
    ]);
    let game = made["game"].as_str().unwrap().to_string();
    let owner = made["owner_token"].as_str().unwrap().to_string();
    for _ in 0..4 {
        let legal = cli.json(&["legal", &game]);
        let action = open_action(&legal).unwrap().to_string();
        cli.ok(&["act", &game, &action]);
    }
    // A fork with an event of its own (an empty one is not exported).
    cli.ok(&["fork", &game, "--at", "3", "--name", "what-if"]);
    let legal = cli.json(&["legal", &game, "--branch", "what-if"]);
    let action = open_action(&legal).unwrap().to_string();
    cli.ok(&["act", &game, &action, "--branch", "what-if"]);
    cli.ok(&[
        "new", "legend", "--player", "Ann", "--player", "Bo", "--player", "Cy",
    ]);
    let export = |store: &str| {
        let out = Command::new(tabletape_bin())
            .args(["--store", store, "export", &game])
            .env_remove("TABLETAPE_STORE")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let url = ScratchServer::shared().database().unwrap();
    let dir = cli.store();
    let dir = dir.to_str().unwrap();
    let back = cli.dir.path().join("back");
    let back = back.to_str().unwrap();

    let there = cli.ok(&["migrate", "--from", dir, "--to", &url]);
    assert!(there.starts_with("moved 2 games ("), "{there}");
    let again = cli.ok(&["migrate", "--from", dir, "--to", &url]);
    assert!(again.contains("skipped 2 games"), "{again}");
    let home = cli.ok(&["migrate", "--from", &url, "--to", back]);
    assert!(home.starts_with("moved 2 games ("), "{home}");

    let original = export(dir);
    assert_eq!(export(&url), original, "the database holds the same events");
    assert_eq!(export(back), original, "and they come back the same");
    let on_database = Journal::open_at(&Location::Postgres(url)).unwrap();
    assert_eq!(
        on_database.access(&game, Some(&owner)).unwrap(),
        Access::Owner
    );
    let branches: Vec<String> = on_database
        .branches(&game)
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert!(branches.contains(&"what-if".to_string()), "{branches:?}");
    for report in on_database.verify(None).unwrap() {
        assert!(report.problem.is_none(), "{report:?}");
    }
}

/// Two journals on one database stand for two processes: what one appends,
/// the other folds on from its cached head, and a branch one forks the other
/// sees; each sees the other's admin token, the first one drawn.
#[test]
fn a_second_process_never_serves_a_stale_head() {
    let url = ScratchServer::shared().database().unwrap();
    let at = Location::Postgres(url);
    let (one, two) = (
        Journal::open_at(&at).unwrap(),
        Journal::open_at(&at).unwrap(),
    );
    let first = one
        .ensure_admin_token()
        .unwrap()
        .expect("a token for a new store");
    assert_eq!(
        two.ensure_admin_token().unwrap(),
        None,
        "only the first is kept"
    );
    assert!(two.is_admin(Some(&first)).unwrap());

    let (game, _) = lost_worlds(&one, 21);
    let seen = |j: &Journal| j.state(&game, MAIN_BRANCH, None, Viewer::Owner).unwrap();
    assert_eq!(seen(&two).seq, 1); // folded and cached by the second
    for n in 0..4 {
        let writer = if n % 2 == 0 { &one } else { &two };
        let action = writer
            .legal(&game, MAIN_BRANCH, None)
            .unwrap()
            .into_iter()
            .find(|l| l.needs.is_empty())
            .expect("an open action")
            .action;
        let acted = writer
            .act(
                &game,
                ActRequest {
                    branch: MAIN_BRANCH.into(),
                    actor: Actor::Owner,
                    by: None,
                    action,
                    expect_seq: Some(n + 1),
                    idempotency_key: None,
                },
            )
            .unwrap();
        assert_eq!(acted.seq, n + 2);
        assert_eq!(seen(&one).view, seen(&two).view, "after seq {}", acted.seq);
        assert_eq!(seen(&one).seq, acted.seq);
    }
    let fork = one
        .fork(&game, MAIN_BRANCH, 3, Some("aside"), None, Access::Owner)
        .unwrap();
    assert!(two
        .branches(&game)
        .unwrap()
        .iter()
        .any(|b| b.name == fork.name));
}

/// The schema is this build's to make and migrate: a fresh database gets
/// every version, a second opening changes nothing, and a database a newer
/// build migrated is refused rather than misread.
#[test]
fn the_schema_is_versioned_and_a_newer_one_is_refused() {
    let scratch = ScratchServer::shared();
    let url = scratch.database().unwrap();
    let at = Location::Postgres(url.clone());
    let versions = || {
        scratch
            .psql(
                &url,
                "SELECT string_agg(version::text, ',' ORDER BY version) FROM tabletape_schema",
            )
            .unwrap()
    };
    drop(Journal::open_at(&at).unwrap());
    let made = versions();
    let every: Vec<String> = (1..=tabletape_store::log::postgres::SCHEMA)
        .map(|v| v.to_string())
        .collect();
    assert_eq!(made, every.join(","));
    drop(Journal::open_at(&at).unwrap());
    assert_eq!(versions(), made, "opening again migrates nothing");

    scratch
        .psql(
            &url,
            "INSERT INTO tabletape_schema (version, description) VALUES (999, 'from the future')",
        )
        .unwrap();
    let refused = match Journal::open_at(&at) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a newer schema was opened"),
    };
    assert!(refused.contains("schema version 999"), "{refused}");
    assert!(refused.contains("run a newer tabletape"), "{refused}");
}

/// While its database is down, a server says so: `GET /healthz` answers
/// 503, and a request answers 503 with a message that says the store cannot
/// be reached (not a bare 500), writing nothing; once the database is back
/// that server carries on.
/// A database the previous release made (schema 1: events without their
/// facts' fold form) is migrated on opening, and its games read, fold,
/// verify and export as they did; what is recorded from then on keeps the
/// fold form.
#[test]
fn a_database_of_the_first_schema_is_migrated_and_reads_as_before() {
    let scratch = ScratchServer::shared();
    let url = scratch.database().unwrap();
    let at = Location::Postgres(url.clone());
    let play = |j: &Journal, game: &str, n: usize| {
        for _ in 0..n {
            let action = j
                .legal(game, MAIN_BRANCH, None)
                .unwrap()
                .into_iter()
                .find(|l| l.needs.is_empty())
                .expect("an open action")
                .action;
            j.act(game, as_owner(action)).unwrap();
        }
    };
    let seen = |j: &Journal, game: &str| {
        let state = j.state(game, MAIN_BRANCH, None, Viewer::Owner).unwrap();
        let mut export = Vec::new();
        j.export(game, None, &mut export).unwrap();
        (serde_json::to_value(state).unwrap(), export)
    };
    let (game, before) = {
        let j = Journal::open_at(&at).unwrap();
        let (game, _) = lost_worlds(&j, 9);
        play(&j, &game, 3);
        let before = seen(&j, &game);
        (game, before)
    };
    let kept = "SELECT count(fold_form) FROM events";
    assert_eq!(scratch.psql(&url, kept).unwrap(), "3");
    scratch
        .psql(
            &url,
            "ALTER TABLE events DROP COLUMN fold_form; \
             DELETE FROM tabletape_schema WHERE version > 1",
        )
        .unwrap();

    let j = Journal::open_at(&at).unwrap();
    assert_eq!(scratch.psql(&url, kept).unwrap(), "0", "migrated");
    assert_eq!(seen(&j, &game), before);
    let report = &j.verify(Some(&game)).unwrap()[0];
    assert!(report.problem.is_none(), "{report:?}");
    play(&j, &game, 1);
    assert_eq!(scratch.psql(&url, kept).unwrap(), "1");
    drop(j);
    let j = Journal::open_at(&at).unwrap();
    assert!(j.verify(Some(&game)).unwrap()[0].problem.is_none());
}

#[test]
fn a_server_whose_database_is_down_says_so() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;
    let scratch = ScratchServer::start().unwrap();
    let url = scratch.database().unwrap();
    let journal = Journal::open_at(&Location::parse(&url)).unwrap();
    let (game, _) = lost_worlds(&journal, 3);
    let app = tabletape_api::app(journal);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let ask = |uri: String| {
        let app = app.clone();
        runtime.block_on(async move {
            let reply = app
                .oneshot(Request::get(uri).body(Body::empty()).unwrap())
                .await
                .unwrap();
            let status = reply.status();
            let body = axum::body::to_bytes(reply.into_body(), usize::MAX)
                .await
                .unwrap();
            (status, String::from_utf8_lossy(&body).into_owned())
        })
    };
    assert_eq!(ask("/healthz".into()).0, StatusCode::OK);
    scratch.stop();
    let (status, body) = ask("/healthz".into());
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.contains("unavailable"), "{body}");
    let (status, body) = ask(format!("/games/{game}/events"));
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.contains("cannot be reached"), "{body}");
}
