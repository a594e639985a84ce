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
    assert_eq!(read(json!({})).unwrap(), Options::default());
    assert!(read(json!({"round_limit": 0}))
        .unwrap_err()
        .contains("round_limit"));
    assert!(read(json!({"layout": "lair,,mint"}))
        .unwrap_err()
        .contains("empty"));
    assert!(read(json!({"dice": 1}))
        .unwrap_err()
        .contains("unknown option `dice`"));
}
