//! A game's story: narration lines grouped into chapters, in four formats.

use serde::{Deserialize, Serialize};
use tabletape_events::{Body, Event};

use crate::error::EngineError;
use crate::game::{Game, Told};
use crate::notes::{self, NoteMark};
use crate::rules::Viewer;
use crate::svg::escape;

/// Something told beside the story at one moment: a reader's note, or a
/// line of play that parted from this one there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Aside {
    /// The seq of the moment it is told beside.
    pub at: u64,
    /// How many of the chapter's lines come before it.
    pub after: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<NoteMark>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variation: Option<Variation>,
}

/// Another line of play, told as a chess book tells a variation: from the
/// moment it parts from the line told, briefly, with how it came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Variation {
    pub branch: String,
    /// The last seq the two lines share.
    pub at: u64,
    /// The branch's name at the table, and what it is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its story from where it parts (the first [`VARIATION_LINES`]).
    pub lines: Vec<String>,
    /// How many more lines its story has than the aside tells.
    #[serde(default)]
    pub more: usize,
    pub head_seq: u64,
    pub over: bool,
    /// Its closing, when the game ended on it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outcome: Vec<String>,
}

/// The most lines of a variation's story an aside tells.
pub const VARIATION_LINES: usize = 12;

/// Marks a narration line as the record's: bookkeeping a story keeps
/// beside its prose, not in it. A unit separator, which no text a table
/// types may hold (free text with control characters is refused), so no
/// line is mistaken for one; the mark never leaves the engine.
const RECORD: char = '\u{1f}';

/// A line for the record, not the story: page and picture numbers,
/// coordinates, dice arithmetic, tallies, seals. A kind's `narrate` returns
/// it among its lines; the story keeps it apart (see [`Chapter::record`]),
/// and a replay step tells it in full.
pub fn record(line: impl Into<String>) -> String {
    let line = line.into();
    let mut marked = String::with_capacity(line.len() + 1);
    marked.push(RECORD);
    marked.push_str(&line);
    marked
}

/// The record line `line` holds, if it is one (see [`record`]).
pub fn recorded(line: &str) -> Option<&str> {
    line.strip_prefix(RECORD)
}

/// A fact's lines when its story and its full telling differ: the story,
/// then each line of the full telling the story does not already hold, as
/// the record's (the numbers a replay step still shows).
pub fn story_and_record(story: Vec<String>, full: Vec<String>) -> Vec<String> {
    let mut lines = story;
    for line in full {
        if !lines.contains(&line) {
            lines.push(record(line));
        }
    }
    lines
}

/// A line as told to a reader: a record line without its mark.
pub fn plain(mut line: String) -> String {
    if line.starts_with(RECORD) {
        line.remove(0);
    }
    line
}

impl Variation {
    /// The variation's heading: where it parts and what it is called.
    pub fn heading(&self) -> String {
        match &self.title {
            Some(t) => format!("Variation at seq {}: {t} (branch {})", self.at, self.branch),
            None => format!("Variation at seq {}: branch {}", self.at, self.branch),
        }
    }

    /// How the line came out, or where it stands.
    pub fn closing(&self) -> String {
        if self.over {
            format!("That line ends: {}", self.outcome.join(" "))
        } else {
            format!("That line stands at seq {}, still in play.", self.head_seq)
        }
    }

