//! Reading appended events where their appends left them: the segments of
//! the appends' log (see [`super::wal`]), to which sled keeps pointers
//! (see [`super::layout::IN_LOG`]).
//!
//! A segment is written once, at its end, and only ever read after; a
//! pointer reaches sled only once the bytes it points at are written, so a
//! reader never sees a segment's zeros. Reads go through the OS's page
//! cache. A long read (an export, a replay) meets its events in the order
//! their appends wrote them, so each thread keeps the last stretch of a
//! segment it read ([`WINDOW`]) and serves the events that fall in it from
//! there: one `pread` for many events rather than one each.
//!
//! The pointers themselves wait here before sled holds them: a branch's run
//! of them goes into `events` as one pack (see [`super::layout::PACKED`])
//! once its group is durable and it holds [`PACK_MOST`], and every run goes
//! at a checkpoint, so sled takes one insert for many appends rather than
//! one each. Readers look here first and in sled after, and a run goes into
//! sled before it leaves here, so a reader finds an event in one or both.
//! A run holds only pointers of appends since the last checkpoint, whose
//! records an opening (or a recovery, which forgets the runs) puts again.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use super::layout::{InLog, PACKED, PACK_MOST};
use crate::error::StoreError;

/// How much of a segment one read takes at least.
const WINDOW: usize = 256 * 1024;

/// A store's segments, opened for reading as they are first read.
pub(super) struct Segments {
    dir: PathBuf,
    /// Which stretches this store's readers may keep (see [`Segments::renew`]).
    generation: AtomicU64,
    files: RwLock<HashMap<u32, Arc<File>>>,
    /// The segment being written and how far its bytes are written: a
    /// stretch read of it keeps nothing past that (the zeros there become
    /// records later).
    writing: RwLock<(u32, u64)>,
    /// Pointers not yet in sled, by branch.
    waiting: Mutex<Waiting>,
}

/// The runs of pointers not yet in sled: by a seq key's branch part (see
/// [`super::layout::seq_key`]), and the branches whose run is full.
#[derive(Default)]
struct Waiting {
    runs: HashMap<Vec<u8>, Run>,
    full: Vec<Vec<u8>>,
}

/// Pointers of a branch's consecutive seqs, packed as they come.
struct Run {
    first: u64,
    count: usize,
    /// [`PACKED`], then each pointer led by its length (u32, little-endian).
    pack: Vec<u8>,
}

/// Each store's readers keep stretches under a name no other store or
/// generation shares.
static GENERATIONS: AtomicU64 = AtomicU64::new(1);

/// The stretch a thread read last: the store's generation, the segment,
/// where the stretch starts and its bytes.
type Stretch = (u64, u32, u64, Vec<u8>);

thread_local! {
    static STRETCH: RefCell<Stretch> = const { RefCell::new((0, 0, 0, Vec::new())) };
}

/// The file name of segment `n` in a store's directory (see [`super::wal`]).
pub(super) fn segment_name(n: u32) -> String {
    format!("appends.{n:08}.wal")
}

