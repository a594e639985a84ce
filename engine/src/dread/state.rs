//! The state of a London Dread game: the city's 24 locations, the
//! characters with their action clocks, the dread track, the decks, and
//! where in the chapter (or the Endgame) the team is.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tabletape_events::Seat;

use super::content::{
    Ally, Character, Condition, ConfidenceCard, DreadCard, Effect, Icon, Item, Personality, Story,
    TraumaFace,
};
use super::options::Variant;

/// Actions on a clock: 6 a.m. to 4 a.m., two hours apart.
pub const ACTIONS: u8 = 12;
/// Dread above this loses the game at once.
pub const DREAD_LIMIT: u32 = 50;
/// Virtue tokens in the box: the most the team can hold.
pub const VIRTUES: u32 = 12;
/// Items face up in the Supply.
pub const SUPPLY: usize = 3;

/// One of the city's four areas, also a compass direction for an arrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    North,
    East,
    South,
    West,
}

pub const AREAS: [Area; 4] = [Area::North, Area::East, Area::South, Area::West];

impl Area {
    pub fn word(self) -> &'static str {
        match self {
            Area::North => "North",
            Area::East => "East",
            Area::South => "South",
            Area::West => "West",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// A place in the city: location 1-6 of an area, or the area's Streets
/// (`spot` 0). Written `north 3` or `west streets`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub area: Area,
    pub spot: u8,
}

impl Place {
    pub fn streets(area: Area) -> Place {
        Place { area, spot: 0 }
    }

    pub fn is_streets(self) -> bool {
        self.spot == 0
    }

    /// The index of a numbered location among the 24.
    pub fn index(self) -> Option<usize> {
        (1..=6)
            .contains(&self.spot)
            .then(|| self.area.index() * 6 + self.spot as usize - 1)
    }

    pub fn of_index(i: usize) -> Place {
        Place {
            area: AREAS[i / 6],
            spot: (i % 6) as u8 + 1,
        }
    }
}

impl Place {
    /// The place as a story names it ("North 3", "the West streets").
    pub fn words(self) -> String {
        if self.is_streets() {
            format!("the {} streets", self.area.word())
        } else {
            format!("{} {}", self.area.word(), self.spot)
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let area = self.area.word().to_ascii_lowercase();
        if self.is_streets() {
            write!(f, "{area} streets")
        } else {
            write!(f, "{area} {}", self.spot)
        }
    }
}

impl FromStr for Place {
    type Err = String;
    fn from_str(s: &str) -> Result<Place, String> {
        let t = s.trim().to_ascii_lowercase();
        let bad = || {
            format!("`{s}` is not a place: write an area and a number 1-6 or `streets`, like `north 3` or `west streets`")
        };
        let split = t
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(t.len());
        let (word, rest) = t.split_at(split);
        let area = match word {
            "north" => Area::North,
            "east" => Area::East,
            "south" => Area::South,
            "west" => Area::West,
            _ => return Err(bad()),
        };
        let rest = rest.trim_start_matches([' ', '-', '_']).trim();
        let spot = match rest {
            "streets" | "street" => 0,
            n => match n.parse::<u8>() {
                Ok(n) if (1..=6).contains(&n) => n,
                _ => return Err(bad()),
            },
        };
        Ok(Place { area, spot })
    }
}

impl Serialize for Place {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Place {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Place, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A card as dealt face down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    Placeholder,
    Dread(String),
    Ally(String),
}

/// What lies face up at a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    Dread(String),
    /// The Plot card laid on a placeholder, by letter.
    Plot(char),
    Ally(String),
}

/// One of the 24 locations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Spot {
    /// Face down. `card` is what lies there when Tabletape dealt it (a
    /// secret: only the owner's view shows it); `None` when the table dealt.
    Down {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    Up {
        face: Face,
    },
    /// Investigated, recruited, or discarded.
    Empty,
}

/// An action token in a clock slot: its number side, or its arrow side
/// pointing to an area's Streets. `stash` marks a token from the board's
/// stash (1 dread at the end of the chapter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Token {
    pub number: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrow: Option<Area>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stash: bool,
}

impl Token {
    pub fn words(self) -> String {
        let base = match self.arrow {
            Some(a) => format!("arrow {} (token {})", a.word(), self.number),
            None => format!("{}", self.number),
        };
        if self.stash {
            format!("{base}, from the stash")
        } else {
            base
        }
    }
}

/// An item a character holds; a tilted item is used until readied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub name: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tilted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Investigator {
    pub name: String,
    /// The seat playing this character now.
    pub seat: Seat,
    pub icons: [Icon; 2],
    pub virtue: Effect,
    pub personality: Vec<Personality>,
    /// Who the character is, in the sheet's own words (told as the story
    /// opens).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub story: String,
    pub place: Place,
    pub virtues: u32,
    pub items: Vec<Held>,
    pub allies: Vec<String>,
    pub conditions: Vec<Condition>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defeated: bool,
    /// The 12 slots of the action clock.
    pub clock: Vec<Option<Token>>,
    /// Endgame: the Investigation cards dealt to this character.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand: Vec<String>,
    /// Endgame: action dice earned for the Final Showdown.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dice: u32,
    /// Endgame: bowed out of the challenges (until the Showdown).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub out: bool,
}

