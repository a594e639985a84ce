//! Tests of `journal::transfer`.

use tabletape_events::ActionAccepted;
use tabletape_events::Actor;
use tabletape_events::Body;
use tabletape_events::Event;
use tabletape_events::MAIN_BRANCH;
use tabletape_store::journal::transfer::*;
use tabletape_store::seal::event_hash;

#[test]
fn export_lines_escape_the_characters_line_splitting_readers_break_on() {
    let mut event = Event {
        game: "g-1".into(),
        branch: MAIN_BRANCH.into(),
        seq: 2,
        recorded_at_ms: 0,
        actor: Actor::Owner,
        schema_version: tabletape_events::SCHEMA_VERSION,
        idempotency_key: None,
        prev_hash: String::new(),
        hash: String::new(),
        salt: "00".repeat(16),
        body: Body::ActionAccepted(ActionAccepted {
            action: serde_json::json!({"note": "a\u{2028}b\u{2029}c\u{85}d"}),
            facts: Vec::new(),
            chance: Vec::new(),
            fold_form: Default::default(),
        }),
    };
    event.hash = event_hash(&event);
    let line = export_line(&event);
    assert!(!line.contains(['\u{2028}', '\u{2029}', '\u{85}']), "{line}");
    assert!(line.contains(r"a\u2028b\u2029c\u0085d"), "{line}");
    let back: Event = serde_json::from_str(&line).unwrap();
    assert_eq!(back, event);
    assert_eq!(event_hash(&back), event.hash);
}
