//! The sled backend of the log, [`SledLog`].
//!
//! Appends are written in groups (see [`commit`]): each appender chains and
//! encodes its events outside any lock, then one leader checks and writes
//! every queued append (a record in the appends' log, synced once for the
//! group; then in sled its events as pointers into that record, its
//! receipt, its head last, so a crash keeps all of an append or none of it
//! that a reader can reach). A creation or a fork is one sled transaction. An import
//! is staged instead (events in batches, then branches and heads) and
//! committed by writing the game record last.
//!
//! Parts: [`layout`] is the trees and keys above and the bytes stored
//! under them, [`commit`] the group commit of appends, [`wal`] the appends'
//! log and [`segments`] reading events from it, and [`disk`] the files:
//! opening, durability, and recovery after a write fault.

use std::ops::Bound;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, RwLock};

use sled::transaction::{abort, TransactionError};
use sled::Transactional;
use tabletape_engine::Snapshot;
use tabletape_events::{Body, Event, MAIN_BRANCH};

use super::{
    check_drafts, check_fork_seq, check_game_id, check_name, from_json, history_segments, place,
    to_json, Appended, BranchRecord, Draft, FoldStep, GameMeta, Head, Log, Receipt, Staged,
    APPEND_RETRIES,
};
use crate::error::StoreError;
use disk::{GroupCommit, Unsynced};
use layout::{
    attach_form, branch_key, branch_prefix, decode_form, decode_head, decode_step, decode_stored,
    encode_form, encode_head, encode_stored, game_prefix, idem_key, receipt_reached, seq_in,
    seq_key, Decode, InLog, Sled, ADMIN_TOKEN_KEY,
};

mod commit;
mod disk;
mod layout;
mod runs;
mod segments;
mod wal;

use runs::Runs;
use wal::{Records, Tree};

pub use disk::{clear_holder, note_holder, CACHE_CAPACITY, HOLDER_FILE};

/// Why an event of `branch` at `seq` cannot be read.
fn bad_event(game: &str, branch: &str, seq: u64, why: String) -> StoreError {
    StoreError::BadEvent {
        game: game.to_string(),
        branch: branch.to_string(),
        seq,
        why,
    }
}

/// The sled backend.
pub struct SledLog {
    path: PathBuf,
    /// The open database; replaced by a fresh opening when a write fault
    /// (a full disk) has left sled unable to write (see [`Unsynced`]).
    sled: RwLock<Option<Arc<Sled>>>,
    sync: GroupCommit,
    /// The files a durable write of sled syncs.
    files: disk::SledFiles,
    /// Appends waiting for, or being written in, a group (see [`commit`]).
    groups: commit::Groups,
    /// The appends' log, written by each group's leader (see [`wal`]).
    wal: Mutex<wal::Wal>,
    /// What failed writes left in sled's memory that readers must not see.
    unsynced: Mutex<Unsynced>,
    /// Whether `unsynced` holds anything: readers look here first, so the
    /// usual path takes no lock.
    faulted: AtomicBool,
}

impl Drop for SledLog {
    fn drop(&mut self) {
        self.close();
    }
}

/// Turns a transaction result into ours.
fn tx<T>(r: Result<T, TransactionError<StoreError>>) -> Result<T, StoreError> {
    r.map_err(|e| match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => StoreError::Sled(e),
    })
}

impl SledLog {
    /// Makes `branch` the game's current line and marks the line under
    /// `from_key` taken back, in one transaction (in sled's memory).
    fn mark_taken_back(
        &self,
        s: &Sled,
        game: &str,
        from_key: &[u8],
        branch: &str,
    ) -> Result<(), StoreError> {
        tx((&s.games, &s.branches).transaction(|(games, branches)| {
            let Some(raw) = games.get(game.as_bytes())? else {
                return abort(StoreError::UnknownGame(game.to_string()));
            };
            let mut meta: GameMeta = match from_json("game record", &raw) {
                Ok(m) => m,
                Err(e) => return abort(e),
            };
            meta.current = Some(branch.to_string());
            games.insert(game.as_bytes(), to_json(&meta))?;
            if let Some(raw) = branches.get(from_key)? {
                let mut record: BranchRecord = match from_json("branch record", &raw) {
                    Ok(r) => r,
                    Err(e) => return abort(e),
                };
                record.taken_back = true;
                branches.insert(from_key, to_json(&record))?;
            }
            Ok(())
        }))
    }

    fn head(&self, game: &str, branch: &str) -> Result<(u64, String), StoreError> {
        let s = self.sled()?;
        match s.heads.get(branch_key(game, branch))? {
            Some(raw) if !self.hidden(game, Some(branch)) => {
                Ok(self.visible_head(game, branch, decode_head(&raw)?))
            }
            _ => Err(self.missing(game, branch)?),
        }
    }