fn first_rules() -> u32 {
    1
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Investigator {
    pub fn new(c: &Character, seat: Seat, place: Place) -> Investigator {
        Investigator {
            name: c.name.clone(),
            seat,
            icons: c.icons,
            virtue: c.virtue.clone(),
            personality: c.personality.clone(),
            story: c.story.clone(),
            place,
            virtues: 0,
            items: Vec::new(),
            allies: Vec::new(),
            conditions: Vec::new(),
            defeated: false,
            clock: vec![None; ACTIONS as usize],
            hand: Vec::new(),
            dice: 0,
            out: false,
        }
    }

    pub fn sheet(&self) -> [Icon; 3] {
        [Icon::Wild, self.icons[0], self.icons[1]]
    }

    /// Own tokens of `number` in the clock (stash tokens aside).
    pub fn placed(&self, number: u8) -> usize {
        self.clock
            .iter()
            .flatten()
            .filter(|t| t.number == number && !t.stash)
            .count()
    }

    pub fn holds(&self, item: &str) -> Option<&Held> {
        self.items.iter().find(|h| h.name == item)
    }
}

/// What one character brings to the encounter under way.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    pub character: usize,
    /// The Personality card flipped (index into the deck), at a Plot card
    /// or a challenge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flipped: Option<usize>,
    /// Icons gained for this encounter (items, virtues, talents, allies
    /// sacrificed), beyond the sheet, allies and the flipped card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Cards drawn from the Investigation deck (or played from the hand).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<String>,
    /// Automatic successes added to the roll.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub successes: u32,
    /// Dice without a fist this character may still roll again.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rerolls: u32,
    /// Action dice rolled (faces 1-6), once rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolled: Option<Vec<u32>>,
}

/// What is being encountered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Target {
    Dread { place: Place, card: String },
    Plot { place: Place, letter: char },
    Challenge { card: String },
    Showdown,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encounter {
    pub target: Target,
    pub shares: Vec<Share>,
}

impl Encounter {
    pub fn share(&self, character: usize) -> Option<&Share> {
        self.shares.iter().find(|s| s.character == character)
    }
}

/// Where the Endgame stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Endgame {
    /// Before a challenge: who stays in (`decided` lists who has said).
    Choosing { decided: Vec<usize> },
    /// The challenge `card` is faced by `queue`, one at a time.
    Facing { card: String, queue: Vec<usize> },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The timed planning phase. `ends_at_ms` is `None` until Big Ben
    /// strikes, or for a table keeping its own time.
    Planning {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        started_at_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ends_at_ms: Option<u64>,
    },
    /// The story phase: `action` (1-12) is the one called last, 0 before
    /// the first.
    Story {
        action: u8,
    },
    Endgame(Endgame),
    /// The Final Showdown: `needed` fists win.
    Showdown {
        needed: u32,
    },
    Over,
}

/// The points of the scoring table after a win.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub survivors: u32,
    pub extra_fists: u32,
    pub items: u32,
    pub virtues: u32,
    pub cards: u32,
    pub conditions: u32,
    pub total: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub won: bool,
    pub why: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
}

