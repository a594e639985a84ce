//! The folded state of a Lost Worlds duel.
//!
//! Seat 0 is the lone fighter; every other seat fights seat 0 only. Each seat
//! fields one character at a time (its active party member), sees one picture
//! per opponent (the picture it reached in that opponent's book), and carries
//! the orders read to it: next-turn clauses, lasting clauses (rest of the
//! combat, cumulative penalties) and a lost weapon.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tabletape_events::Seat;

use crate::rules::Viewer;

use crate::lostworlds::actions::{Condition, Fall, Outcome};
use crate::lostworlds::content::{Book, Card, CardKind, Character, PartyMark, Range};
use crate::lostworlds::options::BooksMode;
use crate::lostworlds::restriction::{Clause, Restriction};

/// One clause read to a fighter, with who read it and the words as read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Told {
    /// The opponent who read it; `None` for the opening order.
    pub from: Option<Seat>,
    pub text: String,
    pub clause: Clause,
}

/// Every order in force on one seat.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Orders {
    /// Clauses for the next maneuver only (do only/do no, bonuses).
    pub next_turn: Vec<Told>,
    /// Clauses for the rest of the combat (do only/do no, penalties).
    pub lasting: Vec<Told>,
    /// The weapon is lost: this clause holds until the weapon is retrieved.
    pub weapon: Option<Told>,
    /// Sentences read that the engine does not enforce.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Orders {
    /// Files every clause of `r` where it belongs.
    pub fn read(&mut self, from: Option<Seat>, r: &Restriction) {
        for clause in &r.clauses {
            let told = Told {
                from,
                text: r.text.clone(),
                clause: clause.clone(),
            };
            match clause {
                Clause::Free => {}
                Clause::WeaponRetrieved => self.weapon = None,
                Clause::Note { text } => self.notes.push(text.clone()),
                Clause::Only { span, .. } | Clause::No { span, .. } => match span {
                    crate::lostworlds::restriction::Span::NextTurn => self.next_turn.push(told),
                    crate::lostworlds::restriction::Span::RestOfCombat => self.lasting.push(told),
                    crate::lostworlds::restriction::Span::UntilWeaponRetrieved => {
                        self.weapon = Some(told)
                    }
                },
                Clause::Bonus { .. } | Clause::If { .. } => self.next_turn.push(told),
                Clause::Penalty { .. } => self.lasting.push(told),
            }
        }
    }

    /// The do-only/do-no clauses in the order they are obeyed: the lost
    /// weapon, then lasting orders, then next-turn orders.
    pub fn layers(&self) -> Vec<&Told> {
        self.weapon
            .iter()
            .chain(&self.lasting)
            .chain(&self.next_turn)
            .filter(|t| matches!(t.clause, Clause::Only { .. } | Clause::No { .. }))
            .collect()
    }

    /// Whether the weapon is lost (an order holds until it is retrieved).
    pub fn disarmed(&self) -> bool {
        self.weapon.is_some()
    }

    /// The conditionals read by `from` for this exchange: the situation
    /// and the picture to turn to.
    pub fn conditionals(&self, from: Seat) -> impl Iterator<Item = (&str, u32)> {
        self.next_turn
            .iter()
            .filter(move |t| t.from == Some(from))
            .filter_map(|t| match &t.clause {
                Clause::If { situation, picture } => Some((situation.as_str(), *picture)),
                _ => None,
            })
    }

    /// Every distinct text in force, for display.
    pub fn texts(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for t in self
            .weapon
            .iter()
            .chain(&self.lasting)
            .chain(&self.next_turn)
        {
            if !out.contains(&t.text) {
                out.push(t.text.clone());
            }
        }
        out
    }
}

/// What a seat sees of one opponent: the picture it reached in their book.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sight {
    pub picture: u32,
    /// Left out when the table recorded the picture without its title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub range: Range,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<PartyMark>,
    /// The picture lets the seat it shows reveal a card of this kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<CardKind>,
}

/// A fantasy card a fighter took into the fight (its id in the pack).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldCard {
    pub id: String,
    /// Played already: a card is played once a combat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub played: bool,
}

/// A played card's damage or armour, in force for one exchange or (an
/// item's) for the rest of the fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Boost {
    pub card: String,
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub damage: i32,
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub armour: i32,
    /// The exchange it works in; none: every exchange from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<u32>,
    /// A spell lasting several rounds: the last exchange it works in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<u32>,
}

