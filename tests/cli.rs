//! The `tabletape` binary end to end: a whole duel recorded, replayed, forked,
//! narrated, exported and verified, and every kind of bad input refused with
//! the right exit code (0 ok, 1 against the rules or a conflict, 2 usage).
//! And the adversary: a player holding only a seat (`--as SEAT`) reads a game
//! with secrets with every read command and learns nothing the rules hide.

use std::collections::BTreeSet;

use serde_json::{json, Value};
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
    // The table may name the story when it tells it.
    let named = cli.ok(&["narrate", &game, "--title", "The Long Night"]);
    assert!(
        named.starts_with("# The Long Night\n\n## Exchange 1"),
        "{named}"
    );
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
        db.flush().unwrap();
        drop(db);
        // An appended event lies in the appends' log, which sled points into.
        if !edited {
            let log = cli.json(&["log", &game]);
            let third = &log.as_array().unwrap()[2];
            edited = edit_in_appends_log(&cli.store(), third["hash"].as_str().unwrap());
        }
        assert!(edited, "found event 3 in the store");
    }
    let (stdout, _) = cli.fails(&["verify", &game], 1);
    assert!(stdout.contains(": BAD at seq 3:"), "{stdout}");
    // A seat checking the chain it can see finds it too.
    let (stdout, _) = cli.fails(&["verify", &game, "--as", "1"], 1);
    assert!(
        stdout.contains(": BAD at seq 3:")
            && stdout.contains("(the visible chain, as Bo (seat 1))"),
        "{stdout}"
    );
    let report = cli.run(&["--json", "verify", &game]);
    // The report is the first line; the error object follows it.
    let stdout = String::from_utf8(report.stdout).unwrap();
    let report: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(report[0]["problem"]["seq"], 3, "{report}");
}

/// Adds one to the last digit of `recorded_at_ms` (or takes one from a 9)
/// in the JSON of the event whose hash is `hash`, in the store's appends'
/// log: one field, same length. Whether it was found.
fn edit_in_appends_log(store: &std::path::Path, hash: &str) -> bool {
    let own = format!("\"hash\":\"{hash}\"");
    for entry in std::fs::read_dir(store).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.starts_with("appends.") && name.ends_with(".wal")) {
            continue;
        }
        let mut bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        // Its own hash, not the next event's `prev_hash`.
        let Some(at) = text
            .match_indices(&own)
            .map(|(i, _)| i)
            .find(|&i| !text[..i].ends_with("prev_"))
        else {
            continue;
        };
        let field = "\"recorded_at_ms\":";
        let start = text[..at].rfind(field).unwrap() + field.len();
        let digits = text[start..].find(|c: char| !c.is_ascii_digit()).unwrap();
        let last = &mut bytes[start + digits - 1];
        *last = if *last == b'9' { b'8' } else { *last + 1 };
        std::fs::write(&path, bytes).unwrap();
        return true;
    }
    false
}

/// A game script under `tests/data/cli/`: its setup line (the first JSON
/// line) and its actions as `act --file` reads them, cut at the `# check`
/// line into what is played before the reads and what after.
struct Script {
    setup: Value,
    before: String,
    after: String,
}

fn script(name: &str) -> Script {
    let path = tabletape_tests::data_dir().join("cli").join(name);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut setup = None;
    let (mut before, mut after) = (String::new(), String::new());
    let mut checked = false;
    for line in text.lines() {
        if line.starts_with("# check") {
            checked = true;
        } else if line.trim_start().starts_with('{') && setup.is_none() {
            setup = Some(serde_json::from_str(line).expect("the setup line is JSON"));
        } else if checked {
            after.push_str(line);
            after.push('\n');
        } else {
            before.push_str(line);
            before.push('\n');
        }
    }
    assert!(checked, "{name} has no `# check` line");
    Script {
        setup: setup.unwrap_or_else(|| panic!("{name} has no setup line")),
        before,
        after,
    }
}

/// Creates the script's game (`new`, from its setup) and returns its id.
fn new_from(cli: &Cli, setup: &Value) -> String {
    let new = &setup["new"];
    let mut words: Vec<String> = vec!["new".into(), new["kind"].as_str().unwrap().into()];
    for p in new["players"].as_array().unwrap() {
        words.extend(["--player".into(), p.as_str().unwrap().into()]);
    }
    if let Some(seed) = new.get("seed") {
        words.extend(["--seed".into(), seed.to_string()]);
    }
    for (k, v) in new["options"].as_object().into_iter().flatten() {
        let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
        words.extend(["--option".into(), format!("{k}={v}")]);
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    cli.json(&words)["game"]
        .as_str()
        .expect("game id")
        .to_string()
}

/// Plays `actions` (JSON Lines for `act --file`) on main.
fn play(cli: &Cli, game: &str, actions: &str, file: &str) {
    let path = cli.dir.path().join(file);
    std::fs::write(&path, actions).unwrap();
    cli.ok(&["act", game, "--file", path.to_str().unwrap()]);
}

/// Keys that hold the kind's public catalogue: every card's name is printed
/// there for everyone (the content pack in the creation event, the card
/// faces in a state view), so a name there tells no one who holds the card.
const CATALOGUE: [&str; 2] = ["pack", "faces"];

/// Takes the catalogue out of a JSON value, returning what was taken.
fn take_catalogue(value: &mut Value, taken: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            for key in CATALOGUE {
                if let Some(v) = map.remove(key) {
                    taken.push(v);
                }
            }
            map.values_mut().for_each(|v| take_catalogue(v, taken));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| take_catalogue(v, taken)),
        _ => {}
    }
}

/// An output without its catalogue (JSON, JSON Lines or text), and the catalogue.
fn without_catalogue(output: &str) -> (String, Vec<Value>) {
    let mut taken = Vec::new();
    if let Ok(mut whole) = serde_json::from_str::<Value>(output) {
        take_catalogue(&mut whole, &mut taken);
        return (whole.to_string(), taken);
    }
    let lines: Vec<String> = output
        .lines()
        .map(|line| match serde_json::from_str::<Value>(line) {
            Ok(mut v) => {
                take_catalogue(&mut v, &mut taken);
                v.to_string()
            }
            Err(_) => line.to_string(),
        })
        .collect();
    (lines.join("\n"), taken)
}

