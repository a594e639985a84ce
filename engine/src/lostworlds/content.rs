//! Lost Worlds content: character sheets, picture books and the pack that holds them.
//!
//! A sheet lists a character's maneuvers (page, X conversion page, damage
//! modifier, colour). A book shows one character and is held by that
//! character's opponent: its odd pages are pictures, its even pages are
//! matrices from the holder's page and the book character's page to the
//! picture reached. [`validate`] checks a pack describes playable books and
//! names the file, JSON path and field at fault.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::error::ContentError;
use crate::lostworlds::restriction::{self, Restriction};

/// The colour a sheet prints beside a maneuver; restrictions name colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Orange,
    Red,
    Blue,
    Green,
    Yellow,
    Brown,
    Black,
    White,
}

impl Colour {
    pub const ALL: [Colour; 8] = [
        Colour::Orange,
        Colour::Red,
        Colour::Blue,
        Colour::Green,
        Colour::Yellow,
        Colour::Brown,
        Colour::Black,
        Colour::White,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Colour::Orange => "Orange",
            Colour::Red => "Red",
            Colour::Blue => "Blue",
            Colour::Green => "Green",
            Colour::Yellow => "Yellow",
            Colour::Brown => "Brown",
            Colour::Black => "Black",
            Colour::White => "White",
        }
    }

    /// The colour called `word`, in any case.
    pub fn parse(word: &str) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(word))
    }
}

/// Where the holder of a book stands relative to the book's character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Range {
    Close,
    Extended,
}

impl Range {
    pub fn words(self) -> &'static str {
        match self {
            Range::Close => "close range",
            Range::Extended => "extended range",
        }
    }
}

/// The category every extended-range maneuver belongs to.
pub const EXTENDED_RANGE: &str = "Extended Range";

/// One line of a character sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Maneuver {
    pub category: String,
    pub name: String,
    pub colour: Colour,
    /// The even matrix page the holder turns to in the opponent's book.
    pub page: u32,
    /// The extended-range conversion page; `None` for extended-range maneuvers.
    pub x: Option<u32>,
    /// The damage modifier added to a score.
    #[serde(rename = "mod")]
    pub modifier: i32,
    /// The sheet's star: this maneuver may score on two opponents.
    #[serde(default)]
    pub two_attacks: bool,
    /// The sheet's "+" column: how often experience has raised this
    /// modifier, carried from fight to fight with the sheet, since every
    /// modifier must be raised once before any is raised again.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub raised: u32,
}

impl Maneuver {
    /// "Down Swing Bash", "Extended Range Charge".
    pub fn full_name(&self) -> String {
        format!("{} {}", self.category, self.name)
    }

    /// Whether `text` is the full name in any letter case, read without
    /// writing the name out (choosing and restrictions ask it of every
    /// maneuver on a sheet).
    pub fn full_name_is(&self, text: &str) -> bool {
        let (text, category) = (text.as_bytes(), self.category.as_bytes());
        text.len() == category.len() + 1 + self.name.len()
            && text[..category.len()].eq_ignore_ascii_case(category)
            && text[category.len()] == b' '
            && text[category.len() + 1..].eq_ignore_ascii_case(self.name.as_bytes())
    }

    /// The words of the full name, in order.
    pub fn full_name_words(&self) -> impl Iterator<Item = &str> {
        self.category.split(' ').chain(self.name.split(' '))
    }

    pub fn is_extended(&self) -> bool {
        self.category.eq_ignore_ascii_case(EXTENDED_RANGE)
    }

    /// Whether this is Retrieve Weapon, the one way to end a lost weapon.
    pub fn retrieves_weapon(&self) -> bool {
        self.name.eq_ignore_ascii_case("retrieve weapon")
    }

