//! Moving games in and out: JSON Lines export (for the owner, or anyone once
//! every exported branch is over) and the strict import that re-decides a
//! history branch by branch before any of it becomes visible.

use std::ops::ControlFlow;
use std::sync::mpsc;

use super::verify::{LineCheck, Whole};
use super::*;
use crate::log::{canonical_facts, read_ahead};
use tabletape_events::FoldForm;

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Imported {
    pub game: String,
    pub events: u64,
    pub branches: Vec<String>,
    /// Fresh tokens for the imported game; empty when a restore kept the
    /// game's own (see `backup`).
    pub owner_token: String,
    pub seats: Vec<SeatToken>,
}

impl Journal {
    /// Refuses an export to `viewer` unless it is the owner or the game is
    /// over (its line in play has ended): the log holds every seat's
    /// secrets, the seed and every salt, and every line shares the game's
    /// creation, so no branch of a game in play is anyone else's to export.
    pub fn check_export(
        &self,
        game: &str,
        branch: Option<&str>,
        viewer: Viewer,
    ) -> Result<(), JournalError> {
        if let Some(b) = branch {
            self.record(game, b)?;
        }
        if self.effective_viewer(game, viewer)? == Viewer::Owner {
            return Ok(());
        }
        Err(JournalError::Forbidden(format!(
            "game `{game}` is still in play and its log holds every player's secrets: only the owner may export it before the game ends"
        )))
    }

    /// Writes JSON Lines, one stored event per line, in an order `import` can
    /// replay: with a branch, its whole linear history; without, `main`'s
    /// history and then each other branch's own events in creation order.
    /// A branch with no events of its own has no line, so it does not survive
    /// an export/import and its forks come back as forks of its parent (see
    /// the module docs). Returns the number of events written.
    pub fn export(
        &self,
        game: &str,
        branch: Option<&str>,
        out: &mut dyn Write,
    ) -> Result<u64, JournalError> {
        self.meta(game)?;
        let mut parts: Vec<(String, u64)> = Vec::new();
        match branch {
            Some(b) => {
                self.record(game, b)?;
                parts.push((b.to_string(), 1));
            }
            None => {
                for b in self.shared.log.branches(game)? {
                    let from = b.fork_seq.map_or(1, |f| f + 1);
                    parts.push((b.name, from));
                }
            }
        }
        let mut written = 0;
        for (name, from) in parts {
            let head = self.record(game, &name)?.head_seq;
            read_ahead(
                (from, head, self.read_chunk),
                |lo, hi| self.shared.log.read(game, &name, lo, Some(hi)),
                |events| -> Result<_, JournalError> {
                    for event in events? {
                        let line = export_line(&event);
                        writeln!(out, "{line}").map_err(|e| io_error("export output", e))?;
                        written += 1;
                    }
                    Ok(ControlFlow::Continue(()))
                },
            )?;
        }
        out.flush().map_err(|e| io_error("export output", e))?;
        Ok(written)
    }

    /// Recreates an exported game under its own id (which must be free),
    /// checking every hash and link, and issues fresh tokens. Branches are
    /// found by following each branch's first event's `prev_hash` to the
    /// event it forked from; the parent recorded is the branch owning that
    /// event (so a branch with no events of its own is not recreated, and
    /// its forks come back as forks of its parent: see the module docs).
    ///
    /// The input is streamed in one pass: each line is parsed and hashed
    /// once, `main` is checked (every action decided again) and folded as
    /// it comes in, events are written `IMPORT_CHUNK` (1,024) at a time, and
    /// the game becomes visible only once all are in and every other branch
    /// is checked too. Every branch is folded once, which leaves a snapshot
    /// every `snapshot_every` events as writes do.
    pub fn import(&self, input: &mut dyn BufRead) -> Result<Imported, JournalError> {
        self.import_keeping(input, None)
    }