/// The cards of the box this game uses, by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cards {
    pub dread: BTreeMap<String, DreadCard>,
    pub items: BTreeMap<String, Item>,
    pub confidence: BTreeMap<String, ConfidenceCard>,
    pub allies: BTreeMap<String, Ally>,
    pub action_die: Vec<u32>,
    pub trauma_die: Vec<TraumaFace>,
}

impl Cards {
    /// The icons a card of the Investigation deck carries.
    pub fn investigation_icons(&self, name: &str) -> Vec<Icon> {
        if let Some(d) = self.dread.get(name) {
            d.icons.clone()
        } else if let Some(c) = self.confidence.get(name) {
            c.icons.clone()
        } else {
            Vec::new()
        }
    }
}

/// An optional Investigation token, laid on a face-up Dread or Plot card
/// while planning to say how the table means to solve it. A note for the
/// players: no rule reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvestigationToken {
    /// Solved.
    Green,
    /// Solved with an Item.
    Yellow,
    /// Solved with a Virtue token.
    White,
    /// Solved with cards from the Investigation deck.
    Red,
}

impl InvestigationToken {
    pub const ALL: [InvestigationToken; 4] = [
        InvestigationToken::Green,
        InvestigationToken::Yellow,
        InvestigationToken::White,
        InvestigationToken::Red,
    ];

    pub fn word(self) -> &'static str {
        match self {
            InvestigationToken::Green => "green",
            InvestigationToken::Yellow => "yellow",
            InvestigationToken::White => "white",
            InvestigationToken::Red => "red",
        }
    }

    /// What the token says of the plan.
    pub fn meaning(self) -> &'static str {
        match self {
            InvestigationToken::Green => "solved",
            InvestigationToken::Yellow => "solved with an Item",
            InvestigationToken::White => "solved with a Virtue token",
            InvestigationToken::Red => "solved with Investigation cards",
        }
    }
}

/// The story and the box's cards are shared behind `Arc`: every decision
/// clones the state, and neither changes in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The version of London Dread's rules the game was recorded under: an
    /// older game is decided as its rules had it.
    #[serde(default = "first_rules")]
    pub rules: u32,
    pub story: Arc<Story>,
    pub cards: Arc<Cards>,
    pub players: usize,
    pub variant: Variant,
    pub minutes: u64,
    pub timer: bool,
    pub impeccable: bool,
    /// Dealt by Tabletape (digital dice) or by the table.
    pub dealt_by_table: bool,
    /// Record mode: the table plays its own box, and each card is typed
    /// the first time it comes into play. The pack gives only the dice.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub record: bool,
    /// Record mode: Plot cards in each chapter, as the table counted them
    /// (the story's cards are typed as they turn up).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plot_counts: Vec<usize>,
    /// Whether the starting Items, Supply and Confidence cards are dealt
    /// (at setup by Tabletape; a table says so when planning starts).
    pub start_dealt: bool,
    pub starting_items: u32,
    pub starting_confidence: u32,
    pub characters: Vec<Investigator>,
    /// 0-based; the Endgame follows the last.
    pub chapter: usize,
    pub phase: Phase,
    pub dread: u32,
    pub locations: Vec<Spot>,
    /// Plot cards laid on the board this chapter, in letter order.
    pub plots: Vec<(char, Place)>,
    /// Plot cards of this chapter investigated, in order.
    pub investigated: Vec<char>,
    /// Locations investigated during the action under way (once each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub met: Vec<Place>,
    /// Names of the Dread cards and Allies turned up this chapter.
    pub seen: Vec<String>,
    /// The Investigation tokens laid this chapter, by location.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<(Place, InvestigationToken)>,
    /// Allies shuffled into this chapter's deal.
    pub allies_dealt: u32,
    /// Numbers of the tokens still in the board's stash.
    pub stash: Vec<u8>,
    /// Numbers of the stash's tokens taken this chapter, put back or not:
    /// each costs a dread at the chapter's end (rules 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stash_taken: Vec<u8>,
    /// The Investigation deck (shuffled whenever drawn from).
    pub investigation: Vec<String>,
    /// Confidence cards not yet gained.
    pub confidence: Vec<String>,
    /// The Item deck (drawn at random: no one knows its order).
    pub item_deck: Vec<String>,
    pub supply: Vec<String>,
    pub leader: Option<usize>,
    /// The encounter under way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<Encounter>,
    /// Items a Plot card gave, each to be taken by these characters in turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub item_picks: Vec<usize>,
    /// Endgame Challenges still face down, and those faced.
    pub challenges: Vec<String>,
    pub faced: Vec<String>,
    /// Challenges the Endgame offers at most (3; 6 with two players).
    pub most_challenges: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