    /// Whether play on the line is open: false once it is taken back. A
    /// branch that is not there is left to the group to find missing.
    fn line_open(&self, game: &str, branch: &str) -> Result<bool, StoreError> {
        let key = branch_key(game, branch);
        if self.known_open(&key) {
            return Ok(true);
        }
        Ok(match self.branch(game, branch)? {
            Some(record) if record.taken_back => false,
            Some(_) => {
                self.note_open(&key);
                true
            }
            None => true,
        })
    }

    /// The error for a branch that is not there: an unknown game or branch.
    fn missing(&self, game: &str, branch: &str) -> Result<StoreError, StoreError> {
        let s = self.sled()?;
        Ok(
            if s.games.contains_key(game.as_bytes())? && !self.hidden(game, None) {
                StoreError::UnknownBranch {
                    game: game.to_string(),
                    branch: branch.to_string(),
                }
            } else {
                StoreError::UnknownGame(game.to_string())
            },
        )
    }

    fn record(&self, game: &str, branch: &str) -> Result<BranchRecord, StoreError> {
        self.branch(game, branch)?
            .map_or_else(|| Err(self.missing(game, branch)?), Ok)
    }

    /// The branch owning `seq` in `branch`'s history.
    fn owner(&self, game: &str, branch: &str, seq: u64) -> Result<String, StoreError> {
        let mut rec = self.record(game, branch)?;
        while let (Some(fork_seq), Some(parent)) = (rec.fork_seq, &rec.parent) {
            if seq > fork_seq {
                break;
            }
            rec = self.record(game, &parent.clone())?;
        }
        Ok(rec.name)
    }

    /// A branch's linear history from `from_seq` to `to_seq` (the head when
    /// `None`), walking the ancestry: `read_own` reads each branch's own part
    /// (its name and seqs) onto the end of the history.
    fn read_with<T>(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
        mut read_own: impl FnMut(&str, (u64, u64), &mut Vec<T>) -> Result<(), StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let (head, _) = self.head(game, branch)?;
        let from = from_seq.max(1);
        let to = to_seq.map_or(head, |t| t.min(head));
        if from > to {
            return Ok(Vec::new());
        }
        let segments = history_segments(self.record(game, branch)?, from, to, |parent| {
            self.record(game, parent)
        })?;
        let mut out = Vec::with_capacity((to - from + 1) as usize);
        for (name, lo, hi) in segments {
            read_own(&name, (lo, hi), &mut out)?;
        }
        Ok(out)
    }

    /// Calls `each` with the seq and the `forms` entry (see
    /// [`layout::encode_form`]) of every own event of `branch` with seqs
    /// `lo..=hi` that `forms` holds, once each but in no set order: those
    /// sled holds as they come (a pack holds a run of them from its key's
    /// seq, which may come before `lo`), then those an append left in the
    /// appends' log, where sled points (see [`layout::IN_LOG`]), read a
    /// stretch of the log at a time.
    fn each_form(
        &self,
        game: &str,
        branch: &str,
        (lo, hi): (u64, u64),
        mut each: impl FnMut(u64, &[u8]) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let s = self.sled()?;
        let bad = |seq: u64, why: String| bad_event(game, branch, seq, why);
        let mut in_log = Vec::new();
        let mut sort =
            |seq: u64, raw: &[u8]| match InLog::decode(raw).map_err(|why| bad(seq, why))? {
                Some(at) => {
                    in_log.push((seq, at));
                    Ok(())
                }
                None => each(seq, raw),
            };
        let mut next = each_entry(&s.forms, game, branch, (lo, hi), &mut sort)?;
        // The latest forms, not packed yet (see `runs`).
        let waiting = self.runs().waiting(&branch_prefix(game, branch), (lo, hi));
        if let Some((first, pack)) = waiting {
            give(game, branch, (first, &pack), hi, &mut next, &mut sort)?;
        }
        s.segments.read_each(&mut in_log, bad, each)
    }

    /// Gives the accepted actions among `events` (the own events of `branch`
    /// with seqs `lo..=hi`, in order) the fold forms `forms` keeps for them.
    fn attach_forms(
        &self,
        game: &str,
        branch: &str,
        (lo, hi): (u64, u64),
        events: &mut [Event],
    ) -> Result<(), StoreError> {
        self.each_form(game, branch, (lo, hi), |seq, raw| {
            let bad = |why: String| bad_event(game, branch, seq, why);
            let Some(form) = decode_form(raw).map_err(bad)? else {
                return Ok(());
            };
            let event = events
                .get_mut((seq - lo) as usize)
                .ok_or_else(|| bad("a fold form without its event".into()))?;
            attach_form(event, form).map_err(bad)
        })
    }

