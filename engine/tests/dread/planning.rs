//! The planning phase: its deadline, the tokens placed, and the placeholders
//! covered by the Plot cards.

use super::*;

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
    // While planning runs, beginning the story asks the table first: it
    // ends planning for the whole team.
    let offered = t.game.legal_at(None, t.now);
    let begins: Vec<_> = offered
        .iter()
        .filter(|l| l.action["type"] == "begin_story")
        .collect();
    assert!(!begins.is_empty());
    assert!(
        begins.iter().all(|l| l
            .confirm
            .as_deref()
            .is_some_and(|c| c.contains("whole team"))),
        "{begins:?}"
    );
    assert!(offered
        .iter()
        .filter(|l| l.action["type"] != "begin_story")
        .all(|l| l.confirm.is_none()));
    t.now = ends + 1;
    let r = t.refused(
        None,
        json!({"type": "place", "character": 0, "slot": 2, "number": 3}),
    );
    assert_eq!(r.rule, "dread.planning_over");
    assert!(r.message.contains("09:12:01 UTC"), "{}", r.message);
    let r = t.refused(None, json!({"type": "reveal", "location": "north 1"}));
    assert_eq!(r.rule, "dread.planning_over");
    // Only beginning the story is left, and it is open, with nothing to
    // confirm: planning is over already.
    let legal = t.legal();
    assert!(
        legal.iter().all(|a| a["type"] == "begin_story"),
        "{legal:?}"
    );
    let offered = t.game.legal_at(None, t.now);
    assert!(offered.iter().all(|l| l.confirm.is_none()), "{offered:?}");
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
    // Taken back, the stash token goes home, and still costs its dread at
    // the chapter's end: it was taken (rules 2).
    t.act(json!({"type": "take_back", "character": 0, "slot": 3}));
    assert!(t.state().stash.contains(&4));
    assert_eq!(t.state().stash_taken, [4]);
    t.act(json!({"type": "place", "character": 0, "slot": 3, "number": 4, "stash": true}));
    assert_eq!(t.state().stash_taken, [4], "the same token, counted once");
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

#[test]
fn investigation_tokens_mark_a_face_up_card_and_change_nothing_else() {
    let mut t = started(3);
    let p = dealt(&t.state(), &down_dread);
    // Face down, a card takes no token.
    let r = t.refused(
        None,
        json!({"type": "mark", "location": p, "token": "green"}),
    );
    assert_eq!(r.rule, "dread.mark");
    t.act(json!({"type": "reveal", "location": p}));
    // The line is offered with its colours to pick, never ready as it is.
    let offered = t.game.legal_at(None, t.now);
    let line = offered
        .iter()
        .find(|l| l.action["type"] == "mark" && l.action["location"] == json!(p))
        .expect("a face-up Dread card can be marked");
    assert!(!line.needs.is_empty());
    assert_eq!(line.picks[0].values, ["green", "yellow", "white", "red"]);
    let r = t.refused(None, json!({"type": "mark", "location": p}));
    assert!(
        r.message.contains("green, yellow, white or red"),
        "{}",
        r.message
    );

    let before = t.state();
    let facts = t.act(json!({"type": "mark", "location": p, "token": "yellow"}));
    assert_eq!(t.state().marks.len(), 1);
    let told: String = facts
        .iter()
        .flat_map(|f| <Dread as tabletape_engine::rules::Rules>::narrate(&before, f))
        .collect();
    assert!(
        told.contains("A yellow Investigation token goes on the card at"),
        "{told}"
    );
    assert!(told.contains("solved with an Item"), "{told}");
    // A new colour replaces it; taking it off leaves the state as it was.
    t.act(json!({"type": "mark", "location": p, "token": "red"}));
    assert_eq!(
        t.state().marks,
        vec![(p, tabletape_engine::dread::state::InvestigationToken::Red)]
    );
    t.act(json!({"type": "unmark", "location": p}));
    let mut after = t.state();
    assert!(after.marks.is_empty());
    let r = t.refused(None, json!({"type": "unmark", "location": p}));
    assert_eq!(r.rule, "dread.mark");
    after.marks = before.marks.clone();
    assert_eq!(after, before, "a token is a note: nothing else changed");
}
