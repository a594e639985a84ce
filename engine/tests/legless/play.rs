//! Whole games: seeded random legal play checked against the invariants
//! after every event and replayed, and every kind of turn `legal` offers.

use super::*;

fn check_invariants(s: &State, total_deck: usize, ctx: &str) {
    let mut spaces = BTreeSet::new();
    let mut legs = BTreeSet::new();
    for (seat, l) in s.londoners.iter().enumerate() {
        assert!(
            l.health <= l.max_health,
            "{ctx}: seat {seat} health above the track"
        );
        assert!(
            l.tokens.len() <= 2,
            "{ctx}: seat {seat} placed {} tokens",
            l.tokens.len()
        );
        if l.dead {
            assert!(
                l.tokens.is_empty() && l.legs.is_empty(),
                "{ctx}: the dead keep nothing"
            );
        }
        for t in &l.tokens {
            assert!(
                spaces.insert((t.location.clone(), t.goal)),
                "{ctx}: two tokens on one space"
            );
        }
        let kinds: BTreeSet<_> = l.tokens.iter().map(|t| t.goal).collect();
        assert_eq!(kinds.len(), l.tokens.len(), "{ctx}: a goal completed twice");
        for leg in &l.legs {
            assert!(legs.insert(leg.clone()), "{ctx}: leg {leg} owned twice");
        }
        if let Some(e) = &l.equipped {
            assert!(l.legs.contains(e), "{ctx}: equipped leg not owned");
        }
        if l.sick {
            assert_eq!(
                l.at,
                Place::Location(s.sickroom.clone()),
                "{ctx}: sick outside the Sickroom"
            );
        }
    }
    for leg in &s.pile {
        assert!(
            legs.insert(leg.clone()),
            "{ctx}: leg {leg} both owned and in the store"
        );
    }
    assert_eq!(legs.len(), s.legs.len(), "{ctx}: legs lost or made");
    assert_eq!(
        s.deck.len() + s.discard.len(),
        total_deck,
        "{ctx}: street cards lost or made"
    );
    let dealt = s.londoners.iter().filter(|l| !l.dead).count();
    assert_eq!(
        s.unused.len() + dealt,
        s.characters.len(),
        "{ctx}: characters lost or made"
    );
}

fn random_game(players: usize, seed: u64) -> (Vec<Event>, Game) {
    let created = created(players, seed, DiceMode::Digital);
    let total_deck = state_of(&Game::start(&created).unwrap()).deck.len();
    testkit::random_play(
        &created,
        seed,
        20_000,
        // Money never goes below nothing: every payment is covered when made.
        |game, decision| {
            let mut before = state_of(game);
            for f in &decision.body.facts {
                let fact: Fact = serde_json::from_str(f.get()).unwrap();
                let owed = match &fact {
                    Fact::Paid { seat, amount }
                    | Fact::UpkeepPaid { seat, amount }
                    | Fact::SickroomPaid { seat, fee: amount }
                    | Fact::LegBought {
                        seat, cost: amount, ..
                    }
                    | Fact::TokenPlaced {
                        seat, cost: amount, ..
                    } => Some((*seat, *amount)),
                    _ => None,
                };
                if let Some((s, amount)) = owed {
                    let money = before.londoner(s).money;
                    assert!(
                        money >= amount,
                        "seed {seed}: seat {s} pays £{amount} from £{money}: {f}"
                    );
                }
                tabletape_engine::legless::apply::apply(&mut before, &fact);
            }
        },
        |game| {
            check_invariants(
                &state_of(game),
                total_deck,
                &format!("seed {seed}, {players} players, seq {}", game.seq()),
            )
        },
    )
}

#[test]
fn random_legal_play_ends_keeps_every_invariant_and_replays() {
    let mut won = 0;
    for seed in 0..8 {
        for players in [2, 3, 5] {
            let (events, game) = random_game(players, seed);
            let all = testkit::with_creation(&created(players, seed, DiceMode::Digital), events);
            let folded = Game::fold(&all).unwrap();
            assert!(folded == game, "seed {seed}: replay differs from live play");
            let s = state_of(&game);
            if s.outcome
                .as_ref()
                .is_some_and(|o| o.why.contains("both victory tokens"))
            {
                won += 1;
            }
        }
    }
    assert!(won > 0, "random play never reached a win");
}

#[test]
fn legal_offers_every_kind_of_turn_and_each_is_accepted() {
    let mut s = table();
    s.londoners[0].at = at("leg-store");
    s.londoners[0].money = 30;
    give_leg(&mut s, 0, "Cork leg", false);
    let g = game_of(&s);
    let legal = g.legal(Some(0));
    let kinds: BTreeSet<String> = legal
        .iter()
        .map(|l| l.action["type"].as_str().unwrap().to_string())
        .collect();
    for k in ["roll", "buy_leg", "equip", "sell_leg"] {
        assert!(kinds.contains(k), "{k} missing from {kinds:?}");
    }
    assert!(g.legal(Some(1)).is_empty(), "not Bo's turn");
    assert!(legal
        .iter()
        .all(|l| l.action["type"] != "buy_leg" || !l.action.to_string().contains("Cork leg")));
    // In physical mode each roll is asked for.
    let roll = legal.iter().find(|l| l.action["type"] == "roll").unwrap();
    assert_eq!(roll.needs, ["rolls: 1 movement die, 1-6 each"]);
    // Its faces are offered to tap: one face, and the roll is complete.
    assert_eq!(
        roll.picks,
        [tabletape_engine::rules::Pick::dice("rolls", 1)]
    );
    moving(&mut s, 3);
    let g = game_of(&s);
    for l in g
        .legal(Some(0))
        .into_iter()
        .filter(|l| l.action["type"] == "move")
    {
        let mut action = l.action.clone();
        let crossed = decide::crossings(
            state_of(&g).board(),
            &serde_json::from_value::<Vec<Place>>(action["path"].clone()).unwrap(),
        );
        if crossed > 0 {
            action["drew"] = json!(vec!["Kind stranger"; crossed]);
        }
        g.decide(Some(0), &action)
            .unwrap_or_else(|e| panic!("{action}: {e}"));
    }
}
