//! Every golden story reads cleanly: a count agrees with its noun ("1
//! point", "2 points"), no article stands before a title that has its own
//! ("a The Rooftops"), and no word is doubled. The stories are the
//! goldens' expected narratives, so a wording slip in any kind's narration
//! shows here once a golden reaches it.

use std::path::{Path, PathBuf};

use tabletape_tests::data_dir;

/// Nouns a story counts, singular then plural.
const COUNTED: &[(&str, &str)] = &[
    ("point", "points"),
    ("square", "squares"),
    ("card", "cards"),
    ("turn", "turns"),
    ("heart", "hearts"),
    ("minute", "minutes"),
    ("round", "rounds"),
    ("treasure", "treasures"),
    ("token", "tokens"),
    ("symbol", "symbols"),
    ("space", "spaces"),
    ("level", "levels"),
    ("leg", "legs"),
    ("fist", "fists"),
    ("success", "successes"),
    ("exchange", "exchanges"),
    ("event", "events"),
    ("item", "items"),
];

/// Words that may stand between a count and its noun ("2 more cards",
/// "3 body points", "1 action point", "4 victory points").
const BETWEEN: &[&str] = &["more", "body", "action", "victory", "street", "other"];

/// Every golden's expected story under `dir`.
pub(crate) fn stories(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            stories(&path, out);
        } else if path.to_string_lossy().ends_with(".expected.md") {
            out.push(path);
        }
    }
}

fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| !c.is_alphanumeric())
}

/// What is wrong in one line of a story, if anything.
fn slips(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut found = Vec::new();
    for (i, w) in words.iter().enumerate() {
        // A count: a whole number standing alone (not "£3", "p3.3", "-1",
        // nor "6," ending a list of rolls).
        if let Ok(n) = w.parse::<u64>() {
            // A policeman's number, a seat's or a page's is no count.
            let before = i.checked_sub(1).map(|j| bare(words[j]).to_lowercase());
            if matches!(
                before.as_deref(),
                Some("policeman" | "seat" | "page" | "picture" | "turn" | "round" | "chapter")
            ) {
                continue;
            }
            let mut j = i + 1;
            let between = |j: usize| {
                BETWEEN.contains(&words[j])
                    || (words[j] == "event"
                        && words
                            .get(j + 1)
                            .is_some_and(|n| n.starts_with("symbol") || n.starts_with("card")))
            };
            while j < words.len() && between(j) {
                j += 1;
            }
            let Some(next) = words.get(j) else { continue };
            let noun = bare(next);
            let wrong = COUNTED
                .iter()
                .any(|(one, many)| (n == 1 && noun == *many) || (n != 1 && noun == *one));
            if wrong {
                found.push(format!(
                    "`{}`: the count and its noun disagree",
                    words[i..=j].join(" ")
                ));
            }
        }
        // "Plot A, The Shuttered Shop" is a letter, not an article, and
        // "Borrowed Courage (Courage)" a card and its kind.
        let joined = w.ends_with(['.', ',', '!', '?', ':', ';']);
        if i + 1 < words.len() && !joined && !words[i + 1].starts_with('(') {
            let (a, b) = (bare(w).to_lowercase(), bare(words[i + 1]));
            if matches!(a.as_str(), "a" | "an" | "the") && b == "The" {
                found.push(format!(
                    "`{w} {}`: an article before a title's own",
                    words[i + 1]
                ));
            }
            if !a.is_empty()
                && a.chars().all(char::is_alphabetic)
                && a == b.to_lowercase()
                && !w.ends_with(['.', ',', '!', '?', ':', ';'])
            {
                found.push(format!("`{w} {}`: a word doubled", words[i + 1]));
            }
        }
    }
    found
}

#[test]
fn every_golden_story_agrees_in_number_and_reads_cleanly() {
    let mut files = Vec::new();
    stories(&data_dir(), &mut files);
    files.sort();
    assert!(files.len() > 40, "the goldens' stories: {}", files.len());
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for slip in slips(line) {
                let short = file.strip_prefix(data_dir()).unwrap().display();
                wrong.push(format!("{short}:{}: {slip} in: {line}", n + 1));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} slips:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The ordinals a heading may count with ("The Fifth Round").
const ORDINALS: &[&str] = &[
    "First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth",
];

/// A numbered heading's count and what it counts: "Round 3", "Exchange
/// 12", "Chapter 2: planning", "The Fifth Round".
fn counted_heading(heading: &str) -> Option<(String, u64)> {
    let words: Vec<&str> = heading.split_whitespace().collect();
    match words.as_slice() {
        ["The", ordinal, what, ..] => ORDINALS
            .iter()
            .position(|o| o == ordinal)
            .map(|i| (what.to_string(), i as u64 + 1)),
        [what, n, ..] => Some((what.to_string(), bare(n).parse().ok()?)),
        _ => None,
    }
}

/// Headings that skip a count: a round, exchange, turn or chapter that
/// happened and was left out of the story, or one numbered wrong.
fn skipped(story: &str) -> Vec<String> {
    let mut last: std::collections::BTreeMap<String, u64> = Default::default();
    let mut found = Vec::new();
    for line in story.lines() {
        let Some(heading) = line.strip_prefix("## ") else {
            continue;
        };
        let Some((what, n)) = counted_heading(heading) else {
            continue;
        };
        if let Some(&before) = last.get(&what) {
            if n != before && n != before + 1 {
                found.push(format!("`{heading}` follows {what} {before}"));
            }
        }
        last.insert(what, n);
    }
    found
}

#[test]
fn every_golden_story_tells_each_round_and_chapter_in_turn() {
    let mut files = Vec::new();
    stories(&data_dir(), &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for skip in skipped(&text) {
            let short = file.strip_prefix(data_dir()).unwrap().display();
            wrong.push(format!("{short}: {skip}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} skips:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    let story = "## The Fourth Round\n\n## The Seventh Round\n## Exchange 2\n## Exchange 2\n## Exchange 3\n## Chapter 1: planning\n## Chapter 1: the story\n## Chapter 3: planning\n";
    assert_eq!(skipped(story).len(), 2, "{:?}", skipped(story));
}

#[test]
fn the_checker_finds_what_it_is_for() {
    assert_eq!(slips("Ada scores 1 points.").len(), 1);
    assert_eq!(slips("Ada has 3 body point left.").len(), 1);
    assert_eq!(slips("Brakka crosses 1 street event symbols.").len(), 1);
    assert_eq!(
        slips("This reads as a The Rooftops of Ludovia pack.").len(),
        1
    );
    assert_eq!(slips("Nowa strikes the the troll.").len(), 1);
    assert!(slips("Ada draws 2 more cards and has 1 action point left.").is_empty());
    assert!(slips("Ada picks up 2 street event cards.").is_empty());
    assert_eq!(slips("Ada picks up 1 street event cards.").len(), 1);
    assert!(slips("To open the turn, Ada rolls 3: policeman 1 turns right.").is_empty());
    assert!(slips("Turn 1. Initiative: Nowa 6.").is_empty());
}
