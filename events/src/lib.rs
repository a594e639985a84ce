//! The event schema of Tabletape: what one line of a game's journal is.
//!
//! An [`Event`] is an envelope (game, branch, seq, time, actor, schema version,
//! idempotency key, hash chain) around a [`Body`]. Bodies are either the game's
//! creation, an accepted action with the facts the engine decided and the chance
//! outcomes it consumed, a reseed at a fork, or an annotation: a reader's
//! note on a moment, or a name for the branch. Annotations change no state.
//!
//! This crate has no logic beyond its types: no hashing, no validation, no IO.
//! Kind-specific actions travel as JSON values here and facts as their JSON
//! text ([`FactText`]); each engine kind gives them their typed shape.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

mod body_de;

/// The schema version written by this build. Older versions are upcast on read
/// (see the store's upcaster registry).
pub const SCHEMA_VERSION: u32 = 2;

/// The name of the first branch of every game.
pub const MAIN_BRANCH: &str = "main";

/// A seat at the table, counted from 0 in the order the players were given.
pub type Seat = u32;

/// Who made an event happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The game's owner (the CLI on a local store acts as owner).
    Owner,
    /// A player, by seat.
    Seat(Seat),
}

/// How chance is resolved in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// Tabletape draws every die, card and shuffle from the game's RNG.
    #[default]
    Digital,
    /// The table rolls and draws; each action carries the outcomes.
    Physical,
}

/// One journal entry: the envelope and its body. Unknown fields are refused
/// on reading, so what an import or a store holds is exactly what is read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub game: String,
    pub branch: String,
    /// Position in the branch's history, gap-free, starting at 1 (the creation).
    pub seq: u64,
    /// Wall-clock time the store accepted the event, Unix milliseconds. Folds never read it.
    pub recorded_at_ms: u64,
    pub actor: Actor,
    pub schema_version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
    /// Hex hash of the event before this one in the branch's history ("" for seq 1).
    pub prev_hash: String,
    /// Hex hash of the envelope and the salted commitments of the body's
    /// parts (schema 2), or of the whole event's JSON (schema 1, no salt).
    pub hash: String,
    /// The event's secret: random hex from which the salt of each part's
    /// commitment is derived, so a hash reveals nothing a viewer may not see.
    /// Shown only to those who may see every part. Empty on schema 1 events.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub salt: String,
    pub body: Body,
}

/// What happened. Written `type`-tagged; read by hand (see `body_de`), in
/// one pass with no copy of the body.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Body {
    GameCreated(GameCreated),
    ActionAccepted(ActionAccepted),
    /// A fork with `--reseed`: every chance outcome after this comes from `seed`.
    Reseeded {
        seed: u64,
    },
    /// A reader's note on a moment of this branch (or a bookmark, when it
    /// has a title). Changes no state.
    Noted(Note),
    /// A title (and description) for the branch the event is on; the last
    /// one a branch holds of its own counts. Changes no state.
    BranchNamed(BranchName),
    /// A seat's sealed share of the dice: the hex SHA-256 of a random value
    /// the seat keeps to itself until every seat has sealed one.
    ContributionCommitted {
        commitment: String,
    },
    /// The value behind a seat's sealed share (hex). Once every seat's is
    /// out, the dice are keyed by them and the owner's seed together.
    ContributionRevealed {
        contribution: String,
    },
}

impl Body {
    /// The `type` tag the body is written with (`action_accepted`).
    pub fn tag(&self) -> &'static str {
        match self {
            Body::GameCreated(_) => "game_created",
            Body::ActionAccepted(_) => "action_accepted",
            Body::Reseeded { .. } => "reseeded",
            Body::Noted(_) => "noted",
            Body::BranchNamed(_) => "branch_named",
            Body::ContributionCommitted { .. } => "contribution_committed",
            Body::ContributionRevealed { .. } => "contribution_revealed",
        }
    }
}

/// A note on the moment `at` of the branch, by whoever the event's actor is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    /// The seq of the moment the note is about (before the note's own seq).
    pub at: u64,
    /// A bookmark's short title ("the turning point").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Kept from everyone but its author and the owner until the game ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
}

