//! The web recorder: the page a table uses from phones and a laptop.
//!
//! Everything here is served from the binary (the assets are embedded), so
//! `tabletape serve` is all a table needs, offline on its own network. The
//! pages are drawn on the server for their viewer and read without
//! JavaScript: the table at a seq (`/g/{id}`) and the story (`/g/{id}/story`).
//! `assets/app.js` then makes the table live: it records actions from what
//! `GET /games/{id}/table` offers, follows `/live`, takes back, forks.
//!
//! The page knows no game rules: it shows the kind's SVG, its narration and
//! what `legal` offers with its `needs` and `seal`. Tokens reach the page in
//! the link's fragment (`#t=...`, never sent to any server, so never in a
//! log); the page keeps them in the browser and sets the game's cookie for
//! reads (see `request::extract`); writes carry the header.

use std::fmt::Write as _;
use std::sync::LazyLock;

use axum::extract::State;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH, LOCATION,
    REFERRER_POLICY, SET_COOKIE, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tabletape_engine::narrative::{Block, Chapter};
use tabletape_engine::{LegalAction, Viewer};
use tabletape_events::{Actor, Seat};
use tabletape_store::{Access, GameSummary, Journal, Listing};

use crate::request::{
    blocking, cookie_name, read_access, viewer_for, AppError, AppState, Bearer, ErrorBody, GameId,
    JsonBody, Params,
};

pub(crate) mod draw;
pub(crate) mod story;
pub(crate) mod table;

use draw::{draw_legless, draw_lostworlds};
use story::story_page;
use table::{table, table_page, title_of};

/// The table page's script: the card form (`cardFormsWith`, used by the
/// rest) first, then the page itself, in one file and one request.
const APP_JS: &str = concat!(
    include_str!("../../../assets/card_form.js"),
    "\n",
    include_str!("../../../assets/app.js")
);
const APP_CSS: &str = include_str!("../../../assets/app.css");
const DRAW_JS: &str = include_str!("../../../assets/draw.js");

/// How many of the last events the table shows as its recent narration.
const RECENT_EVENTS: u64 = 12;

/// The longest text a QR code is drawn for (a join link is about 120).
const QR_MAX_CHARS: usize = 1000;

/// The pages may load only their own assets; the SVGs inline in them are
/// written by the engine's escaping writer, and no inline script runs.
const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/assets/app.js", get(app_js))
        .route("/assets/app.css", get(app_css))
        .route("/qr", post(qr))
        .route("/games/{id}/table", get(table))
        .route("/g/{id}", get(table_page))
        .route("/g/{id}/story", get(story_page))
        .route("/g/{id}/session", post(session))
        .route("/draw/legless", get(draw_legless))
        .route("/draw/lostworlds", get(draw_lostworlds))
        .route("/assets/draw.js", get(draw_js))
}

// ------------------------------------------------------------------ assets

#[utoipa::path(
    get,
    path = "/assets/app.js",
    tag = "web",
    summary = "The web recorder's script",
    responses((status = 200, description = "JavaScript", body = String, content_type = "text/javascript"), (status = 304, description = "Not modified: the `If-None-Match` given is this build's")),
    security((), ("bearer" = []))
)]
async fn app_js(headers: HeaderMap) -> Response {
    static TAG: LazyLock<String> = LazyLock::new(|| entity_tag(APP_JS));
    asset("text/javascript; charset=utf-8", APP_JS, &TAG, &headers)
}

#[utoipa::path(
    get,
    path = "/assets/draw.js",
    tag = "web",
    summary = "The board drawing page's script",
    responses((status = 200, description = "JavaScript", body = String, content_type = "text/javascript"), (status = 304, description = "Not modified: the `If-None-Match` given is this build's")),
    security((), ("bearer" = []))
)]
pub(crate) async fn draw_js(headers: HeaderMap) -> Response {
    static TAG: LazyLock<String> = LazyLock::new(|| entity_tag(DRAW_JS));
    asset("text/javascript; charset=utf-8", DRAW_JS, &TAG, &headers)
}

#[utoipa::path(
    get,
    path = "/assets/app.css",
    tag = "web",
    summary = "The web recorder's style sheet",
    responses((status = 200, description = "CSS", body = String, content_type = "text/css"), (status = 304, description = "Not modified: the `If-None-Match` given is this build's")),
    security((), ("bearer" = []))
)]
async fn app_css(headers: HeaderMap) -> Response {
    static TAG: LazyLock<String> = LazyLock::new(|| entity_tag(APP_CSS));
    asset("text/css; charset=utf-8", APP_CSS, &TAG, &headers)
}

