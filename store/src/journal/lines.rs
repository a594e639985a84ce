//! A game's lines: forking a branch, the line in play, and taking back
//! its last event (which moves play to a new line).

use super::*;

impl Journal {
    /// Forks `from` after its seq `at`, copying nothing. The name defaults to
    /// who forked and where (`ada-at-12`); with `reseed`, the new branch opens with a
    /// reseed event so its chance differs from the parent's from here on.
    ///
    /// Only the owner may inherit the parent's future: a fork made by a seat
    /// that names no reseed is reseeded from fresh, secret randomness (kept
    /// for the owner), so no seat can draw on a fork to learn what the
    /// parent's dice and decks will give.
    pub fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: Option<&str>,
        reseed: Option<u64>,
        by: Access,
    ) -> Result<BranchInfo, JournalError> {
        let head = self.record(game, from)?.head_seq;
        if at == 0 || at > head {
            return Err(JournalError::NotFound(format!(
                "branch `{from}` of game `{game}` has no seq {at} to fork at: its events run from 1 to {head}"
            )));
        }
        // Only a reseed needs to know whether the game is over at `at` (a
        // seat's fork is reseeded unless it is; an owner's only when asked),
        // and finding out folds the line there.
        let reseeds = reseed.is_some() || matches!(by, Access::Seat(_));
        let over_at = reseeds && self.fold(game, from, Some(at))?.is_over();
        let (actor, reseed) = match by {
            Access::Owner => (Actor::Owner, reseed),
            Access::Seat(seat) if reseed.is_none() && !over_at => {
                (Actor::Seat(seat), Some(random_seed()?))
            }
            Access::Seat(seat) => (Actor::Seat(seat), reseed),
            Access::Public => {
                return Err(JournalError::Forbidden(
                    "forking needs the owner's or a seat's token".into(),
                ))
            }
        };
        if reseed.is_some() && over_at {
            // The reseed is the new branch's first event: the game must go on there.
            return Err(JournalError::BadInput(format!(
                "the game is over at seq {at}; a reseed there would change nothing"
            )));
        }
        let viewer = self.effective_viewer(game, by.viewer())?;
        let now = now_ms();
        let first = reseed
            .map(|seed| Draft::new(now, actor, Body::Reseeded { seed }))
            .transpose()?;
        if let Some(name) = name {
            // One name, however it is written: `MAIN` or `Main` may not sit
            // beside `main`, nor letters composed otherwise.
            let name = crate::log::normalised_name(name);
            let folded = crate::log::folded_name(&name);
            if let Some(other) = self
                .shared
                .log
                .branches(game)?
                .into_iter()
                .find(|b| b.name != name && crate::log::folded_name(&b.name) == folded)
            {
                return Err(JournalError::BadInput(format!(
                    "branch name `{name}` differs from the branch `{}` only in case or in how its letters are written: choose another",
                    other.name
                )));
            }
            let record = self.shared.log.fork(game, from, at, &name, now, first)?;
            return Ok(self.forked_branch(record, viewer));
        }
        // A generated name says who forked and where the lines part
        // (`ada-at-12`, `owner-at-3`; `ada-at-12-2` for a second one there).
        // A concurrent fork may take it between the look and the write, so
        // a taken one is skipped.
        let who = match by {
            Access::Seat(seat) => {
                let players = self.meta(game)?.players;
                slug(players.get(seat as usize).map_or("", String::as_str))
                    .unwrap_or_else(|| format!("seat-{seat}"))
            }
            _ => "owner".to_string(),
        };
        let base = format!("{who}-at-{at}");
        let mut taken: Vec<String> = self
            .shared
            .log
            .branches(game)?
            .into_iter()
            .map(|b| b.name)
            .collect();
        for _ in 0..FORK_NAME_TRIES {
            let name = std::iter::once(base.clone())
                .chain((2..).map(|n| format!("{base}-{n}")))
                .find(|n| !taken.contains(n))
                .expect("some name is free");
            match self
                .shared
                .log
                .fork(game, from, at, &name, now, first.clone())
            {
                Ok(record) => return Ok(self.forked_branch(record, viewer)),
                Err(StoreError::BranchExists { .. }) => taken.push(name),
                Err(e) => return Err(e.into()),
            }
        }
        Err(JournalError::BadInput(format!(
            "every fork name tried was taken by a concurrent fork ({FORK_NAME_TRIES} tries): name the branch"
        )))
    }

    /// A branch record as `viewer` may know it: a reseed's seed is shown to
    /// the owner, or to anyone once the game is over; the branch's title and
    /// its own notes are read from its head's fold.
    pub(super) fn shown_branch(&self, game: &str, r: BranchRecord, viewer: Viewer) -> BranchInfo {
        let head = self.fold(game, &r.name, None).ok();
        let viewer = self.effective_viewer(game, viewer).unwrap_or(viewer);
        let own_from = r.fork_seq.unwrap_or(0);
        let mut info = self.forked_branch(r, viewer);
        if let Some(head) = head {
            if let Some(named) = head.line_title(&info.name) {
                info.title = Some(named.title.clone());
                info.description = named.description.clone();
            }
            info.notes = head
                .notes_as(viewer)
                .into_iter()
                .filter(|n| n.seq > own_from)
                .collect();
        }
        info
    }

    /// A branch as its fork just made it, for `viewer` as `effective_viewer`
    /// counts them: no fold, since it holds no title or note of its own yet
    /// (at most its reseed).
    fn forked_branch(&self, r: BranchRecord, viewer: Viewer) -> BranchInfo {
        let reseeded = r.reseed.is_some();
        let mut info = branch_info(r);
        info.reseeded = reseeded;
        if viewer != Viewer::Owner {
            info.reseed = None;
        }
        info
    }

    /// The game's current line: the branch ordinary play continues on
    /// (`main` until a take-back moves it).
    pub fn current_line(&self, game: &str) -> Result<String, JournalError> {
        Ok(self.meta(game)?.current.unwrap_or_else(main_branch))
    }

    /// `given`, or the game's current line when no branch is named.
    pub fn line(&self, game: &str, given: Option<String>) -> Result<String, JournalError> {
        match given {
            Some(branch) => Ok(branch),
            None => self.current_line(game),
        }
    }

    /// Whether `by` may take back the last action of the current line now:
    /// the checks of [`Journal::undo`], nothing written (a page offers the
    /// take-back only when it would be recorded).
    pub fn may_undo(&self, game: &str, by: Access) -> bool {
        self.take_back_plan(game, by).is_ok()
    }

    /// What a take-back by `by` would take: the line, its last action, and
    /// the notes and names written after it; or why it may not.
    fn take_back_plan(&self, game: &str, by: Access) -> Result<TakeBack, JournalError> {
        let line = self.current_line(game)?;
        let record = self.record(game, &line)?;
        let head = record.head_seq;
        if self.fold(game, &line, None)?.is_over() {
            return Err(JournalError::Rejected(Rejection::new(
                "undo.game_over",
                "the game is over and everything it hid is out: taking back would play on with every secret known; fork it to play another way",
            )));
        }
        // The last action, and the annotations written after it.
        let mut seq = head;
        let mut after = Vec::new();
        let taken = loop {
            let event = match seq {
                0 | 1 => None,
                _ => self.shared.log.read(game, &line, seq, Some(seq))?.pop(),
            };
            match event {
                Some(e) if matches!(e.body, Body::ActionAccepted(_)) => break e,
                Some(e) if matches!(e.body, Body::Noted(_) | Body::BranchNamed(_)) => {
                    after.push(e);
                    seq -= 1;
                }
                _ => {
                    return Err(JournalError::unfit(
                        "undo.nothing",
                        format!("nothing to take back: line `{line}` of game `{game}` holds no action after its last fork, share or creation"),
                    ))
                }
            }
        };
        let seq = taken.seq;
        match (by, taken.actor) {
            (Access::Owner, _) => {}
            (Access::Seat(s), Actor::Seat(a)) if s == a => {}
            _ => {
                return Err(JournalError::Forbidden(format!(
                    "seq {seq} was not recorded by this seat: the owner or the seat that recorded it may take it back"
                )))
            }
        }
        let before = self.fold(game, &line, Some(seq - 1))?;
        // Where Tabletape holds no random secret (the table's own dice, or a
        // game without chance), the owner referees the record and may still
        // correct it.
        let correcting = by == Access::Owner && !before.dice_state().rolls;
        if let Body::ActionAccepted(accepted) = &taken.body {
            if let Some(refused) = before
                .cannot_take_back(&accepted.facts)
                .filter(|_| !correcting)
            {
                return Err(JournalError::Rejected(refused));
            }
        }
        Ok(TakeBack {
            line,
            head: (head, record.head_hash),
            taken,
            after,
        })
    }

    /// Takes back the last action of the current line without deleting
    /// anything: the line is forked just before that action, the fork
    /// becomes the current line, and the old line stays in the tree marked
    /// taken back (closed to play: it shares the dice and hidden cards to
    /// come with the new line). Notes written after the action are kept on
    /// the new line, unless they are about the action taken back. The fork
    /// keeps the old line's dice: the action recorded again meets the same
    /// rolls. Open to the owner, and to the seat that recorded the action.
    ///
    /// Refused once the game is over (everything it hid is out), and for an
    /// action that showed what lay hidden or started a clock (see
    /// `Rules::cannot_take_back`): the owner of a game whose chance is not
    /// Tabletape's (the table's own dice, or none) may still correct it.
    ///
    /// A take-back is of the line as it was read: when another action or
    /// note lands on it first, or another take-back of it has begun, it is
    /// refused (the fork it made stays, an ordinary branch), and no action
    /// lands on the line once it is taken back.
    pub fn undo(&self, game: &str, by: Access) -> Result<Undone, JournalError> {
        let TakeBack {
            line,
            head,
            taken,
            after,
        } = self.take_back_plan(game, by)?;
        let seq = taken.seq;
        let taken_names: Vec<String> = self
            .shared
            .log
            .branches(game)?
            .into_iter()
            .map(|b| b.name)
            .collect();
        let now = now_ms();
        let mut forked = None;
        for n in 1..=FORK_NAME_TRIES {
            let name = format!("{line}~{n}");
            if taken_names.contains(&name) {
                continue;
            }
            match self.shared.log.fork(game, &line, seq - 1, &name, now, None) {
                Ok(record) => {
                    forked = Some(record);
                    break;
                }
                Err(StoreError::BranchExists { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        let record = forked.ok_or_else(|| {
            JournalError::BadInput("every take-back name was taken: name a fork yourself".into())
        })?;
        // Notes about moments the new line still has go with it, by the
        // same hands; a note about the action taken back stays where it was.
        let kept: Vec<Draft> = after
            .iter()
            .rev()
            .filter(|e| match &e.body {
                Body::Noted(note) => note.at < seq,
                _ => false,
            })
            .map(|e| Draft::new(now, e.actor, e.body.clone()))
            .collect::<Result<_, _>>()?;
        let mut head_seq = seq - 1;
        if !kept.is_empty() {
            let appended = self
                .shared
                .log
                .append(game, &record.name, Some(seq - 1), None, kept)?;
            head_seq = appended.events.last().map_or(head_seq, |e| e.seq);
        }
        let read = Head {
            seq: head.0,
            hash: &head.1,
        };
        match self.shared.log.take_back(game, &line, read, &record.name) {
            Ok(()) => {}
            Err(StoreError::Conflict { expected, head }) if head != expected => {
                return Err(JournalError::Conflict { expected, head })
            }
            Err(StoreError::Conflict { .. }) => {
                return Err(JournalError::Rejected(Rejection::new(
                    "undo.racing",
                    format!(
                        "another take-back of line `{line}` has begun: look again once it is done"
                    ),
                )))
            }
            Err(e) => return Err(e.into()),
        }
        Ok(Undone {
            game: game.to_string(),
            taken_back: line,
            seq,
            current: record.name,
            head_seq,
        })
    }
}

/// A player's name as a branch name's part: lower-case letters and digits,
/// anything else a dash (`Ada Lockwood` is `ada-lockwood`); `None` when
/// nothing of it is left.
fn slug(name: &str) -> Option<String> {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    (!out.is_empty()).then_some(out)
}

/// What a take-back takes (see [`Journal::undo`]): the line, its head as
/// read `(seq, hash)`, its last action, and the notes and names after it.
struct TakeBack {
    line: String,
    head: (u64, String),
    taken: Event,
    after: Vec<Event>,
}