    /// The own events of `branch` with seqs `lo..=hi` as a fold reads them:
    /// from `forms` where it keeps what a fold reads, so that only those
    /// pages are read, and from `events` for the rest (events folded whole,
    /// and accepted actions stored by a build before `forms`, which keep
    /// their form in front of their JSON).
    fn read_own_steps(
        &self,
        game: &str,
        branch: &str,
        (lo, hi): (u64, u64),
        out: &mut Vec<FoldStep>,
    ) -> Result<(), StoreError> {
        let s = self.sled()?;
        let bad = |seq: u64, why: String| bad_event(game, branch, seq, why);
        let mut steps: Vec<Option<FoldStep>> = Vec::new();
        steps.resize_with((hi - lo + 1) as usize, || None);
        self.each_form(game, branch, (lo, hi), |seq, raw| {
            let step = match decode_form(raw).map_err(|why| bad(seq, why))? {
                None => None,
                Some((form_seq, actor, facts)) if form_seq == seq => Some(FoldStep::Compact {
                    seq,
                    actor,
                    facts: facts.into(),
                }),
                Some((form_seq, ..)) => {
                    return Err(bad(seq, format!("its fold form is of seq {form_seq}")))
                }
            };
            // `each_form` gives seqs of `lo..=hi` only.
            steps[(seq - lo) as usize] = step;
            Ok(())
        })?;
        let missing = steps.iter().filter(|step| step.is_none()).count();
        if missing * 2 > steps.len() {
            // Mostly events read whole (a store written before `forms`): one
            // pass over `events` costs less than a lookup each.
            let mut whole = Vec::with_capacity(steps.len());
            self.read_own(game, branch, (lo, hi), decode_step, &mut whole)?;
            for (step, read) in steps.iter_mut().zip(whole) {
                step.get_or_insert(read);
            }
        }
        for (seq, step) in (lo..).zip(steps) {
            let step = match step {
                Some(step) => step,
                None => {
                    let raw = own_entry(&s, game, branch, seq)?
                        .ok_or_else(|| bad(seq, "missing from the log".into()))?;
                    let (step, stored_seq) = decode_step(&s, &raw).map_err(|why| bad(seq, why))?;
                    if stored_seq != seq {
                        return Err(bad(seq, format!("the stored event says seq {stored_seq}")));
                    }
                    step
                }
            };
            out.push(step);
        }
        Ok(())
    }

    /// Own events of one branch with seqs in `lo..=hi`, checked gap-free,
    /// each read by `decode` (which also gives its seq).
    fn read_own<T>(
        &self,
        game: &str,
        branch: &str,
        (lo, hi): (u64, u64),
        decode: Decode<T>,
        out: &mut Vec<T>,
    ) -> Result<(), StoreError> {
        let s = self.sled()?;
        let bad = |seq: u64, why: String| bad_event(game, branch, seq, why);
        let mut expect = lo;
        // Held pointers first: one that goes into sled meanwhile is then
        // found in one or both (see `segments`).
        let waiting = s
            .segments
            .waiting_for(&branch_prefix(game, branch), (lo, hi));
        let mut each = |seq: u64, raw: &[u8]| {
            let (event, stored_seq) = decode(&s, raw).map_err(|why| bad(expect, why))?;
            if seq != expect {
                let why = format!("missing: the next stored event says seq {seq}");
                return Err(bad(expect, why));
            }
            if stored_seq != seq {
                return Err(bad(seq, format!("the stored event says seq {stored_seq}")));
            }
            out.push(event);
            expect += 1;
            Ok(())
        };
        let mut next = match in_sled(waiting.as_ref(), (lo, hi)) {
            Some(range) => each_entry(&s.events, game, branch, range, &mut each)?,
            None => lo,
        };
        for (first, pack) in waiting.iter().flat_map(|held| &held.packs) {
            give(game, branch, (*first, pack), hi, &mut next, &mut each)?;
        }
        if expect != hi + 1 {
            return Err(bad(expect, "missing from the log".into()));
        }
        Ok(())
    }
}

/// Where an imported event is kept: in its chunk's record in the appends'
/// log (where its bytes start among the records, and how many), or whole
/// in sled (a creation, as every creation is).
enum Imported {
    InRecord(usize, usize),
    Whole(Vec<u8>),
}

/// Calls `each` with the seq and entry of every own event of `branch` with
/// seqs `lo..=hi` that `tree` (`events` or `forms`) holds, in order: an
/// entry on its own, or one of a pack (see [`layout::PACKED`]) that holds a
/// run of them from its key's seq, which may come before `lo`. An entry of
/// a seq given already (a form a pack holds, put again on its own as an
/// opening puts appends from their record) is the same, and is passed over.
/// The seq after the last one given.
fn each_entry(
    tree: &sled::Tree,
    game: &str,
    branch: &str,
    (lo, hi): (u64, u64),
    mut each: impl FnMut(u64, &[u8]) -> Result<(), StoreError>,
) -> Result<u64, StoreError> {
    // The pack that `lo` may fall in starts at the last key before it.
    let before = tree
        .range(seq_key(game, branch, 0)..seq_key(game, branch, lo))
        .next_back()
        .transpose()?
        .filter(|(_, raw)| raw.first() == Some(&layout::PACKED))
        .map(|(key, _)| key);
    let from = before.map_or_else(|| seq_key(game, branch, lo), |key| key.to_vec());
    let mut next = lo;
    for item in tree.range(from..=seq_key(game, branch, hi)) {
        let (key, raw) = item?;
        let first = seq_in(&key, (0, hi)).map_err(|why| bad_event(game, branch, lo, why))?;
        give(game, branch, (first, &raw), hi, &mut next, &mut each)?;
    }
    Ok(next)
}

