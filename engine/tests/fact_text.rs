//! A typed value's canonical text (`fact_text`), against the text of its
//! JSON tree: what the store wrote of a fact before it wrote it straight.

use std::collections::BTreeMap;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{json, Value};
use tabletape_engine::fact_text::{canonical, is, of};

fn through_value<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(&serde_json::to_value(value).unwrap()).unwrap()
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Fact {
    Struck {
        zeal: u32,
        by: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        nested: Box<Inner>,
        list: Vec<Inner>,
        map: BTreeMap<u32, i64>,
        names: BTreeMap<String, bool>,
        wide: f32,
        unit: (),
        tuple: (u8, String),
        bytes: Bytes,
    },
    Passed,
}

#[derive(Serialize)]
struct Inner {
    z: i32,
    a: Option<Value>,
    #[serde(flatten)]
    more: BTreeMap<String, u8>,
}

struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

fn inner(z: i32) -> Inner {
    Inner {
        z,
        a: Some(json!({"y": [1, {"b": 2, "a": "é\"\\\n"}], "x": null})),
        more: [("m".to_string(), 1), ("c".to_string(), 2)].into(),
    }
}

#[test]
fn a_value_is_written_as_its_tree_would_be() {
    let facts = [
        Fact::Struck {
            zeal: 3,
            by: "Ann \"the\" Bold\t\u{1}".into(),
            note: None,
            nested: Box::new(inner(-1)),
            list: vec![inner(2), inner(3)],
            map: [(10, -5), (2, 7), (1, 0)].into(),
            names: [
                ("zed".to_string(), true),
                ("a\"b".to_string(), false),
                ("a".to_string(), true),
                ("ä".to_string(), false),
                ("\u{7f}".to_string(), true),
            ]
            .into(),
            wide: 0.1,
            unit: (),
            tuple: (9, "t".into()),
            bytes: Bytes(vec![0, 255]),
        },
        Fact::Passed,
    ];
    for fact in &facts {
        assert_eq!(canonical(fact), through_value(fact));
    }
    assert_eq!(canonical(&facts[..]), through_value(&facts[..]));
    assert_eq!(of(&facts[1]).get(), r#"{"type":"passed"}"#);
}

/// A map written key by key, as a type may write itself.
struct Entries(Vec<(&'static str, u32)>);

impl Serialize for Entries {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[test]
fn a_key_with_an_escape_sorts_by_what_it_says_and_a_repeated_key_keeps_the_last() {
    // `a"` sorts by its quote (0x22), not by the backslash (0x5c) that
    // writes it, so after `a` and before `b`.
    let entries = Entries(vec![("b", 1), ("a\"", 2), ("a", 3), ("b", 4), ("A", 5)]);
    assert_eq!(canonical(&entries), r#"{"A":5,"a":3,"a\"":2,"b":4}"#);
    assert_eq!(canonical(&entries), through_value(&entries));
}

/// `is` answers as comparing with `canonical`'s text does, for the text
/// itself, the same value written otherwise, and another value.
#[test]
fn a_text_is_a_value_only_when_it_is_its_canonical_text() {
    let fact = Fact::Struck {
        zeal: 3,
        by: "Ann".into(),
        note: Some("here".into()),
        nested: Box::new(inner(1)),
        list: vec![],
        map: [(2, 7), (10, 1)].into(),
        names: BTreeMap::new(),
        wide: 1.5,
        unit: (),
        tuple: (1, "t".into()),
        bytes: Bytes(vec![]),
    };
    let text = canonical(&fact);
    assert!(is(&fact, &text));
    let spaced = text.replace(",", ", ");
    assert!(!is(&fact, &spaced));
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&spaced).unwrap(), value);
    assert!(!is(&Fact::Passed, &text));
    assert!(!is(&fact, &text[..text.len() - 1]));
    // The room `is` writes in is kept: a shorter value after a longer one.
    assert!(is(&Fact::Passed, r#"{"type":"passed"}"#));
}

/// Every text is written in one room a thread keeps: one after another,
/// each is its own, after a value too large for the room to keep too.
#[test]
fn texts_written_one_after_another_are_each_their_own() {
    let long = json!({"b": "x".repeat(100_000), "a": [1, {"d": 2, "c": 3}]});
    let short = json!({"z": 1, "y": {"k": "v"}});
    for value in [&short, &long, &short, &long] {
        let text = canonical(value);
        assert_eq!(text, through_value(value));
        assert_eq!(of(value).get(), text);
        assert!(is(value, &text));
    }
}

/// Any JSON tree: keys and strings from a mix of plain letters, quotes,
/// backslashes, control characters and wide characters; numbers of every
/// kind serde_json keeps (floats included).
fn tree() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let text = proptest::collection::vec(
        prop_oneof![
            4 => proptest::char::range('a', 'e'),
            1 => Just('"'),
            1 => Just('\\'),
            1 => proptest::char::range('\u{0}', '\u{1f}'),
            1 => Just('\u{7f}'),
            1 => Just('é'),
            1 => Just('\u{2028}'),
            1 => Just('😀'),
        ],
        0..12,
    )
    .prop_map(|chars| chars.into_iter().collect::<String>());
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        any::<f32>().prop_map(Value::from),
        text.clone().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::btree_map(text.clone(), inner, 0..8)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]
    /// Whatever the tree, its canonical text is the text of the tree, and
    /// `is` knows it; the same holds for a map written with its keys in
    /// reverse (which must be put back in order) and for floats as the
    /// `f32` a type may hold.
    #[test]
    fn any_tree_is_written_as_serde_json_writes_it(value in tree(), wide in proptest::prelude::any::<f32>()) {
        let text = canonical(&value);
        proptest::prop_assert_eq!(&text, &through_value(&value));
        proptest::prop_assert!(is(&value, &text));
        if let Value::Object(map) = &value {
            let reversed = Reversed(map.iter().collect());
            proptest::prop_assert_eq!(canonical(&reversed), text);
        }
        proptest::prop_assert_eq!(canonical(&wide), through_value(&wide));
    }
}

/// A map's entries written last to first, as a type may write its own.
struct Reversed<'a>(Vec<(&'a String, &'a Value)>);

impl Serialize for Reversed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (k, v) in self.0.iter().rev() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A raw JSON value inside a value is written as its text stands, as
/// serde_json writes one (it is already text; nothing reorders it).
#[test]
fn a_raw_value_is_written_as_its_text_stands() {
    #[derive(Serialize)]
    struct Holder {
        z: u8,
        raw: Box<serde_json::value::RawValue>,
    }
    let raw = serde_json::value::RawValue::from_string(r#"{"b":1,"a":"q\""}"#.into()).unwrap();
    let holder = Holder { z: 1, raw };
    let written = serde_json::to_string(&holder).unwrap();
    assert_eq!(written, r#"{"z":1,"raw":{"b":1,"a":"q\""}}"#);
    assert_eq!(canonical(&holder), r#"{"raw":{"b":1,"a":"q\""},"z":1}"#);
}
