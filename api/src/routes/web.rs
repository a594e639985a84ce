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

/// The table page's script: the card form (`cardFormsWith`, used by the
/// rest) first, then the page itself, in one file and one request.
const APP_JS: &str = concat!(
    include_str!("../../assets/card_form.js"),
    "\n",
    include_str!("../../assets/app.js")
);
const APP_CSS: &str = include_str!("../../assets/app.css");
const DRAW_JS: &str = include_str!("../../assets/draw.js");

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

// ------------------------------------------------------------- the table

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct TableQuery {
    branch: Option<String>,
    at: Option<u64>,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

/// Everything the table page shows, for its viewer, in one read.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TableView {
    /// The game as the page names it (kind and players).
    pub title: String,
    pub summary: GameSummary,
    /// `owner`, `public` or `seat N`.
    pub viewer: String,
    /// The viewer's seat, when it is one.
    #[schema(value_type = Option<u32>)]
    pub seat: Option<Seat>,
    /// Whom that seat plays, as the box names it (a character, a party).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plays: Option<String>,
    /// Whether the reader holds the owner's token, and so may switch the
    /// page between the table screen (`as=public`), the owner's view and
    /// each seat's.
    pub owner: bool,
    pub branch: String,
    pub head_seq: u64,
    /// The seq shown: the head, or the `at` asked for.
    pub seq: u64,
    pub chapter: String,
    pub over: bool,
    pub svg: String,
    /// The state as text, for screen readers and the curious.
    pub text: String,
    /// What the viewer may record now (none when looking at the past).
    pub legal: Vec<LegalAction>,
    /// The players whose seats have something to do now.
    pub waiting_for: Vec<String>,
    /// The narration of the last events up to `seq`.
    pub recent: Vec<Told>,
    /// A time limit running at the head (London Dread's planning), which
    /// every device counts down to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<tabletape_engine::Deadline>,
    /// The server's clock when this was read, so a device whose own clock
    /// is wrong still counts down to the right moment.
    pub server_ms: u64,
    /// Who made the dice of the line in play, in a sentence (empty when
    /// the table rolls its own or the game has no chance).
    pub dice: String,
    /// Once the game is over (and the page is at its end): the winners and,
    /// where the game keeps them, the scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<tabletape_engine::PlayResult>,
    /// Once it is over: how the story closes (outcome, scores) and how it
    /// opens (its first lines), for the page's result screen.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ending: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<String>,
    /// Whether the reader's token may take back the last action of the
    /// line in play now (what `POST /games/{id}/undo` would record).
    pub take_back: bool,
}

