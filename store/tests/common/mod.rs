//! Helpers shared by the store's tests: hand-made drafts and a temp store.

#![allow(dead_code)]

use std::collections::BTreeMap;

use serde_json::json;
use tabletape_events::{ActionAccepted, Actor, Body, DiceMode, GameCreated};
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
            facts: vec![json!({"type": "noted", "n": n})],
            chance: vec![],
        }),
    )
    .unwrap()
}
