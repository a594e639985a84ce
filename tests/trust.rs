//! Trust across forks, take-backs and dice (issue P14): every path that
//! makes a new line (a fork, a take-back, a note, acting on one's own fork,
//! finishing it) keeps what the rules hide, no chance outcome a seat has
//! seen can be drawn again, and the dice are no one's to choose. Each test
//! here pins one way this once failed; `adversary.rs` searches for more.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_engine::dice::commitment_of;
use tabletape_engine::{Format, Viewer};
use tabletape_events::{Actor, DiceMode, Seat, MAIN_BRANCH};
use tabletape_store::scratch::test_store;
use tabletape_store::{
    Access, ActRequest, Acted, Created, Journal, JournalError, NewGame, NoteRequest, ShareRequest,
};

pub(crate) fn journal() -> (tempfile::TempDir, Journal) {
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::open_at(&test_store(dir.path())).unwrap();
    (dir, j)
}

pub(crate) fn create(
    j: &Journal,
    kind: &str,
    players: usize,
    seed: u64,
    dice: DiceMode,
    options: &[(&str, Value)],
) -> Created {
    j.create(NewGame {
        kind: kind.into(),
        players: ["Ada", "Bo", "Cy", "Dee", "Eve"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        seed: Some(seed),
        dice,
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<BTreeMap<_, _>>(),
        ..NewGame::default()
    })
    .unwrap()
}

/// Records `action` on `branch` as `by` (a seat's token, or the owner's).
pub(crate) fn act(
    j: &Journal,
    game: &str,
    branch: &str,
    by: Access,
    action: &Value,
) -> Result<Acted, JournalError> {
    let (actor, seat) = match by {
        Access::Seat(s) => (Actor::Seat(s), Some(s)),
        _ => (Actor::Owner, None),
    };
    j.act(
        game,
        ActRequest {
            branch: branch.into(),
            actor,
            by: seat,
            action: action.clone(),
            expect_seq: None,
            idempotency_key: None,
        },
    )
}

/// Writes a note on the game's current line, as `by`.
pub(crate) fn note(j: &Journal, game: &str, at: u64, text: &str, private: bool, by: Access) {
    let req = NoteRequest {
        branch: None,
        at,
        title: None,
        text: text.into(),
        private,
        expect_seq: None,
        idempotency_key: None,
    };
    j.note(game, req, by).unwrap();
}

/// The ready actions `seat` may record on `branch` now.
pub(crate) fn ready(j: &Journal, game: &str, branch: &str, seat: Option<Seat>) -> Vec<Value> {
    j.legal(game, branch, seat)
        .unwrap()
        .into_iter()
        .filter(|l| l.needs.is_empty())
        .map(|l| l.action)
        .collect()
}

/// Plays ready actions as the owner, the first of the kind asked for when
/// there is one (else the first), for at most `steps`; returns how many.
fn owner_plays(j: &Journal, game: &str, steps: usize, prefer: &[&str]) -> usize {
    for n in 0..steps {
        let open = ready(j, game, MAIN_BRANCH, None);
        let Some(action) = prefer
            .iter()
            .find_map(|t| open.iter().find(|a| a["type"] == *t))
            .or(open.first())
            .cloned()
        else {
            return n;
        };
        act(j, game, MAIN_BRANCH, Access::Owner, &action).unwrap();
    }
    steps
}

/// Everything `viewer` can read of a game, through every read the journal
/// serves, on every branch it can name: what no secret may reach.
pub(crate) fn reads(j: &Journal, game: &str, viewer: Viewer) -> String {
    let lines: Vec<(String, u64)> = j
        .branches_as(game, viewer)
        .unwrap()
        .into_iter()
        .map(|b| (b.name, 1))
        .collect();
    reads_of(j, game, viewer, &lines)
}

/// A read as the JSON text a client gets.
pub(crate) fn text<T: serde::Serialize>(read: &T) -> String {
    serde_json::to_string(read).expect("reads serialize")
}

/// What `viewer` can read of the game as a whole, and of each line named
/// from the seq given on (its events, and what follows them live; its
/// state, replay, story, board, legal moves and comparison whole).
pub(crate) fn reads_of(j: &Journal, game: &str, viewer: Viewer, lines: &[(String, u64)]) -> String {
    let mut out = Vec::new();
    // Each read written straight to text: building a JSON value of it
    // first copied every view and event once more for nothing.
    let mut push = |text: String| out.push(text);
    push(text(&j.summary(game, viewer).unwrap()));
    push(text(&j.branches_as(game, viewer).unwrap()));
    push(text(&j.verify_as(game, viewer).unwrap()));
    let varied = j
        .narrate_with_variations(game, MAIN_BRANCH, viewer)
        .unwrap();
    push(text(&varied.render(Format::Markdown)));
    for (name, from) in lines {
        let name = name.as_str();
        push(text(&j.events_as(game, name, *from, None, viewer).unwrap()));
        push(text(&j.follow(game, name, from - 1, viewer).unwrap()));
        push(text(&j.state(game, name, None, viewer).unwrap()));
        push(text(&j.replay(game, name, None, viewer).unwrap()));
        let told = j.narrate_as(game, name, viewer).unwrap();
        push(text(&told.render(Format::Markdown)));
        push(text(&told));
        push(text(&j.board_svg(game, name, None, viewer).unwrap()));
        if let Viewer::Seat(s) = viewer {
            push(text(&j.legal(game, name, Some(s)).unwrap()));
        }
        if name != MAIN_BRANCH {
            push(text(&j.compare(game, MAIN_BRANCH, name, viewer).unwrap()));
        }
    }
    out.join("\n")
}

/// The values a seat must never read while the game is in play: every
/// seed (the creation's, each reseed's) and every event's salt.
pub(crate) fn sealed_values(j: &Journal, game: &str) -> Vec<String> {
    let mut secrets = Vec::new();
    let summary = j.summary(game, Viewer::Owner).unwrap();
    secrets.push(summary.seed.unwrap().to_string());
    for b in j.branches(game).unwrap() {
        if let Some(seed) = b.reseed {
            secrets.push(seed.to_string());
        }
        for e in j.events(game, &b.name, 1, None).unwrap() {
            if !e.salt.is_empty() {
                secrets.push(e.salt.clone());
            }
        }
    }
    secrets
}

fn leaked<'a>(seen: &str, secrets: &'a [String]) -> Vec<&'a String> {
    let mut found: Vec<&String> = Secrets::new(secrets)
        .finder
        .find_overlapping_iter(seen)
        .map(|m| &secrets[m.pattern().as_usize()])
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Secrets looked for in one pass over a text, however many there are (a
/// salt an event): the adversary searches read megabytes a step, and one
/// `contains` a secret made them quadratic.
pub(crate) struct Secrets<'a> {
    list: &'a [String],
    finder: aho_corasick::AhoCorasick,
}

