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
    FormatArg, ImportArgs, LegalArgs, LogArgs, MigrateArgs, NarrateArgs, NewArgs, PlayArgs,
    ReplayArgs, RestoreArgs, ServeArgs, ShellArg, StateArgs, UndoArgs, VerifyArgs,
};
use crate::error::CliError;
use crate::paint;
use crate::progress;
use crate::remote::Remote;
use crate::served::{self, ServeNote};
use crate::show::{self, BranchNode};
use crate::table::Table;

type Result<T> = std::result::Result<T, CliError>;

/// Runs one parsed command line against stdout.
pub fn run(cli: Cli) -> Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let json = cli.json;
    let result = match cli.command {
        Command::Kinds => kinds(&mut out, json),
        Command::Completions(args) => completions(args.shell, &mut out),
        Command::Man => man(&mut out),
        Command::Bench(args) => crate::bench::run(&mut out, json, args.quick, &cli.store),
        Command::Serve(args) => serve(&cli.store, args),
        Command::Migrate(args) => migrate(&cli.store, args, &mut out, json),
        Command::Verify(VerifyArgs {
            public: Some(file), ..
        }) => crate::trust::verify_public(&file, &mut out, json),
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
        Command::New(a) => new(table, a, out, json),
        Command::Legal(a) => legal(table, a, out, json),
        Command::Act(a) => act(table, a, out, json),
        Command::Play(a) => play(table, a, &mut io::stdin().lock(), out),
        Command::Games => games(table, out, json),
        Command::Log(a) => log(table, a, out, json),
        Command::State(a) => state(table, a, out, json),
        Command::Replay(a) => replay(table, a, out, json),
        Command::Fork(a) => fork(table, a, out, json),
        Command::Branches(a) => branches(table, a, out, json),
        Command::Narrate(a) => narrate(table, a, out, json),
        Command::Note(a) => crate::study::note(table, a, out, json),
        Command::Contribute(a) => crate::trust::contribute(table, a, out, json),
        Command::Rename(a) => crate::study::rename(table, a, out, json),
        Command::Compare(a) => crate::study::compare(table, a, out, json),
        Command::Export(a) => export(table, a, out, json),
        Command::Import(a) => import(table, a, out, json),
        Command::Undo(a) => undo(table, a, out, json),
        Command::Backup(a) => backup(table, a, out, json),
        Command::Restore(a) => restore(table, a, out, json),
        Command::Verify(a) => verify(table, a, out, json),
        Command::Kinds
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

/// A completion script, generated from the clap definitions (so it never
/// falls behind the command line).
fn completions(shell: ShellArg, out: &mut dyn Write) -> Result<()> {
    use clap_complete::Shell;
    let shell = match shell {
        ShellArg::Bash => Shell::Bash,
        ShellArg::Zsh => Shell::Zsh,
        ShellArg::Fish => Shell::Fish,
        ShellArg::Powershell => Shell::PowerShell,
    };
    let mut command = Cli::command();
    clap_complete::generate(shell, &mut command, "tabletape", out);
    Ok(())
}

/// The manual page, generated from the clap definitions: the command's page
/// with every subcommand's own section after it.
fn man(out: &mut dyn Write) -> Result<()> {
    let command = Cli::command();
    let page = clap_mangen::Man::new(command.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    // The description keeps its indented examples as they are written.
    writeln!(out, ".SH DESCRIPTION")?;
    let about = command
        .get_long_about()
        .map(|a| a.to_string())
        .unwrap_or_default();
    for paragraph in about.split("\n\n") {
        if paragraph.lines().skip(1).all(|l| l.starts_with("  ")) && paragraph.contains("\n  ") {
            writeln!(out, ".PP\n.nf\n{}\n.fi", roff_text(paragraph))?;
        } else {
            writeln!(out, ".PP\n{}", roff_text(paragraph))?;
        }
    }
    page.render_options_section(out)?;
    page.render_subcommands_section(out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        writeln!(out, ".SH \"TABLETAPE {}\"", name.to_uppercase())?;
        let about = sub
            .get_long_about()
            .or(sub.get_about())
            .map(|a| a.to_string())
            .unwrap_or_default();
        let usage = sub
            .clone()
            .bin_name(format!("tabletape {name}"))
            .render_usage();
        writeln!(
            out,
            ".PP\n\\fB{}\\fR",
            roff_text(&usage.to_string().replace("Usage: ", ""))
        )?;
        writeln!(out, ".PP\n{}", roff_text(&about))?;
        for arg in sub
            .get_arguments()
            .filter(|a| !a.is_hide_set() && !a.is_global_set())
        {
            let value = arg
                .get_value_names()
                .and_then(|v| v.first())
                .map(|v| v.to_string())
                .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
            let takes_value = arg.get_action().takes_values();
            let name = match (arg.get_short(), arg.get_long()) {
                (_, Some(long)) if takes_value => format!("--{long} <{value}>"),
                (_, Some(long)) => format!("--{long}"),
                (Some(short), None) => format!("-{short}"),
                (None, None) => format!("<{value}>"),
            };
            let help = arg
                .get_long_help()
                .or(arg.get_help())
                .map(|h| h.to_string())
                .unwrap_or_default();
            writeln!(
                out,
                ".TP\n\\fB{}\\fR\n{}",
                roff_text(&name),
                roff_text(&help)
            )?;
        }
        if let Some(after) = sub.get_after_long_help().or(sub.get_after_help()) {
            writeln!(out, ".PP\n.nf\n{}\n.fi", roff_text(&after.to_string()))?;
        }
    }
    page.render_version_section(out)?;
    Ok(())
}

/// Text made safe for roff: backslashes escaped, and no line that begins
/// with a control character (`.` or `'`) is taken for a request.
fn roff_text(text: &str) -> String {
    text.replace('\\', "\\e")
        .lines()
        .map(|line| {
            let line = line.trim_end();
            if line.starts_with('.') || line.starts_with('\'') {
                format!("\\&{line}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn kinds(out: &mut dyn Write, json: bool) -> Result<()> {
    let infos: Vec<_> = tabletape_engine::kinds().iter().map(|k| k.info()).collect();
    if json {
        return print_json(out, &infos);
    }
    for (i, k) in infos.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "{}  {} ({} to {} players)",
            k.kind, k.title, k.min_players, k.max_players
        )?;
        if !k.summary.is_empty() {
            writeln!(out, "  {}", k.summary)?;
        }
        writeln!(out, "  rules version {}", k.rules_version)?;
        if !k.default_pack.is_empty() {
            writeln!(
                out,
                "  content pack: {} (bundled; --pack FILE loads your own)",
                k.default_pack
            )?;
        }
        if k.options.is_empty() {
            writeln!(out, "  options: none")?;
        } else {
            writeln!(out, "  options (--option NAME=VALUE):")?;
            let kind = tabletape_engine::kind(k.kind).expect("a listed kind");
            for o in &k.options {
                writeln!(out, "    {} (default {}): {}", o.name, o.default, o.help)?;
                let mut seen = std::collections::BTreeSet::new();
                let values: Vec<String> = kind
                    .option_values(o.name)
                    .into_iter()
                    .filter(|v| seen.insert(v.value.clone()))
                    .map(|v| {
                        if v.label == v.value {
                            v.value
                        } else {
                            format!("{} ({})", v.value, v.label)
                        }
                    })
                    .collect();
                if !values.is_empty() {
                    writeln!(out, "      values: {}", values.join(", "))?;
                }
            }
        }
        if !k.vocabulary.is_empty() {
            writeln!(out, "  words:")?;
            for t in &k.vocabulary {
                writeln!(out, "    {}: {}", t.word, t.means)?;
            }
        }
    }
    Ok(())
}

fn new(table: &dyn Table, a: NewArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let mut options = BTreeMap::new();
    for given in &a.options {
        let (key, value) = parse_option(given)?;
        options.insert(key, value);
    }
    let pack = match &a.pack {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| CliError::file(path, e))?;
            let json = serde_json::from_str(&text).map_err(|e| CliError::File {
                path: path.display().to_string(),
                source: io::Error::new(io::ErrorKind::InvalidData, format!("not JSON: {e}")),
            })?;
            Some(PackSource {
                file: path.display().to_string(),
                json,
            })
        }
    };
    let title = a.title.clone();
    let created = table.create(NewGame {
        id: a.id,
        title: a.title,
        kind: a.kind.clone(),
        players: a.players,
        seed: a.seed,
        dice: match a.dice {
            DiceArg::Digital => DiceMode::Digital,
            DiceArg::Physical => DiceMode::Physical,
        },
        options,
        pack,
        public: a.public,
    })?;
    if json {
        return print_json(out, &created);
    }
    let named = title.map(|t| format!("  \"{t}\"")).unwrap_or_default();
    writeln!(
        out,
        "game {}{named}  ({}, seed {})",
        created.game, a.kind, created.seed
    )?;
    writeln!(out, "owner token: {}", created.owner_token)?;
    writeln!(out, "seat tokens (for the HTTP API):")?;
    for s in &created.seats {
        writeln!(out, "  seat {} {}: {}", s.seat, s.player, s.token)?;
    }
    if !created.narration.is_empty() {
        writeln!(out)?;
        for line in &created.narration {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "Next: tabletape legal {}   (what can be done now)",
        created.game
    )?;
    Ok(())
}

fn legal(table: &dyn Table, a: LegalArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.seat.as_deref())?;
    let actions = match viewer {
        Viewer::Owner => table.legal(&a.game, &branch, None)?,
        Viewer::Seat(s) => table.legal(&a.game, &branch, Some(s))?,
        // The public may read a game but never act in it.
        Viewer::Public => {
            table.is_over(&a.game, &branch)?;
            Vec::new()
        }
    };
    if json {
        return print_json(out, &actions);
    }
    if actions.is_empty() {
        let over = table.is_over(&a.game, &branch)?;
        if over {
            writeln!(
                out,
                "No actions: the game is over. `tabletape narrate {}` tells it; `fork` plays on.",
                a.game
            )?;
        } else if viewer == Viewer::Public {
            writeln!(
                out,
                "No actions: the public may read the game but not act in it."
            )?;
        } else {
            writeln!(out, "No actions are open to this seat now.")?;
        }
        return Ok(());
    }
    // Numbered, so `tabletape act GAME N` can record line N.
    for (n, l) in actions.iter().enumerate() {
        writeln!(
            out,
            "{} {}",
            paint::out(paint::HEAD, format!("{:>2}.", n + 1)),
            serde_json::to_string(&l.action).expect("actions serialize")
        )?;
        if !l.needs.is_empty() {
            writeln!(out, "    needs: {}", l.needs.join("; "))?;
        }
        if !l.may.is_empty() {
            writeln!(out, "    may add: {}", l.may.join("; "))?;
        }
    }
    // The kind's words, so a line can be read without the rule book.
    let kind = table
        .games()?
        .into_iter()
        .find(|g| g.game == a.game)
        .and_then(|g| tabletape_engine::kind(&g.kind));
    if let Some(kind) = kind {
        let words = kind.info().vocabulary;
        if !words.is_empty() {
            writeln!(out, "words:")?;
            for t in &words {
                writeln!(out, "  {}: {}", t.word, t.means)?;
            }
        }
    }
    Ok(())
}

/// Line `n` (from 1) of what `legal` offers the acting seat (or the table),
/// with what it needs asked for at the terminal: each need is `field: what`,
/// and the answer is read as JSON when it is JSON (a number, `true`), else
/// as text. Without `answers` (input that is not a terminal) a line that
/// needs something is refused, since nobody is there to ask.
fn legal_line(
    table: &dyn Table,
    game: &str,
    branch: &str,
    seat: Option<Seat>,
    n: u64,
    answers: Option<&mut dyn BufRead>,
) -> Result<serde_json::Value> {
    let offered = table.legal(game, branch, seat)?;
    let chosen = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| offered.get(i))
        .ok_or_else(|| InputError::LegalLine {
            message: format!("`legal` offers lines 1 to {} now, not {n}", offered.len()),
        })?;
    let mut action = chosen.action.clone();
    if chosen.needs.is_empty() && chosen.may.is_empty() {
        return Ok(action);
    }
    let Some(answers) = answers else {
        if chosen.needs.is_empty() {
            return Ok(action);
        }
        return Err(InputError::LegalLine {
            message: format!(
                "line {n} needs {}: give the action as JSON, or run at a terminal to be asked",
                chosen.needs.join("; ")
            ),
        }
        .into());
    };
    let mut ask = |need: &str, optional: bool| -> Result<Option<serde_json::Value>> {
        let (field, what) = need.split_once(": ").unwrap_or((need, ""));
        let hint = if optional { ", optional" } else { "" };
        eprint!("{field} ({what}{hint}): ");
        let mut answer = String::new();
        if answers.read_line(&mut answer)? == 0 {
            return Err(InputError::LegalLine {
                message: format!("no answer for {field}: the input ended"),
            }
            .into());
        }
        let answer = answer.trim();
        if answer.is_empty() && optional {
            return Ok(None);
        }
        let value = serde_json::from_str(answer)
            .unwrap_or_else(|_| serde_json::Value::String(answer.to_string()));
        set_path(&mut action, field, value.clone());
        Ok(Some(value))
    };
    for need in &chosen.needs {
        ask(need, false)?;
    }
    for may in &chosen.may {
        ask(may, true)?;
    }
    Ok(action)
}

/// Sets `value` at a dotted path (`avatar.name`, `rolls.0`) of an action.
fn set_path(action: &mut serde_json::Value, path: &str, value: serde_json::Value) {
    fn set(at: &mut serde_json::Value, parts: &[&str], value: serde_json::Value) {
        let Some((part, rest)) = parts.split_first() else {
            *at = value;
            return;
        };
        let index = part.parse::<usize>().ok();
        if let (serde_json::Value::Array(items), Some(k)) = (&*at, index) {
            if k < items.len() {
                let items = at.as_array_mut().expect("an array");
                return set(&mut items[k], rest, value);
            }
        }
        if !at.is_object() {
            *at = serde_json::Value::Object(Default::default());
        }
        let slot = at
            .as_object_mut()
            .expect("made an object")
            .entry(part.to_string())
            .or_insert(serde_json::Value::Null);
        set(slot, rest, value);
    }
    let parts: Vec<&str> = path.split('.').collect();
    set(action, &parts, value);
}

fn print_acted(out: &mut dyn Write, json: bool, game: &str, acted: &Acted) -> Result<()> {
    if json {
        print_json(out, acted)?;
    } else {
        let retried = if acted.retried {
            "  (already recorded: the original answer)"
        } else {
            ""
        };
        writeln!(
            out,
            "{}{retried}",
            paint::out(paint::HEAD, format!("seq {}", acted.seq))
        )?;
        for line in &acted.narration {
            writeln!(out, "  {line}")?;
        }
        if acted.over {
            writeln!(
                out,
                "The game is over. `tabletape narrate {game}` tells the story."
            )?;
        }
    }
    // Flushed per event: a printed seq is a promise that the event is stored.
    out.flush()?;
    Ok(())
}

fn act(table: &dyn Table, a: ActArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let seat = seat_of(table, &a.game, a.seat.as_deref())?;
    let Some(file) = &a.file else {
        let text = a.action.as_deref().expect("clap requires JSON or --file");
        // A number is a line of `legal`; anything else is the action's JSON.
        let action = match text.trim().parse::<u64>() {
            Ok(n) => {
                let mut stdin = io::stdin().lock();
                let terminal = io::stdin().is_terminal();
                let answers: Option<&mut dyn BufRead> =
                    if terminal { Some(&mut stdin) } else { None };
                legal_line(table, &a.game, &branch, seat, n, answers)?
            }
            Err(_) => parse_action(text)?,
        };
        let acted = table.act(
            &a.game,
            ActRequest {
                branch: branch.clone(),
                actor: Actor::Owner,
                by: seat,
                action,
                expect_seq: a.expect,
                idempotency_key: a.key.clone(),
            },
        )?;
        return print_acted(out, json, &a.game, &acted);
    };
    let name = file.display().to_string();
    let reader: Box<dyn BufRead> = if name == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        Box::new(BufReader::new(
            File::open(file).map_err(|e| CliError::file(file, e))?,
        ))
    };
    let mut players_cache: Option<Vec<String>> = None;
    // `--expect` guards the first line; each next line expects the seq just written.
    let mut expect = a.expect;
    for (i, text) in reader.lines().enumerate() {
        let line_no = i + 1;
        let at_line = |source: CliError| CliError::AtLine {
            file: name.clone(),
            line: line_no,
            source: Box::new(source),
        };
        let text = text.map_err(|e| CliError::file(file, e))?;
        let Some(line) = parse_action_line(&name, line_no, &text)? else {
            continue;
        };
        let by = match &line.seat {
            None => seat,
            Some(given) => {
                if players_cache.is_none() {
                    players_cache = Some(players(table, &a.game)?);
                }
                let players = players_cache.as_deref().unwrap_or_default();
                Some(resolve_seat(given, players).map_err(|e| at_line(e.into()))?)
            }
        };
        let acted = table
            .act(
                &a.game,
                ActRequest {
                    branch: branch.clone(),
                    actor: Actor::Owner,
                    by,
                    action: line.action,
                    expect_seq: expect,
                    idempotency_key: None,
                },
            )
            .map_err(at_line)?;
        if expect.is_some() {
            expect = Some(acted.seq);
        }
        print_acted(out, json, &a.game, &acted)?;
    }
    Ok(())
}

