//! Tests of `suggest`.

use tabletape_engine::suggest::*;

#[test]
fn a_slip_is_matched_and_a_stranger_is_not() {
    let sheet = [
        "Extended Range Charge",
        "Extended Range Swing High",
        "Jump Away",
    ];
    assert_eq!(
        closest("Extended Range Chrage", sheet),
        Some("Extended Range Charge")
    );
    assert_eq!(closest("jump awy", sheet), Some("Jump Away"));
    assert_eq!(closest("Fireball", sheet), None);
}

#[test]
fn serde_messages_get_the_nearest_variant() {
    let m = "unknown variant `chose`, expected one of `choose`, `commit`, `reveal`";
    assert_eq!(for_serde_message(m), " (did you mean `choose`?)");
    let m = "unknown field `maneuvre`, expected `maneuver` or `page`";
    assert_eq!(for_serde_message(m), " (did you mean `maneuver`?)");
    assert_eq!(for_serde_message("invalid type: string, expected u32"), "");
    assert_eq!(
        for_serde_message("unknown variant `zzzzzz`, expected `choose`"),
        ""
    );
}