/// What a branch is called at the table ("Nowa jumps back") and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BranchName {
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The first event of every game: everything the fold needs to start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameCreated {
    pub kind: String,
    pub players: Vec<String>,
    pub seed: u64,
    pub dice: DiceMode,
    /// Kind options as given (`--option K=V`), validated by the kind.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// The content pack in full, so a log replays without the pack file.
    pub pack: Value,
    /// Reads need no token when true.
    #[serde(default)]
    pub public: bool,
    /// The table's name for the game ("Friday duel"); left out of the
    /// event when none was given, so older events read and hash the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The version of the kind's rules the game was recorded under (each
    /// kind counts its own corrections). Games recorded before versions
    /// were kept have none and are version 1; left out of such events so
    /// they read and hash the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_version: Option<u32>,
    /// How chance is keyed (see the engine's `dice`). Games recorded before
    /// this was kept have none and are version 1: each event draws by its
    /// seq from the seed alone. Version 2 draws by the action's place in
    /// its line, from a key every seat may add to, and deals a seat's fork
    /// anew. Left out of version 1 events so they read and hash the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance_version: Option<u32>,
}

impl GameCreated {
    /// The rules version the game was recorded under (1 when none was kept).
    pub fn rules_version(&self) -> u32 {
        self.rules_version.unwrap_or(1)
    }

    /// How the game's chance is keyed (1 when none was kept).
    pub fn chance_version(&self) -> u32 {
        self.chance_version.unwrap_or(1)
    }
}

/// An action the rules accepted, and what the engine decided it means.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionAccepted {
    /// The action exactly as submitted (kind-specific JSON), kept for strict replay.
    pub action: Value,
    /// The facts the engine decided, in the kind's own event vocabulary
    /// (`{"type": "maneuvers_revealed", ...}`); `apply` folds exactly these.
    pub facts: Vec<FactText>,
    /// Every chance outcome the decision consumed, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chance: Vec<Draw>,
    /// The same facts in the form a fold reads fastest, when the engine
    /// made them or the store kept them.
    #[serde(skip)]
    pub fold_form: FoldForm,
}

/// One fact as JSON text, in its canonical form: keys in byte order, no
/// space, as `serde_json` writes a `Value` (what the event's hash commits
/// to). Kept as text, not as a tree of values: it is written, hashed and
/// stored as it is, and a kind reads its own type straight from it.
///
/// Reading JSON keeps the text as it is; a reader of text from outside the
/// store (an import) checks it against the hash, which holds only for the
/// canonical form. Two facts are equal when their texts are.
#[derive(Clone)]
pub struct FactText(Box<RawValue>);

impl FactText {
    /// `text`, which must be the canonical JSON of a value (it is checked
    /// to be JSON, not to be canonical).
    pub fn from_canonical(text: String) -> Result<FactText, serde_json::Error> {
        RawValue::from_string(text).map(FactText)
    }

    /// A value's canonical text.
    pub fn of(value: &Value) -> FactText {
        FactText(serde_json::value::to_raw_value(value).expect("values serialize"))
    }

    /// The text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The fact as a value (a tree built for it: for a reader that looks
    /// inside, not for a fold). An error for text nested deeper than a
    /// JSON reader follows (128 levels), which only a forged log holds.
    pub fn value(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_str(self.get())
    }
}

impl PartialEq for FactText {
    fn eq(&self, other: &FactText) -> bool {
        self.get() == other.get()
    }
}

impl Eq for FactText {}

impl std::fmt::Debug for FactText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.get())
    }
}

impl std::fmt::Display for FactText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for FactText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for FactText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<FactText, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(FactText)
    }
}

/// An accepted action's facts again, as bytes only the engine's kind reads
/// (its compact form): a fold decodes these several times faster than the
/// JSON. Derived from the same typed facts as the JSON, they are not part
/// of the event's content: never serialized, hashed or shown, and any two
/// compare equal. The store checks them against the JSON (`verify`).
#[derive(Clone, Default)]
pub struct FoldForm(Option<std::sync::Arc<[u8]>>);

impl FoldForm {
    pub fn new(bytes: Vec<u8>) -> FoldForm {
        FoldForm(Some(bytes.into()))
    }

    pub fn get(&self) -> Option<&[u8]> {
        self.0.as_deref()
    }
}

impl PartialEq for FoldForm {
    fn eq(&self, _: &FoldForm) -> bool {
        true
    }
}

impl std::fmt::Debug for FoldForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not even its length: it is of the real facts, whoever reads this.
        match self.get() {
            Some(_) => f.write_str("FoldForm(..)"),
            None => f.write_str("FoldForm(none)"),
        }
    }
}

