//! Moving: the die plus Mobility, crutches and chairs, a roll written as a
//! bare number, and the street event cards (typed by a table with its own
//! cards, the deck renewed from the discards).

use super::*;

#[test]
fn a_move_is_a_die_plus_mobility_along_orthogonal_steps() {
    let mut s = table();
    give_leg(&mut s, 0, "Bath Chair", true); // Mobility -1
    let mut g = game_of(&s);
    let e = rejection(&g, Some(0), json!({"type": "roll"}));
    assert_eq!(e.rule, "physical.roll_needed");
    let facts = step(&mut g, Some(0), json!({"type": "roll", "rolls": [4]}));
    assert_eq!(facts[0]["steps"], 3, "4 - 1 for the Bath Chair");
    assert_eq!(
        state_of(&g).turn().unwrap().stage,
        Stage::Moving { steps: 3 }
    );

    // Too far, diagonal, off the street: refused, naming the step.
    let far = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["d9", "e9", "f9", "g9"]}),
    );
    assert_eq!(far.rule, "legless.too_far");
    let diag = rejection(&g, Some(0), json!({"type": "move", "path": ["d8"]}));
    assert_eq!(diag.rule, "legless.path");
    assert!(diag.message.contains("path[0]"), "{}", diag.message);
    // A location ends the move: nothing may follow it.
    let through = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["c10", "sickroom", "b9"]}),
    );
    assert!(
        through.message.contains("ends the move"),
        "{}",
        through.message
    );
    // c9 to the Music Hall (m10/m11 are its squares beside d10): two steps.
    step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["d9", "music-hall"]}),
    );
    let s = state_of(&g);
    assert_eq!(s.londoner(0).at, at("music-hall"));
    assert_eq!(s.turn().unwrap().seat, 1, "the move ends the turn");
}

#[test]
fn a_zero_move_ends_the_turn_and_negative_mobility_subtracts() {
    let mut s = table();
    give_leg(&mut s, 0, "Bath Chair", true);
    let mut g = game_of(&s);
    let facts = step(&mut g, Some(0), json!({"type": "roll", "rolls": [1]}));
    assert_eq!(facts[0]["steps"], 0);
    assert_eq!(state_of(&g).turn().unwrap().seat, 1);
}

#[test]
fn crutches_roll_best_of_two_or_three_but_not_with_a_chair() {
    let mut s = table();
    give_leg(&mut s, 0, "Single Crutch", false);
    let g = game_of(&s);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "roll", "rolls": [3]})).rule,
        "legless.move_dice"
    );
    let mut g2 = g.clone();
    let f = step(&mut g2, Some(0), json!({"type": "roll", "rolls": [2, 5]}));
    assert_eq!(f[0]["steps"], 5);

    give_leg(&mut s, 0, "Pair of Crutches", false);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "roll", "rolls": [1, 6, 2]}));
    assert_eq!(f[0]["steps"], 6);

    give_leg(&mut s, 0, "Wheel-Chair", true); // Mobility +3, refuses crutches
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "roll", "rolls": [2]}));
    assert_eq!(f[0]["steps"], 5);
    // Crutches are never the equipped leg.
    let mut s = table();
    give_leg(&mut s, 0, "Single Crutch", false);
    let e = rejection(
        &game_of(&s),
        Some(0),
        json!({"type": "equip", "leg": "Single Crutch"}),
    );
    assert_eq!(e.rule, "legless.crutches");
}

#[test]
fn one_die_may_be_written_as_a_bare_number() {
    let mut g = game_of(&table());
    let f = step(&mut g, Some(0), json!({"type": "roll", "rolls": 4}));
    assert_eq!(f[0]["rolls"], json!([4]));
    let e = g
        .decide(Some(0), &json!({"type": "move", "path": "f8"}))
        .unwrap_err();
    assert!(e.message.contains("expected a sequence"), "{}", e.message);
    let e = game_of(&table())
        .decide(Some(0), &json!({"type": "roll", "rolls": "four"}))
        .unwrap_err();
    assert!(
        e.message.contains("a die face or a list of die faces"),
        "{}",
        e.message
    );
}

