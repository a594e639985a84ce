//! Where appends' fold forms lie, gathered into packs before sled holds them.
//!
//! sled splits a leaf every 16 or so entries whatever their size, and a
//! game's keys grow at the end of its range, so each entry put costs a
//! share of a split: an append's form put on its own cost as much as its
//! event. So a group's leader, once the group is durable, adds where each
//! written event's form lies in the appends' log (see
//! [`super::layout::IN_LOG`]: the form stays in its record, as the event
//! does) to its branch's run in memory, and a run goes into `forms`
//! as one pack (see [`super::layout::PACKED`]) once it is full
//! ([`PACK_MOST`] forms, or [`super::layout::PACK_BYTES`]), its seqs stop
//! following on, or a checkpoint comes (and the
//! store closes): a checkpoint empties
//! the appends' log, whose records an opening puts again form by form, so
//! what a crash loses of the runs that log still has, and what it has put
//! in sled needs nothing from them.
//!
//! Readers of forms look here after sled ([`Runs::waiting`]), so a fold of a
//! game in play reads the forms of its latest events as it does the rest. A
//! run taken to be put may be in neither for a moment: the fold then reads
//! those events whole, as it reads any event without its form.
//!
//! An import packs where its events' forms lie the same way, a chunk at a
//! time, and where its events lie too (in `events`: see
//! [`super::layout::PACKED`]); its chunks are records of the appends' log.
//!
//! The runs hold at most what the appends' log holds since the last
//! checkpoint (64 MiB, the forms a fraction of it), since a checkpoint puts
//! them all.

use std::collections::HashMap;

use super::layout::{PACKED, PACK_MOST};

/// The runs of every branch with forms waiting, by the branch's part of
/// their keys (a seq key without its seq; see [`super::layout::seq_key`]).
#[derive(Default)]
pub(super) struct Runs(HashMap<Vec<u8>, Run>);

/// A branch's forms of consecutive seqs, packed as they come.
struct Run {
    /// The seq of the first form.
    first: u64,
    /// How many forms the pack holds.
    count: usize,
    /// Whether any is a form (notes and names have none): a run of none is
    /// not put.
    any: bool,
    /// The pack's bytes, [`PACKED`] first.
    pack: Vec<u8>,
}

/// A `forms` key (or an import's `events` key) and the pack to put under it.
pub(super) type Put = (Vec<u8>, Vec<u8>);

impl Runs {
    /// Adds the entry of the event under `key` (its form, empty for an event
    /// with none; or, for an import's `events`, its stored JSON) to its
    /// branch's run; a run that is full ([`PACK_MOST`] entries, or
    /// `most_bytes`), or that `key` does not follow on, goes into `put`.
    pub(super) fn push(&mut self, key: &[u8], form: &[u8], most_bytes: usize, put: &mut Vec<Put>) {
        let (branch, seq) = split(key);
        if let Some(run) = self.0.get(branch) {
            let apart = run.first + run.count as u64 != seq;
            let over = run.pack.len() + 4 + form.len() > most_bytes;
            if apart || over {
                put.extend(self.take(branch));
            }
        }
        let run = match self.0.get_mut(branch) {
            Some(run) => run,
            None => self.0.entry(branch.to_vec()).or_insert(Run {
                first: seq,
                count: 0,
                any: false,
                pack: vec![PACKED],
            }),
        };
        let len = u32::try_from(form.len()).expect("a fold form under 4 GiB");
        run.pack.extend_from_slice(&len.to_le_bytes());
        run.pack.extend_from_slice(form);
        run.count += 1;
        run.any |= !form.is_empty();
        if run.count == PACK_MOST {
            put.extend(self.take(branch));
        }
    }

    /// Every run, to put before a checkpoint.
    pub(super) fn take_all(&mut self) -> Vec<Put> {
        self.0
            .drain()
            .filter_map(|(branch, run)| run.put(branch))
            .collect()
    }

    /// The run of `branch` (a seq key's part before its seq), when it holds
    /// a form of seqs `lo..=hi`: the seq of its first form and its pack.
    pub(super) fn waiting(&self, branch: &[u8], (lo, hi): (u64, u64)) -> Option<(u64, Vec<u8>)> {
        let run = self.0.get(branch)?;
        let last = run.first + run.count as u64 - 1;
        (run.first <= hi && lo <= last).then(|| (run.first, run.pack.clone()))
    }

    fn take(&mut self, branch: &[u8]) -> Option<Put> {
        let (branch, run) = self.0.remove_entry(branch)?;
        run.put(branch)
    }
}

impl Run {
    /// The run's key (its `branch` part and first seq) and pack; none for a
    /// run that holds no form.
    fn put(self, mut branch: Vec<u8>) -> Option<Put> {
        if !self.any {
            return None;
        }
        branch.extend_from_slice(&self.first.to_be_bytes());
        Some((branch, self.pack))
    }
}

/// A seq key's branch part and seq.
pub(super) fn split(key: &[u8]) -> (&[u8], u64) {
    let (branch, seq) = key.split_at(key.len() - 8);
    let seq = u64::from_be_bytes(seq.try_into().expect("eight bytes"));
    (branch, seq)
}
