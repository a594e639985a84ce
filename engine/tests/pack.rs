//! Tests of `pack`.

use serde_json::json;
use tabletape_engine::pack::*;

#[test]
fn an_entry_with_a_bundled_id_changes_it_and_a_new_one_is_added() {
    let bundled = json!({"version": 1, "cards": [{"id": "a", "cost": 1, "text": "x"}, {"id": "b", "cost": 2}], "die": [1, 2, 3]});
    let table = json!({"//": "our box", "cards": [{"id": "n", "cost": 9}, {"id": "b", "cost": 5, "//": "as printed"}], "die": [6]});
    let laid = lay_over(&bundled, &table);
    assert_eq!(
        laid.pack,
        json!({"version": 1, "cards": [{"id": "a", "cost": 1, "text": "x"}, {"id": "b", "cost": 5}, {"id": "n", "cost": 9}], "die": [6]})
    );
    // Errors in the table's entries are told by their place in its file.
    assert_eq!(laid.file_path("cards[2].cost"), "cards[0].cost");
    assert_eq!(laid.file_path("cards[1]"), "cards[1]");
    assert_eq!(laid.file_path("cards[0].text"), "cards[0].text");
    assert_eq!(laid.file_path("cards[22]"), "cards[22]");
}

#[test]
fn a_whole_pack_is_read_alone() {
    let bundled = json!({"cards": [{"id": "a"}]});
    let table = json!({"whole": true, "cards": [{"id": "z"}]});
    assert_eq!(
        lay_over(&bundled, &table).pack,
        json!({"cards": [{"id": "z"}]})
    );
}

#[test]
fn lists_named_whole_are_read_as_given_and_the_rest_laid_over() {
    let bundled = json!({"places": [{"id": "a"}, {"id": "b"}], "cards": [{"id": "c", "cost": 1}]});
    let table = json!({"whole": ["places"], "places": [{"id": "b", "x": 1}, {"id": "z"}], "cards": [{"id": "d"}]});
    let laid = lay_over(&bundled, &table);
    assert_eq!(
        laid.pack,
        json!({"places": [{"id": "b", "x": 1}, {"id": "z"}], "cards": [{"id": "c", "cost": 1}, {"id": "d"}]})
    );
    // The table's own list keeps its places in the file.
    assert_eq!(laid.file_path("places[1].id"), "places[1].id");
    assert_eq!(laid.file_path("cards[1]"), "cards[0]");
    // A key named whole that the file does not give changes nothing.
    let laid = lay_over(&bundled, &json!({"whole": ["cards"]}));
    assert_eq!(laid.pack, bundled);
}

#[test]
fn lists_without_a_shared_identity_are_the_tables_whole() {
    let bundled = json!({"steps": [{"n": 1}, {"n": 2}]});
    let table = json!({"steps": [{"n": 3}]});
    assert_eq!(
        lay_over(&bundled, &table).pack,
        json!({"steps": [{"n": 3}]})
    );
}

#[test]
fn entries_that_share_a_name_are_not_matched_by_it() {
    let bundled = json!({"cards": [{"name": "Spoons", "edge": "white"}, {"name": "Spoons", "edge": "black"}]});
    let table = json!({"cards": [{"name": "Spoons", "edge": "red"}]});
    assert_eq!(lay_over(&bundled, &table).pack, table);
}

#[test]
fn check_all_names_every_faulty_entry_by_its_place_in_the_file() {
    let legless = tabletape_engine::kind("legless").unwrap();
    let good = |name: &str, start: &str| {
        json!({"name": name, "role": "r", "start": start, "money": 5, "health": 5, "goals": [
            {"at": ["slums"], "kind": "love"}, {"at": ["slums"], "kind": "property"},
            {"at": ["workhouse"], "kind": "personal", "text": "Home."}]})
    };
    let table = json!({"characters": [
        good("A", "z99"), good("B", "c5"), good("C", "q1"), good("D", "c3")]});
    let errors = check_all(legless, &table, "box.json");
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["characters[0].start", "characters[2].start"]);
    assert!(errors.iter().all(|e| e.file == "box.json"));
    assert!(check_all(
        legless,
        &json!({"characters": [good("B", "c5")]}),
        "box.json"
    )
    .is_empty());
    // An error outside the file's lists ends the reading there.
    let board = json!({"board": {"rows": ["xx"]}, "characters": [good("A", "z99")]});
    assert_eq!(check_all(legless, &board, "box.json").len(), 1);
}
