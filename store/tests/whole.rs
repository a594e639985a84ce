//! A whole number in a request may be written `165` or `165.0`; nothing
//! else that is not a whole number, 0 or more, passes.

use serde::Deserialize;
use tabletape_store::journal::NoteRequest;

#[derive(Debug, Deserialize)]
struct Seq {
    #[serde(default, deserialize_with = "tabletape_store::whole::optional")]
    expect_seq: Option<u64>,
    #[serde(default, deserialize_with = "tabletape_store::whole::optional_seat")]
    seat: Option<u32>,
}

fn read(json: &str) -> Result<Seq, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[test]
fn a_whole_number_may_be_written_as_a_float_and_nothing_else_passes() {
    assert_eq!(
        read(r#"{"expect_seq": 165}"#).unwrap().expect_seq,
        Some(165)
    );
    assert_eq!(
        read(r#"{"expect_seq": 165.0}"#).unwrap().expect_seq,
        Some(165)
    );
    assert_eq!(read(r#"{"expect_seq": null}"#).unwrap().expect_seq, None);
    assert_eq!(read("{}").unwrap().expect_seq, None);
    assert_eq!(read(r#"{"seat": 1.0}"#).unwrap().seat, Some(1));
    for (wrong, says) in [
        (r#"{"expect_seq": 1.5}"#, "floating point `1.5`"),
        (r#"{"expect_seq": -1}"#, "integer `-1`"),
        (r#"{"expect_seq": -1.0}"#, "floating point `-1.0`"),
        (r#"{"expect_seq": 1e300}"#, "floating point"),
        (r#"{"expect_seq": "3"}"#, "string \"3\""),
        (r#"{"seat": 4294967296}"#, "a seat number"),
    ] {
        let e = read(wrong).unwrap_err();
        assert!(e.contains(says), "{wrong}: {e}");
    }
    // A request type of the store's own reads them so too.
    let note: NoteRequest = serde_json::from_str(r#"{"at": 3.0, "expect_seq": 4.0}"#).unwrap();
    assert_eq!((note.at, note.expect_seq), (3, Some(4)));
}
