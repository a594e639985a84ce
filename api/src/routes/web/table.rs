//! The table page and its JSON: what lies on the table at a seq, for its
//! viewer, drawn on the server and read without JavaScript.

use super::*;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct TableQuery {
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
pub(crate) async fn table(
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
pub(crate) async fn table_page(
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
pub(super) fn title_of(summary: &GameSummary) -> String {
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