/// `tabletape play`: the table, the numbered actions, a prompt; again until
/// the game is over or the player quits. Answers are read from `input` line
/// by line (a terminal or a pipe alike); a refused action is shown with its
/// rule and the loop goes on, nothing written.
fn play(
    table: &dyn Table,
    a: PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let seat = seat_of(table, &a.game, a.seat.as_deref())?;
    let viewer = a.seat.clone();
    let show = |out: &mut dyn Write| -> Result<()> {
        let branch = Some(table.line(&a.game, a.branch.clone())?);
        state(
            table,
            StateArgs {
                game: a.game.clone(),
                at: None,
                branch: branch.clone(),
                viewer: viewer.clone(),
            },
            out,
            false,
        )?;
        writeln!(out)?;
        legal(
            table,
            LegalArgs {
                game: a.game.clone(),
                seat: viewer.clone(),
                branch,
            },
            out,
            false,
        )
    };
    show(out)?;
    loop {
        let branch = table.line(&a.game, a.branch.clone())?;
        if table.is_over(&a.game, &branch)? {
            writeln!(
                out,
                "The game is over. `tabletape narrate {}` tells it.",
                a.game
            )?;
            return Ok(());
        }
        write!(out, "action number (q quits, u takes back, r refreshes): ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        match line.trim() {
            "q" | "quit" => return Ok(()),
            "" => continue,
            "r" => show(out)?,
            "u" => {
                write!(out, "take back the last entry? [y/N] ")?;
                out.flush()?;
                let mut sure = String::new();
                input.read_line(&mut sure)?;
                if sure.trim().eq_ignore_ascii_case("y") {
                    match table.undo(&a.game) {
                        Ok(undone) => writeln!(
                            out,
                            "took back seq {}; play goes on from `{}`",
                            undone.seq, undone.current
                        )?,
                        Err(err) => writeln!(out, "not taken back: {err}")?,
                    }
                    show(out)?;
                }
            }
            text => {
                let Ok(n) = text.parse::<u64>() else {
                    writeln!(out, "`{text}` is not a line number, q, u or r")?;
                    continue;
                };
                let recorded = legal_line(table, &a.game, &branch, seat, n, Some(&mut *input))
                    .and_then(|action| {
                        table.act(
                            &a.game,
                            ActRequest {
                                branch: branch.clone(),
                                actor: Actor::Owner,
                                by: seat,
                                action,
                                expect_seq: None,
                                idempotency_key: None,
                            },
                        )
                    });
                match recorded {
                    Ok(acted) => {
                        print_acted(out, false, &a.game, &acted)?;
                        writeln!(out)?;
                        show(out)?;
                    }
                    Err(err) => writeln!(out, "not recorded: {err}")?,
                }
            }
        }
    }
}

