//! A full disk: appends fail while it is full and leave no trace, reads go
//! on, and the same journal writes again once there is room, with every
//! acknowledged event kept. Runs on a small tmpfs, so it needs a machine
//! that lets the test mount one (root on Linux); elsewhere it says so and
//! checks nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use tabletape_events::{Actor, MAIN_BRANCH};
use tabletape_store::{ActRequest, Journal, JournalError, NewGame, Viewer};

/// A tmpfs mounted for one test, unmounted when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmpfs { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// Fills the file system at `dir` with a file until no byte is left.
fn fill(dir: &Path) -> PathBuf {
    let file = dir.join("filler");
    let mut f = std::fs::File::create(&file).unwrap();
    let chunk = vec![7u8; 64 * 1024];
    use std::io::Write;
    while f.write_all(&chunk).is_ok() {}
    let _ = f.write_all(&chunk[..1]);
    file
}

fn act(j: &Journal, game: &str) -> Result<u64, JournalError> {
    let legal = j.legal(game, MAIN_BRANCH, None)?;
    let action = legal
        .iter()
        .map(|l| l.with_words())
        .find(|l| l.needs.is_empty())
        .expect("a ready action")
        .action;
    j.act(
        game,
        ActRequest {
            branch: MAIN_BRANCH.into(),
            actor: Actor::Owner,
            by: None,
            action,
            expect_seq: None,
            idempotency_key: None,
        },
    )
    .map(|a| a.seq)
}

#[test]
fn a_full_disk_fails_appends_without_a_trace_and_recovers_by_itself() {
    let Some(fs) = Tmpfs::mount("8m") else {
        eprintln!("skipped: this machine does not let the test mount a tmpfs");
        return;
    };
    let j = Journal::open(&fs.path().join("store")).unwrap();
    let game = j
        .create(NewGame {
            title: None,
            kind: "lostworlds".into(),
            players: vec!["Ann".into(), "Bo".into()],
            seed: Some(3),
            ..NewGame::default()
        })
        .unwrap()
        .game;
    let mut acknowledged = 1;
    for _ in 0..4 {
        acknowledged = act(&j, &game).unwrap();
    }
    // The appends' log is grown ahead of its records, and appends into room
    // it has are durable whether the disk is full or not; a store opened
    // afresh cuts it to its records, so the full disk refuses its first
    // growth.
    drop(j);
    let j = Journal::open(&fs.path().join("store")).unwrap();
    let filler = fill(fs.path());
    // Appends now fail; each failure leaves the head where it was.
    let mut failures = 0;
    for _ in 0..200 {
        match act(&j, &game) {
            Ok(seq) => acknowledged = seq,
            Err(e) => {
                failures += 1;
                assert!(!e.to_string().is_empty());
                let events = j.events(&game, MAIN_BRANCH, 1, None).unwrap();
                assert_eq!(
                    events.len() as u64,
                    acknowledged,
                    "a failed append shows: {e}"
                );
                let state = j.state(&game, MAIN_BRANCH, None, Viewer::Owner).unwrap();
                assert_eq!(state.seq, acknowledged);
                if failures == 3 {
                    break;
                }
            }
        }
    }
    assert_eq!(failures, 3, "the full disk never refused an append");
    // Room again: the same journal writes on, no restart needed.
    std::fs::remove_file(filler).unwrap();
    let next = act(&j, &game).expect("appends work again once there is room");
    assert_eq!(next, acknowledged + 1);
    assert!(j.verify(Some(&game)).unwrap()[0].problem.is_none());
    drop(j);
    let j = Journal::open(&fs.path().join("store")).unwrap();
    let events = j.events(&game, MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(
        events.len() as u64,
        next,
        "every acknowledged event is kept"
    );
    assert!(j.verify(Some(&game)).unwrap()[0].problem.is_none());
}
