//! Legless in London content: the Tothil Fields board, the location cards,
//! the artificial legs, the street event deck, the Risk Booklet and the
//! characters.
//!
//! The rule book fixes the shapes (15 location pairs, one card of each used;
//! a leg's cost side and its Equipped side with Appeal, Mobility, Efficiency
//! and an upkeep; characters with a start square, money, a health track and
//! three goals) and a few values (the Kempner improved leg, the crutches);
//! the rest of the default pack is sample content of our own, labelled so in
//! the files. [`validate`] checks a pack describes a playable box and names
//! the JSON path at fault.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::board::{Board, Cell, Place};
use crate::error::ContentError;
use crate::pack::bundled_sample;

/// Location pairs in a box; one card of each pair is used.
pub const LOCATIONS: usize = 15;
/// Goals on a character card; two completed win.
pub const GOALS: usize = 3;

/// Scores a leg gives, or a card asks of the equipped leg. A missing score is 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Needs {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub appeal: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mobility: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub efficiency: i32,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

impl Needs {
    pub fn is_empty(&self) -> bool {
        *self == Needs::default()
    }
}

/// One thing a street event card or a Risk Booklet story does to the
/// Londoner who drew or read it. Written `{"money": -3}`, `{"health": 2}`,
/// `{"go_to": "docks"}`, `{"miss_turns": 1}`, `"claim_love"`,
/// `{"move": 3}` (a move of up to 3 squares, taken at once), `{"draw": 1}`
/// (another street event card, read next), `"lose_leg"` (the leg in use,
/// or the dearest owned, back to the Store for nothing), `{"gain_leg":
/// "Peg leg"}` (that leg from the Store, free), `{"collect": 2}`
/// (£2 from every other Londoner), `{"pay_each": 1}` (£1 to every other
/// Londoner) and `{"others": [...]}` (what befalls every other Londoner);
/// anything else a table's own card says as `{"by_hand": "..."}`, the
/// card's words, which the table carries out itself and the story tells as
/// written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Pounds gained (or, negative, owed to the bank).
    Money(i32),
    /// Hearts gained (capped at the top of the track) or lost.
    Health(i32),
    /// Straight to a location, without drawing street events.
    GoTo(String),
    /// Turns skipped.
    MissTurns(u32),
    /// Love claimed: a victory token on this location's love space.
    ClaimLove,
    /// A move of up to this many squares, taken at once: the turn goes on
    /// until it is walked (street events on the way are drawn as usual).
    Move(u32),
    /// This many more street event cards, drawn and read next (a street
    /// event card's effect only).
    Draw(u32),
    /// The leg in use, or with none in use the dearest owned, goes back to
    /// the Store and pays nothing.
    LoseLeg,
    /// This leg, by name, comes from the Store to the reader for nothing
    /// (while the Store still holds it; else nothing happens).
    GainLeg(String),
    /// Pounds from every other Londoner in play, a debt they cannot refuse.
    Collect(u32),
    /// Pounds to every other Londoner in play, a debt the reader cannot refuse.
    PayEach(u32),
    /// What befalls every other Londoner in play: money, hearts, turns, a
    /// go-to, a leg lost, or words done by hand.
    Others(Vec<Effect>),
    /// What the table does by hand, in the card's words: Tabletape keeps
    /// no count of it (the table records what follows, a leg sold, a
    /// payment, as it happens).
    ByHand(String),
}

/// Where an effect is read, which decides what it may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// A street event card: it may draw more cards, never claim love.
    StreetEvent,
    /// A Risk Booklet story: it may claim love when read to find love
    /// (`love`), and draws no card.
    Story { love: bool },
}

/// The most squares a card's move gives, and the most cards it draws.
pub const MAX_CARD_MOVE: u32 = 12;
pub const MAX_CARD_DRAW: u32 = 3;

/// Why an effect done by hand needs words.
pub(super) const BY_HAND_EMPTY: &str =
    "an effect done by hand says what the table does, in the card's words";

/// The goal a victory space on the board, or a character's goal, is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalKind {
    Love,
    Property,
    Personal,
}

impl GoalKind {
    pub fn word(self) -> &'static str {
        match self {
            GoalKind::Love => "love",
            GoalKind::Property => "property",
            GoalKind::Personal => "personal goal",
        }
    }
}

