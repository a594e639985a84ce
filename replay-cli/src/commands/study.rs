//! The commands for studying a game: `note`, `rename` and `compare`.

use std::io::Write;

use tabletape_engine::Viewer;
use tabletape_store::{Access, Acted, Comparison, LineOutcome, NameRequest, NoteRequest};

use super::{print_json, viewer_of};
use crate::cli::{CompareArgs, NoteArgs, RenameArgs};
use crate::error::CliError;
use crate::table::Table;

type Result<T> = std::result::Result<T, CliError>;

/// Who writes: the owner, or the seat `--as` names.
fn writer(table: &dyn Table, game: &str, given: Option<&str>) -> Result<Access> {
    Ok(match viewer_of(table, game, given)? {
        Viewer::Owner => Access::Owner,
        Viewer::Seat(s) => Access::Seat(s),
        Viewer::Public => Access::Public,
    })
}

fn written(out: &mut dyn Write, acted: &Acted, json: bool) -> Result<()> {
    if json {
        return print_json(out, acted);
    }
    // Like `act`: the seq, then what happened.
    writeln!(out, "seq {}", acted.seq)?;
    for line in &acted.narration {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

pub(crate) fn note(table: &dyn Table, a: NoteArgs, out: &mut dyn Write, json: bool) -> Result<()> {
    let by = writer(table, &a.game, a.viewer.as_deref())?;
    let req = NoteRequest {
        branch: Some(table.line(&a.game, a.branch)?),
        at: a.at,
        title: a.title,
        text: a.text.unwrap_or_default(),
        private: a.private,
        expect_seq: None,
        idempotency_key: None,
    };
    let acted = table.note(&a.game, req, by)?;
    written(out, &acted, json)
}

pub(crate) fn rename(
    table: &dyn Table,
    a: RenameArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let by = writer(table, &a.game, a.viewer.as_deref())?;
    let req = NameRequest {
        branch: Some(a.branch),
        title: a.title,
        description: a.description,
    };
    let acted = table.name_branch(&a.game, req, by)?;
    written(out, &acted, json)
}

pub(crate) fn compare(
    table: &dyn Table,
    a: CompareArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    let c = table.compare(&a.game, &a.a, &a.b, viewer)?;
    if json {
        return print_json(out, &c);
    }
    write!(out, "{}", told(&c))?;
    Ok(())
}

/// A comparison as the terminal tells it: where the lines part, each
/// line's story and ending, then the differences at their heads.
fn told(c: &Comparison) -> String {
    let mut s = String::new();
    let shared = match c.common_seq {
        0 => "They share no event.".to_string(),
        n => format!("They share seqs 1 to {n} (branch {}).", c.common_branch),
    };
    s.push_str(&format!(
        "Lines {} and {} of game {}\n{shared}",
        c.a.branch, c.b.branch, c.game
    ));
    match c.parts_at {
        Some(seq) => s.push_str(&format!(" They part at seq {seq}.\n")),
        None => s.push_str(" Neither goes on from there.\n"),
    }
    for line in [&c.a, &c.b] {
        s.push('\n');
        s.push_str(&line_told(line));
    }
    s.push_str(&format!(
        "\nDifferences at the heads ({} | {}):\n",
        c.a.branch, c.b.branch
    ));
    if c.differences.is_empty() {
        s.push_str("  none: the two heads' states are the same\n");
    }
    let shown = |v: &Option<serde_json::Value>| {
        v.as_ref()
            .map_or_else(|| "(none)".to_string(), |v| v.to_string())
    };
    for d in &c.differences {
        s.push_str(&format!(
            "  {}: {} | {}\n",
            d.path,
            shown(&d.a),
            shown(&d.b)
        ));
    }
    s
}

fn line_told(line: &LineOutcome) -> String {
    let mut s = line.branch.clone();
    if let Some(title) = &line.title {
        s.push_str(&format!(" \"{title}\""));
    }
    let state = if line.over { "over" } else { "in play" };
    s.push_str(&format!(" (head seq {}, {state})\n", line.head_seq));
    if line.story.is_empty() {
        s.push_str("  nothing after the lines part\n");
    }
    for l in &line.story {
        s.push_str(&format!("  {l}\n"));
    }
    if line.over {
        for l in &line.closing {
            s.push_str(&format!("  = {l}\n"));
        }
    }
    s
}