impl<'a> Secrets<'a> {
    pub(crate) fn new(list: &'a [String]) -> Self {
        let finder = aho_corasick::AhoCorasick::new(list).expect("secrets are plain strings");
        Secrets { list, finder }
    }

    /// The first secret `text` holds, if any.
    pub(crate) fn in_text(&self, text: &str) -> Option<&'a str> {
        self.finder
            .find(text)
            .map(|m| self.list[m.pattern().as_usize()].as_str())
    }
}

fn draws(acted: &Acted, j: &Journal, game: &str, branch: &str) -> Value {
    let e = j.events(game, branch, acted.seq, Some(acted.seq)).unwrap();
    match &e[0].body {
        tabletape_events::Body::ActionAccepted(a) => json!(a.chance),
        _ => Value::Null,
    }
}

fn rule(result: Result<impl std::fmt::Debug, JournalError>) -> String {
    match result {
        Err(JournalError::Rejected(r)) => r.rule.to_string(),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

/// Reproduction 1: a seat forks London Dread at its head and records every
/// action the fork offers it until the fork ends. Nothing of the line in
/// play opens: not its face-down locations (the fork was dealt anew, so
/// what it turns up says nothing of them), not another seat's private note,
/// not the seed; and the seat may not export it.
#[test]
fn a_seat_that_finishes_its_own_fork_learns_nothing_of_the_game_in_play() {
    let (_dir, j) = journal();
    let game = create(&j, "dread", 2, 4_100_000_041, DiceMode::Digital, &[]).game;
    owner_plays(&j, &game, 6, &[]);
    note(&j, &game, 2, "bo-private-words", true, Access::Seat(1));
    let head = j.summary(&game, Viewer::Owner).unwrap().seq;
    let main = j
        .state(&game, MAIN_BRANCH, None, Viewer::Owner)
        .unwrap()
        .view;
    let face_down: Vec<(usize, Value)> = main["locations"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, spot)| spot["state"] == "down")
        .map(|(i, spot)| (i, spot["card"].clone()))
        .collect();
    assert!(face_down.len() >= 10, "the deal lies face down: {main}");

    let fork = j
        .fork(
            &game,
            MAIN_BRANCH,
            head,
            Some("alone"),
            None,
            Access::Seat(0),
        )
        .unwrap();
    // The fork's deal, as the owner reads it: the face-down cards shuffled
    // anew (a few may fall where they lay on main, as in any shuffle; most
    // do not).
    let dealt = j
        .state(&game, &fork.name, None, Viewer::Owner)
        .unwrap()
        .view;
    let kept = face_down
        .iter()
        .filter(|(i, card)| dealt["locations"][*i]["card"] == *card)
        .count();
    assert!(
        kept * 2 < face_down.len(),
        "{kept} of the {} face-down cards lie where they lay on main",
        face_down.len()
    );
    let mut pick = tabletape_engine::rng::TableRng::for_event(41, 0);
    let mut steps = 0;
    while steps < 5_000 {
        let open = ready(&j, &game, &fork.name, Some(0));
        if open.is_empty() {
            break;
        }
        let action = &open[pick.below(open.len() as u32) as usize];
        act(&j, &game, &fork.name, Access::Seat(0), action).unwrap();
        steps += 1;
    }
    let fork_state = j.state(&game, &fork.name, None, Viewer::Seat(0)).unwrap();
    assert!(
        fork_state.over,
        "seat 0 alone ended its fork ({steps} actions)"
    );
    assert!(!j.game_over(&game).unwrap(), "the game itself goes on");

    // What the fork turned up is its own deal, not the line in play's.
    let turned = face_down
        .iter()
        .filter(|(i, _)| fork_state.view["locations"][*i]["state"] == "up")
        .count();
    assert!(turned > 0, "the fork turned locations up: {fork_state:?}");
    // Main's face-down cards are still face down to seat 0, everywhere.
    let seen = reads(&j, &game, Viewer::Seat(0));
    let main_seat = j.state(&game, MAIN_BRANCH, None, Viewer::Seat(0)).unwrap();
    for (i, _) in &face_down {
        assert_eq!(main_seat.view["locations"][*i], json!({"state": "down"}));
    }
    let mut secrets = sealed_values(&j, &game);
    secrets.push("bo-private-words".into());
    assert_eq!(leaked(&seen, &secrets), Vec::<&String>::new());
    assert!(matches!(
        j.check_export(&game, Some(&fork.name), Viewer::Seat(0)),
        Err(JournalError::Forbidden(_))
    ));
}

/// Reproduction 2: with a plain (unsealed) choice, Bo has chosen; Ada forks
/// at the head and chooses on her fork. Bo's choice was withdrawn there, so
/// the exchange does not resolve and nothing names his maneuver.
#[test]
fn a_fork_does_not_resolve_another_seats_hidden_choice() {
    let (_dir, j) = journal();
    let game = create(&j, "lostworlds", 2, 3, DiceMode::Digital, &[]).game;
    let bo = ready(&j, &game, MAIN_BRANCH, Some(1))
        .into_iter()
        .find(|a| a["type"] == "choose")
        .unwrap();
    act(&j, &game, MAIN_BRANCH, Access::Seat(1), &bo).unwrap();
    let held = j
        .state(&game, MAIN_BRANCH, None, Viewer::Owner)
        .unwrap()
        .view;
    let maneuver = held["pending"]["1"]["page"].to_string();
    assert_ne!(maneuver, "null", "{held}");
    let head = j.summary(&game, Viewer::Owner).unwrap().seq;
    let fork = j
        .fork(&game, MAIN_BRANCH, head, None, None, Access::Seat(0))
        .unwrap();
    let bo_maneuver = bo["maneuver"].as_str().unwrap().to_string();
    let ada = ready(&j, &game, &fork.name, Some(0))
        .into_iter()
        .find(|a| a["type"] == "choose" && a["maneuver"] != bo["maneuver"])
        .unwrap();
    act(&j, &game, &fork.name, Access::Seat(0), &ada).unwrap();
    let on_fork = j
        .state(&game, &fork.name, None, Viewer::Owner)
        .unwrap()
        .view;
    assert_eq!(on_fork["exchanges"], 0, "the exchange waits for Bo there");
    assert!(on_fork["pending"].get("1").is_none(), "{on_fork}");
    // Bo's choice shows to Ada only as made, on either line.
    for branch in [MAIN_BRANCH, fork.name.as_str()] {
        for e in j
            .events_as(&game, branch, 1, None, Viewer::Seat(0))
            .unwrap()
        {
            let e = json!(e);
            for fact in e["body"]["facts"].as_array().into_iter().flatten() {
                if fact["seat"] == 1 {
                    assert!(fact.get("page").is_none(), "{branch}: {fact}");
                }
            }
        }
        let told = j.narrate_as(&game, branch, Viewer::Seat(0)).unwrap();
        let told = told.render(Format::Markdown);
        assert!(
            !told.contains(&bo_maneuver),
            "{branch} names {bo_maneuver}:\n{told}"
        );
    }
}

/// Reproduction 2, the game's last move: in Ludovia the thief whose turn
/// would end the night forks and ends it there. The fork's end opens
/// nothing: no other hand, no seed.
#[test]
fn ending_the_game_on_a_fork_opens_nothing() {
    let (_dir, j) = journal();
    let game = create(
        &j,
        "ludovia",
        3,
        7_000_000_007,
        DiceMode::Digital,
        &[("round_limit", json!(1))],
    )
    .game;
    // Play on until one ready action of the seat to move ends the night.
    let (seat, ending) = 'search: loop {
        let g = j.game_at(&game, MAIN_BRANCH, None).unwrap();
        for seat in g.to_move() {
            for action in ready(&j, &game, MAIN_BRANCH, Some(seat)) {
                if g.decide(Some(seat), &action)
                    .is_ok_and(|d| d.narration.iter().any(|l| l.contains("night")))
                {
                    let mut next = g.clone();
                    let d = g.decide(Some(seat), &action).unwrap();
                    next.accept(d.next).unwrap();
                    if next.is_over() {
                        break 'search (seat, action);
                    }
                }
            }
        }
        assert_eq!(owner_plays(&j, &game, 1, &["rob", "end_turn"]), 1);
    };
    let hands = j
        .state(&game, MAIN_BRANCH, None, Viewer::Owner)
        .unwrap()
        .view["thieves"]
        .clone();
    let head = j.summary(&game, Viewer::Owner).unwrap().seq;
    let fork = j
        .fork(&game, MAIN_BRANCH, head, None, None, Access::Seat(seat))
        .unwrap();
    let ended = act(&j, &game, &fork.name, Access::Seat(seat), &ending).unwrap();
    assert!(ended.over);
    let seen = reads(&j, &game, Viewer::Seat(seat));
    assert_eq!(
        leaked(&seen, &sealed_values(&j, &game)),
        Vec::<&String>::new()
    );
    let theirs = j
        .state(&game, MAIN_BRANCH, None, Viewer::Seat(seat))
        .unwrap()
        .view["thieves"]
        .clone();
    for (i, thief) in hands.as_array().unwrap().iter().enumerate() {
        if i as Seat != seat && !thief["hand"].as_array().unwrap().is_empty() {
            assert_eq!(
                theirs[i]["hand"],
                json!({"secret": thief["hand"].as_array().unwrap().len()})
            );
        }
    }
}

