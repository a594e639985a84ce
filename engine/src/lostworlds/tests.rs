//! Tests of the Lost Worlds kind: rules on a tiny hand-made pack whose pages
//! lead where each test needs, and whole duels on the bundled pack.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_events::{Actor, Body, DiceMode, Event, GameCreated};

use super::actions::{Action, Condition, Ending, Fact};
use super::content::{
    self, Book, Card, CardKind, Character, Colour, Critical, Maneuver, Pack, PartyMark, Picture,
    Range,
};
use super::decide::{self, choices, commitment};
use super::options::Options;
use super::restriction::Restriction;
use super::state::{Orders, Phase, State};
use super::{narration, LostWorlds};
use crate::chance::Chance;
use crate::error::Rejection;
use crate::game::Game;
use crate::rules::{Rules, Viewer};

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

fn resolution(facts: &[Fact]) -> &super::actions::Resolution {
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

#[test]
fn the_default_pack_is_valid_and_holds_nowa() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    LostWorlds::validate_pack(&pack, "<bundled>").unwrap();
    let nowa = pack.character("nowa").unwrap();
    assert_eq!((nowa.height, nowa.body_points, nowa.attacks), (4, 10, 2));
    let (_, bash) = nowa.maneuver_named("Down Swing Bash").unwrap();
    assert_eq!((bash.page, bash.x, bash.modifier), (36, Some(50), 3));
    assert!(
        nowa.maneuver_named("Side Swing Strong")
            .unwrap()
            .1
            .two_attacks
    );
    assert_eq!(
        nowa.maneuver_named("Extended Range Jump Back")
            .unwrap()
            .1
            .page,
        62
    );
}

#[test]
fn content_errors_name_the_field() {
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 23, |p| {
        p.tell = "Dance a jig next turn".into()
    });
    let e = content::validate(&pack, "mine.json").unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.path.as_str()),
        ("mine.json", "books[1].pictures.23.tell")
    );
    let mut pack = mini_pack();
    pack.books[0].matrices.get_mut(&36).unwrap().remove(&10);
    assert_eq!(
        content::validate(&pack, "f").unwrap_err().path,
        "books[0].matrices.36.10"
    );
    let mut pack = mini_pack();
    pack.characters[0].maneuvers[0].x = None;
    assert_eq!(
        content::validate(&pack, "f").unwrap_err().path,
        "characters[0].maneuvers[0].x"
    );
    let mut pack = mini_pack();
    set_picture(&mut pack, "ash", 3, |p| {
        p.tell = "Do no Mauve next turn".into()
    });
    assert!(content::validate(&pack, "f")
        .unwrap_err()
        .message
        .contains("`mauve`"));
}

#[test]
fn the_duel_opens_at_extended_range_only() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut state = start(&pack, 2, json!({}));
    assert_eq!(
        state.seats[1].fighter().sheet.id,
        "brakka",
        "the sample opponent by default"
    );
    assert_eq!(state.seats[0].sights[&1].picture, 57);
    let sheet = &state.seats[0].fighter().sheet;
    assert!(choices(&state, 0)
        .open
        .iter()
        .all(|&i| sheet.maneuvers[i].is_extended()));
    let e = act(&mut state, Some(0), json!({"type": "choose", "page": 36})).unwrap_err();
    assert_eq!(e.rule, "lostworlds.restriction");
    assert_eq!(
        e.message,
        "Nowa must obey \"Do only Extended Range next turn\": Down Swing Bash is not an extended-range maneuver"
    );
    // Extended range only when told: with no order at all it stays shut.
    close_quarters(&mut state);
    let e = act(&mut state, Some(0), json!({"type": "choose", "page": 50})).unwrap_err();
    assert_eq!(e.rule, "lostworlds.extended_range");
}

#[test]
fn every_restriction_kind_is_enforced() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut state = start(&pack, 2, json!({}));
    close_quarters(&mut state);
    let nowa = |state: &State, name: &str| {
        state.seats[0]
            .fighter()
            .sheet
            .maneuver_named(name)
            .unwrap()
            .0
    };
    tell(&mut state, 0, 1, "Do no Red next turn");
    let e = decide::check_maneuver(&state, 0, nowa(&state, "Side Swing High")).unwrap_err();
    assert_eq!(
        e.message,
        "Nowa must obey \"Do no Red next turn\": Side Swing High is Red"
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Down Swing Bash")).is_ok());

    state.seats[0].orders = Orders::default();
    tell(&mut state, 0, 1, "Do only Jumps next turn");
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Jump Duck")).is_ok());
    let e = decide::check_maneuver(&state, 0, nowa(&state, "Block High")).unwrap_err();
    assert!(
        e.message.contains("Block High is not a Jump"),
        "{}",
        e.message
    );

    state.seats[0].orders = Orders::default();
    tell(
        &mut state,
        0,
        1,
        "Do no Specials (except Retrieve Weapon) for the rest of the combat",
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Special Kick")).is_err());
    // Retrieve Weapon is excepted, but only a fighter who lost the weapon retrieves it.
    let e = decide::check_maneuver(&state, 0, nowa(&state, "Special Retrieve Weapon")).unwrap_err();
    assert_eq!(e.rule, "lostworlds.weapon");
    tell(
        &mut state,
        0,
        1,
        "Do only Kick, Yellow or Green (except Wild Swing) until weapon has been retrieved.",
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Special Retrieve Weapon")).is_ok());
    assert_eq!(
        state.seats[0].orders.lasting.len(),
        1,
        "rest of the combat is lasting"
    );

    state.seats[0].orders = Orders::default();
    tell(
        &mut state,
        0,
        1,
        "Do only Kick, Yellow or Green (except Jump Duck) until weapon has been retrieved",
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Down Swing Bash")).is_err());
    assert!(
        decide::check_maneuver(&state, 0, nowa(&state, "Jump Duck")).is_err(),
        "excepted"
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Special Retrieve Weapon")).is_ok());
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Special Kick")).is_ok());
    tell(
        &mut state,
        0,
        1,
        "May use weapon again. Do no Orange next turn.",
    );
    assert!(state.seats[0].orders.weapon.is_none());
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Side Swing High")).is_ok());
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Down Swing Bash")).is_err());
}

#[test]
fn orders_that_leave_nothing_are_set_aside() {
    let mut state = start(&mini_pack(), 2, json!({}));
    close_quarters(&mut state);
    tell(&mut state, 0, 1, "Do only Green for the rest of the combat");
    tell(&mut state, 0, 1, "Do no Green next turn");
    let c = choices(&state, 0);
    assert_eq!(c.set_aside, vec!["Do no Green next turn".to_string()]);
    assert_eq!(c.open, vec![2], "only Block High remains");
}

#[test]
fn damage_adds_score_modifier_height_and_bonus() {
    let mut pack = mini_pack();
    // Ash (taller) bashes on page 36 while Bryn blocks on page 26: picture 23, score 4.
    route(&mut pack, "bryn", 36, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| {
        p.score = Some(4);
        p.title = "Ash's blow lands".into();
        p.tell = "Do no Red next turn".into();
    });
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    tell(
        &mut state,
        0,
        1,
        "Add +2 to any Orange that scores next turn",
    );
    let facts = act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let r = resolution(&facts);
    let b = r.blows.iter().find(|b| b.attacker == 0).unwrap();
    assert_eq!(b.total, 4 + 3 + 1 + 2);
    assert_eq!(
        narration::sum(&b.parts, b.total),
        "score 4 + Down Swing Bash +3 + height +1 + bonus +2 = 10"
    );
    assert_eq!(state.seats[1].fighter().body, 8 - 10);
    assert_eq!(state.seats[1].fighter().condition, Condition::Unconscious);
    // The tell now binds Bryn.
    assert_eq!(
        state.seats[1].orders.next_turn[0].text,
        "Do no Red next turn"
    );
    // The shorter fighter loses 1 on Orange only.
    let ash = &pack.characters[0];
    let bryn = &pack.characters[1];
    assert_eq!(decide::height_adjustment(bryn, ash, Colour::Orange), -1);
    assert_eq!(decide::height_adjustment(bryn, ash, Colour::Red), 0);
    assert_eq!(decide::height_adjustment(ash, bryn, Colour::Red), 1);
    assert_eq!(decide::height_adjustment(ash, bryn, Colour::Black), 0);
}

#[test]
fn low_totals_do_no_damage_and_penalties_accumulate() {
    let mut pack = mini_pack();
    route(&mut pack, "bryn", 20, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(2));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    tell(
        &mut state,
        0,
        1,
        "Subtract 2 from all scores, cumulative (except Kick) for the rest of the combat",
    );
    tell(
        &mut state,
        0,
        1,
        "Subtract 2 from all scores, cumulative (except Kick) for the rest of the combat",
    );
    let facts = act(&mut state, None, exchange(&[(0, 20), (1, 26)])).unwrap();
    let b = &resolution(&facts).blows[0];
    assert_eq!(b.total, 2 - 5 - 4);
    assert_eq!(b.damage, 0);
    assert_eq!(state.seats[1].fighter().body, 8);
}

#[test]
fn unconscious_at_zero_dead_at_minus_five_and_criticals_bind_the_hurt() {
    for (score, body, condition) in [(4, 0, Condition::Unconscious), (9, -5, Condition::Dead)] {
        let mut pack = mini_pack();
        route(&mut pack, "bryn", 10, 26, 23);
        set_picture(&mut pack, "bryn", 23, |p| {
            p.score = Some(score);
            p.critical = Some(Critical {
                threshold: 6,
                restriction: "Do no Orange for the rest of the combat".into(),
            });
        });
        let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
        close_quarters(&mut state);
        // Side Swing High: score + 0 + height 1.
        state.seats[1].party[0].body = body + score + 1;
        let facts = act(&mut state, None, exchange(&[(0, 10), (1, 26)])).unwrap();
        let r = resolution(&facts);
        assert_eq!(r.falls[0].condition, condition);
        assert_eq!(state.seats[1].fighter().body, body);
        let crit = r.blows[0].critical.is_some();
        assert_eq!(
            crit,
            score + 1 >= 6,
            "critical when the total reaches the threshold"
        );
        if crit {
            assert_eq!(
                state.seats[1].orders.lasting[0].text,
                "Do no Orange for the rest of the combat"
            );
        }
        match facts.last() {
            Some(Fact::FightEnded { outcome, awards }) => {
                assert_eq!(outcome.ending, Ending::Knockout);
                assert_eq!(outcome.victors, vec![0]);
                assert_eq!(awards[0].points, 8, "Bryn's maximum body points");
            }
            other => panic!("the fight should end, got {other:?}"),
        }
        assert_eq!(state.phase, Phase::Aftermath);
    }
}

#[test]
fn escape_takes_three_steps() {
    let mut state = start(&mini_pack(), 2, json!({"characters": "ash,bryn"}));
    // The opening picture is at extended range, but no one maneuvered there.
    let e = act(&mut state, Some(0), json!({"type": "escape"})).unwrap_err();
    assert_eq!(e.rule, "lostworlds.escape");
    assert!(
        e.message.contains("has not maneuvered out"),
        "{}",
        e.message
    );
    assert!(!LostWorlds::legal(&state, Some(0))
        .iter()
        .any(|l| matches!(l.action, Action::Escape { .. })));
    // Close range: no escape.
    let mut close = state.clone();
    close_quarters(&mut close);
    assert_eq!(
        act(&mut close, Some(0), json!({"type": "escape"}))
            .unwrap_err()
            .rule,
        "lostworlds.escape"
    );
    // Step 1 done (out to extended range): announce, then stay out unscored.
    let mut state = withdrawn();
    assert!(LostWorlds::legal(&state, Some(0))
        .iter()
        .any(|l| matches!(l.action, Action::Escape { .. })));
    act(&mut state, Some(0), json!({"type": "escape"})).unwrap();
    assert!(state.seats[0].escaping);
    let facts = act(&mut state, None, exchange(&[(0, 52), (1, 52)])).unwrap();
    assert_eq!(resolution(&facts).escaped, vec![0]);
    match facts.last() {
        Some(Fact::FightEnded { outcome, .. }) => assert_eq!(outcome.ending, Ending::Escape),
        other => panic!("expected the end, got {other:?}"),
    }
    // Scored upon: the escape fails.
    let mut state = withdrawn();
    act(&mut state, Some(0), json!({"type": "escape"})).unwrap();
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 1, |p| p.range = Range::Extended);
    set_picture(&mut pack, "ash", 1, |p| {
        p.range = Range::Extended;
        p.score = Some(1)
    });
    use_books(&mut state, &pack);
    let facts = act(&mut state, None, exchange(&[(0, 52), (1, 52)])).unwrap();
    assert_eq!(resolution(&facts).escapes_failed, vec![0]);
    assert!(!state.seats[0].escaping);
}

#[test]
fn one_against_two_obeys_all_orders_uses_x_and_limits_attacks() {
    let mut pack = mini_pack();
    // Ash's Bash scores on both Bryns.
    route(&mut pack, "bryn", 36, 26, 23);
    route(&mut pack, "bryn", 50, 26, 25);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(3));
    set_picture(&mut pack, "bryn", 25, |p| p.score = Some(1));
    let mut state = start(&pack, 3, json!({"characters": "ash,bryn,bryn"}));
    close_quarters(&mut state);
    // Most restrictive: every order at once.
    tell(&mut state, 0, 1, "Do no Red next turn");
    tell(&mut state, 0, 2, "Do only Red, Orange or Green next turn");
    let open: Vec<String> = choices(&state, 0)
        .open
        .iter()
        .map(|&i| state.seats[0].fighter().sheet.maneuvers[i].full_name())
        .collect();
    assert_eq!(open, vec!["Down Swing Bash", "Block High"]);
    // Opponents at both ranges: close maneuvers only; X page against the far one.
    state.seats[0].orders = Orders::default();
    state.seats[0].sights.get_mut(&2).unwrap().range = Range::Extended;
    tell(&mut state, 0, 2, "Do only Extended Range next turn");
    let c = choices(&state, 0);
    assert!(c.mixed);
    assert!(c
        .open
        .iter()
        .all(|&i| !state.seats[0].fighter().sheet.maneuvers[i].is_extended()));
    assert_eq!(
        act(
            &mut state.clone(),
            None,
            exchange(&[(0, 50), (1, 26), (2, 26)])
        )
        .unwrap_err()
        .rule,
        "lostworlds.multi_range"
    );
    let facts = act(&mut state, None, json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 36, "targets": [2]}, {"seat": 1, "page": 26}, {"seat": 2, "page": 26}]}))
    .unwrap();
    let r = resolution(&facts);
    let far = r
        .blows
        .iter()
        .find(|b| b.attacker == 0 && b.defender == 2)
        .unwrap();
    assert!(far.x_column);
    assert_eq!((far.page, far.picture), (50, 25));
    // Ash has one attack: both scores show, only the chosen target is hit.
    assert!(far.landed);
    let near = r
        .blows
        .iter()
        .find(|b| b.attacker == 0 && b.defender == 1)
        .unwrap();
    assert!(!near.landed && near.score == Some(3));
    assert_eq!(state.seats[1].fighter().body, 8);
    assert_eq!(state.seats[2].fighter().body, 8 - (1 + 3 + 1));
}

