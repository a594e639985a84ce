//! Tests of the Lost Worlds kind: rules on a tiny hand-made pack whose pages
//! lead where each test needs, and whole duels on the bundled pack.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_events::{Body, DiceMode, GameCreated};

use crate::testkit::{self, step};
use tabletape_engine::chance::Chance;
use tabletape_engine::error::Rejection;
use tabletape_engine::game::Game;
use tabletape_engine::lostworlds::actions::{Action, Condition, Ending, Fact};
use tabletape_engine::lostworlds::content::{
    self, Book, Card, CardKind, Character, Colour, Critical, Maneuver, Pack, PartyMark, Picture,
    Range,
};
use tabletape_engine::lostworlds::duel::decide::{self, choices, commitment};
use tabletape_engine::lostworlds::duel::narration;
use tabletape_engine::lostworlds::options::Options;
use tabletape_engine::lostworlds::restriction::Restriction;
use tabletape_engine::lostworlds::state::{Orders, Phase, State};
use tabletape_engine::lostworlds::LostWorlds;
use tabletape_engine::rules::{Rules, Viewer};

mod aftermath;
mod cards;
mod choosing;
mod exchange;
mod orders;
mod setup;
mod story;
mod svg;

fn m(
    category: &str,
    name: &str,
    colour: Colour,
    page: u32,
    x: Option<u32>,
    modifier: i32,
    two: bool,
) -> Maneuver {
    Maneuver {
        category: category.into(),
        name: name.into(),
        colour,
        page,
        x,
        modifier,
        two_attacks: two,
        raised: 0,
    }
}

fn sheet(id: &str, name: &str, height: i32, body: i32, attacks: u32) -> Character {
    Character {
        id: id.into(),
        name: name.into(),
        title: "Test Fighter".into(),
        sample: true,
        undead: false,
        thrown_weapon: None,
        extended_range_damage: 0,
        regeneration: 0,
        spell_regeneration: 0,
        dematerializes: false,
        touch_damage: 0,
        height,
        body_points: body,
        attacks,
        abilities: BTreeMap::from([("luck".to_string(), 2)]),
        maneuvers: vec![
            m("Down Swing", "Bash", Colour::Orange, 36, Some(50), 3, false),
            m("Side Swing", "High", Colour::Red, 10, Some(64), 0, true),
            m("Block", "High", Colour::Green, 26, Some(56), 0, false),
            m("Jump", "Duck", Colour::Yellow, 20, Some(52), -5, false),
            m("Special", "Kick", Colour::Brown, 34, Some(56), 0, false),
            m(
                "Special",
                "Retrieve Weapon",
                Colour::Brown,
                46,
                Some(52),
                -6,
                false,
            ),
            m(
                "Extended Range",
                "Charge",
                Colour::Black,
                50,
                None,
                3,
                false,
            ),
            m(
                "Extended Range",
                "Dodge",
                Colour::White,
                52,
                None,
                -4,
                false,
            ),
            m(
                "Extended Range",
                "Block and Close",
                Colour::White,
                56,
                None,
                0,
                false,
            ),
            m(
                "Extended Range",
                "Swing High",
                Colour::Black,
                64,
                None,
                1,
                false,
            ),
        ],
        experience: 0,
        defeated_body_points: 0,
    }
}

const PAGES: [u32; 10] = [36, 10, 26, 20, 34, 46, 50, 52, 56, 64];

/// A book whose every page leads to picture 1 (close, nothing happens).
fn plain_book(id: &str) -> Book {
    let mut pictures = BTreeMap::new();
    for p in (1..=63).step_by(2) {
        pictures.insert(
            p,
            Picture {
                title: format!("picture {p}"),
                caption: None,
                range: Range::Close,
                score: None,
                critical: None,
                tell: "No restrictions next turn".into(),
                party: None,
                reveal: None,
                holder: Vec::new(),
            },
        );
    }
    pictures.get_mut(&57).unwrap().range = Range::Extended;
    pictures.get_mut(&57).unwrap().tell = "Do only Extended Range next turn".into();
    let row: BTreeMap<u32, u32> = PAGES.iter().map(|&p| (p, 1)).collect();
    Book {
        character: id.into(),
        sample: true,
        pictures,
        matrices: PAGES.iter().map(|&p| (p, row.clone())).collect(),
    }
}

