//! Reading appended events where their appends left them: the segments of
//! the appends' log (see [`super::wal`]), to which sled keeps pointers
//! (see [`super::layout::IN_LOG`]).
//!
//! A segment is written once, at its end, and only ever read after; a
//! pointer reaches a reader only once the bytes it points at are durable,
//! so a reader never sees a segment's zeros. Reads go through the OS's page
//! cache, one `pread` of exactly an event's bytes each. (Keeping the last
//! 256 KiB a thread read, to serve the events after from it, made a
//! 1,000,000-event export a third slower, not faster: each such stretch
//! was fresh memory for the kernel to zero.)
//!
//! The pointers themselves wait here before sled holds them: a branch's run
//! of them goes into `events` as one pack (see [`super::layout::PACKED`])
//! once its group is durable and it holds [`PACK_MOST`], and every run goes
//! at a checkpoint, so sled takes one insert for many appends rather than
//! one each. Readers look here first and in sled after, and a run goes into
//! sled before it leaves here, so a reader finds an event in one or both.
//! A run holds only pointers of appends since the last checkpoint, whose
//! records an opening (or a recovery, which forgets the runs) puts again.

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use super::layout::{InLog, PACKED, PACK_MOST};
use super::runs::split;
use crate::error::StoreError;

/// The most segments kept open for reading at once.
const FILES_OPEN: usize = 64;

/// The most bytes [`Segments::read_each`] reads at once, and the most it
/// reads past between two stretches it wants rather than read them apart
/// (a syscall costs about what copying 10 KiB from the page cache does).
const READ_MOST: u64 = 1024 * 1024;
const GAP_MOST: u64 = 16 * 1024;

/// A store's segments, opened for reading as they are first read.
pub(super) struct Segments {
    dir: PathBuf,
    files: RwLock<HashMap<u32, Arc<File>>>,
    /// Pointers not yet in sled, by branch.
    waiting: Mutex<Waiting>,
}

/// The runs of pointers not yet in sled: by a seq key's branch part (see
/// [`super::layout::seq_key`]), each branch's in order of their seqs, all
/// but the last full; and the branches with a full run.
#[derive(Default)]
struct Waiting {
    runs: HashMap<Vec<u8>, Vec<Run>>,
    full: Vec<Vec<u8>>,
}

/// What a reader takes of a branch's held pointers (see
/// [`Segments::waiting_for`]).
pub(super) struct Held {
    /// The first seq held: every later one the branch has is held too.
    pub(super) from: u64,
    /// The runs that hold seqs of the range asked for: their first seqs
    /// and packs, in order.
    pub(super) packs: Vec<(u64, Vec<u8>)>,
}