/// A strong entity tag for a built-in asset: its content's hash.
fn entity_tag(body: &str) -> String {
    format!(
        "\"{}\"",
        &hex::encode(Sha256::digest(body.as_bytes()))[..20]
    )
}

/// A built-in asset, revalidated on every load (a new build's page never
/// runs old code) and answered with 304 when the device holds this build's.
fn asset(
    content_type: &'static str,
    body: &'static str,
    tag: &str,
    headers: &HeaderMap,
) -> Response {
    let held = headers
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let tag = HeaderValue::from_str(tag).expect("a hex entity tag is a header value");
    let cache = [
        (CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (ETAG, tag),
    ];
    if held {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        cache,
        [
            (CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        ],
        body,
    )
        .into_response()
}

// ------------------------------------------------------- the home page

#[utoipa::path(
    get,
    path = "/",
    tag = "web",
    summary = "The home page: start a game",
    responses((status = 200, description = "HTML", body = String, content_type = "text/html")),
    security((), ("bearer" = []))
)]
async fn home(State(journal): State<Journal>) -> Response {
    let listed =
        blocking(move || Ok(journal.list_games(Listing::For { token: None }, None, 50)?)).await;
    let mut h = String::from(
        r#"<main id="home"><h1>Tabletape</h1><p>Record a real game at the table: every action checked against the rules, dice rolled when asked, every secret kept for its own seat, and the whole game kept as a journal to replay, fork and tell.</p>
<section id="new" aria-label="new game"><h2>New game</h2>"#,
    );
    h += &new_game_form();
    h += r#"</section><section id="mine" aria-label="your games"><h2>Your games</h2><p class="hint">Games created or joined on this device appear here.</p><ul id="my-games"></ul></section><section id="public"><h2>Public games</h2><ul>"#;
    match listed {
        Ok(page) if !page.games.is_empty() => {
            for g in page.games {
                let _ = write!(
                    h,
                    r#"<li><a href="/g/{id}">{title}</a> · seq {seq}{over}</li>"#,
                    id = esc(&g.game),
                    title = esc(&title_of(&g)),
                    seq = g.seq,
                    over = if g.over { " · over" } else { "" }
                );
            }
        }
        Ok(_) => h += "<li>None yet.</li>",
        Err(err) => {
            let _ = write!(
                h,
                "<li>The list cannot be read: {}</li>",
                esc(&err.to_string())
            );
        }
    }
    h += "</ul></section></main>";
    html(StatusCode::OK, "Tabletape", &h)
}