impl State {
    pub fn spot(&self, place: Place) -> Option<&Spot> {
        place.index().map(|i| &self.locations[i])
    }

    pub fn face_at(&self, place: Place) -> Option<&Face> {
        match self.spot(place) {
            Some(Spot::Up { face }) => Some(face),
            _ => None,
        }
    }

    /// The characters at `place`, still in the game.
    pub fn at(&self, place: Place) -> Vec<usize> {
        self.characters
            .iter()
            .enumerate()
            .filter(|(_, c)| c.place == place && !c.defeated)
            .map(|(i, _)| i)
            .collect()
    }

    /// The Plot cards of this chapter known so far (in record mode, those
    /// turned up: see [`State::plot_count`]).
    pub fn chapter_plots(&self) -> &[super::content::Plot] {
        &self.story.chapters[self.chapter.min(self.story.chapters.len() - 1)].plots
    }

    /// How many Plot cards this chapter has (and so placeholders).
    pub fn plot_count(&self) -> usize {
        let chapter = self.chapter.min(self.story.chapters.len() - 1);
        match self.plot_counts.get(chapter) {
            Some(&n) => n,
            None => self.story.chapters[chapter].plots.len(),
        }
    }

    /// Why the chapter's last Plot card counts as never investigated, if
    /// it does: it lies uninvestigated, or (record mode) it never even
    /// turned up.
    pub fn trail_cold(&self) -> Option<String> {
        let plots = self.chapter_plots();
        if plots.len() < self.plot_count() {
            return Some("the chapter's last Plot card never turned up".into());
        }
        let last = plots.last()?.letter;
        (!self.investigated.contains(&last)).then(|| format!("Plot {last} was never investigated"))
    }

    pub fn plot(&self, letter: char) -> Option<&super::content::Plot> {
        self.story.plots().find(|p| p.letter == letter)
    }

    /// The next Plot card to investigate this chapter, if any is left.
    pub fn next_plot(&self) -> Option<char> {
        self.chapter_plots()
            .get(self.investigated.len())
            .map(|p| p.letter)
    }

    /// Whether the Item deck may still hold a card. In record mode no one
    /// has counted the table's deck, so each draw the rules ask for is
    /// asked of the table.
    pub fn item_deck_left(&self) -> bool {
        self.record || !self.item_deck.is_empty()
    }

    /// Whether the Confidence pile may still hold a card (see
    /// [`State::item_deck_left`]).
    pub fn confidence_left(&self, pile: &[String]) -> bool {
        self.record || !pile.is_empty()
    }

    /// Whether an Endgame Challenge is still face down (record mode: the
    /// story's six are typed as they turn up, so fewer than six are known).
    pub fn challenges_left(&self) -> bool {
        if self.record {
            self.faced.len() < super::content::CHALLENGES
        } else {
            !self.challenges.is_empty()
        }
    }

    pub fn virtues_held(&self) -> u32 {
        self.characters.iter().map(|c| c.virtues).sum()
    }

    /// The most Allies one character may have (two players: 3, three: 2).
    pub fn most_allies(&self) -> usize {
        match self.players {
            2 => 3,
            _ => 2,
        }
    }

    pub fn over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }

    pub fn in_endgame(&self) -> bool {
        matches!(self.phase, Phase::Endgame(_) | Phase::Showdown { .. })
    }
}

/// The hour of an action (1-12) on the clock.
pub fn hour(action: u8) -> String {
    let h = (6 + 2 * (action.max(1) as u32 - 1)) % 24;
    match h {
        0 => "midnight".into(),
        12 => "noon".into(),
        h if h < 12 => format!("{h} a.m."),
        h => format!("{} p.m.", h - 12),
    }
}
