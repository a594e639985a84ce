//! Tests of `tagged`.

use serde::{Deserialize, Serialize};
use serde_json::json;

use tabletape_engine::tagged::{read, read_all_json, read_json};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Blow {
    damage: u32,
    #[serde(default)]
    landed: bool,
}

tabletape_engine::by_tag! {
    "Fact",
    /// A fact of a small test kind.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Fact {
        Chosen { seat: u32, #[serde(default)] page: Option<u32> },
        Struck(Blow),
        Closed,
    }
}

#[test]
fn every_variant_reads_as_serde_reads_it() {
    for fact in [
        json!({"type": "chosen", "seat": 1, "page": 36}),
        json!({"seat": 0, "type": "chosen"}),
        json!({"damage": 4, "type": "struck"}),
        json!({"damage": 4, "landed": true, "type": "struck"}),
        json!({"type": "closed"}),
    ] {
        let fast: Fact = read(&fact).unwrap();
        let derived = Fact::deserialize(&fact).unwrap();
        assert_eq!(fast, derived);
        assert_eq!(read_json::<Fact>(&fact.to_string()).unwrap(), derived);
        assert_eq!(serde_json::to_value(&fast).unwrap()["type"], fact["type"]);
    }
}

#[test]
fn a_malformed_fact_is_refused_with_serdes_own_words() {
    for fact in [
        json!({"type": "chosen"}),
        json!({"type": "vanished", "seat": 1}),
        json!({"type": "struck", "damage": "four"}),
        json!({"seat": 1}),
        json!([1, 2]),
    ] {
        let fast = read::<Fact>(&fact).unwrap_err().to_string();
        let derived = Fact::deserialize(&fact).unwrap_err().to_string();
        assert_eq!(fast, derived, "{fact}");
        let text = fact.to_string();
        let from_text = read_json::<Fact>(&text).unwrap_err().to_string();
        let derived = serde_json::from_str::<Fact>(&text).unwrap_err().to_string();
        assert_eq!(from_text, derived, "{fact}");
    }
}

#[test]
fn text_with_escapes_and_the_tag_anywhere_reads_as_serde_reads_it() {
    let text = r#"[{"seat":2,"page":7,"type":"chosen"},{"type":"st\u0072uck","damage":3},{"landed":false,"damage":1,"type":"struck"},{"type":"closed","extra":[1,{"a":"b"}]},{"d\u0061mage":5,"t\u0079pe":"struck"}]"#;
    let fast: Vec<Fact> = read_all_json(text).unwrap();
    let derived: Vec<Fact> = serde_json::from_str(text).unwrap();
    assert_eq!(fast, derived);
    assert_eq!(fast.len(), 5);
}

/// An array is read in one pass when every item reads by its tag; when one
/// does not, the error is serde's own about that item, as read alone.
#[test]
fn an_array_with_one_malformed_fact_is_refused_for_that_fact() {
    for (array, wrong) in [
        (
            r#"[{"type":"closed"},{"type":"struck","damage":"four"}]"#,
            r#"{"type":"struck","damage":"four"}"#,
        ),
        (
            r#"[{"type":"vanished"},{"type":"closed"}]"#,
            r#"{"type":"vanished"}"#,
        ),
        (r#"[{"type":"closed"},{"seat":1}]"#, r#"{"seat":1}"#),
        (r#"[{"type":"closed"},3]"#, "3"),
    ] {
        let fast = read_all_json::<Fact>(array).unwrap_err().to_string();
        let alone = read_json::<Fact>(wrong).unwrap_err().to_string();
        assert_eq!(fast, alone, "{array}");
    }
    assert!(read_all_json::<Fact>(r#"{"type":"closed"}"#).is_err());
    assert_eq!(read_all_json::<Fact>("[]").unwrap(), Vec::<Fact>::new());
}