fn games(table: &dyn Table, out: &mut dyn Write, json: bool) -> Result<()> {
    let games = table.games()?;
    if json {
        return print_json(out, &games);
    }
    if games.is_empty() {
        writeln!(
            out,
            "No games yet. Start one: tabletape new lostworlds --player A --player B"
        )?;
        return Ok(());
    }
    let rows: Vec<Vec<String>> = games
        .iter()
        .map(|g| {
            vec![
                g.game.clone(),
                g.kind.clone(),
                g.seq.to_string(),
                g.branches.to_string(),
                if g.over { "over" } else { "in play" }.to_string(),
                show::utc(g.created_at_ms),
                g.players.join(", "),
                g.title.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let mut heads = vec![
        "GAME",
        "KIND",
        "SEQ",
        "BRANCHES",
        "STATUS",
        "CREATED (UTC)",
        "PLAYERS",
        "TITLE",
    ];
    // The title column only when some game has one.
    let titled = games.iter().any(|g| g.title.is_some());
    let rows: Vec<Vec<String>> = rows
        .into_iter()
        .map(|mut r| {
            if !titled {
                r.pop();
            }
            r
        })
        .collect();
    if !titled {
        heads.pop();
    }
    write!(out, "{}", show::table(&heads, &rows))?;
    Ok(())
}

/// The short name of what an event did: its body type, and the action's own
/// type (a hidden action still shows its type).
fn event_type(body: &Value) -> String {
    let kind = body.get("type").and_then(Value::as_str).unwrap_or("event");
    match body
        .get("action")
        .and_then(|a| a.get("type"))
        .and_then(Value::as_str)
    {
        Some(t) => format!("{kind}: {t}"),
        None => kind.to_string(),
    }
}

/// The parts of an event the reader may not see (sealed: only their
/// commitment is shown), or `-`.
fn sealed_parts(event: &ShownEvent) -> String {
    let hidden: Vec<&str> = event
        .seals
        .iter()
        .filter(|s| s.salt.is_none())
        .map(|s| s.part.as_str())
        .collect();
    if hidden.is_empty() {
        "-".to_string()
    } else {
        hidden.join(", ")
    }
}

fn log(table: &dyn Table, a: LogArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let events = table.events_as(&a.game, &branch, viewer)?;
    if json {
        return print_json(out, &events);
    }
    let players = players(table, &a.game)?;
    // Every part is open to the owner: the column only speaks for other readers.
    let sealed = viewer != Viewer::Owner;
    let rows: Vec<Vec<String>> = events
        .iter()
        .map(|e| {
            let mut row = vec![
                e.seq.to_string(),
                show::utc(e.recorded_at_ms),
                show::actor(&e.actor, &players),
                event_type(&e.body),
                e.hash.chars().take(12).collect(),
            ];
            if sealed {
                row.push(sealed_parts(e));
            }
            row
        })
        .collect();
    let mut header = vec!["SEQ", "TIME (UTC)", "ACTOR", "TYPE", "HASH"];
    if sealed {
        header.push("SEALED (hidden from this reader)");
    }
    write!(out, "{}", show::table(&header, &rows))?;
    Ok(())
}

fn state(table: &dyn Table, a: StateArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let view = table.state(&a.game, &branch, a.at, viewer)?;
    if json {
        return print_json(out, &view);
    }
    let status = if view.over { "over" } else { "in play" };
    let chapter = if view.chapter.is_empty() {
        String::new()
    } else {
        format!(" · {}", view.chapter)
    };
    let seen_by = if viewer == Viewer::Owner {
        String::new()
    } else {
        format!(" · as {}", show::viewer(viewer, &players(table, &a.game)?))
    };
    let named = match table.title(&a.game)? {
        Some(title) => format!(" \"{title}\""),
        None => String::new(),
    };
    writeln!(
        out,
        "{}{named} · {} · branch {} · seq {}{chapter} · {status}{seen_by}",
        view.game, view.kind, view.branch, view.seq
    )?;
    writeln!(out)?;
    write!(out, "{}", view.text)?;
    if !view.text.ends_with('\n') {
        writeln!(out)?;
    }
    Ok(())
}

fn replay(table: &dyn Table, a: ReplayArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let steps = table.replay(&a.game, &branch, a.to, viewer)?;
    if json {
        return print_json(out, &steps);
    }
    let players = players(table, &a.game)?;
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let chapter = if step.chapter.is_empty() {
            String::new()
        } else {
            format!(" · {}", step.chapter)
        };
        writeln!(
            out,
            "{}",
            paint::out(
                paint::HEAD,
                format!(
                    "── seq {} · {}{chapter}",
                    step.seq,
                    show::actor(&step.actor, &players)
                )
            )
        )?;
        if let Some(action) = &step.action {
            writeln!(
                out,
                "  {}",
                paint::out(
                    paint::DIM,
                    format!(
                        "> {}",
                        serde_json::to_string(action).expect("actions serialize")
                    )
                )
            )?;
        }
        for line in &step.narration {
            writeln!(out, "  {line}")?;
        }
        for change in &step.changes {
            writeln!(out, "  {}", paint::out(paint::DIM, format!("Δ {change}")))?;
        }
    }
    Ok(())
}

fn fork(table: &dyn Table, a: ForkArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let from = table.line(&a.game, a.from.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let by = match viewer {
        Viewer::Owner => Access::Owner,
        Viewer::Seat(s) => Access::Seat(s),
        Viewer::Public => Access::Public,
    };
    let info = table.fork(&a.game, &from, a.at, a.name.as_deref(), a.reseed, by)?;
    if json {
        return print_json(out, &info);
    }
    writeln!(
        out,
        "branch {} forked from {} at seq {} (head seq {})",
        info.name, from, a.at, info.head_seq
    )?;
    // The journal shows a reseed's seed only to whom may see it; a seed the
    // seat typed itself is no secret to it.
    match info.reseed.or(a.reseed) {
        Some(seed) => writeln!(out, "every roll after seq {} comes from seed {seed}", a.at)?,
        None if info.reseeded => writeln!(
            out,
            "the fork's dice are its own: every roll after seq {} comes from a fresh seed, sealed (only the owner sees it)",
            a.at
        )?,
        None => {}
    }
    writeln!(out)?;
    writeln!(
        out,
        "Next: tabletape legal {} --branch {}",
        a.game, info.name
    )?;
    Ok(())
}

fn branches(table: &dyn Table, a: BranchesArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let branches = table.branches_as(&a.game, viewer)?;
    if json {
        return print_json(out, &branches);
    }
    let nodes: Vec<BranchNode> = branches
        .into_iter()
        .map(|b| BranchNode {
            name: b.name,
            parent: b.parent,
            fork_seq: b.fork_seq,
            head_seq: b.head_seq,
            reseeded: b.reseeded || b.reseed.is_some(),
            reseed: b.reseed,
            created_at_ms: b.created_at_ms,
            taken_back: b.taken_back,
            title: b.title,
            description: b.description,
            notes: b.notes.iter().map(|n| n.line()).collect(),
        })
        .collect();
    write!(out, "{}", show::branch_tree(&nodes))?;
    Ok(())
}

fn narrate(table: &dyn Table, a: NarrateArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let mut narrative = if a.variations {
        table.narrate_with_variations(&a.game, &branch, viewer)?
    } else {
        table.narrate_as(&a.game, &branch, viewer)?
    };
    if let Some(title) = a.title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        narrative.title = title.to_string();
    }
    // `--json` asks for machine output, so on stdout the story itself is JSON.
    let format = match (a.format, json && a.out.is_none()) {
        (_, true) | (FormatArg::Json, _) => Format::Json,
        (FormatArg::Md, _) => Format::Markdown,
        (FormatArg::Txt, _) => Format::Text,
        (FormatArg::Html, _) => Format::Html,
    };
    let text = narrative.render(format);
    match &a.out {
        None => write!(out, "{text}")?,
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| CliError::file(path, e))?;
            if json {
                print_json(
                    out,
                    &json!({"game": a.game, "branch": branch, "out": path, "bytes": text.len(), "chapters": narrative.chapters.len()}),
                )?;
            } else {
                writeln!(
                    out,
                    "wrote {} ({} chapters, {} bytes)",
                    path.display(),
                    narrative.chapters.len(),
                    text.len()
                )?;
            }
        }
    }
    Ok(())
}

