//! Sealed hashing: a hash chain that every viewer can check and that tells
//! nobody what they may not see.
//!
//! An event's body is cut into parts: a creation is its public setup
//! (`game`) and its `seed`; an accepted action is its `action`, each fact
//! (`fact.0`, `fact.1`, ...) and each chance draw (`chance.0`, ...); a reseed
//! is its `seed`; a note is one part (`note`: a private note is hidden whole)
//! and a branch's name one more (`name`). Each part is committed on its own:
//!
//! ```text
//! part salt  = HMAC-SHA256(key = event salt, message = part label)
//! commitment = SHA-256("tabletape.seal.v1" 0 part-salt 0 label 0 canonical JSON of the part)
//! hash       = SHA-256(canonical JSON of the envelope with the commitments in place of the body)
//! ```
//!
//! The event salt is 16 random bytes drawn by the journal and stored with
//! the event; only those who may see every part get it. A reader who may see
//! a part gets that part and its own part salt, so it can recompute the
//! commitment; for a hidden part it gets the commitment alone, which says
//! nothing about the value (the salt is secret and random, so even a value
//! from a handful of possibilities cannot be guessed by trying them). So a
//! seat checks the whole chain over what it sees ([`check_shown`]), and the
//! owner (or anyone, once the game is over and every salt is out) checks
//! every part as well.
//!
//! Events written before salts existed (schema 1) have none: their hash is
//! SHA-256 of the whole event's JSON, and they are shown in full to whoever
//! may read the game, as they always were.

use std::borrow::Cow;
use std::io::Write as _;
use tabletape_engine::hex_text;

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tabletape_events::{Actor, Body, Event, FactText, GameCreated};

/// The bytes of an event salt.
pub const SALT_BYTES: usize = 16;

/// The part label of a seed (a creation's or a reseed's).
pub const SEED_PART: &str = "seed";

/// The part label of a note, and of a branch's name: the whole body but its `type`.
const NOTE_PART: &str = "note";
const NAME_PART: &str = "name";

/// One committed part of an event, as a reader may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Seal {
    /// Which part (`game`, `seed`, `action`, `fact.2`, `chance.0`).
    pub part: String,
    /// Hex SHA-256 commitment to the part's value.
    pub commitment: String,
    /// The part's salt, when the reader may see the part and so check the
    /// commitment; absent for a hidden part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
}

/// The value of one part: a fact's text as stored, or a value (borrowed
/// from the body, or built for the part). Either is hashed as the canonical
/// JSON it is.
#[derive(Debug, PartialEq)]
pub enum PartValue<'a> {
    Fact(&'a FactText),
    Value(Cow<'a, Value>),
}

impl Serialize for PartValue<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            PartValue::Fact(text) => text.serialize(serializer),
            PartValue::Value(value) => value.serialize(serializer),
        }
    }
}

fn built(value: Value) -> PartValue<'static> {
    PartValue::Value(Cow::Owned(value))
}

/// The parts of a body in hash order, with their labels. An action's parts
/// are borrowed from the body; only a creation's (without its seed) and the
/// draws are built.
pub fn parts(body: &Body) -> Vec<(String, PartValue<'_>)> {
    match body {
        Body::GameCreated(created) => {
            let mut game = serde_json::to_value(created).expect("creations serialize");
            let seed = game
                .as_object_mut()
                .and_then(|m| m.remove(SEED_PART))
                .unwrap_or(Value::Null);
            vec![
                ("game".into(), built(game)),
                (SEED_PART.into(), built(seed)),
            ]
        }
        Body::ActionAccepted(accepted) => {
            let mut out = Vec::with_capacity(1 + accepted.facts.len() + accepted.chance.len());
            out.push((
                "action".into(),
                PartValue::Value(Cow::Borrowed(&accepted.action)),
            ));
            for (i, fact) in accepted.facts.iter().enumerate() {
                out.push((format!("fact.{i}"), PartValue::Fact(fact)));
            }
            for (i, draw) in accepted.chance.iter().enumerate() {
                out.push((
                    format!("chance.{i}"),
                    built(serde_json::to_value(draw).expect("draws serialize")),
                ));
            }
            out
        }
        Body::Reseeded { seed } => vec![(SEED_PART.into(), built(json!(seed)))],
        Body::Noted(note) => vec![(
            NOTE_PART.into(),
            built(serde_json::to_value(note).expect("notes serialize")),
        )],
        Body::BranchNamed(name) => vec![(
            NAME_PART.into(),
            built(serde_json::to_value(name).expect("names serialize")),
        )],
        Body::ContributionCommitted { commitment } => {
            vec![("commitment".into(), built(json!(commitment)))]
        }
        Body::ContributionRevealed { contribution } => {
            vec![("contribution".into(), built(json!(contribution)))]
        }
    }
}

