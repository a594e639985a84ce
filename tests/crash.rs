//! A writer killed mid-game loses no acknowledged event: `tabletape act --file`
//! prints each seq only once it is durable, the test kills the process after
//! some of them with SIGKILL, and what survives must hold every printed seq and
//! be an exact prefix of the intended game, with a clean `verify`. The
//! appends live only in the store's appends' log (`appends.*.wal`) until a
//! checkpoint, so reopening after the kill puts them again from it; for
//! half the seeds the log's records also end in a torn record (cut short,
//! or whole but failing its check), as a crash in the middle of writing an
//! unacknowledged group leaves them. An import killed part way, after its
//! first chunk of events is in that log, leaves no game, and the same file
//! then imports whole.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::{json, Value};
use tabletape_engine::rng::TableRng;
use tabletape_events::{Actor, Body};
use tabletape_store::Journal;
use tabletape_tests::{play_random, seeds, Cli};

/// Plays a random three-fighter duel in a scratch journal and returns its
/// actions as `act --file` lines (`{"as": seat, "action": ...}` or the bare action).
fn scripted_game(seed: u64) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::open(&dir.path().join("scratch")).unwrap();
    let options = [("characters".to_string(), json!("nowa,brakka,brakka"))].into();
    let game = new_duel(&journal, &["Ada", "Bo", "Cy"], options, seed);
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

/// A Lost Worlds duel created in `journal` with the dice keyed by `seed`.
fn new_duel(
    journal: &Journal,
    players: &[&str],
    options: std::collections::BTreeMap<String, Value>,
    seed: u64,
) -> String {
    let players = players.iter().map(|p| p.to_string()).collect();
    crate::properties::new_game(journal, &("lostworlds", players, options), seed)
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

/// An import killed part way leaves no game behind, and the same file then
/// imports whole. An import writes its chunks of events (1,024 each) to the
/// appends' log as it reads, and makes the game visible only once every
/// line is checked and the log synced; the kill falls after its first chunk
/// is in the log (even seeds), or soon after the last line went in (odd
/// seeds: while it checks and writes, or, were it quick, after its commit,
/// when the game must be whole).
#[test]
fn an_import_killed_part_way_leaves_no_game_and_imports_again() {
    // A game of over a chunk: a short duel, then notes on it (each an event
    // checked and imported like any other).
    let scratch = tempfile::tempdir().unwrap();
    let journal = Journal::open(&scratch.path().join("scratch")).unwrap();
    let game = new_duel(&journal, &["Ada", "Bo"], Default::default(), 5);
    play_random(&journal, &game, "main", 5, 60);
    for n in 0..3_400 {
        let note = tabletape_store::NoteRequest {
            branch: None,
            at: 1 + n % 10,
            title: None,
            text: format!("note {n}"),
            private: n % 3 == 0,
            expect_seq: None,
            idempotency_key: None,
        };
        journal
            .note(&game, note, tabletape_store::Access::Owner)
            .unwrap();
    }
    let mut exported = Vec::new();
    journal.export(&game, None, &mut exported).unwrap();
    drop(journal);
    let lines: Vec<&[u8]> = exported.split_inclusive(|b| *b == b'\n').collect();
    assert!(lines.len() > 3_400, "{} lines", lines.len());

    for seed in seeds(0..4) {
        let cli = Cli::new();
        let other = cli.json(&["new", "lostworlds", "--player", "Cy", "--player", "Di"]);
        let other = other["game"].as_str().unwrap().to_string();
        let file = cli.dir.path().join("game.jsonl");
        std::fs::write(&file, &exported).unwrap();

        let mut child = Killed(
            cli.command(&["import", "-"])
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        let mut stdin = child.0.stdin.take().unwrap();
        if seed % 2 == 0 {
            // Enough that the first chunk is checked and written: lines
            // are read 256 at a time, eight batches ahead of the check, and
            // the creation is no part of a chunk. Then wait for it to reach
            // the log.
            let before = log_end(&cli);
            let fed = 3_200 + (seed as usize * 97) % 150;
            for line in &lines[..fed] {
                stdin.write_all(line).unwrap();
            }
            stdin.flush().unwrap();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while log_end(&cli) <= before {
                assert!(
                    std::time::Instant::now() < deadline,
                    "seed {seed}: the import wrote no chunk"
                );
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        } else {
            for line in &lines {
                stdin.write_all(line).unwrap();
            }
            drop(stdin);
            std::thread::sleep(std::time::Duration::from_millis(seed * 7));
        }
        drop(child);

        let listed = cli.ok(&["games"]);
        if listed.contains(&game) {
            // Only a kill after the last line may have come after the commit.
            assert_eq!(seed % 2, 1, "seed {seed}: a game half imported is listed");
        } else {
            assert!(
                !cli.run(&["log", &game]).status.success(),
                "seed {seed}: a game half imported is readable"
            );
            cli.ok(&["import", file.to_str().unwrap()]);
        }
        assert_eq!(
            cli.ok(&["export", &game]).as_bytes(),
            &exported[..],
            "seed {seed}: the game as imported whole"
        );
        assert!(cli.ok(&["verify", &game]).contains("ok"), "seed {seed}");
        assert!(cli.ok(&["verify", &other]).contains("ok"), "seed {seed}");
        // What the killed import left in the log is no part of the game.
        let state = cli.json(&["state", &game]);
        assert_eq!(
            state["seq"].as_u64(),
            Some(lines.len() as u64),
            "seed {seed}"
        );
    }
}

/// A child process that is killed (SIGKILL: no destructor, no flush) and
/// reaped when dropped, whether the test goes on or fails first.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// How far the store's appends' log is written: over its segments, where
/// each one's last byte that is not zero lies (a segment is grown with
/// zeros ahead of its records, and none is ever removed).
fn log_end(cli: &Cli) -> usize {
    std::fs::read_dir(cli.store())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("appends.") && name.ends_with(".wal")
        })
        .map(|wal| {
            let bytes = std::fs::read(wal).unwrap();
            bytes.iter().rposition(|b| *b != 0).map_or(0, |i| i + 1)
        })
        .sum()
}
