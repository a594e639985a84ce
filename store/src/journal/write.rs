//! The journal's writes of play: creating a game, and recording actions
//! one at a time or in a batch (decide against the folded head, then
//! append; a retry with the same key answers the first receipt).

use super::*;
use tabletape_engine::hex_text;

impl Journal {
    /// The same game again: a new game with `game`'s kind, players, options,
    /// dice, content pack, visibility and title, a fresh seed and fresh
    /// tokens. Only the owner starts one (it hands out new seat links).
    pub fn rematch(&self, game: &str, by: Access) -> Result<Created, JournalError> {
        if by != Access::Owner {
            return Err(JournalError::Forbidden(
                "a rematch is started with the owner's token: it hands out new seat links".into(),
            ));
        }
        let first = self.shared.log.read(game, &main_branch(), 1, Some(1))?;
        let created = created_of(&first[0])?;
        let kind = tabletape_engine::kind(&created.kind).ok_or_else(|| {
            JournalError::BadInput(EngineError::UnknownKind(created.kind.clone()).to_string())
        })?;
        // The table's own pack goes again; the bundled one is taken fresh.
        let own = self.bundled_pack(kind).ok().as_ref() != Some(&created.pack);
        self.create(NewGame {
            kind: created.kind.clone(),
            players: created.players.clone(),
            seed: None,
            dice: created.dice,
            options: created.options.clone(),
            // The pack the game was played with, whole: not laid over
            // today's bundled pack again.
            pack: own.then(|| {
                let mut json = created.pack.clone();
                if let Some(o) = json.as_object_mut() {
                    o.insert(tabletape_engine::pack::WHOLE.into(), true.into());
                }
                PackSource {
                    file: format!("the pack of {game}"),
                    json,
                }
            }),
            public: created.public,
            title: created.title.clone(),
            id: None,
        })
    }

    /// Starts a game: checks kind, options, pack and players by laying the
    /// game out before anything is written, then writes its creation at seq 1.
    pub fn create(&self, req: NewGame) -> Result<Created, JournalError> {
        let kind = tabletape_engine::kind(&req.kind).ok_or_else(|| {
            JournalError::BadInput(EngineError::UnknownKind(req.kind.clone()).to_string())
        })?;
        check_players(&req.players).map_err(JournalError::BadInput)?;
        // What is stored is the kind's own reading of the pack and options,
        // written back: exactly what every later read gets.
        // A table's pack is laid over the bundled one (unless it says it is
        // whole), and an error in it is told by its place in the table's file.
        let pack = match &req.pack {
            Some(source) => tabletape_engine::pack::read(kind, &source.json, &source.file),
            None => self.bundled_pack(kind),
        }
        .map_err(|e| JournalError::unfit("content.pack", format!("content pack {e}")))?;
        let options = kind
            .canonical_options(&req.options)
            .map_err(|e| JournalError::unfit("game.options", e.to_string()))?;
        let seed = match req.seed {
            Some(seed) => seed,
            None => random_seed()?,
        };
        let created = GameCreated {
            title: check_title(req.title).map_err(JournalError::BadInput)?,
            kind: req.kind,
            players: req.players,
            seed,
            dice: req.dice,
            options,
            pack,
            public: req.public,
            rules_version: Some(kind.rules_version()),
            chance_version: Some(tabletape_engine::dice::CHANCE_VERSION),
        };
        let started = Game::start(&created).map_err(|e| match &e {
            EngineError::Setup(broken) => JournalError::unfit(&broken.rule, e.to_string()),
            _ => JournalError::unfit("game.setup", e.to_string()),
        })?;
        let owner_token = new_token()?;
        let seats = seat_tokens(&owner_token, &created.players);
        let narration = creation_lines(&created, Viewer::Owner);
        let created_at_ms = now_ms();
        let draft = Draft::new(
            created_at_ms,
            Actor::Owner,
            Body::GameCreated(created.clone()),
        )?;
        if let Some(id) = &req.id {
            check_game_id(id).map_err(|e| match is_route_word(id) {
                true => JournalError::unfit("game.id", e.to_string()),
                false => JournalError::BadInput(e.to_string()),
            })?;
        }
        for _ in 0..RACE_RETRIES {
            let game = match &req.id {
                Some(id) => id.clone(),
                None => format!("g-{}", hex_text::of(random::<4>()?)),
            };
            let meta = GameMeta {
                title: created.title.clone(),
                game: game.clone(),
                kind: created.kind.clone(),
                players: created.players.clone(),
                created_at_ms,
                public: created.public,
                owner_token_hash: token_hash(&owner_token),
                seat_token_hashes: seats.iter().map(|s| token_hash(&s.token)).collect(),
                over: false,
                current: None,
            };
            match self.shared.log.create_game(&meta, draft.clone()) {
                Err(StoreError::GameExists(_)) if req.id.is_some() => {
                    return Err(JournalError::unfit(
                        "game.id",
                        format!("game id `{game}` is taken: choose another, or leave `id` out for a random one"),
                    ))
                }
                // Ids are random: a taken one is simply drawn again.
                Err(StoreError::GameExists(_)) => continue,
                Err(e) => return Err(e.into()),
                Ok(_) => {
                    self.forget_game(&game);
                    self.cache_put(&game, MAIN_BRANCH, Arc::new(started));
                    return Ok(Created {
                        game,
                        seed,
                        owner_token,
                        seats,
                        seq: 1,
                        narration,
                    });
                }
            }
        }
        Err(JournalError::Store(StoreError::Random(
            "could not draw an unused game id".into(),
        )))
    }

