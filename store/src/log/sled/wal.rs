//! The appends' own log: the file that makes an append durable.
//!
//! sled 0.34 makes a write durable only through `flush()`, which writes its
//! buffer and waits on `sync_file_range`, after which the drive's cache
//! still needs an `fdatasync`: two device waits per group. So a group of
//! appends is written to sled's memory as before (readers see it at once),
//! then as one record at the end of `appends.wal` in the store's directory,
//! and acknowledged after one `fdatasync` of that file. sled writes its own
//! buffers out when they fill and is made durable at a checkpoint, off the
//! acknowledgement path.
//!
//! Which file is the truth: for appends, `appends.wal` until the next
//! checkpoint; for everything else (creations, forks, take-backs, imports,
//! settings), sled, flushed and synced before each is acknowledged. Only
//! appends write their keys (a branch's events and forms past its fork, its
//! receipts and its head), so putting a record's keys again over any sled state the
//! store reached is harmless, and opening a store puts every record again,
//! in order, then checkpoints.
//!
//! A checkpoint makes sled durable (flush, then `fdatasync` of its files)
//! and only then replaces the file with an empty one (written aside,
//! renamed over, the directory synced), so a crash at any point leaves
//! either the old records, all of them already in sled, or none. It runs
//! when the file passes [`CHECKPOINT_BYTES`], when the store opens, after a
//! recovery from a write fault, and when the store closes.
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

use super::disk::io_err;
use super::layout::Sled;
use crate::error::StoreError;

/// The file's name in the store's directory.
pub(super) const WAL_FILE: &str = "appends.wal";

/// A checkpoint is taken once the file holds this many bytes: sled then has
/// at most this much to flush, and an opening at most this much to put again.
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

/// One record being put together: the keys a group writes, in order.
#[derive(Default)]
pub(super) struct Record {
    /// Eight bytes for the length and check, then the body.
    bytes: Vec<u8>,
}

impl Record {
    /// What a put adds besides its key and value: the tree and two lengths.
    pub(super) const PUT_BYTES: usize = 9;

    /// An empty record with room for `puts` bytes of puts.
    pub(super) fn with_room(puts: usize) -> Record {
        let mut bytes = Vec::with_capacity(8 + puts);
        bytes.resize(8, 0);
        Record { bytes }
    }

    pub(super) fn put(&mut self, tree: Tree, key: &[u8], value: &[u8]) {
        self.bytes.push(tree as u8);
        for part in [key, value] {
            self.bytes
                .extend_from_slice(&(part.len() as u32).to_le_bytes());
            self.bytes.extend_from_slice(part);
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.bytes.len() == 8
    }

    /// The record as written: its length and check filled in.
    fn sealed(&mut self) -> &[u8] {
        let body = &self.bytes[8..];
        let length = (body.len() as u32).to_le_bytes();
        let check = crc32fast::hash(body).to_le_bytes();
        self.bytes[..4].copy_from_slice(&length);
        self.bytes[4..8].copy_from_slice(&check);
        &self.bytes
    }
}

/// The file is grown this much at a time, with zeros written and synced, so
/// that a group's record lands inside the file's size: its `fdatasync` then
/// writes the record alone, where a file grown by each record would also
/// have its size written to the disk on every sync.
const GROW_BYTES: u64 = 1024 * 1024;

/// The open file, where its records end, and how far it is grown.
pub(super) struct Wal {
    path: PathBuf,
    file: File,
    /// Where the next record goes: the end of the last whole record.
    end: u64,
    /// The file's size: zeros from `end` on.
    size: u64,
}

impl Wal {
    /// Opens the store's file, creating it empty if there is none; its
    /// records are found by [`Wal::replay`].
    pub(super) fn open(dir: &Path) -> Result<Wal, StoreError> {
        let path = dir.join(WAL_FILE);
        let file = owner_only_options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_err(&path))?;
        let size = file.metadata().map_err(io_err(&path))?.len();
        Ok(Wal {
            path,
            file,
            end: size,
            size,
        })
    }

    /// Writes one group's record and waits for the device to hold it.
    pub(super) fn write(&mut self, record: &mut Record) -> Result<(), StoreError> {
        use std::os::unix::fs::FileExt;
        let bytes = record.sealed();
        let end = self.end + bytes.len() as u64;
        if end > self.size {
            self.grow(end)?;
        }
        self.file
            .write_all_at(bytes, self.end)
            .and_then(|()| self.file.sync_data())
            .map_err(io_err(&self.path))?;
        self.end = end;
        Ok(())
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

    /// Whether the file holds no record (a checkpoint then has no file to
    /// replace).
    pub(super) fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Whether the file has grown past [`CHECKPOINT_BYTES`].
    pub(super) fn is_full(&self) -> bool {
        self.end >= CHECKPOINT_BYTES
    }

    /// Puts every whole record of the file into `s`, in order; how many.
    pub(super) fn replay(&mut self, s: &Sled) -> Result<usize, StoreError> {
        let mut bytes = Vec::with_capacity(self.size as usize);
        File::open(&self.path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(io_err(&self.path))?;
        let mut records = 0;
        let mut rest = bytes.as_slice();
        while let Some((body, after)) = next_record(rest) {
            let mut batches: [sled::Batch; 4] = Default::default();
            let mut touched = [false; 4];
            let mut entries = body;
            while let Some((entry, after)) = next_entry(entries) {
                batches[entry.tree as usize].insert(entry.key, entry.value);
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
        self.end = (bytes.len() - rest.len()) as u64;
        Ok(records)
    }

    /// Starts an empty file in place of this one, durably. The caller has
    /// made sled durable first: everything the old file held is in it.
    pub(super) fn restart(&mut self) -> Result<(), StoreError> {
        let dir = self.path.parent().expect("the file is in the store");
        let aside = dir.join(format!("{WAL_FILE}.new"));
        let file = owner_only_options()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&aside)
            .map_err(io_err(&aside))?;
        file.sync_all().map_err(io_err(&aside))?;
        std::fs::rename(&aside, &self.path).map_err(io_err(&self.path))?;
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io_err(dir))?;
        *self = Wal::open(dir)?;
        Ok(())
    }
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
