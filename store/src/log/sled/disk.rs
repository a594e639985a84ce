//! sled's files on disk: opening the store (owner-only, its lock awaited,
//! its holder named), making writes durable, and recovering after a write
//! that failed to reach the disk.
//!
//! Memory. sled's page cache is capped at [`CACHE_CAPACITY`] (64 MiB, not
//! sled's default 1 GiB); reads never return more than the range asked for.
//!
//! Durability. An append is durable once its group's record is synced in the
//! appends' log (see [`super::wal`]). sled 0.34's `flush()` ends in
//! `sync_file_range` on Linux, which does not force the drive's write cache,
//! so any other write is acknowledged only after `flush()` *and* an
//! `fdatasync` of sled's log file `db` (and of each blob file sled made since
//! the last one, see [`SledFiles`]); the directory and `conf` are synced once
//! at open. sled's own
//! flusher is off: it would wait on the device every half second beside the
//! appends' syncs, and every write that needs sled durable flushes it.
//! A creation, fork or
//! import shares that sync through a ticket: each takes a ticket from a counter
//! under a mutex after its transaction commits. If no sync is running it
//! becomes the leader: it notes the last ticket issued, syncs, and marks
//! every ticket up to that one as synced. Otherwise it waits on a condvar
//! until the synced mark reaches its ticket, or until the running sync ends
//! without covering it, when it leads the next one.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, RwLock};

use super::layout::{branch_key, branch_prefix, encode_head, game_prefix, seq_key, Sled};
use super::segments::Segments;
use super::wal::Wal;
use super::SledLog;
use crate::error::StoreError;
use crate::log::{from_json, Receipt};

/// The group-commit state: tickets issued to committed appenders, and how
/// far the syncs have got.
#[derive(Default)]
pub(super) struct GroupCommit {
    state: Mutex<SyncState>,
    synced_cv: Condvar,
}

#[derive(Default)]
pub(super) struct SyncState {
    issued: u64,
    synced: u64,
    syncing: bool,
}

/// sled's page cache, in bytes. sled's default is 1 GiB, which a long game
/// fills (every event read or written passes through it) on top of what the
/// process needs. 64 MiB keeps recent pages hot: on the million-event bench
/// it cut the peak by about 200 MiB against 256 MiB for some 7% slower
/// exports. Reads past it go to the OS page cache.
pub const CACHE_CAPACITY: u64 = 64 * 1024 * 1024;

pub(super) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Fsyncs every file under `dir`, then `dir` itself (so new names are durable too).
pub(super) fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(io_err(&path))?;
        if kind.is_dir() {
            sync_dir(&path)?;
        } else if kind.is_file() {
            match File::open(&path) {
                Ok(f) => f.sync_all().map_err(io_err(&path))?,
                // sled removes old snapshot files while we walk; a file that is
                // gone holds nothing that needs to be durable.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_err(&path)(e)),
            }
        }
    }
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_err(dir))
}

/// sled's files that a durable write syncs, and the blob files already
/// synced.
pub(super) struct SledFiles {
    dir: PathBuf,
    /// sled's log file, kept open (sled never replaces it, not even when
    /// it is reopened after a fault).
    db: File,
    /// The blob files (`blobs/<id>`, values too large for a segment) synced
    /// so far. sled creates each once, whole, and never writes it again, so
    /// each is synced once instead of on every durable write (a store with a
    /// long game holds one or more per snapshot, and syncing them all took a
    /// fork of a 1,000,000-event game about 5 ms).
    synced_blobs: Mutex<HashSet<u64>>,
}

impl SledFiles {
    pub(super) fn open(dir: &Path) -> Result<SledFiles, StoreError> {
        let path = dir.join("db");
        Ok(SledFiles {
            dir: dir.to_path_buf(),
            db: File::open(&path).map_err(io_err(&path))?,
            synced_blobs: Mutex::default(),
        })
    }