/// Reproduction 3: a roll taken back and recorded again, with a private
/// note written between, meets the same die: chance is keyed by the
/// action's place in its line, which notes do not take. A card drawn from
/// the rooftops cannot be taken back at all.
#[test]
fn a_note_between_a_take_back_and_a_redo_does_not_move_the_dice() {
    let (_dir, j) = journal();
    let game = create(&j, "ludovia", 3, 9, DiceMode::Digital, &[]).game;
    // Up to the first thief's turn, whose first action rolls for a policeman.
    let roll = loop {
        let g = j.game_at(&game, MAIN_BRANCH, None).unwrap();
        let to_move = g.to_move();
        let found = to_move.iter().find_map(|&s| {
            ready(&j, &game, MAIN_BRANCH, Some(s))
                .into_iter()
                .find(|a| a["type"] == "move_policeman")
                .map(|a| (s, a))
        });
        if let Some(found) = found {
            break found;
        }
        assert_eq!(owner_plays(&j, &game, 1, &[]), 1);
    };
    let (seat, action) = roll;
    let line = j.current_line(&game).unwrap();
    let first = act(&j, &game, &line, Access::Seat(seat), &action).unwrap();
    let rolled = draws(&first, &j, &game, &line);
    assert_ne!(rolled, json!([]), "a digital roll is drawn");
    j.undo(&game, Access::Seat(seat)).unwrap();
    let line = j.current_line(&game).unwrap();
    note(&j, &game, 2, "thinking it over", true, Access::Seat(seat));
    let again = act(&j, &game, &line, Access::Seat(seat), &action).unwrap();
    assert_eq!(draws(&again, &j, &game, &line), rolled, "the same die");

    // A rob draws a card from the face-down rooftops: it stands. The thief
    // to move walks the rooftops until one is there to rob.
    let rob = loop {
        let line = j.current_line(&game).unwrap();
        let g = j.game_at(&game, &line, None).unwrap();
        let seat = g.to_move()[0];
        let open = ready(&j, &game, &line, Some(seat));
        if let Some(rob) = open.iter().find(|a| a["type"] == "rob") {
            break (seat, rob.clone());
        }
        let next = open
            .iter()
            .find(|a| a["type"] == "move" && a["to"].as_str().is_some_and(|t| t.starts_with('s')))
            .or(open.iter().find(|a| a["type"] == "move"))
            .or(open.first())
            .expect("the thief to move can do something")
            .clone();
        act(&j, &game, &line, Access::Seat(seat), &next).unwrap();
    };
    let line = j.current_line(&game).unwrap();
    act(&j, &game, &line, Access::Seat(rob.0), &rob.1).unwrap();
    assert_eq!(rule(j.undo(&game, Access::Seat(rob.0))), "undo.revealed");
    assert_eq!(rule(j.undo(&game, Access::Owner)), "undo.revealed");
}