    fn more_line(&self) -> Option<String> {
        (self.more > 0).then(|| format!("({} more lines on branch {}.)", self.more, self.branch))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Chapter {
    pub heading: String,
    /// Paragraphs; a line starting "- " is an item of a list.
    pub lines: Vec<String>,
    /// The table as the chapter left it (SVG markup, see
    /// [`Game::chapter_map`]): drawn in the HTML story, carried in the JSON
    /// one so a client can draw it too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<String>,
    /// The seqs of the first and last events told under this heading (0
    /// for a section that is no stretch of the log, such as the appendix's).
    #[serde(default)]
    pub first: u64,
    #[serde(default)]
    pub last: u64,
    /// Notes and variations told beside the chapter's lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asides: Vec<Aside>,
    /// The chapter's bookkeeping, in order: what the story leaves out of
    /// its prose (page and picture numbers, coordinates, dice arithmetic,
    /// tallies) and keeps here for whoever wants the detail.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub record: Vec<String>,
}

impl Chapter {
    pub fn new(heading: impl Into<String>, lines: Vec<String>) -> Chapter {
        Chapter {
            heading: heading.into(),
            lines,
            figure: None,
            first: 0,
            last: 0,
            asides: Vec::new(),
            record: Vec::new(),
        }
    }

    /// The chapter's lines and asides as HTML: paragraphs, lists, each note
    /// as an `<aside>`, each variation folded in a `<details>` to open.
    pub fn body_html(&self) -> String {
        let mut out = String::new();
        for (lines, asides) in self.runs() {
            html_blocks(&mut out, lines);
            for a in asides {
                aside_html(&mut out, a);
            }
        }
        out
    }

    /// The chapter's lines cut where asides stand, each run of lines with
    /// the asides told after it.
    fn runs(&self) -> Vec<(&[String], Vec<&Aside>)> {
        let mut out = Vec::new();
        let mut from = 0;
        let mut asides = self.asides.iter().peekable();
        while from < self.lines.len() || asides.peek().is_some() {
            let to = asides
                .peek()
                .map_or(self.lines.len(), |a| a.after.clamp(from, self.lines.len()));
            let mut here = Vec::new();
            while let Some(a) = asides.next_if(|a| a.after.clamp(from, self.lines.len()) == to) {
                here.push(a);
            }
            out.push((&self.lines[from..to], here));
            from = to;
            if from == self.lines.len() && asides.peek().is_none() {
                break;
            }
        }
        out
    }

    /// The chapter's lines as paragraphs and lists.
    pub fn blocks(&self) -> Vec<Block<'_>> {
        blocks(&self.lines)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Narrative {
    pub title: String,
    pub chapters: Vec<Chapter>,
    /// The closing: outcome, scores, experience.
    pub epilogue: Vec<String>,
    /// What follows the closing, section by section (see
    /// [`crate::rules::Rules::appendix`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub appendix: Vec<Chapter>,
    /// Whether the game has ended: the closing is "The end" then, and
    /// "So far" while the game is in play.
    #[serde(default)]
    pub over: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Text,
    Html,
    Json,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "md" | "markdown" => Ok(Format::Markdown),
            "txt" | "text" => Ok(Format::Text),
            "html" => Ok(Format::Html),
            "json" => Ok(Format::Json),
            other => Err(format!(
                "unknown narrative format `{other}`: use md, txt, html or json"
            )),
        }
    }
}

impl Narrative {
    /// Folds a history, collecting every event's narration under its chapter.
    pub fn tell<'a>(
        title: &str,
        events: impl IntoIterator<Item = &'a Event>,
    ) -> Result<(Narrative, Game), EngineError> {
        Self::tell_as(title, events, Viewer::Owner)
    }

