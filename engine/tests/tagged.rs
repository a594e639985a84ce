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

tabletape_engine::in_place! {
    "Clause",
    /// A nested tagged enum, read in place.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "clause", rename_all = "snake_case")]
    enum Clause {
        Free,
        Bonus { amount: i32, #[serde(default)] items: Vec<String> },
        Note { text: String },
        Struck(Blow),
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
struct Restriction {
    text: String,
    clauses: Vec<Clause>,
}

#[test]
fn a_nested_tagged_enum_reads_in_place_with_its_tag_anywhere() {
    let restriction = Restriction {
        text: "Do no Green.".into(),
        clauses: vec![
            Clause::Free,
            Clause::Bonus {
                amount: -2,
                items: vec!["thrust".into()],
            },
            Clause::Note {
                text: "a \"quoted\" note".into(),
            },
            Clause::Struck(Blow {
                damage: 3,
                landed: true,
            }),
        ],
    };
    // As serde writes it (the tag first), as JSON's sorted keys put it
    // (`amount` and `damage` before the tag), as a value, and compact.
    let written = serde_json::to_string(&restriction).unwrap();
    let sorted = serde_json::to_value(&restriction).unwrap();
    assert!(sorted
        .to_string()
        .contains(r#"{"amount":-2,"clause":"bonus""#));
    let compact = tabletape_engine::compact::to_vec(&restriction);
    assert_eq!(
        serde_json::from_str::<Restriction>(&written).unwrap(),
        restriction
    );
    assert_eq!(
        serde_json::from_str::<Restriction>(&sorted.to_string()).unwrap(),
        restriction
    );
    assert_eq!(Restriction::deserialize(&sorted).unwrap(), restriction);
    assert_eq!(
        tabletape_engine::compact::from_slice::<Restriction>(&compact).unwrap(),
        restriction
    );
    // A missing tag, an unknown variant and a missing field are refused.
    for (clause, says) in [
        (json!({"amount": 1}), "clause"),
        (json!({"clause": "juggle"}), "juggle"),
        (json!({"amount": 1, "clause": "bonus", "zz": 1}), ""),
        (json!({"clause": "note"}), "text"),
        (json!({"amount": "one", "clause": "bonus"}), "one"),
    ] {
        let text = json!({"text": "", "clauses": [clause]}).to_string();
        match serde_json::from_str::<Restriction>(&text) {
            Err(e) => assert!(e.to_string().contains(says), "{clause}: {e}"),
            Ok(read) if says.is_empty() => assert_eq!(read.clauses.len(), 1),
            Ok(read) => panic!("{clause} read as {read:?}"),
        }
    }
}
