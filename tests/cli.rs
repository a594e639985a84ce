//! The `tabletape` binary end to end: a whole duel recorded, replayed, forked,
//! narrated, exported and verified, and every kind of bad input refused with
//! the right exit code (0 ok, 1 against the rules or a conflict, 2 usage).

use serde_json::Value;
use tabletape_tests::Cli;

fn new_duel(cli: &Cli, seed: &str) -> String {
    let created = cli.json(&[
        "new",
        "lostworlds",
        "--player",
        "Ada",
        "--player",
        "Bo",
        "--seed",
        seed,
    ]);
    assert_eq!(created["seq"], 1);
    assert!(created["owner_token"]
        .as_str()
        .is_some_and(|t| t.len() >= 32));
    assert_eq!(created["seats"].as_array().map(Vec::len), Some(2));
    created["game"].as_str().expect("game id").to_string()
}

/// Acts the first legal action; returns the seq written, or None when nothing is open.
fn act_first_legal(cli: &Cli, game: &str) -> Option<u64> {
    let legal = cli.json(&["legal", game]);
    let first = legal
        .as_array()
        .expect("legal is a list")
        .iter()
        .find(|l| l.get("needs").is_none())?;
    let action = serde_json::to_string(&first["action"]).unwrap();
    let acted = cli.json(&["act", game, &action]);
    Some(acted["seq"].as_u64().expect("seq"))
}

#[test]
fn a_whole_duel_through_the_cli() {
    let cli = Cli::new();
    let game = new_duel(&cli, "11");
    let mut seq = 1;
    while let Some(written) = act_first_legal(&cli, &game) {
        assert_eq!(written, seq + 1, "seqs are gap-free");
        seq = written;
        assert!(seq < 2000, "the duel never ended");
    }
    let state = cli.json(&["state", &game]);
    assert_eq!(state["over"], true);
    assert_eq!(state["seq"].as_u64(), Some(seq));

    // Human state, log, replay and games listing all speak about this game.
    let text = cli.ok(&["state", &game]);
    assert!(text.contains("Ada") && text.contains("Bo"), "{text}");
    let log = cli.ok(&["log", &game]);
    assert!(
        log.lines().filter(|l| !l.trim().is_empty()).count() as u64 >= seq,
        "{log}"
    );
    let replay = cli.ok(&["replay", &game, "--to", "3"]);
    assert!(
        replay.contains("seq 2") && replay.contains("seq 3") && !replay.contains("seq 4"),
        "{replay}"
    );
    assert!(cli.ok(&["games"]).contains(&game));

    // Every narrative format.
    let md = cli.ok(&["narrate", &game, "--format", "md"]);
    assert!(md.starts_with("# ") && md.contains("## Exchange 1"), "{md}");
    let txt = cli.ok(&["narrate", &game, "--format", "txt"]);
    assert!(txt.contains("Exchange 1\n----------"), "{txt}");
    let html = cli.ok(&["narrate", &game, "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<h2>Exchange 1</h2>"));
    let json: Value =
        serde_json::from_str(&cli.ok(&["narrate", &game, "--format", "json"])).unwrap();
    assert!(json["chapters"].as_array().is_some_and(|c| !c.is_empty()));
    let out = cli.dir.path().join("story.html");
    cli.ok(&[
        "narrate",
        &game,
        "--format",
        "html",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), html);

    // Export, import into a fresh store, export again: the same bytes.
    let exported = cli.dir.path().join("duel.jsonl");
    cli.ok(&["export", &game, "--out", exported.to_str().unwrap()]);
    let other = Cli::new();
    let imported = other.json(&["import", exported.to_str().unwrap()]);
    assert_eq!(imported["game"], game.as_str());
    assert_eq!(
        other.ok(&["export", &game]),
        std::fs::read_to_string(&exported).unwrap()
    );
    assert!(other.ok(&["verify", &game]).contains("ok"));
}

#[test]
fn an_illegal_maneuver_exits_1_naming_the_restriction() {
    let cli = Cli::new();
    let game = new_duel(&cli, "3");
    // The fight opens at extended range: a close-range blow is against the rules.
    let (_, stderr) = cli.fails(
        &[
            "act",
            &game,
            r#"{"type":"choose","seat":0,"maneuver":"Down Swing Bash"}"#,
        ],
        1,
    );
    assert!(
        stderr.contains("(rule: lostworlds.restriction)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\"Do only Extended Range next turn\""),
        "the message quotes the order in force: {stderr}"
    );
    let events = cli.json(&["log", &game]);
    assert_eq!(
        events.as_array().map(Vec::len),
        Some(1),
        "a refused action writes nothing"
    );
}

#[test]
fn usage_errors_exit_2() {
    let cli = Cli::new();
    let game = new_duel(&cli, "4");
    let (_, stderr) = cli.fails(&["act", &game, "{not json"], 2);
    assert!(stderr.contains("error"), "{stderr}");
    cli.fails(&["state", "g-nosuchgame"], 2);
    cli.fails(&["new", "chess", "--player", "A", "--player", "B"], 2);
    cli.fails(&["fork", &game, "--at", "99"], 2);
    let (stdout, _) = cli.fails(&["--json", "state", "g-nosuchgame"], 2);
    let err: Value = serde_json::from_str(&stdout).expect("JSON error on stdout");
    assert!(
        err["error"].is_string() && err["message"].is_string(),
        "{err}"
    );
    cli.fails(&["no-such-command"], 2);
}

