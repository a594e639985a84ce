//! A sensible table: plays with purpose to the showdown, and writes the
//! golden games.

use super::*;

/// How the sensible table plays.
#[derive(Clone, Copy)]
pub(super) struct Style {
    /// Turn every card (else until every Plot card is found).
    reveal_all: bool,
    /// Plan visits up to (not including) this Plot letter.
    stop_before: Option<char>,
    /// Plan nothing at all.
    idle: bool,
}

pub(super) const SENSIBLE: Style = Style {
    reveal_all: false,
    stop_before: None,
    idle: false,
};

/// Two pairs of investigators (or, at a smaller table, everyone) take the
/// Plot cards in turn, each from the first action its time code allows
/// and after the one before; both come to the last. Free slots go to
/// face-up Dread cards and Allies in the area a pair stands in.
fn plan_clocks(s: &State, style: Style) -> Vec<(usize, u8, Value)> {
    use tabletape_engine::dread::content::Segment;
    use tabletape_engine::dread::state::Area;
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
/// actions taken. A table in record mode has a typist answer what each
/// action asks for (the cards met, the dice).
pub(super) fn play_sensibly(
    t: &mut Table,
    style: Style,
    mut typist: Option<&mut super::record::Typist>,
) -> Vec<Value> {
    let mut taken = Vec::new();
    let mut act = |t: &mut Table, a: Value| match typist.as_mut() {
        Some(typist) => taken.push(
            typist
                .play(t, a.clone())
                .unwrap_or_else(|| panic!("{a}: the typist has no card for it")),
        ),
        None => {
            t.act(a.clone());
            taken.push(a);
        }
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
            let wanted = s.plot_count();
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
        let legal: Vec<Value> = t
            .game
            .legal_at(None, t.now)
            .into_iter()
            .filter(|l| {
                l.needs.is_empty()
                    || (t.state().record && l.needs.iter().all(|n| super::record::typed_need(n)))
            })
            .map(|l| l.action)
            .collect();
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
        .unwrap_or_else(|| {
            let all: Vec<_> = t
                .game
                .legal_at(None, t.now)
                .into_iter()
                .map(|l| (l.action, l.needs))
                .collect();
            panic!("nothing to do: {all:?}")
        });
        act(t, next);
    }
    taken
}

pub(super) fn facts_of(t: &Table) -> Vec<Fact> {
    t.events
        .iter()
        .skip(1)
        .flat_map(|e| match &e.body {
            Body::ActionAccepted(a) => a.facts.clone(),
            _ => vec![],
        })
        .map(|f| serde_json::from_str(f.get()).unwrap())
        .collect()
}

#[test]
fn a_sensible_table_reaches_the_showdown_and_scores_a_win() {
    let mut wins = 0;
    for seed in 0..20 {
        let mut t = Table::new(created(4, seed, DiceMode::Digital, &[]));
        play_sensibly(&mut t, SENSIBLE, None);
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
        // Plots left face up, each waiting on the one before (rules 2): only
        // the next raises dread, and the trail runs cold.
        ("lantern_plots_wait_in_order", 4, vec![], careless, |t| {
            let waited = facts_of(t)
                .iter()
                .any(|f| matches!(f, Fact::SegmentEnded { missed, .. } if missed.len() == 1))
                && t.state().plots.len() > 1;
            waited
                && t.state()
                    .outcome
                    .is_some_and(|o| o.why.contains("trail runs cold"))
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
        let (seed, _, actions) = (0..500u64)
            .find_map(|seed| {
                let mut t = Table::new(created(players, seed, DiceMode::Digital, &options));
                let actions = play_sensibly(&mut t, style, None);
                shows(&t).then_some((seed, t, actions))
            })
            .unwrap_or_else(|| panic!("no seed shows {name}"));
        let replay = Table::new(created(players, seed, DiceMode::Digital, &options));
        let lines = golden_lines(replay, &actions);
        let path = dir.join(format!("{name}_digital.jsonl"));
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        println!("{name}: seed {seed}, {} actions", actions.len());
    }
}

/// A golden game's lines: its opening, then `actions` played again on
/// `replay` (a new table of the same game), each character's own choices
/// from its seat and the rest by the owner (the table's host), with a few
/// refusals the rules owe the table at fixed points.
pub(super) fn golden_lines(mut replay: Table, actions: &[Value]) -> Vec<String> {
    let created = replay.game.created().clone();
    let opening = json!({"new": {
        "kind": "dread",
        "players": created.players,
        "seed": created.seed,
        "dice": created.dice,
        "options": created.options,
    }});
    let mut lines = vec![opening.to_string()];
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
            lines.push(
                json!({"act": {"type": "begin_story", "leader": 9}, "rejected": "dread.character"})
                    .to_string(),
            );
        }
        if a["type"] == "begin_story" && replay.state().chapter == 0 {
            lines.push(json!({"act": {"type": "place", "character": 0, "slot": 1, "number": 1}, "rejected": "dread.phase"}).to_string());
            lines.push(json!({"act": {"type": "investigate", "location": "west 1"}, "rejected": "dread.not_yet"}).to_string());
        }
    }
    lines
}
