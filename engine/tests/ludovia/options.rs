//! Tests of `ludovia::options`.

use serde_json::json;
use serde_json::Value;
use tabletape_engine::ludovia::options::*;

fn read(v: Value) -> Result<Options, String> {
    crate::testkit::read_options(v)
}

#[test]
fn options_read_lists_and_limits() {
    let o = read(json!({"layout": "lair, mint", "offer": ["Mask"], "round_limit": "7"})).unwrap();
    assert_eq!(o.layout.unwrap(), vec!["lair", "mint"]);
    assert_eq!(o.offer.unwrap(), vec!["Mask"]);
    assert_eq!(o.round_limit, 7);
    crate::testkit::options_refused::<Options>(&[
        (json!({"round_limit": 0}), "round_limit"),
        (json!({"layout": "lair,,mint"}), "empty"),
    ]);
}
