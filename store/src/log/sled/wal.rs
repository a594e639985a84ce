//! The appends' own log: the file that makes an append durable, and
//! where an appended event stays.
//!
//! sled 0.34 makes a write durable only through `flush()`, which writes its
//! buffer and waits on `sync_file_range`, after which the drive's cache
//! still needs an `fdatasync`: two device waits per group. So each append
//! of a group is a record of its own, the group's records are written in
//! one write at the end of the log's current segment and made durable by
//! one `fdatasync` of that file, and only then is each append put in sled's
//! memory (readers see it from then on) and acknowledged. sled writes its
//! own buffers out when they fill and is made durable at a checkpoint, off
//! the acknowledgement path: whatever of an append sled keeps has its
//! record in the log.
//!
//! An appended event's JSON and its fold form are not put in sled: sled
//! keeps where the record holds them (see [`super::layout::IN_LOG`]) and
//! reads find them there (see [`super::segments`]). sled copies a leaf's entries on every insert, and
//! events were most of those bytes. The log is therefore kept: it is a row
//! of segments (`appends.00000001.wal`, ...), each written at its end and
//! never changed once the next is begun.
//!
//! Which file is the truth: for an appended or imported event and its
//! form, its segment, always; for the rest of an append (its receipt and
//! head), the log until the next checkpoint; for everything else
//! (creations, forks, take-backs, an import's branches and game record,
//! settings), sled, flushed and synced before each is acknowledged. Only
//! appends and imports write records, and only of keys that are theirs (a
//! branch's events and forms past its fork, its receipts and its head; an
//! import's, of a game not yet visible), so putting a record's keys again
//! over any sled state the store reached is harmless (an import's, of a
//! game it never made visible, are removed when the game is imported
//! again), and opening a store puts again every record past the last
//! checkpoint, in order, then checkpoints.
//!
//! A checkpoint notes in sled how far into the log sled holds it, then
//! makes sled durable (flush, then `fdatasync` of its files); once the
//! segment passes [`CHECKPOINT_BYTES`] it then begins the next one (created
//! and its name synced), so a crash at any point leaves the records past
//! the last noted point, or none, to put again. It runs when the segment
//! passes [`CHECKPOINT_BYTES`], when the store opens, after a recovery from
//! a write fault, and when the store closes. A store written before the
//! segments has one `appends.wal`, whose events are put in sled whole when
//! it opens, after which the file goes.
//!
//! A record is `[length u32 LE][CRC-32 of the body u32 LE][body]`, the body
//! a list of `[tree u8][key length u32 LE][key][value length u32 LE][value]`.
//! The file is grown ahead of its records with zeros ([`GROW_BYTES`] at a
//! time, synced), so a record's sync writes the record and nothing about
//! the file. Reading stops at the zeros past the last record, or at the
//! first record cut short or failing its check: a group's `fdatasync` covers
//! everything written before it, so nothing acknowledged lies past a torn
//! record.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::disk::io_err;
use super::layout::{InLog, Sled};
use super::segments::{segment_name, segment_number, Segments};
use crate::error::StoreError;

/// The one file of a store written before segments.
const OLD_FILE: &str = "appends.wal";

/// The key in `settings` of how far sled holds the log: the segment's
/// number (u32, little-endian) and the end of the last record it holds
/// (u64), noted at each checkpoint.
const HELD_KEY: &[u8] = b"appends_held";

/// A segment past this many bytes is ended at the next checkpoint, and a
/// checkpoint is taken then: an opening has at most this much to put again.
pub(super) const CHECKPOINT_BYTES: u64 = 64 * 1024 * 1024;

/// The trees an append writes, by the byte a record names them with.
#[derive(Debug, Clone, Copy)]
pub(super) enum Tree {
    Events = 0,
    Idempotency = 1,
    Heads = 2,
    Forms = 3,
}

impl Tree {
    fn of(byte: u8) -> Option<Tree> {
        match byte {
            0 => Some(Tree::Events),
            1 => Some(Tree::Idempotency),
            2 => Some(Tree::Heads),
            3 => Some(Tree::Forms),
            _ => None,
        }
    }

    fn in_sled(self, s: &Sled) -> &sled::Tree {
        match self {
            Tree::Events => &s.events,
            Tree::Idempotency => &s.idempotency,
            Tree::Heads => &s.heads,
            Tree::Forms => &s.forms,
        }
    }
}

