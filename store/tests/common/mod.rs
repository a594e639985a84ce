//! Helpers shared by the store's tests: hand-made drafts and a temp store.

#![allow(dead_code)]

pub mod counted;

use std::collections::BTreeMap;

use serde_json::json;
use tabletape_events::{ActionAccepted, Actor, Body, DiceMode, FactText, GameCreated};
use tabletape_store::{Draft, GameMeta};

pub fn meta(game: &str) -> GameMeta {
    GameMeta {
        title: None,
        game: game.to_string(),
        kind: "lostworlds".into(),
        players: vec!["Ann".into(), "Bo".into()],
        created_at_ms: 1_000,
        public: false,
        owner_token_hash: "0".repeat(64),
        seat_token_hashes: vec!["1".repeat(64), "2".repeat(64)],
        over: false,
        current: None,
    }
}

pub fn created() -> Draft {
    Draft::new(
        1_000,
        Actor::Owner,
        Body::GameCreated(GameCreated {
            title: None,
            kind: "lostworlds".into(),
            players: vec!["Ann".into(), "Bo".into()],
            seed: 7,
            dice: DiceMode::Digital,
            options: BTreeMap::new(),
            pack: json!(null),
            public: false,
            rules_version: None,
            chance_version: None,
        }),
    )
    .unwrap()
}

/// A hand-made accepted action, told apart by `n`.
pub fn action(n: u64) -> Draft {
    Draft::new(
        2_000 + n,
        Actor::Seat((n % 2) as u32),
        Body::ActionAccepted(ActionAccepted {
            action: json!({"type": "note", "n": n}),
            facts: vec![FactText::of(&json!({"type": "noted", "n": n}))],
            chance: vec![],
            fold_form: Default::default(),
        }),
    )
    .unwrap()
}

/// The sled database at `path`, opened behind the store's back. sled lets
/// go of its file lock from a background thread after the last handle
/// drops, so a store closed a moment ago may still hold it: wait (as the
/// store itself does on opening) rather than fail.
pub fn raw_sled(path: &std::path::Path) -> sled::Db {
    for _ in 0..500 {
        match sled::open(path) {
            Err(sled::Error::Io(e)) if e.to_string().contains("could not acquire lock") => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other.unwrap(),
        }
    }
    panic!("{} is still locked after 10 s", path.display())
}
