//! Tests of `canonical`.

use serde::{Deserialize, Serialize};
use serde_json::json;
use tabletape_engine::canonical::*;

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Act {
    Choose {
        seat: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
}

#[test]
fn an_unknown_field_is_refused_by_name_and_a_default_left_out_is_not() {
    let err = read::<Act>(&json!({"type": "choose", "seat": 0, "zz": 2.2e274})).unwrap_err();
    assert_eq!(err.path, "zz");
    let (_, canonical) = read::<Act>(&json!({"type": "choose", "seat": 0, "note": null})).unwrap();
    assert_eq!(canonical, json!({"type": "choose", "seat": 0}));
}

#[test]
fn control_characters_line_breaks_and_overlong_text_are_refused() {
    for bad in [
        "a\u{0}b",
        "two\nlines",
        "sep\u{2028}",
        "\u{85}",
        "del\u{7f}",
        &"x".repeat(2001),
        &"é".repeat(2001),
    ] {
        let err = read::<Act>(&json!({"type": "choose", "seat": 1, "note": bad})).unwrap_err();
        assert_eq!(err.path, "note", "{bad:?}");
    }
    for good in [
        "Ça va, Zoë? 👍",
        "~ and space",
        &"x".repeat(2000),
        &"é".repeat(2000),
    ] {
        read::<Act>(&json!({"type": "choose", "seat": 1, "note": good})).unwrap();
    }
}

#[test]
fn a_deeply_nested_extra_value_is_refused_not_stored() {
    let mut deep = json!(1);
    for _ in 0..125 {
        deep = json!([deep]);
    }
    let err = read::<Act>(&json!({"type": "choose", "seat": 0, "deep": deep})).unwrap_err();
    assert_eq!(err.path, "deep");
}