/// The number of the segment a file name names, if it names one.
pub(super) fn segment_number(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("appends.")?.strip_suffix(".wal")?;
    (digits.len() == 8 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

impl Segments {
    pub(super) fn new(dir: &Path) -> Segments {
        Segments {
            dir: dir.to_path_buf(),
            generation: AtomicU64::new(GENERATIONS.fetch_add(1, Ordering::Relaxed)),
            files: RwLock::default(),
            writing: RwLock::new((0, 0)),
            waiting: Mutex::default(),
        }
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds the pointer `at` of the event under `key` until its branch's
    /// run goes into `events` (see the module docs).
    pub(super) fn hold(
        &self,
        events: &sled::Tree,
        key: &[u8],
        at: InLog,
    ) -> Result<(), StoreError> {
        let (branch, seq) = key.split_at(key.len() - 8);
        let seq = u64::from_be_bytes(seq.try_into().expect("eight bytes"));
        let mut waiting = self.waiting();
        let apart = waiting
            .runs
            .get(branch)
            .is_some_and(|run| run.first + run.count as u64 != seq);
        if apart {
            // Not met in use (a branch's appends follow on, and a fault
            // forgets every run): the run goes whole rather than be mixed.
            let run = waiting.runs.remove(branch).expect("a run");
            put_run(events, branch, &run)?;
        }
        let run = waiting.runs.entry(branch.to_vec()).or_insert_with(|| Run {
            first: seq,
            count: 0,
            pack: vec![PACKED],
        });
        let pointer = at.encode();
        run.pack
            .extend_from_slice(&(pointer.len() as u32).to_le_bytes());
        run.pack.extend_from_slice(&pointer);
        run.count += 1;
        if run.count == PACK_MOST {
            waiting.full.push(branch.to_vec());
        }
        Ok(())
    }

    /// Puts the full runs into `events`, once the group that filled them is
    /// durable (so a pack in sled never holds an append that failed).
    pub(super) fn put_full(&self, events: &sled::Tree) -> Result<(), StoreError> {
        let mut waiting = self.waiting();
        while let Some(branch) = waiting.full.pop() {
            if let Some(run) = waiting.runs.get(&branch) {
                put_run(events, &branch, run)?;
                waiting.runs.remove(&branch);
            }
        }
        Ok(())
    }

    /// Puts every run into `events`, before a checkpoint.
    pub(super) fn put_all(&self, events: &sled::Tree) -> Result<(), StoreError> {
        let mut waiting = self.waiting();
        let mut batch = sled::Batch::default();
        for (branch, run) in &waiting.runs {
            batch.insert(
                [branch.as_slice(), &run.first.to_be_bytes()].concat(),
                &run.pack[..],
            );
        }
        events.apply_batch(batch)?;
        *waiting = Waiting::default();
        Ok(())
    }

    /// Forgets every run, after a fault: a recovery puts their records again.
    pub(super) fn forget(&self) {
        *self.waiting() = Waiting::default();
    }

    /// The run of `branch` (a seq key's part before its seq), when it holds
    /// a pointer of seqs `lo..=hi`: the seq of its first and its pack.
    pub(super) fn waiting_for(
        &self,
        branch: &[u8],
        (lo, hi): (u64, u64),
    ) -> Option<(u64, Vec<u8>)> {
        let waiting = self.waiting();
        let run = waiting.runs.get(branch)?;
        let last = run.first + run.count as u64 - 1;
        (run.first <= hi && lo <= last).then(|| (run.first, run.pack.clone()))
    }

    /// Forgets every stretch readers keep: after a write fault the log's
    /// end goes back to its last whole record, and what follows is written
    /// again.
    pub(super) fn renew(&self) {
        let next = GENERATIONS.fetch_add(1, Ordering::Relaxed);
        self.generation.store(next, Ordering::Release);
    }

    /// Says that segment `n` is written up to `end`, before any pointer
    /// below `end` reaches sled.
    pub(super) fn written(&self, n: u32, end: u64) {
        *self.writing.write().unwrap_or_else(PoisonError::into_inner) = (n, end);
    }

    /// `read` of the JSON of the event `at` points to, borrowed from the
    /// stretch it lies in (no copy: an export reads every event so).
    pub(super) fn with<T>(
        &self,
        at: InLog,
        read: impl FnOnce(&[u8]) -> Result<T, String>,
    ) -> Result<T, String> {
        let generation = self.generation.load(Ordering::Acquire);
        let (start, len) = (at.offset, at.len as usize);
        let inside = |(g, n, from, bytes): &Stretch| {
            *g == generation
                && *n == at.segment
                && start >= *from
                && start - from + len as u64 <= bytes.len() as u64
        };
        if !STRETCH.with_borrow(inside) {
            let bytes = self.read_stretch(at)?;
            STRETCH.with_borrow_mut(|kept| *kept = (generation, at.segment, start, bytes));
        }
        STRETCH.with_borrow(|(_, _, from, bytes)| {
            let at = (start - from) as usize;
            read(&bytes[at..at + len])
        })
    }

    /// The stretch of the segment from where `at` starts: at least its
    /// event, and up to [`WINDOW`] bytes, none past what is written.
    fn read_stretch(&self, at: InLog) -> Result<Vec<u8>, String> {
        let (start, len) = (at.offset, at.len as usize);
        let file = self.file(at.segment)?;
        let (writing, written) = *self.writing.read().unwrap_or_else(PoisonError::into_inner);
        let mut want = WINDOW.max(len);
        if writing == at.segment {
            want = want.min(written.saturating_sub(start) as usize).max(len);
        }
        let mut bytes = vec![0; want];
        let mut got = 0;
        while got < want {
            match file.read_at(&mut bytes[got..], start + got as u64) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.cannot(at.segment, e)),
            }
        }
        if got < len {
            return Err(format!(
                "its bytes in the appends' log ({}) end short ({got} of {len} at {start})",
                segment_name(at.segment)
            ));
        }
        bytes.truncate(got);
        Ok(bytes)
    }

    fn file(&self, n: u32) -> Result<Arc<File>, String> {
        if let Some(file) = self
            .files
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&n)
        {
            return Ok(Arc::clone(file));
        }
        let file = File::open(self.dir.join(segment_name(n))).map_err(|e| self.cannot(n, e))?;
        let file = Arc::new(file);
        self.files
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(n, Arc::clone(&file));
        Ok(file)
    }

    fn cannot(&self, n: u32, e: std::io::Error) -> String {
        format!(
            "its segment of the appends' log cannot be read ({}): {e}",
            self.dir.join(segment_name(n)).display()
        )
    }
}

/// Puts a run into `events` as one pack under its first seq's key.
fn put_run(events: &sled::Tree, branch: &[u8], run: &Run) -> Result<(), StoreError> {
    let key = [branch, &run.first.to_be_bytes()].concat();
    events.insert(key, &run.pack[..])?;
    Ok(())
}