/// Reproduction 4: a location turned face up stays face up, and the
/// planning clock, once started, is not started anew by a take-back.
#[test]
fn a_take_back_hides_nothing_again_and_restarts_no_clock() {
    let (_dir, j) = journal();
    let game = create(&j, "dread", 2, 5, DiceMode::Digital, &[]).game;
    let start = loop {
        let found = (0..2).find_map(|s| {
            ready(&j, &game, MAIN_BRANCH, Some(s))
                .into_iter()
                .find(|a| a["type"] == "start_planning")
                .map(|a| (s, a))
        });
        if let Some(found) = found {
            break found;
        }
        assert_eq!(owner_plays(&j, &game, 1, &[]), 1);
    };
    act(&j, &game, MAIN_BRANCH, Access::Seat(start.0), &start.1).unwrap();
    assert_eq!(rule(j.undo(&game, Access::Seat(start.0))), "undo.clock");
    assert_eq!(rule(j.undo(&game, Access::Owner)), "undo.clock");
    let reveal = (0..2)
        .find_map(|s| {
            ready(&j, &game, MAIN_BRANCH, Some(s))
                .into_iter()
                .find(|a| a["type"] == "reveal")
                .map(|a| (s, a))
        })
        .expect("a location to turn up");
    act(&j, &game, MAIN_BRANCH, Access::Seat(reveal.0), &reveal.1).unwrap();
    assert_eq!(rule(j.undo(&game, Access::Seat(reveal.0))), "undo.revealed");
    assert_eq!(j.current_line(&game).unwrap(), MAIN_BRANCH, "nothing moved");
}

