//! Seeded random legal play to the end, checked against the invariants
//! after every event and folded back from the journal.

use super::*;

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
    // Every stash token on a clock was taken, and a chapter's end costs a
    // dread for each taken, put back or not.
    for c in &s.characters {
        for t in c.clock.iter().flatten().filter(|t| t.stash) {
            assert!(
                s.stash_taken.contains(&t.number),
                "{ctx}: stash {}",
                t.number
            );
        }
    }
    for f in facts {
        if let Fact::ChapterEnded { stash, .. } = f {
            assert_eq!(
                *stash as usize,
                before.stash_taken.len(),
                "{ctx}: stash dread"
            );
        }
    }
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
