//! Tests of `lostworlds::options`.

use serde_json::json;
use serde_json::Value;
use tabletape_engine::lostworlds::options::*;

fn read(v: Value) -> Result<Options, String> {
    crate::testkit::read_options(v)
}

#[test]
fn options_are_lenient_and_precise() {
    let o = read(json!({"books": "Record", "characters": "nowa+brakka, brakka", "seat2": "nowa", "exchange_limit": "50"})).unwrap();
    assert_eq!(o.books, BooksMode::Record);
    assert_eq!(o.seats[&0], vec!["nowa", "brakka"]);
    assert_eq!(o.seats[&1], vec!["brakka"]);
    assert_eq!(o.seats[&2], vec!["nowa"]);
    assert_eq!(o.exchange_limit, 50);
    assert_eq!(
        read(json!({"exchange_limit": 7})).unwrap().exchange_limit,
        7
    );
    crate::testkit::options_refused::<Options>(&[
        (
            json!({"books": "paper"}),
            "`paper` is not one of full, record",
        ),
        (json!({"exchange_limit": 0}), "exchange_limit"),
        (json!({"seat1": "nowa+"}), "empty character"),
    ]);
    // A seat's own option is `seat` and its number, written plainly.
    for loose in ["seatx", "seat01", "seat+1", "seat 1", "seat"] {
        assert!(read(json!({ loose: "nowa" }))
            .unwrap_err()
            .contains("seat0"));
    }
}