/// The salt of one part, derived from the event's salt.
pub fn part_salt(event_salt: &str, part: &str) -> String {
    PartSalts::new(event_salt).of(part)
}

/// The salts of one event's parts: the HMAC is keyed with the event's salt
/// once, not again for every part (half of each part salt's hashing).
struct PartSalts(Hmac<Sha256>);

impl PartSalts {
    fn new(event_salt: &str) -> Self {
        PartSalts(
            Hmac::<Sha256>::new_from_slice(event_salt.as_bytes())
                .expect("HMAC takes any key length"),
        )
    }

    fn of(&self, part: &str) -> String {
        let mut mac = self.0.clone();
        mac.update(part.as_bytes());
        hex_text::of(mac.finalize().into_bytes())
    }
}

/// The commitment to one part's value under its salt.
pub fn commitment(part_salt: &str, part: &str, value: &impl Serialize) -> String {
    let mut h = Sha256::new();
    h.update(b"tabletape.seal.v1\0");
    h.update(part_salt.as_bytes());
    h.update(b"\0");
    h.update(part.as_bytes());
    h.update(b"\0");
    write_json(&mut h, value);
    hex_text::of(h.finalize())
}

/// Writes `value`'s JSON into a hash. No copy of its text is built (every
/// append, import and verify hashes); a small buffer gathers serde_json's
/// many tiny writes (a quote, a colon), each of which was a call into the
/// hash's block buffer: a sixth of a store's random play went there.
fn write_json(h: &mut Sha256, value: &impl Serialize) {
    let mut w = std::io::BufWriter::with_capacity(1024, Hashing(h));
    serde_json::to_writer(&mut w, value).expect("hashed forms serialize");
    w.flush().expect("a hash takes every write");
}

struct Hashing<'a>(&'a mut Sha256);

impl std::io::Write for Hashing<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Hex SHA-256 of a value's JSON text.
fn json_hash(value: &impl Serialize) -> String {
    let mut h = Sha256::new();
    write_json(&mut h, value);
    hex_text::of(h.finalize())
}

/// Every part of a salted event, committed, each with its salt.
pub fn seals(event: &Event) -> Vec<Seal> {
    let salts = PartSalts::new(&event.salt);
    parts(&event.body)
        .into_iter()
        .map(|(part, value)| {
            let salt = salts.of(&part);
            Seal {
                commitment: commitment(&salt, &part, &value),
                part,
                salt: Some(salt),
            }
        })
        .collect()
}

/// The body's type tag, as it appears in the event's JSON.
fn body_type(body: &Body) -> &'static str {
    body.tag()
}

/// The envelope fields that a hash covers besides the commitments.
#[derive(Serialize)]
struct HashForm<'a> {
    game: &'a str,
    branch: &'a str,
    seq: u64,
    recorded_at_ms: u64,
    actor: Actor,
    schema_version: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    idempotency_key: Option<&'a str>,
    prev_hash: &'a str,
    body: &'a str,
    seals: Vec<&'a str>,
}

/// Hex SHA-256 of the envelope and the commitments.
fn sealed_hash(envelope: &ShownEvent, commitments: Vec<&str>) -> String {
    json_hash(&HashForm {
        game: &envelope.game,
        branch: &envelope.branch,
        seq: envelope.seq,
        recorded_at_ms: envelope.recorded_at_ms,
        actor: envelope.actor,
        schema_version: envelope.schema_version,
        idempotency_key: envelope.idempotency_key.as_deref(),
        prev_hash: &envelope.prev_hash,
        body: envelope.body_type(),
        seals: commitments,
    })
}