impl Boost {
    /// Whether it is in force in exchange `number`.
    pub fn works(&self, number: u32) -> bool {
        self.exchange
            .is_none_or(|e| e <= number && number <= self.until.unwrap_or(e))
    }

    /// Whether it still has exchanges to come after `number`.
    pub fn lasts_past(&self, number: u32) -> bool {
        self.exchange
            .is_none_or(|e| self.until.unwrap_or(e) > number)
    }
}

fn is_zero_i(n: &i32) -> bool {
    *n == 0
}

/// A spell or missile on its way: it lands as exchange `exchange` resolves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strike {
    pub card: String,
    /// The party member who cast or threw it.
    pub member: usize,
    pub target: Seat,
    pub damage: i32,
    pub exchange: u32,
}

/// One character of a seat's party, with the sheet as improved so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    /// Shared, not copied, when the state is cloned (a clone per decision
    /// would otherwise copy the whole sheet); copied on write by the one
    /// change play makes to it, an improvement.
    pub sheet: Arc<Character>,
    pub body: i32,
    pub condition: Condition,
    /// Advancements earned and not yet spent.
    pub advancements: u32,
    /// The fantasy cards taken into the fight (rules 3); a seat sees
    /// another's only once played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<HeldCard>,
}

impl Fighter {
    pub fn new(sheet: Character) -> Fighter {
        Fighter {
            body: sheet.body_points,
            condition: Condition::Fit,
            advancements: 0,
            cards: Vec::new(),
            sheet: Arc::new(sheet),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatStatus {
    Fighting,
    /// The active fighter is unconscious or dead.
    Down,
    Escaped,
    /// A scenario's figure on the board, in no fight this combat phase.
    Aside,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    pub player: String,
    pub party: Vec<Fighter>,
    pub active: usize,
    pub status: SeatStatus,
    /// Announced an escape; the next exchange decides it.
    pub escaping: bool,
    /// Has maneuvered from close range out to extended range from every
    /// opponent and stayed there: the first step of an escape.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
    pub orders: Orders,
    /// Opponent seat -> the picture this seat sees of them.
    pub sights: BTreeMap<Seat, Sight>,
    /// The exchange in which this seat last used a party mark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party_turn: Option<u32>,
    /// Played cards' damage and armour in force.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boosts: Vec<Boost>,
    /// Spells and missiles this seat sent that land next exchange.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strikes: Vec<Strike>,
    /// The exchanges in which this seat last played a luck card, and a
    /// card a picture directed it to reveal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_turn: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_turn: Option<u32>,
}

impl SeatState {
    pub fn fighter(&self) -> &Fighter {
        &self.party[self.active]
    }

    pub fn name(&self) -> &str {
        &self.fighter().sheet.name
    }
}

/// A maneuver held until every seat has chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "held", rename_all = "snake_case")]
pub enum Pending {
    Committed {
        hash: String,
        /// The public nonce the sealing device mixed into its salt.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nonce: Option<String>,
    },
    Chosen {
        page: u32,
        targets: Vec<Seat>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Fighting,
    /// The fight is over; experience is being spent.
    Aftermath,
    Closed,
}

/// A fighter who scored on more opponents than its attacks, choosing whom
/// the blows hit now that the pages are turned (rules 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Awaiting {
    pub seat: Seat,
    /// The opponents its pictures show it scoring on.
    pub scored: Vec<Seat>,
    /// How many of them it may hit.
    pub attacks: u32,
}

fn no_cards(cards: &Arc<BTreeMap<String, Card>>) -> bool {
    cards.is_empty()
}

fn second_rules() -> u32 {
    2
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The version of the rules the fight was recorded under (a state saved
    /// before the field existed was rules 2 at most: nothing it gates
    /// existed before).
    #[serde(default = "second_rules")]
    pub rules: u32,
    pub books_mode: BooksMode,
    pub exchange_limit: u32,
    /// The books in play by character id (full mode only). Shared, not
    /// copied, when the state is cloned: books never change in play, and a
    /// clone per decision (and per cached head) would otherwise copy them all.
    pub books: BTreeMap<String, Arc<Book>>,
    pub seats: Vec<SeatState>,
    /// Exchanges resolved so far.
    pub exchanges: u32,
    pub pending: BTreeMap<Seat, Pending>,
    /// The seq of the last event after which nothing was held: a choice made
    /// in a later event belongs to the exchange still open. Bookkeeping for
    /// redaction, left out of every view. A snapshot from before it existed
    /// reads 0, which hides every choice until the next exchange resolves.
    #[serde(default)]
    pub settled: u64,
    /// Everyone who fell, for the experience at the end.
    pub falls: Vec<Fall>,
    pub phase: Phase,
    pub outcome: Option<Outcome>,
    /// The pack's fantasy cards by id (rules 3). Shared, not copied, when
    /// the state is cloned, like the books: they never change in play.
    #[serde(default, skip_serializing_if = "no_cards")]
    pub cards: Arc<BTreeMap<String, Card>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub awaiting: Option<Awaiting>,
    /// A scenario's board, when the fight is one (see `field`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<Box<crate::lostworlds::field::state::Field>>,
    /// A scenario's figures by the player seat that controls each, when
    /// some player controls more than one (option `controls`). Empty: each
    /// figure is its own player's, seat for seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<Seat>,
}

impl State {
    /// The seats a seat fights that are still in the fight.
    pub fn foes(&self, seat: Seat) -> Vec<Seat> {
        let fighting = |s: Seat| self.seats[s as usize].status == SeatStatus::Fighting;
        if let Some(field) = &self.field {
            // A scenario's fighters fight whom the combat phase engaged.
            return field
                .engaged
                .get(&seat)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&s| fighting(s))
                .collect();
        }
        if seat == 0 {
            (1..self.seats.len() as Seat)
                .filter(|&s| fighting(s))
                .collect()
        } else if fighting(0) {
            vec![0]
        } else {
            vec![]
        }
    }

    pub fn fighting_seats(&self) -> Vec<Seat> {
        (0..self.seats.len() as Seat)
            .filter(|&s| self.seats[s as usize].status == SeatStatus::Fighting)
            .collect()
    }

    pub fn seat(&self, seat: Seat) -> &SeatState {
        &self.seats[seat as usize]
    }

    /// The player seat that controls a figure (in a duel, and in a scenario
    /// with a player per figure, the figure's own seat number).
    pub fn controller(&self, figure: Seat) -> Seat {
        self.controllers
            .get(figure as usize)
            .copied()
            .unwrap_or(figure)
    }

    /// The figures a player seat controls, in the scenario's order.
    pub fn figures_of(&self, player: Seat) -> Vec<Seat> {
        (0..self.seats.len() as Seat)
            .filter(|&f| self.controller(f) == player)
            .collect()
    }

    /// Whether `viewer` may see what a figure keeps to itself (its held
    /// choice, its cards): the owner, and the player who controls it.
    pub fn sees(&self, viewer: Viewer, figure: Seat) -> bool {
        viewer.sees(self.controller(figure))
    }

    /// The figure an action of `by`'s is for when it names none: the
    /// player's only figure (none when it controls several, or is the owner).
    pub fn only_figure(&self, by: Option<Seat>) -> Option<Seat> {
        match self.figures_of(by?)[..] {
            [f] => Some(f),
            _ => None,
        }
    }

    /// A fighter as the story names them: the character's name, with the
    /// player's in brackets when another fighter in the game bears the same
    /// name ("Brakka (Bo)"), so two sample opponents can be told apart.
    pub fn fighter_name(&self, seat: Seat, member: usize) -> String {
        let st = self.seat(seat);
        let name = &st.party[member].sheet.name;
        let bearers = self
            .seats
            .iter()
            .flat_map(|s| &s.party)
            .filter(|f| &f.sheet.name == name)
            .count();
        if bearers > 1 {
            // Two of one name under one player are told apart by number.
            let alike: Vec<Seat> = (0..self.seats.len() as Seat)
                .filter(|&s| {
                    self.seat(s).player == st.player
                        && self.seat(s).party.iter().any(|f| &f.sheet.name == name)
                })
                .collect();
            match alike.iter().position(|&s| s == seat) {
                Some(n) if alike.len() > 1 => format!("{name} ({}, {})", st.player, n + 1),
                _ => format!("{name} ({})", st.player),
            }
        } else {
            name.clone()
        }
    }

    /// The seat's active fighter, named as in [`State::fighter_name`].
    pub fn seat_name(&self, seat: Seat) -> String {
        self.fighter_name(seat, self.seat(seat).active)
    }

    /// Whether some seat fields more than one character.
    pub fn has_parties(&self) -> bool {
        self.seats.iter().any(|s| s.party.len() > 1)
    }
}
