//! The deal and the table's own dice: face-down cards as the seats see
//! them, the placeholder procedure with the table's cards, the next chapter's
//! deal hidden, and what a table with its own dice says it drew.

use super::*;

#[test]
fn seats_see_face_down_cards_face_down() {
    let t = started(11);
    let owner = t.game.view(Viewer::Owner);
    assert!(owner["locations"].to_string().contains("placeholder"));
    for viewer in [Viewer::Seat(1), Viewer::Public] {
        let seat = t.game.view(viewer);
        for spot in seat["locations"].as_array().unwrap() {
            assert_eq!(spot, &json!({"state": "down"}), "{viewer:?}");
        }
    }
    let text = t.game.render(Viewer::Seat(0));
    assert!(!text.contains("placeholder"));
    let svg = t.game.render_svg(Viewer::Public);
    assert!(!svg.contains("plot?"));
    assert!(t.game.render_svg(Viewer::Owner).contains("plot?"));
}

/// A 4-player table dealing its own cards, not yet started.
fn physical_table() -> Table {
    let opts = [(
        "characters",
        "Ada Lockwood,Silas Crane,Mercy Vale,Jane Marsh",
    )];
    Table::new(created(4, 1, DiceMode::Physical, &opts))
}

/// The physical table's setup deal as `start_planning` names it: one
/// starting Item each, the Supply's three, three Confidence cards.
const THE_DEAL: [&str; 10] = [
    "Lockpicks",
    "Crowbar",
    "Bandages",
    "Rosary",
    "Pocket Watch",
    "Lucky Penny",
    "Storm Lantern",
    "Hope",
    "Cold Logic",
    "Steady Nerves",
];

#[test]
fn physical_reveals_follow_the_placeholder_procedure() {
    let mut t = physical_table();
    let r = t.refused(None, json!({"type": "start_planning"}));
    assert_eq!(r.rule, "physical.draw_needed");
    t.act(json!({"type": "start_planning", "outcomes": {"drew": THE_DEAL}}));
    let s = t.state();
    assert_eq!(s.characters[3].items[0].name, "Rosary");
    assert_eq!(
        s.supply,
        vec!["Pocket Watch", "Lucky Penny", "Storm Lantern"]
    );
    assert_eq!(s.investigation.len(), 3);
    let r = t.refused(None, json!({"type": "reveal", "location": "north 1"}));
    assert_eq!(r.rule, "physical.draw_needed");
    let r = t.refused(
        None,
        json!({"type": "reveal", "location": "north 1", "card": "The Hollow Choir"}),
    );
    assert!(r.message.contains("Tier 1"), "{}", r.message);
    for spot in 1..=5 {
        t.act(json!({"type": "reveal", "location": format!("north {spot}"), "card": pack().dread_cards[spot].name}));
    }
    let r = t.refused(
        None,
        json!({"type": "reveal", "location": "north 6", "card": pack().dread_cards[7].name}),
    );
    assert!(r.message.contains("last face-down card"), "{}", r.message);
    let r = t.refused(
        None,
        json!({"type": "reveal", "location": "east 1", "card": pack().dread_cards[1].name}),
    );
    assert!(r.message.contains("already face up"), "{}", r.message);
    t.act(json!({"type": "reveal", "location": "north 6", "card": "placeholder"}));
    assert_eq!(
        t.state().face_at("north 6".parse().unwrap()),
        Some(&Face::Plot('A'))
    );
    // The intro deals five placeholders: one to each area and one more.
    t.act(json!({"type": "reveal", "location": "east 1", "card": "placeholder"}));
    t.act(json!({"type": "reveal", "location": "east 2", "card": "placeholder"}));
    let r = t.refused(
        None,
        json!({"type": "reveal", "location": "east 3", "card": "placeholder"}),
    );
    assert_eq!(r.rule, "physical.impossible_draw");
    t.act(json!({"type": "reveal", "location": "west 1", "card": "Placeholder"}));
    t.act(json!({"type": "reveal", "location": "south 1", "card": "placeholder"}));
    assert_eq!(t.state().plots.len(), 5);
    let r = t.refused(
        None,
        json!({"type": "reveal", "location": "south 2", "card": "placeholder"}),
    );
    assert_eq!(r.rule, "physical.impossible_draw");
}

