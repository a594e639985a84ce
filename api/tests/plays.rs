//! Tests of `plays`.

use tabletape_api::plays::*;
use tabletape_engine::PlayResult;
use uuid::Uuid;

fn play(players: &[&str]) -> Play {
    Play {
        game: "duel".into(),
        title: Some("Friday <night> & \"more\"".into()),
        name: "Lost Worlds".into(),
        bgg_id: 0,
        players: players.iter().map(|p| p.to_string()).collect(),
        started_at_ms: 1_764_000_000_000,
        ended_at_ms: 1_764_000_000_000 + 25 * 60_000 + 59_000,
        result: PlayResult {
            winners: vec![1],
            scores: None,
            cooperative: false,
        },
    }
}

#[test]
fn names_are_escaped_in_the_bgg_record() {
    let xml = bgg(&play(&["Ada \"Axe\" & Co", "<Bo>"]));
    assert!(
        xml.contains("name=\"Ada &quot;Axe&quot; &amp; Co\""),
        "{xml}"
    );
    assert!(xml.contains("name=\"&lt;Bo&gt;\""), "{xml}");
    assert!(
        xml.contains("Friday &lt;night&gt; &amp; &quot;more&quot;"),
        "{xml}"
    );
    assert!(xml.contains("length=\"25\""), "whole minutes: {xml}");
}

#[test]
fn the_same_game_is_the_same_play_and_another_is_not() {
    let a = bgstats(&play(&["Ada", "Bo"]));
    let b = bgstats(&play(&["Ada", "Bo"]));
    assert_eq!(a["plays"][0]["uuid"], b["plays"][0]["uuid"]);
    let mut other = play(&["Ada", "Bo"]);
    other.game = "rematch".into();
    assert_ne!(a["plays"][0]["uuid"], bgstats(&other)["plays"][0]["uuid"]);
    let uuid = a["plays"][0]["uuid"].as_str().unwrap();
    assert!(
        Uuid::parse_str(uuid).is_ok_and(|u| u.get_version_num() == 5),
        "{uuid}"
    );
}
#[test]
fn utc_dates() {
    assert_eq!(utc(0), "1970-01-01 00:00:00");
    assert_eq!(utc(951_782_400_000), "2000-02-29 00:00:00");
    assert_eq!(utc(1_795_305_157_999), "2026-11-21 23:52:37");
}
