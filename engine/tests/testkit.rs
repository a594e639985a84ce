//! What every kind's tests need, written once: a game's creation, an event
//! around a body, a hand-set table read as the journal reads a game, and one
//! action decided and folded, or refused.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use tabletape_events::{Actor, Body, DiceMode, Event, GameCreated, Seat, MAIN_BRANCH};

use tabletape_engine::error::Rejection;
use tabletape_engine::game::{Decision, Game, SavedState, Snapshot};
use tabletape_engine::rng::TableRng;
use tabletape_engine::rules::Rules;

/// The table's players, seat by seat.
pub const PLAYERS: [&str; 6] = ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"];

/// The creation of a test game of kind `R`: the first `players` of
/// [`PLAYERS`], the bundled pack, and `options` (a JSON object, as the API
/// takes them) under today's rules.
pub fn created<R: Rules>(players: usize, seed: u64, dice: DiceMode, options: Value) -> GameCreated {
    let options: BTreeMap<String, Value> = match options {
        Value::Null => BTreeMap::new(),
        other => serde_json::from_value(other).expect("options are a JSON object"),
    };
    GameCreated {
        title: None,
        kind: R::KIND.into(),
        players: PLAYERS[..players].iter().map(|p| p.to_string()).collect(),
        seed,
        dice,
        options,
        pack: R::default_pack(),
        public: false,
        rules_version: Some(R::RULES_VERSION),
        chance_version: None,
    }
}

/// The bundled pack of kind `R`, typed.
pub fn pack<R: Rules>() -> R::Pack {
    serde_json::from_value(R::default_pack()).expect("the bundled pack reads")
}

/// Event `seq` of the test game on its main line, recorded at `at` (ms) by
/// `by` (the owner when `None`), unhashed.
pub fn event(seq: u64, at: u64, by: Option<Seat>, body: Body) -> Event {
    Event {
        game: "g".into(),
        branch: MAIN_BRANCH.into(),
        seq,
        recorded_at_ms: at,
        actor: by.map_or(Actor::Owner, Actor::Seat),
        schema_version: 1,
        idempotency_key: None,
        prev_hash: String::new(),
        hash: String::new(),
        salt: String::new(),
        body,
    }
}

/// A table set by hand, as a `Game` restored from a snapshot of it (at seq
/// 10), so a test reads and plays it the way the journal does.
pub fn restored(created: &GameCreated, state: &impl Serialize) -> Game {
    let snapshot = Snapshot {
        seq: 10,
        seed: 1,
        chapter: "Round 1".into(),
        state: SavedState::of(state),
        notes: Default::default(),
        dice: None,
    };
    Game::restore(created, &snapshot).expect("the snapshot restores")
}

/// Decides `by`'s `action` and folds it into `game`; the event the journal
/// would store. Panics, naming the action, when the rules refuse it.
pub fn step(game: &mut Game, by: Option<Seat>, action: Value) -> Event {
    let decision = game
        .decide(by, &action)
        .unwrap_or_else(|e| panic!("{action}: {e}"));
    let event = event(game.seq() + 1, 0, by, Body::ActionAccepted(decision.body));
    game.apply(&event).expect("a decided action folds");
    event
}

/// The rules' refusal of `by`'s `action`. Panics when they accept it.
pub fn rejection(game: &Game, by: Option<Seat>, action: Value) -> Rejection {
    match game.decide(by, &action) {
        Ok(_) => panic!("{action} was accepted"),
        Err(e) => e,
    }
}

/// Options read as a kind's reader reads them, the error as its words.
pub fn read_options<O: serde::de::DeserializeOwned>(v: Value) -> Result<O, String> {
    serde_json::from_value::<O>(v).map_err(|e| e.to_string())
}

/// Each map refused by the options reader of `O`, with an error that says
/// the words paired with it (the option at fault, what it takes).
pub fn options_refused<O: serde::de::DeserializeOwned + std::fmt::Debug>(cases: &[(Value, &str)]) {
    for (map, words) in cases {
        let e = read_options::<O>(map.clone()).expect_err(&map.to_string());
        assert!(e.contains(words), "{map}: {e}");
    }
}

/// Seeded random legal play from `created` (digital dice) to the game's end,
/// `limit` actions at the most. A running game must always offer an action,
/// ask nothing of the table, and accept what it offers; `before` sees each
/// decision with the game it was made on, `after` the game it led to. The
/// events after the creation, and the game at its end.
pub fn random_play(
    created: &GameCreated,
    seed: u64,
    limit: usize,
    mut before: impl FnMut(&Game, &Decision),
    mut after: impl FnMut(&Game),
) -> (Vec<Event>, Game) {
    let mut game = Game::start(created).expect("the game starts");
    let mut rng = TableRng::for_event(seed, u64::MAX);
    let mut events = Vec::new();
    for _ in 0..limit {
        if game.is_over() {
            break;
        }
        let legal = game.legal(None);
        assert!(
            !legal.is_empty(),
            "seed {seed}: no legal action in a running game"
        );
        assert!(
            legal.iter().all(|l| l.needs.is_empty()),
            "seed {seed}: digital needs nothing"
        );
        let pick = &legal[rng.below(legal.len() as u32) as usize].action;
        let decision = game
            .decide(None, pick)
            .unwrap_or_else(|e| panic!("seed {seed}: legal action {pick} was refused: {e}"));
        before(&game, &decision);
        let ev = event(game.seq() + 1, 0, None, Body::ActionAccepted(decision.body));
        game.apply(&ev).expect("a decided action folds");
        events.push(ev);
        after(&game);
    }
    assert!(game.is_over(), "seed {seed}: the game did not end");
    (events, game)
}

/// A whole history: the creation as event 1, then `events`.
pub fn with_creation(created: &GameCreated, events: Vec<Event>) -> Vec<Event> {
    let mut all = vec![event(1, 0, None, Body::GameCreated(created.clone()))];
    all.extend(events);
    all
}

/// Folds `facts` into `state` one by one, each told (in plain words, marks
/// stripped) against the state just before it, as a story tells them.
pub fn told<R: Rules>(state: &mut R::State, facts: &[R::Fact]) -> Vec<String> {
    let mut lines = Vec::new();
    for f in facts {
        lines.extend(
            R::narrate(state, f)
                .into_iter()
                .map(tabletape_engine::narrative::plain),
        );
        R::apply(state, f);
    }
    lines
}
