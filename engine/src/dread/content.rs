//! London Dread content: characters with their Personality decks, Dread
//! cards, Items, Confidence cards, Allies, the Action and Trauma dice, and
//! the stories (Plot cards per chapter, Endgame Challenges, an Antagonist).
//!
//! The rule book fixes the shapes (three ability icons and a Virtue rule per
//! character, a six-card Personality deck with a Talent and a Trauma, Dread
//! cards with a tier, icons, a difficulty and a dread value, Plot cards with a
//! letter, a time code, a dread value and tiered outcomes, six Endgame
//! Challenges per story); every card of the default pack is sample content
//! of our own, labelled so. [`validate`] checks a pack describes a playable
//! box and names the JSON path at fault.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::error::ContentError;

/// Locations in the city (four areas of six); the Streets are not dealt to.
pub const LOCATIONS: usize = 24;
/// Plot Placeholder cards in a box: the most Plot cards a chapter can have.
pub const PLACEHOLDERS: usize = 6;
/// Cards in a Personality deck.
pub const PERSONALITY: usize = 6;
/// Endgame Challenge cards per story.
pub const CHALLENGES: usize = 6;
/// Characters at a full table (and in the two-characters variant).
pub const FULL_TABLE: usize = 4;

/// An ability icon. The six primaries, the three secondaries, and Wild,
/// which stands for any of the nine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Icon {
    Strength,
    Charm,
    Guile,
    Spirit,
    Lore,
    Courage,
    Impact,
    Tech,
    Spellcraft,
    Wild,
}

impl Icon {
    pub fn word(self) -> &'static str {
        match self {
            Icon::Strength => "Strength",
            Icon::Charm => "Charm",
            Icon::Guile => "Guile",
            Icon::Spirit => "Spirit",
            Icon::Lore => "Lore",
            Icon::Courage => "Courage",
            Icon::Impact => "Impact",
            Icon::Tech => "Tech",
            Icon::Spellcraft => "Spellcraft",
            Icon::Wild => "Wild",
        }
    }

    pub fn primary(self) -> bool {
        matches!(
            self,
            Icon::Strength | Icon::Charm | Icon::Guile | Icon::Spirit | Icon::Lore | Icon::Courage
        )
    }
}

/// The two Conditions of the base game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Injured,
    Unhinged,
}

impl Condition {
    pub fn word(self) -> &'static str {
        match self {
            Condition::Injured => "Injured",
            Condition::Unhinged => "Unhinged",
        }
    }
}

/// What a card, an item, a virtue, a talent or an ally does. Every field is
/// optional; an empty effect does nothing. Resources (`items`,
/// `random_items`, `virtues`) gained at a Plot card are shared among the
/// characters present; the rest applies to whoever uses the effect (at a
/// Plot outcome, `condition` falls on everyone present).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// Icons added for the current investigation or challenge.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Successes (fists) added to the user's roll.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub successes: u32,
    /// Action dice without a success the user may roll again.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rerolls: u32,
    /// Confidence cards gained (onto the Investigation deck; into the
    /// user's hand in the Endgame).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub confidence: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub virtues: u32,
    /// Items gained, each from the Supply or the top of the deck.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub items: u32,
    /// Items gained from the top of the deck, the Supply untouched.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub random_items: u32,
    /// Action dice for the Final Showdown (an Endgame reward).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dice: u32,
    /// A Condition the user (at a Plot outcome: everyone present) takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// A Condition of the user's own discarded, if they have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heal: Option<Condition>,
    /// Dread raised (or, negative, lowered: only a card can lower it).
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub dread: i32,
    /// What else the card says, in the table's words: Tabletape tells it
    /// as written and the table carries it out by hand (a rule no other
    /// field can say).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_i(n: &i32) -> bool {
    *n == 0
}

impl Effect {
    pub fn is_empty(&self) -> bool {
        *self == Effect::default()
    }