#[test]
fn two_attacks_only_with_starred_maneuvers() {
    let bryn = sheet("bryn", "Bryn", 4, 8, 2);
    assert_eq!(
        bryn.attacks_with(&bryn.maneuvers[1]),
        2,
        "Side Swing High is starred"
    );
    assert_eq!(bryn.attacks_with(&bryn.maneuvers[0]), 1);
}

#[test]
fn a_party_member_steps_in_on_a_p_picture() {
    let mut state = start(
        &mini_pack(),
        2,
        json!({"seat0": "ash+bryn", "seat1": "bryn"}),
    );
    close_quarters(&mut state);
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "step_in", "member": "bryn"}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.party");
    state.seats[1].sights.get_mut(&0).unwrap().party = Some(PartyMark::StepIn);
    act(
        &mut state,
        Some(0),
        json!({"type": "step_in", "member": "bryn"}),
    )
    .unwrap();
    assert_eq!(state.seats[0].name(), "Bryn");
    assert!(
        act(
            &mut state,
            Some(0),
            json!({"type": "step_in", "member": "ash"})
        )
        .is_err(),
        "once per exchange"
    );
    state.seats[1].sights.get_mut(&0).unwrap().party = Some(PartyMark::Missile);
    state.seats[0].party_turn = None;
    act(
        &mut state,
        Some(0),
        json!({"type": "select_cards", "member": "ash", "cards": ["sling"]}),
    )
    .unwrap();
    let facts = act(
        &mut state,
        Some(0),
        json!({"type": "fire_missile", "member": "ash", "card": "sling"}),
    )
    .unwrap();
    assert!(matches!(facts[0], Fact::MissileFired { .. }));
    assert_eq!(
        state.seats[0].name(),
        "Bryn",
        "a missile changes nobody's place"
    );
}

#[test]
fn commit_and_reveal() {
    let mut state = start(&mini_pack(), 2, json!({"characters": "ash,bryn"}));
    assert_eq!(commitment(52, "pepper"), {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(b"52:pepper"))
    });
    act(
        &mut state,
        Some(0),
        json!({"type": "commit", "hash": commitment(52, "pepper")}),
    )
    .unwrap();
    assert!(
        act(
            &mut state,
            Some(1),
            json!({"type": "commit", "seat": 0, "hash": commitment(52, "x")})
        )
        .is_err(),
        "not your seat"
    );
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "reveal", "page": 52, "salt": "salt"}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.reveal");
    act(&mut state, Some(1), json!({"type": "choose", "page": 50})).unwrap();
    assert_eq!(state.exchanges, 0);
    let facts = act(
        &mut state,
        Some(0),
        json!({"type": "reveal", "page": 52, "salt": "pepper"}),
    )
    .unwrap();
    assert!(matches!(facts[1], Fact::ExchangeResolved(_)));
    assert_eq!(state.exchanges, 1);
    assert!(state.pending.is_empty());
}

#[test]
fn record_mode_needs_what_each_seat_saw() {
    let mut state = start(
        &mini_pack(),
        2,
        json!({"books": "record", "characters": "ash,bryn"}),
    );
    assert_eq!(
        act(&mut state, Some(0), json!({"type": "choose", "page": 52}))
            .unwrap_err()
            .rule,
        "lostworlds.record"
    );
    let e = act(&mut state, None, json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close", "tell": "Do no Red next turn"}]},
        {"seat": 1, "page": 50, "seen": [{"range": "close", "tell": "No restrictions next turn"}]}]}))
    .unwrap_err();
    assert_eq!(e.message, "record mode: Bryn's result needs `picture`");
    let e = act(&mut state, None, json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close"}]},
        {"seat": 1, "page": 50, "seen": [{"picture": 5, "range": "close", "tell": "No restrictions next turn"}]}]}))
    .unwrap_err();
    assert_eq!(e.message, "record mode: Ash's result needs `tell`");
    let facts = act(&mut state, None, json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close", "score": 2, "tell": "Do no Red next turn"}]},
        {"seat": 1, "page": 50, "seen": [{"picture": 5, "range": "close", "tell": "No restrictions next turn"}]}]}))
    .unwrap();
    let b = &resolution(&facts).blows[0];
    assert_eq!(b.total, 2 - 4);
    assert_eq!(
        state.seats[1].orders.next_turn[0].text,
        "Do no Red next turn"
    );
}