/// Who made the dice, in words for the page's status line.
fn dice_line(summary: &GameSummary) -> String {
    use tabletape_engine::dice::DiceMakers;
    let Some(dice) = &summary.dice else {
        return String::new();
    };
    let names = |seats: &[Seat], has: bool| -> Vec<String> {
        summary
            .players
            .iter()
            .enumerate()
            .filter(|(i, _)| seats.contains(&(*i as Seat)) == has)
            .map(|(_, p)| p.clone())
            .collect()
    };
    match dice.made_by {
        DiceMakers::Table => String::new(),
        DiceMakers::Everyone => "Dice: made by every seat together; no one chose them.".into(),
        DiceMakers::OwnerOnly => {
            "Dice: chosen by the owner only (not every seat added its share before play began)."
                .into()
        }
        DiceMakers::Gathering => {
            let waiting = names(&dice.committed, false);
            if waiting.is_empty() {
                format!(
                    "Dice: every seat's share is in; waiting for {} to reveal it.",
                    names(&dice.revealed, false).join(", ")
                )
            } else {
                format!(
                    "Dice: waiting for {} to add a share (a seat's page does it on opening; the first action goes on without).",
                    waiting.join(", ")
                )
            }
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Told {
    pub seq: u64,
    /// Who recorded it (only the owner or this seat may take it back).
    #[schema(value_type = tabletape_store::schema_doc::ActorSchema)]
    pub actor: Actor,
    /// Whether it is an action: a take-back takes actions only, never a
    /// share of the dice, a note or a name.
    pub action: bool,
    pub chapter: String,
    pub lines: Vec<String>,
}

fn viewer_name(viewer: Viewer) -> String {
    match viewer {
        Viewer::Owner => "owner".into(),
        Viewer::Public => "public".into(),
        Viewer::Seat(seat) => format!("seat {seat}"),
    }
}

fn table_view(
    journal: &Journal,
    id: &str,
    access: Access,
    q: TableQuery,
) -> Result<TableView, AppError> {
    let viewer = viewer_for(journal, id, access, q.viewer.as_deref())?;
    let branch = journal.line(id, q.branch)?;
    let summary = journal.summary(id, viewer)?;
    let head_seq = journal
        .branches_as(id, viewer)?
        .into_iter()
        .find(|b| b.name == branch)
        .map(|b| b.head_seq)
        .ok_or_else(|| AppError::NotFound(format!("game `{id}` has no branch `{branch}`")))?;
    let seq = q.at.unwrap_or(head_seq);
    if seq == 0 || seq > head_seq {
        return Err(AppError::NotFound(format!(
            "branch `{branch}` runs from seq 1 to {head_seq}, not {seq}"
        )));
    }
    let state = journal.state(id, &branch, Some(seq), viewer)?;
    let svg = journal.board_svg(id, &branch, Some(seq), viewer)?;
    let at_head = seq == head_seq;
    let legal = match (at_head, viewer, access) {
        (false, ..) | (_, Viewer::Public, _) | (_, _, Access::Public) => Vec::new(),
        (true, Viewer::Owner, _) => journal.legal(id, &branch, None)?,
        (true, Viewer::Seat(seat), _) => journal.legal(id, &branch, Some(seat))?,
    };
    // Whose move it is is public at a real table: anyone sees who is thinking.
    let waiting_for = if at_head {
        journal
            .game_at(id, &branch, None)?
            .to_move()
            .into_iter()
            .filter_map(|seat| summary.players.get(seat as usize).cloned())
            .collect()
    } else {
        Vec::new()
    };
    let after = seq.saturating_sub(RECENT_EVENTS);
    let recent: Vec<Told> = journal
        .follow(id, &branch, after, viewer)?
        .into_iter()
        .take_while(|f| f.seq <= seq)
        .map(|f| Told {
            seq: f.seq,
            actor: f.event.actor,
            action: f.event.body["type"] == "action_accepted",
            chapter: f.chapter,
            lines: f.narration,
        })
        .collect();
    let deadline = if at_head { state.deadline } else { None };
    let plays = match viewer {
        Viewer::Seat(seat) => journal.game_at(id, &branch, Some(seq))?.plays(seat),
        _ => None,
    };
    let (result, ending, opening) = match state.result.filter(|_| state.over && at_head) {
        Some(result) => {
            let story = journal.narrate_as(id, &branch, viewer)?;
            let opening = story
                .chapters
                .first()
                .map(|c| c.lines.iter().take(2).cloned().collect())
                .unwrap_or_default();
            (Some(result), story.epilogue, opening)
        }
        None => (None, Vec::new(), Vec::new()),
    };
    // Asked only where the page would offer it: at the head of the line in
    // play, on the owner's own view, or a seat's view whose action is the
    // last (never on the table screen, which records nothing).
    let last_mine = |seat: Seat| {
        recent
            .last()
            .is_some_and(|t: &Told| t.action && t.actor == Actor::Seat(seat))
    };
    let take_back = at_head
        && !state.over
        && branch == journal.current_line(id)?
        && match (access, viewer) {
            (Access::Public, _) | (_, Viewer::Public) => false,
            (_, Viewer::Owner) => journal.may_undo(id, access),
            (_, Viewer::Seat(seat)) => last_mine(seat) && journal.may_undo(id, access),
        };
    Ok(TableView {
        take_back,
        result,
        ending,
        opening,
        plays,
        deadline,
        server_ms: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64),
        title: title_of(&summary),
        viewer: viewer_name(viewer),
        seat: match viewer {
            Viewer::Seat(seat) => Some(seat),
            _ => None,
        },
        owner: access == Access::Owner,
        branch,
        head_seq,
        seq,
        chapter: state.chapter,
        over: state.over,
        svg,
        text: state.text,
        legal,
        waiting_for,
        recent,
        dice: dice_line(&summary),
        summary,
    })
}

/// `GET /games/{id}/table`: the table page's one read.
#[utoipa::path(
    get,
    path = "/games/{id}/table",
    tag = "web",
    summary = "Everything the table page shows, for its viewer, in one read",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), TableQuery),
    responses((status = 200, description = "The table", body = TableView), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
async fn table(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<TableQuery>,
) -> Result<Json<TableView>, AppError> {
    blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        Ok(Json(table_view(&journal, &id, access, q)?))
    })
    .await
}