    /// Whether the effect does something outside an investigation
    /// (healing, Confidence, Virtues, Items, dread), so it may be used at
    /// any moment of the story phase or the Endgame.
    pub fn works_alone(&self) -> bool {
        self.heal.is_some()
            || self.confidence > 0
            || self.virtues > 0
            || self.items > 0
            || self.random_items > 0
            || self.dread != 0
            || !self.text.is_empty()
    }

    /// The effect in a few words ("+1 Wild, 1 confidence").
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if !self.icons.is_empty() {
            let icons: Vec<&str> = self.icons.iter().map(|i| i.word()).collect();
            parts.push(format!("+{}", icons.join(" +")));
        }
        let counted = [
            (self.successes, "success", "successes"),
            (self.rerolls, "reroll", "rerolls"),
            (self.confidence, "confidence", "confidence"),
            (self.virtues, "virtue", "virtues"),
            (self.items, "item", "items"),
            (self.random_items, "random item", "random items"),
            (self.dice, "action die", "action dice"),
        ];
        for (n, one, many) in counted {
            match n {
                0 => {}
                1 => parts.push(format!("1 {one}")),
                n => parts.push(format!("{n} {many}")),
            }
        }
        if let Some(c) = self.condition {
            parts.push(c.word().to_string());
        }
        if let Some(c) = self.heal {
            parts.push(format!("heal {}", c.word()));
        }
        match self.dread {
            0 => {}
            d if d > 0 => parts.push(format!("dread +{d}")),
            d => parts.push(format!("dread {d}")),
        }
        if !self.text.is_empty() {
            // Its own full stop stays out: the sentence around it ends it.
            let text = self.text.trim().trim_end_matches('.');
            parts.push(format!("\u{201c}{text}\u{201d}"));
        }
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// What a Personality card is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    #[default]
    Plain,
    /// A talent: its effect happens when it is flipped.
    Talent,
    /// The character's Trauma: their sheet's icons count for nothing and
    /// the Trauma die is rolled.
    Trauma,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Personality {
    pub name: String,
    #[serde(default, skip_serializing_if = "is_plain")]
    pub kind: Trait,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// A talent's effect.
    #[serde(default, skip_serializing_if = "Effect::is_empty")]
    pub effect: Effect,
}

fn is_plain(t: &Trait) -> bool {
    *t == Trait::Plain
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    pub name: String,
    /// The two primary icons of the sheet; every sheet also has a Wild.
    pub icons: [Icon; 2],
    /// What spending one Virtue token does.
    pub virtue: Effect,
    pub personality: Vec<Personality>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub story: String,
}

impl Character {
    /// The three icons of the sheet.
    pub fn sheet(&self) -> [Icon; 3] {
        [Icon::Wild, self.icons[0], self.icons[1]]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DreadCard {
    pub name: String,
    /// 1 for a story's first chapter, 2 for its second.
    pub tier: u8,
    pub icons: Vec<Icon>,
    pub difficulty: u32,
    /// Dread raised if it is left face up at the end of a chapter.
    pub dread: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub story: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub name: String,
    /// What tilting it gives.
    #[serde(rename = "use")]
    pub use_effect: Effect,
    /// What discarding it instead gives.
    pub deplete: Effect,
}

/// A card that goes onto the Investigation deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfidenceCard {
    pub name: String,
    pub icons: Vec<Icon>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ally {
    pub name: String,
    pub icons: Vec<Icon>,
    /// What sacrificing the ally gives.
    pub sacrifice: Effect,
}

/// When in the day a Plot card may first be investigated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    Morning,
    Day,
    Night,
}

impl Segment {
    pub fn word(self) -> &'static str {
        match self {
            Segment::Morning => "Morning",
            Segment::Day => "Day",
            Segment::Night => "Night",
        }
    }

