//! Record mode: a table playing its own box types each card the first time
//! it comes into play. The typist below answers every need as such a table
//! would, with cards of its own making; games of it run to their end, fold
//! back, and never meet a card of the sample pack.

use super::*;

const SHEETS: &str = r#"[
  {"icons": ["strength", "lore"], "virtue": {"successes": 1}, "story": "A boxer who reads Latin."},
  {"icons": ["charm", "guile"], "virtue": {"rerolls": 2}},
  {"icons": ["spirit", "courage"], "virtue": {"icons": ["wild"]}},
  {"icons": ["lore", "charm"], "virtue": {"heal": "injured", "text": "Read the sheet's verse aloud."}}
]"#;

const ANTAGONIST: &str = r#"{"name": "The Lamplighter", "text": "Each Dread card left face up costs one more dread.", "extra_successes": 1, "endgame_wild": "spirit"}"#;

const NAMES: [&str; 4] = ["Mabel Finch", "Ivo Marsh", "Sister Agnes", "Theo Bright"];

/// A record-mode game for `players`, its story of `plots` Plot cards per chapter.
pub(super) fn record_created(
    players: usize,
    seed: u64,
    plots: &str,
    extra: &[(&str, &str)],
) -> GameCreated {
    let sheets: Vec<Value> = serde_json::from_str(SHEETS).unwrap();
    let n = if extra.contains(&("variant", "pairs")) {
        4
    } else {
        players
    };
    let sheets = serde_json::to_string(&sheets[..n]).unwrap();
    let characters = NAMES[..n].join(",");
    let mut options = vec![
        ("record", "on"),
        ("timer", "off"),
        ("story", "The Tailor's Ledger"),
        ("plots", plots),
        ("characters", characters.as_str()),
        ("sheets", sheets.as_str()),
        ("antagonist", ANTAGONIST),
    ];
    options.extend_from_slice(extra);
    created(players, seed, DiceMode::Physical, &options)
}

/// A table with its own box: answers what each action asks for, typing a
/// new card of its own making when it meets one, or naming one it knows.
pub(super) struct Typist {
    rng: TableRng,
    made: u32,
}

/// Whether a need is one the typist answers: what chance gave, a card
/// turned up, a Plot card's reverse.
pub(super) fn typed_need(need: &str) -> bool {
    ["outcomes", "card:", "reverse:"]
        .iter()
        .any(|f| need.starts_with(f))
}

impl Typist {
    pub(super) fn new(seed: u64) -> Typist {
        Typist {
            rng: TableRng::for_event(seed, u64::MAX),
            made: 0,
        }
    }

    fn fresh(&mut self, what: &str) -> String {
        self.made += 1;
        format!("{what} {}", self.made)
    }

    fn coin(&mut self) -> bool {
        self.rng.below(2) == 0
    }

