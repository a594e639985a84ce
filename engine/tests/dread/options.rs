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
    crate::testkit::options_refused::<Options>(&[
        (json!({"confidence": 4}), "not one of 0, 3, 5"),
        (json!({"difficulty": "easy"}), "difficulty"),
    ]);
}
