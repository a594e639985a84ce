//! Reading games: the list, a game's log, its state, its replay, its
//! branches and its story, each shaped for the viewer `--as` names.

use super::*;

pub(super) fn games(table: &dyn Table, out: &mut dyn Write, json: bool) -> Result<()> {
    let games = table.games()?;
    if json {
        return print_json(out, &games);
    }
    if games.is_empty() {
        writeln!(
            out,
            "No games yet. Start one: tabletape new lostworlds --player A --player B"
        )?;
        return Ok(());
    }
    let rows: Vec<Vec<String>> = games
        .iter()
        .map(|g| {
            vec![
                g.game.clone(),
                g.kind.clone(),
                g.seq.to_string(),
                g.branches.to_string(),
                if g.over { "over" } else { "in play" }.to_string(),
                show::utc(g.created_at_ms),
                g.players.join(", "),
                g.title.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let mut heads = vec![
        "GAME",
        "KIND",
        "SEQ",
        "BRANCHES",
        "STATUS",
        "CREATED (UTC)",
        "PLAYERS",
        "TITLE",
    ];
    // The title column only when some game has one.
    let titled = games.iter().any(|g| g.title.is_some());
    let rows: Vec<Vec<String>> = rows
        .into_iter()
        .map(|mut r| {
            if !titled {
                r.pop();
            }
            r
        })
        .collect();
    if !titled {
        heads.pop();
    }
    write!(out, "{}", show::table(&heads, &rows))?;
    Ok(())
}

/// The short name of what an event did: its body type, and the action's own
/// type (a hidden action still shows its type).
fn event_type(body: &Value) -> String {
    let kind = body.get("type").and_then(Value::as_str).unwrap_or("event");
    match body
        .get("action")
        .and_then(|a| a.get("type"))
        .and_then(Value::as_str)
    {
        Some(t) => format!("{kind}: {t}"),
        None => kind.to_string(),
    }
}

/// The parts of an event the reader may not see (sealed: only their
/// commitment is shown), or `-`.
fn sealed_parts(event: &ShownEvent) -> String {
    let hidden: Vec<&str> = event
        .seals
        .iter()
        .filter(|s| s.salt.is_none())
        .map(|s| s.part.as_str())
        .collect();
    if hidden.is_empty() {
        "-".to_string()
    } else {
        hidden.join(", ")
    }
}

pub(super) fn log(table: &dyn Table, a: LogArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let events = table.events_as(&a.game, &branch, viewer)?;
    if json {
        return print_json(out, &events);
    }
    let players = players(table, &a.game)?;
    // Every part is open to the owner: the column only speaks for other readers.
    let sealed = viewer != Viewer::Owner;
    let rows: Vec<Vec<String>> = events
        .iter()
        .map(|e| {
            let mut row = vec![
                e.seq.to_string(),
                show::utc(e.recorded_at_ms),
                show::actor(&e.actor, &players),
                event_type(&e.body),
                e.hash.chars().take(12).collect(),
            ];
            if sealed {
                row.push(sealed_parts(e));
            }
            row
        })
        .collect();
    let mut header = vec!["SEQ", "TIME (UTC)", "ACTOR", "TYPE", "HASH"];
    if sealed {
        header.push("SEALED (hidden from this reader)");
    }
    write!(out, "{}", show::table(&header, &rows))?;
    Ok(())
}

pub(super) fn state(
    table: &dyn Table,
    a: StateArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let view = table.state(&a.game, &branch, a.at, viewer)?;
    if json {
        return print_json(out, &view);
    }
    let status = if view.over { "over" } else { "in play" };
    let chapter = if view.chapter.is_empty() {
        String::new()
    } else {
        format!(" · {}", view.chapter)
    };
    let seen_by = if viewer == Viewer::Owner {
        String::new()
    } else {
        format!(" · as {}", show::viewer(viewer, &players(table, &a.game)?))
    };
    let named = match table.title(&a.game)? {
        Some(title) => format!(" \"{title}\""),
        None => String::new(),
    };
    writeln!(
        out,
        "{}{named} · {} · branch {} · seq {}{chapter} · {status}{seen_by}",
        view.game, view.kind, view.branch, view.seq
    )?;
    writeln!(out)?;
    write!(out, "{}", view.text)?;
    if !view.text.ends_with('\n') {
        writeln!(out)?;
    }
    Ok(())
}

pub(super) fn replay(
    table: &dyn Table,
    a: ReplayArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let steps = table.replay(&a.game, &branch, a.to, viewer)?;
    if json {
        return print_json(out, &steps);
    }
    let players = players(table, &a.game)?;
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let chapter = if step.chapter.is_empty() {
            String::new()
        } else {
            format!(" · {}", step.chapter)
        };
        writeln!(
            out,
            "{}",
            paint::out(
                paint::HEAD,
                format!(
                    "── seq {} · {}{chapter}",
                    step.seq,
                    show::actor(&step.actor, &players)
                )
            )
        )?;
        if let Some(action) = &step.action {
            writeln!(
                out,
                "  {}",
                paint::out(
                    paint::DIM,
                    format!(
                        "> {}",
                        serde_json::to_string(action).expect("actions serialize")
                    )
                )
            )?;
        }
        for line in &step.narration {
            writeln!(out, "  {line}")?;
        }
        for change in &step.changes {
            writeln!(out, "  {}", paint::out(paint::DIM, format!("Δ {change}")))?;
        }
    }
    Ok(())
}

pub(super) fn branches(
    table: &dyn Table,
    a: BranchesArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let branches = table.branches_as(&a.game, viewer)?;
    if json {
        return print_json(out, &branches);
    }
    let nodes: Vec<BranchNode> = branches
        .into_iter()
        .map(|b| BranchNode {
            name: b.name,
            parent: b.parent,
            fork_seq: b.fork_seq,
            head_seq: b.head_seq,
            reseeded: b.reseeded || b.reseed.is_some(),
            reseed: b.reseed,
            created_at_ms: b.created_at_ms,
            taken_back: b.taken_back,
            title: b.title,
            description: b.description,
            notes: b.notes.iter().map(|n| n.line()).collect(),
        })
        .collect();
    write!(out, "{}", show::branch_tree(&nodes))?;
    Ok(())
}

pub(super) fn narrate(
    table: &dyn Table,
    a: NarrateArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let mut narrative = if a.variations {
        table.narrate_with_variations(&a.game, &branch, viewer)?
    } else {
        table.narrate_as(&a.game, &branch, viewer)?
    };
    if let Some(title) = a.title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        narrative.title = title.to_string();
    }
    // `--json` asks for machine output, so on stdout the story itself is JSON.
    let format = match (a.format, json && a.out.is_none()) {
        (_, true) | (FormatArg::Json, _) => Format::Json,
        (FormatArg::Md, _) => Format::Markdown,
        (FormatArg::Txt, _) => Format::Text,
        (FormatArg::Html, _) => Format::Html,
    };
    if a.record && matches!(format, Format::Markdown | Format::Text) {
        narrative = narrative.with_record();
    }
    let text = narrative.render(format);
    match &a.out {
        None => write!(out, "{text}")?,
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| CliError::file(path, e))?;
            if json {
                print_json(
                    out,
                    &json!({"game": a.game, "branch": branch, "out": path, "bytes": text.len(), "chapters": narrative.chapters.len()}),
                )?;
            } else {
                writeln!(
                    out,
                    "wrote {} ({} chapters, {} bytes)",
                    path.display(),
                    narrative.chapters.len(),
                    text.len()
                )?;
            }
        }
    }
    Ok(())
}