    fn one<'a>(&mut self, of: &'a [String]) -> Option<&'a String> {
        (!of.is_empty()).then(|| &of[self.rng.below(of.len() as u32) as usize])
    }

    fn icons(&mut self, n: usize) -> Vec<Value> {
        const PRIMARY: [&str; 6] = ["strength", "charm", "guile", "spirit", "lore", "courage"];
        (0..n)
            .map(|_| json!(PRIMARY[self.rng.below(6) as usize]))
            .collect()
    }

    fn effect(&mut self) -> Value {
        match self.rng.below(6) {
            0 => json!({"successes": 1}),
            1 => json!({"icons": ["wild"]}),
            2 => json!({"confidence": 1}),
            3 => json!({"rerolls": 1}),
            4 => json!({"text": "Move the bowler hat to the next area."}),
            _ => json!({"heal": "unhinged"}),
        }
    }

    /// What the table says it drew for `what` (the rules' words for the
    /// draw): a card named or typed, a die's face.
    /// `used`: the names this action already drew (a pile gives each
    /// once); `typed`: the cards it typed.
    fn drawn(&mut self, s: &State, what: &str, (used, typed): (&[String], &[String])) -> Value {
        let left = |pile: &[String]| -> Vec<String> {
            pile.iter()
                .filter(|n| !used.contains(n) && !typed.contains(n))
                .cloned()
                .collect()
        };
        let typed_or =
            |me: &mut Typist, known: &[String], typed: &mut dyn FnMut(&mut Typist) -> Value| {
                match me.one(known) {
                    Some(name) if me.coin() => json!(name),
                    _ => typed(me),
                }
            };
        if what.starts_with("Investigation card") {
            // Confidence cards typed earlier in this very action went onto
            // the deck being dealt.
            let deck: Vec<String> = s
                .investigation
                .iter()
                .chain(typed)
                .filter(|n| !used.contains(n))
                .cloned()
                .collect();
            return json!(self.one(&deck).cloned().unwrap_or_default());
        }
        if let Some(who) = what.strip_prefix("Personality card of ") {
            let c = s.characters.iter().find(|c| c.name == who).unwrap();
            let known: Vec<String> = c.personality.iter().map(|p| p.name.clone()).collect();
            if known.len() >= 6 || (!known.is_empty() && self.coin()) {
                return json!(self.one(&known).unwrap());
            }
            let trauma =
                !c.personality.iter().any(|p| p.kind == Trait::Trauma) && self.rng.below(4) == 0;
            let talent = !trauma && self.coin();
            let name = self.fresh("Trait");
            let icons = self.icons(1);
            let effect = self.effect();
            return match (trauma, talent) {
                (true, _) => json!({"personality": {"name": name, "kind": "trauma"}}),
                (_, true) => {
                    json!({"personality": {"name": name, "kind": "talent", "icons": icons, "effect": effect}})
                }
                _ => json!({"personality": {"name": name, "icons": icons}}),
            };
        }
        if what.contains("Item") {
            return typed_or(self, &left(&s.item_deck), &mut |me| {
                let name = me.fresh("Keepsake");
                let (u, d) = (me.effect(), me.effect());
                json!({"item": {"name": name, "use": u, "deplete": d}})
            });
        }
        if what.contains("Confidence") {
            return typed_or(self, &left(&s.confidence), &mut |me| {
                let name = me.fresh("Resolve");
                let icons = me.icons(1);
                json!({"confidence": {"name": name, "icons": icons}})
            });
        }
        if what.contains("Endgame Challenge") {
            if s.story.challenges.len() >= 6 {
                return json!(self.one(&left(&s.challenges)).cloned().unwrap_or_default());
            }
            let name = self.fresh("Ordeal");
            let icons = self.icons(2);
            let penalty = self.effect();
            return json!({"challenge": {"name": name, "icons": icons, "difficulty": 1 + self.rng.below(3), "penalty": penalty}});
        }
        if what.contains("Action die") {
            return json!(s.cards.action_die[self.rng.below(6) as usize]);
        }
        if what.contains("Trauma die") {
            let face = s.cards.trauma_die[self.rng.below(6) as usize];
            return serde_json::to_value(face).unwrap();
        }
        panic!("the typist does not know a draw for {what}");
    }

    /// The cards a face-down location may turn up, in the order to try.
    fn turned_up(&mut self, s: &State) -> Vec<Value> {
        let tier = s.chapter as u32 + 1;
        let mut out = Vec::new();
        if s.chapter_plots().len() < s.plot_count() {
            let letter = s
                .story
                .plots()
                .map(|p| p.letter)
                .max()
                .map_or('A', |l| (l as u8 + 1) as char);
            // Time codes run through the day as the letters do.
            let k = s.chapter_plots().len();
            let time = ["morning", "day", "night"][k * 3 / s.plot_count()];
            let icons = self.icons(2);
            out.push(json!({"plot": {"letter": letter, "name": self.fresh("Lead"), "time": time, "dread": 1, "icons": icons}}));
        }
        let unseen = |names: Vec<&String>| -> Vec<String> {
            names
                .into_iter()
                .filter(|n| !s.seen.contains(n))
                .cloned()
                .collect()
        };
        let dread = unseen(
            s.cards
                .dread
                .values()
                .filter(|d| d.tier as u32 == tier)
                .map(|d| &d.name)
                .collect(),
        );
        if let Some(name) = self.one(&dread) {
            out.push(json!(name));
        }
        let icons = self.icons(2);
        out.push(json!({"dread": {"name": self.fresh("Menace"), "tier": tier, "icons": icons, "difficulty": 1 + self.rng.below(3), "dread": 1}}));
        if s.allies_dealt > 0 {
            let allies = unseen(s.cards.allies.keys().collect());
            if let Some(name) = self.one(&allies) {
                out.push(json!(name));
            }
            let icons = self.icons(1);
            out.push(json!({"ally": {"name": self.fresh("Friend"), "icons": icons, "sacrifice": {"confidence": 1}}}));
        }
        // A placeholder as often as the cards still face down hold them,
        // so the Plot cards spread over the board as a shuffle spreads them.
        let plots_left = s.plot_count() - s.chapter_plots().len();
        let down = s
            .locations
            .iter()
            .filter(|l| matches!(l, Spot::Down { .. }))
            .count();
        if plots_left > 0 && self.rng.below(down as u32) as usize >= plots_left {
            out.rotate_left(1);
        }
        out
    }

    /// Plays `action` (from `legal`, needs unmet) as the table would answer
    /// what it asks for, and gives it back as played; `None` if the table
    /// cannot (an impossible turn-up).
    pub(super) fn play(&mut self, t: &mut Table, mut action: Value) -> Option<Value> {
        let s = t.state();
        if action["type"] == "reveal" {
            for card in self.turned_up(&s) {
                action["card"] = card;
                if t.try_act(None, action.clone()).is_ok() {
                    return Some(action);
                }
            }
            return None;
        }
        for _ in 0..80 {
            let refused = match t.try_act(None, action.clone()) {
                Ok(_) => return Some(action),
                Err(r) => r,
            };
            let field = refused
                .message
                .split('`')
                .nth(1)
                .unwrap_or_default()
                .to_string();
            match (refused.rule.as_str(), field.as_str()) {
                ("physical.draw_needed", f) if f.starts_with("outcomes.") => {
                    let what = refused.message.split("the ").nth(1).unwrap_or_default();
                    let what = what.split(';').next().unwrap_or_default().to_string();
                    let list = f.trim_start_matches("outcomes.").to_string();
                    let entry = self.drawn(&s, &what, (&named(&action), &typed_names(&action)));
                    let outcomes = action
                        .as_object_mut()
                        .unwrap()
                        .entry("outcomes")
                        .or_insert(json!({}));
                    outcomes
                        .as_object_mut()
                        .unwrap()
                        .entry(list)
                        .or_insert(json!([]))
                        .as_array_mut()
                        .unwrap()
                        .push(entry);
                }
                ("physical.impossible_draw" | "chance.empty" | "dread.record", _) => {
                    // The last card named was not there to draw: another.
                    let last = action["outcomes"]["drew"].as_array_mut()?.pop()?;
                    let Value::String(last) = last else {
                        return None;
                    };
                    let what = refused
                        .message
                        .split("for the ")
                        .nth(1)
                        .unwrap_or("Item")
                        .to_string();
                    let (mut used, typed) = (named(&action), typed_names(&action));
                    used.push(last);
                    let mut again = self.drawn(&s, &what, (&used, &typed));
                    for _ in 0..8 {
                        if !again.is_string() || what.starts_with("Investigation card") {
                            break;
                        }
                        again = self.drawn(&s, &what, (&used, &typed));
                    }
                    action["outcomes"]["drew"].as_array_mut()?.push(again);
                }
                ("dread.reverse_needed", _) => {
                    let (e0, e1) = (self.effect(), self.effect());
                    action["reverse"] = json!({
                        "tiers": [
                            {"successes": 0, "effect": {"condition": "injured"}, "text": "The trail frays in the fog."},
                            {"successes": 2, "effect": e0, "text": "A name, half burnt, in the grate."},
                            {"successes": 4, "effect": e1, "text": "The ledger opens at the right page."}
                        ],
                        "story": "The ink is still wet."
                    });
                }
                _ => panic!("{action}: the typist has no answer to {refused}"),
            }
        }
        panic!("{action}: the typist gave up")
    }
}