/// Refuses an export for anyone but the owner while any branch it would
/// hold is still in play (see `Journal::check_export`, which the HTTP API
/// applies to a seat's token too).
fn check_export(table: &dyn Table, a: &ExportArgs) -> Result<()> {
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    table.check_export(&a.game, a.branch.as_deref(), viewer)
}

/// A finished game's line as one play, for `--format bgstats` or `bgg`.
fn play_of(table: &dyn Table, a: &ExportArgs) -> Result<crate::plays::Play> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let state = table.state(&a.game, &branch, None, viewer)?;
    let Some(result) = state.result.filter(|_| state.over) else {
        return Err(JournalError::Rejected(tabletape_engine::Rejection::new(
            "export.play_not_over",
            format!(
                "{} on `{branch}` is still in play: a play is logged once the game is over",
                a.game
            ),
        ))
        .into());
    };
    let events = table.events_as(&a.game, &branch, viewer)?;
    let (Some(first), Some(last)) = (events.first(), events.last()) else {
        return Err(JournalError::NotFound(format!("{} has no events", a.game)).into());
    };
    let name = tabletape_engine::kind(&state.kind)
        .map(|k| k.info().title.to_string())
        .unwrap_or_else(|| state.kind.clone());
    Ok(crate::plays::Play {
        game: a.game.clone(),
        title: table.title(&a.game)?,
        name,
        bgg_id: a.bgg_id,
        players: table.players(&a.game)?,
        started_at_ms: first.recorded_at_ms,
        ended_at_ms: last.recorded_at_ms,
        result,
    })
}

