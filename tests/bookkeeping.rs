//! Every golden story is a story: bookkeeping is under a fifth of its
//! prose. The numbers a table needs to check a game (page and picture
//! numbers, squares, dice arithmetic, action points, orders binding the
//! next turn, tallies, commitments, seqs and hashes) belong in each
//! chapter's record, which the Markdown story leaves out.
//!
//! How lines are counted: the prose is every paragraph and list item under
//! a chapter heading of a golden's expected story; headings, asides (block
//! quotes) and the closing sections ("The end", "So far", the appendix),
//! where a result is rightly told in numbers, are not counted. A line is
//! bookkeeping when [`bookkeeping`] finds any of the marks below in it.

use tabletape_tests::data_dir;

use crate::grammar::stories;

/// The most of a story's prose lines that may be bookkeeping, in percent.
const MOST: usize = 20;

fn number(word: Option<&&str>) -> bool {
    word.is_some_and(|w| {
        let w = w.trim_end_matches(|c: char| !c.is_ascii_digit());
        !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
    })
}

/// A board's coordinates: Ludovia's "h1.1" and "p3.3", a Legless or Lost
/// Worlds square after a preposition ("to c6", "on d4").
fn coordinate(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let letters = w.chars().take_while(char::is_ascii_lowercase).count();
    let rest = &w[letters..];
    let Some((whole, part)) = rest.split_once('.') else {
        return false;
    };
    (1..=2).contains(&letters)
        && !whole.is_empty()
        && whole.chars().all(|c| c.is_ascii_digit())
        && !part.is_empty()
        && part.chars().all(|c| c.is_ascii_digit())
}

fn square(word: &str) -> bool {
    let w = word.trim_end_matches(['.', ',', ';', ':', ')']);
    let mut chars = w.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && (2..=3).contains(&w.len())
        && chars.all(|c| c.is_ascii_digit())
}

/// What marks a line as bookkeeping, if anything.
fn bookkeeping(line: &str) -> Option<&'static str> {
    const PHRASES: &[(&str, &str)] = &[
        ("commitment", "a commitment"),
        ("seals a maneuver", "a seal"),
        ("breaks the seal", "a seal"),
        ("(difficulty ", "a card's numbers"),
        ("action point", "action points"),
        ("Body points now", "a tally"),
        (" next turn", "an order for the next turn"),
    ];
    if let Some((_, what)) = PHRASES.iter().find(|(p, _)| line.contains(p)) {
        return Some(what);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1);
        if coordinate(w) {
            return Some("a coordinate");
        }
        let bare = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        if matches!(bare, "at" | "to" | "from" | "on") && next.is_some_and(|n| square(n)) {
            return Some("a square");
        }
        if matches!(
            bare,
            "page" | "picture" | "seq" | "rolls" | "roll" | "score"
        ) && number(next)
        {
            return Some("a page, roll or score");
        }
        if bare == "against" && i > 0 && number(words.get(i - 1)) && number(next) {
            return Some("dice against a number");
        }
        if *w == "=" {
            return Some("a sum");
        }
        if bare.len() >= 8
            && bare.chars().all(|c| c.is_ascii_hexdigit())
            && bare.chars().any(|c| c.is_ascii_digit())
            && bare.chars().any(|c| c.is_ascii_lowercase())
        {
            return Some("a hash");
        }
    }
    None
}

/// The prose lines of a story: what its chapters tell.
fn prose(story: &str) -> Vec<&str> {
    let mut told = Vec::new();
    let mut closing = false;
    for line in story.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            closing = matches!(heading, "The end" | "So far" | "Appendix");
            continue;
        }
        let line = line.trim();
        if closing || line.is_empty() || line.starts_with('#') || line.starts_with('>') {
            continue;
        }
        told.push(line);
    }
    told
}

#[test]
fn every_golden_story_keeps_its_bookkeeping_in_the_record() {
    let mut files = Vec::new();
    stories(&data_dir(), &mut files);
    files.sort();
    assert!(files.len() > 40, "the goldens' stories: {}", files.len());
    let mut over = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines = prose(&text);
        let kept: Vec<String> = lines
            .iter()
            .filter_map(|l| bookkeeping(l).map(|why| format!("  ({why}) {l}")))
            .collect();
        if kept.len() * 100 >= MOST * lines.len().max(1) {
            let short = file.strip_prefix(data_dir()).unwrap().display();
            over.push(format!(
                "{short}: {} of {} prose lines are bookkeeping:\n{}",
                kept.len(),
                lines.len(),
                kept.join("\n")
            ));
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

#[test]
fn the_counter_tells_bookkeeping_from_story() {
    for line in [
        "Ada moves from street h1.1 to the rooftop s1.4 of Fountain Square.",
        "Bo walks 2 squares to c6.",
        "Brakka cuts low. (Nowa: page 50 of Brakka's book, picture 9.)",
        "Brakka scores: score 3 + Swing Low +1 = 4 damage.",
        "Nowa tells Brakka: \"Do no Red or Orange next turn.\"",
        "Jane Marsh meets Climb the Tower: 5 against 3.",
        "At North 1 a threat shows itself: The Wax Museum (difficulty 4, dread 2).",
        "Ada has 2 action points left.",
        "Cy rolls 4 to heal.",
        "Nowa seals a maneuver (commitment 83466afd).",
        "Body points now: Nowa 6 of 10 and Brakka 12 of 12.",
    ] {
        assert!(bookkeeping(line).is_some(), "not caught: {line}");
    }
    for line in [
        "Brakka cuts low at Nowa's legs.",
        "Ada breaks into a house in Fountain Square and pockets Ruby Crown ($400).",
        "Agatha Finch pays £1 to keep the leg going.",
        "A critical hit! Brakka must obey \"Do no Specials for the rest of the combat.\"",
        "Tobias Lark plays with £12 and 7 hearts.",
        "Chapter 2 begins: 24 new cards lie face down across London.",
    ] {
        assert_eq!(bookkeeping(line), None, "caught: {line}");
    }
    let story = "# T\n\n## Round 1\n\nOne.\n\n> a note\n\n## The end\n\nAda: 3 points.\n";
    assert_eq!(prose(story), vec!["One."]);
}