/// Plays a record-mode game by the typist's answers to its end.
fn typed_play(created: GameCreated, seed: u64) -> Table {
    let mut t = Table::new(created);
    let mut typist = Typist::new(seed);
    let mut planned = 0;
    for step in 0..3_000 {
        if t.game.is_over() {
            break;
        }
        // What the table records by chance or by typing; choices such as
        // a mark's colour the random tables of `play` cover.
        let legal: Vec<Value> = t
            .game
            .legal_at(None, t.now)
            .into_iter()
            .filter(|l| l.needs.iter().all(|n| typed_need(n)))
            .map(|l| l.action)
            .collect();
        assert!(!legal.is_empty(), "seed {seed} step {step}: nothing legal");
        let mut tried = 0;
        loop {
            let action = pick(&mut typist.rng, &legal, &mut planned);
            if kind_of(&action) == "begin_story" {
                planned = 0;
            }
            if typist.play(&mut t, action).is_some() {
                break;
            }
            tried += 1;
            assert!(tried < 50, "seed {seed} step {step}: no card could turn up");
        }
    }
    t
}

#[test]
fn a_table_with_its_own_box_plays_to_the_end_typing_each_card_once() {
    let sample = pack();
    let sample_names: Vec<&str> = sample
        .items
        .iter()
        .map(|c| c.name.as_str())
        .chain(sample.dread_cards.iter().map(|c| c.name.as_str()))
        .chain(sample.allies.iter().map(|c| c.name.as_str()))
        .chain(sample.confidence.iter().map(|c| c.name.as_str()))
        .collect();
    // Players, Plot cards per chapter, other options.
    type Setup<'a> = (usize, &'a str, Vec<(&'a str, &'a str)>);
    let setups: Vec<Setup> = vec![
        (4, "4,5", vec![]),
        (2, "5", vec![]),
        (3, "6,4", vec![("variant", "pairs")]),
    ];
    let mut endings = BTreeMap::new();
    for seed in 0..6u64 {
        for (players, plots, extra) in &setups {
            let ctx = format!("seed {seed}, {players} players, plots {plots}");
            let t = typed_play(record_created(*players, seed, plots, extra), seed);
            assert!(t.game.is_over(), "{ctx}: did not end");
            let folded = Game::fold(&t.events).unwrap();
            assert!(folded == t.game, "{ctx}: fold differs from play");
            let s = t.state();
            assert_eq!(s.story.antagonist.name, "The Lamplighter", "{ctx}");
            let known = s
                .cards
                .items
                .keys()
                .chain(s.cards.dread.keys())
                .chain(s.cards.allies.keys())
                .chain(s.cards.confidence.keys());
            for name in known {
                assert!(
                    !sample_names.contains(&name.as_str()),
                    "{ctx}: the sample pack's {name} came into play"
                );
            }
            for c in &s.characters {
                assert!(
                    c.personality.len() <= 6,
                    "{ctx}: {} has {} Personality cards",
                    c.name,
                    c.personality.len()
                );
            }
            let why = s.outcome.unwrap().why;
            *endings
                .entry(why.split(':').next().unwrap_or_default().to_string())
                .or_insert(0) += 1;
        }
    }
    assert!(
        endings.len() >= 2,
        "record-mode play always ends one way: {endings:?}"
    );
}