    /// Whether the maneuver strikes with the weapon, so a fighter whose
    /// weapon is lost cannot do it: every swing, thrust, fake and Block and
    /// Strike, Wild Swing, Dislodge Weapon (it parries the other's weapon
    /// with one's own) and the extended-range Charge, swings and thrusts.
    /// Kicks, Blocks, Jumps and the extended-range Block and Close, Dodge
    /// and Jump Back need no weapon.
    pub fn wields_weapon(&self) -> bool {
        let category = |c: &str| self.category.eq_ignore_ascii_case(c);
        let name = |n: &str| self.name.eq_ignore_ascii_case(n);
        let name_starts = |p: &str| {
            self.name
                .as_bytes()
                .get(..p.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(p.as_bytes()))
        };
        if [
            "down swing",
            "side swing",
            "thrust",
            "block and strike",
            "fake",
        ]
        .into_iter()
        .any(category)
        {
            true
        } else if category("special") {
            name("wild swing") || name("dislodge weapon")
        } else if category("extended range") {
            name("charge") || name_starts("swing") || name_starts("thrust")
        } else {
            false
        }
    }
}

/// A character sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub sample: bool,
    pub height: i32,
    /// Maximum body points.
    pub body_points: i32,
    /// The most opponents this character may score on in one turn.
    pub attacks: u32,
    /// Ability points by category (`spell`, `tactics`, `luck`).
    #[serde(default)]
    pub abilities: BTreeMap<String, u32>,
    pub maneuvers: Vec<Maneuver>,
    /// Experience points carried from earlier fights.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub experience: u32,
    /// Body points of opponents defeated in earlier fights (advancement counts them).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub defeated_body_points: u32,
    /// Undead (a skeleton, a wraith): never regains consciousness.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undead: bool,
    /// A weapon the character can throw in a scenario's movement phase
    /// (club, dagger, hand axe, rock or spear).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thrown_weapon: Option<String>,
    /// The character card's Extended Range Damage Modifier, added to a
    /// thrown weapon's damage.
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub extended_range_damage: i32,
    /// The best regeneration its book shows (body points a turn); a
    /// scenario figure regenerates three times that in a movement phase.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub regeneration: u32,
    /// The most spell points its book restores in a turn; a scenario figure
    /// restores three times that in a movement phase, 2 at most.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spell_regeneration: u32,
    /// Regenerates by leaving for another plane (Airi, a Wraith): off the
    /// board for a movement phase, back with its starting body points.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dematerializes: bool,
    /// The damage its Touch does, as its book describes it: a dematerialized
    /// figure touches whoever ends the movement phase on its space.
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub touch_damage: i32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Character {
    /// The sheet without its maneuvers, for a view (the pack holds them),
    /// copied field by field so the maneuvers are never copied just to be
    /// dropped. The pattern names every field: one added is not forgotten.
    pub fn without_maneuvers(&self) -> Character {
        let Character {
            id,
            name,
            title,
            sample,
            height,
            body_points,
            attacks,
            abilities,
            maneuvers: _,
            experience,
            defeated_body_points,
            undead,
            thrown_weapon,
            extended_range_damage,
            regeneration,
            spell_regeneration,
            dematerializes,
            touch_damage,
        } = self;
        Character {
            id: id.clone(),
            name: name.clone(),
            title: title.clone(),
            sample: *sample,
            height: *height,
            body_points: *body_points,
            attacks: *attacks,
            abilities: abilities.clone(),
            maneuvers: Vec::new(),
            experience: *experience,
            defeated_body_points: *defeated_body_points,
            undead: *undead,
            thrown_weapon: thrown_weapon.clone(),
            extended_range_damage: *extended_range_damage,
            regeneration: *regeneration,
            spell_regeneration: *spell_regeneration,
            dematerializes: *dematerializes,
            touch_damage: *touch_damage,
        }
    }

    pub fn maneuver_at(&self, page: u32) -> Option<(usize, &Maneuver)> {
        self.maneuvers
            .iter()
            .enumerate()
            .find(|(_, m)| m.page == page)
    }

    /// A maneuver by its full name ("Extended Range Charge"), or by its
    /// short name where only one maneuver on the sheet bears it ("Charge",
    /// "Kick"), in any letter case.
    pub fn maneuver_named(&self, name: &str) -> Option<(usize, &Maneuver)> {
        let name = name.trim();
        let found = self.maneuvers.iter().enumerate();
        if let Some(full) = found.clone().find(|(_, m)| m.full_name_is(name)) {
            return Some(full);
        }
        let mut short = found.filter(|(_, m)| m.name.eq_ignore_ascii_case(name));
        match (short.next(), short.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    }

    /// Every maneuver's full name, in sheet order, for an error to list.
    /// " (did you mean `…`?)" for a maneuver name the sheet lacks.
    pub fn maneuver_hint(&self, name: &str) -> String {
        let names: Vec<String> = self.maneuvers.iter().map(Maneuver::full_name).collect();
        crate::suggest::did_you_mean(name, names.iter().map(String::as_str))
    }

    pub fn maneuver_names(&self) -> String {
        self.maneuvers
            .iter()
            .map(Maneuver::full_name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether the sheet marks some maneuvers as the only ones that may hit two.
    pub fn splits_attacks(&self) -> bool {
        self.maneuvers.iter().any(|m| m.two_attacks)
    }

    /// How many opponents `m` may score on in one turn.
    pub fn attacks_with(&self, m: &Maneuver) -> u32 {
        if self.splits_attacks() && !m.two_attacks {
            1
        } else {
            self.attacks.max(1)
        }
    }
}

/// A critical burst on a picture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Critical {
    /// A critical hit when the damage total reaches this.
    pub threshold: i32,
    /// Read to the hurt character.
    pub restriction: String,
}

/// The party mark on a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PartyMark {
    /// Another party member may take the pictured character's place.
    #[serde(rename = "P")]
    StepIn,
    /// Another party member may fire a spell or missile; restrictions stay.
    #[serde(rename = "P**")]
    Missile,
}

impl PartyMark {
    pub fn symbol(self) -> &'static str {
        match self {
            PartyMark::StepIn => "P",
            PartyMark::Missile => "P**",
        }
    }
}