/// The new-game form: each kind's options with their help and, where the
/// kind lists them, the values it accepts. JavaScript submits it (the
/// tokens it answers with stay in the browser).
fn new_game_form() -> String {
    let kinds = tabletape_engine::kinds();
    let mut h = String::from(
        r#"<form id="new-game" class="new-game"><label>Kind <select name="kind" id="kind">"#,
    );
    for k in kinds.iter().map(|k| k.info()) {
        let _ = write!(
            h,
            r#"<option value="{kind}" data-min="{min}" data-max="{max}">{title} ({min}–{max} players)</option>"#,
            kind = k.kind,
            title = esc(k.title),
            min = k.min_players,
            max = k.max_players
        );
    }
    h += r#"</select></label>
<label>Title (optional) <input name="title" maxlength="120" placeholder="Friday night duel"></label>
<label>Players, one per line, in seat order <textarea name="players" rows="4" required placeholder="Ada&#10;Bo"></textarea></label>
<fieldset><legend>Dice</legend><label><input type="radio" name="dice" value="digital" checked> Tabletape rolls and draws</label><label><input type="radio" name="dice" value="physical"> We roll real dice and enter them</label></fieldset>
<label><input type="checkbox" name="public"> Public: anyone with the link may watch (each seat's secrets stay hidden)</label>"#;
    for k in kinds.iter().map(|k| k.info()) {
        if k.options.is_empty() {
            continue;
        }
        let _ = write!(
            h,
            r#"<fieldset class="options" data-kind="{kind}"><legend>{title} options</legend>"#,
            kind = k.kind,
            title = esc(k.title)
        );
        let rules = tabletape_engine::kind(k.kind);
        for o in &k.options {
            let field = format!("opt.{}.{}", k.kind, o.name);
            // An option for the table's own dice only is shown once they are picked.
            let only = if rules.is_some_and(|r| r.physical_dice_only(&o.name)) {
                r#" data-dice="physical" hidden"#
            } else {
                ""
            };
            let _ = write!(
                h,
                r#"<label{only}>{name} <input name="{field}" id="{field}" placeholder="{default}"><small>{help}</small></label>"#,
                name = esc(&o.name),
                field = esc(&field),
                default = esc(&o.default),
                help = esc(&o.help),
            );
            let values = rules.map(|r| r.option_values(&o.name)).unwrap_or_default();
            if !values.is_empty() {
                // Each value a tap adds (a list option takes several).
                let _ = write!(
                    h,
                    r#"<p class="values" aria-label="values {name} accepts"{only}>"#,
                    name = esc(&o.name)
                );
                for v in values {
                    let shown = if v.label == v.value {
                        esc(&v.value)
                    } else {
                        format!("{} <small>{}</small>", esc(&v.value), esc(&v.label))
                    };
                    let _ = write!(
                        h,
                        r#"<button type="button" class="chip" data-for="{field}" data-value="{value}">{shown}</button> "#,
                        field = esc(&field),
                        value = esc(&v.value),
                    );
                }
                h += "</p>";
            }
        }
        h += "</fieldset>";
    }
    h += r#"<details><summary>Your own box</summary><label>Content pack (a JSON file, laid over the kind's bundled content: <code>tabletape pack new KIND</code> writes a starting point) <input type="file" name="pack" id="pack" accept=".json,application/json"></label><p><a href="/draw/legless">Draw a Legless in London board</a> or <a href="/draw/lostworlds">a Lost Worlds scenario's map</a> by tapping.</p></details>
<details><summary>Seed</summary><label>Seed (a number; empty for a secret random one) <input name="seed" inputmode="numeric"></label></details>
<button type="submit">Start the game</button><p id="created" role="status"></p>
<noscript><p>Starting a game from this page needs JavaScript; <code>tabletape new</code> does it at a terminal.</p></noscript></form>"#;
    h
}

// ------------------------------------------------------------ sessions

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct SessionForm {
    token: String,
}

/// `POST /g/{id}/session`: a token pasted into the page without
/// JavaScript becomes the game's cookie, so the story and the table read
/// as its holder. The token travels in the body, never in a URL.
#[utoipa::path(
    post,
    path = "/g/{id}/session",
    tag = "web",
    summary = "A token pasted into the page without JavaScript becomes the game's read cookie",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)")),
    request_body(content = SessionForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 303, description = "Back to the table, the cookie set"), (status = 415, description = "Not sent as a form: a page saying so", body = String, content_type = "text/html"), (status = 422, description = "A form without its token: a page saying so", body = String, content_type = "text/html"), (status = 400, description = "Malformed input: a page naming the field at fault", body = String, content_type = "text/html"), (status = 401, description = "No token, where one is needed: a page asking for one", body = String, content_type = "text/html"), (status = 403, description = "A token that does not allow this: a page asking for another", body = String, content_type = "text/html"), (status = 404, description = "No such game, branch or seq: a page saying so", body = String, content_type = "text/html")),
    security((), ("bearer" = []))
)]
async fn session(
    State(journal): State<Journal>,
    GameId(id): GameId,
    headers: axum::http::HeaderMap,
    form: Result<Form<SessionForm>, axum::extract::rejection::FormRejection>,
) -> Response {
    // A page answers a page: a form that cannot be read is told as the
    // other failures here are, not in axum's plain text.
    let form = match form {
        Ok(Form(form)) => form,
        Err(rejection) => {
            let status = rejection.status();
            let message = rejection.body_text();
            let mut page = failure_page(&id, AppError::BadRequest(message));
            *page.status_mut() = status;
            return page;
        }
    };
    // Another site's page must not set this site's cookie (a login CSRF
    // would swap a player's read cookie for another seat's token): a
    // browser names the page's origin, which must be this server's.
    if !same_origin(&headers) {
        return failure_page(
            &id,
            AppError::Forbidden(
                "a token is given from this server's own page, not another site's".into(),
            ),
        );
    }
    let token = form.token.trim().to_string();
    let game = id.clone();
    let known = {
        let token = token.clone();
        blocking(move || Ok(journal.access(&id, Some(&token))?)).await
    };
    match known {
        Ok(Access::Public) | Err(_) => failure_page(
            &game,
            AppError::Forbidden(format!("that token does not belong to game {game}")),
        ),
        Ok(_) => {
            let cookie = format!(
                "{}={token}; Path=/; SameSite=Strict; HttpOnly; Max-Age=31536000",
                cookie_name(&game)
            );
            let mut response = StatusCode::SEE_OTHER.into_response();
            let headers = response.headers_mut();
            if let (Ok(cookie), Ok(to)) = (
                HeaderValue::from_str(&cookie),
                HeaderValue::from_str(&format!("/g/{game}")),
            ) {
                headers.insert(SET_COOKIE, cookie);
                headers.insert(LOCATION, to);
            }
            response
        }
    }
}

