//! Tests of `seal`.

use serde_json::json;
use sha2::{Digest, Sha256};
use tabletape_events::Actor;
use tabletape_events::Body;
use tabletape_events::Event;
use tabletape_events::{ActionAccepted, Draw, FactText};
use tabletape_store::seal::*;

fn action_event(salt: &str) -> Event {
    let mut e = Event {
        game: "g-1".into(),
        branch: "main".into(),
        seq: 2,
        recorded_at_ms: 5,
        actor: Actor::Seat(0),
        schema_version: tabletape_events::SCHEMA_VERSION,
        idempotency_key: None,
        prev_hash: "ab".into(),
        hash: String::new(),
        salt: salt.into(),
        body: Body::ActionAccepted(ActionAccepted {
            action: json!({"type": "rob", "drew": "Dog"}),
            facts: vec![
                FactText::of(&json!({"type": "rooftop_robbed", "card": "Dog"})),
                FactText::of(&json!({"n": 1})),
            ],
            chance: vec![Draw {
                what: "rooftop card".into(),
                value: json!(3),
            }],
            fold_form: Default::default(),
        }),
    };
    e.hash = event_hash(&e);
    e
}

#[test]
fn a_hidden_part_leaves_only_its_commitment_and_the_chain_still_checks() {
    let event = action_event("00112233445566778899aabbccddeeff");
    let mut redacted = event.clone();
    let Body::ActionAccepted(a) = &mut redacted.body else {
        unreachable!()
    };
    a.action = json!({"type": "rob"});
    a.facts[0] = FactText::of(&json!({"type": "rooftop_robbed", "card": null}));
    a.chance.clear();
    let shown = ShownEvent::partial(&event, &redacted);
    let text = serde_json::to_string(&shown).unwrap();
    assert!(!text.contains("Dog"), "{text}");
    assert!(!text.contains(&event.salt), "the event salt leaked: {text}");
    let salted: Vec<&str> = shown
        .seals
        .iter()
        .filter(|s| s.salt.is_some())
        .map(|s| s.part.as_str())
        .collect();
    assert_eq!(salted, ["fact.1"]);
    check_shown(std::slice::from_ref(&shown)).unwrap();
    check_shown(&[ShownEvent::full(&event)]).unwrap();
}

#[test]
fn the_same_value_under_another_salt_commits_differently() {
    let a = action_event("00000000000000000000000000000001");
    let b = action_event("00000000000000000000000000000002");
    assert_ne!(a.hash, b.hash);
    assert_ne!(seals(&a)[1].commitment, seals(&b)[1].commitment);
}

#[test]
fn tampering_with_a_visible_part_or_the_envelope_is_caught() {
    let event = action_event("00112233445566778899aabbccddeeff");
    let mut shown = ShownEvent::full(&event);
    shown.body["facts"][1] = json!({"n": 2});
    let err = check_shown(std::slice::from_ref(&shown)).unwrap_err();
    assert!(err.what.contains("fact.1"), "{err:?}");
    let mut shown = ShownEvent::full(&event);
    shown.recorded_at_ms += 1;
    let err = check_shown(&[shown]).unwrap_err();
    assert!(err.what.contains("hash does not match"), "{err:?}");
}

#[test]
fn an_event_without_salt_keeps_its_schema_1_clear_hash() {
    let mut event = action_event("");
    event.schema_version = 1;
    let mut clear = event.clone();
    clear.hash = String::new();
    let expected = hex::encode(Sha256::digest(serde_json::to_vec(&clear).unwrap()));
    event.schema_version = tabletape_events::SCHEMA_VERSION;
    assert_eq!(event_hash(&event), expected);
}