    /// [`Journal::import`], keeping the tokens of `kept` (a backup's record
    /// of the same game) instead of issuing fresh ones: the returned tokens
    /// are then empty, since only their hashes were ever stored.
    pub(crate) fn import_keeping(
        &self,
        input: &mut dyn BufRead,
        kept: Option<&GameMeta>,
    ) -> Result<Imported, JournalError> {
        // Imports are rare and the store is one process's: one at a time.
        let importing = self
            .shared
            .importing
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let mut staged = None;
        let imported = self.import_staged(input, &mut staged, kept);
        if imported.is_err() {
            if let Some(game) = staged {
                if let Err(e) = self.shared.log.discard_import(&game) {
                    tracing::warn!(game, "leftovers of a failed import not removed: {e}");
                }
            }
        }
        let (imported, main) = imported?;
        drop(importing);
        self.note_over(&imported.game, MAIN_BRANCH, main.is_over());
        self.cache_put(&imported.game, MAIN_BRANCH, Arc::new(main));
        // `main` was folded on the way in; the other branches fold from the
        // snapshot at or before their fork, writing their own snapshots.
        for branch in imported.branches.iter().filter(|b| *b != MAIN_BRANCH) {
            if let Err(e) = self.fold(&imported.game, branch, None) {
                tracing::warn!(
                    game = imported.game,
                    branch,
                    "imported but cannot fold: {e}"
                );
            }
        }
        Ok(imported)
    }

    /// The import itself; sets `staged` to the game's id once events of it
    /// may have been written, so a failure can remove them. Three threads
    /// share the work: lines are read here and parsed and hashed on a second
    /// thread, batches ahead; `main` is checked and folded here as it comes
    /// in (every action decided again), staging its snapshots; a third
    /// writes the events, chunks behind. The other branches are checked once
    /// all is written, from the events they share with `main` on. Returns
    /// `main`'s fold.
    fn import_staged(
        &self,
        input: &mut dyn BufRead,
        staged: &mut Option<String>,
        kept: Option<&GameMeta>,
    ) -> Result<(Imported, Game), JournalError> {
        let (lines, to_parser) = mpsc::sync_channel::<Vec<Line>>(PARSE_AHEAD);
        let (parsed, from_parser) = mpsc::sync_channel::<Vec<Parsed>>(PARSE_AHEAD);
        std::thread::scope(|scope| {
            scope.spawn(move || {
                for batch in to_parser {
                    let batch = batch.into_iter().filter_map(parse_line).collect();
                    if parsed.send(batch).is_err() {
                        break;
                    }
                }
            });
            let (chunks, to_writer) = mpsc::sync_channel::<(String, Vec<Staged>)>(WRITE_AHEAD);
            let (written, from_writer) = mpsc::channel();
            let log = &self.shared.log;
            scope.spawn(move || {
                for (game, chunk) in to_writer {
                    let wrote = log.import_events(&game, &chunk);
                    drop(chunk);
                    if written.send(wrote).is_err() {
                        break;
                    }
                }
            });
            let writer = Writer {
                chunks,
                written: from_writer,
                outstanding: 0,
            };
            let mut importing = Importing::new(self, staged, writer);
            let mut line_no = 0;
            let mut reading = true;
            let mut in_flight = 0;
            loop {
                while reading && in_flight < PARSE_AHEAD {
                    let batch = read_lines(input, &mut line_no);
                    reading = matches!(batch.last(), Some(Line::Text(..)));
                    if batch.is_empty() {
                        break;
                    }
                    lines.send(batch).expect("the parser outlives the reader");
                    in_flight += 1;
                }
                if in_flight == 0 {
                    break;
                }
                let batch = from_parser.recv().expect("the parser answers every batch");
                in_flight -= 1;
                for (line_no, read) in batch {
                    let (event, json) = read?;
                    importing.take(line_no, event, json)?;
                }
            }
            drop(lines);
            importing.finish(kept)
        })
    }
    /// The branch owning the event `first` (a new branch's first event)
    /// chains to: the one whose own event at the seq before has that hash.
    fn fork_point(
        &self,
        game: &str,
        records: &[BranchRecord],
        first: &Event,
    ) -> Result<Option<String>, JournalError> {
        let Some(at) = first.seq.checked_sub(1).filter(|&at| at > 0) else {
            return Ok(None);
        };
        for r in records {
            // Only a branch's own events are stored under its name.
            if r.fork_seq.unwrap_or(0) < at && at <= r.head_seq {
                let event = self.shared.log.own_event(game, &r.name, at)?;
                if event.is_some_and(|e| e.hash == first.prev_hash) {
                    return Ok(Some(r.name.clone()));
                }
            }
        }
        Ok(None)
    }
}

