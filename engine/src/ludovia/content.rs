//! Ludovia content: the city block pieces, the rooftop deck and the equipment deck.
//!
//! The rule text fixes the kinds of spaces on a block piece, the number of
//! rooftop cards by edge colour, the four events, the three equipment colours
//! and their prices, and six equipment names. Everything else (where the
//! alleys sit on each piece, the treasures, how many of each card, what each
//! item does) is sample content of our own, labelled as such in the files.
//! [`validate`] checks a pack describes a playable box and names the file,
//! JSON path and field at fault.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ContentError;
use crate::pack::bundled_sample;

/// Rooftops on every ordinary block piece (49 white cards over 7 blocks, 70 over 10).
pub const ROOFTOPS_PER_BLOCK: usize = 7;
/// Ordinary blocks on a 3x3 board (the Lair and the Prison make 9).
pub const SMALL_ORDINARY: usize = 7;
/// Ordinary blocks on a 3x4 board (the Lair and the Prison make 12).
pub const LARGE_ORDINARY: usize = 10;
/// The most a treasure card may be worth: $1,500 is the 15 Fame and Fortune
/// that win at once, so no card needs more (the sample's are $100 to $400).
pub const TREASURE_MAX: u32 = 1500;
/// The equipment cards the box holds; a deck has at most this many.
pub const EQUIPMENT_CARDS: u64 = 24;

/// A block piece that is not made of rooftops and alleys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    Lair,
    Prison,
}

/// One city block piece. An ordinary piece has a 3x3 `layout`, rows from north
/// to south: `R` rooftop, `A` alley, `M` Black Market alley.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockPiece {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<Special>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layout: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// Used in every game.
    White,
    /// Added for 5 or 6 players.
    Black,
}

/// The four events a rooftop card may hold instead of a treasure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RooftopEvent {
    Dog,
    Equipment,
    StakeOut,
    Trap,
}

impl RooftopEvent {
    /// The event as the rule text names its card.
    pub fn name(self) -> &'static str {
        match self {
            RooftopEvent::Dog => "Dog",
            RooftopEvent::Equipment => "Equipment",
            RooftopEvent::StakeOut => "Stake-out",
            RooftopEvent::Trap => "Trap",
        }
    }
}

/// A kind of rooftop card and how many of it the box holds with this edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RooftopCard {
    pub name: String,
    pub edge: Edge,
    /// Dollars, for a treasure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<RooftopEvent>,
    pub count: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// One-way: $100, discarded after one use, no action point.
    Blue,
    /// Bonus: $200, always in use.
    Red,
    /// Extra action: $300, each use costs an action point.
    Green,
}

impl Colour {
    /// The price the rules give each colour.
    pub fn cost(self) -> u32 {
        match self {
            Colour::Blue => 100,
            Colour::Red => 200,
            Colour::Green => 300,
        }
    }
}

/// What an item does; each is enforced by `decide`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Blue: one move ignores watched streets and lamp-post blocking.
    Mask,
    /// Blue: +2 on the attacker's die in a steal or knock-down.
    MakeUp,
    /// Blue: one jump succeeds without a roll.
    RopeAndGrapple,
    /// Red: carry 4 rooftop cards.
    Backpack,
    /// Red: a 5 also acquits at trial.
    LuckyCharm,
    /// Red: +1 on jump rolls.
    SoftShoes,
    /// Green: an action point moves a policeman by a die roll.
    Whistle,
    /// Green: knock down from a neighbouring rooftop.
    Bolas,
}

impl Effect {
    /// Whether the effect is always at work rather than used at a moment.
    /// Only a red card is always in use, so a passive effect must be red;
    /// an effect used at a moment may be blue (once, then discarded, no
    /// action point) or green (kept, an action point each use). Which one is
    /// the pack's to say.
    pub fn passive(self) -> bool {
        matches!(
            self,
            Effect::Backpack | Effect::LuckyCharm | Effect::SoftShoes
        )
    }
}

/// The prices the rule text's own worked example fixes (section 3 F): a
/// Whistle bought for $300, a Backpack that would have left a $200 treasure
/// over from $400, and a Bolas that $200 buys with $100 lost. Every other
/// item's colour is the pack's choice.
pub const WORKED_EXAMPLE: [(Effect, Colour); 3] = [
    (Effect::Whistle, Colour::Green),
    (Effect::Backpack, Colour::Red),
    (Effect::Bolas, Colour::Blue),
];