/// Ash (height 5, 10 body, 1 attack) and Bryn (height 4, 8 body, 2 attacks).
fn mini_pack() -> Pack {
    Pack {
        pack: "test".into(),
        version: 1,
        characters: vec![
            sheet("ash", "Ash", 5, 10, 1),
            sheet("bryn", "Bryn", 4, 8, 2),
        ],
        books: vec![plain_book("ash"), plain_book("bryn")],
        cards: test_cards(),
        scenarios: Vec::new(),
    }
}

fn card(id: &str, kind: CardKind, points: u32, effect: Value) -> Card {
    Card {
        id: id.into(),
        name: format!("the {id}"),
        kind,
        points,
        effect: serde_json::from_value(effect).unwrap(),
        text: format!("what the {id} does"),
        sample: true,
    }
}

/// One card of each kind and effect.
fn test_cards() -> Vec<Card> {
    vec![
        card("edge", CardKind::Tactic, 3, json!({"damage": 2})),
        card("stance", CardKind::Tactic, 2, json!({"armour": 2})),
        card("dart", CardKind::Spell, 2, json!({"strike": 2})),
        card("mend", CardKind::Spell, 1, json!({"heal": 3})),
        card("slip", CardKind::Luck, 1, json!({"armour": 2})),
        card("fortune", CardKind::Luck, 2, json!({"damage": 1})),
        card("mail", CardKind::Item, 0, json!({"armour": 1})),
        card("sling", CardKind::Item, 0, json!({"strike": 2})),
    ]
}

/// Chance for a duel, which never draws any.
fn no_dice() -> Chance {
    Chance::new(DiceMode::Digital, 0, 0)
}

fn options(v: Value) -> Options {
    serde_json::from_value(v).unwrap()
}

fn start(pack: &Pack, players: usize, opts: Value) -> State {
    content::validate(pack, "test").unwrap();
    let players: Vec<String> = (0..players).map(|i| format!("player{i}")).collect();
    decide::setup(
        &players,
        &options(opts),
        pack,
        LostWorlds::RULES_VERSION,
        DiceMode::Digital,
    )
    .unwrap()
}

/// Everyone close, no orders: the middle of a fight.
fn close_quarters(state: &mut State) {
    for st in &mut state.seats {
        st.orders = Orders::default();
        for s in st.sights.values_mut() {
            s.range = Range::Close;
        }
    }
}

/// Puts `pack`'s books in play (a test changing what the pictures show).
fn use_books(state: &mut State, pack: &Pack) {
    state.books = pack
        .books
        .iter()
        .map(|b| (b.character.clone(), std::sync::Arc::new(b.clone())))
        .collect();
}

/// Ash and Bryn, who closed in and have just maneuvered back out to
/// extended range: the first step of an escape taken.
fn withdrawn() -> State {
    let mut pack = mini_pack();
    for book in ["ash", "bryn"] {
        set_picture(&mut pack, book, 1, |p| {
            p.range = Range::Extended;
            p.tell = "Do only Extended Range next turn".into();
        });
    }
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    assert!(state.seats[0].withdrawn && state.seats[1].withdrawn);
    state
}

fn act(state: &mut State, by: Option<u32>, action: Value) -> Result<Vec<Fact>, Rejection> {
    let action: Action = serde_json::from_value(action).unwrap();
    let facts = decide::decide(state, by, &action, &mut no_dice())?;
    for f in &facts {
        LostWorlds::narrate(state, f);
        LostWorlds::apply(state, f);
    }
    Ok(facts)
}