/// A take-back after a note takes back the last action and keeps the note
/// on the new line; a line taken back is closed to play.
#[test]
fn a_take_back_skips_the_notes_after_the_action_and_keeps_them() {
    let (_dir, j) = journal();
    let game = create(&j, "ludovia", 3, 11, DiceMode::Digital, &[]).game;
    assert_eq!(owner_plays(&j, &game, 3, &[]), 3);
    note(&j, &game, 2, "about the opening", false, Access::Owner);
    note(&j, &game, 4, "about the last action", false, Access::Owner);
    let undone = j.undo(&game, Access::Owner).unwrap();
    assert_eq!(undone.seq, 4, "the last action, not the notes after it");
    let kept: Vec<String> = j
        .game_at(&game, &undone.current, None)
        .unwrap()
        .notes()
        .iter()
        .map(|n| n.text.clone())
        .collect();
    assert_eq!(kept, vec!["about the opening".to_string()]);
    let open = ready(&j, &game, MAIN_BRANCH, None);
    assert_eq!(
        rule(act(&j, &game, MAIN_BRANCH, Access::Owner, &open[0])),
        "line.taken_back"
    );
}

/// Every seat commits to its share, then reveals it: the dice are keyed.
fn keyed_by_every_seat(j: &Journal, game: &str, shares: &[[u8; 32]]) {
    for (s, v) in shares.iter().enumerate() {
        share(j, game, s as Seat, commit(*v)).unwrap();
    }
    for (s, v) in shares.iter().enumerate() {
        share(j, game, s as Seat, reveal(*v)).unwrap();
    }
}