/// A sensible table with its own box: the story's frame and sheets from
/// the options, every card typed as it comes, each Plot card's reverse
/// read as it is investigated; the Showdown needs the Antagonist's extra
/// fist, and the typed rules of an item are told as written.
#[test]
fn a_sensible_table_with_its_own_box_reaches_the_showdown() {
    let mut showdowns = 0;
    for seed in 0..12 {
        let mut t = Table::new(record_created(4, seed, "4,5", &[]));
        let mut typist = Typist::new(seed);
        super::sensible::play_sensibly(&mut t, super::sensible::SENSIBLE, Some(&mut typist));
        let s = t.state();
        assert!(t.game.is_over(), "seed {seed}");
        assert!(
            Game::fold(&t.events).unwrap() == t.game,
            "seed {seed}: fold"
        );
        let facts = super::sensible::facts_of(&t);
        let read = facts
            .iter()
            .filter(|f| matches!(f, Fact::ReverseRead { .. }))
            .count();
        let resolved = facts
            .iter()
            .filter(|f| matches!(f, Fact::PlotResolved { .. }))
            .count();
        assert_eq!(
            read, resolved,
            "seed {seed}: each Plot card's reverse is read once, as it is resolved"
        );
        for p in s
            .story
            .plots()
            .filter(|p| s.investigated.contains(&p.letter) && !p.endgame)
        {
            assert!(
                !p.tiers.is_empty(),
                "seed {seed}: Plot {} investigated unread",
                p.letter
            );
        }
        let Some(needed) = facts.iter().find_map(|f| match f {
            Fact::ShowdownBegan { needed } => Some(*needed),
            _ => None,
        }) else {
            continue;
        };
        showdowns += 1;
        assert_eq!(
            needed,
            1 + s.dread / 5 + 1,
            "seed {seed}: the Antagonist's extra fist"
        );
        assert!(
            s.story.challenges.len() <= 6 && !s.faced.is_empty(),
            "seed {seed}"
        );
    }
    assert!(
        showdowns > 0,
        "a sensible table with its own box never reaches the showdown"
    );
}