/// `GET /g/{id}`: the table, drawn on the server for the page's viewer.
#[utoipa::path(
    get,
    path = "/g/{id}",
    tag = "web",
    summary = "The table page",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), TableQuery),
    responses((status = 200, description = "HTML", body = String, content_type = "text/html"), (status = 400, description = "Malformed input: a page naming the field at fault", body = String, content_type = "text/html"), (status = 401, description = "No token, where one is needed: a page asking for one", body = String, content_type = "text/html"), (status = 403, description = "A token that does not allow this: a page asking for another", body = String, content_type = "text/html"), (status = 404, description = "No such game, branch or seq: a page saying so", body = String, content_type = "text/html")),
    security((), ("bearer" = []))
)]
async fn table_page(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    q: Result<Params<TableQuery>, AppError>,
) -> Response {
    // A page answers even a query it cannot read with a page.
    let mut q = match q {
        Ok(Params(q)) => q,
        Err(err) => return failure_page(&id, err),
    };
    let game = id.clone();
    let shown = blocking(move || {
        // The page the owner opens is the table screen: what lies face up,
        // fit for a screen everyone sees. The owner's view (every secret)
        // is asked for by name (`as=owner`), never fallen into.
        let access = read_access(&journal, &id, &bearer)?;
        if q.viewer.is_none() && access == Access::Owner {
            q.viewer = Some("public".into());
        }
        table_view(&journal, &id, access, q)
    })
    .await;
    match shown {
        Ok(view) => html(StatusCode::OK, &view.title, &table_html(&view)),
        Err(err) => failure_page(&game, err),
    }
}

/// A game as a page names it: its kind's title and its players.
fn title_of(summary: &GameSummary) -> String {
    let kind = tabletape_engine::kind(&summary.kind)
        .map(|k| k.game_title())
        .unwrap_or(summary.kind.as_str());
    match &summary.title {
        Some(title) => format!("{title} · {kind}"),
        None => format!("{kind} · {}", summary.players.join(", ")),
    }
}