fn share(j: &Journal, game: &str, seat: Seat, step: ShareRequest) -> Result<Acted, JournalError> {
    j.share(game, step, Access::Seat(seat))
}

fn commit(value: [u8; 32]) -> ShareRequest {
    ShareRequest {
        branch: None,
        commitment: Some(commitment_of(&value)),
        contribution: None,
        expect_seq: None,
        idempotency_key: None,
    }
}

fn reveal(value: [u8; 32]) -> ShareRequest {
    ShareRequest {
        branch: None,
        commitment: None,
        contribution: Some(value.iter().map(|b| format!("{b:02x}")).collect()),
        expect_seq: None,
        idempotency_key: None,
    }
}

/// Reproduction 5: the owner's seed alone no longer makes the dice. With
/// every seat's share, the same seed rolls differently for other shares,
/// the same shares roll the same (so games stay reproducible), and the
/// ceremony's rules hold: commit before reveal, reveal what was committed,
/// nothing once play began.
#[test]
fn every_seat_adds_to_the_dice_and_no_one_chooses_them() {
    let (_dir, j) = journal();
    let dealt = |shares: &[[u8; 32]]| {
        let game = create(&j, "ludovia", 3, 77, DiceMode::Digital, &[]).game;
        keyed_by_every_seat(&j, &game, shares);
        let acted = act(
            &j,
            &game,
            MAIN_BRANCH,
            Access::Owner,
            &json!({"type": "roll_for_order"}),
        )
        .unwrap();
        let summary = j.summary(&game, Viewer::Public).unwrap();
        let rolled = draws(&acted, &j, &game, MAIN_BRANCH);
        (game, rolled, summary)
    };
    let (_, a, summary) = dealt(&[[1; 32], [2; 32], [3; 32]]);
    let (_, b, _) = dealt(&[[1; 32], [2; 32], [4; 32]]);
    let (game, a_again, _) = dealt(&[[1; 32], [2; 32], [3; 32]]);
    assert_eq!(a, a_again, "the same shares roll the same");
    assert_ne!(a, b, "one seat's share changes every roll");
    let dice = summary.dice.unwrap();
    assert_eq!(dice.made_by, tabletape_engine::dice::DiceMakers::Everyone);
    assert_eq!(dice.revealed, vec![0, 1, 2]);
    let story = j.narrate_as(&game, MAIN_BRANCH, Viewer::Public).unwrap();
    assert!(story
        .render(Format::Markdown)
        .contains("no one, the owner included, chose them"));

    // The ceremony's rules.
    let game = create(&j, "ludovia", 3, 78, DiceMode::Digital, &[]).game;
    assert_eq!(
        rule(share(&j, &game, 0, reveal([1; 32]))),
        "dice.not_committed"
    );
    share(&j, &game, 0, commit([1; 32])).unwrap();
    assert_eq!(rule(share(&j, &game, 0, commit([1; 32]))), "dice.committed");
    assert_eq!(rule(share(&j, &game, 0, reveal([1; 32]))), "dice.waiting");
    share(&j, &game, 1, commit([2; 32])).unwrap();
    share(&j, &game, 2, commit([3; 32])).unwrap();
    assert_eq!(rule(share(&j, &game, 1, reveal([9; 32]))), "dice.mismatch");
    assert!(matches!(
        j.share(&game, commit([5; 32]), Access::Owner),
        Err(JournalError::Rejected(_))
    ));
    // Play begins before every seat revealed: the dice are the owner's, and
    // every reader is told so.
    act(
        &j,
        &game,
        MAIN_BRANCH,
        Access::Owner,
        &json!({"type": "roll_for_order"}),
    )
    .unwrap();
    assert_eq!(rule(share(&j, &game, 1, reveal([2; 32]))), "dice.closed");
    let summary = j.summary(&game, Viewer::Seat(2)).unwrap();
    assert_eq!(
        summary.dice.unwrap().made_by,
        tabletape_engine::dice::DiceMakers::OwnerOnly
    );
    let story = j.narrate_as(&game, MAIN_BRANCH, Viewer::Seat(2)).unwrap();
    assert!(story
        .render(Format::Markdown)
        .contains("Dice chosen by the owner only"));

    // A game of the table's own dice takes no shares.
    let physical = create(&j, "legend", 3, 5, DiceMode::Physical, &[]).game;
    assert_eq!(
        rule(share(&j, &physical, 0, commit([1; 32]))),
        "dice.closed"
    );
}