/// [`each_entry`]'s step: the entries of `raw` (from seq `first`) up to
/// `hi`, from `next` on.
fn give(
    game: &str,
    branch: &str,
    (first, raw): (u64, &[u8]),
    hi: u64,
    next: &mut u64,
    each: &mut impl FnMut(u64, &[u8]) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    for (seq, entry) in (first..).zip(layout::unpack(raw)) {
        if seq > hi {
            break;
        }
        let entry = entry.map_err(|why| bad_event(game, branch, seq, why))?;
        if seq >= *next {
            each(seq, entry)?;
            *next = seq + 1;
        }
    }
    Ok(())
}

/// The stored bytes of the own event of `branch` at `seq`: its entry of
/// `events`, or its part of the pack that holds it.
fn own_entry(s: &Sled, game: &str, branch: &str, seq: u64) -> Result<Option<Vec<u8>>, StoreError> {
    let mut found = None;
    let mut take = |_, raw: &[u8]| {
        found = Some(raw.to_vec());
        Ok(())
    };
    // Held pointers first, as `read_own` reads them.
    let prefix = branch_prefix(game, branch);
    if let Some(held) = s.segments.waiting_for(&prefix, (seq, seq)) {
        for (first, pack) in &held.packs {
            give(game, branch, (*first, pack), seq, &mut { seq }, &mut take)?;
        }
        return Ok(found);
    }
    // Most others are on their own: one lookup.
    if let Some(raw) = s.events.get(seq_key(game, branch, seq))? {
        if raw.first() != Some(&layout::PACKED) {
            return Ok(Some(raw.to_vec()));
        }
    }
    each_entry(&s.events, game, branch, (seq, seq), &mut take)?;
    Ok(found)
}

/// The seqs of `lo..=hi` to read from sled, given the run of held pointers
/// read first (see `segments`): those before it. The run's own seqs are
/// read from it alone, since sled may still hold what a crash left past a
/// head there, which only the run's going into sled overwrites.
fn in_sled(held: Option<&segments::Held>, (lo, hi): (u64, u64)) -> Option<(u64, u64)> {
    let last = match held {
        Some(held) if held.from <= hi => held.from.checked_sub(1)?,
        _ => hi,
    };
    (lo <= last).then_some((lo, last))
}

/// An append's events chained on `before` as the group writes them, with
/// the receipt they make.
fn pending(
    game: &str,
    branch: &str,
    before: (u64, String),
    receipt_key: Option<Vec<u8>>,
    events: &[Event],
) -> (commit::Pending, Receipt) {
    let last = events.last().expect("at least one draft");
    let receipt = Receipt {
        first_seq: before.0 + 1,
        hashes: events.iter().map(|e| e.hash.clone()).collect(),
        retried: false,
    };
    let pending = commit::Pending {
        game: game.to_string(),
        branch: branch.to_string(),
        head_key: branch_key(game, branch),
        chained_on: encode_head(before.0, &before.1),
        head_after: encode_head(last.seq, &last.hash),
        events: events
            .iter()
            .map(|e| (seq_key(game, branch, e.seq), to_json(e), encode_form(e)))
            .collect(),
        receipt: receipt_key.map(|key| (key, to_json(&receipt))),
        before,
        plays: super::plays(events.iter().map(|e| &e.body)),
    };
    (pending, receipt)
}

impl Log for SledLog {
    fn create_game(&self, meta: &GameMeta, created: Draft) -> Result<Appended, StoreError> {
        self.writable()?;
        let s = self.sled()?;
        check_game_id(&meta.game)?;
        check_drafts(std::slice::from_ref(&created), 1)?;
        let game = meta.game.as_str();
        let events = place(game, MAIN_BRANCH, 0, "", None, vec![created]);
        let record = BranchRecord::main_of(meta, &events[0].hash, s.db.generate_id()?);
        let first = &events[0];
        let stored = encode_stored(&s, first)?;
        tx((&s.games, &s.branches, &s.heads, &s.events).transaction(
            |(games, branches, heads, evs)| {
                if games.get(game.as_bytes())?.is_some() {
                    return abort(StoreError::GameExists(game.to_string()));
                }
                games.insert(game.as_bytes(), to_json(meta))?;
                branches.insert(branch_key(game, MAIN_BRANCH), to_json(&record))?;
                heads.insert(branch_key(game, MAIN_BRANCH), encode_head(1, &first.hash))?;
                evs.insert(seq_key(game, MAIN_BRANCH, 1), stored.as_slice())?;
                Ok(())
            },
        ))?;
        if let Err(e) = self.durable() {
            self.failed(&e, |u| {
                u.games.insert(game.to_string());
            });
            return Err(e);
        }
        Ok(Appended {
            receipt: Receipt {
                first_seq: 1,
                hashes: vec![first.hash.clone()],
                retried: false,
            },
            events,
        })
    }