/// A group's records being put together, one after another: each the
/// keys one append writes, in order.
#[derive(Default)]
pub(super) struct Records {
    /// Each record's eight bytes for its length and check, then its body.
    bytes: Vec<u8>,
    /// Where the record being put together starts.
    start: usize,
}

impl Records {
    /// What a put adds besides its key and value: the tree and two lengths.
    pub(super) const PUT_BYTES: usize = 9;
    /// What a record adds besides its puts: its length and check.
    pub(super) const RECORD_BYTES: usize = 8;

    /// No records yet, with room for `bytes` of them.
    pub(super) fn with_room(bytes: usize) -> Records {
        Records {
            bytes: Vec::with_capacity(bytes),
            start: 0,
        }
    }

    /// Begins the next record.
    pub(super) fn begin(&mut self) {
        self.start = self.bytes.len();
        self.bytes.extend_from_slice(&[0; Self::RECORD_BYTES]);
    }

    /// Adds a put to the record begun last; where its value starts among
    /// the records as written.
    pub(super) fn put(&mut self, tree: Tree, key: &[u8], value: &[u8]) -> usize {
        self.bytes.push(tree as u8);
        for part in [key, value] {
            self.bytes
                .extend_from_slice(&(part.len() as u32).to_le_bytes());
            self.bytes.extend_from_slice(part);
        }
        self.bytes.len() - value.len()
    }

    /// Ends the record begun last: its length and check filled in.
    pub(super) fn end(&mut self) {
        let (head, body) = self.bytes[self.start..].split_at_mut(Self::RECORD_BYTES);
        head[..4].copy_from_slice(&(body.len() as u32).to_le_bytes());
        head[4..].copy_from_slice(&crc32fast::hash(body).to_le_bytes());
    }

    pub(super) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// The file is grown this much at a time, with zeros written and synced, so
/// that a group's record lands inside the file's size: its `fdatasync` then
/// writes the record alone, where a file grown by each record would also
/// have its size written to the disk on every sync.
const GROW_BYTES: u64 = 1024 * 1024;

/// The segment being written, where its records end, and how far it is
/// grown.
pub(super) struct Wal {
    dir: PathBuf,
    /// Where readers find the segments, kept for a recovery (see
    /// [`Wal::segments`]).
    segments: Arc<Segments>,
    number: u32,
    path: PathBuf,
    file: File,
    /// Where the next record goes: the end of the last whole record.
    end: u64,
    /// The file's size: zeros from `end` on.
    size: u64,
}

impl Wal {
    /// Opens the store's last segment, creating the first if there is
    /// none; its records are found by [`Wal::replay`].
    pub(super) fn open(dir: &Path, segments: Arc<Segments>) -> Result<Wal, StoreError> {
        let mut last = None;
        for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
            let entry = entry.map_err(io_err(dir))?;
            let n = entry.file_name().to_str().and_then(segment_number);
            last = last.max(n);
        }
        Wal::open_segment(dir, segments, last.unwrap_or(1))
    }

