//! What Lost Worlds players do (actions) and what it meant (facts).
//!
//! Actions are JSON tagged by `"type"` in snake_case. A `seat` left out means
//! the seat that is acting. Facts are past-tense and carry everything `apply`
//! needs, so folding never looks a page up or reads a restriction again.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tabletape_events::Seat;

use crate::lostworlds::field::content::Hex;
use crate::lostworlds::field::state::Position;
use crate::lostworlds::field::tables::{Footing, Pounce, Recovery};

use crate::lostworlds::content::{CardKind, Colour, Critical, Effect, PartyMark, Range};
use crate::lostworlds::restriction::Restriction;

/// What one seat saw in the opponent's physical book (record mode).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seen {
    /// Which opponent's book; may be left out when the seat has one opponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<Seat>,
    #[serde(default)]
    pub picture: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub range: Option<Range>,
    /// The score printed on the picture, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// The critical burst printed on the picture, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical: Option<Critical>,
    /// The restriction read out.
    #[serde(default)]
    pub tell: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<PartyMark>,
    /// The picture directs the opponent to reveal a card of this kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<CardKind>,
}

/// One seat's maneuver in an `exchange`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub seat: Seat,
    /// The maneuver's page on the sheet (or give `maneuver`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// The maneuver's full name ("Down Swing Bash"); checked against `page` when both are given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maneuver: Option<String>,
    /// Opponents to score on first when more scores land than attacks allow.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<Seat>,
    /// Record mode: what the seat saw, one entry per opponent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seen: Vec<Seen>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Chooses a maneuver in the clear; the exchange resolves once every seat has chosen.
    Choose {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        page: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        maneuver: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<Seat>,
    },
    /// Seals a choice: `hash` is the lowercase hex SHA-256 of the UTF-8 text
    /// `"<page>:<salt>"` (page in decimal, as in `"36:pepper"`). `nonce`, if
    /// given, is public: the web page makes its salt from the seat's link
    /// and this nonce, so that any device holding the link finds the salt
    /// again (the seal is not stranded in one browser).
    Commit {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        hash: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nonce: Option<String>,
    },
    /// Opens a sealed choice. Both `page` and `salt` are required; they are
    /// optional here only so that a copy shown to another seat can leave
    /// them out (the salt with the public commitment would give the page).
    Reveal {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        page: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<Seat>,
    },
    /// Every seat's maneuver at once, as a real table calls them out.
    Exchange { maneuvers: Vec<Move> },
    /// Announces an escape (the fighter must be at extended range).
    Escape {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// On a (P) picture: another party member takes the fighter's place.
    StepIn {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The character id of the member stepping in.
        member: String,
    },
    /// On a (P**) picture: another party member fires a spell or missile.
    FireMissile {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        member: String,
        /// What was fired, in the table's words (rules 1 and 2; from rules
        /// 3 the `card` says it).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        what: String,
        /// The member's spell or item card fired (rules 3): one that strikes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        /// The opponent it flies at; may be left out with one opponent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Seat>,
    },
    /// Before the first exchange: the fantasy cards a fighter takes into the
    /// fight (rules 3), paid from the sheet's points of each kind; items are
    /// the table's choice. Given again, it replaces the choice.
    SelectCards {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The party member (default: the one fighting).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        member: Option<String>,
        /// Card ids from the pack; a card may be taken more than once.
        cards: Vec<String>,
    },
    /// Plays one of the fighting member's cards before choosing: luck one a
    /// turn, an item any time, a tactic or spell when a picture directs it.
    PlayCard {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The card's id or name.
        card: String,
        /// The opponent a striking card flies at; may be left out with one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Seat>,
    },
    /// After the pages are turned: whom a fighter's scores hit when it
    /// scored on more opponents than its attacks (rules 3).
    PickTargets {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        targets: Vec<Seat>,
    },
    /// After the fight: spends one advancement on body or an ability the character has.
    Advance {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        member: Option<String>,
        /// `body`, `spell`, `tactics` or `luck`.
        category: String,
    },
    /// After the fight: spends experience to add 1 to a maneuver's modifier.
    Improve {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        member: Option<String>,
        /// The maneuver's full name.
        maneuver: String,
    },
    /// Closes the journal after the fight.
    Close,
    // ------------------------------------------------ scenarios (see `field`)
    /// Rolls what the turn waits for: initiative, recovery or falls. In
    /// physical mode `dice` gives the faces in the order `legal` names.
    Roll {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dice: Vec<u32>,
    },
    /// Enters an adjacent space (climbing costs the change in level).
    Move {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        to: String,
    },
    /// Crawls into an adjacent space while down.
    Crawl {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        to: String,
    },
    /// Runs: two more movement points, off balance in the combat phase.
    Run {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Jumps recklessly down into a lower adjacent space.
    JumpDown {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    /// Jumps down onto an opponent at least a level lower; `land` is the
    /// space beside them the jumper ends in.
    JumpOnto {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        target: Seat,
        land: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    /// Jumps over the next space in a line (after running and entering two
    /// spaces); the move ends where it lands.
    JumpOver {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        to: String,
    },
    /// Blocks an adjacent opponent still to move: it may only regain balance.
    Block {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        target: Seat,
    },
    FallProne {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    StandUp {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    RegainBalance {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Picks up an object (or an unconscious figure's body, by seat number)
    /// from the figure's own space.
    PickUp {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        object: String,
    },
    /// Puts the carried object down in the figure's space or battle zone.
    Drop {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Throws the carried object at a space; `scatter` is the second die
    /// when it misses (physical mode).
    Throw {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        at: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scatter: Option<u32>,
    },
    /// Throws the figure's throwing weapon at an opponent.
    ThrowWeapon {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        target: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    Examine {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        object: String,
    },
    /// Shoves an object in the figure's space or beside it one space on.
    ShoveObject {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        object: String,
        to: String,
    },
    /// Shoves an adjacent opponent, who rolls on the falling down table at
    /// once (`hard`: two more points for +1 on that roll).
    Shove {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        target: Seat,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hard: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    /// Spends the whole move on an unconscious opponent in the same space.
    Slay {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        target: Seat,
    },
    /// Spends the whole move casting one of the fighter's spell cards at an
    /// opponent out of reach (a strike) or on itself (a heal).
    Cast {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The card's id or name.
        card: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    /// Spends the whole move regenerating body points (a character whose
    /// book regenerates), out of every opponent's battle zone.
    Regenerate {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Steps out of every opponent's battle zone, within one level.
    BreakOff {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        to: String,
    },
    /// Ends the figure's move, naming the adjacent space it leaves undefended.
    EndMove {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        undefended: String,
    },
    /// Halts a mover that entered the seat's battle zone.
    Halt {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Lets a mover in the seat's battle zone go on.
    LetPass {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Says, as the combat phase opens, which opponents in the figure's
    /// battle zone it engages (rules 7): none holds it back. A pair fights
    /// when either engages the other, or when one halted the other.
    Engage {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default)]
        foes: Vec<Seat>,
    },
    /// Sets down an opponent who fell, in a space beside where it stood.
    /// A space another figure stands in (rules 6) is jumping down onto it:
    /// `roll` is the die of that move, and `land` the space beside it,
    /// on its level or lower, where the faller ends.
    Place {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        land: Option<String>,
    },
}

/// One seat's maneuver in a resolved exchange.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    pub member: usize,
    /// Index into the fighter's sheet.
    pub maneuver: usize,
    pub name: String,
    pub colour: Colour,
    pub page: u32,
    /// Restrictions that would have left nothing to do, set aside this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set_aside: Vec<String>,
}

/// One term of a damage sum ("score" 4, "Bash" +3, "height" +1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub label: String,
    pub value: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriticalHit {
    pub threshold: i32,
    pub restriction: Restriction,
}

/// What one fighter saw in one opponent's book, and what it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blow {
    pub attacker: Seat,
    pub defender: Seat,
    /// The page the attacker turned to (the X page when `x_column`).
    pub page: u32,
    pub x_column: bool,
    pub picture: u32,
    /// Left out when the table recorded the picture without its title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The book's caption for the story (see `Picture::caption`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    pub range: Range,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<PartyMark>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<CardKind>,
    pub score: Option<i32>,
    /// The damage sum, when the picture shows a score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
    pub total: i32,
    /// False when the score was one more than the attacker's attacks allow.
    pub landed: bool,
    /// Body points taken (0 when the total is 0 or less or the blow did not land).
    pub damage: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical: Option<CriticalHit>,
    /// Read to the defender for their next move.
    pub tell: Restriction,
    /// The picture the matrix gave, when a conditional read last exchange
    /// sent the attacker to `picture` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instead_of: Option<u32>,
}

/// How a fighter's body ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Fit,
    /// Body points 0 to -4: the fight is lost.
    Unconscious,
    /// Body points -5 or less.
    Dead,
}

/// A fighter who fell this exchange.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fall {
    pub seat: Seat,
    pub member: usize,
    pub body: i32,
    pub condition: Condition,
    /// The fallen fighter's maximum body points: the victors' experience.
    pub max_body: i32,
    /// Who landed damage on them this exchange: (seat, member).
    pub victors: Vec<(Seat, usize)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    pub number: u32,
    pub turns: Vec<Turn>,
    pub blows: Vec<Blow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub falls: Vec<Fall>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub escaped: Vec<Seat>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub escapes_failed: Vec<Seat>,
    /// Spells and missiles that landed as the pages turned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strikes: Vec<StrikeLanded>,
}

/// A spell or missile landing in an exchange.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeLanded {
    pub seat: Seat,
    pub member: usize,
    pub card: String,
    pub defender: Seat,
    pub damage: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Someone was left standing over an unconscious or dead opponent.
    Knockout,
    /// Both sides fell in the same exchange.
    MutualKnockout,
    /// The fight ended by escape.
    Escape,
    /// The exchange limit was reached.
    Draw,
    /// A scenario's side met its goal (or held out, or was the last alive).
    Victory,
    /// A scenario ended with no side winning.
    Stalemate,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub ending: Ending,
    pub victors: Vec<Seat>,
}

/// A card as played: what it is and what it does now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    pub id: String,
    pub name: String,
    pub kind: CardKind,
    pub effect: Effect,
    /// The exchange its damage, armour or strike works in (items: from it on).
    pub exchange: u32,
    /// Whom a strike flies at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Seat>,
}

/// Experience gained at the end of the fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Award {
    pub seat: Seat,
    pub member: usize,
    pub points: u32,
    /// Advancements earned by crossing multiples of 50 defeated body points.
    pub advancements: u32,
    /// A scenario's victory points, experience besides `points` (which
    /// count towards advancements as defeated body points; these do not).
    #[serde(default, skip_serializing_if = "is_zero_u")]
    pub victory: u32,
}

crate::by_tag! {
    "Fact",
    /// `page` and `maneuver` of a chosen or revealed maneuver are always set in
    /// a stored fact; they are left out (and `targets` emptied) only in a copy
    /// shown to another seat before the exchange resolves.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Fact {
        ManeuverChosen {
            seat: Seat,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            page: Option<u32>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            maneuver: Option<String>,
            targets: Vec<Seat>,
        },
        ManeuverCommitted {
            seat: Seat,
            hash: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            nonce: Option<String>,
        },
        ManeuverRevealed {
            seat: Seat,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            page: Option<u32>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            maneuver: Option<String>,
            targets: Vec<Seat>,
        },
        EscapeAnnounced {
            seat: Seat,
        },
        MemberSteppedIn {
            seat: Seat,
            from: usize,
            to: usize,
        },
        MissileFired {
            seat: Seat,
            member: usize,
            what: String,
            /// The card fired and what it does (rules 3).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            card: Option<Played>,
        },
        /// The cards a fighter took into the fight. Shown to another seat
        /// before the fight ends, `cards` is empty and `count` says how many.
        CardsSelected {
            seat: Seat,
            member: usize,
            cards: Vec<String>,
            count: u32,
        },
        CardPlayed {
            seat: Seat,
            member: usize,
            card: Played,
        },
        /// A fighter scored on more opponents than its attacks: it picks.
        TargetsAwaited {
            seat: Seat,
            scored: Vec<Seat>,
            attacks: u32,
        },
        TargetsPicked {
            seat: Seat,
            targets: Vec<Seat>,
        },
        ExchangeResolved(Resolution),
        FightEnded {
            outcome: Outcome,
            awards: Vec<Award>,
        },
        Advanced {
            seat: Seat,
            member: usize,
            category: String,
        },
        ModifierImproved {
            seat: Seat,
            member: usize,
            maneuver: usize,
            cost: u32,
        },
        JournalClosed,
        // -------------------------------------------- scenarios (see `field`)
        InitiativeRolled {
            turn: u32,
            /// (seat, face) for every conscious figure.
            rolls: Vec<(Seat, u32)>,
            order: Vec<Seat>,
        },
        /// One entry of the movement chart done, with what came of it.
        Stepped {
            seat: Seat,
            cost: u32,
            deed: Deed,
        },
        HaltOffered {
            mover: Seat,
            by: Vec<Seat>,
        },
        Halted {
            seat: Seat,
            mover: Seat,
        },
        LetPass {
            seat: Seat,
        },
        /// The combat phase opens with a choice (rules 7): `waiting` say
        /// whom they engage; the pairs in `forced` fight anyway (a halt).
        EngagementOffered {
            waiting: Vec<Seat>,
            forced: Vec<(Seat, Seat)>,
        },
        Engaged {
            seat: Seat,
            foes: Vec<Seat>,
        },
        MoveEnded {
            seat: Seat,
            undefended: Hex,
        },
        Recovered {
            rolls: Vec<RecoveryRoll>,
        },
        CombatBegun {
            engaged: BTreeMap<Seat, Vec<Seat>>,
            starts: Vec<Start>,
        },
        /// The third round is fought (or no one is left to fight): how each
        /// figure stands for the falls check and the next movement phase.
        CombatEnded {
            positions: Vec<(Seat, Position)>,
            /// Who rolls on the falling down table, with the roll's bonus.
            at_risk: Vec<(Seat, u32)>,
        },
        FallsRolled {
            rolls: Vec<FallRoll>,
        },
        /// A fallen figure set down by an opponent.
        FallenPlaced {
            seat: Seat,
            by: Seat,
            to: Hex,
            levels: u32,
            damage: i32,
            body: i32,
            condition: Condition,
        },
        /// A fallen figure set down on another's space (rules 6): the fall
        /// is jumping down onto it. The faller ends on `land`, off balance
        /// and unhurt if it struck, down and hurt by the levels if it
        /// missed (`damage`, `body`, `condition` are the faller's).
        FellOnto {
            seat: Seat,
            by: Seat,
            onto: Seat,
            land: Hex,
            roll: u32,
            result: Pounce,
            damage: i32,
            body: i32,
            condition: Condition,
        },
        TurnEnded {
            turn: u32,
        },
        /// Airi or a Wraith leaves the board to regenerate, out of turn as
        /// the movement phase begins, or as its move.
        Dematerialized {
            seat: Seat,
        },
        /// A figure on the space a dematerialized one returns to is touched
        /// (the touch's damage), to be moved off it by the toucher.
        Touched {
            seat: Seat,
            by: Seat,
            damage: i32,
            body: i32,
            condition: Condition,
        },
        /// A touched figure moved to a space beside: falling, and hurt a
        /// point a level, when that is two or more levels down.
        Displaced {
            seat: Seat,
            by: Seat,
            to: Hex,
            levels: u32,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            fell: bool,
            #[serde(default, skip_serializing_if = "is_zero_i")]
            damage: i32,
            body: i32,
            condition: Condition,
        },
        /// The movement phase is over: figures that spent it regenerating
        /// heal, unless they ended it in an opponent's battle zone.
        Regenerated {
            seat: Seat,
            healed: i32,
            /// Spell points restored (magic point regeneration).
            #[serde(default, skip_serializing_if = "is_zero_u")]
            spell: u32,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            foiled: bool,
        },
    }
}

/// A figure's recovery roll at the end of a movement phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryRoll {
    pub seat: Seat,
    pub roll: u32,
    /// Added by opponents slaying the figure.
    #[serde(default, skip_serializing_if = "is_zero_u")]
    pub bonus: u32,
    pub before: i32,
    pub result: Recovery,
}

fn is_zero_u(n: &u32) -> bool {
    *n == 0
}

/// A figure's roll on the falling down table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FallRoll {
    pub seat: Seat,
    pub roll: u32,
    /// Off balance +1, down +2, shoved hard +1.
    #[serde(default, skip_serializing_if = "is_zero_u")]
    pub bonus: u32,
    pub footing: Footing,
    /// The opponent who sets the figure down when it falls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placer: Option<Seat>,
}

/// Where a combat phase starts for one fighter against one opponent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    pub seat: Seat,
    pub foe: Seat,
    pub picture: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub range: Range,
    /// The order the picture reads to the foe (full mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tell: Option<Restriction>,
}

/// What an object thrown did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Landing {
    pub roll: u32,
    /// The scatter die when it missed (0: no space beside the target lay
    /// on its level or lower, so none was rolled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scatter: Option<u32>,
    pub at: Hex,
    /// Whom it struck: knocked down, hurt by its weight, its load dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub struck: Option<Seat>,
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub damage: i32,
}