    /// Makes everything written to `s` so far durable, and no more: sled's
    /// `flush` only starts the write-back of its log file `db`, which then
    /// gets a real `fdatasync`, and blob files it has made since the last
    /// time get one each (then the `blobs` directory, for their names). The
    /// directory and `conf` change only at open, which syncs the whole store
    /// once.
    pub(super) fn make_durable(&self, s: &Sled) -> Result<(), StoreError> {
        // Listed before the flush: sled writes a blob while the write that
        // made it holds its place in the log, which the flush waits for, so
        // every blob listed here is whole once the flush returns (one made
        // later belongs to a write this call need not cover).
        let blobs = self.dir.join("blobs");
        let names: Vec<std::ffi::OsString> = match std::fs::read_dir(&blobs) {
            Ok(entries) => entries
                .map(|e| e.map(|e| e.file_name()))
                .collect::<Result<_, _>>()
                .map_err(io_err(&blobs))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_err(&blobs)(e)),
        };
        s.db.flush()?;
        self.db.sync_data().map_err(io_err(&self.dir.join("db")))?;
        let mut synced = self
            .synced_blobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let mut listed = HashSet::with_capacity(names.len());
        let mut new = false;
        for name in &names {
            // sled names a blob by its id; a file named otherwise is not
            // known to be written once, so it is synced every time.
            let id = name.to_str().and_then(|n| n.parse::<u64>().ok());
            if let Some(id) = id {
                listed.insert(id);
                if synced.contains(&id) {
                    continue;
                }
            }
            let path = blobs.join(name);
            match File::open(&path) {
                Ok(f) => f.sync_all().map_err(io_err(&path))?,
                // sled removes blobs it no longer needs while we walk.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io_err(&path)(e)),
            }
            synced.extend(id);
            new = true;
        }
        if new {
            File::open(&blobs)
                .and_then(|d| d.sync_all())
                .map_err(io_err(&blobs))?;
        }
        // Forget the blobs sled has removed, so the set stays as small as
        // the directory.
        if synced.len() > listed.len() {
            synced.retain(|id| listed.contains(id));
        }
        Ok(())
    }
}

/// The file in a store directory where a serving process says who it is,
/// so another process that finds the store locked can name the holder.
pub const HOLDER_FILE: &str = "holder.txt";

/// Says in the store at `path` who holds it (`tabletape serve, pid 41, on
/// 127.0.0.1:7878`), until [`clear_holder`].
pub fn note_holder(path: &Path, who: &str) -> Result<(), StoreError> {
    let file = path.join(HOLDER_FILE);
    std::fs::write(&file, who).map_err(io_err(&file))
}

/// Removes what [`note_holder`] wrote.
pub fn clear_holder(path: &Path) {
    let _ = std::fs::remove_file(path.join(HOLDER_FILE));
}

/// How long `open` waits for a lock that a just-closed handle still holds.
pub(super) const LOCK_WAIT_MS: u64 = 2_000;

/// What writes that reached sled's memory but failed to reach the disk
/// left behind. sled refuses every write after such a fault, so nothing
/// builds on them; readers see the store as it was before them, and
/// [`SledLog::recover`] removes them once the disk takes writes again.
#[derive(Debug, Default)]
pub(super) struct Unsynced {
    /// Set at the first failed sync, cleared by a recovery.
    pub(super) broken: Option<String>,
    /// Branches with failed appends: the head (seq, hash) before the first.
    pub(super) heads: HashMap<(String, String), (u64, String)>,
    /// Games whose creation or import failed to sync.
    pub(super) games: HashSet<String>,
    /// Branches whose fork failed to sync.
    pub(super) branches: HashSet<(String, String)>,
}

/// Free room a recovery wants before it reopens the store: a sled segment
/// and a little more.
pub(super) const RECOVERY_ROOM_BYTES: usize = 1024 * 1024;