#[test]
fn experience_advancement_and_improvement_order() {
    let mut pack = mini_pack();
    pack.characters[0].defeated_body_points = 45;
    pack.characters[0].experience = 15;
    route(&mut pack, "bryn", 36, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(20));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    let facts = act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    assert!(matches!(facts.last(), Some(Fact::FightEnded { .. })));
    let ash = &state.seats[0].party[0];
    assert_eq!(
        (
            ash.sheet.experience,
            ash.sheet.defeated_body_points,
            ash.advancements
        ),
        (23, 53, 1)
    );
    assert_eq!(state.seats[1].party[0].condition, Condition::Dead);
    assert_eq!(
        act(
            &mut state,
            Some(1),
            json!({"type": "improve", "maneuver": "Block High"})
        )
        .unwrap_err()
        .rule,
        "lostworlds.dead"
    );
    assert!(
        act(&mut state, None, json!({"type": "close"})).is_err(),
        "spend the advancement first"
    );
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "advance", "category": "spell"}),
    )
    .unwrap_err();
    assert!(e.message.contains("body, luck"), "{}", e.message);
    act(
        &mut state,
        Some(0),
        json!({"type": "advance", "category": "body"}),
    )
    .unwrap();
    assert_eq!(state.seats[0].party[0].sheet.body_points, 11);
    // 23 experience, a raise costs 11 (maximum body points): two raises.
    act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": "Down Swing Bash"}),
    )
    .unwrap();
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": "Down Swing Bash"}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.improvement_order");
    act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": "Side Swing High"}),
    )
    .unwrap();
    let ash = &state.seats[0].party[0];
    assert_eq!(
        (
            ash.sheet.experience,
            ash.sheet.maneuvers[0].modifier,
            ash.sheet.maneuvers[1].modifier
        ),
        (1, 4, 1)
    );
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": "Block High"}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.experience");
    assert!(LostWorlds::is_over(&state), "nothing left to spend");
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

#[test]
fn random_legal_duels_end() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let seed = std::env::var("TABLETAPE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_u64);
    let mut knockouts = 0;
    for i in 0..12u64 {
        let s = seed.wrapping_add(i * 7919) | 1;
        let state = play(&pack, 2, json!({}), s);
        knockouts += usize::from(
            state
                .outcome
                .as_ref()
                .is_some_and(|o| o.ending == Ending::Knockout),
        );
        assert!(state.outcome.is_some(), "seed {s}");
        assert!(state.exchanges <= 200, "seed {s}");
        // And one against two, with a party on seat 1.
        let state = play(
            &pack,
            3,
            json!({"seat1": "brakka+nowa", "seat2": "brakka"}),
            s,
        );
        assert!(state.outcome.is_some(), "seed {s}");
        assert!(!narration::render(&state, Viewer::Owner).is_empty());
    }
    assert!(
        knockouts >= 4,
        "random duels mostly end by knockout, got {knockouts} of 12"
    );
}

#[test]
fn the_story_shows_pages_pictures_and_sums() {
    use tabletape_events::{DiceMode, GameCreated};
    let created = GameCreated {
        title: None,
        kind: "lostworlds".into(),
        players: vec!["Ann".into(), "Bob".into()],
        seed: 1,
        dice: DiceMode::Digital,
        options: Default::default(),
        pack: LostWorlds::default_pack(),
        public: false,
        rules_version: None,
        chance_version: None,
    };
    let game = crate::Game::start(&created).unwrap();
    assert_eq!(game.chapter(), "Exchange 1");
    let d = game
        .decide(None, &json!({"type": "exchange", "maneuvers": [{"seat": 0, "page": 50}, {"seat": 1, "page": 50}]}))
        .unwrap();
    let story = d.narration.join("\n");
    assert!(
        story.contains("Nowa, told \"Do only Extended Range next turn\", goes for Extended Range Charge (page 50, Brown)."),
        "{story}"
    );
    // The picture in the story's voice, then the page and picture.
    assert!(
        story.contains(
            "Nowa's blow lands solidly on Brakka. (Nowa: page 50 of Brakka's book, picture 49.)"
        ),
        "{story}"
    );
    assert!(
        story.contains("Nowa and Brakka are at close quarters now."),
        "{story}"
    );
    assert!(
        story.ends_with("Body points now: Nowa 5 of 10 and Brakka 5 of 12."),
        "{story}"
    );
    assert!(story.contains("tells Nowa: \""), "{story}");
    assert!(d.body.chance.is_empty(), "a book duel draws no chance");
    // The sample books say what they are wherever they are shown.
    let sample = "Brakka and Nowa here are Tabletape's own samples";
    assert!(story.contains(sample), "{story}");
    assert!(game.render(crate::Viewer::Seat(1)).contains(sample));
    let drawn = game.render_svg(crate::Viewer::Public);
    assert!(
        drawn.contains("class=\"note\"") && drawn.contains("samples, not printed"),
        "{drawn}"
    );
    let view = game.view(crate::Viewer::Seat(0));
    assert_eq!(view["sample_books"], json!(["brakka", "nowa"]));
    let text = game.render(crate::Viewer::Owner);
    assert!(
        text.contains("Seat 0 (Ann): Nowa") && text.contains("Do only Extended Range next turn"),
        "{text}"
    );
}

/// Plays an action and returns its narration, as a journal would tell it.
fn told(state: &mut State, by: Option<u32>, action: Value) -> Vec<String> {
    let action: Action = serde_json::from_value(action).unwrap();
    let facts = decide::decide(state, by, &action, &mut no_dice()).unwrap();
    let mut lines = Vec::new();
    for f in &facts {
        lines.extend(LostWorlds::narrate(state, f));
        LostWorlds::apply(state, f);
    }
    lines
}

#[test]
fn a_fighter_struck_twice_reads_body_points_after_each_blow() {
    let mut pack = mini_pack();
    // Ash blocks high; one Bryn's Side Swing High scores 1, the other's Block High 2.
    route(&mut pack, "ash", 10, 26, 23);
    route(&mut pack, "ash", 26, 26, 25);
    set_picture(&mut pack, "ash", 23, |p| p.score = Some(1));
    set_picture(&mut pack, "ash", 25, |p| p.score = Some(2));
    let mut state = start(&pack, 3, json!({"characters": "ash,bryn,bryn"}));
    close_quarters(&mut state);
    let lines = told(&mut state, None, exchange(&[(0, 26), (1, 10), (2, 26)]));
    let body: Vec<&String> = lines.iter().filter(|l| l.contains(" damage. ")).collect();
    assert_eq!(body.len(), 2, "{lines:#?}");
    assert!(
        body[0].ends_with("= 1 damage. Ash has 9 of 10 body points left."),
        "{lines:#?}"
    );
    assert!(
        body[1].ends_with("= 2 damage. Ash has 7 of 10 body points left."),
        "{lines:#?}"
    );
    assert_eq!(state.seats[0].fighter().body, 7);
}

#[test]
fn fighters_sharing_a_name_are_told_apart_by_player() {
    let mut state = start(&mini_pack(), 3, json!({"characters": "ash,bryn,bryn"}));
    assert_eq!(state.seat_name(0), "Ash", "a name nobody shares stays bare");
    assert_eq!(state.seat_name(1), "Bryn (player1)");
    assert_eq!(state.seat_name(2), "Bryn (player2)");
    close_quarters(&mut state);
    let lines = told(&mut state, None, exchange(&[(0, 26), (1, 10), (2, 26)]));
    let story = lines.join("\n");
    assert!(
        story.contains("Bryn (player1), under no orders, goes for Side Swing High (page 10, Red).\nBryn (player2), under no orders, goes for Block High"),
        "{story}"
    );
    assert!(
        story.contains("Bryn (player2) tells Ash:") && story.contains("Ash tells Bryn (player1):"),
        "{story}"
    );
    assert!(
        !story.contains("Bryn tells") && !story.contains("Bryn's book"),
        "{story}"
    );
}

#[test]
fn a_record_without_a_title_names_the_picture_by_number() {
    let mut state = start(
        &mini_pack(),
        2,
        json!({"books": "record", "characters": "ash,bryn"}),
    );
    let lines = told(
        &mut state,
        None,
        json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close", "tell": "Do no Red next turn"}]},
        {"seat": 1, "page": 50, "seen": [{"picture": 5, "title": "Ash charges", "range": "close", "tell": "No restrictions next turn"}]}]}),
    );
    let story = lines.join("\n");
    assert!(
        story.contains("of Bryn's book and sees picture 23.\n"),
        "{story}"
    );
    assert!(
        story.contains("of Ash's book and sees picture 5: \"Ash charges\"."),
        "{story}"
    );
    assert_eq!(state.seats[0].sights[&1].title, None);
    assert!(narration::render(&state, Viewer::Owner).contains("sees Bryn: picture 23, close range"));
}

#[test]
fn the_story_opens_with_who_plays_whom_and_tells_the_end_once() {
    let mut pack = mini_pack();
    route(&mut pack, "bryn", 10, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(9));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    let first = told(&mut state, Some(1), json!({"type": "choose", "page": 56}));
    assert_eq!(
        first,
        vec![
            "player0 plays Ash, Test Fighter (height 5, 10 body points); player1 plays Bryn, Test Fighter (height 4, 8 body points).",
            "The books of Ash and Bryn here are Tabletape's own samples, not printed Lost Worlds books.",
        ]
    );
    let second = told(&mut state, Some(0), json!({"type": "choose", "page": 56}));
    assert!(
        !second.join("\n").contains("plays"),
        "said once: {second:?}"
    );
    close_quarters(&mut state);
    let lines = told(&mut state, None, exchange(&[(0, 10), (1, 26)]));
    let story = lines.join("\n");
    // 9 + 0 + height 1 = 10 against 8 body points.
    assert!(
        story.contains("Bryn is down at -2 body points (of 8)."),
        "{story}"
    );
    assert!(story.contains("Ash stands victorious."), "{story}");
    let end = narration::epilogue(&state);
    assert_eq!(end[0], "The fight lasted 2 exchanges.");
    assert!(
        !end.join("\n").contains("victorious"),
        "the outcome is told once: {end:?}"
    );
    assert_eq!(
        end[2],
        "Bryn (player1): -2 body points (of 8), unconscious; 0 experience."
    );
    let closed = told(&mut state, None, json!({"type": "close"}));
    assert_eq!(closed, vec!["The journal of this fight is closed."]);
}