fn found<'a>(output: &str, secrets: &'a [String]) -> Vec<&'a String> {
    secrets
        .iter()
        .filter(|s| output.contains(s.as_str()))
        .collect()
}

/// The card names in the hands of the given seats, from the owner's state.
fn hands(state: &Value, seats: impl Fn(usize) -> bool) -> BTreeSet<String> {
    state["view"]["thieves"]
        .as_array()
        .expect("thieves")
        .iter()
        .enumerate()
        .filter(|(i, _)| seats(*i))
        .flat_map(|(_, t)| t["hand"].as_array().expect("the owner sees every hand"))
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// Every read command, and whether the owner's output of it holds a secret
/// of this game (hands, the seed, a reseed's seed or a salt): where it does,
/// the seat's output of the same command is a real test.
fn reads(game: &str) -> Vec<(Vec<&str>, bool)> {
    vec![
        (vec!["state", game], true),
        (vec!["--json", "state", game], true),
        (vec!["state", game, "--at", "30"], true),
        (vec!["replay", game], true),
        (vec!["--json", "replay", game, "--to", "30"], true),
        (vec!["replay", game, "--branch", "what-if"], true),
        (vec!["narrate", game], true),
        (vec!["narrate", game, "--format", "txt"], true),
        (vec!["narrate", game, "--format", "html"], true),
        (vec!["narrate", game, "--format", "json"], true),
        (vec!["--json", "narrate", game], true),
        (
            vec!["narrate", game, "--branch", "what-if", "--format", "txt"],
            true,
        ),
        (vec!["log", game], false),
        (vec!["--json", "log", game], true),
        (vec!["--json", "log", game, "--branch", "what-if"], true),
        (vec!["branches", game], true),
        (vec!["--json", "branches", game], true),
        (vec!["verify", game], false),
        (vec!["--json", "verify", game], false),
        (vec!["legal", game], false),
        (vec!["--json", "legal", game], false),
        (vec!["export", game], true),
    ]
}

/// An adversary holding only a seat (or nothing: `public`) reads a game of
/// Ludovia in play with every read command, and learns no other seat's
/// card, no seed and no salt; the owner's same reads show them all. Once the
/// night is over, everything is out, and a seat may export it.
#[test]
fn secrets_never_reach_a_seat() {
    let cli = Cli::new();
    let script = script("ludovia_secrets.jsonl");
    let game = new_from(&cli, &script.setup);
    play(&cli, &game, &script.before, "before.jsonl");
    let fork = &script.setup["fork"];
    cli.ok(&[
        "fork",
        &game,
        "--at",
        &fork["at"].to_string(),
        "--name",
        fork["name"].as_str().unwrap(),
        "--reseed",
        &fork["reseed"].to_string(),
    ]);

    // What must stay secret: the seeds, and every event's salt.
    let seed = script.setup["new"]["seed"].to_string();
    let reseed = fork["reseed"].to_string();
    let mut sealed = vec![seed.clone(), reseed.clone()];
    for branch in ["main", "what-if"] {
        for event in cli
            .json(&["log", &game, "--branch", branch])
            .as_array()
            .unwrap()
        {
            sealed.push(event["salt"].as_str().expect("the owner sees salts").into());
        }
    }
    let owner_state = cli.json(&["state", &game]);
    assert_eq!(owner_state["over"], false, "the reads are made in play");

    for given in script.setup["viewers"].as_array().unwrap() {
        let given = given.as_str().unwrap();
        let me: Option<usize> = given.parse().ok();
        let mine = hands(&owner_state, |s| Some(s) == me);
        let theirs = hands(&owner_state, |s| Some(s) != me);
        // A card name the viewer holds itself is no secret to it.
        let cards: Vec<String> = theirs.difference(&mine).cloned().collect();
        assert!(
            cards.len() >= 2,
            "the script leaves other seats holding cards: {cards:?}"
        );
        let mut secrets = cards.clone();
        secrets.extend(sealed.iter().cloned());

        for (words, owner_shows) in reads(&game) {
            let owner = cli.ok(&words);
            let mut as_viewer = words.clone();
            as_viewer.extend(["--as", given]);
            let (owner_clean, owner_catalogue) = without_catalogue(&owner);
            if owner_shows {
                assert!(
                    !found(&owner_clean, &secrets).is_empty(),
                    "{words:?}: the owner's output shows none of the secrets, so the test proves nothing:\n{owner}"
                );
            }
            if words.contains(&"export") {
                // An export holds every secret: refused while the game is in play.
                let (stdout, stderr) = cli.fails(&as_viewer, 2);
                assert!(stdout.is_empty(), "{stdout}");
                assert!(stderr.contains("still in play"), "{stderr}");
                assert!(found(&stderr, &secrets).is_empty(), "{stderr}");
                continue;
            }
            let seen = cli.ok(&as_viewer);
            let (clean, catalogue) = without_catalogue(&seen);
            let leaked = found(&clean, &secrets);
            assert!(
                leaked.is_empty(),
                "{as_viewer:?} shows {leaked:?}, which the viewer may not know:\n{seen}"
            );
            assert_eq!(
                catalogue, owner_catalogue,
                "{words:?}: the catalogue is the same for everyone"
            );
        }

        // Shaped, not blanked: a seat sees its own cards, and is told so.
        let state = cli.ok(&["state", &game, "--as", given]);
        for card in &mine {
            assert!(
                state.contains(card.as_str()),
                "{given} sees {card}:\n{state}"
            );
        }
        let tree = cli.ok(&["branches", &game, "--as", given]);
        assert!(tree.contains("reseeded (seed sealed)"), "{tree}");
        let verify = cli.ok(&["verify", &game, "--as", given]);
        assert!(verify.contains("the visible chain was checked"), "{verify}");

        // A refused export with --out writes no file; --json says why.
        let out = cli.dir.path().join(format!("as-{given}.jsonl"));
        cli.fails(
            &[
                "export",
                &game,
                "--as",
                given,
                "--out",
                out.to_str().unwrap(),
            ],
            2,
        );
        assert!(!out.exists(), "a refused export leaves no file");
        let (stdout, _) = cli.fails(&["--json", "export", &game, "--as", given], 2);
        let err: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(err["error"], "forbidden", "{err}");
    }

    // The night ends: everything on main is out, for everyone.
    play(&cli, &game, &script.after, "after.jsonl");
    assert_eq!(cli.json(&["state", &game])["over"], true);
    let all = hands(&cli.json(&["state", &game]), |_| true);
    let state = cli.ok(&["state", &game, "--as", "1"]);
    for card in &all {
        assert!(
            state.contains(card.as_str()),
            "over, {card} is out:\n{state}"
        );
    }
    let replay = cli.ok(&["replay", &game, "--as", "1", "--to", "1"]);
    assert!(replay.contains(&format!("seed {seed}")), "{replay}");
    // The game is over, so every line is out, the what-if fork still in
    // play included: what is played there now is study, not the game.
    assert_eq!(
        cli.ok(&["export", &game, "--as", "1"]),
        cli.ok(&["export", &game])
    );
    let tree = cli.ok(&["branches", &game, "--as", "1"]);
    assert!(tree.contains(&reseed), "the fork's seed is out too: {tree}");
    let verify = cli.ok(&["verify", &game, "--as", "1"]);
    let actions = format!("{}{}", script.before, script.after)
        .lines()
        .filter(|l| l.trim_start().starts_with('{'))
        .count();
    assert!(
        verify.contains(&format!("{game} main: ok ({} events)\n", actions + 1)),
        "a game over gets the full check: {verify}"
    );
    assert!(verify.contains("what-if: ok (21 events)\n"), "{verify}");
}

/// A seat's fork draws its dice from fresh, secret randomness: the seat is
/// told the fork's dice are its own, and never learns the seed; the owner does.
#[test]
fn a_seats_fork_is_reseeded_and_its_seed_is_the_owners() {
    let cli = Cli::new();
    let game = new_duel(&cli, "12");
    let forked = cli.ok(&["fork", &game, "--at", "1", "--name", "mine", "--as", "Bo"]);
    assert!(forked.contains("the fork's dice are its own"), "{forked}");
    let owner = cli.json(&["branches", &game]);
    let mine = owner
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "mine")
        .expect("the fork is listed");
    assert_eq!(mine["reseeded"], true);
    let seed = mine["reseed"]
        .as_u64()
        .expect("the owner sees the fork's seed")
        .to_string();
    assert!(cli
        .ok(&["branches", &game])
        .contains(&format!("reseeded {seed}")));
    assert!(cli
        .ok(&["replay", &game, "--branch", "mine"])
        .contains(&format!("({seed})")));

    let seat = cli.json(&["branches", &game, "--as", "1"]);
    let theirs = seat
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "mine")
        .unwrap();
    assert_eq!(theirs["reseeded"], true);
    assert!(theirs["reseed"].is_null(), "{seat}");
    assert!(cli
        .ok(&["branches", &game, "--as", "1"])
        .contains("mine  forked at seq 1  (head seq 2)  reseeded (seed sealed)"));
    for words in [
        vec!["branches", &game],
        vec!["--json", "branches", &game],
        vec!["log", &game, "--branch", "mine"],
        vec!["--json", "log", &game, "--branch", "mine"],
        vec!["replay", &game, "--branch", "mine"],
        vec!["--json", "replay", &game, "--branch", "mine"],
        vec!["narrate", &game, "--branch", "mine", "--format", "json"],
        vec!["state", &game, "--branch", "mine"],
    ] {
        for given in ["1", "0", "public"] {
            let mut as_seat = words.clone();
            as_seat.extend(["--as", given]);
            let out = cli.ok(&as_seat);
            assert!(
                !out.contains(&seed),
                "{as_seat:?} shows the seed {seed}:\n{out}"
            );
        }
    }
    let json = cli.json(&["fork", &game, "--at", "1", "--as", "0"]);
    assert_eq!(json["reseeded"], true);
    assert!(json["reseed"].is_null(), "{json}");
}