    fn game(&self, game: &str) -> Result<Option<GameMeta>, StoreError> {
        if self.hidden(game, None) {
            return Ok(None);
        }
        let s = self.sled()?;
        s.games
            .get(game.as_bytes())?
            .map(|raw| from_json("game record", &raw))
            .transpose()
    }

    fn games(&self) -> Result<Vec<GameMeta>, StoreError> {
        let s = self.sled()?;
        let all: Vec<GameMeta> = s
            .games
            .iter()
            .map(|item| from_json("game record", &item?.1))
            .collect::<Result<_, _>>()?;
        Ok(all
            .into_iter()
            .filter(|g| !self.hidden(&g.game, None))
            .collect())
    }

    fn games_after(&self, after: Option<&str>, max: usize) -> Result<Vec<GameMeta>, StoreError> {
        let s = self.sled()?;
        let range = match after {
            Some(after) => s
                .games
                .range::<&[u8], _>((Bound::Excluded(after.as_bytes()), Bound::Unbounded)),
            None => s.games.iter(),
        };
        let page: Vec<GameMeta> = range
            .take(max)
            .map(|item| from_json("game record", &item?.1))
            .collect::<Result<_, _>>()?;
        Ok(page
            .into_iter()
            .filter(|g| !self.hidden(&g.game, None))
            .collect())
    }

    fn admin_token_hash(&self) -> Result<Option<String>, StoreError> {
        let s = self.sled()?;
        s.settings
            .get(ADMIN_TOKEN_KEY)?
            .map(|raw| {
                String::from_utf8(raw.to_vec())
                    .map_err(|e| StoreError::corrupt("admin token hash", e))
            })
            .transpose()
    }

