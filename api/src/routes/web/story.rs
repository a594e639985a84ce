//! The story page: a line told chapter by chapter, each ending with its
//! table, drawn for its viewer.

use super::*;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct StoryQuery {
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
pub(crate) async fn story_page(
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