/// Flips one byte in the middle of a store's snapshot file (`snap.*`),
/// which sled checks on opening. (sled does not notice every damage to its
/// data file: it may cut its log at a bad entry and open with less. That is
/// what `verify` and regular backups are for; see the README's Recovery.)
fn damage(store: &std::path::Path) {
    let snap = std::fs::read_dir(store)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("snap."))
        })
        .expect("sled keeps a snapshot file");
    let mut bytes = std::fs::read(&snap).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0xff;
    std::fs::write(&snap, bytes).unwrap();
}

#[test]
fn a_damaged_store_says_so_and_a_backup_restores_every_game_and_token() {
    let cli = Cli::new();
    let mut games = Vec::new();
    for seed in 0..10 {
        let created = cli.json(&[
            "new",
            "ludovia",
            "--player",
            "Ada",
            "--player",
            "Bo",
            "--player",
            "Cy",
            "--seed",
            &seed.to_string(),
        ]);
        games.push(created);
    }
    let first = games[0]["game"].as_str().unwrap().to_string();
    act_first_legal(&cli, &first).expect("an action is open");
    let backup = cli.dir.path().join("backup.jsonl");
    let done = cli.json(&["backup", "--out", backup.to_str().unwrap()]);
    assert_eq!(done["games"], 10);

    damage(&cli.store());
    let (_, stderr) = cli.fails(&["games"], 2);
    let store = cli.store().display().to_string();
    assert!(stderr.contains("is damaged"), "{stderr}");
    assert!(stderr.contains(&format!("{store}/snap.*")), "{stderr}");
    assert!(stderr.contains("restore"), "{stderr}");

    // The recovery the error names: restore the backup into a fresh store.
    let fresh = Cli::new();
    let restored = fresh.json(&["restore", backup.to_str().unwrap()]);
    assert_eq!(restored["games"].as_array().unwrap().len(), 10);
    fresh.ok(&["verify"]);
    let listed = fresh.json(&["games"]);
    assert_eq!(listed.as_array().unwrap().len(), 10);
    let state = fresh.json(&["state", &first]);
    assert_eq!(state["seq"], 2);
    // Every token opens its game as before.
    let journal = tabletape_store::Journal::open(&fresh.store()).unwrap();
    for created in &games {
        let game = created["game"].as_str().unwrap();
        let owner = created["owner_token"].as_str().unwrap();
        let seat = created["seats"][2]["token"].as_str().unwrap();
        assert_eq!(
            journal.access(game, Some(owner)).unwrap(),
            tabletape_store::Access::Owner
        );
        assert_eq!(
            journal.access(game, Some(seat)).unwrap(),
            tabletape_store::Access::Seat(2)
        );
    }
}