#[test]
fn party_marks_are_told_only_to_a_side_with_a_party() {
    let mut pack = mini_pack();
    for book in ["ash", "bryn"] {
        set_picture(&mut pack, book, 1, |p| p.party = Some(PartyMark::StepIn));
    }
    let mut state = start(&pack, 2, json!({"seat0": "ash+bryn", "seat1": "bryn"}));
    close_quarters(&mut state);
    let lines = told(&mut state, None, exchange(&[(0, 26), (1, 26)]));
    let marks: Vec<&String> = lines.iter().filter(|l| l.contains("party mark")).collect();
    assert_eq!(
        marks,
        vec![
            "The picture bears the party mark (P): another of player0's party may step in for Ash."
        ],
        "only seat 0 has a party"
    );
    let mut duel = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut duel);
    let lines = told(&mut duel, None, exchange(&[(0, 26), (1, 26)]));
    assert!(!lines.join("\n").contains("party mark"), "{lines:#?}");
}

#[test]
fn a_failed_escape_says_why_and_an_escape_is_not_on_its_feet() {
    let scored = |close: bool| {
        let mut pack = mini_pack();
        set_picture(&mut pack, "bryn", 1, |p| {
            p.range = if close { Range::Close } else { Range::Extended }
        });
        set_picture(&mut pack, "ash", 1, |p| {
            p.range = Range::Extended;
            p.score = (!close).then_some(1);
        });
        let mut state = withdrawn();
        use_books(&mut state, &pack);
        act(&mut state, Some(0), json!({"type": "escape"})).unwrap();
        told(&mut state, None, exchange(&[(0, 52), (1, 52)]))
    };
    assert!(
        scored(false).contains(&"The escape fails: Ash was scored on by Bryn.".to_string()),
        "{:#?}",
        scored(false)
    );
    assert!(
        scored(true).contains(&"The escape fails: Ash came to close range with Bryn.".to_string()),
        "{:#?}",
        scored(true)
    );
    let mut state = withdrawn();
    act(&mut state, Some(0), json!({"type": "escape"})).unwrap();
    act(&mut state, None, exchange(&[(0, 52), (1, 52)])).unwrap();
    let end = narration::epilogue(&state);
    assert_eq!(
        end[1],
        "Ash (player0): 10 of 10 body points, escaped; 0 experience."
    );
    assert_eq!(
        end[2],
        "Bryn (player1): 8 of 8 body points, on their feet; 0 experience."
    );
}

#[test]
fn the_owner_view_names_books_by_id() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let state = start(&pack, 2, json!({}));
    let view = LostWorlds::view(&state, crate::rules::Viewer::Owner);
    assert_eq!(view["books"], json!(["brakka", "nowa"]));
    let full = serde_json::to_string(&state).unwrap().len();
    let shown = serde_json::to_string(&view).unwrap().len();
    assert!(
        shown * 4 < full,
        "the view should leave the books out: {shown} of {full} bytes"
    );
    assert_eq!(view["seats"][0]["party"][0]["sheet"]["name"], "Nowa");
}

// ---------------------------------------------------------------- secrets

/// A duel of Ash (seat 0) and Bryn (seat 1) on the mini pack, as the
/// journal plays it: through `Game`.
fn duel_game(books: &str) -> Game {
    let created = GameCreated {
        title: None,
        kind: "lostworlds".into(),
        players: vec!["Ada".into(), "Bo".into()],
        seed: 1,
        dice: DiceMode::Digital,
        options: BTreeMap::from([
            ("characters".to_string(), json!("ash,bryn")),
            ("books".to_string(), json!(books)),
        ]),
        pack: serde_json::to_value(mini_pack()).unwrap(),
        public: false,
        rules_version: None,
        chance_version: None,
    };
    Game::start(&created).unwrap()
}

/// Decides `action` for `by` (`None`: the owner) and folds the event the
/// journal would store for it, with the actor the journal would record.
fn step(game: &mut Game, by: Option<u32>, action: Value) -> Event {
    let decision = game
        .decide(by, &action)
        .unwrap_or_else(|e| panic!("{action}: {e}"));
    let event = Event {
        game: "g".into(),
        branch: "main".into(),
        seq: game.seq() + 1,
        recorded_at_ms: 0,
        actor: by.map_or(Actor::Owner, Actor::Seat),
        schema_version: 1,
        idempotency_key: None,
        prev_hash: String::new(),
        hash: String::new(),
        salt: String::new(),
        body: Body::ActionAccepted(decision.body),
    };
    game.apply(&event).unwrap();
    event
}

fn json_text(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap()
}

/// Asserts none of `secrets` appears in `text`.
fn hides(text: &str, secrets: &[&str], what: &str) {
    for s in secrets {
        assert!(!text.contains(s), "{what} gives away `{s}`: {text}");
    }
}

const OTHERS: [Viewer; 2] = [Viewer::Seat(1), Viewer::Public];

#[test]
fn a_choice_is_hidden_from_the_other_seat_until_the_exchange_resolves() {
    let mut game = duel_game("full");
    let before = game.clone();
    // A seat token's choice names no seat: the actor is the chooser.
    let chose = step(&mut game, Some(0), json!({"type": "choose", "page": 50}));
    let secrets = ["50", "Charge"];
    assert!(json_text(&chose).contains("\"page\":50"));
    for viewer in OTHERS {
        let shown = game.redact_event(&chose, viewer).unwrap();
        hides(&json_text(&shown), &secrets, "the redacted event");
        let Body::ActionAccepted(a) = &shown.body else {
            unreachable!()
        };
        assert_eq!(a.action, json!({"type": "choose"}));
        assert_eq!(
            a.facts[0],
            json!({"type": "maneuver_chosen", "seat": 0, "targets": []})
        );
        let view = game.view(viewer);
        assert_eq!(view["pending"], json!({"0": {"held": "chosen"}}));
        let render = game.render(viewer);
        hides(&render, &["Charge", "page 50"], "the render");
        assert!(render.contains("choice: made\n"), "{render}");
        let lines = before.clone().apply_as(&chose, viewer).unwrap();
        assert!(
            lines
                .iter()
                .all(|l| l.contains(" plays ") || l.contains("own samples")),
            "a choice tells nothing but the opening: {lines:?}"
        );
        hides(&lines.join("\n"), &["Charge", "page 50"], "the narration");
    }
    // The chooser and the owner know it.
    for viewer in [Viewer::Owner, Viewer::Seat(0)] {
        assert_eq!(game.redact_event(&chose, viewer).unwrap(), chose);
        assert_eq!(game.view(viewer)["pending"]["0"]["page"], 50);
        let render = game.render(viewer);
        assert!(
            render.contains("choice: made (Extended Range Charge (page 50"),
            "{render}"
        );
    }

    // Bryn answers; the exchange resolves and both maneuvers are public.
    let mid = game.clone();
    let answer = step(
        &mut game,
        Some(1),
        json!({"type": "choose", "maneuver": "Extended Range Dodge"}),
    );
    for viewer in OTHERS {
        assert_eq!(game.redact_event(&chose, viewer).unwrap(), chose);
        assert_eq!(game.redact_event(&answer, viewer).unwrap(), answer);
        let lines = mid.clone().apply_as(&answer, viewer).unwrap().join("\n");
        assert!(
            lines.contains("Ash, told \"Do only Extended Range next turn\", goes for Extended Range Charge (page 50"),
            "{lines}"
        );
    }

    // Exchange 2: the owner calls Ash's choice for the table. It is hidden
    // again, while the choice of exchange 1 stays public.
    let second = step(
        &mut game,
        None,
        json!({"type": "choose", "seat": 0, "maneuver": "Down Swing Bash"}),
    );
    for viewer in OTHERS {
        let shown = json_text(&game.redact_event(&second, viewer).unwrap());
        hides(&shown, &["36", "Bash"], "the owner's call");
        assert_eq!(game.redact_event(&chose, viewer).unwrap(), chose);
    }
    assert_eq!(game.redact_event(&second, Viewer::Seat(0)).unwrap(), second);
}

#[test]
fn a_commitment_is_public_and_a_reveal_waits_for_the_exchange() {
    let mut game = duel_game("full");
    let hash = commitment(52, "moss-and-fern");
    let sealed = step(&mut game, Some(0), json!({"type": "commit", "hash": hash}));
    for viewer in OTHERS {
        assert_eq!(game.redact_event(&sealed, viewer).unwrap(), sealed);
        assert_eq!(game.view(viewer)["pending"]["0"]["hash"], hash);
    }
    // Opened before Bryn has chosen: Bryn must not read the page, nor the
    // salt (with the public hash it gives the page away).
    let before = game.clone();
    let reveal = json!({"type": "reveal", "page": 52, "salt": "moss-and-fern"});
    let told = game.decide_as(Some(0), &reveal, Viewer::Seat(0)).unwrap();
    assert_eq!(
        told.narration,
        vec!["Ash breaks the seal: Extended Range Dodge, as committed."]
    );
    let opened = step(&mut game, Some(0), reveal);
    let secrets = ["52", "moss-and-fern", "Dodge"];
    for viewer in OTHERS {
        let shown = json_text(&game.redact_event(&opened, viewer).unwrap());
        hides(&shown, &secrets, "the redacted reveal");
        assert!(shown.contains("maneuver_revealed"), "{shown}");
        assert_eq!(
            game.view(viewer)["pending"],
            json!({"0": {"held": "chosen"}})
        );
        let lines = before.clone().apply_as(&opened, viewer).unwrap();
        assert_eq!(lines, vec!["Ash breaks the seal."]);
    }
    assert_eq!(game.redact_event(&opened, Viewer::Seat(0)).unwrap(), opened);
    // Bryn chooses; the exchange resolves and the reveal is public.
    step(&mut game, Some(1), json!({"type": "choose", "page": 50}));
    for viewer in OTHERS {
        let shown = game.redact_event(&opened, viewer).unwrap();
        assert_eq!(shown, opened);
        assert!(json_text(&shown).contains("moss-and-fern"));
    }
}