/// Removes from a fresh opening whatever writes that failed to sync did
/// reach the files: events past each branch's last synced head (and their
/// receipts), games created and branches forked without a sync.
pub(super) fn undo_unsynced(s: &Sled, unsynced: &Unsynced) -> Result<(), StoreError> {
    for ((game, branch), (seq, hash)) in &unsynced.heads {
        let bkey = branch_key(game, branch);
        for tree in [&s.events, &s.forms] {
            let mut batch = sled::Batch::default();
            for key in tree
                .range(seq_key(game, branch, seq + 1)..=seq_key(game, branch, u64::MAX))
                .keys()
            {
                batch.remove(key?);
            }
            tree.apply_batch(batch)?;
        }
        if s.heads.contains_key(&bkey)? {
            s.heads.insert(bkey.as_slice(), encode_head(*seq, hash))?;
        }
        for item in s.idempotency.scan_prefix(branch_prefix(game, branch)) {
            let (key, raw) = item?;
            let receipt: Receipt = from_json("idempotency receipt", &raw)?;
            if receipt.last_seq() > *seq {
                s.idempotency.remove(key)?;
            }
        }
    }
    for (game, branch) in &unsynced.branches {
        let bkey = branch_key(game, branch);
        s.branches.remove(&bkey)?;
        s.heads.remove(&bkey)?;
        for tree in [&s.events, &s.forms, &s.idempotency, &s.snapshots] {
            for key in tree.scan_prefix(branch_prefix(game, branch)).keys() {
                tree.remove(key?)?;
            }
        }
    }
    for game in &unsynced.games {
        s.games.remove(game.as_bytes())?;
        for tree in [
            &s.events,
            &s.forms,
            &s.branches,
            &s.heads,
            &s.idempotency,
            &s.snapshots,
        ] {
            for key in tree.scan_prefix(game_prefix(game)).keys() {
                tree.remove(key?)?;
            }
        }
    }
    Ok(())
}