#[test]
fn undo_takes_back_a_mistake_and_commands_follow_the_current_line() {
    let cli = Cli::new();
    let game = new_duel(&cli, "21");
    act_first_legal(&cli, &game).unwrap();
    act_first_legal(&cli, &game).unwrap();
    let said = cli.ok(&["undo", &game]);
    assert!(said.contains("took back seq 3 of `main`"), "{said}");
    let undone = cli.json(&["state", &game]);
    assert_eq!(undone["seq"], 2);
    assert_ne!(undone["branch"], "main");
    // The next action goes to the current line without --branch.
    assert_eq!(act_first_legal(&cli, &game), Some(3));
    let tree = cli.ok(&["branches", &game]);
    assert!(tree.contains("(taken back)"), "{tree}");
    assert_eq!(cli.json(&["state", &game, "--branch", "main"])["seq"], 3);
    cli.ok(&["verify", &game]);
    // Nothing before the creation to take back.
    let fresh = new_duel(&cli, "22");
    let (_, stderr) = cli.fails(&["undo", &fresh], 2);
    assert!(stderr.contains("nothing to take back"), "{stderr}");
}

#[test]
fn act_records_a_numbered_line_of_legal_and_says_what_a_line_still_needs() {
    let cli = Cli::new();
    let game = new_duel(&cli, "31");
    let listed = cli.ok(&["legal", &game, "--as", "Ada"]);
    // Each line's JSON, then (indented) what it does in words.
    let second = listed.lines().find(|l| l.starts_with(" 2. {")).unwrap();
    let json: serde_json::Value = serde_json::from_str(second.trim_start_matches(" 2. ")).unwrap();
    cli.ok(&["act", &game, "2", "--as", "Ada"]);
    let log = cli.json(&["log", &game]);
    let stored = &log.as_array().unwrap()[1]["body"]["action"];
    assert_eq!(stored["page"], json["page"], "{log}");
    // A line that still needs something is not guessed at without a terminal.
    let listed = cli.ok(&["legal", &game, "--as", "Bo"]);
    let commit = listed
        .lines()
        .find(|l| l.contains("\"commit\""))
        .unwrap()
        .split('.')
        .next()
        .unwrap()
        .trim()
        .to_string();
    let (_, stderr) = cli.fails(&["act", &game, &commit, "--as", "Bo"], 2);
    assert!(stderr.contains("needs hash"), "{stderr}");
    let (_, stderr) = cli.fails(&["act", &game, "99", "--as", "Bo"], 2);
    assert!(stderr.contains("offers lines 1 to"), "{stderr}");
}

#[test]
fn a_unique_prefix_of_a_game_id_names_the_game() {
    let cli = Cli::new();
    let first = new_duel(&cli, "41");
    let second = new_duel(&cli, "42");
    let common = first
        .chars()
        .zip(second.chars())
        .take_while(|(a, b)| a == b)
        .count();
    let short = &first[..common + 1];
    assert_eq!(cli.json(&["state", short])["game"], first.as_str());
    let (_, stderr) = cli.fails(&["state", &first[..common]], 2);
    assert!(
        stderr.contains(&first) && stderr.contains(&second),
        "{stderr}"
    );
}

#[test]
fn a_table_names_its_game_with_new_id() {
    let cli = Cli::new();
    let new = |id: &str| {
        vec![
            "new".to_string(),
            "lostworlds".into(),
            "--player".into(),
            "Ada".into(),
            "--player".into(),
            "Bo".into(),
            "--seed".into(),
            "7".into(),
            "--id".into(),
            id.into(),
        ]
    };
    let args = new("duel");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = cli.ok(&args);
    assert!(out.starts_with("game duel  (lostworlds, seed 7)"), "{out}");
    assert!(out.contains("Next: tabletape legal duel"), "{out}");
    let (_, stderr) = cli.fails(&args, 2);
    assert!(stderr.contains("game id `duel` is taken"), "{stderr}");
    // An id that is a prefix of another still names its own game.
    let args = new("duel-2");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    cli.ok(&args);
    assert_eq!(cli.json(&["state", "duel"])["game"], "duel");
    let args = new("a duel");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (_, stderr) = cli.fails(&args, 2);
    assert!(stderr.contains("only ASCII letters, digits"), "{stderr}");
}