#[test]
fn a_recorded_exchange_hides_nothing() {
    let mut game = duel_game("record");
    let event = step(
        &mut game,
        None,
        json!({"type": "exchange", "maneuvers": [
            {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close", "tell": "Do no Red next turn"}]},
            {"seat": 1, "page": 50, "seen": [{"picture": 5, "range": "close", "tell": "No restrictions next turn"}]}]}),
    );
    for viewer in OTHERS {
        assert_eq!(game.redact_event(&event, viewer).unwrap(), event);
        assert_eq!(game.view(viewer), game.view(Viewer::Owner));
    }
}

#[test]
fn a_seat_is_not_told_why_a_broken_pack_cannot_resolve_its_exchange() {
    let mut state = start(&mini_pack(), 2, json!({"characters": "ash,bryn"}));
    act(&mut state, Some(0), json!({"type": "choose", "page": 56})).unwrap();
    // A pack that slipped past validation: Bryn's book lost its matrices.
    std::sync::Arc::make_mut(state.books.get_mut("bryn").unwrap())
        .matrices
        .clear();
    let seat = act(
        &mut state.clone(),
        Some(1),
        json!({"type": "choose", "page": 52}),
    )
    .unwrap_err();
    assert_eq!(seat.rule, "lostworlds.unresolvable");
    hides(&seat.message, &["56", "Block and Close"], "the rejection");
    // The owner, acting for the table, is told where the pack is broken.
    let owner = act(
        &mut state,
        None,
        json!({"type": "choose", "seat": 1, "page": 52}),
    )
    .unwrap_err();
    assert_eq!(owner.rule, "lostworlds.book");
    assert!(owner.message.contains("page 56"), "{}", owner.message);
}

// ---------------------------------------------------------------- what the table reports

/// A record-mode fight of Ash (seat 0) against `foes` Bryns, through `Game`.
fn record_game(foes: usize) -> Game {
    let characters = std::iter::once("ash")
        .chain(std::iter::repeat_n("bryn", foes))
        .collect::<Vec<_>>()
        .join(",");
    let created = GameCreated {
        title: None,
        kind: "lostworlds".into(),
        players: ["Ada", "Bo", "Cy", "Dee"][..=foes]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        seed: 1,
        dice: DiceMode::Digital,
        options: BTreeMap::from([
            ("characters".to_string(), json!(characters)),
            ("books".to_string(), json!("record")),
        ]),
        pack: serde_json::to_value(mini_pack()).unwrap(),
        public: false,
        rules_version: None,
        chance_version: None,
    };
    Game::start(&created).unwrap()
}

/// A recorded exchange: Ash on `page` seeing `ash`, Bryn on `bryn_page` seeing `bryn`.
fn recorded(page: u32, ash: Value, bryn_page: u32, bryn: Value) -> Value {
    json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": page, "seen": [ash]},
        {"seat": 1, "page": bryn_page, "seen": [bryn]}]})
}

fn quiet() -> Value {
    json!({"picture": 5, "range": "close", "tell": "No restrictions next turn"})
}

fn refusal(game: &Game, action: Value) -> Rejection {
    game.decide(None, &action)
        .map(|_| panic!("{action} was accepted"))
        .unwrap_err()
}