/// The four kinds of fantasy card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    /// A martial art learnt at a school: played when a picture directs it.
    Tactic,
    /// A spell: played when a picture directs it.
    Spell,
    /// Fortune: one a turn, whenever its holder likes.
    Luck,
    /// Gear: once shown, in effect for the rest of the fight.
    Item,
}

impl CardKind {
    pub fn word(self) -> &'static str {
        match self {
            CardKind::Tactic => "tactic",
            CardKind::Spell => "spell",
            CardKind::Luck => "luck",
            CardKind::Item => "item",
        }
    }

    /// The sheet's ability points that pay for cards of this kind (items
    /// are the table's choice and cost none).
    pub fn ability(self) -> Option<&'static str> {
        match self {
            CardKind::Tactic => Some("tactics"),
            CardKind::Spell => Some("spell"),
            CardKind::Luck => Some("luck"),
            CardKind::Item => None,
        }
    }
}

fn is_zero_i(n: &i32) -> bool {
    *n == 0
}

/// What a card does, in a small vocabulary every card is written in.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Effect {
    /// Added to each score its holder lands (the next exchange; an item's,
    /// every exchange).
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub damage: i32,
    /// Taken off each blow landed on its holder, never below nothing.
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub armour: i32,
    /// Body points back at once, never above the sheet's.
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub heal: i32,
    /// Damage to one opponent as the next exchange resolves (a spell or a
    /// missile: it needs no score on a picture).
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub strike: i32,
    /// A spell's damage or armour lasting this many exchanges (rounds)
    /// from the next; 0 or 1: the next only.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rounds: u32,
}

/// The most any one effect of a card may print.
pub const EFFECT_MAX: i32 = 9;

/// A fantasy card. The pack's are our own samples: the rule text names the
/// kinds and how they are played, not any card's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: CardKind,
    /// Its difficulty, paid from the sheet's points of its kind.
    #[serde(default)]
    pub points: u32,
    pub effect: Effect,
    /// The card's own words.
    pub text: String,
    #[serde(default)]
    pub sample: bool,
}

/// An odd parchment: what the holder sees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Picture {
    pub title: String,
    /// The picture told in the story's voice, `{holder}` standing for whoever
    /// holds the book ("{holder} catches Brakka's weapon arm"); the story
    /// falls back on the title when a book has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    pub range: Range,
    /// The holder hit the book's character for this score (before modifiers).
    #[serde(default)]
    pub score: Option<i32>,
    #[serde(default)]
    pub critical: Option<Critical>,
    /// Read by the holder to the book's character for their next move.
    pub tell: String,
    #[serde(default)]
    pub party: Option<PartyMark>,
    /// The book's character has just used a tactic or spell: it reveals one
    /// of its cards of that kind (rules 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<CardKind>,
    /// What the picture shows of the holder ("off balance", "down"), for
    /// the conditionals a fighter reads: "If I am pushed off balance go to
    /// p. 19" sends the listener there when the reader's own picture shows
    /// the reader so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holder: Vec<String>,
}

