//! The web recorder through its routes: pages drawn for their viewer,
//! the game's cookie opening reads only, the table's one read, the story,
//! join QR codes, sealed choices, and the live stream following a take-back.

use std::time::Duration;

use crate::common::{request, Api, Table};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tower::ServiceExt;

async fn get_with_cookie(api: &Api, uri: &str, game: &str, token: &str) -> crate::common::Reply {
    api.send(
        Request::builder()
            .uri(uri)
            .header(header::COOKIE, format!("theme=x; tt_{game}={token}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn the_home_page_offers_every_kind_and_loads_only_its_own_assets() {
    let api = Api::new();
    let reply = api.get("/", None).await.expect(StatusCode::OK);
    assert!(reply.content_type().starts_with("text/html"));
    let csp = reply.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    let page = reply.text();
    for kind in tabletape_engine::kinds() {
        let info = kind.info();
        assert!(
            page.contains(&format!(r#"<option value="{}""#, info.kind)),
            "{}",
            info.kind
        );
        for option in &info.options {
            let help = option
                .help
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
                .replace('\'', "&#39;");
            assert!(page.contains(&help), "{}", option.name);
        }
    }
    assert!(page.contains(r#"<script src="/assets/app.js" defer>"#));
    // Valid values are offered: characters, block pieces, on/off.
    for kind in tabletape_engine::kinds() {
        for option in kind.info().options {
            for v in kind.option_values(&option.name) {
                assert!(
                    page.contains(&format!(
                        r#"data-for="opt.{}.{}" data-value="{}""#,
                        kind.info().kind,
                        option.name,
                        v.value
                    )),
                    "{} {}",
                    option.name,
                    v.value
                );
            }
        }
    }
    assert!(page.contains(r#"data-value="nowa""#));
    assert!(page.contains(r#"data-for="opt.ludovia.layout""#));
    assert!(page.contains(r#"data-for="opt.legend.abilities" data-value="on""#));
    // What only the table's own dice use waits for them to be picked.
    for (kind, option) in [
        ("ludovia", "layout"),
        ("ludovia", "offer"),
        ("legless", "record"),
    ] {
        let field = format!(
            r#"<label data-dice="physical" hidden>{option} <input name="opt.{kind}.{option}""#
        );
        assert!(page.contains(&field), "{field}");
    }
    assert!(page.contains(r#"<label>characters <input name="opt.legless.characters""#));
    let js = api.get("/assets/app.js", None).await.expect(StatusCode::OK);
    assert!(js.content_type().starts_with("text/javascript"));
    let css = api
        .get("/assets/app.css", None)
        .await
        .expect(StatusCode::OK);
    assert!(css.content_type().starts_with("text/css"));
}

/// The page knows no game rules: no kind, and none of their words, is
/// named in its script.
#[tokio::test]
async fn the_script_names_no_kind_and_no_rule() {
    let api = Api::new();
    let js = api.get("/assets/app.js", None).await.text().to_lowercase();
    let mut words: Vec<String> = tabletape_engine::kinds()
        .iter()
        .map(|k| k.info().kind.to_string())
        .collect();
    words.extend(
        [
            "maneuver",
            "avatar",
            "talisman",
            "thief",
            "policeman",
            "rooftop",
        ]
        .map(String::from),
    );
    for word in words {
        assert!(!js.contains(&word), "app.js mentions {word:?}");
    }
}

#[tokio::test]
async fn a_private_table_needs_a_token_and_the_cookie_reads_as_its_holder() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let page = api.get(&format!("/g/{}", table.id), None).await;
    assert_eq!(page.status, StatusCode::UNAUTHORIZED);
    let text = page.text();
    assert!(text.contains(&format!(r#"action="/g/{}/session""#, table.id)));
    assert!(!text.contains("<svg"), "no board without a token");

    let page = get_with_cookie(
        &api,
        &format!("/g/{}", table.id),
        &table.id,
        &table.seats[1],
    )
    .await
    .expect(StatusCode::OK)
    .text();
    assert!(page.contains(r#"data-viewer="seat 1""#), "{page}");
    // The board on the page is the board the API draws for the same viewer.
    let svg = api
        .get(
            &format!("/games/{}/board.svg", table.id),
            Some(&table.seats[1]),
        )
        .await
        .expect(StatusCode::OK)
        .text();
    assert!(page.contains(&svg));

    // Another game's cookie opens nothing here.
    let other = api.create(json!({})).await;
    let page = get_with_cookie(
        &api,
        &format!("/g/{}", other.id),
        &table.id,
        &table.seats[1],
    )
    .await;
    assert_eq!(page.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_cookie_never_acts() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let action = api.first_legal(&table, 0).await;
    let reply = api
        .send(
            Request::builder()
                .method(Method::POST)
                .uri(format!("/games/{}/actions", table.id))
                .header(header::COOKIE, format!("tt_{}={}", table.id, table.owner))
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(json!({ "action": action }).to_string()))
                .unwrap(),
        )
        .await;
    reply.expect_error(StatusCode::UNAUTHORIZED, "unauthorized");
    assert_eq!(api.head(&table).await, 1, "nothing was written");
}

#[tokio::test]
async fn a_session_form_sets_the_games_cookie_only_for_a_real_token() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let form = |token: &str| {
        Request::builder()
            .method(Method::POST)
            .uri(format!("/g/{}/session", table.id))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(format!("token={token}")))
            .unwrap()
    };
    let reply = api.send(form(&table.seats[0])).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.headers[header::LOCATION], format!("/g/{}", table.id));
    let cookie = reply.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(cookie.starts_with(&format!("tt_{}={}", table.id, table.seats[0])));
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));

    let reply = api.send(form("not-a-token")).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    assert!(reply.headers.get(header::SET_COOKIE).is_none());

    // Another site's page posting a real token (a login CSRF) sets nothing;
    // this server's own page does.
    let from = |token: &str, origin: &str, site: Option<&str>| {
        let mut request = form(token);
        let headers = request.headers_mut();
        headers.insert(header::HOST, "table.local:7878".parse().unwrap());
        headers.insert(header::ORIGIN, origin.parse().unwrap());
        if let Some(site) = site {
            headers.insert("sec-fetch-site", site.parse().unwrap());
        }
        request
    };
    for (origin, site) in [
        ("https://evil.example", Some("cross-site")),
        ("https://evil.example", None),
        ("http://table.local:7878", Some("cross-site")),
    ] {
        let reply = api.send(from(&table.seats[1], origin, site)).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{origin} {site:?}");
        assert!(reply.headers.get(header::SET_COOKIE).is_none());
    }
    let reply = api
        .send(from(
            &table.seats[1],
            "http://table.local:7878",
            Some("same-origin"),
        ))
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    let reply = api
        .send(from(&table.seats[1], "http://table.local:7878", None))
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
}

/// Every HTML answer carries a Content-Security-Policy, the API reference
/// and a story told as HTML included.
#[tokio::test]
async fn every_html_answer_carries_a_content_security_policy() {
    let api = Api::new();
    let table = api.create(json!({"public": true})).await;
    let id = &table.id;
    for uri in [
        "/".to_string(),
        "/api".to_string(),
        format!("/g/{id}"),
        format!("/g/{id}/story"),
        format!("/games/{id}/narrative?format=html"),
        format!("/games/{id}/narrative?format=html&variations=true"),
        "/g/no-such-game".to_string(),
    ] {
        let reply = api.get(&uri, Some(&table.owner)).await;
        let kind = reply.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        assert!(kind.starts_with("text/html"), "{uri}: {kind}");
        let policy = reply
            .headers
            .get(header::CONTENT_SECURITY_POLICY)
            .unwrap_or_else(|| panic!("{uri} has no policy"));
        assert!(
            policy.to_str().unwrap().contains("default-src 'none'"),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn the_table_read_is_shaped_for_its_viewer() {
    let api = Api::new();
    let table = api.create(json!({"public": true})).await;
    let uri = format!("/games/{}/table", table.id);

    let public = api.get(&uri, None).await.expect(StatusCode::OK).json();
    assert_eq!(public["viewer"], "public");
    assert_eq!(public["legal"], json!([]));
    assert_eq!(public["waiting_for"], json!(["Nowa", "Grim"]));

    let seat = api
        .get(&uri, Some(&table.seats[0]))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(seat["seat"], 0);
    let legal = seat["legal"].as_array().unwrap();
    assert!(!legal.is_empty());
    assert!(legal.iter().all(|l| l["action"]["seat"] == 0), "{legal:?}");

    // Seat 0 chooses: seat 1's table shows only that Nowa has chosen.
    let choose = legal
        .iter()
        .find(|l| l["action"]["type"] == "choose")
        .unwrap()["action"]
        .clone();
    let maneuver = choose["maneuver"].as_str().unwrap().to_string();
    api.post(
        &format!("/games/{}/actions", table.id),
        Some(&table.seats[0]),
        &json!({ "action": choose }),
    )
    .await
    .expect(StatusCode::CREATED);
    for (viewer, token) in [("seat 1", Some(&table.seats[1])), ("public", None)] {
        let mut view = api.get(&uri, token.map(|t| t.as_str())).await.json();
        assert_eq!(view["waiting_for"], json!(["Grim"]), "{viewer}");
        // (Seat 1 may be offered the same maneuver itself.)
        view.as_object_mut().unwrap().remove("legal");
        assert!(
            !view.to_string().contains(&maneuver),
            "{viewer} learns seat 0's choice {maneuver}"
        );
        let page = match token {
            Some(token) => {
                get_with_cookie(&api, &format!("/g/{}", table.id), &table.id, token).await
            }
            None => api.get(&format!("/g/{}", table.id), None).await,
        };
        let page = page.text();
        let (before, rest) = page.split_once(r#"<div id="legal">"#).unwrap();
        let (_, after) = rest.split_once(r#"<div id="form">"#).unwrap();
        assert!(
            !before.contains(&maneuver) && !after.contains(&maneuver),
            "{viewer} page"
        );
    }
    // The owner's page is the table screen, fit for a screen everyone
    // sees; the owner's view shows only when asked for by name.
    let owners_page = |query: &'static str| {
        let uri = format!("/g/{}{query}", table.id);
        let (api, id, owner) = (&api, table.id.clone(), table.owner.clone());
        async move { get_with_cookie(api, &uri, &id, &owner).await.text() }
    };
    let screen = owners_page("").await;
    assert!(screen.contains(r#"data-viewer="public""#));
    assert!(
        !screen.contains(&maneuver),
        "the table screen shows a sealed choice"
    );
    let everything = owners_page("?as=owner").await;
    assert!(everything.contains(r#"data-viewer="owner""#));
    assert!(
        everything.contains(&maneuver),
        "the owner's view hides seat 0's choice"
    );
    let own = api.get(&uri, Some(&table.seats[0])).await.json();
    assert!(
        own["legal"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["action"]["type"] != "choose"),
        "seat 0 has chosen"
    );
    assert_eq!(own["waiting_for"], json!(["Grim"]));

    // The past: the state at seq 1, nothing to record.
    let past = api
        .get(&format!("{uri}?at=1"), Some(&table.seats[1]))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(past["seq"], 1);
    assert_eq!(past["head_seq"], 2);
    assert_eq!(past["legal"], json!([]));
    api.get(&format!("{uri}?at=9"), None)
        .await
        .expect_error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn a_sealed_choice_commits_then_reveals_once_everyone_has_chosen() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let act = |seat: usize, action: Value| {
        let api = &api;
        let table = &table;
        async move {
            api.post(
                &format!("/games/{}/actions", table.id),
                Some(&table.seats[seat]),
                &json!({ "action": action }),
            )
            .await
        }
    };
    let legal = |seat: usize| {
        let api = &api;
        let table = &table;
        async move {
            api.get(
                &format!("/games/{}/legal", table.id),
                Some(&table.seats[seat]),
            )
            .await
            .json()
        }
    };
    let mut reveals = Vec::new();
    for seat in 0..2 {
        let offered = legal(seat).await;
        let choice = offered
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l.get("seal").is_some())
            .expect("a sealable choice")
            .clone();
        let seal = &choice["seal"];
        let salt = format!("pepper{seat}");
        let preimage = seal["preimage"].as_str().unwrap().replace("<salt>", &salt);
        assert_eq!(
            preimage,
            format!("{}:{salt}", choice["action"]["page"]),
            "the preimage is the page and the salt"
        );
        let hash = hex::encode(Sha256::digest(preimage.as_bytes()));
        let mut commit = seal["commit"].clone();
        commit["hash"] = json!(hash);
        assert_eq!(commit["nonce"], "<nonce>", "{commit}");
        commit["nonce"] = json!(format!("{seat}0ff1ce"));
        act(seat, commit).await.expect(StatusCode::CREATED);
        let mut reveal = seal["reveal"].clone();
        reveal["salt"] = json!(salt);
        reveals.push(reveal);
        if seat == 0 {
            // Seat 0 may not reveal before seat 1 has chosen.
            let offered = legal(0).await;
            assert!(!offered.to_string().contains("\"reveal\""), "{offered}");
        }
    }
    for seat in 0..2 {
        let offered = legal(seat).await;
        assert!(
            offered
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["action"]["type"] == "reveal"),
            "{offered}"
        );
    }
    act(0, reveals[0].clone()).await.expect(StatusCode::CREATED);
    let told = act(1, reveals[1].clone())
        .await
        .expect(StatusCode::CREATED)
        .json();
    let narration = told["narration"].to_string();
    assert!(
        narration.contains("goes for") && narration.contains("of Brakka's book, picture"),
        "{narration}"
    );
}

#[tokio::test]
async fn the_story_page_tells_each_chapter_with_its_board() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    for _ in 0..4 {
        api.play_one(&table).await;
    }
    let page = get_with_cookie(
        &api,
        &format!("/g/{}/story", table.id),
        &table.id,
        &table.owner,
    )
    .await
    .expect(StatusCode::OK)
    .text();
    let story = api
        .get(
            &format!("/games/{}/narrative?format=json", table.id),
            Some(&table.owner),
        )
        .await
        .json();
    let named = api
        .get(
            &format!(
                "/games/{}/narrative?format=json&title=The%20Long%20Night",
                table.id
            ),
            Some(&table.owner),
        )
        .await
        .json();
    assert_eq!(named["title"], "The Long Night");
    let chapters = story["chapters"].as_array().unwrap();
    for chapter in chapters {
        let heading = chapter["heading"].as_str().unwrap();
        assert!(page.contains(&format!("<h2>{heading}</h2>")), "{heading}");
    }
    // Chapters fold, for a phone: the first is open, the others closed.
    let folds: Vec<&str> = page.split("<details class=\"chapter\"").skip(1).collect();
    assert_eq!(folds.len(), chapters.len(), "{page}");
    let open: Vec<bool> = folds
        .iter()
        .map(|f| f[..f.find('>').unwrap()].ends_with(" open"))
        .collect();
    assert!(open[0] && open[1..].iter().all(|o| !o), "{open:?}");
    assert!(
        page.matches("<figure class=\"board\"><svg").count() >= 2,
        "{page}"
    );
    // Without a token the story of a private game is closed.
    let closed = api.get(&format!("/g/{}/story", table.id), None).await;
    assert_eq!(closed.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_qr_code_is_drawn_from_the_body() {
    let api = Api::new();
    let reply = api
        .post(
            "/qr",
            None,
            &json!({"text": "http://192.168.1.5:7878/g/g-1#t=abc"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(reply.content_type(), "image/svg+xml");
    assert!(reply.text().contains("<svg"));
    api.post("/qr", None, &json!({"text": ""}))
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
}

/// Reads server-sent event blocks (`event:` and `data:`) from a stream.
async fn next_block(body: &mut Body, text: &mut String) -> (String, Value) {
    loop {
        if let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let kind = block
                .lines()
                .find_map(|l| l.strip_prefix("event: "))
                .unwrap_or("")
                .to_string();
            if let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) {
                return (kind, serde_json::from_str(data).unwrap());
            }
            continue;
        }
        let frame = tokio::time::timeout(Duration::from_secs(2), body.frame())
            .await
            .expect("an event within two seconds")
            .unwrap()
            .unwrap();
        if let Ok(data) = frame.into_data() {
            text.push_str(std::str::from_utf8(&data).unwrap());
        }
    }
}

#[tokio::test]
async fn the_live_stream_follows_the_current_line_after_a_take_back() {
    let api = Api::new();
    let table: Table = api.create(json!({})).await;
    api.play_one(&table).await;
    let mut body = open_live(&api, &table, &[]).await.into_body();
    let mut text = String::new();
    let undone = api
        .send(
            request(
                Method::POST,
                &format!("/games/{}/undo", table.id),
                Some(&table.owner),
            )
            .body(Body::empty())
            .unwrap(),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    let (kind, data) = next_block(&mut body, &mut text).await;
    assert_eq!(kind, "line");
    assert_eq!(data["current"], undone["current"]);
    let played = api
        .play_one_on(&table, undone["current"].as_str().unwrap())
        .await;
    let (kind, data) = next_block(&mut body, &mut text).await;
    assert_eq!(kind, "event");
    assert_eq!(data["seq"], played["seq"]);
}

/// The page's assets travel gzipped to whoever asks, and a device that
/// holds this build's copy is answered 304 without a body. The live stream
/// never goes through an encoder (it would hold frames back).
#[tokio::test]
async fn assets_travel_gzipped_and_a_device_keeps_its_copy() {
    let api = Api::new();
    let get = |path: &str, name: header::HeaderName, value: &str| {
        request(Method::GET, path, None)
            .header(name, value)
            .body(Body::empty())
            .unwrap()
    };
    for path in ["/assets/app.js", "/assets/app.css"] {
        let full = api.get(path, None).await.expect(StatusCode::OK);
        assert_eq!(full.headers[header::CACHE_CONTROL], "no-cache");
        assert!(full.headers.get(header::CONTENT_ENCODING).is_none());
        let tag = full.headers[header::ETAG].to_str().unwrap().to_string();
        let zipped = api
            .send(get(path, header::ACCEPT_ENCODING, "gzip"))
            .await
            .expect(StatusCode::OK);
        assert_eq!(zipped.headers[header::CONTENT_ENCODING], "gzip");
        assert!(
            zipped.body.len() * 3 < full.body.len(),
            "{path}: {} bytes gzipped of {}",
            zipped.body.len(),
            full.body.len()
        );
        let held = api
            .send(get(path, header::IF_NONE_MATCH, &tag))
            .await
            .expect(StatusCode::NOT_MODIFIED);
        assert!(held.body.is_empty());
        assert_eq!(held.headers[header::ETAG], tag.as_str());
        // Another build's copy is sent anew.
        api.send(get(path, header::IF_NONE_MATCH, "\"0123456789\""))
            .await
            .expect(StatusCode::OK);
    }
    let table = api.create(json!({})).await;
    let live = open_live(&api, &table, &[(header::ACCEPT_ENCODING, "gzip")]).await;
    assert_eq!(live.headers()[header::CONTENT_TYPE], "text/event-stream");
    assert!(live.headers().get(header::CONTENT_ENCODING).is_none());
}

/// The game's live stream as its owner opens it, with `headers` added.
async fn open_live(
    api: &Api,
    table: &Table,
    headers: &[(header::HeaderName, &str)],
) -> axum::response::Response {
    let mut req = request(
        Method::GET,
        &format!("/games/{}/live", table.id),
        Some(&table.owner),
    );
    for (name, value) in headers {
        req = req.header(name, *value);
    }
    api.app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap()
}

#[test]
fn esc_leaves_no_markup() {
    use tabletape_api::routes::web::esc;
    assert_eq!(
        esc(r#"<b onclick="x">Bo's & "it"</b>"#),
        "&lt;b onclick=&quot;x&quot;&gt;Bo&#39;s &amp; &quot;it&quot;&lt;/b&gt;"
    );
}
