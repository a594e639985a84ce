//! The story of a duel and the state a viewer reads.

use super::*;

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
    let game = tabletape_engine::Game::start(&created).unwrap();
    assert_eq!(game.chapter(), "Exchange 1");
    let d = game
        .decide(None, &json!({"type": "exchange", "maneuvers": [{"seat": 0, "page": 50}, {"seat": 1, "page": 50}]}))
        .unwrap();
    let story = d.narration.join("\n");
    assert!(
        story.contains("Nowa, told \"Do only Extended Range next turn\", goes for Extended Range Charge (page 50, Brown)."),
        "{story}"
    );
    // The picture in the story's voice; the page and picture in the record.
    assert!(
        story.contains("Nowa's blow lands solidly on Brakka.\n"),
        "{story}"
    );
    assert!(
        story.contains("Nowa: page 50 of Brakka's book, picture 49."),
        "{story}"
    );
    assert!(
        story.contains("Nowa goes for Extended Range Charge and Brakka for Extended Range Charge."),
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
    assert!(game
        .render(tabletape_engine::Viewer::Seat(1))
        .contains(sample));
    let drawn = game.render_svg(tabletape_engine::Viewer::Public);
    assert!(
        drawn.contains("class=\"note\"") && drawn.contains("samples, not printed"),
        "{drawn}"
    );
    let view = game.view(tabletape_engine::Viewer::Seat(0));
    assert_eq!(view["sample_books"], json!(["brakka", "nowa"]));
    let text = game.render(tabletape_engine::Viewer::Owner);
    assert!(
        text.contains("Seat 0 (Ann): Nowa") && text.contains("Do only Extended Range next turn"),
        "{text}"
    );
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
    let view = LostWorlds::view(&state, tabletape_engine::rules::Viewer::Owner);
    assert_eq!(view["books"], json!(["brakka", "nowa"]));
    let full = serde_json::to_string(&state).unwrap().len();
    let shown = serde_json::to_string(&view).unwrap().len();
    assert!(
        shown * 4 < full,
        "the view should leave the books out: {shown} of {full} bytes"
    );
    assert_eq!(view["seats"][0]["party"][0]["sheet"]["name"], "Nowa");
}