fn export(table: &dyn Table, a: ExportArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    if a.format != ExportFormat::Jsonl {
        let play = play_of(table, &a)?;
        let text = match a.format {
            ExportFormat::Bgstats => {
                serde_json::to_string_pretty(&crate::plays::bgstats(&play)).expect("JSON") + "\n"
            }
            _ => crate::plays::bgg(&play),
        };
        return match &a.out {
            None => Ok(out.write_all(text.as_bytes())?),
            Some(path) => {
                std::fs::write(path, text).map_err(|e| CliError::file(path, e))?;
                if json {
                    print_json(out, &json!({"game": a.game, "out": path}))
                } else {
                    writeln!(out, "wrote the play of {} to {}", a.game, path.display())?;
                    Ok(())
                }
            }
        };
    }
    // Checked before any file is created, so a refusal leaves nothing behind.
    check_export(table, &a)?;
    let bar = progress::counter(json, "exporting");
    bar.set_prefix("events");
    let Some(path) = &a.out else {
        // The JSON Lines are the output, so `--json` changes nothing here.
        let mut buffered = BufWriter::new(progress::Writing::new(out, bar.clone()));
        let done = table.export(&a.game, a.branch.as_deref(), &mut buffered);
        bar.finish_and_clear();
        done?;
        buffered.flush()?;
        return Ok(());
    };
    let file = private_file(path)?;
    let mut writer = BufWriter::new(progress::Writing::new(file, bar.clone()));
    let events = table.export(&a.game, a.branch.as_deref(), &mut writer);
    bar.finish_and_clear();
    let events = events?;
    let file = writer
        .into_inner()
        .map_err(|e| CliError::file(path, e.into_error()))?
        .into_inner();
    file.sync_all().map_err(|e| CliError::file(path, e))?;
    if json {
        print_json(out, &json!({"game": a.game, "events": events, "out": path}))
    } else {
        writeln!(
            out,
            "exported {events} events of {} to {}",
            a.game,
            path.display()
        )?;
        Ok(())
    }
}

