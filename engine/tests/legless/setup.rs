//! Setting out the table: characters dealt, the first player, and the
//! content pack checked.

use super::*;

#[test]
fn setup_deals_characters_and_the_seat_after_the_banker_starts() {
    let s = table();
    assert_eq!(
        s.turn().unwrap().seat,
        0,
        "banker is seat 1, so seat 0 starts"
    );
    let ada = s.londoner(0);
    assert_eq!((ada.character.as_str(), ada.at.clone()), (ADA, at("c9")));
    assert_eq!((ada.money, ada.health, ada.max_health), (7, 8, 8));
    assert!(ada.tokens.is_empty() && ada.legs.is_empty());
    assert_eq!(s.londoner(1).money, 20);
    assert_eq!(s.cards.len(), 15);
    assert!(s.cards.values().all(|c| c.id.ends_with("-1")));
    assert!(!s.unused.contains(&ADA.to_string()));

    // Digital dice deal from the seed; physical dice must be told.
    let g = Game::start(&created(3, 5, DiceMode::Digital)).unwrap();
    let d = state_of(&g);
    let dealt: BTreeSet<_> = d.londoners.iter().map(|l| l.character.clone()).collect();
    assert_eq!(dealt.len(), 3);
    assert_eq!(d.turn().unwrap().seat, 1, "banker defaults to seat 0");
    let mut c = created(2, 1, DiceMode::Physical);
    c.options.remove("characters");
    let e = Game::start(&c).unwrap_err().to_string();
    assert!(e.contains("option `characters`"), "{e}");
}

#[test]
fn the_default_pack_is_valid_and_a_broken_one_names_the_field() {
    tabletape_engine::legless::content::validate(&pack(), "<bundled>").unwrap();
    let mut bad = Legless::default_pack();
    bad["characters"][0]["start"] = json!("a1");
    let e = Game::start(&GameCreated {
        pack: bad,
        ..created(2, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("characters[0].start") && e.contains("street square"),
        "{e}"
    );
    let mut bad = Legless::default_pack();
    bad["location_cards"][0]["work"] = json!({"needs": {"appeal": 1}});
    let e = Game::start(&GameCreated {
        pack: bad,
        ..created(2, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("location_cards[0].work"), "{e}");
}
