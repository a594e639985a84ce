//! Golden games: every `tests/data/<kind>/<name>.jsonl` is a whole game, played
//! through the journal and compared with `<name>.expected.md` (its narrative)
//! and `<name>.state.json` (its final state). A missing expectation is written
//! on first run; `UPDATE_EXPECT=1` rewrites them.
//!
//! A game file's first line creates the game:
//! `{"new": {"kind": "lostworlds", "players": ["Ada", "Bo"], "seed": 7, "dice": "digital", "options": {}}}`;
//! `"pack": "yard.pack.json"` there lays a table's own pack, a file beside
//! the game, over the bundled one. Every other line is an action, played by
//! the owner or `"as"` a seat: `{"as": 1, "act": {...}}`; a line with
//! `"rejected": "<rule>"` must be refused for that rule, and nothing may be
//! written for it.
//!
//! A game can be studied too: `{"fork": {"at": 7, "name": "jump-back"}}` forks
//! `main`, `"on": "jump-back"` sends a line's action, note or name to that
//! branch, `{"as": 0, "note": {"at": 5, "title": "...", "text": "..."}}` writes
//! a note and `{"name": {"title": "...", "description": "..."}}` names a branch.
//! A game with forks is also told with its variations (`<name>.variations.md`)
//! and its first fork compared with `main` (`<name>.compare.json`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::{json, Value};
use tabletape_engine::{Format, Game, Viewer};
use tabletape_events::{Actor, DiceMode, Seat};
use tabletape_store::scratch::test_store;
use tabletape_store::Access;
use tabletape_store::{
    ActRequest, Journal, JournalError, NameRequest, NewGame, NoteRequest, PackSource,
};
use tabletape_tests::{data_dir, expect_file};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Opening {
    new: NewSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewSpec {
    kind: String,
    players: Vec<String>,
    seed: u64,
    #[serde(default)]
    dice: DiceMode,
    #[serde(default)]
    options: BTreeMap<String, Value>,
    /// A table's own pack: a file beside the game, laid over the bundled one.
    #[serde(default)]
    pack: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    #[serde(default, rename = "as")]
    seat: Option<Seat>,
    #[serde(default)]
    act: Option<Value>,
    #[serde(default)]
    rejected: Option<String>,
    /// The branch the line is for (default `main`).
    #[serde(default)]
    on: Option<String>,
    #[serde(default)]
    fork: Option<ForkSpec>,
    #[serde(default)]
    note: Option<NoteSpec>,
    #[serde(default)]
    name: Option<NameSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ForkSpec {
    at: u64,
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoteSpec {
    at: u64,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    text: String,
    #[serde(default)]
    private: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameSpec {
    title: String,
    #[serde(default)]
    description: Option<String>,
}

/// Writes a study line (a fork, a note, a name); the first fork made is returned.
fn study(journal: &Journal, game: &str, step: Step) -> Result<Option<String>, String> {
    let branch = step.on.unwrap_or_else(|| "main".into());
    let by = step.seat.map_or(Access::Owner, Access::Seat);
    if let Some(fork) = step.fork {
        journal
            .fork(game, &branch, fork.at, Some(&fork.name), None, by)
            .map_err(|e| e.to_string())?;
        return Ok(Some(fork.name));
    }
    if let Some(note) = step.note {
        let req = NoteRequest {
            branch: Some(branch.clone()),
            at: note.at,
            title: note.title,
            text: note.text,
            private: note.private,
            expect_seq: None,
            idempotency_key: None,
        };
        journal.note(game, req, by).map_err(|e| e.to_string())?;
    }
    if let Some(name) = step.name {
        let req = NameRequest {
            branch: Some(branch),
            title: name.title,
            description: name.description,
        };
        journal
            .name_branch(game, req, by)
            .map_err(|e| e.to_string())?;
    }
    Ok(None)
}

/// Plays one golden file; returns the failures found.
fn play_golden(path: &Path) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let journal = Journal::open_at(&test_store(dir.path())).map_err(|e| e.to_string())?;
    play_golden_into(&journal, path).map(|_| ())
}

/// Plays one golden file into `journal`; returns the game's id.
pub(crate) fn play_golden_into(journal: &Journal, path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or("empty golden file")?;
    let opening: Opening = serde_json::from_str(first).map_err(|e| format!("line 1: {e}"))?;
    let pack = match &opening.new.pack {
        Some(file) => {
            let beside = path.with_file_name(file);
            let text = std::fs::read_to_string(&beside)
                .map_err(|e| format!("line 1: pack {}: {e}", beside.display()))?;
            let json = serde_json::from_str(&text).map_err(|e| format!("pack {file}: {e}"))?;
            Some(PackSource {
                file: file.clone(),
                json,
            })
        }
        None => None,
    };
    let created = journal
        .create(NewGame {
            id: None,
            title: None,
            kind: opening.new.kind,
            players: opening.new.players,
            seed: Some(opening.new.seed),
            dice: opening.new.dice,
            options: opening.new.options,
            pack,
            public: false,
        })
        .map_err(|e| format!("line 1: {e}"))?;
    let game = created.game.as_str();
    let mut first_fork: Option<String> = None;
    for (index, line) in lines {
        let n = index + 1;
        let step: Step = serde_json::from_str(line).map_err(|e| format!("line {n}: {e}"))?;
        let Some(action) = step.act.clone() else {
            let forked = study(journal, game, step).map_err(|e| format!("line {n}: {e}"))?;
            first_fork = first_fork.or(forked);
            continue;
        };
        let branch = step.on.clone().unwrap_or_else(|| "main".into());
        let before = journal
            .events(game, &branch, 1, None)
            .map_err(|e| e.to_string())?
            .len();
        let result = journal.act(
            game,
            ActRequest {
                branch: branch.clone(),
                actor: Actor::Owner,
                by: step.seat,
                action,
                expect_seq: None,
                idempotency_key: None,
            },
        );
        match (result, &step.rejected) {
            (Ok(_), None) => {}
            (Err(e), None) => return Err(format!("line {n}: refused: {e}")),
            (Ok(acted), Some(rule)) => {
                return Err(format!(
                    "line {n}: should be refused for {rule}, was accepted as seq {}",
                    acted.seq
                ))
            }
            (Err(JournalError::Rejected(r)), Some(rule)) if &r.rule == rule => {
                let after = journal
                    .events(game, &branch, 1, None)
                    .map_err(|e| e.to_string())?
                    .len();
                if after != before {
                    return Err(format!(
                        "line {n}: a refused action wrote {} events",
                        after - before
                    ));
                }
            }
            (Err(e), Some(rule)) => {
                return Err(format!("line {n}: should be refused for {rule}, got: {e}"))
            }
        }
    }

    let narrative = journal.narrate(game, "main").map_err(|e| e.to_string())?;
    let state = journal
        .state(game, "main", None, Viewer::Owner)
        .map_err(|e| e.to_string())?;
    // Game ids are random; expectations call every game `g-golden`.
    let stable = |text: String| text.replace(game, "g-golden");
    let stem = path.with_extension("");
    expect_file(
        &stem.with_extension("expected.md"),
        &stable(narrative.render(Format::Markdown)),
    );
    let mut final_state = json!({"seq": state.seq, "over": state.over, "state": state.view});
    // A finished game's result: who won and the scores, as play logs take it.
    if let Some(result) = &state.result {
        final_state["result"] = json!(result);
    }
    expect_file(
        &stem.with_extension("state.json"),
        &stable(serde_json::to_string_pretty(&final_state).expect("json") + "\n"),
    );
    if let Some(fork) = &first_fork {
        let told = journal
            .narrate_with_variations(game, "main", Viewer::Owner)
            .map_err(|e| e.to_string())?;
        expect_file(
            &stem.with_extension("variations.md"),
            &stable(told.render(Format::Markdown)),
        );
        let compared = journal
            .compare(game, "main", fork, Viewer::Owner)
            .map_err(|e| e.to_string())?;
        // A line played on now has the wall clock in its state (London
        // Dread's timed planning): a time is a difference, not its value.
        let differences: Vec<Value> = compared
            .differences
            .iter()
            .map(|d| {
                let mut d = json!(d);
                if d["path"].as_str().is_some_and(|p| p.ends_with("_at_ms")) {
                    for side in ["a", "b"] {
                        if d.get(side).is_some() {
                            d[side] = json!("<time>");
                        }
                    }
                }
                d
            })
            .collect();
        let compared = json!({
            "common_seq": compared.common_seq,
            "parts_at": compared.parts_at,
            "a": {"head_seq": compared.a.head_seq, "over": compared.a.over, "result": compared.a.result},
            "b": {"head_seq": compared.b.head_seq, "over": compared.b.over, "result": compared.b.result, "title": compared.b.title, "story": compared.b.story},
            "differences": differences,
        });
        expect_file(
            &stem.with_extension("compare.json"),
            &stable(serde_json::to_string_pretty(&compared).expect("json") + "\n"),
        );
    }

    // The same log folded from scratch equals the journal's live state.
    let events = journal
        .events(game, "main", 1, None)
        .map_err(|e| e.to_string())?;
    let folded = Game::fold(&events).map_err(|e| e.to_string())?;
    let live = journal
        .game_at(game, "main", None)
        .map_err(|e| e.to_string())?;
    if folded != live {
        return Err("folding the stored log does not give the live state".into());
    }
    for report in journal.verify(Some(game)).map_err(|e| e.to_string())? {
        if let Some(p) = report.problem {
            return Err(format!("verify: seq {}: {}", p.seq, p.what));
        }
    }
    Ok(game.to_string())
}

/// A long game imported keeps its actions' fold forms in packs (on sled, up
/// to 64 a sled entry): read and folded from any seq, in chunks of any
/// size, it is the game as played, an action at a time.
#[test]
fn a_long_game_imported_reads_and_folds_as_played_from_every_seq() {
    let path = data_dir().join("ludovia/rooftops_run_out_5_players.jsonl");
    let played_dir = tempfile::tempdir().unwrap();
    let played = Journal::open_at(&test_store(played_dir.path())).unwrap();
    let game = play_golden_into(&played, &path).unwrap();
    let mut exported = Vec::new();
    played.export(&game, None, &mut exported).unwrap();
    let dir = tempfile::tempdir().unwrap();
    Journal::open_at(&test_store(dir.path()))
        .unwrap()
        .import(&mut exported.as_slice())
        .unwrap();
    let head = played.events(&game, "main", 1, None).unwrap().len() as u64;
    assert!(head > 3 * 64, "{head} events: a few packs");
    let seqs: Vec<u64> = (1..=head)
        .filter(|s| s % 9 == 0 || [63, 64, 65, 128, 129].contains(&(s % 128)))
        .chain([head])
        .collect();
    for chunk in [1, 64, 100] {
        let imported = Journal::open_at(&test_store(dir.path()))
            .unwrap()
            .with_read_chunk(chunk);
        for &seq in &seqs {
            let state = |j: &Journal| {
                serde_json::to_value(j.state(&game, "main", Some(seq), Viewer::Owner).unwrap())
                    .unwrap()
            };
            assert_eq!(
                state(&imported),
                state(&played),
                "seq {seq}, chunks of {chunk}"
            );
        }
        for lo in [1, 60, 64, 65, 130] {
            let read = imported.events(&game, "main", lo, None).unwrap();
            assert_eq!(read, played.events(&game, "main", lo, None).unwrap());
            for event in &read {
                if let tabletape_events::Body::ActionAccepted(accepted) = &event.body {
                    assert!(accepted.fold_form.get().is_some(), "seq {}", event.seq);
                }
            }
        }
    }
}

#[test]
fn golden_games_replay_to_their_expected_narrative_and_state() {
    // One folder per kind; other folders (tests/data/cli) hold other tests' data.
    let mut files: Vec<_> = std::fs::read_dir(data_dir())
        .expect("tests/data")
        .map(|kind| kind.expect("entry").path())
        .filter(|dir| {
            dir.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| tabletape_engine::kind(n).is_some())
        })
        .flat_map(|dir| std::fs::read_dir(dir).into_iter().flatten())
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no golden games under tests/data");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            play_golden(f)
                .err()
                .map(|e| format!("{}: {e}", f.display()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "golden games failed:\n{}",
        failures.join("\n")
    );
}

/// The kinds whose rules were corrected since their first games were
/// recorded, and the rules version those games were decided under.
const EARLIER_RULES: &[(&str, u32)] = &[
    ("legend", 1),
    ("legend", 2),
    ("legless", 1),
    ("dread", 1),
    ("lostworlds", 1),
    ("lostworlds", 2),
    ("lostworlds", 3),
    ("lostworlds", 4),
    ("lostworlds", 5),
    ("lostworlds", 6),
    ("ludovia", 1),
];

/// Where the logs recorded under `version` of `kind`'s rules are kept.
fn earlier_rules_dir(kind: &str, version: u32) -> std::path::PathBuf {
    data_dir().join(kind).join(format!("rules-{version}"))
}

/// Writes each golden game of one kind as the log today's build records
/// for it, as the fixtures of the rules version it is about to leave. Run
/// once, before a kind's rules change, naming the kind and today's version:
/// `WRITE_RULES=lostworlds:2 cargo test -p tabletape-tests write_earlier_rules_logs -- --ignored`
/// (then list the pair in [`EARLIER_RULES`]).
#[test]
#[ignore = "writes fixtures; run by hand before a kind's rules change"]
fn write_earlier_rules_logs() {
    let wanted = std::env::var("WRITE_RULES").expect("WRITE_RULES=kind:version");
    let (kind, version) = wanted.split_once(':').expect("WRITE_RULES=kind:version");
    let version: u32 = version.parse().expect("a rules version");
    for (kind, version) in [(kind, version)] {
        let out = earlier_rules_dir(kind, version);
        std::fs::create_dir_all(&out).expect("fixture folder");
        let mut games: Vec<_> = std::fs::read_dir(data_dir().join(kind))
            .expect("kind folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        games.sort();
        for path in games {
            let dir = tempfile::tempdir().expect("temp dir");
            let journal = Journal::open_at(&test_store(dir.path())).expect("store");
            let game = play_golden_into(&journal, &path).expect("golden game plays");
            let mut log = Vec::new();
            journal.export(&game, None, &mut log).expect("export");
            let name = path.file_stem().expect("stem").to_string_lossy();
            std::fs::write(out.join(format!("{name}.log.jsonl")), log).expect("write log");
        }
    }
}

/// A log recorded under earlier rules is the record: it imports, folds to
/// the state and narrative it had, and `verify` finds nothing altered.
#[test]
fn logs_recorded_under_earlier_rules_still_import_fold_narrate_and_verify() {
    let mut checked = 0;
    let mut redecided = Vec::new();
    let mut altered_logs = 0;
    for (kind, version) in EARLIER_RULES {
        let mut logs: Vec<_> = std::fs::read_dir(earlier_rules_dir(kind, *version))
            .expect("fixture folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.to_string_lossy().ends_with(".log.jsonl"))
            .collect();
        logs.sort();
        for path in logs {
            let dir = tempfile::tempdir().expect("temp dir");
            let journal = Journal::open_at(&test_store(dir.path())).expect("store");
            let text = std::fs::read(&path).expect("log");
            let imported = journal
                .import(&mut text.as_slice())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let game = imported.game.as_str();
            let stem = path
                .to_string_lossy()
                .trim_end_matches(".log.jsonl")
                .to_string();
            let narrative = journal.narrate(game, "main").expect("narrate");
            expect_file(
                Path::new(&format!("{stem}.expected.md")),
                &narrative.render(Format::Markdown),
            );
            let state = journal
                .state(game, "main", None, Viewer::Owner)
                .expect("state");
            let final_state = json!({"seq": state.seq, "over": state.over, "state": state.view});
            expect_file(
                Path::new(&format!("{stem}.state.json")),
                &(serde_json::to_string_pretty(&final_state).expect("json") + "\n"),
            );
            let mut again = Vec::new();
            journal.export(game, None, &mut again).expect("export");
            assert_eq!(
                again,
                text,
                "{}: export differs from the log imported",
                path.display()
            );
            for report in journal.verify(Some(game)).expect("verify") {
                assert!(
                    report.problem.is_none(),
                    "{}: {:?}",
                    path.display(),
                    report.problem
                );
                if let Some(earlier) = report.earlier_rules {
                    assert_eq!(earlier.recorded, *version, "{}", path.display());
                    redecided.push((path.clone(), earlier.decided_differently));
                }
            }
            // Altered after the fact, the same log is refused: a fact
            // changed breaks its hash, whatever the rules version.
            let text = String::from_utf8(text).expect("utf-8");
            let altered = text.replacen("\"damage\":", "\"damage\":1", 1);
            if altered != text {
                altered_logs += 1;
                let dir = tempfile::tempdir().expect("temp dir");
                let journal = Journal::open_at(&test_store(dir.path())).expect("store");
                let e = journal.import(&mut altered.as_bytes()).unwrap_err();
                assert!(e.to_string().contains("hash does not match"), "{e}");
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no logs recorded under earlier rules");
    assert!(
        altered_logs > 0,
        "no log was altered to check it is refused"
    );
    // Lost Worlds' colours and escape were corrected in rules 2: today's
    // rules decide some of its old exchanges otherwise, and say which.
    let lostworlds: Vec<_> = redecided
        .iter()
        .filter(|(p, seqs)| p.to_string_lossy().contains("lostworlds") && !seqs.is_empty())
        .collect();
    assert!(!lostworlds.is_empty(), "{redecided:?}");
    let escape = redecided
        .iter()
        .find(|(p, _)| p.ends_with("escape_full_book.log.jsonl"))
        .expect("the escape is decided otherwise today");
    assert!(
        escape.1[0].what.contains("has not maneuvered out"),
        "{:?}",
        escape.1
    );
}

/// Plays a golden game into a fresh store and tells it.
fn told(name: &str) -> tabletape_engine::Narrative {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = Journal::open_at(&test_store(dir.path())).expect("store");
    let game = play_golden_into(&journal, &data_dir().join(name)).expect("golden game");
    journal.narrate(&game, "main").expect("narrate")
}

/// A LEGEND is told as a story, not a transcript: a paragraph a turn with
/// the explanation woven into its deed, squares called by their Scenery
/// (the grid name once, when drawn), an epilogue saying where the heroes
/// and Talismans are, an appendix of every object, and the map at the end
/// of each chapter in HTML.
#[test]
fn a_legend_is_told_as_a_story_with_a_map_at_each_chapter() {
    let story = told("legend/abilities-voting-duel.jsonl");
    assert!(
        story
            .title
            .starts_with("The Legend of Sir Kettle, Moss, Pip and Dame Thimble"),
        "{}",
        story.title
    );
    let md = story.render(Format::Markdown);
    for transcript in [" explains: ", "It is Ada's turn", "It is Bo's turn"] {
        assert!(!md.contains(transcript), "{transcript:?} in\n{md}");
    }
    // Four players, four turns: four paragraphs in the first round.
    let first = &story.chapters[1];
    assert_eq!(first.heading, "The First Round");
    assert_eq!(first.lines.len(), 4, "{:#?}", first.lines);
    assert!(
        first.lines[1].starts_with("Bo gambles"),
        "{}",
        first.lines[1]
    );
    // The explanation sits in the sentence after its deed.
    let body: String = story
        .chapters
        .iter()
        .flat_map(|c| c.lines.iter())
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        body.contains(
            "Sir Kettle goes to a well of buttons. \"Sir Kettle wants the south-east for his own,\" says Ada."
        ),
        "{body}"
    );
    // Each square's grid name appears once, when its Scenery is drawn;
    // afterwards the story calls it by its Scenery.
    for col in 'a'..='f' {
        for row in 1..=6 {
            let grid = format!("{col}{row})");
            assert!(body.matches(&grid).count() <= 1, "{grid} twice in\n{body}");
        }
    }
    assert!(body.contains("Pip goes on to a field of glass."), "{body}");
    // The epilogue: how it ended, where each hero stands, the Talismans.
    let epilogue = story.epilogue.join("\n");
    for expected in [
        "Where the heroes stand:",
        "- Lady Thistle, Bo's Hero,",
        "The Talismans:",
        "- The Spoon of Dawn, Ada's Talisman, waits in the north-west Corner.",
        "The score:",
    ] {
        assert!(epilogue.contains(expected), "{expected:?} in\n{epilogue}");
    }
    // The appendix: every object once, by category, with its maker and fate.
    let headings: Vec<&str> = story.appendix.iter().map(|c| c.heading.as_str()).collect();
    assert_eq!(
        headings,
        [
            "Avatars",
            "Heroes",
            "Talismans",
            "Items",
            "Monsters",
            "Monuments"
        ]
    );
    let objects: usize = story.appendix.iter().map(|c| c.lines.len()).sum();
    let numbered = (1..=40)
        .filter(|n| {
            story
                .appendix
                .iter()
                .flat_map(|c| &c.lines)
                .any(|l| l.starts_with(&format!("#{n} ")))
        })
        .count();
    assert_eq!(objects, numbered, "each object listed once");
    assert!(
        story
            .appendix
            .iter()
            .flat_map(|c| &c.lines)
            .any(|l| l.starts_with("#9 the Silver Key (a key to no door anyone remembers): made by Bo; lies in Ada's Stockpile")),
        "{:#?}",
        story.appendix
    );
    // HTML: the map as each chapter left it, then the appendix as lists.
    let html = story.render(Format::Html);
    assert_eq!(
        html.matches("<figure><img src=\"data:image/svg+xml,")
            .count(),
        story.chapters.len(),
        "one map per chapter"
    );
    assert!(html.contains("<figcaption>The table at the end of The First Round</figcaption>"));
    assert!(html.contains("<h2>Appendix</h2>") && html.contains("<h3>Heroes</h3>\n<ul>\n<li>#"));
    let txt = story.render(Format::Text);
    assert!(
        txt.contains("\nAppendix\n--------\n\nAvatars:\n- #1 Sir Kettle"),
        "{txt}"
    );
}

/// Level on points after seven rounds, the players share the victory.
#[test]
fn a_legend_tied_on_points_is_told_as_a_shared_victory() {
    let story = told("legend/pocket-custom-physical-coins.jsonl");
    assert_eq!(
        story.epilogue[0],
        "After seven rounds Ada, Bo and Cy are level on 1 point: a tie, and they share the victory."
    );
}

/// Every kind's story keeps its bookkeeping apart and draws its table: the
/// Markdown tells the story alone, each chapter keeps its record (in the
/// JSON story, folded under the chapter in HTML, told after the prose in
/// the details mode), every chapter's HTML ends with the table as it stood,
/// and no record line's mark reaches a reader, in a story or a replay.
#[test]
fn every_kind_keeps_its_record_apart_and_draws_each_chapter() {
    // A golden of each kind, and a word of its record the story leaves out
    // (LEGEND's story never told bookkeeping of its own: it has none).
    for (name, word) in [
        ("lostworlds/knockout_full_book.jsonl", Some("picture")),
        ("ludovia/street_crimes_physical.jsonl", Some("action point")),
        (
            "legless/love_and_personal_goal_win_digital.jsonl",
            Some("rolls"),
        ),
        ("dread/lantern_win_digital.jsonl", Some("difficulty")),
        ("legend/talisman-win.jsonl", None),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let journal = Journal::open_at(&test_store(dir.path())).expect("store");
        let game = play_golden_into(&journal, &data_dir().join(name)).expect("golden game");
        let story = journal.narrate(&game, "main").expect("narrate");
        let record: Vec<&String> = story.chapters.iter().flat_map(|c| &c.record).collect();
        let md = story.render(Format::Markdown);
        if let Some(word) = word {
            assert!(
                record.iter().any(|l| l.contains(word)),
                "{name}: {record:?}"
            );
            assert!(!md.contains(word), "{name}: {word:?} in the story");
            let full = story.with_record().render(Format::Markdown);
            assert!(full.contains("The record:"), "{name}");
            assert!(full.contains(record[0].as_str()), "{name}");
            let json = story.render(Format::Json);
            assert!(json.contains("\"record\""), "{name}");
        } else {
            assert!(record.is_empty(), "{name}: {record:?}");
        }
        let html = story.render(Format::Html);
        let told = story.chapters.iter().filter(|c| c.figure.is_some()).count();
        assert_eq!(
            told,
            story.chapters.len(),
            "{name}: a picture for each chapter"
        );
        assert_eq!(
            html.matches("<figure><img src=\"data:image/svg+xml,")
                .count(),
            story.chapters.len(),
            "{name}"
        );
        assert_eq!(
            html.matches("<details class=\"record\">").count(),
            story
                .chapters
                .iter()
                .filter(|c| !c.record.is_empty())
                .count(),
            "{name}"
        );
        let replay = journal
            .replay(&game, "main", None, Viewer::Owner)
            .expect("replay");
        let replay = serde_json::to_string(&replay).expect("replay serializes");
        for text in [&md, &html, &story.render(Format::Json), &replay] {
            assert!(
                !text.contains('\u{1f}'),
                "{name}: a record mark reached a reader"
            );
        }
        if let Some(word) = word {
            assert!(replay.contains(word), "{name}: a replay step tells in full");
        }
    }
}