/// Pointers of a branch's consecutive seqs, packed as they come.
struct Run {
    first: u64,
    count: usize,
    /// [`PACKED`], then each pointer led by its length (u32, little-endian).
    pack: Vec<u8>,
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
            files: RwLock::default(),
            waiting: Mutex::default(),
        }
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds the pointer `at` of the event under `key` until its run goes
    /// into `events` (see the module docs).
    pub(super) fn hold(
        &self,
        events: &sled::Tree,
        key: &[u8],
        at: InLog,
    ) -> Result<(), StoreError> {
        let (branch, seq) = split(key);
        let mut waiting = self.waiting();
        let runs = waiting.runs.entry(branch.to_vec()).or_default();
        if runs.last().is_some_and(|run| run.next() != seq) {
            // Not met in use (a branch's appends follow on, and a fault
            // forgets every run): the runs go whole rather than be mixed.
            for run in runs.drain(..) {
                put_run(events, branch, &run)?;
            }
        }
        if runs.last().is_none_or(|run| run.count == PACK_MOST) {
            runs.push(Run {
                first: seq,
                count: 0,
                pack: vec![PACKED],
            });
        }
        let run = runs.last_mut().expect("a run");
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

    /// Puts the full runs into `events`, once the groups that filled them
    /// are durable (so a pack in sled never holds an append that failed).
    pub(super) fn put_full(&self, events: &sled::Tree) -> Result<(), StoreError> {
        let mut waiting = self.waiting();
        let branches = std::mem::take(&mut waiting.full);
        for branch in branches {
            let Some(runs) = waiting.runs.get_mut(&branch) else {
                continue;
            };
            let full = runs.iter().take_while(|run| run.count == PACK_MOST).count();
            for run in &runs[..full] {
                put_run(events, &branch, run)?;
            }
            runs.drain(..full);
            if runs.is_empty() {
                waiting.runs.remove(&branch);
            }
        }
        Ok(())
    }

    /// Puts every run into `events`, before a checkpoint.
    pub(super) fn put_all(&self, events: &sled::Tree) -> Result<(), StoreError> {
        let mut waiting = self.waiting();
        let mut batch = sled::Batch::default();
        for (branch, runs) in &waiting.runs {
            for run in runs {
                batch.insert(run.key(branch), &run.pack[..]);
            }
        }
        events.apply_batch(batch)?;
        *waiting = Waiting::default();
        Ok(())
    }

    /// Forgets every run, after a fault: a recovery puts their records again.
    pub(super) fn forget(&self) {
        *self.waiting() = Waiting::default();
    }

    /// What `branch` (a seq key's part before its seq) holds of seqs
    /// `lo..=hi`, when it holds any of `..=hi`.
    pub(super) fn waiting_for(&self, branch: &[u8], (lo, hi): (u64, u64)) -> Option<Held> {
        let waiting = self.waiting();
        let runs = waiting.runs.get(branch)?;
        let from = runs.first()?.first;
        let packs = runs
            .iter()
            .filter(|run| run.first <= hi && lo < run.next())
            .map(|run| (run.first, run.pack.clone()))
            .collect();
        (from <= hi).then_some(Held { from, packs })
    }

    /// `read` of the JSON of the event `at` points to.
    pub(super) fn with<T>(
        &self,
        at: InLog,
        read: impl FnOnce(&[u8]) -> Result<T, String>,
    ) -> Result<T, String> {
        let mut json = vec![0; at.len as usize];
        self.read_at(at.segment, &mut json, at.offset)?;
        read(&json)
    }

    /// Gives `each` the bytes every pointer of `wanted` points to (with the
    /// seq it is paired with), in the log's order, reading a stretch of a
    /// segment at a time: the pointers of a fold's chunk mostly lie close
    /// together (an append's forms follow its events in its record), and one
    /// read of them all costs far less than one each. `bad` says why the
    /// bytes of a seq could not be read.
    pub(super) fn read_each(
        &self,
        wanted: &mut [(u64, InLog)],
        bad: impl Fn(u64, String) -> StoreError,
        mut each: impl FnMut(u64, &[u8]) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        wanted.sort_unstable_by_key(|(_, at)| (at.segment, at.offset));
        let mut stretch = Vec::new();
        let mut rest = &wanted[..];
        while let Some(&(seq, first)) = rest.first() {
            let start = first.offset;
            let mut end = first.end();
            let mut taken = 1;
            for (_, at) in &rest[1..] {
                let joins = at.segment == first.segment
                    && at.offset <= end + GAP_MOST
                    && at.end().max(end) - start <= READ_MOST;
                if !joins {
                    break;
                }
                end = end.max(at.end());
                taken += 1;
            }
            let len = (end - start) as usize;
            if stretch.len() < len {
                stretch.resize(len, 0);
            }
            self.read_at(first.segment, &mut stretch[..len], start)
                .map_err(|why| bad(seq, why))?;
            for (seq, at) in &rest[..taken] {
                let from = (at.offset - start) as usize;
                each(*seq, &stretch[from..from + at.len as usize])?;
            }
            rest = &rest[taken..];
        }
        Ok(())
    }

    /// Fills `into` from `offset` of segment `n`.
    fn read_at(&self, n: u32, into: &mut [u8], offset: u64) -> Result<(), String> {
        let file = self.file(n)?;
        file.read_exact_at(into, offset)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => format!(
                    "its bytes in the appends' log ({}) end short ({} at {})",
                    segment_name(n),
                    into.len(),
                    offset
                ),
                _ => self.cannot(n, e),
            })
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
        let mut files = self.files.write().unwrap_or_else(PoisonError::into_inner);
        // A store of very many segments does not hold a descriptor for each:
        // past the bound, those open are let go (a read under way keeps its
        // own) and opened again as they are read.
        if files.len() >= FILES_OPEN {
            files.clear();
        }
        files.insert(n, Arc::clone(&file));
        Ok(file)
    }

    fn cannot(&self, n: u32, e: std::io::Error) -> String {
        format!(
            "its segment of the appends' log cannot be read ({}): {e}",
            self.dir.join(segment_name(n)).display()
        )
    }
}

impl Run {
    /// The seq after its last.
    fn next(&self) -> u64 {
        self.first + self.count as u64
    }

    /// Its key in `events`: its first seq's, under `branch`.
    fn key(&self, branch: &[u8]) -> Vec<u8> {
        [branch, &self.first.to_be_bytes()].concat()
    }
}

/// Puts a run into `events` as one pack under its first seq's key.
fn put_run(events: &sled::Tree, branch: &[u8], run: &Run) -> Result<(), StoreError> {
    events.insert(run.key(branch), &run.pack[..])?;
    Ok(())
}