/// Runs `tabletape play` with `input` piped in; returns its output and exit code.
fn play_piped(cli: &Cli, args: &[&str], input: &str) -> (String, i32) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cli
        .command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabletape runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn play_records_numbered_lines_until_quit_and_loops_over_mistakes() {
    let cli = Cli::new();
    let game = new_duel(&cli, "7");
    // Ada types a word and a line that does not exist, then picks line 1
    // (Extended Range Charge); nothing more is open to her, so play ends.
    let (out, code) = play_piped(&cli, &["play", &game, "--as", "Ada"], "x\n99\n1\nq\n");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(" 1. {\"maneuver\":\"Extended Range Charge\""),
        "{out}"
    );
    assert!(out.contains("seq 2\n"), "{out}");
    assert!(out.contains("Ada plays Nowa"), "{out}");
    assert!(out.contains("`x` is not a line number"), "{out}");
    assert!(
        out.contains("not recorded: `legal` offers lines 1 to 10 now, not 99"),
        "{out}"
    );
    let events = cli.json(&["log", &game]);
    assert_eq!(events.as_array().unwrap().len(), 2, "one action written");

    // Bo sees only Bo's actions and the end of input quits cleanly.
    let (out, code) = play_piped(&cli, &["play", &game, "--as", "1"], "");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"seat\":1"), "{out}");
    assert!(!out.contains("\"seat\":0"), "{out}");
    assert!(
        // The story names a maneuver with its page and colour; Bo's own
        // lines name his by page alone.
        !out.contains("Extended Range Charge (page 50,"),
        "Bo learns Ada's choice: {out}"
    );

    // A take-back at the prompt, confirmed.
    let (out, code) = play_piped(&cli, &["play", &game], "u\ny\nq\n");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("took back seq 2"), "{out}");
    assert_eq!(cli.json(&["state", &game])["seq"], 1);
}

#[test]
fn play_asks_for_what_a_line_needs() {
    let cli = Cli::new();
    let created = cli.json(&[
        "new", "legend", "--player", "Ada", "--player", "Bo", "--player", "Cy", "--seed", "3",
    ]);
    let game = created["game"].as_str().unwrap();
    // Line 1 introduces Ada: four answers in the table's own words.
    let (out, code) = play_piped(
        &cli,
        &["play", game, "--as", "Ada"],
        "1\nthe Wanderer\na tall figure in grey\nthe Spiral\nthe Lantern\nse\nq\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("seq 2"), "{out}");
    let told = cli.ok(&["narrate", game, "--format", "txt"]);
    assert!(
        told.contains("the Wanderer")
            && told.contains("the Lantern")
            && told.contains("the south-east Corner"),
        "{told}"
    );
}

#[test]
fn a_title_given_to_new_shows_in_games_and_the_story() {
    let cli = Cli::new();
    let out = cli.ok(&[
        "new",
        "lostworlds",
        "--player",
        "Ada",
        "--player",
        "Bo",
        "--title",
        "Friday duel",
    ]);
    assert!(out.contains("\"Friday duel\""), "{out}");
    let games = cli.ok(&["games"]);
    assert!(
        games.contains("TITLE") && games.contains("Friday duel"),
        "{games}"
    );
    let game = cli.json(&["games"])[0]["game"]
        .as_str()
        .unwrap()
        .to_string();
    let story = cli.ok(&["narrate", &game, "--format", "txt"]);
    assert!(story.starts_with("Friday duel"), "{story}");
    let state = cli.ok(&["state", &game]);
    assert!(
        state.starts_with(&format!("{game} \"Friday duel\" · lostworlds")),
        "{state}"
    );
    // A title on two lines is refused by name, and nothing is written.
    let (_, err) = cli.fails(
        &[
            "new",
            "lostworlds",
            "--player",
            "A",
            "--player",
            "B",
            "--title",
            "a\nb",
        ],
        2,
    );
    assert!(err.contains("title"), "{err}");
    assert_eq!(cli.json(&["games"]).as_array().unwrap().len(), 1);
}

/// `kinds` explains each kind's words and lists every value an option takes,
/// each once; `legal` ends with the words its lines use.
#[test]
fn kinds_and_legal_explain_each_kinds_words() {
    let cli = Cli::new();
    let kinds = cli.ok(&["kinds"]);
    for expected in [
        "      values: lair (the Lair), prison (the Prison), belltower (Bell Tower Row)",
        "    h<r>.<c>: a street along lamp-post row r",
        "    Bolas: Blue, $100:",
        "    -c3, |c3: the boundary along the north of c3",
        "    Entropy: every player removes one object",
        "    maneuver: a move from the fighter's character sheet",
    ] {
        assert!(kinds.contains(expected), "{expected:?} missing:\n{kinds}");
    }
    // The Legless locations come in pairs; each id is listed once.
    let values = kinds
        .lines()
        .find(|l| l.contains("values: cottage-1"))
        .unwrap();
    assert_eq!(values.matches("cottage-1").count(), 1, "{values}");
    let json = cli.json(&["kinds"]);
    let ludovia = json
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "ludovia")
        .unwrap();
    assert!(ludovia["vocabulary"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["word"] == "p<r>.<c>"));

    let created = cli.json(&[
        "new", "ludovia", "--player", "Ada", "--player", "Bo", "--player", "Cy", "--seed", "5",
    ]);
    let legal = cli.ok(&["legal", created["game"].as_str().unwrap()]);
    let words = legal.split("\nwords:\n").nth(1).expect("a words section");
    assert!(
        words.contains("  left, right, advance: a policeman's move"),
        "{legal}"
    );
}

#[test]
fn a_mistyped_maneuver_action_type_or_command_is_answered_with_what_was_meant() {
    let cli = Cli::new();
    let game = new_duel(&cli, "5");
    let (_, stderr) = cli.fails(
        &[
            "act",
            &game,
            r#"{"type":"choose","seat":0,"maneuver":"Extended Range Chrage"}"#,
        ],
        1,
    );
    assert!(
        stderr.contains("(did you mean `Extended Range Charge`?)"),
        "{stderr}"
    );
    assert!(stderr.contains("(rule: lostworlds.maneuver)"), "{stderr}");
    let (_, stderr) = cli.fails(
        &[
            "act",
            &game,
            r#"{"type":"chose","seat":0,"maneuver":"Extended Range Charge"}"#,
        ],
        1,
    );
    assert!(stderr.contains("(did you mean `choose`?)"), "{stderr}");
    // Nothing like a maneuver: no guess is offered.
    let (_, stderr) = cli.fails(
        &[
            "act",
            &game,
            r#"{"type":"choose","seat":0,"maneuver":"Fireball"}"#,
        ],
        1,
    );
    assert!(!stderr.contains("did you mean"), "{stderr}");
    let (_, stderr) = cli.fails(&["relpay", &game], 2);
    assert!(stderr.contains("'replay'"), "{stderr}");
    assert_eq!(cli.json(&["log", &game]).as_array().map(Vec::len), Some(1));
}

