//! Tests of `game`.

use serde_json::{json, Value};
use tabletape_engine::game::*;
use tabletape_engine::Viewer;
use tabletape_events::Body;
use tabletape_events::DiceMode;
use tabletape_events::Event;
use tabletape_events::FactText;
use tabletape_events::FoldForm;
use tabletape_events::GameCreated;

fn duel() -> (Game, Event) {
    let created = GameCreated {
        title: None,
        kind: "lostworlds".into(),
        players: vec!["Ada".into(), "Bo".into()],
        seed: 3,
        dice: DiceMode::Digital,
        options: Default::default(),
        pack: tabletape_engine::registry::kind("lostworlds")
            .unwrap()
            .default_pack(),
        public: false,
        rules_version: None,
        chance_version: None,
    };
    let game = Game::start(&created).unwrap();
    // A whole exchange called by the owner: it resolves at once, so
    // nothing in it is held back from anyone.
    let action = game
        .legal(None)
        .into_iter()
        .find(|l| l.action["type"] == "exchange")
        .unwrap()
        .action;
    let decision = game.decide(None, &action).unwrap();
    let event = Event {
        game: "g".into(),
        branch: "main".into(),
        seq: 2,
        recorded_at_ms: 0,
        actor: tabletape_events::Actor::Owner,
        schema_version: 1,
        idempotency_key: None,
        prev_hash: String::new(),
        hash: String::new(),
        salt: String::new(),
        body: Body::ActionAccepted(decision.body),
    };
    (game, event)
}

#[test]
fn an_event_without_secrets_shows_every_viewer_everything() {
    let (game, event) = duel();
    for viewer in [Viewer::Owner, Viewer::Seat(1), Viewer::Public] {
        assert_eq!(game.redact_event(&event, viewer).unwrap(), event);
        assert_eq!(game.view(viewer), game.view(Viewer::Owner));
    }
    let mut a = game.clone();
    let mut b = game.clone();
    assert_eq!(
        a.apply_as(&event, Viewer::Seat(0)).unwrap(),
        b.apply_as(&event, Viewer::Owner).unwrap()
    );
    assert!(a == b, "narrating for a seat folds the same state");
}

#[test]
fn only_a_finished_game_lifts_every_secret() {
    let (game, _) = duel();
    assert!(!game.is_over());
    assert_eq!(game.effective_viewer(Viewer::Seat(1)), Viewer::Seat(1));
    assert_eq!(game.effective_viewer(Viewer::Public), Viewer::Public);
    assert_eq!(game.effective_viewer(Viewer::Owner), Viewer::Owner);
}

/// A pack read once is kept for the next reader of the same JSON (see
/// `Kind`): another pack is never taken for it, and an error is found again.
#[test]
fn a_pack_read_before_is_never_taken_for_another() {
    let (bundled, _) = duel();
    let kind = tabletape_engine::registry::kind("lostworlds").unwrap();
    let mut own = kind.default_pack();
    own["characters"][0]["name"] = "Our Own Hero".into();
    let start = |pack: &serde_json::Value| {
        let (game, _) = duel();
        let mut created = game.created().clone();
        created.pack = pack.clone();
        Game::start(&created)
    };
    let name =
        |game: &Game| game.view(Viewer::Owner)["seats"][0]["party"][0]["sheet"]["name"].clone();
    let ours = start(&own).unwrap();
    assert_eq!(name(&ours), "Our Own Hero");
    assert_ne!(name(&bundled), name(&ours));
    assert_eq!(name(&start(&kind.default_pack()).unwrap()), name(&bundled));
    assert_eq!(name(&start(&own).unwrap()), "Our Own Hero");
    // The canonical form of a pack read before is the one written then.
    let canonical = kind.canonical_pack(&own, "ours.json").unwrap();
    assert_eq!(kind.canonical_pack(&own, "ours.json").unwrap(), canonical);
    assert_eq!(name(&start(&canonical).unwrap()), "Our Own Hero");
    let mut broken = own.clone();
    broken["characters"][0]["height"] = "tall".into();
    let first = start(&broken).unwrap_err().to_string();
    assert_eq!(start(&broken).unwrap_err().to_string(), first);
    assert!(first.contains("height"), "{first}");
    assert!(kind.check_pack(&broken, "ours.json").is_err());
}