    /// [`Narrative::tell`] as `viewer` may know the story of a history that
    /// is the whole game: one that ends it is told in full to everyone, the
    /// secrets are out. (A journal with other lines judges that itself and
    /// calls [`Narrative::tell_with`].)
    pub fn tell_as<'a>(
        title: &str,
        events: impl IntoIterator<Item = &'a Event>,
        viewer: Viewer,
    ) -> Result<(Narrative, Game), EngineError> {
        let events: Vec<&Event> = events.into_iter().collect();
        let viewer = if viewer == Viewer::Owner {
            viewer
        } else {
            Game::fold(events.iter().copied())?.effective_viewer(viewer)
        };
        Self::tell_with(title, events, viewer, Vec::new())
    }

    /// The story as `viewer` (taken as given) may know it, with other lines
    /// of play told beside the moments they part at (each variation's `at`).
    /// Notes the viewer may read are told beside the moments they mark.
    pub fn tell_with<'a>(
        title: &str,
        events: impl IntoIterator<Item = &'a Event>,
        viewer: Viewer,
        variations: Vec<Variation>,
    ) -> Result<(Narrative, Game), EngineError> {
        let mut events = events.into_iter();
        let first = events.next().ok_or(EngineError::BadEvent {
            seq: 1,
            message: "an empty history has no story".into(),
        })?;
        Self::tell_from(title, Game::from_first(first)?, events, viewer, variations)
    }

    /// [`Narrative::tell_with`] from a game already laid out by its
    /// creation (`start`, at seq 1) and the events after it: a journal
    /// keeps that start, and need not read and parse the content pack in
    /// event 1 again for every story it tells.
    pub fn tell_from<'a>(
        title: &str,
        start: Game,
        events: impl IntoIterator<Item = &'a Event>,
        viewer: Viewer,
        variations: Vec<Variation>,
    ) -> Result<(Narrative, Game), EngineError> {
        let mut game = start;
        let mut chapters: Vec<Chapter> = Vec::new();
        // The game as its setup laid it out, where no fact tells it.
        let (record, opening): (Vec<String>, Vec<String>) = game
            .prologue()
            .into_iter()
            .partition(|l| recorded(l).is_some());
        if !opening.is_empty() || !record.is_empty() {
            chapters.push(Chapter {
                first: 1,
                last: 1,
                record: record.into_iter().map(plain).collect(),
                ..Chapter::new(game.chapter(), opening)
            });
        }
        // The heading of the event before, to see a chapter close; the
        // paragraph the last told lines went into.
        let mut previous: Option<String> = None;
        let mut paragraph: Option<String> = None;
        // The seqs of the events told under the heading now, first and last.
        let mut stretch = (0, 0);
        // Where each moment's telling ended (seq, chapter, lines), so an
        // aside about it is told just after; and the asides to place.
        let mut moments: Vec<(u64, usize, usize)> = vec![(1, 0, 0)];
        let mut asides: Vec<Aside> = Vec::new();
        for event in events {
            if let Body::Noted(note) = &event.body {
                game.apply(event)?;
                if notes::readable(event.actor, note.private, viewer) {
                    let mark = game.notes().last().cloned();
                    asides.push(Aside {
                        at: note.at,
                        after: 0,
                        note: mark,
                        variation: None,
                    });
                }
                continue;
            }
            if matches!(event.body, Body::BranchNamed(_)) {
                game.apply(event)?;
                continue;
            }
            let heading = game.chapter();
            if let Some(left) = previous.as_ref().filter(|h| **h != heading) {
                quiet(&mut chapters, &game, left, stretch);
                close(&mut chapters, &game, viewer);
                stretch = (event.seq, event.seq);
            }
            if stretch.0 == 0 {
                stretch.0 = event.seq;
            }
            stretch.1 = event.seq;
            let key = game.paragraph();
            let Told {
                story: lines,
                record,
            } = game.apply_told(event, viewer)?;
            previous = Some(heading.clone());
            if !record.is_empty() {
                // The record is kept under the chapter it belongs to, even
                // one whose story has yet to be told.
                if chapters.last().is_none_or(|c| c.heading != heading) {
                    chapters.push(Chapter {
                        first: event.seq,
                        last: event.seq,
                        ..Chapter::new(heading.clone(), Vec::new())
                    });
                }
                let c = chapters.last_mut().expect("a chapter was just made");
                c.record.extend(record);
            }
            if let Some(c) = chapters.last_mut().filter(|c| c.heading == heading) {
                c.last = event.seq;
            }
            if lines.is_empty() {
                if let Some(c) = chapters.last() {
                    moments.push((event.seq, chapters.len() - 1, c.lines.len()));
                }
                continue;
            }
            let lines = match key {
                None => lines,
                Some(_) => vec![lines.join(" ")],
            };
            match chapters.last_mut() {
                Some(c) if c.heading == heading => match c.lines.last_mut() {
                    Some(last) if key.is_some() && key == paragraph => {
                        last.push(' ');
                        last.push_str(&lines[0]);
                    }
                    _ => c.lines.extend(lines),
                },
                _ => chapters.push(Chapter {
                    first: event.seq,
                    last: event.seq,
                    ..Chapter::new(heading, lines)
                }),
            }
            paragraph = key;
            let c = chapters.last().expect("a chapter was just told into");
            moments.push((event.seq, chapters.len() - 1, c.lines.len()));
        }
        if let Some(left) = &previous {
            quiet(&mut chapters, &game, left, stretch);
        }
        close(&mut chapters, &game, viewer);
        asides.extend(variations.into_iter().map(|v| Aside {
            at: v.at,
            after: 0,
            note: None,
            variation: Some(v),
        }));
        place(&mut chapters, &moments, asides, &game);
        let narrative = Narrative {
            title: title.to_string(),
            chapters,
            epilogue: {
                let mut closing = game.epilogue();
                closing.extend(game.dice_state().told().map(str::to_string));
                closing
            },
            appendix: game
                .appendix()
                .into_iter()
                .map(|(heading, lines)| Chapter::new(heading, lines))
                .collect(),
            over: game.is_over(),
        };
        Ok((narrative, game))
    }

    /// The story with each chapter's record told after its prose, as a
    /// list under "The record:" (the details mode of a story's text).
    pub fn with_record(&self) -> Narrative {
        let mut full = self.clone();
        for c in &mut full.chapters {
            if c.record.is_empty() {
                continue;
            }
            c.lines.push("The record:".into());
            c.lines.extend(
                std::mem::take(&mut c.record)
                    .into_iter()
                    .map(|l| format!("- {l}")),
            );
        }
        full
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Markdown => self.markdown(),
            Format::Text => self.text(),
            Format::Html => self.html(),
            Format::Json => {
                serde_json::to_string_pretty(self).expect("narratives serialize") + "\n"
            }
        }
    }

    /// The heading of the closing section.
    fn closing(&self) -> &'static str {
        if self.over {
            "The end"
        } else {
            "So far"
        }
    }

    fn markdown(&self) -> String {
        let mut sections = vec![format!("# {}", self.title)];
        let section = |sections: &mut Vec<String>, heading: String, lines: &[String]| {
            if !heading.is_empty() {
                sections.push(heading);
            }
            sections.extend(blocks(lines).into_iter().map(block_markdown));
        };
        for c in &self.chapters {
            sections.push(format!("## {}", c.heading));
            for (lines, asides) in c.runs() {
                section(&mut sections, String::new(), lines);
                sections.extend(asides.into_iter().map(aside_markdown));
            }
        }
        if !self.epilogue.is_empty() {
            section(
                &mut sections,
                format!("## {}", self.closing()),
                &self.epilogue,
            );
        }
        if !self.appendix.is_empty() {
            sections.push("## Appendix".into());
            for c in &self.appendix {
                let items: Vec<String> = c.lines.iter().map(|l| format!("- {l}")).collect();
                section(&mut sections, format!("### {}", c.heading), &items);
            }
        }
        // One blank line between paragraphs and headings, as Markdown reads best.
        sections.join("\n\n") + "\n"
    }

    fn text(&self) -> String {
        let mut out = format!(
            "{}\n{}\n",
            self.title,
            "=".repeat(self.title.chars().count())
        );
        let section = |out: &mut String, heading: Option<&str>, lines: &[String]| {
            if let Some(heading) = heading {
                // An aside just told already left a blank line.
                if !out.ends_with("\n\n") {
                    out.push('\n');
                }
                out.push_str(&format!(
                    "{heading}\n{}\n",
                    "-".repeat(heading.chars().count())
                ));
            }
            // Short lines stay a line each; a paragraph long enough to wrap
            // is set apart by blank lines, as plain text reads.
            let mut apart = false;
            for b in blocks(lines) {
                match b {
                    Block::Paragraph(p) if p.chars().count() > WIDTH => {
                        if !out.ends_with("-\n") && !out.ends_with("\n\n") {
                            out.push('\n');
                        }
                        out.push_str(p);
                        out.push('\n');
                        apart = true;
                    }
                    Block::Paragraph(p) => {
                        if apart {
                            out.push('\n');
                            apart = false;
                        }
                        out.push_str(p);
                        out.push('\n');
                    }
                    Block::List(items) => {
                        if apart {
                            out.push('\n');
                        }
                        for i in items {
                            out.push_str(&format!("- {i}\n"));
                        }
                        apart = true;
                    }
                }
            }
        };
        for c in &self.chapters {
            for (i, (lines, asides)) in c.runs().into_iter().enumerate() {
                section(&mut out, (i == 0).then_some(c.heading.as_str()), lines);
                for a in asides {
                    if !out.ends_with("\n\n") && !out.ends_with("-\n") {
                        out.push('\n');
                    }
                    for l in aside_lines(a) {
                        out.push_str(&format!("    | {l}\n"));
                    }
                    out.push('\n');
                }
            }
        }
        if !self.epilogue.is_empty() {
            section(&mut out, Some(self.closing()), &self.epilogue);
        }
        if !self.appendix.is_empty() {
            out.push_str("\nAppendix\n--------\n");
            for c in &self.appendix {
                out.push_str(&format!("\n{}:\n", c.heading));
                for l in &c.lines {
                    out.push_str(&format!("- {l}\n"));
                }
            }
        }
        out
    }

    fn html(&self) -> String {
        let mut out =
            String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.push_str(&format!("<title>{}</title>\n", escape(&self.title)));
        out.push_str(
            "<style>body{font-family:Georgia,serif;max-width:42em;margin:2em auto;line-height:1.5;padding:0 1em}\
             h1{border-bottom:2px solid #444}h2{color:#633;margin-top:1.6em}\
             figure{margin:1em 0}figure img{width:100%;height:auto}\
             figcaption{font-size:.9em;color:#555;text-align:center}\
             aside.note{border-left:3px solid #b84;padding:0 .8em;color:#444;font-style:italic}\
             details.variation{border-left:3px solid #468;background:#f5f7fa;padding:.3em .8em;margin:1em 0}\
             details.variation summary{cursor:pointer;color:#246}\
             details.record{font-size:.85em;color:#555;margin:.6em 0}details.record summary{cursor:pointer}</style>\n",
        );
        out.push_str("</head>\n<body>\n");
        out.push_str(&format!("<h1>{}</h1>\n", escape(&self.title)));
        let section = |out: &mut String,
                       tag: &str,
                       heading: &str,
                       runs: Vec<(&[String], Vec<&Aside>)>,
                       record: &[String],
                       figure: Option<&str>| {
            out.push_str(&format!("<section>\n<{tag}>{}</{tag}>\n", escape(heading)));
            for (lines, asides) in runs {
                html_blocks(out, lines);
                for a in asides {
                    aside_html(out, a);
                }
            }
            record_html(out, record);
            if let Some(svg) = figure {
                // An image, not inline SVG: each chapter's drawing keeps its
                // own ids and styles.
                let caption = format!("The table at the end of {heading}");
                out.push_str(&format!(
                    "<figure><img src=\"data:image/svg+xml,{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n",
                    data_url(svg),
                    escape(&caption),
                    escape(&caption)
                ));
            }
            out.push_str("</section>\n");
        };
        for c in &self.chapters {
            section(
                &mut out,
                "h2",
                &c.heading,
                c.runs(),
                &c.record,
                c.figure.as_deref(),
            );
        }
        if !self.epilogue.is_empty() {
            let runs = vec![(self.epilogue.as_slice(), Vec::new())];
            section(&mut out, "h2", self.closing(), runs, &[], None);
        }
        if !self.appendix.is_empty() {
            out.push_str("<h2>Appendix</h2>\n");
            for c in &self.appendix {
                let items: Vec<String> = c.lines.iter().map(|l| format!("- {l}")).collect();
                section(
                    &mut out,
                    "h3",
                    &c.heading,
                    vec![(&items, Vec::new())],
                    &[],
                    None,
                );
            }
        }
        out.push_str("</body>\n</html>\n");
        out
    }
}