    fn open_segment(dir: &Path, segments: Arc<Segments>, number: u32) -> Result<Wal, StoreError> {
        let path = dir.join(segment_name(number));
        let file = owner_only_options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_err(&path))?;
        let size = file.metadata().map_err(io_err(&path))?.len();
        Ok(Wal {
            dir: dir.to_path_buf(),
            segments,
            number,
            path,
            file,
            end: size,
            size,
        })
    }

    /// Where readers find the segments.
    pub(super) fn segments(&self) -> Arc<Segments> {
        Arc::clone(&self.segments)
    }

    /// The segment being written.
    pub(super) fn number(&self) -> u32 {
        self.number
    }

    /// Writes records at the end of the segment (not yet durable: see
    /// [`Wal::sync`]); where they start.
    pub(super) fn append(&mut self, records: &Records) -> Result<u64, StoreError> {
        let end = self.end + records.bytes.len() as u64;
        if end > self.size {
            self.grow(end)?;
        }
        self.append_growing(records)
    }

    /// [`Wal::append`] for an import's records (megabytes a chunk, synced
    /// once at its commit): they grow the file by themselves where they pass
    /// its end, rather than after zeros written and synced ahead of them,
    /// which wrote every byte twice and synced each MiB.
    pub(super) fn append_growing(&mut self, records: &Records) -> Result<u64, StoreError> {
        use std::os::unix::fs::FileExt;
        let start = self.end;
        self.file
            .write_all_at(&records.bytes, start)
            .map_err(io_err(&self.path))?;
        self.end = start + records.bytes.len() as u64;
        self.size = self.size.max(self.end);
        Ok(start)
    }

    /// Waits for the device to hold every record written.
    pub(super) fn sync(&mut self) -> Result<(), StoreError> {
        self.file.sync_data().map_err(io_err(&self.path))
    }

    /// Grows the file with zeros, durably, to at least `to` bytes.
    fn grow(&mut self, to: u64) -> Result<(), StoreError> {
        use std::os::unix::fs::FileExt;
        let size = to.div_ceil(GROW_BYTES) * GROW_BYTES;
        let zeros = vec![0u8; (size - self.size) as usize];
        self.file
            .write_all_at(&zeros, self.size)
            .and_then(|()| self.file.sync_data())
            .map_err(io_err(&self.path))?;
        self.size = size;
        Ok(())
    }

    /// Whether the segment has grown past [`CHECKPOINT_BYTES`].
    pub(super) fn is_full(&self) -> bool {
        self.end >= CHECKPOINT_BYTES
    }

    /// Notes in `s` (in memory: a checkpoint makes it durable) that sled
    /// holds every record written so far.
    pub(super) fn note_held(&self, s: &Sled) -> Result<(), StoreError> {
        let mut held = self.number.to_le_bytes().to_vec();
        held.extend_from_slice(&self.end.to_le_bytes());
        s.settings.insert(HELD_KEY, held)?;
        Ok(())
    }

    /// Puts into `s`, in order, every whole record of the segment past what
    /// sled holds of it (see [`Wal::note_held`]); how many.
    pub(super) fn replay(&mut self, s: &Sled) -> Result<usize, StoreError> {
        let held = match s.settings.get(HELD_KEY)? {
            None => None,
            Some(raw) if raw.len() == 12 => Some((
                u32::from_le_bytes(raw[..4].try_into().expect("4 bytes")),
                u64::from_le_bytes(raw[4..].try_into().expect("8 bytes")),
            )),
            Some(_) => {
                return Err(StoreError::corrupt(
                    "appends log",
                    "its held mark is not 12 bytes",
                ))
            }
        };
        let from = match held {
            Some((n, end)) if n == self.number => end,
            Some((n, _)) if n > self.number => {
                return Err(StoreError::corrupt(
                    "appends log",
                    format!(
                        "sled holds segment {n}, but the last one is {}",
                        self.number
                    ),
                ))
            }
            _ => 0,
        };
        // Only what lies past the mark: a segment is up to 64 MiB.
        let from = from.min(self.size);
        let bytes = read_from(&self.path, from, self.size)?;
        let (records, read) = put_records(s, &bytes, Some((self.number, from)))?;
        self.end = from + read as u64;
        // What lies past the last whole record (zeros grown ahead, or a
        // torn record) goes: the file holds its records and nothing else
        // until it next grows.
        if self.size > self.end {
            self.file
                .set_len(self.end)
                .and_then(|()| self.file.sync_all())
                .map_err(io_err(&self.path))?;
            self.size = self.end;
        }
        Ok(records)
    }

    /// Ends the segment and begins the next, durably. The caller has made
    /// sled durable first: it holds every record of this one.
    pub(super) fn next_segment(&mut self) -> Result<(), StoreError> {
        // The zeros it was grown with hold nothing.
        self.file
            .set_len(self.end)
            .and_then(|()| self.file.sync_all())
            .map_err(io_err(&self.path))?;
        let next = Wal::open_segment(&self.dir, Arc::clone(&self.segments), self.number + 1)?;
        next.file.sync_all().map_err(io_err(&next.path))?;
        sync_dir_entry(&self.dir)?;
        *self = next;
        Ok(())
    }
}