fn table_html(v: &TableView) -> String {
    let id = &v.summary.game;
    let mut h = String::new();
    let state = if v.over { "over" } else { "in play" };
    let _ = write!(
        h,
        r#"<main id="table" data-game="{game}" data-branch="{branch}" data-seq="{seq}" data-head="{head}" data-viewer="{viewer}">
<section class="status" id="status"><h1>{title}</h1>
<p><span id="where">{chapter} · seq {seq}{of_head} · {state}</span> · <span id="who">seen as {viewer}</span>{branch_note}</p>
<p id="dice">{dice}</p></section>
<div class="now" id="now" aria-live="polite"><p id="waiting">{waiting}</p>{countdown}</div>
<section class="act" id="act" aria-label="what you can record"><h2>Record</h2><div id="legal">{legal}</div><div id="form"></div><p id="outcome" role="status"></p></section>
<section class="board" id="board" aria-label="the board">{svg}</section>
<div id="timeline" class="timeline"></div>
<section class="recent" id="recent" aria-label="what happened"><h2>What happened</h2><ol id="told" tabindex="0" aria-label="what happened, newest first">{told}</ol></section>
<section class="tools" id="tools"><h2>Game</h2><p>{past}<a href="/g/{game}/story{bq}">The story</a> · <a href="/games/{game}/export{bq}" download="{game}.jsonl">Export</a> · <a href="/games/{game}/verify{bq}">Verify</a></p>{check}
<div id="branches"></div><div id="join"></div></section>
<details class="text"><summary>The state as text</summary><pre>{text}</pre></details>
</main>"#,
        game = esc(id),
        branch = esc(&v.branch),
        seq = v.seq,
        head = v.head_seq,
        viewer = esc(&v.viewer),
        title = esc(&v.title),
        chapter = esc(&v.chapter),
        of_head = if v.seq == v.head_seq {
            String::new()
        } else {
            format!(" of {}", v.head_seq)
        },
        branch_note = if v.branch == v.summary.current {
            String::new()
        } else {
            format!(" · branch <b>{}</b>", esc(&v.branch))
        },
        countdown = countdown_html(v),
        dice = esc(&v.dice),
        waiting = if v.over {
            "The game is over.".to_string()
        } else if v.waiting_for.is_empty() {
            String::new()
        } else {
            format!("Waiting for {}.", esc(&v.waiting_for.join(", ")))
        },
        svg = v.svg,
        legal = legal_html(v),
        told = told_html(&v.recent),
        past = past_links(v),
        // Once the game is over its export is everyone's: anyone can check
        // every roll with it, trusting nothing this server says.
        check = if v.over && !v.dice.is_empty() {
            format!(
                r#"<p class="check">Check the dice yourself: download the export, then run <code>tabletape verify --public {}.jsonl</code> (no store, no token).</p>"#,
                esc(id)
            )
        } else {
            String::new()
        },
        bq = branch_query(v),
        text = esc(&v.text),
    );
    h
}

/// The time left of a running deadline, as the page first shows it (the
/// script keeps it counting).
fn countdown_html(v: &TableView) -> String {
    let Some(d) = &v.deadline else {
        return r#"<p id="countdown" class="countdown" hidden></p>"#.into();
    };
    let left = d.ends_at_ms.saturating_sub(v.server_ms) / 1000;
    let text = if left == 0 {
        format!("{} is over", esc(&d.what))
    } else {
        format!("{} {}:{:02} left", esc(&d.what), left / 60, left % 60)
    };
    format!(r#"<p id="countdown" class="countdown" role="timer" aria-live="off">{text}</p>"#)
}

/// `?branch=` for links that must stay on a branch other than the current line.
fn branch_query(v: &TableView) -> String {
    if v.branch == v.summary.current {
        String::new()
    } else {
        format!("?branch={}", esc(&v.branch))
    }
}

/// Previous and next seq as plain links: the timeline without JavaScript.
fn past_links(v: &TableView) -> String {
    let link = |seq: u64, label: &str| {
        format!(
            r#"<a href="/g/{}?at={seq}&amp;branch={}">{label}</a> · "#,
            esc(&v.summary.game),
            esc(&v.branch)
        )
    };
    let mut out = String::new();
    if v.seq > 1 {
        out += &link(v.seq - 1, "← seq before");
    }
    if v.seq < v.head_seq {
        out += &link(v.seq + 1, "seq after →");
    }
    out
}

fn legal_html(v: &TableView) -> String {
    if v.seq != v.head_seq {
        return "<p>Looking at the past: nothing is recorded from here.</p>".into();
    }
    if v.legal.is_empty() {
        return "<p>Nothing for you to record now.</p>".into();
    }
    let mut h = String::from("<ol class=\"plain\">");
    for l in &v.legal {
        let _ = write!(h, "<li><code>{}</code></li>", esc(&l.action.to_string()));
    }
    h + "</ol><noscript><p>Recording needs JavaScript here, or the CLI: <code>tabletape act</code>.</p></noscript>"
}

fn told_html(recent: &[Told]) -> String {
    let mut h = String::new();
    for t in recent.iter().rev() {
        let _ = write!(h, "<li value=\"{}\">", t.seq);
        for line in &t.lines {
            let _ = write!(h, "<p>{}</p>", esc(line));
        }
        h += "</li>";
    }
    h
}

// ------------------------------------------------------------- the story

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct StoryQuery {
    branch: Option<String>,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

/// `GET /g/{id}/story`: the narrative as a page, with the board as it stood
/// at the end of each chapter.
#[utoipa::path(
    get,
    path = "/g/{id}/story",
    tag = "web",
    summary = "The story page, with the board at each chapter's end",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), StoryQuery),
    responses((status = 200, description = "HTML", body = String, content_type = "text/html"), (status = 400, description = "Malformed input: a page naming the field at fault", body = String, content_type = "text/html"), (status = 401, description = "No token, where one is needed: a page asking for one", body = String, content_type = "text/html"), (status = 403, description = "A token that does not allow this: a page asking for another", body = String, content_type = "text/html"), (status = 404, description = "No such game, branch or seq: a page saying so", body = String, content_type = "text/html")),
    security((), ("bearer" = []))
)]
async fn story_page(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    q: Result<Params<StoryQuery>, AppError>,
) -> Response {
    let q = match q {
        Ok(Params(q)) => q,
        Err(err) => return failure_page(&id, err),
    };
    let game = id.clone();
    let told = blocking(move || story_html(&journal, &id, &bearer, q)).await;
    match told {
        Ok((title, body)) => html(StatusCode::OK, &title, &body),
        Err(err) => failure_page(&game, err),
    }
}

