//! A writer killed mid-game loses no acknowledged event: `tabletape act --file`
//! prints each seq only once it is durable, the test kills the process after
//! some of them with SIGKILL, and what survives must hold every printed seq and
//! be an exact prefix of the intended game, with a clean `verify`. The
//! appends live only in the store's appends' log (`appends.*.wal`) until a
//! checkpoint, so reopening after the kill puts them again from it; for
//! half the seeds the log's records also end in a torn record (cut short,
//! or whole but failing its check), as a crash in the middle of writing an
//! unacknowledged group leaves them.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::{json, Value};
use tabletape_engine::rng::TableRng;
use tabletape_events::{Actor, Body, DiceMode};
use tabletape_store::{Journal, NewGame};
use tabletape_tests::{play_random, seeds, Cli};

/// Plays a random three-fighter duel in a scratch journal and returns its
/// actions as `act --file` lines (`{"as": seat, "action": ...}` or the bare action).
fn scripted_game(seed: u64) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::open(&dir.path().join("scratch")).unwrap();
    let game = journal
        .create(NewGame {
            id: None,
            title: None,
            kind: "lostworlds".into(),
            players: vec!["Ada".into(), "Bo".into(), "Cy".into()],
            seed: Some(seed),
            dice: DiceMode::Digital,
            options: [("characters".to_string(), json!("nowa,brakka,brakka"))].into(),
            pack: None,
            public: false,
        })
        .unwrap()
        .game;
    play_random(&journal, &game, "main", seed, 400);
    journal
        .events(&game, "main", 2, None)
        .unwrap()
        .into_iter()
        .filter_map(|e| match (e.body, e.actor) {
            (Body::ActionAccepted(a), Actor::Owner) => Some(a.action),
            (Body::ActionAccepted(a), Actor::Seat(s)) => Some(json!({"as": s, "action": a.action})),
            _ => None,
        })
        .collect()
}

#[test]
fn a_killed_writer_loses_no_acknowledged_event() {
    for seed in seeds(0..4) {
        let actions = scripted_game(seed);
        assert!(
            actions.len() >= 6,
            "seed {seed}: game too short to kill mid-way"
        );
        let cli = Cli::new();
        let created = cli.json(&[
            "new",
            "lostworlds",
            "--player",
            "Ada",
            "--player",
            "Bo",
            "--player",
            "Cy",
            "--option",
            "characters=nowa,brakka,brakka",
            "--seed",
            &seed.to_string(),
        ]);
        let game = created["game"].as_str().unwrap().to_string();
        let file = cli.dir.path().join("actions.jsonl");
        let mut f = std::fs::File::create(&file).unwrap();
        for a in &actions {
            writeln!(f, "{a}").unwrap();
        }
        drop(f);

        let mut pick = TableRng::for_event(seed, 1);
        let kill_after = pick.range(1, actions.len() as u32 - 1) as usize;
        let mut child = cli
            .command(&["--json", "act", &game, "--file", file.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut acked = Vec::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            let acted: Value = serde_json::from_str(&line).unwrap();
            acked.push(acted["seq"].as_u64().unwrap());
            if acked.len() == kill_after {
                child.kill().unwrap(); // SIGKILL: no destructor, no flush
                break;
            }
        }
        child.wait().unwrap();
        if seed % 2 == 1 {
            // Half a record where the next would go: after the last one
            // (which ends in its head's hash, never a zero byte), in the
            // zeros the file is grown with.
            // The segment being written: the last by name.
            let wal = std::fs::read_dir(cli.store())
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    name.starts_with("appends.") && name.ends_with(".wal")
                })
                .max()
                .expect("an appends' log segment");
            let mut bytes = std::fs::read(&wal).unwrap();
            let end = bytes.iter().rposition(|b| *b != 0).map_or(0, |i| i + 1);
            // Length, CRC-32, body: cut short for one seed, whole but
            // failing its check for the other.
            let length = if seed % 4 == 1 { 12u8 } else { 2 };
            let torn = [length, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 0, 1];
            bytes.splice(end..end, torn);
            std::fs::write(&wal, bytes).unwrap();
        }

        let log = cli.json(&["log", &game]);
        let stored: Vec<u64> = log
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["seq"].as_u64().unwrap())
            .collect();
        for seq in &acked {
            assert!(
                stored.contains(seq),
                "seed {seed}: acknowledged seq {seq} was lost (kept {stored:?})"
            );
        }
        let expected: Vec<u64> = (1..=stored.len() as u64).collect();
        assert_eq!(stored, expected, "seed {seed}: the log is gap-free");
        for (i, event) in log.as_array().unwrap().iter().enumerate().skip(1) {
            let want = &actions[i - 1];
            let want = want.get("action").unwrap_or(want);
            assert_eq!(
                &event["body"]["action"],
                want,
                "seed {seed}: seq {} is not the scripted action",
                i + 1
            );
        }
        assert!(
            cli.ok(&["verify", &game]).contains("ok"),
            "seed {seed}: verify after the kill"
        );
        // The fold forms came back from the appends' log with their
        // events: every action a fold reads from storage has its form, on
        // its own or in a pack the killed writer had put.
        let db = sled::open(cli.store()).unwrap();
        let forms = db.open_tree("forms").unwrap();
        let mut kept = std::collections::BTreeSet::new();
        for item in forms.scan_prefix(game.as_bytes()) {
            let (key, raw) = item.unwrap();
            let first = u64::from_be_bytes(key[key.len() - 8..].try_into().unwrap());
            kept.extend(
                (first..)
                    .zip(forms_in(&raw))
                    .filter(|(_, f)| *f)
                    .map(|(s, _)| s),
            );
        }
        let actions: Vec<u64> = (2..=stored.len() as u64).collect();
        assert_eq!(
            kept.into_iter().collect::<Vec<_>>(),
            actions,
            "seed {seed}: forms after the kill"
        );
    }
}

/// For each seq a `forms` entry covers from its key's on, whether it holds
/// a form: a pack (`0xFF`, then each entry led by its length, u32 LE; an
/// empty one for an event with none) or one form.
fn forms_in(raw: &[u8]) -> Vec<bool> {
    let Some((0xFF, mut rest)) = raw.split_first() else {
        return vec![!raw.is_empty()];
    };
    let mut out = Vec::new();
    while let Some((len, after)) = rest.split_first_chunk::<4>() {
        let len = u32::from_le_bytes(*len) as usize;
        out.push(len > 0);
        rest = &after[len..];
    }
    out
}
