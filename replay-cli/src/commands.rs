//! One function per subcommand: journal calls in, friendly text or JSON out.
//!
//! Every command writes to the `out` it is given (stdout in the binary) and
//! returns a typed [`CliError`]; `main` maps errors to exit codes. The CLI on a
//! local store acts as the game's owner (`Actor::Owner`), and `--as` names the
//! seat the owner acts for, or the viewer a read is shaped for: a seat (its
//! own secrets only), `public`, or the owner (everything, the default). Every
//! read goes through the journal's viewer-aware calls, so what a seat may not
//! see never reaches this crate's output.
//!
//! The commands speak to a [`Table`]: the journal itself on a store the CLI
//! can open, or, while `tabletape serve` holds the store, that server (see
//! `remote`), as the store's operator: the owner of every game and admin.
//!
//! This file reads the command line and hands each command to its module:
//! `play` (new, legal, act, play, fork, undo), `read` (games, log, state,
//! replay, branches, narrate), `study` (note, rename, compare), `trust`
//! (contribute, verify --public), `transfer` (export, import, verify),
//! `store` (serve, migrate, backup, restore) and `about` (kinds,
//! completions, man), with the helpers they share.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::Path;

use clap::CommandFactory;
use indicatif::ProgressBar;
use serde::Serialize;
use serde_json::{json, Value};
use tabletape_engine::{Format, Viewer};
use tabletape_events::{Actor, DiceMode, Seat};
use tabletape_store::{
    Access, ActRequest, Acted, Check, Journal, JournalError, Location, NewGame, PackSource,
    ShownEvent, StoreError,
};

use crate::args::{
    parse_action, parse_action_line, parse_option, resolve_seat, resolve_viewer, InputError,
};
use crate::cli::{
    ActArgs, BackupArgs, BranchesArgs, Cli, Command, DiceArg, ExportArgs, ExportFormat, ForkArgs,
    FormatArg, ImportArgs, LegalArgs, LogArgs, MigrateArgs, NarrateArgs, NewArgs, PackCommand,
    PlayArgs, ReplayArgs, RestoreArgs, ServeArgs, ShellArg, StateArgs, UndoArgs, VerifyArgs,
};
use crate::error::CliError;
use crate::paint;
use crate::progress;
use crate::remote::Remote;
use crate::served::{self, ServeNote};
use crate::show::{self, BranchNode};
use crate::table::Table;

mod about;
mod play;
mod read;
mod store;
mod study;
mod transfer;
mod trust;

type Result<T> = std::result::Result<T, CliError>;

/// Runs one parsed command line against stdout.
pub fn run(cli: Cli) -> Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let json = cli.json;
    let result = match cli.command {
        Command::Kinds => about::kinds(&mut out, json),
        Command::Pack(pack) => about::pack(pack, &mut out, json),
        Command::Completions(args) => about::completions(args.shell, &mut out),
        Command::Man => about::man(&mut out),
        Command::Bench(args) => {
            let scale = match (args.smoke, args.quick) {
                (true, _) => crate::bench::Scale::Smoke,
                (false, true) => crate::bench::Scale::Quick,
                (false, false) => crate::bench::Scale::Full,
            };
            crate::bench::run(&mut out, json, scale, &cli.store)
        }
        Command::Serve(args) => store::serve(&cli.store, args),
        Command::Migrate(args) => store::migrate(&cli.store, args, &mut out, json),
        Command::Verify(VerifyArgs {
            public: Some(file), ..
        }) => trust::verify_public(&file, &mut out, json),
        command => match open(&cli.store)? {
            Opened::Here(journal) => dispatch(&journal, command, &mut out, json),
            Opened::Served(remote) => dispatch(&remote, command, &mut out, json),
        },
    };
    out.flush()?;
    result
}

/// A store the CLI opened, or the server that holds it.
enum Opened {
    Here(Journal),
    Served(Remote),
}

/// Opens the store, or reaches the `tabletape serve` that holds it (sled lets
/// one process hold a store). A live server's note is looked at first, so a
/// served store answers at once rather than after sled's wait for its lock;
/// a store found locked is looked at again, for a server that started
/// meanwhile. A database is always opened here: any number of processes
/// share one.
fn open(store: &Location) -> Result<Opened> {
    let Some(store) = store.dir() else {
        return Ok(Opened::Here(Journal::open_at(store)?));
    };
    if let Some(remote) = Remote::find(store) {
        return Ok(Opened::Served(remote));
    }
    match Journal::open(store) {
        Ok(journal) => Ok(Opened::Here(journal)),
        Err(JournalError::Store(locked @ StoreError::Locked { .. })) => match Remote::find(store) {
            Some(remote) => Ok(Opened::Served(remote)),
            None => Err(JournalError::Store(locked).into()),
        },
        Err(e) => Err(e.into()),
    }
}