    /// The segment an action (1..=12) falls in: four actions each.
    pub fn of_action(action: u8) -> Segment {
        match action {
            0..=4 => Segment::Morning,
            5..=8 => Segment::Day,
            _ => Segment::Night,
        }
    }
}

/// One row of a Plot card's outcome table: reached with at least
/// `successes` fists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    pub successes: u32,
    #[serde(default, skip_serializing_if = "Effect::is_empty")]
    pub effect: Effect,
    /// The story read aloud for this outcome (the card's reverse).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plot {
    /// The letter code: plots are investigated in letter order.
    pub letter: char,
    pub name: String,
    pub time: Segment,
    pub dread: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// The outcome table, lowest first (the first row at 0 successes).
    /// Empty on the card that begins the Endgame.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tiers: Vec<Tier>,
    /// The card that begins the Endgame (the story's last).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub endgame: bool,
    /// The general story on the reverse, read once it is investigated.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub story: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chapter {
    pub plots: Vec<Plot>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    pub name: String,
    pub icons: Vec<Icon>,
    pub difficulty: u32,
    /// Gained on meeting it (one action die unless it says otherwise).
    #[serde(default = "one_die")]
    pub reward: Effect,
    /// Suffered on failing it.
    pub penalty: Effect,
}

fn one_die() -> Effect {
    Effect {
        dice: 1,
        ..Effect::default()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Antagonist {
    pub name: String,
    /// Its rule, active from the Endgame on.
    pub text: String,
    /// Fists the Final Showdown needs beyond the dread's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_successes: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Story {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub intro: String,
    pub chapters: Vec<Chapter>,
    pub challenges: Vec<Challenge>,
    pub antagonist: Antagonist,
    /// The story's own rule: this icon counts as Wild at Endgame Challenges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endgame_wild: Option<Icon>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub victory: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub defeat: String,
}

impl Story {
    pub fn plots(&self) -> impl Iterator<Item = &Plot> {
        self.chapters.iter().flat_map(|c| c.plots.iter())
    }
}

/// A character sheet as a table in record mode types it (option
/// `sheets`): the name comes from option `characters`, and the Personality
/// deck is typed card by card as it is flipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    pub icons: [Icon; 2],
    pub virtue: Effect,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub story: String,
}

/// The reverse of a Plot card, typed in record mode when the card is
/// investigated (`resolve`'s `reverse`): until then no one has read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reverse {
    pub tiers: Vec<Tier>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub story: String,
}

/// A card of the table's own box, typed in record mode the first time it
/// comes into play, in place of its name (`{"item": {...}}`). A Plot card is
/// typed by its face (letter, name, time, dread, icons) when turned up; its
/// reverse when investigated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TypedCard {
    Item(Item),
    Confidence(ConfidenceCard),
    Dread(DreadCard),
    Ally(Ally),
    Personality(Personality),
    Plot(Plot),
    Challenge(Challenge),
}

impl TypedCard {
    pub fn name(&self) -> &str {
        match self {
            TypedCard::Item(c) => &c.name,
            TypedCard::Confidence(c) => &c.name,
            TypedCard::Dread(c) => &c.name,
            TypedCard::Ally(c) => &c.name,
            TypedCard::Personality(c) => &c.name,
            TypedCard::Plot(c) => &c.name,
            TypedCard::Challenge(c) => &c.name,
        }
    }

    /// What kind of card it is, in the box's words.
    pub fn kind_words(&self) -> &'static str {
        match self {
            TypedCard::Item(_) => "an Item",
            TypedCard::Confidence(_) => "a Confidence card",
            TypedCard::Dread(_) => "a Dread card",
            TypedCard::Ally(_) => "an Ally",
            TypedCard::Personality(_) => "a Personality card",
            TypedCard::Plot(_) => "a Plot card",
            TypedCard::Challenge(_) => "an Endgame Challenge",
        }
    }
}

/// A face of the Trauma die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TraumaFace {
    Injured,
    Unhinged,
    Dread(u32),
}