/// Writes `tests/data/dread/record_mode_own_box_physical.jsonl`: the first
/// seed where a sensible table with its own box reaches the Showdown.
/// Run by hand: `cargo test -p tabletape-engine write_dread_record_golden
/// -- --ignored`; `tests/golden.rs` then plays it through the journal.
#[test]
#[ignore]
fn write_dread_record_golden() {
    let (seed, actions) = (0..200u64)
        .find_map(|seed| {
            let mut t = Table::new(record_created(4, seed, "4,5", &[]));
            let actions = super::sensible::play_sensibly(
                &mut t,
                super::sensible::SENSIBLE,
                Some(&mut Typist::new(seed)),
            );
            let showdown = super::sensible::facts_of(&t)
                .iter()
                .any(|f| matches!(f, Fact::ShowdownBegan { .. }));
            showdown.then_some((seed, actions))
        })
        .expect("a seed reaches the showdown");
    let replay = Table::new(record_created(4, seed, "4,5", &[]));
    let lines = super::sensible::golden_lines(replay, &actions);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/dread/record_mode_own_box_physical.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
}

/// The cards an action's `outcomes.drew` names so far.
fn named(action: &Value) -> Vec<String> {
    drew(action)
        .filter_map(|d| d.as_str().map(str::to_string))
        .collect()
}

/// The names of the cards an action's `outcomes.drew` types so far.
fn typed_names(action: &Value) -> Vec<String> {
    drew(action)
        .filter_map(|d| {
            d.as_object()?.values().next()?["name"]
                .as_str()
                .map(str::to_string)
        })
        .collect()
}

fn drew(action: &Value) -> impl Iterator<Item = &Value> {
    action["outcomes"]["drew"].as_array().into_iter().flatten()
}

