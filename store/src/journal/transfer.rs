//! Moving games in and out: JSON Lines export (for the owner, or anyone once
//! every exported branch is over) and the strict import that re-decides a
//! history branch by branch before any of it becomes visible.

use super::*;

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
                for b in self.log.branches(game)? {
                    let from = b.fork_seq.map_or(1, |f| f + 1);
                    parts.push((b.name, from));
                }
            }
        }
        let mut written = 0;
        for (name, from) in parts {
            let head = self.record(game, &name)?.head_seq;
            let mut next = from;
            while next <= head {
                let upto = head.min(next + FOLD_CHUNK - 1);
                for event in self.log.read(game, &name, next, Some(upto))? {
                    let line = export_line(&event);
                    writeln!(out, "{line}").map_err(|e| io_error("export output", e))?;
                    written += 1;
                }
                next = upto + 1;
            }
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
    /// The input is streamed: events are written `IMPORT_CHUNK` (4,096) at a time
    /// and the game becomes visible only once all are in. Every branch is
    /// folded once (`main` on the way in), which leaves a snapshot every
    /// `snapshot_every` events as writes do.
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
            .importing
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let mut staged = None;
        let imported = self.import_staged(input, &mut staged, kept);
        if imported.is_err() {
            if let Some(game) = staged {
                if let Err(e) = self.log.discard_import(&game) {
                    tracing::warn!(game, "leftovers of a failed import not removed: {e}");
                }
            }
        }
        let (imported, main) = imported?;
        drop(importing);
        match main {
            Some(main) => {
                self.note_over(&imported.game, MAIN_BRANCH, main.is_over());
                self.cache_put(&imported.game, MAIN_BRANCH, Arc::new(main))
            }
            None => tracing::warn!(game = imported.game, "imported but `main` cannot fold"),
        }
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
    /// may have been written, so a failure can remove them. Folds `main` as
    /// it goes, staging its snapshots, and returns that fold (`None` if the
    /// history does not fold: that is for `verify` to report, not import).
    fn import_staged(
        &self,
        input: &mut dyn BufRead,
        staged: &mut Option<String>,
        kept: Option<&GameMeta>,
    ) -> Result<(Imported, Option<Game>), JournalError> {
        let mut main: Option<Game> = None;
        // The game's creation, once read.
        let mut creation: Option<(String, GameCreated, u64)> = None;
        // Every branch so far, its head being its last event read.
        let mut records: Vec<BranchRecord> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut pending: Vec<Event> = Vec::with_capacity(IMPORT_CHUNK);
        let mut count = 0u64;
        let mut line = String::new();
        let mut line_no = 0;
        loop {
            line.clear();
            line_no += 1;
            if input.read_line(&mut line).map_err(|e| match e.kind() {
                std::io::ErrorKind::InvalidData => JournalError::BadInput(format!(
                    "import line {line_no}: not UTF-8 text (an export is UTF-8 JSON Lines)"
                )),
                _ => io_error("import input", e),
            })? == 0
            {
                break;
            }
            let text = line.trim_end_matches(['\n', '\r']);
            if text.trim().is_empty() {
                continue;
            }
            let bad = |why: String| JournalError::BadInput(format!("import line {line_no}: {why}"));
            let event = decode_event(text.as_bytes()).map_err(bad)?;
            if event_hash(&event) != event.hash {
                return Err(bad(format!(
                    "seq {} of branch `{}`: the hash does not match the event's content",
                    event.seq, event.branch
                )));
            }
            let game = match &creation {
                None => {
                    if event.seq != 1 || event.branch != MAIN_BRANCH || !event.prev_hash.is_empty()
                    {
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
                    main = Some(Game::from_first(&event).map_err(|e| bad(e.to_string()))?);
                    if self.log.game(&event.game)?.is_some() {
                        return Err(bad(format!(
                            "game `{}` already exists in this store",
                            event.game
                        )));
                    }
                    records.push(BranchRecord {
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
                    index.insert(MAIN_BRANCH.to_string(), 0);
                    let created = created_of(&event)?.clone();
                    creation = Some((event.game.clone(), created, event.recorded_at_ms));
                    *staged = Some(event.game.clone());
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
            if !index.contains_key(&event.branch) {
                // The fork point is among the events written so far.
                self.log.import_events(&game, &pending)?;
                pending.clear();
                let parent = self.fork_point(&game, &records, &event)?.ok_or_else(|| {
                    bad(format!(
                        "branch `{}` starts at seq {} but no earlier event has its prev_hash",
                        event.branch, event.seq
                    ))
                })?;
                index.insert(event.branch.clone(), records.len());
                records.push(BranchRecord {
                    name: event.branch.clone(),
                    parent: Some(parent),
                    fork_seq: Some(event.seq - 1),
                    created_at_ms: event.recorded_at_ms,
                    reseed: match event.body {
                        Body::Reseeded { seed } => Some(seed),
                        _ => None,
                    },
                    order: records.len() as u64,
                    head_seq: event.seq - 1,
                    head_hash: event.prev_hash.clone(),
                    taken_back: false,
                });
            }
            let head = &mut records[index[&event.branch]];
            if event.seq != head.head_seq + 1 || event.prev_hash != head.head_hash {
                return Err(bad(format!(
                    "seq {} of branch `{}` does not follow seq {} of that branch (a gap or a broken chain)",
                    event.seq, event.branch, head.head_seq
                )));
            }
            head.head_seq = event.seq;
            head.head_hash = event.hash.clone();
            if event.branch == MAIN_BRANCH && event.seq > 1 {
                if let Some(folded) = main.as_mut() {
                    if folded.apply(&event).is_err() {
                        main = None;
                    } else if self.snapshot_due(event.seq) {
                        self.log
                            .import_snapshot(&game, MAIN_BRANCH, &folded.snapshot())?;
                    }
                }
            }
            pending.push(event);
            count += 1;
            if pending.len() >= IMPORT_CHUNK {
                self.log.import_events(&game, &pending)?;
                pending.clear();
            }
        }
        let Some((game, created, created_at_ms)) = creation else {
            return Err(JournalError::BadInput(
                "import: the input holds no events".into(),
            ));
        };
        self.log.import_events(&game, &pending)?;
        drop(pending);
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
        // Nothing becomes visible until every branch re-decides to what it
        // says: a history the rules never produced is refused at its first
        // bad seq, whatever its hashes.
        self.log.import_branches(&game, &records)?;
        // Each line's hash was checked as it was read: the check that
        // follows reads the written events back for the rest.
        let mut whole = super::verify::Whole::hashed_on_the_way_in();
        for record in &records {
            let staged = BranchRecord {
                order: 0,
                ..record.clone()
            };
            if let Some(problem) = self.verify_branch(&game, &staged, &mut whole)?.problem {
                return Err(JournalError::BadInput(format!(
                    "import: branch `{}` seq {}: {}",
                    record.name, problem.seq, problem.what
                )));
            }
        }
        self.log.commit_import(&meta)?;
        let imported = Imported {
            game,
            events: count,
            branches: records.into_iter().map(|r| r.name).collect(),
            owner_token: owner_token.unwrap_or_default(),
            seats,
        };
        Ok((imported, main))
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
                let event = self.log.own_event(game, &r.name, at)?;
                if event.is_some_and(|e| e.hash == first.prev_hash) {
                    return Ok(Some(r.name.clone()));
                }
            }
        }
        Ok(None)
    }
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
