//! Tests of `schema_doc`.

use serde_json::to_value;
use tabletape_events::{Actor, DiceMode};
use tabletape_store::schema_doc::*;

#[test]
fn the_mirrors_write_what_the_events_crate_writes() {
    assert_eq!(
        to_value(ActorSchema::Owner).unwrap(),
        to_value(Actor::Owner).unwrap()
    );
    assert_eq!(
        to_value(ActorSchema::Seat(2)).unwrap(),
        to_value(Actor::Seat(2)).unwrap()
    );
    assert_eq!(
        to_value(DiceModeSchema::Digital).unwrap(),
        to_value(DiceMode::Digital).unwrap()
    );
    assert_eq!(
        to_value(DiceModeSchema::Physical).unwrap(),
        to_value(DiceMode::Physical).unwrap()
    );
}