/// Checks the items the worked example prices cost what it says. Games
/// recorded under rules 1 kept a green Bolas, so this is checked when a game
/// is set up under rules 2 or later, not on every stored pack.
pub fn check_worked_example(pack: &Pack, file: &str) -> Result<(), ContentError> {
    for (i, item) in pack.equipment.iter().enumerate() {
        if let Some((_, colour)) = WORKED_EXAMPLE.iter().find(|(e, _)| *e == item.effect) {
            if item.colour != *colour {
                return Err(ContentError::new(
                    file,
                    format!("equipment[{i}].colour"),
                    format!(
                        "the rules' worked example prices a {} at ${}, a {:?} item, not {:?}",
                        item.name,
                        colour.cost(),
                        colour,
                        item.colour
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A kind of equipment card and how many of it the deck holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub name: String,
    pub colour: Colour,
    pub cost: u32,
    pub count: u32,
    pub effect: Effect,
    /// The effect in a sentence, for `kinds` and the rendered board.
    pub text: String,
}

/// A Ludovia content pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pack {
    pub pack: String,
    pub version: u32,
    /// True when the pack holds content of our own design, not a real box's.
    #[serde(default)]
    pub sample: bool,
    pub blocks: Vec<BlockPiece>,
    pub rooftop_cards: Vec<RooftopCard>,
    pub equipment: Vec<Item>,
}

/// Checks every block, card and item; the first problem found is returned.
pub fn validate(pack: &Pack, file: &str) -> Result<(), ContentError> {
    let mut ids = BTreeSet::new();
    let (mut lairs, mut prisons, mut ordinary) = (0, 0, 0);
    for (i, b) in pack.blocks.iter().enumerate() {
        let at = |field: &str| format!("blocks[{i}].{field}");
        if !ids.insert(b.id.as_str()) {
            return Err(ContentError::new(
                file,
                at("id"),
                format!("block `{}` appears twice", b.id),
            ));
        }
        match b.special {
            Some(Special::Lair) => lairs += 1,
            Some(Special::Prison) => prisons += 1,
            None => {
                ordinary += 1;
                check_layout(file, i, &b.layout)?;
            }
        }
        if b.special.is_some() && !b.layout.is_empty() {
            return Err(ContentError::new(
                file,
                at("layout"),
                "the Lair and the Prison have no rooftops or alleys: leave out `layout`",
            ));
        }
    }
    if lairs != 1 || prisons != 1 {
        return Err(ContentError::new(
            file,
            "blocks",
            format!("a box has exactly one Lair and one Prison, not {lairs} and {prisons}"),
        ));
    }
    if ordinary < LARGE_ORDINARY {
        return Err(ContentError::new(
            file,
            "blocks",
            format!("a box has {LARGE_ORDINARY} ordinary blocks for a 3x4 board, not {ordinary}"),
        ));
    }

    // Summed as u64: a count read from the pack may be any u32.
    let mut white: u64 = 0;
    let mut all: u64 = 0;
    let mut kinds: Vec<(&str, Option<u32>, Option<RooftopEvent>)> = Vec::new();
    for (i, c) in pack.rooftop_cards.iter().enumerate() {
        let at = |field: &str| format!("rooftop_cards[{i}].{field}");
        match (c.value, c.event) {
            (Some(0), None) => {
                return Err(ContentError::new(
                    file,
                    at("value"),
                    "a treasure is worth at least $1",
                ))
            }
            (Some(v), None) if v > TREASURE_MAX => {
                return Err(ContentError::new(
                    file,
                    at("value"),
                    format!("a treasure is worth $100 to ${TREASURE_MAX}, not ${v}"),
                ))
            }
            (Some(v), None) if v % 100 != 0 => {
                return Err(ContentError::new(
                    file,
                    at("value"),
                    format!("${v} does not convert to Fame and Fortune: use whole hundreds"),
                ))
            }
            (Some(_), None) | (None, Some(_)) => {}
            _ => {
                return Err(ContentError::new(
                    file,
                    at("value"),
                    "a rooftop card holds either a treasure `value` or an `event`",
                ))
            }
        }
        // One name means one card face, whatever its edge.
        match kinds.iter().find(|k| k.0 == c.name) {
            Some(k) if (k.1, k.2) != (c.value, c.event) => {
                return Err(ContentError::new(
                    file,
                    at("name"),
                    format!("`{}` is described twice, differently", c.name),
                ))
            }
            Some(_) => {}
            None => kinds.push((&c.name, c.value, c.event)),
        }
        all += u64::from(c.count);
        if c.edge == Edge::White {
            white += u64::from(c.count);
        }
    }
    if white != (ROOFTOPS_PER_BLOCK * SMALL_ORDINARY) as u64 {
        return Err(ContentError::new(
            file,
            "rooftop_cards",
            format!(
                "white-edged cards must cover the {} rooftops of a 3x3 board, not {white}",
                ROOFTOPS_PER_BLOCK * SMALL_ORDINARY
            ),
        ));
    }
    if all != (ROOFTOPS_PER_BLOCK * LARGE_ORDINARY) as u64 {
        return Err(ContentError::new(
            file,
            "rooftop_cards",
            format!(
                "all the cards must cover the {} rooftops of a 3x4 board, not {all}",
                ROOFTOPS_PER_BLOCK * LARGE_ORDINARY
            ),
        ));
    }

    let mut names = BTreeSet::new();
    let mut effects = BTreeSet::new();
    for (i, item) in pack.equipment.iter().enumerate() {
        let at = |field: &str| format!("equipment[{i}].{field}");
        if !names.insert(item.name.as_str()) {
            return Err(ContentError::new(
                file,
                at("name"),
                format!("`{}` appears twice", item.name),
            ));
        }
        if !effects.insert(item.effect) {
            return Err(ContentError::new(
                file,
                at("effect"),
                "each effect belongs to one item only",
            ));
        }
        if item.effect.passive() != (item.colour == Colour::Red) {
            return Err(ContentError::new(
                file,
                at("colour"),
                if item.effect.passive() {
                    format!(
                        "the {:?} effect is always at work, which only a red item is",
                        item.effect
                    )
                } else {
                    format!(
                        "the {:?} effect is used at a moment: a blue (once) or green (an action point each use) item, not red",
                        item.effect
                    )
                },
            ));
        }
        if item.cost != item.colour.cost() {
            return Err(ContentError::new(
                file,
                at("cost"),
                format!(
                    "{:?} items cost ${}, not ${}",
                    item.colour,
                    item.colour.cost(),
                    item.cost
                ),
            ));
        }
        if item.count == 0 {
            return Err(ContentError::new(
                file,
                at("count"),
                "an item in the deck has at least one card",
            ));
        }
    }
    let deck: u64 = pack.equipment.iter().map(|i| u64::from(i.count)).sum();
    if deck < 3 {
        return Err(ContentError::new(
            file,
            "equipment",
            "the deck needs at least three cards for the first offer",
        ));
    }
    if deck > EQUIPMENT_CARDS {
        return Err(ContentError::new(
            file,
            "equipment",
            format!("the box holds {EQUIPMENT_CARDS} equipment cards, not {deck}"),
        ));
    }
    Ok(())
}

fn check_layout(file: &str, block: usize, layout: &[String]) -> Result<(), ContentError> {
    let path = format!("blocks[{block}].layout");
    if layout.len() != 3 || layout.iter().any(|r| r.chars().count() != 3) {
        return Err(ContentError::new(
            file,
            path,
            "a layout is 3 rows of 3 spaces",
        ));
    }
    let (mut roofs, mut alleys, mut markets) = (0, 0, 0);
    for (i, row) in layout.iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            match ch {
                'R' => roofs += 1,
                'A' | 'M' => {
                    alleys += 1;
                    if ch == 'M' {
                        markets += 1;
                    }
                    if (i, j) == (1, 1) {
                        return Err(ContentError::new(
                            file,
                            format!("{path}[1]"),
                            "an alley must touch a street: not in the middle of the block",
                        ));
                    }
                }
                other => {
                    return Err(ContentError::new(
                        file,
                        format!("{path}[{i}]"),
                        format!("`{other}` is not R (rooftop), A (alley) or M (Black Market)"),
                    ))
                }
            }
        }
    }
    if roofs != ROOFTOPS_PER_BLOCK || alleys != 2 || markets > 1 {
        return Err(ContentError::new(
            file,
            path,
            format!(
                "a block has {ROOFTOPS_PER_BLOCK} rooftops and 2 alleys (at most one a Black Market), not {roofs}, {alleys} and {markets}"
            ),
        ));
    }
    Ok(())
}

/// The bundled sample pack, as JSON (a part of the build).
pub fn bundled() -> Value {
    bundled_sample(
        "ludovia-default",
        &[
            ("blocks", BLOCKS, "blocks"),
            ("rooftop_cards", ROOFTOPS, "cards"),
            ("equipment", EQUIPMENT, "items"),
        ],
    )
}

const BLOCKS: &str = include_str!("../../content/ludovia/blocks.json");
const ROOFTOPS: &str = include_str!("../../content/ludovia/rooftops.json");
const EQUIPMENT: &str = include_str!("../../content/ludovia/equipment.json");