/// The board as drawn: rows north to south, one character a square (see
/// [`Board`]), and which location each letter stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardPlan {
    pub name: String,
    pub rows: Vec<String>,
    pub key: BTreeMap<String, String>,
}

/// A location on the board and the victory spaces printed at it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Location {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub spaces: Vec<GoalKind>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    #[serde(default, skip_serializing_if = "Needs::is_empty")]
    pub needs: Needs,
    /// Fixed pay, when the card offers it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earnings: Option<u32>,
    /// The Risk Booklet page, when the card offers a risk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk_page: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Love {
    #[serde(default, skip_serializing_if = "Needs::is_empty")]
    pub needs: Needs,
    pub risk_page: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub cost: u32,
}

/// One side of a location pair: what can be done there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocationCard {
    pub id: String,
    pub location: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work: Option<Work>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub love: Option<Love>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<Price>,
    /// The Sickroom's fee, on the Sickroom's cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sickroom: Option<Price>,
}

/// What a location card says, as a table in record mode types it: the
/// fields of [`LocationCard`] a player reads (written out again, since
/// `flatten` would lose `deny_unknown_fields`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardText {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work: Option<Work>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub love: Option<Love>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<Price>,
}

/// A leg card as a table in record mode types it at the purchase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegText {
    pub cost: u32,
    pub equipped: Equipped,
}

/// The side of a leg card a buyer may not see before buying it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Equipped {
    pub appeal: i32,
    pub mobility: i32,
    pub efficiency: i32,
    /// Pounds owed at the start of each of the owner's turns.
    pub maintenance: u32,
    /// A chair: crutches give no extra rolls with it equipped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_crutches: bool,
    /// Crutches: roll this many dice to move and keep the best. Crutches are
    /// used beside a leg, never equipped as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crutch_rolls: Option<u32>,
    /// What else the side says, in the box's own words (a table's own
    /// leg): told with the side, as secret as it, and carried out by hand.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