/// The book that shows one character, held by that character's opponent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Book {
    pub character: String,
    #[serde(default)]
    pub sample: bool,
    pub pictures: BTreeMap<u32, Picture>,
    /// Holder's page -> book character's page -> picture reached.
    pub matrices: BTreeMap<u32, BTreeMap<u32, u32>>,
}

impl Book {
    /// The picture the holder reaches by turning to `holder_page` when the
    /// book's character turned to `own_page`.
    pub fn look_up(&self, holder_page: u32, own_page: u32) -> Option<u32> {
        self.matrices.get(&holder_page)?.get(&own_page).copied()
    }
}

/// A content pack: sheets and books.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pack {
    pub pack: String,
    pub version: u32,
    pub characters: Vec<Character>,
    #[serde(default)]
    pub books: Vec<Book>,
    /// The fantasy cards a fighter may take into a fight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<Card>,
    /// Miniatures scenarios on a map (see `scenario`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scenarios: Vec<crate::lostworlds::field::content::Scenario>,
}

impl Pack {
    /// A character by id, in any letter case.
    pub fn character(&self, id: &str) -> Option<&Character> {
        self.characters.iter().find(|c| c.id == id).or_else(|| {
            self.characters
                .iter()
                .find(|c| c.id.eq_ignore_ascii_case(id))
        })
    }

    pub fn book(&self, character: &str) -> Option<&Book> {
        self.books.iter().find(|b| b.character == character)
    }

    /// A scenario by id, in any letter case.
    pub fn scenario(&self, id: &str) -> Option<&crate::lostworlds::field::content::Scenario> {
        self.scenarios
            .iter()
            .find(|s| s.id.eq_ignore_ascii_case(id))
    }
}

/// The picture every duel opens at: both fighters at extended range.
pub const OPENING_PICTURE: u32 = 57;
/// Close-range matrix pages.
pub const CLOSE_PAGES: std::ops::RangeInclusive<u32> = 2..=48;
/// Extended-range matrix pages.
pub const EXTENDED_PAGES: std::ops::RangeInclusive<u32> = 50..=64;
/// The ability categories a sheet may carry besides body points.
pub const ABILITIES: [&str; 3] = ["spell", "tactics", "luck"];

/// The largest score a picture may print. A score is a small number in a
/// burst on a picture (the sample books print 1 to 5); 20 leaves room for
/// any book and keeps every damage sum far from overflowing.
pub const SCORE_MAX: i32 = 20;
/// The largest number a critical burst may print (the samples print 4 to 8).
pub const CRITICAL_MAX: i32 = 30;
/// A sheet's damage modifier lies within -20..=+20 (the samples: -6 to +3).
pub const MODIFIER_MAX: i32 = 20;
/// The tallest height a sheet may print (the rule text's fighters: 3 to 6).
pub const HEIGHT_MAX: i32 = 20;
/// The most body points a sheet may print (the samples: 10 and 12).
pub const BODY_POINTS_MAX: i32 = 100;
/// The most opponents a sheet may let a character score on at once.
pub const ATTACKS_MAX: u32 = 9;
/// The most points a sheet may print in one ability (the rule text: 6, 8).
pub const ABILITY_MAX: u32 = 99;
/// The most experience (or defeated body points) a sheet may carry in.
pub const EXPERIENCE_MAX: u32 = 1_000_000;