/// The hash an event must carry: over its sealed form when it has a salt,
/// over its whole JSON (as schema 1 wrote it) when it has none.
pub fn event_hash(event: &Event) -> String {
    if event.salt.is_empty() {
        let mut clear = event.clone();
        clear.hash = String::new();
        clear.schema_version = 1;
        return json_hash(&clear);
    }
    let seals = seals(event);
    // The envelope is read in place, not copied into a `ShownEvent`.
    json_hash(&HashForm {
        game: &event.game,
        branch: &event.branch,
        seq: event.seq,
        recorded_at_ms: event.recorded_at_ms,
        actor: event.actor,
        schema_version: event.schema_version,
        idempotency_key: event.idempotency_key.as_deref(),
        prev_hash: &event.prev_hash,
        body: body_type(&event.body),
        seals: seals.iter().map(|s| s.commitment.as_str()).collect(),
    })
}

/// An event as one reader may see it: the envelope, the body with what the
/// reader may not see left out, and the seal of every part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ShownEvent {
    pub game: String,
    pub branch: String,
    pub seq: u64,
    pub recorded_at_ms: u64,
    #[schema(value_type = crate::schema_doc::ActorSchema)]
    pub actor: Actor,
    pub schema_version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
    pub prev_hash: String,
    pub hash: String,
    /// The event's salt, for a reader who sees every part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// The body as the reader may know it (`type` tagged, like [`Body`]).
    pub body: Value,
    /// One seal per part, in hash order (none on a schema 1 event).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seals: Vec<Seal>,
}

impl ShownEvent {
    fn envelope_of(event: &Event, body: &'static str) -> ShownEvent {
        ShownEvent {
            game: event.game.clone(),
            branch: event.branch.clone(),
            seq: event.seq,
            recorded_at_ms: event.recorded_at_ms,
            actor: event.actor,
            schema_version: event.schema_version,
            idempotency_key: event.idempotency_key.clone(),
            prev_hash: event.prev_hash.clone(),
            hash: event.hash.clone(),
            salt: None,
            body: json!({ "type": body }),
            seals: Vec::new(),
        }
    }

    fn body_type(&self) -> &str {
        self.body.get("type").and_then(Value::as_str).unwrap_or("")
    }

    /// The whole event, nothing hidden.
    pub fn full(event: &Event) -> ShownEvent {
        ShownEvent::full_sealed(event, seals(event))
    }

    /// [`ShownEvent::full`] with the event's seals already worked out
    /// ([`seals`] of this very event).
    pub fn full_sealed(event: &Event, seals: Vec<Seal>) -> ShownEvent {
        ShownEvent {
            salt: (!event.salt.is_empty()).then(|| event.salt.clone()),
            body: serde_json::to_value(&event.body).expect("bodies serialize"),
            seals: if event.salt.is_empty() {
                Vec::new()
            } else {
                seals
            },
            ..ShownEvent::envelope_of(event, body_type(&event.body))
        }
    }

    /// `event` as a reader sees it who knows it only as `redacted` (the same
    /// event with secret values replaced by the kind, see
    /// `Game::redact_event`), and who never sees a seed. A part whose value
    /// differs in `redacted` is hidden: its value is left out of the body
    /// and its seal keeps no salt.
    pub fn partial(event: &Event, redacted: &Event) -> ShownEvent {
        ShownEvent::partial_sealed(event, redacted, seals(event))
    }