fn import(table: &dyn Table, a: ImportArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let (mut read, bar) = input_shown(&a.file, json, "importing")?;
    let imported = table.import(&mut *read);
    bar.finish_and_clear();
    let imported = imported?;
    if json {
        return print_json(out, &imported);
    }
    writeln!(
        out,
        "imported game {}: {} events, branches {}",
        imported.game,
        imported.events,
        imported.branches.join(", ")
    )?;
    writeln!(out, "owner token: {}", imported.owner_token)?;
    writeln!(out, "seat tokens (new; the old ones do not travel):")?;
    for s in &imported.seats {
        writeln!(out, "  seat {} {}: {}", s.seat, s.player, s.token)?;
    }
    Ok(())
}

fn verify(table: &dyn Table, a: VerifyArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let (reports, viewer) = match (&a.game, &a.viewer) {
        (Some(game), Some(given)) => {
            let viewer = viewer_of(table, game, Some(given))?;
            (table.verify_as(game, viewer)?, viewer)
        }
        (Some(game), None) => (table.verify(Some(game))?, Viewer::Owner),
        // The whole store, game by game, so a terminal can show how far.
        (None, _) => {
            let games = table.games()?;
            let bar = progress::steps(json, "verifying", games.len() as u64);
            let mut reports = Vec::new();
            for g in &games {
                match table.verify(Some(&g.game)) {
                    Ok(found) => reports.extend(found),
                    Err(e) => {
                        bar.finish_and_clear();
                        return Err(e);
                    }
                }
                bar.inc(1);
            }
            bar.finish_and_clear();
            (reports, Viewer::Owner)
        }
    };
    // Which check each branch got: the full one (every hash, link and a strict
    // re-decision of every action) is the owner's, and anyone's on a branch
    // whose game is over; others check the chain they can see.
    let full: Vec<bool> = reports.iter().map(|r| r.check == Check::Full).collect();
    if json {
        print_json(out, &reports)?;
    } else {
        if reports.is_empty() {
            writeln!(out, "no games to verify")?;
        }
        let who = match &a.game {
            Some(game) if viewer != Viewer::Owner => show::viewer(viewer, &players(table, game)?),
            _ => String::new(),
        };
        for (r, &full) in reports.iter().zip(&full) {
            let check = if full {
                String::new()
            } else {
                format!("  (the visible chain, as {who})")
            };
            match &r.problem {
                None => writeln!(
                    out,
                    "{} {}: {} ({} events){check}",
                    r.game,
                    r.branch,
                    paint::out(paint::GOOD, "ok"),
                    r.events
                )?,
                Some(p) => writeln!(
                    out,
                    "{} {}: {} at seq {}: {}{check}",
                    r.game,
                    r.branch,
                    paint::out(paint::BAD, "BAD"),
                    p.seq,
                    p.what
                )?,
            }
            if let Some(earlier) = &r.earlier_rules {
                writeln!(
                    out,
                    "  recorded under rules version {} (today's: {}); the stored facts are the record. Today's rules would decide {} event(s) differently:",
                    earlier.recorded,
                    earlier.today,
                    earlier.decided_differently.len()
                )?;
                for d in &earlier.decided_differently {
                    writeln!(out, "    seq {}: {}", d.seq, d.what)?;
                }
            }
        }
        if full.iter().any(|f| !f) {
            writeln!(
                out,
                "As {who}: the visible chain was checked: every part {who} may see against its seal, every hash and every link. Re-deciding the actions needs the hidden parts: that check is the owner's, and anyone's once the game is over."
            )?;
        }
    }
    let problems = reports.iter().filter(|r| r.problem.is_some()).count();
    if problems > 0 {
        return Err(CliError::Verify {
            problems,
            branches: reports.len(),
        });
    }
    Ok(())
}

