//! Tests of `compact`: every shape the kinds' facts take reads back as it
//! was written, and as it reads from JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use tabletape_engine::compact::{from_slice, read_all, read_one, to_vec, write};
use tabletape_engine::tagged::read_all_json;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Colour {
    Red,
    Shade(u8),
    Pair(i32, i32),
    Mixed { a: u8, b: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "clause", rename_all = "snake_case")]
enum Clause {
    No { items: Vec<Colour> },
    If { picture: u32 },
    Always,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Either {
    Number(i64),
    Words(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Extra {
    note: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Blow {
    damage: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<u32>,
    #[serde(default)]
    landed: bool,
    nothing: Option<u32>,
    caption: String,
    clauses: Vec<Clause>,
    either: Vec<Either>,
    by_seat: BTreeMap<u32, Vec<u32>>,
    named: BTreeMap<String, f64>,
    pairs: Vec<(u32, char)>,
    free: Value,
    #[serde(flatten)]
    extra: Extra,
}

tabletape_engine::by_tag! {
    "Fact",
    /// A fact of a small test kind, in every shape the kinds use.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Fact {
        Chosen { seat: u32, #[serde(default, skip_serializing_if = "Option::is_none")] page: Option<u32>, targets: Vec<u32> },
        Struck(Blow),
        Closed,
    }
}

fn blow() -> Blow {
    Blow {
        damage: -3,
        score: None,
        landed: true,
        nothing: None,
        caption: "Brakka strikes \"high\" — ✦ {holder}".into(),
        clauses: vec![
            Clause::No {
                items: vec![
                    Colour::Red,
                    Colour::Shade(7),
                    Colour::Pair(-1, i32::MIN),
                    Colour::Mixed {
                        a: 255,
                        b: String::new(),
                    },
                ],
            },
            Clause::If { picture: 19 },
            Clause::Always,
        ],
        either: vec![Either::Number(-40), Either::Words("forty".into())],
        by_seat: BTreeMap::from([(0, vec![1, 2]), (3, vec![])]),
        named: BTreeMap::from([("a".into(), 0.5), ("b".into(), -1e300)]),
        pairs: vec![(u32::MAX, 'ß')],
        free: json!({"z": [null, true, 1.25, -7, u64::MAX, "s"], "a": {}}),
        extra: Extra {
            note: "beside".into(),
        },
    }
}

fn facts() -> Vec<Fact> {
    vec![
        Fact::Chosen {
            seat: 1,
            page: Some(36),
            targets: vec![0],
        },
        Fact::Chosen {
            seat: 0,
            page: None,
            targets: vec![],
        },
        Fact::Struck(blow()),
        Fact::Closed,
    ]
}

#[test]
fn facts_read_back_as_written_and_as_from_json() {
    let facts = facts();
    let bytes = to_vec(&facts);
    assert_eq!(read_all::<Fact>(&bytes).unwrap(), facts);
    let json = serde_json::to_string(&facts).unwrap();
    assert_eq!(read_all_json::<Fact>(&json).unwrap(), facts);
    // Read as derived too (serde's own path for a tagged enum).
    assert_eq!(from_slice::<Vec<Fact>>(&bytes).unwrap(), facts);
}

#[test]
fn any_value_reads_back_as_the_same_json() {
    let value = serde_json::to_value(facts()).unwrap();
    let bytes = to_vec(&value);
    assert_eq!(from_slice::<Value>(&bytes).unwrap(), value);
    // A struct read as a value has its fields by name, as JSON has.
    let clause = Clause::No {
        items: vec![Colour::Red, Colour::Shade(2)],
    };
    let read: Value = from_slice(&to_vec(&clause)).unwrap();
    assert_eq!(read, serde_json::to_value(&clause).unwrap());
}

/// Lengths and numbers take one byte under 128 and more from there on;
/// both read back, on either side of each step.
#[test]
fn numbers_and_lengths_of_every_size_read_back() {
    let mut cases = Vec::new();
    for bits in 0..64 {
        let n = 1u64 << bits;
        cases.extend([n - 1, n, n + 1]);
    }
    cases.push(u64::MAX);
    for n in cases {
        assert_eq!(from_slice::<u64>(&to_vec(&n)).unwrap(), n);
        let negative = -(n as i64 / 2) - 1;
        assert_eq!(from_slice::<i64>(&to_vec(&negative)).unwrap(), negative);
    }
    for len in [0, 1, 127, 128, 129, 16_383, 16_384, 70_000] {
        let text = "x".repeat(len);
        assert_eq!(from_slice::<String>(&to_vec(&text)).unwrap(), text);
        let named = json!({ text.clone(): len });
        assert_eq!(from_slice::<Value>(&to_vec(&named)).unwrap(), named);
    }
}

#[test]
fn values_follow_one_another() {
    let mut bytes = Vec::new();
    write(&mut bytes, &(12u64, "seat"));
    write(&mut bytes, &facts());
    let ((seq, who), rest) = read_one::<(u64, String)>(&bytes).unwrap();
    assert_eq!((seq, who.as_str()), (12, "seat"));
    assert_eq!(read_all::<Fact>(rest).unwrap(), facts());
}

#[test]
fn damaged_bytes_are_an_error_not_a_crash() {
    let bytes = to_vec(&facts());
    for cut in 0..bytes.len() {
        assert!(read_all::<Fact>(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(read_all::<Fact>(&longer).is_err());
    // Every byte changed in turn: an error or some facts, never a panic.
    for at in 0..bytes.len() {
        let mut changed = bytes.clone();
        changed[at] ^= 0x5a;
        let _ = read_all::<Fact>(&changed);
    }
    // Nested past any depth the kinds use: refused, not a stack overflow.
    let deep = [9u8, 1, 0, 0, 0].repeat(100_000);
    assert!(from_slice::<Value>(&deep).is_err());
    assert!(read_all::<Fact>(&deep).is_err());
    // A string that is not UTF-8.
    let mut bad = to_vec(&"ab");
    *bad.last_mut().unwrap() = 0xff;
    assert!(from_slice::<String>(&bad).is_err());
}

/// A derived enum matches its variants' names as bytes; a reader that asks
/// for the name as a string gets it checked; a name that is not UTF-8 (or
/// not a variant) is refused either way.
#[test]
fn variant_names_read_as_bytes_or_checked_strings() {
    /// Reads `Colour`'s variant names as strings, as a hand-written
    /// enum would.
    struct ByName(String);
    impl<'de> Deserialize<'de> for ByName {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ByName, D::Error> {
            struct Names;
            impl<'de> serde::de::Visitor<'de> for Names {
                type Value = ByName;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a colour")
                }
                fn visit_enum<A: serde::de::EnumAccess<'de>>(
                    self,
                    a: A,
                ) -> Result<ByName, A::Error> {
                    use serde::de::VariantAccess;
                    let (name, rest) = a.variant::<String>()?;
                    if name == "red" {
                        rest.unit_variant()?;
                    } else {
                        rest.newtype_variant::<u8>()?;
                    }
                    Ok(ByName(name))
                }
            }
            d.deserialize_enum("Colour", &["red", "shade"], Names)
        }
    }
    for colour in [Colour::Red, Colour::Shade(7)] {
        let bytes = to_vec(&colour);
        assert_eq!(from_slice::<Colour>(&bytes).unwrap(), colour);
        let name = serde_json::to_value(&colour).unwrap();
        let name = name
            .as_str()
            .or_else(|| name.as_object()?.keys().next().map(|k| k.as_str()));
        assert_eq!(from_slice::<ByName>(&bytes).unwrap().0, name.unwrap());
        // The name's last letter made a byte no UTF-8 text has.
        let at = bytes.iter().rposition(|&b| b == b'd' || b == b'e').unwrap();
        let mut damaged = bytes.clone();
        damaged[at] = 0xff;
        assert!(from_slice::<Colour>(&damaged).is_err());
        assert!(from_slice::<ByName>(&damaged).is_err());
    }
}

#[test]
fn a_fact_of_another_shape_says_what_is_wrong() {
    let bytes = to_vec(&vec![json!({"type": "chosen", "seat": "one"})]);
    let err = read_all::<Fact>(&bytes).unwrap_err().to_string();
    assert!(err.contains("string") || err.contains("seat"), "{err}");
    let bytes = to_vec(&vec![json!({"type": "juggled"})]);
    let err = read_all::<Fact>(&bytes).unwrap_err().to_string();
    assert!(err.contains("juggled"), "{err}");
}

/// A value's canonical text (see `fact_text`) is the text of its JSON
/// tree, as the store wrote facts before: for every shape here (maps keyed
/// by numbers, floats, values of any shape inside) and the odd numbers.
/// (`fact_text`'s own tests take the shapes serde writes one by one.)
#[test]
fn a_value_is_written_as_the_text_of_its_tree() {
    use tabletape_engine::fact_text::canonical;
    fn tree<T: serde::Serialize + ?Sized>(value: &T) -> String {
        serde_json::to_string(&serde_json::to_value(value).unwrap()).unwrap()
    }
    for fact in facts() {
        assert_eq!(canonical(&fact), tree(&fact));
    }
    assert_eq!(canonical(&facts()), tree(&facts()));
    let blow = blow();
    assert_eq!(canonical(&blow), tree(&blow));
    assert_eq!(canonical(&-7i64), "-7");
    assert_eq!(canonical(&f64::NAN), "null");
    assert_eq!(canonical(&0.1f32), tree(&0.1f32));
    assert_eq!(canonical(&Some('x')), "\"x\"");
    assert_eq!(canonical(&()), "null");
}

/// Each value is written in a room the thread keeps: one after another,
/// each form is its own, after one too large for the room to keep too.
#[test]
fn forms_written_one_after_another_are_each_their_own() {
    let long = serde_json::json!({"b": "x".repeat(100_000), "a": [1, 2]});
    let short = serde_json::json!({"z": 1});
    for value in [&short, &long, &short, &long, &short] {
        let bytes = to_vec(value);
        assert_eq!(&from_slice::<Value>(&bytes).unwrap(), value);
        let mut written = Vec::new();
        write(&mut written, value);
        assert_eq!(bytes, written);
    }
}
