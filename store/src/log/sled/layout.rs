//! The sled layout of the log: one opening's trees, the keys of each, and
//! the bytes stored under them (heads, events with their packs kept once,
//! and the parts of an event a fold reads).
//!
//! Layout (sled trees; keys use `0` bytes as separators, which names may not contain):
//! `games` id -> [`GameMeta`](crate::log::GameMeta); `branches` game/branch -> [`BranchRecord`](crate::log::BranchRecord);
//! `heads` game/branch -> head seq (8 bytes, big-endian) + head hash;
//! `events` game/branch/seq -> the event's JSON, where an append's JSON lies
//! in the appends' log (see [`IN_LOG`]), or the JSON of a run of events
//! from that seq on (an import's, see [`PACKED`]); `forms`
//! game/branch/seq -> what a fold reads of an accepted action, apart from
//! its JSON (see [`encode_form`]), or of a run of events from that seq on;
//! `idempotency`
//! game/branch/key -> [`Receipt`]; `snapshots` game/branch/seq -> a cached
//! [`Snapshot`](tabletape_engine::Snapshot) (droppable; stored under the branch that owns that seq, so
//! every descendant shares it).

use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tabletape_engine::compact;
use tabletape_engine::hex_text;
use tabletape_events::{Actor, Body, Event, FoldForm, SCHEMA_VERSION};

use crate::error::StoreError;
use crate::log::{decode_event, to_json, FoldBody, FoldStep, Receipt};

/// One opening of the sled database and its trees.
pub(super) struct Sled {
    pub(super) db: sled::Db,
    pub(super) games: sled::Tree,
    pub(super) branches: sled::Tree,
    pub(super) heads: sled::Tree,
    pub(super) events: sled::Tree,
    /// What a fold reads of each event, apart (see [`encode_form`]): a
    /// fold from storage pages in these alone, a third of the bytes.
    pub(super) forms: sled::Tree,
    pub(super) idempotency: sled::Tree,
    pub(super) snapshots: sled::Tree,
    /// Content packs by their SHA-256, each stored once however many games
    /// use it (see [`encode_stored`]). Never pruned: a pack is small next
    /// to one copy per game, and a game deleted may share it.
    pub(super) packs: sled::Tree,
    /// Store-wide settings: the admin token's hash, and how far sled holds
    /// the appends' log (see [`super::wal`]).
    pub(super) settings: sled::Tree,
    /// The appends' log, read where sled points into it (see [`IN_LOG`]).
    pub(super) segments: std::sync::Arc<super::segments::Segments>,
}

/// The key of the admin token's hash in `settings`.
pub(super) const ADMIN_TOKEN_KEY: &[u8] = b"admin_token_hash";

pub(super) const SEP: u8 = 0;

pub(super) fn branch_key(game: &str, branch: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(game.len() + branch.len() + 1);
    k.extend_from_slice(game.as_bytes());
    k.push(SEP);
    k.extend_from_slice(branch.as_bytes());
    k
}

pub(super) fn game_prefix(game: &str) -> Vec<u8> {
    let mut k = game.as_bytes().to_vec();
    k.push(SEP);
    k
}

/// What every key of `branch` in a tree of per-branch entries (events,
/// forms, receipts, snapshots) starts with.
pub(super) fn branch_prefix(game: &str, branch: &str) -> Vec<u8> {
    let mut k = branch_key(game, branch);
    k.push(SEP);
    k
}

pub(super) fn seq_key(game: &str, branch: &str, seq: u64) -> Vec<u8> {
    let mut k = branch_prefix(game, branch);
    k.extend_from_slice(&seq.to_be_bytes());
    k
}