/// Lines read ahead of the one being checked, in batches, and batches parsed
/// ahead; and chunks of checked events waiting to be written. Deep enough
/// that none of the three threads waits on another's burst: a 200,000-event
/// import took 4.1-4.2 s here against 4.6 s with 2 and 1, in less memory
/// with chunks of 1,024 than of 4,096 (200 against 300 MB).
const PARSE_AHEAD: usize = 8;
const WRITE_AHEAD: usize = 4;
const LINES_PER_BATCH: usize = 256;

/// A line as read: its number and text, or why it could not be read (the
/// last of its batch, and of the input).
enum Line {
    Text(usize, String),
    Unreadable(JournalError),
}

/// A line parsed and hashed: its number, and the event with its text when
/// that reads as it is (see [`Staged`]), or why not.
type Parsed = (usize, Result<(Event, Option<String>), JournalError>);

/// Up to [`LINES_PER_BATCH`] lines; fewer at the end of the input, or at a
/// line that cannot be read.
fn read_lines(input: &mut dyn BufRead, line_no: &mut usize) -> Vec<Line> {
    let mut batch = Vec::with_capacity(LINES_PER_BATCH);
    while batch.len() < LINES_PER_BATCH {
        let mut text = String::new();
        *line_no += 1;
        match input.read_line(&mut text) {
            Ok(0) => break,
            Ok(_) => batch.push(Line::Text(*line_no, text)),
            Err(e) => {
                batch.push(Line::Unreadable(match e.kind() {
                    std::io::ErrorKind::InvalidData => JournalError::BadInput(format!(
                        "import line {line_no}: not UTF-8 text (an export is UTF-8 JSON Lines)"
                    )),
                    _ => io_error("import input", e),
                }));
                break;
            }
        }
    }
    batch
}

/// Parses a line into its event and checks its hash against its content;
/// a blank line is skipped.
fn parse_line(line: Line) -> Option<Parsed> {
    let (line_no, text) = match line {
        Line::Text(line_no, text) => (line_no, text),
        Line::Unreadable(e) => return Some((0, Err(e))),
    };
    let text = text.trim_end_matches(['\n', '\r']);
    if text.trim().is_empty() {
        return None;
    }
    let bad = |why: String| JournalError::BadInput(format!("import line {line_no}: {why}"));
    let parsed =
        decode_event_as_read(text.as_bytes())
            .map_err(bad)
            .and_then(|(mut event, as_read)| {
                if event_hash(&event) == event.hash {
                    return Ok((event, as_read.then(|| text.trim().to_string())));
                }
                // Facts written in another form than the store's (keys in
                // another order, spaced) hash as the canonical text they are.
                if canonical_facts(&mut event) && event_hash(&event) == event.hash {
                    return Ok((event, None));
                }
                Err(bad(format!(
                    "seq {} of branch `{}`: the hash does not match the event's content",
                    event.seq, event.branch
                )))
            });
    Some((line_no, parsed))
}

/// An import under way: the branches so far and `main`'s check.
struct Importing<'j> {
    journal: &'j Journal,
    staged: &'j mut Option<String>,
    /// The game's creation, once read.
    creation: Option<(String, GameCreated, u64)>,
    /// The game's kind, once its creation is read.
    kind: Option<&'static dyn tabletape_engine::DynRules>,
    /// Every branch so far, its head being its last event read.
    records: Vec<BranchRecord>,
    index: HashMap<String, usize>,
    /// Events read and not yet sent to be written.
    pending: Vec<Staged>,
    writer: Writer,
    count: u64,
    /// `main`, checked and folded as it comes in.
    main: LineCheck,
    whole: Whole,
}

