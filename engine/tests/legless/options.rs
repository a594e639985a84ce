//! Tests of `legless::options`.

use serde_json::json;
use serde_json::Value;
use tabletape_engine::legless::options::*;

fn read(v: Value) -> Result<Options, String> {
    crate::testkit::read_options(v)
}

#[test]
fn options_read_seats_lists_and_limits() {
    let o =
        read(json!({"banker": "2", "characters": "A, B", "locations": ["x-1"], "round_limit": 9}))
            .unwrap();
    assert_eq!(o.banker, 2);
    assert_eq!(o.characters.unwrap(), vec!["A", "B"]);
    assert_eq!(o.locations.unwrap(), vec!["x-1"]);
    assert_eq!(o.round_limit, 9);
    crate::testkit::options_refused::<Options>(&[
        (json!({"round_limit": 0}), "round_limit"),
        (json!({"banker": -1}), "banker"),
        (json!({"characters": "A,,B"}), "empty"),
    ]);
}