/// Checks every card of a pack: one id each, a name and words, points a
/// sheet could pay, and an effect within what a card prints.
fn validate_cards(pack: &Pack, file: &str) -> Result<(), ContentError> {
    let mut ids = BTreeSet::new();
    for (i, c) in pack.cards.iter().enumerate() {
        let at = format!("cards[{i}]");
        if c.id.trim().is_empty() || c.name.trim().is_empty() || c.text.trim().is_empty() {
            return Err(ContentError::new(
                file,
                at,
                "a card needs an id, a name and its text",
            ));
        }
        if !ids.insert(c.id.as_str()) {
            return Err(ContentError::new(
                file,
                format!("{at}.id"),
                format!("card `{}` appears twice", c.id),
            ));
        }
        if c.points > ABILITY_MAX {
            return Err(ContentError::new(
                file,
                format!("{at}.points"),
                format!("a card costs at most {ABILITY_MAX} points"),
            ));
        }
        let e = &c.effect;
        for (field, v) in [
            ("damage", e.damage),
            ("armour", e.armour),
            ("heal", e.heal),
            ("strike", e.strike),
        ] {
            if !(0..=EFFECT_MAX).contains(&v) {
                return Err(ContentError::new(
                    file,
                    format!("{at}.effect.{field}"),
                    format!("an effect is 0 to {EFFECT_MAX}"),
                ));
            }
        }
        if e.rounds > 9 || (e.rounds > 1 && e.damage == 0 && e.armour == 0) {
            return Err(ContentError::new(
                file,
                format!("{at}.effect.rounds"),
                "a card's damage or armour lasts 0 to 9 rounds (and only those last)",
            ));
        }
        if *e == Effect::default() {
            return Err(ContentError::new(
                file,
                format!("{at}.effect"),
                "a card does something: give damage, armour, heal or strike",
            ));
        }
    }
    Ok(())
}

/// Checks every sheet, book and card of a pack.
pub fn validate(pack: &Pack, file: &str) -> Result<(), ContentError> {
    validate_cards(pack, file)?;
    let sheets: BTreeSet<&str> = pack.characters.iter().map(|c| c.id.as_str()).collect();
    let mut scenario_ids = BTreeSet::new();
    for (i, sc) in pack.scenarios.iter().enumerate() {
        let at = format!("scenarios[{i}]");
        if !scenario_ids.insert(sc.id.to_ascii_lowercase()) {
            return Err(ContentError::new(
                file,
                format!("{at}.id"),
                format!("scenario `{}` appears twice", sc.id),
            ));
        }
        crate::lostworlds::field::content::validate(sc, &sheets, file, &at)?;
    }
    if pack.characters.is_empty() {
        return Err(ContentError::new(
            file,
            "characters",
            "a pack needs at least one character sheet",
        ));
    }
    let mut ids = BTreeSet::new();
    for (i, c) in pack.characters.iter().enumerate() {
        if !ids.insert(c.id.as_str()) {
            return Err(ContentError::new(
                file,
                format!("characters[{i}].id"),
                format!("character `{}` appears twice", c.id),
            ));
        }
        validate_character(c, file, &format!("characters[{i}]"))?;
    }
    let mut shown = BTreeSet::new();
    for (i, b) in pack.books.iter().enumerate() {
        let at = format!("books[{i}]");
        let Some(c) = pack.character(&b.character) else {
            return Err(ContentError::new(
                file,
                format!("{at}.character"),
                format!("no character sheet `{}` in the pack", b.character),
            ));
        };
        if !shown.insert(b.character.as_str()) {
            return Err(ContentError::new(
                file,
                format!("{at}.character"),
                format!("two books show `{}`", b.character),
            ));
        }
        validate_book(b, c, pack, file, &at)?;
    }
    Ok(())
}