impl Equipped {
    pub fn scores(&self) -> Needs {
        Needs {
            appeal: self.appeal,
            mobility: self.mobility,
            efficiency: self.efficiency,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leg {
    pub name: String,
    pub cost: u32,
    pub equipped: Equipped,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sample: bool,
}

impl Leg {
    /// What the bank pays for it: half the cost, rounded up.
    pub fn resale(&self) -> u32 {
        self.cost.div_ceil(2)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreetEvent {
    pub name: String,
    pub text: String,
    pub effects: Vec<Effect>,
    pub count: u32,
}

/// One story on a Risk Booklet page, read for totals from `from` up to the
/// next story's `from`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Story {
    pub from: i32,
    pub text: String,
    pub effects: Vec<Effect>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiskPage {
    pub page: u32,
    pub title: String,
    pub entries: Vec<Story>,
}

impl RiskPage {
    /// The story read for `total`: the last whose `from` it reaches, or the
    /// first when the total is below them all.
    pub fn story(&self, total: i32) -> &Story {
        self.entries
            .iter()
            .rev()
            .find(|s| total >= s.from)
            .unwrap_or(&self.entries[0])
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    pub kind: GoalKind,
    /// Where it can be completed; empty means wherever the card allows it.
    #[serde(default)]
    pub at: Vec<String>,
    /// A personal goal's instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A personal goal's price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<u32>,
    /// Scores a personal goal asks of the equipped leg.
    #[serde(default, skip_serializing_if = "Needs::is_empty")]
    pub needs: Needs,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// The name on the card; no commas (option lists are comma-separated).
    pub name: String,
    /// What the character does for a living, as the card says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    pub start: Place,
    pub money: u32,
    /// Hearts on the health track; the clip starts at the top.
    pub health: u32,
    pub goals: Vec<Goal>,
}

/// A Legless in London content pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    pub pack: String,
    pub version: u32,
    #[serde(default)]
    pub sample: bool,
    pub board: BoardPlan,
    pub locations: Vec<Location>,
    pub location_cards: Vec<LocationCard>,
    /// The location where legs are sold.
    pub leg_store: String,
    /// The location where the sick go.
    pub sickroom: String,
    pub legs: Vec<Leg>,
    pub street_events: Vec<StreetEvent>,
    pub risk_booklet: Vec<RiskPage>,
    pub characters: Vec<Character>,
}

/// Scores and sums stay far from overflow with these bounds.
const MAX_SCORE: i32 = 20;
const MAX_POUNDS: u32 = 10_000;
const MAX_HEALTH: u32 = 50;

fn check_needs(file: &str, path: String, needs: &Needs) -> Result<(), ContentError> {
    for (name, v) in [
        ("appeal", needs.appeal),
        ("mobility", needs.mobility),
        ("efficiency", needs.efficiency),
    ] {
        if v.abs() > MAX_SCORE {
            return Err(ContentError::new(
                file,
                format!("{path}.{name}"),
                format!("a score is between -{MAX_SCORE} and {MAX_SCORE}, not {v}"),
            ));
        }
    }
    Ok(())
}

fn check_pounds(file: &str, path: String, v: u32) -> Result<(), ContentError> {
    if v > MAX_POUNDS {
        return Err(ContentError::new(
            file,
            path,
            format!("£{v} is more than a box holds (at most £{MAX_POUNDS})"),
        ));
    }
    Ok(())
}

/// Checks what a card or story does, in a pack or as a table typed it;
/// an error names the effect by its place (`{path}[{i}]`).
pub fn check_effects(
    file: &str,
    path: &str,
    effects: &[Effect],
    locations: &BTreeSet<&str>,
    legs: &BTreeSet<&str>,
    read: Read,
) -> Result<(), ContentError> {
    for (i, e) in effects.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let refuse = |message: String| Err(ContentError::new(file, at.clone(), message));
        match e {
            Effect::Money(v) | Effect::Health(v) if v.unsigned_abs() > MAX_POUNDS => {
                return refuse(format!("{v} is out of range"))
            }
            Effect::Collect(v) | Effect::PayEach(v) if *v > MAX_POUNDS => {
                return refuse(format!("{v} is out of range"))
            }
            Effect::GoTo(l) if !locations.contains(l.as_str()) => {
                return refuse(format!("no location `{l}` on the board"))
            }
            Effect::GainLeg(l) if !legs.contains(l.as_str()) => {
                return refuse(format!(
                    "no leg `{l}` in the box (a leg the table types is known once bought)"
                ))
            }
            Effect::MissTurns(n) if *n > 10 => {
                return refuse("a card skips at most 10 turns".into())
            }
            Effect::ClaimLove if read != (Read::Story { love: true }) => {
                return refuse(
                    "love is claimed only in a Find Love story of the Risk Booklet".into(),
                )
            }
            Effect::Move(0) => return refuse("a move is of 1 square or more".into()),
            Effect::Move(n) if *n > MAX_CARD_MOVE => {
                return refuse(format!(
                    "a card moves a Londoner {MAX_CARD_MOVE} squares at most"
                ))
            }
            Effect::Draw(_) if read != Read::StreetEvent => {
                return refuse("only a street event card draws another card".into())
            }
            Effect::Draw(n) if *n == 0 || *n > MAX_CARD_DRAW => {
                return refuse(format!("a card draws 1 to {MAX_CARD_DRAW} more cards"))
            }
            Effect::Others(list) => {
                let inner = format!("{at}.others");
                for (j, o) in list.iter().enumerate() {
                    let for_others = matches!(
                        o,
                        Effect::Money(_)
                            | Effect::Health(_)
                            | Effect::GoTo(_)
                            | Effect::MissTurns(_)
                            | Effect::LoseLeg
                            | Effect::ByHand(_)
                    );
                    if !for_others {
                        return Err(ContentError::new(
                            file,
                            format!("{inner}[{j}]"),
                            "what befalls the others is money, health, go_to, miss_turns, lose_leg or by_hand",
                        ));
                    }
                }
                check_effects(file, &inner, list, locations, legs, read)?;
            }
            Effect::ByHand(words) if words.trim().is_empty() => {
                return refuse(BY_HAND_EMPTY.into())
            }
            _ => {}
        }
    }
    Ok(())
}

/// Checks what one location card says (its own location's spaces allow it).
pub fn check_card(
    c: &LocationCard,
    locations: &[Location],
    file: &str,
    path: &str,
) -> Result<(), ContentError> {
    let at = |f: &str| format!("{path}.{f}");
    let Some(location) = locations.iter().find(|l| l.id == c.location) else {
        return Err(ContentError::new(
            file,
            at("location"),
            format!("no location `{}`", c.location),
        ));
    };
    if let Some(w) = &c.work {
        if w.earnings.is_none() && w.risk_page.is_none() {
            return Err(ContentError::new(
                file,
                at("work"),
                "work pays `earnings`, sends to a `risk_page`, or both",
            ));
        }
        check_needs(file, at("work.needs"), &w.needs)?;
        if let Some(e) = w.earnings {
            check_pounds(file, at("work.earnings"), e)?;
        }
    }
    if let Some(l) = &c.love {
        check_needs(file, at("love.needs"), &l.needs)?;
    }
    for (f, p) in [("property", &c.property), ("sickroom", &c.sickroom)] {
        if let Some(p) = p {
            check_pounds(file, at(&format!("{f}.cost")), p.cost)?;
        }
    }
    if c.property.is_some() && !location.spaces.contains(&GoalKind::Property) {
        return Err(ContentError::new(
            file,
            at("property"),
            format!("{} has no property space on the board", location.name),
        ));
    }
    if c.love.is_some() && !location.spaces.contains(&GoalKind::Love) {
        return Err(ContentError::new(
            file,
            at("love"),
            format!("{} has no love space on the board", location.name),
        ));
    }
    Ok(())
}

/// Checks one leg card.
pub fn check_leg(leg: &Leg, file: &str, path: &str) -> Result<(), ContentError> {
    let at = |f: &str| format!("{path}.{f}");
    if leg.name.trim().is_empty() || leg.name.contains(',') {
        return Err(ContentError::new(
            file,
            at("name"),
            "a leg's name is not empty and has no commas",
        ));
    }
    if leg.cost == 0 {
        return Err(ContentError::new(
            file,
            at("cost"),
            "a leg costs at least £1",
        ));
    }
    check_pounds(file, at("cost"), leg.cost)?;
    check_pounds(file, at("equipped.maintenance"), leg.equipped.maintenance)?;
    check_needs(file, at("equipped"), &leg.equipped.scores())?;
    if let Some(n) = leg.equipped.crutch_rolls {
        if !(2..=6).contains(&n) {
            return Err(ContentError::new(
                file,
                at("equipped.crutch_rolls"),
                "crutches roll 2 to 6 dice",
            ));
        }
        if leg.equipped.no_crutches {
            return Err(ContentError::new(
                file,
                at("equipped"),
                "crutches cannot refuse crutches",
            ));
        }
    }
    Ok(())
}

/// Checks one character card against the board it is played on.
pub fn check_character(
    c: &Character,
    board: &Board,
    locations: &[Location],
    file: &str,
    path: &str,
) -> Result<(), ContentError> {
    let at = |f: &str| format!("{path}.{f}");
    let ids: BTreeSet<&str> = locations.iter().map(|l| l.id.as_str()).collect();
    if c.name.contains(',') || c.name.trim().is_empty() {
        return Err(ContentError::new(
            file,
            at("name"),
            "a character's name is not empty and has no commas (option lists are comma-separated)",
        ));
    }
    match &c.start {
        Place::Square(sq) if !matches!(board.cell(*sq), Some(Cell::Street { .. })) => {
            return Err(ContentError::new(
                file,
                at("start"),
                format!("{sq} is not a street square"),
            ))
        }
        Place::Location(l) if !ids.contains(l.as_str()) => {
            return Err(ContentError::new(
                file,
                at("start"),
                format!("no location `{l}`"),
            ))
        }
        _ => {}
    }
    check_pounds(file, at("money"), c.money)?;
    if c.health == 0 || c.health > MAX_HEALTH {
        return Err(ContentError::new(
            file,
            at("health"),
            format!("a health track has 1 to {MAX_HEALTH} hearts"),
        ));
    }
    if c.goals.len() != GOALS {
        return Err(ContentError::new(
            file,
            at("goals"),
            format!("a character has {GOALS} goals"),
        ));
    }
    let kinds: BTreeSet<_> = c.goals.iter().map(|g| g.kind).collect();
    if kinds.len() != GOALS {
        return Err(ContentError::new(
            file,
            at("goals"),
            "a character's goals are love, property and a personal goal, one each",
        ));
    }
    for (j, g) in c.goals.iter().enumerate() {
        let gat = format!("{path}.goals[{j}]");
        for l in &g.at {
            if !ids.contains(l.as_str()) {
                return Err(ContentError::new(
                    file,
                    format!("{gat}.at"),
                    format!("no location `{l}`"),
                ));
            }
        }
        if g.kind == GoalKind::Personal {
            if g.at.len() != 1 {
                return Err(ContentError::new(
                    file,
                    format!("{gat}.at"),
                    "a personal goal is completed at one location",
                ));
            }
            let l = locations.iter().find(|l| l.id == g.at[0]);
            if !l.is_some_and(|l| l.spaces.contains(&GoalKind::Personal)) {
                return Err(ContentError::new(
                    file,
                    format!("{gat}.at"),
                    format!("`{}` has no personal goal space", g.at[0]),
                ));
            }
        } else if g.cost.is_some() || g.text.is_some() || !g.needs.is_empty() {
            return Err(ContentError::new(
                file,
                gat,
                "only a personal goal has its own `text`, `cost` or `needs`",
            ));
        }
        if let Some(cost) = g.cost {
            check_pounds(file, format!("{gat}.cost"), cost)?;
        }
        check_needs(file, format!("{gat}.needs"), &g.needs)?;
    }
    Ok(())
}

/// Checks the board, every card, leg, page and character; the first problem
/// found is returned.
pub fn validate(pack: &Pack, file: &str) -> Result<(), ContentError> {
    let mut ids = BTreeSet::new();
    for (i, l) in pack.locations.iter().enumerate() {
        if !ids.insert(l.id.as_str()) {
            return Err(ContentError::new(
                file,
                format!("locations[{i}].id"),
                format!("location `{}` appears twice", l.id),
            ));
        }
        let distinct: BTreeSet<_> = l.spaces.iter().collect();
        if distinct.len() != l.spaces.len() {
            return Err(ContentError::new(
                file,
                format!("locations[{i}].spaces"),
                "a location has at most one space of each goal",
            ));
        }
    }
    if pack.locations.len() != LOCATIONS {
        return Err(ContentError::new(
            file,
            "locations",
            format!(
                "a box has {LOCATIONS} locations, not {}",
                pack.locations.len()
            ),
        ));
    }
    for (field, id) in [("leg_store", &pack.leg_store), ("sickroom", &pack.sickroom)] {
        if !ids.contains(id.as_str()) {
            return Err(ContentError::new(
                file,
                field,
                format!("no location `{id}`"),
            ));
        }
    }
    let board = Board::read(&pack.board, &pack.locations)
        .map_err(|(path, m)| ContentError::new(file, path, m))?;
    for l in &pack.locations {
        if board.cells_of(&l.id).is_empty() {
            return Err(ContentError::new(
                file,
                "board.key",
                format!("location `{}` is not drawn on the board", l.id),
            ));
        }
    }

    let mut per_location: BTreeMap<&str, usize> = BTreeMap::new();
    let mut card_ids = BTreeSet::new();
    for (i, c) in pack.location_cards.iter().enumerate() {
        let at = |f: &str| format!("location_cards[{i}].{f}");
        if !card_ids.insert(c.id.as_str()) {
            return Err(ContentError::new(
                file,
                at("id"),
                format!("card `{}` appears twice", c.id),
            ));
        }
        if !ids.contains(c.location.as_str()) {
            return Err(ContentError::new(
                file,
                at("location"),
                format!("no location `{}`", c.location),
            ));
        }
        *per_location.entry(c.location.as_str()).or_default() += 1;
        check_card(c, &pack.locations, file, &format!("location_cards[{i}]"))?;
        if (c.location == pack.sickroom) != c.sickroom.is_some() {
            return Err(ContentError::new(
                file,
                at("sickroom"),
                "the Sickroom's cards, and only they, give the Sickroom's fee",
            ));
        }
        for page in [
            c.work.as_ref().and_then(|w| w.risk_page),
            c.love.as_ref().map(|l| l.risk_page),
        ]
        .into_iter()
        .flatten()
        {
            if !pack.risk_booklet.iter().any(|p| p.page == page) {
                return Err(ContentError::new(
                    file,
                    format!("location_cards[{i}]"),
                    format!("the Risk Booklet has no page {page}"),
                ));
            }
        }
    }
    for l in &pack.locations {
        if per_location.get(l.id.as_str()).copied().unwrap_or(0) == 0 {
            return Err(ContentError::new(
                file,
                "location_cards",
                format!("{} has no location card", l.name),
            ));
        }
    }

    let mut names = BTreeSet::new();
    for (i, leg) in pack.legs.iter().enumerate() {
        if !names.insert(leg.name.as_str()) {
            return Err(ContentError::new(
                file,
                format!("legs[{i}].name"),
                format!("leg `{}` appears twice", leg.name),
            ));
        }
        check_leg(leg, file, &format!("legs[{i}]"))?;
    }
    let leg_names = names;

    let mut events = BTreeSet::new();
    let mut cards = 0u64;
    for (i, e) in pack.street_events.iter().enumerate() {
        if !events.insert(e.name.as_str()) {
            return Err(ContentError::new(
                file,
                format!("street_events[{i}].name"),
                format!("street event `{}` appears twice", e.name),
            ));
        }
        if e.count == 0 || e.count > 20 {
            return Err(ContentError::new(
                file,
                format!("street_events[{i}].count"),
                "a street event has 1 to 20 copies",
            ));
        }
        cards += u64::from(e.count);
        check_effects(
            file,
            &format!("street_events[{i}].effects"),
            &e.effects,
            &ids,
            &leg_names,
            Read::StreetEvent,
        )?;
    }
    if cards == 0 {
        return Err(ContentError::new(
            file,
            "street_events",
            "the street event deck is empty",
        ));
    }

    let mut pages = BTreeSet::new();
    for (i, p) in pack.risk_booklet.iter().enumerate() {
        if !pages.insert(p.page) {
            return Err(ContentError::new(
                file,
                format!("risk_booklet[{i}].page"),
                format!("page {} appears twice", p.page),
            ));
        }
        if p.entries.is_empty() {
            return Err(ContentError::new(
                file,
                format!("risk_booklet[{i}].entries"),
                "a page tells at least one story",
            ));
        }
        for (j, s) in p.entries.iter().enumerate() {
            if j > 0 && s.from <= p.entries[j - 1].from {
                return Err(ContentError::new(
                    file,
                    format!("risk_booklet[{i}].entries[{j}].from"),
                    "stories are listed by rising `from`",
                ));
            }
            check_effects(
                file,
                &format!("risk_booklet[{i}].entries[{j}].effects"),
                &s.effects,
                &ids,
                &leg_names,
                Read::Story { love: true },
            )?;
        }
    }

    let mut people = BTreeSet::new();
    for (i, c) in pack.characters.iter().enumerate() {
        check_character(
            c,
            &board,
            &pack.locations,
            file,
            &format!("characters[{i}]"),
        )?;
        if !people.insert(c.name.as_str()) {
            return Err(ContentError::new(
                file,
                format!("characters[{i}].name"),
                format!("character `{}` appears twice", c.name),
            ));
        }
    }
    if pack.characters.len() < 2 {
        return Err(ContentError::new(
            file,
            "characters",
            "a box has at least two characters",
        ));
    }
    Ok(())
}

/// The bundled sample pack, as JSON (a part of the build).
pub fn bundled() -> Value {
    bundled_sample(
        "legless-default",
        &[
            ("board", BOARD, "board"),
            ("locations", BOARD, "locations"),
            ("location_cards", BOARD, "location_cards"),
            ("leg_store", BOARD, "leg_store"),
            ("sickroom", BOARD, "sickroom"),
            ("legs", LEGS, "legs"),
            ("street_events", STREET, "street_events"),
            ("risk_booklet", BOOKLET, "risk_booklet"),
            ("characters", CHARACTERS, "characters"),
        ],
    )
}

const BOARD: &str = include_str!("../../content/legless/board.json");
const LEGS: &str = include_str!("../../content/legless/legs.json");
const STREET: &str = include_str!("../../content/legless/street.json");
const BOOKLET: &str = include_str!("../../content/legless/booklet.json");
const CHARACTERS: &str = include_str!("../../content/legless/characters.json");
