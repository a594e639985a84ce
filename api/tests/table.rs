//! A table's game beyond one sitting: the play it logs once it is over and
//! the rematch its owner starts, the seats' links found again on another
//! device, and the table's own content pack, laid over the bundled one.

use crate::common::Api;
use axum::http::StatusCode;
use serde_json::{json, Value};

/// The end of a game: once it is over (and not before) it exports as one
/// play for BG Stats, to a seat too; and its owner, alone, starts the same
/// game again with fresh tokens.
#[tokio::test]
async fn a_finished_game_is_logged_as_a_play_and_its_owner_plays_it_again() {
    let api = Api::new();
    let table = api.create(json!({"title": "Friday duel"})).await;
    let play = format!("/games/{}/export?format=bgstats", table.id);
    let body = api
        .get(&play, Some(&table.owner))
        .await
        .expect_error(StatusCode::UNPROCESSABLE_ENTITY, "rejected");
    assert_eq!(body["rule"], "export.play_not_over", "{body}");
    let state = format!("/games/{}/state", table.id);
    for _ in 0..400 {
        let now = api.get(&state, Some(&table.owner)).await.json();
        if now["over"] == true {
            break;
        }
        api.play_one(&table).await;
    }
    let reply = api
        .get(&play, Some(&table.seats[1]))
        .await
        .expect(StatusCode::OK);
    assert_eq!(reply.content_type(), "application/json");
    let logged = reply.json();
    let names: Vec<&str> = logged["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Nowa", "Grim"]);
    assert_eq!(logged["games"][0]["name"], "Lost Worlds");
    let scores = logged["plays"][0]["playerScores"].as_array().unwrap();
    let winners = api.get(&state, Some(&table.owner)).await.json()["result"]["winners"].clone();
    for (seat, score) in scores.iter().enumerate() {
        let won = winners.as_array().unwrap().contains(&json!(seat));
        assert_eq!(score["winner"], won, "{logged}");
    }

    let again = format!("/games/{}/rematch", table.id);
    api.post(&again, Some(&table.seats[0]), &json!({}))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    let created = api
        .post(&again, Some(&table.owner), &json!({}))
        .await
        .expect(StatusCode::CREATED)
        .json();
    let game = created["game"].as_str().unwrap();
    assert_ne!(game, table.id);
    assert_ne!(created["owner_token"], table.owner.as_str());
    let summary = api
        .get(&format!("/games/{game}"), created["owner_token"].as_str())
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(summary["kind"], "lostworlds");
    assert_eq!(summary["players"], json!(["Nowa", "Grim"]));
    assert_eq!(summary["title"], "Friday duel");
    assert_eq!(
        (summary["seq"].as_u64(), summary["over"].as_bool()),
        (Some(1), Some(false))
    );
}

#[tokio::test]
async fn the_owner_gets_the_seats_links_again_on_any_device_and_nobody_else_does() {
    let api = Api::new();
    let created = api
        .post(
            "/games",
            None,
            &json!({"kind": "ludovia", "players": ["Ada", "Bo", "Cy"], "seed": 3}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    let id = created["game"].as_str().unwrap();
    let owner = created["owner_token"].as_str().unwrap();
    let seats = format!("/games/{id}/seats");
    let again = api.get(&seats, Some(owner)).await.expect(StatusCode::OK);
    assert_eq!(again.json(), created["seats"]);

    // Each link opens its own seat, and a seat's token gets no other's.
    let bo = created["seats"][1]["token"].as_str().unwrap();
    let shown = api
        .get(&format!("/games/{id}/table"), Some(bo))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(shown["seat"], 1, "{shown}");
    api.get(&seats, Some(bo))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    api.get(&seats, None)
        .await
        .expect_error(StatusCode::UNAUTHORIZED, "unauthorized");
    // Another game's owner gets nothing of this one.
    let other = api
        .post(
            "/games",
            None,
            &json!({"kind": "ludovia", "players": ["Ada", "Bo", "Cy"]}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    api.get(&seats, other["owner_token"].as_str())
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
}

/// The pack a game holds, read from its creation.
async fn pack_of(api: &Api, game: &str, token: &str) -> Value {
    let events = api
        .get(&format!("/games/{game}/events?to=1"), Some(token))
        .await
        .expect(StatusCode::OK)
        .json();
    events[0]["body"]["pack"].clone()
}

/// A Legless game started with `pack`: its id, owner's token and pack.
async fn legless_with(api: &Api, pack: Value) -> (String, String, Value) {
    let body = json!({"kind": "legless", "players": ["Ada", "Bo"], "seed": 3, "pack": pack});
    let created = api
        .post("/games", None, &body)
        .await
        .expect(StatusCode::CREATED)
        .json();
    let game = created["game"].as_str().unwrap().to_string();
    let owner = created["owner_token"].as_str().unwrap().to_string();
    let pack = pack_of(api, &game, &owner).await;
    (game, owner, pack)
}

#[tokio::test]
async fn a_tables_pack_is_laid_over_the_bundled_one_and_a_rematch_keeps_it_whole() {
    let api = Api::new();
    // Albert Pinch as our box prints him; every other list as bundled.
    let ours = json!({"characters": [{"name": "Albert Pinch", "money": 11}]});
    let (_, _, pack) = legless_with(&api, ours).await;
    let characters = pack["characters"].as_array().unwrap();
    assert_eq!(characters.len(), 8, "{pack}");
    let albert = characters
        .iter()
        .find(|c| c["name"] == "Albert Pinch")
        .unwrap();
    assert_eq!(albert["money"], 11);
    assert_eq!(albert["start"], "c3", "the bundled fields stay: {albert}");

    // A whole pack is read alone, and its rematch too: the character it
    // leaves out does not come back from the bundled pack.
    let mut whole = tabletape_engine::kind("legless").unwrap().default_pack();
    whole["characters"].as_array_mut().unwrap().pop();
    whole["whole"] = json!(true);
    let (game, owner, pack) = legless_with(&api, whole).await;
    assert_eq!(pack["characters"].as_array().unwrap().len(), 7);
    let again = api
        .post(&format!("/games/{game}/rematch"), Some(&owner), &json!({}))
        .await
        .expect(StatusCode::CREATED)
        .json();
    let rematched = pack_of(
        &api,
        again["game"].as_str().unwrap(),
        again["owner_token"].as_str().unwrap(),
    )
    .await;
    assert_eq!(rematched, pack);
}