/// The game id a command names, to complete from a prefix.
fn game_of(command: &mut Command) -> Option<&mut String> {
    match command {
        Command::Legal(a) => Some(&mut a.game),
        Command::Act(a) => Some(&mut a.game),
        Command::Play(a) => Some(&mut a.game),
        Command::Log(a) => Some(&mut a.game),
        Command::State(a) => Some(&mut a.game),
        Command::Replay(a) => Some(&mut a.game),
        Command::Fork(a) => Some(&mut a.game),
        Command::Undo(a) => Some(&mut a.game),
        Command::Branches(a) => Some(&mut a.game),
        Command::Narrate(a) => Some(&mut a.game),
        Command::Note(a) => Some(&mut a.game),
        Command::Contribute(a) => Some(&mut a.game),
        Command::Rename(a) => Some(&mut a.game),
        Command::Compare(a) => Some(&mut a.game),
        Command::Export(a) => Some(&mut a.game),
        Command::Verify(a) => a.game.as_mut(),
        _ => None,
    }
}

/// Completes a game id given by a unique prefix (`g-41` for `g-410ab558`);
/// an exact id, or one no game starts with, is left for the command to
/// answer; a prefix several games share is refused, naming them.
fn complete_game(table: &dyn Table, given: &mut String) -> Result<()> {
    if table.players(given).is_ok() {
        return Ok(());
    }
    let matching: Vec<String> = table
        .games()?
        .into_iter()
        .map(|g| g.game)
        .filter(|g| g.starts_with(given.as_str()))
        .collect();
    match matching.as_slice() {
        [one] => *given = one.clone(),
        [] => {}
        many => {
            return Err(InputError::LegalLine {
                message: format!(
                    "`{given}` starts {} game ids ({}): give more of the id",
                    many.len(),
                    many.join(", ")
                ),
            }
            .into())
        }
    }
    Ok(())
}

fn dispatch(
    table: &dyn Table,
    mut command: Command,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    if let Some(game) = game_of(&mut command) {
        complete_game(table, game)?;
    }
    match command {
        Command::New(a) => play::new(table, a, out, json),
        Command::Legal(a) => play::legal(table, a, out, json),
        Command::Act(a) => play::act(table, a, out, json),
        Command::Play(a) => play::play(table, a, &mut io::stdin().lock(), out),
        Command::Games => read::games(table, out, json),
        Command::Log(a) => read::log(table, a, out, json),
        Command::State(a) => read::state(table, a, out, json),
        Command::Replay(a) => read::replay(table, a, out, json),
        Command::Fork(a) => play::fork(table, a, out, json),
        Command::Branches(a) => read::branches(table, a, out, json),
        Command::Narrate(a) => read::narrate(table, a, out, json),
        Command::Note(a) => study::note(table, a, out, json),
        Command::Contribute(a) => trust::contribute(table, a, out, json),
        Command::Rename(a) => study::rename(table, a, out, json),
        Command::Compare(a) => study::compare(table, a, out, json),
        Command::Export(a) => transfer::export(table, a, out, json),
        Command::Import(a) => transfer::import(table, a, out, json),
        Command::Undo(a) => play::undo(table, a, out, json),
        Command::Backup(a) => store::backup(table, a, out, json),
        Command::Restore(a) => store::restore(table, a, out, json),
        Command::Verify(a) => transfer::verify(table, a, out, json),
        Command::Kinds
        | Command::Pack(_)
        | Command::Serve(_)
        | Command::Migrate(_)
        | Command::Bench(_)
        | Command::Completions(_)
        | Command::Man => {
            unreachable!("handled before the store is opened")
        }
    }
}

/// A file for an export or a backup, readable by its owner only: either
/// holds the seeds and every player's secrets (a backup, the tokens' hashes).
fn private_file(path: &Path) -> Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path).map_err(|e| CliError::file(path, e))
}

