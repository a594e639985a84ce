//! Tests of `game`.

use tabletape_engine::game::*;
use tabletape_engine::Viewer;
use tabletape_events::Body;
use tabletape_events::DiceMode;
use tabletape_events::Event;
use tabletape_events::GameCreated;

fn duel() -> (Game, Event) {
    let created = GameCreated {
        title: None,
        kind: "lostworlds".into(),
        players: vec!["Ada".into(), "Bo".into()],
        seed: 3,
        dice: DiceMode::Digital,
        options: Default::default(),
        pack: tabletape_engine::registry::kind("lostworlds")
            .unwrap()
            .default_pack(),
        public: false,
        rules_version: None,
        chance_version: None,
    };
    let game = Game::start(&created).unwrap();
    // A whole exchange called by the owner: it resolves at once, so
    // nothing in it is held back from anyone.
    let action = game
        .legal(None)
        .into_iter()
        .find(|l| l.action["type"] == "exchange")
        .unwrap()
        .action;
    let decision = game.decide(None, &action).unwrap();
    let event = Event {
        game: "g".into(),
        branch: "main".into(),
        seq: 2,
        recorded_at_ms: 0,
        actor: tabletape_events::Actor::Owner,
        schema_version: 1,
        idempotency_key: None,
        prev_hash: String::new(),
        hash: String::new(),
        salt: String::new(),
        body: Body::ActionAccepted(decision.body),
    };
    (game, event)
}

#[test]
fn an_event_without_secrets_shows_every_viewer_everything() {
    let (game, event) = duel();
    for viewer in [Viewer::Owner, Viewer::Seat(1), Viewer::Public] {
        assert_eq!(game.redact_event(&event, viewer).unwrap(), event);
        assert_eq!(game.view(viewer), game.view(Viewer::Owner));
    }
    let mut a = game.clone();
    let mut b = game.clone();
    assert_eq!(
        a.apply_as(&event, Viewer::Seat(0)).unwrap(),
        b.apply_as(&event, Viewer::Owner).unwrap()
    );
    assert!(a == b, "narrating for a seat folds the same state");
}

#[test]
fn only_a_finished_game_lifts_every_secret() {
    let (game, _) = duel();
    assert!(!game.is_over());
    assert_eq!(game.effective_viewer(Viewer::Seat(1)), Viewer::Seat(1));
    assert_eq!(game.effective_viewer(Viewer::Public), Viewer::Public);
    assert_eq!(game.effective_viewer(Viewer::Owner), Viewer::Owner);
}