fn serve(store: &Location, a: ServeArgs) -> Result<()> {
    let journal = Journal::open_at(store)?;
    match &a.admin_token_file {
        Some(file) => {
            let token = std::fs::read_to_string(file).map_err(|e| CliError::file(file, e))?;
            journal.set_admin_token(&token)?;
            println!("admin token: read from {}", file.display());
        }
        None => match journal.ensure_admin_token()? {
            Some(token) => {
                println!("admin token (shown once; the store keeps only its hash): {token}");
                println!("  it may import, list every game and take a backup");
            }
            None => println!(
                "admin token: set earlier (only its hash is kept); --admin-token-file replaces it"
            ),
        },
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(CliError::Serve)?;
    runtime.block_on(async move {
        // Bound first, so `--addr 127.0.0.1:0` is told and noted as the port
        // the system chose.
        let listener = tabletape_api::bind(a.addr).await.map_err(CliError::Serve)?;
        let addr = listener.local_addr().map_err(CliError::Serve)?;
        let (operator, token) = tabletape_api::Operator::draw().map_err(CliError::Serve)?;
        let pid = std::process::id();
        let Some(dir) = store.dir() else {
            // A database: other processes open it themselves, and other
            // servers may share it.
            println!("listening on http://{addr}");
            println!(
                "  on the database {store}, which other `tabletape serve` processes may share"
            );
            let app = tabletape_api::app_with_operator(journal, operator);
            return tabletape_api::serve_on(listener, app)
                .await
                .map_err(CliError::Serve);
        };
        // Another process that finds the store locked can then say who holds it,
        // and the CLI on this machine can go through the server instead.
        let holder = format!("tabletape serve, pid {pid}, on {addr}");
        tabletape_store::note_holder(dir, &holder).map_err(JournalError::from)?;
        if let Err(e) = served::write(dir, &ServeNote { pid, addr, token }) {
            tabletape_store::clear_holder(dir);
            return Err(CliError::file(&served::note_path(dir), e));
        }
        println!("listening on http://{addr}");
        println!(
            "  `tabletape --store {}` commands go through this server while it runs",
            dir.display()
        );
        let app = tabletape_api::app_with_operator(journal, operator);
        let served = tabletape_api::serve_on(listener, app)
            .await
            .map_err(CliError::Serve);
        served::remove(dir);
        tabletape_store::clear_holder(dir);
        served
    })
}

/// Moves every game from one store to another: a backup of the one streamed
/// into a restore of the other, so every token and hash comes through as it
/// was; then each game's branch heads are compared.
fn migrate(store: &Location, a: MigrateArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let from = a.from.unwrap_or_else(|| store.clone());
    if from == a.to {
        return Err(CliError::Served(format!(
            "--from and --to are the same store ({from})"
        )));
    }
    let opened = |at: &Location| -> Result<Journal> {
        if let Some(remote) = at.dir().and_then(Remote::find) {
            return Err(CliError::Served(format!(
                "the store at {at} is served by {}: stop it (Ctrl-C) before a migration",
                remote.server()
            )));
        }
        Ok(Journal::open_at(at)?)
    };
    let source = opened(&from)?;
    let destination = opened(&a.to)?;
    let bar = progress::counter(json, "migrating");
    bar.set_prefix("lines");
    let (restored, backed_up) = std::thread::scope(|scope| {
        let (sent, received) = std::sync::mpsc::sync_channel(16);
        let source = &source;
        let shown = bar.clone();
        let backup = scope.spawn(move || {
            let mut pipe =
                BufWriter::with_capacity(64 * 1024, progress::Writing::new(Pipe(sent), shown));
            source.backup(&mut pipe)
        });
        let restored = destination.restore(&mut BufReader::new(Piped {
            chunks: received,
            chunk: Vec::new(),
            at: 0,
        }));
        let backed_up = backup.join().expect("the backup thread does not panic");
        (restored, backed_up)
    });
    bar.finish_and_clear();
    // A failed restore stops reading, which fails the backup: its error is the one.
    let restored = restored?;
    backed_up?;
    for game in &restored.games {
        let heads = |j: &Journal| -> Result<Vec<(String, u64, String)>> {
            Ok(j.log()
                .branches(game)
                .map_err(JournalError::from)?
                .into_iter()
                .map(|b| (b.name, b.head_seq, b.head_hash))
                .collect())
        };
        let moved = heads(&destination)?;
        let kept = heads(&source)?;
        if moved.iter().any(|b| !kept.contains(b)) {
            return Err(CliError::Served(format!(
                "game `{game}` did not arrive whole: its branch heads differ ({kept:?} there, {moved:?} here)"
            )));
        }
    }
    if json {
        return print_json(
            out,
            &json!({"games": restored.games, "events": restored.events, "skipped": restored.skipped,
                    "from": from.to_string(), "to": a.to.to_string()}),
        );
    }
    writeln!(
        out,
        "moved {} ({}) from {from} to {}, every hash and token as it was",
        counted(restored.games.len() as u64, "game"),
        counted(restored.events, "event"),
        a.to
    )?;
    if !restored.skipped.is_empty() {
        writeln!(
            out,
            "skipped {} {} has already: {}",
            counted(restored.skipped.len() as u64, "game"),
            a.to,
            restored.skipped.join(", ")
        )?;
    }
    Ok(())
}

/// The writing end of a migration's stream: chunks to the restoring side.
struct Pipe(std::sync::mpsc::SyncSender<Vec<u8>>);

impl Write for Pipe {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the restore stopped"))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The reading end of a migration's stream.
struct Piped {
    chunks: std::sync::mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl io::Read for Piped {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.chunks.recv() {
                Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                Err(_) => return Ok(0), // the backup is done (or failed: it says so)
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn backup(table: &dyn Table, a: BackupArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let bar = progress::counter(json, "backing up");
    bar.set_prefix("lines");
    let Some(path) = &a.out else {
        let mut buffered = BufWriter::new(progress::Writing::new(out, bar.clone()));
        let done = table.backup(&mut buffered);
        bar.finish_and_clear();
        done?;
        buffered.flush()?;
        return Ok(());
    };
    let file = private_file(path)?;
    let mut writer = BufWriter::new(progress::Writing::new(file, bar.clone()));
    let done = table.backup(&mut writer);
    bar.finish_and_clear();
    let done = done?;
    let file = writer
        .into_inner()
        .map_err(|e| CliError::file(path, e.into_error()))?
        .into_inner();
    file.sync_all().map_err(|e| CliError::file(path, e))?;
    if json {
        return print_json(
            out,
            &json!({"games": done.games, "events": done.events, "out": path}),
        );
    }
    writeln!(
        out,
        "backed up {} ({}) to {}",
        counted(done.games, "game"),
        counted(done.events, "event"),
        path.display()
    )?;
    Ok(())
}

fn restore(table: &dyn Table, a: RestoreArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let (mut read, bar) = input_shown(&a.file, json, "restoring")?;
    let restored = table.restore(&mut *read);
    bar.finish_and_clear();
    let restored = restored?;
    if json {
        return print_json(out, &restored);
    }
    writeln!(
        out,
        "restored {} ({}), every token as it was",
        counted(restored.games.len() as u64, "game"),
        counted(restored.events, "event")
    )?;
    if !restored.skipped.is_empty() {
        writeln!(
            out,
            "skipped {} the store has already: {}",
            counted(restored.skipped.len() as u64, "game"),
            restored.skipped.join(", ")
        )?;
    }
    Ok(())
}

fn undo(table: &dyn Table, a: UndoArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let undone = table.undo(&a.game)?;
    if json {
        return print_json(out, &undone);
    }
    writeln!(
        out,
        "took back seq {} of `{}`; play goes on from `{}` (head seq {})",
        undone.seq, undone.taken_back, undone.current, undone.head_seq
    )?;
    Ok(())
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
