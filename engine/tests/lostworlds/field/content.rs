//! Tests of `lostworlds::field::content`.

use serde_json::json;
use std::collections::BTreeSet;
use tabletape_engine::lostworlds::field::content::*;
use tabletape_engine::ContentError;

fn sheets() -> BTreeSet<&'static str> {
    ["nowa", "brakka"].into_iter().collect()
}

fn sample(i: usize) -> Scenario {
    serde_json::from_str(SAMPLES[i]).expect("a sample scenario reads")
}

fn refused(s: &Scenario) -> ContentError {
    validate(s, &sheets(), "test.json", "scenario").expect_err("refused")
}

#[test]
fn the_sample_scenarios_are_valid() {
    for i in 0..SAMPLES.len() {
        let s = sample(i);
        validate(&s, &sheets(), "<bundled>", "scenario").unwrap();
        assert!(s.sample);
    }
    let t = terrain(&sample(0), "t", "s").unwrap();
    assert_eq!((t.cols, t.rows), (8, 6));
    assert_eq!(
        t.at(Hex::parse("c2").unwrap()),
        Some(Ground::Step { level: 1 })
    );
    assert_eq!(t.at(Hex::parse("e1").unwrap()), Some(Ground::Wall));
    assert_eq!(
        t.at(Hex::parse("f2").unwrap()).and_then(Ground::level),
        Some(2)
    );
}

#[test]
fn spaces_are_read_in_any_case_and_nothing_else() {
    assert_eq!(Hex::parse("C3"), Some(Hex { col: 2, row: 2 }));
    assert_eq!(Hex::parse("c3").unwrap().to_string(), "c3");
    for bad in ["", "3c", "c0", "c03", "cc3", "c3x", "+c3"] {
        assert_eq!(Hex::parse(bad), None, "{bad}");
    }
}

#[test]
fn a_space_has_six_neighbours_numbered_clockwise_from_the_east() {
    let n = |s: &str| -> Vec<String> {
        Hex::parse(s)
            .unwrap()
            .neighbours(8, 6)
            .iter()
            .map(|h| h.map_or("-".into(), |h| h.to_string()))
            .collect()
    };
    // Row 3 (an even row counted from 0) and row 2, set to the right.
    assert_eq!(n("c3"), ["d3", "c4", "b4", "b3", "b2", "c2"]);
    assert_eq!(n("c2"), ["d2", "d3", "c3", "b2", "c1", "d1"]);
    assert_eq!(n("a1"), ["b1", "a2", "-", "-", "-", "-"]);
    let (a, b) = (Hex::parse("c2").unwrap(), Hex::parse("d3").unwrap());
    assert!(a.adjacent(b, 8, 6) && b.adjacent(a, 8, 6));
}

#[test]
fn a_bad_scenario_is_refused_naming_the_field() {
    let mut s = sample(0);
    s.map[2] = "0 0 1 1".into();
    let e = refused(&s);
    assert_eq!(e.path, "scenario.map[2]");
    assert!(
        e.message.contains("row 3 has 4 spaces; the first has 8"),
        "{}",
        e.message
    );

    let mut s = sample(0);
    s.map[1] = "0 0 1x 1 W 2 2 0".into();
    let e = refused(&s);
    assert!(e.message.contains("space c2 is `1x`"), "{}", e.message);

    let mut s = sample(0);
    s.objects[0].at = "e1".into();
    let e = refused(&s);
    assert_eq!(e.path, "scenario.objects[0].at");
    assert!(
        e.message.contains("e1 is a wall or pillar"),
        "{}",
        e.message
    );

    let mut s = sample(0);
    s.objects[1].kind = "anvil".into();
    let e = refused(&s);
    assert!(
        e.message
            .contains("no object kind `anvil`: barrel, brazier, chest"),
        "{}",
        e.message
    );

    let mut s = sample(0);
    s.sides[1].figures[0].character = "grim".into();
    let e = refused(&s);
    assert_eq!(e.path, "scenario.sides[1].figures[0].character");
    assert!(e.message.contains("brakka, nowa"), "{}", e.message);

    let mut s = sample(0);
    s.sides[1].figures[0].at = "a1".into();
    let e = refused(&s);
    assert!(
        e.message
            .contains("a1 is where scenario.sides[0].figures[0] starts"),
        "{}",
        e.message
    );

    let mut s = sample(0);
    s.sides[0].figures[0].at = "z9".into();
    assert!(refused(&s)
        .message
        .contains("no space of this 8-column, 6-row map"));

    let mut s = sample(1);
    s.sides[0].goal = Goal::Hold;
    assert!(refused(&s).message.contains("more than holding"));

    let mut s = sample(0);
    s.sides[0].goal =
        serde_json::from_value(json!({"kind": "carry", "object": "anvil", "to": ["a1"]})).unwrap();
    assert_eq!(refused(&s).path, "scenario.sides[0].goal.object");
}