/// The seq of a key of `branch`'s seqs `lo..=hi` (see [`seq_key`]), read
/// in a scan of that range; an error for a key no [`seq_key`] made.
pub(super) fn seq_in(key: &[u8], (lo, hi): (u64, u64)) -> Result<u64, String> {
    key.len()
        .checked_sub(8)
        .and_then(|at| key[at..].try_into().ok())
        .map(u64::from_be_bytes)
        .filter(|seq| (lo..=hi).contains(seq))
        .ok_or_else(|| format!("a key out of place among seqs {lo}..={hi}"))
}

pub(super) fn idem_key(game: &str, branch: &str, key: &str) -> Vec<u8> {
    let mut k = branch_key(game, branch);
    k.push(SEP);
    k.extend_from_slice(key.as_bytes());
    k
}

pub(super) fn encode_head(seq: u64, hash: &str) -> Vec<u8> {
    let mut v = seq.to_be_bytes().to_vec();
    v.extend_from_slice(hash.as_bytes());
    v
}

pub(super) fn decode_head(raw: &[u8]) -> Result<(u64, String), StoreError> {
    if raw.len() < 8 {
        return Err(StoreError::corrupt("branch head", "shorter than 8 bytes"));
    }
    let seq = u64::from_be_bytes(raw[..8].try_into().expect("8 bytes"));
    let hash =
        std::str::from_utf8(&raw[8..]).map_err(|e| StoreError::corrupt("branch head hash", e))?;
    Ok((seq, hash.to_string()))
}

/// The first byte of a stored creation whose content pack is kept once in
/// `packs` under its SHA-256 (every game of a box shares one copy): then
/// the pack's 32-byte hash, then the event's JSON with a null pack. No JSON
/// starts with this byte, so a stored event says by itself which it is.
pub(super) const SHARED_PACK: u8 = 0x01;

/// The first byte of an accepted action stored by a build before `forms`
/// (still read as it is): then the length (u32, little-endian) of what a
/// fold reads, its seq and actor and facts, all in the compact form; then
/// the event's JSON.
pub(super) const WITH_FOLD_FORM: u8 = 0x02;

/// The first byte of an appended event, or its fold form, kept where its
/// append left it, in the appends' log (see [`super::wal`]): then the
/// segment's number (u32, little-endian), the offset of the event's JSON
/// (or the form) in that file (u64) and its length (u32), alone or in a
/// pack (see [`super::segments`] and [`super::runs`]). sled holds these 17
/// bytes instead: sled copies a leaf's entries on every insert, and a leaf
/// of pointers is a small fraction of one of events; and a fold that read
/// forms from sled spent most of its readers' time paging them in (a cold
/// fold from storage ran at half the speed of a warm one).
pub(super) const IN_LOG: u8 = 0x03;

/// Where in the appends' log an event's JSON lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct InLog {
    pub(super) segment: u32,
    pub(super) offset: u64,
    pub(super) len: u32,
}

impl InLog {
    /// Where `len` bytes lie that start `at` bytes into records written at
    /// `start` of `segment`.
    pub(super) fn among((segment, start): (u32, u64), at: usize, len: usize) -> InLog {
        InLog {
            segment,
            offset: start + at as u64,
            len: len as u32,
        }
    }

    pub(super) fn encode(self) -> [u8; 17] {
        let mut out = [0; 17];
        out[0] = IN_LOG;
        out[1..5].copy_from_slice(&self.segment.to_le_bytes());
        out[5..13].copy_from_slice(&self.offset.to_le_bytes());
        out[13..17].copy_from_slice(&self.len.to_le_bytes());
        out
    }

    /// Where its bytes end.
    pub(super) fn end(self) -> u64 {
        self.offset + u64::from(self.len)
    }