/// What every kind's options reader does alike: no options at all read as
/// the defaults, and an option the kind does not know is refused with the
/// names its `about.json` lists, so a table sees what it may set.
#[test]
fn every_kind_reads_no_options_and_names_its_own_when_given_another() {
    for kind in tabletape_engine::kinds() {
        let info = kind.info();
        let none = Default::default();
        assert_eq!(
            kind.canonical_options(&none).unwrap(),
            none,
            "{}",
            info.kind
        );
        let stray = [("colour".to_string(), serde_json::json!("red"))].into();
        let e = kind.canonical_options(&stray).unwrap_err().to_string();
        assert!(e.contains("unknown option `colour`"), "{}: {e}", info.kind);
        assert!(e.contains(info.title), "{}: {e}", info.kind);
        for option in &info.options {
            assert!(e.contains(&option.name), "{}: {e}", info.kind);
        }
    }
}

/// A check of a stored action (`redecide_at`, and `recheck`, what verify
/// and import use) finds exactly what deciding it for real stores: its
/// form, its facts and its draws, action after action (each step takes one
/// of the actions open that need nothing typed, as a table might). A
/// recheck folds what it found equal to the state the stored event folds
/// to, and folds nothing of an event whose facts the rules would not
/// store. LEGEND opens with introductions to type, so its goldens check it
/// instead: verify and import re-decide every stored action there.
#[test]
fn a_check_redecides_what_a_decision_stores_in_every_kind() {
    use crate::testkit::{created, event};
    use tabletape_engine::dread::Dread;
    use tabletape_engine::legless::Legless;
    use tabletape_engine::lostworlds::LostWorlds;
    use tabletape_engine::ludovia::Ludovia;
    let none = serde_json::Value::Null;
    let games = [
        (
            created::<LostWorlds>(2, 3, DiceMode::Digital, none.clone()),
            written_as_trees::<LostWorlds> as fn(&[FactText]) -> bool,
        ),
        (
            created::<Legless>(3, 4, DiceMode::Digital, none.clone()),
            written_as_trees::<Legless>,
        ),
        (
            created::<Ludovia>(3, 5, DiceMode::Digital, none.clone()),
            written_as_trees::<Ludovia>,
        ),
        (
            created::<Dread>(2, 7, DiceMode::Digital, none),
            written_as_trees::<Dread>,
        ),
    ];
    for (created, written_as_trees) in &games {
        let mut game = Game::start(created).expect("the game starts");
        let mut rechecked = game.clone();
        let mut checked = 0;
        for step in 0..80usize {
            let open: Vec<_> = game
                .legal(None)
                .into_iter()
                .filter(|l| l.needs.is_empty())
                .collect();
            if game.is_over() || open.is_empty() {
                break;
            }
            let action = &open[step * 7 % open.len()].action;
            let decision = game.decide(None, action).expect("an open action");
            let again = game
                .redecide_at(None, &decision.body.action, 0)
                .unwrap_or_else(|e| panic!("{}: {e}", created.kind));
            assert_eq!(again, decision.body, "{}", created.kind);
            let mut forged = decision.body.clone();
            forged
                .facts
                .push(FactText::of(&serde_json::json!({"type": "forged"})));
            let forged = event(game.seq() + 1, 0, None, Body::ActionAccepted(forged));
            match rechecked.recheck(&forged) {
                Ok(Recheck::Differs(decided)) => assert_eq!(decided, decision.body),
                other => panic!("{}: a forged fact is {other:?}", created.kind),
            }
            assert!(
                rechecked == game,
                "{}: a recheck that differs folds nothing",
                created.kind
            );
            // A damaged compact copy of the facts is found, and folds nothing.
            let mut damaged = decision.body.clone();
            let mut bytes = damaged
                .fold_form
                .get()
                .expect("decided facts in compact form")
                .to_vec();
            *bytes.last_mut().unwrap() ^= 1;
            damaged.fold_form = FoldForm::new(bytes);
            let damaged = event(game.seq() + 1, 0, None, Body::ActionAccepted(damaged));
            assert!(
                matches!(rechecked.recheck(&damaged), Ok(Recheck::Differs(_))),
                "{}: a damaged fold form passes",
                created.kind
            );
            // The facts as decided are written as the text of their JSON
            // trees, as the store wrote them before it wrote them straight.
            assert!(
                written_as_trees(&decision.body.facts),
                "{}: {:?}",
                created.kind,
                decision.body.facts
            );
            // Any one change to the stored facts' JSON is found by
            // comparing them with the facts decided again (no fold form
            // stored to give it away).
            let mut edits = Vec::new();
            let facts = decision
                .body
                .facts
                .iter()
                .map(|f| f.value().unwrap())
                .collect();
            edited(&Value::Array(facts), &mut edits);
            let spread = edits.len().div_ceil(24).max(1);
            for edit in edits.into_iter().step_by(spread) {
                let mut body = decision.body.clone();
                body.facts = match edit {
                    Value::Array(facts) => facts.iter().map(FactText::of).collect(),
                    _ => unreachable!("the facts are an array"),
                };
                body.fold_form = FoldForm::default();
                let ev = event(game.seq() + 1, 0, None, Body::ActionAccepted(body));
                match rechecked.recheck(&ev) {
                    Ok(Recheck::Differs(decided)) => assert_eq!(decided, decision.body),
                    other => panic!("{}: edited facts are {other:?}", created.kind),
                }
            }
            let form = decision.body.fold_form.get().unwrap().to_vec();
            let mut json_only = decision.body.clone();
            json_only.fold_form = FoldForm::default();
            let json_only = event(game.seq() + 1, 0, None, Body::ActionAccepted(json_only));
            let mut from_json = game.clone();
            from_json
                .apply(&json_only)
                .expect("the facts fold from JSON");
            let ev = event(game.seq() + 1, 0, None, Body::ActionAccepted(decision.body));
            game.apply(&ev).expect("a decided action folds");
            assert!(
                from_json == game,
                "{}: the compact form folds as the JSON does",
                created.kind
            );
            match rechecked.recheck(&ev) {
                Ok(Recheck::Folded(again)) => assert_eq!(again.get(), Some(&form[..])),
                other => panic!("{}: a stored decision is {other:?}", created.kind),
            }
            assert!(
                rechecked == game,
                "{}: a recheck folds as the event does",
                created.kind
            );
            checked += 1;
        }
        assert!(checked >= 5, "{}: {checked} actions", created.kind);
    }
}

