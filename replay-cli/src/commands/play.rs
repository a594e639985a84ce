//! Playing a game: start one, list what may be done, act (one action, a
//! file of them, or a game played at the terminal), fork, take back.

use super::*;

pub(super) fn new(table: &dyn Table, a: NewArgs, out: &mut dyn Write, json: bool) -> Result<()> {
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

pub(super) fn legal(
    table: &dyn Table,
    a: LegalArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
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
        if let Some(says) = &l.says {
            writeln!(out, "    {says}")?;
        }
        if let Some(question) = &l.confirm {
            writeln!(out, "    asks the table first: {question}")?;
        }
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

pub(super) fn act(table: &dyn Table, a: ActArgs, out: &mut dyn Write, json: bool) -> Result<()> {
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
pub(super) fn play(
    table: &dyn Table,
    a: PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let seat = seat_of(table, &a.game, a.seat.as_deref())?;
    let viewer = a.seat.clone();
    let show = |out: &mut dyn Write| -> Result<()> {
        let branch = Some(table.line(&a.game, a.branch.clone())?);
        super::read::state(
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

pub(super) fn fork(table: &dyn Table, a: ForkArgs, out: &mut dyn Write, json: bool) -> Result<()> {
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

pub(super) fn undo(table: &dyn Table, a: UndoArgs, out: &mut dyn Write, json: bool) -> Result<()> {
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
