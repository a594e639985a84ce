//! Record mode: each card shape a page's form is built from (`Legal::typed`)
//! reads back as the card it stands for.

use super::*;
use serde_json::Map;

use tabletape_engine::dread::content::{Reverse, TypedCard};
use tabletape_engine::dread::decide::shapes::{card, reverse};
use tabletape_engine::rules::{CardShape, ShapeInput};

/// A value for an input, as a page's form would send it: the first of
/// its values, its least number, some words.
fn filled(input: &ShapeInput) -> Value {
    match input {
        ShapeInput::Text => json!("A"),
        ShapeInput::Number { min, max } => json!((*min).max(1).min(*max)),
        ShapeInput::OneOf { values } => json!(values[0]),
        ShapeInput::SomeOf { values } => json!([values[0], values[1]]),
        ShapeInput::Parts => json!({}),
        ShapeInput::Rows => json!([]),
    }
}

fn card_filled(shape: &CardShape, with_parts: bool) -> Value {
    let mut card = Map::new();
    for f in &shape.fields {
        let mut value = filled(&f.input);
        if with_parts {
            for p in &f.parts {
                value[&p.name] = filled(&p.input);
            }
        }
        card.insert(f.name.clone(), value);
    }
    json!({ shape.key.clone(): card })
}

#[test]
fn typed_cards_fill_in_as_the_shapes_say() {
    let keys = [
        "item",
        "confidence",
        "personality",
        "challenge",
        "dread",
        "ally",
        "plot",
    ];
    for key in keys {
        let shape = card(key).expect("a shape for every kind of card");
        for with_parts in [false, true] {
            let typed = card_filled(&shape, with_parts);
            let read: Result<TypedCard, _> = serde_json::from_value(typed.clone());
            assert!(read.is_ok(), "{typed}: {}", read.unwrap_err());
        }
        // Leaving out each field the shape calls optional is read too,
        // and leaving out one it calls required is not.
        for f in &shape.fields {
            let mut typed = card_filled(&shape, false);
            typed[key].as_object_mut().unwrap().remove(&f.name);
            let read: Result<TypedCard, _> = serde_json::from_value(typed.clone());
            assert_eq!(read.is_ok(), f.optional, "{key} without {}", f.name);
        }
    }
}

/// `legal` gives the shapes a page builds its forms from, where a card may
/// be typed: the deal's Items and Confidence cards, a card turned up.
#[test]
fn record_mode_lines_carry_the_shapes_of_the_cards_they_may_take() {
    let keys = |l: &tabletape_engine::legal::LegalAction, field: &str| -> Vec<String> {
        l.typed
            .iter()
            .filter(|t| t.field == field)
            .flat_map(|t| t.shapes.iter().map(|s| s.key.clone()))
            .collect()
    };
    let mut t = Table::new(super::record::record_created(4, 4, "4,5", &[]));
    let start = t.game.legal_at(None, t.now);
    assert_eq!(keys(&start[0], "outcomes.drew"), ["item", "confidence"]);
    assert!(start[0].typed[0].many, "a draw is a list of cards");
    let mut typist = super::record::Typist::new(4);
    typist
        .play(&mut t, start[0].action.clone())
        .expect("the deal");
    let reveals: Vec<_> = t
        .game
        .legal_at(None, t.now)
        .into_iter()
        .filter(|l| l.action["type"] == "reveal")
        .collect();
    assert!(!reveals.is_empty());
    for l in &reveals {
        assert_eq!(keys(l, "card"), ["dread", "ally", "plot"]);
        assert!(!l.typed[0].many);
    }
    // Dealing the pack's own cards, the table names them: nothing is typed.
    let options = [
        ("timer", "off"),
        (
            "characters",
            "Ada Lockwood,Silas Crane,Mercy Vale,Jane Marsh",
        ),
    ];
    let t = Table::new(created(4, 4, DiceMode::Physical, &options));
    let start = t.game.legal_at(None, t.now);
    assert!(!start[0].needs.is_empty(), "the deal is asked for");
    assert!(start.iter().all(|l| l.typed.is_empty()));
}

/// A Plot card's reverse, filled in outcome by outcome as the page does
/// (a part `effect.dread` inside the outcome's `effect`), reads back.
#[test]
fn a_reverse_filled_in_row_by_row_reads_back() {
    let shape = reverse();
    assert_eq!(shape.key, "", "a reverse is typed alone, in its own field");
    let tiers = &shape.fields[0];
    assert_eq!(tiers.input, ShapeInput::Rows);
    let mut rows = Vec::new();
    for fists in [0, 2, 4] {
        let mut row = Map::new();
        for p in &tiers.parts {
            let value = match p.name.as_str() {
                "successes" => json!(fists),
                _ => filled(&p.input),
            };
            match p.name.split_once('.') {
                Some((outer, inner)) => {
                    let at = row.entry(outer).or_insert_with(|| json!({}));
                    at[inner] = value;
                }
                None => {
                    row.insert(p.name.clone(), value);
                }
            }
        }
        rows.push(Value::Object(row));
    }
    let typed = json!({ "tiers": rows, "story": "A" });
    let read: Reverse =
        serde_json::from_value(typed.clone()).unwrap_or_else(|e| panic!("{typed}: {e}"));
    assert_eq!(read.tiers.len(), 3);
    assert_eq!(read.tiers[1].successes, 2);
    assert_eq!(
        read.tiers[2].effect.dread, 1,
        "an effect's part lands in the effect"
    );
}