impl Fact {
    /// A scenario's fact, told and folded by `field::narration` and `field::apply`.
    pub fn on_field(&self) -> bool {
        matches!(
            self,
            Fact::InitiativeRolled { .. }
                | Fact::Stepped { .. }
                | Fact::HaltOffered { .. }
                | Fact::Halted { .. }
                | Fact::LetPass { .. }
                | Fact::EngagementOffered { .. }
                | Fact::Engaged { .. }
                | Fact::MoveEnded { .. }
                | Fact::Recovered { .. }
                | Fact::CombatBegun { .. }
                | Fact::CombatEnded { .. }
                | Fact::FallsRolled { .. }
                | Fact::FallenPlaced { .. }
                | Fact::FellOnto { .. }
                | Fact::TurnEnded { .. }
                | Fact::Dematerialized { .. }
                | Fact::Touched { .. }
                | Fact::Displaced { .. }
                | Fact::Regenerated { .. }
        )
    }
}

fn is_zero_i(n: &i32) -> bool {
    *n == 0
}

crate::in_place! {
    "Deed",
    /// One entry of the movement chart as done.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
    #[serde(tag = "deed", rename_all = "snake_case")]
    pub enum Deed {
        Moved {
            from: Hex,
            to: Hex,
        },
        Crawled {
            from: Hex,
            to: Hex,
        },
        Ran,
        JumpedDown {
            from: Hex,
            to: Hex,
            roll: u32,
            position: Position,
            damage: i32,
        },
        JumpedOnto {
            target: Seat,
            from: Hex,
            land: Hex,
            roll: u32,
            result: Pounce,
            damage: i32,
        },
        JumpedOver {
            from: Hex,
            over: Hex,
            to: Hex,
        },
        Blocked {
            target: Seat,
        },
        FellProne,
        StoodUp,
        RegainedBalance,
        PickedUp {
            object: String,
        },
        Dropped {
            object: String,
            at: Hex,
        },
        /// An unconscious or dead figure lifted onto the carrier's back.
        LiftedBody {
            body: Seat,
        },
        LaidDown {
            body: Seat,
            at: Hex,
        },
        ThrewBody {
            body: Seat,
            target: Hex,
            landing: Landing,
        },
        Threw {
            object: String,
            target: Hex,
            landing: Landing,
        },
        ThrewWeapon {
            /// The weapon as it lies afterwards: an object of the map.
            weapon: String,
            target: Seat,
            /// Where it lies: the target's space, hit or miss.
            at: Hex,
            range: u32,
            roll: u32,
            hit: bool,
            #[serde(default, skip_serializing_if = "is_zero_i")]
            damage: i32,
        },
        Examined {
            object: String,
            /// What the scenario says is found (empty: nothing of note).
            #[serde(default, skip_serializing_if = "String::is_empty")]
            found: String,
        },
        ShovedObject {
            object: String,
            from: Hex,
            to: Hex,
        },
        Shoved {
            target: Seat,
            hard: bool,
            roll: FallRoll,
        },
        Slew {
            target: Seat,
        },
        Regenerates,
        Cast {
            card: String,
            name: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            target: Option<Seat>,
            range: u32,
            /// Spell points spent beyond the card's, by the range table.
            #[serde(default, skip_serializing_if = "is_zero_u")]
            extra: u32,
            roll: u32,
            works: bool,
            /// Body points the target loses (a strike that works).
            #[serde(default, skip_serializing_if = "is_zero_i")]
            damage: i32,
            /// Body points the caster gains (a heal that works).
            #[serde(default, skip_serializing_if = "is_zero_i")]
            heal: i32,
        },
        BrokeOff {
            from: Hex,
            to: Hex,
        },
    }
}