    /// The pointer `raw` is, or `None` for an entry held in sled.
    pub(super) fn decode(raw: &[u8]) -> Result<Option<InLog>, String> {
        let Some((&IN_LOG, rest)) = raw.split_first() else {
            return Ok(None);
        };
        let rest: &[u8; 16] = rest
            .try_into()
            .map_err(|_| format!("a pointer into the appends' log of {} bytes", raw.len()))?;
        let (segment, rest) = rest.split_at(4);
        let (offset, len) = rest.split_at(8);
        Ok(Some(InLog {
            segment: u32::from_le_bytes(segment.try_into().expect("4 bytes")),
            offset: u64::from_le_bytes(offset.try_into().expect("8 bytes")),
            len: u32::from_le_bytes(len.try_into().expect("4 bytes")),
        }))
    }
}

/// The bytes an event is stored as: JSON, except that a creation's pack is
/// stored once per content (in `packs`, written here if new) and the event
/// refers to it. The event and its hash are unchanged: reading puts the
/// pack back.
pub(super) fn encode_stored(s: &Sled, event: &Event) -> Result<Vec<u8>, StoreError> {
    let Body::GameCreated(created) = &event.body else {
        return Ok(to_json(event));
    };
    let pack = to_json(&created.pack);
    let hash: [u8; 32] = Sha256::digest(&pack).into();
    if !s.packs.contains_key(hash)? {
        s.packs.insert(hash, pack)?;
    }
    let mut bare = event.clone();
    if let Body::GameCreated(created) = &mut bare.body {
        created.pack = Value::Null;
    }
    let mut out = Vec::with_capacity(64 + 33);
    out.push(SHARED_PACK);
    out.extend_from_slice(&hash);
    serde_json::to_writer(&mut out, &bare).expect("events serialize");
    Ok(out)
}

/// What `forms` keeps for an event, under the event's own key: an accepted
/// action's seq, actor and facts, in the compact form (see the engine's
/// `compact`), when it has a fold form; empty for any other event, which a
/// fold reads whole. An import writes one for every event, packed (see
/// [`PACKED`]), having removed what an import of the game cut short left;
/// an append of several events packs theirs too.
pub(super) fn encode_form(event: &Event) -> Vec<u8> {
    let form = match &event.body {
        Body::ActionAccepted(accepted) => accepted.fold_form.get(),
        _ => None,
    };
    let Some(form) = form else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(16 + form.len());
    compact::write(&mut out, &(event.seq, event.actor));
    out.extend_from_slice(form);
    out
}

/// The first byte of a `forms` or `events` entry that holds the entries of
/// several events in a row, under the key of the first: then each entry (a
/// form, see [`encode_form`], or an event as [`encode_stored`] writes it)
/// as its length (u32, little-endian) and its bytes: each entry of a sled
/// tree costs its insert, its share of the splits and its page's header,
/// and a fold from storage pulls fewer pages. No single entry starts with
/// this byte (the compact form's markers are below 16, an event's JSON
/// starts with `{`, a creation's with [`SHARED_PACK`] and a pointer with
/// [`IN_LOG`]). Appended and imported events and their forms stay where
/// their record in the appends' log holds them, and sled keeps where (see
/// [`IN_LOG`]), those pointers packed so (see [`super::segments`] and
/// [`super::runs`]); stores written by earlier builds hold packs of the
/// forms and events of imports themselves, read as they are.
pub(super) const PACKED: u8 = 0xFF;

/// The most entries one pack holds: a read from a seq inside a pack reads
/// the pack from its start, so a pack stays small.
pub(super) const PACK_MOST: usize = 64;

/// The most bytes a pack holds (see [`super::runs`]); a pack of 64 pointers
/// takes 1.3 KB. It was the bound of packs of forms themselves: sled writes
/// a page (a leaf of up to 17 entries) of over a quarter of its 512 KiB
/// segments to a file of its own, opened, written and removed each time
/// the page is, and an entry put on its own has its leaf's page written
/// again: 17 packs of 64 Lost Worlds exchanges (20 KB each) made each such
/// write one. And sled's page cache does not count such a page at its
/// size: once appended events left sled, an export of the bench's
/// 1,000,000-event game (reading every form) kept about 400 MB more of
/// them, whatever the cache's capacity.
pub(super) const PACK_BYTES: usize = 6 * 1024;