/// After the game, anyone holding only the public export checks every roll
/// with no store and no token: `verify --public`. A roll changed in the
/// file, even with every hash made anew to match, is refused.
#[test]
fn a_finished_games_public_export_verifies_and_a_forged_roll_does_not() {
    let (dir, j) = journal();
    let game = create(
        &j,
        "ludovia",
        3,
        13,
        DiceMode::Digital,
        &[("round_limit", json!(1))],
    )
    .game;
    keyed_by_every_seat(&j, &game, &[[1; 32], [2; 32], [3; 32]]);
    tabletape_tests::play_random(&j, &game, MAIN_BRANCH, 13, 5_000);
    assert!(j.game_over(&game).unwrap());
    // Any seat may export a game that is over: that is the public export.
    j.check_export(&game, None, Viewer::Seat(2)).unwrap();
    let mut exported = Vec::new();
    j.export(&game, None, &mut exported).unwrap();
    drop(j);
    let file = dir.path().join("public.jsonl");
    std::fs::write(&file, &exported).unwrap();

    let cli = tabletape_tests::Cli::new();
    let checked = cli.ok(&["verify", "--public", file.to_str().unwrap()]);
    assert!(checked.contains("every action decides again"), "{checked}");
    assert!(checked.contains("made by every seat's share"), "{checked}");

    // Change one roll and make every hash after it anew.
    let mut events: Vec<tabletape_events::Event> = String::from_utf8(exported)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let forged = events
        .iter()
        .position(|e| match &e.body {
            tabletape_events::Body::ActionAccepted(a) => {
                a.chance.iter().any(|d| d.what == "policeman die")
            }
            _ => false,
        })
        .expect("a policeman die was rolled");
    if let tabletape_events::Body::ActionAccepted(a) = &mut events[forged].body {
        let draw = a
            .chance
            .iter_mut()
            .find(|d| d.what == "policeman die")
            .unwrap();
        draw.value = json!(draw.value.as_u64().unwrap() % 6 + 1);
    }
    let mut prev = events[forged - 1].hash.clone();
    for e in events.iter_mut().skip(forged) {
        if e.branch == MAIN_BRANCH {
            e.prev_hash = prev.clone();
            e.hash = tabletape_store::event_hash(e);
            prev = e.hash.clone();
        }
    }
    let lines: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (stdout, stderr) = cli.fails(&["verify", "--public", file.to_str().unwrap()], 1);
    assert!(stdout.contains("BAD"), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!("seq {}", events[forged].seq)),
        "the forged seq is named: {stdout}"
    );
}