impl<'j> Importing<'j> {
    fn new(journal: &'j Journal, staged: &'j mut Option<String>, writer: Writer) -> Importing<'j> {
        Importing {
            journal,
            staged,
            creation: None,
            kind: None,
            records: Vec::new(),
            index: HashMap::new(),
            pending: Vec::with_capacity(IMPORT_CHUNK),
            writer,
            count: 0,
            main: LineCheck::new(""),
            // Each line's hash is checked as it is parsed.
            whole: Whole::hashed_on_the_way_in(),
        }
    }

    /// Takes the next event, read from line `line_no` (`json`, when it
    /// reads as it is) and its hash checked.
    fn take(
        &mut self,
        line_no: usize,
        mut event: Event,
        json: Option<String>,
    ) -> Result<(), JournalError> {
        let bad = |why: String| JournalError::BadInput(format!("import line {line_no}: {why}"));
        let log = &self.journal.shared.log;
        let game = match &self.creation {
            None => {
                if event.seq != 1 || event.branch != MAIN_BRANCH || !event.prev_hash.is_empty() {
                    return Err(bad(
                        "the first line must be the game's creation: seq 1 of `main`".into(),
                    ));
                }
                check_game_id(&event.game).map_err(|e| bad(e.to_string()))?;
                let created = created_of(&event)?;
                check_players(&created.players).map_err(bad)?;
                if check_title(created.title.clone()).map_err(bad)? != created.title {
                    return Err(bad("title: a stored title is already trimmed".into()));
                }
                Game::from_first(&event).map_err(|e| bad(e.to_string()))?;
                if log.game(&event.game)?.is_some() {
                    return Err(bad(format!(
                        "game `{}` already exists in this store",
                        event.game
                    )));
                }
                self.records.push(BranchRecord {
                    name: MAIN_BRANCH.to_string(),
                    parent: None,
                    fork_seq: None,
                    created_at_ms: event.recorded_at_ms,
                    reseed: None,
                    order: 0,
                    head_seq: 0,
                    head_hash: String::new(),
                    taken_back: false,
                });
                self.index.insert(MAIN_BRANCH.to_string(), 0);
                let created = created_of(&event)?.clone();
                self.kind = tabletape_engine::kind(&created.kind);
                self.creation = Some((event.game.clone(), created, event.recorded_at_ms));
                self.main = LineCheck::new(&event.game);
                log.begin_import(&event.game)?;
                *self.staged = Some(event.game.clone());
                event.game.clone()
            }
            Some((game, ..)) if *game != event.game => {
                return Err(bad(format!(
                    "event of game `{}` in the log of `{game}`",
                    event.game
                )));
            }
            Some((game, ..)) => game.clone(),
        };
        if !self.index.contains_key(&event.branch) {
            // The fork point is among the events written so far.
            self.writer.write(&game, &mut self.pending)?;
            self.writer.flush()?;
            let parent = self
                .journal
                .fork_point(&game, &self.records, &event)?
                .ok_or_else(|| {
                    bad(format!(
                        "branch `{}` starts at seq {} but no earlier event has its prev_hash",
                        event.branch, event.seq
                    ))
                })?;
            self.index.insert(event.branch.clone(), self.records.len());
            self.records.push(BranchRecord {
                name: event.branch.clone(),
                parent: Some(parent),
                fork_seq: Some(event.seq - 1),
                created_at_ms: event.recorded_at_ms,
                reseed: match event.body {
                    Body::Reseeded { seed } => Some(seed),
                    _ => None,
                },
                order: self.records.len() as u64,
                head_seq: event.seq - 1,
                head_hash: event.prev_hash.clone(),
                taken_back: false,
            });
        }
        let head = &mut self.records[self.index[&event.branch]];
        if event.seq != head.head_seq + 1 || event.prev_hash != head.head_hash {
            return Err(bad(format!(
                "seq {} of branch `{}` does not follow seq {} of that branch (a gap or a broken chain)",
                event.seq, event.branch, head.head_seq
            )));
        }
        head.head_seq = event.seq;
        head.head_hash.clone_from(&event.hash);
        if event.branch == MAIN_BRANCH {
            // Refused at its first bad seq, whatever its hashes: a history
            // the rules never produced does not come in.
            let form = self
                .main
                .check(&event, &mut self.whole)
                .map_err(|problem| refused(MAIN_BRANCH, problem))?;
            if let (Body::ActionAccepted(accepted), Some(_)) = (&mut event.body, form.get()) {
                accepted.fold_form = form;
            }
            if event.seq > 1 && self.journal.snapshot_due(event.seq) {
                if let Some(folded) = self.main.folded() {
                    log.import_snapshot(&game, MAIN_BRANCH, &folded.snapshot())?;
                }
            }
        } else if let (Body::ActionAccepted(accepted), Some(kind)) = (&mut event.body, self.kind) {
            // Another branch is checked once all is written, so its facts'
            // fold form is made from them now: equal to what the rules
            // decide, or the check refuses the import and nothing stays.
            if let Some(form) = kind.fold_form_of(&accepted.facts) {
                accepted.fold_form = FoldForm::new(form);
            }
        }
        self.pending.push(Staged { event, json });
        self.count += 1;
        if self.pending.len() >= IMPORT_CHUNK {
            self.writer.write(&game, &mut self.pending)?;
        }
        Ok(())
    }

    /// Writes what is left, checks the other branches and makes the game's
    /// record (with `kept`'s tokens, if given); nothing is visible before.
    fn finish(mut self, kept: Option<&GameMeta>) -> Result<(Imported, Game), JournalError> {
        let log = &self.journal.shared.log;
        let Some((game, created, created_at_ms)) = self.creation.take() else {
            return Err(JournalError::BadInput(
                "import: the input holds no events".into(),
            ));
        };
        self.writer.write(&game, &mut self.pending)?;
        self.writer.flush()?;
        drop(self.writer);
        let kept = kept.filter(|k| k.game == game);
        let fresh = || kept.is_none().then(new_token).transpose();
        let owner_token = fresh()?;
        let seats = match &owner_token {
            Some(owner) => seat_tokens(owner, &created.players),
            None => Vec::new(),
        };
        let meta = match kept {
            Some(kept) => GameMeta {
                over: false,
                ..kept.clone()
            },
            None => GameMeta {
                title: created.title.clone(),
                game: game.clone(),
                kind: created.kind.clone(),
                players: created.players.clone(),
                created_at_ms,
                public: created.public,
                owner_token_hash: token_hash(owner_token.as_deref().unwrap_or_default()),
                seat_token_hashes: seats.iter().map(|s| token_hash(&s.token)).collect(),
                over: false,
                current: None,
            },
        };
        self.main
            .end(&self.records[0])
            .map_err(|problem| refused(MAIN_BRANCH, problem))?;
        log.import_branches(&game, &self.records)?;
        // Every other branch re-decides to what it says before any of it
        // becomes visible, read back from its fork's past on (which `main`'s
        // check already holds as whole).
        for record in self.records.iter().skip(1) {
            let staged = BranchRecord {
                order: 0,
                ..record.clone()
            };
            let checked = self
                .journal
                .verify_branch(&game, &staged, &mut self.whole)?;
            if let Some(problem) = checked.problem {
                return Err(refused(&record.name, problem));
            }
        }
        log.commit_import(&meta)?;
        self.journal.forget_game(&game);
        let imported = Imported {
            game,
            events: self.count,
            branches: self.records.into_iter().map(|r| r.name).collect(),
            owner_token: owner_token.unwrap_or_default(),
            seats,
        };
        let main = self
            .main
            .into_folded()
            .expect("`main`'s creation was checked, so it has a fold");
        Ok((imported, main))
    }
}