/// The entries an entry of `forms` or `events` holds for the seqs from its
/// key's on (see [`PACKED`]): itself, or those of a pack, each read as it
/// is taken (no list of them is built: a fold reads one entry per event).
pub(super) fn unpack(raw: &[u8]) -> Unpacked<'_> {
    match raw.split_first() {
        Some((&PACKED, rest)) => Unpacked::Pack(rest),
        _ => Unpacked::One(Some(raw)),
    }
}

/// What [`unpack`] gives.
pub(super) enum Unpacked<'a> {
    One(Option<&'a [u8]>),
    /// The pack's entries not yet taken.
    Pack(&'a [u8]),
}

impl<'a> Iterator for Unpacked<'a> {
    type Item = Result<&'a [u8], String>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Unpacked::One(entry) => entry.take().map(Ok),
            Unpacked::Pack([]) => None,
            Unpacked::Pack(rest) => match sized(rest, "a packed entry") {
                Ok((entry, after)) => {
                    *rest = after;
                    Some(Ok(entry))
                }
                Err(why) => {
                    *rest = &[];
                    Some(Err(why))
                }
            },
        }
    }
}

/// Splits bytes led by their length (u32, little-endian) from what
/// follows them; `what` they are names them when they are cut short.
fn sized<'a>(raw: &'a [u8], what: &str) -> Result<(&'a [u8], &'a [u8]), String> {
    let cut = || format!("{what} cut short");
    let (len, rest) = raw.split_first_chunk::<4>().ok_or_else(cut)?;
    let len = u32::from_le_bytes(*len) as usize;
    if rest.len() < len {
        return Err(cut());
    }
    Ok(rest.split_at(len))
}

/// An entry of `forms` read: the seq, actor and the facts' compact form.
pub(super) type Form<'a> = (u64, Actor, &'a [u8]);

/// Reads an entry of `forms` (see [`encode_form`]); `None` for an event a
/// fold reads whole.
pub(super) fn decode_form(raw: &[u8]) -> Result<Option<Form<'_>>, String> {
    if raw.is_empty() {
        return Ok(None);
    }
    let ((seq, actor), facts) =
        compact::read_one::<(u64, Actor)>(raw).map_err(|e| format!("its fold form: {e}"))?;
    Ok(Some((seq, actor, facts)))
}

/// Gives an accepted action the fold form `forms` keeps for it (see
/// [`decode_form`]), once it is sure to be that event's.
pub(super) fn attach_form(event: &mut Event, (seq, actor, facts): Form<'_>) -> Result<(), String> {
    let Body::ActionAccepted(accepted) = &mut event.body else {
        return Err("a fold form on an event that is not an accepted action".into());
    };
    if (seq, actor) != (event.seq, event.actor) {
        return Err(format!("its fold form is of seq {seq} by {actor:?}"));
    }
    accepted.fold_form = FoldForm::new(facts.to_vec());
    Ok(())
}

/// Reads an event as stored (see [`encode_stored`] and [`IN_LOG`]).
pub(super) fn decode_stored(s: &Sled, raw: &[u8]) -> Result<Event, String> {
    if let Some(at) = InLog::decode(raw)? {
        return s.segments.with(at, decode_event);
    }
    if let Some(WithFoldForm {
        seq,
        actor,
        facts,
        json,
    }) = with_fold_form(raw)?
    {
        let mut event = decode_event(json)?;
        attach_form(&mut event, (seq, actor, facts))?;
        return Ok(event);
    }
    let Some((&SHARED_PACK, rest)) = raw.split_first() else {
        return decode_event(raw);
    };
    if rest.len() < 32 {
        return Err("a shared-pack creation shorter than its pack's hash".into());
    }
    let (hash, json) = rest.split_at(32);
    let mut event = decode_event(json)?;
    let pack = s
        .packs
        .get(hash)
        .map_err(|e| format!("its content pack cannot be read: {e}"))?
        .ok_or_else(|| format!("its content pack {} is missing", hex_text::of(hash)))?;
    let Body::GameCreated(created) = &mut event.body else {
        return Err("a shared pack on an event that is not a creation".into());
    };
    created.pack = serde_json::from_slice(&pack).map_err(|e| format!("its content pack: {e}"))?;
    Ok(event)
}

