//! Tests of `dread::options`.

use serde_json::json;
use serde_json::Value;
use tabletape_engine::dread::options::*;

fn read(v: Value) -> Result<Options, String> {
    crate::testkit::read_options(v)
}

#[test]
fn options_read_words_numbers_and_tweaks() {
    let o = read(
        json!({"difficulty": "Hard", "timer": "off", "variant": "pairs",
        "confidence": "5", "virtues": 2, "items": 0, "impeccable": "off"}),
    )
    .unwrap();
    assert_eq!(o.difficulty.minutes(), 10);
    assert!(!o.timer && !o.impeccable);
    assert_eq!((o.confidence, o.virtues, o.items), (5, 2, 0));
    assert_eq!(o.variant, Variant::Pairs);
    assert_eq!(read(json!({})).unwrap(), Options::default());
    assert!(read(json!({"confidence": 4}))
        .unwrap_err()
        .contains("not one of 0, 3, 5"));
    assert!(read(json!({"difficulty": "easy"}))
        .unwrap_err()
        .contains("difficulty"));
    assert!(read(json!({"seats": 1}))
        .unwrap_err()
        .contains("unknown option `seats`"));
}