/// Record mode is for the table's own dice and box, and names what is
/// missing from its frame; the pack's games refuse a typed card.
#[test]
fn record_mode_names_what_its_options_lack() {
    let refused = |players: usize, dice: DiceMode, options: &[(&str, &str)]| {
        let created = created(players, 1, dice, options);
        let first = event(1, T0, None, Body::GameCreated(created));
        Game::from_first(&first).expect_err("refused").to_string()
    };
    let sheets = r#"[{"icons": ["strength", "lore"], "virtue": {}}, {"icons": ["charm", "guile"], "virtue": {}}]"#;
    let antagonist = r#"{"name": "The Lamplighter"}"#;
    let frame = [
        ("record", "on"),
        ("characters", "Mabel Finch,Ivo Marsh"),
        ("plots", "4"),
        ("sheets", sheets),
        ("antagonist", antagonist),
    ];
    let with = |changes: &[(&'static str, &'static str)]| -> Vec<(&str, &str)> {
        let mut o: Vec<(&str, &str)> = frame
            .iter()
            .filter(|(k, _)| !changes.iter().any(|(c, _)| c == k))
            .copied()
            .collect();
        o.extend(changes.iter().filter(|(_, v)| !v.is_empty()).copied());
        o
    };
    // The dice, the options, what the refusal says.
    type Case<'a> = (DiceMode, Vec<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case> = vec![
        (DiceMode::Digital, with(&[]), "physical dice"),
        (DiceMode::Physical, with(&[("plots", "")]), "option `plots`"),
        (
            DiceMode::Physical,
            with(&[("plots", "3")]),
            "4 to 6 Plot cards",
        ),
        (
            DiceMode::Physical,
            with(&[("plots", "4,5,6")]),
            "one or two chapters",
        ),
        (
            DiceMode::Physical,
            with(&[("antagonist", "")]),
            "type the Antagonist",
        ),
        (
            DiceMode::Physical,
            with(&[(
                "sheets",
                r#"[{"icons": ["strength", "lore"], "virtue": {}}]"#,
            )]),
            "one sheet for each",
        ),
        (
            DiceMode::Physical,
            with(&[(
                "sheets",
                r#"[{"icons": ["strength", "wild"], "virtue": {}}, {"icons": ["charm", "guile"], "virtue": {}}]"#,
            )]),
            "two different primary icons",
        ),
        (
            DiceMode::Physical,
            with(&[("sheets", r#"[{"icons": ["strength"]}]"#)]),
            "expected a list of sheets",
        ),
        (
            DiceMode::Physical,
            vec![("characters", "Ada Lockwood,Silas Crane"), ("plots", "4")],
            "for record mode",
        ),
    ];
    for (dice, options, says) in cases {
        let why = refused(2, dice, &options);
        assert!(why.contains(says), "{options:?}: {why}");
    }
    // A game of the pack's cards names them; typing one is refused.
    let mut t = Table::new(created(
        2,
        1,
        DiceMode::Physical,
        &[("characters", "Ada Lockwood,Silas Crane")],
    ));
    let r = t.refused(
        None,
        json!({"type": "start_planning", "outcomes": {"drew": [{"item": {"name": "Lantern", "use": {}, "deplete": {}}}]}}),
    );
    assert_eq!(r.rule, "dread.record");
    assert!(r.message.contains("`Lantern` is typed"), "{}", r.message);
}

/// Each typed card is checked against what the game already knows, and a
/// refusal names the card and the rule; nothing is written.
#[test]
fn a_typed_card_is_checked_against_what_is_known() {
    let mut t = Table::new(record_created(2, 1, "4,5", &[]));
    let item = |name: &str| json!({"item": {"name": name, "use": {"successes": 1}, "deplete": {}}});
    let confidence = |name: &str| json!({"confidence": {"name": name, "icons": ["lore"]}});
    // The deal: two starting Items, the Supply's three, three Confidence.
    let r = t.refused(None, json!({"type": "start_planning"}));
    assert_eq!(r.rule, "physical.draw_needed");
    assert!(
        r.message.contains("starting Item of Mabel Finch"),
        "{}",
        r.message
    );
    let deal = json!({"type": "start_planning", "outcomes": {"drew": [
        item("Lantern"), item("Whistle"), item("Flask"), item("Map"), item("Ticket"),
        confidence("Nerve"), confidence("Friend"), confidence("Wind")]}});
    let mut twice = deal.clone();
    twice["outcomes"]["drew"][1] = item("Lantern");
    let r = t.refused(None, twice);
    assert_eq!(r.rule, "dread.record");
    assert!(r.message.contains("known already"), "{}", r.message);
    t.act(deal);
    let s = t.state();
    assert_eq!(s.supply, vec!["Flask", "Map", "Ticket"]);
    assert_eq!(s.investigation.len(), 3);
    let dread = |name: &str, tier: u8| json!({"dread": {"name": name, "tier": tier, "icons": ["guile"], "difficulty": 2, "dread": 1}});
    let plot = |letter: char| json!({"plot": {"letter": letter, "name": format!("Lead {letter}"), "time": "morning", "dread": 1, "icons": ["lore"]}});
    let reveal = |at: &str, card: Value| json!({"type": "reveal", "location": at, "card": card});
    for (action, rule, says) in [
        (
            reveal("north 1", dread("Rats", 2)),
            "dread.record",
            "Tier 1",
        ),
        (
            reveal("north 1", json!("placeholder")),
            "dread.record",
            "type the Plot card",
        ),
        (
            reveal("north 1", json!("Rats")),
            "physical.impossible_draw",
            "met so far",
        ),
        (
            reveal(
                "north 1",
                json!({"plot": {"letter": "A", "name": "Lead", "time": "day", "dread": 1, "tiers": [{"successes": 0}]}}),
            ),
            "dread.record",
            "type its face only",
        ),
        (
            reveal(
                "north 1",
                json!({"plot": {"letter": "A", "name": "Lead", "time": "day", "dread": 1, "endgame": true}}),
            ),
            "dread.record",
            "only the last chapter's last Plot card",
        ),
    ] {
        let r = t.refused(None, action.clone());
        assert_eq!(r.rule, rule, "{action}: {}", r.message);
        assert!(r.message.contains(says), "{action}: {}", r.message);
    }
    t.act(reveal("north 1", dread("Rats", 1)));
    t.act(reveal("north 2", plot('B')));
    let r = t.refused(None, reveal("north 3", plot('A')));
    assert!(r.message.contains("letter order"), "{}", r.message);
    let r = t.refused(None, reveal("east 1", json!("placeholder")));
    assert!(r.message.contains("type the Plot card"), "{}", r.message);
}

/// No one has counted the table's piles: `null` says one ran out, and the
/// action's later draws from it give nothing. A pile whose every card is
/// known cannot be said to have run out, nor can a pack's.
#[test]
fn the_table_says_when_a_pile_runs_out() {
    let item = |name: &str| json!({"item": {"name": name, "use": {}, "deplete": {}}});
    let confidence = |name: &str| json!({"confidence": {"name": name, "icons": ["lore"]}});
    let mut t = Table::new(record_created(2, 1, "4", &[]));
    t.act(json!({"type": "start_planning", "outcomes": {"drew": [
        item("Lantern"), item("Whistle"), null, confidence("Nerve"), null]}}));
    let s = t.state();
    assert!(s.supply.is_empty(), "{:?}", s.supply);
    assert_eq!(s.investigation, vec!["Nerve"]);
    assert_eq!(s.characters[1].items.len(), 1);
    let mut pack_game = Table::new(created(
        2,
        1,
        DiceMode::Physical,
        &[("characters", "Ada Lockwood,Silas Crane")],
    ));
    let r = pack_game.refused(
        None,
        json!({"type": "start_planning", "outcomes": {"drew": [null]}}),
    );
    assert!(
        r.message.contains("only a table in record mode"),
        "{}",
        r.message
    );
}