pub(crate) fn print_json(out: &mut dyn Write, value: &impl Serialize) -> Result<()> {
    let text = serde_json::to_string(value).expect("answers serialize to JSON");
    writeln!(out, "{text}")?;
    Ok(())
}

/// The players of a game, in seat order.
fn players(table: &dyn Table, game: &str) -> Result<Vec<String>> {
    table.players(game)
}

fn seat_of(table: &dyn Table, game: &str, given: Option<&str>) -> Result<Option<Seat>> {
    match given {
        None => Ok(None),
        Some(given) => Ok(Some(resolve_seat(given, &players(table, game)?)?)),
    }
}

/// Who a read is for: the owner when `--as` is left out, else the seat (or
/// `public`) it names.
pub(crate) fn viewer_of(table: &dyn Table, game: &str, given: Option<&str>) -> Result<Viewer> {
    match given {
        None => Ok(Viewer::Owner),
        Some(given) => Ok(resolve_viewer(given, &players(table, game)?)?),
    }
}

/// A JSON Lines input: the file, or standard input for `-`.
fn input(path: &Path) -> Result<Box<dyn BufRead>> {
    if path == Path::new("-") {
        return Ok(Box::new(io::stdin().lock()));
    }
    let file = File::open(path).map_err(|e| CliError::file(path, e))?;
    Ok(Box::new(BufReader::new(file)))
}

/// [`input`] with a progress bar over the file's bytes (on a terminal; a
/// pipe's length is unknown, so stdin goes without).
fn input_shown(path: &Path, json: bool, what: &str) -> Result<(Box<dyn BufRead>, ProgressBar)> {
    if path == Path::new("-") {
        return Ok((input(path)?, ProgressBar::hidden()));
    }
    let file = File::open(path).map_err(|e| CliError::file(path, e))?;
    let size = file.metadata().map_err(|e| CliError::file(path, e))?.len();
    let bar = progress::bytes(json, what, size);
    let read = progress::Reading::new(BufReader::new(file), bar.clone());
    Ok((Box::new(read), bar))
}