    /// [`ShownEvent::partial`] with the event's seals already worked out
    /// ([`seals`] of this very event).
    pub fn partial_sealed(event: &Event, redacted: &Event, mut seals: Vec<Seal>) -> ShownEvent {
        if event.salt.is_empty() {
            // Schema 1: the clear hash would give every secret away to a
            // guess, and always has; the redacted body is all that is shown.
            return ShownEvent {
                body: serde_json::to_value(&redacted.body).expect("bodies serialize"),
                ..ShownEvent::envelope_of(event, body_type(&event.body))
            };
        }
        // A creation is compared as it is typed: turning it (and its whole
        // content pack) into JSON values twice, on every read of a game's
        // events, was a third of what such a read cost.
        let creation_shown = match (&event.body, &redacted.body) {
            (Body::GameCreated(stored), Body::GameCreated(shown)) => {
                Some(same_but_seed(stored, shown))
            }
            _ => None,
        };
        let (shown_parts, stored_parts) = match creation_shown {
            Some(_) => (Vec::new(), Vec::new()),
            None => (parts(&redacted.body), parts(&event.body)),
        };
        let mut body = serde_json::to_value(&redacted.body).expect("bodies serialize");
        for seal in &mut seals {
            let stored = stored_parts
                .iter()
                .find(|(p, _)| *p == seal.part)
                .map(|(_, v)| v);
            let visible = seal.part != SEED_PART
                && match creation_shown {
                    Some(shown) => shown && seal.part == "game",
                    None => shown_parts
                        .iter()
                        .any(|(p, v)| *p == seal.part && Some(v) == stored),
                };
            if !visible {
                seal.salt = None;
            }
        }
        if let Some(map) = body.as_object_mut() {
            map.remove(SEED_PART);
        }
        ShownEvent {
            body,
            seals,
            ..ShownEvent::envelope_of(event, body_type(&event.body))
        }
    }

    /// The commitment to the seed, for a creation or a reseed.
    pub fn seed_commitment(&self) -> Option<&str> {
        self.seals
            .iter()
            .find(|s| s.part == SEED_PART)
            .map(|s| s.commitment.as_str())
    }
}

/// Whether two creations are one but for their seed (the `game` part).
/// Every field is named, so a field added to the creation is compared too.
fn same_but_seed(a: &GameCreated, b: &GameCreated) -> bool {
    let GameCreated {
        kind,
        players,
        seed: _,
        dice,
        options,
        pack,
        public,
        title,
        rules_version,
        chance_version,
    } = a;
    *kind == b.kind
        && *players == b.players
        && *dice == b.dice
        && *options == b.options
        && *pack == b.pack
        && *public == b.public
        && *title == b.title
        && *rules_version == b.rules_version
        && *chance_version == b.chance_version
}

/// The value of part `part` in a shown body, where the reader sees it.
fn shown_part(body: &Value, part: &str) -> Option<Value> {
    if part == "game" || part == NOTE_PART || part == NAME_PART {
        let mut game = body.clone();
        let map = game.as_object_mut()?;
        map.remove("type");
        map.remove(SEED_PART);
        return Some(game);
    }
    if part == "action" || part == SEED_PART {
        return body.get(part).cloned();
    }
    let (list, index) = part.split_once('.')?;
    let field = match list {
        "fact" => "facts",
        "chance" => "chance",
        _ => return None,
    };
    body.get(field)?.get(index.parse::<usize>().ok()?).cloned()
}

/// Why a shown history does not check out: the seq and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainBreak {
    pub seq: u64,
    pub what: String,
}

/// Checks a branch's history as one reader sees it, from its first event:
/// each visible part against its commitment, each hash against the envelope
/// and the commitments, each `prev_hash` against the hash before. Schema 1
/// events (no seals) are checked only for their links.
pub fn check_shown(events: &[ShownEvent]) -> Result<(), ChainBreak> {
    let mut prev: Option<&str> = None;
    for event in events {
        let seq = event.seq;
        let brk = |what: String| Err(ChainBreak { seq, what });
        if let Some(prev) = prev {
            if event.prev_hash != prev {
                return brk("prev_hash does not match the hash of the event before it".into());
            }
        } else if seq == 1 && !event.prev_hash.is_empty() {
            return brk("the creation has a prev_hash".into());
        }
        prev = Some(&event.hash);
        if event.seals.is_empty() {
            continue;
        }
        for seal in &event.seals {
            let Some(salt) = &seal.salt else { continue };
            let Some(value) = shown_part(&event.body, &seal.part) else {
                return brk(format!("part `{}` has a salt but no value", seal.part));
            };
            if commitment(salt, &seal.part, &value) != seal.commitment {
                return brk(format!(
                    "part `{}` does not match its commitment (tampered or corrupt)",
                    seal.part
                ));
            }
        }
        let commitments = event.seals.iter().map(|s| s.commitment.as_str()).collect();
        if sealed_hash(event, commitments) != event.hash {
            return brk("the hash does not match the envelope and its seals".into());
        }
    }
    Ok(())
}