fn validate_character(c: &Character, file: &str, at: &str) -> Result<(), ContentError> {
    if c.id.trim().is_empty() {
        return Err(ContentError::new(
            file,
            format!("{at}.id"),
            "a character needs an id",
        ));
    }
    if let Some(w) = &c.thrown_weapon {
        if crate::lostworlds::field::tables::weapon_range(w).is_none() {
            return Err(ContentError::new(
                file,
                format!("{at}.thrown_weapon"),
                format!("`{w}` is no throwing weapon the rules know: club, dagger, hand axe, rock or spear"),
            ));
        }
    }
    if c.regeneration > 100 {
        return Err(ContentError::new(
            file,
            format!("{at}.regeneration"),
            "regeneration is 0 to 100 body points",
        ));
    }
    if !(0..=20).contains(&c.touch_damage) {
        return Err(ContentError::new(
            file,
            format!("{at}.touch_damage"),
            "touch_damage is 0 to 20 body points",
        ));
    }
    if c.spell_regeneration > 100 {
        return Err(ContentError::new(
            file,
            format!("{at}.spell_regeneration"),
            "spell_regeneration is 0 to 100 spell points",
        ));
    }
    if !(-20..=20).contains(&c.extended_range_damage) {
        return Err(ContentError::new(
            file,
            format!("{at}.extended_range_damage"),
            "a damage modifier is -20 to +20",
        ));
    }
    if !(1..=HEIGHT_MAX).contains(&c.height) {
        return Err(ContentError::new(
            file,
            format!("{at}.height"),
            format!("height must be 1 to {HEIGHT_MAX}, not {}", c.height),
        ));
    }
    if !(1..=BODY_POINTS_MAX).contains(&c.body_points) {
        return Err(ContentError::new(
            file,
            format!("{at}.body_points"),
            format!(
                "body points must be 1 to {BODY_POINTS_MAX}, not {}",
                c.body_points
            ),
        ));
    }
    if !(1..=ATTACKS_MAX).contains(&c.attacks) {
        return Err(ContentError::new(
            file,
            format!("{at}.attacks"),
            format!("attacks must be 1 to {ATTACKS_MAX}, not {}", c.attacks),
        ));
    }
    for (field, n) in [
        ("experience", c.experience),
        ("defeated_body_points", c.defeated_body_points),
    ] {
        if n > EXPERIENCE_MAX {
            return Err(ContentError::new(
                file,
                format!("{at}.{field}"),
                format!("{field} must be 0 to {EXPERIENCE_MAX}, not {n}"),
            ));
        }
    }
    for (k, &points) in &c.abilities {
        if !ABILITIES.contains(&k.as_str()) {
            return Err(ContentError::new(
                file,
                format!("{at}.abilities.{k}"),
                format!("unknown ability `{k}`: use spell, tactics or luck"),
            ));
        }
        if points > ABILITY_MAX {
            return Err(ContentError::new(
                file,
                format!("{at}.abilities.{k}"),
                format!("ability points must be 0 to {ABILITY_MAX}, not {points}"),
            ));
        }
    }
    if c.maneuvers.is_empty() {
        return Err(ContentError::new(
            file,
            format!("{at}.maneuvers"),
            "a sheet needs maneuvers",
        ));
    }
    let mut pages = BTreeSet::new();
    let mut names = BTreeSet::new();
    for (j, m) in c.maneuvers.iter().enumerate() {
        let mat = format!("{at}.maneuvers[{j}]");
        if !names.insert(m.full_name().to_lowercase()) {
            return Err(ContentError::new(
                file,
                format!("{mat}.name"),
                format!("`{}` appears twice", m.full_name()),
            ));
        }
        if !(-MODIFIER_MAX..=MODIFIER_MAX).contains(&m.modifier) {
            return Err(ContentError::new(
                file,
                format!("{mat}.mod"),
                format!(
                    "a damage modifier is -{MODIFIER_MAX} to +{MODIFIER_MAX}, not {}",
                    m.modifier
                ),
            ));
        }
        if !pages.insert(m.page) {
            return Err(ContentError::new(
                file,
                format!("{mat}.page"),
                format!("page {} is used twice", m.page),
            ));
        }
        let want = if m.is_extended() {
            EXTENDED_PAGES
        } else {
            CLOSE_PAGES
        };
        if m.page % 2 != 0 || !want.contains(&m.page) {
            return Err(ContentError::new(
                file,
                format!("{mat}.page"),
                format!(
                    "{} needs an even page in {}..{}, not {}",
                    m.full_name(),
                    want.start(),
                    want.end(),
                    m.page
                ),
            ));
        }
        match (m.is_extended(), m.x) {
            (true, Some(_)) => {
                return Err(ContentError::new(
                    file,
                    format!("{mat}.x"),
                    "extended-range maneuvers have no X page (use null)",
                ))
            }
            (false, None) => {
                return Err(ContentError::new(
                    file,
                    format!("{mat}.x"),
                    "close-range maneuvers need an X page in 50..64",
                ))
            }
            (false, Some(x)) if x % 2 != 0 || !EXTENDED_PAGES.contains(&x) => {
                return Err(ContentError::new(
                    file,
                    format!("{mat}.x"),
                    format!("X page {x} is not an even page in 50..64"),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

fn validate_book(
    b: &Book,
    c: &Character,
    pack: &Pack,
    file: &str,
    at: &str,
) -> Result<(), ContentError> {
    for (&p, pic) in &b.pictures {
        let pat = format!("{at}.pictures.{p}");
        if p % 2 == 0 || !(1..=63).contains(&p) {
            return Err(ContentError::new(
                file,
                pat,
                "pictures are odd parchments 1..63",
            ));
        }
        if let Some(s) = pic.score.filter(|s| !(0..=SCORE_MAX).contains(s)) {
            return Err(ContentError::new(
                file,
                format!("{pat}.score"),
                format!("a score printed on a picture is 0 to {SCORE_MAX}, not {s}"),
            ));
        }
        let tell = check_restriction(&pic.tell, pack, file, format!("{pat}.tell"))?;
        for clause in &tell.clauses {
            // Read by the holder, so the listener turns in the holder's book:
            // any book of the pack may be that one.
            if let restriction::Clause::If { picture, .. } = clause {
                if let Some(other) = pack
                    .books
                    .iter()
                    .find(|o| !o.pictures.contains_key(picture))
                {
                    return Err(ContentError::new(
                        file,
                        format!("{pat}.tell"),
                        format!(
                            "it sends the listener to picture {picture}, which the book of `{}` does not have",
                            other.character
                        ),
                    ));
                }
            }
        }
        if let Some(i) = pic.holder.iter().position(|h| h.trim().is_empty()) {
            return Err(ContentError::new(
                file,
                format!("{pat}.holder[{i}]"),
                "a situation the picture shows of its holder is a few words, not blank",
            ));
        }
        if let Some(crit) = &pic.critical {
            if pic.score.is_none() {
                return Err(ContentError::new(
                    file,
                    format!("{pat}.critical"),
                    "a critical burst needs a score on the same picture",
                ));
            }
            if !(1..=CRITICAL_MAX).contains(&crit.threshold) {
                return Err(ContentError::new(
                    file,
                    format!("{pat}.critical.threshold"),
                    format!(
                        "a critical burst prints 1 to {CRITICAL_MAX}, not {}",
                        crit.threshold
                    ),
                ));
            }
            check_restriction(
                &crit.restriction,
                pack,
                file,
                format!("{pat}.critical.restriction"),
            )?;
        }
    }
    if !b.pictures.contains_key(&OPENING_PICTURE) {
        return Err(ContentError::new(
            file,
            format!("{at}.pictures"),
            "every book opens at picture 57",
        ));
    }
    for (&page, row) in &b.matrices {
        let mat = format!("{at}.matrices.{page}");
        if page % 2 != 0 || !(2..=64).contains(&page) {
            return Err(ContentError::new(
                file,
                mat,
                "matrices are even parchments 2..64",
            ));
        }
        for m in &c.maneuvers {
            let Some(&to) = row.get(&m.page) else {
                return Err(ContentError::new(
                    file,
                    format!("{mat}.{}", m.page),
                    format!(
                        "no entry for {}'s {} (page {})",
                        c.name,
                        m.full_name(),
                        m.page
                    ),
                ));
            };
            if !b.pictures.contains_key(&to) {
                return Err(ContentError::new(
                    file,
                    format!("{mat}.{}", m.page),
                    format!("picture {to} is not in the book"),
                ));
            }
        }
    }
    Ok(())
}

/// Parses a restriction and checks every word it names means something in the pack.
fn check_restriction(
    text: &str,
    pack: &Pack,
    file: &str,
    path: String,
) -> Result<Restriction, ContentError> {
    let r = Restriction::parse(text)
        .map_err(|e| ContentError::new(file, path.clone(), e.to_string()))?;
    for term in r.terms() {
        let known = restriction::is_category_term(&term)
            || pack
                .characters
                .iter()
                .flat_map(|c| &c.maneuvers)
                .any(|m| restriction::term_admits(&term, m));
        if !known {
            return Err(ContentError::new(
                file,
                path,
                format!("`{term}` is no colour, category or maneuver of this pack"),
            ));
        }
    }
    Ok(r)
}
