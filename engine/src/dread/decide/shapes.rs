//! Record mode: the shapes of the cards a table types the first time it
//! meets them, for a page to offer as small forms (`Legal::typed`). They
//! follow `content.rs` field for field; the engine's test
//! `dread::shapes` checks that a card filled in as a shape says is read.

use crate::rules::{CardShape, ShapeField, ShapeInput, ShapePart, Typed};

const ICONS: [&str; 10] = [
    "strength",
    "charm",
    "guile",
    "spirit",
    "lore",
    "courage",
    "impact",
    "tech",
    "spellcraft",
    "wild",
];

fn icons() -> ShapeInput {
    ShapeInput::SomeOf {
        values: ICONS.iter().map(|i| i.to_string()).collect(),
    }
}

fn number(min: i64, max: i64) -> ShapeInput {
    ShapeInput::Number { min, max }
}

fn one_of(values: &[&str]) -> ShapeInput {
    ShapeInput::OneOf {
        values: values.iter().map(|v| v.to_string()).collect(),
    }
}

/// What a card does when used (an effect), part by part.
fn effect(name: &str, label: &str) -> ShapeField {
    ShapeField::parts(name, label, effect_parts(""))
}

/// An effect's parts, each name after `prefix` (`effect.` inside a list).
fn effect_parts(prefix: &str) -> Vec<ShapePart> {
    let part = |name: &str, label: &str, input: ShapeInput| ShapePart {
        name: format!("{prefix}{name}"),
        label: label.into(),
        input,
    };
    vec![
        part("icons", "Icons added", icons()),
        part("successes", "Fists added", number(0, 9)),
        part("rerolls", "Dice rolled again", number(0, 9)),
        part("confidence", "Confidence cards gained", number(0, 9)),
        part("virtues", "Virtue tokens gained", number(0, 9)),
        part("items", "Items gained", number(0, 9)),
        part(
            "random_items",
            "Items from the top of the deck",
            number(0, 9),
        ),
        part("dice", "Showdown dice", number(0, 9)),
        part(
            "condition",
            "Condition taken",
            one_of(&["injured", "unhinged"]),
        ),
        part("heal", "Condition healed", one_of(&["injured", "unhinged"])),
        part(
            "dread",
            "Dread raised (less than 0 lowers it)",
            number(-9, 9),
        ),
        part("text", "What else it says", ShapeInput::Text),
    ]
}

/// A Plot card's reverse, read when the card is resolved: an outcome for
/// each number of fists, fewest first, and its story. Typed alone (its
/// field is `reverse`), so it has no key.
pub fn reverse() -> CardShape {
    let mut tier = vec![
        ShapePart {
            name: "successes".into(),
            label: "Fists at least".into(),
            input: number(0, 20),
        },
        ShapePart {
            name: "text".into(),
            label: "What is read".into(),
            input: ShapeInput::Text,
        },
    ];
    tier.extend(effect_parts("effect."));
    shape(
        "",
        "Plot card's reverse",
        vec![
            ShapeField::rows("tiers", "Outcome", tier),
            ShapeField::new("story", "Its story", ShapeInput::Text).optional(),
        ],
    )
}

fn shape(key: &str, label: &str, fields: Vec<ShapeField>) -> CardShape {
    CardShape {
        key: key.into(),
        label: label.into(),
        fields,
    }
}

fn name() -> ShapeField {
    ShapeField::new("name", "Name", ShapeInput::Text)
}

/// The shape of each kind of card, by its key.
pub fn card(key: &str) -> Option<CardShape> {
    Some(match key {
        "item" => shape(
            "item",
            "Item",
            vec![
                name(),
                effect("use", "When used"),
                effect("deplete", "When depleted"),
            ],
        ),
        "confidence" => shape(
            "confidence",
            "Confidence card",
            vec![name(), ShapeField::new("icons", "Icons", icons())],
        ),
        "personality" => shape(
            "personality",
            "Personality card",
            vec![
                name(),
                ShapeField::new("kind", "Kind", one_of(&["plain", "talent", "trauma"])).optional(),
                ShapeField::new("icons", "Icons", icons()).optional(),
                effect("effect", "Its talent").optional(),
            ],
        ),
        "challenge" => shape(
            "challenge",
            "Endgame Challenge",
            vec![
                name(),
                ShapeField::new("icons", "Icons", icons()),
                ShapeField::new("difficulty", "Difficulty", number(1, 20)),
                effect("reward", "Reward").optional(),
                effect("penalty", "Penalty"),
            ],
        ),
        "dread" => shape(
            "dread",
            "Dread card",
            vec![
                name(),
                ShapeField::new("tier", "Tier", number(1, 3)),
                ShapeField::new("icons", "Icons", icons()),
                ShapeField::new("difficulty", "Difficulty", number(1, 20)),
                ShapeField::new("dread", "Dread", number(0, 9)),
                ShapeField::new("story", "Its story", ShapeInput::Text).optional(),
            ],
        ),
        "ally" => shape(
            "ally",
            "Ally",
            vec![
                name(),
                ShapeField::new("icons", "Icons", icons()),
                effect("sacrifice", "When sacrificed"),
            ],
        ),
        "plot" => shape(
            "plot",
            "Plot card",
            vec![
                ShapeField::new("letter", "Letter", ShapeInput::Text),
                name(),
                ShapeField::new("time", "Time of day", one_of(&["morning", "day", "night"])),
                ShapeField::new("dread", "Dread", number(0, 9)),
                ShapeField::new("icons", "Icons", icons()).optional(),
            ],
        ),
        _ => return None,
    })
}

/// The cards `field` (a list of them when `many`) may take typed, by
/// their keys.
pub(super) fn typed(field: &str, many: bool, keys: &[&str]) -> Typed {
    Typed {
        field: field.into(),
        many,
        shapes: keys.iter().filter_map(|k| card(k)).collect(),
    }
}
