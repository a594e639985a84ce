//! The journal's reads: the games listed, one game's summary, events,
//! state, legal actions, board, replay, the live follow and the story,
//! each shaped for its viewer.

use super::*;

impl Journal {
    /// Every game in the store, by id, from stored records (no game is
    /// folded): for the owner of the store at its own terminal.
    pub fn games(&self) -> Result<Vec<GameSummary>, JournalError> {
        let mut out = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let page = self.list_games(Listing::Everything, after.as_deref(), GAMES_PAGE_MAX)?;
            out.extend(page.games);
            match page.next {
                Some(next) => after = Some(next),
                None => return Ok(out),
            }
        }
    }

    /// A page of the games `listing` may see, by id, after `after`: at most
    /// `limit` (capped at [`GAMES_PAGE_MAX`]) summaries read from stored
    /// records, never folds, and the id to ask for the next page from.
    pub fn list_games(
        &self,
        listing: Listing<'_>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<GamesPage, JournalError> {
        let limit = limit.clamp(1, GAMES_PAGE_MAX);
        let token_hash = match listing {
            Listing::For { token: Some(t) } => Some(token_hash(t)),
            _ => None,
        };
        let mut games = Vec::new();
        let mut cursor = after.map(str::to_string);
        let mut exhausted = false;
        while games.len() < limit && !exhausted {
            let metas = self
                .shared
                .log
                .games_after(cursor.as_deref(), GAMES_PAGE_MAX)?;
            exhausted = metas.len() < GAMES_PAGE_MAX;
            for meta in metas {
                cursor = Some(meta.game.clone());
                let visible = match listing {
                    Listing::Everything => true,
                    Listing::For { .. } => {
                        meta.public
                            || token_hash.as_ref().is_some_and(|h| {
                                *h == meta.owner_token_hash || meta.seat_token_hashes.contains(h)
                            })
                    }
                };
                if visible {
                    games.push(self.listed(meta)?);
                    if games.len() == limit {
                        break;
                    }
                }
            }
        }
        // A full page may be the last one; the next then comes back empty.
        let next = if games.len() == limit {
            games.last().map(|g| g.game.clone())
        } else {
            None
        };
        Ok(GamesPage { games, next })
    }

    /// A listing's row: the record, `main`'s head and the branch count.
    fn listed(&self, meta: GameMeta) -> Result<GameSummary, JournalError> {
        let branches = self.shared.log.branches(&meta.game)?;
        let seq = branches
            .iter()
            .find(|b| b.name == MAIN_BRANCH)
            .map_or(0, |b| b.head_seq);
        Ok(GameSummary {
            title: meta.title,
            game: meta.game,
            kind: meta.kind,
            players: meta.players,
            created_at_ms: meta.created_at_ms,
            seq,
            branches: branches.len(),
            over: meta.over,
            public: meta.public,
            seed: None,
            seed_commitment: None,
            current: meta.current.unwrap_or_else(main_branch),
            dice: None,
        })
    }

    /// Marks a game over in its record once its line in play has ended,
    /// for listings. Only a cache of what the fold says, so a failure is
    /// logged.
    pub(super) fn note_over(&self, game: &str, branch: &str, over: bool) {
        if !over || !self.current_line(game).is_ok_and(|line| line == branch) {
            return;
        }
        if let Err(e) = self.shared.log.mark_over(game) {
            tracing::warn!(game, "not marked over: {e}");
        }
    }

    /// One game's summary as `viewer` may know it, from its record and the
    /// folds of `main`'s head and of its line in play (cached).
    pub fn summary(&self, game: &str, viewer: Viewer) -> Result<GameSummary, JournalError> {
        let meta = self.meta(game)?;
        let branches = self.shared.log.branches(game)?.len();
        let main = self.fold(game, MAIN_BRANCH, None)?;
        let line = meta.current.clone().unwrap_or_else(main_branch);
        let current = self.fold(game, &line, None)?;
        let over = current.is_over();
        if !meta.over {
            // A crash between an ending append and its mark leaves it unmarked.
            self.note_over(game, &line, over);
        }
        let viewer = if over { Viewer::Owner } else { viewer };
        let first = self.events_as(game, MAIN_BRANCH, 1, Some(1), viewer)?;
        Ok(GameSummary {
            title: meta.title,
            game: meta.game,
            kind: meta.kind,
            players: meta.players,
            created_at_ms: meta.created_at_ms,
            seq: main.seq(),
            branches,
            over,
            public: meta.public,
            seed: (viewer == Viewer::Owner).then(|| main.created().seed),
            dice: Some(DiceReport::of(current.dice_state())),
            seed_commitment: first
                .first()
                .and_then(|e| e.seed_commitment())
                .map(str::to_string),
            current: meta.current.unwrap_or_else(main_branch),
        })
    }

    /// The branch's events from `from_seq` to `to_seq` (inclusive, clamped to the head).
    pub fn events(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<Event>, JournalError> {
        self.record(game, branch)?;
        Ok(self.shared.log.read(game, branch, from_seq, to_seq)?)
    }

    /// [`Journal::events`] as `viewer` may know them: each seat sees only its
    /// own secrets, and no one but the owner sees a seed or an event's salt,
    /// until the game is over (its line in play has ended). Each event is
    /// judged on the head of the branch it belongs to, so a fork shows what
    /// it shares with its parent as the parent does. Every event carries the
    /// seals of its parts, so any viewer can check the chain it sees with
    /// [`crate::seal::check_shown`].
    pub fn events_as(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
        viewer: Viewer,
    ) -> Result<Vec<ShownEvent>, JournalError> {
        self.record(game, branch)?;
        let viewer = self.effective_viewer(game, viewer)?;
        let mut shown = Vec::new();
        let mut from = from_seq;
        // The creation, with its whole content pack, is shown from a cache.
        if from_seq <= 1 && to_seq.is_none_or(|to| to >= 1) {
            let first = self.first_shown(game, branch, viewer)?;
            shown.push(ShownEvent::clone(&first));
            from = 2;
        }
        if to_seq.is_some_and(|to| to < from) {
            return Ok(shown);
        }
        let events = self.shared.log.read(game, branch, from, to_seq)?;
        shown.reserve(events.len());
        if viewer == Viewer::Owner {
            shown.extend(
                events
                    .iter()
                    .map(|e| ShownEvent::full_sealed(e, self.seals_of(e))),
            );
            return Ok(shown);
        }
        let mut judges = Judges::default();
        for e in &events {
            let redacted = judges
                .head(self, game, &e.branch)?
                .redact_event(e, viewer)?;
            shown.push(ShownEvent::partial_sealed(e, &redacted, self.seals_of(e)));
        }
        Ok(shown)
    }

    /// Who `viewer` counts as in `game`: everyone sees what the owner sees
    /// once the game's line in play has ended, on every line; before that,
    /// no line opens anything, a finished fork included (it shares its past,
    /// and perhaps its hidden cards, with the line in play).
    pub(super) fn effective_viewer(
        &self,
        game: &str,
        viewer: Viewer,
    ) -> Result<Viewer, JournalError> {
        if viewer == Viewer::Owner || self.game_over(game)? {
            return Ok(Viewer::Owner);
        }
        Ok(viewer)
    }

    /// Whether the game is over: whether its line in play (its current line)
    /// has ended. Forks that end decide nothing.
    pub fn game_over(&self, game: &str) -> Result<bool, JournalError> {
        let line = self.current_line(game)?;
        Ok(self.fold(game, &line, None)?.is_over())
    }

    /// The game folded to `at` (the head when `None`).
    pub fn game_at(&self, game: &str, branch: &str, at: Option<u64>) -> Result<Game, JournalError> {
        Ok(Game::clone(&*self.fold(game, branch, at)?))
    }

    pub fn legal(
        &self,
        game: &str,
        branch: &str,
        seat: Option<Seat>,
    ) -> Result<Vec<LegalAction>, JournalError> {
        Self::check_seat(&self.meta(game)?, seat)?;
        Ok(self.fold(game, branch, None)?.legal_at(seat, now_ms()))
    }

    pub fn state(
        &self,
        game: &str,
        branch: &str,
        at: Option<u64>,
        viewer: Viewer,
    ) -> Result<StateView, JournalError> {
        let folded = self.fold(game, branch, at)?;
        let viewer = self.effective_viewer(game, viewer)?;
        Ok(StateView {
            game: game.to_string(),
            branch: branch.to_string(),
            seq: folded.seq(),
            kind: folded.kind_name().to_string(),
            over: folded.is_over(),
            chapter: folded.chapter(),
            view: folded.view(viewer),
            text: folded.render(viewer),
            deadline: folded.deadline(),
            result: folded.result(),
        })
    }

    /// The events of a branch after seq `after`, each with its narration and
    /// as `viewer` may know them: what a live follower of the game is sent.
    pub fn follow(
        &self,
        game: &str,
        branch: &str,
        after: u64,
        viewer: Viewer,
    ) -> Result<Vec<Followed>, JournalError> {
        let head = self.record(game, branch)?.head_seq;
        if after >= head {
            return Ok(Vec::new());
        }
        let viewer = self.effective_viewer(game, viewer)?;
        let mut shown = self
            .events_as(game, branch, after + 1, None, viewer)?
            .into_iter();
        let mut folded = self.fold_owned(game, branch, Some(after.max(1)))?;
        let mut out = Vec::with_capacity(shown.len());
        // The creation from the caches (`events_as` showed it from one):
        // event 1 holds the whole content pack, not parsed again here.
        if let Some(first) = (after == 0).then(|| shown.next()).flatten() {
            out.push(Followed {
                seq: 1,
                chapter: folded.chapter(),
                narration: creation_lines(&*self.creation(game, branch)?, viewer),
                over: folded.is_over(),
                deadline: folded.deadline(),
                event: first,
            });
        }
        let events = self.shared.log.read(game, branch, after.max(1) + 1, None)?;
        for (event, shown) in events.iter().zip(shown) {
            let chapter = folded.chapter();
            let narration = folded.apply_as(event, viewer)?;
            out.push(Followed {
                seq: event.seq,
                chapter,
                narration,
                over: folded.is_over(),
                deadline: folded.deadline(),
                event: shown,
            });
        }
        Ok(out)
    }

    /// The branch at `at` (its head when `None`) drawn as SVG for `viewer`.
    pub fn board_svg(
        &self,
        game: &str,
        branch: &str,
        at: Option<u64>,
        viewer: Viewer,
    ) -> Result<String, JournalError> {
        let folded = self.fold(game, branch, at)?;
        let viewer = self.effective_viewer(game, viewer)?;
        Ok(folded.render_svg(viewer))
    }

    /// One step per event up to `to` (the head when `None`), with what each changed.
    pub fn replay(
        &self,
        game: &str,
        branch: &str,
        to: Option<u64>,
        viewer: Viewer,
    ) -> Result<Vec<ReplayStep>, JournalError> {
        let head = self.record(game, branch)?.head_seq;
        let to = to.unwrap_or(head);
        if to == 0 || to > head {
            return Err(JournalError::NotFound(format!(
                "branch `{branch}` of game `{game}` has no seq {to}: its events run from 1 to {head}"
            )));
        }
        let viewer = self.effective_viewer(game, viewer)?;
        // The creation from the caches: event 1 holds the whole content
        // pack, which a replay would otherwise parse again each time.
        let first = self.first_shown(game, branch, Viewer::Owner)?;
        let mut folded = self.started(game, branch, None)?;
        let mut steps = vec![ReplayStep {
            seq: 1,
            actor: first.actor,
            recorded_at_ms: first.recorded_at_ms,
            chapter: folded.chapter(),
            action: None,
            narration: creation_lines(&*self.creation(game, branch)?, viewer),
            changes: Vec::new(),
        }];
        if to == 1 {
            return Ok(steps);
        }
        let events = self.shared.log.read(game, branch, 2, Some(to))?;
        let mut judges = Judges::default();
        let mut before = folded.view(viewer);
        for event in &events {
            let chapter = folded.chapter();
            let narration = folded.apply_as(event, viewer)?;
            let after = folded.view(viewer);
            let shown = judges
                .head(self, game, &event.branch)?
                .redact_event(event, viewer)?;
            steps.push(ReplayStep {
                seq: event.seq,
                actor: event.actor,
                recorded_at_ms: event.recorded_at_ms,
                chapter,
                action: match &shown.body {
                    Body::ActionAccepted(a) => Some(a.action.clone()),
                    _ => None,
                },
                narration,
                changes: diff(&before, &after),
            });
            before = after;
        }
        Ok(steps)
    }

    /// The narration of a branch's events after seq `after`, as `viewer`
    /// may know it (a fork's reseed, say).
    pub fn narrate_since(
        &self,
        game: &str,
        branch: &str,
        after: u64,
        viewer: Viewer,
    ) -> Result<Vec<String>, JournalError> {
        let viewer = self.effective_viewer(game, viewer)?;
        let mut folded = self.fold_owned(game, branch, Some(after))?;
        let mut lines = Vec::new();
        for event in self.shared.log.read(game, branch, after + 1, None)? {
            lines.extend(folded.apply_as(&event, viewer)?);
        }
        Ok(lines)
    }

    /// A game's branches in creation order (`main` first), as the owner sees them.
    pub fn branches(&self, game: &str) -> Result<Vec<BranchInfo>, JournalError> {
        self.branches_as(game, Viewer::Owner)
    }

    /// A game's branches as `viewer` may know them (see `shown_branch`).
    pub fn branches_as(&self, game: &str, viewer: Viewer) -> Result<Vec<BranchInfo>, JournalError> {
        self.meta(game)?;
        Ok(self
            .shared
            .log
            .branches(game)?
            .into_iter()
            .map(|r| self.shown_branch(game, r, viewer))
            .collect())
    }

    pub fn narrate(&self, game: &str, branch: &str) -> Result<Narrative, JournalError> {
        self.narrate_as(game, branch, Viewer::Owner)
    }

    /// The story as `viewer` may know it (everything, once the game is over).
    pub fn narrate_as(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
    ) -> Result<Narrative, JournalError> {
        self.narrate_told(game, branch, viewer, Vec::new())
    }

    /// The story, with `variations` told beside the moments they part at.
    pub(super) fn narrate_told(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
        variations: Vec<tabletape_engine::narrative::Variation>,
    ) -> Result<Narrative, JournalError> {
        let meta = self.meta(game)?;
        // (Read first: it checks that the branch is there.)
        let events = self.events(game, branch, 2, None)?;
        // The creation from the cache: event 1 holds the whole content
        // pack, which each story would otherwise read and parse again.
        let start = self.started(game, branch, None)?;
        let kind = tabletape_engine::kind(&meta.kind)
            .map_or_else(|| meta.kind.clone(), |k| k.game_title().to_string());
        let viewer = self.effective_viewer(game, viewer)?;
        let (mut narrative, folded) =
            Narrative::tell_from(&kind, start, &events, viewer, variations)?;
        // The table's own title, else the one the game gives itself
        // ("Nowa against Brakka"), else the kind's.
        let own = meta.title.clone().or_else(|| folded.story_title());
        // A branch is called by the name the table gave it, if any.
        let line = match folded.line_title(branch) {
            Some(named) => format!("branch {branch}, \"{}\"", named.title),
            None => format!("branch {branch}"),
        };
        narrative.title = match (own, branch == MAIN_BRANCH) {
            (Some(own), true) => format!("{own} ({kind}, game {game})"),
            (Some(own), false) => format!("{own} ({kind}, game {game}, {line})"),
            (None, true) => format!("{kind}: game {game}"),
            (None, false) => format!("{kind}: game {game}, {line}"),
        };
        Ok(narrative)
    }
}