#[test]
fn completions_for_every_shell_and_a_manual_page_come_from_the_command_line() {
    let cli = Cli::new();
    for (shell, mark) in [
        ("bash", "complete -F _tabletape"),
        ("zsh", "#compdef tabletape"),
        ("fish", "complete -c tabletape"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = cli.ok(&["completions", shell]);
        assert!(script.contains(mark), "{shell}: {script}");
        // Every subcommand is completed, the newest too.
        for sub in ["replay", "narrate", "migrate", "man"] {
            assert!(script.contains(sub), "{shell} lacks {sub}");
        }
    }
    cli.fails(&["completions", "tcsh"], 2);
    let page = cli.ok(&["man"]);
    assert!(page.contains("\n.TH tabletape 1 "), "{}", &page[..200]);
    // Each subcommand has its section, with its arguments and examples.
    for section in [
        ".SH \"TABLETAPE ACT\"",
        ".SH \"TABLETAPE MIGRATE\"",
        ".SH \"TABLETAPE COMPLETIONS\"",
    ] {
        assert!(page.contains(section), "no {section}");
    }
    assert!(
        page.contains("--expect <SEQ>"),
        "act's --expect and its value"
    );
    assert!(
        !page
            .lines()
            .any(|l| l.starts_with(". ") || l.starts_with(".  ")),
        "a text line read as a roff request"
    );
}

/// Runs `tabletape ARGS` on a pseudo-terminal (util-linux's `script`), as a
/// person at a terminal would, with `env` set; returns what it printed.
fn at_a_terminal(cli: &Cli, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut line = format!(
        "{} --store {}",
        tabletape_tests::tabletape_bin().display(),
        cli.store().display()
    );
    for a in args {
        line.push_str(&format!(" '{a}'"));
    }
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &line, "/dev/null"])
        .env_remove("NO_COLOR");
    cmd.env_remove("CLICOLOR_FORCE")
        .env_remove("TABLETAPE_STORE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("script (util-linux) runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn colour_only_for_a_terminal_and_never_with_no_color() {
    let cli = Cli::new();
    let game = new_duel(&cli, "6");
    let piped = cli.ok(&["legal", &game]);
    assert!(!piped.contains('\u{1b}'), "piped output is plain: {piped}");
    let shown = at_a_terminal(&cli, &["legal", &game], &[]);
    assert!(shown.contains("\u{1b}[1m 1.\u{1b}[0m {"), "{shown:?}");
    let asked_not = at_a_terminal(&cli, &["legal", &game], &[("NO_COLOR", "1")]);
    assert!(asked_not.contains(" 1. {"), "{asked_not:?}");
    assert!(!asked_not.contains('\u{1b}'), "NO_COLOR: {asked_not:?}");
    // The words are the same either way.
    assert_eq!(asked_not.replace('\r', ""), piped);
}

/// A golden game played into the CLI's store; returns its id.
fn golden_in(cli: &Cli, kind: &str, name: &str) -> String {
    let journal = tabletape_store::Journal::open(&cli.store()).unwrap();
    let path = tabletape_tests::data_dir().join(kind).join(name);
    crate::golden::play_golden_into(&journal, &path).unwrap()
}

#[test]
fn a_finished_game_exports_as_a_bg_stats_play_and_a_bgg_play_record() {
    let cli = Cli::new();
    let ludovia = golden_in(&cli, "ludovia", "fame_win_physical.jsonl");
    let dread = golden_in(&cli, "dread", "lantern_win_digital.jsonl");
    let duel = golden_in(&cli, "lostworlds", "knockout_full_book.jsonl");

    let stats: Value = serde_json::from_str(&cli.ok(&[
        "export", &ludovia, "--format", "bgstats", "--bgg-id", "1234",
    ]))
    .expect("a BG Stats export is JSON");
    let (games, players, places, plays) = (
        stats["games"].as_array().unwrap(),
        stats["players"].as_array().unwrap(),
        stats["locations"].as_array().unwrap(),
        stats["plays"].as_array().unwrap(),
    );
    assert_eq!((games.len(), places.len(), plays.len()), (1, 1, 1));
    assert_eq!(games[0]["name"], "The Rooftops of Ludovia");
    assert_eq!(games[0]["bggId"], 1234);
    assert_eq!(games[0]["cooperative"], false);
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ada", "Bo", "Cy", "Dee"]);
    let play = &plays[0];
    assert_eq!(play["gameRefId"], games[0]["id"]);
    assert_eq!(play["locationRefId"], places[0]["id"]);
    let date = play["playDate"].as_str().unwrap();
    assert!(
        date.len() == 19 && date.as_bytes()[10] == b' ' && date.as_bytes()[4] == b'-',
        "YYYY-MM-DD HH:MM:SS: {date}"
    );
    assert!(play["durationMin"].as_u64().unwrap() >= 1);
    let scores = play["playerScores"].as_array().unwrap();
    assert_eq!(scores.len(), 4);
    for (i, s) in scores.iter().enumerate() {
        // Every score refers to a listed player, in seat order.
        assert_eq!(s["playerRefId"], players[i]["id"]);
        assert_eq!(s["seatOrder"], i + 1);
        assert!(s["score"].is_string(), "BG Stats keeps scores as text");
    }
    // Ada won on Fame: 15 to nobody's.
    assert_eq!(scores[0]["score"], "15");
    let winners: Vec<bool> = scores
        .iter()
        .map(|s| s["winner"].as_bool().unwrap())
        .collect();
    assert_eq!(winners, [true, false, false, false]);
    // The same game again is the same play, so BG Stats merges it.
    let again: Value =
        serde_json::from_str(&cli.ok(&["export", &ludovia, "--format", "bgstats"])).unwrap();
    assert_eq!(again["plays"][0]["uuid"], play["uuid"]);

    // London Dread is cooperative: the table won together, one score for all.
    let stats: Value =
        serde_json::from_str(&cli.ok(&["export", &dread, "--format", "bgstats"])).unwrap();
    assert_eq!(stats["games"][0]["cooperative"], true);
    for s in stats["plays"][0]["playerScores"].as_array().unwrap() {
        assert_eq!(
            (&s["winner"], &s["score"]),
            (&Value::Bool(true), &json!("26"))
        );
    }

    // A BGG play record: a duel has a winner and no points.
    let xml = cli.ok(&["export", &duel, "--format", "bgg", "--bgg-id", "77"]);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let play = doc.descendants().find(|n| n.has_tag_name("play")).unwrap();
    assert_eq!(play.attribute("quantity"), Some("1"));
    assert!(play.attribute("date").is_some_and(|d| d.len() == 10));
    let item = play.children().find(|n| n.has_tag_name("item")).unwrap();
    assert_eq!(
        (
            item.attribute("name"),
            item.attribute("objectid"),
            item.attribute("objecttype")
        ),
        (Some("Lost Worlds"), Some("77"), Some("thing"))
    );
    let seats: Vec<(&str, &str, &str)> = play
        .descendants()
        .filter(|n| n.has_tag_name("player"))
        .map(|p| {
            (
                p.attribute("name").unwrap(),
                p.attribute("win").unwrap(),
                p.attribute("score").unwrap(),
            )
        })
        .collect();
    assert_eq!(seats, [("Ada", "1", ""), ("Bo", "0", "")]);

    // A game still in play is no play yet, and nothing is written.
    let open = new_duel(&cli, "8");
    let out = cli.dir.path().join("play.json");
    let (_, stderr) = cli.fails(
        &[
            "export",
            &open,
            "--format",
            "bgstats",
            "--out",
            out.to_str().unwrap(),
        ],
        1,
    );
    assert!(stderr.contains("export.play_not_over"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn long_work_shows_progress_on_a_terminal_and_nowhere_else() {
    let cli = Cli::new();
    let game = new_duel(&cli, "9");
    act_first_legal(&cli, &game);
    let file = cli.dir.path().join("duel.jsonl");
    let file = file.to_str().unwrap();
    let backup = cli.dir.path().join("all.jsonl");
    let backup = backup.to_str().unwrap();
    for (args, shown) in [
        (vec!["export", game.as_str(), "--out", file], "exporting"),
        (vec!["backup", "--out", backup], "backing up"),
        (vec!["verify"], "verifying"),
    ] {
        let seen = at_a_terminal(&cli, &args, &[]);
        assert!(seen.contains(shown), "{args:?} at a terminal: {seen:?}");
        let piped = cli.run(&args);
        assert!(piped.status.success());
        let stderr = String::from_utf8_lossy(&piped.stderr);
        assert!(stderr.is_empty(), "{args:?} piped drew: {stderr:?}");
        // `--json` is for programs: no bar even at a terminal.
        let mut quiet = vec!["--json"];
        quiet.extend_from_slice(&args);
        let seen = at_a_terminal(&cli, &quiet, &[]);
        assert!(!seen.contains(shown), "{args:?} --json: {seen:?}");
    }
    // What was exported under the bar imports into a fresh store whole.
    let other = Cli::new();
    other.ok(&["import", file]);
    assert_eq!(
        other.json(&["log", &game]).as_array().map(Vec::len),
        Some(2)
    );
    let restored = Cli::new();
    let seen = at_a_terminal(&restored, &["restore", backup], &[]);
    assert!(
        seen.contains("restoring") && seen.contains("restored 1 game"),
        "{seen:?}"
    );
}

/// A store, an export and a backup hold every seed and secret: each is
/// readable by its owner only.
#[cfg(unix)]
#[test]
fn the_store_and_what_is_written_from_it_are_the_owners_alone() {
    use std::os::unix::fs::PermissionsExt;
    let cli = Cli::new();
    let game = new_duel(&cli, "3");
    let export = cli.dir.path().join("game.jsonl");
    let backup = cli.dir.path().join("backup.jsonl");
    cli.ok(&["export", &game, "--out", export.to_str().unwrap()]);
    cli.ok(&["backup", "--out", backup.to_str().unwrap()]);
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&cli.store()), 0o700, "the store's directory");
    let mut seen = 0;
    for entry in std::fs::read_dir(cli.store()).unwrap() {
        let entry = entry.unwrap();
        let want = if entry.file_type().unwrap().is_dir() {
            0o700
        } else {
            0o600
        };
        assert_eq!(mode(&entry.path()), want, "{}", entry.path().display());
        seen += 1;
    }
    assert!(seen > 0);
    assert_eq!(mode(&export), 0o600);
    assert_eq!(mode(&backup), 0o600);
}

/// A forged log whose facts the kind cannot apply is refused naming the
/// event; the panic the engine caught on the way prints nothing of its own
/// (no "panicked at", no backtrace) for the user to wade through.
#[test]
fn a_forged_import_is_refused_without_a_backtrace() {
    let cli = Cli::new();
    let game = new_duel(&cli, "5");
    cli.ok(&["act", &game, r#"{"type":"choose","seat":0,"page":50}"#]);
    let exported = cli.ok(&["export", &game]);
    let mut events: Vec<Value> = exported
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    events[1]["body"]["facts"][0]["seat"] = json!(6);
    let mut prev = events[0]["hash"].as_str().unwrap().to_string();
    for e in events.iter_mut().skip(1) {
        e["prev_hash"] = json!(prev);
        let event: tabletape_events::Event = serde_json::from_value(e.clone()).unwrap();
        prev = tabletape_store::event_hash(&event);
        e["hash"] = json!(prev);
    }
    let file = cli.dir.path().join("forged.jsonl");
    let text: Vec<String> = events.iter().map(Value::to_string).collect();
    std::fs::write(&file, text.join("\n") + "\n").unwrap();
    let other = Cli::new();
    let out = other
        .command(&["import", file.to_str().unwrap()])
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("seq 2"), "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{stderr}"
    );
}

/// A table's own box: `pack show` prints the bundled pack, `pack new` a
/// starting point that reads as it is, `pack check` names every error by
/// its place in the table's file, and a game plays on the pack laid over the
/// bundled one (a character of the table's own, another changed).
#[test]
fn a_tables_own_pack_is_laid_over_the_bundled_one() {
    let cli = Cli::new();
    for kind in ["legless", "ludovia", "legend", "dread", "lostworlds"] {
        let bundled: Value = serde_json::from_str(&cli.ok(&["pack", "show", kind])).unwrap();
        assert!(bundled.is_object(), "{kind}: {bundled}");
        let start = cli.dir.path().join(format!("{kind}-box.json"));
        std::fs::write(&start, cli.ok(&["pack", "new", kind])).unwrap();
        let checked = cli.ok(&["pack", "check", start.to_str().unwrap(), "--kind", kind]);
        assert!(checked.contains("reads as a pack for"), "{kind}: {checked}");
    }

    let ours = cli.dir.path().join("our-box.json");
    let nell = json!({"name": "Nell Hatch", "role": "flower seller", "start": "z99",
        "money": 7, "health": 6, "goals": [
            {"at": ["slums"], "kind": "love"},
            {"at": ["slums", "pawnbroker"], "kind": "property"},
            {"at": ["workhouse"], "cost": 6, "kind": "personal", "text": "Pay the Workhouse back."}]});
    let mut pack = json!({"//": "our box", "characters": [
        {"name": "Albert Pinch", "money": 11, "//": "our printing"}, nell]});
    std::fs::write(&ours, pack.to_string()).unwrap();
    let file = ours.to_str().unwrap();
    // Nell is the second entry of the file (the ninth of the laid pack).
    let (_, err) = cli.fails(&["pack", "check", file, "--kind", "legless"], 2);
    assert!(
        err.contains("characters[1].start: z99 is not a street square"),
        "{err}"
    );
    // Every error is named, each by its place in the file.
    let mut two = pack.clone();
    two["characters"][0]["goals"] = json!([{"at": ["nowhere"], "kind": "love"}]);
    std::fs::write(&ours, two.to_string()).unwrap();
    let (_, err) = cli.fails(&["pack", "check", file, "--kind", "legless"], 2);
    assert!(err.contains("2 errors"), "{err}");
    assert!(err.contains("characters[1].start: z99"), "{err}");
    assert!(err.contains("characters[0].goals"), "{err}");
    pack["characters"][1]["start"] = json!("c5");
    std::fs::write(&ours, pack.to_string()).unwrap();
    let checked = cli.json(&["pack", "check", file, "--kind", "legless"]);
    assert_eq!(checked["lists"]["characters"], 9, "{checked}");

    let created = cli.json(&[
        "new",
        "legless",
        "--player",
        "Ada",
        "--player",
        "Bo",
        "--seed",
        "3",
        "--pack",
        file,
        "--option",
        "characters=Nell Hatch,Albert Pinch",
    ]);
    let game = created["game"].as_str().unwrap();
    let state = cli.json(&["state", game]);
    let londoners = &state["view"]["londoners"];
    assert_eq!(londoners[0]["character"], "Nell Hatch", "{state}");
    assert_eq!(londoners[1]["money"], 11, "{state}");
}

/// `tabletape bench` runs every measure and reports each, here at a token
/// size (`--smoke`) whose figures mean nothing: speed is measured, never
/// asserted. Each ratio is the quotient of the two rows it compares, so a
/// row that reports the wrong figure, or none, shows.
#[test]
fn the_bench_runs_every_measure() {
    let cli = Cli::new();
    let report = cli.json(&["bench", "--smoke"]);
    let rows: Vec<(String, f64, String)> = report["results"]
        .as_array()
        .expect("a list of results")
        .iter()
        .map(|r| {
            let value = r["value"].as_f64().expect("a figure");
            let name = r["name"].as_str().expect("a name").to_string();
            assert!(value.is_finite() && value > 0.0, "{name}: {value}");
            (name, value, r["unit"].as_str().expect("a unit").to_string())
        })
        .collect();
    let value = |start: &str| {
        let found: Vec<_> = rows.iter().filter(|r| r.0.starts_with(start)).collect();
        assert_eq!(found.len(), 1, "one row starting `{start}`: {rows:?}");
        found[0].1
    };
    let rates = [
        "durable appends, journal, 1 writer",
        "durable appends, journal, 64 writers",
        "raw write+fdatasync loop, 1 writer",
        "raw group commit, 64 writers",
        "durable appends, HTTP, 1 writer",
        "durable appends, HTTP, 64 writers",
        "build a 400-event game",
        "fold 400 events (in memory)",
        "fold 400 events (read from storage)",
        "export JSON Lines",
        "import JSON Lines",
    ];
    for rate in rates {
        value(rate);
    }
    for (ratio, over, under) in [
        (
            "journal 1 writer / raw write+fdatasync loop",
            "durable appends, journal, 1 writer",
            "raw write+fdatasync loop",
        ),
        (
            "journal 64 writers / raw group commit",
            "durable appends, journal, 64 writers",
            "raw group commit",
        ),
        (
            "HTTP 64 writers / journal 64 writers",
            "durable appends, HTTP, 64 writers",
            "durable appends, journal, 64 writers",
        ),
    ] {
        let expected = value(over) / value(under);
        assert!(
            (value(ratio) - expected).abs() <= expected * 1e-9,
            "{ratio}"
        );
    }
    for measure in [
        "heap growth, 20 active games",
        "fork a 10-event game",
        "fork a 400-event game",
        "state at seq",
        "peak memory (VmHWM)",
    ] {
        value(measure);
    }
    let units: BTreeSet<&str> = rows.iter().map(|r| r.2.as_str()).collect();
    assert_eq!(
        units,
        BTreeSet::from(["MiB", "events/s", "ms", "ratio"]),
        "{rows:?}"
    );
}