#[test]
fn street_events_crossed_are_read_in_order_once_the_move_ends() {
    let mut s = table();
    moving(&mut s, 4);
    let mut g = game_of(&s);
    // c9 -> b9 (symbol) -> c9 -> b9 again -> a9: one symbol square, once.
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["b9", "c9", "b9", "a9"]}),
    );
    assert_eq!(e.rule, "physical.draw_needed");
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["b9", "c9", "b9", "a9"], "drew": ["Pickpocket", "Penny lottery"]}),
    );
    assert_eq!(e.rule, "legless.street_events");
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "c9", "b9", "a9"], "drew": ["Pickpocket"]}),
    );
    assert_eq!(
        types(&facts),
        ["moved", "street_event_read", "paid", "turn_began"]
    );
    let s = state_of(&g);
    assert_eq!(s.londoner(0).money, 4);
    assert_eq!(s.discard, ["Pickpocket"]);
    assert_eq!(s.deck.len(), 15);
}

#[test]
fn a_table_with_its_own_cards_types_what_they_say() {
    let mut s = table();
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "cards": [{"name": "Fallen horse", "effects": [{"health": -3}, {"miss_turns": 1}]}]}),
    );
    assert_eq!(facts[1]["from_deck"], false);
    let s = state_of(&g);
    assert_eq!((s.londoner(0).health, s.londoner(0).miss_turns), (5, 1));
    assert_eq!(s.deck.len(), 16, "the pack's deck is untouched");
}

#[test]
fn an_empty_street_deck_is_renewed_from_the_discards() {
    let mut s = table();
    s.discard = std::mem::take(&mut s.deck);
    s.deck = vec!["Kind stranger".into()];
    s.discard.retain(|c| c != "Kind stranger");
    moving(&mut s, 4);
    let mut g = game_of(&s);
    // Two symbols (b9 and c8): the second card comes from the renewed deck.
    let f = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "c9", "c8"], "drew": ["Kind stranger", "Penny lottery"]}),
    );
    assert!(types(&f).contains(&"deck_renewed"), "{f:?}");
    let s = state_of(&g);
    assert!(
        s.discard.len() == 1 && s.deck.len() == 14,
        "{} {}",
        s.discard.len(),
        s.deck.len()
    );
}

/// Every way of walking up to `steps` from `from` (a location ends it), by
/// brute force: where it ends and how many Street Event symbols it crosses.
fn every_walk(
    board: &tabletape_engine::legless::board::Board,
    from: &Place,
    steps: u32,
) -> BTreeSet<(Place, usize, usize)> {
    let mut out = BTreeSet::new();
    let mut walks: Vec<Vec<Place>> = vec![Vec::new()];
    while let Some(path) = walks.pop() {
        let at = path.last().unwrap_or(from).clone();
        if !path.is_empty() {
            let crossed = decide::crossings(board, &path);
            out.insert((at.clone(), crossed, path.len()));
            if matches!(at, Place::Location(_)) {
                continue;
            }
        }
        if path.len() as u32 == steps {
            continue;
        }
        for next in board.steps(&at) {
            if next != *from {
                let mut p = path.clone();
                p.push(next);
                walks.push(p);
            }
        }
    }
    out
}

#[test]
fn legal_offers_a_way_for_every_count_of_street_events_it_can_cross() {
    let s = table();
    let board = s.board();
    let mut split = 0;
    for start in ["b9", "e5", "f9", "c3", "h8"] {
        let from: Place = start.parse().unwrap();
        let offered = board.reachable(&from, 4);
        let walks = every_walk(board, &from, 4);
        // Each place and count some walk reaches is offered, by a way no
        // longer than the shortest walk there with that count.
        for (to, crossed, len) in &walks {
            let way = offered
                .iter()
                .find(|(end, p)| end == to && decide::crossings(board, p) == *crossed)
                .unwrap_or_else(|| panic!("from {start}: no way to {to} crossing {crossed}"));
            assert!(way.1.len() <= *len, "from {start} to {to}: {:?}", way.1);
        }
        // And nothing else is offered.
        for (to, p) in &offered {
            let crossed = decide::crossings(board, p);
            assert!(walks.contains(&(to.clone(), crossed, p.len())), "{p:?}");
        }
        split += offered.len()
            - offered
                .iter()
                .map(|(to, _)| to)
                .collect::<BTreeSet<_>>()
                .len();
    }
    assert!(
        split > 0,
        "no place was reached by ways crossing different counts"
    );
}
