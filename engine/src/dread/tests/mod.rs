//! Tests of the London Dread kind: rules on tables set by hand, and whole
//! games of seeded random legal play (digital dice) checked against the
//! invariants after every event.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_events::{Actor, Body, DiceMode, Event, GameCreated, Seat};

use super::actions::Fact;
use super::content::{Condition, Pack, Trait};
use super::state::{Face, Phase, Place, Spot, State, Target, DREAD_LIMIT, VIRTUES};
use super::Dread;
use crate::game::Game;
use crate::rng::TableRng;
use crate::rules::{Rules, Viewer};

/// 2026-11-26 09:00:00 UTC, when the tests' tables sit down.
const T0: u64 = 1_795_683_600_000;
const MINUTE: u64 = 60_000;

fn pack() -> Pack {
    serde_json::from_value(Dread::default_pack()).unwrap()
}

fn created(players: usize, seed: u64, dice: DiceMode, options: &[(&str, &str)]) -> GameCreated {
    GameCreated {
        title: None,
        kind: "dread".into(),
        players: ["Ada", "Bo", "Cy", "Dee"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        seed,
        dice,
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), Value::from(*v)))
            .collect::<BTreeMap<_, _>>(),
        pack: Dread::default_pack(),
        public: false,
        rules_version: None,
        chance_version: None,
    }
}

