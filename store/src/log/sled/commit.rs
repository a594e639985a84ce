//! Group commit of appends: many appenders, one record and one `fdatasync`
//! per group.
//!
//! An appender does its own work outside any lock: it reads the branch head,
//! chains and hashes its events and encodes them. It then queues a
//! [`Pending`] and either waits or, when no group is being written, leads
//! the next one: it takes what is queued (up to [`GROUP_EVENTS`] events or
//! [`GROUP_BYTES`] bytes, at least one append), checks each in turn and
//! puts it in a record of its own, writes the records at the end of the
//! appends' log in one write and syncs that file once (see
//! [`super::wal`]), then puts each append into sled's memory, and hands
//! every appender of the group its outcome. While a leader syncs the next group gathers, so the
//! more writers there are the larger the groups and the fewer syncs per
//! event.
//!
//! The leader is the only writer of an existing branch's head, so checking
//! a head and then writing needs no sled transaction (which would take
//! sled's process-wide write lock, that every read waits on, and write its
//! buffer out twice). Each append is checked again when written, since
//! another may have moved the head since it was read: its idempotency key (a
//! retry gets the stored receipt) and the head it was chained on, as sled
//! holds it or as an earlier append of the same group moved it. Its keys
//! are written in an order that a crash cannot break (see [`put_one`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex, PoisonError, RwLock};

use super::disk::Unsynced;
use super::layout::{decode_head, InLog, Sled};
use super::runs::{Put, Runs};
use super::wal::{Records, Tree};
use super::SledLog;
use crate::error::StoreError;
use crate::log::{from_json, Receipt};

/// Events in one group at most (a larger single append goes alone).
const GROUP_EVENTS: usize = 1_000;
/// Encoded bytes in one group at most (a larger single append goes alone).
const GROUP_BYTES: usize = 1024 * 1024;

/// Lines remembered open at most (see [`Groups::open`]): a few MiB.
const OPEN_LINES_KEPT: usize = 65_536;

/// One append, ready to write.
pub(super) struct Pending {
    pub game: String,
    pub branch: String,
    /// The branch's key in `heads`.
    pub head_key: Vec<u8>,
    /// The head value the events were chained on.
    pub chained_on: Vec<u8>,
    /// `(seq, hash)` before the append, restored if the group fails to sync.
    pub before: (u64, String),
    /// `(key, JSON, forms entry)` of each event (see [`super::layout::encode_form`]).
    pub events: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)>,
    /// The head value after the append.
    pub head_after: Vec<u8>,
    /// `(key, JSON)` of the idempotency receipt, for a keyed append.
    pub receipt: Option<(Vec<u8>, Vec<u8>)>,
    /// Whether the events hold an action (not only notes, names or dice
    /// shares): play, refused on a line being taken back.
    pub plays: bool,
}

impl Pending {
    /// Bytes of the events' puts, counting a form's key even where there is
    /// no form to put (enough to size a group by).
    fn bytes(&self) -> usize {
        self.events
            .iter()
            .map(|(k, json, form)| 2 * k.len() + json.len() + form.len())
            .sum()
    }

    /// The bytes of this append's record (see [`Records::put`]).
    fn record_bytes(&self) -> usize {
        let receipt = self.receipt.as_ref().map_or(0, |(k, v)| k.len() + v.len());
        let head = self.head_key.len() + self.head_after.len();
        let puts = 2 * self.events.len() + usize::from(self.receipt.is_some()) + 1;
        self.bytes() + receipt + head + puts * Records::PUT_BYTES + Records::RECORD_BYTES
    }
}

/// What became of one append.
#[derive(Debug)]
pub(super) enum Outcome {
    /// Written and durable.
    Written,
    /// The key was used before: the stored receipt.
    Retried(Receipt),
    /// The head moved after the append read it: `(seq, hash)` now.
    Moved(u64, String),
    /// The branch is not there.
    Missing,
    /// Play on a line being taken back, or taken back (see
    /// `SledLog::close_line`).
    Closed,
    Failed(StoreError),
}