/// Whether a request comes from this server's own pages: a browser's
/// `Sec-Fetch-Site` says so, or its `Origin` names this `Host`. A client
/// that sends neither (not a browser) is taken at its word.
fn same_origin(headers: &axum::http::HeaderMap) -> bool {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = text("sec-fetch-site") {
        return matches!(site, "same-origin" | "none");
    }
    match (text("origin"), text("host")) {
        (None, _) => true,
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_some_and(|(_, rest)| rest.eq_ignore_ascii_case(host)),
        (Some(_), None) => false,
    }
}

// ------------------------------------------------------------------- QR

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct QrBody {
    /// What the code holds: 1 to 1,000 characters (`QR_MAX_CHARS`).
    #[schema(min_length = 1, max_length = 1000)]
    text: String,
}

/// `POST /qr`: a QR code of `text` as SVG, for the join links. The text
/// (it carries a token) comes in the body so that no log ever sees it.
#[utoipa::path(
    post,
    path = "/qr",
    tag = "web",
    summary = "A QR code of a join link, as SVG (the link travels in the body)",
    request_body = QrBody,
    responses((status = 200, description = "SVG", body = String, content_type = "image/svg+xml"), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody)),
    security((), ("bearer" = []))
)]
async fn qr(JsonBody(body): JsonBody<QrBody>) -> Result<Response, AppError> {
    if body.text.is_empty() || body.text.chars().count() > QR_MAX_CHARS {
        return Err(AppError::BadRequest(format!(
            "`text` must be 1 to {QR_MAX_CHARS} characters"
        )));
    }
    let code = qrcode::QrCode::new(body.text.as_bytes())
        .map_err(|err| AppError::BadRequest(format!("`text` cannot be a QR code: {err}")))?;
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .build();
    Ok((
        [
            (CONTENT_TYPE, HeaderValue::from_static("image/svg+xml")),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        svg,
    )
        .into_response())
}

// ------------------------------------------------------------ plumbing

/// A whole page around `body`.
fn html(status: StatusCode, title: &str, body: &str) -> Response {
    let page = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/app.css"><script src="/assets/app.js" defer></script></head>
<body><header class="bar"><a href="/" class="home">Tabletape</a><button type="button" id="keys" class="quiet" hidden aria-label="keyboard shortcuts">?</button></header>
{body}
</body></html>"#,
        title = esc(title),
    );
    (
        status,
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (
                CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(PAGE_POLICY),
            ),
            (REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
            (X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        page,
    )
        .into_response()
}

/// A failure as a page: the API's status and message, and for a missing
/// token, a form to give one (the only way in without JavaScript).
fn failure_page(game: &str, err: AppError) -> Response {
    let message = err.to_string();
    let status = err.into_response().status();
    let message = if status == StatusCode::INTERNAL_SERVER_ERROR {
        "the server failed; its log has the details".to_string()
    } else {
        message
    };
    let mut h = format!(
        r#"<main class="failure" data-game="{game}" data-status="{code}"><h1>{reason}</h1><p class="error">{message}</p>"#,
        game = esc(game),
        code = status.as_u16(),
        reason = status.canonical_reason().unwrap_or("Error"),
        message = esc(&message),
    );
    if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
        let _ = write!(
            h,
            r#"<p>This game is private. Open the link you were given to join it, or give your token here:</p>
<form method="post" action="/g/{game}/session"><label>Token <input name="token" autocomplete="off" required></label> <button type="submit">Open</button></form>"#,
            game = esc(game)
        );
    }
    h += r#"<p><a href="/">Tabletape</a></p></main>"#;
    html(status, reason_title(status), &h)
}

fn reason_title(status: StatusCode) -> &'static str {
    status.canonical_reason().unwrap_or("Error")
}

/// Text for HTML (element content and quoted attributes alike): the same
/// five entities the engine's drawings and stories escape.
pub use tabletape_engine::svg::escape as esc;