fn tell(state: &mut State, seat: u32, from: u32, text: &str) {
    state.seats[seat as usize]
        .orders
        .read(Some(from), &Restriction::parse(text).unwrap());
}

fn set_picture(pack: &mut Pack, book: &str, picture: u32, f: impl FnOnce(&mut Picture)) {
    let b = pack.books.iter_mut().find(|b| b.character == book).unwrap();
    f(b.pictures.get_mut(&picture).unwrap());
}

fn route(pack: &mut Pack, book: &str, holder_page: u32, own_page: u32, picture: u32) {
    let b = pack.books.iter_mut().find(|b| b.character == book).unwrap();
    b.matrices
        .get_mut(&holder_page)
        .unwrap()
        .insert(own_page, picture);
}

fn resolution(facts: &[Fact]) -> &tabletape_engine::lostworlds::actions::Resolution {
    facts
        .iter()
        .find_map(|f| match f {
            Fact::ExchangeResolved(r) => Some(r),
            _ => None,
        })
        .expect("the exchange resolved")
}

fn exchange(moves: &[(u32, u32)]) -> Value {
    json!({"type": "exchange", "maneuvers": moves.iter().map(|(s, p)| json!({"seat": s, "page": p})).collect::<Vec<_>>()})
}

/// A small deterministic stream for choosing among legal actions.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn play(pack: &Pack, players: usize, opts: Value, mut seed: u64) -> State {
    let mut state = start(pack, players, opts);
    for _ in 0..5000 {
        if LostWorlds::is_over(&state) {
            return state;
        }
        let legal: Vec<_> = LostWorlds::legal(&state, None)
            .into_iter()
            .filter(|l| l.needs.is_empty())
            .collect();
        assert!(
            !legal.is_empty(),
            "nothing legal in an open game:\n{}",
            narration::render(&state, Viewer::Owner)
        );
        let pick = &legal[(next(&mut seed) % legal.len() as u64) as usize].action;
        let facts = decide::decide(&state, None, pick, &mut no_dice())
            .unwrap_or_else(|e| panic!("legal action {pick:?} rejected: {e}"));
        for f in &facts {
            let _ = LostWorlds::narrate(&state, f);
            LostWorlds::apply(&mut state, f);
        }
        let round: State = serde_json::from_value(serde_json::to_value(&state).unwrap()).unwrap();
        assert_eq!(round, state, "state survives JSON");
    }
    panic!(
        "the duel did not end:\n{}",
        narration::render(&state, Viewer::Owner)
    );
}

/// Plays an action and returns its narration, as a journal would tell it
/// step by step: the story's lines and the record's, in order.
fn told(state: &mut State, by: Option<u32>, action: Value) -> Vec<String> {
    let action: Action = serde_json::from_value(action).unwrap();
    let facts = decide::decide(state, by, &action, &mut no_dice()).unwrap();
    testkit::told::<LostWorlds>(state, &facts)
}

// ---------------------------------------------------------------- secrets

/// A duel of Ash (seat 0) and Bryn (seat 1) on the mini pack, as the
/// journal plays it: through `Game`.
fn duel_game(books: &str) -> Game {
    let options = json!({"characters": "ash,bryn", "books": books});
    let created = GameCreated {
        pack: serde_json::to_value(mini_pack()).unwrap(),
        rules_version: None,
        ..testkit::created::<LostWorlds>(2, 1, DiceMode::Digital, options)
    };
    Game::start(&created).unwrap()
}

/// Asserts none of `secrets` appears in `text`.
fn hides(text: &str, secrets: &[&str], what: &str) {
    for s in secrets {
        assert!(!text.contains(s), "{what} gives away `{s}`: {text}");
    }
}

const OTHERS: [Viewer; 2] = [Viewer::Seat(1), Viewer::Public];