    fn set_admin_token_hash(&self, hash: &str) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        s.settings.insert(ADMIN_TOKEN_KEY, hash.as_bytes())?;
        self.durable().inspect_err(|e| self.failed(e, |_| {}))
    }

    fn take_back(
        &self,
        game: &str,
        from: &str,
        head: Head<'_>,
        branch: &str,
    ) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        let from_key = branch_key(game, from);
        let at = encode_head(head.seq, head.hash);
        let check = commit::Pending {
            game: game.to_string(),
            branch: from.to_string(),
            head_key: from_key.clone(),
            chained_on: at.clone(),
            before: (head.seq, head.hash.to_string()),
            events: Vec::new(),
            head_after: at,
            receipt: None,
            plays: false,
        };
        match self.close_line(check) {
            commit::Outcome::Written => {}
            commit::Outcome::Moved(seq, _) => {
                return Err(StoreError::Conflict {
                    expected: head.seq,
                    head: seq,
                })
            }
            // Another take-back of the line has begun (a check carries no
            // key, so none is retried).
            commit::Outcome::Closed | commit::Outcome::Retried(_) => {
                return Err(StoreError::Conflict {
                    expected: head.seq,
                    head: head.seq,
                })
            }
            commit::Outcome::Missing => return Err(self.missing(game, from)?),
            commit::Outcome::Failed(e) => return Err(e),
        }
        if let Err(e) = self.mark_taken_back(&s, game, &from_key, branch) {
            self.reopen_line(&from_key);
            return Err(e);
        }
        // Marked, the line stays closed here even if this sync fails.
        self.durable()
    }

    fn mark_over(&self, game: &str) -> Result<(), StoreError> {
        let s = self.sled()?;
        s.games.fetch_and_update(game.as_bytes(), |raw| {
            let raw = raw?;
            match serde_json::from_slice::<GameMeta>(raw) {
                Ok(mut meta) if !meta.over => {
                    meta.over = true;
                    Some(to_json(&meta))
                }
                // Already marked, or unreadable (left for its reader to report).
                _ => Some(raw.to_vec()),
            }
        })?;
        Ok(())
    }

    fn branch(&self, game: &str, branch: &str) -> Result<Option<BranchRecord>, StoreError> {
        if self.hidden(game, Some(branch)) {
            return Ok(None);
        }
        let s = self.sled()?;
        let key = branch_key(game, branch);
        let Some(raw) = s.branches.get(&key)? else {
            return Ok(None);
        };
        let mut record: BranchRecord = from_json("branch record", &raw)?;
        let raw_head = s.heads.get(&key)?.ok_or_else(|| {
            StoreError::corrupt("branch head", format!("branch `{branch}` has none"))
        })?;
        (record.head_seq, record.head_hash) =
            self.visible_head(game, branch, decode_head(&raw_head)?);
        Ok(Some(record))
    }

    fn branches(&self, game: &str) -> Result<Vec<BranchRecord>, StoreError> {
        let s = self.sled()?;
        let mut records = Vec::new();
        for item in s.branches.scan_prefix(game_prefix(game)) {
            let (key, _) = item?;
            let name = std::str::from_utf8(&key[game.len() + 1..])
                .map_err(|e| StoreError::corrupt("branch key", e))?;
            if let Some(r) = self.branch(game, name)? {
                records.push(r);
            }
        }
        records.sort_by_key(|r| r.order);
        Ok(records)
    }

    fn append(
        &self,
        game: &str,
        branch: &str,
        expected_seq: Option<u64>,
        idempotency_key: Option<&str>,
        mut drafts: Vec<Draft>,
    ) -> Result<Appended, StoreError> {
        self.writable()?;
        if drafts.is_empty() {
            return Err(StoreError::InvalidEvent {
                seq: 0,
                why: "an append needs at least one event".into(),
            });
        }
        let receipt_key = idempotency_key.map(|key| idem_key(game, branch, key));
        if let Some(key) = idempotency_key {
            if let Some(receipt) = self.receipt(game, branch, key)? {
                return Ok(Appended {
                    receipt,
                    events: Vec::new(),
                });
            }
        }
        let mut read = self.head(game, branch)?;
        // Play on a line taken back is refused here as by the statement on
        // PostgreSQL; one being taken back now, by the group (`Closed`).
        let plays = super::plays(drafts.iter().map(|d| &d.body));
        if plays && !self.line_open(game, branch)? {
            return Err(StoreError::Conflict {
                expected: read.0,
                head: read.0,
            });
        }
        // Without an expected seq a moved head is no conflict: the events
        // are chained again on the new one.
        for _ in 0..APPEND_RETRIES {
            let (head, head_hash) = read;
            if let Some(expected) = expected_seq {
                if expected != head {
                    return Err(StoreError::Conflict { expected, head });
                }
            }
            check_drafts(&drafts, head + 1)?;
            let events = place(game, branch, head, &head_hash, idempotency_key, drafts);
            let (pending, receipt) = pending(
                game,
                branch,
                (head, head_hash),
                receipt_key.clone(),
                &events,
            );
            match self.commit(pending) {
                commit::Outcome::Written => return Ok(Appended { receipt, events }),
                commit::Outcome::Retried(receipt) => {
                    return Ok(Appended {
                        receipt,
                        events: Vec::new(),
                    })
                }
                commit::Outcome::Moved(seq, hash) => {
                    read = (seq, hash);
                    drafts = super::unplace(events);
                }
                commit::Outcome::Missing => return Err(self.missing(game, branch)?),
                // The line is being taken back: the caller reads it again.
                commit::Outcome::Closed => {
                    return Err(StoreError::Conflict {
                        expected: head,
                        head,
                    })
                }
                commit::Outcome::Failed(e) => return Err(e),
            }
        }
        Err(StoreError::Conflict {
            expected: read.0,
            head: self.head(game, branch)?.0,
        })
    }

    /// The group checks the head the events are chained on, and the key,
    /// as it writes (see `commit::check_one`): only whether the line is
    /// still open is looked at first (read once per line, see
    /// [`SledLog::line_open`]), not the head and the receipt again.
    fn append_on(
        &self,
        game: &str,
        branch: &str,
        head: Head<'_>,
        idempotency_key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Option<Appended>, StoreError> {
        self.writable()?;
        if !self.line_open(game, branch)? {
            return Ok(None);
        }
        check_drafts(&drafts, head.seq + 1)?;
        let receipt_key = idempotency_key.map(|key| idem_key(game, branch, key));
        let before = (head.seq, head.hash.to_string());
        let events = place(game, branch, head.seq, head.hash, idempotency_key, drafts);
        let (pending, receipt) = pending(game, branch, before, receipt_key, &events);
        match self.commit(pending) {
            commit::Outcome::Written => Ok(Some(Appended { receipt, events })),
            commit::Outcome::Retried(_)
            | commit::Outcome::Moved(..)
            | commit::Outcome::Missing
            | commit::Outcome::Closed => Ok(None),
            commit::Outcome::Failed(e) => Err(e),
        }
    }

    fn receipt(
        &self,
        game: &str,
        branch: &str,
        idempotency_key: &str,
    ) -> Result<Option<Receipt>, StoreError> {
        let s = self.sled()?;
        let Some(raw) = s.idempotency.get(idem_key(game, branch, idempotency_key))? else {
            return Ok(None);
        };
        let mut receipt: Receipt = from_json("idempotency receipt", &raw)?;
        receipt.retried = true;
        // A receipt of an append that failed to sync, or whose head a crash
        // lost, answers nothing.
        let (head, _) = self.head(game, branch)?;
        if !receipt_reached(&s, game, branch, head, &receipt)? {
            return Ok(None);
        }
        Ok(Some(receipt))
    }

    fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: &str,
        created_at_ms: u64,
        first: Option<Draft>,
    ) -> Result<BranchRecord, StoreError> {
        self.writable()?;
        let s = self.sled()?;
        check_name("branch name", name)?;
        let (head, head_hash) = self.head(game, from)?;
        check_fork_seq(game, from, at, head)?;
        // Events up to the head never change, so the hash at `at` read here
        // is still right when the transaction below commits.
        let at_hash = if at == head {
            head_hash
        } else {
            self.read(game, from, at, Some(at))?.remove(0).hash
        };
        let drafts: Vec<Draft> = first.into_iter().collect();
        check_drafts(&drafts, at + 1)?;
        let events = place(game, name, at, &at_hash, None, drafts);
        let reseed = events.first().and_then(|e| match e.body {
            Body::Reseeded { seed } => Some(seed),
            _ => None,
        });
        let record = BranchRecord {
            name: name.to_string(),
            parent: Some(from.to_string()),
            fork_seq: Some(at),
            created_at_ms,
            reseed,
            order: s.db.generate_id()?,
            head_seq: events.last().map_or(at, |e| e.seq),
            head_hash: events
                .last()
                .map_or_else(|| at_hash.clone(), |e| e.hash.clone()),
            taken_back: false,
        };
        let bkey = branch_key(game, name);
        let stored = events
            .iter()
            .map(|e| encode_stored(&s, e))
            .collect::<Result<Vec<_>, _>>()?;
        tx(
            (&s.branches, &s.heads, &s.events).transaction(|(branches, heads, evs)| {
                if branches.get(&bkey)?.is_some() {
                    return abort(StoreError::BranchExists {
                        game: game.to_string(),
                        branch: name.to_string(),
                    });
                }
                branches.insert(bkey.as_slice(), to_json(&record))?;
                let (head_seq, head_hash) = events
                    .last()
                    .map_or((at, at_hash.as_str()), |e| (e.seq, e.hash.as_str()));
                heads.insert(bkey.as_slice(), encode_head(head_seq, head_hash))?;
                for (event, stored) in events.iter().zip(&stored) {
                    evs.insert(seq_key(game, name, event.seq), stored.as_slice())?;
                }
                Ok(())
            }),
        )?;
        if let Err(e) = self.durable() {
            self.failed(&e, |u| {
                u.branches.insert((game.to_string(), name.to_string()));
            });
            return Err(e);
        }
        Ok(record)
    }

    fn read(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<Event>, StoreError> {
        let decode: Decode<Event> = |s, raw| {
            decode_stored(s, raw).map(|e| {
                let seq = e.seq;
                (e, seq)
            })
        };
        self.read_with(game, branch, from_seq, to_seq, |owner, range, out| {
            let first = out.len();
            self.read_own(game, owner, range, decode, out)?;
            self.attach_forms(game, owner, range, &mut out[first..])
        })
    }

    fn read_steps(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<FoldStep>, StoreError> {
        self.read_with(game, branch, from_seq, to_seq, |owner, range, out| {
            self.read_own_steps(game, owner, range, out)
        })
    }

    fn put_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        let s = self.sled()?;
        let owner = self.owner(game, branch, snapshot.seq)?;
        s.snapshots
            .insert(seq_key(game, &owner, snapshot.seq), to_json(snapshot))?;
        Ok(())
    }

    fn snapshot_at_or_before(
        &self,
        game: &str,
        branch: &str,
        at: u64,
    ) -> Result<Option<Snapshot>, StoreError> {
        let s = self.sled()?;
        let mut rec = self.record(game, branch)?;
        let mut hi = at;
        loop {
            let lower = rec.fork_seq.unwrap_or(0);
            if hi > lower {
                let range = seq_key(game, &rec.name, lower + 1)..=seq_key(game, &rec.name, hi);
                if let Some(item) = s.snapshots.range(range).next_back() {
                    let (_, raw) = item?;
                    return Ok(Some(from_json("snapshot", &raw)?));
                }
            }
            match &rec.parent {
                Some(parent) => {
                    hi = hi.min(lower);
                    rec = self.record(game, &parent.clone())?;
                }
                None => return Ok(None),
            }
        }
    }

    fn drop_snapshots(&self) -> Result<u64, StoreError> {
        let s = self.sled()?;
        let n = s.snapshots.len() as u64;
        s.snapshots.clear()?;
        Ok(n)
    }

    fn import_events(&self, game: &str, events: &[Staged]) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        check_game_id(game)?;
        // The chunk's events, then their forms, go into the appends' log as
        // one record, as an append's do (sled's inserts of their bytes, and
        // its writing of its pages again and again, were most of an
        // import's cost); sled gets where each lies, in packs (see
        // `layout::PACKED`). A creation stays in sled, as every creation
        // does.
        let mut records = Records::with_room(
            events
                .iter()
                .map(|e| e.json.as_ref().map_or(1024, |j| j.len()) + 64)
                .sum(),
        );
        records.begin();
        let mut placed = Vec::with_capacity(events.len());
        for Staged { event: e, json } in events {
            if e.game != game {
                return Err(StoreError::InvalidEvent {
                    seq: e.seq,
                    why: format!("it names game `{}`, not `{game}`", e.game),
                });
            }
            check_name("branch name", &e.branch)?;
            let key = seq_key(game, &e.branch, e.seq);
            let event = match (json, &e.body) {
                (_, Body::GameCreated(_)) => Imported::Whole(encode_stored(&s, e)?),
                (Some(json), _) => {
                    Imported::InRecord(records.put(Tree::Events, &key, json.as_bytes()), json.len())
                }
                (None, _) => {
                    let bytes = encode_stored(&s, e)?;
                    Imported::InRecord(records.put(Tree::Events, &key, &bytes), bytes.len())
                }
            };
            placed.push((key, event));
        }
        let forms: Vec<_> = events
            .iter()
            .zip(&placed)
            .map(|(staged, (key, _))| {
                let form = encode_form(&staged.event);
                (!form.is_empty()).then(|| (records.put(Tree::Forms, key, &form), form.len()))
            })
            .collect();
        records.end();
        self.write_import(&s, &records, |segment, start| {
            let pointer = |(at, len)| InLog::among((segment, start), at, len).encode();
            let (mut form_runs, mut event_runs) = (Runs::default(), Runs::default());
            let mut packs = (Vec::new(), Vec::new());
            let most = layout::PACK_BYTES;
            for ((key, event), form) in placed.iter().zip(forms) {
                let form = form.map(pointer);
                let form = form.as_ref().map_or(&[][..], |p| &p[..]);
                form_runs.push(key, form, most, &mut packs.0);
                match event {
                    Imported::InRecord(at, len) => {
                        event_runs.push(key, &pointer((*at, *len)), most, &mut packs.1)
                    }
                    Imported::Whole(bytes) => event_runs.push(key, bytes, most, &mut packs.1),
                }
            }
            packs.0.extend(form_runs.take_all());
            packs.1.extend(event_runs.take_all());
            let batch = |packs: Vec<runs::Put>| {
                let mut batch = sled::Batch::default();
                for (key, pack) in packs {
                    batch.insert(key, pack);
                }
                batch
            };
            s.events.apply_batch(batch(packs.1))?;
            s.forms.apply_batch(batch(packs.0))?;
            Ok(())
        })
    }

    fn import_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        let s = self.sled()?;
        s.snapshots
            .insert(seq_key(game, branch, snapshot.seq), to_json(snapshot))?;
        Ok(())
    }

    fn own_event(&self, game: &str, branch: &str, seq: u64) -> Result<Option<Event>, StoreError> {
        let s = self.sled()?;
        let Some(raw) = own_entry(&s, game, branch, seq)? else {
            return Ok(None);
        };
        decode_stored(&s, &raw)
            .map(Some)
            .map_err(|why| StoreError::BadEvent {
                game: game.to_string(),
                branch: branch.to_string(),
                seq,
                why,
            })
    }

    fn import_branches(&self, game: &str, branches: &[BranchRecord]) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        check_game_id(game)?;
        if s.games.contains_key(game.as_bytes())? {
            return Err(StoreError::GameExists(game.to_string()));
        }
        // The events are staged already; branches and heads go in one batch,
        // and the game record is written last as the commit point: until it
        // exists the game is invisible, and a retried import overwrites any
        // leftovers.
        let mut branch_batch = sled::Batch::default();
        let mut head_batch = sled::Batch::default();
        for b in branches {
            check_name("branch name", &b.name)?;
            // Fresh creation-order ids keep imported branches ordered among
            // the ones forked later in this database.
            let record = BranchRecord {
                order: s.db.generate_id()?,
                ..b.clone()
            };
            branch_batch.insert(branch_key(game, &b.name), to_json(&record));
            head_batch.insert(
                branch_key(game, &b.name),
                encode_head(b.head_seq, &b.head_hash),
            );
        }
        s.branches.apply_batch(branch_batch)?;
        s.heads.apply_batch(head_batch)?;
        Ok(())
    }

    fn commit_import(&self, meta: &GameMeta) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        let game = meta.game.as_str();
        // Its events durable before the game can be seen (see
        // `import_events`).
        self.sync_log()?;
        let swapped =
            s.games
                .compare_and_swap(game.as_bytes(), None::<&[u8]>, Some(to_json(meta)))?;
        if swapped.is_err() {
            return Err(StoreError::GameExists(game.to_string()));
        }
        self.durable().inspect_err(|e| {
            self.failed(e, |u| {
                u.games.insert(game.to_string());
            })
        })
    }

    /// What an import of `game` cut short by a crash left (the game has no
    /// record) goes before another begins: a pack of forms (see
    /// [`layout::PACKED`]) need not be overwritten by one of another run,
    /// nor a snapshot by one taken at other seqs.
    fn begin_import(&self, game: &str) -> Result<(), StoreError> {
        self.discard_import(game)
    }

    fn discard_import(&self, game: &str) -> Result<(), StoreError> {
        let s = self.sled()?;
        if s.games.contains_key(game.as_bytes())? {
            return Ok(());
        }
        for tree in [&s.events, &s.forms, &s.branches, &s.heads, &s.snapshots] {
            let mut batch = sled::Batch::default();
            for key in tree.scan_prefix(game_prefix(game)).keys() {
                batch.remove(key?);
            }
            tree.apply_batch(batch)?;
        }
        Ok(())
    }
}