/// Every copy of `json` with one change: each number, flag and text changed,
/// each null made a number, each array one item short and one longer, each
/// object without each of its keys and with one more.
fn edited(json: &Value, out: &mut Vec<Value>) {
    fn walk(json: &Value, rebuild: &dyn Fn(Value) -> Value, out: &mut Vec<Value>) {
        match json {
            Value::Null => out.push(rebuild(json!(0))),
            Value::Bool(b) => out.push(rebuild(json!(!b))),
            Value::Number(n) => out.push(rebuild(match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => json!(u.wrapping_add(1)),
                (_, Some(i)) => json!(i - 1),
                _ => json!(n.as_f64().unwrap() + 0.5),
            })),
            Value::String(s) => out.push(rebuild(json!(format!("{s}x")))),
            Value::Array(items) => {
                let mut shorter = items.clone();
                if shorter.pop().is_some() {
                    out.push(rebuild(Value::Array(shorter)));
                }
                let mut longer = items.clone();
                longer.push(Value::Null);
                out.push(rebuild(Value::Array(longer)));
                for (i, item) in items.iter().enumerate() {
                    let inner = |v: Value| {
                        let mut items = items.clone();
                        items[i] = v;
                        rebuild(Value::Array(items))
                    };
                    walk(item, &inner, out);
                }
            }
            Value::Object(map) => {
                for key in map.keys() {
                    let mut fewer = map.clone();
                    fewer.remove(key);
                    out.push(rebuild(Value::Object(fewer)));
                }
                let mut more = map.clone();
                more.insert("zz_more".into(), json!(1));
                out.push(rebuild(Value::Object(more)));
                for (key, value) in map {
                    let inner = |v: Value| {
                        let mut map = map.clone();
                        map.insert(key.clone(), v);
                        rebuild(Value::Object(map))
                    };
                    walk(value, &inner, out);
                }
            }
        }
    }
    walk(json, &|v| v, out);
}

/// Whether each of `facts` is the text of its JSON tree, and reads as
/// `R`'s fact that writes it again.
fn written_as_trees<R: tabletape_engine::rules::Rules>(facts: &[FactText]) -> bool {
    facts.iter().all(|text| {
        let fact: R::Fact = tabletape_engine::tagged::read_json(text.get()).unwrap();
        let tree = serde_json::to_value(&fact).unwrap();
        text.get() == serde_json::to_string(&tree).unwrap()
            && tabletape_engine::fact_text::of(&fact) == *text
    })
}