    /// Records one action: decides it against the folded branch and appends
    /// it. A rejection writes nothing; a known idempotency key returns the
    /// original receipt with `retried` set.
    pub fn act(&self, game: &str, req: ActRequest) -> Result<Acted, JournalError> {
        let branch = req.branch.as_str();
        let by = acting_seat(req.actor, req.by)?;
        check_no_placeholder(&req.action)?;
        if let Some(key) = &req.idempotency_key {
            check_idempotency_key(key)?;
        }
        // A journal that made this branch's head needs no read before its
        // append: the fold and the head's hash are at hand, and the log
        // checks both, and that the line is still open, as it appends.
        let mut warm = self.warm_head(game, branch, req.expect_seq);
        let mut record = None;
        let seats = match &warm {
            Some((_, written)) => Ok(written.seats),
            None => self.meta(game).and_then(|meta| {
                // Read once here and folded from below: no second read of the head.
                let read = self.branch_record(game, branch)?;
                check_playable(&read)?;
                record = Some(read);
                Ok(meta.players.len())
            }),
        };
        let seats = match seats.and_then(|n| Self::check_seat_of(game, n, by).map(|()| n)) {
            Ok(n) => n,
            Err(e) => {
                if let Some((folded, _)) = warm {
                    self.cache_put(game, branch, Arc::new(folded));
                }
                return Err(e);
            }
        };
        // A seat acting reads the narration as that seat may know it.
        let viewer = by.map_or(Viewer::Owner, Viewer::Seat);
        let key = req.idempotency_key.as_deref();
        if let (None, Some(key)) = (&warm, key) {
            if let Some(receipt) = self.shared.log.receipt(game, branch, key)? {
                self.check_retry(game, branch, key, &receipt, &req)?;
                return self.last_acted(game, branch, &receipt, viewer);
            }
        }
        let actor = by.map_or(req.actor, Actor::Seat);
        let mut lost_race = None;
        for _ in race_attempts() {
            let (mut folded, head_hash, warmed) = match warm.take() {
                Some((folded, written)) => (folded, written.hash, true),
                None => {
                    let read = match record.take() {
                        Some(read) => read,
                        None => {
                            let read = self.branch_record(game, branch)?;
                            check_playable(&read)?;
                            read
                        }
                    };
                    let hash = read.head_hash.clone();
                    (self.fold_head_owned(game, read)?, hash, false)
                }
            };
            let head = folded.seq();
            if let Some(expected) = req.expect_seq {
                if expected != head {
                    self.cache_put(game, branch, Arc::new(folded));
                    return Err(JournalError::Conflict { expected, head });
                }
            }
            let now = now_ms();
            let decided = folded
                .decide_at(by, &req.action, viewer, now)
                .map_err(JournalError::Rejected);
            let decision = match decided {
                Ok(decision) => decision,
                Err(rejected) => {
                    // Deciding changed nothing: the fold is still the head's.
                    self.cache_put(game, branch, Arc::new(folded));
                    if !warmed {
                        return Err(rejected);
                    }
                    // The rules may refuse it only because another writer
                    // has moved the head on since: decide again on the head
                    // as it is. A retry of an action already recorded is
                    // answered as it was, though the rules refuse it now.
                    if let Some(key) = key {
                        if let Some(receipt) = self.shared.log.receipt(game, branch, key)? {
                            self.check_retry(game, branch, key, &receipt, &req)?;
                            return self.last_acted(game, branch, &receipt, viewer);
                        }
                    }
                    continue;
                }
            };
            let draft = Draft::new(now, actor, Body::ActionAccepted(decision.body))?;
            let appended = if warmed {
                let on = Head {
                    seq: head,
                    hash: &head_hash,
                };
                match self.append_on_counted(game, branch, on, key, vec![draft]) {
                    Ok(Some(appended)) => Ok(appended),
                    Ok(None) => {
                        // Not as this journal left it (another writer, a
                        // take-back, a key used): the long way, from a read.
                        self.note_written(game, branch, None);
                        self.cache_put(game, branch, Arc::new(folded));
                        continue;
                    }
                    Err(e) => Err(e),
                }
            } else {
                self.append_counted(game, branch, head, key, vec![draft])
            };
            match appended {
                Ok(appended) if appended.receipt.retried => {
                    let key = key.expect("only a keyed append is retried");
                    self.check_retry(game, branch, key, &appended.receipt, &req)?;
                    return self.last_acted(game, branch, &appended.receipt, viewer);
                }
                Ok(appended) => {
                    let event = &appended.events[0];
                    folded.accept(decision.next)?;
                    if self.snapshot_due(event.seq) {
                        self.keep_snapshot(game, branch, &folded.snapshot());
                    }
                    let over = folded.is_over();
                    self.note_over(game, branch, over);
                    self.cache_put(game, branch, Arc::new(folded));
                    let written = Written {
                        seq: event.seq,
                        hash: event.hash.clone(),
                        seats,
                    };
                    self.note_written(game, branch, Some(written));
                    return Ok(Acted {
                        seq: event.seq,
                        hash: event.hash.clone(),
                        narration: decision.narration,
                        over,
                        retried: false,
                    });
                }
                Err(StoreError::Conflict { expected, head }) if req.expect_seq.is_none() => {
                    // Still a right fold at its seq: the retry folds on from it.
                    self.cache_put(game, branch, Arc::new(folded));
                    lost_race = Some(JournalError::Conflict { expected, head });
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(lost_race.expect("the loop ran at least once"))
    }

    /// [`Log::append_on`], counted as [`Journal::append_counted`] counts.
    fn append_on_counted(
        &self,
        game: &str,
        branch: &str,
        head: Head<'_>,
        key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Option<crate::Appended>, StoreError> {
        let appended = self.shared.log.append_on(game, branch, head, key, drafts);
        if let Ok(Some(a)) = &appended {
            metrics::counter!("tabletape_events_appended_total").increment(a.events.len() as u64);
        }
        appended
    }

    /// Appends on `head`, counting for the operator's metrics what was
    /// written and each race lost to another writer.
    pub(super) fn append_counted(
        &self,
        game: &str,
        branch: &str,
        head: u64,
        key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<crate::Appended, StoreError> {
        let appended = self
            .shared
            .log
            .append(game, branch, Some(head), key, drafts);
        match &appended {
            Ok(a) if !a.receipt.retried => {
                metrics::counter!("tabletape_events_appended_total")
                    .increment(a.events.len() as u64);
            }
            Err(StoreError::Conflict { .. }) => {
                metrics::counter!("tabletape_append_conflicts_total").increment(1);
            }
            _ => {}
        }
        appended
    }

    /// How many branch folds are cached (a gauge for the operator).
    pub fn cached_folds(&self) -> usize {
        self.shared
            .heads
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Refuses a request that reuses an idempotency key for something else:
    /// a retry must be the same action by the same actor, or answering it
    /// with the first receipt would silently drop it.
    fn check_retry(
        &self,
        game: &str,
        branch: &str,
        key: &str,
        receipt: &Receipt,
        req: &ActRequest,
    ) -> Result<(), JournalError> {
        let stored =
            self.shared
                .log
                .read(game, branch, receipt.first_seq, Some(receipt.first_seq))?;
        // Actions are stored in their canonical form; compare in that form.
        let asked = tabletape_engine::kind(&self.meta(game)?.kind)
            .and_then(|k| k.canonical_action(&req.action).ok());
        let same = stored.first().is_some_and(|e| {
            let actor = req.by.map_or(req.actor, Actor::Seat);
            e.actor == actor
                && matches!(&e.body, Body::ActionAccepted(a) if Some(&a.action) == asked.as_ref())
        });
        if same {
            Ok(())
        } else {
            Err(JournalError::Rejected(Rejection::new(
                "idempotency.key_reused",
                format!(
                    "idempotency key `{key}` was already used for another request (seq {}); use a new key for a new action",
                    receipt.first_seq
                ),
            )))
        }
    }

    pub(super) fn last_acted(
        &self,
        game: &str,
        branch: &str,
        receipt: &Receipt,
        viewer: Viewer,
    ) -> Result<Acted, JournalError> {
        let mut acted = self.replayed_receipt(game, branch, receipt, viewer)?;
        Ok(acted.pop().expect("a receipt lists at least one event"))
    }

    /// Decides every action in order against the evolving state and appends them all atomically
    /// (all or nothing); the receipt lists each event's seq and narration.
    pub fn act_batch(
        &self,
        game: &str,
        branch: &str,
        actor: Actor,
        by: Option<Seat>,
        actions: Vec<Value>,
        expect_seq: Option<u64>,
    ) -> Result<Vec<Acted>, JournalError> {
        if actions.is_empty() {
            return Err(JournalError::BadInput(
                "a batch needs at least one action".into(),
            ));
        }
        let meta = self.meta(game)?;
        check_playable(&self.branch_record(game, branch)?)?;
        let by = acting_seat(actor, by)?;
        Self::check_seat(&meta, by)?;
        let actor = by.map_or(actor, Actor::Seat);
        let viewer = by.map_or(Viewer::Owner, Viewer::Seat);
        for (i, action) in actions.iter().enumerate() {
            check_no_placeholder(action).map_err(|e| match e {
                JournalError::Rejected(r) => JournalError::Rejected(Rejection::new(
                    r.rule,
                    format!("action {} of {}: {}", i + 1, actions.len(), r.message),
                )),
                other => other,
            })?;
        }
        let mut lost_race = None;
        for _ in race_attempts() {
            // Taken from the cache: a rejected or lost batch leaves it folded
            // past the head, so it goes back only once the append commits.
            let mut folded = self.fold_owned(game, branch, None)?;
            let head = folded.seq();
            if let Some(expected) = expect_seq {
                if expected != head {
                    self.cache_put(game, branch, Arc::new(folded));
                    return Err(JournalError::Conflict { expected, head });
                }
            }
            let mut drafts = Vec::with_capacity(actions.len());
            let mut told = Vec::with_capacity(actions.len());
            // Snapshots due within the batch, written once it commits.
            let mut snapshots = Vec::new();
            for (i, action) in actions.iter().enumerate() {
                let now = now_ms();
                let decision = folded.decide_at(by, action, viewer, now).map_err(|r| {
                    JournalError::Rejected(Rejection::new(
                        r.rule,
                        format!("action {} of {}: {}", i + 1, actions.len(), r.message),
                    ))
                })?;
                let draft = Draft::new(now, actor, Body::ActionAccepted(decision.body))?;
                // The next action is decided against this one's outcome.
                let seq = decision.next.seq();
                folded.accept(decision.next)?;
                if self.snapshot_due(seq) {
                    snapshots.push(folded.snapshot());
                }
                told.push((decision.narration, folded.is_over()));
                drafts.push(draft);
            }
            match self.append_counted(game, branch, head, None, drafts) {
                Ok(appended) => {
                    for snapshot in &snapshots {
                        self.keep_snapshot(game, branch, snapshot);
                    }
                    self.note_over(game, branch, folded.is_over());
                    self.cache_put(game, branch, Arc::new(folded));
                    return Ok(appended
                        .events
                        .iter()
                        .zip(told)
                        .map(|(event, (narration, over))| Acted {
                            seq: event.seq,
                            hash: event.hash.clone(),
                            narration,
                            over,
                            retried: false,
                        })
                        .collect());
                }
                Err(StoreError::Conflict { expected, head }) if expect_seq.is_none() => {
                    lost_race = Some(JournalError::Conflict { expected, head });
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(lost_race.expect("the loop ran at least once"))
    }
}