/// The queue appenders share.
#[derive(Default)]
pub(super) struct Groups {
    state: Mutex<Queue>,
    /// The `heads` keys of the lines this process has begun to take back:
    /// a group writes no play on them. Kept for the life of the process,
    /// since an appender that found a line open may join a group at any
    /// time after; a later opening reads the mark the take-back wrote.
    closed: Mutex<HashSet<Vec<u8>>>,
    /// The `heads` keys of lines whose branch record this process has read
    /// open (not taken back), so an append need not read it again: only
    /// this process writes the store, and a line it begins to take back is
    /// in `closed` from then on, which the group checks.
    open: RwLock<HashSet<Vec<u8>>>,
    /// Forms of written appends not yet in `forms` (see [`super::runs`]).
    runs: Mutex<Runs>,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Queued>,
    /// Whether a leader is writing a group now.
    leading: bool,
}

/// An append waiting in the queue, and where its appender waits.
type Queued = (Arc<Slot>, Pending);

/// Where one appender waits: woken once, to take its outcome or to lead
/// the next group, so a group's end wakes its own appenders and the next
/// leader rather than every appender waiting.
#[derive(Default)]
struct Slot {
    turn: Mutex<Turn>,
    woken: Condvar,
}

#[derive(Default)]
enum Turn {
    #[default]
    Waiting,
    Lead,
    Done(Outcome),
}

impl Slot {
    fn wake(&self, turn: Turn) {
        *self.turn.lock().unwrap_or_else(PoisonError::into_inner) = turn;
        self.woken.notify_one();
    }
}

