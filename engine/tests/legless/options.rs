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
    assert_eq!(read(json!({})).unwrap(), Options::default());
    assert!(read(json!({"round_limit": 0}))
        .unwrap_err()
        .contains("round_limit"));
    assert!(read(json!({"banker": -1})).unwrap_err().contains("banker"));
    assert!(read(json!({"characters": "A,,B"}))
        .unwrap_err()
        .contains("empty"));
    assert!(read(json!({"dice": 1}))
        .unwrap_err()
        .contains("unknown option `dice`"));
}