#[test]
fn record_mode_refuses_numbers_no_book_page_prints_instead_of_wrapping() {
    let game = record_game(1);
    let huge = [
        (
            json!({"picture": 23, "range": "close", "score": 2147483647, "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].score` is 2147483647, but a score printed on a picture is 0 to 20",
        ),
        (
            json!({"picture": 23, "range": "close", "score": -1, "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].score` is -1",
        ),
        (
            json!({"picture": 23, "range": "close", "score": 4, "critical": {"threshold": 2147483647, "restriction": "Do no Red next turn"}, "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].critical.threshold` is 2147483647, but a critical burst prints 1 to 30",
        ),
        (
            json!({"picture": 23, "range": "close", "score": 4, "critical": {"threshold": 5, "restriction": "Subtract 2147483647 from all scores, cumulative, for the rest of the combat"}, "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].critical.restriction`",
        ),
        (
            json!({"picture": 23, "range": "close", "tell": "Subtract 2147483647 from all scores, cumulative, for the rest of the combat"}),
            "`maneuvers[0].seen[0].tell`: cannot read the restriction",
        ),
        (
            // Its absolute value does not even exist as an i32.
            json!({"picture": 23, "range": "close", "tell": "Subtract -2147483648 from all scores, cumulative, for the rest of the combat"}),
            "not a whole number from 1 to 9",
        ),
        (
            json!({"picture": 23, "range": "close", "tell": "Add +2147483647 if you score next turn"}),
            "the amount `+2147483647` in `add +2147483647 if you score next turn` is not a whole number from 1 to 9",
        ),
        (
            json!({"picture": 23, "range": "close", "tell": "Add ++2 if you score next turn"}),
            "`++2`",
        ),
        (
            json!({"picture": 64, "range": "close", "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].picture` is 64",
        ),
    ];
    for (ash, words) in huge {
        let e = refusal(&game, recorded(52, ash.clone(), 50, quiet()));
        assert_eq!(e.rule, "lostworlds.record", "{ash}: {}", e.message);
        assert!(e.message.contains(words), "{ash}: {}", e.message);
    }
    // The largest score a page prints is taken as it is.
    let top =
        json!({"picture": 23, "range": "close", "score": 20, "tell": "No restrictions next turn"});
    game.decide(None, &recorded(52, top, 50, quiet())).unwrap();

    // Penalties read aloud add up exactly: two "Subtract 9" then a top score
    // of 20 with Bash (+3, +1 for height) is 20 + 3 + 1 - 9 - 9 = 6.
    let mut game = game;
    let nine = json!({"picture": 5, "range": "close", "tell": "Subtract 9 from all scores, cumulative, for the rest of the combat"});
    step(&mut game, None, recorded(52, quiet(), 50, nine.clone()));
    step(&mut game, None, recorded(36, quiet(), 26, nine));
    let hit =
        json!({"picture": 23, "range": "close", "score": 20, "tell": "No restrictions next turn"});
    let d = game.decide(None, &recorded(36, hit, 26, quiet())).unwrap();
    let told = d.narration.join("\n");
    assert!(told.contains("penalty -9 + penalty -9 = 6"), "{told}");
    assert_eq!(d.body.facts[0]["blows"][0]["damage"], 6);

    // A pack is held to the same limits, naming the field.
    for (edit, path) in [
        (json!(2147483647), "characters[0].maneuvers[0].mod"),
        (json!(-21), "characters[0].maneuvers[0].mod"),
    ] {
        let mut pack = serde_json::to_value(mini_pack()).unwrap();
        pack["characters"][0]["maneuvers"][0]["mod"] = edit;
        let created = GameCreated {
            title: None,
            pack,
            ..record_game(1).created().clone()
        };
        let e = Game::start(&created).unwrap_err().to_string();
        assert!(e.contains(path) && e.contains("-20 to +20"), "{e}");
    }
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(21));
    let e = content::validate(&pack, "p.json").unwrap_err();
    assert_eq!(e.path, "books[1].pictures.23.score");
    assert!(e.message.contains("0 to 20"), "{}", e.message);
    let mut pack = mini_pack();
    pack.characters[0].body_points = i32::MAX;
    assert_eq!(
        content::validate(&pack, "p.json").unwrap_err().path,
        "characters[0].body_points"
    );
    let mut pack = mini_pack();
    pack.characters[1].experience = u32::MAX;
    assert_eq!(
        content::validate(&pack, "p.json").unwrap_err().path,
        "characters[1].experience"
    );
}

#[test]
fn record_mode_refuses_duplicate_contradictory_and_unknown_seen_entries() {
    let game = record_game(1);
    let saw =
        json!({"opponent": 1, "picture": 23, "range": "close", "tell": "Do no Red next turn"});
    let other =
        json!({"picture": 25, "range": "close", "score": 4, "tell": "No restrictions next turn"});
    let cases = [
        (
            json!([saw, saw]),
            "`maneuvers[0].seen[1]` repeats `maneuvers[0].seen[0]`",
        ),
        (
            // The second entry, with no opponent named, is Bryn's again.
            json!([saw, other]),
            "`maneuvers[0].seen[1]` contradicts `maneuvers[0].seen[0]`: Ash's result against Bryn is reported once",
        ),
        (
            json!([{"opponent": 3, "picture": 23, "range": "close", "tell": "Do no Red next turn"}]),
            "`maneuvers[0].seen[0].opponent` names seat 3, who is not one of Ash's opponents (seats 1)",
        ),
        (
            json!([{"opponent": 0, "picture": 23, "range": "close", "tell": "Do no Red next turn"}]),
            "`maneuvers[0].seen[0].opponent` names seat 0",
        ),
        (
            json!([{"picture": 23, "title": "  ", "range": "close", "tell": "Do no Red next turn"}]),
            "`maneuvers[0].seen[0].title` is blank",
        ),
    ];
    for (seen, words) in cases {
        let action = json!({"type": "exchange", "maneuvers": [
            {"seat": 0, "page": 52, "seen": seen},
            {"seat": 1, "page": 50, "seen": [quiet()]}]});
        let e = refusal(&game, action);
        assert_eq!(e.rule, "lostworlds.record");
        assert!(e.message.contains(words), "{}", e.message);
    }
    // One entry per opponent is what a seat reports.
    let mut ok = game.clone();
    step(&mut ok, None, recorded(52, saw, 50, quiet()));

    // Against two opponents every entry names its own.
    let game = record_game(2);
    let bryn = |o: u32| json!({"opponent": o, "picture": 5, "range": "close", "tell": "No restrictions next turn"});
    let unnamed = json!({"picture": 5, "range": "close", "tell": "No restrictions next turn"});
    let action = |ash: Value| {
        json!({"type": "exchange", "maneuvers": [
            {"seat": 0, "page": 52, "seen": ash},
            {"seat": 1, "page": 50, "seen": [bryn(0)]},
            {"seat": 2, "page": 50, "seen": [bryn(0)]}]})
    };
    let e = refusal(&game, action(json!([bryn(1), unnamed])));
    assert!(
        e.message
            .contains("`maneuvers[0].seen[1]` must name its `opponent`: Ash fights several"),
        "{}",
        e.message
    );
    let e = refusal(&game, action(json!([bryn(2), bryn(1), bryn(2)])));
    assert!(
        e.message
            .contains("`maneuvers[0].seen[2]` repeats `maneuvers[0].seen[0]`"),
        "{}",
        e.message
    );
    game.decide(None, &action(json!([bryn(2), bryn(1)])))
        .unwrap();
}

#[test]
fn a_commitment_or_targets_written_loosely_are_refused_not_trimmed() {
    let game = duel_game("full");
    let hash = commitment(52, "salt");
    for loose in [
        format!(" {hash}"),
        format!("{hash}\u{20}"),
        hash[1..].to_string(),
    ] {
        let e = game
            .decide(Some(0), &json!({"type": "commit", "hash": loose}))
            .unwrap_err();
        assert_eq!(e.rule, "lostworlds.commit", "{loose:?}");
        assert!(e.message.contains("exactly 64 hex digits"), "{}", e.message);
    }
    // Upper-case hex names the same hash; it is stored in lower case.
    let d = game
        .decide(
            Some(0),
            &json!({"type": "commit", "hash": hash.to_uppercase()}),
        )
        .unwrap();
    assert_eq!(d.body.facts[0]["hash"], json!(hash));

    // Each opponent is named once in `targets`.
    let three = record_game(2);
    let e = three
        .decide(
            None,
            &json!({"type": "exchange", "maneuvers": [
                {"seat": 0, "page": 52, "targets": [1, 1], "seen": []},
                {"seat": 1, "page": 50}, {"seat": 2, "page": 50}]}),
        )
        .unwrap_err();
    assert_eq!(e.rule, "lostworlds.targets");
    assert!(
        e.message.contains("`targets[1]` names seat 1 again"),
        "{}",
        e.message
    );
}

#[test]
fn a_seat_option_written_loosely_is_refused_not_silently_overridden() {
    // `seat01` and `seat1` both named seat 1; the later key won.
    let created = GameCreated {
        title: None,
        options: BTreeMap::from([
            ("seat01".to_string(), json!("ash")),
            ("seat1".to_string(), json!("bryn")),
        ]),
        ..duel_game("full").created().clone()
    };
    let e = Game::start(&created).unwrap_err().to_string();
    assert!(
        e.contains("option `seat01`: name a seat by number, as in seat0 or seat1"),
        "{e}"
    );
}

/// Every text of an SVG drawing, joined by spaces (wrapped lines rejoin).
fn svg_text(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
    assert!(doc.root_element().has_tag_name("svg"));
    assert!(doc.root_element().attribute("viewBox").is_some());
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one seat's sheet says, from its `seat-N` group.
fn sheet_text(svg: &str, seat: u32) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let group = doc
        .descendants()
        .find(|n| n.attribute("id") == Some(format!("seat-{seat}").as_str()))
        .unwrap_or_else(|| panic!("no sheet for seat {seat}: {svg}"));
    group
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_svg_draws_each_sheet_as_the_state_says() {
    let mut game = duel_game("full");
    step(&mut game, Some(0), json!({"type": "choose", "page": 50}));
    step(
        &mut game,
        Some(1),
        json!({"type": "choose", "maneuver": "Extended Range Dodge"}),
    );
    let svg = game.render_svg(Viewer::Owner);
    let view = game.view(Viewer::Owner);
    for seat in 0..2u32 {
        let st = &view["seats"][seat as usize];
        let fighter = &st["party"][st["active"].as_u64().unwrap() as usize];
        let sheet = sheet_text(&svg, seat);
        let body = format!(
            "{} of {} body points",
            fighter["body"], fighter["sheet"]["body_points"]
        );
        assert!(sheet.contains(&body), "{body} not in {sheet}");
        assert!(sheet.contains(fighter["sheet"]["name"].as_str().unwrap()));
        let foe = 1 - seat;
        let picture = &st["sights"][foe.to_string()]["picture"];
        assert!(
            sheet.contains(&format!("picture {picture}")),
            "picture {picture} not in {sheet}"
        );
        assert!(sheet.contains("Choosing a maneuver"), "{sheet}");
    }
    assert!(svg_text(&svg).contains("Exchange 2"), "{svg}");
}

#[test]
fn the_svg_hides_a_pending_choice_from_the_other_seat_and_the_public() {
    let mut game = duel_game("full");
    step(&mut game, Some(0), json!({"type": "choose", "page": 50}));
    for viewer in OTHERS {
        let text = svg_text(&game.render_svg(viewer));
        hides(&text, &["Charge", "page 50"], "the drawing");
        assert!(sheet_text(&game.render_svg(viewer), 0).contains("Chosen"));
    }
    for viewer in [Viewer::Owner, Viewer::Seat(0)] {
        let sheet = sheet_text(&game.render_svg(viewer), 0);
        assert!(
            sheet.contains("Chosen: Extended Range Charge (page 50"),
            "{sheet}"
        );
    }
    // A sealed choice is sealed for everyone, the owner included.
    let mut sealed = duel_game("full");
    let hash = decide::commitment(50, "pepper");
    step(
        &mut sealed,
        Some(1),
        json!({"type": "commit", "hash": hash}),
    );
    for viewer in [Viewer::Owner, Viewer::Seat(0), Viewer::Public] {
        let sheet = sheet_text(&sealed.render_svg(viewer), 1);
        assert!(sheet.contains("Chosen (sealed)"), "{sheet}");
        hides(&sheet, &["page 50"], "a sealed sheet");
    }
}

#[test]
fn the_svg_tells_the_end_of_a_whole_duel() {
    let state = play(&mini_pack(), 2, json!({"characters": "ash,bryn"}), 7);
    let svg = LostWorlds::render_svg(&state, Viewer::Public);
    let text = svg_text(&svg);
    let outcome = state.outcome.as_ref().expect("the duel ended");
    let ending = narration::ending_line(&state, outcome.ending, &outcome.victors);
    let opening: String = ending.split(' ').take(4).collect::<Vec<_>>().join(" ");
    assert!(text.contains(&opening), "{opening:?} not in {text}");
    assert!(text.starts_with("After the fight"), "{text}");
}

/// `allows` (asked of every maneuver when the choices are offered) and
/// `permits` (which says why not) agree on every clause every bundled book
/// can tell, for every maneuver of every bundled character.
#[test]
fn a_clause_allows_exactly_what_it_permits() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut checked = 0;
    for book in &pack.books {
        for picture in book.pictures.values() {
            let Ok(told) = crate::lostworlds::restriction::Restriction::parse(&picture.tell) else {
                continue;
            };
            for clause in &told.clauses {
                for c in &pack.characters {
                    for m in &c.maneuvers {
                        for widen in [false, true] {
                            assert_eq!(
                                clause.allows(m, &c.maneuvers, widen),
                                clause.permits(m, &c.maneuvers, widen).is_ok(),
                                "{} / {} / widen {widen}",
                                picture.tell,
                                m.full_name()
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} checked");
}

/// The default pack's Nowa, close to Brakka with no orders.
fn nowa_close() -> State {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut state = start(&pack, 2, json!({}));
    close_quarters(&mut state);
    state
}

fn idx(state: &State, seat: u32, name: &str) -> usize {
    state.seats[seat as usize]
        .fighter()
        .sheet
        .maneuver_named(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .0
}

#[test]
fn the_colours_follow_the_rule_text() {
    let mut state = nowa_close();
    let colour = |state: &State, name: &str| {
        state.seats[0].fighter().sheet.maneuvers[idx(state, 0, name)].colour
    };
    // Fake High starts high (Red) and answers "no Blue"; Fake Low the reverse.
    assert_eq!(colour(&state, "Fake High"), Colour::Red);
    assert_eq!(colour(&state, "Fake Low"), Colour::Blue);
    tell(&mut state, 0, 1, "Do no Blue next turn.");
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Fake High")).is_ok());
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Fake Low")).is_err());
    // Wild Swing is Green: the disarmed order's "(except Wild Swing)" is what keeps it out.
    assert_eq!(colour(&state, "Special Wild Swing"), Colour::Green);
    state.seats[0].orders = Orders::default();
    tell(&mut state, 0, 1, "Do only Green or Yellow next turn.");
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Special Wild Swing")).is_ok());
    // At extended range Brown is the Charge, Black the long strokes, White the guards.
    assert_eq!(colour(&state, "Extended Range Charge"), Colour::Brown);
    let mut far = start(
        &serde_json::from_value(LostWorlds::default_pack()).unwrap(),
        2,
        json!({}),
    );
    far.seats[0].orders = Orders::default();
    tell(&mut far, 0, 1, "Do only Brown or White next turn.");
    for (name, open) in [
        ("Extended Range Charge", true),
        ("Extended Range Dodge", true),
        ("Extended Range Jump Back", true),
        ("Extended Range Swing High", false),
        ("Extended Range Thrust Low", false),
    ] {
        assert_eq!(
            decide::check_maneuver(&far, 0, idx(&far, 0, name)).is_ok(),
            open,
            "{name}"
        );
    }
    far.seats[0].orders = Orders::default();
    tell(&mut far, 0, 1, "Do only Brown or Black next turn.");
    assert!(decide::check_maneuver(&far, 0, idx(&far, 0, "Extended Range Swing Low")).is_ok());
    assert!(decide::check_maneuver(&far, 0, idx(&far, 0, "Extended Range Dodge")).is_err());
}

#[test]
fn a_lost_weapon_is_kept_until_retrieved_and_only_a_lost_one_is() {
    let mut state = nowa_close();
    // Holding the weapon: nothing to retrieve.
    let e =
        decide::check_maneuver(&state, 0, idx(&state, 0, "Special Retrieve Weapon")).unwrap_err();
    assert_eq!(e.rule, "lostworlds.weapon");
    assert!(
        e.message.contains("still holds the weapon"),
        "{}",
        e.message
    );
    assert!(!decide::choices(&state, 0)
        .open
        .contains(&idx(&state, 0, "Special Retrieve Weapon")));
    // Disarmed: no blow with the weapon, whatever else is ordered or set aside.
    tell(
        &mut state,
        0,
        1,
        "Do only Kick, Yellow or Green (except Wild Swing) until weapon has been retrieved.",
    );
    tell(&mut state, 0, 1, "Do only Red next turn.");
    let open = decide::choices(&state, 0).open;
    for name in [
        "Special Dislodge Weapon",
        "Special Wild Swing",
        "Side Swing High",
        "Thrust High",
    ] {
        assert!(
            !open.contains(&idx(&state, 0, name)),
            "{name} with the weapon lost"
        );
        let e = decide::check_maneuver(&state, 0, idx(&state, 0, name)).unwrap_err();
        assert_eq!(e.rule, "lostworlds.weapon", "{name}: {}", e.message);
    }
    assert!(open.contains(&idx(&state, 0, "Special Retrieve Weapon")));
    assert!(open.contains(&idx(&state, 0, "Special Kick")));
    // "May use weapon again": held once more, and Retrieve is closed again.
    state.seats[0].orders.read(
        Some(1),
        &Restriction::parse("May use weapon again. Do no Orange next turn.").unwrap(),
    );
    assert!(!state.seats[0].orders.disarmed());
    state.seats[0].orders.next_turn.clear();
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Special Dislodge Weapon")).is_ok());
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Special Retrieve Weapon")).is_err());
}

#[test]
fn a_conditional_tell_sends_the_listener_to_its_page_and_expires() {
    // Ash reads Bryn: "If I am pushed off balance go to p. 19". Next
    // exchange Ash's own picture (1 in Bryn's book) shows Ash off balance.
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 1, |p| {
        p.holder = vec!["off balance".into()]
    });
    set_picture(&mut pack, "ash", 19, |p| p.title = "Ash stumbles".into());
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    tell(
        &mut state,
        1,
        0,
        "Do no Orange next turn. If I am 'Pushed Off Balance' go to p. 19.",
    );
    let facts = act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    let r = resolution(&facts);
    let bryn_sees = r.blows.iter().find(|b| b.attacker == 1).unwrap();
    assert_eq!((bryn_sees.picture, bryn_sees.instead_of), (19, Some(1)));
    let ash_sees = r.blows.iter().find(|b| b.attacker == 0).unwrap();
    assert_eq!((ash_sees.picture, ash_sees.instead_of), (1, None));
    assert_eq!(state.seats[1].sights[&0].picture, 19);
    // Spent: the next exchange goes by the matrix again.
    assert_eq!(state.seats[1].orders.conditionals(0).count(), 0);
    let facts = act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    let bryn_sees = resolution(&facts)
        .blows
        .iter()
        .find(|b| b.attacker == 1)
        .unwrap()
        .clone();
    assert_eq!((bryn_sees.picture, bryn_sees.instead_of), (1, None));
    // Told, but Ash stays on balance: nothing changes.
    let mut state = start(&mini_pack(), 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    tell(&mut state, 1, 0, "If I am pushed off balance go to p. 19.");
    let facts = act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    assert!(resolution(&facts)
        .blows
        .iter()
        .all(|b| b.instead_of.is_none()));
}

#[test]
fn the_raising_round_is_kept_on_the_sheet_from_fight_to_fight() {
    let mut pack = mini_pack();
    // Ash raised Bash in an earlier fight: every other modifier comes first.
    pack.characters[0].maneuvers[0].raised = 1;
    pack.characters[0].experience = 40;
    route(&mut pack, "bryn", 36, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(20));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let bash = state.seats[0].party[0].sheet.maneuvers[0].full_name();
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": bash}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.improvement_order", "{}", e.message);
    let other = state.seats[0].party[0].sheet.maneuvers[1].full_name();
    act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": other}),
    )
    .unwrap();
    // The sheet the state shows carries the "+" column on to the next fight.
    let sheet = &state.seats[0].party[0].sheet;
    assert_eq!(
        (sheet.maneuvers[0].raised, sheet.maneuvers[1].raised),
        (1, 1)
    );
}

#[test]
fn every_critical_of_the_sample_books_can_land_and_random_duels_land_them() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut landed: BTreeMap<(String, u32), usize> = BTreeMap::new();
    for i in 0..300u64 {
        let mut seed = 0x0c21_u64.wrapping_add(i * 7919) | 1;
        let mut state = start(&pack, 2, json!({}));
        while !LostWorlds::is_over(&state) {
            let legal: Vec<_> = LostWorlds::legal(&state, None)
                .into_iter()
                .filter(|l| l.needs.is_empty() && !matches!(l.action, Action::Escape { .. }))
                .collect();
            let pick = &legal[(next(&mut seed) % legal.len() as u64) as usize].action;
            for f in decide::decide(&state, None, pick, &mut no_dice()).unwrap() {
                if let Fact::ExchangeResolved(r) = &f {
                    for b in r.blows.iter().filter(|b| b.critical.is_some()) {
                        let book = state.seats[b.defender as usize].fighter().sheet.id.clone();
                        *landed.entry((book, b.picture)).or_default() += 1;
                    }
                }
                LostWorlds::apply(&mut state, &f);
            }
        }
    }
    let bursts: Vec<(String, u32)> = pack
        .books
        .iter()
        .flat_map(|b| {
            b.pictures
                .iter()
                .filter(|(_, p)| p.critical.is_some())
                .map(|(&n, _)| (b.character.clone(), n))
        })
        .collect();
    assert_eq!(bursts.len(), 8, "four bursts in each sample book");
    for burst in &bursts {
        assert!(
            landed.contains_key(burst),
            "{burst:?} never landed: {landed:?}"
        );
    }
}

#[test]
fn three_fighters_from_two_characters_are_named_not_doubled_silently() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let players: Vec<String> = ["Ada", "Bo", "Cy"].iter().map(|s| s.to_string()).collect();
    let e = decide::setup(
        &players,
        &options(json!({})),
        &pack,
        LostWorlds::RULES_VERSION,
        DiceMode::Digital,
    )
    .unwrap_err();
    assert_eq!(e.rule, "setup.character");
    assert!(e.message.contains("name each seat's"), "{}", e.message);
    // Named, a character may fight twice; names are read in any case.
    let state = decide::setup(
        &players,
        &options(json!({"characters": "NOWA,Brakka,brakka"})),
        &pack,
        LostWorlds::RULES_VERSION,
        DiceMode::Digital,
    )
    .unwrap();
    assert_eq!(state.seat_name(1), "Brakka (Bo)");
    // Two players still need no option at all.
    decide::setup(
        &players[..2],
        &options(json!({})),
        &pack,
        LostWorlds::RULES_VERSION,
        DiceMode::Digital,
    )
    .unwrap();
    // Rules 1 fielded the sample twice, and an old game still lays out so.
    let old = decide::setup(&players, &options(json!({})), &pack, 1, DiceMode::Digital).unwrap();
    assert_eq!(old.seat_name(2), "Brakka (Cy)");
    // A short name finds the one maneuver that bears it, in any case.
    let sheet = &state.seats[0].fighter().sheet;
    assert_eq!(
        sheet.maneuver_named("charge").unwrap().1.full_name(),
        "Extended Range Charge"
    );
    assert!(
        sheet.maneuver_named("High").is_none(),
        "several maneuvers are called High"
    );
}

// ---------------------------------------------------------------- cards

fn rule(e: Rejection) -> String {
    e.rule.to_string()
}

/// Ash (luck 2, tactics 5, spell 3) against Bryn, both at close quarters;
/// Bryn's book scores 3 on every page, so Ash's blows always land.
fn carded() -> (Pack, State) {
    let mut pack = mini_pack();
    let ash = &mut pack.characters[0];
    ash.abilities.insert("tactics".into(), 5);
    ash.abilities.insert("spell".into(), 3);
    set_picture(&mut pack, "bryn", 1, |p| p.score = Some(3));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    (pack, state)
}

#[test]
fn cards_are_taken_in_before_the_first_exchange_within_the_sheets_points() {
    let (_, mut state) = carded();
    let e = take_cards(&mut state, 0, json!(["slip", "fortune"])).unwrap_err();
    assert_eq!(rule(e.clone()), "lostworlds.cards.points");
    assert!(
        e.message
            .contains("luck cards cost 3 points, and the sheet has 2 luck points"),
        "{}",
        e.message
    );
    let e = take_cards(&mut state, 1, json!(["edge"])).unwrap_err();
    assert!(
        e.message.contains("the sheet has 0 tactics points"),
        "{}",
        e.message
    );
    let e = take_cards(&mut state, 0, json!(["axe"])).unwrap_err();
    assert_eq!(rule(e.clone()), "lostworlds.cards.unknown");
    assert!(
        e.message.contains("cards[0]") && e.message.contains("dart, edge, fortune"),
        "{}",
        e.message
    );
    // Items cost nothing and a card may be taken twice; names read in any case.
    take_cards(
        &mut state,
        0,
        json!(["EDGE", "the stance", "fortune", "mail", "mail"]),
    )
    .unwrap();
    let held: Vec<&str> = state.seats[0]
        .fighter()
        .cards
        .iter()
        .map(|h| h.id.as_str())
        .collect();
    assert_eq!(held, ["edge", "stance", "fortune", "mail", "mail"]);
    act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let e = take_cards(&mut state, 0, json!([])).unwrap_err();
    assert_eq!(rule(e), "lostworlds.cards.late");
}

#[test]
fn luck_once_a_turn_an_item_for_good_and_every_card_once_a_combat() {
    let (_, mut state) = carded();
    take_cards(&mut state, 0, json!(["fortune", "mail"])).unwrap();
    take_cards(&mut state, 1, json!(["slip", "mail"])).unwrap();
    card_play(&mut state, 0, "fortune").unwrap();
    card_play(&mut state, 1, "mail").unwrap();
    card_play(&mut state, 1, "slip").unwrap();
    // Ash's Bash: score 3, Bash +3, height +1, fortune +1, Bryn's mail -1 and slip -2.
    let facts = act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let blow = resolution(&facts)
        .blows
        .iter()
        .find(|b| b.attacker == 0)
        .unwrap()
        .clone();
    let labels: Vec<(String, i32)> = blow
        .parts
        .iter()
        .map(|p| (p.label.clone(), p.value))
        .collect();
    assert!(labels.contains(&("the fortune".into(), 1)), "{labels:?}");
    assert!(
        labels.contains(&("Bryn's the mail".into(), -1)),
        "{labels:?}"
    );
    assert!(
        labels.contains(&("Bryn's the slip".into(), -2)),
        "{labels:?}"
    );
    assert_eq!(blow.total, 5);
    assert_eq!(state.seats[1].fighter().body, 3);
    // Next exchange: the luck is spent, Bryn's mail still holds.
    let facts = act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let blow = resolution(&facts)
        .blows
        .iter()
        .find(|b| b.attacker == 0)
        .unwrap()
        .clone();
    assert_eq!(blow.total, 6, "{:?}", blow.parts);
    // Each card once a combat; luck once a turn.
    let (_, mut state) = carded();
    take_cards(&mut state, 0, json!(["fortune", "slip"])).unwrap_err();
    let (_, mut state) = carded();
    state.seats[0].party[0].sheet = std::sync::Arc::new(Character {
        abilities: BTreeMap::from([("luck".to_string(), 3)]),
        ..(*state.seats[0].party[0].sheet).clone()
    });
    take_cards(&mut state, 0, json!(["fortune", "slip"])).unwrap();
    card_play(&mut state, 0, "fortune").unwrap();
    let e = card_play(&mut state, 0, "slip").unwrap_err();
    assert!(e.message.contains("one a turn"), "{}", e.message);
    let e = card_play(&mut state, 0, "fortune").unwrap_err();
    assert_eq!(rule(e), "lostworlds.cards.played");
    act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    card_play(&mut state, 0, "slip").unwrap();
}

#[test]
fn a_tactic_or_spell_is_revealed_when_a_picture_directs_it_and_heals_at_once() {
    let (_, mut state) = carded();
    take_cards(&mut state, 0, json!(["edge", "stance", "mend"])).unwrap();
    let e = card_play(&mut state, 0, "edge").unwrap_err();
    assert_eq!(rule(e.clone()), "lostworlds.cards.closed");
    assert!(
        e.message
            .contains("no picture directs Ash to reveal a tactic card"),
        "{}",
        e.message
    );
    assert!(decide::legal(&state, Some(0))
        .iter()
        .all(|l| !matches!(l.action, Action::PlayCard { .. })));
    // Bryn sees Ash on a picture that directs a tactic.
    state.seats[1].sights.get_mut(&0).unwrap().reveal = Some(CardKind::Tactic);
    let open: Vec<String> = decide::legal(&state, Some(0))
        .iter()
        .filter_map(|l| match &l.action {
            Action::PlayCard { card, .. } => Some(card.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(open, ["edge", "stance"], "tactics only, the spell waits");
    card_play(&mut state, 0, "edge").unwrap();
    let e = card_play(&mut state, 0, "stance").unwrap_err();
    assert!(e.message.contains("already"), "{}", e.message);
    act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    state.seats[1].sights.get_mut(&0).unwrap().reveal = Some(CardKind::Spell);
    state.seats[0].party[0].body = 4;
    let told = narration_of(
        &mut state,
        Some(0),
        json!({"type": "play_card", "card": "mend"}),
    );
    assert_eq!(state.seats[0].fighter().body, 7);
    assert!(
        told.contains("Ash reveals the mend, a spell card: 3 body points back."),
        "{told}"
    );
}

fn card_play(state: &mut State, seat: u32, card: &str) -> Result<Vec<Fact>, Rejection> {
    act(
        state,
        Some(seat),
        json!({"type": "play_card", "card": card}),
    )
}

fn take_cards(state: &mut State, seat: u32, cards: Value) -> Result<Vec<Fact>, Rejection> {
    act(
        state,
        Some(seat),
        json!({"type": "select_cards", "cards": cards}),
    )
}

fn narration_of(state: &mut State, by: Option<u32>, action: Value) -> String {
    let action: Action = serde_json::from_value(action).unwrap();
    let facts = decide::decide(state, by, &action, &mut no_dice()).unwrap();
    let mut told = Vec::new();
    for f in &facts {
        told.extend(LostWorlds::narrate(state, f));
        LostWorlds::apply(state, f);
    }
    told.join("\n")
}

#[test]
fn a_party_member_fires_a_missile_card_that_lands_as_the_pages_turn() {
    let mut pack = mini_pack();
    pack.characters[1].abilities.insert("spell".into(), 2);
    let mut state = start(&pack, 2, json!({"characters": "ash+bryn,ash"}));
    close_quarters(&mut state);
    act(
        &mut state,
        Some(0),
        json!({"type": "select_cards", "member": "bryn", "cards": ["sling", "dart"]}),
    )
    .unwrap();
    state.seats[1].sights.get_mut(&0).unwrap().party = Some(PartyMark::Missile);
    let offered: Vec<Option<String>> = decide::legal(&state, Some(0))
        .iter()
        .filter_map(|l| match &l.action {
            Action::FireMissile { card, .. } => Some(card.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        offered,
        [Some("sling".to_string()), Some("dart".to_string())]
    );
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "fire_missile", "member": "bryn", "what": "a stone"}),
    )
    .unwrap_err();
    assert!(
        e.message.contains("name the spell or missile card"),
        "{}",
        e.message
    );
    let told = narration_of(
        &mut state,
        Some(0),
        json!({"type": "fire_missile", "member": "bryn", "card": "sling"}),
    );
    assert!(
        told.contains("Bryn looses the sling past Ash (player0): 2 damage to Ash (player1) as the next pages turn"),
        "{told}"
    );
    let facts = act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    let r = resolution(&facts);
    assert_eq!(r.strikes.len(), 1);
    assert_eq!((r.strikes[0].defender, r.strikes[0].damage), (1, 2));
    assert_eq!(
        state.seats[1].fighter().body,
        8,
        "no score, yet the missile hurt"
    );
    assert!(state.seats[0].strikes.is_empty(), "spent");
    state.seats[1].sights.get_mut(&0).unwrap().party = Some(PartyMark::Missile);
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "fire_missile", "member": "bryn", "card": "sling"}),
    )
    .unwrap_err();
    assert_eq!(rule(e), "lostworlds.cards.played");
}

#[test]
fn a_fighter_scoring_on_more_opponents_than_its_attacks_picks_after_the_pages_turn() {
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 1, |p| p.score = Some(3));
    let mut state = start(&pack, 3, json!({"characters": "ash,bryn,bryn"}));
    close_quarters(&mut state);
    for seat in [1, 2] {
        act(
            &mut state,
            Some(seat),
            json!({"type": "choose", "page": 26}),
        )
        .unwrap();
    }
    let facts = act(&mut state, Some(0), json!({"type": "choose", "page": 36})).unwrap();
    assert!(
        matches!(&facts[1], Fact::TargetsAwaited { seat: 0, scored, attacks: 1 } if scored == &[1, 2]),
        "{facts:?}"
    );
    assert_eq!(decide::to_move(&state), [0]);
    let picks: Vec<Value> = decide::legal(&state, None)
        .iter()
        .map(|l| serde_json::to_value(&l.action).unwrap())
        .collect();
    assert_eq!(
        picks,
        [
            json!({"type": "pick_targets", "seat": 0, "targets": [1]}),
            json!({"type": "pick_targets", "seat": 0, "targets": [2]})
        ]
    );
    let e = act(&mut state, Some(1), json!({"type": "escape"})).unwrap_err();
    assert_eq!(rule(e), "lostworlds.targets.awaited");
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "pick_targets", "targets": [1, 2]}),
    )
    .unwrap_err();
    assert!(e.message.contains("hits 1 of"), "{}", e.message);
    let facts = act(
        &mut state,
        Some(0),
        json!({"type": "pick_targets", "targets": [2]}),
    )
    .unwrap();
    let r = resolution(&facts);
    let landed: Vec<u32> = r
        .blows
        .iter()
        .filter(|b| b.attacker == 0 && b.landed)
        .map(|b| b.defender)
        .collect();
    assert_eq!(landed, [2]);
    assert_eq!(state.seats[1].fighter().body, 8);
    assert!(state.seats[2].fighter().body < 8);
    assert!(state.awaiting.is_none());
}

#[test]
fn another_seats_cards_are_face_down_until_played() {
    let (_, mut state) = carded();
    let facts = take_cards(&mut state, 0, json!(["edge", "mail"])).unwrap();
    let cx = crate::rules::Context {
        by: Some(0),
        seq: 2,
        state: &state,
    };
    let theirs = LostWorlds::redact(&facts[0], Viewer::Seat(1), &cx);
    assert_eq!(
        theirs,
        Fact::CardsSelected {
            seat: 0,
            member: 0,
            cards: vec![],
            count: 2
        }
    );
    assert_eq!(
        LostWorlds::redact(&facts[0], Viewer::Seat(0), &cx),
        facts[0]
    );
    let told = LostWorlds::narrate(&state, &theirs).join(" ");
    assert!(
        told.ends_with(" Ash takes 2 fantasy cards into the fight, face down."),
        "{told}"
    );
    let action: Action =
        serde_json::from_value(json!({"type": "select_cards", "cards": ["edge", "mail"]})).unwrap();
    let shown =
        serde_json::to_string(&LostWorlds::redact_action(&action, Viewer::Seat(1), &cx)).unwrap();
    assert!(!shown.contains("edge"), "{shown}");
    card_play(&mut state, 0, "mail").unwrap();
    for viewer in [Viewer::Seat(1), Viewer::Public] {
        let view = LostWorlds::view(&state, viewer);
        let ash = &view["seats"][0]["party"][0];
        assert_eq!(
            ash["cards"],
            json!([{"id": "mail", "played": true}]),
            "{view}"
        );
        assert_eq!(ash["face_down"], 1);
        assert!(
            !view.to_string().contains("\"edge\":"),
            "the pack's cards are listed by id only"
        );
        let svg = LostWorlds::render_svg(&state, viewer);
        assert!(
            svg.contains("Cards: 1 face down; played: the mail") && !svg.contains("the edge"),
            "{svg}"
        );
        let text = LostWorlds::render(&state, viewer);
        assert!(
            text.contains("cards: 1 face down; played: the mail") && !text.contains("edge"),
            "{text}"
        );
    }
    assert_eq!(
        LostWorlds::view(&state, Viewer::Seat(0))["seats"][0]["party"][0]["cards"][0]["id"],
        "edge"
    );
}