fn story_html(
    journal: &Journal,
    id: &str,
    bearer: &Bearer,
    q: StoryQuery,
) -> Result<(String, String), AppError> {
    let access = read_access(journal, id, bearer)?;
    let viewer = viewer_for(journal, id, access, q.viewer.as_deref())?;
    let branch = journal.line(id, q.branch)?;
    // A reading page: every other line is there to open where it parts.
    let story = journal.narrate_with_variations(id, &branch, viewer)?;
    let mut h = String::new();
    let _ = write!(
        h,
        r#"<main class="story"><p><a href="/g/{game}">← the table</a></p><h1>{title}</h1>"#,
        game = esc(id),
        title = esc(&story.title)
    );
    // Each chapter ends with the board as it stood after its last event.
    // Chapters fold (a phone reads one at a time): the first opens.
    for (i, c) in story.chapters.iter().enumerate() {
        let _ = write!(
            h,
            r#"<details class="chapter" id="seq-{first}"{open}><summary><h2>{heading}</h2></summary>"#,
            first = c.first,
            open = if i == 0 { " open" } else { "" },
            heading = esc(&c.heading)
        );
        h += &c.body_html();
        tabletape_engine::narrative::record_html(&mut h, &c.record);
        let svg = match &c.figure {
            Some(drawn) => drawn.clone(),
            None => journal.board_svg(id, &branch, Some(c.last), viewer)?,
        };
        let _ = write!(
            h,
            r#"<figure class="board">{svg}<figcaption>The table after seq {last}. <a href="/g/{game}?at={last}&amp;branch={branch}">Look from here</a></figcaption></figure></details>"#,
            last = c.last,
            game = esc(id),
            branch = esc(&branch),
        );
    }
    if !story.epilogue.is_empty() {
        h += r#"<section class="chapter"><h2>Epilogue</h2>"#;
        blocks_html(&mut h, &Chapter::new("", story.epilogue.clone()).blocks());
        h += "</section>";
    }
    if !story.appendix.is_empty() {
        h += r#"<section class="chapter"><h2>Appendix</h2>"#;
        for c in &story.appendix {
            let _ = write!(h, "<h3>{}</h3><ul>", esc(&c.heading));
            for line in &c.lines {
                let _ = write!(h, "<li>{}</li>", esc(line));
            }
            h += "</ul>";
        }
        h += "</section>";
    }
    h += "</main>";
    Ok((story.title, h))
}