/// One chance outcome: a die, a range, a card, a shuffle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draw {
    /// What was drawn, in the game's words ("policeman die", "equipment deck").
    pub what: String,
    /// The outcome: a die face, an index, or a permutation for a shuffle.
    pub value: Value,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_body_knows_the_tag_it_is_written_with() {
        let created: Event = serde_json::from_value(created()).unwrap();
        let reseeded = Body::Reseeded { seed: 3 };
        let noted = Body::Noted(Note {
            at: 2,
            title: None,
            text: "here".into(),
            private: false,
        });
        let named = Body::BranchNamed(BranchName {
            title: "jump back".into(),
            description: None,
        });
        for body in [&created.body, &reseeded, &noted, &named] {
            let written = serde_json::to_value(body).unwrap();
            assert_eq!(written["type"], body.tag());
        }
    }

    fn created() -> Value {
        json!({
            "game": "g", "branch": "main", "seq": 1, "recorded_at_ms": 0,
            "actor": "owner", "schema_version": SCHEMA_VERSION, "prev_hash": "",
            "hash": "", "body": {"type": "game_created", "kind": "k", "players": [],
            "seed": 1, "dice": "digital", "pack": null}
        })
    }

    #[test]
    fn an_event_reads_and_an_unknown_field_anywhere_is_refused() {
        serde_json::from_value::<Event>(created()).unwrap();
        let mut extra = created();
        extra["zz"] = json!(1);
        assert!(serde_json::from_value::<Event>(extra).is_err());
        let mut extra = created();
        extra["body"]["zz"] = json!(2.5);
        let err = serde_json::from_value::<Event>(extra).unwrap_err();
        assert!(err.to_string().contains("zz"), "{err}");
    }

    fn body(text: &str) -> Result<Body, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn every_body_reads_back_what_it_wrote_whatever_the_order_of_its_keys() {
        let bodies = [
            Body::GameCreated(GameCreated {
                kind: "legend".into(),
                players: vec!["Ann".into()],
                seed: 9,
                dice: DiceMode::Physical,
                options: [("map".to_string(), json!("large"))].into_iter().collect(),
                pack: json!({"cards": [1, 2]}),
                public: true,
                title: Some("Friday".into()),
                rules_version: Some(2),
                chance_version: None,
            }),
            Body::ActionAccepted(ActionAccepted {
                action: json!({"type": "pass", "seat": 1}),
                facts: vec![FactText::of(&json!({"type": "passed", "seat": 1}))],
                chance: vec![Draw {
                    what: "die".into(),
                    value: json!(4),
                }],
                fold_form: Default::default(),
            }),
            Body::Reseeded { seed: 77 },
            Body::Noted(Note {
                at: 4,
                title: Some("the turning point".into()),
                text: "Nowa should have jumped".into(),
                private: true,
            }),
            Body::Noted(Note {
                at: 1,
                title: None,
                text: "a plain note".into(),
                private: false,
            }),
            Body::BranchNamed(BranchName {
                title: "Nowa jumps back".into(),
                description: Some("what if she had".into()),
            }),
        ];
        for b in bodies {
            let written = serde_json::to_value(&b).unwrap();
            assert_eq!(serde_json::from_value::<Body>(written.clone()).unwrap(), b);
            // `type` last: the reader must not need it first.
            let mut reordered = String::from("{");
            for (k, v) in written
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, _)| *k != "type")
            {
                reordered.push_str(&format!("{}:{v},", json!(k)));
            }
            reordered.push_str(&format!("\"type\":{}}}", written["type"]));
            assert_eq!(body(&reordered).unwrap(), b, "{reordered}");
        }
        // Defaults where the derived reader had them.
        assert_eq!(
            body(r#"{"type":"action_accepted","action":{},"facts":[]}"#).unwrap(),
            Body::ActionAccepted(ActionAccepted {
                action: json!({}),
                facts: vec![],
                chance: vec![],
                fold_form: Default::default(),
            })
        );
    }

    #[test]
    fn a_body_with_a_wrong_missing_repeated_or_foreign_field_is_refused_by_name() {
        for (text, says) in [
            (r#"{"facts":[],"action":{}}"#, "missing field `type`"),
            (r#"{"type":"dealt","seed":1}"#, "unknown variant `dealt`"),
            (
                r#"{"type":"action_accepted","facts":[]}"#,
                "missing field `action`",
            ),
            (
                r#"{"type":"reseeded","seed":1,"seed":2}"#,
                "duplicate field `seed`",
            ),
            (
                r#"{"type":"reseeded","seed":1,"facts":[]}"#,
                "unknown field `facts`",
            ),
            (
                r#"{"type":"reseeded","seed":1,"zz":[]}"#,
                "unknown field `zz`",
            ),
            (r#"{"type":"reseeded","seed":"one"}"#, "invalid type"),
            (r#"{"type":"noted","text":"x"}"#, "missing field `at`"),
            (
                r#"{"type":"noted","at":1,"seed":2}"#,
                "unknown field `seed`",
            ),
            (
                r#"{"type":"branch_named","description":"d"}"#,
                "missing field `title`",
            ),
            (r#"[1]"#, "an event body"),
        ] {
            let err = body(text).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
    }
}