fn event(seq: u64, at: u64, by: Option<Seat>, body: Body) -> Event {
    Event {
        game: "g".into(),
        branch: "main".into(),
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

/// A game being played, with its events kept to fold again.
struct Table {
    game: Game,
    events: Vec<Event>,
    now: u64,
}

impl Table {
    fn new(created: GameCreated) -> Table {
        let first = event(1, T0, None, Body::GameCreated(created));
        Table {
            game: Game::from_first(&first).unwrap(),
            events: vec![first],
            now: T0,
        }
    }

    fn state(&self) -> State {
        serde_json::from_value(self.game.view(Viewer::Owner)).unwrap()
    }

    fn try_act(&mut self, by: Option<Seat>, action: Value) -> Result<Vec<Fact>, crate::Rejection> {
        self.now += 1_000;
        let d = self.game.decide_at(by, &action, Viewer::Owner, self.now)?;
        let facts: Vec<Fact> = d
            .body
            .facts
            .iter()
            .map(|f| serde_json::from_value(f.clone()).unwrap())
            .collect();
        let ev = event(
            self.game.seq() + 1,
            self.now,
            by,
            Body::ActionAccepted(d.body),
        );
        self.game.apply(&ev).unwrap();
        self.events.push(ev);
        Ok(facts)
    }

    fn act(&mut self, action: Value) -> Vec<Fact> {
        self.try_act(None, action.clone())
            .unwrap_or_else(|e| panic!("{action}: {e}"))
    }

    fn refused(&mut self, by: Option<Seat>, action: Value) -> crate::Rejection {
        let before = self.game.seq();
        let r = self
            .try_act(by, action.clone())
            .expect_err(&format!("{action} should be refused"));
        assert_eq!(self.game.seq(), before);
        r
    }

    fn legal(&self) -> Vec<Value> {
        self.game
            .legal_at(None, self.now)
            .into_iter()
            .filter(|l| l.needs.is_empty())
            .map(|l| l.action)
            .collect()
    }
}

// ------------------------------------------------------------ random play

fn kind_of(action: &Value) -> String {
    action["type"].as_str().unwrap_or_default().to_string()
}

/// Picks an action type at random, then an action of that type, so long
/// lists (clock slots) do not drown out the rest; planning gets a few
/// dozen moves before the story begins.
fn pick(rng: &mut TableRng, legal: &[Value], planned: &mut u32) -> Value {
    let mut types: Vec<String> = legal.iter().map(kind_of).collect();
    types.sort();
    types.dedup();
    if types.iter().any(|t| t == "begin_story") && *planned < 40 {
        types.retain(|t| t != "begin_story");
        *planned += 1;
    }
    let t = &types[rng.below(types.len() as u32) as usize];
    let of: Vec<&Value> = legal.iter().filter(|a| &kind_of(a) == t).collect();
    of[rng.below(of.len() as u32) as usize].clone()
}

fn check_invariants(s: &State, before: &State, facts: &[Fact], ctx: &str) {
    for c in &s.characters {
        for n in 1..=6u8 {
            assert!(c.placed(n) <= 2, "{ctx}: {} has {n} placed thrice", c.name);
        }
        assert_eq!(c.clock.len(), 12, "{ctx}");
    }
    // Every stash token is on a clock or in the stash, once.
    let mut stash: Vec<u8> = s.stash.clone();
    stash.extend(
        s.characters
            .iter()
            .flat_map(|c| c.clock.iter().flatten())
            .filter(|t| t.stash)
            .map(|t| t.number),
    );
    stash.sort_unstable();
    assert_eq!(stash, (1..=6).collect::<Vec<u8>>(), "{ctx}: stash tokens");
    assert!(s.virtues_held() <= VIRTUES, "{ctx}: virtues");
    let fell = facts.iter().any(|f| matches!(f, Fact::DreadFell { .. }));
    assert!(
        s.dread >= before.dread || fell,
        "{ctx}: dread fell from {} to {} with no card",
        before.dread,
        s.dread
    );
    if s.dread > DREAD_LIMIT {
        assert!(
            s.over() && s.outcome.as_ref().is_some_and(|o| !o.won),
            "{ctx}"
        );
    }
    assert!(s.supply.len() <= 3, "{ctx}: supply");
}

fn play_out(created: GameCreated, seed: u64, limit: usize) -> Table {
    let mut t = Table::new(created);
    let mut rng = TableRng::for_event(seed, u64::MAX);
    let mut planned = 0;
    for step in 0..limit {
        if t.game.is_over() {
            break;
        }
        let legal = t.legal();
        assert!(!legal.is_empty(), "seed {seed} step {step}: nothing legal");
        let action = pick(&mut rng, &legal, &mut planned);
        if kind_of(&action) == "begin_story" {
            planned = 0;
        }
        let before = t.state();
        let facts = t.act(action.clone());
        let ctx = format!("seed {seed} step {step} {action}");
        check_invariants(&t.state(), &before, &facts, &ctx);
    }
    t
}

#[test]
fn random_legal_play_ends_and_folds_back() {
    let setups: Vec<(usize, Vec<(&str, &str)>)> = vec![
        (4, vec![]),
        (4, vec![("story", "The Drowned Bell")]),
        (2, vec![]),
        (3, vec![("story", "The Drowned Bell")]),
        (3, vec![("variant", "pairs")]),
        (2, vec![("variant", "pairs"), ("story", "The Drowned Bell")]),
    ];
    let mut endings = BTreeMap::new();
    for seed in 0..12u64 {
        for (players, options) in &setups {
            let c = created(*players, seed, DiceMode::Digital, options);
            let t = play_out(c, seed, 3_000);
            let ctx = format!("seed {seed}, {players} players {options:?}");
            assert!(t.game.is_over(), "{ctx}: did not end");
            let folded = Game::fold(&t.events).unwrap();
            assert!(folded == t.game, "{ctx}: fold differs from play");
            let why = t.state().outcome.unwrap().why;
            let key = why.split(':').next().unwrap_or_default().to_string();
            *endings.entry(key).or_insert(0) += 1;
        }
    }
    assert!(
        endings.len() >= 2,
        "random play always ends one way: {endings:?}"
    );
}

// ------------------------------------------------------------ rule tests

/// A 4-player introductory game, planning started at T0 + 1 s.
fn started(seed: u64) -> Table {
    let mut t = Table::new(created(4, seed, DiceMode::Digital, &[]));
    t.act(json!({"type": "start_planning"}));
    t
}

fn dealt(s: &State, want: &dyn Fn(&Spot) -> bool) -> Place {
    (0..24)
        .map(Place::of_index)
        .find(|p| want(&s.locations[p.index().unwrap()]))
        .expect("such a card lies somewhere")
}

fn down_dread(spot: &Spot) -> bool {
    matches!(
        spot,
        Spot::Down {
            card: Some(super::state::Card::Dread(_))
        }
    )
}

fn down_placeholder(spot: &Spot) -> bool {
    matches!(
        spot,
        Spot::Down {
            card: Some(super::state::Card::Placeholder)
        }
    )
}

#[test]
fn planning_after_the_deadline_is_refused_with_the_time_it_ended() {
    let mut t = started(1);
    let ends = match t.state().phase {
        Phase::Planning {
            ends_at_ms: Some(e),
            ..
        } => e,
        other => panic!("{other:?}"),
    };
    assert_eq!(ends, T0 + 1_000 + 12 * MINUTE);
    t.act(json!({"type": "place", "character": 0, "slot": 1, "number": 3}));
    t.now = ends + 1;
    let r = t.refused(
        None,
        json!({"type": "place", "character": 0, "slot": 2, "number": 3}),
    );
    assert_eq!(r.rule, "dread.planning_over");
    assert!(r.message.contains("09:12:01 UTC"), "{}", r.message);
    let r = t.refused(None, json!({"type": "reveal", "location": "north 1"}));
    assert_eq!(r.rule, "dread.planning_over");
    // Only beginning the story is left, and it is open.
    let legal = t.legal();
    assert!(
        legal.iter().all(|a| a["type"] == "begin_story"),
        "{legal:?}"
    );
    t.act(json!({"type": "begin_story", "leader": 2}));
    assert_eq!(t.state().leader, Some(2));
    // Harder tables plan for less time.
    let mut hard = Table::new(created(4, 1, DiceMode::Digital, &[("difficulty", "dread")]));
    hard.act(json!({"type": "start_planning"}));
    assert!(
        matches!(hard.state().phase, Phase::Planning { ends_at_ms: Some(e), .. } if e == hard.now + 8 * MINUTE)
    );
    // A table keeping its own time has no deadline and enters whole clocks.
    let mut own = Table::new(created(4, 1, DiceMode::Digital, &[("timer", "off")]));
    own.act(json!({"type": "start_planning"}));
    own.now += 60 * MINUTE;
    let mut slots = vec![Value::Null; 12];
    slots[0] = json!({"number": 1});
    slots[1] = json!({"number": 1, "arrow": "north"});
    own.act(json!({"type": "set_clock", "character": 1, "slots": slots}));
    assert_eq!(own.state().characters[1].placed(1), 2);
    assert!(own.game.deadline().is_none());
}

#[test]
fn tokens_come_two_of_a_number_and_a_third_from_the_stash() {
    let mut t = started(2);
    t.act(json!({"type": "place", "character": 0, "slot": 1, "number": 4}));
    t.act(json!({"type": "place", "character": 0, "slot": 2, "number": 4, "arrow": "east"}));
    let r = t.refused(
        None,
        json!({"type": "place", "character": 0, "slot": 3, "number": 4}),
    );
    assert_eq!(r.rule, "dread.tokens");
    let r = t.refused(
        None,
        json!({"type": "place", "character": 1, "slot": 3, "number": 4, "stash": true}),
    );
    assert_eq!(r.rule, "dread.stash");
    t.act(json!({"type": "place", "character": 0, "slot": 3, "number": 4, "stash": true}));
    let r = t.refused(
        None,
        json!({"type": "place", "character": 1, "slot": 1, "number": 4, "stash": true}),
    );
    assert_eq!(r.rule, "dread.stash", "{}", r.message);
    assert!(!t.state().stash.contains(&4));
    // Taken back, the stash token goes home and costs nothing.
    t.act(json!({"type": "take_back", "character": 0, "slot": 3}));
    assert!(t.state().stash.contains(&4));
    t.act(json!({"type": "move_token", "character": 0, "from": 1, "to": 7}));
    assert!(t.state().characters[0].clock[6].is_some());
    // A seat plans only its own character.
    let r = t.refused(
        Some(1),
        json!({"type": "place", "character": 0, "slot": 9, "number": 1}),
    );
    assert_eq!(r.rule, "dread.not_yours");
    t.try_act(
        Some(1),
        json!({"type": "place", "character": 1, "slot": 9, "number": 1}),
    )
    .unwrap();
}

#[test]
fn placeholders_are_covered_by_the_plot_cards_in_letter_order() {
    let mut t = started(3);
    let mut letters = Vec::new();
    for _ in 0..3 {
        let p = dealt(&t.state(), &down_placeholder);
        t.act(json!({"type": "reveal", "location": p.to_string()}));
        match t.state().face_at(p) {
            Some(Face::Plot(l)) => letters.push(*l),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(letters, vec!['A', 'B', 'C']);
    // Every area holds at least one placeholder.
    let s = Table::new(created(4, 9, DiceMode::Digital, &[])).state();
    for a in 0..4 {
        assert!((0..6).any(|i| down_placeholder(&s.locations[a * 6 + i])));
    }
    let placeholders = s.locations.iter().filter(|l| down_placeholder(l)).count();
    assert_eq!(placeholders, 5);
}

/// Plans `clock` (slot, token) for character 0 and the story begins.
fn story_with(t: &mut Table, plans: &[(usize, u8, Value)]) {
    for (c, slot, token) in plans {
        let mut a = json!({"type": "place", "character": c, "slot": slot});
        for (k, v) in token.as_object().unwrap() {
            a[k] = v.clone();
        }
        t.act(a);
    }
    t.act(json!({"type": "begin_story", "leader": 0}));
}

/// Sends characters `who` from the West Streets to `p` (an arrow at 6
/// a.m. if it is in another area, its number at 8 a.m.), begins the story
/// and calls the first two actions.
fn story_at(t: &mut Table, p: Place, who: std::ops::Range<usize>) {
    let area = format!("{:?}", p.area).to_lowercase();
    let mut plans = vec![];
    for c in who {
        if p.area != super::state::Area::West {
            plans.push((c, 1u8, json!({"number": 1, "arrow": area})));
        }
        plans.push((c, 2u8, json!({"number": p.spot})));
    }
    story_with(t, &plans);
    t.act(json!({"type": "next_action"}));
    t.act(json!({"type": "next_action"}));
}

#[test]
fn characters_move_by_number_arrow_or_wander_the_streets() {
    let mut t = started(4);
    story_with(
        &mut t,
        &[
            (0, 1, json!({"number": 2})),
            (0, 2, json!({"number": 5, "arrow": "north"})),
            (0, 3, json!({"number": 6})),
        ],
    );
    t.act(json!({"type": "next_action"}));
    let s = t.state();
    assert_eq!(s.characters[0].place.to_string(), "west 2");
    assert_eq!(s.characters[1].place.to_string(), "west streets");
    t.act(json!({"type": "next_action"}));
    assert_eq!(t.state().characters[0].place.to_string(), "north streets");
    t.act(json!({"type": "next_action"}));
    assert_eq!(t.state().characters[0].place.to_string(), "north 6");
    t.act(json!({"type": "next_action"}));
    assert_eq!(t.state().characters[0].place.to_string(), "north streets");
}

#[test]
fn a_dread_card_falls_to_enough_matching_icons_and_stays_otherwise() {
    let mut t = started(5);
    let p = dealt(&t.state(), &down_dread);
    t.act(json!({"type": "reveal", "location": p.to_string()}));
    let Some(Face::Dread(card)) = t.state().face_at(p).cloned() else {
        panic!()
    };
    story_at(&mut t, p, 0..4);
    let s = t.state();
    assert_eq!(s.at(p).len(), 4);
    let dc = s.cards.dread[&card].clone();
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    // The expected points: each icon brought that the card shows, Wild always.
    let s = t.state();
    let expected: u32 = s
        .characters
        .iter()
        .map(|c| {
            let mut icons: Vec<_> = c.sheet().to_vec();
            for a in &c.allies {
                icons.extend(s.cards.allies[a].icons.iter().copied());
            }
            icons
                .iter()
                .filter(|i| **i == super::content::Icon::Wild || dc.icons.contains(i))
                .count() as u32
        })
        .sum();
    let facts = t.act(json!({"type": "resolve"}));
    let met = facts
        .iter()
        .find_map(|f| match f {
            Fact::DreadCardMet { points, beaten, .. } => Some((*points, *beaten)),
            _ => None,
        })
        .unwrap();
    assert_eq!(met, (expected, expected >= dc.difficulty));
    let s = t.state();
    if met.1 {
        assert!(matches!(s.spot(p), Some(Spot::Empty)));
        assert!(s.investigation.contains(&card));
    } else {
        assert!(matches!(s.spot(p), Some(Spot::Up { .. })));
    }
    // Once an action per location.
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert!(
        ["dread.once", "dread.face_down"].contains(&r.rule.as_str()),
        "{r}"
    );
}

/// Reveals every placeholder (A-E on the board) and parks character 0 on
/// Plot `letter` at slot 1; the story begins and the first action is called.
fn at_plot(seed: u64, letter: char, everyone: bool) -> (Table, Place) {
    let mut t = started(seed);
    loop {
        let s = t.state();
        if !s.locations.iter().any(down_placeholder) {
            break;
        }
        let p = dealt(&s, &down_placeholder);
        t.act(json!({"type": "reveal", "location": p.to_string()}));
    }
    let s = t.state();
    let (_, p) = *s.plots.iter().find(|(l, _)| *l == letter).unwrap();
    story_at(&mut t, p, if everyone { 0..4 } else { 0..1 });
    (t, p)
}

#[test]
fn plot_cards_go_in_letter_order_and_within_their_time_codes() {
    let (mut t, p) = at_plot(6, 'B', false);
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert_eq!(r.rule, "dread.plot_order");
    assert!(r.message.contains("A comes before B"), "{}", r.message);
    let (mut t, p) = at_plot(6, 'C', false);
    // C is a Day card; A and B are not done either, so order speaks first.
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert_eq!(r.rule, "dread.plot_order");
    rigged(&mut t, |s| s.investigated = vec!['A', 'B']);
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert_eq!(r.rule, "dread.time_code");
    assert!(r.message.contains("from the Day on"), "{}", r.message);
}

#[test]
fn a_plot_card_flips_everyone_then_rolls_a_die_per_action_point() {
    let (mut t, p) = at_plot(7, 'A', true);
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    // Nobody rolls before everyone has flipped; walking away is open until
    // the first flip.
    let r = t.refused(None, json!({"type": "roll", "character": 0}));
    assert_eq!(r.rule, "dread.flip_first");
    t.act(json!({"type": "flip", "character": 0}));
    let r = t.refused(None, json!({"type": "walk_away"}));
    assert_eq!(r.rule, "dread.committed");
    for c in 1..4 {
        t.act(json!({"type": "flip", "character": c}));
    }
    let s = t.state();
    let e = s.encounter.clone().unwrap();
    let plot = s.plot('A').unwrap().clone();
    for c in 0..4 {
        let share = e.share(c).unwrap();
        let ch = &s.characters[c];
        let card = &ch.personality[share.flipped.unwrap()];
        let mut icons = if card.kind == Trait::Trauma {
            vec![]
        } else {
            ch.sheet().to_vec()
        };
        icons.extend(card.icons.iter().copied());
        icons.extend(share.icons.iter().copied());
        let expected = icons
            .iter()
            .filter(|i| **i == super::content::Icon::Wild || plot.icons.contains(i))
            .count();
        let facts = t.act(json!({"type": "roll", "character": c}));
        let rolled = facts
            .iter()
            .find_map(|f| match f {
                Fact::DiceRolled { fists, .. } => Some(fists.len()),
                _ => None,
            })
            .unwrap();
        assert_eq!(rolled, expected, "{} with {}", ch.name, card.name);
    }
    let facts = t.act(json!({"type": "resolve"}));
    let (fists, tier, impeccable) = facts
        .iter()
        .find_map(|f| match f {
            Fact::PlotResolved {
                fists,
                tier,
                impeccable,
                ..
            } => Some((*fists, *tier, *impeccable)),
            _ => None,
        })
        .unwrap();
    let want = plot
        .tiers
        .iter()
        .rposition(|r| r.successes <= fists)
        .unwrap();
    assert_eq!(tier, want);
    let top = plot.tiers.len() - 1;
    let extra = if tier == top {
        fists - plot.tiers[top].successes
    } else {
        0
    };
    assert_eq!(impeccable, extra);
    assert_eq!(t.state().investigated, vec!['A']);
}

#[test]
fn a_second_condition_raises_dread_by_five_outside_the_endgame() {
    let t = started(8);
    let mut s = t.state();
    s.characters[1].conditions = vec![Condition::Injured];
    let mut out = super::decide::tests_support::out(&s);
    out.afflict(1, Condition::Injured);
    assert_eq!(out.s.dread, 5);
    assert!(!out.s.characters[1].defeated);
    out.afflict(1, Condition::Unhinged);
    assert_eq!(out.s.characters[1].conditions.len(), 2);
    // In the Endgame the same defeats the character.
    let mut endgame = s.clone();
    endgame.phase = Phase::Showdown { needed: 1 };
    let mut out = super::decide::tests_support::out(&endgame);
    out.afflict(1, Condition::Injured);
    assert!(out.s.characters[1].defeated);
    assert_eq!(out.s.dread, 0);
}

#[test]
fn the_chapter_ends_counting_face_down_cards_face_up_dread_and_stash_tokens() {
    let mut t = started(10);
    let p = dealt(&t.state(), &down_dread);
    t.act(json!({"type": "reveal", "location": p.to_string()}));
    let Some(Face::Dread(card)) = t.state().face_at(p).cloned() else {
        panic!()
    };
    let value = t.state().cards.dread[&card].dread;
    t.act(json!({"type": "place", "character": 2, "slot": 1, "number": 3}));
    t.act(json!({"type": "place", "character": 2, "slot": 2, "number": 3}));
    t.act(json!({"type": "place", "character": 2, "slot": 3, "number": 3, "stash": true}));
    t.act(json!({"type": "begin_story", "leader": 1}));
    let mut facts = Vec::new();
    while !t.game.is_over() && t.state().chapter == 0 && !t.state().in_endgame() {
        facts.extend(t.act(json!({"type": "next_action"})));
    }
    let rose: Vec<(u32, String)> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::DreadRose { by, why } => Some((*by, why.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(rose[0], (2 * 23, "23 cards never turned".to_string()));
    assert_eq!(rose[1].0, value);
    assert_eq!(rose[2], (1, "1 token taken from the stash".to_string()));
    // 46 + value + 1 is under 51 only for a small card; either way the
    // untouched last Plot card loses the game.
    let s = t.state();
    let o = s.outcome.unwrap();
    assert!(!o.won);
    if s.dread <= DREAD_LIMIT {
        assert!(o.why.contains("trail runs cold"), "{}", o.why);
    } else {
        assert!(o.why.contains("passed 50"), "{}", o.why);
    }
}

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
fn the_encounter_shape_is_what_the_target_asks() {
    let (mut t, p) = at_plot(12, 'A', false);
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    assert!(matches!(
        t.state().encounter.unwrap().target,
        Target::Plot { letter: 'A', .. }
    ));
    t.act(json!({"type": "walk_away"}));
    assert!(t.state().encounter.is_none());
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert_eq!(r.rule, "dread.once");
}

// ------------------------------------------------------------ a sensible table

/// How the sensible table plays.
#[derive(Clone, Copy)]
struct Style {
    /// Turn every card (else until every Plot card is found).
    reveal_all: bool,
    /// Plan visits up to (not including) this Plot letter.
    stop_before: Option<char>,
    /// Plan nothing at all.
    idle: bool,
}

const SENSIBLE: Style = Style {
    reveal_all: false,
    stop_before: None,
    idle: false,
};

/// Two pairs of investigators (or, at a smaller table, everyone) take the
/// Plot cards in turn, each from the first action its time code allows
/// and after the one before; both come to the last. Free slots go to
/// face-up Dread cards and Allies in the area a pair stands in.
fn plan_clocks(s: &State, style: Style) -> Vec<(usize, u8, Value)> {
    use super::content::Segment;
    use super::state::Area;
    let n = s.characters.len();
    let pairs: Vec<Vec<usize>> = if n == 4 {
        vec![vec![0, 1], vec![2, 3]]
    } else {
        vec![(0..n).collect()]
    };
    // Per pair: slot -> what to place (number, arrow).
    let mut plan: Vec<BTreeMap<u8, (u8, Option<Area>)>> = vec![BTreeMap::new(); pairs.len()];
    let mut area: Vec<Area> = pairs
        .iter()
        .map(|p| s.characters[p[0]].place.area)
        .collect();
    let mut last: Vec<u8> = vec![0; pairs.len()];
    let mut after = 0u8;
    let plots = s.chapter_plots();
    for (k, plot) in plots.iter().enumerate() {
        if Some(plot.letter) == style.stop_before {
            break;
        }
        let Some((_, place)) = s.plots.iter().find(|(l, _)| *l == plot.letter) else {
            break;
        };
        let from = match plot.time {
            Segment::Morning => 1,
            Segment::Day => 5,
            Segment::Night => 9,
        };
        let who: Vec<usize> = if k + 1 == plots.len() {
            (0..pairs.len()).collect()
        } else {
            vec![k % pairs.len()]
        };
        let mut slot = from.max(after + 1);
        for &p in &who {
            let need = if area[p] == place.area { 1 } else { 2 };
            slot = slot.max(last[p] + need);
        }
        if slot > 12 {
            break;
        }
        for &p in &who {
            if area[p] != place.area {
                plan[p].insert(slot - 1, (1, Some(place.area)));
                area[p] = place.area;
            }
            plan[p].insert(slot, (place.spot, None));
            last[p] = slot;
        }
        after = slot;
    }
    // Free slots before each pair's next move: a Dread card where they stand.
    let mut taken: Vec<Place> = Vec::new();
    for (p, moves) in plan.iter_mut().enumerate() {
        let mut here = s.characters[pairs[p][0]].place.area;
        for slot in 1..=12u8 {
            match moves.get(&slot) {
                Some((_, Some(a))) => here = *a,
                Some(_) => {}
                None => {
                    let target = (1..=6u8).map(|spot| Place { area: here, spot }).find(|pl| {
                        matches!(s.face_at(*pl), Some(Face::Dread(_) | Face::Ally(_)))
                            && !taken.contains(pl)
                    });
                    if let Some(pl) = target {
                        taken.push(pl);
                        moves.insert(slot, (pl.spot, None));
                    }
                }
            }
        }
    }
    let mut plans = Vec::new();
    let mut stash = s.stash.clone();
    for (p, moves) in plan.iter().enumerate() {
        for &c in &pairs[p] {
            let mut used = [0u8; 7];
            for (&slot, &(number, arrow)) in moves {
                let number = if arrow.is_some() {
                    (1..=6).min_by_key(|&k| used[k as usize]).unwrap()
                } else {
                    number
                };
                let mut t = if used[number as usize] < 2 {
                    used[number as usize] += 1;
                    json!({"number": number})
                } else if let Some(i) = stash.iter().position(|&k| k == number) {
                    stash.remove(i);
                    json!({"number": number, "stash": true})
                } else {
                    continue;
                };
                if let Some(a) = arrow {
                    t["arrow"] = json!(format!("{a:?}").to_lowercase());
                }
                plans.push((c, slot, t));
            }
        }
    }
    plans
}

/// The first legal action of the first type in `order`.
fn first_of(legal: &[Value], order: &[&str]) -> Option<Value> {
    order
        .iter()
        .find_map(|t| legal.iter().find(|a| a["type"] == *t).cloned())
}

/// Plays the game to its end as a sensible table would; returns the
/// actions taken.
fn play_sensibly(t: &mut Table, style: Style) -> Vec<Value> {
    let mut taken = Vec::new();
    let mut act = |t: &mut Table, a: Value| {
        t.act(a.clone());
        taken.push(a);
    };
    for _ in 0..2_000 {
        if t.game.is_over() {
            break;
        }
        let s = t.state();
        if let Phase::Planning { started_at_ms, .. } = s.phase {
            if started_at_ms.is_none() {
                act(t, json!({"type": "start_planning"}));
                continue;
            }
            // Turn cards until every Plot card is found (or all of them).
            let wanted = s.chapter_plots().len();
            for i in 0..24 {
                if !style.reveal_all && t.state().plots.len() == wanted {
                    break;
                }
                if matches!(s.locations[i], Spot::Down { .. }) {
                    act(
                        t,
                        json!({"type": "reveal", "location": Place::of_index(i).to_string()}),
                    );
                }
            }
            let s = t.state();
            let plans = if style.idle {
                Vec::new()
            } else {
                plan_clocks(&s, style)
            };
            for (c, slot, token) in plans {
                let mut a = json!({"type": "place", "character": c, "slot": slot});
                for (k, v) in token.as_object().unwrap() {
                    a[k] = v.clone();
                }
                act(t, a);
            }
            act(t, json!({"type": "begin_story", "leader": 0}));
            continue;
        }
        let legal = t.legal();
        let next = first_of(
            &legal,
            &[
                "take_item",
                "flip",
                "play",
                "roll",
                "reroll",
                "recruit",
                "resolve",
                "investigate",
                "stay",
                "reveal_challenge",
                "next_action",
            ],
        )
        .expect("something to do");
        act(t, next);
    }
    taken
}

fn facts_of(t: &Table) -> Vec<Fact> {
    t.events
        .iter()
        .skip(1)
        .flat_map(|e| match &e.body {
            Body::ActionAccepted(a) => a.facts.clone(),
            _ => vec![],
        })
        .map(|f| serde_json::from_value(f).unwrap())
        .collect()
}

#[test]
fn a_sensible_table_reaches_the_showdown_and_scores_a_win() {
    let mut wins = 0;
    for seed in 0..20 {
        let mut t = Table::new(created(4, seed, DiceMode::Digital, &[]));
        play_sensibly(&mut t, SENSIBLE);
        let s = t.state();
        let facts = facts_of(&t);
        let Some(needed) = facts.iter().find_map(|f| match f {
            Fact::ShowdownBegan { needed } => Some(*needed),
            _ => None,
        }) else {
            continue;
        };
        assert_eq!(needed, 1 + s.dread / 5, "seed {seed}");
        // The last Plot card: 2 Confidence per investigator there, and the
        // chapter ends at once.
        let i = facts
            .iter()
            .position(|f| matches!(f, Fact::EndgameTriggered { .. }))
            .unwrap();
        let Fact::EndgameTriggered { helpers, .. } = facts[i] else {
            unreachable!()
        };
        match &facts[i + 1] {
            // As many as the pile still holds.
            Fact::ConfidenceGained { cards, .. } => assert!(
                cards.len() as u32 == 2 * helpers || s.confidence.is_empty(),
                "seed {seed}"
            ),
            other => panic!("{other:?}"),
        }
        assert!(facts[i..]
            .iter()
            .any(|f| matches!(f, Fact::ChapterEnded { .. })));
        assert!(!facts[i..]
            .iter()
            .any(|f| matches!(f, Fact::ActionCalled { .. })));
        let o = s.outcome.clone().unwrap();
        if let Some(score) = &o.score {
            wins += 1;
            let alive: Vec<_> = s.characters.iter().filter(|c| !c.defeated).collect();
            let Some(Fact::GameWon { fists, needed }) = facts.last() else {
                panic!("seed {seed}: a win ends on GameWon")
            };
            assert_eq!(score.survivors, 4 * alive.len() as u32);
            assert_eq!(score.extra_fists, 3 * (fists - needed));
            assert_eq!(
                score.items,
                3 * alive.iter().map(|c| c.items.len() as u32).sum::<u32>()
            );
            assert_eq!(
                score.virtues,
                2 * alive.iter().map(|c| c.virtues).sum::<u32>()
            );
            assert_eq!(
                score.cards,
                alive.iter().map(|c| c.hand.len() as u32).sum::<u32>()
            );
            assert_eq!(
                score.total,
                score.survivors
                    + score.extra_fists
                    + score.items
                    + score.virtues
                    + score.cards
                    + score.conditions
            );
        }
    }
    assert!(wins > 0, "a sensible table never wins");
}

/// Writes the golden games under `tests/data/dread/` from sensible and
/// careless tables, each the first seed that shows what its name says.
/// Run by hand: `cargo test -p tabletape-engine write_dread_golden_games
/// -- --ignored`; `tests/golden.rs` then plays them through the journal.
#[test]
#[ignore]
fn write_dread_golden_games() {
    type Shows = fn(&Table) -> bool;
    let defeated_in_endgame: Shows = |t| {
        let f = facts_of(t);
        let begun = f
            .iter()
            .position(|x| matches!(x, Fact::EndgameBegan { .. }));
        begun.is_some_and(|b| f[b..].iter().any(|x| matches!(x, Fact::Defeated { .. })))
    };
    let careless = Style {
        reveal_all: true,
        stop_before: None,
        idle: true,
    };
    type Case = (
        &'static str,
        usize,
        Vec<(&'static str, &'static str)>,
        Style,
        Shows,
    );
    let cases: Vec<Case> = vec![
        ("lantern_win", 4, vec![], SENSIBLE, |t| {
            t.state().outcome.is_some_and(|o| o.won)
        }),
        ("lantern_lost_to_dread", 4, vec![], careless, |t| {
            t.state()
                .outcome
                .is_some_and(|o| o.why.contains("passed 50"))
        }),
        (
            "bell_trail_runs_cold",
            4,
            vec![("story", "The Drowned Bell")],
            Style {
                stop_before: Some('E'),
                ..SENSIBLE
            },
            |t| {
                t.state()
                    .outcome
                    .is_some_and(|o| o.why.contains("trail runs cold"))
            },
        ),
        (
            "lantern_two_players_with_allies",
            2,
            vec![],
            SENSIBLE,
            |t| {
                facts_of(t)
                    .iter()
                    .any(|f| matches!(f, Fact::AllyRecruited { .. }))
                    && facts_of(t)
                        .iter()
                        .any(|f| matches!(f, Fact::ShowdownBegan { .. }))
            },
        ),
        (
            "lantern_defeated_in_the_endgame",
            4,
            vec![],
            SENSIBLE,
            defeated_in_endgame,
        ),
        (
            "bell_three_players_in_pairs",
            3,
            vec![("story", "The Drowned Bell"), ("variant", "pairs")],
            SENSIBLE,
            |t| t.state().chapter == 1 && t.game.is_over(),
        ),
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/dread");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, players, options, style, shows) in cases {
        let (seed, t, actions) = (0..500u64)
            .find_map(|seed| {
                let mut t = Table::new(created(players, seed, DiceMode::Digital, &options));
                let actions = play_sensibly(&mut t, style);
                shows(&t).then_some((seed, t, actions))
            })
            .unwrap_or_else(|| panic!("no seed shows {name}"));
        let opening = json!({"new": {
            "kind": "dread",
            "players": t.game.created().players,
            "seed": seed,
            "dice": "digital",
            "options": t.game.created().options,
        }});
        let mut lines = vec![opening.to_string()];
        // Each character's own choices are made from its seat; the rest
        // by the owner (the table's host).
        let mut replay = Table::new(created(players, seed, DiceMode::Digital, &options));
        for (k, a) in actions.iter().enumerate() {
            let seat = a["character"]
                .as_u64()
                .map(|c| replay.state().characters[c as usize].seat);
            let mut line = json!({"act": a});
            if let Some(seat) = seat {
                line["as"] = json!(seat);
            }
            lines.push(line.to_string());
            replay.try_act(seat, a.clone()).unwrap();
            // A few refusals the rules owe the table, at fixed points.
            if k == 0 {
                lines.push(json!({"act": {"type": "begin_story", "leader": 9}, "rejected": "dread.character"}).to_string());
            }
            if a["type"] == "begin_story" && replay.state().chapter == 0 {
                lines.push(json!({"act": {"type": "place", "character": 0, "slot": 1, "number": 1}, "rejected": "dread.phase"}).to_string());
                lines.push(json!({"act": {"type": "investigate", "location": "west 1"}, "rejected": "dread.not_yet"}).to_string());
            }
        }
        let path = dir.join(format!("{name}_digital.jsonl"));
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        println!("{name}: seed {seed}, {} actions", actions.len());
    }
}

#[test]
fn a_detour_turns_an_arrow_still_to_come_for_one_dread() {
    let mut t = started(13);
    story_with(
        &mut t,
        &[
            (0, 1, json!({"number": 2})),
            (0, 3, json!({"number": 5, "arrow": "north"})),
        ],
    );
    let r = t.refused(
        None,
        json!({"type": "detour", "character": 0, "slot": 1, "toward": "east"}),
    );
    assert_eq!(r.rule, "dread.detour", "a number stays a number");
    t.act(json!({"type": "detour", "character": 0, "slot": 3, "toward": "east"}));
    assert_eq!(t.state().dread, 1);
    t.act(json!({"type": "next_action"}));
    t.act(json!({"type": "next_action"}));
    let r = t.refused(
        None,
        json!({"type": "detour", "character": 0, "slot": 2, "toward": "south"}),
    );
    assert_eq!(r.rule, "dread.detour", "slot 2 has passed");
    t.act(json!({"type": "next_action"}));
    assert_eq!(t.state().characters[0].place.to_string(), "east streets");
}

#[test]
fn a_plot_card_left_through_a_segment_raises_its_dread() {
    let mut t = started(14);
    let p = dealt(&t.state(), &down_placeholder);
    t.act(json!({"type": "reveal", "location": p.to_string()}));
    let value = t.state().plot('A').unwrap().dread;
    t.act(json!({"type": "begin_story", "leader": 0}));
    let mut rose = Vec::new();
    for _ in 0..5 {
        for f in t.act(json!({"type": "next_action"})) {
            if let Fact::DreadRose { by, why } = f {
                rose.push((by, why));
            }
        }
    }
    assert_eq!(rose.len(), 1, "{rose:?}");
    assert_eq!(rose[0].0, value);
    assert!(
        rose[0].1.contains("missed through the Morning"),
        "{}",
        rose[0].1
    );
}

#[test]
fn allies_join_up_to_the_most_a_character_may_keep() {
    let mut t = Table::new(created(2, 15, DiceMode::Digital, &[]));
    let s = t.state();
    assert_eq!((s.allies_dealt, s.most_challenges), (9, 6));
    let allies: Vec<Place> = (0..24)
        .map(Place::of_index)
        .filter(|p| {
            matches!(
                s.locations[p.index().unwrap()],
                Spot::Down {
                    card: Some(super::state::Card::Ally(_))
                }
            )
        })
        .collect();
    assert_eq!(allies.len(), 9);
    t.act(json!({"type": "start_planning"}));
    // Park every character on a card that is not an Ally, then move the
    // ally-finder through four Allies of one area, or as many as there are.
    let area = allies[0].area;
    let here: Vec<Place> = allies.iter().copied().filter(|p| p.area == area).collect();
    for p in &here {
        t.act(json!({"type": "reveal", "location": p.to_string()}));
    }
    let mut plans = vec![];
    if area != super::state::Area::West {
        plans.push((
            0,
            1u8,
            json!({"number": 1, "arrow": format!("{area:?}").to_lowercase()}),
        ));
    }
    for (k, p) in here.iter().enumerate() {
        plans.push((0, 2 + k as u8, json!({"number": p.spot})));
    }
    story_with(&mut t, &plans);
    t.act(json!({"type": "next_action"}));
    for p in &here {
        t.act(json!({"type": "next_action"}));
        let kept = t.state().characters[0].allies.len();
        if kept < 3 {
            t.act(json!({"type": "recruit", "character": 0, "location": p.to_string()}));
            assert_eq!(t.state().characters[0].allies.len(), kept + 1);
        } else {
            let r = t.refused(
                None,
                json!({"type": "recruit", "character": 0, "location": p.to_string()}),
            );
            assert_eq!(r.rule, "dread.allies");
        }
    }
}

#[test]
fn resources_are_shared_as_evenly_as_possible() {
    assert_eq!(
        super::decide::tests_support::spread(&[4, 7], 3),
        vec![4, 7, 4]
    );
    assert_eq!(
        super::decide::tests_support::spread(&[1, 2, 3, 0], 3),
        vec![1, 2, 3]
    );
    // Virtues never pass twelve among the team.
    let t = started(16);
    let mut s = t.state();
    s.characters[0].virtues = 8; // and one each for the other three: 11
    let mut out = super::decide::tests_support::out(&s);
    super::decide::tests_support::virtues(&mut out, 1, 5);
    assert_eq!(out.s.virtues_held(), VIRTUES);
}

#[test]
fn items_tilt_when_used_and_go_when_depleted() {
    let (mut t, p) = at_plot(17, 'A', false);
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    let item = t.state().characters[0].items[0].name.clone();
    let r = t.refused(
        None,
        json!({"type": "use_item", "character": 0, "item": item}),
    );
    assert_eq!(r.rule, "dread.flip_first");
    t.act(json!({"type": "flip", "character": 0}));
    let use_effect = t.state().cards.items[&item].use_effect.clone();
    if use_effect.successes == 0 && use_effect.rerolls == 0 {
        t.act(json!({"type": "use_item", "character": 0, "item": item}));
        assert!(t.state().characters[0].items[0].tilted);
        let r = t.refused(
            None,
            json!({"type": "use_item", "character": 0, "item": item, "deplete": true}),
        );
        assert_eq!(r.rule, "dread.tilted");
    } else {
        t.act(json!({"type": "use_item", "character": 0, "item": item, "deplete": true}));
        assert!(t.state().characters[0].items.is_empty());
    }
}

#[test]
fn with_three_players_in_pairs_the_fourth_character_passes_round() {
    use super::decide::controller;
    assert_eq!(
        (0..4).map(|i| controller(2, 4, i, 0)).collect::<Vec<_>>(),
        vec![0, 0, 1, 1]
    );
    assert_eq!(
        (0..3)
            .map(|stage| controller(3, 4, 3, stage))
            .collect::<Vec<_>>(),
        vec![0, 1, 2],
        "chapter 1, chapter 2, the Endgame"
    );
    let t = Table::new(created(3, 1, DiceMode::Digital, &[("variant", "pairs")]));
    let s = t.state();
    assert_eq!(s.characters.len(), 4);
    assert_eq!(s.allies_dealt, 0);
}

#[test]
fn the_next_chapters_deal_is_hidden_from_the_seats() {
    let fact = Fact::ChapterDealt {
        chapter: 1,
        cards: Some(vec![super::state::Card::Placeholder]),
        allies: 0,
    };
    let s = started(18).state();
    let cx = crate::rules::Context {
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

/// The table's game with its state changed by `change` (a hand-set table).
fn rigged(t: &mut Table, change: impl FnOnce(&mut State)) {
    let mut s = t.state();
    change(&mut s);
    t.game = Game::restore(
        t.game.created(),
        &crate::game::Snapshot {
            seq: t.game.seq(),
            seed: t.game.created().seed,
            chapter: "rigged".into(),
            state: serde_json::to_value(&s).unwrap(),
            notes: Default::default(),
            dice: None,
        },
    )
    .unwrap();
}

#[test]
fn a_healing_comes_first_when_a_second_condition_looms() {
    let (mut t, p) = at_plot(20, 'A', false);
    rigged(&mut t, |s| {
        s.characters[0].conditions = vec![Condition::Injured];
        s.characters[0].items = vec![super::state::Held {
            name: "Bandages".into(),
            tilted: false,
        }];
    });
    // Outside any investigation, only what works alone is offered.
    let offered: Vec<Value> = t
        .legal()
        .into_iter()
        .filter(|a| a["type"] == "use_item" && a["character"] == 0)
        .collect();
    assert_eq!(
        offered,
        vec![json!({"type": "use_item", "character": 0, "item": "Bandages", "deplete": true})]
    );
    let r = t.refused(
        None,
        json!({"type": "use_item", "character": 0, "item": "Bandages"}),
    );
    assert_eq!(
        r.rule, "dread.no_encounter",
        "a Wild icon needs an investigation"
    );
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    // Before the flip, the healing (not the icon) is open.
    let r = t.refused(
        None,
        json!({"type": "use_item", "character": 0, "item": "Bandages"}),
    );
    assert_eq!(r.rule, "dread.flip_first");
    t.act(json!({"type": "use_item", "character": 0, "item": "Bandages", "deplete": true}));
    let s = t.state();
    assert!(s.characters[0].conditions.is_empty());
    assert!(s.characters[0].items.is_empty());
    // Nothing is used while planning.
    let mut planning = started(21);
    let item = planning.state().characters[0].items[0].name.clone();
    let r = planning.refused(
        None,
        json!({"type": "use_item", "character": 0, "item": item, "deplete": true}),
    );
    assert_eq!(r.rule, "dread.planning");
}