/// Puts each aside after the telling of the moment it is about: the last
/// moment told at or before its seq (an action told in no line is told
/// with the one before it).
fn place(
    chapters: &mut Vec<Chapter>,
    moments: &[(u64, usize, usize)],
    asides: Vec<Aside>,
    game: &Game,
) {
    if asides.is_empty() {
        return;
    }
    if chapters.is_empty() {
        chapters.push(Chapter::new(game.chapter(), Vec::new()));
    }
    for mut aside in asides {
        let i = moments
            .partition_point(|m| m.0 <= aside.at)
            .saturating_sub(1);
        let (_, chapter, after) = moments[i];
        let chapter = chapter.min(chapters.len() - 1);
        aside.after = after.min(chapters[chapter].lines.len());
        chapters[chapter].asides.push(aside);
    }
    for c in chapters {
        // Stable: at one moment, notes in the order written, then variations.
        c.asides.sort_by_key(|a| (a.after, a.at));
    }
}

fn block_markdown(b: Block<'_>) -> String {
    match b {
        Block::Paragraph(p) => p.to_string(),
        // A list's items on consecutive lines, so it is one list.
        Block::List(items) => items
            .iter()
            .map(|i| format!("- {i}"))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// An aside's lines as plain text: a note is one line; a variation its
/// heading, description, story (list items kept as such) and closing.
fn aside_lines(a: &Aside) -> Vec<String> {
    if let Some(n) = &a.note {
        return vec![n.line()];
    }
    let Some(v) = &a.variation else {
        return Vec::new();
    };
    let mut out = vec![v.heading()];
    out.extend(v.description.clone());
    out.extend(v.lines.iter().cloned());
    out.extend(v.more_line());
    out.push(v.closing());
    out
}

/// An aside as a Markdown block quote, the variation's heading in bold.
fn aside_markdown(a: &Aside) -> String {
    let Some(v) = &a.variation else {
        return aside_lines(a)
            .into_iter()
            .map(|l| format!("> {l}"))
            .collect::<Vec<_>>()
            .join("\n");
    };
    let mut parts = vec![format!("**{}**", v.heading())];
    parts.extend(v.description.iter().map(|d| format!("*{d}*")));
    parts.extend(blocks(&v.lines).into_iter().map(block_markdown));
    parts.extend(v.more_line());
    parts.push(format!("*{}*", v.closing()));
    parts
        .iter()
        .map(|p| {
            p.lines()
                .map(|l| format!("> {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect::<Vec<_>>()
        .join("\n>\n")
}

fn html_blocks(out: &mut String, lines: &[String]) {
    for b in blocks(lines) {
        match b {
            Block::Paragraph(p) => out.push_str(&format!("<p>{}</p>\n", escape(p))),
            Block::List(items) => {
                out.push_str("<ul>\n");
                for i in items {
                    out.push_str(&format!("<li>{}</li>\n", escape(i)));
                }
                out.push_str("</ul>\n");
            }
        }
    }
}

/// A chapter's record folded away under the prose, for the reader to open.
pub fn record_html(out: &mut String, record: &[String]) {
    if record.is_empty() {
        return;
    }
    out.push_str("<details class=\"record\"><summary>The record</summary>\n<ul>\n");
    for line in record {
        out.push_str(&format!("<li>{}</li>\n", escape(line)));
    }
    out.push_str("</ul>\n</details>\n");
}

/// A note as an aside; a variation folded away under its heading, for the
/// reader to open.
fn aside_html(out: &mut String, a: &Aside) {
    if let Some(n) = &a.note {
        out.push_str(&format!(
            "<aside class=\"note\" id=\"note-{}\"><p>{}</p></aside>\n",
            n.seq,
            escape(&n.line())
        ));
    }
    if let Some(v) = &a.variation {
        out.push_str(&format!(
            "<details class=\"variation\"><summary>{}</summary>\n",
            escape(&v.heading())
        ));
        if let Some(d) = &v.description {
            out.push_str(&format!("<p><em>{}</em></p>\n", escape(d)));
        }
        html_blocks(out, &v.lines);
        if let Some(more) = v.more_line() {
            out.push_str(&format!("<p>{}</p>\n", escape(&more)));
        }
        out.push_str(&format!(
            "<p><strong>{}</strong></p>\n</details>\n",
            escape(&v.closing())
        ));
    }
}

/// Closes the last chapter: the board as it left it, for a kind that shows one.
/// A chapter headed `heading` that passed with nothing told (events `seqs`,
/// first and last) is told as the kind says such a chapter went, so the
/// headings run unbroken; a kind that says nothing leaves it out.
fn quiet(chapters: &mut Vec<Chapter>, game: &Game, heading: &str, seqs: (u64, u64)) {
    if let Some(c) = chapters.last_mut().filter(|c| c.heading == heading) {
        // A chapter that kept only a record told no story either.
        if c.lines.is_empty() {
            c.lines.extend(game.quiet_chapter());
        }
        return;
    }
    if let Some(line) = game.quiet_chapter() {
        chapters.push(Chapter {
            first: seqs.0,
            last: seqs.1,
            ..Chapter::new(heading, vec![line])
        });
    }
}

fn close(chapters: &mut [Chapter], game: &Game, viewer: Viewer) {
    if let Some(c) = chapters.last_mut() {
        if c.figure.is_none() {
            c.figure = Some(game.chapter_map(viewer));
        }
    }
}

/// The width past which a plain-text paragraph is set apart by blank lines
/// (it is not wrapped: a reader's terminal wraps it, and a search finds it).
const WIDTH: usize = 78;

/// A paragraph, or a list's items.
pub enum Block<'a> {
    Paragraph(&'a str),
    List(Vec<&'a str>),
}

/// Lines as paragraphs, consecutive "- " lines gathered into one list.
fn blocks(lines: &[String]) -> Vec<Block<'_>> {
    let mut out: Vec<Block<'_>> = Vec::new();
    for l in lines {
        match (l.strip_prefix("- "), out.last_mut()) {
            (Some(item), Some(Block::List(items))) => items.push(item),
            (Some(item), _) => out.push(Block::List(vec![item])),
            (None, _) => out.push(Block::Paragraph(l)),
        }
    }
    out
}

/// SVG text as the data of a `data:` URL: every byte outside a small safe
/// set percent-encoded (quotes, `#`, `%`, angle brackets, spaces, non-ASCII).
fn data_url(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len() * 5 / 4);
    for b in svg.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/=:;,()!*'".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