/// A chapter's paragraphs and lists as HTML.
fn blocks_html(h: &mut String, blocks: &[Block<'_>]) {
    for b in blocks {
        match b {
            Block::Paragraph(p) => {
                let _ = write!(h, "<p>{}</p>", esc(p));
            }
            Block::List(items) => {
                *h += "<ul>";
                for i in items {
                    let _ = write!(h, "<li>{}</li>", esc(i));
                }
                *h += "</ul>";
            }
        }
    }
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

/// Text for HTML (element content and quoted attributes alike).
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

// ------------------------------------------------------------- drawing

#[utoipa::path(
    get,
    path = "/draw/legless",
    tag = "web",
    summary = "A page to draw a Legless in London board by tapping a grid, save it as a pack file and start a game on it",
    responses((status = 200, description = "HTML", body = String, content_type = "text/html")),
    security((), ("bearer" = []))
)]
pub(crate) async fn draw_legless() -> Response {
    // What the page starts from: the bundled board, its locations and the
    // characters' start squares (a board of the table's own moves them).
    let bundled = bundled_pack("legless");
    let start = serde_json::json!({
        "board": bundled["board"],
        "locations": fields_of(&bundled, "locations", &["id", "name", "spaces"]),
        "characters": fields_of(&bundled, "characters", &["name", "start"]),
    });
    draw_page(
        "legless",
        "Draw a Legless in London board",
        "Choose what to lay, then tap squares: streets, squares with a Street Event symbol, the locations (each as many squares as it covers on your board) and each character's start; add or take away rows and columns to fit your board, and give each location your box's name and victory spaces. The rest of the box stays as bundled.",
        &start,
    )
}

#[utoipa::path(
    get,
    path = "/draw/lostworlds",
    tag = "web",
    summary = "A page to draw a Lost Worlds scenario's map by tapping its spaces, save it as a pack file and start a game on it",
    responses((status = 200, description = "HTML", body = String, content_type = "text/html")),
    security((), ("bearer" = []))
)]
pub(crate) async fn draw_lostworlds() -> Response {
    // The bundled scenarios to start from, and the characters to field.
    let bundled = bundled_pack("lostworlds");
    let start = serde_json::json!({
        "scenarios": bundled["scenarios"],
        "characters": fields_of(&bundled, "characters", &["id", "name"]),
    });
    draw_page(
        "lostworlds",
        "Draw a Lost Worlds scenario",
        "Start from a scenario of the box, then tap spaces: open ground and steps at their level, walls and pillars; move each figure and object to its space; size the map, name the scenario and its sides, and set each side's goal (its goal spaces tapped on the map), its points and the turns. The rest of the box stays as bundled.",
        &start,
    )
}

fn bundled_pack(kind: &str) -> serde_json::Value {
    tabletape_engine::kind(kind)
        .map(|k| k.default_pack())
        .unwrap_or_default()
}

/// Each entry of a bundled pack's `list` with only `fields`.
fn fields_of(pack: &serde_json::Value, list: &str, fields: &[&str]) -> Vec<serde_json::Value> {
    pack[list]
        .as_array()
        .into_iter()
        .flatten()
        .map(|entry| {
            fields
                .iter()
                .map(|f| (f.to_string(), entry[*f].clone()))
                .collect::<serde_json::Map<_, _>>()
                .into()
        })
        .collect()
}

/// A drawing page for `kind`: the grid (drawn by `draw.js` from `start`),
/// the pack file it makes, and the new-game form to play on it.
fn draw_page(kind: &str, title: &str, hint: &str, start: &serde_json::Value) -> Response {
    let mut h = String::new();
    let _ = write!(
        h,
        r##"<main id="drawing"><h1>{title}</h1><p class="hint">{hint} Then save the pack file to share, or start a game on it below.</p>
<div id="draw" data-kind="{kind}" data-start="{start}"></div>
<p><label for="drawn-pack">The pack file</label><textarea id="drawn-pack" data-kind="{kind}" rows="4" readonly></textarea></p>
<p><a id="save-pack" download="our-{kind}.pack.json" href="#">Save the pack file</a></p>
<section id="new" aria-label="new game on this drawing"><h2>A game on it</h2>"##,
        title = esc(title),
        hint = esc(hint),
        kind = esc(kind),
        start = esc(&start.to_string())
    );
    h += &new_game_form();
    h += r#"</section></main><script src="/assets/draw.js" defer></script>"#;
    html(StatusCode::OK, title, &h)
}