impl SledLog {
    /// Writes `pending` in the next group and returns once it is durable
    /// (or refused).
    pub(super) fn commit(&self, pending: Pending) -> Outcome {
        let slot = Arc::new(Slot::default());
        let mut lead = {
            let mut queue = self.queue();
            queue.waiting.push_back((Arc::clone(&slot), pending));
            !std::mem::replace(&mut queue.leading, true)
        };
        loop {
            if lead {
                self.lead_group();
            }
            let mut turn = slot.turn.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                match std::mem::take(&mut *turn) {
                    Turn::Done(outcome) => return outcome,
                    Turn::Lead => break,
                    Turn::Waiting => {
                        turn = slot
                            .woken
                            .wait(turn)
                            .unwrap_or_else(PoisonError::into_inner)
                    }
                }
            }
            lead = true;
        }
    }

    fn closed_lines(&self) -> std::sync::MutexGuard<'_, HashSet<Vec<u8>>> {
        self.groups
            .closed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Begins to take back the line of `check` (an append of no events,
    /// chained on the head the take-back read): `Written` when the head is
    /// still that one. From then on no group writes a play on the line, and
    /// no group under way holds one. `Closed` when another take-back of the
    /// line has begun; anything but `Written` leaves the line open.
    pub(super) fn close_line(&self, check: Pending) -> Outcome {
        if !self.closed_lines().insert(check.head_key.clone()) {
            return Outcome::Closed;
        }
        let key = check.head_key.clone();
        // In the queue behind every group that may have checked a play on
        // the line before it was marked: each is written by the time this
        // check is, and every later group sees the mark.
        let outcome = self.commit(check);
        if !matches!(outcome, Outcome::Written) {
            self.reopen_line(&key);
        }
        outcome
    }

    /// Whether the line of `head_key` is known to be open (see
    /// [`Groups::open`]).
    pub(super) fn known_open(&self, head_key: &[u8]) -> bool {
        let open = self.groups.open.read();
        open.unwrap_or_else(PoisonError::into_inner)
            .contains(head_key)
    }

    /// Remembers that the line of `head_key` was read open. A long-running
    /// process that has appended to very many lines forgets them all at
    /// once, and reads each again on its next append.
    pub(super) fn note_open(&self, head_key: &[u8]) {
        let mut open = self
            .groups
            .open
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        if open.len() >= OPEN_LINES_KEPT {
            open.clear();
        }
        open.insert(head_key.to_vec());
    }

    /// Undoes [`SledLog::close_line`] for a take-back that did not happen.
    pub(super) fn reopen_line(&self, head_key: &[u8]) {
        self.closed_lines().remove(head_key);
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.groups
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// As the leader: writes the next group, hands each of its appenders
    /// its outcome, and then the lead to the oldest appender still waiting
    /// (perhaps the leader itself), or gives it up when none is.
    fn lead_group(&self) {
        let group = take_group(&mut self.queue().waiting);
        // A leader that panicked would leave every later appender
        // waiting for ever: its group fails instead, and the store
        // acknowledges nothing more until a recovery.
        let (outcomes, packs) =
            std::panic::catch_unwind(AssertUnwindSafe(|| self.write_group(&group))).unwrap_or_else(
                |_| {
                    let e = StoreError::Unwritable {
                        path: self.path.clone(),
                        cause: "writing a group of appends failed unexpectedly".into(),
                    };
                    self.hide_written(&e, &group, &[]);
                    let failed = group
                        .iter()
                        .map(|_| Outcome::Failed(shared(&self.path, &e)));
                    (failed.collect(), Vec::new())
                },
            );
        for ((slot, _), outcome) in group.iter().zip(outcomes) {
            slot.wake(Turn::Done(outcome));
        }
        {
            let mut queue = self.queue();
            match queue.waiting.front() {
                Some((next, _)) => next.wake(Turn::Lead),
                None => queue.leading = false,
            }
        }
        self.keep_forms(packs);
    }

    /// Puts into `forms` the packs a durable group filled (see
    /// [`super::runs`]), once the next group is under way. A pack that
    /// cannot be put costs folds speed, not the appends: they read those
    /// events whole.
    fn keep_forms(&self, packs: Vec<Put>) {
        if packs.is_empty() {
            return;
        }
        // Not reopened for this: a store a fault left closed puts the forms
        // from the appends' log when it is.
        let open = self.sled.read().unwrap_or_else(PoisonError::into_inner);
        let Some(s) = open.as_ref().map(Arc::clone) else {
            return;
        };
        drop(open);
        if let Err(e) = put_packs(&s, packs) {
            tracing::warn!("fold forms not kept: {e}");
        }
    }

    /// Adds where the forms of a durable group's written appends lie (in
    /// `segment`, their group's records from `start` on) to their
    /// branches' runs; the packs they filled.
    fn gather_forms(
        &self,
        written: &[(&Pending, Placed)],
        (segment, start): (u32, u64),
    ) -> Vec<Put> {
        let mut runs = self.runs();
        let mut packs = Vec::new();
        for (p, placed) in written {
            for ((key, _, form), (_, at)) in p.events.iter().zip(placed) {
                let pointer = at.map(|at| InLog::among((segment, start), at, form.len()).encode());
                let entry = pointer.as_ref().map_or(&[][..], |p| &p[..]);
                runs.push(key, entry, super::layout::PACK_BYTES, &mut packs);
            }
        }
        packs
    }

    pub(super) fn runs(&self) -> std::sync::MutexGuard<'_, Runs> {
        self.groups
            .runs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Puts every run into `forms`, before a checkpoint empties the
    /// appends' log (see [`super::runs`]).
    pub(super) fn put_runs(&self, s: &Sled) -> Result<(), StoreError> {
        let packs = self.runs().take_all();
        put_packs(s, packs)
    }

    /// Writes an import's chunk of events (`records`) at the end of the
    /// appends' log, where they stay as appended events do, and `point`
    /// puts into sled where they lie (given the segment and where the
    /// records start) while no group moves the log; then a checkpoint if
    /// the segment is full, as after a group. Not synced here: the import
    /// syncs the log once, before its game becomes visible (see
    /// [`SledLog::sync_log`]); until then what it wrote is unreachable, and
    /// an import of the game begun again removes it.
    pub(super) fn write_import(
        &self,
        s: &Sled,
        records: &Records,
        point: impl FnOnce(u32, u64) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        if let Some(cause) = &self.unsynced().broken {
            return Err(StoreError::Unwritable {
                path: self.path.clone(),
                cause: cause.clone(),
            });
        }
        let mut wal = self.wal();
        let written = wal
            .append_growing(records)
            .and_then(|start| point(wal.number(), start))
            .and_then(|()| match wal.is_full() {
                true => self
                    .put_runs(s)
                    .and_then(|()| super::disk::checkpoint(&self.files, s, &mut wal)),
                false => Ok(()),
            });
        // The fault's lock before the log's (see `write_group`).
        drop(wal);
        if let Err(e) = &written {
            self.failed(e, |_| {});
        }
        written
    }

    /// Makes every record written to the appends' log durable.
    pub(super) fn sync_log(&self) -> Result<(), StoreError> {
        let synced = self.wal().sync();
        if let Err(e) = &synced {
            self.failed(e, |_| {});
        }
        synced
    }

    /// Writes one group and syncs it; one outcome per append, in order, and
    /// the packs of forms it filled (see [`super::runs`]).
    fn write_group(&self, group: &[Queued]) -> (Vec<Outcome>, Vec<Put>) {
        let all_failed = |e: &StoreError| {
            let failed = group.iter().map(|_| Outcome::Failed(shared(&self.path, e)));
            (failed.collect(), Vec::new())
        };
        // After a fault nothing is acknowledged until a recovery: a sync that
        // succeeded now could cover writes built on a failed one.
        if let Some(cause) = &self.unsynced().broken {
            return all_failed(&StoreError::Unwritable {
                path: self.path.clone(),
                cause: cause.clone(),
            });
        }
        let s = match self.sled() {
            Ok(s) => s,
            Err(e) => return all_failed(&e),
        };
        let mut outcomes = Vec::with_capacity(group.len());
        // Held for the whole group: its records are written before sled
        // points to them. A recovery takes the fault's lock first and the
        // log's after it, so a fault is noted once this is let go.
        let mut wal = self.wal();
        let closed = self.closed_lines();
        // Each append's record, all written at once; then sled is told.
        // The heads this group moves, for the checks of its later appends.
        let mut records = Records::with_room(group.iter().map(|(_, p)| p.record_bytes()).sum());
        let mut writing = Vec::new();
        let mut moved: HashMap<&[u8], &[u8]> = HashMap::new();
        for (_, p) in group {
            if p.plays && closed.contains(&p.head_key) {
                outcomes.push(Outcome::Closed);
                continue;
            }
            let moved_to = moved.get(p.head_key.as_slice()).copied();
            match check_one(&s, p, moved_to) {
                Ok(Some(outcome)) => outcomes.push(outcome),
                // A check of the head alone (see `SledLog::close_line`):
                // it is as it was.
                Ok(None) if p.events.is_empty() => outcomes.push(Outcome::Written),
                Ok(None) => {
                    writing.push((p, record_one(p, &mut records)));
                    moved.insert(&p.head_key, &p.head_after);
                    outcomes.push(Outcome::Written);
                }
                // Nothing of the group is written yet.
                Err(e) => return all_failed(&e),
            }
        }
        drop(closed);
        if records.is_empty() {
            return (outcomes, Vec::new());
        }
        // Durable before sled hears of it: sled may write its own buffers
        // out at any time, and a head it kept must have its event in the
        // log. So readers see an append once it is durable.
        let started = std::time::Instant::now();
        let written = wal
            .append(&records)
            .and_then(|start| wal.sync().map(|()| start));
        // For the operator: how long a durable write takes, and how many
        // appends shared it.
        metrics::histogram!("tabletape_sync_seconds").record(started.elapsed().as_secs_f64());
        metrics::histogram!("tabletape_group_commit_appends").record(group.len() as f64);
        let segment = wal.number();
        let put = written.and_then(|start| {
            writing
                .iter()
                .try_for_each(|(p, placed)| put_one(&s, p, (segment, start), placed))
                .map(|()| start)
        });
        let start = match put {
            Ok(start) => start,
            Err(e) => {
                // Some of the group may be in sled: hide it all. An append
                // that is durable though refused comes back with the log's
                // records at the recovery.
                drop(wal);
                self.hide_written(&e, group, &outcomes);
                return all_failed(&e);
            }
        };
        // Before the lead goes on, as every pointer held is durable.
        if let Err(e) = s.segments.put_full(&s.events) {
            tracing::warn!("appended events' pointers not packed yet: {e}");
        }
        let mut packs = self.gather_forms(&writing, (segment, start));
        // The group is durable in the appends' log whatever becomes of a
        // checkpoint; one that fails leaves sled to a recovery, which puts
        // the log's records again.
        let checkpointed = if wal.is_full() {
            put_packs(&s, std::mem::take(&mut packs))
                .and_then(|()| self.put_runs(&s))
                .and_then(|()| super::disk::checkpoint(&self.files, &s, &mut wal))
        } else {
            Ok(())
        };
        drop(wal);
        if let Err(e) = checkpointed {
            self.failed(&e, |_| {});
        }
        (outcomes, packs)
    }

    /// After a failed write or sync, hides from readers (and has a recovery
    /// remove) what this group wrote: the appends whose outcome so far is
    /// `Written`, each back to the head it was chained on. Nothing else: a
    /// head an append only read may be older than what is acknowledged.
    fn hide_written(&self, e: &StoreError, group: &[Queued], outcomes: &[Outcome]) {
        self.failed(e, |u: &mut Unsynced| {
            for ((_, p), o) in group.iter().zip(outcomes) {
                if matches!(o, Outcome::Written) {
                    u.heads
                        .entry((p.game.clone(), p.branch.clone()))
                        .or_insert_with(|| p.before.clone());
                }
            }
        });
    }
}

/// Puts packs of forms into `forms`.
fn put_packs(s: &Sled, packs: Vec<Put>) -> Result<(), StoreError> {
    for (key, pack) in packs {
        s.forms.insert(key, pack)?;
    }
    Ok(())
}

/// What becomes of one append of a group without writing it, or `None`
/// when it is to be written: a retry gets its receipt, a moved or missing
/// head is said so. `moved_to` is the head an earlier append of the group
/// gave the branch, which sled does not hold yet.
fn check_one(
    s: &Sled,
    p: &Pending,
    moved_to: Option<&[u8]>,
) -> Result<Option<Outcome>, StoreError> {
    let head = match moved_to {
        Some(head) => Some(sled::IVec::from(head)),
        None => s.heads.get(&p.head_key)?,
    };
    if let Some((key, _)) = &p.receipt {
        if let Some(raw) = s.idempotency.get(key)? {
            let mut receipt: Receipt = from_json("idempotency receipt", &raw)?;
            if receipt_holds(s, p, head.as_deref(), &receipt)? {
                receipt.retried = true;
                return Ok(Some(Outcome::Retried(receipt)));
            }
        }
    }
    Ok(match head {
        None => Some(Outcome::Missing),
        Some(head) if head != p.chained_on.as_slice() => {
            let (seq, hash) = decode_head(&head)?;
            Some(Outcome::Moved(seq, hash))
        }
        Some(_) => None,
    })
}

/// Where one append's record holds each of its events' JSON and fold form
/// (if it has one) among the group's records.
type Placed = Vec<(usize, Option<usize>)>;

/// Adds one append's record to the group's: its events, then their fold
/// forms (so the forms of an append of many lie together, for a fold to
/// read in few reads), its receipt, then its head.
fn record_one(p: &Pending, records: &mut Records) -> Placed {
    records.begin();
    let mut placed: Placed = p
        .events
        .iter()
        .map(|(key, json, _)| (records.put(Tree::Events, key, json), None))
        .collect();
    for ((key, _, form), (_, at)) in p.events.iter().zip(&mut placed) {
        if !form.is_empty() {
            *at = Some(records.put(Tree::Forms, key, form));
        }
    }
    if let Some((key, json)) = &p.receipt {
        records.put(Tree::Idempotency, key, json);
    }
    records.put(Tree::Heads, &p.head_key, &p.head_after);
    records.end();
    placed
}

/// Puts one append of a group, its record durable (at `start` of
/// `segment`, where the group's records begin), into sled: its events (as
/// where the record holds them, see [`super::layout::IN_LOG`], held until
/// sled takes them in packs: see [`super::segments`]), its receipt, then
/// its head, in that order. A head sled keeps after a crash has its record
/// in the log, which an opening puts again (events, then receipt, then
/// head) past the last checkpoint; events past a head are unreachable and
/// overwritten by the next append; a receipt past its head is not believed
/// (see [`receipt_holds`]).
///
/// The events' fold forms stay in the record too: the leader adds where
/// each lies to its branch's run once the group is durable, and puts the
/// runs into sled in packs (see [`super::runs`]); an opening puts them from
/// the record. So a form is never in sled for an event that is not, the
/// group's one thread does not wait on them, and a fold reads an event
/// whole while its form is in neither.
fn put_one(
    s: &Sled,
    p: &Pending,
    (segment, start): (u32, u64),
    placed: &Placed,
) -> Result<(), StoreError> {
    for ((key, json, _), (at, _)) in p.events.iter().zip(placed) {
        let at = InLog::among((segment, start), *at, json.len());
        s.segments.hold(&s.events, key, at)?;
    }
    if let Some((key, json)) = &p.receipt {
        s.idempotency.insert(key.as_slice(), json.as_slice())?;
    }
    s.heads
        .insert(p.head_key.as_slice(), p.head_after.as_slice())?;
    Ok(())
}

/// Whether a stored receipt is of an append that reached its head: one
/// whose head a crash lost is not (its seqs may hold other events by now).
fn receipt_holds(
    s: &Sled,
    p: &Pending,
    head: Option<&[u8]>,
    receipt: &Receipt,
) -> Result<bool, StoreError> {
    let Some(head) = head else {
        return Ok(false);
    };
    let (head_seq, _) = decode_head(head)?;
    super::layout::receipt_reached(s, &p.game, &p.branch, head_seq, receipt)
}

/// `e` once for each append of a failed group: store errors are not `Clone`
/// (they carry sled's and the OS's), so each gets the same words.
fn shared(path: &std::path::Path, e: &StoreError) -> StoreError {
    match e {
        StoreError::Corrupt { what, why } => StoreError::Corrupt {
            what: what.clone(),
            why: why.clone(),
        },
        StoreError::Unwritable { path, cause } => StoreError::Unwritable {
            path: path.clone(),
            cause: cause.clone(),
        },
        other => StoreError::Unwritable {
            path: path.to_path_buf(),
            cause: other.to_string(),
        },
    }
}

/// The appends of the next group, oldest first.
fn take_group(waiting: &mut VecDeque<Queued>) -> Vec<Queued> {
    let mut group = Vec::new();
    let (mut events, mut bytes) = (0, 0);
    while let Some((_, next)) = waiting.front() {
        let (e, b) = (next.events.len(), next.bytes());
        if !group.is_empty() && (events + e > GROUP_EVENTS || bytes + b > GROUP_BYTES) {
            break;
        }
        events += e;
        bytes += b;
        group.extend(waiting.pop_front());
    }
    group
}