#[test]
fn the_next_chapters_deal_is_hidden_from_the_seats() {
    let fact = Fact::ChapterDealt {
        chapter: 1,
        cards: Some(vec![tabletape_engine::dread::state::Card::Placeholder]),
        allies: 0,
    };
    let s = started(18).state();
    let cx = tabletape_engine::rules::Context {
        by: None,
        seq: 9,
        state: &s,
    };
    match Dread::redact(&fact, Viewer::Seat(0), &cx) {
        Fact::ChapterDealt { cards, .. } => assert!(cards.is_none()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_table_with_its_own_dice_says_what_it_flipped_rolled_and_drew() {
    let mut t = physical_table();
    t.act(json!({"type": "start_planning", "outcomes": {"drew": THE_DEAL}}));
    t.act(json!({"type": "reveal", "location": "north 1", "card": "placeholder"}));
    story_at(&mut t, "north 1".parse().unwrap(), 0..1);
    t.act(json!({"type": "investigate", "location": "north 1"}));
    // The page offers the character's own Personality cards to pick from.
    let offered = t.game.legal_at(None, t.now);
    let flip = offered.iter().find(|l| l.action["type"] == "flip").unwrap();
    assert_eq!(flip.picks[0].field, "outcomes.drew");
    assert!(flip.picks[0].values.contains(&"Bookish".to_string()));
    assert!(!flip.picks[0].values.contains(&"Brawler".to_string()));
    let r = t.refused(None, json!({"type": "flip", "character": 0}));
    assert_eq!(r.rule, "physical.draw_needed");
    assert!(r.message.contains("outcomes.drew"), "{}", r.message);
    let r = t.refused(
        None,
        json!({"type": "flip", "character": 0, "outcomes": {"drew": ["Brawler"]}}),
    );
    assert_eq!(
        r.rule, "physical.impossible_draw",
        "Brawler is Silas Crane's card"
    );
    t.act(json!({"type": "flip", "character": 0, "outcomes": {"drew": ["Bookish"]}}));
    // Wild, Lore and Bookish's Lore against Guile and Lore: three dice.
    let r = t.refused(
        None,
        json!({"type": "roll", "character": 0, "outcomes": {"rolls": [1, 0]}}),
    );
    assert_eq!(r.rule, "physical.draw_needed");
    let r = t.refused(
        None,
        json!({"type": "roll", "character": 0, "outcomes": {"rolls": [1, 0, 2, 1]}}),
    );
    assert_eq!(r.rule, "dread.outcomes");
    let r = t.refused(
        None,
        json!({"type": "roll", "character": 0, "outcomes": {"rolls": [1, 0, 3]}}),
    );
    assert_eq!(
        r.rule, "physical.impossible_draw",
        "no face shows three fists"
    );
    t.act(json!({"type": "roll", "character": 0, "outcomes": {"rolls": [1, 0, 2]}}));
    // Three fists reach the top row: a random Item from the deck.
    let r = t.refused(None, json!({"type": "resolve"}));
    assert_eq!(r.rule, "physical.draw_needed");
    let r = t.refused(
        None,
        json!({"type": "resolve", "outcomes": {"drew": ["Crowbar"]}}),
    );
    assert_eq!(
        r.rule, "physical.impossible_draw",
        "the Crowbar was dealt at the start"
    );
    t.act(json!({"type": "resolve", "outcomes": {"drew": ["Sword Cane"]}}));
    let s = t.state();
    assert_eq!(s.investigated, vec!['A']);
    assert!(s.characters[0].holds("Sword Cane").is_some());
    // The same outcomes on a digital table are refused.
    let mut d = started(19);
    let r = d.refused(
        None,
        json!({"type": "next_action", "outcomes": {"rolls": [1]}}),
    );
    assert_eq!(r.rule, "dice.digital");
}
