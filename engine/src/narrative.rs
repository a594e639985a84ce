//! A game's story: narration lines grouped into chapters, in four formats.

use serde::{Deserialize, Serialize};
use tabletape_events::Event;

use crate::error::EngineError;
use crate::game::Game;
use crate::rules::Viewer;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chapter {
    pub heading: String,
    pub lines: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narrative {
    pub title: String,
    pub chapters: Vec<Chapter>,
    /// The closing: outcome, scores, experience.
    pub epilogue: Vec<String>,
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

    /// [`Narrative::tell`] as `viewer` may know the story. A history that ends
    /// the game is told in full to everyone: the secrets are out.
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
        let mut events = events.into_iter();
        let first = events.next().ok_or(EngineError::BadEvent {
            seq: 1,
            message: "an empty history has no story".into(),
        })?;
        let mut game = Game::from_first(first)?;
        let mut chapters: Vec<Chapter> = Vec::new();
        for event in events {
            let heading = game.chapter();
            let lines = game.apply_as(event, viewer)?;
            if lines.is_empty() {
                continue;
            }
            match chapters.last_mut() {
                Some(c) if c.heading == heading => c.lines.extend(lines),
                _ => chapters.push(Chapter { heading, lines }),
            }
        }
        let narrative = Narrative {
            title: title.to_string(),
            chapters,
            epilogue: game.epilogue(),
            over: game.is_over(),
        };
        Ok((narrative, game))
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
        let mut section = |heading: &str, lines: &[String]| {
            sections.push(format!("## {heading}"));
            sections.extend(lines.iter().cloned());
        };
        for c in &self.chapters {
            section(&c.heading, &c.lines);
        }
        if !self.epilogue.is_empty() {
            section(self.closing(), &self.epilogue);
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
        let mut section = |heading: &str, lines: &[String]| {
            out.push_str(&format!(
                "\n{heading}\n{}\n",
                "-".repeat(heading.chars().count())
            ));
            for l in lines {
                out.push_str(l);
                out.push('\n');
            }
        };
        for c in &self.chapters {
            section(&c.heading, &c.lines);
        }
        if !self.epilogue.is_empty() {
            section(self.closing(), &self.epilogue);
        }
        out
    }

    fn html(&self) -> String {
        let mut out =
            String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.push_str(&format!("<title>{}</title>\n", escape(&self.title)));
        out.push_str(
            "<style>body{font-family:Georgia,serif;max-width:42em;margin:2em auto;line-height:1.5;padding:0 1em}\
             h1{border-bottom:2px solid #444}h2{color:#633;margin-top:1.6em}</style>\n",
        );
        out.push_str("</head>\n<body>\n");
        out.push_str(&format!("<h1>{}</h1>\n", escape(&self.title)));
        let mut section = |heading: &str, lines: &[String]| {
            out.push_str(&format!("<section>\n<h2>{}</h2>\n", escape(heading)));
            for l in lines {
                out.push_str(&format!("<p>{}</p>\n", escape(l)));
            }
            out.push_str("</section>\n");
        };
        for c in &self.chapters {
            section(&c.heading, &c.lines);
        }
        if !self.epilogue.is_empty() {
            section(self.closing(), &self.epilogue);
        }
        out.push_str("</body>\n</html>\n");
        out
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Narrative {
        Narrative {
            title: "A <duel>".into(),
            chapters: vec![Chapter {
                heading: "Exchange 1".into(),
                lines: vec!["Nowa & Grim circle.".into()],
            }],
            epilogue: vec!["Nowa wins.".into()],
            over: true,
        }
    }

    #[test]
    fn a_game_in_play_closes_with_so_far_not_the_end() {
        let n = Narrative {
            over: false,
            ..sample()
        };
        for format in [Format::Markdown, Format::Text, Format::Html] {
            let told = n.render(format);
            assert!(told.contains("So far"), "{told}");
            assert!(!told.contains("The end"), "{told}");
        }
    }

    #[test]
    fn formats_render_every_line() {
        let n = sample();
        let md = n.render(Format::Markdown);
        assert_eq!(
            md,
            "# A <duel>\n\n## Exchange 1\n\nNowa & Grim circle.\n\n## The end\n\nNowa wins.\n"
        );
        let txt = n.render(Format::Text);
        assert!(
            txt.starts_with("A <duel>\n========\n\nExchange 1\n----------\nNowa & Grim circle.\n")
        );
        let html = n.render(Format::Html);
        assert!(html.contains("<title>A &lt;duel&gt;</title>"));
        assert!(html.contains("<p>Nowa &amp; Grim circle.</p>"));
        let json: Narrative = serde_json::from_str(&n.render(Format::Json)).unwrap();
        assert_eq!(json, n);
    }

    #[test]
    fn format_names() {
        assert_eq!("md".parse::<Format>(), Ok(Format::Markdown));
        assert!("pdf"
            .parse::<Format>()
            .unwrap_err()
            .contains("md, txt, html or json"));
    }
}