/// Puts into `s` every event of a store's file from before segments
/// (`appends.wal`), whole, and its other keys; whether there was one. The
/// caller makes sled durable and then calls [`remove_old_file`].
pub(super) fn put_old_file(dir: &Path, s: &Sled) -> Result<bool, StoreError> {
    let path = dir.join(OLD_FILE);
    let size = match std::fs::metadata(&path) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_err(&path)(e)),
    };
    let bytes = read_from(&path, 0, size)?;
    let (records, _) = put_records(s, &bytes, None)?;
    if records > 0 {
        tracing::info!(path = %dir.display(), groups = records, "put appends again from the appends' log of an earlier build");
    }
    Ok(true)
}

/// Removes the file [`put_old_file`] put, durably.
pub(super) fn remove_old_file(dir: &Path) -> Result<(), StoreError> {
    let path = dir.join(OLD_FILE);
    std::fs::remove_file(&path).map_err(io_err(&path))?;
    sync_dir_entry(dir)
}

fn sync_dir_entry(dir: &Path) -> Result<(), StoreError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_err(dir))
}

/// The file's bytes from `from` on (`size` is about its length).
fn read_from(path: &Path, from: u64, size: u64) -> Result<Vec<u8>, StoreError> {
    use std::io::{Seek, SeekFrom};
    let mut bytes = Vec::with_capacity(size.saturating_sub(from) as usize);
    File::open(path)
        .and_then(|mut f| {
            f.seek(SeekFrom::Start(from))?;
            f.read_to_end(&mut bytes)
        })
        .map_err(io_err(path))?;
    Ok(bytes)
}

/// Puts every whole record of `bytes` into `s`, in order: how many, and
/// the bytes they take. With `in_log` (the segment, and where `bytes`
/// start in it) an event is put as where it lies there; without, whole.
fn put_records(
    s: &Sled,
    bytes: &[u8],
    in_log: Option<(u32, u64)>,
) -> Result<(usize, usize), StoreError> {
    let mut records = 0;
    let mut rest = bytes;
    while let Some((body, after)) = next_record(rest) {
        let mut batches: [sled::Batch; 4] = Default::default();
        let mut touched = [false; 4];
        let mut entries = body;
        while let Some((entry, after)) = next_entry(entries) {
            let value = match (entry.tree, in_log) {
                (Tree::Events | Tree::Forms, Some((segment, start))) => {
                    let at = entry.value.as_ptr() as usize - bytes.as_ptr() as usize;
                    let at = InLog::among((segment, start), at, entry.value.len());
                    sled::IVec::from(&at.encode()[..])
                }
                _ => sled::IVec::from(entry.value),
            };
            batches[entry.tree as usize].insert(entry.key, value);
            touched[entry.tree as usize] = true;
            entries = after;
        }
        if !entries.is_empty() {
            return Err(StoreError::corrupt(
                "appends log",
                format!("record {} has a checksum but no sense", records + 1),
            ));
        }
        // Events, forms and receipts before heads, as a group writes them.
        for tree in [Tree::Events, Tree::Forms, Tree::Idempotency, Tree::Heads] {
            if touched[tree as usize] {
                let batch = std::mem::take(&mut batches[tree as usize]);
                tree.in_sled(s).apply_batch(batch)?;
            }
        }
        records += 1;
        rest = after;
    }
    Ok((records, bytes.len() - rest.len()))
}

fn owner_only_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// The body of the next whole record and what follows it, or `None` at the
/// end: the zeros past the last record, or a record cut short or failing
/// its check.
fn next_record(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let length = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
    if length == 0 {
        return None;
    }
    let check = u32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?);
    let body = bytes.get(8..8 + length)?;
    (crc32fast::hash(body) == check).then(|| (body, &bytes[8 + length..]))
}

/// One key a record puts.
struct Entry<'a> {
    tree: Tree,
    key: &'a [u8],
    value: &'a [u8],
}

/// The next entry of a record's body, and the rest.
fn next_entry(bytes: &[u8]) -> Option<(Entry<'_>, &[u8])> {
    let (&tree, rest) = bytes.split_first()?;
    let tree = Tree::of(tree)?;
    let (key, rest) = sized(rest)?;
    let (value, rest) = sized(rest)?;
    Some((Entry { tree, key, value }, rest))
}

fn sized(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let length = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
    let part = bytes.get(4..4 + length)?;
    Some((part, &bytes[4 + length..]))
}