/// Reads one stored event as a `T`, with its seq.
pub(super) type Decode<T> = fn(&Sled, &[u8]) -> Result<(T, u64), String>;

/// What a fold reads of a stored event; the rest (the action, draws,
/// hashes) is skipped, not parsed.
#[derive(Deserialize)]
pub(super) struct FoldRead<'a> {
    seq: u64,
    actor: Actor,
    schema_version: u32,
    #[serde(borrow)]
    body: FoldBody<'a>,
}

/// Reads a stored event as a [`FoldStep`]: an accepted action of the current
/// schema by its facts alone, anything else whole.
pub(super) fn decode_step(s: &Sled, raw: &[u8]) -> Result<(FoldStep, u64), String> {
    if let Some(at) = InLog::decode(raw)? {
        return s.segments.with(at, |json| decode_step(s, json));
    }
    if let Some(stored) = with_fold_form(raw)? {
        let (seq, actor, facts) = (stored.seq, stored.actor, stored.facts.into());
        return Ok((FoldStep::Compact { seq, actor, facts }, seq));
    }
    if let Ok(read) = serde_json::from_slice::<FoldRead<'_>>(raw) {
        if let (SCHEMA_VERSION, "action_accepted", Some(facts)) =
            (read.schema_version, &*read.body.kind, read.body.facts)
        {
            let step = FoldStep::Facts {
                seq: read.seq,
                actor: read.actor,
                facts: facts.to_owned(),
            };
            return Ok((step, read.seq));
        }
    }
    let event = decode_stored(s, raw)?;
    let seq = event.seq;
    Ok((FoldStep::Event(Box::new(event)), seq))
}

/// A stored event kept with its fold form (see [`WITH_FOLD_FORM`]), split.
struct WithFoldForm<'a> {
    seq: u64,
    actor: Actor,
    /// The facts in their compact form.
    facts: &'a [u8],
    json: &'a [u8],
}

/// Splits a stored event kept with its fold form; `None` for any other.
fn with_fold_form(raw: &[u8]) -> Result<Option<WithFoldForm<'_>>, String> {
    let Some((&WITH_FOLD_FORM, rest)) = raw.split_first() else {
        return Ok(None);
    };
    let (fold, json) = sized(rest, "a fold form")?;
    let ((seq, actor), facts) =
        compact::read_one::<(u64, Actor)>(fold).map_err(|e| format!("its fold form: {e}"))?;
    Ok(Some(WithFoldForm {
        seq,
        actor,
        facts,
        json,
    }))
}

/// Whether the append a receipt records reached the branch's head at
/// `head_seq` and is still its history there: a crash can keep a receipt
/// whose head it lost (see [`commit`]), and the seqs may hold other events
/// by now.
pub(super) fn receipt_reached(
    s: &Sled,
    game: &str,
    branch: &str,
    head_seq: u64,
    receipt: &Receipt,
) -> Result<bool, StoreError> {
    if receipt.last_seq() > head_seq {
        return Ok(false);
    }
    let Some(raw) = super::own_entry(s, game, branch, receipt.last_seq())? else {
        return Ok(false);
    };
    let event = decode_stored(s, &raw).map_err(|why| StoreError::BadEvent {
        game: game.to_string(),
        branch: branch.to_string(),
        seq: receipt.last_seq(),
        why,
    })?;
    Ok(receipt.hashes.last() == Some(&event.hash))
}