/// The import's end of the thread that writes its events.
struct Writer {
    chunks: mpsc::SyncSender<(String, Vec<Staged>)>,
    written: mpsc::Receiver<Result<(), StoreError>>,
    /// Chunks sent whose writing is not yet heard of.
    outstanding: usize,
}

impl Writer {
    /// Sends `pending` to be written (leaving it empty), first answering
    /// for the chunks written meanwhile.
    fn write(&mut self, game: &str, pending: &mut Vec<Staged>) -> Result<(), JournalError> {
        while let Ok(wrote) = self.written.try_recv() {
            self.outstanding -= 1;
            wrote?;
        }
        if pending.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(pending, Vec::with_capacity(IMPORT_CHUNK));
        self.chunks
            .send((game.to_string(), chunk))
            .expect("the writer outlives the import");
        self.outstanding += 1;
        Ok(())
    }

    /// Waits until every chunk sent is written.
    fn flush(&mut self) -> Result<(), JournalError> {
        while self.outstanding > 0 {
            let wrote = self.written.recv().expect("the writer answers every chunk");
            self.outstanding -= 1;
            wrote?;
        }
        Ok(())
    }
}

/// An import refused at a branch's first bad event.
fn refused(branch: &str, problem: Problem) -> JournalError {
    JournalError::BadInput(format!(
        "import: branch `{branch}` seq {}: {}",
        problem.seq, problem.what
    ))
}

/// One event as a line of an export. JSON allows U+2028, U+2029 and U+0085
/// raw inside strings, but readers that split lines on them would cut the
/// event in two, so they are written escaped (the value, and so the hash,
/// is the same).
pub fn export_line(event: &Event) -> String {
    let line = serde_json::to_string(event).expect("events serialize");
    if !line.contains(['\u{2028}', '\u{2029}', '\u{85}']) {
        return line;
    }
    line.replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
        .replace('\u{85}', "\\u0085")
}
