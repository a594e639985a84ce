//! Tests of `diff`.

use serde_json::json;
use tabletape_store::diff::*;

#[test]
fn nested_change_names_its_path() {
    let a = json!({"seats": [{"body_points": 10}, {"body_points": 10}], "round": 1});
    let b = json!({"seats": [{"body_points": 10}, {"body_points": 7}], "round": 2});
    assert_eq!(
        diff(&a, &b),
        vec!["round: 1 -> 2", "seats[1].body_points: 10 -> 7"]
    );
}

#[test]
fn added_and_removed_keys_and_items() {
    let a = json!({"hand": ["Dog"], "old": true});
    let b = json!({"hand": ["Dog", "Trap"], "new": "x"});
    assert_eq!(
        diff(&a, &b),
        vec![
            "hand[1]: added \"Trap\"",
            "new: added \"x\"",
            "old: removed (was true)"
        ]
    );
}

#[test]
fn a_card_taken_from_a_sorted_pool_is_one_change() {
    let a = json!({"pool": ["Dog", "Gold", "Pearl", "Ruby", "Trap"]});
    let b = json!({"pool": ["Dog", "Pearl", "Ruby", "Trap"]});
    assert_eq!(diff(&a, &b), vec!["pool[1]: removed (was \"Gold\")"]);
    let c = json!({"pool": ["Dog", "Gold", "Jade", "Pearl", "Ruby", "Trap"]});
    assert_eq!(diff(&a, &c), vec!["pool[2]: added \"Jade\""]);
}

#[test]
fn differences_give_both_sides_by_path() {
    let a = json!({"seats": [{"bp": 10}, {"bp": 10}], "hand": [1], "gone": 1});
    let b = json!({"seats": [{"bp": 10}, {"bp": 7}], "hand": [1, 2], "new": 2});
    assert_eq!(
        differences(&a, &b),
        vec![
            ("gone".to_string(), Some(json!(1)), None),
            ("hand".to_string(), Some(json!([1])), Some(json!([1, 2]))),
            ("new".to_string(), None, Some(json!(2))),
            ("seats[1].bp".to_string(), Some(json!(10)), Some(json!(7))),
        ]
    );
    assert!(differences(&a, &a).is_empty());
}

#[test]
fn equal_values_have_no_changes() {
    let a = json!({"a": [1, {"b": null}]});
    assert!(diff(&a, &a).is_empty());
}

#[test]
fn type_change_and_root_scalar() {
    assert_eq!(
        diff(&json!({"x": 1}), &json!({"x": [1]})),
        vec!["x: 1 -> [1]"]
    );
    assert_eq!(diff(&json!(1), &json!(2)), vec!["(state): 1 -> 2"]);
}

#[test]
fn long_values_are_shortened() {
    let long = "z".repeat(200);
    let lines = diff(&json!({"t": ""}), &json!({ "t": long }));
    assert!(
        lines[0].ends_with('…') && lines[0].len() < 100,
        "{}",
        lines[0]
    );
}