#[test]
fn a_stale_expected_seq_is_a_conflict() {
    let cli = Cli::new();
    let game = new_duel(&cli, "5");
    assert_eq!(act_first_legal(&cli, &game), Some(2));
    let legal = cli.json(&["legal", &game]);
    let action = serde_json::to_string(&legal[0]["action"]).unwrap();
    let (_, stderr) = cli.fails(&["act", &game, &action, "--expect", "1"], 1);
    assert!(
        stderr.to_lowercase().contains("conflict") || stderr.contains("expected"),
        "{stderr}"
    );
    let acted = cli.json(&["act", &game, &action, "--expect", "2"]);
    assert_eq!(acted["seq"], 3);
}

#[test]
fn an_idempotent_retry_is_answered_once() {
    let cli = Cli::new();
    let game = new_duel(&cli, "6");
    let legal = cli.json(&["legal", &game]);
    let action = serde_json::to_string(&legal[0]["action"]).unwrap();
    let first = cli.json(&["act", &game, &action, "--key", "tap-1"]);
    let again = cli.json(&["act", &game, &action, "--key", "tap-1"]);
    assert_eq!(first["seq"], again["seq"]);
    assert_eq!(first["narration"], again["narration"]);
    assert_eq!(again["retried"], true);
    assert_eq!(cli.json(&["log", &game]).as_array().map(Vec::len), Some(2));
}

#[test]
fn forks_with_and_without_reseed_and_the_branch_tree() {
    let cli = Cli::new();
    let game = new_duel(&cli, "8");
    for _ in 0..4 {
        act_first_legal(&cli, &game);
    }
    let plain = cli.json(&["fork", &game, "--at", "3", "--name", "what-if"]);
    assert_eq!(plain["head_seq"], 3);
    let reseeded = cli.json(&[
        "fork", &game, "--at", "2", "--name", "new-fate", "--reseed", "99",
    ]);
    assert_eq!(reseeded["reseed"], 99);
    assert_eq!(
        reseeded["head_seq"], 3,
        "a reseed is the branch's first own event"
    );
    let fork_log = cli.json(&["log", &game, "--branch", "new-fate"]);
    assert_eq!(fork_log[2]["body"]["type"], "reseeded");
    // An unchanged fork's state equals main's state at the fork point.
    let at = cli.json(&["state", &game, "--at", "3"]);
    let forked = cli.json(&["state", &game, "--branch", "what-if"]);
    assert_eq!(at["view"], forked["view"]);
    let tree = cli.ok(&["branches", &game]);
    assert!(
        tree.contains("main") && tree.contains("what-if") && tree.contains("new-fate"),
        "{tree}"
    );
    assert!(
        tree.contains('└') || tree.contains('├'),
        "the tree is drawn: {tree}"
    );
    // Playing on a fork leaves main untouched.
    act_first_legal_on(&cli, &game, "what-if");
    assert_eq!(cli.json(&["log", &game]).as_array().map(Vec::len), Some(5));
}

fn act_first_legal_on(cli: &Cli, game: &str, branch: &str) {
    let legal = cli.json(&["legal", game, "--branch", branch]);
    let action = serde_json::to_string(&legal[0]["action"]).unwrap();
    cli.json(&["act", game, &action, "--branch", branch]);
}

#[test]
fn verify_finds_a_hand_tampered_event() {
    let cli = Cli::new();
    let game = new_duel(&cli, "9");
    for _ in 0..4 {
        act_first_legal(&cli, &game);
    }
    assert!(cli.ok(&["verify", &game]).contains("ok"));
    // Edit event 3 in place with a hex editor's subtlety: one field, same length.
    {
        let db = sled::open(cli.store()).unwrap();
        let mut edited = false;
        for name in db.tree_names() {
            let tree = db.open_tree(&name).unwrap();
            for entry in tree.iter() {
                let (key, value) = entry.unwrap();
                let Ok(mut event) = serde_json::from_slice::<Value>(&value) else {
                    continue;
                };
                if event["game"] == game.as_str() && event["seq"] == 3 && event["hash"].is_string()
                {
                    event["recorded_at_ms"] =
                        Value::from(event["recorded_at_ms"].as_u64().unwrap() + 1);
                    tree.insert(key, serde_json::to_vec(&event).unwrap())
                        .unwrap();
                    edited = true;
                }
            }
        }
        assert!(edited, "found event 3 in the store");
        db.flush().unwrap();
    }
    let (stdout, _) = cli.fails(&["verify", &game], 1);
    assert!(stdout.contains(": BAD at seq 3:"), "{stdout}");
    let report = cli.run(&["--json", "verify", &game]);
    // The report is the first line; the error object follows it.
    let stdout = String::from_utf8(report.stdout).unwrap();
    let report: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(report[0]["problem"]["seq"], 3, "{report}");
}