/// Opens the sled database at `path`, with a message for each way that fails.
pub(super) fn open_sled(path: &Path, segments: &Arc<Segments>) -> Result<Sled, StoreError> {
    let config = sled::Config::new()
        .path(path)
        .cache_capacity(CACHE_CAPACITY)
        .flush_every_ms(None);
    // sled releases its file lock from a background thread after the last
    // handle drops, so a reopen right after a close (a restart, a test) can
    // briefly find the lock still held: wait for it rather than fail.
    let mut waited_ms = 0;
    let db = loop {
        match config.open() {
            Err(sled::Error::Io(e)) if e.to_string().contains("could not acquire lock") => {
                if waited_ms >= LOCK_WAIT_MS {
                    return Err(StoreError::Locked {
                        path: path.to_path_buf(),
                        holder: std::fs::read_to_string(path.join(HOLDER_FILE))
                            .ok()
                            .map(|h| h.trim().to_string())
                            .filter(|h| !h.is_empty()),
                    });
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
                waited_ms += 20;
            }
            Err(sled::Error::Corruption { at, .. }) => {
                return Err(StoreError::Damaged {
                    path: path.to_path_buf(),
                    detail: match at {
                        Some(at) => format!("corrupt data at {at:?}"),
                        None => "a checksum or a log position does not match".into(),
                    },
                })
            }
            Err(sled::Error::Io(e)) => return Err(io_err(path)(e)),
            other => break other?,
        }
    };
    Ok(Sled {
        games: db.open_tree("games")?,
        branches: db.open_tree("branches")?,
        heads: db.open_tree("heads")?,
        events: db.open_tree("events")?,
        forms: db.open_tree("forms")?,
        idempotency: db.open_tree("idempotency")?,
        snapshots: db.open_tree("snapshots")?,
        packs: db.open_tree("packs")?,
        settings: db.open_tree("settings")?,
        segments: Arc::clone(segments),
        db,
    })
}

/// Makes a store readable by its owner only: the directory (so whatever
/// sled writes in it later is closed to others too) and each file already
/// there. A store holds every game's seed and every player's secrets.
pub(super) fn owner_only(path: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let set = |p: &Path, mode: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).map_err(io_err(p))
        };
        set(path, 0o700)?;
        let mut dirs = vec![path.to_path_buf()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).map_err(io_err(&dir))? {
                let entry = entry.map_err(io_err(&dir))?;
                let p = entry.path();
                if entry.file_type().map_err(io_err(&p))?.is_dir() {
                    set(&p, 0o700)?;
                    dirs.push(p);
                } else {
                    set(&p, 0o600)?;
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl SledLog {
    /// Opens (creating if needed) the database directory at `path`.
    pub fn open(path: &Path) -> Result<SledLog, StoreError> {
        let segments = Arc::new(Segments::new(path));
        let sled = open_sled(path, &segments)?;
        let files = SledFiles::open(path)?;
        // A store written before segments: its appends go into sled whole.
        if super::wal::put_old_file(path, &sled)? {
            files.make_durable(&sled)?;
            super::wal::remove_old_file(path)?;
        }
        // Appends acknowledged since the last checkpoint are put again; the
        // store's names (`db`, `conf`, the directory) are made durable once
        // here; each group then syncs only its records.
        let mut wal = Wal::open(path, Arc::clone(&segments))?;
        let replayed = wal.replay(&sled)?;
        if replayed > 0 {
            tracing::info!(path = %path.display(), groups = replayed, "put appends again from the appends' log");
        }
        checkpoint(&files, &sled, &mut wal)?;
        sync_dir(path)?;
        owner_only(path)?;
        Ok(SledLog {
            files,
            sled: RwLock::new(Some(Arc::new(sled))),
            path: path.to_path_buf(),
            sync: GroupCommit::default(),
            groups: Default::default(),
            wal: Mutex::new(wal),
            unsynced: Mutex::default(),
            faulted: AtomicBool::new(false),
        })
    }

    /// The appends' log; its holder is the only writer.
    pub(super) fn wal(&self) -> std::sync::MutexGuard<'_, Wal> {
        self.wal.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The database as now opened; reopened first if a recovery could not
    /// finish (see [`SledLog::recover`]).
    pub(super) fn sled(&self) -> Result<Arc<Sled>, StoreError> {
        if let Some(sled) = &*self.sled.read().unwrap_or_else(PoisonError::into_inner) {
            return Ok(Arc::clone(sled));
        }
        self.recover()?;
        self.sled
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or_else(|| StoreError::Unwritable {
                path: self.path.clone(),
                cause: "the store could not be reopened".into(),
            })
    }

    pub(super) fn unsynced(&self) -> std::sync::MutexGuard<'_, Unsynced> {
        self.unsynced.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Before a write: when a fault left sled unable to write, reopens the
    /// store once the disk has room again and removes what the failed writes
    /// left; while it has none, refuses the write with the fault's cause.
    pub(super) fn writable(&self) -> Result<(), StoreError> {
        if !self.faulted.load(Ordering::SeqCst) {
            return Ok(());
        }
        let cause = match &self.unsynced().broken {
            None => return Ok(()),
            Some(cause) => cause.clone(),
        };
        self.recover().map_err(|e| StoreError::Unwritable {
            path: self.path.clone(),
            cause: format!("{cause}; recovery: {e}"),
        })
    }

    /// Reopens sled from its files and undoes there what failed to sync.
    pub(super) fn recover(&self) -> Result<(), StoreError> {
        // A probe file says whether the disk takes writes again.
        let probe = self.path.join("room.probe");
        let room = std::fs::write(&probe, vec![0u8; RECOVERY_ROOM_BYTES])
            .and_then(|()| File::open(&probe)?.sync_all());
        let _ = std::fs::remove_file(&probe);
        room.map_err(io_err(&probe))?;
        let mut slot = self.sled.write().unwrap_or_else(PoisonError::into_inner);
        let mut unsynced = self.unsynced();
        if unsynced.broken.is_none() {
            return Ok(()); // another writer recovered first
        }
        if let Some(old) = slot.take() {
            // Readers hold the old opening only for one call; sled's file
            // lock goes with the last handle, so wait for them to finish.
            for _ in 0..500 {
                if Arc::strong_count(&old) == 1 {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            drop(old);
        }
        // The pointers held for sled may be of appends that failed: the
        // log's records put them again.
        let segments = self.wal().segments();
        segments.forget();
        let reopened = Arc::new(open_sled(&self.path, &segments)?);
        *slot = Some(Arc::clone(&reopened));
        // The old opening may have held acknowledged appends only in memory:
        // put the log's records again before undoing what failed.
        let mut wal = self.wal();
        wal.replay(&reopened)?;
        undo_unsynced(&reopened, &unsynced)?;
        checkpoint(&self.files, &reopened, &mut wal)?;
        sync_dir(&self.path)?;
        *unsynced = Unsynced::default();
        self.faulted.store(false, Ordering::SeqCst);
        tracing::info!(path = %self.path.display(), "the store writes again after a fault");
        Ok(())
    }

    /// Notes what a write that failed to sync left in sled's memory.
    pub(super) fn failed(&self, e: &StoreError, note: impl FnOnce(&mut Unsynced)) {
        let mut unsynced = self.unsynced();
        self.faulted.store(true, Ordering::SeqCst);
        if unsynced.broken.is_none() {
            unsynced.broken = Some(e.to_string());
            tracing::error!(path = %self.path.display(), "a write did not reach the disk: {e}");
        }
        note(&mut unsynced);
    }

    /// `(seq, hash)` of a branch's head as readers may see it.
    pub(super) fn visible_head(
        &self,
        game: &str,
        branch: &str,
        stored: (u64, String),
    ) -> (u64, String) {
        if !self.faulted.load(Ordering::SeqCst) {
            return stored;
        }
        let unsynced = self.unsynced();
        match unsynced.heads.get(&(game.to_string(), branch.to_string())) {
            Some((seq, hash)) if *seq < stored.0 => (*seq, hash.clone()),
            _ => stored,
        }
    }

    /// Whether a game or branch exists only in sled's memory after a fault.
    pub(super) fn hidden(&self, game: &str, branch: Option<&str>) -> bool {
        if !self.faulted.load(Ordering::SeqCst) {
            return false;
        }
        let unsynced = self.unsynced();
        unsynced.games.contains(game)
            || branch.is_some_and(|b| {
                unsynced
                    .branches
                    .contains(&(game.to_string(), b.to_string()))
            })
    }

    /// Returns once everything committed so far is on stable storage, sharing
    /// one sync among concurrent callers (see the module docs).
    pub(super) fn durable(&self) -> Result<(), StoreError> {
        // After a fault nothing is acknowledged until a recovery: a sync
        // that succeeded now could cover writes built on a failed one.
        if let Some(cause) = &self.unsynced().broken {
            return Err(StoreError::Unwritable {
                path: self.path.clone(),
                cause: cause.clone(),
            });
        }
        let mut state = self
            .sync
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        state.issued += 1;
        let ticket = state.issued;
        loop {
            if state.synced >= ticket {
                return Ok(());
            }
            if state.syncing {
                state = self
                    .sync
                    .synced_cv
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            state.syncing = true;
            let covers = state.issued;
            drop(state);
            let result = self.sync_now();
            state = self
                .sync
                .state
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            state.syncing = false;
            if result.is_ok() {
                state.synced = state.synced.max(covers);
            }
            self.sync.synced_cv.notify_all();
            result?;
        }
    }

    /// On closing: sled made durable and the appends' log emptied, so the
    /// next opening has nothing to put again. Best effort: what fails here
    /// the next opening does.
    pub(super) fn close(&self) {
        if self.faulted.load(Ordering::SeqCst) {
            return;
        }
        let Ok(s) = self.sled() else { return };
        let mut wal = self.wal();
        let put = self.put_runs(&s);
        if let Err(e) = put.and_then(|()| checkpoint(&self.files, &s, &mut wal)) {
            tracing::warn!(path = %self.path.display(), "closing the store: {e}");
        }
    }

    pub(super) fn sync_now(&self) -> Result<(), StoreError> {
        self.files.make_durable(&*self.sled()?)
    }
}

/// Puts the appended events' pointers held in memory into sled (see
/// [`super::segments`]), notes that sled holds the appends' log so far and
/// makes it durable (flush, then its files synced); a segment grown full is
/// then ended (see [`super::wal`]).
pub(super) fn checkpoint(files: &SledFiles, s: &Sled, wal: &mut Wal) -> Result<(), StoreError> {
    s.segments.put_all(&s.events)?;
    wal.note_held(s)?;
    files.make_durable(s)?;
    if wal.is_full() {
        wal.next_segment()?;
    }
    Ok(())
}