/// "1 game", "2 games".
fn counted(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// Runs one command line against `store`, returning stdout or the error.
    fn run_in(store: &Path, words: &[&str]) -> std::result::Result<String, CliError> {
        let mut argv = vec!["tabletape", "--store", store.to_str().unwrap()];
        argv.extend_from_slice(words);
        let cli = Cli::try_parse_from(argv).expect("test command lines parse");
        let journal = Journal::open_at(&cli.store)?;
        let mut out = Vec::new();
        dispatch(&journal, cli.command, &mut out, cli.json)?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn ok(store: &Path, words: &[&str]) -> String {
        run_in(store, words).unwrap_or_else(|e| panic!("{words:?} failed: {e}"))
    }

    #[test]
    fn a_game_from_new_to_export_and_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store");
        let created: Value = serde_json::from_str(&ok(
            &store,
            &[
                "--json",
                "new",
                "lostworlds",
                "--player",
                "Nowa",
                "--player",
                "Grim",
                "--seed",
                "7",
            ],
        ))
        .unwrap();
        let game = created["game"].as_str().unwrap().to_string();

        // The first line of `legal` is ready to paste into `act`.
        let legal = ok(&store, &["legal", &game, "--as", "Nowa"]);
        let first = legal.lines().next().unwrap().to_string();
        assert!(ok(&store, &["act", &game, &first, "--as", "0"]).starts_with("seq 2\n"));

        // A move against the opening order is rejected (exit 1) and nothing is written.
        let err = run_in(
            &store,
            &["act", &game, r#"{"type":"choose","seat":1,"page":36}"#],
        )
        .unwrap_err();
        assert_eq!(err.exit_code(), 1, "{err}");
        assert_eq!(err.rule(), Some("lostworlds.restriction"));
        assert_eq!(
            ok(&store, &["log", &game]).lines().count(),
            3,
            "header and two events"
        );

        // A stale --expect is a conflict (exit 1); an unknown seat is an input error (exit 2).
        let stale = run_in(&store, &["act", &game, &first, "--expect", "1"]).unwrap_err();
        assert_eq!((stale.exit_code(), stale.code()), (1, "conflict"));
        let seat = run_in(&store, &["legal", &game, "--as", "Zed"]).unwrap_err();
        assert_eq!((seat.exit_code(), seat.code()), (2, "bad_input"));

        let replay = ok(&store, &["replay", &game]);
        assert!(replay.starts_with("── seq 1 · owner"), "{replay}");
        assert!(replay.contains("── seq 2 · Nowa (seat 0)"), "{replay}");

        ok(&store, &["fork", &game, "--at", "1", "--name", "retry"]);
        assert_eq!(
            ok(&store, &["branches", &game]),
            "main  (head seq 2)\n└─ retry  forked at seq 1  (head seq 1)\n"
        );
        assert!(ok(&store, &["verify", &game]).contains(&format!("{game} main: ok (2 events)")));

        let file = dir.path().join("game.jsonl");
        ok(&store, &["export", &game, "--out", file.to_str().unwrap()]);
        let other = dir.path().join("other");
        assert!(ok(&other, &["import", file.to_str().unwrap()])
            .starts_with(&format!("imported game {game}")));
        let again = dir.path().join("again.jsonl");
        ok(&other, &["export", &game, "--out", again.to_str().unwrap()]);
        assert_eq!(
            std::fs::read(&file).unwrap(),
            std::fs::read(&again).unwrap()
        );
    }

    #[test]
    fn reads_as_a_seat_are_shaped_and_an_export_waits_for_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store");
        let created: Value = serde_json::from_str(&ok(
            &store,
            &[
                "--json",
                "new",
                "lostworlds",
                "--player",
                "Nowa",
                "--player",
                "Grim",
                "--seed",
                "424242424242",
            ],
        ))
        .unwrap();
        let game = created["game"].as_str().unwrap().to_string();
        assert!(ok(&store, &["replay", &game]).contains("seed 424242424242"));
        for viewer in ["Grim", "1", "public"] {
            let replay = ok(&store, &["replay", &game, "--as", viewer]);
            assert!(!replay.contains("424242424242"), "{replay}");
            assert!(replay.contains("the seed is sealed"), "{replay}");
            let log = ok(&store, &["log", &game, "--as", viewer]);
            assert!(log.starts_with("SEQ  ") && log.contains("SEALED"), "{log}");
            assert!(log.lines().nth(1).unwrap().ends_with("seed"), "{log}");
            let err = run_in(&store, &["export", &game, "--as", viewer]).unwrap_err();
            assert_eq!((err.exit_code(), err.code()), (2, "forbidden"), "{err}");
        }
        assert!(ok(&store, &["state", &game, "--as", "1"])
            .lines()
            .next()
            .unwrap()
            .ends_with(" · as Grim (seat 1)"));
        assert!(
            ok(&store, &["legal", &game, "--as", "public"]).starts_with("No actions: the public")
        );
        let err = run_in(&store, &["state", &game, "--as", "Zed"]).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("or `public` (what anyone may see)"),
            "{err}"
        );
        let verify = ok(&store, &["verify", &game, "--as", "0"]);
        assert!(
            verify.contains("ok (1 events)  (the visible chain, as Nowa (seat 0))"),
            "{verify}"
        );
        let err = run_in(&store, &["fork", &game, "--at", "1", "--as", "public"]).unwrap_err();
        assert_eq!(err.code(), "forbidden", "{err}");
    }

    #[test]
    fn act_file_prints_each_seq_and_stops_at_the_first_bad_line() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store");
        let created: Value = serde_json::from_str(&ok(
            &store,
            &[
                "--json",
                "new",
                "lostworlds",
                "--player",
                "Nowa",
                "--player",
                "Grim",
            ],
        ))
        .unwrap();
        let game = created["game"].as_str().unwrap().to_string();
        let file = dir.path().join("acts.jsonl");
        let lines = [
            r#"{"as": "Nowa", "action": {"type":"choose","page":50}}"#,
            "",
            r#"{"type":"choose","seat":1,"page":52}"#,
            r#"{"type":"choose","seat":1,"page":999}"#,
            r#"{"type":"choose","seat":0,"page":50}"#,
        ];
        std::fs::write(&file, lines.join("\n")).unwrap();
        let err = run_in(
            &store,
            &["--json", "act", &game, "--file", file.to_str().unwrap()],
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("{}:4: rejected", file.display())),
            "{err}"
        );
        assert_eq!(err.exit_code(), 1);
        let log: Vec<Value> = serde_json::from_str(&ok(&store, &["--json", "log", &game])).unwrap();
        assert_eq!(
            log.len(),
            3,
            "the two good lines before the bad one were recorded"
        );
        assert_eq!(log[1]["actor"], json!({"seat": 0}));
    }
}