impl TraumaFace {
    pub fn word(self) -> String {
        match self {
            TraumaFace::Injured => "Injured".into(),
            TraumaFace::Unhinged => "Unhinged".into(),
            TraumaFace::Dread(n) => format!("Dread +{n}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    pub pack: String,
    pub version: u32,
    /// Whether the cards are sample content rather than the box's own.
    #[serde(default)]
    pub sample: bool,
    /// What the pack is (its own words on where the cards come from).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    pub characters: Vec<Character>,
    pub dread_cards: Vec<DreadCard>,
    pub items: Vec<Item>,
    pub confidence: Vec<ConfidenceCard>,
    pub allies: Vec<Ally>,
    pub stories: Vec<Story>,
    /// Fists on each face of an Action die (six faces).
    pub action_die: Vec<u32>,
    /// The six faces of the Trauma die.
    pub trauma_die: Vec<TraumaFace>,
}

fn unique<'a>(
    file: &str,
    field: &str,
    names: impl Iterator<Item = &'a str>,
) -> Result<(), ContentError> {
    let mut seen = BTreeSet::new();
    for (i, n) in names.enumerate() {
        if n.trim().is_empty() {
            return Err(ContentError::new(
                file,
                format!("{field}[{i}].name"),
                "a name is empty",
            ));
        }
        if !seen.insert(n) {
            return Err(ContentError::new(
                file,
                format!("{field}[{i}].name"),
                format!("`{n}` appears twice"),
            ));
        }
    }
    Ok(())
}

/// Checks the pack describes a playable box.
pub fn validate(pack: &Pack, file: &str) -> Result<(), ContentError> {
    unique(
        file,
        "characters",
        pack.characters.iter().map(|c| c.name.as_str()),
    )?;
    unique(
        file,
        "dread_cards",
        pack.dread_cards.iter().map(|c| c.name.as_str()),
    )?;
    unique(file, "items", pack.items.iter().map(|c| c.name.as_str()))?;
    unique(file, "allies", pack.allies.iter().map(|c| c.name.as_str()))?;
    unique(
        file,
        "stories",
        pack.stories.iter().map(|c| c.name.as_str()),
    )?;
    let mut cards: BTreeSet<&str> = BTreeSet::new();
    for (i, name) in pack
        .dread_cards
        .iter()
        .map(|c| c.name.as_str())
        .chain(pack.confidence.iter().map(|c| c.name.as_str()))
        .enumerate()
    {
        if !cards.insert(name) {
            return Err(ContentError::new(
                file,
                "confidence",
                format!("card {i}: `{name}` is both a Dread card and a Confidence card, or appears twice; the Investigation deck tells cards by name"),
            ));
        }
    }
    if pack.characters.len() < FULL_TABLE {
        return Err(ContentError::new(
            file,
            "characters",
            format!("a box needs at least {FULL_TABLE} characters"),
        ));
    }
    for (i, c) in pack.characters.iter().enumerate() {
        if !c.icons.iter().all(|i| i.primary()) || c.icons[0] == c.icons[1] {
            return Err(ContentError::new(
                file,
                format!("characters[{i}].icons"),
                "a sheet has two different primary icons (Strength, Charm, Guile, Spirit, Lore, Courage) besides its Wild",
            ));
        }
        if c.personality.len() != PERSONALITY {
            return Err(ContentError::new(
                file,
                format!("characters[{i}].personality"),
                format!("a Personality deck has {PERSONALITY} cards"),
            ));
        }
        let traumas = c
            .personality
            .iter()
            .filter(|p| p.kind == Trait::Trauma)
            .count();
        if traumas != 1 {
            return Err(ContentError::new(
                file,
                format!("characters[{i}].personality"),
                "a Personality deck has exactly one Trauma",
            ));
        }
    }
    for tier in [1u8, 2] {
        let n = pack.dread_cards.iter().filter(|c| c.tier == tier).count();
        // Four placeholders start the piles, so at most 20 Dread cards are
        // dealt in a chapter.
        if n < LOCATIONS - 4 {
            return Err(ContentError::new(
                file,
                "dread_cards",
                format!("a box needs at least 20 Tier {tier} Dread cards, not {n}"),
            ));
        }
    }
    for (i, c) in pack.dread_cards.iter().enumerate() {
        if !(1..=2).contains(&c.tier) {
            return Err(ContentError::new(
                file,
                format!("dread_cards[{i}].tier"),
                "a tier is 1 or 2",
            ));
        }
        if c.icons.is_empty() || c.difficulty == 0 {
            return Err(ContentError::new(
                file,
                format!("dread_cards[{i}]"),
                "a Dread card has icons and a difficulty of at least 1",
            ));
        }
    }
    if pack.allies.len() < 9 {
        return Err(ContentError::new(
            file,
            "allies",
            "a box has nine Allies for two players",
        ));
    }
    if pack.items.len() < 8 {
        return Err(ContentError::new(
            file,
            "items",
            "a box needs at least 8 Items (two each to start, and a Supply of three)",
        ));
    }
    if pack.confidence.len() < 5 {
        return Err(ContentError::new(
            file,
            "confidence",
            "a box needs at least 5 Confidence cards (the easiest start)",
        ));
    }
    if pack.action_die.len() != 6 || pack.action_die.iter().all(|&f| f == 0) {
        return Err(ContentError::new(
            file,
            "action_die",
            "an Action die has six faces and at least one fist",
        ));
    }
    if pack.trauma_die.len() != 6 {
        return Err(ContentError::new(
            file,
            "trauma_die",
            "the Trauma die has six faces",
        ));
    }
    if pack.stories.is_empty() {
        return Err(ContentError::new(
            file,
            "stories",
            "a box has at least one story",
        ));
    }
    for (s, story) in pack.stories.iter().enumerate() {
        validate_story(story, &format!("stories[{s}]"), file)?;
    }
    Ok(())
}

fn validate_story(story: &Story, at: &str, file: &str) -> Result<(), ContentError> {
    if story.chapters.is_empty() || story.chapters.len() > 2 {
        return Err(ContentError::new(
            file,
            format!("{at}.chapters"),
            "a story has one or two chapters",
        ));
    }
    let mut letter = None::<char>;
    let last_chapter = story.chapters.len() - 1;
    for (c, chapter) in story.chapters.iter().enumerate() {
        let n = chapter.plots.len();
        if !(4..=PLACEHOLDERS).contains(&n) {
            return Err(ContentError::new(
                file,
                format!("{at}.chapters[{c}].plots"),
                format!("a chapter has 4 to {PLACEHOLDERS} Plot cards (one per area at least, one per placeholder at most)"),
            ));
        }
        for (p, plot) in chapter.plots.iter().enumerate() {
            let path = format!("{at}.chapters[{c}].plots[{p}]");
            if let Some(prev) = letter {
                if plot.letter <= prev {
                    return Err(ContentError::new(
                        file,
                        format!("{path}.letter"),
                        "Plot cards run in letter order through the story",
                    ));
                }
            }
            letter = Some(plot.letter);
            let last = c == last_chapter && p == n - 1;
            if plot.endgame != last {
                return Err(ContentError::new(
                    file,
                    format!("{path}.endgame"),
                    "the story's last Plot card, and only it, begins the Endgame",
                ));
            }
            if plot.endgame {
                continue;
            }
            if plot.tiers.is_empty() || plot.tiers[0].successes != 0 {
                return Err(ContentError::new(
                    file,
                    format!("{path}.tiers"),
                    "an outcome table starts at 0 successes",
                ));
            }
            if plot
                .tiers
                .windows(2)
                .any(|w| w[0].successes >= w[1].successes)
            {
                return Err(ContentError::new(
                    file,
                    format!("{path}.tiers"),
                    "outcome rows need more successes as they go",
                ));
            }
        }
    }
    if story.challenges.len() != CHALLENGES {
        return Err(ContentError::new(
            file,
            format!("{at}.challenges"),
            format!("a story has {CHALLENGES} Endgame Challenges"),
        ));
    }
    for (i, c) in story.challenges.iter().enumerate() {
        if c.icons.is_empty() || c.difficulty == 0 {
            return Err(ContentError::new(
                file,
                format!("{at}.challenges[{i}]"),
                "a challenge has icons and a difficulty of at least 1",
            ));
        }
    }
    Ok(())
}
